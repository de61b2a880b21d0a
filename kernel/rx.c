// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving PAUSE (802.3 Annex 31B) and PFC (Annex 31D, 802.1Q clause 36).
 *
 * MAC Control frames are taken at the netfilter netdev ingress hook of the
 * device the qdisc is attached to. That hook runs before any rx_handler, so
 * a bridge, bond or macvlan on the port never sees them (the bridge would
 * drop 01-80-C2-00-00-01 itself, and a packet_type handler would run too
 * late). Every such frame is consumed here; everything else costs one
 * comparison of skb->protocol.
 *
 * A valid frame that the port honors sets the gate of each priority it
 * names: until = now + quanta * 512 bit times at the port's speed. A new
 * frame replaces the running time, longer or shorter; a time of 0 opens the
 * gate at once and kicks the qdisc so the band transmits without waiting for
 * a timer. Gates are read by dequeue without rx_lock (one u64 per band);
 * every write that opens a gate earlier is followed by __netif_schedule(),
 * so a dequeue that read the old value is always followed by one that reads
 * the new value. A per-port hrtimer closes expired pause episodes for the
 * counters and reports their end to listeners.
 */
#include <linux/etherdevice.h>
#include <linux/netfilter_netdev.h>
#include <flowctl/maccontrol.h>
#include "flowctl.h"

void fctl_rx_event(struct fctl_events *evs, u8 type, s8 prio, u16 quanta,
		   u64 time_ns)
{
	struct fctl_event *e;

	if (!evs || evs->n >= ARRAY_SIZE(evs->ev))
		return;
	e = &evs->ev[evs->n++];
	e->type = type;
	e->prio = prio;
	e->quanta = quanta;
	e->time_ns = time_ns;
}

/* Which priority an event names: under link-level PAUSE all eight gates
 * move together and are reported once, without a priority.
 */
static struct fctl_events *fctl_evs_for(struct fctl_sched *q, int prio,
					struct fctl_events *evs, s8 *evprio)
{
	if (q->rx_link) {
		*evprio = -1;
		return prio == 0 ? evs : NULL;
	}
	*evprio = prio;
	return evs;
}

/* Close an episode whose time ran out before anyone looked. rx_lock held. */
static void fctl_close_expired(struct fctl_sched *q, int prio, u64 now,
			       struct fctl_events *evs)
{
	struct fctl_prio_rx *r = &q->prx[prio];
	s8 evprio;

	if (!r->until || r->until > now)
		return;
	r->paused_ns += r->until - r->start;
	evs = fctl_evs_for(q, prio, evs, &evprio);
	fctl_rx_event(evs, FLOWCTL_EVENT_PAUSE_END, evprio, r->quanta,
		      r->until - r->start);
	WRITE_ONCE(r->until, 0);
}

/* Open a running gate now. rx_lock held. */
bool fctl_rx_open(struct fctl_sched *q, int prio, u64 now, struct fctl_events *evs)
{
	struct fctl_prio_rx *r = &q->prx[prio];
	s8 evprio;

	fctl_close_expired(q, prio, now, evs);
	if (!r->until)
		return false;
	r->paused_ns += now - r->start;
	evs = fctl_evs_for(q, prio, evs, &evprio);
	fctl_rx_event(evs, FLOWCTL_EVENT_PAUSE_END, evprio, 0, now - r->start);
	WRITE_ONCE(r->until, 0);
	return true;
}

/*
 * Apply one received time to one priority. Returns true when the gate opens
 * earlier than it would have, so the caller must kick the qdisc.
 */
static bool fctl_gate(struct fctl_sched *q, const struct fctl_cfg *cfg, int prio,
		      u16 quanta, u64 ns, u64 now, struct fctl_events *evs)
{
	struct fctl_prio_rx *r = &q->prx[prio];
	bool earlier;
	s8 evprio;

	if (!quanta)
		return fctl_rx_open(q, prio, now, evs);

	fctl_close_expired(q, prio, now, evs);
	earlier = r->until && now + ns < r->until;
	if (!r->until) {
		r->start = now;
		r->episodes++;
		evs = fctl_evs_for(q, prio, evs, &evprio);
		fctl_rx_event(evs, FLOWCTL_EVENT_PAUSE_START, evprio, quanta, ns);
		fctl_wd_watch(q, cfg, prio, now);
	}
	r->quanta = quanta;
	WRITE_ONCE(r->until, now + ns);
	return earlier;
}

/* Arm the expiry timer for the earliest running gate. rx_lock held. */
static void fctl_arm_expiry(struct fctl_sched *q)
{
	u64 next = U64_MAX;
	int prio;

	if (q->rx_dead)
		return;
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		if (q->prx[prio].until)
			next = min(next, q->prx[prio].until);
	if (next != U64_MAX)
		hrtimer_start(&q->expiry, ns_to_ktime(next),
			      HRTIMER_MODE_ABS_SOFT);
}

static enum hrtimer_restart fctl_expiry(struct hrtimer *timer)
{
	struct fctl_sched *q = container_of(timer, struct fctl_sched, expiry);
	struct fctl_events evs = { .n = 0 };
	u64 now = ktime_get_ns();
	int prio;

	spin_lock(&q->rx_lock);
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		fctl_close_expired(q, prio, now, &evs);
	fctl_arm_expiry(q);
	spin_unlock(&q->rx_lock);

	if (evs.n)
		fctl_notify_events(q, &evs);
	return HRTIMER_NORESTART;
}

static void fctl_rx_frame(struct fctl_sched *q, struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	struct fctl_events evs = { .n = 0 };
	const struct fctl_cfg *cfg;
	u8 buf[MC_PFC_LEN];
	enum mc_result res;
	struct mc_frame f;
	bool kick = false;
	unsigned int n;
	u32 speed;
	u64 now;
	int prio;
	u8 honor;

	res = MC_ERR_SHORT;
	/* 802.3 MAC Control frames are never VLAN-tagged (Annex 31A): a tag
	 * the device stripped into skb->vlan_tci makes the frame malformed.
	 */
	if (skb_vlan_tag_present(skb)) {
		res = MC_ERR_ETHERTYPE;
	} else if (skb_mac_header_was_set(skb) &&
		   skb_mac_header_len(skb) == ETH_HLEN) {
		memcpy(buf, skb_mac_header(skb), ETH_HLEN);
		n = min_t(unsigned int, skb->len, sizeof(buf) - ETH_HLEN);
		if (!skb_copy_bits(skb, 0, buf + ETH_HLEN, n))
			res = mc_parse(buf, ETH_HLEN + n, dev->dev_addr, &f);
	}

	/* The configuration is read under rx_lock, which fctl_cfg_commit()
	 * holds to open the gates it no longer honors and publish the new
	 * one: a frame acts under the old settings before that, under the
	 * new ones after.
	 */
	spin_lock(&q->rx_lock);
	if (unlikely(q->rx_dead))
		goto unlock;
	cfg = rcu_dereference(q->cfg);
	speed = READ_ONCE(q->speed_mbps);
	now = ktime_get_ns();
	if (res == MC_ERR_OPCODE) {
		q->rxs.rx_unsupported++;
		goto unlock;
	}
	if (res != MC_OK) {
		q->rxs.rx_malformed++;
		goto unlock;
	}

	if (f.opcode == MC_OPCODE_PAUSE) {
		if (f.pause_time)
			q->rxs.rx_pause++;
		else
			q->rxs.rx_xon++;
		/* With no usable speed a time cannot be converted: only an
		 * XON (which needs no speed) is honored.
		 */
		if (!cfg->rx || cfg->mode != FLOWCTL_MODE_PAUSE ||
		    (!speed && f.pause_time)) {
			q->rxs.rx_ignored++;
			goto unlock;
		}
		/* Priorities the watchdog stormed are not honored. */
		honor = 0xff;
		for (prio = 0; prio < FCTL_PRIOS; prio++)
			if (fctl_wd_frame(q, prio, now))
				honor &= ~BIT(prio);
		if (!honor) {
			q->rxs.rx_ignored++;
			goto unlock;
		}
		q->rx_link = 1;
		/* Who pauses us: what flowctl waitfor follows. */
		ether_addr_copy(q->partner_mac, buf + ETH_ALEN);
		for (prio = 0; prio < FCTL_PRIOS; prio++)
			if (honor & BIT(prio))
				kick |= fctl_gate(q, cfg, prio, f.pause_time,
						f.pause_time ?
						mc_quanta_to_ns(f.pause_time, speed) : 0,
						now, &evs);
	} else {
		q->rxs.rx_pfc++;
		for (prio = 0; prio < FCTL_PRIOS; prio++) {
			if (!(f.enable & BIT(prio)))
				continue;
			q->prx[prio].rx_pfc++;
			if (!f.time[prio])
				q->prx[prio].rx_pfc_xon++;
		}
		honor = 0;
		if (cfg->rx && cfg->mode == FLOWCTL_MODE_PFC)
			honor = f.enable & cfg->pfc_prios;
		for (prio = 0; prio < FCTL_PRIOS && !speed; prio++)
			if (f.time[prio])
				honor &= ~BIT(prio);
		/* Only a frame this port would honor keeps a storm going: with
		 * rx off, or outside pfc-prios, a stormed priority restores.
		 */
		for (prio = 0; prio < FCTL_PRIOS; prio++)
			if ((honor & BIT(prio)) && fctl_wd_frame(q, prio, now))
				honor &= ~BIT(prio);
		if (!honor) {
			q->rxs.rx_ignored++;
			goto unlock;
		}
		q->rx_link = 0;
		ether_addr_copy(q->partner_mac, buf + ETH_ALEN);
		for (prio = 0; prio < FCTL_PRIOS; prio++) {
			if (!(honor & BIT(prio)))
				continue;
			kick |= fctl_gate(q, cfg, prio, f.time[prio],
					f.time[prio] ?
					mc_quanta_to_ns(f.time[prio], speed) : 0,
					now, &evs);
		}
	}
	fctl_arm_expiry(q);
	/* Under rx_lock, as rx_dead is set: never a detached qdisc. */
	if (kick)
		fctl_schedule(q);
unlock:
	spin_unlock(&q->rx_lock);

	if (evs.n)
		fctl_notify_events(q, &evs);
}

/*
 * After nf_unregister_net_hook() a CPU that read the old hook list can
 * still call us: rx_dead makes it leave q alone (fctl_rx_destroy()).
 */
static unsigned int fctl_ingress(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	struct fctl_sched *q = priv;

	if (likely(skb->protocol != htons(ETH_P_PAUSE))) {
		/* The watchdog's drop action: RX_DROP. */
		if (unlikely(READ_ONCE(q->wd_drop)) && fctl_wd_rx_drop(q, skb))
			return NF_DROP;
		return NF_ACCEPT;
	}
	fctl_rx_frame(q, skb);
	consume_skb(skb);
	return NF_STOLEN;
}

void fctl_rx_snapshot(struct fctl_sched *q, struct fctl_snapshot *s)
{
	u64 now;
	int prio;

	spin_lock_bh(&q->rx_lock);
	/* Under the lock: no episode starts after it. */
	now = ktime_get_ns();
	s->rxs = q->rxs;
	s->events_suppressed = q->ev_suppressed;
	ether_addr_copy(s->partner_mac, q->partner_mac);
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		const struct fctl_prio_rx *r = &q->prx[prio];

		s->prio[prio].paused_ns_total = r->paused_ns;
		if (r->until) {
			s->prio[prio].paused_ns_total +=
				min(r->until, now) - r->start;
			if (r->until > now) {
				s->prio[prio].pause_left_ns = r->until - now;
				s->prio[prio].pause_elapsed_ns = now - r->start;
			}
		}
		s->prio[prio].episodes = r->episodes;
		s->prio[prio].rx_pfc = r->rx_pfc;
		s->prio[prio].rx_pfc_xon = r->rx_pfc_xon;
	}
	spin_unlock_bh(&q->rx_lock);
}

void fctl_rx_reset_counters(struct fctl_sched *q)
{
	u64 now = ktime_get_ns();
	int prio;

	spin_lock_bh(&q->rx_lock);
	memset(&q->rxs, 0, sizeof(q->rxs));
	q->ev_suppressed = 0;
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		struct fctl_prio_rx *r = &q->prx[prio];

		fctl_close_expired(q, prio, now, NULL);
		r->paused_ns = 0;
		r->rx_pfc = 0;
		r->rx_pfc_xon = 0;
		/* A pause still running counts as one episode from now. */
		r->episodes = r->until ? 1 : 0;
		if (r->until)
			r->start = now;
	}
	/* The watchdog's windows measured paused time from before. */
	rcu_read_lock();
	fctl_wd_restart(q, rcu_dereference(q->cfg), now);
	rcu_read_unlock();
	spin_unlock_bh(&q->rx_lock);
}

void fctl_rx_init(struct fctl_sched *q)
{
	spin_lock_init(&q->rx_lock);
	q->ev_credit = FCTL_EVENT_BURST * FCTL_EVENT_INTERVAL_NS;
	q->ev_last = ktime_get_ns();
	hrtimer_init(&q->expiry, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	q->expiry.function = fctl_expiry;
	fctl_wd_init(q);
}

int fctl_rx_hook_register(struct fctl_sched *q, struct netlink_ext_ack *extack)
{
	struct net_device *dev = q->dev;
	int err;

	q->hook.hook = fctl_ingress;
	q->hook.pf = NFPROTO_NETDEV;
	q->hook.hooknum = NF_NETDEV_INGRESS;
	q->hook.priority = INT_MIN;
	q->hook.dev = dev;
	q->hook.priv = q;
	err = nf_register_net_hook(dev_net(dev), &q->hook);
	if (err) {
		NL_SET_ERR_MSG(extack, "cannot register the netdev ingress hook");
		return err;
	}
	q->hook_registered = true;
	/* A NIC's receive filter drops multicast it was not told about, and
	 * PAUSE and PFC go to 01:80:c2:00:00:01. ip maddr shows it.
	 */
	err = dev_mc_add(dev, mc_pause_da);
	if (err) {
		NL_SET_ERR_MSG(extack,
			       "cannot add 01:80:c2:00:00:01 to the device's multicast filter");
		return err;
	}
	q->mc_joined = true;
	return 0;
}

/*
 * nf_unregister_net_hook() swaps the hook out but does not wait for a CPU
 * that is running it already; q's memory outlives such a call by a grace
 * period (qdiscs are freed by call_rcu). Every path that arms a timer or
 * schedules the qdisc does so under rx_lock after testing rx_dead: once
 * it is set under the lock, none will, and the timers can be cancelled.
 */
void fctl_rx_destroy(struct fctl_sched *q)
{
	if (q->hook_registered) {
		nf_unregister_net_hook(dev_net(q->dev), &q->hook);
		q->hook_registered = false;
	}
	if (q->mc_joined) {
		dev_mc_del(q->dev, mc_pause_da);
		q->mc_joined = false;
	}
	spin_lock_bh(&q->rx_lock);
	WRITE_ONCE(q->rx_dead, true);
	spin_unlock_bh(&q->rx_lock);
	hrtimer_cancel(&q->expiry);
	fctl_wd_destroy(q);
}
