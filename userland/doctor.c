// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's rules (flowctl(8), doctor): each finding follows from a
 * fact read (ethtool, dcbnl, the qdisc's configuration) or from counters
 * that grew between two readings; nothing is guessed. Pure: facts in,
 * findings out, so test_doctor.c judges every rule both ways.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcbnl.h>

#include "doctor.h"
#include "parse.h"
#include "print.h"
#include "show.h"

enum rule_id {
	R_NO_MODULE,
	R_NO_PORTS,
	R_NO_QDISC,
	R_NO_TC_PLUGIN,
	R_HW_PAUSE_ON,
	R_HW_PAUSE_UNSUPPORTED,
	R_DOORS,
	R_DCBX_AGENT,
	R_DCBX_AGENTS,
	R_MAC_CONSUMES_PAUSE,
	R_RX_ALL_OFF,
	R_NIC_PFC,
	R_NIC_DCBX_FIRMWARE,
	R_HALF_DUPLEX,
	R_SPEED_MISMATCH,
	R_NO_SPEED,
	R_PARTNER_IGNORED,
	R_RX_IGNORED,
	R_PAUSE_STORM,
	R_MALFORMED,
	R_PAUSED_BY_PARTNER,
	R_PAUSING_PARTNER,
	R_ROOT_MULTIQUEUE,
	R_NOT_READ,
};

static const struct {
	const char *id;
	enum fc_doc_severity severity;
	const char *meaning;
} rules[] = {
	[R_NO_MODULE] = { "no-module", FC_DOC_ERROR,
		"the flowctl generic netlink family does not exist: the module is not loaded" },
	[R_NO_PORTS] = { "no-ports", FC_DOC_WARNING,
		"no device of this network namespace has a flowctl qdisc" },
	[R_NO_QDISC] = { "no-qdisc", FC_DOC_ERROR,
		"the device has no flowctl qdisc: nothing honors or sends PAUSE/PFC in software on it" },
	[R_NO_TC_PLUGIN] = { "no-tc-plugin", FC_DOC_WARNING,
		"tc has no q_flowctl.so: it cannot parse flowctl's options, and \"tc -j qdisc show\" prints text inside its JSON for every flowctl qdisc until the plugin is installed" },
	[R_HW_PAUSE_ON] = { "hw-pause-on", FC_DOC_ERROR,
		"the MAC's own flow control is on: it consumes received PAUSE frames (flowctl never sees them) or sends its own" },
	[R_HW_PAUSE_UNSUPPORTED] = { "hw-pause-unsupported", FC_DOC_INFO,
		"the driver has no MAC flow control: none to conflict with flowctl" },
	[R_DOORS] = { "flowctl-doors", FC_DOC_INFO,
		"the driver has no operations of its own for these: flowctl answers them on this device (ethtool -a, dcb pfc show)" },
	[R_DCBX_AGENT] = { "dcbx-agent", FC_DOC_INFO,
		"this process speaks LLDP on the port: it runs DCBX there (lldpad, lldpd, flowctl dcbx)" },
	[R_DCBX_AGENTS] = { "dcbx-agents", FC_DOC_WARNING,
		"more than one process speaks LLDP on the port: the partner hears two neighbours, and 802.1Qaz DCBX stops with more than one" },
	[R_MAC_CONSUMES_PAUSE] = { "mac-consumes-pause", FC_DOC_ERROR,
		"the MAC received PAUSE frames that never reached flowctl: it consumes them" },
	[R_RX_ALL_OFF] = { "rx-all-off", FC_DOC_WARNING,
		"the driver offers rx-all and it is off: some NICs drop MAC Control frames before the host sees them" },
	[R_NIC_PFC] = { "nic-pfc", FC_DOC_WARNING,
		"the NIC's own PFC has priorities enabled: it may consume the partner's PFC frames or send its own" },
	[R_NIC_DCBX_FIRMWARE] = { "nic-dcbx-firmware", FC_DOC_WARNING,
		"a DCBX agent in the NIC's firmware manages DCB: it can switch the NIC's own PFC on as its partner asks" },
	[R_HALF_DUPLEX] = { "half-duplex", FC_DOC_ERROR,
		"the link runs half duplex, where PAUSE does not exist: flowctl honors no pause time there" },
	[R_SPEED_MISMATCH] = { "speed-mismatch", FC_DOC_WARNING,
		"flowctl converts quanta with a configured speed that is not the link's: received pauses last the wrong time" },
	[R_NO_SPEED] = { "no-speed", FC_DOC_WARNING,
		"flowctl has no usable speed: received pause times are ignored, only XON is honored" },
	[R_PARTNER_IGNORED] = { "partner-ignored", FC_DOC_ERROR,
		"the partner does not honor our PAUSE/PFC (or honors it later than the headroom allows): frames kept coming while we paused it" },
	[R_RX_IGNORED] = { "rx-ignored", FC_DOC_WARNING,
		"the partner sends PAUSE/PFC that this port does not honor" },
	[R_PAUSE_STORM] = { "pause-storm", FC_DOC_WARNING,
		"the partner held a priority paused nearly all the interval: a pause storm (a receiver on its side that does not drain)" },
	[R_MALFORMED] = { "malformed", FC_DOC_WARNING,
		"MAC Control frames arrived that this port cannot use: malformed, or another opcode" },
	[R_PAUSED_BY_PARTNER] = { "paused-by-partner", FC_DOC_INFO,
		"the partner sent XOFF: its side of the link is the bottleneck" },
	[R_PAUSING_PARTNER] = { "pausing-partner", FC_DOC_INFO,
		"we sent XOFF: our egress is congested" },
	[R_ROOT_MULTIQUEUE] = { "root-on-multiqueue", FC_DOC_INFO,
		"flowctl is the root qdisc of a device that uses several TX queues: every queue waits behind one qdisc lock, and one CPU at a time dequeues for all of them (under mq, flowctl is one port with a child on each queue)" },
	[R_NOT_READ] = { "not-read", FC_DOC_INFO,
		"some facts could not be read, so the rules that need them were not judged" },
};

struct judge {
	struct fc_doc_report *r;
	int err;
};

/* Append to a string buffer, never past its end. */
__attribute__((format(printf, 3, 4)))
static void cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strnlen(buf, len);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* A finding of rule id for ifname with its fix; measured from fmt. */
__attribute__((format(printf, 5, 6)))
static void add(struct judge *j, enum rule_id id, const char *ifname,
		const char *fix, const char *fmt, ...)
{
	struct fc_doc_report *r = j->r;
	struct fc_doc_finding *f;
	va_list ap;

	if (j->err)
		return;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		struct fc_doc_finding *n = realloc(r->f, cap * sizeof(*n));

		if (!n) {
			j->err = -ENOMEM;
			return;
		}
		r->f = n;
		r->cap = cap;
	}
	f = &r->f[r->n++];
	memset(f, 0, sizeof(*f));
	f->id = rules[id].id;
	f->severity = rules[id].severity;
	f->meaning = rules[id].meaning;
	f->ifname = ifname;
	snprintf(f->fix, sizeof(f->fix), "%s", fix ? fix : "");
	va_start(ap, fmt);
	vsnprintf(f->measured, sizeof(f->measured), fmt, ap);
	va_end(ap);
	if (f->severity == FC_DOC_ERROR)
		r->errors++;
	else if (f->severity == FC_DOC_WARNING)
		r->warnings++;
	else
		r->infos++;
}

const char *fc_doc_severity_name(enum fc_doc_severity s)
{
	switch (s) {
	case FC_DOC_ERROR:
		return "error";
	case FC_DOC_WARNING:
		return "warning";
	case FC_DOC_INFO:
		break;
	}
	return "info";
}

/* Growth of a port counter, or of a priority's, between the readings. */
static uint64_t stat_d(const struct fc_doc_port *p, int attr)
{
	return fc_growth(p->before.stats[attr], p->after.stats[attr],
			 FC_HAS(p->before.stats_have, attr),
			 FC_HAS(p->after.stats_have, attr));
}

static uint64_t prio_d(const struct fc_doc_port *p, int prio, int attr)
{
	const struct fc_prio *a = &p->before.prio[prio], *b = &p->after.prio[prio];

	return fc_growth(a->v[attr], b->v[attr], FC_HAS(a->have, attr),
			 FC_HAS(b->have, attr));
}

/* The configuration in force at the end (what a fix must change). */
static bool cfg_has(const struct fc_doc_port *p, int attr)
{
	return FC_HAS(p->after.have, attr);
}

static uint64_t cfg(const struct fc_doc_port *p, int attr)
{
	return p->after.v[attr];
}

/* " in 1.001 s" */
static const char *in_elapsed(char *buf, size_t len, uint64_t ns)
{
	char t[FMT_LEN];

	snprintf(buf, len, " in %s", fmt_ns(t, sizeof(t), ns, false));
	return buf;
}

/* "mode pfc, rx on, pfc-prios 3,4" of the end reading */
static void describe_cfg(const struct fc_doc_port *p, char *buf, size_t len)
{
	char prios[FMT_LEN];
	const char *m;

	buf[0] = '\0';
	if (cfg_has(p, FLOWCTL_A_DEV_MODE)) {
		m = fc_mode_name(cfg(p, FLOWCTL_A_DEV_MODE));
		cat(buf, len, "mode %s", m ? m : "?");
	}
	if (cfg_has(p, FLOWCTL_A_DEV_RX))
		cat(buf, len, "%srx %s", buf[0] ? ", " : "",
		    cfg(p, FLOWCTL_A_DEV_RX) ? "on" : "off");
	if (cfg_has(p, FLOWCTL_A_DEV_MODE) && cfg(p, FLOWCTL_A_DEV_MODE) == FLOWCTL_MODE_PFC &&
	    cfg_has(p, FLOWCTL_A_DEV_PFC_PRIOS))
		cat(buf, len, ", pfc-prios %s",
		    fmt_prio_list(prios, sizeof(prios),
				  (unsigned int)cfg(p, FLOWCTL_A_DEV_PFC_PRIOS)));
}

/* The priorities whose counter attr grew, as a mask; their deltas into buf. */
static unsigned int prios_grew(const struct fc_doc_port *p, int attr,
			       char *buf, size_t len)
{
	unsigned int mask = 0;
	int i;

	if (buf && len)
		buf[0] = '\0';
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++) {
		uint64_t d = prio_d(p, i, attr);

		if (!d)
			continue;
		mask |= 1u << i;
		if (buf)
			cat(buf, len, "%sprio %d +%llu", buf[0] ? ", " : "", i,
			    (unsigned long long)d);
	}
	return mask;
}

/*
 * A priority's XOFF growth: frames with its enable bit less those with
 * time 0 (xon < 0: the counter all counts XOFF only, as tx_pfc does).
 */
static uint64_t prio_xoff(const struct fc_doc_port *p, int prio, int all,
			  int xon)
{
	uint64_t x = prio_d(p, prio, all), on = xon < 0 ? 0 : prio_d(p, prio, xon);

	return x > on ? x - on : 0;
}

/* prio_xoff() of every priority, listed into buf; their sum. */
static uint64_t pfc_xoff(const struct fc_doc_port *p, int all, int xon,
			 char *buf, size_t len)
{
	uint64_t sum = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++) {
		uint64_t d = prio_xoff(p, i, all, xon);

		if (!d)
			continue;
		sum += d;
		cat(buf, len, "%sprio %d +%llu", buf[0] ? ", " : "", i,
		    (unsigned long long)d);
	}
	return sum;
}

/* dcb's words for priorities on: " 3:on 4:on" (one pair a priority). */
static const char *dcb_prio_on(char *buf, size_t len, unsigned int mask)
{
	int i;

	buf[0] = '\0';
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
		if (mask & (1u << i))
			cat(buf, len, " %d:on", i);
	return buf;
}

static void judge_namespace(struct judge *j, const struct fc_doc_facts *f)
{
	if (!f->module) {
		add(j, R_NO_MODULE, f->all || f->nports != 1 ? NULL : f->port[0].ifname,
		    "modprobe flowctl",
		    "the kernel has no generic netlink family \"flowctl\" (CTRL_CMD_GETFAMILY: %s)",
		    strerror(ENOENT));
		return;
	}
	if (f->all && !f->nports)
		add(j, R_NO_PORTS, NULL, "tc qdisc add dev DEV root flowctl",
		    "a DEV_GET dump lists no port");
	if (f->tc_plugin_dir[0] && !f->tc_plugin)
		add(j, R_NO_TC_PLUGIN, NULL, "apt install flowctl-tools (or make -C userland install)",
		    "no q_flowctl.so in %s, where tc looks for it%s", f->tc_plugin_dir,
		    f->tc_lib_dir_env ? " (TC_LIB_DIR)" : "");
}

static void judge_nic(struct judge *j, const struct fc_doc_port *p)
{
	const struct fc_doc_nic *n = &p->nic;
	const char *dev = p->ifname;
	char fix[FC_DOC_FIX_LEN], t[FMT_LEN], sp[FMT_LEN], prios[FMT_LEN];
	/* What flowctl answers itself (dcb.c) is no NIC's to judge. */
	uint64_t doors = p->qdisc && FC_HAS(p->after.have, FLOWCTL_A_DEV_DOORS) ?
			 p->after.v[FLOWCTL_A_DEV_DOORS] : 0;

	if (doors)
		add(j, R_DOORS, dev, NULL, "DEV_GET doors:%s%s",
		    doors & FLOWCTL_DOOR_PAUSE ? " ethtool pause (ETHTOOL_MSG_PAUSE_*)" : "",
		    doors & FLOWCTL_DOOR_DCB ? " DCB netlink (RTM_GETDCB, RTM_SETDCB)" : "");
	if (n->nagents == 1) {
		add(j, R_DCBX_AGENT, dev, NULL,
		    "an LLDP packet socket (0x88cc) bound to %s: %s (pid %d)",
		    dev, n->agent[0].comm, n->agent[0].pid);
	} else if (n->nagents > 1) {
		char who[FC_DOC_MEASURED_LEN] = "";
		size_t len = 0;
		unsigned int k;

		for (k = 0; k < n->nagents && len < sizeof(who); k++)
			len += (size_t)snprintf(who + len, sizeof(who) - len, "%s%s (pid %d)",
						k ? ", " : "", n->agent[k].comm,
						n->agent[k].pid);
		add(j, R_DCBX_AGENTS, dev, NULL,
		    "LLDP packet sockets (0x88cc) bound to %s: %s", dev, who);
	}
	if (doors & FLOWCTL_DOOR_PAUSE) {
		/* flowctl's own rx and tx, and its own counters. */
	} else if (!n->pause_err && (n->pause_rx || n->pause_tx)) {
		snprintf(fix, sizeof(fix), "ethtool -A %s autoneg off rx off tx off", dev);
		add(j, R_HW_PAUSE_ON, dev, fix,
		    "ETHTOOL_MSG_PAUSE_GET: autoneg %s, rx %s, tx %s",
		    n->pause_autoneg ? "on" : "off", n->pause_rx ? "on" : "off",
		    n->pause_tx ? "on" : "off");
	} else if (n->pause_err == EOPNOTSUPP) {
		add(j, R_HW_PAUSE_UNSUPPORTED, dev, NULL,
		    "ETHTOOL_MSG_PAUSE_GET: %s", strerror(EOPNOTSUPP));
	}
	if (p->measured && n->have_rx_frames[0] && n->have_rx_frames[1] &&
	    !(doors & FLOWCTL_DOOR_PAUSE)) {
		uint64_t mac = fc_growth(n->rx_frames[0], n->rx_frames[1], true, true);
		uint64_t pause = stat_d(p, FLOWCTL_A_STATS_RX_PAUSE),
			 xon = stat_d(p, FLOWCTL_A_STATS_RX_XON),
			 pfc = stat_d(p, FLOWCTL_A_STATS_RX_PFC);

		if (mac && !pause && !xon && !pfc) {
			snprintf(fix, sizeof(fix), "ethtool -A %s autoneg off rx off tx off", dev);
			add(j, R_MAC_CONSUMES_PAUSE, dev, fix,
			    "the MAC received %llu PAUSE frames%s (ETHTOOL_A_PAUSE_STAT_RX_FRAMES); "
			    "flowctl received none (rx_pause +0, rx_xon +0, rx_pfc +0)",
			    (unsigned long long)mac, in_elapsed(t, sizeof(t), p->elapsed_ns));
		}
	}
	/* MAC Control frames that reached flowctl prove they get through. */
	if (!n->features_err && n->rx_all_offered && !n->rx_all_on &&
	    !(p->measured && (stat_d(p, FLOWCTL_A_STATS_RX_PAUSE) ||
			      stat_d(p, FLOWCTL_A_STATS_RX_XON) ||
			      stat_d(p, FLOWCTL_A_STATS_RX_PFC)))) {
		snprintf(fix, sizeof(fix), "ethtool -K %s rx-all on", dev);
		add(j, R_RX_ALL_OFF, dev, fix,
		    "ETHTOOL_MSG_FEATURES_GET: rx-all off, and the driver can switch it");
	}
	if (!n->dcb_pfc_err && n->have_pfc && n->pfc_en &&
	    !(doors & FLOWCTL_DOOR_DCB)) {
		snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc all:off", dev);
		add(j, R_NIC_PFC, dev, fix,
		    "DCB_CMD_IEEE_GET: pfc_en 0x%02x (priorities %s), pfc_cap %u",
		    n->pfc_en, fmt_prio_list(prios, sizeof(prios), n->pfc_en), n->pfc_cap);
	}
	if (!n->dcbx_err && (n->dcbx & DCB_CAP_DCBX_LLD_MANAGED)) {
		snprintf(fix, sizeof(fix), "dcb dcbx set dev %s host ieee", dev);
		add(j, R_NIC_DCBX_FIRMWARE, dev, fix,
		    "DCB_CMD_GDCBX: 0x%02x (DCB_CAP_DCBX_LLD_MANAGED set)", n->dcbx);
	}
	if (!n->linkmodes_err && n->duplex == FC_DOC_DUPLEX_HALF) {
		if (n->speed_mbps)
			snprintf(fix, sizeof(fix), "ethtool -s %s speed %u duplex full autoneg off",
				 dev, n->speed_mbps);
		else
			snprintf(fix, sizeof(fix), "ethtool -s %s duplex full", dev);
		add(j, R_HALF_DUPLEX, dev, fix,
		    "ETHTOOL_MSG_LINKMODES_GET: %s half duplex, autoneg %s",
		    n->speed_mbps ? fmt_speed(sp, sizeof(sp), n->speed_mbps) : "speed unknown",
		    n->autoneg ? "on" : "off");
	}
}

/* What ethtool said of the link, for the speed findings. */
static void describe_link(const struct fc_doc_nic *n, char *buf, size_t len)
{
	char sp[FMT_LEN];

	if (n->linkmodes_err)
		snprintf(buf, len, "ETHTOOL_MSG_LINKMODES_GET: %s", strerror(n->linkmodes_err));
	else
		snprintf(buf, len, "the link: %s%s",
			 n->speed_mbps ? fmt_speed(sp, sizeof(sp), n->speed_mbps) :
					 "speed unknown",
			 n->duplex == FC_DOC_DUPLEX_HALF ? " half duplex" :
			 n->duplex == FC_DOC_DUPLEX_FULL ? " full duplex" : "");
}

static void judge_speed(struct judge *j, const struct fc_doc_port *p)
{
	const struct fc_doc_nic *n = &p->nic;
	const char *dev = p->ifname, *src;
	char fix[FC_DOC_FIX_LEN], link[160], sp[FMT_LEN];
	uint64_t speed, source;

	if (!cfg_has(p, FLOWCTL_A_DEV_SPEED_MBPS))
		return;
	speed = cfg(p, FLOWCTL_A_DEV_SPEED_MBPS);
	source = cfg_has(p, FLOWCTL_A_DEV_SPEED_SOURCE) ?
		 cfg(p, FLOWCTL_A_DEV_SPEED_SOURCE) : FLOWCTL_SPEED_SRC_NONE;
	src = fc_speed_source_name(source);
	describe_link(n, link, sizeof(link));
	if (speed && source == FLOWCTL_SPEED_SRC_CONFIG && !n->linkmodes_err &&
	    n->speed_mbps && n->speed_mbps != speed) {
		snprintf(fix, sizeof(fix), "flowctl set dev %s speed auto", dev);
		add(j, R_SPEED_MISMATCH, dev, fix,
		    "flowctl: speed %s (speed_source config); %s",
		    fmt_speed(sp, sizeof(sp), speed), link);
	}
	/* Without a speed no pause time is honored nor sent: a port that does
	 * neither (mode off, or rx and tx off) needs none.
	 */
	if (!speed && cfg(p, FLOWCTL_A_DEV_MODE) != FLOWCTL_MODE_OFF &&
	    (cfg(p, FLOWCTL_A_DEV_RX) || cfg(p, FLOWCTL_A_DEV_TX))) {
		if (!n->linkmodes_err && n->duplex == FC_DOC_DUPLEX_HALF && n->speed_mbps)
			snprintf(fix, sizeof(fix), "ethtool -s %s speed %u duplex full autoneg off",
				 dev, n->speed_mbps);
		else if (!n->linkmodes_err && n->speed_mbps)
			snprintf(fix, sizeof(fix), "flowctl set dev %s speed %u", dev,
				 n->speed_mbps);
		else
			snprintf(fix, sizeof(fix), "flowctl set dev %s speed SPEED", dev);
		add(j, R_NO_SPEED, dev, fix, "flowctl: speed_mbps 0 (speed_source %s); %s",
		    src ? src : "?", link);
	}
}

/* rx-ignored: what arrived, what this port honors, and the change that fits. */
static void judge_rx_ignored(struct judge *j, const struct fc_doc_port *p, const char *in)
{
	uint64_t ign = stat_d(p, FLOWCTL_A_STATS_RX_IGNORED);
	uint64_t pause = stat_d(p, FLOWCTL_A_STATS_RX_PAUSE) + stat_d(p, FLOWCTL_A_STATS_RX_XON);
	uint64_t xon = stat_d(p, FLOWCTL_A_STATS_RX_XON), pfc = stat_d(p, FLOWCTL_A_STATS_RX_PFC);
	unsigned int arrived, ours;
	char per[160], conf[96], fix[FC_DOC_FIX_LEN], list[FMT_LEN];
	const char *dev = p->ifname;
	uint64_t mode;

	if (!ign)
		return;
	arrived = prios_grew(p, FLOWCTL_A_PRIO_RX_PFC, per, sizeof(per));
	describe_cfg(p, conf, sizeof(conf));
	mode = cfg(p, FLOWCTL_A_DEV_MODE);
	ours = (unsigned int)cfg(p, FLOWCTL_A_DEV_PFC_PRIOS);
	if (cfg_has(p, FLOWCTL_A_DEV_RX) && !cfg(p, FLOWCTL_A_DEV_RX) &&
	    mode != FLOWCTL_MODE_OFF)
		snprintf(fix, sizeof(fix), "flowctl set dev %s rx on", dev);
	else if (pfc > pause && arrived && mode != FLOWCTL_MODE_PFC)
		snprintf(fix, sizeof(fix), "flowctl set dev %s mode pfc pfc-prios %s rx on",
			 dev, fmt_prio_list(list, sizeof(list), arrived));
	else if (pause >= pfc && pause && mode != FLOWCTL_MODE_PAUSE)
		snprintf(fix, sizeof(fix), "flowctl set dev %s mode pause rx on", dev);
	else if (mode == FLOWCTL_MODE_PFC && (arrived & ~ours))
		snprintf(fix, sizeof(fix), "flowctl set dev %s pfc-prios %s", dev,
			 fmt_prio_list(list, sizeof(list), (arrived | ours) & 0xff));
	else if (cfg_has(p, FLOWCTL_A_DEV_SPEED_MBPS) && !cfg(p, FLOWCTL_A_DEV_SPEED_MBPS))
		snprintf(fix, sizeof(fix), "flowctl set dev %s speed SPEED", dev);
	else
		snprintf(fix, sizeof(fix), "flowctl -s show dev %s", dev);
	add(j, R_RX_IGNORED, dev, fix,
	    "rx_ignored +%llu%s; arrived: PAUSE +%llu (of them XON +%llu), PFC +%llu%s%s%s; this port: %s",
	    (unsigned long long)ign, in, (unsigned long long)pause,
	    (unsigned long long)xon, (unsigned long long)pfc,
	    per[0] ? " (" : "", per, per[0] ? ")" : "", conf[0] ? conf : "?");
}

static void judge_counters(struct judge *j, const struct fc_doc_port *p)
{
	const char *dev = p->ifname;
	char fix[FC_DOC_FIX_LEN], in[FMT_LEN + 8], per[160], conf[96], list[FMT_LEN];
	char dcb[FMT_LEN];
	uint64_t d, d2, mode = cfg(p, FLOWCTL_A_DEV_MODE);
	unsigned int storm = 0, ours = (unsigned int)cfg(p, FLOWCTL_A_DEV_PFC_PRIOS);
	uint64_t max_ns = 0;
	int i;

	if (!p->measured)
		return;
	in_elapsed(in, sizeof(in), p->elapsed_ns);

	d = stat_d(p, FLOWCTL_A_STATS_PARTNER_IGNORED);
	if (d) {
		prios_grew(p, FLOWCTL_A_PRIO_PARTNER_IGNORED, per, sizeof(per));
		if (mode == FLOWCTL_MODE_PFC)
			snprintf(fix, sizeof(fix),
				 "on the partner: flowctl set dev PEER mode pfc pfc-prios %s rx on "
				 "(a NIC: dcb pfc set dev PEER prio-pfc%s)",
				 fmt_prio_list(list, sizeof(list), ours & 0xff),
				 dcb_prio_on(dcb, sizeof(dcb), ours & 0xff));
		else
			snprintf(fix, sizeof(fix),
				 "on the partner: flowctl set dev PEER mode pause rx on "
				 "(a NIC: ethtool -A PEER rx on)");
		add(j, R_PARTNER_IGNORED, dev, fix,
		    "partner_ignored +%llu%s%s%s%s; we sent tx_pause +%llu, tx_pfc +%llu",
		    (unsigned long long)d, in, per[0] ? " (" : "", per, per[0] ? ")" : "",
		    (unsigned long long)stat_d(p, FLOWCTL_A_STATS_TX_PAUSE),
		    (unsigned long long)stat_d(p, FLOWCTL_A_STATS_TX_PFC));
	}

	judge_rx_ignored(j, p, in);

	per[0] = '\0';
	for (i = 0; i < FLOWCTL_NUM_PRIOS && p->elapsed_ns; i++) {
		uint64_t ns = prio_d(p, i, FLOWCTL_A_PRIO_PAUSED_NS_TOTAL);
		uint64_t xoff = mode == FLOWCTL_MODE_PFC ?
			prio_xoff(p, i, FLOWCTL_A_PRIO_RX_PFC, FLOWCTL_A_PRIO_RX_PFC_XON) :
			stat_d(p, FLOWCTL_A_STATS_RX_PAUSE);

		/* One long pause is no storm: a storm keeps refreshing. */
		if (ns * 100 >= (uint64_t)FC_DOC_STORM_PCT * p->elapsed_ns &&
		    xoff >= FC_DOC_STORM_XOFF) {
			storm |= 1u << i;
			if (ns > max_ns)
				max_ns = ns;
		}
	}
	if (storm) {
		if (mode == FLOWCTL_MODE_PFC && (ours & ~storm & 0xff))
			snprintf(fix, sizeof(fix), "flowctl set dev %s pfc-prios %s", dev,
				 fmt_prio_list(list, sizeof(list), ours & ~storm & 0xff));
		else
			snprintf(fix, sizeof(fix), "flowctl set dev %s rx off", dev);
		describe_cfg(p, conf, sizeof(conf));
		add(j, R_PAUSE_STORM, dev, fix,
		    "%s %s paused up to %llu%% of the interval (paused_ns_total +%llu%s); this port: %s",
		    storm & (storm - 1) ? "priorities" : "priority",
		    fmt_prio_list(list, sizeof(list), storm),
		    (unsigned long long)(max_ns * 100 / p->elapsed_ns),
		    (unsigned long long)max_ns, in, conf);
	}

	d = stat_d(p, FLOWCTL_A_STATS_RX_MALFORMED);
	d2 = stat_d(p, FLOWCTL_A_STATS_RX_UNSUPPORTED);
	if (d || d2) {
		snprintf(fix, sizeof(fix), "tcpdump -i %s -nn -e ether proto 0x8808", dev);
		add(j, R_MALFORMED, dev, fix, "rx_malformed +%llu, rx_unsupported +%llu%s",
		    (unsigned long long)d, (unsigned long long)d2, in);
	}

	/* XOFF: a PAUSE with a time, a PFC enable bit that is not an XON. */
	d = stat_d(p, FLOWCTL_A_STATS_RX_PAUSE);
	d2 = pfc_xoff(p, FLOWCTL_A_PRIO_RX_PFC, FLOWCTL_A_PRIO_RX_PFC_XON, per, sizeof(per));
	max_ns = 0;
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
		if (prio_d(p, i, FLOWCTL_A_PRIO_PAUSED_NS_TOTAL) > max_ns)
			max_ns = prio_d(p, i, FLOWCTL_A_PRIO_PAUSED_NS_TOTAL);
	/* XOFF that held nothing (ignored: rx-ignored says why) paused no one. */
	if ((d || d2) && max_ns) {
		snprintf(fix, sizeof(fix), "flowctl watch dev %s interval 1 count 30", dev);
		add(j, R_PAUSED_BY_PARTNER, dev, fix,
		    "received XOFF%s: PAUSE +%llu, PFC +%llu%s%s%s; paused up to %llu%% of the interval",
		    in, (unsigned long long)d, (unsigned long long)d2,
		    per[0] ? " (" : "", per, per[0] ? ")" : "",
		    (unsigned long long)(p->elapsed_ns ? max_ns * 100 / p->elapsed_ns : 0));
	}

	d = stat_d(p, FLOWCTL_A_STATS_TX_PAUSE);
	/* Unlike rx_pfc, a priority's tx_pfc counts only its XOFF. */
	d2 = pfc_xoff(p, FLOWCTL_A_PRIO_TX_PFC, -1, per, sizeof(per));
	if (d || d2) {
		snprintf(fix, sizeof(fix), "flowctl watch dev %s interval 1 count 30", dev);
		add(j, R_PAUSING_PARTNER, dev, fix,
		    "sent XOFF%s: PAUSE +%llu, PFC +%llu%s%s%s", in,
		    (unsigned long long)d, (unsigned long long)d2,
		    per[0] ? " (" : "", per, per[0] ? ")" : "");
	}
}

/* One flowctl in front of a device's several TX queues. */
static void judge_queues(struct judge *j, const struct fc_doc_port *p)
{
	char fix[FC_DOC_FIX_LEN];
	const char *dev = p->ifname;

	if (p->flowctl_queues != 1 || p->nic.channels_err || p->nic.tx_queues < 2)
		return;
	snprintf(fix, sizeof(fix),
		 "tc qdisc replace dev %s root handle 1: mq, then flowctl on each class 1:1..1:%u, then flowctl set again (Documentation/mq.md)",
		 dev, p->nic.tx_queues);
	add(j, R_ROOT_MULTIQUEUE, dev, fix,
	    "ETHTOOL_MSG_CHANNELS_GET: %u TX queues in use; DEV_GET queues: one flowctl (the root qdisc)",
	    p->nic.tx_queues);
}

/* Requests that failed for another reason than "the driver has none". */
static void judge_not_read(struct judge *j, const struct fc_doc_port *p)
{
	static const struct {
		const char *name;
		size_t off;
	} req[] = {
		{ "ETHTOOL_MSG_LINKMODES_GET", offsetof(struct fc_doc_nic, linkmodes_err) },
		{ "ETHTOOL_MSG_PAUSE_GET", offsetof(struct fc_doc_nic, pause_err) },
		{ "ETHTOOL_MSG_FEATURES_GET", offsetof(struct fc_doc_nic, features_err) },
		{ "ETHTOOL_MSG_CHANNELS_GET", offsetof(struct fc_doc_nic, channels_err) },
		{ "DCB_CMD_IEEE_GET", offsetof(struct fc_doc_nic, dcb_pfc_err) },
		{ "DCB_CMD_GDCBX", offsetof(struct fc_doc_nic, dcbx_err) },
	};
	char what[FC_DOC_MEASURED_LEN] = "";
	size_t i;

	for (i = 0; i < sizeof(req) / sizeof(req[0]); i++) {
		int err;

		memcpy(&err, (const char *)&p->nic + req[i].off, sizeof(err));
		if (err && err != EOPNOTSUPP)
			cat(what, sizeof(what), "%s%s: %s", what[0] ? "; " : "",
			    req[i].name, strerror(err));
	}
	if (what[0])
		add(j, R_NOT_READ, p->ifname, NULL, "%s", what);
}

/* Errors first, then warnings, then infos; rule order within each. */
static void sort_by_severity(struct fc_doc_report *r)
{
	size_t i, k;

	for (i = 1; i < r->n; i++) {
		struct fc_doc_finding f = r->f[i];

		for (k = i; k > 0 && r->f[k - 1].severity < f.severity; k--)
			r->f[k] = r->f[k - 1];
		r->f[k] = f;
	}
}

int fc_doctor_judge(const struct fc_doc_facts *facts, struct fc_doc_report *r)
{
	struct judge j = { .r = r };
	size_t i;

	memset(r, 0, sizeof(*r));
	judge_namespace(&j, facts);
	for (i = 0; i < facts->nports; i++) {
		const struct fc_doc_port *p = &facts->port[i];

		if (facts->module && !p->qdisc) {
			char fix[FC_DOC_FIX_LEN];

			snprintf(fix, sizeof(fix), "tc qdisc add dev %s root flowctl", p->ifname);
			add(&j, R_NO_QDISC, p->ifname, fix,
			    "DEV_GET %s: %s (no flowctl qdisc)", p->ifname,
			    strerror(EOPNOTSUPP));
		}
		judge_nic(&j, p);
		if (p->qdisc) {
			judge_speed(&j, p);
			judge_counters(&j, p);
			judge_queues(&j, p);
		}
		judge_not_read(&j, p);
	}
	if (j.err) {
		fc_doctor_free(r);
		return j.err;
	}
	sort_by_severity(r);
	return 0;
}

void fc_doctor_free(struct fc_doc_report *r)
{
	free(r->f);
	memset(r, 0, sizeof(*r));
}

const struct fc_doc_finding *fc_doctor_find(const struct fc_doc_report *r,
					    const char *id, const char *ifname)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].id, id) &&
		    (!ifname || (r->f[i].ifname && !strcmp(r->f[i].ifname, ifname))))
			return &r->f[i];
	return NULL;
}

int fc_doctor_status(const struct fc_doc_report *r)
{
	return r->errors || r->warnings ? EXIT_FOUND : EXIT_OK;
}
