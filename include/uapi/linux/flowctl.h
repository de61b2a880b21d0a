/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * flowctl: IEEE 802.3x PAUSE and 802.1Q PFC in software.
 *
 * Generic netlink family "flowctl", version 1. The YNL spec in
 * Documentation/netlink/specs/flowctl.yaml describes the same family; keep
 * the two in step.
 */
#ifndef _UAPI_LINUX_FLOWCTL_H
#define _UAPI_LINUX_FLOWCTL_H

#include <linux/types.h>

#define FLOWCTL_FAMILY_NAME		"flowctl"
#define FLOWCTL_FAMILY_VERSION		1
#define FLOWCTL_MCGRP_EVENTS		"events"

#define FLOWCTL_NUM_PRIOS		8

/*
 * IEEE 802.1Q Table 8-5, eight traffic classes: priority 1 (background) is
 * class 0, priority 0 (best effort) class 1, priorities 2..7 their own.
 */
#define FLOWCTL_PRIO_TC_8021Q		0x76543201
#define FLOWCTL_PRIO_TC_IDENTITY	0x76543210

enum flowctl_mode {
	FLOWCTL_MODE_OFF,
	FLOWCTL_MODE_PAUSE,
	FLOWCTL_MODE_PFC,
};

/* Linux's own interfaces flowctl answers where the driver has none. */
#define FLOWCTL_DOOR_PAUSE	0x1	/* ethtool -a/-A, -I -a */
#define FLOWCTL_DOOR_DCB	0x2	/* DCB netlink: dcb, lldpad */

enum flowctl_trust {
	FLOWCTL_TRUST_PCP,
	FLOWCTL_TRUST_DSCP,
};

/* Where the speed used to convert quanta to time comes from. */
enum flowctl_speed_source {
	FLOWCTL_SPEED_SRC_NONE,		/* unknown or half duplex: no pause */
	FLOWCTL_SPEED_SRC_CONFIG,	/* "speed MBPS" */
	FLOWCTL_SPEED_SRC_RATE,		/* the shaper's "rate" */
	FLOWCTL_SPEED_SRC_ETHTOOL,	/* the device's link settings */
};

enum flowctl_event_type {
	FLOWCTL_EVENT_PAUSE_START = 1,
	FLOWCTL_EVENT_PAUSE_END,
	FLOWCTL_EVENT_CONFIG,
	FLOWCTL_EVENT_STORM_START,	/* the watchdog found a stormed queue */
	FLOWCTL_EVENT_STORM_END,	/* ... and restored it */
};

/* What the PFC watchdog does with a stormed queue (SONiC's names). */
enum flowctl_wd_action {
	FLOWCTL_WD_DROP,	/* ignore the partner, drop the queue's packets */
	FLOWCTL_WD_FORWARD,	/* ignore the partner, keep sending */
	FLOWCTL_WD_ALERT,	/* report only */
};

enum flowctl_wd_state {
	FLOWCTL_WD_OPERATIONAL,
	FLOWCTL_WD_STORMED,
};

enum flowctl_dir {
	FLOWCTL_DIR_RX,		/* received: the partner paused us */
	FLOWCTL_DIR_TX,		/* sent: we paused the partner */
};

enum {
	FLOWCTL_A_DEV_UNSPEC,
	FLOWCTL_A_DEV_PAD,
	FLOWCTL_A_DEV_IFINDEX,		/* u32 */
	FLOWCTL_A_DEV_IFNAME,		/* string */
	FLOWCTL_A_DEV_MODE,		/* u8, enum flowctl_mode */
	FLOWCTL_A_DEV_RX,		/* u8, 0 or 1 */
	FLOWCTL_A_DEV_TX,		/* u8, 0 or 1 */
	FLOWCTL_A_DEV_PFC_PRIOS,	/* u8, bit n = priority n */
	FLOWCTL_A_DEV_TRUST,		/* u8, enum flowctl_trust */
	FLOWCTL_A_DEV_SPEED,		/* u32, Mb/s configured, 0 = auto */
	FLOWCTL_A_DEV_SPEED_MBPS,	/* u32, Mb/s in use (read only) */
	FLOWCTL_A_DEV_SPEED_SOURCE,	/* u8, enum flowctl_speed_source (ro) */
	FLOWCTL_A_DEV_RATE,		/* u64, bit/s, 0 = off */
	FLOWCTL_A_DEV_LIMIT,		/* u32, bytes per band */
	FLOWCTL_A_DEV_XOFF,		/* u32, bytes, port level */
	FLOWCTL_A_DEV_XON,		/* u32, bytes, port level */
	FLOWCTL_A_DEV_QUANTA,		/* u16, quanta sent in XOFF */
	FLOWCTL_A_DEV_STATS,		/* nest, FLOWCTL_A_STATS_* (ro) */
	FLOWCTL_A_DEV_PRIO,		/* nest, FLOWCTL_A_PRIO_*, multi */
	FLOWCTL_A_DEV_HEADROOM,		/* u32, bytes above XOFF (ro) */
	FLOWCTL_A_DEV_PRIO_TC,		/* u32, 4 bits a priority: its traffic
					 * class 0..7 (bits 4p..4p+3); higher
					 * classes are served first
					 */
	FLOWCTL_A_DEV_TC_BW,		/* binary, 8 bytes: ETS (802.1Qaz) share
					 * of traffic class n in percent; 0 =
					 * strict priority. The non-zero shares
					 * sum to 100; all 0: no ETS.
					 */
	FLOWCTL_A_DEV_WD_DETECT_MS,	/* u32, PFC watchdog: 0 = off, else
					 * 100..5000
					 */
	FLOWCTL_A_DEV_WD_RESTORE_MS,	/* u32, 0 = 2 x detection, else
					 * 100..60000
					 */
	FLOWCTL_A_DEV_WD_ACTION,	/* u8, enum flowctl_wd_action */
	FLOWCTL_A_DEV_TX_STORM_MS,	/* u32, pause-storm guard: the longest
					 * our XOFF may hold the partner, ms;
					 * 0 = off, else 80..8000
					 */
	FLOWCTL_A_DEV_PARTNER_MAC,	/* binary, 6 bytes (ro): the source
					 * address of the last PAUSE/PFC the
					 * port honored; absent before one
					 */
	FLOWCTL_A_DEV_PAUSED,		/* u8 (ro): bit n = the partner holds
					 * priority n paused now (PAUSE: all)
					 */
	FLOWCTL_A_DEV_XOFF_ACTIVE,	/* u8 (ro): bit n = our XOFF holds the
					 * partner's priority n (PAUSE: all)
					 */
	FLOWCTL_A_DEV_STORMED,		/* u8 (ro): bit n = the PFC watchdog
					 * holds priority n as stormed
					 */
	FLOWCTL_A_DEV_BACKLOG_BYTES,	/* u32 (ro): queued, all bands */
	FLOWCTL_A_DEV_BACKLOG_PACKETS,	/* u32 (ro): queued, all bands */
	FLOWCTL_A_DEV_BRIEF,		/* flag, DEV_GET request: the reply
					 * carries ifindex, ifname, mode, rx,
					 * tx, pfc_prios, speed_mbps and the
					 * five above: no counters, no prio
					 */
	FLOWCTL_A_DEV_TUNNEL_WIRE,	/* u8, given when flowctl attaches
					 * (tc qdisc add): 1 = this vxlan,
					 * geneve, gretap or ip6gretap device
					 * is a point-to-point wire to one
					 * remote host, and flowctl may attach
					 * to it; fixed until it detaches
					 */
	FLOWCTL_A_DEV_DSCP_PRIOS,	/* binary, 64 bytes: byte d = the
					 * priorities (bit n) the APP table
					 * gives DSCP d; trust dscp classifies
					 * by the highest, and a DSCP with none
					 * to priority 0. All zero: DSCP >> 3
					 */
	FLOWCTL_A_DEV_PFC_DELAY,	/* u16, bits: 802.1Qbb's allowance
					 * for the link's round trip, added
					 * to the derived headroom
					 */
	FLOWCTL_A_DEV_DOORS,		/* u8 (ro): the FLOWCTL_DOOR_ bits
					 * of the interfaces flowctl answers
					 * on this device
					 */
	FLOWCTL_A_DEV_PEER,		/* nest, the FLOWCTL_A_PEER_ set: the
					 * partner's DCB configuration as the
					 * port's DCBX agent last heard it, for
					 * its TTL. DEV_SET with it alone (an
					 * empty nest: no partner); DCB netlink
					 * reports it as the peer's
					 */
	FLOWCTL_A_DEV_QUEUES,		/* flag, DEV_GET request (not a dump):
					 * the reply adds FLOWCTL_A_DEV_QUEUE
					 */
	FLOWCTL_A_DEV_QUEUE,		/* nest of the FLOWCTL_A_QUEUE_ set,
					 * multi (ro):
					 * each TX queue flowctl schedules
					 * (one for the root form)
					 */

	__FLOWCTL_A_DEV_MAX,
	FLOWCTL_A_DEV_MAX = (__FLOWCTL_A_DEV_MAX - 1)
};

/*
 * The partner's DCBX TLVs (802.1Qaz D.2.9 to D.2.12) in FLOWCTL_A_DEV_PEER:
 * each TLV's attributes are there when it sent that TLV.
 */
enum {
	FLOWCTL_A_PEER_UNSPEC,
	FLOWCTL_A_PEER_TTL,		/* u16, s: how long this holds (the
					 * LLDPDU's TTL); required
					 */
	FLOWCTL_A_PEER_MAC,		/* binary, 6 bytes: its source */
	FLOWCTL_A_PEER_PFC_EN,		/* u8, PFC TLV: bit n = priority n */
	FLOWCTL_A_PEER_PFC_CAP,		/* u8, 0..8 */
	FLOWCTL_A_PEER_PFC_MBC,		/* u8, 0 or 1 */
	FLOWCTL_A_PEER_PFC_WILLING,	/* u8, 0 or 1 */
	FLOWCTL_A_PEER_ETS_PRIO_TC,	/* u32, ETS Configuration TLV: 4 bits
					 * a priority, as FLOWCTL_A_DEV_PRIO_TC
					 */
	FLOWCTL_A_PEER_ETS_TC_BW,	/* binary, 8 bytes: percent a class */
	FLOWCTL_A_PEER_ETS_TC_TSA,	/* binary, 8 bytes: IEEE_8021QAZ_TSA_* */
	FLOWCTL_A_PEER_ETS_CAP,		/* u8, 1..8 */
	FLOWCTL_A_PEER_ETS_WILLING,	/* u8, 0 or 1 */
	FLOWCTL_A_PEER_ETS_CBS,		/* u8, 0 or 1 */
	FLOWCTL_A_PEER_RECO_PRIO_TC,	/* u32, ETS Recommendation TLV */
	FLOWCTL_A_PEER_RECO_TC_BW,	/* binary, 8 bytes */
	FLOWCTL_A_PEER_RECO_TC_TSA,	/* binary, 8 bytes */
	FLOWCTL_A_PEER_APP,		/* binary, APP TLV: struct dcb_app
					 * (linux/dcbnl.h) entries, at most
					 * FLOWCTL_PEER_APPS (the agent
					 * passes the TLV's first ones)
					 */

	__FLOWCTL_A_PEER_MAX,
	FLOWCTL_A_PEER_MAX = (__FLOWCTL_A_PEER_MAX - 1)
};

/* A partner's APP entries kept (one TLV holds up to 168). */
#define FLOWCTL_PEER_APPS	32

/* One TX queue's flowctl in FLOWCTL_A_DEV_QUEUE: its bands, summed. */
enum {
	FLOWCTL_A_QUEUE_UNSPEC,
	FLOWCTL_A_QUEUE_PAD,
	FLOWCTL_A_QUEUE_INDEX,		/* u16: the TX queue */
	FLOWCTL_A_QUEUE_HANDLE,		/* u32: its qdisc's handle */
	FLOWCTL_A_QUEUE_TX_PACKETS,	/* u64 */
	FLOWCTL_A_QUEUE_TX_BYTES,	/* u64 */
	FLOWCTL_A_QUEUE_BACKLOG_BYTES,	/* u32 */
	FLOWCTL_A_QUEUE_BACKLOG_PACKETS, /* u32 */
	FLOWCTL_A_QUEUE_DROPS,		/* u64: tail and watchdog drops */

	__FLOWCTL_A_QUEUE_MAX,
	FLOWCTL_A_QUEUE_MAX = (__FLOWCTL_A_QUEUE_MAX - 1)
};

enum {
	FLOWCTL_A_STATS_UNSPEC,
	FLOWCTL_A_STATS_PAD,
	FLOWCTL_A_STATS_RX_PAUSE,	/* u64: PAUSE frames with time > 0 */
	FLOWCTL_A_STATS_RX_XON,		/* u64: PAUSE frames with time 0 */
	FLOWCTL_A_STATS_RX_PFC,		/* u64: PFC frames */
	FLOWCTL_A_STATS_TX_PAUSE,	/* u64 */
	FLOWCTL_A_STATS_TX_XON,		/* u64 */
	FLOWCTL_A_STATS_TX_PFC,		/* u64 */
	FLOWCTL_A_STATS_RX_IGNORED,	/* u64: valid, but mode/rx say no */
	FLOWCTL_A_STATS_RX_MALFORMED,	/* u64 */
	FLOWCTL_A_STATS_RX_UNSUPPORTED,	/* u64: other MAC Control opcodes */
	FLOWCTL_A_STATS_PARTNER_IGNORED, /* u64 */
	FLOWCTL_A_STATS_EVENTS_SUPPRESSED, /* u64: pause events not reported */
	FLOWCTL_A_STATS_TX_STORM_WARNING, /* u64: our XOFF held 85% of tx-storm */
	FLOWCTL_A_STATS_TX_STORM_ERROR,	/* u64: ... held it all: XON sent */
	FLOWCTL_A_STATS_TX_XOFF_SHORT,	/* u64: speed changes under tx on that
					 * left our XOFF's pause shorter than
					 * its refresh (or no speed at all)
					 */

	__FLOWCTL_A_STATS_MAX,
	FLOWCTL_A_STATS_MAX = (__FLOWCTL_A_STATS_MAX - 1)
};

enum {
	FLOWCTL_A_PRIO_UNSPEC,
	FLOWCTL_A_PRIO_PAD,
	FLOWCTL_A_PRIO_PRIO,		/* u8, 0..7 */
	FLOWCTL_A_PRIO_PAUSED,		/* u8 (ro) */
	FLOWCTL_A_PRIO_PAUSE_LEFT_NS,	/* u64 (ro) */
	FLOWCTL_A_PRIO_PAUSED_NS_TOTAL,	/* u64 (ro) */
	FLOWCTL_A_PRIO_PAUSE_EPISODES,	/* u64 (ro) */
	FLOWCTL_A_PRIO_RX_PFC,		/* u64 (ro): PFC with this bit set */
	FLOWCTL_A_PRIO_RX_PFC_XON,	/* u64 (ro): ... and time 0 */
	FLOWCTL_A_PRIO_TX_PFC,		/* u64 (ro) */
	FLOWCTL_A_PRIO_TX_PFC_XON,	/* u64 (ro) */
	FLOWCTL_A_PRIO_TX_PACKETS,	/* u64 (ro) */
	FLOWCTL_A_PRIO_TX_BYTES,	/* u64 (ro) */
	FLOWCTL_A_PRIO_BACKLOG_BYTES,	/* u64 (ro) */
	FLOWCTL_A_PRIO_BACKLOG_PACKETS,	/* u64 (ro) */
	FLOWCTL_A_PRIO_DROPS,		/* u64 (ro) */
	FLOWCTL_A_PRIO_XOFF,		/* u32, bytes */
	FLOWCTL_A_PRIO_XON,		/* u32, bytes */
	FLOWCTL_A_PRIO_CHARGE_BYTES,	/* u64 (ro) */
	FLOWCTL_A_PRIO_XOFF_ACTIVE,	/* u8 (ro) */
	FLOWCTL_A_PRIO_PARTNER_IGNORED,	/* u64 (ro) */
	FLOWCTL_A_PRIO_PAUSE_ELAPSED_NS, /* u64 (ro): the running pause so far */
	FLOWCTL_A_PRIO_WD_STATE,	/* u8 (ro), enum flowctl_wd_state */
	FLOWCTL_A_PRIO_WD_STORMS,	/* u64 (ro): storms detected */
	FLOWCTL_A_PRIO_WD_RESTORED,	/* u64 (ro): storms restored */
	FLOWCTL_A_PRIO_WD_TX_DROP,	/* u64 (ro): queued or arriving, dropped */
	FLOWCTL_A_PRIO_WD_RX_DROP,	/* u64 (ro): received on the port, dropped */
	FLOWCTL_A_PRIO_WD_TX_FORWARD,	/* u64 (ro): sent while stormed */
	FLOWCTL_A_PRIO_WD_STORMED_NS_TOTAL, /* u64 (ro) */

	__FLOWCTL_A_PRIO_MAX,
	FLOWCTL_A_PRIO_MAX = (__FLOWCTL_A_PRIO_MAX - 1)
};

enum {
	FLOWCTL_A_EVENT_UNSPEC,
	FLOWCTL_A_EVENT_PAD,
	FLOWCTL_A_EVENT_TYPE,		/* u8, enum flowctl_event_type */
	FLOWCTL_A_EVENT_IFINDEX,	/* u32 */
	FLOWCTL_A_EVENT_IFNAME,		/* string */
	FLOWCTL_A_EVENT_DIR,		/* u8, enum flowctl_dir */
	FLOWCTL_A_EVENT_PRIO,		/* u8; absent for link-level PAUSE */
	FLOWCTL_A_EVENT_QUANTA,		/* u16 */
	FLOWCTL_A_EVENT_TIME_NS,	/* u64, pause time (start) or length (end) */
	FLOWCTL_A_EVENT_TIMESTAMP_NS,	/* u64, CLOCK_MONOTONIC */
	FLOWCTL_A_EVENT_ENTRY,		/* nest, repeated: one pause event */
	FLOWCTL_A_EVENT_SUPPRESSED,	/* u64: events of this port not
					 * reported since its last message
					 */

	__FLOWCTL_A_EVENT_MAX,
	FLOWCTL_A_EVENT_MAX = (__FLOWCTL_A_EVENT_MAX - 1)
};

/*
 * One pause event in FLOWCTL_A_EVENT_ENTRY: a message reports every event
 * one received frame (or one expiry run) caused, under one header.
 */
enum {
	FLOWCTL_A_ENTRY_UNSPEC,
	FLOWCTL_A_ENTRY_PAD,
	FLOWCTL_A_ENTRY_TYPE,		/* u8, enum flowctl_event_type */
	FLOWCTL_A_ENTRY_PRIO,		/* u8; absent for link-level PAUSE */
	FLOWCTL_A_ENTRY_QUANTA,		/* u16 */
	FLOWCTL_A_ENTRY_TIME_NS,	/* u64, pause time (start) or length (end) */

	__FLOWCTL_A_ENTRY_MAX,
	FLOWCTL_A_ENTRY_MAX = (__FLOWCTL_A_ENTRY_MAX - 1)
};

enum {
	FLOWCTL_CMD_UNSPEC,
	FLOWCTL_CMD_DEV_GET,		/* do (by ifindex or ifname) and dump */
	FLOWCTL_CMD_DEV_SET,		/* admin */
	FLOWCTL_CMD_STATS_RESET,	/* admin */
	FLOWCTL_CMD_EVENT,		/* notification on "events" */

	__FLOWCTL_CMD_MAX,
	FLOWCTL_CMD_MAX = (__FLOWCTL_CMD_MAX - 1)
};

/*
 * tc: TCA_OPTIONS of a flowctl qdisc carry FLOWCTL_A_DEV_* attributes (the
 * settable ones of FLOWCTL_CMD_DEV_SET; a dump gives them as configured),
 * and TCA_XSTATS (tc -s) is this struct: what is in force and the counters.
 */
struct tc_flowctl_xstats {
	__u32	speed_mbps;		/* in use, 0 = none */
	__u32	headroom;		/* bytes above XOFF */
	__u32	xoff;			/* port-level thresholds in force */
	__u32	xon;
	__u8	speed_source;		/* enum flowctl_speed_source */
	__u8	paused;			/* bit n: the partner paused priority n */
	__u8	xoff_active;		/* bit n: we pause the partner's n */
	__u8	wd_stormed;		/* bit n: the watchdog holds n stormed */
	__u8	pad[4];
	__u64	rx_pause;
	__u64	rx_xon;
	__u64	rx_pfc;
	__u64	tx_pause;
	__u64	tx_xon;
	__u64	tx_pfc;
	__u64	rx_ignored;
	__u64	rx_malformed;
	__u64	rx_unsupported;
	__u64	partner_ignored;
	__u64	events_suppressed;
	__u64	prio_rx_pfc[FLOWCTL_NUM_PRIOS];
	__u64	prio_tx_pfc[FLOWCTL_NUM_PRIOS];
	__u64	prio_paused_ns_total[FLOWCTL_NUM_PRIOS];
	/* Since the PFC watchdog: a module before it gives the struct up to
	 * here, which tc plugins accept.
	 */
	__u64	prio_wd_storms[FLOWCTL_NUM_PRIOS];
	__u64	prio_wd_drops[FLOWCTL_NUM_PRIOS];	/* queued and arriving */
	__u64	tx_storm_warning;
	__u64	tx_storm_error;
	/* prio_wd_drops by direction: dropped from the queue and on transmit,
	 * and arriving on receive. Absent from modules before them.
	 */
	__u64	prio_wd_tx_drop[FLOWCTL_NUM_PRIOS];
	__u64	prio_wd_rx_drop[FLOWCTL_NUM_PRIOS];
};

#endif /* _UAPI_LINUX_FLOWCTL_H */
