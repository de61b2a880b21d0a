// SPDX-License-Identifier: GPL-2.0
/*
 * Sending PAUSE and PFC: buffer accounting per ingress port and priority,
 * XOFF/XON from watermarks, refresh, and the "partner ignores us" counter.
 *
 * Accounting, the way switches do it: bytes that arrived on flowctl port A
 * with tx on at priority p and now wait in a flowctl band of any port of
 * the same namespace are charged to (A, p) from enqueue until dequeue, drop
 * or purge. A port with tx off is charged nothing: it sends no XOFF.
 * The egress port finds A through skb->skb_iif (the device the frame came
 * in on; 0 for local traffic, which is charged to no port) and keeps a
 * reference to A's struct fctl_charge in the skb's qdisc control block. The
 * charge object is refcounted and RCU-freed, so A can detach and re-attach
 * while its bytes wait elsewhere: they are uncharged from the object they
 * were charged to, never from a newer port of the same name.
 *
 * Decisions: enqueue checks XOFF, dequeue checks XON, both only at a
 * crossing. Neither sends anything itself: it kicks A's tx timer, which
 * holds no qdisc lock, recomputes the wanted state of every priority from
 * the charges, and sends what changed: a PAUSE frame for the link state, a
 * PFC frame with every priority that changed or is refreshed. Each frame
 * goes to the driver directly (dev_direct_xmit), ahead of every band, as a
 * MAC inserts PAUSE between frames: no received PAUSE holds it, a qdisc
 * being replaced or reset does not drop it, and no other sender's 0x8808
 * frame can take its place. A state changes only once the driver took its
 * frame; a refused frame is tried again FCTL_TX_RETRY_NS later. While an XOFF
 * is in force the timer re-sends it at half its time (at least every
 * FCTL_TX_MIN_REFRESH_NS). Detaching the qdisc sends XON for every state
 * still in force (fctl_tx_destroy), so the partner is released at once.
 */
#include <linux/etherdevice.h>
#include <linux/skbuff.h>
#include <linux/xarray.h>
#include <flowctl/maccontrol.h>
#include "flowctl.h"

/* 802.3 31B.3.7: quanta a partner may still send after a PAUSE arrives. */
static u32 fctl_allowance_quanta(u32 speed)
{
	if (speed <= 100)
		return 1;
	if (speed <= 1000)
		return 2;
	if (speed <= 10000)
		return 67;
	if (speed <= 25000)
		return 80;
	if (speed <= 40000)
		return 118;
	if (speed <= 50000)
		return 147;
	if (speed <= 100000)
		return 394;
	if (speed <= 200000)
		return 453;
	return 905;
}

/*
 * The largest frame in flight on dev, by its size on the wire: on veth and
 * bridges a GSO/GRO super-packet as large as the device allows (64 KB, up
 * to 512 KB with BIG TCP), with the wire overhead of its MSS segments.
 */
u32 fctl_max_wire_pkt(const struct net_device *dev)
{
	u32 g = max3(READ_ONCE(dev->gso_max_size), READ_ONCE(dev->gro_max_size),
		     GSO_LEGACY_MAX_SIZE);

#ifdef FCTL_HAVE_GSO_IPV4
	g = max3(g, READ_ONCE(dev->gso_ipv4_max_size),
		 READ_ONCE(dev->gro_ipv4_max_size));
#endif
	g = min_t(u32, g, GSO_MAX_SIZE);
	return g + g / FCTL_MSS * FCTL_WIRE_OVERHEAD;
}

/*
 * Headroom above XOFF: what may still arrive after we decide to send XOFF.
 * The partner's reaction allowance (a quantum is 64 bytes), plus, each way,
 * the largest frame in flight (max_wire), plus what the link carries while
 * software reacts: our XOFF leaves from a softirq, not from a MAC, and the
 * partner acts on it in its own (FCTL_SW_REACTION_NS). And what the link
 * itself holds on its round trip: 802.1Qbb's delay allowance, in bits.
 */
u32 fctl_headroom(u32 speed, u32 max_wire, u16 delay_bits)
{
	u64 sw;

	/* Speeds are clamped to FCTL_MAX_SPEED where they enter (netlink's
	 * policy, fctl_resolve_speed): 800000 * 10^6 / 8 * 500000 < 2^56.
	 */
	speed = min_t(u32, speed, FCTL_MAX_SPEED);
	sw = div_u64((u64)speed * 1000000 / 8 * FCTL_SW_REACTION_NS,
		     NSEC_PER_SEC);

	return fctl_allowance_quanta(speed) * (MC_QUANTUM_BITS / 8) +
	       2 * max_wire + (u32)min_t(u64, sw, FCTL_SW_REACTION_MAX) +
	       DIV_ROUND_UP(delay_bits, 8);
}

/*
 * Effective thresholds from the configuration and the device's largest
 * frame, read again at each configuration, speed or link change; under RTNL.
 */
void fctl_tx_thresholds(struct fctl_sched *q)
{
	const struct fctl_cfg *cfg = rtnl_dereference(q->cfg);
	u32 max_wire = fctl_max_wire_pkt(q->dev);
	u32 head = fctl_headroom(q->speed_mbps, max_wire, cfg->pfc_delay);
	u32 xoff, xon;
	int i;

	for (i = 0; i <= FCTL_PRIOS; i++) {
		xoff = i < FCTL_PRIOS ? cfg->prio_xoff[i] : cfg->xoff;
		xon = i < FCTL_PRIOS ? cfg->prio_xon[i] : cfg->xon;
		if (!xoff) {
			xoff = cfg->limit > head ? cfg->limit - head : 0;
			xon = xoff > 2 * max_wire ?
			      xoff - 2 * max_wire : xoff / 2;
		}
		WRITE_ONCE(q->thr_xoff[i], xoff);
		WRITE_ONCE(q->thr_xon[i], xon);
		/* The headroom this XOFF leaves is what the partner may
		 * send once it is in force (at least the formula's).
		 */
		WRITE_ONCE(q->allowance[i], cfg->limit > xoff ?
			   cfg->limit - xoff : 0);
	}
	WRITE_ONCE(q->headroom, head);
}

struct fctl_charge *fctl_charge_alloc(struct fctl_sched *q)
{
	struct fctl_charge *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	refcount_set(&c->ref, 1);
	RCU_INIT_POINTER(c->port, q);
	return c;
}

void fctl_charge_put(struct fctl_charge *c)
{
	if (refcount_dec_and_test(&c->ref))
		kfree_rcu(c, rcu);
}

static u64 fctl_charge_total(const struct fctl_charge *c)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < FCTL_PRIOS; i++)
		sum += atomic64_read(&c->bytes[i]);
	return sum;
}

/* Which state (bit p, or FCTL_LINK_BIT for PAUSE) the charge wants. */
static u16 fctl_tx_wanted(struct fctl_sched *q, const struct fctl_cfg *cfg)
{
	struct fctl_charge *c = q->charge;
	u16 active = READ_ONCE(q->tx_active), want = 0;
	u64 v;
	int i;

	if (!cfg->tx || cfg->mode == FLOWCTL_MODE_OFF)
		return 0;
	if (cfg->mode == FLOWCTL_MODE_PAUSE) {
		v = fctl_charge_total(c);
		if (v > READ_ONCE(q->thr_xoff[FCTL_PRIOS]) ||
		    ((active & FCTL_LINK_BIT) && v > READ_ONCE(q->thr_xon[FCTL_PRIOS])))
			want = FCTL_LINK_BIT;
		return want;
	}
	for (i = 0; i < FCTL_PRIOS; i++) {
		/* A priority the watchdog drops sends no pause upstream. */
		if (!(cfg->pfc_prios & BIT(i)) || (READ_ONCE(q->wd_drop) & BIT(i)))
			continue;
		v = atomic64_read(&c->bytes[i]);
		if (v > READ_ONCE(q->thr_xoff[i]) ||
		    ((active & BIT(i)) && v > READ_ONCE(q->thr_xon[i])))
			want |= BIT(i);
	}
	return want;
}

/*
 * A crossing: decide at once, in the tx timer's softirq. An egress port
 * finds q through its charge under RCU, with no reference: tx_lock orders
 * each kick against fctl_tx_destroy(), after which none arms the timer.
 */
void fctl_tx_kick(struct fctl_sched *q)
{
	spin_lock_bh(&q->tx_lock);
	q->tx_kicked = true;
	if (!q->tx_dying)
		hrtimer_start(&q->tx_timer, 0, HRTIMER_MODE_ABS_SOFT);
	spin_unlock_bh(&q->tx_lock);
}

static int fctl_foreign_upper(struct net_device *upper,
			      struct netdev_nested_priv *priv)
{
	return !net_eq(dev_net(upper), priv->data);
}

/*
 * Did skb come from in to out inside their namespace? skb_iif is an index
 * of the namespace skb was received in, and nothing in the skb says which
 * that was (the route is dropped before the qdisc on most devices): a frame
 * routed in another namespace and handed to out by a macvlan or ipvlan
 * stacked on it, or redirected by tc mirred, keeps an index that can name
 * an unrelated port here. So a port is charged only where skb_iif can be
 * trusted: the frame was bridged (in and out have the same master: a
 * bridge, an Open vSwitch datapath), or in is no bridge port and the frame
 * was neither redirected nor can have come through a device stacked on out
 * that lives in another namespace. Under RCU.
 */
static bool fctl_came_through(const struct sk_buff *skb, struct net_device *in,
			      struct net_device *out)
{
	struct netdev_nested_priv priv = { .data = dev_net(out) };
	struct net_device *m = netdev_master_upper_dev_get_rcu(in);

	if (m)
		return m == netdev_master_upper_dev_get_rcu(out);
	if (skb_is_redirected(skb))
		return false;
	return !netdev_walk_all_upper_dev_rcu(out, fctl_foreign_upper, &priv);
}

/*
 * The flowctl port skb came in on, if it is one and still attached, and
 * the priority it gives skb (the egress port's when both trust the same
 * field). Under RCU, in BH context.
 */
/*
 * Ports with tx on, in every namespace. While there are none, no skb can
 * be charged, and enqueue skips the ingress port's lookup (flowctl.h).
 */
atomic_t fctl_tx_ports = ATOMIC_INIT(0);

/* Count q while its configuration has tx on. Under RTNL. */
void fctl_tx_count(struct fctl_sched *q, bool on)
{
	if (q->tx_counted == on)
		return;
	q->tx_counted = on;
	if (on)
		atomic_inc(&fctl_tx_ports);
	else
		atomic_dec(&fctl_tx_ports);
}

static struct fctl_sched *fctl_ingress_port(struct sk_buff *skb, struct net *net,
					    u8 *prio, u8 etrust,
					const struct fctl_cfg **acfg,
					struct fctl_charge **cp)
{
	struct fctl_charge *c;
	struct fctl_sched *a;

	if (!skb->skb_iif)
		return NULL;
	/* The namespace's ports by ifindex, the root's and mq's alike: an
	 * entry's device is the one with that ifindex (fctl_net_del() drops
	 * it before the device can go or move).
	 */
	a = xa_load(fctl_net_ports(net), skb->skb_iif);
	if (!a || !fctl_came_through(skb, a->dev, skb->dev))
		return NULL;
	c = READ_ONCE(a->charge);
	if (!c || !rcu_access_pointer(c->port))
		return NULL;
	*acfg = rcu_dereference(a->cfg);
	if (!(*acfg)->tx)
		return NULL;
	*cp = c;
	if ((*acfg)->trust != etrust)
		*prio = fctl_classify(*acfg, skb);
	return a;
}

/*
 * A frame of len bytes at prio arrived from a's partner. If our XOFF that
 * covers it is in force, count it, and past the headroom that XOFF left,
 * the partner is not listening. Returns whether the XOFF was in force.
 */
static bool fctl_heard_in_xoff(struct fctl_sched *a, const struct fctl_cfg *acfg,
			       u8 prio, u32 len)
{
	bool pause = acfg->mode == FLOWCTL_MODE_PAUSE;
	int t = pause ? FCTL_PRIOS : prio;

	if (!(READ_ONCE(a->tx_active) & (pause ? FCTL_LINK_BIT : BIT(prio))))
		return false;
	if (atomic64_add_return(len, &a->since_xoff[t]) >
	    READ_ONCE(a->allowance[t]))
		atomic64_inc(&a->partner_ignored[prio]);
	return true;
}

/*
 * Charge skb, about to be enqueued on an egress port, to the flowctl port
 * it came in on. Called under the egress qdisc lock, in BH context.
 */
void __fc_charge_skb(struct sk_buff *skb, struct net *net, u8 prio, u8 etrust,
		     u32 len)
{
	struct fctl_skb_cb *cb = fctl_skb_cb(skb);
	const struct fctl_cfg *acfg;
	struct fctl_charge *c;
	struct fctl_sched *a;
	u64 v;
	int t;

	cb->charge = NULL;
	rcu_read_lock();
	a = fctl_ingress_port(skb, net, &prio, etrust, &acfg, &c);
	if (!a || !refcount_inc_not_zero(&c->ref))
		goto out;
	cb->charge = c;
	cb->cprio = prio;
	cb->wire_len = len;
	v = atomic64_add_return(len, &c->bytes[prio]);

	if (!fctl_heard_in_xoff(a, acfg, prio, len)) {
		t = prio;
		if (acfg->mode == FLOWCTL_MODE_PAUSE) {
			t = FCTL_PRIOS;
			v = fctl_charge_total(c);
		}
		if (v > READ_ONCE(a->thr_xoff[t]))
			fctl_tx_kick(a);
	}
out:
	rcu_read_unlock();
}

/*
 * skb is tail-dropped by an egress port: it is charged to nobody, but it
 * did arrive from the partner of the flowctl port it came in on, and counts
 * towards "the partner ignores our XOFF" like a frame that was queued.
 */
void __fc_heard_dropped(struct sk_buff *skb, struct net *net, u8 prio,
			u8 etrust, u32 len)
{
	const struct fctl_cfg *acfg;
	struct fctl_charge *c;
	struct fctl_sched *a;

	rcu_read_lock();
	a = fctl_ingress_port(skb, net, &prio, etrust, &acfg, &c);
	if (a)
		fctl_heard_in_xoff(a, acfg, prio, len);
	rcu_read_unlock();
}

/* Uncharge a dequeued, dropped or purged skb that was charged. */
void __fc_uncharge_skb(struct sk_buff *skb)
{
	struct fctl_skb_cb *cb = fctl_skb_cb(skb);
	struct fctl_charge *c = cb->charge;
	struct fctl_sched *a;
	u64 v;

	cb->charge = NULL;
	v = atomic64_sub_return(cb->wire_len, &c->bytes[cb->cprio]);
	rcu_read_lock();
	a = rcu_dereference(c->port);
	/* An XOFF in force, or one the storm guard holds back (tx.c), looks
	 * again once the charge falls to XON.
	 */
	if (a && (READ_ONCE(a->tx_active) | READ_ONCE(a->storm_blocked))) {
		u16 active = READ_ONCE(a->tx_active) | READ_ONCE(a->storm_blocked);
		int i = active & FCTL_LINK_BIT ? FCTL_PRIOS : cb->cprio;

		if (i == FCTL_PRIOS)
			v = fctl_charge_total(c);
		if ((active & (i == FCTL_PRIOS ? FCTL_LINK_BIT : BIT(i))) &&
		    v <= READ_ONCE(a->thr_xon[i]))
			fctl_tx_kick(a);
	}
	rcu_read_unlock();
	fctl_charge_put(c);
}

static struct sk_buff *fctl_tx_alloc(struct net_device *dev)
{
	struct sk_buff *skb;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + MC_FRAME_LEN, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_mac_header(skb);
	skb->dev = dev;
	skb->protocol = htons(ETH_P_PAUSE);
	skb->priority = TC_PRIO_CONTROL;
	return skb;
}

/*
 * To the driver, past every qdisc; whether it took the frame. Packet taps
 * (tcpdump on the port) get their copy first, as dev_hard_start_xmit()
 * gives them one: dev_direct_xmit() does not.
 */
static bool fctl_tx_xmit(struct sk_buff *skb)
{
	skb_set_network_header(skb, ETH_HLEN);
	if (dev_nit_active(skb->dev)) {
		local_bh_disable();
		dev_queue_xmit_nit(skb, skb->dev);
		local_bh_enable();
	}
	return dev_direct_xmit(skb, 0) == NETDEV_TX_OK;
}

/*
 * Announce the states in send: a PAUSE frame when the link state is in it,
 * a PFC frame naming every priority in it; each with the time that want
 * gives it (the configured quanta, or 0: XON). Returns the states whose
 * frame the driver took; only those are counted.
 */
static u16 fctl_tx_frames(struct fctl_sched *q, u16 want, u16 send,
			  const struct fctl_cfg *cfg)
{
	struct net_device *dev = q->dev;
	u16 time[MC_NUM_PRIOS] = { 0 };
	struct sk_buff *skb;
	u16 sent = 0;
	u8 enable;
	int i;

	if (send & FCTL_LINK_BIT) {
		skb = fctl_tx_alloc(dev);
		if (skb) {
			mc_build_pause(skb_put(skb, MC_FRAME_LEN), dev->dev_addr,
				       want & FCTL_LINK_BIT ? cfg->quanta : 0);
			if (fctl_tx_xmit(skb)) {
				sent |= FCTL_LINK_BIT;
				fctl_stat_inc(&q->txs.syncp, want & FCTL_LINK_BIT ?
					    &q->txs.tx_pause : &q->txs.tx_xon);
			}
		}
	}
	/* A PFC frame names every priority held as well (a refresh). */
	enable = send & 0xff ? (send | want) & 0xff : 0;
	if (!enable)
		return sent;
	skb = fctl_tx_alloc(dev);
	if (!skb)
		return sent;
	for (i = 0; i < FCTL_PRIOS; i++)
		if (enable & want & BIT(i))
			time[i] = cfg->quanta;
	mc_build_pfc(skb_put(skb, MC_FRAME_LEN), dev->dev_addr, enable, time);
	if (!fctl_tx_xmit(skb))
		return sent;
	u64_stats_update_begin(&q->txs.syncp);
	for (i = 0; i < FCTL_PRIOS; i++) {
		if (!(enable & BIT(i)))
			continue;
		u64_stats_inc(time[i] ? &q->txs.prio_tx_pfc[i] :
			      &q->txs.prio_tx_pfc_xon[i]);
	}
	u64_stats_inc(&q->txs.tx_pfc);
	u64_stats_update_end(&q->txs.syncp);
	return sent | enable;
}

/*
 * The pause-storm guard (Documentation/watchdog.md): no XOFF state may hold
 * the partner longer than tx_storm_ms, refreshes included (mlx5's
 * pfc-prevention-tout, fbnic's storm limit). At 85% of it, a warning is
 * counted once; at the limit the state is dropped (XON goes out), an error
 * counted, and it may not pause again until its charge falls below XON:
 * meanwhile what the partner sends is tail-dropped where it waits. Returns
 * want without the blocked states; *due is when to look again (0: none).
 * The tx timer's alone (fctl_tx_run).
 */
static u16 fctl_tx_guard(struct fctl_sched *q, const struct fctl_cfg *cfg,
			 u16 want, u16 active, u64 now, u64 *due)
{
	u64 limit = (u64)cfg->tx_storm_ms * NSEC_PER_MSEC, warn, t;
	u16 blocked = q->storm_blocked, bit;
	struct fctl_charge *c = q->charge;
	u64 v;
	int i;

	*due = 0;
	if (!limit || !cfg->tx || cfg->mode == FLOWCTL_MODE_OFF) {
		WRITE_ONCE(q->storm_blocked, 0);
		return want;
	}
	warn = div_u64(limit * 85, 100);
	/* States of the other mode (a mode change) are gone. */
	blocked &= cfg->mode == FLOWCTL_MODE_PAUSE ? FCTL_LINK_BIT : 0xff;
	for (i = 0; i <= FCTL_PRIOS; i++) {
		bit = i == FCTL_PRIOS ? FCTL_LINK_BIT : BIT(i);
		if (blocked & bit) {
			v = i == FCTL_PRIOS ? fctl_charge_total(c) :
			    atomic64_read(&c->bytes[i]);
			if (v <= READ_ONCE(q->thr_xon[i]))
				blocked &= ~bit;
			else
				want &= ~bit;
			continue;
		}
		if (!(want & active & bit))
			continue;
		t = now - q->xoff_began[i];
		/* A late look that finds the limit passed counts the
		 * warning it passed too.
		 */
		if (t >= warn && !(q->storm_warned & bit)) {
			q->storm_warned |= bit;
			fctl_stat_inc(&q->txs.syncp, &q->txs.tx_storm_warning);
		}
		if (t >= limit) {
			blocked |= bit;
			fctl_stat_inc(&q->txs.syncp, &q->txs.tx_storm_error);
			want &= ~bit;
			continue;
		}
		t = q->xoff_began[i] + (q->storm_warned & bit ? limit : warn);
		if (!*due || t < *due)
			*due = t;
	}
	WRITE_ONCE(q->storm_blocked, blocked);
	return want;
}

/*
 * Whether an XOFF of quanta at speed outlasts its refresh: the refresh
 * comes at half the pause, never sooner than FCTL_TX_MIN_REFRESH_NS, so the
 * pause must last twice that; with no speed there is no refresh.
 */
bool fctl_xoff_lasts(u16 quanta, u32 speed)
{
	return speed &&
	       mc_quanta_to_ns(quanta, speed) >= 2 * FCTL_TX_MIN_REFRESH_NS;
}

/* Half the time an XOFF gives, so a refresh lands before it runs out. */
static u64 fctl_tx_refresh_ns(const struct fctl_cfg *cfg, u32 speed)
{
	if (!speed || !cfg->quanta)
		return 0;
	return max_t(u64, mc_quanta_to_ns(cfg->quanta, speed) / 2,
		     FCTL_TX_MIN_REFRESH_NS);
}

/* Sends what changed; returns when to look again (0: on a kick only). */
static u64 fctl_tx_run(struct fctl_sched *q)
{
	const struct fctl_cfg *cfg;
	u16 active, want, changed, send, sent, now_on;
	u64 refresh, now, due, at = 0;
	u32 speed;
	int i;

	rcu_read_lock();
	cfg = rcu_dereference(q->cfg);
	speed = READ_ONCE(q->speed_mbps);
	active = READ_ONCE(q->tx_active);
	now = ktime_get_ns();
	want = fctl_tx_guard(q, cfg, fctl_tx_wanted(q, cfg), active, now, &due);
	changed = want ^ active;
	refresh = fctl_tx_refresh_ns(cfg, speed);
	/* A change is sent at once; a held XOFF is refreshed when due. */
	send = changed;
	if (want && now >= q->tx_refresh_at)
		send |= want;
	sent = send ? fctl_tx_frames(q, want, send, cfg) : 0;
	/* A state moves only once its frame is on its way. */
	changed &= sent;
	now_on = want & changed;
	for (i = 0; i <= FCTL_PRIOS; i++) {
		u16 bit = i == FCTL_PRIOS ? FCTL_LINK_BIT : BIT(i);

		if (!(now_on & bit))
			continue;
		atomic64_set(&q->since_xoff[i], 0);
		q->xoff_began[i] = now;
		q->storm_warned &= ~bit;
		if (cfg->tx_storm_ms) {
			u64 t = now + div_u64((u64)cfg->tx_storm_ms *
					      NSEC_PER_MSEC * 85, 100);

			if (!due || t < due)
				due = t;
		}
	}
	active ^= changed;
	WRITE_ONCE(q->tx_active, active);
	if (active && refresh && (sent & active))
		q->tx_refresh_at = now + refresh;
	/* Refused (a full ring): again soon, while the link can carry it. */
	if ((send & ~sent) && netif_running(q->dev) &&
	    netif_carrier_ok(q->dev))
		at = now + FCTL_TX_RETRY_NS;
	if (active && refresh && (!at || q->tx_refresh_at < at))
		at = q->tx_refresh_at;
	/* The guard's next warning or limit; a blocked state is looked at
	 * again when its charge moves (fctl_tx_kick) or at the next refresh.
	 */
	if (active && due && (!at || due < at))
		at = due;
	rcu_read_unlock();
	return at;
}

/*
 * The one caller of fctl_tx_run(): softirq, never on two CPUs at once. A
 * kick during a run leaves the timer queued to run again at once;
 * otherwise the run says when it is next due.
 */
static enum hrtimer_restart fctl_tx_timer_fn(struct hrtimer *timer)
{
	struct fctl_sched *q = container_of(timer, struct fctl_sched, tx_timer);
	u64 at;

	spin_lock(&q->tx_lock);
	q->tx_kicked = false;
	spin_unlock(&q->tx_lock);
	at = fctl_tx_run(q);
	spin_lock(&q->tx_lock);
	if (at && !q->tx_kicked && !q->tx_dying)
		hrtimer_start(timer, ns_to_ktime(at), HRTIMER_MODE_ABS_SOFT);
	spin_unlock(&q->tx_lock);
	return HRTIMER_NORESTART;
}

/* The port's transmit counters, without a lock. */
void fctl_tx_read(struct fctl_sched *q, struct fctl_tx_stats *t)
{
	const struct fctl_tx_counters *c = &q->txs;
	unsigned int start;
	int i;

	do {
		start = u64_stats_fetch_begin(&c->syncp);
		t->tx_pause = u64_stats_read(&c->tx_pause);
		t->tx_xon = u64_stats_read(&c->tx_xon);
		t->tx_pfc = u64_stats_read(&c->tx_pfc);
		for (i = 0; i < FCTL_PRIOS; i++) {
			t->prio_tx_pfc[i] = u64_stats_read(&c->prio_tx_pfc[i]);
			t->prio_tx_pfc_xon[i] =
				u64_stats_read(&c->prio_tx_pfc_xon[i]);
		}
		t->tx_storm_warning = u64_stats_read(&c->tx_storm_warning);
		t->tx_storm_error = u64_stats_read(&c->tx_storm_error);
	} while (u64_stats_fetch_retry(&c->syncp, start));
	t->tx_xoff_short = atomic64_read(&q->tx_xoff_short);
}

/* A frame the timer sends meanwhile may still be counted before zero. */
void fctl_tx_reset_counters(struct fctl_sched *q)
{
	struct fctl_tx_counters *c = &q->txs;
	int i;

	local_bh_disable();
	u64_stats_update_begin(&c->syncp);
	u64_stats_set(&c->tx_pause, 0);
	u64_stats_set(&c->tx_xon, 0);
	u64_stats_set(&c->tx_pfc, 0);
	for (i = 0; i < FCTL_PRIOS; i++) {
		u64_stats_set(&c->prio_tx_pfc[i], 0);
		u64_stats_set(&c->prio_tx_pfc_xon[i], 0);
	}
	u64_stats_set(&c->tx_storm_warning, 0);
	u64_stats_set(&c->tx_storm_error, 0);
	u64_stats_update_end(&c->syncp);
	local_bh_enable();
	atomic64_set(&q->tx_xoff_short, 0);
}

void fctl_tx_init(struct fctl_sched *q)
{
	u64_stats_init(&q->txs.syncp);
	spin_lock_init(&q->tx_lock);
	hrtimer_init(&q->tx_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	q->tx_timer.function = fctl_tx_timer_fn;
}

/* Re-evaluate after a configuration change (tx off sends XON). */
void fctl_tx_reconsider(struct fctl_sched *q)
{
	fctl_tx_kick(q);
}

/* Detach: stop being charged, stop sending. */
void fctl_tx_unpublish(struct fctl_sched *q)
{
	if (q->charge)
		RCU_INIT_POINTER(q->charge->port, NULL);
}

/*
 * An egress port that found q through its charge before fctl_tx_unpublish()
 * may still read q (its memory is freed after an RCU grace period, as the
 * qdisc's is) and kick it: once tx_dying is set under tx_lock, no kick and
 * no run arms the timer, and hrtimer_cancel() waits for a run in progress.
 * Then the partner is released from every XOFF still in force, at once.
 */
void fctl_tx_destroy(struct fctl_sched *q)
{
	u16 active;

	spin_lock_bh(&q->tx_lock);
	q->tx_dying = true;
	spin_unlock_bh(&q->tx_lock);
	hrtimer_cancel(&q->tx_timer);

	active = READ_ONCE(q->tx_active);
	if (active && rcu_access_pointer(q->cfg)) {
		fctl_tx_frames(q, 0, active, rcu_dereference_protected(q->cfg, 1));
		WRITE_ONCE(q->tx_active, 0);
	}
	if (q->charge) {
		fctl_charge_put(q->charge);
		WRITE_ONCE(q->charge, NULL);
	}
}
