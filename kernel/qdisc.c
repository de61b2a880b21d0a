// SPDX-License-Identifier: GPL-2.0
/*
 * The flowctl qdisc: eight strict-priority bands, one per 802.1p priority,
 * each a byte-limited FIFO with tail drop. Bands are served by traffic
 * class, highest first, each priority's class from prio_tc: by default
 * IEEE 802.1Q's table for eight classes, so priority 1 (background) goes
 * after 0 (best effort) as in Linux's own prio and pfifo_fast. Priorities
 * that share a class are served highest priority first. A band whose priority the link
 * partner paused (rx.c) is skipped by dequeue until its gate opens; when
 * every backlogged band is gated, the qdisc sleeps on its watchdog until the
 * earliest gate opens, or until an XON wakes it through __netif_schedule().
 *
 * Classification: the 802.1Q PCP of a tagged frame (accelerated or in the
 * payload); else, with "trust dscp", the priority the APP table gives the
 * IPv4/IPv6 DSCP (dcb app; the highest if several, 0 if none), or its
 * class selector (DSCP >> 3) while the table has no DSCP entry; else
 * skb->priority when it is 0..7. Larger skb->priority
 * values (tc class ids, TC_PRIO_* beyond 7) map to priority 0.
 *
 * On a device with no queue of its own (IFF_NO_QUEUE: veth, and the other
 * virtual devices that hand an skb on rather than complete it) a dequeued
 * skb is orphaned: released from its socket, as a NIC's TX completion
 * would, so that a veth lab does not carry the sender's socket charge on
 * into the next namespace (skb_scrub_packet keeps it). Its software TX
 * timestamp, which the driver could no longer deliver without the socket,
 * is taken first. On a real NIC the socket stays with the skb until the
 * driver completes it: TX timestamps, TCP small queues and AF_PACKET's
 * TX_RING see the bytes in the ring as they would without flowctl.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pm_runtime.h>
#include <linux/skbuff.h>
#include <linux/xarray.h>
#include <net/dsfield.h>
#include <net/netns/generic.h>
#include "flowctl.h"

/* The APP table's highest priority for dscp; DSCP >> 3 while it has none. */
static u8 fctl_dscp_prio(const struct fctl_cfg *cfg, u8 dscp)
{
	if (!cfg->dscp_app)
		return dscp >> 3;
	return cfg->dscp_prios[dscp] ? fls(cfg->dscp_prios[dscp]) - 1 : 0;
}

u8 fctl_classify(const struct fctl_cfg *cfg, struct sk_buff *skb)
{
	int off = skb_mac_header_was_set(skb) ? skb_mac_offset(skb) : 0;
	__be16 proto = skb->protocol;
	u8 dsfield;

	if (skb_vlan_tag_present(skb))
		return skb_vlan_tag_get_prio(skb);
	if (eth_type_vlan(proto)) {
		struct vlan_hdr _vh;
		const struct vlan_hdr *vh;

		vh = skb_header_pointer(skb, off + ETH_HLEN, sizeof(_vh), &_vh);
		if (vh)
			return ntohs(vh->h_vlan_TCI) >> VLAN_PRIO_SHIFT;
		return 0;
	}
	if (cfg->trust == FLOWCTL_TRUST_DSCP) {
		u8 _b[2];
		const u8 *b;

		b = skb_header_pointer(skb, off + ETH_HLEN, sizeof(_b), _b);
		if (b && proto == htons(ETH_P_IP) && (b[0] >> 4) == 4)
			return fctl_dscp_prio(cfg, b[1] >> 2);
		if (b && proto == htons(ETH_P_IPV6) && (b[0] >> 4) == 6) {
			dsfield = (b[0] << 4) | (b[1] >> 4);
			return fctl_dscp_prio(cfg, dsfield >> 2);
		}
	}
	return skb->priority < FCTL_PRIOS ? skb->priority : 0;
}

static int fctl_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			struct sk_buff **to_free)
{
	struct fctl_queue *qq = qdisc_priv(sch);
	struct fctl_sched *q = qq->q;
	unsigned int len = qdisc_pkt_len(skb);
	const struct fctl_cfg *cfg;
	struct fctl_band *b;
	u8 prio;

	/* No lane of its own for 0x8808: the port's own XOFF/XON go to the
	 * driver directly (tx.c), and so do flowctl send's (a packet socket
	 * with PACKET_QDISC_BYPASS). Any other MAC Control frame that reaches
	 * a band is data like any other: classified, limited and gated.
	 */
	/* The transmit path holds rcu_read_lock_bh(). */
	cfg = rcu_dereference_bh(q->cfg);
	prio = fctl_classify(cfg, skb);
	b = &qq->band[prio];
	if (unlikely(b->backlog + len > cfg->limit)) {
		fctl_heard_dropped(skb, sch, prio, cfg->trust);
		fctl_stat_inc(&b->syncp, &b->drops);
		return qdisc_drop(skb, sch, to_free);
	}
	/* The watchdog drops the data that arrives for a priority stormed
	 * under drop; the link's control traffic still goes.
	 */
	if (unlikely(READ_ONCE(q->wd_drop) & BIT(prio)) && !fctl_wd_control(skb)) {
		fctl_stat_inc(&b->syncp, &b->wd_tx_drop);
		return qdisc_drop(skb, sch, to_free);
	}
	fctl_charge_skb(skb, sch, prio, cfg->trust);
	qq->shaper_idle |= !sch->q.qlen;
	__qdisc_enqueue_tail(skb, &b->q);
	qq->busy |= BIT(qq->rank[prio]);
	b->backlog += len;
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	return NET_XMIT_SUCCESS;
}

/*
 * The first band, in dequeue order, among the ranks in mask (the strict
 * classes, or one ETS class) that holds packets and whose gate is open, or
 * NULL; *next is lowered to the earliest time a gate it passed over opens.
 */
static struct fctl_band *fctl_pick(struct fctl_queue *qq, unsigned long mask,
				   u64 *now, u64 *next)
{
	unsigned long m;
	int prio;

	for (m = qq->busy & mask; m; m &= m - 1) {
		u64 until;

		prio = qq->order[__ffs(m)];
		/* Pairs with WRITE_ONCE() in rx.c: a stale read only delays
		 * us to the __netif_schedule() that follows the write. The
		 * clock is read only for a band that has a gate.
		 */
		until = READ_ONCE(qq->q->prx[prio].until);
		if (until) {
			if (!*now)
				*now = ktime_get_ns();
			if (until > *now) {
				*next = min(*next, until);
				continue;
			}
		}
		return &qq->band[prio];
	}
	return NULL;
}

/*
 * Deficit round robin over the ETS classes: at its turn a class with a band
 * to send from sends its head packet if its deficit covers it, else earns
 * its quantum and the next class has its turn. A class with nothing to
 * send, or only bands its partner paused, loses its deficit: it earns
 * nothing while paused and cannot burst past its share when released.
 * Unused shares go to the classes that have traffic (work conserving).
 * When a whole round passes and nobody can send (a small share, a large
 * GSO packet), the rounds until the first class can are granted at once,
 * as DRR would grant them one empty round at a time: at most two rounds of
 * eight turns per packet.
 */
static struct fctl_band *fctl_ets_pick(struct fctl_queue *qq, u64 *now, u64 *next)
{
	struct fctl_band *cand[FCTL_PRIOS];
	u32 len[FCTL_PRIOS], rounds, r;
	bool any = false;
	int tc, step, pass;

	for (tc = 0; tc < FCTL_PRIOS; tc++) {
		cand[tc] = qq->ets_mask & BIT(tc) ?
			   fctl_pick(qq, qq->tc_ranks[tc], now, next) : NULL;
		if (cand[tc]) {
			/* Shares are of the wire (802.1Qaz), as the shaper's. */
			len[tc] = fctl_wire_len(cand[tc]->q.head);
			any = true;
		} else {
			qq->deficit[tc] = 0;
		}
	}
	if (!any)
		return NULL;
	for (pass = 0; pass < 2; pass++) {
		for (step = 0; step < FCTL_PRIOS; step++) {
			tc = qq->ets_tc;
			if (cand[tc]) {
				if (len[tc] <= qq->deficit[tc]) {
					qq->deficit[tc] -= len[tc];
					return cand[tc];
				}
				qq->deficit[tc] += qq->quantum[tc];
			}
			qq->ets_tc = (tc + 1) % FCTL_PRIOS;
		}
		rounds = U32_MAX;
		for (tc = 0; tc < FCTL_PRIOS; tc++) {
			if (!cand[tc])
				continue;
			r = len[tc] > qq->deficit[tc] ?
			    DIV_ROUND_UP(len[tc] - qq->deficit[tc], qq->quantum[tc]) : 0;
			rounds = min(rounds, r);
		}
		for (tc = 0; tc < FCTL_PRIOS; tc++)
			if (cand[tc])
				qq->deficit[tc] += rounds * qq->quantum[tc];
	}
	/* Not reached: the second round finds a class its deficit covers. */
	for (tc = 0; tc < FCTL_PRIOS; tc++)
		if (cand[tc])
			return cand[tc];
	return NULL;
}

static struct sk_buff *fctl_dequeue(struct Qdisc *sch)
{
	struct fctl_queue *qq = qdisc_priv(sch);
	u64 next = U64_MAX, now = 0, rate;
	struct sk_buff *skb;
	struct fctl_band *b;

	/* The run loop's last call finds nothing: no clock read for it. */
	if (!sch->q.qlen)
		return NULL;

	/* The shaper: a virtual clock of the wire. While the queue stays
	 * sendable, a late wake-up (timer latency, a VM's stalled CPU) may
	 * catch up by FCTL_SHAPER_CATCHUP_NS of line time, so it does not lower
	 * the average rate. A wire that was idle (empty, or every queued band
	 * paused) earns nothing: its clock restarts at the next transmission.
	 */
	rate = READ_ONCE(qq->q->rate);
	if (rate) {
		now = ktime_get_ns();
		if (now < qq->t_next) {
			qdisc_watchdog_schedule_ns(&qq->watchdog, qq->t_next);
			return NULL;
		}
	}

	/* Strict classes first, highest class first; then the ETS classes
	 * (802.1Qaz) by deficit round robin.
	 */
	b = fctl_pick(qq, qq->strict_ranks, &now, &next);
	if (!b && (qq->busy & ~qq->strict_ranks))
		b = fctl_ets_pick(qq, &now, &next);
	if (b) {
		skb = __qdisc_dequeue_head(&b->q);
		if (!b->q.qlen) {
			qq->busy &= ~BIT(qq->rank[b - qq->band]);
			b->empties++;
		}
		b->backlog -= qdisc_pkt_len(skb);
		u64_stats_update_begin(&b->syncp);
		if (unlikely(READ_ONCE(qq->q->wd_forward) & BIT(b - qq->band)))
			u64_stats_inc(&b->wd_tx_forward);
		u64_stats_inc(&b->tx_packets);
		u64_stats_add(&b->tx_bytes, qdisc_pkt_len(skb));
		u64_stats_update_end(&b->syncp);
		fctl_uncharge_skb(skb);
		if (rate) {
			qq->t_next = max(qq->t_next, qq->shaper_idle ? now :
					now - FCTL_SHAPER_CATCHUP_NS) +
				    div64_u64((u64)fctl_wire_len(skb) * 8 *
					      NSEC_PER_SEC, rate);
			qq->shaper_idle = false;
		}
		goto found;
	}
	qq->shaper_idle = true;
	if (next != U64_MAX)
		qdisc_watchdog_schedule_ns(&qq->watchdog, next);
	return NULL;

found:
	qdisc_qstats_backlog_dec(sch, skb);
	sch->q.qlen--;
	qdisc_bstats_update(sch, skb);
	if (qq->orphan && skb->sk) {
		if (skb_shinfo(skb)->tx_flags & SKBTX_SW_TSTAMP)
			skb_tstamp_tx(skb, NULL);
		skb_orphan(skb);
	}
	return skb;
}

static void fctl_purge_queue(struct qdisc_skb_head *qh)
{
	struct sk_buff *skb;

	for (skb = qh->head; skb; skb = skb->next)
		fctl_uncharge_skb(skb);
	rtnl_kfree_skbs(qh->head, qh->tail);
	qh->head = NULL;
	qh->tail = NULL;
	qh->qlen = 0;
}

static void fctl_purge(struct Qdisc *sch)
{
	struct fctl_queue *qq = qdisc_priv(sch);
	int prio;

	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		fctl_purge_queue(&qq->band[prio].q);
		qq->band[prio].backlog = 0;
	}
	qq->busy = 0;
}

static void fctl_reset(struct Qdisc *sch)
{
	struct fctl_queue *qq = qdisc_priv(sch);

	fctl_purge(sch);
	/* qdisc_reset(), our only caller, zeroes qlen and backlog. */
	qdisc_watchdog_cancel(&qq->watchdog);
}

/*
 * Each queue that holds packets looks again. Only a queue's qdisc that is
 * grafted and active: one that qdisc_create() destroys after a later step
 * failed was never grafted, and one on a softnet queue must not be freed.
 */
void fctl_schedule(struct fctl_sched *q)
{
	struct fctl_queue *qq;

	rcu_read_lock();
	list_for_each_entry_rcu(qq, &q->queues, node) {
		struct Qdisc *sch = qq->sch;

		if (rcu_access_pointer(sch->dev_queue->qdisc) == sch &&
		    !test_bit(__QDISC_STATE_DEACTIVATED, &sch->state) &&
		    READ_ONCE(sch->q.qlen))
			__netif_schedule(sch);
	}
	rcu_read_unlock();
}

/* The packets the device's queues hold at prio. */
u32 fctl_prio_qlen(struct fctl_sched *q, int prio)
{
	struct fctl_queue *qq;
	u32 n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(qq, &q->queues, node)
		n += READ_ONCE(qq->band[prio].q.qlen);
	rcu_read_unlock();
	return n;
}

/* How often a queue's band at prio was emptied by dequeue (the watchdog). */
u64 fctl_prio_empties(struct fctl_sched *q, int prio)
{
	struct fctl_queue *qq;
	u64 n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(qq, &q->queues, node)
		n += READ_ONCE(qq->band[prio].empties);
	rcu_read_unlock();
	return n;
}

/*
 * The device's flowctl: its root qdisc's, or under mq or mqprio the one
 * its TX queues' flowctl children share. Under RTNL.
 */
struct fctl_sched *fctl_from_dev(struct net_device *dev)
{
	struct Qdisc *sch = rtnl_dereference(dev->qdisc);
	unsigned int i;

	if (sch && sch->ops == &fctl_qdisc_ops)
		return ((struct fctl_queue *)qdisc_priv(sch))->q;
	if (!sch || !(sch->flags & TCQ_F_MQROOT))
		return NULL;
	for (i = 0; i < dev->num_tx_queues; i++) {
		sch = rtnl_dereference(netdev_get_tx_queue(dev, i)->qdisc_sleeping);
		if (sch && sch->ops == &fctl_qdisc_ops)
			return ((struct fctl_queue *)qdisc_priv(sch))->q;
	}
	return NULL;
}

/*
 * Each namespace's flowctl ports by ifindex, for the netlink dump: one
 * lookup resumes a part, and the walk touches flowctl ports only, not
 * every device of the namespace. Written at init and destroy, read by
 * the dump, all under RTNL. A port's device keeps its ifindex and its
 * namespace while the qdisc lives (a move to another namespace shuts its
 * qdiscs down first).
 */
static unsigned int fctl_net_id __read_mostly;

struct fctl_net {
	struct xarray ports;
};

struct xarray *fctl_net_ports(struct net *net)
{
	struct fctl_net *fn = net_generic(net, fctl_net_id);

	return &fn->ports;
}

static int __net_init fctl_net_setup(struct net *net)
{
	xa_init(fctl_net_ports(net));
	return 0;
}

/* Called after the namespace's devices, and their qdiscs, are gone. */
static void __net_exit fctl_net_cleanup(struct net *net)
{
	xa_destroy(fctl_net_ports(net));
}

static struct pernet_operations fctl_net_ops = {
	.init	= fctl_net_setup,
	.exit	= fctl_net_cleanup,
	.id	= &fctl_net_id,
	.size	= sizeof(struct fctl_net),
};

int fctl_net_init(void)
{
	return register_pernet_subsys(&fctl_net_ops);
}

void fctl_net_exit(void)
{
	unregister_pernet_subsys(&fctl_net_ops);
}

/* The port is listed; a replace that grafts a new flowctl lists the new. */
static int fctl_net_add(struct fctl_sched *q)
{
	struct net_device *dev = q->dev;

	return xa_err(xa_store(fctl_net_ports(dev_net(dev)), dev->ifindex, q,
			       GFP_KERNEL));
}

/*
 * The port goes, if it is the one listed. When another flowctl is the
 * device's root (this one was created for a graft that failed), that one
 * takes the slot back: replacing an entry allocates nothing.
 */
static void fctl_net_del(struct fctl_sched *q)
{
	struct net_device *dev = q->dev;
	struct fctl_sched *root = fctl_from_dev(dev);

	xa_cmpxchg(fctl_net_ports(dev_net(dev)), dev->ifindex, q,
		   root != q ? root : NULL, GFP_KERNEL);
}

/*
 * The speed that converts quanta to time: a configured speed wins, then the
 * shaper's rate, then the device's own link speed when it runs full duplex
 * (PAUSE does not exist on half duplex). Called under RTNL.
 */
u32 fctl_resolve_speed(struct fctl_sched *q, const struct fctl_cfg *cfg, u8 *srcp)
{
	struct net_device *dev = q->dev;
	struct ethtool_link_ksettings ks;
	u8 src = FLOWCTL_SPEED_SRC_NONE;
	u32 speed = 0;

	if (cfg->speed) {
		speed = cfg->speed;
		src = FLOWCTL_SPEED_SRC_CONFIG;
	} else if (cfg->rate) {
		speed = max_t(u64, div_u64(cfg->rate, 1000000), 1);
		src = FLOWCTL_SPEED_SRC_RATE;
	} else if (!__ethtool_get_link_ksettings(dev, &ks) &&
		   ks.base.speed && ks.base.speed != (u32)SPEED_UNKNOWN &&
		   ks.base.duplex == DUPLEX_FULL) {
		/* A driver may report anything: the headroom arithmetic
		 * holds for Ethernet's speeds, not for any u32.
		 */
		speed = min_t(u32, ks.base.speed, FCTL_MAX_SPEED);
		src = FLOWCTL_SPEED_SRC_ETHTOOL;
	}
	*srcp = src;
	return speed;
}

/*
 * Also the thresholds, whose headroom depends on the speed. A new speed
 * under tx on, on a link that carries frames, can leave our XOFF too short
 * to refresh (set refuses such a configuration; ethtool and the link do
 * not ask): counted and logged. A link without carrier sends nothing.
 */
void fctl_update_speed(struct fctl_sched *q)
{
	const struct fctl_cfg *cfg = rtnl_dereference(q->cfg);
	struct net_device *dev = q->dev;
	struct fctl_queue *qq;
	u8 src;
	u32 speed = fctl_resolve_speed(q, cfg, &src);

	if (speed != READ_ONCE(q->speed_mbps) && cfg->tx &&
	    cfg->mode != FLOWCTL_MODE_OFF && netif_carrier_ok(dev) &&
	    !fctl_xoff_lasts(cfg->quanta, speed)) {
		atomic64_inc(&q->tx_xoff_short);
		if (net_ratelimit())
			netdev_warn(dev,
				    "flowctl: at %u Mb/s our XOFF of %u quanta lasts under %u us, before its refresh: the partner will send again (flowctl set dev %s quanta ...)\n",
				    speed, cfg->quanta,
				    (u32)(2 * FCTL_TX_MIN_REFRESH_NS / NSEC_PER_USEC),
				    dev->name);
	}
	WRITE_ONCE(q->speed_mbps, speed);
	WRITE_ONCE(q->speed_src, src);
	if (READ_ONCE(q->rate) != cfg->rate) {
		/* The wire's clock restarts at the new rate: a t_next that a
		 * slower rate put far ahead must not hold the queue.
		 */
		list_for_each_entry(qq, &q->queues, node) {
			spin_lock_bh(qdisc_lock(qq->sch));
			qq->t_next = 0;
			qq->shaper_idle = true;
			spin_unlock_bh(qdisc_lock(qq->sch));
		}
		WRITE_ONCE(q->rate, cfg->rate);
	}
	fctl_tx_thresholds(q);
}

/*
 * What cfg gives dequeue, under the qdisc lock: the service order (by
 * class, then priority, highest first) and each band's rank in it, the
 * ranks of the strict classes and of each class, which ranks hold packets,
 * and the ETS classes with their quanta.
 */
static void fctl_order(struct fctl_queue *qq, const struct fctl_cfg *cfg)
{
	int tc, prio, n = 0;

	memset(qq->tc_ranks, 0, sizeof(qq->tc_ranks));
	qq->ets_mask = 0;
	for (tc = 0; tc < FCTL_PRIOS; tc++) {
		if (cfg->tc_bw[tc])
			qq->ets_mask |= BIT(tc);
		qq->quantum[tc] = cfg->tc_bw[tc] * FCTL_ETS_QUANTUM;
		qq->deficit[tc] = 0;
	}
	qq->busy = 0;
	qq->strict_ranks = 0;
	for (tc = FCTL_PRIOS - 1; tc >= 0; tc--) {
		for (prio = FCTL_PRIOS - 1; prio >= 0; prio--) {
			if (((cfg->prio_tc >> (4 * prio)) & 0xf) != tc)
				continue;
			qq->order[n] = prio;
			qq->rank[prio] = n;
			qq->tc_ranks[tc] |= BIT(n);
			if (!(qq->ets_mask & BIT(tc)))
				qq->strict_ranks |= BIT(n);
			if (qq->band[prio].q.qlen)
				qq->busy |= BIT(n);
			n++;
		}
	}
}

struct fctl_cfg *fctl_cfg_dup(struct fctl_sched *q)
{
	return kmemdup(rtnl_dereference(q->cfg), sizeof(struct fctl_cfg),
		       GFP_KERNEL);
}

/*
 * Publish a new configuration (validated by the caller, under RTNL), or
 * free it if the kernel's APP table refuses its DSCP entries. Gates
 * that the new configuration no longer honors open at once, in the same
 * rx_lock section that publishes it: a frame the new one honors, however
 * soon it comes, closes a gate that then stays closed.
 */
int fctl_cfg_commit(struct fctl_sched *q, struct fctl_cfg *ncfg,
		    struct netlink_ext_ack *extack)
{
	struct fctl_cfg *old = rtnl_dereference(q->cfg);
	struct fctl_events evs = { .n = 0 };
	struct fctl_queue *qq;
	u8 keep = 0;
	int prio, err;
	u64 now;

	/* The kernel's APP table first: if it refuses, nothing changed. */
	err = fctl_app_sync(q, old, ncfg, true);
	if (err) {
		NL_SET_ERR_MSG(extack,
			       "the kernel's DCB APP table refused an entry (one for this ifindex in another namespace?)");
		kfree(ncfg);
		return err;
	}
	if (ncfg->rx && ncfg->mode == FLOWCTL_MODE_PAUSE &&
	    old->rx && old->mode == FLOWCTL_MODE_PAUSE)
		keep = 0xff;
	else if (ncfg->rx && ncfg->mode == FLOWCTL_MODE_PFC &&
		 old->rx && old->mode == FLOWCTL_MODE_PFC)
		keep = ncfg->pfc_prios & old->pfc_prios;

	/* Under rx_lock: no received frame acts under old once this returns
	 * (rx.c reads the configuration under it).
	 */
	spin_lock_bh(&q->rx_lock);
	now = ktime_get_ns();
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		if (!(keep & BIT(prio)))
			fctl_rx_open(q, prio, now, &evs);
	fctl_wd_config(q, old, ncfg, now, &evs);
	rcu_assign_pointer(q->cfg, ncfg);
	spin_unlock_bh(&q->rx_lock);
	/* Each queue's order follows; fctl_order() takes what a band holds
	 * under either as it finds it.
	 */
	list_for_each_entry(qq, &q->queues, node) {
		spin_lock_bh(qdisc_lock(qq->sch));
		fctl_order(qq, ncfg);
		spin_unlock_bh(qdisc_lock(qq->sch));
	}
	/* Gates opened; storms the new configuration ended (watchdog off,
	 * new action).
	 */
	if (evs.n)
		fctl_notify_events(q, &evs);
	fctl_tx_count(q, ncfg->tx);

	fctl_update_speed(q);
	fctl_app_sync(q, old, ncfg, false);
	fctl_doors_notify(q, old);
	kfree_rcu(old, rcu);
	fctl_tx_reconsider(q);
	fctl_schedule(q);
	return 0;
}

static void fctl_band_read(const struct fctl_band *b, struct fctl_band_counts *c)
{
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&b->syncp);
		c->tx_packets = u64_stats_read(&b->tx_packets);
		c->tx_bytes = u64_stats_read(&b->tx_bytes);
		c->drops = u64_stats_read(&b->drops);
		c->wd_tx_drop = u64_stats_read(&b->wd_tx_drop);
		c->wd_tx_forward = u64_stats_read(&b->wd_tx_forward);
	} while (u64_stats_fetch_retry(&b->syncp, start));
}

/* What one queue's eight bands sent and dropped, summed. */
void fctl_queue_read(const struct fctl_queue *qq, struct fctl_band_counts *c)
{
	struct fctl_band_counts b;
	int prio;

	memset(c, 0, sizeof(*c));
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		fctl_band_read(&qq->band[prio], &b);
		c->tx_packets += b.tx_packets;
		c->tx_bytes += b.tx_bytes;
		c->drops += b.drops + b.wd_tx_drop;
	}
}

/*
 * Under RTNL (the configuration), without the qdisc lock: a reader never
 * holds up the data path. Counters are each exact, not one instant.
 */
void fctl_snapshot(struct fctl_sched *q, struct fctl_snapshot *s)
{
	struct fctl_band_counts c;
	struct fctl_queue *qq;
	int prio;

	memset(s, 0, sizeof(*s));
	s->cfg = *rtnl_dereference(q->cfg);
	s->speed_mbps = READ_ONCE(q->speed_mbps);
	s->speed_src = READ_ONCE(q->speed_src);

	fctl_tx_read(q, &s->txs);
	list_for_each_entry(qq, &q->queues, node) {
		for (prio = 0; prio < FCTL_PRIOS; prio++) {
			struct fctl_band *b = &qq->band[prio];

			fctl_band_read(b, &c);
			s->prio[prio].tx_packets += c.tx_packets;
			s->prio[prio].tx_bytes += c.tx_bytes;
			s->prio[prio].drops += c.drops;
			s->prio[prio].wd_tx_drop += c.wd_tx_drop;
			s->prio[prio].wd_tx_forward += c.wd_tx_forward;
			s->prio[prio].backlog_bytes += READ_ONCE(b->backlog);
			s->prio[prio].backlog_packets += READ_ONCE(b->q.qlen);
		}
	}
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		s->prio[prio].xoff = READ_ONCE(q->thr_xoff[prio]);
		s->prio[prio].xon = READ_ONCE(q->thr_xon[prio]);
		s->prio[prio].tx_pfc = s->txs.prio_tx_pfc[prio];
		s->prio[prio].tx_pfc_xon = s->txs.prio_tx_pfc_xon[prio];
		s->prio[prio].charge_bytes =
			atomic64_read(&q->charge->bytes[prio]);
		s->prio[prio].partner_ignored =
			atomic64_read(&q->partner_ignored[prio]);
		s->prio[prio].xoff_active = !!(READ_ONCE(q->tx_active) &
					       BIT(prio));
		s->partner_ignored += s->prio[prio].partner_ignored;
	}
	s->xoff = READ_ONCE(q->thr_xoff[FCTL_PRIOS]);
	s->xon = READ_ONCE(q->thr_xon[FCTL_PRIOS]);
	s->tx_link_active = !!(READ_ONCE(q->tx_active) & FCTL_LINK_BIT);
	s->headroom = READ_ONCE(q->headroom);

	fctl_rx_snapshot(q, s);
	fctl_wd_snapshot(q, s);
}

/*
 * The state "flowctl -br show" prints, without the snapshot's counters:
 * one short critical section (rx_lock) and no per-priority copy. Under
 * RTNL.
 */
void fctl_brief(struct fctl_sched *q, struct fctl_brief *b)
{
	const struct fctl_cfg *cfg = rtnl_dereference(q->cfg);
	u16 active = READ_ONCE(q->tx_active);
	struct fctl_queue *qq;
	int prio;
	u64 now;

	b->mode = cfg->mode;
	b->rx = cfg->rx;
	b->tx = cfg->tx;
	b->pfc_prios = cfg->pfc_prios;
	b->speed_mbps = READ_ONCE(q->speed_mbps);
	b->xoff_active = (active & FCTL_LINK_BIT) ? 0xff : active & 0xff;

	b->backlog_bytes = 0;
	b->backlog_packets = 0;
	list_for_each_entry(qq, &q->queues, node) {
		b->backlog_bytes += READ_ONCE(qq->sch->qstats.backlog);
		b->backlog_packets += READ_ONCE(qq->sch->q.qlen);
	}

	b->paused = 0;
	b->stormed = 0;
	spin_lock_bh(&q->rx_lock);
	now = ktime_get_ns();
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		if (q->prx[prio].until > now)
			b->paused |= BIT(prio);
		if (q->pwd[prio].state == FLOWCTL_WD_STORMED)
			b->stormed |= BIT(prio);
	}
	spin_unlock_bh(&q->rx_lock);
}

void fctl_reset_counters(struct fctl_sched *q)
{
	struct fctl_queue *qq;
	int prio;

	list_for_each_entry(qq, &q->queues, node) {
		spin_lock_bh(qdisc_lock(qq->sch));
		for (prio = 0; prio < FCTL_PRIOS; prio++) {
			struct fctl_band *b = &qq->band[prio];

			u64_stats_update_begin(&b->syncp);
			u64_stats_set(&b->tx_packets, 0);
			u64_stats_set(&b->tx_bytes, 0);
			u64_stats_set(&b->drops, 0);
			u64_stats_set(&b->wd_tx_drop, 0);
			u64_stats_set(&b->wd_tx_forward, 0);
			u64_stats_update_end(&b->syncp);
		}
		spin_unlock_bh(qdisc_lock(qq->sch));
	}
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		atomic64_set(&q->partner_ignored[prio], 0);
	fctl_tx_reset_counters(q);
	fctl_rx_reset_counters(q);
	fctl_wd_reset_counters(q);
}

/*
 * A MAC whose own pause is on acts on PAUSE frames and drops them before
 * the host sees them: flowctl would count nothing and pause nothing. Said
 * at attach in the kernel log and to tc (a warning with its ACK); flowctl
 * doctor says the same with the fix, show -s shows the MAC's settings.
 */
static void fctl_warn_hw_pause(struct net_device *dev,
			       struct netlink_ext_ack *extack)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;
	struct ethtool_pauseparam pp = { .cmd = ETHTOOL_GPAUSEPARAM };
	struct device *parent = dev->dev.parent;
	bool read = false;

	if (!ops || !ops->get_pauseparam || fctl_pause_is_door(dev))
		return;
	/* As ethtool's netlink does (ethnl_ops_begin/complete): the device
	 * awake and present, the driver's begin and complete around it.
	 */
	if (parent)
		pm_runtime_get_sync(parent);
	if (netif_device_present(dev) && (!ops->begin || ops->begin(dev) >= 0)) {
		ops->get_pauseparam(dev, &pp);
		if (ops->complete)
			ops->complete(dev);
		read = true;
	}
	if (parent)
		pm_runtime_put(parent);
	if (!read || (!pp.rx_pause && !pp.tx_pause))
		return;
	netdev_info(dev,
		    "flowctl: the MAC's own pause is on (autoneg %s rx %s tx %s): it takes PAUSE frames before flowctl sees them; ethtool -A %s autoneg off rx off tx off\n",
		    pp.autoneg ? "on" : "off", pp.rx_pause ? "on" : "off",
		    pp.tx_pause ? "on" : "off", dev->name);
	NL_SET_ERR_MSG(extack,
		       "flowctl: the MAC's own pause is on: it takes PAUSE frames before flowctl sees them (ethtool -A DEV autoneg off rx off tx off; flowctl doctor)");
}

static bool fctl_kind_is(const struct net_device *dev, const char *const *kinds)
{
	const struct rtnl_link_ops *ops = dev->rtnl_link_ops;

	for (; ops && *kinds; kinds++)
		if (!strcmp(ops->kind, *kinds))
			return true;
	return false;
}

/*
 * PAUSE and PFC are link-local (802.3 31B): a port is one end of one link.
 * A device above other links (a bridge, a bond, a VLAN, a macvlan) or one
 * that carries frames to remote ends (a tunnel) would flood, tag or tunnel
 * our XOFF and never receive one: refused, with the right place to attach.
 * Ports of those devices are welcome.
 */
static int fctl_attach_check(const struct net_device *dev, bool tunnel_wire,
			     struct netlink_ext_ack *extack)
{
	static const char *const ipvlan[] = { "ipvlan", "ipvtap", NULL };
	/* Tunnels that can be one host's wire to another. */
	static const char *const wire[] = {
		"vxlan", "geneve", "gretap", "ip6gretap", NULL
	};
	static const char *const mirror[] = { "erspan", "ip6erspan", NULL };

	if (tunnel_wire && !fctl_kind_is(dev, wire))
		NL_SET_ERR_MSG(extack,
			       "flowctl: tunnel-wire is for a vxlan, geneve, gretap or ip6gretap device");
	else if (tunnel_wire)
		return 0;
	else if (dev->type != ARPHRD_ETHER)
		NL_SET_ERR_MSG(extack, "flowctl needs an Ethernet device");
	else if (netif_is_bridge_master(dev) || netif_is_ovs_master(dev))
		NL_SET_ERR_MSG(extack,
			       "flowctl: PAUSE is link-local, a bridge would flood it: attach flowctl to the bridge's ports, not to the bridge");
	else if (netif_is_lag_master(dev) || netif_is_failover(dev))
		NL_SET_ERR_MSG(extack,
			       "flowctl: PAUSE is per link: attach flowctl to each slave of the bond or team, not to its master");
	else if (is_vlan_dev(dev))
		NL_SET_ERR_MSG(extack,
			       "flowctl: PAUSE and PFC frames are untagged: attach flowctl to the VLAN's real device (PFC carries the priorities)");
	else if (netif_is_macvlan(dev) || fctl_kind_is(dev, ipvlan) ||
		 netif_is_macsec(dev))
		NL_SET_ERR_MSG(extack,
			       "flowctl: this device shares its lower device's link: attach flowctl to the lower device");
	else if (netif_is_l3_master(dev))
		NL_SET_ERR_MSG(extack,
			       "flowctl: a VRF is not a link: attach flowctl to its ports");
	else if (fctl_kind_is(dev, wire))
		NL_SET_ERR_MSG(extack,
			       "flowctl: a tunnel would carry PAUSE to its remote ends: attach flowctl to the underlay's ports, or add tunnel-wire on where the tunnel is a point-to-point wire to one host");
	else if (fctl_kind_is(dev, mirror))
		NL_SET_ERR_MSG(extack,
			       "flowctl: ERSPAN mirrors one way: attach flowctl to the underlay's ports");
	else
		return 0;
	return -EOPNOTSUPP;
}

static bool fctl_qdisc_hashed(struct net_device *dev, u32 handle)
{
	struct Qdisc *p;

	hash_for_each_possible(dev->qdisc_hash, p, hash, handle)
		if (p->handle == handle)
			return true;
	return false;
}

/*
 * flowctl is the device's root qdisc, or a TX queue's own under mq or
 * mqprio (class n is queue n - 1). The port's receive hook, gates and
 * charge belong to the device, shared by its queues; under a classful
 * parent that dequeues from it (prio, htb) a gate would hold the parent,
 * and a kick would run the child alone: refused.
 */
static int fctl_parent_check(struct Qdisc *sch, struct netlink_ext_ack *extack)
{
	struct net_device *dev = qdisc_dev(sch);
	struct Qdisc *root = rtnl_dereference(dev->qdisc);
	u32 major = TC_H_MAJ(sch->parent), minor = TC_H_MIN(sch->parent);
	bool mq;

	if (sch->parent == TC_H_ROOT)
		return 0;
	if (root && !(root->flags & TCQ_F_BUILTIN) && root->handle == major)
		mq = root->flags & TCQ_F_MQROOT;
	else
		/* A parent not listed yet is creating its children in its
		 * init, as mq and mqprio create theirs (default_qdisc).
		 */
		mq = !fctl_qdisc_hashed(dev, major);
	if (mq && minor >= 1 && minor <= dev->num_tx_queues &&
	    sch->dev_queue == netdev_get_tx_queue(dev, minor - 1))
		return 0;
	NL_SET_ERR_MSG(extack,
		       "flowctl must be the device's root qdisc or a TX queue's under mq: tc qdisc add dev DEV root flowctl");
	return -EOPNOTSUPP;
}

static LIST_HEAD(fctl_scheds);		/* RTNL */

/* The device's flowctl that the children of one mq share. */
static struct fctl_sched *fctl_sched_find(struct net_device *dev, u32 parent)
{
	struct fctl_sched *q;

	list_for_each_entry(q, &fctl_scheds, list)
		if (q->dev == dev && q->parent == parent)
			return q;
	return NULL;
}

/*
 * A new device flowctl with qq its first queue. On failure the queue's
 * destroy (fctl_queue_leave) undoes what was done.
 */
static int fctl_sched_create(struct fctl_queue *qq, struct nlattr *opt,
			     struct netlink_ext_ack *extack)
{
	struct net_device *dev = qdisc_dev(qq->sch);
	struct fctl_sched *q, *root;
	const struct nlattr *wire;
	struct fctl_cfg *cfg;
	int err;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	/* First: fctl_sched_free() puts. */
	fctl_keys_get();
	q->dev = dev;
	q->parent = qq->sch->parent == TC_H_ROOT ? TC_H_ROOT :
		    TC_H_MAJ(qq->sch->parent);
	INIT_LIST_HEAD(&q->queues);
	list_add_rcu(&qq->node, &q->queues);
	q->nqueues = 1;
	qq->q = q;
	list_add(&q->list, &fctl_scheds);
	fctl_rx_init(q);
	fctl_tx_init(q);

	/* Read before the checks: the one setting that decides an attach. */
	wire = opt ? nla_find(nla_data(opt), nla_len(opt),
			      FLOWCTL_A_DEV_TUNNEL_WIRE) : NULL;
	if (wire && (nla_len(wire) != sizeof(u8) || nla_get_u8(wire) > 1)) {
		NL_SET_ERR_MSG_ATTR(extack, wire, "tunnel-wire: on or off");
		return -EINVAL;
	}
	err = fctl_attach_check(dev, wire && nla_get_u8(wire), extack);
	if (err)
		return err;

	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!cfg)
		return -ENOMEM;
	cfg->mode = FLOWCTL_MODE_PAUSE;
	cfg->rx = 1;
	cfg->pfc_prios = 0xff;
	cfg->trust = FLOWCTL_TRUST_PCP;
	cfg->quanta = 0xffff;
	cfg->limit = FCTL_DEFAULT_LIMIT;
	cfg->prio_tc = FLOWCTL_PRIO_TC_8021Q;
	cfg->tunnel_wire = wire && nla_get_u8(wire);
	/* A flowctl that replaces one takes the device's APP table over. */
	root = fctl_from_dev(dev);
	if (root) {
		memcpy(cfg->dscp_prios, rtnl_dereference(root->cfg)->dscp_prios,
		       FCTL_DSCPS);
		cfg->dscp_app = rtnl_dereference(root->cfg)->dscp_app;
	}
	/* tc qdisc add ... flowctl OPTIONS: the defaults, then the options,
	 * checked as "flowctl set" checks them.
	 */
	if (opt) {
		err = fctl_opts_parse(q, cfg, opt, extack);
		if (err) {
			kfree(cfg);
			return err;
		}
	}
	fctl_order(qq, cfg);
	RCU_INIT_POINTER(q->cfg, cfg);
	q->charge = fctl_charge_alloc(q);
	if (!q->charge)
		return -ENOMEM;
	fctl_tx_count(q, cfg->tx);
	fctl_update_speed(q);

	err = fctl_rx_hook_register(q, extack);
	if (!err)
		err = fctl_net_add(q);
	if (!err)
		fctl_warn_hw_pause(dev, extack);
	if (!err)
		err = fctl_port_get(q);
	return err;
}

/* The last queue went: the device's flowctl goes. */
static void fctl_sched_free(struct fctl_sched *q)
{
	/* The hook and the expiry timer go first: after this nothing on the
	 * receive side can reach q or schedule a queue.
	 */
	fctl_port_put(q);
	fctl_net_del(q);
	fctl_tx_count(q, false);
	fctl_tx_unpublish(q);
	fctl_rx_destroy(q);
	fctl_tx_destroy(q);
	list_del(&q->list);
	/* An egress port that found q before fctl_tx_unpublish() may still
	 * read q and q->cfg under RCU: both are freed after a grace period.
	 */
	kfree_rcu(rcu_dereference_protected(q->cfg, 1), rcu);
	kfree_rcu(q, rcu);
	fctl_keys_put();
}

/*
 * Another TX queue of an mq joins the device's flowctl. Its options, if
 * any, change the device's configuration, as tc qdisc change would.
 */
static int fctl_change(struct Qdisc *sch, struct nlattr *opt,
		       struct netlink_ext_ack *extack);

static int fctl_queue_join(struct fctl_queue *qq, struct fctl_sched *q,
			   struct nlattr *opt, struct netlink_ext_ack *extack)
{
	qq->q = q;
	spin_lock_bh(qdisc_lock(qq->sch));
	fctl_order(qq, rtnl_dereference(q->cfg));
	spin_unlock_bh(qdisc_lock(qq->sch));
	list_add_tail_rcu(&qq->node, &q->queues);
	q->nqueues++;
	return fctl_change(qq->sch, opt, extack);
}

static int fctl_init(struct Qdisc *sch, struct nlattr *opt,
		     struct netlink_ext_ack *extack)
{
	struct fctl_queue *qq = qdisc_priv(sch);
	struct fctl_sched *q;
	int err, prio;

	qq->sch = sch;
	qdisc_watchdog_init(&qq->watchdog, sch);
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		u64_stats_init(&qq->band[prio].syncp);
	qq->orphan = !!(qdisc_dev(sch)->priv_flags & IFF_NO_QUEUE);

	err = fctl_parent_check(sch, extack);
	if (err)
		return err;
	q = sch->parent == TC_H_ROOT ? NULL :
	    fctl_sched_find(qdisc_dev(sch), TC_H_MAJ(sch->parent));
	if (q)
		return fctl_queue_join(qq, q, opt, extack);
	return fctl_sched_create(qq, opt, extack);
}

/* Also after a failed init (qdisc_create() calls destroy then). */
static void fctl_destroy(struct Qdisc *sch)
{
	struct fctl_queue *qq = qdisc_priv(sch);
	struct fctl_sched *q = qq->q;

	qdisc_watchdog_cancel(&qq->watchdog);
	if (!q)
		return;
	/* RCU readers (fctl_schedule, the watchdog's purge) may still hold
	 * qq: the qdisc's memory outlives this by a grace period.
	 */
	list_del_rcu(&qq->node);
	spin_lock_bh(qdisc_lock(sch));
	fctl_purge(sch);
	spin_unlock_bh(qdisc_lock(sch));
	if (!--q->nqueues)
		fctl_sched_free(q);
}

/* tc qdisc change, and replace of a flowctl by a flowctl: as "flowctl set". */
static int fctl_change(struct Qdisc *sch, struct nlattr *opt,
		       struct netlink_ext_ack *extack)
{
	struct fctl_sched *q = ((struct fctl_queue *)qdisc_priv(sch))->q;
	struct fctl_cfg *ncfg;
	int err;

	if (!opt)
		return 0;
	ncfg = fctl_cfg_dup(q);
	if (!ncfg)
		return -ENOMEM;
	err = fctl_opts_parse(q, ncfg, opt, extack);
	if (err) {
		kfree(ncfg);
		return err;
	}
	err = fctl_cfg_commit(q, ncfg, extack);
	if (!err)
		fctl_notify_config(q);
	return err;
}

static int fctl_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct fctl_sched *q = ((struct fctl_queue *)qdisc_priv(sch))->q;

	if (fctl_opts_dump(skb, rtnl_dereference(q->cfg),
			   READ_ONCE(q->speed_mbps)) < 0)
		return -1;
	return skb->len;
}

static int fctl_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct fctl_sched *q = ((struct fctl_queue *)qdisc_priv(sch))->q;
	struct tc_flowctl_xstats st = { 0 };
	struct fctl_snapshot *s;
	int prio;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	fctl_snapshot(q, s);
	st.speed_mbps = s->speed_mbps;
	st.speed_source = s->speed_src;
	st.headroom = s->headroom;
	st.xoff = s->xoff;
	st.xon = s->xon;
	st.rx_pause = s->rxs.rx_pause;
	st.rx_xon = s->rxs.rx_xon;
	st.rx_pfc = s->rxs.rx_pfc;
	st.tx_pause = s->txs.tx_pause;
	st.tx_xon = s->txs.tx_xon;
	st.tx_pfc = s->txs.tx_pfc;
	st.rx_ignored = s->rxs.rx_ignored;
	st.rx_malformed = s->rxs.rx_malformed;
	st.rx_unsupported = s->rxs.rx_unsupported;
	st.partner_ignored = s->partner_ignored;
	st.events_suppressed = s->events_suppressed;
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		if (s->prio[prio].pause_left_ns)
			st.paused |= BIT(prio);
		if (s->prio[prio].xoff_active || s->tx_link_active)
			st.xoff_active |= BIT(prio);
		st.prio_rx_pfc[prio] = s->prio[prio].rx_pfc;
		st.prio_tx_pfc[prio] = s->prio[prio].tx_pfc;
		st.prio_paused_ns_total[prio] = s->prio[prio].paused_ns_total;
		if (s->prio[prio].wd_state == FLOWCTL_WD_STORMED)
			st.wd_stormed |= BIT(prio);
		st.prio_wd_storms[prio] = s->prio[prio].wd_storms;
		st.prio_wd_drops[prio] = s->prio[prio].wd_tx_drop +
					 s->prio[prio].wd_rx_drop;
		st.prio_wd_tx_drop[prio] = s->prio[prio].wd_tx_drop;
		st.prio_wd_rx_drop[prio] = s->prio[prio].wd_rx_drop;
	}
	st.tx_storm_warning = s->txs.tx_storm_warning;
	st.tx_storm_error = s->txs.tx_storm_error;
	kfree(s);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

/*
 * The eight bands as tc classes MAJOR:1 .. MAJOR:8 (class n+1 is priority
 * n), for "tc -s class show": what each band sent, dropped and holds. They
 * are views: no child qdisc, no filter, nothing to change.
 */
static struct Qdisc *fctl_leaf(struct Qdisc *sch, unsigned long cl)
{
	return NULL;
}

static int fctl_graft(struct Qdisc *sch, unsigned long cl, struct Qdisc *new,
		      struct Qdisc **old, struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack, "flowctl's bands take no child qdisc");
	return -EOPNOTSUPP;
}

static unsigned long fctl_find(struct Qdisc *sch, u32 classid)
{
	unsigned long band = TC_H_MIN(classid);

	return band >= 1 && band <= FCTL_PRIOS ? band : 0;
}

static void fctl_walk(struct Qdisc *sch, struct qdisc_walker *arg)
{
	unsigned long band;

	if (arg->stop)
		return;
	for (band = 1; band <= FCTL_PRIOS; band++) {
		if (arg->count < arg->skip) {
			arg->count++;
			continue;
		}
		if (arg->fn(sch, band, arg) < 0) {
			arg->stop = 1;
			return;
		}
		arg->count++;
	}
}

static int fctl_dump_class(struct Qdisc *sch, unsigned long cl,
			   struct sk_buff *skb, struct tcmsg *tcm)
{
	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = TC_H_MAKE(sch->handle, cl);
	tcm->tcm_info = 0;
	return 0;
}

static int fctl_dump_class_stats(struct Qdisc *sch, unsigned long cl,
				 struct gnet_dump *d)
{
	struct fctl_queue *qq = qdisc_priv(sch);
	struct gnet_stats_basic_sync bstats;
	struct gnet_stats_queue qstats = { 0 };
	struct fctl_band *b = &qq->band[cl - 1];
	struct fctl_band_counts c;
	u32 qlen;

	gnet_stats_basic_sync_init(&bstats);
	fctl_band_read(b, &c);
	u64_stats_set(&bstats.bytes, c.tx_bytes);
	u64_stats_set(&bstats.packets, c.tx_packets);
	qstats.backlog = READ_ONCE(b->backlog);
	qstats.drops = (u32)c.drops;
	qlen = READ_ONCE(b->q.qlen);
	if (gnet_stats_copy_basic(d, NULL, &bstats, true) < 0 ||
	    gnet_stats_copy_queue(d, NULL, &qstats, qlen) < 0)
		return -1;
	return 0;
}

static const struct Qdisc_class_ops fctl_class_ops = {
	.graft		= fctl_graft,
	.leaf		= fctl_leaf,
	.find		= fctl_find,
	.walk		= fctl_walk,
	.dump		= fctl_dump_class,
	.dump_stats	= fctl_dump_class_stats,
};

struct Qdisc_ops fctl_qdisc_ops __read_mostly = {
	.cl_ops		= &fctl_class_ops,
	.id		= "flowctl",
	.priv_size	= sizeof(struct fctl_queue),
	.enqueue	= fctl_enqueue,
	.dequeue	= fctl_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= fctl_init,
	.reset		= fctl_reset,
	.destroy	= fctl_destroy,
	.change		= fctl_change,
	.dump		= fctl_dump,
	.dump_stats	= fctl_dump_stats,
	.owner		= THIS_MODULE,
};
