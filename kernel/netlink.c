// SPDX-License-Identifier: GPL-2.0
/*
 * The "flowctl" generic netlink family: get/dump, set and reset per device,
 * and an "events" multicast group. Specified in
 * Documentation/netlink/specs/flowctl.yaml.
 *
 * Every operation runs under RTNL, which is also what keeps the qdisc alive
 * while we look at it: a qdisc is only created and destroyed under RTNL.
 * A set is all-or-nothing: the new configuration is built and validated in
 * a private copy and published whole (fctl_cfg_commit).
 */
#include <linux/rtnetlink.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include "flowctl.h"

enum { FCTL_MCGRP_EVENTS_IDX };

static struct genl_family fctl_genl_family;

/* Thresholds are bytes of a band, at most FCTL_MAX_LIMIT. */
static struct netlink_range_validation fctl_thr_range = {
	.min = 0, .max = FCTL_MAX_LIMIT,
};

static const struct nla_policy fctl_prio_set_policy[FLOWCTL_A_PRIO_MAX + 1] = {
	[FLOWCTL_A_PRIO_PRIO]	= NLA_POLICY_MAX(NLA_U8, FCTL_PRIOS - 1),
	[FLOWCTL_A_PRIO_XOFF]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fctl_thr_range),
	[FLOWCTL_A_PRIO_XON]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fctl_thr_range),
};

static struct netlink_range_validation fctl_speed_range = {
	.min = 0, .max = FCTL_MAX_SPEED,
};

static struct netlink_range_validation fctl_rate_range = {
	.min = 0, .max = (u64)FCTL_MAX_SPEED * 1000000,
};

static struct netlink_range_validation fctl_limit_range = {
	.min = FCTL_MIN_LIMIT, .max = FCTL_MAX_LIMIT,
};

/* A policy's own max is an s16: 60000 needs the range form. */
static struct netlink_range_validation fctl_wd_restore_range = {
	.min = 0, .max = FCTL_WD_MAX_RESTORE_MS,
};

static const struct nla_policy fctl_dev_id_policy[FLOWCTL_A_DEV_MAX + 1] = {
	[FLOWCTL_A_DEV_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[FLOWCTL_A_DEV_IFNAME]	= { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
};

/* DEV_GET: one device, or a dump; either brief. */
static const struct nla_policy fctl_dev_get_policy[FLOWCTL_A_DEV_MAX + 1] = {
	[FLOWCTL_A_DEV_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[FLOWCTL_A_DEV_IFNAME]	= { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[FLOWCTL_A_DEV_BRIEF]	= { .type = NLA_FLAG },
	[FLOWCTL_A_DEV_QUEUES]	= { .type = NLA_FLAG },
};

static const struct nla_policy fctl_peer_policy[FLOWCTL_A_PEER_MAX + 1] = {
	[FLOWCTL_A_PEER_TTL]	= NLA_POLICY_MIN(NLA_U16, 1),
	[FLOWCTL_A_PEER_MAC]	= NLA_POLICY_EXACT_LEN(ETH_ALEN),
	[FLOWCTL_A_PEER_PFC_EN]	= { .type = NLA_U8 },
	[FLOWCTL_A_PEER_PFC_CAP] = NLA_POLICY_MAX(NLA_U8, FCTL_PRIOS),
	[FLOWCTL_A_PEER_PFC_MBC] = NLA_POLICY_MAX(NLA_U8, 1),
	[FLOWCTL_A_PEER_PFC_WILLING] = NLA_POLICY_MAX(NLA_U8, 1),
	[FLOWCTL_A_PEER_ETS_PRIO_TC] = NLA_POLICY_MASK(NLA_U32, 0x77777777),
	[FLOWCTL_A_PEER_ETS_TC_BW] = NLA_POLICY_EXACT_LEN(FCTL_PRIOS),
	[FLOWCTL_A_PEER_ETS_TC_TSA] = NLA_POLICY_EXACT_LEN(FCTL_PRIOS),
	[FLOWCTL_A_PEER_ETS_CAP] = NLA_POLICY_RANGE(NLA_U8, 1, FCTL_PRIOS),
	[FLOWCTL_A_PEER_ETS_WILLING] = NLA_POLICY_MAX(NLA_U8, 1),
	[FLOWCTL_A_PEER_ETS_CBS] = NLA_POLICY_MAX(NLA_U8, 1),
	[FLOWCTL_A_PEER_RECO_PRIO_TC] = NLA_POLICY_MASK(NLA_U32, 0x77777777),
	[FLOWCTL_A_PEER_RECO_TC_BW] = NLA_POLICY_EXACT_LEN(FCTL_PRIOS),
	[FLOWCTL_A_PEER_RECO_TC_TSA] = NLA_POLICY_EXACT_LEN(FCTL_PRIOS),
	[FLOWCTL_A_PEER_APP]	= { .type = NLA_BINARY,
				    .len = FLOWCTL_PEER_APPS * sizeof(struct dcb_app) },
};

static const struct nla_policy fctl_dev_set_policy[FLOWCTL_A_DEV_MAX + 1] = {
	[FLOWCTL_A_DEV_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[FLOWCTL_A_DEV_IFNAME]	= { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[FLOWCTL_A_DEV_MODE]	= NLA_POLICY_MAX(NLA_U8, FLOWCTL_MODE_PFC),
	[FLOWCTL_A_DEV_RX]	= NLA_POLICY_MAX(NLA_U8, 1),
	[FLOWCTL_A_DEV_TX]	= NLA_POLICY_MAX(NLA_U8, 1),
	[FLOWCTL_A_DEV_PFC_PRIOS] = { .type = NLA_U8 },
	[FLOWCTL_A_DEV_TRUST]	= NLA_POLICY_MAX(NLA_U8, FLOWCTL_TRUST_DSCP),
	[FLOWCTL_A_DEV_SPEED]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fctl_speed_range),
	[FLOWCTL_A_DEV_RATE]	= NLA_POLICY_FULL_RANGE(NLA_U64, &fctl_rate_range),
	[FLOWCTL_A_DEV_LIMIT]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fctl_limit_range),
	[FLOWCTL_A_DEV_XOFF]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fctl_thr_range),
	[FLOWCTL_A_DEV_XON]	= NLA_POLICY_FULL_RANGE(NLA_U32, &fctl_thr_range),
	/* 0 would make every XOFF an XON, and refresh nothing. */
	[FLOWCTL_A_DEV_QUANTA]	= NLA_POLICY_MIN(NLA_U16, 1),
	[FLOWCTL_A_DEV_PRIO]	= NLA_POLICY_NESTED(fctl_prio_set_policy),
	/* Eight classes 0..7: bit 3 of each nibble is never set. */
	[FLOWCTL_A_DEV_PRIO_TC]	= NLA_POLICY_MASK(NLA_U32, 0x77777777),
	[FLOWCTL_A_DEV_TC_BW]	= NLA_POLICY_EXACT_LEN(FCTL_PRIOS),
	/* 0 (off) or FCTL_WD_MIN_MS..: the lower bound is checked in the parse. */
	[FLOWCTL_A_DEV_WD_DETECT_MS] = NLA_POLICY_MAX(NLA_U32, FCTL_WD_MAX_DETECT_MS),
	[FLOWCTL_A_DEV_WD_RESTORE_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &fctl_wd_restore_range),
	[FLOWCTL_A_DEV_TX_STORM_MS] = NLA_POLICY_MAX(NLA_U32, FCTL_TX_STORM_MAX_MS),
	[FLOWCTL_A_DEV_TUNNEL_WIRE] = NLA_POLICY_MAX(NLA_U8, 1),
	[FLOWCTL_A_DEV_WD_ACTION] = NLA_POLICY_MAX(NLA_U8, FLOWCTL_WD_ALERT),
	[FLOWCTL_A_DEV_DSCP_PRIOS] = NLA_POLICY_EXACT_LEN(FCTL_DSCPS),
	[FLOWCTL_A_DEV_PEER]	= NLA_POLICY_NESTED(fctl_peer_policy),
	[FLOWCTL_A_DEV_PFC_DELAY] = { .type = NLA_U16 },
};

static int fctl_put_u64(struct sk_buff *msg, int attr, u64 v, int pad)
{
	return nla_put_u64_64bit(msg, attr, v, pad);
}

static int fctl_fill_stats(struct sk_buff *msg, const struct fctl_snapshot *s)
{
	const int pad = FLOWCTL_A_STATS_PAD;
	struct nlattr *nest;

	nest = nla_nest_start(msg, FLOWCTL_A_DEV_STATS);
	if (!nest)
		return -EMSGSIZE;
	if (fctl_put_u64(msg, FLOWCTL_A_STATS_RX_PAUSE, s->rxs.rx_pause, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_RX_XON, s->rxs.rx_xon, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_RX_PFC, s->rxs.rx_pfc, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_TX_PAUSE, s->txs.tx_pause, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_TX_XON, s->txs.tx_xon, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_TX_PFC, s->txs.tx_pfc, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_TX_STORM_WARNING,
			 s->txs.tx_storm_warning, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_TX_STORM_ERROR,
			 s->txs.tx_storm_error, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_TX_XOFF_SHORT,
			 s->txs.tx_xoff_short, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_RX_IGNORED, s->rxs.rx_ignored, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_RX_MALFORMED,
			 s->rxs.rx_malformed, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_RX_UNSUPPORTED,
			 s->rxs.rx_unsupported, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_PARTNER_IGNORED,
			 s->partner_ignored, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_STATS_EVENTS_SUPPRESSED,
			 s->events_suppressed, pad)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int fctl_fill_prio(struct sk_buff *msg, const struct fctl_snapshot *s,
			  int prio)
{
	const int pad = FLOWCTL_A_PRIO_PAD;
	struct nlattr *nest;
	typeof(s->prio[0]) const *p = &s->prio[prio];

	nest = nla_nest_start(msg, FLOWCTL_A_DEV_PRIO);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(msg, FLOWCTL_A_PRIO_PRIO, prio) ||
	    nla_put_u8(msg, FLOWCTL_A_PRIO_PAUSED, p->pause_left_ns > 0) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_PAUSE_LEFT_NS, p->pause_left_ns, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_PAUSE_ELAPSED_NS,
			 p->pause_elapsed_ns, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_PAUSED_NS_TOTAL,
			 p->paused_ns_total, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_PAUSE_EPISODES, p->episodes, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_RX_PFC, p->rx_pfc, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_RX_PFC_XON, p->rx_pfc_xon, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_TX_PFC, p->tx_pfc, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_TX_PFC_XON, p->tx_pfc_xon, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_TX_PACKETS, p->tx_packets, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_TX_BYTES, p->tx_bytes, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_BACKLOG_BYTES, p->backlog_bytes, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_BACKLOG_PACKETS,
			 p->backlog_packets, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_DROPS, p->drops, pad) ||
	    nla_put_u32(msg, FLOWCTL_A_PRIO_XOFF, p->xoff) ||
	    nla_put_u32(msg, FLOWCTL_A_PRIO_XON, p->xon) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_CHARGE_BYTES, p->charge_bytes, pad) ||
	    nla_put_u8(msg, FLOWCTL_A_PRIO_XOFF_ACTIVE,
		       p->xoff_active || s->tx_link_active) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_PARTNER_IGNORED,
			 p->partner_ignored, pad) ||
	    nla_put_u8(msg, FLOWCTL_A_PRIO_WD_STATE, p->wd_state) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_WD_STORMS, p->wd_storms, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_WD_RESTORED, p->wd_restored, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_WD_TX_DROP, p->wd_tx_drop, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_WD_RX_DROP, p->wd_rx_drop, pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_WD_TX_FORWARD, p->wd_tx_forward,
			 pad) ||
	    fctl_put_u64(msg, FLOWCTL_A_PRIO_WD_STORMED_NS_TOTAL,
			 p->wd_stormed_ns, pad)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* The port's state in five numbers, in the full reply and the brief one. */
static int fctl_put_state(struct sk_buff *msg, u8 paused, u8 xoff_active,
			  u8 stormed, u32 backlog_bytes, u32 backlog_packets)
{
	return nla_put_u8(msg, FLOWCTL_A_DEV_PAUSED, paused) ||
	       nla_put_u8(msg, FLOWCTL_A_DEV_XOFF_ACTIVE, xoff_active) ||
	       nla_put_u8(msg, FLOWCTL_A_DEV_STORMED, stormed) ||
	       nla_put_u32(msg, FLOWCTL_A_DEV_BACKLOG_BYTES, backlog_bytes) ||
	       nla_put_u32(msg, FLOWCTL_A_DEV_BACKLOG_PACKETS, backlog_packets);
}

/* The same from a snapshot. */
static int fctl_put_snapshot_state(struct sk_buff *msg,
				   const struct fctl_snapshot *s)
{
	u8 paused = 0, xoff_active = 0, stormed = 0;
	u64 bytes = 0, packets = 0;
	int prio;

	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		if (s->prio[prio].pause_left_ns)
			paused |= BIT(prio);
		if (s->prio[prio].xoff_active || s->tx_link_active)
			xoff_active |= BIT(prio);
		if (s->prio[prio].wd_state == FLOWCTL_WD_STORMED)
			stormed |= BIT(prio);
		bytes += s->prio[prio].backlog_bytes;
		packets += s->prio[prio].backlog_packets;
	}
	return fctl_put_state(msg, paused, xoff_active, stormed,
			    min_t(u64, bytes, U32_MAX),
			    min_t(u64, packets, U32_MAX));
}

/*
 * One device in brief: what "flowctl -br show" prints, about a tenth of
 * the full reply's bytes and attributes (a dump of thousands of ports).
 */
static int fctl_nl_fill_brief(struct sk_buff *msg, struct fctl_sched *q,
			      u32 portid, u32 seq, int flags)
{
	struct net_device *dev = q->dev;
	struct fctl_brief b;
	void *hdr;

	fctl_brief(q, &b);
	hdr = genlmsg_put(msg, portid, seq, &fctl_genl_family, flags,
			  FLOWCTL_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(msg, FLOWCTL_A_DEV_IFINDEX, dev->ifindex) ||
	    nla_put_string(msg, FLOWCTL_A_DEV_IFNAME, dev->name) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_MODE, b.mode) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_RX, b.rx) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_TX, b.tx) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_PFC_PRIOS, b.pfc_prios) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_SPEED_MBPS, b.speed_mbps) ||
	    fctl_put_state(msg, b.paused, b.xoff_active, b.stormed,
			   b.backlog_bytes, b.backlog_packets)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/* One device, from a snapshot; s is scratch space (too big for the stack). */
/* Each TX queue's flowctl: what its bands sent, dropped and hold. RTNL. */
static int fctl_fill_queues(struct sk_buff *msg, struct fctl_sched *q)
{
	struct netdev_queue *txq0 = netdev_get_tx_queue(q->dev, 0);
	struct fctl_band_counts c;
	struct fctl_queue *qq;
	struct nlattr *nest;

	list_for_each_entry(qq, &q->queues, node) {
		fctl_queue_read(qq, &c);
		nest = nla_nest_start(msg, FLOWCTL_A_DEV_QUEUE);
		if (!nest ||
		    nla_put_u16(msg, FLOWCTL_A_QUEUE_INDEX, qq->sch->dev_queue - txq0) ||
		    nla_put_u32(msg, FLOWCTL_A_QUEUE_HANDLE, qq->sch->handle) ||
		    fctl_put_u64(msg, FLOWCTL_A_QUEUE_TX_PACKETS, c.tx_packets,
				 FLOWCTL_A_QUEUE_PAD) ||
		    fctl_put_u64(msg, FLOWCTL_A_QUEUE_TX_BYTES, c.tx_bytes,
				 FLOWCTL_A_QUEUE_PAD) ||
		    nla_put_u32(msg, FLOWCTL_A_QUEUE_BACKLOG_BYTES,
				READ_ONCE(qq->sch->qstats.backlog)) ||
		    nla_put_u32(msg, FLOWCTL_A_QUEUE_BACKLOG_PACKETS,
				READ_ONCE(qq->sch->q.qlen)) ||
		    fctl_put_u64(msg, FLOWCTL_A_QUEUE_DROPS, c.drops,
				 FLOWCTL_A_QUEUE_PAD))
			return -EMSGSIZE;
		nla_nest_end(msg, nest);
	}
	return 0;
}

static int fctl_nl_fill(struct sk_buff *msg, struct fctl_sched *q,
			struct fctl_snapshot *s, u32 portid, u32 seq, int flags,
			bool queues)
{
	struct net_device *dev = q->dev;
	const struct fctl_cfg *c = &s->cfg;
	void *hdr;
	int prio;

	fctl_snapshot(q, s);
	hdr = genlmsg_put(msg, portid, seq, &fctl_genl_family, flags,
			  FLOWCTL_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(msg, FLOWCTL_A_DEV_IFINDEX, dev->ifindex) ||
	    nla_put_string(msg, FLOWCTL_A_DEV_IFNAME, dev->name) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_MODE, c->mode) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_RX, c->rx) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_TX, c->tx) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_PFC_PRIOS, c->pfc_prios) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_TRUST, c->trust) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_SPEED, c->speed) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_SPEED_MBPS, s->speed_mbps) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_SPEED_SOURCE, s->speed_src) ||
	    fctl_put_u64(msg, FLOWCTL_A_DEV_RATE, c->rate, FLOWCTL_A_DEV_PAD) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_LIMIT, c->limit) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_XOFF, s->xoff) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_XON, s->xon) ||
	    nla_put_u16(msg, FLOWCTL_A_DEV_QUANTA, c->quanta) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_HEADROOM, s->headroom) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_PRIO_TC, c->prio_tc) ||
	    nla_put(msg, FLOWCTL_A_DEV_TC_BW, FCTL_PRIOS, c->tc_bw) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_WD_DETECT_MS, c->wd_detect_ms) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_WD_RESTORE_MS, c->wd_restore_ms) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_WD_ACTION, c->wd_action) ||
	    nla_put_u32(msg, FLOWCTL_A_DEV_TX_STORM_MS, c->tx_storm_ms) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_TUNNEL_WIRE, c->tunnel_wire) ||
	    nla_put(msg, FLOWCTL_A_DEV_DSCP_PRIOS, FCTL_DSCPS, c->dscp_prios) ||
	    nla_put_u16(msg, FLOWCTL_A_DEV_PFC_DELAY, c->pfc_delay) ||
	    nla_put_u8(msg, FLOWCTL_A_DEV_DOORS, fctl_port_doors(q)) ||
	    fctl_peer_fill(msg, q) ||
	    fctl_put_snapshot_state(msg, s) ||
	    fctl_fill_stats(msg, s))
		goto cancel;
	if (!is_zero_ether_addr(s->partner_mac) &&
	    nla_put(msg, FLOWCTL_A_DEV_PARTNER_MAC, ETH_ALEN, s->partner_mac))
		goto cancel;
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		if (fctl_fill_prio(msg, s, prio))
			goto cancel;
	if (queues && fctl_fill_queues(msg, q))
		goto cancel;
	genlmsg_end(msg, hdr);
	return 0;

cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

/* The device named by ifindex or ifname, with its flowctl qdisc. RTNL. */
static struct fctl_sched *fctl_nl_find(struct genl_info *info)
{
	struct nlattr *idx = info->attrs[FLOWCTL_A_DEV_IFINDEX];
	struct nlattr *name = info->attrs[FLOWCTL_A_DEV_IFNAME];
	struct net *net = genl_info_net(info);
	struct net_device *dev = NULL;
	struct nlattr *which = idx ? idx : name;
	struct fctl_sched *q;

	if (!which) {
		NL_SET_ERR_MSG(info->extack,
			       "name the device by ifindex or ifname");
		return ERR_PTR(-EINVAL);
	}
	/* Each name given must name a device, and the same one. */
	if (idx) {
		dev = __dev_get_by_index(net, nla_get_u32(idx));
		if (!dev) {
			NL_SET_ERR_MSG_ATTR(info->extack, idx, "no such device");
			return ERR_PTR(-ENODEV);
		}
	}
	if (name) {
		struct net_device *by_name = __dev_get_by_name(net,
							       nla_data(name));

		if (!by_name) {
			NL_SET_ERR_MSG_ATTR(info->extack, name, "no such device");
			return ERR_PTR(-ENODEV);
		}
		if (dev && by_name != dev) {
			NL_SET_ERR_MSG_ATTR(info->extack, name,
					    "ifname and ifindex name different devices");
			return ERR_PTR(-EINVAL);
		}
		dev = by_name;
	}
	q = fctl_from_dev(dev);
	if (!q) {
		NL_SET_ERR_MSG_ATTR(info->extack, which,
				    "device has no flowctl qdisc");
		return ERR_PTR(-EOPNOTSUPP);
	}
	return q;
}

/* A queue's nest with its header and padding: the reply's room for each. */
#define FCTL_QUEUE_NEST_SIZE	96

static int fctl_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct fctl_snapshot *s;
	struct sk_buff *msg = NULL;
	struct fctl_sched *q;
	bool brief, queues;
	int err;

	brief = nla_get_flag(info->attrs[FLOWCTL_A_DEV_BRIEF]);
	queues = nla_get_flag(info->attrs[FLOWCTL_A_DEV_QUEUES]);
	if (brief && queues) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FLOWCTL_A_DEV_QUEUES],
				    "a brief reply has no queues");
		return -EINVAL;
	}
	s = brief ? NULL : kmalloc(sizeof(*s), GFP_KERNEL);
	if (!brief && !s)
		return -ENOMEM;
	rtnl_lock();
	q = fctl_nl_find(info);
	if (IS_ERR(q)) {
		err = PTR_ERR(q);
		goto unlock;
	}
	/* Under RTNL: the queues do not change before the fill. */
	msg = genlmsg_new(NLMSG_GOODSIZE +
			  (queues ? q->nqueues * FCTL_QUEUE_NEST_SIZE : 0),
			  GFP_KERNEL);
	if (!msg)
		err = -ENOMEM;
	else if (brief)
		err = fctl_nl_fill_brief(msg, q, info->snd_portid,
					 info->snd_seq, 0);
	else
		err = fctl_nl_fill(msg, q, s, info->snd_portid, info->snd_seq, 0,
				   queues);
unlock:
	rtnl_unlock();
	if (err)
		goto free;
	kfree(s);
	return genlmsg_reply(msg, info);

free:
	nlmsg_free(msg);
	kfree(s);
	return err;
}

/*
 * A dump walks the namespace's flowctl ports in ifindex order, from their
 * own index (fctl_net_ports()): a part resumes at the first ifindex it has
 * not sent, with one lookup, and costs what it carries. A port that comes
 * or goes during a dump is reported or not by where its ifindex falls, as
 * in rtnetlink's dumps; none is reported twice.
 *
 * cb->args[0]: brief; cb->args[1]: the ifindex the next part starts at.
 */
static int fctl_nl_get_dump_start(struct netlink_callback *cb)
{
	/* genetlink validated the request against the op's policy. */
	if (nlmsg_find_attr(cb->nlh, GENL_HDRLEN, FLOWCTL_A_DEV_QUEUES)) {
		NL_SET_ERR_MSG(cb->extack, "queues: ask for one device");
		return -EOPNOTSUPP;
	}
	cb->args[0] = !!nlmsg_find_attr(cb->nlh, GENL_HDRLEN,
					FLOWCTL_A_DEV_BRIEF);
	cb->args[1] = 0;
	return 0;
}

static int fctl_nl_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct xarray *ports = fctl_net_ports(sock_net(skb->sk));
	unsigned long ifindex;
	bool brief = cb->args[0];
	struct fctl_snapshot *s;
	struct fctl_sched *q;
	int err = 0;

	s = brief ? NULL : kmalloc(sizeof(*s), GFP_KERNEL);
	if (!brief && !s)
		return -ENOMEM;
	rtnl_lock();
	xa_for_each_start(ports, ifindex, q, cb->args[1]) {
		if (brief)
			err = fctl_nl_fill_brief(skb, q,
						 NETLINK_CB(cb->skb).portid,
					       cb->nlh->nlmsg_seq, NLM_F_MULTI);
		else
			err = fctl_nl_fill(skb, q, s, NETLINK_CB(cb->skb).portid,
					   cb->nlh->nlmsg_seq, NLM_F_MULTI, false);
		if (err)
			break;
	}
	rtnl_unlock();
	kfree(s);
	/* Past the last ifindex when the walk ended, no port left. */
	cb->args[1] = err ? ifindex : ULONG_MAX;
	/* A full skb ends this part; an empty one means one device alone
	 * does not fit, which the caller must hear about.
	 */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static int fctl_nl_set_thresholds(u32 xoff, u32 xon, u32 limit, u32 head,
				  const struct nlattr *at,
				struct netlink_ext_ack *extack)
{
	if (!xoff && !xon)
		return 0;
	if ((u64)xoff + head > limit) {
		NL_SET_ERR_MSG_ATTR(extack, at,
				    "xoff leaves no headroom: limit - xoff must hold the partner's reaction allowance and two maximal frames (see flowctl show)");
		return -EINVAL;
	}
	if (xon >= xoff) {
		NL_SET_ERR_MSG_ATTR(extack, at, "xon must be below xoff");
		return -EINVAL;
	}
	return 0;
}

/*
 * Apply a request's attributes to c, a private copy. No side effects. tb
 * holds the parsed attributes; attrs and len are all of them, for the
 * repeated FLOWCTL_A_DEV_PRIO (tb holds only the last). The one validator
 * of "flowctl set" (genetlink) and of tc's TCA_OPTIONS.
 */
/*
 * tx on needs an XOFF that outlasts its refresh at the speed in force,
 * checked when a set touches what times it. A device that reports no
 * speed while it has carrier needs speed or rate; one without carrier is
 * timed when it comes up (fctl_update_speed counts what is then too short).
 */
static int fctl_nl_check_xoff(struct fctl_sched *q, const struct fctl_cfg *c,
			      struct nlattr **tb, u32 speed,
			    struct netlink_ext_ack *extack)
{
	if (!c->tx || c->mode == FLOWCTL_MODE_OFF ||
	    !(tb[FLOWCTL_A_DEV_TX] || tb[FLOWCTL_A_DEV_MODE] ||
	      tb[FLOWCTL_A_DEV_QUANTA] || tb[FLOWCTL_A_DEV_SPEED] ||
	      tb[FLOWCTL_A_DEV_RATE]))
		return 0;
	if (!speed) {
		if (!netif_carrier_ok(q->dev))
			return 0;
		NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_TX],
				    "tx on needs a speed to time its XOFF and the device reports none: set speed or rate");
		return -EINVAL;
	}
	if (fctl_xoff_lasts(c->quanta, speed))
		return 0;
	if (!fctl_xoff_lasts(0xffff, speed)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_TX],
				    "tx on: at this speed (above 335 Gb/s) even 65535 quanta last under the 100 us flowctl's XOFF refresh needs");
		return -ERANGE;
	}
	NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_QUANTA],
			    "quanta: at the speed in force our XOFF would last under 100 us and lapse before its refresh: more quanta");
	return -ERANGE;
}

static int fctl_parse_cfg(struct fctl_sched *q, struct fctl_cfg *c,
			  struct nlattr **tb, const struct nlattr *attrs, int len,
			struct netlink_ext_ack *extack)
{
	struct nlattr *ptb[FLOWCTL_A_PRIO_MAX + 1];
	const struct nlattr *a;
	int rem, err, prio;
	u32 head, speed;
	u8 src;

	if (tb[FLOWCTL_A_DEV_MODE])
		c->mode = nla_get_u8(tb[FLOWCTL_A_DEV_MODE]);
	if (tb[FLOWCTL_A_DEV_RX])
		c->rx = nla_get_u8(tb[FLOWCTL_A_DEV_RX]);
	if (tb[FLOWCTL_A_DEV_TX])
		c->tx = nla_get_u8(tb[FLOWCTL_A_DEV_TX]);
	if (tb[FLOWCTL_A_DEV_PFC_PRIOS])
		c->pfc_prios = nla_get_u8(tb[FLOWCTL_A_DEV_PFC_PRIOS]);
	if (tb[FLOWCTL_A_DEV_TRUST])
		c->trust = nla_get_u8(tb[FLOWCTL_A_DEV_TRUST]);
	if (tb[FLOWCTL_A_DEV_SPEED]) {
		c->speed = nla_get_u32(tb[FLOWCTL_A_DEV_SPEED]);
		if (c->speed && c->speed < FCTL_MIN_SPEED) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_SPEED],
					    "speed below Ethernet's 10 Mb/s");
			return -ERANGE;
		}
	}
	if (tb[FLOWCTL_A_DEV_RATE]) {
		c->rate = nla_get_u64(tb[FLOWCTL_A_DEV_RATE]);
		if (c->rate && c->rate < 64000) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_RATE],
					    "rate below 64 kbit/s");
			return -ERANGE;
		}
		/* One wire's clock: the queues of an mq would each keep one. */
		if (c->rate && q->parent != TC_H_ROOT) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_RATE],
					    "rate shapes the root form only: under mq each queue would send at the rate");
			return -EOPNOTSUPP;
		}
	}
	if (tb[FLOWCTL_A_DEV_LIMIT])
		c->limit = nla_get_u32(tb[FLOWCTL_A_DEV_LIMIT]);
	if (tb[FLOWCTL_A_DEV_XOFF])
		c->xoff = nla_get_u32(tb[FLOWCTL_A_DEV_XOFF]);
	if (tb[FLOWCTL_A_DEV_XON])
		c->xon = nla_get_u32(tb[FLOWCTL_A_DEV_XON]);
	if (tb[FLOWCTL_A_DEV_QUANTA])
		c->quanta = nla_get_u16(tb[FLOWCTL_A_DEV_QUANTA]);
	if (tb[FLOWCTL_A_DEV_PRIO_TC])
		c->prio_tc = nla_get_u32(tb[FLOWCTL_A_DEV_PRIO_TC]);
	if (tb[FLOWCTL_A_DEV_TC_BW]) {
		const u8 *bw = nla_data(tb[FLOWCTL_A_DEV_TC_BW]);
		unsigned int sum = 0, tc;

		for (tc = 0; tc < FCTL_PRIOS; tc++)
			sum += bw[tc];
		if (sum != 0 && sum != 100) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_TC_BW],
					    "ETS shares must sum to 100 (or all be 0: strict priority only)");
			return -EINVAL;
		}
		memcpy(c->tc_bw, bw, FCTL_PRIOS);
	}
	if (tb[FLOWCTL_A_DEV_WD_DETECT_MS]) {
		u32 ms = nla_get_u32(tb[FLOWCTL_A_DEV_WD_DETECT_MS]);

		if (ms && ms < FCTL_WD_MIN_MS) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_WD_DETECT_MS],
					    "watchdog detection: 0 (off) or 100..5000 ms");
			return -ERANGE;
		}
		c->wd_detect_ms = ms;
	}
	if (tb[FLOWCTL_A_DEV_WD_RESTORE_MS]) {
		u32 ms = nla_get_u32(tb[FLOWCTL_A_DEV_WD_RESTORE_MS]);

		if (ms && ms < FCTL_WD_MIN_MS) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_WD_RESTORE_MS],
					    "watchdog restoration: 0 (twice the detection) or 100..60000 ms");
			return -ERANGE;
		}
		c->wd_restore_ms = ms;
	}
	if (tb[FLOWCTL_A_DEV_WD_ACTION])
		c->wd_action = nla_get_u8(tb[FLOWCTL_A_DEV_WD_ACTION]);
	/* Fixed at attach (fctl_init() sets it before it parses). */
	if (tb[FLOWCTL_A_DEV_TUNNEL_WIRE] &&
	    nla_get_u8(tb[FLOWCTL_A_DEV_TUNNEL_WIRE]) != c->tunnel_wire) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_TUNNEL_WIRE],
				    "tunnel-wire is fixed while flowctl is attached: tc qdisc del, then tc qdisc add dev DEV root flowctl tunnel-wire on|off");
		return -EINVAL;
	}
	if (tb[FLOWCTL_A_DEV_PFC_DELAY])
		c->pfc_delay = nla_get_u16(tb[FLOWCTL_A_DEV_PFC_DELAY]);
	if (tb[FLOWCTL_A_DEV_DSCP_PRIOS]) {
		memcpy(c->dscp_prios, nla_data(tb[FLOWCTL_A_DEV_DSCP_PRIOS]),
		       FCTL_DSCPS);
		c->dscp_app = !!memchr_inv(c->dscp_prios, 0, FCTL_DSCPS);
	}
	if (tb[FLOWCTL_A_DEV_TX_STORM_MS]) {
		u32 ms = nla_get_u32(tb[FLOWCTL_A_DEV_TX_STORM_MS]);

		if (ms && ms < FCTL_TX_STORM_MIN_MS) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_TX_STORM_MS],
					    "tx-storm: 0 (off) or 80..8000 ms");
			return -ERANGE;
		}
		c->tx_storm_ms = ms;
	}

	/* The headroom XOFF must leave depends on the speed this set gives,
	 * and so does how long our XOFF lasts: it must outlast its refresh.
	 */
	speed = fctl_resolve_speed(q, c, &src);
	err = fctl_nl_check_xoff(q, c, tb, speed, extack);
	if (err)
		return err;
	head = fctl_headroom(speed, fctl_max_wire_pkt(q->dev),
			     c->pfc_delay);

	nla_for_each_attr(a, attrs, len, rem) {
		if (nla_type(a) != FLOWCTL_A_DEV_PRIO)
			continue;
		err = nla_parse_nested(ptb, FLOWCTL_A_PRIO_MAX, a,
				       fctl_prio_set_policy, extack);
		if (err)
			return err;
		if (!ptb[FLOWCTL_A_PRIO_PRIO]) {
			NL_SET_ERR_MSG_ATTR(extack, a, "priority missing");
			return -EINVAL;
		}
		prio = nla_get_u8(ptb[FLOWCTL_A_PRIO_PRIO]);
		if (ptb[FLOWCTL_A_PRIO_XOFF])
			c->prio_xoff[prio] = nla_get_u32(ptb[FLOWCTL_A_PRIO_XOFF]);
		if (ptb[FLOWCTL_A_PRIO_XON])
			c->prio_xon[prio] = nla_get_u32(ptb[FLOWCTL_A_PRIO_XON]);
		err = fctl_nl_set_thresholds(c->prio_xoff[prio],
					     c->prio_xon[prio], c->limit, head, a,
					   extack);
		if (err)
			return err;
	}

	a = tb[FLOWCTL_A_DEV_XOFF] ? tb[FLOWCTL_A_DEV_XOFF] :
	    tb[FLOWCTL_A_DEV_XON] ? tb[FLOWCTL_A_DEV_XON] :
	    tb[FLOWCTL_A_DEV_LIMIT];
	err = fctl_nl_set_thresholds(c->xoff, c->xon, c->limit, head, a, extack);
	if (err)
		return err;
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		a = tb[FLOWCTL_A_DEV_LIMIT] ? tb[FLOWCTL_A_DEV_LIMIT] :
		    tb[FLOWCTL_A_DEV_SPEED] ? tb[FLOWCTL_A_DEV_SPEED] :
		    tb[FLOWCTL_A_DEV_RATE] ? tb[FLOWCTL_A_DEV_RATE] :
		    tb[FLOWCTL_A_DEV_PFC_DELAY];
		if (a && c->prio_xoff[prio] &&
		    (u64)c->prio_xoff[prio] + head > c->limit) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "a priority's xoff would leave no headroom below the limit");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * tc's TCA_OPTIONS (qdisc add, replace, change): the attributes of
 * FLOWCTL_CMD_DEV_SET, checked by the same policy and fctl_parse_cfg(), with
 * the same extack words. The device is tc's, so naming one is refused.
 */
int fctl_opts_parse(struct fctl_sched *q, struct fctl_cfg *c, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[FLOWCTL_A_DEV_MAX + 1];
	int err;

	err = __nla_parse(tb, FLOWCTL_A_DEV_MAX, nla_data(opt), nla_len(opt),
			  fctl_dev_set_policy, NL_VALIDATE_STRICT, extack);
	if (err)
		return err;
	if (tb[FLOWCTL_A_DEV_IFINDEX] || tb[FLOWCTL_A_DEV_IFNAME]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_IFINDEX] ?
				    tb[FLOWCTL_A_DEV_IFINDEX] :
				    tb[FLOWCTL_A_DEV_IFNAME],
				    "tc options name no device: tc's dev is the port");
		return -EINVAL;
	}
	if (tb[FLOWCTL_A_DEV_PEER]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_PEER],
				    "tc options carry no partner: the DCBX agent tells it");
		return -EINVAL;
	}
	/* The device's APP table: a replace takes it over (fctl_init). */
	if (tb[FLOWCTL_A_DEV_DSCP_PRIOS]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_DEV_DSCP_PRIOS],
				    "tc options carry no DSCP map: dcb app add dev DEV dscp-prio DSCP:PRIO");
		return -EINVAL;
	}
	return fctl_parse_cfg(q, c, tb, nla_data(opt), nla_len(opt), extack);
}

/*
 * TCA_OPTIONS of a dump: the configuration as set (xoff and xon 0 =
 * derived, speed 0 = auto), which tc qdisc change takes back, and the
 * speed in use, which makes the quanta a time; the rest of what is in
 * force (the derived thresholds) is in the xstats and in "flowctl show".
 */
int fctl_opts_dump(struct sk_buff *skb, const struct fctl_cfg *c, u32 speed)
{
	struct nlattr *opts, *nest;
	int prio;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u8(skb, FLOWCTL_A_DEV_MODE, c->mode) ||
	    nla_put_u8(skb, FLOWCTL_A_DEV_RX, c->rx) ||
	    nla_put_u8(skb, FLOWCTL_A_DEV_TX, c->tx) ||
	    nla_put_u8(skb, FLOWCTL_A_DEV_PFC_PRIOS, c->pfc_prios) ||
	    nla_put_u8(skb, FLOWCTL_A_DEV_TRUST, c->trust) ||
	    nla_put_u32(skb, FLOWCTL_A_DEV_SPEED, c->speed) ||
	    nla_put_u32(skb, FLOWCTL_A_DEV_SPEED_MBPS, speed) ||
	    fctl_put_u64(skb, FLOWCTL_A_DEV_RATE, c->rate, FLOWCTL_A_DEV_PAD) ||
	    nla_put_u32(skb, FLOWCTL_A_DEV_LIMIT, c->limit) ||
	    nla_put_u32(skb, FLOWCTL_A_DEV_XOFF, c->xoff) ||
	    nla_put_u32(skb, FLOWCTL_A_DEV_XON, c->xon) ||
	    nla_put_u16(skb, FLOWCTL_A_DEV_QUANTA, c->quanta) ||
	    nla_put_u32(skb, FLOWCTL_A_DEV_PRIO_TC, c->prio_tc) ||
	    nla_put(skb, FLOWCTL_A_DEV_TC_BW, FCTL_PRIOS, c->tc_bw) ||
	    nla_put_u32(skb, FLOWCTL_A_DEV_WD_DETECT_MS, c->wd_detect_ms) ||
	    nla_put_u32(skb, FLOWCTL_A_DEV_WD_RESTORE_MS, c->wd_restore_ms) ||
	    nla_put_u8(skb, FLOWCTL_A_DEV_WD_ACTION, c->wd_action) ||
	    nla_put_u32(skb, FLOWCTL_A_DEV_TX_STORM_MS, c->tx_storm_ms) ||
	    nla_put_u8(skb, FLOWCTL_A_DEV_TUNNEL_WIRE, c->tunnel_wire) ||
	    nla_put_u16(skb, FLOWCTL_A_DEV_PFC_DELAY, c->pfc_delay))
		goto cancel;
	for (prio = 0; prio < FCTL_PRIOS; prio++) {
		if (!c->prio_xoff[prio] && !c->prio_xon[prio])
			continue;
		nest = nla_nest_start(skb, FLOWCTL_A_DEV_PRIO);
		if (!nest ||
		    nla_put_u8(skb, FLOWCTL_A_PRIO_PRIO, prio) ||
		    nla_put_u32(skb, FLOWCTL_A_PRIO_XOFF, c->prio_xoff[prio]) ||
		    nla_put_u32(skb, FLOWCTL_A_PRIO_XON, c->prio_xon[prio]))
			goto cancel;
		nla_nest_end(skb, nest);
	}
	return nla_nest_end(skb, opts);

cancel:
	nla_nest_cancel(skb, opts);
	return -EMSGSIZE;
}

/* A DCB or ethtool door's request, as FLOWCTL_A_DEV_* attributes (dcb.c). */
int fctl_door_set(struct fctl_sched *q, struct sk_buff *attrs,
		  struct netlink_ext_ack *extack)
{
	const struct nlattr *head = (const struct nlattr *)attrs->data;
	struct nlattr *tb[FLOWCTL_A_DEV_MAX + 1];
	struct fctl_cfg *ncfg;
	int err;

	err = __nla_parse(tb, FLOWCTL_A_DEV_MAX, head, attrs->len,
			  fctl_dev_set_policy, NL_VALIDATE_STRICT, extack);
	if (err)
		return err;
	ncfg = fctl_cfg_dup(q);
	if (!ncfg)
		return -ENOMEM;
	err = fctl_parse_cfg(q, ncfg, tb, head, attrs->len, extack);
	if (err) {
		kfree(ncfg);
		return err;
	}
	err = fctl_cfg_commit(q, ncfg, extack);
	if (!err)
		fctl_notify_config(q);
	return err;
}

/* The partner's TLVs (the DCBX agent's), in a request of their own. */
static int fctl_nl_set_peer(struct fctl_sched *q, struct genl_info *info)
{
	struct nlattr *tb[FLOWCTL_A_PEER_MAX + 1];
	int i, err;

	for (i = 1; i <= FLOWCTL_A_DEV_MAX; i++)
		if (info->attrs[i] && i != FLOWCTL_A_DEV_PEER &&
		    i != FLOWCTL_A_DEV_IFINDEX && i != FLOWCTL_A_DEV_IFNAME) {
			NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[i],
					    "the partner is set alone, not with the configuration");
			return -EINVAL;
		}
	err = nla_parse_nested(tb, FLOWCTL_A_PEER_MAX,
			       info->attrs[FLOWCTL_A_DEV_PEER], fctl_peer_policy,
			       info->extack);
	if (err)
		return err;
	return fctl_peer_set(q, tb, info->extack);
}

static int fctl_nl_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct fctl_cfg *ncfg;
	struct fctl_sched *q;
	int err;

	rtnl_lock();
	q = fctl_nl_find(info);
	if (IS_ERR(q)) {
		err = PTR_ERR(q);
		goto unlock;
	}
	if (info->attrs[FLOWCTL_A_DEV_PEER]) {
		err = fctl_nl_set_peer(q, info);
		goto unlock;
	}
	ncfg = fctl_cfg_dup(q);
	if (!ncfg) {
		err = -ENOMEM;
		goto unlock;
	}
	err = fctl_parse_cfg(q, ncfg, info->attrs,
			     nlmsg_attrdata(info->nlhdr, GENL_HDRLEN),
			   nlmsg_attrlen(info->nlhdr, GENL_HDRLEN), info->extack);
	if (err) {
		kfree(ncfg);
		goto unlock;
	}
	err = fctl_cfg_commit(q, ncfg, info->extack);
	if (!err)
		fctl_notify_config(q);
unlock:
	rtnl_unlock();
	return err;
}

static int fctl_nl_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct fctl_sched *q;
	int err = 0;

	rtnl_lock();
	q = fctl_nl_find(info);
	if (IS_ERR(q))
		err = PTR_ERR(q);
	else
		fctl_reset_counters(q);
	rtnl_unlock();
	return err;
}

/* An event message's header attributes; entries come on top. */
static size_t fctl_event_size(unsigned int entries)
{
	size_t entry = nla_total_size(0) +		/* ENTRY nest */
		       nla_total_size(sizeof(u8)) +	/* TYPE */
		       nla_total_size(sizeof(u8)) +	/* PRIO */
		       nla_total_size(sizeof(u16)) +	/* QUANTA */
		       nla_total_size_64bit(sizeof(u64));	/* TIME_NS */

	return nla_total_size(sizeof(u8)) +		/* TYPE */
	       nla_total_size(sizeof(u32)) +		/* IFINDEX */
	       nla_total_size(IFNAMSIZ) +		/* IFNAME */
	       nla_total_size_64bit(sizeof(u64)) +	/* TIMESTAMP_NS */
	       nla_total_size(sizeof(u8)) +		/* DIR */
	       nla_total_size_64bit(sizeof(u64)) +	/* SUPPRESSED */
	       entries * entry;
}

static struct sk_buff *fctl_event_new(struct fctl_sched *q, u8 type,
				      unsigned int entries, gfp_t gfp, void **hdr)
{
	struct net_device *dev = q->dev;
	struct sk_buff *msg;

	/* Sized to fit: a listener's buffer holds more of them. */
	msg = genlmsg_new(fctl_event_size(entries), gfp);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &fctl_genl_family, 0, FLOWCTL_CMD_EVENT);
	if (!*hdr ||
	    (type && nla_put_u8(msg, FLOWCTL_A_EVENT_TYPE, type)) ||
	    nla_put_u32(msg, FLOWCTL_A_EVENT_IFINDEX, dev->ifindex) ||
	    nla_put_string(msg, FLOWCTL_A_EVENT_IFNAME, dev->name) ||
	    fctl_put_u64(msg, FLOWCTL_A_EVENT_TIMESTAMP_NS, ktime_get_ns(),
			 FLOWCTL_A_EVENT_PAD)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static void fctl_event_send(struct fctl_sched *q, struct sk_buff *msg, void *hdr,
			    gfp_t gfp)
{
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&fctl_genl_family, dev_net(q->dev),
				msg, 0, FCTL_MCGRP_EVENTS_IDX, gfp);
}

/*
 * May q send one more event message? A token bucket per port: a partner
 * toggling PFC at line rate would otherwise make the kernel allocate and
 * multicast a message per frame. Events refused are counted (pending goes
 * out with the port's next message, suppressed is a counter). rx_lock.
 */
static bool fctl_event_budget(struct fctl_sched *q, unsigned int n, u64 *pending)
{
	const u64 cap = FCTL_EVENT_BURST * FCTL_EVENT_INTERVAL_NS;
	u64 now = ktime_get_ns();
	bool ok;

	q->ev_credit = min(cap, q->ev_credit + (now - q->ev_last));
	q->ev_last = now;
	ok = q->ev_credit >= FCTL_EVENT_INTERVAL_NS;
	if (ok) {
		q->ev_credit -= FCTL_EVENT_INTERVAL_NS;
		*pending = q->ev_pending;
		q->ev_pending = 0;
	} else {
		q->ev_pending += n;
		q->ev_suppressed += n;
	}
	return ok;
}

static void fctl_event_lost(struct fctl_sched *q, unsigned int n, u64 pending)
{
	spin_lock_bh(&q->rx_lock);
	q->ev_pending += pending + n;
	q->ev_suppressed += n;
	spin_unlock_bh(&q->rx_lock);
}

static int fctl_event_put_entry(struct sk_buff *msg, const struct fctl_event *e)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, FLOWCTL_A_EVENT_ENTRY);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(msg, FLOWCTL_A_ENTRY_TYPE, e->type) ||
	    (e->prio >= 0 && nla_put_u8(msg, FLOWCTL_A_ENTRY_PRIO, e->prio)) ||
	    nla_put_u16(msg, FLOWCTL_A_ENTRY_QUANTA, e->quanta) ||
	    fctl_put_u64(msg, FLOWCTL_A_ENTRY_TIME_NS, e->time_ns,
			 FLOWCTL_A_ENTRY_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * Report the pause start/end events of one frame or one expiry run: one
 * message at most, within the port's budget. Any context (GFP_ATOMIC),
 * no flowctl lock held.
 */
void fctl_notify_events(struct fctl_sched *q, const struct fctl_events *evs)
{
	struct net *net = dev_net(q->dev);
	struct sk_buff *msg;
	u64 pending = 0;
	unsigned int i;
	void *hdr;
	bool ok;

	if (!evs->n ||
	    !genl_has_listeners(&fctl_genl_family, net, FCTL_MCGRP_EVENTS_IDX))
		return;
	spin_lock_bh(&q->rx_lock);
	ok = fctl_event_budget(q, evs->n, &pending);
	spin_unlock_bh(&q->rx_lock);
	if (!ok)
		return;

	/* No type at the top level: each entry has its own. */
	msg = fctl_event_new(q, 0, evs->n, GFP_ATOMIC, &hdr);
	if (!msg)
		goto lost;
	if (nla_put_u8(msg, FLOWCTL_A_EVENT_DIR, FLOWCTL_DIR_RX) ||
	    (pending && fctl_put_u64(msg, FLOWCTL_A_EVENT_SUPPRESSED, pending,
				   FLOWCTL_A_EVENT_PAD)))
		goto free;
	for (i = 0; i < evs->n; i++)
		if (fctl_event_put_entry(msg, &evs->ev[i]))
			goto free;
	fctl_event_send(q, msg, hdr, GFP_ATOMIC);
	return;

free:
	nlmsg_free(msg);
lost:
	fctl_event_lost(q, evs->n, pending);
}

void fctl_notify_config(struct fctl_sched *q)
{
	struct net *net = dev_net(q->dev);
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&fctl_genl_family, net, FCTL_MCGRP_EVENTS_IDX))
		return;
	msg = fctl_event_new(q, FLOWCTL_EVENT_CONFIG, 0, GFP_KERNEL, &hdr);
	if (msg)
		fctl_event_send(q, msg, hdr, GFP_KERNEL);
}

static const struct genl_ops fctl_genl_ops[] = {
	{
		.cmd	= FLOWCTL_CMD_DEV_GET,
		.doit	= fctl_nl_get_doit,
		.start	= fctl_nl_get_dump_start,
		.dumpit	= fctl_nl_get_dumpit,
		.policy	= fctl_dev_get_policy,
		.maxattr = FLOWCTL_A_DEV_MAX,
	},
	{
		.cmd	= FLOWCTL_CMD_DEV_SET,
		.doit	= fctl_nl_set_doit,
		.policy	= fctl_dev_set_policy,
		.maxattr = FLOWCTL_A_DEV_MAX,
		.flags	= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd	= FLOWCTL_CMD_STATS_RESET,
		.doit	= fctl_nl_reset_doit,
		.policy	= fctl_dev_id_policy,
		.maxattr = FLOWCTL_A_DEV_MAX,
		.flags	= GENL_UNS_ADMIN_PERM,
	},
};

/* Events: for administrators, as DEV_SET (flowctl.8, DIAGNOSTICS). */
static const struct genl_multicast_group fctl_mcgrps[] = {
	[FCTL_MCGRP_EVENTS_IDX] = {
		.name = FLOWCTL_MCGRP_EVENTS,
		.flags = GENL_MCAST_CAP_NET_ADMIN,
	},
};

static struct genl_family fctl_genl_family __ro_after_init = {
	.name		= FLOWCTL_FAMILY_NAME,
	.version	= FLOWCTL_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= fctl_genl_ops,
	.n_ops		= ARRAY_SIZE(fctl_genl_ops),
	.resv_start_op	= FLOWCTL_CMD_EVENT + 1,
	.mcgrps		= fctl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(fctl_mcgrps),
};

int fctl_netlink_init(void)
{
	return genl_register_family(&fctl_genl_family);
}

void fctl_netlink_exit(void)
{
	genl_unregister_family(&fctl_genl_family);
}
