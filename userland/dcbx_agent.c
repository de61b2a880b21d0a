// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl dcbx: the DCBX agent of one flowctl port (IEEE 802.1Qaz over
 * LLDP). It advertises the port's PFC and ETS configuration in LLDPDUs,
 * reads its partner's, and as a willing end applies the partner's
 * configuration to the port (flowctl set), putting the port's own back
 * when the partner goes (its TTL runs out, or it sends TTL 0) and when the
 * agent stops. Both ends unwilling and different: a mismatch, reported.
 *
 * It runs in user space, as lldpad and lldpd do: LLDP is one frame every
 * interval per port, the decisions are control plane, and a packet socket
 * bound to the port sees LLDPDUs on a bridge port as on a host port (a
 * bridge never forwards the nearest-bridge group). The kernel keeps doing
 * what only it can: PAUSE/PFC per frame, and ETS per packet.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <linux/dcbnl.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dcbx.h"
#include "dcbx_agent.h"
#include "dcbx_lldpd.h"
#include "dev.h"
#include "flowctl.h"
#include "netlink.h"
#include "print.h"
#include "set.h"

void usage_dcbx(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j ] dcbx dev DEV [ willing { on | off } ]\n"
		"               [ mode { auto | ieee | cee } ] [ interval SECONDS ] [ count N ]\n"
		"               [ other-agents { refuse | ignore | lldpd } ]\n"
		"               [ lldpd-socket PATH ]\n"
		"       flowctl dcbx help\n"
		"Runs the DCBX agent of DEV (IEEE 802.1Qaz over LLDP) until SIGINT or\n"
		"SIGTERM, or N events: sends DEV's PFC and ETS configuration every\n"
		"interval (default 30 s, TTL 4 x interval), reads the partner's, and\n"
		"prints an event line for each change (-j: JSON lines). The PFC, ETS and\n"
		"APP TLVs carry pfc-prios, prio-tc and ets, and the DSCP map (dcb app).\n"
		"willing on: use the partner's configuration when it is not willing\n"
		"(both willing: the end with the lower MAC adopts the other's); the port's\n"
		"own comes back when the partner goes and when the agent stops.\n"
		"willing off (default): keep the port's own; a partner that is not\n"
		"willing either and differs is a mismatch.\n"
		"other-agents refuse (default): do not start while lldpd or lldpad runs\n"
		"in this network namespace, and stop (TTL 0, the port's own back) on an\n"
		"LLDPDU another agent sends from DEV: two LLDP agents on a port are two\n"
		"neighbours to the partner, which then turns DCBX off (802.1Qaz).\n"
		"ignore: run anyway (lldpd told to leave DEV alone, say).\n"
		"lldpd: where lldpd runs, send nothing ourselves: lldpd sends the DCBX\n"
		"TLVs as its custom TLVs (lldpcli on its socket, lldpd-socket PATH if not\n"
		"the default), so the partner sees one neighbour with lldpd's TLVs and\n"
		"DCBX's; the agent takes them back when it stops.\n"
		"mode auto (default): IEEE 802.1Qaz, and CEE (DCBX 1.01) from the first\n"
		"LLDPDU of a partner that sends CEE alone until it sends IEEE or goes;\n"
		"ieee or cee: that one only. CEE carries PFC and the priority groups\n"
		"(ETS); its APP entries (EtherTypes, ports) are not flowctl's.\n");
}

static volatile sig_atomic_t dcbx_stop;

static void on_signal(int sig)
{
	(void)sig;
	dcbx_stop = 1;
}

static int read_port(struct fc_dcbx_agent *a, struct view *v)
{
	struct fc_dev_list l = { 0 };
	const struct fc_dev *d;
	int err = fc_dev_get(&a->nl, a->dev, &l);

	if (err || l.n != 1) {
		fc_nl_perror(&a->nl, err ? err : -ENODEV, a->dev, "dcbx", true);
		fc_dev_list_free(&l);
		return -1;
	}
	d = &l.dev[0];
	v->mode = (uint8_t)d->v[FLOWCTL_A_DEV_MODE];
	v->pfc_prios = (uint8_t)d->v[FLOWCTL_A_DEV_PFC_PRIOS];
	v->trust = (uint8_t)d->v[FLOWCTL_A_DEV_TRUST];
	v->prio_tc = (uint32_t)d->v[FLOWCTL_A_DEV_PRIO_TC];
	v->tc_bw = d->v[FLOWCTL_A_DEV_TC_BW];
	memcpy(v->dscp, d->dscp_prios, sizeof(v->dscp));
	fc_dev_list_free(&l);
	return 0;
}

static bool same_view(const struct view *x, const struct view *y)
{
	return x->mode == y->mode && x->pfc_prios == y->pfc_prios &&
	       x->trust == y->trust &&
	       x->prio_tc == y->prio_tc && x->tc_bw == y->tc_bw &&
	       !memcmp(x->dscp, y->dscp, sizeof(x->dscp));
}

static void view_to_tlvs(const struct view *v, bool willing,
			 struct dcbx_pfc *pfc, struct dcbx_ets *ets)
{
	int i;

	memset(pfc, 0, sizeof(*pfc));
	memset(ets, 0, sizeof(*ets));
	pfc->willing = willing;
	pfc->cap = 8;
	pfc->enable = v->mode == FLOWCTL_MODE_PFC ? v->pfc_prios : 0;
	ets->willing = willing;
	for (i = 0; i < 8; i++) {
		ets->prio_tc[i] = (v->prio_tc >> (4 * i)) & 0xf;
		ets->tc_bw[i] = (uint8_t)(v->tc_bw >> (8 * i));
		ets->tsa[i] = ets->tc_bw[i] ? DCBX_TSA_ETS : DCBX_TSA_STRICT;
	}
}

static bool map_any(const uint8_t map[64])
{
	int i;

	for (i = 0; i < 64; i++)
		if (map[i])
			return true;
	return false;
}

/* A partner's tables as flowctl's: ETS classes keep their shares, scaled to 100. */
static void tlvs_to_view(const struct dcbx_pfc *pfc, const struct dcbx_ets *ets,
			 struct view *v)
{
	unsigned int sum = 0, acc = 0, i, last = 8;
	uint8_t bw[8] = { 0 };

	v->mode = FLOWCTL_MODE_PFC;
	v->pfc_prios = pfc->enable;
	v->prio_tc = 0;
	for (i = 0; i < 8; i++) {
		v->prio_tc |= (uint32_t)(ets->prio_tc[i] & 7) << (4 * i);
		if (ets->tsa[i] == DCBX_TSA_ETS && ets->tc_bw[i]) {
			sum += ets->tc_bw[i];
			last = i;
		}
	}
	for (i = 0; i < 8 && sum; i++) {
		if (ets->tsa[i] != DCBX_TSA_ETS || !ets->tc_bw[i])
			continue;
		bw[i] = (uint8_t)(ets->tc_bw[i] * 100 / sum);
		if (!bw[i])
			bw[i] = 1;
		acc += bw[i];
	}
	if (sum && last < 8)
		bw[last] = (uint8_t)(bw[last] + 100 - acc);
	v->tc_bw = 0;
	for (i = 0; i < 8; i++)
		v->tc_bw |= (uint64_t)bw[i] << (8 * i);
}

static int apply(struct fc_dcbx_agent *a, const struct view *v)
{
	struct fc_set_req r;
	struct nlmsghdr *nlh;
	int err;

	memset(&r, 0, sizeof(r));
	r.dev = a->dev;
	r.have = 1u << FLOWCTL_A_DEV_MODE | 1u << FLOWCTL_A_DEV_PFC_PRIOS |
		 1u << FLOWCTL_A_DEV_PRIO_TC | 1u << FLOWCTL_A_DEV_TC_BW |
		 1u << FLOWCTL_A_DEV_TRUST;
	r.v[FLOWCTL_A_DEV_TRUST] = v->trust;
	r.v[FLOWCTL_A_DEV_MODE] = v->mode;
	r.v[FLOWCTL_A_DEV_PFC_PRIOS] = v->pfc_prios;
	r.v[FLOWCTL_A_DEV_PRIO_TC] = v->prio_tc;
	r.v[FLOWCTL_A_DEV_TC_BW] = v->tc_bw;
	nlh = fc_nl_req(&a->nl, FLOWCTL_CMD_DEV_SET, NLM_F_ACK);
	fc_set_build(nlh, &r);
	mnl_attr_put(nlh, FLOWCTL_A_DEV_DSCP_PRIOS, sizeof(v->dscp), v->dscp);
	err = fc_nl_talk(&a->nl, nlh, NULL, NULL);
	if (err)
		fc_nl_perror(&a->nl, err, a->dev, "dcbx", false);
	return err;
}

static uint32_t tcs_word(const uint8_t prio_tc[8])
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint32_t)(prio_tc[i] & 7) << (4 * i);
	return v;
}

static void put_ets(struct nlmsghdr *nlh, const struct dcbx_ets *e, bool reco)
{
	mnl_attr_put_u32(nlh, reco ? FLOWCTL_A_PEER_RECO_PRIO_TC :
			 FLOWCTL_A_PEER_ETS_PRIO_TC, tcs_word(e->prio_tc));
	mnl_attr_put(nlh, reco ? FLOWCTL_A_PEER_RECO_TC_BW : FLOWCTL_A_PEER_ETS_TC_BW,
		     8, e->tc_bw);
	mnl_attr_put(nlh, reco ? FLOWCTL_A_PEER_RECO_TC_TSA : FLOWCTL_A_PEER_ETS_TC_TSA,
		     8, e->tsa);
	if (reco)
		return;
	mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_ETS_CAP, e->max_tcs ? e->max_tcs : 8);
	mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_ETS_WILLING, e->willing);
	mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_ETS_CBS, e->cbs);
}

/*
 * The partner's TLVs to the port (FLOWCTL_A_DEV_PEER), which DCB netlink
 * reports as the peer's (dcbnl ieee_peer_*) for the LLDPDU's TTL; with
 * have_peer false, none. Each LLDPDU renews it.
 */
static void tell_peer(struct fc_dcbx_agent *a)
{
	const struct dcbx_lldpdu *d = &a->peer;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int err;

	if (a->peer_unsupported)
		return;
	nlh = fc_nl_req(&a->nl, FLOWCTL_CMD_DEV_SET, NLM_F_ACK);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_IFINDEX, a->ifindex);
	nest = mnl_attr_nest_start(nlh, FLOWCTL_A_DEV_PEER);
	if (a->have_peer) {
		mnl_attr_put_u16(nlh, FLOWCTL_A_PEER_TTL, d->ttl);
		mnl_attr_put(nlh, FLOWCTL_A_PEER_MAC, 6, a->peer_mac);
		if (d->have_pfc) {
			mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_PFC_EN, d->pfc.enable);
			mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_PFC_CAP, d->pfc.cap);
			mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_PFC_MBC, d->pfc.mbc);
			mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_PFC_WILLING, d->pfc.willing);
		}
		if (d->have_ets_cfg)
			put_ets(nlh, &d->ets_cfg, false);
		if (d->have_ets_rec)
			put_ets(nlh, &d->ets_rec, true);
		if (d->have_app) {
			struct dcb_app app[FLOWCTL_PEER_APPS];
			unsigned int i, n = FLOWCTL_PEER_APPS;

			unsigned int k = 0;

			/* Selectors 6 and 7 are reserved: not reported. */
			for (i = 0; i < d->app.n && k < n; i++) {
				if (d->app.e[i].sel > DCBX_APP_SEL_DSCP)
					continue;
				app[k].selector = d->app.e[i].sel;
				app[k].priority = d->app.e[i].prio;
				app[k].protocol = d->app.e[i].proto;
				k++;
			}
			mnl_attr_put(nlh, FLOWCTL_A_PEER_APP, k * sizeof(app[0]), app);
		}
	}
	mnl_attr_nest_end(nlh, nest);
	err = fc_nl_talk(&a->nl, nlh, NULL, NULL);
	/* Said when it changes, not at every LLDPDU. */
	if (err && err != a->peer_err)
		fc_nl_perror(&a->nl, err, a->dev, "dcbx", false);
	a->peer_err = err;
}

/*
 * At start: no partner yet (a stale one from an agent killed before is
 * cleared), and whether the module takes one at all (one before
 * FLOWCTL_A_DEV_PEER refuses the attribute): said once, then not asked.
 */
static void peer_probe(struct fc_dcbx_agent *a)
{
	struct nlmsghdr *nlh = fc_nl_req(&a->nl, FLOWCTL_CMD_DEV_SET, NLM_F_ACK);
	struct nlattr *nest;
	int err;

	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_IFINDEX, a->ifindex);
	nest = mnl_attr_nest_start(nlh, FLOWCTL_A_DEV_PEER);
	mnl_attr_nest_end(nlh, nest);
	err = fc_nl_talk(&a->nl, nlh, NULL, NULL);
	if (err == -EINVAL || err == -EOPNOTSUPP) {
		fprintf(stderr, "dcbx: %s's flowctl module does not take the partner's TLVs (%s);\n"
			"dcb shows no peer there\n", a->dev, strerror(-err));
		a->peer_unsupported = true;
	}
}

static void mac_str(char *buf, size_t len, const uint8_t *m)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
}

void fc_dcbx_event(struct fc_dcbx_agent *a, const char *what, const char *detail)
{
	char t[64], mac[24];

	open_json_object(NULL);
	print_string(PRINT_ANY, "time", "%s", fmt_wall(t, sizeof(t), true));
	print_string(PRINT_ANY, "ifname", " %s", a->dev);
	print_string(PRINT_ANY, "event", " %s", what);
	if (detail)
		print_string(PRINT_ANY, "detail", ": %s", detail);
	print_string(PRINT_ANY, "pfc", " pfc %s", dcbx_state_name(a->pfc_state));
	print_string(PRINT_ANY, "ets", " ets %s", dcbx_state_name(a->ets_state));
	print_string(PRINT_ANY, "app", " app %s", dcbx_state_name(a->app_state));
	print_string(PRINT_ANY, "dcbx", " dcbx %s", a->cee ? "cee" : "ieee");
	if (a->have_peer) {
		mac_str(mac, sizeof(mac), a->peer_mac);
		print_string(PRINT_ANY, "partner", " partner %s", mac);
		if (a->peer.have_pfc) {
			print_bool(PRINT_JSON, "partner_willing", NULL, a->peer.pfc.willing);
			char hex[8];

			snprintf(hex, sizeof(hex), "0x%02x", a->peer.pfc.enable);
			print_u64_as(PRINT_ANY, "partner_pfc_enable", " (pfc enable %s)",
				     a->peer.pfc.enable, hex);
		}
	}
	open_json_object("counters");
	print_u64(PRINT_ANY, "tx", " tx %s", a->tx);
	print_u64(PRINT_ANY, "rx", " rx %s", a->rx);
	print_u64(PRINT_ANY, "rx_malformed", " malformed %s", a->malformed);
	print_u64(PRINT_ANY, "rx_bad_tlvs", " bad-tlvs %s", a->bad_tlvs);
	print_u64(PRINT_ANY, "mismatches", " mismatches %s", a->mismatches);
	print_u64(PRINT_ANY, "adoptions", " adoptions %s", a->adoptions);
	close_json_object();
	close_json_object();
	print_nl();
	json_end_document();
	fflush(stdout);
	a->events++;
}

/*
 * The CEE TLV of what the port uses (pfc, ets: as the 802.1Qaz TLVs would
 * say it), with the Control sub-TLV's numbers: a new SeqNo when what the
 * features say changed and the partner has acked the last one (lldpad's
 * run_control_protocol); our AckNo is the partner's last SeqNo. The APP
 * feature is sent disabled: flowctl classifies by no EtherType or port.
 */
static void cee_features(struct fc_dcbx_agent *a, const struct dcbx_pfc *pfc,
			 const struct dcbx_ets *ets, struct dcbx_cee *c)
{
	memset(c, 0, sizeof(*c));
	c->pg.have = c->pfc.have = c->app.have = true;
	c->pg.enable = c->pfc.enable = true;
	c->pg.willing = c->pfc.willing = a->willing;
	c->pfc.error = a->cee_pfc_err;
	c->pfc_enable = pfc->enable;
	c->pfc_tcs = 8;
	dcbx_ets_to_cee_pg(ets, c);
	if (memcmp(c, &a->cee_sent, sizeof(*c)) &&
	    (!a->cee_seq || a->cee_peer_ack == a->cee_seq || !a->have_peer)) {
		a->cee_seq++;
		a->cee_sent = *c;
	}
	c->seq = a->cee_seq;
	c->ack = a->cee_ack;
}

/* The LLDPDU the port's configuration makes now, into buf: its length, or 0. */
static size_t build_lldpdu(struct fc_dcbx_agent *a, uint16_t ttl, uint8_t *buf,
			   size_t cap)
{
	struct dcbx_lldpdu d;
	struct view v;

	if (read_port(a, &v))
		return 0;
	memset(&d, 0, sizeof(d));
	d.chassis_subtype = 4;			/* MAC address */
	memcpy(d.chassis_id, a->mac, 6);
	d.chassis_len = 6;
	d.port_subtype = 5;			/* interface name */
	d.port_len = (uint8_t)strlen(a->dev);
	memcpy(d.port_id, a->dev, d.port_len);
	d.ttl = ttl;
	/* As lldpad does: the PFC and ETS Configuration TLVs say what the port
	 * uses (the partner's, once adopted) with our willing bit; the ETS
	 * Recommendation is the port's own configuration.
	 */
	view_to_tlvs(&v, a->willing, &d.pfc, &d.ets_cfg);
	{
		struct dcbx_pfc own_pfc;

		view_to_tlvs(&a->admin, a->willing, &own_pfc, &d.ets_rec);
	}
	if (a->cee) {
		cee_features(a, &d.pfc, &d.ets_cfg, &d.cee);
		d.have_cee = true;
	} else {
		dcbx_dscp_to_app(v.dscp, &d.app);
		d.have_pfc = d.have_ets_cfg = d.have_ets_rec = d.have_app = true;
	}
	return dcbx_build(buf, cap, a->mac, &d);
}

/* FNV-1a: what an LLDPDU we sent is known by when it comes back. */
static uint64_t frame_hash(const uint8_t *buf, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ buf[i]) * 0x100000001b3ULL;
	return h;
}

static bool sent_by_us(const struct fc_dcbx_agent *a, const uint8_t *buf, size_t len)
{
	uint64_t h = frame_hash(buf, len);
	size_t i;

	for (i = 0; i < sizeof(a->sent_hash) / sizeof(a->sent_hash[0]); i++)
		if (a->sent_hash[i] == h)
			return true;
	return false;
}

static int xmit(struct fc_dcbx_agent *a, const uint8_t *buf, size_t len)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(LLDP_ETHERTYPE),
		.sll_halen = 6,
	};

	to.sll_ifindex = (int)a->ifindex;
	memcpy(to.sll_addr, lldp_nearest_bridge, 6);
	if (sendto(a->fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
		fprintf(stderr, "dcbx: sending on %s: %s\n", a->dev, strerror(errno));
		return -1;
	}
	a->tx++;
	a->sent_hash[a->sent_next++ % (sizeof(a->sent_hash) / sizeof(a->sent_hash[0]))] =
		frame_hash(buf, len);
	return 0;
}

static int send_lldpdu(struct fc_dcbx_agent *a, uint16_t ttl)
{
	uint8_t buf[LLDP_MAX_FRAME];
	size_t len = build_lldpdu(a, ttl, buf, sizeof(buf));

	return len ? xmit(a, buf, len) : -1;
}

/*
 * 802.1AB's transmit state machine (9.2.9, 9.2.7.7): an LLDPDU every
 * interval; at once when what it says changes (somethingChangedLocal: our
 * adoption, a set by someone else, seen within a second); txFastInit of
 * them msgFastTx apart when a new neighbour appears; never more than
 * txCreditMax in a burst, a credit back each second.
 */
#define TX_FAST_INIT	4
#define TX_CREDIT_MAX	5
#define MSG_FAST_TX_NS	1000000000ULL

static void transmit(struct fc_dcbx_agent *a, uint16_t ttl, uint64_t t)
{
	uint8_t buf[LLDP_MAX_FRAME];
	size_t len;
	bool changed;

	if (t >= a->next_tick) {
		if (a->credit < TX_CREDIT_MAX)
			a->credit++;
		a->next_tick = t + MSG_FAST_TX_NS;
	}
	len = build_lldpdu(a, ttl, buf, sizeof(buf));
	if (!len)
		return;
	changed = len != a->sent_len || memcmp(buf, a->sent, len);
	if (a->via_lldpd) {
		int r;

		/* lldpd sends at once on a change, then every interval. A
		 * refused TLV is tried again at the next tick; an lldpd that
		 * did not answer, at the next interval.
		 */
		if ((!changed && !a->tx_now) || (a->lldpd_hung && t < a->next_tx))
			return;
		r = fc_lldpd_push(a, buf, len);
		a->lldpd_hung = r == FC_LLDPD_HUNG;
		if (a->lldpd_hung)
			a->next_tx = t + a->interval_ns;
		if (r) {
			a->tx_now = true;
			return;
		}
		a->tx_now = false;
		memcpy(a->sent, buf, len);
		a->sent_len = len;
		return;
	}
	if (t < a->next_tx && !changed && !a->tx_now)
		return;
	if (!a->credit) {
		/* Held until the next credit (the next tick). */
		a->tx_now = true;
		return;
	}
	if (xmit(a, buf, len))
		return;
	a->credit--;
	a->tx_now = false;
	memcpy(a->sent, buf, len);
	a->sent_len = len;
	if (a->fast_left)
		a->fast_left--;
	a->next_tx = t + (a->fast_left ? MSG_FAST_TX_NS : a->interval_ns);
}

/*
 * The set with the partner's DSCP map failed (the kernel's APP table is
 * keyed by ifindex alone: a port of the same index in another namespace
 * holds those entries): the rest of its configuration without it. want
 * stays what was asked, so it is not asked again for every LLDPDU.
 */
static bool apply_own_app(struct fc_dcbx_agent *a, const struct view *want)
{
	struct view v = *want;

	memcpy(v.dscp, a->admin.dscp, sizeof(v.dscp));
	v.trust = a->admin.trust;
	if (apply(a, &v))
		return false;
	fc_dcbx_event(a, "app-refused", "the partner's DSCP map was refused; the rest applied");
	return true;
}

/* The partner went (or speaks IEEE): CEE's numbers start again, and mode
 * auto speaks IEEE.
 */
static void cee_forget(struct fc_dcbx_agent *a)
{
	a->cee_seq = a->cee_ack = a->cee_peer_ack = 0;
	a->cee_pfc_err = false;
	memset(&a->cee_sent, 0, sizeof(a->cee_sent));
	if (a->version == DCBX_V_AUTO && a->cee) {
		a->cee = false;
		a->tx_now = true;
	}
}

/* Decide with what we know now, apply or revert, report changes. */
static void reconsider(struct fc_dcbx_agent *a)
{
	enum dcbx_state ps, es, as;
	uint8_t ua[64];
	struct dcbx_pfc lp, up;
	struct dcbx_ets le, ue;
	struct view cur, want;
	bool peer;
	int cmp;

	if (read_port(a, &cur))
		return;
	/* Someone else changed the port: that is its own configuration now. */
	if (!same_view(&cur, a->adopted ? &a->applied : &a->admin)) {
		a->admin = cur;
		a->adopted = false;
	}
	view_to_tlvs(&a->admin, a->willing, &lp, &le);
	peer = a->have_peer && a->multi_until <= fc_mono_ns();
	cmp = peer ? memcmp(a->mac, a->peer_mac, 6) : 0;
	if (a->cee) {
		static const struct dcbx_lldpdu none;
		struct dcbx_cee c;
		bool err;

		/* Compared as CEE says them: one strict group. */
		dcbx_ets_to_cee_pg(&le, &c);
		dcbx_cee_pg_to_ets(&c, &le);
		ps = dcbx_cee_pfc_decide(&lp, peer ? &a->peer : &none, &up, &err);
		if (err != a->cee_pfc_err) {
			a->cee_pfc_err = err;
			a->tx_now = true;
		}
	} else {
		ps = dcbx_pfc_decide(&lp, peer && a->peer.have_pfc ? &a->peer.pfc : NULL,
				     cmp, &up);
	}
	es = dcbx_ets_decide(&le, peer ? &a->peer : NULL, cmp, &ue);
	/* CEE: a willing partner beside a willing end takes nothing either. */
	if (a->cee && es == DCBX_PARTNER_ADOPTS && a->willing)
		es = DCBX_OWN;
	as = dcbx_app_decide(a->admin.dscp, a->willing, peer ? &a->peer : NULL, ua);
	if (ps == DCBX_ADOPTED || es == DCBX_ADOPTED || as == DCBX_ADOPTED) {
		tlvs_to_view(&up, &ue, &want);
		/* A DSCP map taken from the partner classifies by DSCP. */
		memcpy(want.dscp, ua, sizeof(want.dscp));
		want.trust = as == DCBX_ADOPTED && map_any(ua) ?
			     FLOWCTL_TRUST_DSCP : a->admin.trust;
		/* PFC on no priority says nothing about link-level PAUSE
		 * (802.3's business, not DCBX's): a port in pause mode stays so.
		 */
		if (ps != DCBX_ADOPTED ||
		    (!up.enable && a->admin.mode != FLOWCTL_MODE_PFC)) {
			want.mode = a->admin.mode;
			want.pfc_prios = a->admin.pfc_prios;
		}
		if (es != DCBX_ADOPTED) {
			want.prio_tc = a->admin.prio_tc;
			want.tc_bw = a->admin.tc_bw;
		}
		if ((!a->adopted || !same_view(&want, &a->want)) &&
		    (!apply(a, &want) || (as == DCBX_ADOPTED && apply_own_app(a, &want)))) {
			/* What the kernel keeps, to tell a later change by someone else. */
			if (read_port(a, &a->applied))
				a->applied = want;
			a->want = want;
			if (!a->adopted)
				a->adoptions++;
			a->adopted = true;
			a->pfc_state = ps;
			a->ets_state = es;
			a->app_state = as;
			fc_dcbx_event(a, "adopted", "the partner's configuration applied");
		}
	} else if (a->adopted) {
		if (!apply(a, &a->admin)) {
			a->adopted = false;
			a->pfc_state = ps;
			a->ets_state = es;
			a->app_state = as;
			fc_dcbx_event(a, "reverted", "the port's own configuration back");
		}
	}
	if (ps != a->pfc_state || es != a->ets_state || as != a->app_state) {
		bool mismatch = ps == DCBX_MISMATCH && a->pfc_state != DCBX_MISMATCH;

		if (mismatch)
			a->mismatches++;
		a->pfc_state = ps;
		a->ets_state = es;
		a->app_state = as;
		fc_dcbx_event(a, mismatch ? "mismatch" : "state", NULL);
	}
}

static void receive(struct fc_dcbx_agent *a)
{
	uint8_t buf[LLDP_MAX_FRAME + 64];
	struct sockaddr_ll from;
	socklen_t fl = sizeof(from);
	struct dcbx_lldpdu d;
	enum dcbx_err e;
	ssize_t n;

	n = recvfrom(a->fd, buf, sizeof(buf), MSG_DONTWAIT,
		     (struct sockaddr *)&from, &fl);
	if (n <= 0 || from.sll_pkttype == PACKET_OUTGOING)
		return;
	e = dcbx_parse(buf, (size_t)n, &d);
	if (e != DCBX_OK) {
		a->malformed++;
		fc_dcbx_event(a, "malformed", dcbx_strerror(e));
		return;
	}
	a->rx++;
	/* Only the nearest-bridge group is the link partner; an LLDPDU with
	 * no DCBX TLV (lldpd's, say) says nothing about DCB.
	 */
	if (memcmp(buf, lldp_nearest_bridge, 6) ||
	    (!d.have_pfc && !d.have_ets_cfg && !d.have_ets_rec && !d.have_app &&
	     !d.have_cee && !d.bad && d.ttl))
		return;

	/* 802.1Qaz: DCBX needs one neighbour; a second one while the first is
	 * alive switches it off until only one is left.
	 */
	if (a->have_peer && memcmp(a->peer_mac, buf + 6, 6) && d.ttl) {
		bool was = a->multi_until > fc_mono_ns();

		a->multi_until = fc_mono_ns() + (uint64_t)d.ttl * 1000000000ULL;
		if (!was)
			fc_dcbx_event(a, "multiple-partners", "DCBX off until one is left");
		reconsider(a);
		return;
	}
	if (!d.ttl) {
		if (a->have_peer && !memcmp(a->peer_mac, buf + 6, 6)) {
			a->have_peer = false;
			cee_forget(a);
			fc_dcbx_event(a, "partner-gone", "it sent TTL 0 (shutdown)");
			tell_peer(a);
			reconsider(a);
		}
		return;
	}
	/* From here the sender is the partner, or the first one. mode auto
	 * speaks CEE to a partner that sends CEE alone (as lldpad), and IEEE
	 * again when it sends 802.1Qaz's TLVs or goes. Speaking CEE, its TLV
	 * is the partner's configuration, read as 802.1Qaz's; speaking IEEE,
	 * a CEE TLV is not.
	 */
	if (a->version == DCBX_V_AUTO) {
		bool ieee = d.have_pfc || d.have_ets_cfg || d.have_ets_rec || d.have_app;

		if (d.have_cee && !ieee && !a->cee) {
			a->cee = true;
			a->tx_now = true;
			fc_dcbx_event(a, "version", "the partner speaks CEE alone: CEE from now on");
		} else if (ieee && a->cee) {
			cee_forget(a);
			fc_dcbx_event(a, "version", "the partner speaks IEEE: IEEE from now on");
		}
	}
	if (a->cee) {
		if (d.have_cee) {
			a->cee_ack = d.cee.seq;
			a->cee_peer_ack = d.cee.ack;
		}
		dcbx_cee_to_ieee(&d);
	} else {
		d.have_cee = false;
		memset(&d.cee, 0, sizeof(d.cee));
		d.bad &= (uint8_t)~(1u << DCBX_F_CEE);
	}
	/* A malformed DCBX TLV costs only its feature: counted, named when
	 * the set of bad ones changes, the others used.
	 */
	if (d.bad) {
		char detail[160];
		size_t o = 0;
		int f;

		for (f = 0; f < DCBX_FEATURES; f++) {
			if (!(d.bad & (1u << f)))
				continue;
			a->bad_tlvs++;
			o += (size_t)snprintf(detail + o, sizeof(detail) - o, "%s%s: %s",
					      o ? "; " : "",
					      dcbx_feature_name((enum dcbx_feature)f),
					      dcbx_strerror((enum dcbx_err)d.bad_err[f]));
			if (o >= sizeof(detail))
				o = sizeof(detail) - 1;
		}
		if (d.bad != a->last_bad)
			fc_dcbx_event(a, "bad-tlv", detail);
	}
	a->last_bad = d.bad;
	if (!a->have_peer || memcmp(a->peer_mac, buf + 6, 6)) {
		a->fast_left = TX_FAST_INIT;
		a->tx_now = true;
	}
	if (!a->have_peer || memcmp(a->peer_mac, buf + 6, 6) ||
	    memcmp(&a->peer.pfc, &d.pfc, sizeof(d.pfc)) ||
	    memcmp(&a->peer.ets_cfg, &d.ets_cfg, sizeof(d.ets_cfg)) ||
	    memcmp(&a->peer.ets_rec, &d.ets_rec, sizeof(d.ets_rec)) ||
	    a->peer.have_app != d.have_app ||
	    memcmp(&a->peer.app, &d.app, sizeof(d.app)) ||
	    a->peer.have_cee != d.have_cee ||
	    memcmp(&a->peer.cee.pfc, &d.cee.pfc, sizeof(d.cee.pfc)) ||
	    memcmp(&a->peer.cee.pg, &d.cee.pg, sizeof(d.cee.pg)) ||
	    a->peer.have_pfc != d.have_pfc) {
		a->peer = d;
		memcpy(a->peer_mac, buf + 6, 6);
		a->have_peer = true;
		fc_dcbx_event(a, "partner", "its configuration");
	}
	a->peer_expires = fc_mono_ns() + (uint64_t)d.ttl * 1000000000ULL;
	tell_peer(a);
	reconsider(a);
}

/*
 * lldpd or lldpad in our network namespace: its name and pid into who.
 * Both send LLDPDUs on every port they manage (lldpd: all, by default).
 */
static bool other_agent(char *who, size_t len, const char *only)
{
	static const char *const names[] = { "lldpd", "lldpad" };
	char path[64], comm[32], ns[64], self[64];
	struct dirent *e;
	ssize_t n;
	DIR *d;
	bool found = false;

	n = readlink("/proc/self/ns/net", self, sizeof(self) - 1);
	d = opendir("/proc");
	if (n <= 0 || !d) {
		if (d)
			closedir(d);
		return false;
	}
	self[n] = '\0';
	while (!found && (e = readdir(d))) {
		FILE *f;
		size_t i;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s/comm", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			if (strcmp(comm, names[i]) || (only && strcmp(only, names[i])))
				continue;
			snprintf(path, sizeof(path), "/proc/%.16s/ns/net", e->d_name);
			n = readlink(path, ns, sizeof(ns) - 1);
			if (n <= 0)
				continue;
			ns[n] = '\0';
			if (!strcmp(ns, self)) {
				snprintf(who, len, "%s (pid %.16s)", comm, e->d_name);
				found = true;
			}
		}
	}
	closedir(d);
	return found;
}

/*
 * Outgoing LLDPDUs on the port: ours coming back (flowctl's qdisc orphans
 * each skb, so the kernel cannot tell they left our socket), or another
 * agent's. Frames leaving a device reach only ETH_P_ALL sockets: this one
 * keeps, by a filter in the kernel, outgoing 0x88CC frames alone.
 */
static int tap_open(struct fc_dcbx_agent *a)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PKTTYPE),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PACKET_OUTGOING, 0, 3),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, LLDP_ETHERTYPE, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL),
				   .sll_ifindex = (int)a->ifindex };

	/* No protocol until the filter is on: nothing unfiltered queues. */
	a->tap_fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (a->tap_fd < 0 ||
	    setsockopt(a->tap_fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) < 0 ||
	    bind(a->tap_fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		fprintf(stderr, "dcbx: watching %s for other LLDP agents: %s\n", a->dev,
			strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static void tap_receive(struct fc_dcbx_agent *a)
{
	uint8_t buf[LLDP_MAX_FRAME + 64];
	char detail[128], mac[24];
	ssize_t n;

	while ((n = recv(a->tap_fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		if (n < 14 || memcmp(buf, lldp_nearest_bridge, 6) ||
		    sent_by_us(a, buf, (size_t)n) || a->other_agent)
			continue;
		a->other_agent = true;
		mac_str(mac, sizeof(mac), buf + 6);
		snprintf(detail, sizeof(detail),
			 "an LLDPDU from %s sent by another agent on this port: stopping", mac);
		fc_dcbx_event(a, "other-agent", detail);
	}
}

static int agent_open(struct fc_dcbx_agent *a)
{
	struct packet_mreq mr = { .mr_type = PACKET_MR_MULTICAST, .mr_alen = 6 };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(LLDP_ETHERTYPE) };
	struct ifreq ifr;

	char who[64];

	a->ifindex = if_nametoindex(a->dev);
	if (!a->ifindex) {
		fprintf(stderr, "no such device %s\n", a->dev);
		return EXIT_FAIL;
	}
	if (a->via_lldpd) {
		if (other_agent(who, sizeof(who), "lldpad")) {
			fprintf(stderr,
				"Error: dcbx: %s runs in this network namespace: it negotiates DCBX\n"
				"itself (Documentation/dcb.md). Let one agent speak for %s.\n",
				who, a->dev);
			return EXIT_FAIL;
		}
		if (!other_agent(who, sizeof(who), "lldpd")) {
			fprintf(stderr,
				"Error: dcbx: other-agents lldpd, but no lldpd runs in this network\n"
				"namespace: start it, or run without other-agents lldpd.\n");
			return EXIT_FAIL;
		}
		if (fc_lldpd_probe(a))
			return EXIT_FAIL;
	} else if (!a->ignore_others && other_agent(who, sizeof(who), NULL)) {
		fprintf(stderr,
			"Error: dcbx: %s runs in this network namespace and sends LLDPDUs on the\n"
			"ports it manages: with flowctl's on %s the partner sees two neighbours and\n"
			"turns DCBX off (802.1Qaz). Let one agent speak for %s: stop it (lldpad\n"
			"negotiates DCBX itself on a flowctl port: Documentation/dcb.md), or keep it\n"
			"off %s and run flowctl dcbx dev %s other-agents ignore; or, for lldpd,\n"
			"let it send the DCBX TLVs: flowctl dcbx dev %s other-agents lldpd.\n",
			who, a->dev, a->dev, a->dev, a->dev, a->dev);
		return EXIT_FAIL;
	}
	a->fd = socket(AF_PACKET, SOCK_RAW, htons(LLDP_ETHERTYPE));
	if (a->fd < 0) {
		fprintf(stderr, "dcbx: packet socket: %s (needs CAP_NET_RAW)\n",
			strerror(errno));
		return EXIT_FAIL;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", a->dev);
	if (ioctl(a->fd, SIOCGIFHWADDR, &ifr) < 0) {
		fprintf(stderr, "dcbx: %s's address: %s\n", a->dev, strerror(errno));
		return EXIT_FAIL;
	}
	memcpy(a->mac, ifr.ifr_hwaddr.sa_data, 6);
	sll.sll_ifindex = (int)a->ifindex;
	mr.mr_ifindex = (int)a->ifindex;
	memcpy(mr.mr_address, lldp_nearest_bridge, 6);
	if (bind(a->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    setsockopt(a->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0) {
		fprintf(stderr, "dcbx: binding to %s: %s\n", a->dev, strerror(errno));
		return EXIT_FAIL;
	}
	/* lldpd's LLDPDUs leave from the port by design there. */
	return a->ignore_others || a->via_lldpd ? EXIT_OK : tap_open(a);
}

static int parse_args(int argc, char **argv, struct fc_dcbx_agent *a)
{
	static const char *const words[] = {
		"dev", "willing", "interval", "count", "help", "other-agents", "mode",
		"lldpd-socket", NULL,
	};
	uint64_t v;
	bool b;
	int k, err;

	while (argc > 0) {
		k = parse_keyword(argv[0], words);
		if (k < 0)
			return bad_keyword(argv[0], words, k, "dcbx");
		if (k == 4) {
			usage_dcbx(stdout);
			return -1;
		}
		if (argc < 2)
			return missing_value(words[k], k == 0 ? "a device name" :
					     k == 1 ? "on or off" : k == 2 ?
					     "seconds 1..16383" : k == 5 ?
					     "refuse, ignore or lldpd" : k == 6 ?
					     "auto, ieee or cee" : k == 7 ?
					     "lldpd's control socket" : "a number of events");
		switch (k) {
		case 0:
			if (fc_check_dev_name(argv[1]))
				return EXIT_USAGE;
			a->dev = argv[1];
			break;
		case 1:
			if (parse_on_off(argv[1], &b))
				return bad_value("willing", argv[1], -EINVAL, "on or off");
			a->willing = b;
			break;
		case 2:
			err = parse_time(argv[1], 1000000000ULL, 16383ULL * 1000000000ULL, &v);
			if (!err && v < 1000000000ULL)
				err = -ERANGE;
			if (err)
				return bad_value("interval", argv[1], err, "seconds 1..16383");
			a->interval_ns = v;
			break;
		case 5:
			a->ignore_others = a->via_lldpd = false;
			if (matches(argv[1], "refuse"))
				;
			else if (matches(argv[1], "ignore"))
				a->ignore_others = true;
			else if (matches(argv[1], "lldpd"))
				a->via_lldpd = true;
			else
				return bad_value("other-agents", argv[1], -EINVAL,
						 "refuse, ignore or lldpd");
			break;
		case 7:
			a->lldpd_sock = argv[1];
			break;
		case 6:
			if (matches(argv[1], "auto"))
				a->version = DCBX_V_AUTO;
			else if (matches(argv[1], "ieee"))
				a->version = DCBX_V_IEEE;
			else if (matches(argv[1], "cee"))
				a->version = DCBX_V_CEE;
			else
				return bad_value("mode", argv[1], -EINVAL, "auto, ieee or cee");
			a->cee = a->version == DCBX_V_CEE;
			break;
		default:
			err = parse_u64(argv[1], 1, UINT32_MAX, &v);
			if (err)
				return bad_value("count", argv[1], err, "1..4294967295");
			a->count = v;
		}
		argc -= 2;
		argv += 2;
	}
	if (!a->dev) {
		fprintf(stderr, "Error: dcbx needs dev DEV\n");
		return EXIT_USAGE;
	}
	if (a->lldpd_sock && !a->via_lldpd) {
		fprintf(stderr, "Error: dcbx: lldpd-socket goes with other-agents lldpd\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_dcbx(int argc, char **argv)
{
	struct fc_dcbx_agent a;
	sigset_t block, orig;
	struct sigaction sa;
	uint16_t ttl;
	int ret;

	memset(&a, 0, sizeof(a));
	a.fd = a.tap_fd = -1;
	a.interval_ns = 30ULL * 1000000000ULL;
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ttl = (uint16_t)(a.interval_ns * 4 / 1000000000ULL > 65535 ? 65535 :
			 a.interval_ns * 4 / 1000000000ULL);
	ret = fc_nl_open(&a.nl);
	if (ret)
		return ret;
	ret = agent_open(&a);
	if (ret || read_port(&a, &a.admin)) {
		if (a.fd >= 0)
			close(a.fd);
		if (a.tap_fd >= 0)
			close(a.tap_fd);
		fc_nl_close(&a.nl);
		return ret ? ret : EXIT_FAIL;
	}
	/* The signals that end the agent wait, blocked, for ppoll(): one that
	 * comes between the loop's test and the wait still wakes it.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGPIPE);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sigprocmask(SIG_BLOCK, &block, &orig);
	dcbx_stop = 0;
	peer_probe(&a);
	fc_dcbx_event(&a, "start", a.willing ? "willing" : "not willing");
	a.credit = TX_CREDIT_MAX;
	a.next_tx = a.next_tick = fc_mono_ns();
	while (!dcbx_stop && (!a.count || a.events < a.count)) {
		struct pollfd p[2] = { { .fd = a.fd, .events = POLLIN },
				       { .fd = a.tap_fd, .events = POLLIN } };
		uint64_t t = fc_mono_ns(), wake;
		struct timespec ts;

		transmit(&a, ttl, t);
		/* next_tick is ahead; next_tx is not while a send waits for credit. */
		wake = a.next_tick;
		if (a.next_tx > t && a.next_tx < wake)
			wake = a.next_tx;
		if (a.have_peer && a.peer_expires <= t) {
			a.have_peer = false;
			cee_forget(&a);
			fc_dcbx_event(&a, "partner-gone", "its TTL ran out");
			tell_peer(&a);
			reconsider(&a);
			continue;
		}
		if (a.have_peer && a.peer_expires < wake)
			wake = a.peer_expires;
		if (a.multi_until > t && a.multi_until < wake)
			wake = a.multi_until;
		ts.tv_sec = (time_t)((wake - t) / 1000000000ULL);
		ts.tv_nsec = (long)((wake - t) % 1000000000ULL);
		if (ppoll(p, a.tap_fd >= 0 ? 2 : 1, &ts, &orig) > 0) {
			/* POLLERR (the link went down) is cleared by a read. */
			if (p[0].revents)
				receive(&a);
			if (a.tap_fd >= 0 && p[1].revents)
				tap_receive(&a);
			if (a.other_agent) {
				fprintf(stderr,
					"dcbx: another LLDP agent sends on %s (lldpd, lldpad?): the partner\n"
					"sees two neighbours and turns DCBX off; stopping. Let one agent speak\n"
					"for %s, or run with other-agents ignore.\n", a.dev, a.dev);
				ret = EXIT_FAIL;
				break;
			}
			if (if_nametoindex(a.dev) != a.ifindex) {
				fprintf(stderr, "dcbx: %s is gone\n", a.dev);
				ret = EXIT_FAIL;
				break;
			}
			if ((p[0].revents | (a.tap_fd >= 0 ? p[1].revents : 0)) & POLLERR)
				nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
		}
		if (a.multi_until && a.multi_until <= fc_mono_ns()) {
			a.multi_until = 0;
			reconsider(&a);
		}
	}
	/* Leaving: tell the partner (TTL 0), and give the port its own back,
	 * unless someone has set it since.
	 */
	if (a.via_lldpd)
		fc_lldpd_clear(&a);
	else
		send_lldpdu(&a, 0);
	if (a.have_peer) {
		a.have_peer = false;
		tell_peer(&a);
	}
	if (a.adopted) {
		struct view cur;

		if (!read_port(&a, &cur) && same_view(&cur, &a.applied) &&
		    !apply(&a, &a.admin))
			fc_dcbx_event(&a, "reverted", "the agent stopped");
	}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	close(a.fd);
	if (a.tap_fd >= 0)
		close(a.tap_fd);
	fc_nl_close(&a.nl);
	return ret;
}
