// SPDX-License-Identifier: GPL-2.0
/*
 * The PFC watchdog (Documentation/watchdog.md): a queue its partner holds
 * paused while it has packets to send and sends none is "stormed".
 *
 * A window of cfg->wd_detect_ms opens when a priority's gate closes. When
 * it ends, the priority is stormed if its band holds packets, never ran
 * empty in the window, and its gate was closed for at least FCTL_WD_SHARE
 * percent of it (the share, not one unbroken pause: refreshes may leave
 * gaps in which a few packets leave). A queue that drains between pauses
 * runs empty; a band starved by a higher priority is not paused. Else a
 * new window opens if the gate is still closed. A stormed priority is, by
 * the action: ignored (gate opened, later frames not honored) and drained
 * by drop, ignored and sent by forward, or only reported by alert. It is
 * restored once no PAUSE/PFC naming it arrived for the restoration time.
 *
 * State: struct fctl_prio_wd under rx_lock; the masks the data path reads
 * (wd_drop, wd_forward) are written under rx_lock with WRITE_ONCE. One soft
 * hrtimer per port fires at the earliest window end or restoration time.
 * Purging a band takes the qdisc lock, never under rx_lock (the
 * configuration path takes the qdisc lock, then rx_lock).
 */
#include <linux/etherdevice.h>
#include <linux/ipv6.h>
#include <net/ndisc.h>
#include "flowctl.h"

#define FCTL_WD_SHARE	90	/* percent of a window paused to count */

static u64 fctl_wd_restore_ns(const struct fctl_cfg *cfg)
{
	u32 ms = cfg->wd_restore_ms ? cfg->wd_restore_ms :
		 2 * cfg->wd_detect_ms;

	return (u64)ms * NSEC_PER_MSEC;
}

/* Time prio's gate was closed, up to now. rx_lock held. */
static u64 fctl_paused_total(const struct fctl_sched *q, int prio, u64 now)
{
	const struct fctl_prio_rx *r = &q->prx[prio];

	return r->paused_ns + (r->until ? min(r->until, now) - r->start : 0);
}

/* Arm the timer for the earliest deadline of any priority. rx_lock held. */
static void fctl_wd_arm(struct fctl_sched *q, const struct fctl_cfg *cfg)
{
	u64 detect = (u64)cfg->wd_detect_ms * NSEC_PER_MSEC;
	u64 restore = fctl_wd_restore_ns(cfg);
	u64 next = U64_MAX;
	int prio;

	if (!detect || q->rx_dead)
		return;
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		const struct fctl_prio_wd *w = &q->pwd[prio];

		if (w->state == FLOWCTL_WD_STORMED)
			next = min(next, w->last_frame + restore);
		else if (w->win_start)
			next = min(next, w->win_start + detect);
	}
	if (next != U64_MAX)
		hrtimer_start(&q->wd_timer, ns_to_ktime(next),
			      HRTIMER_MODE_ABS_SOFT);
}

/* prio's gate just closed: watch it, unless it is watched already. */
void fctl_wd_watch(struct fctl_sched *q, const struct fctl_cfg *cfg, int prio,
		   u64 now)
{
	struct fctl_prio_wd *w = &q->pwd[prio];

	if (!cfg->wd_detect_ms || w->state == FLOWCTL_WD_STORMED ||
	    w->win_start)
		return;
	w->win_start = now;
	w->win_paused = fctl_paused_total(q, prio, now);
	w->win_empties = fctl_prio_empties(q, prio);
	fctl_wd_arm(q, cfg);
}

/*
 * A frame named prio. Returns true when the watchdog says to ignore it
 * (prio is stormed, and the action is not alert). rx_lock held.
 */
bool fctl_wd_frame(struct fctl_sched *q, int prio, u64 now)
{
	struct fctl_prio_wd *w = &q->pwd[prio];

	if (w->state != FLOWCTL_WD_STORMED)
		return false;
	w->last_frame = now;
	return !!(q->wd_ignore & BIT(prio));
}

/*
 * The priority a storm event names: in mode pause the eight storm and
 * restore together and are reported once, as the link (priority 0's
 * event, without a priority), as fctl_evs_for() reports their gates.
 */
static struct fctl_events *fctl_wd_evs(const struct fctl_cfg *cfg, int prio,
				       struct fctl_events *evs, s8 *evprio)
{
	if (cfg->mode == FLOWCTL_MODE_PAUSE) {
		*evprio = -1;
		return prio == 0 ? evs : NULL;
	}
	*evprio = prio;
	return evs;
}

/*
 * Under drop the gate opens only once the band is purged (fctl_wd_timer):
 * until then dequeue cannot send what the watchdog is about to drop.
 */
static void fctl_wd_storm(struct fctl_sched *q, const struct fctl_cfg *cfg,
			  int prio, u64 now, struct fctl_events *evs, u8 *purge)
{
	struct fctl_prio_wd *w = &q->pwd[prio];
	struct fctl_events *e;
	s8 evprio;

	w->state = FLOWCTL_WD_STORMED;
	w->storms++;
	w->stormed_at = now;
	w->last_frame = now;
	w->win_start = 0;
	e = fctl_wd_evs(cfg, prio, evs, &evprio);
	fctl_rx_event(e, FLOWCTL_EVENT_STORM_START, evprio, 0, 0);
	if (cfg->wd_action == FLOWCTL_WD_ALERT)
		return;
	q->wd_ignore |= BIT(prio);
	if (cfg->wd_action == FLOWCTL_WD_DROP) {
		WRITE_ONCE(q->wd_drop, q->wd_drop | BIT(prio));
		*purge |= BIT(prio);
	} else {
		fctl_rx_open(q, prio, now, evs);
		WRITE_ONCE(q->wd_forward, q->wd_forward | BIT(prio));
	}
}

static void fctl_wd_restore(struct fctl_sched *q, const struct fctl_cfg *cfg,
			    int prio, u64 now, struct fctl_events *evs)
{
	struct fctl_prio_wd *w = &q->pwd[prio];
	struct fctl_events *e;
	s8 evprio;

	w->state = FLOWCTL_WD_OPERATIONAL;
	w->restored++;
	w->stormed_ns += now - w->stormed_at;
	q->wd_ignore &= ~BIT(prio);
	WRITE_ONCE(q->wd_drop, q->wd_drop & ~BIT(prio));
	WRITE_ONCE(q->wd_forward, q->wd_forward & ~BIT(prio));
	e = fctl_wd_evs(cfg, prio, evs, &evprio);
	fctl_rx_event(e, FLOWCTL_EVENT_STORM_END, evprio, 0, now - w->stormed_at);
}

/* Drop what one queue's bands in mask hold, as the drop action asks. */
static void fctl_wd_purge_queue(struct fctl_queue *qq, u8 mask)
{
	struct Qdisc *sch = qq->sch;
	int prio;

	spin_lock(qdisc_lock(sch));
	/* A new configuration may have restored some meanwhile. */
	mask &= READ_ONCE(qq->q->wd_drop);
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		struct fctl_band *b = &qq->band[prio];
		struct sk_buff *skb;
		u32 n;

		if (!(mask & BIT(prio)))
			continue;
		/* Each packet once: control frames go back to the tail, in order. */
		for (n = b->q.qlen; n; n--) {
			skb = __qdisc_dequeue_head(&b->q);
			if (fctl_wd_control(skb)) {
				__qdisc_enqueue_tail(skb, &b->q);
				continue;
			}
			b->backlog -= qdisc_pkt_len(skb);
			fctl_stat_inc(&b->syncp, &b->wd_tx_drop);
			fctl_uncharge_skb(skb);
			qdisc_qstats_backlog_dec(sch, skb);
			qdisc_qstats_drop(sch);
			sch->q.qlen--;
			kfree_skb(skb);
		}
		if (!b->q.qlen)
			qq->busy &= ~BIT(qq->rank[prio]);
	}
	spin_unlock(qdisc_lock(sch));
}

static void fctl_wd_purge(struct fctl_sched *q, u8 mask)
{
	struct fctl_queue *qq;

	rcu_read_lock();
	list_for_each_entry_rcu(qq, &q->queues, node)
		fctl_wd_purge_queue(qq, mask);
	rcu_read_unlock();
}

static enum hrtimer_restart fctl_wd_timer(struct hrtimer *timer)
{
	struct fctl_sched *q = container_of(timer, struct fctl_sched, wd_timer);
	struct fctl_events evs = { .n = 0 }, opened = { .n = 0 };
	const struct fctl_cfg *cfg;
	u64 now, detect, restore;
	u8 purge = 0, stormy = 0;
	int prio;

	rcu_read_lock();
	spin_lock(&q->rx_lock);
	if (READ_ONCE(q->rx_dead))
		goto unlock;
	cfg = rcu_dereference(q->cfg);
	detect = (u64)cfg->wd_detect_ms * NSEC_PER_MSEC;
	restore = fctl_wd_restore_ns(cfg);
	now = ktime_get_ns();
	for (prio = 0; prio < FCTL_PRIOS && detect; prio++) {
		struct fctl_prio_wd *w = &q->pwd[prio];
		u64 paused;

		if (w->state == FLOWCTL_WD_STORMED) {
			if (now >= w->last_frame + restore)
				fctl_wd_restore(q, cfg, prio, now, &evs);
			continue;
		}
		if (!w->win_start || now < w->win_start + detect)
			continue;
		paused = fctl_paused_total(q, prio, now) - w->win_paused;
		if (fctl_prio_qlen(q, prio) &&
		    fctl_prio_empties(q, prio) == w->win_empties &&
		    paused * 100 >= (now - w->win_start) * FCTL_WD_SHARE) {
			stormy |= BIT(prio);
		} else {
			w->win_start = 0;
			if (q->prx[prio].until > now)
				fctl_wd_watch(q, cfg, prio, now);
		}
	}
	/* In mode pause one gate holds all eight: they storm as one. */
	if (stormy && cfg->mode == FLOWCTL_MODE_PAUSE)
		for (prio = 0; prio < FCTL_PRIOS; prio++)
			if (q->pwd[prio].state != FLOWCTL_WD_STORMED)
				stormy |= BIT(prio);
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		if (stormy & BIT(prio))
			fctl_wd_storm(q, cfg, prio, now, &evs, &purge);
	fctl_wd_arm(q, cfg);
unlock:
	spin_unlock(&q->rx_lock);
	rcu_read_unlock();

	if (purge) {
		fctl_wd_purge(q, purge);
		/* Purged: now the gates may open (fctl_wd_storm). */
		spin_lock(&q->rx_lock);
		now = ktime_get_ns();
		for (prio = 0; prio < FCTL_PRIOS; prio++)
			if ((purge & READ_ONCE(q->wd_drop) & BIT(prio)) &&
			    !READ_ONCE(q->rx_dead))
				fctl_rx_open(q, prio, now, &opened);
		spin_unlock(&q->rx_lock);
	}
	if (evs.n)
		fctl_notify_events(q, &evs);
	if (opened.n)
		fctl_notify_events(q, &opened);
	if (evs.n || opened.n) {
		/* Gates opened, the drop mask changed: dequeue and the XOFF
		 * state look again.
		 */
		fctl_schedule(q);
		fctl_tx_kick(q);
	}
	return HRTIMER_NORESTART;
}

/*
 * A new configuration (under rx_lock): a watchdog turned off, or given
 * another action, restores every stormed priority and forgets its windows.
 * A gate closed at that moment is watched from now: a partner whose
 * refreshes keep it closed (a deadlock, a storm) closes it no more.
 */
void fctl_wd_config(struct fctl_sched *q, const struct fctl_cfg *old,
		    const struct fctl_cfg *ncfg, u64 now, struct fctl_events *evs)
{
	int prio;

	if (old->wd_detect_ms == ncfg->wd_detect_ms &&
	    old->wd_action == ncfg->wd_action &&
	    old->mode == ncfg->mode) {
		/* A new restoration time applies to storms in force. */
		if (old->wd_restore_ms != ncfg->wd_restore_ms)
			fctl_wd_arm(q, ncfg);
		return;
	}
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		if (q->pwd[prio].state == FLOWCTL_WD_STORMED)
			fctl_wd_restore(q, old, prio, now, evs);
	fctl_wd_restart(q, ncfg, now);
}

/*
 * Forget every open window and watch each closed gate from now: after a
 * new configuration, or counters reset under a window (its paused time
 * would count from before the reset). rx_lock held.
 */
void fctl_wd_restart(struct fctl_sched *q, const struct fctl_cfg *cfg, u64 now)
{
	int prio;

	for (prio = 0; prio < FCTL_PRIOS; prio++)
		q->pwd[prio].win_start = 0;
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		if (q->prx[prio].until > now)
			fctl_wd_watch(q, cfg, prio, now);
}

/*
 * The link's own control traffic, which drop never takes (either way): a
 * link-local destination (STP, LACP, LLDP, 802.1X), slow protocols, LLDP,
 * ARP and IPv6 neighbour discovery. A switch traps these ahead of its
 * lossless queues; a storm that took them would take down the bond, the
 * DCBX exchange and the neighbours that outlive it.
 */
bool fctl_wd_control(const struct sk_buff *skb)
{
	int off = skb_network_offset(skb);
	struct ipv6hdr _ip6, *ip6;
	u8 _type, *type;

	switch (skb->protocol) {
	case htons(ETH_P_SLOW):
	case htons(ETH_P_LLDP):
	case htons(ETH_P_ARP):
		return true;
	case htons(ETH_P_IPV6):
		ip6 = skb_header_pointer(skb, off, sizeof(_ip6), &_ip6);
		if (!ip6 || ip6->nexthdr != IPPROTO_ICMPV6)
			break;
		type = skb_header_pointer(skb, off + sizeof(_ip6), 1, &_type);
		if (type && *type >= NDISC_ROUTER_SOLICITATION &&
		    *type <= NDISC_REDIRECT)
			return true;
		break;
	}
	return skb_mac_header_was_set(skb) &&
	       is_link_local_ether_addr(eth_hdr(skb)->h_dest);
}

/*
 * A frame arrived on the port (the ingress hook, any CPU, under RCU): true
 * when it is data of a priority stormed under drop (RX_DROP).
 */
bool fctl_wd_rx_drop(struct fctl_sched *q, struct sk_buff *skb)
{
	u8 prio = fctl_classify(rcu_dereference(q->cfg), skb);

	if (!(READ_ONCE(q->wd_drop) & BIT(prio)) || fctl_wd_control(skb))
		return false;
	atomic64_inc(&q->wd_rx_drop[prio]);
	return true;
}

void fctl_wd_snapshot(struct fctl_sched *q, struct fctl_snapshot *s)
{
	u64 now;
	int prio;

	spin_lock_bh(&q->rx_lock);
	/* Under the lock: no storm begins after it. */
	now = ktime_get_ns();
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		const struct fctl_prio_wd *w = &q->pwd[prio];

		s->prio[prio].wd_state = w->state;
		s->prio[prio].wd_storms = w->storms;
		s->prio[prio].wd_restored = w->restored;
		s->prio[prio].wd_stormed_ns = w->stormed_ns;
		if (w->state == FLOWCTL_WD_STORMED)
			s->prio[prio].wd_stormed_ns += now - w->stormed_at;
		s->prio[prio].wd_rx_drop = atomic64_read(&q->wd_rx_drop[prio]);
	}
	spin_unlock_bh(&q->rx_lock);
}

void fctl_wd_reset_counters(struct fctl_sched *q)
{
	u64 now = ktime_get_ns();
	int prio;

	spin_lock_bh(&q->rx_lock);
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		struct fctl_prio_wd *w = &q->pwd[prio];

		w->storms = w->state == FLOWCTL_WD_STORMED ? 1 : 0;
		w->restored = 0;
		w->stormed_ns = 0;
		if (w->state == FLOWCTL_WD_STORMED)
			w->stormed_at = now;
		atomic64_set(&q->wd_rx_drop[prio], 0);
	}
	spin_unlock_bh(&q->rx_lock);
}

/* rx_dead is set: nothing re-arms the timer. */
void fctl_wd_destroy(struct fctl_sched *q)
{
	hrtimer_cancel(&q->wd_timer);
}

void fctl_wd_init(struct fctl_sched *q)
{
	hrtimer_init(&q->wd_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	q->wd_timer.function = fctl_wd_timer;
}
