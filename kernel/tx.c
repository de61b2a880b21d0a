// SPDX-License-Identifier: GPL-2.0
/*
 * Sending PAUSE and PFC: buffer accounting per ingress port and priority,
 * XOFF/XON from watermarks, refresh, and the "partner ignores us" counter.
 *
 * Accounting, the way switches do it: bytes that arrived on flowctl port A
 * at priority p and now wait in a flowctl band of any port of the same
 * namespace are charged to (A, p) from enqueue until dequeue, drop or purge.
 * The egress port finds A through skb->skb_iif (the device the frame came
 * in on; 0 for local traffic, which is charged to no port) and keeps a
 * reference to A's struct fc_charge in the skb's qdisc control block. The
 * charge object is refcounted and RCU-freed, so A can detach and re-attach
 * while its bytes wait elsewhere: they are uncharged from the object they
 * were charged to, never from a newer port of the same name.
 *
 * Decisions: enqueue checks XOFF, dequeue checks XON, both only at a
 * crossing. Neither sends anything itself: it kicks A's tx timer, whose
 * softirq callback holds no qdisc lock, recomputes the wanted state of every
 * priority from the charges, and sends one frame with all that changed
 * through dev_queue_xmit(). flowctl's enqueue puts MAC Control frames in a
 * control queue that dequeue serves first and no received PAUSE gates.
 * While an XOFF is in force the callback re-sends it at half its time.
 */
#include <linux/etherdevice.h>
#include <linux/skbuff.h>
#include <flowctl/maccontrol.h>
#include "flowctl.h"

/* 802.3 31B.3.7: quanta a partner may still send after a PAUSE arrives. */
static u32 fc_allowance_quanta(u32 speed)
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
 * Headroom above XOFF: what may still arrive after we decide to send XOFF.
 * The partner's reaction allowance (a quantum is 64 bytes), plus, each way,
 * the largest frame in flight (on veth and bridges a GSO/GRO super-packet
 * of up to 64 KB, charged by its size on the wire), plus what the link
 * carries while software reacts: our XOFF leaves from a softirq, not from
 * a MAC, and the partner acts on it in its own (FC_SW_REACTION_NS).
 */
u32 fc_headroom(u32 speed)
{
	u64 sw = div_u64((u64)speed * 1000000 / 8 * FC_SW_REACTION_NS,
			 NSEC_PER_SEC);

	return fc_allowance_quanta(speed) * (MC_QUANTUM_BITS / 8) +
	       2 * FC_MAX_WIRE_PKT + (u32)min_t(u64, sw, FC_SW_REACTION_MAX);
}

/* Effective thresholds from the configuration; under RTNL. */
void fc_tx_thresholds(struct fc_sched *q)
{
	const struct fc_cfg *cfg = rtnl_dereference(q->cfg);
	u32 head = fc_headroom(q->speed_mbps);
	u32 xoff, xon;
	int i;

	for (i = 0; i <= FC_PRIOS; i++) {
		xoff = i < FC_PRIOS ? cfg->prio_xoff[i] : cfg->xoff;
		xon = i < FC_PRIOS ? cfg->prio_xon[i] : cfg->xon;
		if (!xoff) {
			xoff = cfg->limit > head ? cfg->limit - head : 0;
			xon = xoff > 2 * FC_MAX_WIRE_PKT ?
			      xoff - 2 * FC_MAX_WIRE_PKT : xoff / 2;
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

struct fc_charge *fc_charge_alloc(struct fc_sched *q)
{
	struct fc_charge *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	refcount_set(&c->ref, 1);
	RCU_INIT_POINTER(c->port, q);
	return c;
}

void fc_charge_put(struct fc_charge *c)
{
	if (refcount_dec_and_test(&c->ref))
		kfree_rcu(c, rcu);
}

static u64 fc_charge_total(const struct fc_charge *c)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < FC_PRIOS; i++)
		sum += atomic64_read(&c->bytes[i]);
	return sum;
}

/* Which state (bit p, or FC_LINK_BIT for PAUSE) the charge wants. */
static u16 fc_tx_wanted(struct fc_sched *q, const struct fc_cfg *cfg)
{
	struct fc_charge *c = q->charge;
	u16 active = READ_ONCE(q->tx_active), want = 0;
	u64 v;
	int i;

	if (!cfg->tx || cfg->mode == FLOWCTL_MODE_OFF)
		return 0;
	if (cfg->mode == FLOWCTL_MODE_PAUSE) {
		v = fc_charge_total(c);
		if (v > READ_ONCE(q->thr_xoff[FC_PRIOS]) ||
		    ((active & FC_LINK_BIT) && v > READ_ONCE(q->thr_xon[FC_PRIOS])))
			want = FC_LINK_BIT;
		return want;
	}
	for (i = 0; i < FC_PRIOS; i++) {
		if (!(cfg->pfc_prios & BIT(i)))
			continue;
		v = atomic64_read(&c->bytes[i]);
		if (v > READ_ONCE(q->thr_xoff[i]) ||
		    ((active & BIT(i)) && v > READ_ONCE(q->thr_xon[i])))
			want |= BIT(i);
	}
	return want;
}

/* A crossing: decide at the end of this softirq, not at the next tick. */
static void fc_tx_kick(struct fc_sched *q)
{
	tasklet_schedule(&q->tx_tasklet);
}

/*
 * The flowctl port skb came in on, if it is one and still attached, and
 * the priority it gives skb (the egress port's when both trust the same
 * field). Under RCU, in BH context.
 */
static struct fc_sched *fc_ingress_port(struct sk_buff *skb, struct net *net,
					u8 *prio, u8 etrust,
					const struct fc_cfg **acfg,
					struct fc_charge **cp)
{
	struct net_device *in;
	struct fc_charge *c;
	struct fc_sched *a;
	struct Qdisc *sch;

	if (!skb->skb_iif)
		return NULL;
	in = dev_get_by_index_rcu(net, skb->skb_iif);
	sch = in ? rcu_dereference(in->qdisc) : NULL;
	if (!sch || sch->ops != &fc_qdisc_ops)
		return NULL;
	a = qdisc_priv(sch);
	c = a->charge;
	if (!c || !rcu_access_pointer(c->port))
		return NULL;
	*cp = c;
	*acfg = rcu_dereference(a->cfg);
	if ((*acfg)->trust != etrust)
		*prio = fc_classify(*acfg, skb);
	return a;
}

/*
 * A frame of len bytes at prio arrived from a's partner. If our XOFF that
 * covers it is in force, count it, and past the headroom that XOFF left,
 * the partner is not listening. Returns whether the XOFF was in force.
 */
static bool fc_heard_in_xoff(struct fc_sched *a, const struct fc_cfg *acfg,
			     u8 prio, u32 len)
{
	bool pause = acfg->mode == FLOWCTL_MODE_PAUSE;
	int t = pause ? FC_PRIOS : prio;

	if (!(READ_ONCE(a->tx_active) & (pause ? FC_LINK_BIT : BIT(prio))))
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
void fc_charge_skb(struct sk_buff *skb, struct net *net, u8 prio, u8 etrust,
		   u32 len)
{
	struct fc_skb_cb *cb = fc_skb_cb(skb);
	const struct fc_cfg *acfg;
	struct fc_charge *c;
	struct fc_sched *a;
	u64 v;
	int t;

	cb->charge = NULL;
	rcu_read_lock();
	a = fc_ingress_port(skb, net, &prio, etrust, &acfg, &c);
	if (!a || !refcount_inc_not_zero(&c->ref))
		goto out;
	cb->charge = c;
	cb->cprio = prio;
	cb->wire_len = len;
	v = atomic64_add_return(len, &c->bytes[prio]);

	if (!fc_heard_in_xoff(a, acfg, prio, len) && acfg->tx) {
		t = prio;
		if (acfg->mode == FLOWCTL_MODE_PAUSE) {
			t = FC_PRIOS;
			v = fc_charge_total(c);
		}
		if (v > READ_ONCE(a->thr_xoff[t]))
			fc_tx_kick(a);
	}
out:
	rcu_read_unlock();
}

/*
 * skb is tail-dropped by an egress port: it is charged to nobody, but it
 * did arrive from the partner of the flowctl port it came in on, and counts
 * towards "the partner ignores our XOFF" like a frame that was queued.
 */
void fc_heard_dropped(struct sk_buff *skb, struct net *net, u8 prio,
		      u8 etrust, u32 len)
{
	const struct fc_cfg *acfg;
	struct fc_charge *c;
	struct fc_sched *a;

	rcu_read_lock();
	a = fc_ingress_port(skb, net, &prio, etrust, &acfg, &c);
	if (a)
		fc_heard_in_xoff(a, acfg, prio, len);
	rcu_read_unlock();
}

/* Uncharge a dequeued, dropped or purged skb. Any context. */
void fc_uncharge_skb(struct sk_buff *skb)
{
	struct fc_skb_cb *cb = fc_skb_cb(skb);
	struct fc_charge *c = cb->charge;
	struct fc_sched *a;
	u64 v;

	if (!c)
		return;
	cb->charge = NULL;
	v = atomic64_sub_return(cb->wire_len, &c->bytes[cb->cprio]);
	rcu_read_lock();
	a = rcu_dereference(c->port);
	if (a && READ_ONCE(a->tx_active)) {
		u16 active = READ_ONCE(a->tx_active);
		int i = active & FC_LINK_BIT ? FC_PRIOS : cb->cprio;

		if (i == FC_PRIOS)
			v = fc_charge_total(c);
		if ((active & (i == FC_PRIOS ? FC_LINK_BIT : BIT(i))) &&
		    v <= READ_ONCE(a->thr_xon[i]))
			fc_tx_kick(a);
	}
	rcu_read_unlock();
	fc_charge_put(c);
}

static void fc_tx_frame(struct fc_sched *q, u16 want, u16 changed,
			const struct fc_cfg *cfg, u32 speed)
{
	struct net_device *dev = qdisc_dev(q->sch);
	u16 time[MC_NUM_PRIOS] = { 0 };
	struct sk_buff *skb;
	u8 enable = 0;
	int i;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + MC_FRAME_LEN, GFP_ATOMIC);
	if (!skb)
		return;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_mac_header(skb);
	if (want & FC_LINK_BIT || changed & FC_LINK_BIT) {
		mc_build_pause(skb_put(skb, MC_FRAME_LEN), dev->dev_addr,
			       want & FC_LINK_BIT ? cfg->quanta : 0);
		if (want & FC_LINK_BIT)
			q->txs.tx_pause++;
		else
			q->txs.tx_xon++;
	} else {
		/* Every priority whose state changed, and every one still
		 * held (a refresh), in one frame.
		 */
		enable = (want | changed) & 0xff;
		for (i = 0; i < FC_PRIOS; i++) {
			if (!(enable & BIT(i)))
				continue;
			time[i] = want & BIT(i) ? cfg->quanta : 0;
			if (time[i])
				q->txs.prio_tx_pfc[i]++;
			else
				q->txs.prio_tx_pfc_xon[i]++;
		}
		mc_build_pfc(skb_put(skb, MC_FRAME_LEN), dev->dev_addr, enable,
			     time);
		q->txs.tx_pfc++;
	}
	skb->dev = dev;
	skb->protocol = htons(ETH_P_PAUSE);
	skb->priority = TC_PRIO_CONTROL;
	skb_reset_network_header(skb);
	dev_queue_xmit(skb);
}

static void fc_tx_run(struct fc_sched *q)
{
	const struct fc_cfg *cfg;
	u16 active, want, changed;
	u32 speed;
	u64 refresh;
	int i;

	rcu_read_lock();
	cfg = rcu_dereference(q->cfg);
	speed = READ_ONCE(q->speed_mbps);
	active = READ_ONCE(q->tx_active);
	want = fc_tx_wanted(q, cfg);
	changed = want ^ active;
	for (i = 0; i <= FC_PRIOS; i++)
		if ((want & ~active) & (i == FC_PRIOS ? FC_LINK_BIT : BIT(i)))
			atomic64_set(&q->since_xoff[i], 0);
	WRITE_ONCE(q->tx_active, want);
	/* A change is sent at once; a held XOFF is refreshed when due. */
	if (changed || (want && ktime_get_ns() >= q->tx_refresh_at))
		fc_tx_frame(q, want, changed, cfg, speed);
	refresh = 0;
	if (want && speed && cfg->quanta) {
		refresh = mc_quanta_to_ns(cfg->quanta, speed) / 2;
		if (changed || ktime_get_ns() >= q->tx_refresh_at)
			q->tx_refresh_at = ktime_get_ns() + refresh;
	}
	rcu_read_unlock();
	if (refresh)
		hrtimer_start(&q->tx_timer, ns_to_ktime(q->tx_refresh_at),
			      HRTIMER_MODE_ABS_SOFT);
	else
		hrtimer_try_to_cancel(&q->tx_timer);
}

/* Both run in softirq context, one at a time: the tasklet never runs on
 * two CPUs at once, and the timer only schedules it.
 */
static void fc_tx_tasklet_fn(struct tasklet_struct *t)
{
	struct fc_sched *q = from_tasklet(q, t, tx_tasklet);

	fc_tx_run(q);
}

static enum hrtimer_restart fc_tx_timer_fn(struct hrtimer *timer)
{
	struct fc_sched *q = container_of(timer, struct fc_sched, tx_timer);

	tasklet_schedule(&q->tx_tasklet);
	return HRTIMER_NORESTART;
}

void fc_tx_init(struct fc_sched *q)
{
	hrtimer_init(&q->tx_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	q->tx_timer.function = fc_tx_timer_fn;
	tasklet_setup(&q->tx_tasklet, fc_tx_tasklet_fn);
}

/* Re-evaluate after a configuration change (tx off sends XON). */
void fc_tx_reconsider(struct fc_sched *q)
{
	fc_tx_kick(q);
}

/* Detach: stop being charged, stop sending. Before synchronize_net(). */
void fc_tx_unpublish(struct fc_sched *q)
{
	if (q->charge)
		RCU_INIT_POINTER(q->charge->port, NULL);
}

/* After synchronize_net(): nobody can kick the timer any more. */
void fc_tx_destroy(struct fc_sched *q)
{
	/* The tasklet may rearm the timer and the timer the tasklet. */
	do {
		hrtimer_cancel(&q->tx_timer);
		tasklet_kill(&q->tx_tasklet);
	} while (hrtimer_active(&q->tx_timer));
	if (q->charge) {
		fc_charge_put(q->charge);
		q->charge = NULL;
	}
}
