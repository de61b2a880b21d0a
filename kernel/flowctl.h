/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flowctl: IEEE 802.3x PAUSE and 802.1Q PFC in software.
 *
 * One struct fctl_sched per device, shared by the flowctl qdiscs of its TX
 * queues (struct fctl_queue: the root qdisc, or mq's children). Each
 * queue's qdisc lock guards its bands; rx_lock guards the receive-side
 * pause state and counters, which the ingress hook updates from any CPU;
 * the configuration is an RCU-published immutable struct replaced as a
 * whole under RTNL.
 */
#ifndef _FLOWCTL_H
#define _FLOWCTL_H

#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>
#include <uapi/linux/flowctl.h>

#define FCTL_PRIOS		FLOWCTL_NUM_PRIOS
#define FCTL_DSCPS		64
#define FCTL_DEFAULT_LIMIT	(1024 * 1024)
#define FCTL_MIN_LIMIT		(4 * 1024)
#define FCTL_MAX_LIMIT		(256 * 1024 * 1024)
#define FCTL_MAX_SPEED		800000	/* Mb/s: 800GBASE */
#define FCTL_MIN_SPEED		10	/* Mb/s: 10BASE-T */
#define FCTL_WIRE_OVERHEAD	24	/* preamble+SFD 8, FCS 4, gap 12 */
#define FCTL_MSS			1448	/* a TCP segment's payload at MTU 1500 */
#define FCTL_LINK_BIT		BIT(FCTL_PRIOS)	/* link-level PAUSE state */
/* ETS: the bytes one percent of share earns per round of the DRR */
#define FCTL_ETS_QUANTUM		128
#define FCTL_SW_REACTION_NS	(500 * NSEC_PER_USEC)
#define FCTL_SW_REACTION_MAX	(512 * 1024)	/* bytes */
/* shaper: line time a late wake-up of a backlogged wire may catch up */
#define FCTL_SHAPER_CATCHUP_NS	(20 * NSEC_PER_MSEC)
#define FCTL_TX_RETRY_NS		(100 * NSEC_PER_USEC)	/* frame refused */
#define FCTL_TX_MIN_REFRESH_NS	(50 * NSEC_PER_USEC)	/* <= 20k XOFF/s */
/* Event messages per port: 1000/s sustained, bursts of 64 (netlink.c). */
#define FCTL_EVENT_INTERVAL_NS	NSEC_PER_MSEC
#define FCTL_EVENT_BURST		64
/* The PFC watchdog's ranges (SONiC's), ms */
#define FCTL_WD_MIN_MS		100
#define FCTL_WD_MAX_DETECT_MS	5000
#define FCTL_WD_MAX_RESTORE_MS	60000
/* The send-side pause-storm guard's range (mlx5's pfc-prevention-tout), ms */
#define FCTL_TX_STORM_MIN_MS	80
#define FCTL_TX_STORM_MAX_MS	8000

/* Configuration: never changed once published, replaced whole. */
struct fctl_cfg {
	u8 mode;		/* enum flowctl_mode */
	u8 rx;
	u8 tx;
	u8 pfc_prios;		/* PFC enable set, bit n = priority n */
	u8 trust;		/* enum flowctl_trust */
	u16 quanta;		/* sent in XOFF */
	u32 speed;		/* Mb/s configured, 0 = auto */
	u64 rate;		/* bit/s, 0 = off */
	u32 limit;		/* bytes per band */
	u32 xoff;		/* port level, bytes; 0 = derived */
	u32 xon;
	u32 prio_xoff[FCTL_PRIOS];
	u32 prio_xon[FCTL_PRIOS];
	u32 prio_tc;		/* FLOWCTL_A_DEV_PRIO_TC */
	u8 tc_bw[FCTL_PRIOS];	/* ETS share per traffic class, 0 = strict */
	u32 wd_detect_ms;	/* PFC watchdog, 0 = off (wd.c) */
	u32 wd_restore_ms;	/* 0 = 2 x detection */
	u8 wd_action;		/* enum flowctl_wd_action */
	u32 tx_storm_ms;	/* pause-storm guard, 0 = off (tx.c) */
	u8 tunnel_wire;		/* a tunnel device taken as a wire */
	u16 pfc_delay;		/* bits, 802.1Qbb's round-trip allowance */
	bool dscp_app;		/* dscp_prios holds an entry */
	u8 dscp_prios[FCTL_DSCPS];	/* bit p: the APP table maps d to p */
	struct rcu_head rcu;
};

/*
 * Counters have one writer at a time (the qdisc lock for a band's, the tx
 * timer for the port's) and lockless readers: show and tc's class dump
 * never take the lock the data path contends on.
 */
struct fctl_band {
	struct qdisc_skb_head q;
	u32 backlog;		/* bytes */
	u64 empties;		/* dequeues that left it empty (watchdog) */
	struct u64_stats_sync syncp;
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t drops;
	u64_stats_t wd_tx_drop;		/* watchdog: dropped while stormed */
	u64_stats_t wd_tx_forward;	/* watchdog: sent while stormed */
};

struct fctl_band_counts {
	u64 tx_packets;
	u64 tx_bytes;
	u64 drops;
	u64 wd_tx_drop;
	u64 wd_tx_forward;
};

static inline void fctl_stat_inc(struct u64_stats_sync *syncp, u64_stats_t *v)
{
	u64_stats_update_begin(syncp);
	u64_stats_inc(v);
	u64_stats_update_end(syncp);
}

/* The ingress side of a port: bytes it owns in egress bands. */
struct fctl_charge {
	refcount_t ref;		/* the port, and each charged skb */
	struct fctl_sched __rcu *port;	/* NULL once the port is gone */
	atomic64_t bytes[FCTL_PRIOS];
	struct rcu_head rcu;
};

/* What flowctl keeps in an enqueued skb's qdisc control block. */
struct fctl_skb_cb {
	struct fctl_charge *charge;	/* NULL: charged to no port */
	u32 wire_len;
	u8 cprio;
};

static inline struct fctl_skb_cb *fctl_skb_cb(struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct fctl_skb_cb));
	return (struct fctl_skb_cb *)qdisc_skb_cb(skb)->data;
}

/*
 * Bytes a frame takes on the wire: GSO segments each pay the overhead. A
 * GSO skb from tap or virtio may carry gso_segs 0 (not computed yet): count
 * the segments from gso_size then.
 */
static inline u32 fctl_wire_len(const struct sk_buff *skb)
{
	u32 segs = 1;

	if (skb_is_gso(skb)) {
		const struct skb_shared_info *si = skb_shinfo(skb);

		segs = si->gso_segs;
		if (!segs && si->gso_size)
			segs = DIV_ROUND_UP(skb->len, si->gso_size);
		segs = max_t(u32, segs, 1);
	}

	return max_t(u32, qdisc_pkt_len(skb), ETH_ZLEN) +
	       segs * FCTL_WIRE_OVERHEAD;
}

struct fctl_tx_stats {
	u64 tx_pause;
	u64 tx_xon;
	u64 tx_pfc;
	u64 prio_tx_pfc[FCTL_PRIOS];
	u64 prio_tx_pfc_xon[FCTL_PRIOS];
	u64 tx_storm_warning;
	u64 tx_storm_error;
	u64 tx_xoff_short;
};

/* What the tx timer counts (fctl_tx_run; fctl_tx_destroy once it is gone). */
struct fctl_tx_counters {
	struct u64_stats_sync syncp;
	u64_stats_t tx_pause;
	u64_stats_t tx_xon;
	u64_stats_t tx_pfc;
	u64_stats_t prio_tx_pfc[FCTL_PRIOS];
	u64_stats_t prio_tx_pfc_xon[FCTL_PRIOS];
	u64_stats_t tx_storm_warning;
	u64_stats_t tx_storm_error;
};

/* Receive-side state of one priority; rx_lock except until (see rx.c). */
struct fctl_prio_rx {
	u64 until;		/* CLOCK_MONOTONIC ns the gate opens, 0 = open */
	u64 start;		/* start of the running episode */
	u64 paused_ns;		/* closed episodes */
	u64 episodes;
	u64 rx_pfc;
	u64 rx_pfc_xon;
	u16 quanta;		/* of the frame that set until */
};

/* PFC watchdog state of one priority (wd.c); rx_lock. */
struct fctl_prio_wd {
	u64 win_start;		/* the detection window's start; 0: none */
	u64 win_paused;		/* the gate's closed time at win_start */
	u64 win_empties;	/* the band's empties at win_start */
	u64 last_frame;		/* stormed: the last frame naming it */
	u64 stormed_at;
	u64 storms;
	u64 restored;
	u64 stormed_ns;		/* storms that ended */
	u8 state;		/* enum flowctl_wd_state */
};

struct fctl_rx_stats {
	u64 rx_pause;
	u64 rx_xon;
	u64 rx_pfc;
	u64 rx_ignored;
	u64 rx_malformed;
	u64 rx_unsupported;
};

/*
 * What one TX queue holds: the qdisc's private data. The root form is one
 * queue; under mq or mqprio each TX queue's child is one, and the queues
 * of a device share its struct fctl_sched. The qdisc lock guards it all.
 */
struct fctl_queue {
	struct fctl_sched *q;
	struct Qdisc *sch;
	struct list_head node;	/* q->queues: RTNL writes, RCU readers */
	bool orphan;		/* IFF_NO_QUEUE device: orphan at dequeue */
	struct fctl_band band[FCTL_PRIOS];
	u8 order[FCTL_PRIOS];	/* bands as dequeue serves them, from prio_tc */
	u8 rank[FCTL_PRIOS];	/* each priority's place in order[] */
	u8 busy;		/* bit r: band order[r] holds packets */
	u8 strict_ranks;	/* bit r: order[r] is of a strict class */
	u8 tc_ranks[FCTL_PRIOS];	/* bit r: order[r] is of class tc */
	u8 ets_mask;		/* bit tc: the class is served by ETS */
	u8 ets_tc;		/* ETS: the class the round robin is at */
	u32 quantum[FCTL_PRIOS];	/* ETS: bytes a class earns per round */
	u32 deficit[FCTL_PRIOS];	/* ETS: bytes a class may still send */
	struct qdisc_watchdog watchdog;
	u64 t_next;		/* shaper: earliest next data transmission */
	bool shaper_idle;	/* shaper: nothing was sendable since t_next */
};

/* A device's flowctl: what belongs to the port, once for all its queues. */
struct fctl_sched {
	/* read mostly */
	struct fctl_cfg __rcu *cfg;
	struct net_device *dev;
	u32 parent;		/* TC_H_ROOT, or the mq's handle */
	u32 speed_mbps;		/* in use, 0 = none */
	u64 rate;		/* shaper, bit/s, 0 = off; the root form only */
	u8 speed_src;		/* enum flowctl_speed_source */

	u32 thr_xoff[FCTL_PRIOS + 1];	/* effective; [FCTL_PRIOS]: port */
	u32 thr_xon[FCTL_PRIOS + 1];
	u32 headroom;		/* the formula's, at the speed in use */
	/* bytes the partner may still send after our XOFF: limit - xoff */
	u32 allowance[FCTL_PRIOS + 1];
	struct fctl_charge *charge;
	struct list_head queues;	/* struct fctl_queue */
	unsigned int nqueues;		/* RTNL */

	/* read/write, tx timer */
	struct hrtimer tx_timer;
	spinlock_t tx_lock;	/* tx_kicked, tx_dying, arming tx_timer */
	bool tx_kicked;		/* a crossing since the run began */
	bool tx_dying;		/* detaching: nothing arms tx_timer */
	u16 tx_active;		/* XOFF in force: bit p, or FCTL_LINK_BIT */
	bool tx_counted;	/* counted in fctl_tx_ports (RTNL) */
	u64 tx_refresh_at;
	struct fctl_tx_counters txs;
	atomic64_t tx_xoff_short;	/* fctl_update_speed */
	atomic64_t since_xoff[FCTL_PRIOS + 1];	/* [FCTL_PRIOS]: port */
	/* The pause-storm guard (tx.c), written by the tx timer alone: when
	 * each XOFF began, which states warned, and which hit the limit and
	 * may not pause again until their charge falls below XON (read by
	 * uncharge, to kick the timer then).
	 */
	u64 xoff_began[FCTL_PRIOS + 1];
	u16 storm_warned;
	u16 storm_blocked;
	atomic64_t partner_ignored[FCTL_PRIOS];

	/* read/write, rx_lock */
	spinlock_t rx_lock ____cacheline_aligned_in_smp;
	struct fctl_prio_rx prx[FCTL_PRIOS];
	struct fctl_rx_stats rxs;
	struct hrtimer expiry;	/* ends episodes and reports them */
	u8 rx_link;		/* gates were set by link-level PAUSE */
	u8 partner_mac[ETH_ALEN]; /* source of the last valid PAUSE/PFC */
	bool rx_dead;		/* detaching: the hook leaves q alone */
	/* event messages: a token bucket of ns of credit (netlink.c) */
	u64 ev_credit;
	u64 ev_last;
	u64 ev_pending;		/* events not reported since the last message */
	u64 ev_suppressed;	/* counter: every event not reported */
	/* the PFC watchdog (wd.c) */
	struct fctl_prio_wd pwd[FCTL_PRIOS];
	struct hrtimer wd_timer;
	u8 wd_ignore;		/* stormed, not alert: frames not honored */
	u8 wd_drop;		/* stormed under drop (read without the lock) */
	u8 wd_forward;		/* stormed under forward (idem) */
	atomic64_t wd_rx_drop[FCTL_PRIOS];

	/* seldom used */
	struct list_head list;		/* fctl_scheds, RTNL */
	struct rcu_head rcu;
	struct fctl_port *port;		/* the device's (dcb.c), RTNL */
	struct nf_hook_ops hook;
	bool hook_registered;
	bool mc_joined;			/* 01:80:c2:00:00:01 in the device's filter */
};

/* One pause event to report once the locks are dropped. */
struct fctl_event {
	u8 type;		/* enum flowctl_event_type */
	s8 prio;		/* -1: link-level PAUSE */
	u16 quanta;
	u64 time_ns;
};

#define FCTL_MAX_EVENTS		(FCTL_PRIOS + 1)

struct fctl_events {
	unsigned int n;
	struct fctl_event ev[FCTL_MAX_EVENTS * 2];
};

/* A consistent copy of everything netlink reports. */
struct fctl_snapshot {
	struct fctl_cfg cfg;
	u32 speed_mbps;
	u8 speed_src;
	struct fctl_rx_stats rxs;
	struct {
		u64 pause_left_ns;
		u64 pause_elapsed_ns;
		u64 paused_ns_total;
		u64 episodes;
		u64 rx_pfc;
		u64 rx_pfc_xon;
		u64 tx_packets;
		u64 tx_bytes;
		u64 backlog_bytes;
		u64 backlog_packets;
		u64 drops;
		u32 xoff;
		u32 xon;
		u64 tx_pfc;
		u64 tx_pfc_xon;
		u64 charge_bytes;
		u64 partner_ignored;
		u8 xoff_active;
		u8 wd_state;
		u64 wd_storms;
		u64 wd_restored;
		u64 wd_tx_drop;
		u64 wd_rx_drop;
		u64 wd_tx_forward;
		u64 wd_stormed_ns;
	} prio[FCTL_PRIOS];
	struct fctl_tx_stats txs;
	u64 partner_ignored;
	u64 events_suppressed;
	u32 xoff;
	u32 xon;
	u8 tx_link_active;
	u32 headroom;
	u8 partner_mac[ETH_ALEN];	/* zero: none heard */
};

/* What a brief DEV_GET carries (fctl_brief): no counters, no priority nests. */
struct fctl_brief {
	u8 mode;
	u8 rx;
	u8 tx;
	u8 pfc_prios;
	u8 paused;		/* bit p: the partner holds priority p now */
	u8 xoff_active;		/* bit p: our XOFF holds priority p */
	u8 stormed;		/* bit p: the watchdog holds p as stormed */
	u32 speed_mbps;
	u32 backlog_bytes;
	u32 backlog_packets;
};

extern struct Qdisc_ops fctl_qdisc_ops;

/* qdisc.c */
u8 fctl_classify(const struct fctl_cfg *cfg, struct sk_buff *skb);
u32 fctl_resolve_speed(struct fctl_sched *q, const struct fctl_cfg *cfg, u8 *src);
struct fctl_sched *fctl_from_dev(struct net_device *dev);
struct xarray *fctl_net_ports(struct net *net);
int fctl_net_init(void);
void fctl_net_exit(void);
struct fctl_cfg *fctl_cfg_dup(struct fctl_sched *q);
int fctl_cfg_commit(struct fctl_sched *q, struct fctl_cfg *ncfg,
		    struct netlink_ext_ack *extack);
void fctl_update_speed(struct fctl_sched *q);
void fctl_snapshot(struct fctl_sched *q, struct fctl_snapshot *s);
void fctl_brief(struct fctl_sched *q, struct fctl_brief *b);
void fctl_reset_counters(struct fctl_sched *q);
void fctl_schedule(struct fctl_sched *q);
void fctl_queue_read(const struct fctl_queue *qq, struct fctl_band_counts *c);
u32 fctl_prio_qlen(struct fctl_sched *q, int prio);
u64 fctl_prio_empties(struct fctl_sched *q, int prio);

/* rx.c */
void fctl_rx_init(struct fctl_sched *q);
int fctl_rx_hook_register(struct fctl_sched *q, struct netlink_ext_ack *extack);
void fctl_rx_destroy(struct fctl_sched *q);
void fctl_rx_snapshot(struct fctl_sched *q, struct fctl_snapshot *s);
void fctl_rx_reset_counters(struct fctl_sched *q);
void fctl_rx_event(struct fctl_events *evs, u8 type, s8 prio, u16 quanta,
		   u64 time_ns);
bool fctl_rx_open(struct fctl_sched *q, int prio, u64 now, struct fctl_events *evs);

/* tx.c */
u32 fctl_max_wire_pkt(const struct net_device *dev);
bool fctl_xoff_lasts(u16 quanta, u32 speed);
u32 fctl_headroom(u32 speed, u32 max_wire, u16 delay_bits);
void fctl_tx_thresholds(struct fctl_sched *q);
struct fctl_charge *fctl_charge_alloc(struct fctl_sched *q);
void fctl_charge_put(struct fctl_charge *c);
void __fc_charge_skb(struct sk_buff *skb, struct net *net, u8 prio, u8 etrust,
		     u32 len);
void __fc_heard_dropped(struct sk_buff *skb, struct net *net, u8 prio,
			u8 etrust, u32 len);
void __fc_uncharge_skb(struct sk_buff *skb);
void fctl_tx_count(struct fctl_sched *q, bool on);
void fctl_tx_kick(struct fctl_sched *q);
void fctl_keys_get(void);
void fctl_keys_put(void);

/* Ports with tx on, system wide: while there are none nothing is charged. */
extern atomic_t fctl_tx_ports;

/* Charge skb, enqueued by sch at prio, to the port it came in on. */
static inline void fctl_charge_skb(struct sk_buff *skb, struct Qdisc *sch,
				   u8 prio, u8 etrust)
{
	fctl_skb_cb(skb)->charge = NULL;
	if (atomic_read(&fctl_tx_ports))
		__fc_charge_skb(skb, dev_net(qdisc_dev(sch)), prio, etrust,
				fctl_wire_len(skb));
}

/* skb, dropped by sch's full band: news for the port it came in on. */
static inline void fctl_heard_dropped(struct sk_buff *skb, struct Qdisc *sch,
				      u8 prio, u8 etrust)
{
	if (atomic_read(&fctl_tx_ports))
		__fc_heard_dropped(skb, dev_net(qdisc_dev(sch)), prio, etrust,
				   fctl_wire_len(skb));
}

/* Uncharge a dequeued, dropped or purged skb. Any context. */
static inline void fctl_uncharge_skb(struct sk_buff *skb)
{
	if (fctl_skb_cb(skb)->charge)
		__fc_uncharge_skb(skb);
}

void fctl_tx_init(struct fctl_sched *q);
void fctl_tx_read(struct fctl_sched *q, struct fctl_tx_stats *t);
void fctl_tx_reset_counters(struct fctl_sched *q);
void fctl_tx_reconsider(struct fctl_sched *q);
void fctl_tx_unpublish(struct fctl_sched *q);
void fctl_tx_destroy(struct fctl_sched *q);

/* wd.c */
void fctl_wd_init(struct fctl_sched *q);
void fctl_wd_destroy(struct fctl_sched *q);
void fctl_wd_watch(struct fctl_sched *q, const struct fctl_cfg *cfg, int prio,
		   u64 now);
bool fctl_wd_frame(struct fctl_sched *q, int prio, u64 now);
void fctl_wd_config(struct fctl_sched *q, const struct fctl_cfg *old,
		    const struct fctl_cfg *ncfg, u64 now, struct fctl_events *evs);
void fctl_wd_restart(struct fctl_sched *q, const struct fctl_cfg *cfg, u64 now);
void fctl_wd_snapshot(struct fctl_sched *q, struct fctl_snapshot *s);
void fctl_wd_reset_counters(struct fctl_sched *q);
bool fctl_wd_rx_drop(struct fctl_sched *q, struct sk_buff *skb);
bool fctl_wd_control(const struct sk_buff *skb);

/* dcb.c */
int fctl_port_get(struct fctl_sched *q);
void fctl_port_put(struct fctl_sched *q);
u8 fctl_port_doors(const struct fctl_sched *q);
int fctl_peer_set(struct fctl_sched *q, struct nlattr **tb,
		  struct netlink_ext_ack *extack);
int fctl_peer_fill(struct sk_buff *msg, const struct fctl_sched *q);
bool fctl_pause_is_door(const struct net_device *dev);
int fctl_app_sync(struct fctl_sched *q, const struct fctl_cfg *old,
		  const struct fctl_cfg *ncfg, bool adding);
void fctl_doors_notify(struct fctl_sched *q, const struct fctl_cfg *old);
void fctl_ports_unregister(struct net_device *dev);
void fctl_ports_exit(void);

/* netlink.c */
int fctl_door_set(struct fctl_sched *q, struct sk_buff *attrs,
		  struct netlink_ext_ack *extack);
int fctl_netlink_init(void);
void fctl_netlink_exit(void);
void fctl_notify_events(struct fctl_sched *q, const struct fctl_events *evs);
void fctl_notify_config(struct fctl_sched *q);
int fctl_opts_parse(struct fctl_sched *q, struct fctl_cfg *c, struct nlattr *opt,
		    struct netlink_ext_ack *extack);
int fctl_opts_dump(struct sk_buff *skb, const struct fctl_cfg *c, u32 speed);

#endif /* _FLOWCTL_H */
