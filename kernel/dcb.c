// SPDX-License-Identifier: GPL-2.0
/*
 * Linux's own interfaces to a flowctl port, where the driver has none:
 * ethtool's pause settings and statistics (ethtool -a, -A, -I -a) and DCB
 * netlink (dcb pfc, ets, app and dcbx; lldpad). Each door writes the
 * port's one configuration through the one validator (fctl_door_set) and
 * reads back what any door set. Documentation/dcb.md has the mapping.
 *
 * The doors belong to the device: struct fctl_port, one per device that
 * had flowctl, opens them when the first flowctl qdisc attaches and closes
 * them when the last one goes (a replace creates the new qdisc before it
 * destroys the old). A driver's own operations are never replaced. All of
 * it runs under RTNL, as every caller of a DCB or ethtool operation does,
 * with one exception: ethtool's netlink PAUSE_SET tests the operations
 * before it takes RTNL and calls them after. So a closed pause door leaves
 * operations that say pause is off and refuse a change, and the driver's
 * own come back when the device unregisters (ethnl_ops_begin() refuses an
 * unregistering device first) or the module goes. A copy of ethtool_ops
 * may be read without RTNL: each lives until the module goes.
 */
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/rtnetlink.h>
#include <net/dcbnl.h>
#include "flowctl.h"

/* The partner's DCBX TLVs, as its agent heard them (FLOWCTL_A_DEV_PEER). */
struct fctl_peer {
	u64 expires;			/* jiffies64: the LLDPDU's TTL ends */
	u8 have;			/* FCTL_PEER_* TLVs it sent */
	u8 mac[ETH_ALEN];
	bool pfc_willing;
	u8 pfc_cap, pfc_en, mbc;
	struct ieee_ets ets;		/* Configuration, and Recommendation */
	u16 napps;
	struct dcb_app app[FLOWCTL_PEER_APPS];
};

#define FCTL_PEER_PFC	BIT(0)
#define FCTL_PEER_ETS	BIT(1)
#define FCTL_PEER_RECO	BIT(2)
#define FCTL_PEER_APP	BIT(3)

/*
 * CEE's DCB netlink (lldpad in CEE mode): settings staged per part, as the
 * driver interface has it, and applied together by setall. A part is
 * staged from the configuration in force when its first setter runs.
 */
struct fctl_cee {
	u8 staged;			/* FCTL_CEE_PG, FCTL_CEE_PFC */
	u8 up_map[IEEE_8021QAZ_MAX_TCS];	/* class: its priorities */
	u8 strict[IEEE_8021QAZ_MAX_TCS];	/* class: link strict */
	u8 bwg[IEEE_8021QAZ_MAX_TCS];	/* class: its bandwidth group */
	u8 bw_pct[IEEE_8021QAZ_MAX_TCS];	/* class: percent of its group */
	u8 bwg_pct[IEEE_8021QAZ_MAX_TCS];	/* group: percent of the link */
	u8 pfc;				/* bit p: PFC on priority p */
	bool pfc_state;			/* PFC on at all */
};

#define FCTL_CEE_PG	BIT(0)
#define FCTL_CEE_PFC	BIT(1)
#define FCTL_CEE_LINK_STRICT	2	/* a class's prio_type: strict */
/* What setall answers (DCB_ATTR_SET_ALL), as drivers and lldpad have it. */
#define FCTL_CEE_NO_CHANGE	1
#define FCTL_CEE_CHANGED	2	/* with no link reset */

struct fctl_port {
	struct list_head list;		/* fctl_ports */
	struct net_device *dev;		/* NULL once unregistered */
	unsigned int users;		/* flowctl qdiscs on dev */
	u8 doors;			/* FLOWCTL_DOOR_* open */
	u8 door_src;			/* the door a change comes through */
	u8 app[FCTL_DSCPS];		/* DSCP entries in the kernel's table */
	const struct ethtool_ops *drv_ethtool;
	struct ethtool_ops ethtool;	/* the driver's, and pause */
	struct ethtool_ops closed;	/* the driver's, and pause off */
	struct fctl_peer peer;		/* have 0: none */
	bool cee;			/* getdcbx: host CEE, not IEEE */
	struct fctl_cee stage;
};

static LIST_HEAD(fctl_ports);		/* RTNL */

u8 fctl_port_doors(const struct fctl_sched *q)
{
	return q->port ? q->port->doors : 0;
}

/* The TLVs of the partner that are still within their TTL: under RTNL. */
static u8 fctl_peer_have(const struct fctl_port *p)
{
	if (!p || !p->peer.have || time_after_eq64(get_jiffies_64(), p->peer.expires))
		return 0;
	return p->peer.have;
}

static u32 fctl_peer_prio_tc(const u8 *prio_tc)
{
	u32 v = 0;
	int i;

	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		v |= (u32)prio_tc[i] << (4 * i);
	return v;
}

static void fctl_peer_tcs(u8 *prio_tc, u8 *bw, u8 *tsa, const struct nlattr *ptc,
			  const struct nlattr *nbw, const struct nlattr *ntsa)
{
	u32 v = nla_get_u32(ptc);
	int i;

	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		prio_tc[i] = (v >> (4 * i)) & 0x7;
	if (nbw)
		nla_memcpy(bw, nbw, IEEE_8021QAZ_MAX_TCS);
	if (ntsa)
		nla_memcpy(tsa, ntsa, IEEE_8021QAZ_MAX_TCS);
}

static int fctl_peer_tcs_ok(const struct nlattr *nbw, const struct nlattr *ntsa,
			    struct netlink_ext_ack *extack)
{
	const u8 *bw = nla_data(nbw), *tsa = nla_data(ntsa);
	int i;

	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		if (bw[i] > 100) {
			NL_SET_ERR_MSG_ATTR(extack, nbw,
					    "peer: a class's share is 0..100 percent");
			return -EINVAL;
		}
		if (tsa[i] != IEEE_8021QAZ_TSA_STRICT &&
		    tsa[i] != IEEE_8021QAZ_TSA_CB_SHAPER &&
		    tsa[i] != IEEE_8021QAZ_TSA_ETS &&
		    tsa[i] != IEEE_8021QAZ_TSA_VENDOR) {
			NL_SET_ERR_MSG_ATTR(extack, ntsa,
					    "peer: a TSA is strict (0), cbs (1), ets (2) or vendor (255)");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The partner, from tb (FLOWCTL_A_PEER_*, checked by the policy): all of
 * it, or with no attribute at all, none. Under RTNL.
 */
int fctl_peer_set(struct fctl_sched *q, struct nlattr **tb,
		  struct netlink_ext_ack *extack)
{
	struct net_device *dev = q->dev;
	struct fctl_port *p = q->port;
	struct fctl_peer *n;
	const struct dcb_app *app;
	bool any = false;
	int i, err;

	ASSERT_RTNL();
	if (!p)
		return -ENODEV;
	for (i = 1; i <= FLOWCTL_A_PEER_MAX; i++)
		any |= !!tb[i];
	if (any && !tb[FLOWCTL_A_PEER_TTL]) {
		NL_SET_ERR_MSG(extack, "peer: a partner comes with its TTL");
		return -EINVAL;
	}
	if (tb[FLOWCTL_A_PEER_PFC_EN] && !tb[FLOWCTL_A_PEER_PFC_CAP]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_PEER_PFC_EN],
				    "peer: a PFC TLV comes with its capability");
		return -EINVAL;
	}
	for (i = 0; i < 2; i++) {
		int ptc = i ? FLOWCTL_A_PEER_RECO_PRIO_TC : FLOWCTL_A_PEER_ETS_PRIO_TC;
		int bw = i ? FLOWCTL_A_PEER_RECO_TC_BW : FLOWCTL_A_PEER_ETS_TC_BW;
		int tsa = i ? FLOWCTL_A_PEER_RECO_TC_TSA : FLOWCTL_A_PEER_ETS_TC_TSA;

		if (!!tb[ptc] != !!tb[bw] || !!tb[ptc] != !!tb[tsa]) {
			NL_SET_ERR_MSG(extack,
				       "peer: an ETS TLV comes with its classes, shares and TSAs");
			return -EINVAL;
		}
		if (tb[bw]) {
			err = fctl_peer_tcs_ok(tb[bw], tb[tsa], extack);
			if (err)
				return err;
		}
	}
	if (tb[FLOWCTL_A_PEER_APP]) {
		int len = nla_len(tb[FLOWCTL_A_PEER_APP]);

		if (len % sizeof(*app)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_PEER_APP],
					    "peer: APP entries are struct dcb_app");
			return -EINVAL;
		}
		app = nla_data(tb[FLOWCTL_A_PEER_APP]);
		for (i = 0; i < len / sizeof(*app); i++)
			if (app[i].priority >= FCTL_PRIOS || !app[i].selector ||
			    app[i].selector > IEEE_8021QAZ_APP_SEL_DSCP) {
				NL_SET_ERR_MSG_ATTR(extack, tb[FLOWCTL_A_PEER_APP],
						    "peer: an APP entry's priority is 0..7, its selector 1..5");
				return -EINVAL;
			}
	}

	n = kzalloc(sizeof(*n), GFP_KERNEL);
	if (!n)
		return -ENOMEM;
	if (any) {
		n->expires = get_jiffies_64() +
			     (u64)nla_get_u16(tb[FLOWCTL_A_PEER_TTL]) * HZ;
		if (tb[FLOWCTL_A_PEER_MAC])
			nla_memcpy(n->mac, tb[FLOWCTL_A_PEER_MAC], ETH_ALEN);
		if (tb[FLOWCTL_A_PEER_PFC_EN]) {
			n->have |= FCTL_PEER_PFC;
			n->pfc_en = nla_get_u8(tb[FLOWCTL_A_PEER_PFC_EN]);
			n->pfc_cap = nla_get_u8(tb[FLOWCTL_A_PEER_PFC_CAP]);
			n->mbc = tb[FLOWCTL_A_PEER_PFC_MBC] &&
				 nla_get_u8(tb[FLOWCTL_A_PEER_PFC_MBC]);
			n->pfc_willing = tb[FLOWCTL_A_PEER_PFC_WILLING] &&
					 nla_get_u8(tb[FLOWCTL_A_PEER_PFC_WILLING]);
		}
		if (tb[FLOWCTL_A_PEER_ETS_PRIO_TC]) {
			n->have |= FCTL_PEER_ETS;
			fctl_peer_tcs(n->ets.prio_tc, n->ets.tc_tx_bw,
				      n->ets.tc_tsa, tb[FLOWCTL_A_PEER_ETS_PRIO_TC],
				      tb[FLOWCTL_A_PEER_ETS_TC_BW],
				      tb[FLOWCTL_A_PEER_ETS_TC_TSA]);
			memcpy(n->ets.tc_rx_bw, n->ets.tc_tx_bw,
			       sizeof(n->ets.tc_rx_bw));
			n->ets.ets_cap = tb[FLOWCTL_A_PEER_ETS_CAP] ?
					 nla_get_u8(tb[FLOWCTL_A_PEER_ETS_CAP]) :
					 IEEE_8021QAZ_MAX_TCS;
			n->ets.willing = tb[FLOWCTL_A_PEER_ETS_WILLING] &&
					 nla_get_u8(tb[FLOWCTL_A_PEER_ETS_WILLING]);
			n->ets.cbs = tb[FLOWCTL_A_PEER_ETS_CBS] &&
				     nla_get_u8(tb[FLOWCTL_A_PEER_ETS_CBS]);
		}
		if (tb[FLOWCTL_A_PEER_RECO_PRIO_TC]) {
			n->have |= FCTL_PEER_RECO;
			fctl_peer_tcs(n->ets.reco_prio_tc, n->ets.tc_reco_bw,
				      n->ets.tc_reco_tsa,
				      tb[FLOWCTL_A_PEER_RECO_PRIO_TC],
				      tb[FLOWCTL_A_PEER_RECO_TC_BW],
				      tb[FLOWCTL_A_PEER_RECO_TC_TSA]);
		}
		if (tb[FLOWCTL_A_PEER_APP]) {
			n->have |= FCTL_PEER_APP;
			n->napps = nla_len(tb[FLOWCTL_A_PEER_APP]) / sizeof(*app);
			nla_memcpy(n->app, tb[FLOWCTL_A_PEER_APP], sizeof(n->app));
		}
	}
	/* What a reader sees changes only with the TLVs, not with their TTL. */
	any = fctl_peer_have(p) != n->have ||
	      memcmp(&p->peer.have, &n->have,
		     sizeof(*n) - offsetof(struct fctl_peer, have));
	p->peer = *n;
	kfree(n);
#if IS_ENABLED(CONFIG_DCB)
	if (any && (p->doors & FLOWCTL_DOOR_DCB))
		dcbnl_ieee_notify(dev, RTM_SETDCB, DCB_CMD_IEEE_SET, 0, 0);
#endif
	return 0;
}

/* FLOWCTL_A_DEV_PEER of a DEV_GET reply: under RTNL. */
int fctl_peer_fill(struct sk_buff *msg, const struct fctl_sched *q)
{
	const struct fctl_port *p = q->port;
	const struct fctl_peer *n;
	struct nlattr *nest;
	u8 have = fctl_peer_have(p);
	u64 left;

	if (!have)
		return 0;
	n = &p->peer;
	left = DIV_ROUND_UP_ULL(n->expires - get_jiffies_64(), HZ);
	nest = nla_nest_start(msg, FLOWCTL_A_DEV_PEER);
	if (!nest ||
	    nla_put_u16(msg, FLOWCTL_A_PEER_TTL, clamp_val(left, 1, U16_MAX)) ||
	    (!is_zero_ether_addr(n->mac) &&
	     nla_put(msg, FLOWCTL_A_PEER_MAC, ETH_ALEN, n->mac)))
		goto cancel;
	if ((have & FCTL_PEER_PFC) &&
	    (nla_put_u8(msg, FLOWCTL_A_PEER_PFC_EN, n->pfc_en) ||
	     nla_put_u8(msg, FLOWCTL_A_PEER_PFC_CAP, n->pfc_cap) ||
	     nla_put_u8(msg, FLOWCTL_A_PEER_PFC_MBC, n->mbc) ||
	     nla_put_u8(msg, FLOWCTL_A_PEER_PFC_WILLING, n->pfc_willing)))
		goto cancel;
	if ((have & FCTL_PEER_ETS) &&
	    (nla_put_u32(msg, FLOWCTL_A_PEER_ETS_PRIO_TC,
			 fctl_peer_prio_tc(n->ets.prio_tc)) ||
	     nla_put(msg, FLOWCTL_A_PEER_ETS_TC_BW, IEEE_8021QAZ_MAX_TCS,
		     n->ets.tc_tx_bw) ||
	     nla_put(msg, FLOWCTL_A_PEER_ETS_TC_TSA, IEEE_8021QAZ_MAX_TCS,
		     n->ets.tc_tsa) ||
	     nla_put_u8(msg, FLOWCTL_A_PEER_ETS_CAP, n->ets.ets_cap) ||
	     nla_put_u8(msg, FLOWCTL_A_PEER_ETS_WILLING, n->ets.willing) ||
	     nla_put_u8(msg, FLOWCTL_A_PEER_ETS_CBS, n->ets.cbs)))
		goto cancel;
	if ((have & FCTL_PEER_RECO) &&
	    (nla_put_u32(msg, FLOWCTL_A_PEER_RECO_PRIO_TC,
			 fctl_peer_prio_tc(n->ets.reco_prio_tc)) ||
	     nla_put(msg, FLOWCTL_A_PEER_RECO_TC_BW, IEEE_8021QAZ_MAX_TCS,
		     n->ets.tc_reco_bw) ||
	     nla_put(msg, FLOWCTL_A_PEER_RECO_TC_TSA, IEEE_8021QAZ_MAX_TCS,
		     n->ets.tc_reco_tsa)))
		goto cancel;
	if ((have & FCTL_PEER_APP) &&
	    nla_put(msg, FLOWCTL_A_PEER_APP, n->napps * sizeof(n->app[0]),
		    n->app))
		goto cancel;
	nla_nest_end(msg, nest);
	return 0;

cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* The flowctl qdisc that answers for dev, or NULL: under RTNL. */
static struct fctl_sched *fctl_door_q(struct net_device *dev)
{
	ASSERT_RTNL();
	return fctl_from_dev(dev);
}

/*
 * Set attrs (FLOWCTL_A_DEV_*) as "flowctl set" does. A DCB or ethtool
 * request carries no extack: the validator's words go to the kernel log.
 */
static int fctl_door_commit(struct fctl_sched *q, struct sk_buff *attrs,
			    u8 door)
{
	struct netlink_ext_ack extack = {};
	int err;

	q->port->door_src = door;
	err = fctl_door_set(q, attrs, &extack);
	q->port->door_src = 0;
	if (err && extack._msg)
		netdev_info(q->dev, "flowctl: %s: %s\n",
			    door == FLOWCTL_DOOR_DCB ? "dcb" : "ethtool",
			    extack._msg);
	kfree_skb(attrs);
	return err;
}

static struct sk_buff *fctl_door_attrs(void)
{
	return alloc_skb(256, GFP_KERNEL);
}

static void fctl_door_refuse(struct net_device *dev, const char *msg)
{
	netdev_info(dev, "flowctl: %s\n", msg);
}

/* ethtool -a: link-level PAUSE is mode pause's rx and tx. */
static void fctl_get_pauseparam(struct net_device *dev,
				struct ethtool_pauseparam *pp)
{
	struct fctl_sched *q = fctl_door_q(dev);
	const struct fctl_cfg *cfg;

	pp->autoneg = AUTONEG_DISABLE;
	pp->rx_pause = 0;
	pp->tx_pause = 0;
	if (!q)
		return;
	cfg = rtnl_dereference(q->cfg);
	if (cfg->mode != FLOWCTL_MODE_PAUSE)
		return;
	pp->rx_pause = cfg->rx;
	pp->tx_pause = cfg->tx;
}

static int fctl_set_pauseparam(struct net_device *dev,
			       struct ethtool_pauseparam *pp)
{
	struct fctl_sched *q = fctl_door_q(dev);
	const struct fctl_cfg *cfg;
	struct sk_buff *a;
	u8 mode;

	if (!q)
		return -EOPNOTSUPP;
	if (pp->autoneg) {
		fctl_door_refuse(dev,
				 "ethtool: pause is not negotiated on a flowctl port: autoneg off");
		return -EOPNOTSUPP;
	}
	cfg = rtnl_dereference(q->cfg);
	mode = cfg->mode;
	if (mode == FLOWCTL_MODE_PFC) {
		if (!pp->rx_pause && !pp->tx_pause)
			return 0;
		fctl_door_refuse(dev,
				 "ethtool: PFC is on, and a link pauses by PFC or by PAUSE: dcb pfc set dev DEV prio-pfc all:off first");
		return -EOPNOTSUPP;
	}
	if (mode == FLOWCTL_MODE_OFF && !pp->rx_pause && !pp->tx_pause)
		return 0;
	a = fctl_door_attrs();
	if (!a)
		return -ENOMEM;
	if (nla_put_u8(a, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PAUSE) ||
	    nla_put_u8(a, FLOWCTL_A_DEV_RX, !!pp->rx_pause) ||
	    nla_put_u8(a, FLOWCTL_A_DEV_TX, !!pp->tx_pause)) {
		kfree_skb(a);
		return -EMSGSIZE;
	}
	return fctl_door_commit(q, a, FLOWCTL_DOOR_PAUSE);
}

/* 30.3.4.2/3: PAUSE frames, XOFF and XON; PFC frames are DCB's to count. */
static void fctl_get_pause_stats(struct net_device *dev,
				 struct ethtool_pause_stats *ps)
{
	struct fctl_sched *q = fctl_door_q(dev);
	struct fctl_tx_stats t;

	if (!q)
		return;
	fctl_tx_read(q, &t);
	ps->tx_pause_frames = t.tx_pause + t.tx_xon;
	spin_lock_bh(&q->rx_lock);
	ps->rx_pause_frames = q->rxs.rx_pause + q->rxs.rx_xon;
	spin_unlock_bh(&q->rx_lock);
}

/* What a closed pause door answers: no pause, and no change. */
static void fctl_closed_get_pauseparam(struct net_device *dev,
				       struct ethtool_pauseparam *pp)
{
	pp->autoneg = AUTONEG_DISABLE;
	pp->rx_pause = 0;
	pp->tx_pause = 0;
}

static int fctl_closed_set_pauseparam(struct net_device *dev,
				      struct ethtool_pauseparam *pp)
{
	return -EOPNOTSUPP;
}

#if IS_ENABLED(CONFIG_DCB)
/* 802.1Qaz: PFC is eight priorities' pause; requests and indications are
 * the PFC frames sent and received that name a priority (XOFF or XON).
 */
static int fctl_ieee_getpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct fctl_sched *q = fctl_door_q(dev);
	const struct fctl_cfg *cfg;
	struct fctl_tx_stats t;
	int prio;

	if (!q)
		return -EOPNOTSUPP;
	cfg = rtnl_dereference(q->cfg);
	pfc->pfc_cap = IEEE_8021QAZ_MAX_TCS;
	pfc->pfc_en = cfg->mode == FLOWCTL_MODE_PFC ? cfg->pfc_prios : 0;
	pfc->mbc = 0;
	pfc->delay = cfg->pfc_delay;
	fctl_tx_read(q, &t);
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		pfc->requests[prio] = t.prio_tx_pfc[prio] +
				      t.prio_tx_pfc_xon[prio];
	spin_lock_bh(&q->rx_lock);
	for (prio = 0; prio < FCTL_PRIOS; prio++)
		pfc->indications[prio] = q->prx[prio].rx_pfc;
	spin_unlock_bh(&q->rx_lock);
	return 0;
}

/* The attributes that give cfg's port PFC on pfc_en (none: not at all). */
static int fctl_pfc_put(struct sk_buff *a, const struct fctl_sched *q,
			const struct fctl_cfg *cfg, u8 pfc_en)
{
	int err = 0;

	if (pfc_en && cfg->mode != FLOWCTL_MODE_PFC) {
		/* Turned on: honored, and sent where a speed times our XOFF
		 * (virtio-net may report none: flowctl set speed).
		 */
		err = nla_put_u8(a, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PFC) ||
		      nla_put_u8(a, FLOWCTL_A_DEV_PFC_PRIOS, pfc_en) ||
		      nla_put_u8(a, FLOWCTL_A_DEV_RX, 1);
		if (!err && READ_ONCE(q->speed_mbps))
			err = nla_put_u8(a, FLOWCTL_A_DEV_TX, 1);
	} else if (pfc_en && pfc_en != cfg->pfc_prios) {
		/* Already on: the priorities alone (rx and tx stay). */
		err = nla_put_u8(a, FLOWCTL_A_DEV_PFC_PRIOS, pfc_en);
	} else if (!pfc_en && cfg->mode == FLOWCTL_MODE_PFC) {
		err = nla_put_u8(a, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_OFF);
	}
	return err ? -EMSGSIZE : 0;
}

/* Commit a, or nothing when it is empty. */
static int fctl_door_commit_any(struct fctl_sched *q, struct sk_buff *a)
{
	if (!a->len) {
		kfree_skb(a);
		return 0;
	}
	return fctl_door_commit(q, a, FLOWCTL_DOOR_DCB);
}

/*
 * PFC on some priorities is mode pfc on them, honored and sent (a NIC's
 * PFC does both); on none, a port in mode pfc goes off and one in mode
 * pause keeps its PAUSE. pfc_cap, requests and indications are read-only.
 * lldpad writes the same every second or so: what is unchanged is not
 * set again.
 */
static int fctl_ieee_setpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	struct fctl_sched *q = fctl_door_q(dev);
	const struct fctl_cfg *cfg;
	struct sk_buff *a;
	int err;

	if (!q)
		return -EOPNOTSUPP;
	if (pfc->mbc) {
		fctl_door_refuse(dev,
				 "dcb: no MACsec on a flowctl port to bypass: macsec-bypass off");
		return -EOPNOTSUPP;
	}
	cfg = rtnl_dereference(q->cfg);
	a = fctl_door_attrs();
	if (!a)
		return -ENOMEM;
	err = fctl_pfc_put(a, q, cfg, pfc->pfc_en);
	if (!err && pfc->delay != cfg->pfc_delay &&
	    nla_put_u16(a, FLOWCTL_A_DEV_PFC_DELAY, pfc->delay))
		err = -EMSGSIZE;
	if (err) {
		kfree_skb(a);
		return err;
	}
	return fctl_door_commit_any(q, a);
}

/* ETS: a class of share 0 is strict, as in flowctl's tc-bw. */
static int fctl_ieee_getets(struct net_device *dev, struct ieee_ets *ets)
{
	struct fctl_sched *q = fctl_door_q(dev);
	const struct fctl_cfg *cfg;
	int i;

	if (!q)
		return -EOPNOTSUPP;
	cfg = rtnl_dereference(q->cfg);
	ets->willing = 0;
	ets->ets_cap = IEEE_8021QAZ_MAX_TCS;
	ets->cbs = 0;
	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		ets->tc_tx_bw[i] = cfg->tc_bw[i];
		ets->tc_rx_bw[i] = cfg->tc_bw[i];
		ets->tc_tsa[i] = cfg->tc_bw[i] ? IEEE_8021QAZ_TSA_ETS :
						 IEEE_8021QAZ_TSA_STRICT;
		ets->prio_tc[i] = (cfg->prio_tc >> (4 * i)) & 0x7;
		/* What ETS Recommendation TLVs carry: the configuration. */
		ets->tc_reco_bw[i] = ets->tc_tx_bw[i];
		ets->tc_reco_tsa[i] = ets->tc_tsa[i];
		ets->reco_prio_tc[i] = ets->prio_tc[i];
	}
	return 0;
}

static int fctl_ieee_setets(struct net_device *dev, struct ieee_ets *ets)
{
	struct fctl_sched *q = fctl_door_q(dev);
	const struct fctl_cfg *cfg;
	u8 bw[IEEE_8021QAZ_MAX_TCS];
	struct sk_buff *a;
	u32 prio_tc = 0;
	int i;

	if (!q)
		return -EOPNOTSUPP;
	for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		switch (ets->tc_tsa[i]) {
		case IEEE_8021QAZ_TSA_STRICT:
			bw[i] = 0;
			break;
		case IEEE_8021QAZ_TSA_ETS:
			if (!ets->tc_tx_bw[i]) {
				fctl_door_refuse(dev,
						 "dcb: an ets class needs a share of 1..100 (strict is tc-tsa strict)");
				return -EINVAL;
			}
			bw[i] = ets->tc_tx_bw[i];
			break;
		default:
			fctl_door_refuse(dev,
					 "dcb: flowctl's classes are strict or ets (no cbs, no vendor TSA)");
			return -EOPNOTSUPP;
		}
		if (ets->prio_tc[i] >= IEEE_8021QAZ_MAX_TCS) {
			fctl_door_refuse(dev,
					 "dcb: prio-tc: traffic classes are 0..7");
			return -EINVAL;
		}
		prio_tc |= (u32)ets->prio_tc[i] << (4 * i);
	}
	cfg = rtnl_dereference(q->cfg);
	if (prio_tc == cfg->prio_tc && !memcmp(bw, cfg->tc_bw, sizeof(bw)))
		return 0;
	a = fctl_door_attrs();
	if (!a)
		return -ENOMEM;
	if (nla_put_u32(a, FLOWCTL_A_DEV_PRIO_TC, prio_tc) ||
	    nla_put(a, FLOWCTL_A_DEV_TC_BW, sizeof(bw), bw)) {
		kfree_skb(a);
		return -EMSGSIZE;
	}
	return fctl_door_commit(q, a, FLOWCTL_DOOR_DCB);
}

/* APP entries flowctl classifies by: DSCP (trust dscp), as mlx5's. */
static int fctl_app_dscp(struct net_device *dev, const struct dcb_app *app)
{
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP) {
		fctl_door_refuse(dev,
				 "dcb: flowctl classifies by DSCP entries of the APP table only (dscp-prio)");
		return -EOPNOTSUPP;
	}
	if (app->protocol >= FCTL_DSCPS || app->priority >= FCTL_PRIOS) {
		fctl_door_refuse(dev,
				 "dcb: dscp-prio: DSCP 0..63, priority 0..7");
		return -EINVAL;
	}
	return 0;
}

static int fctl_app_change(struct net_device *dev, const struct dcb_app *app,
			   bool add)
{
	struct fctl_sched *q = fctl_door_q(dev);
	u8 map[FCTL_DSCPS];
	struct sk_buff *a;
	u8 bit;
	int err;

	if (!q)
		return -EOPNOTSUPP;
	err = fctl_app_dscp(dev, app);
	if (err)
		return err;
	memcpy(map, rtnl_dereference(q->cfg)->dscp_prios, sizeof(map));
	bit = BIT(app->priority);
	if (add && (map[app->protocol] & bit))
		return -EEXIST;
	if (!add && !(map[app->protocol] & bit))
		return -ENOENT;
	map[app->protocol] ^= bit;
	a = fctl_door_attrs();
	if (!a)
		return -ENOMEM;
	if (nla_put(a, FLOWCTL_A_DEV_DSCP_PRIOS, sizeof(map), map)) {
		kfree_skb(a);
		return -EMSGSIZE;
	}
	return fctl_door_commit(q, a, FLOWCTL_DOOR_DCB);
}

static int fctl_ieee_setapp(struct net_device *dev, struct dcb_app *app)
{
	return fctl_app_change(dev, app, true);
}

static int fctl_ieee_delapp(struct net_device *dev, struct dcb_app *app)
{
	return fctl_app_change(dev, app, false);
}

#ifdef FCTL_HAVE_APPTRUST
/*
 * APP trust (dcb apptrust, 6.2 on): the selectors classification trusts,
 * in order. flowctl takes a tagged frame's PCP, then with trust dscp an IP
 * packet's DSCP: the orders "pcp" and "pcp dscp".
 */
static int fctl_getapptrust(struct net_device *dev, u8 *sel, int *n)
{
	struct fctl_sched *q = fctl_door_q(dev);

	if (!q)
		return -EOPNOTSUPP;
	sel[0] = DCB_APP_SEL_PCP;
	*n = 1;
	if (rtnl_dereference(q->cfg)->trust == FLOWCTL_TRUST_DSCP)
		sel[(*n)++] = IEEE_8021QAZ_APP_SEL_DSCP;
	return 0;
}

static int fctl_setapptrust(struct net_device *dev, u8 *sel, int n)
{
	struct fctl_sched *q = fctl_door_q(dev);
	struct sk_buff *a;
	u8 trust;

	if (!q)
		return -EOPNOTSUPP;
	if (n == 1 && sel[0] == DCB_APP_SEL_PCP) {
		trust = FLOWCTL_TRUST_PCP;
	} else if (n == 2 && sel[0] == DCB_APP_SEL_PCP &&
		   sel[1] == IEEE_8021QAZ_APP_SEL_DSCP) {
		trust = FLOWCTL_TRUST_DSCP;
	} else {
		fctl_door_refuse(dev,
				 "dcb: apptrust: flowctl trusts a tagged frame's PCP first: order pcp, or pcp dscp");
		return -EOPNOTSUPP;
	}
	a = fctl_door_attrs();
	if (!a)
		return -ENOMEM;
	if (nla_put_u8(a, FLOWCTL_A_DEV_TRUST, trust)) {
		kfree_skb(a);
		return -EMSGSIZE;
	}
	return fctl_door_commit(q, a, FLOWCTL_DOOR_DCB);
}
#endif

/*
 * Tables flowctl does not classify by, which dcbnl would keep for the
 * device (under its ifindex, past it): CEE's APP entries, and 6.5's
 * rewrite table.
 */
static int fctl_cee_setapp(struct net_device *dev, u8 idtype, u16 id, u8 up)
{
	fctl_door_refuse(dev, "dcb: no CEE APP table on a flowctl port: dcb app (IEEE)");
	return -EOPNOTSUPP;
}

#ifdef FCTL_HAVE_REWR
static int fctl_rewr_refuse(struct net_device *dev, struct dcb_app *app)
{
	fctl_door_refuse(dev, "dcb: no rewrite table on a flowctl port");
	return -EOPNOTSUPP;
}
#endif

/* The partner, as flowctl's DCBX agent heard it (fctl_peer_set). */
static struct fctl_peer *fctl_peer_of(struct net_device *dev, u8 tlv)
{
	struct fctl_sched *q = fctl_door_q(dev);

	return q && (fctl_peer_have(q->port) & tlv) ? &q->port->peer : NULL;
}

static int fctl_ieee_peer_getpfc(struct net_device *dev, struct ieee_pfc *pfc)
{
	const struct fctl_peer *n = fctl_peer_of(dev, FCTL_PEER_PFC);

	if (!n)
		return -ENODATA;
	pfc->pfc_cap = n->pfc_cap;
	pfc->pfc_en = n->pfc_en;
	pfc->mbc = n->mbc;
	return 0;
}

static int fctl_ieee_peer_getets(struct net_device *dev, struct ieee_ets *ets)
{
	const struct fctl_peer *n = fctl_peer_of(dev, FCTL_PEER_ETS |
						     FCTL_PEER_RECO);

	if (!n)
		return -ENODATA;
	*ets = n->ets;
	return 0;
}

static int fctl_peer_getappinfo(struct net_device *dev,
				struct dcb_peer_app_info *info, u16 *count)
{
	const struct fctl_peer *n = fctl_peer_of(dev, FCTL_PEER_APP);

	if (!n)
		return -ENODATA;
	info->willing = 0;
	info->error = 0;
	*count = n->napps;
	return 0;
}

/* Called after fctl_peer_getappinfo, under the same RTNL hold. */
static int fctl_peer_getapptable(struct net_device *dev, struct dcb_app *table)
{
	const struct fctl_peer *n = fctl_peer_of(dev, FCTL_PEER_APP);

	if (!n)
		return -ENODATA;
	memcpy(table, n->app, n->napps * sizeof(*table));
	return 0;
}

/*
 * The host's own agent (flowctl dcbx, lldpad) runs DCBX. Which version it
 * runs is its to say, and lldpad says so when its partner speaks CEE; the
 * port takes both kinds of request in either.
 */
static u8 fctl_getdcbx(struct net_device *dev)
{
	struct fctl_sched *q = fctl_door_q(dev);

	return DCB_CAP_DCBX_HOST | (q && q->port->cee ? DCB_CAP_DCBX_VER_CEE :
							DCB_CAP_DCBX_VER_IEEE);
}

static u8 fctl_setdcbx(struct net_device *dev, u8 mode)
{
	struct fctl_sched *q = fctl_door_q(dev);

	if (!q)
		return 1;
	if (mode == (DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE) ||
	    mode == (DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE)) {
		q->port->cee = mode & DCB_CAP_DCBX_VER_CEE;
		return 0;
	}
	fctl_door_refuse(dev,
			 "dcb: dcbx: a flowctl port's DCBX is its host's agent's, one version: host ieee, or host cee");
	return 1;
}

/*
 * CEE (DCB netlink's older commands, lldpad's CEE mode). A traffic class
 * holds the priorities of its up_map, belongs to a bandwidth group and
 * takes a percent of the group's; link strict classes are flowctl's
 * strict ones (share 0). The getters read the configuration in force in
 * the same terms: class c is group c and takes all of it.
 */
static void fctl_cee_from_cfg(const struct fctl_cfg *cfg, struct fctl_cee *c,
			      u8 parts)
{
	int i;

	if (parts & FCTL_CEE_PG) {
		memset(c->up_map, 0, sizeof(c->up_map));
		for (i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
			c->up_map[(cfg->prio_tc >> (4 * i)) & 0x7] |= BIT(i);
			c->strict[i] = cfg->tc_bw[i] ? 0 : FCTL_CEE_LINK_STRICT;
			c->bwg[i] = i;
			c->bw_pct[i] = 100;
			c->bwg_pct[i] = cfg->tc_bw[i];
		}
	}
	if (parts & FCTL_CEE_PFC) {
		c->pfc_state = cfg->mode == FLOWCTL_MODE_PFC && cfg->pfc_prios;
		c->pfc = c->pfc_state ? cfg->pfc_prios : 0;
	}
}

/* The part staged for a setter, or NULL (no flowctl qdisc). */
static struct fctl_cee *fctl_cee_stage(struct net_device *dev, u8 part)
{
	struct fctl_sched *q = fctl_door_q(dev);
	struct fctl_cee *c;

	if (!q)
		return NULL;
	c = &q->port->stage;
	if (!(c->staged & part)) {
		fctl_cee_from_cfg(rtnl_dereference(q->cfg), c, part);
		c->staged |= part;
	}
	return c;
}

static void fctl_cee_view(struct net_device *dev, struct fctl_cee *c)
{
	struct fctl_sched *q = fctl_door_q(dev);

	memset(c, 0, sizeof(*c));
	if (q)
		fctl_cee_from_cfg(rtnl_dereference(q->cfg), c,
				  FCTL_CEE_PG | FCTL_CEE_PFC);
}

static u8 fctl_getstate(struct net_device *dev)
{
	return !!fctl_door_q(dev);
}

/* DCB is what the qdisc is: it goes off with tc qdisc del, not here. */
static u8 fctl_setstate(struct net_device *dev, u8 state)
{
	if (state)
		return 0;
	fctl_door_refuse(dev,
			 "dcb: a flowctl port's DCB is on while flowctl is attached (tc qdisc del turns it off)");
	return 1;
}

static u8 fctl_getcap(struct net_device *dev, int capid, u8 *cap)
{
	switch (capid) {
	case DCB_CAP_ATTR_PG:
	case DCB_CAP_ATTR_PFC:
		*cap = true;
		break;
	case DCB_CAP_ATTR_UP2TC:
	case DCB_CAP_ATTR_GSP:
	case DCB_CAP_ATTR_BCN:
		*cap = false;
		break;
	case DCB_CAP_ATTR_PG_TCS:
	case DCB_CAP_ATTR_PFC_TCS:
		*cap = BIT(IEEE_8021QAZ_MAX_TCS - 1);	/* 8 classes */
		break;
	case DCB_CAP_ATTR_DCBX:
		*cap = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE |
		       DCB_CAP_DCBX_VER_IEEE;
		break;
	default:
		*cap = 0;
		return 1;
	}
	return 0;
}

static int fctl_getnumtcs(struct net_device *dev, int tcid, u8 *num)
{
	if (tcid != DCB_NUMTCS_ATTR_PG && tcid != DCB_NUMTCS_ATTR_PFC)
		return -EINVAL;
	*num = IEEE_8021QAZ_MAX_TCS;
	return 0;
}

/* Values DCB_ATTR_VALUE_UNDEFINED (attribute absent) leave the staged one. */
static void fctl_setpgtccfgtx(struct net_device *dev, int tc, u8 prio_type,
			      u8 bwg, u8 bw_pct, u8 up_map)
{
	struct fctl_cee *c = fctl_cee_stage(dev, FCTL_CEE_PG);

	if (!c || tc < 0 || tc >= IEEE_8021QAZ_MAX_TCS)
		return;
	if (prio_type != DCB_ATTR_VALUE_UNDEFINED)
		c->strict[tc] = prio_type;
	if (bwg < IEEE_8021QAZ_MAX_TCS)
		c->bwg[tc] = bwg;
	if (bw_pct <= 100)
		c->bw_pct[tc] = bw_pct;
	if (up_map != DCB_ATTR_VALUE_UNDEFINED)
		c->up_map[tc] = up_map;
}

static void fctl_setpgbwgcfgtx(struct net_device *dev, int bwg, u8 bw_pct)
{
	struct fctl_cee *c = fctl_cee_stage(dev, FCTL_CEE_PG);

	if (c && bwg >= 0 && bwg < IEEE_8021QAZ_MAX_TCS && bw_pct <= 100)
		c->bwg_pct[bwg] = bw_pct;
}

/* Receive groups shape a NIC's ingress buffers; flowctl schedules only
 * what it sends, so they are taken and not kept (dcbnl sets both ways).
 */
static void fctl_setpgtccfgrx(struct net_device *dev, int tc, u8 prio_type,
			      u8 bwg, u8 bw_pct, u8 up_map)
{
}

static void fctl_setpgbwgcfgrx(struct net_device *dev, int bwg, u8 bw_pct)
{
}

/* dcbnl reads both ways or neither: no receive groups (values undefined). */
static void fctl_getpgtccfgrx(struct net_device *dev, int tc, u8 *prio_type,
			      u8 *bwg, u8 *bw_pct, u8 *up_map)
{
	*prio_type = DCB_ATTR_VALUE_UNDEFINED;
	*bwg = DCB_ATTR_VALUE_UNDEFINED;
	*bw_pct = DCB_ATTR_VALUE_UNDEFINED;
	*up_map = DCB_ATTR_VALUE_UNDEFINED;
}

static void fctl_getpgbwgcfgrx(struct net_device *dev, int bwg, u8 *bw_pct)
{
	*bw_pct = DCB_ATTR_VALUE_UNDEFINED;
}

static void fctl_getpgtccfgtx(struct net_device *dev, int tc, u8 *prio_type,
			      u8 *bwg, u8 *bw_pct, u8 *up_map)
{
	struct fctl_cee c;

	if (tc < 0 || tc >= IEEE_8021QAZ_MAX_TCS)
		return;
	fctl_cee_view(dev, &c);
	*prio_type = c.strict[tc];
	*bwg = c.bwg[tc];
	*bw_pct = c.bw_pct[tc];
	*up_map = c.up_map[tc];
}

static void fctl_getpgbwgcfgtx(struct net_device *dev, int bwg, u8 *bw_pct)
{
	struct fctl_cee c;

	if (bwg < 0 || bwg >= IEEE_8021QAZ_MAX_TCS)
		return;
	fctl_cee_view(dev, &c);
	*bw_pct = c.bwg_pct[bwg];
}

/* A priority's PFC is full (1) or off (0): flowctl's rx and tx are the port's. */
static void fctl_setpfccfg(struct net_device *dev, int prio, u8 setting)
{
	struct fctl_cee *c;

	if (prio < 0 || prio >= FCTL_PRIOS)
		return;
	if (setting > 1) {
		fctl_door_refuse(dev,
				 "dcb: a priority's PFC is on both ways on a flowctl port: full (1) or off (0)");
		return;
	}
	c = fctl_cee_stage(dev, FCTL_CEE_PFC);
	if (!c)
		return;
	if (setting)
		c->pfc |= BIT(prio);
	else
		c->pfc &= ~BIT(prio);
}

static void fctl_getpfccfg(struct net_device *dev, int prio, u8 *setting)
{
	struct fctl_cee c;

	if (prio < 0 || prio >= FCTL_PRIOS)
		return;
	fctl_cee_view(dev, &c);
	*setting = !!(c.pfc & BIT(prio));
}

static void fctl_setpfcstate(struct net_device *dev, u8 state)
{
	struct fctl_cee *c = fctl_cee_stage(dev, FCTL_CEE_PFC);

	if (c)
		c->pfc_state = !!state;
}

static u8 fctl_getpfcstate(struct net_device *dev)
{
	struct fctl_cee c;

	fctl_cee_view(dev, &c);
	return c.pfc_state;
}

/*
 * Staged classes as flowctl's: a priority in two classes' up_map is the
 * higher class's (as ixgbe), one in none (lldpad leaves its group-15
 * priorities out) class 0's; a class's share is its group's percent times
 * its own, at least 1 for a class that holds priorities and is not link
 * strict (share 0 is strict in flowctl); the ETS classes' shares are
 * scaled to sum to 100, the rounding to the largest.
 */
static void fctl_cee_to_cfg(const struct fctl_cee *c, u32 *prio_tc, u8 *bw)
{
	int sum = 0, acc = 0, big = 0, tc, p;

	*prio_tc = 0;
	memset(bw, 0, IEEE_8021QAZ_MAX_TCS);
	for (tc = 0; tc < IEEE_8021QAZ_MAX_TCS; tc++) {
		for (p = 0; p < FCTL_PRIOS; p++) {
			if (!(c->up_map[tc] & BIT(p)))
				continue;
			*prio_tc &= ~(0xfU << (4 * p));
			*prio_tc |= (u32)tc << (4 * p);
		}
		if (c->strict[tc] == FCTL_CEE_LINK_STRICT)
			continue;
		bw[tc] = c->bwg_pct[c->bwg[tc]] * c->bw_pct[tc] / 100;
		if (!bw[tc] && c->up_map[tc])
			bw[tc] = 1;
		sum += bw[tc];
	}
	if (!sum || sum == 100)
		return;
	for (tc = 0; tc < IEEE_8021QAZ_MAX_TCS; tc++) {
		if (!bw[tc])
			continue;
		bw[tc] = max(bw[tc] * 100 / sum, 1);
		acc += bw[tc];
		if (bw[tc] > bw[big])
			big = tc;
	}
	/* Each share is at least 1 and the largest at least 100 / 8. */
	bw[big] = bw[big] + 100 - acc;
}

/*
 * Apply what was staged, through the one validator: all of it or, when it
 * refuses (the kernel log says why), none.
 */
static u8 fctl_setall(struct net_device *dev)
{
	struct fctl_sched *q = fctl_door_q(dev);
	const struct fctl_cfg *cfg;
	u8 bw[IEEE_8021QAZ_MAX_TCS];
	struct fctl_cee *c;
	struct sk_buff *a;
	u32 prio_tc;
	int err = 0;

	if (!q)
		return FCTL_CEE_NO_CHANGE;
	c = &q->port->stage;
	cfg = rtnl_dereference(q->cfg);
	a = fctl_door_attrs();
	if (a && (c->staged & FCTL_CEE_PG)) {
		fctl_cee_to_cfg(c, &prio_tc, bw);
		if (prio_tc != cfg->prio_tc)
			err = nla_put_u32(a, FLOWCTL_A_DEV_PRIO_TC, prio_tc);
		if (!err && memcmp(bw, cfg->tc_bw, sizeof(bw)))
			err = nla_put(a, FLOWCTL_A_DEV_TC_BW, sizeof(bw), bw);
	}
	if (a && !err && (c->staged & FCTL_CEE_PFC))
		err = fctl_pfc_put(a, q, cfg, c->pfc_state ? c->pfc : 0);
	c->staged = 0;
	if (!a)
		return FCTL_CEE_NO_CHANGE;
	if (err || !a->len) {
		kfree_skb(a);
		return FCTL_CEE_NO_CHANGE;
	}
	return fctl_door_commit(q, a, FLOWCTL_DOOR_DCB) ? FCTL_CEE_NO_CHANGE :
							  FCTL_CEE_CHANGED;
}

static const struct dcbnl_rtnl_ops fctl_dcbnl_ops = {
	.ieee_getets	= fctl_ieee_getets,
	.ieee_setets	= fctl_ieee_setets,
	.ieee_getpfc	= fctl_ieee_getpfc,
	.ieee_setpfc	= fctl_ieee_setpfc,
	.ieee_setapp	= fctl_ieee_setapp,
	.ieee_delapp	= fctl_ieee_delapp,
	.ieee_peer_getets = fctl_ieee_peer_getets,
	.ieee_peer_getpfc = fctl_ieee_peer_getpfc,
	.peer_getappinfo = fctl_peer_getappinfo,
	.peer_getapptable = fctl_peer_getapptable,
	.getdcbx	= fctl_getdcbx,
	.setdcbx	= fctl_setdcbx,
	.getstate	= fctl_getstate,
	.setstate	= fctl_setstate,
	.getcap		= fctl_getcap,
	.getnumtcs	= fctl_getnumtcs,
	.getpgtccfgtx	= fctl_getpgtccfgtx,
	.getpgbwgcfgtx	= fctl_getpgbwgcfgtx,
	.setpgtccfgtx	= fctl_setpgtccfgtx,
	.setpgbwgcfgtx	= fctl_setpgbwgcfgtx,
	.setpgtccfgrx	= fctl_setpgtccfgrx,
	.setpgbwgcfgrx	= fctl_setpgbwgcfgrx,
	.getpgtccfgrx	= fctl_getpgtccfgrx,
	.getpgbwgcfgrx	= fctl_getpgbwgcfgrx,
	.getpfccfg	= fctl_getpfccfg,
	.setpfccfg	= fctl_setpfccfg,
	.getpfcstate	= fctl_getpfcstate,
	.setpfcstate	= fctl_setpfcstate,
	.setall		= fctl_setall,
	.setapp		= fctl_cee_setapp,
#ifdef FCTL_HAVE_APPTRUST
	.dcbnl_getapptrust = fctl_getapptrust,
	.dcbnl_setapptrust = fctl_setapptrust,
#endif
#ifdef FCTL_HAVE_REWR
	.dcbnl_setrewr	= fctl_rewr_refuse,
	.dcbnl_delrewr	= fctl_rewr_refuse,
#endif
};

static bool fctl_dcb_door(const struct fctl_port *p)
{
	return p->doors & FLOWCTL_DOOR_DCB;
}

static void fctl_dcb_open(struct fctl_port *p)
{
	if (p->dev->dcbnl_ops)
		return;
	p->dev->dcbnl_ops = &fctl_dcbnl_ops;
	p->doors |= FLOWCTL_DOOR_DCB;
}

static void fctl_dcb_close(struct fctl_port *p)
{
	if (p->dev->dcbnl_ops == &fctl_dcbnl_ops)
		p->dev->dcbnl_ops = NULL;
	p->doors &= ~FLOWCTL_DOOR_DCB;
}

/*
 * The kernel's APP table (net/dcb) holds the DSCP entries of ncfg: added
 * (adding) before ncfg is published, and if one cannot be, none is; removed
 * after. The table is keyed by ifindex alone, across namespaces.
 */
int fctl_app_sync(struct fctl_sched *q, const struct fctl_cfg *old,
		  const struct fctl_cfg *ncfg, bool adding)
{
	struct net_device *dev = q->dev;
	struct dcb_app app = { .selector = IEEE_8021QAZ_APP_SEL_DSCP };
	int d, prio, err = 0;
	u8 bits;

	if (!q->port || !fctl_dcb_door(q->port) ||
	    !memcmp(old->dscp_prios, ncfg->dscp_prios, FCTL_DSCPS))
		return 0;
	for (d = 0; d < FCTL_DSCPS; d++) {
		bits = adding ? ncfg->dscp_prios[d] & ~old->dscp_prios[d] :
				old->dscp_prios[d] & ~ncfg->dscp_prios[d];
		for (prio = 0; prio < FCTL_PRIOS; prio++) {
			if (!(bits & BIT(prio)))
				continue;
			app.protocol = d;
			app.priority = prio;
			if (!adding) {
				dcb_ieee_delapp(dev, &app);
				q->port->app[d] &= ~BIT(prio);
				continue;
			}
			err = dcb_ieee_setapp(dev, &app);
			if (err)
				goto undo;
			q->port->app[d] |= BIT(prio);
		}
	}
	return 0;

undo:
	/* Entries of this DSCP below prio, and of every DSCP before it. */
	for (; d >= 0; d--, prio = FCTL_PRIOS) {
		bits = ncfg->dscp_prios[d] & ~old->dscp_prios[d];
		while (--prio >= 0) {
			if (!(bits & BIT(prio)))
				continue;
			app.protocol = d;
			app.priority = prio;
			dcb_ieee_delapp(dev, &app);
			q->port->app[d] &= ~BIT(prio);
		}
	}
	return err;
}

/*
 * The APP entries go with the door, under the ifindex they were added
 * with: the kernel's table would outlive the device, and a namespace move
 * renumbers it.
 */
static void fctl_app_flush(struct fctl_port *p)
{
	struct dcb_app app = { .selector = IEEE_8021QAZ_APP_SEL_DSCP };
	int d, prio;

	if (!fctl_dcb_door(p))
		return;
	for (d = 0; d < FCTL_DSCPS; d++)
		for (prio = 0; prio < FCTL_PRIOS; prio++) {
			if (!(p->app[d] & BIT(prio)))
				continue;
			app.protocol = d;
			app.priority = prio;
			dcb_ieee_delapp(p->dev, &app);
		}
	memset(p->app, 0, sizeof(p->app));
}

static bool fctl_dcb_differs(const struct fctl_cfg *a, const struct fctl_cfg *b)
{
	return (a->mode == FLOWCTL_MODE_PFC) != (b->mode == FLOWCTL_MODE_PFC) ||
	       a->pfc_prios != b->pfc_prios || a->pfc_delay != b->pfc_delay ||
	       a->prio_tc != b->prio_tc || a->trust != b->trust ||
	       memcmp(a->tc_bw, b->tc_bw, sizeof(a->tc_bw)) ||
	       memcmp(a->dscp_prios, b->dscp_prios, FCTL_DSCPS);
}
#else
static void fctl_dcb_open(struct fctl_port *p) { }
static void fctl_dcb_close(struct fctl_port *p) { }
static void fctl_app_flush(struct fctl_port *p) { }

int fctl_app_sync(struct fctl_sched *q, const struct fctl_cfg *old,
		  const struct fctl_cfg *ncfg, bool adding)
{
	return 0;
}

static bool fctl_dcb_differs(const struct fctl_cfg *a, const struct fctl_cfg *b)
{
	return false;
}
#endif

static bool fctl_pause_differs(const struct fctl_cfg *a,
			       const struct fctl_cfg *b)
{
	bool pa = a->mode == FLOWCTL_MODE_PAUSE, pb = b->mode == FLOWCTL_MODE_PAUSE;

	return pa != pb || (pa && (a->rx != b->rx || a->tx != b->tx));
}

/*
 * A change through another door is news to listeners of this one: DCB's
 * RTM_SETDCB (lldpad), ethtool's PAUSE_NTF. Called with old still valid
 * (under RTNL, before its RCU free).
 */
void fctl_doors_notify(struct fctl_sched *q, const struct fctl_cfg *old)
{
	const struct fctl_cfg *cfg = rtnl_dereference(q->cfg);
	struct net_device *dev = q->dev;
	struct fctl_port *p = q->port;

	if (!p || fctl_from_dev(dev) != q)
		return;
	/* CEE's staged settings were taken from the configuration replaced. */
	p->stage.staged = 0;
#if IS_ENABLED(CONFIG_DCB)
	if ((p->doors & FLOWCTL_DOOR_DCB) && p->door_src != FLOWCTL_DOOR_DCB &&
	    fctl_dcb_differs(old, cfg)) {
		if (p->cee)
			dcbnl_cee_notify(dev, RTM_SETDCB, DCB_CMD_CEE_GET, 0, 0);
		else
			dcbnl_ieee_notify(dev, RTM_SETDCB, DCB_CMD_IEEE_SET, 0, 0);
	}
#endif
	if ((p->doors & FLOWCTL_DOOR_PAUSE) &&
	    p->door_src != FLOWCTL_DOOR_PAUSE && fctl_pause_differs(old, cfg))
		ethtool_notify(dev, ETHTOOL_MSG_PAUSE_NTF, NULL);
}

static void fctl_pause_open(struct fctl_port *p)
{
	const struct ethtool_ops *ops = p->dev->ethtool_ops;

	if (ops == &p->closed) {
		WRITE_ONCE(p->dev->ethtool_ops, &p->ethtool);
	} else {
		if (ops->get_pauseparam || ops->set_pauseparam ||
		    ops->get_pause_stats)
			return;
		p->drv_ethtool = ops;
		p->ethtool = *ops;
		p->ethtool.get_pauseparam = fctl_get_pauseparam;
		p->ethtool.set_pauseparam = fctl_set_pauseparam;
		p->ethtool.get_pause_stats = fctl_get_pause_stats;
		p->closed = *ops;
		p->closed.get_pauseparam = fctl_closed_get_pauseparam;
		p->closed.set_pauseparam = fctl_closed_set_pauseparam;
		WRITE_ONCE(p->dev->ethtool_ops, &p->ethtool);
	}
	p->doors |= FLOWCTL_DOOR_PAUSE;
}

static void fctl_pause_close(struct fctl_port *p)
{
	if (p->dev->ethtool_ops == &p->ethtool)
		WRITE_ONCE(p->dev->ethtool_ops, &p->closed);
	p->doors &= ~FLOWCTL_DOOR_PAUSE;
}

/* The driver's own, once nothing can be between the test and the call. */
static void fctl_pause_restore(struct fctl_port *p)
{
	const struct ethtool_ops *ops = p->dev->ethtool_ops;

	if (ops == &p->closed || ops == &p->ethtool)
		WRITE_ONCE(p->dev->ethtool_ops, p->drv_ethtool);
}

/* The device's pause operations are a door's, open or closed. */
bool fctl_pause_is_door(const struct net_device *dev)
{
	const struct ethtool_ops *ops = dev->ethtool_ops;

	return ops && (ops->get_pauseparam == fctl_get_pauseparam ||
		       ops->get_pauseparam == fctl_closed_get_pauseparam);
}

static struct fctl_port *fctl_port_find(struct net_device *dev)
{
	struct fctl_port *p;

	list_for_each_entry(p, &fctl_ports, list)
		if (p->dev == dev)
			return p;
	return NULL;
}

/*
 * q joins its device's port; the first user opens the doors. Called at
 * the end of a successful init: fctl_port_put() undoes it in destroy.
 */
int fctl_port_get(struct fctl_sched *q)
{
	struct net_device *dev = q->dev;
	struct fctl_port *p;

	ASSERT_RTNL();
	p = fctl_port_find(dev);
	if (!p) {
		p = kzalloc(sizeof(*p), GFP_KERNEL);
		if (!p)
			return -ENOMEM;
		p->dev = dev;
		list_add(&p->list, &fctl_ports);
	}
	q->port = p;
	/* What CEE staged was staged from the configuration q replaces. */
	p->stage.staged = 0;
	if (p->users++)
		return 0;
	fctl_pause_open(p);
	fctl_dcb_open(p);
	return 0;
}

void fctl_port_put(struct fctl_sched *q)
{
	struct fctl_port *p = q->port;

	if (!p)
		return;
	ASSERT_RTNL();
	/* A destroy that a reference held past NETDEV_UNREGISTER delayed
	 * finds the doors closed there (fctl_ports_unregister).
	 */
	if (--p->users || !p->dev)
		return;
	memset(&p->peer, 0, sizeof(p->peer));
	memset(&p->stage, 0, sizeof(p->stage));
	p->cee = false;
	fctl_app_flush(p);
	fctl_dcb_close(p);
	fctl_pause_close(p);
}

/*
 * NETDEV_UNREGISTER: the driver's ethtool_ops back, the port forgets dev.
 * Not for a move to another namespace, which sends it too: the device
 * stays registered there, and its closed door with it.
 */
void fctl_ports_unregister(struct net_device *dev)
{
	struct fctl_port *p = fctl_port_find(dev);

	if (!p)
		return;
	/* Under the ifindex they were added with, before a move renumbers. */
	fctl_app_flush(p);
	memset(&p->peer, 0, sizeof(p->peer));
	/* Its qdisc is gone from the device, or its destroy only waits for a
	 * reference (tc filter's): nothing answers DCB for it from here.
	 */
	if (p->users)
		fctl_dcb_close(p);
	if (dev->reg_state != NETREG_UNREGISTERING)
		return;
	fctl_pause_restore(p);
	p->dev = NULL;
}

/* Module exit: no qdisc is left. */
void fctl_ports_exit(void)
{
	struct fctl_port *p, *n;
	LIST_HEAD(gone);

	rtnl_lock();
	list_for_each_entry(p, &fctl_ports, list)
		if (p->dev)
			fctl_pause_restore(p);
	/* Off the list the notifier walks, under the lock it walks it in. */
	list_splice_init(&fctl_ports, &gone);
	rtnl_unlock();
	synchronize_net();
	list_for_each_entry_safe(p, n, &gone, list) {
		list_del(&p->list);
		kfree(p);
	}
}
