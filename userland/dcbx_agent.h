/* SPDX-License-Identifier: GPL-2.0 */
/* flowctl dcbx: the agent's state, and its event lines (dcbx_agent.c). */
#ifndef FLOWCTL_DCBX_AGENT_H
#define FLOWCTL_DCBX_AGENT_H

#include <stdbool.h>
#include <stdint.h>

#include "dcbx.h"
#include "netlink.h"

/* The part of a port's configuration DCBX speaks for. */
struct view {
	uint8_t mode, pfc_prios, trust;
	uint32_t prio_tc;
	uint64_t tc_bw;		/* packed: byte n = class n */
	uint8_t dscp[64];	/* the APP table's DSCP map (FLOWCTL_A_DEV_DSCP_PRIOS) */
};

/* A TLV handed to lldpd (other-agents lldpd): len -1 when it holds none. */
#define LLDPD_TLVS	8
#define LLDPD_TLV_MAX	507	/* 802.1AB's TLV length less OUI and subtype */
struct fc_lldpd_tlv {
	uint8_t oui[3], subtype;
	int len;
	uint8_t info[LLDPD_TLV_MAX];
};

struct fc_dcbx_agent {
	const char *dev;
	unsigned int ifindex;
	uint8_t mac[6];
	bool willing;
	bool ignore_others;	/* other-agents ignore */
	bool other_agent;	/* another agent's LLDPDU left from our port */
	bool via_lldpd;		/* other-agents lldpd: lldpd sends our TLVs */
	const char *lldpd_sock;	/* lldpd-socket: lldpcli -u */
	bool lldpd_hung;	/* lldpd did not answer: tried again at next_tx */
	struct fc_lldpd_tlv lldpd[LLDPD_TLVS];
	size_t lldpd_n;
	uint64_t interval_ns, count, events;
	int fd, tap_fd;		/* LLDP in; outgoing LLDPDUs (other agents) */
	struct fc_nl nl;
	struct view admin;	/* the port's own configuration */
	struct view want;	/* what we last asked for, if adopted */
	struct view applied;	/* what the port then had */
	bool adopted;
	struct dcbx_lldpdu peer;
	uint8_t peer_mac[6];
	bool have_peer;
	enum { DCBX_V_AUTO, DCBX_V_IEEE, DCBX_V_CEE } version;	/* mode */
	bool cee;		/* speaking CEE (mode cee, or auto after a CEE partner) */
	uint32_t cee_seq, cee_ack;	/* Control: our SeqNo, the partner's we ack */
	uint32_t cee_peer_ack;	/* the partner's AckNo: our SeqNo it has seen */
	bool cee_pfc_err;	/* the Error bit of our PFC feature */
	struct dcbx_cee cee_sent;	/* the features of our SeqNo */
	bool peer_unsupported;	/* the module takes no FLOWCTL_A_DEV_PEER */
	int peer_err;		/* the last answer to telling the partner */
	uint64_t peer_expires;
	uint64_t multi_until;	/* a second neighbour was heard until then */
	enum dcbx_state pfc_state, ets_state, app_state;
	uint64_t next_tx, next_tick;	/* the interval's (or fast) send; 1 s tick */
	unsigned int credit, fast_left;	/* txCredit, txFast (802.1AB 9.2.5) */
	bool tx_now;			/* a send is due whatever the timers say */
	uint8_t sent[LLDP_MAX_FRAME];	/* the last LLDPDU sent */
	size_t sent_len;
	uint64_t sent_hash[16];		/* the last LLDPDUs sent, to know them back */
	unsigned int sent_next;
	uint8_t last_bad;	/* the partner's bad TLVs last time (dcbx_lldpdu.bad) */
	uint64_t tx, rx, malformed, bad_tlvs, mismatches, adoptions;
};

/* One event line (text, or a JSON object with -j): what happened, the
 * PFC and ETS states, the partner and the counters.
 */
void fc_dcbx_event(struct fc_dcbx_agent *a, const char *what,
		   const char *detail);

#endif
