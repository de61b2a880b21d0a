/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IEEE 802.1Qaz DCBX over IEEE 802.1AB LLDP: building and reading the
 * LLDPDUs that carry a port's PFC and ETS configuration. Pure functions (no
 * I/O), judged by tshark's LLDP dissector and scapy in tests/test_dcbx.
 *
 * An LLDPDU (EtherType 0x88CC, to 01-80-C2-00-00-0E, the nearest bridge
 * group: a bridge never forwards it, so DCBX is per link):
 *   Chassis ID TLV (type 1), Port ID TLV (2), TTL TLV (3), ..., End (0).
 * A TLV header is 16 bits: type (7) and length (9) of the value.
 * 802.1Qaz's TLVs are organizationally specific (type 127), OUI 00-80-C2:
 *   subtype 0x09 ETS Configuration: willing(1) CBS(1) reserved(3)
 *     max TCs(3); priority assignment (8 x 4 bits); TC bandwidth (8
 *     bytes, percent); TSA per TC (8 bytes): 25 octets of value with the
 *     OUI and subtype
 *   subtype 0x0A ETS Recommendation: reserved (1 byte), then the same
 *     three tables: 25 octets
 *   subtype 0x0B PFC Configuration: willing(1) MBC(1) reserved(2) PFC
 *     cap(4); enable (8 bits, bit n = priority n): 6 octets
 *   subtype 0x0C Application Priority: reserved (1 byte), then 3 octets
 *     an entry: priority(3) reserved(2) selector(3), protocol (16 bits;
 *     selector 5 = DSCP, 802.1Qcd): 5 + 3N octets
 * A malformed LLDPDU (802.1AB's TLVs out of order or cut short, no End) is
 * refused whole; a malformed DCBX TLV (its length, a value out of range, a
 * second copy) costs only its own feature (802.1Qaz: each TLV on its own).
 */
#ifndef FLOWCTL_DCBX_H
#define FLOWCTL_DCBX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LLDP_ETHERTYPE		0x88cc
#define LLDP_MAX_FRAME		1514
#define LLDP_DEFAULT_TTL	120	/* msgTxInterval 30 s x msgTxHold 4 */

#define DCBX_SUBTYPE_ETS_CFG	0x09
#define DCBX_SUBTYPE_ETS_REC	0x0a
#define DCBX_SUBTYPE_PFC	0x0b
#define DCBX_SUBTYPE_APP	0x0c

#define DCBX_APP_SEL_DSCP	5	/* the protocol is a DSCP, 0..63 */
#define DCBX_APP_MAX		168	/* (511 - 5) / 3 entries in a TLV */

/* Transmission selection algorithms (802.1Q table 8-6). */
#define DCBX_TSA_STRICT		0
#define DCBX_TSA_CBS		1
#define DCBX_TSA_ETS		2
#define DCBX_TSA_VENDOR		255

extern const uint8_t lldp_nearest_bridge[6];	/* 01:80:c2:00:00:0e */

struct dcbx_pfc {
	bool willing;
	bool mbc;		/* MACsec bypass capability */
	uint8_t cap;		/* PFC-enabled TCs the port can have, 0..8 */
	uint8_t enable;		/* bit n: PFC on priority n */
};

struct dcbx_ets {
	bool willing;		/* configuration TLV only */
	bool cbs;		/* configuration TLV only */
	uint8_t max_tcs;	/* configuration TLV only: 1..8 (8 sent as 0) */
	uint8_t prio_tc[8];	/* traffic class of each priority, 0..7 */
	uint8_t tc_bw[8];	/* percent per traffic class */
	uint8_t tsa[8];		/* DCBX_TSA_* per traffic class */
};

struct dcbx_app_entry {
	uint8_t prio;		/* 0..7 */
	uint8_t sel;		/* 1..7; DCBX_APP_SEL_DSCP */
	uint16_t proto;		/* EtherType, port, or DSCP */
};

/* The Application Priority table (APP TLV). */
struct dcbx_app {
	unsigned int n;
	struct dcbx_app_entry e[DCBX_APP_MAX];
};

/*
 * CEE (DCBX 1.01, "legacy" DCBX): one organizationally specific TLV, OUI
 * 00-1B-21 subtype 2, of sub-TLVs with LLDP's 7+9-bit headers, in this
 * order (lldpad's tlv_dcbx.c, wireshark's packet-lldp.c):
 *   1 Control, 10 octets: oper version, max version, SeqNo, AckNo (32 bits)
 *   2 Priority Groups, 17: feature header (oper version, max version,
 *     flags: enable 0x80 willing 0x40 error 0x20, subtype 0), the PGID of
 *     each priority (4 bits; priority 0 in the high nibble of the first
 *     octet; 15: strict), each PG's percent (8 octets), TCs supported
 *   3 PFC, 6: feature header, enable (bit n = priority n), TCs supported
 *   4 Application, 4 + 6N: feature header, then each entry: protocol (16
 *     bits), selector (2 low bits: 0 EtherType, 1 TCP/UDP port) with the
 *     OUI's 6 high bits, the OUI's other 16 bits, the priorities (bit n)
 */
#define DCBX_CEE_SUBTYPE	2
#define DCBX_CEE_APP_MAX	81	/* (511 - 4 - 12 - 6) / 6 */
#define DCBX_CEE_PG_STRICT	15

struct dcbx_cee_feat {
	bool have;
	uint8_t oper_ver, max_ver;
	bool enable, willing, error;
};

struct dcbx_cee_app {
	uint16_t proto;
	uint8_t sel;		/* 0 EtherType, 1 TCP/UDP port */
	uint8_t oui[3];
	uint8_t prio_map;	/* bit n: priority n */
};

struct dcbx_cee {
	uint8_t oper_ver, max_ver;
	uint32_t seq, ack;
	struct dcbx_cee_feat pg, pfc, app;
	uint8_t pgid[8];	/* each priority's group, 0..7 or 15 */
	uint8_t pg_pct[8];	/* each group's percent */
	uint8_t pg_tcs;
	uint8_t pfc_enable;	/* bit n: priority n */
	uint8_t pfc_tcs;
	unsigned int napp;
	struct dcbx_cee_app apps[DCBX_CEE_APP_MAX];
};

/* The DCBX features, as bits of dcbx_lldpdu.bad. */
enum dcbx_feature {
	DCBX_F_ETS_CFG,
	DCBX_F_ETS_REC,
	DCBX_F_PFC,
	DCBX_F_APP,
	DCBX_F_CEE,		/* the CEE TLV (its Control sub-TLV, or a feature's) */
	DCBX_FEATURES,
};

const char *dcbx_feature_name(enum dcbx_feature f);

/* What one LLDPDU says: identity, TTL and the DCBX TLVs it carried. */
struct dcbx_lldpdu {
	uint8_t chassis_subtype;
	uint8_t chassis_id[255];
	uint8_t chassis_len;
	uint8_t port_subtype;
	uint8_t port_id[255];
	uint8_t port_len;
	uint16_t ttl;		/* 0: the partner is leaving (shutdown) */
	bool have_pfc, have_ets_cfg, have_ets_rec, have_app;
	bool have_cee;		/* a CEE TLV with its Control sub-TLV */
	struct dcbx_pfc pfc;
	struct dcbx_ets ets_cfg;
	struct dcbx_ets ets_rec;
	struct dcbx_app app;
	struct dcbx_cee cee;
	unsigned int unknown_tlvs;	/* other TLVs, skipped */
	uint8_t bad;			/* bit f: feature f's TLV malformed, ignored */
	uint8_t bad_err[DCBX_FEATURES];	/* why: enum dcbx_err */
};

/* Why dcbx_parse() refused a frame (negative errno plus a reason). */
enum dcbx_err {
	DCBX_OK = 0,
	DCBX_NOT_LLDP,		/* not EtherType 0x88CC */
	DCBX_TRUNCATED,		/* a TLV runs past the frame */
	DCBX_BAD_ORDER,		/* Chassis ID, Port ID, TTL not first */
	DCBX_BAD_LENGTH,	/* a TLV's length is wrong for its type */
	DCBX_NO_END,		/* no End TLV */
	DCBX_DUPLICATE,		/* a DCBX TLV twice (802.1Qaz: ignore all) */
	DCBX_BAD_VALUE,		/* a value out of its range (tc, TSA, sum) */
};

const char *dcbx_strerror(enum dcbx_err e);

/*
 * Build the LLDPDU of d (the identity and TTL in d; the DCBX TLVs whose
 * have_* is set) from sa. Chassis ID and Port ID are taken as given.
 * Returns the frame length, or 0 if buf (cap bytes) is too small or d is
 * out of range (a priority's class > 7, ETS shares not summing to 100).
 */
size_t dcbx_build(uint8_t *buf, size_t cap, const uint8_t sa[6],
		  const struct dcbx_lldpdu *d);

/*
 * Read a frame (from its Ethernet header). DCBX_OK also when a DCBX TLV was
 * malformed: that feature's have_* is false, its bit set in bad.
 */
enum dcbx_err dcbx_parse(const uint8_t *frame, size_t len,
			 struct dcbx_lldpdu *d);

/*
 * The ETS tables are well formed: each priority's class is 0..7, each TSA
 * is strict, CBS, ETS or vendor, and the shares sum to 100 (802.1Qaz
 * D.2.9.7), or to 0 when no class uses ETS.
 */
bool dcbx_ets_valid(const struct dcbx_ets *e);

/*
 * What one end of a link does with its own configuration and its partner's
 * (802.1Qaz's PFC and ETS state machines, as lldpad implements them).
 * PFC is symmetric: a willing end uses the partner's configuration if the
 * partner is not willing; if both are willing, the end with the
 * numerically lower chassis MAC adopts the other's; if neither is willing,
 * each keeps its own, and a difference is a mismatch: the seed's "both
 * ends configured by hand, differently", found before traffic suffers.
 * ETS is asymmetric: a willing end adopts the partner's Recommendation TLV
 * whenever there is one; ends that keep different ETS tables are allowed
 * (each schedules its own transmissions).
 */
enum dcbx_state {
	DCBX_NO_PARTNER,	/* no TLV from a partner, or its TTL ran out */
	DCBX_AGREE,		/* both ends have the same configuration */
	DCBX_ADOPTED,		/* we are willing: we use the partner's */
	DCBX_PARTNER_ADOPTS,	/* the partner is willing: it takes ours */
	DCBX_MISMATCH,		/* PFC: neither is willing, and they differ */
	DCBX_OWN,		/* ETS: each keeps its own, and they differ */
};

const char *dcbx_state_name(enum dcbx_state s);

/*
 * mac_cmp: memcmp of our chassis MAC with the partner's (< 0: ours is
 * lower). remote NULL: no partner TLV. *use gets the configuration in force.
 */
enum dcbx_state dcbx_pfc_decide(const struct dcbx_pfc *local,
				const struct dcbx_pfc *remote, int mac_cmp,
				struct dcbx_pfc *use);
/*
 * ETS: a willing end (local->willing) adopts the partner's Recommendation
 * TLV when it sent one. Otherwise the tables (classes, shares, TSAs) are
 * compared with the partner's Configuration TLV: the same, agree; the
 * partner willing, partner-adopts; else own.
 */
enum dcbx_state dcbx_ets_decide(const struct dcbx_ets *local,
				const struct dcbx_lldpdu *remote, int mac_cmp,
				struct dcbx_ets *use);

/*
 * The APP table's DSCP entries as a map (byte d: the priorities, bit n, of
 * DSCP d; other selectors are not flowctl's) and back. Returns the entries
 * written (at most DCBX_APP_MAX).
 */
void dcbx_app_to_dscp(const struct dcbx_app *app, uint8_t map[64]);
unsigned int dcbx_dscp_to_app(const uint8_t map[64], struct dcbx_app *app);

/*
 * APP is asymmetric, as ETS: a willing end takes the DSCP map of the
 * partner's APP TLV whenever it sent one (an empty table too); otherwise
 * the maps are compared (agree, or own). *use gets the map in force.
 */
enum dcbx_state dcbx_app_decide(const uint8_t local[64], bool willing,
				const struct dcbx_lldpdu *remote, uint8_t use[64]);

/*
 * CEE's Priority Groups and flowctl's ETS table. To CEE: priority p's group
 * is its class when the class is ETS (its share the group's percent), 15
 * (strict) when the class is strict beside ETS classes; with no ETS class,
 * every priority is 15 and the percents 100 on group 0. From CEE: group n
 * is class n, ETS with its percent (strict at 0); group 15 is the highest
 * class no priority's group uses, strict (as lldpad remaps it).
 */
void dcbx_ets_to_cee_pg(const struct dcbx_ets *e, struct dcbx_cee *c);
void dcbx_cee_pg_to_ets(const struct dcbx_cee *c, struct dcbx_ets *e);

/*
 * A CEE LLDPDU's features as 802.1Qaz's TLVs, so the decisions and the
 * peer read one form: PFC from the PFC sub-TLV, the ETS Configuration from
 * the groups, and, when the partner is not willing, the same as the ETS
 * Recommendation a willing end takes. A feature the partner has not
 * enabled is absent. CEE's APP entries (EtherTypes, ports) are not copied:
 * flowctl classifies by PCP and DSCP.
 */
void dcbx_cee_to_ieee(struct dcbx_lldpdu *d);

/*
 * CEE's PFC feature state machine (lldpad's run_feature_protocol): a
 * willing end takes an unwilling partner's priorities unless the partner
 * says error; equal willing bits adopt nothing, and differing priorities
 * are a mismatch. *error: the Error bit to send (a mismatch, or a partner
 * without the feature).
 */
enum dcbx_state dcbx_cee_pfc_decide(const struct dcbx_pfc *local,
				    const struct dcbx_lldpdu *remote,
				    struct dcbx_pfc *use, bool *error);

#endif
