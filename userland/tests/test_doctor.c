// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl doctor's rules on synthetic facts: each finding made to fire,
 * and a near miss that must not; the order by severity, the exit status,
 * and the report in text (checked here) and JSON (written to
 * OUTDIR/doctor.json for check_json.py).
 *
 * usage: test_doctor OUTDIR
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcbnl.h>

#include "ktap.h"
#include "doctor.h"
#include "parse.h"
#include "print.h"

#define SEC 1000000000ULL

/* One reading of a port: every attribute there, mode pause, counters 0. */
static void reading(struct fc_dev *d)
{
	int a, p;

	memset(d, 0, sizeof(*d));
	snprintf(d->ifname, sizeof(d->ifname), "veth0");
	for (a = FLOWCTL_A_DEV_IFINDEX; a <= FLOWCTL_A_DEV_MAX; a++)
		if (a != FLOWCTL_A_DEV_STATS && a != FLOWCTL_A_DEV_PRIO)
			d->have |= 1ull << a;
	d->v[FLOWCTL_A_DEV_IFINDEX] = 7;
	d->v[FLOWCTL_A_DEV_MODE] = FLOWCTL_MODE_PAUSE;
	d->v[FLOWCTL_A_DEV_RX] = 1;
	d->v[FLOWCTL_A_DEV_TX] = 1;
	d->v[FLOWCTL_A_DEV_PFC_PRIOS] = 0;
	d->v[FLOWCTL_A_DEV_SPEED_MBPS] = 10000;
	d->v[FLOWCTL_A_DEV_SPEED_SOURCE] = FLOWCTL_SPEED_SRC_ETHTOOL;
	for (a = FLOWCTL_A_STATS_RX_PAUSE; a <= FLOWCTL_A_STATS_MAX; a++)
		d->stats_have |= 1u << a;
	for (p = 0; p < FLOWCTL_NUM_PRIOS; p++) {
		for (a = FLOWCTL_A_PRIO_PRIO; a <= FLOWCTL_A_PRIO_MAX; a++)
			d->prio[p].have |= 1u << a;
		d->prio[p].v[FLOWCTL_A_PRIO_PRIO] = (uint64_t)p;
	}
}

/*
 * A clean port: a flowctl qdisc read twice 1 s apart, a full-duplex
 * 10 Gb/s link, MAC pause off, rx-all not offered, no DCB in the NIC.
 */
static void clean(struct fc_doc_port *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->ifname, sizeof(p->ifname), "veth0");
	p->qdisc = true;
	p->measured = true;
	p->elapsed_ns = SEC;
	reading(&p->before);
	reading(&p->after);
	p->nic.speed_mbps = 10000;
	p->nic.duplex = FC_DOC_DUPLEX_FULL;
	p->nic.dcb_pfc_err = EOPNOTSUPP;
	p->nic.dcbx_err = EOPNOTSUPP;
}

static struct fc_doc_port P;
static struct fc_doc_report R;

/* Judge P alone (module loaded, dev given). */
static void judge(void)
{
	struct fc_doc_facts f = { .module = true, .port = &P, .nports = 1 };

	fc_doctor_free(&R);
	if (fc_doctor_judge(&f, &R))
		printf("# judge: out of memory\n");
}

static const struct fc_doc_finding *find(const char *id)
{
	return fc_doctor_find(&R, id, NULL);
}

/* Fires, with its severity; the finding for more checks. */
static const struct fc_doc_finding *fires(const char *id, enum fc_doc_severity sev,
					  const char *why)
{
	const struct fc_doc_finding *f = find(id);

	ktap_ok(f && f->severity == sev, "%s fires (%s): %s", id,
		fc_doc_severity_name(sev), why);
	if (f)
		printf("# read: %s | fix: %s\n", f->measured, f->fix);
	return f;
}

static void quiet(const char *id, const char *why)
{
	const struct fc_doc_finding *f = find(id);

	if (!ktap_ok(!f, "%s does not fire: %s", id, why))
		printf("# read: %s\n", f->measured);
}

static bool has(const struct fc_doc_finding *f, const char *what, const char *s)
{
	return f && strstr(!strcmp(what, "fix") ? f->fix : f->measured, s);
}

#define STAT(d, a) ((d).stats[FLOWCTL_A_STATS_##a])
#define PRIO(d, p, a) ((d).prio[p].v[FLOWCTL_A_PRIO_##a])
#define CFG(d, a) ((d).v[FLOWCTL_A_DEV_##a])

static void test_clean(void)
{
	clean(&P);
	judge();
	ktap_ok(R.n == 0, "a clean port: no finding (%zu)", R.n);
	KTAP_EQ_U64(fc_doctor_status(&R), EXIT_OK, "a clean port: exit status 0");
}

static void test_module_qdisc(void)
{
	struct fc_doc_facts f = { .module = false, .port = &P, .nports = 1 };
	const struct fc_doc_finding *x;

	clean(&P);
	P.qdisc = false;
	P.measured = false;
	fc_doctor_free(&R);
	fc_doctor_judge(&f, &R);
	x = fires("no-module", FC_DOC_ERROR, "no flowctl family, dev given");
	ktap_ok(x && x->ifname && !strcmp(x->ifname, "veth0") &&
		!strcmp(x->fix, "modprobe flowctl"), "no-module: the device named, modprobe");
	quiet("no-qdisc", "without the module the qdisc cannot be asked about");
	KTAP_EQ_U64(fc_doctor_status(&R), EXIT_FOUND, "no-module: exit status 3");

	f.all = true;
	f.nports = 0;
	fc_doctor_free(&R);
	fc_doctor_judge(&f, &R);
	x = fires("no-module", FC_DOC_ERROR, "no flowctl family, every port asked for");
	ktap_ok(x && !x->ifname, "no-module without dev: of the namespace");
	quiet("no-ports", "without the module there is no dump to be empty");

	f.module = true;
	fc_doctor_free(&R);
	fc_doctor_judge(&f, &R);
	x = fires("no-ports", FC_DOC_WARNING, "module loaded, the dump lists nothing");
	quiet("no-module", "the family exists");
	f.nports = 1;
	P.qdisc = true;
	fc_doctor_free(&R);
	fc_doctor_judge(&f, &R);
	quiet("no-ports", "one port listed");

	quiet("no-tc-plugin", "where tc looks was not said");
	snprintf(f.tc_plugin_dir, sizeof(f.tc_plugin_dir), "/usr/lib/x86_64-linux-gnu/tc");
	fc_doctor_free(&R);
	fc_doctor_judge(&f, &R);
	x = fires("no-tc-plugin", FC_DOC_WARNING, "q_flowctl.so not where tc looks");
	ktap_ok(x && !x->ifname && has(x, "measured", "/usr/lib/x86_64-linux-gnu/tc, where tc") &&
		has(x, "fix", "flowctl-tools"), "no-tc-plugin: of the namespace, the directory, the package");
	f.tc_lib_dir_env = true;
	fc_doctor_free(&R);
	fc_doctor_judge(&f, &R);
	x = fires("no-tc-plugin", FC_DOC_WARNING, "not in TC_LIB_DIR either");
	ktap_ok(has(x, "measured", "(TC_LIB_DIR)"), "no-tc-plugin: says TC_LIB_DIR was read");
	f.tc_plugin = true;
	fc_doctor_free(&R);
	fc_doctor_judge(&f, &R);
	quiet("no-tc-plugin", "q_flowctl.so is there");
	f.tc_plugin_dir[0] = '\0';
	f.tc_plugin = f.tc_lib_dir_env = false;

	clean(&P);
	P.qdisc = false;
	P.measured = false;
	judge();
	x = fires("no-qdisc", FC_DOC_ERROR, "module loaded, DEV_GET says no qdisc");
	ktap_ok(has(x, "fix", "tc qdisc add dev veth0 root flowctl"), "no-qdisc: the tc command");
	clean(&P);
	judge();
	quiet("no-qdisc", "the qdisc is there");
}

static void test_mac_pause(void)
{
	const struct fc_doc_finding *x;

	clean(&P);
	P.nic.pause_rx = true;
	judge();
	x = fires("hw-pause-on", FC_DOC_ERROR, "PAUSE_GET rx on");
	ktap_ok(has(x, "fix", "ethtool -A veth0 autoneg off rx off tx off") &&
		has(x, "read", "rx on, tx off"), "hw-pause-on: what was read, the ethtool command");
	clean(&P);
	P.nic.pause_tx = true;
	judge();
	fires("hw-pause-on", FC_DOC_ERROR, "PAUSE_GET tx on");
	clean(&P);
	P.nic.pause_autoneg = true;
	judge();
	quiet("hw-pause-on", "autoneg on, rx and tx off");
	quiet("hw-pause-unsupported", "PAUSE_GET answered");

	clean(&P);
	P.nic.pause_err = EOPNOTSUPP;
	judge();
	x = fires("hw-pause-unsupported", FC_DOC_INFO, "PAUSE_GET EOPNOTSUPP (veth)");
	ktap_ok(x && !x->fix[0], "hw-pause-unsupported: nothing to fix");
	quiet("hw-pause-on", "no MAC flow control");
	KTAP_EQ_U64(fc_doctor_status(&R), EXIT_OK, "an info alone: exit status 0");
	clean(&P);
	P.nic.pause_err = EPERM;
	judge();
	quiet("hw-pause-unsupported", "PAUSE_GET refused for another reason");
	x = fires("not-read", FC_DOC_INFO, "PAUSE_GET EPERM");
	ktap_ok(has(x, "read", "ETHTOOL_MSG_PAUSE_GET: Operation not permitted"),
		"not-read: the request and its error");

	/* The MAC counted PAUSE frames; flowctl saw none. */
	clean(&P);
	P.nic.have_rx_frames[0] = P.nic.have_rx_frames[1] = true;
	P.nic.rx_frames[0] = 100;
	P.nic.rx_frames[1] = 105;
	judge();
	x = fires("mac-consumes-pause", FC_DOC_ERROR, "MAC rx frames +5, flowctl rx +0");
	ktap_ok(has(x, "read", "received 5 PAUSE frames in 1 s"), "mac-consumes-pause: the count and the interval");
	STAT(P.after, RX_PAUSE) = 5;
	judge();
	quiet("mac-consumes-pause", "flowctl received them too (rx_pause +5)");
	STAT(P.after, RX_PAUSE) = 0;
	P.nic.have_rx_frames[1] = false;
	judge();
	quiet("mac-consumes-pause", "the second reading has no MAC counter");
	P.nic.have_rx_frames[1] = true;
	P.measured = false;
	judge();
	quiet("mac-consumes-pause", "not measured");
	clean(&P);
	P.nic.have_rx_frames[0] = P.nic.have_rx_frames[1] = true;
	P.nic.rx_frames[0] = P.nic.rx_frames[1] = 100;
	judge();
	quiet("mac-consumes-pause", "the MAC counter did not grow");
}

static void test_features_dcb(void)
{
	const struct fc_doc_finding *x;

	clean(&P);
	P.nic.rx_all_offered = true;
	judge();
	x = fires("rx-all-off", FC_DOC_WARNING, "offered and off");
	ktap_ok(has(x, "fix", "ethtool -K veth0 rx-all on"), "rx-all-off: the ethtool command");
	P.nic.rx_all_on = true;
	judge();
	quiet("rx-all-off", "offered and on");
	clean(&P);
	judge();
	quiet("rx-all-off", "off but fixed (veth)");
	P.nic.rx_all_offered = true;
	P.nic.features_err = EOPNOTSUPP;
	judge();
	quiet("rx-all-off", "FEATURES_GET not answered");
	clean(&P);
	P.nic.rx_all_offered = true;
	STAT(P.after, RX_PFC) = 3;
	judge();
	quiet("rx-all-off", "offered and off, but PFC frames reached flowctl");
	P.measured = false;
	judge();
	fires("rx-all-off", FC_DOC_WARNING, "offered and off, nothing measured");

	clean(&P);
	P.nic.dcb_pfc_err = 0;
	P.nic.have_pfc = true;
	P.nic.pfc_cap = 8;
	P.nic.pfc_en = 0x18;
	judge();
	x = fires("nic-pfc", FC_DOC_WARNING, "ieee_pfc pfc_en 0x18");
	ktap_ok(has(x, "read", "pfc_en 0x18 (priorities 3,4)") &&
		has(x, "fix", "dcb pfc set dev veth0 prio-pfc all:off"), "nic-pfc: the priorities, the dcb command");
	P.nic.pfc_en = 0;
	judge();
	quiet("nic-pfc", "ieee_pfc pfc_en 0");
	P.nic.pfc_en = 0x18;
	P.nic.dcb_pfc_err = EOPNOTSUPP;
	judge();
	quiet("nic-pfc", "no dcbnl ops (EOPNOTSUPP)");
	quiet("not-read", "EOPNOTSUPP is an answer, not a failure");

	clean(&P);
	P.nic.dcbx_err = 0;
	P.nic.dcbx = DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE;
	judge();
	x = fires("nic-dcbx-firmware", FC_DOC_WARNING, "GDCBX 0x0a");
	ktap_ok(has(x, "fix", "dcb dcbx set dev veth0 host ieee"), "nic-dcbx-firmware: the dcb command");
	P.nic.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	judge();
	quiet("nic-dcbx-firmware", "GDCBX 0x09 (host)");
}

static void test_link(void)
{
	const struct fc_doc_finding *x;

	clean(&P);
	P.nic.speed_mbps = 100;
	P.nic.duplex = FC_DOC_DUPLEX_HALF;
	CFG(P.after, SPEED_MBPS) = 0;
	CFG(P.after, SPEED_SOURCE) = FLOWCTL_SPEED_SRC_NONE;
	judge();
	x = fires("half-duplex", FC_DOC_ERROR, "LINKMODES_GET duplex half");
	ktap_ok(has(x, "read", "100Mb/s half duplex") &&
		has(x, "fix", "ethtool -s veth0 speed 100 duplex full autoneg off"),
		"half-duplex: what was read, the ethtool command");
	x = fires("no-speed", FC_DOC_WARNING, "flowctl has no speed on a half-duplex link");
	ktap_ok(has(x, "fix", "duplex full"), "no-speed on half duplex: the fix is full duplex");
	{
		size_t k;

		for (k = 1; k < R.n; k++)
			if (R.f[k].severity > R.f[k - 1].severity)
				break;
		ktap_ok(R.n >= 2 && R.f[0].severity == FC_DOC_ERROR && k == R.n,
			"errors come first, then by severity");
	}
	clean(&P);
	CFG(P.after, SPEED_MBPS) = 0;
	CFG(P.after, SPEED_SOURCE) = FLOWCTL_SPEED_SRC_NONE;
	CFG(P.after, MODE) = FLOWCTL_MODE_OFF;
	judge();
	quiet("no-speed", "mode off honors and sends no pause");
	CFG(P.after, MODE) = FLOWCTL_MODE_PAUSE;
	CFG(P.after, RX) = 0;
	CFG(P.after, TX) = 0;
	judge();
	quiet("no-speed", "rx and tx off");
	CFG(P.after, TX) = 1;
	judge();
	fires("no-speed", FC_DOC_WARNING, "tx on without a speed");
	clean(&P);
	judge();
	quiet("half-duplex", "full duplex");
	P.nic.duplex = FC_DOC_DUPLEX_UNKNOWN;
	judge();
	quiet("half-duplex", "duplex unknown (no link)");

	clean(&P);
	CFG(P.after, SPEED_MBPS) = 1000;
	CFG(P.after, SPEED_SOURCE) = FLOWCTL_SPEED_SRC_CONFIG;
	judge();
	x = fires("speed-mismatch", FC_DOC_WARNING, "speed 1000 (config) on a 10 Gb/s link");
	ktap_ok(has(x, "read", "speed 1Gb/s (speed_source config); the link: 10Gb/s") &&
		has(x, "fix", "flowctl set dev veth0 speed auto"), "speed-mismatch: both speeds, speed auto");
	CFG(P.after, SPEED_MBPS) = 10000;
	judge();
	quiet("speed-mismatch", "configured as the link's");
	CFG(P.after, SPEED_MBPS) = 1000;
	CFG(P.after, SPEED_SOURCE) = FLOWCTL_SPEED_SRC_RATE;
	judge();
	quiet("speed-mismatch", "from the shaper's rate, not config");
	CFG(P.after, SPEED_SOURCE) = FLOWCTL_SPEED_SRC_CONFIG;
	P.nic.speed_mbps = 0;
	judge();
	quiet("speed-mismatch", "the link's speed unknown");

	clean(&P);
	CFG(P.after, SPEED_MBPS) = 0;
	CFG(P.after, SPEED_SOURCE) = FLOWCTL_SPEED_SRC_NONE;
	P.nic.linkmodes_err = EOPNOTSUPP;
	judge();
	x = fires("no-speed", FC_DOC_WARNING, "speed_mbps 0, LINKMODES_GET unsupported (dummy)");
	ktap_ok(has(x, "read", "speed_source none") &&
		has(x, "fix", "flowctl set dev veth0 speed SPEED"), "no-speed: the source, set a speed");
	P.nic.linkmodes_err = 0;
	P.nic.speed_mbps = 25000;
	judge();
	x = find("no-speed");
	ktap_ok(has(x, "fix", "flowctl set dev veth0 speed 25000"), "no-speed: the link's speed when known");
	clean(&P);
	judge();
	quiet("no-speed", "speed 10000 from ethtool");
}

static void test_partner(void)
{
	const struct fc_doc_finding *x;

	clean(&P);
	STAT(P.before, PARTNER_IGNORED) = 10;
	STAT(P.after, PARTNER_IGNORED) = 1530;
	PRIO(P.after, 0, PARTNER_IGNORED) = 1520;
	STAT(P.after, TX_PAUSE) = 12;
	judge();
	x = fires("partner-ignored", FC_DOC_ERROR, "partner_ignored +1520");
	ktap_ok(has(x, "read", "partner_ignored +1520 in 1 s (prio 0 +1520); we sent tx_pause +12") &&
		has(x, "fix", "flowctl set dev PEER mode pause rx on"),
		"partner-ignored: the growth, what we sent, the partner's fix");
	KTAP_EQ_U64(fc_doctor_status(&R), EXIT_FOUND, "partner-ignored: exit status 3");
	CFG(P.after, MODE) = FLOWCTL_MODE_PFC;
	CFG(P.after, PFC_PRIOS) = 0x08;
	judge();
	x = find("partner-ignored");
	ktap_ok(has(x, "fix", "mode pfc pfc-prios 3 rx on") &&
		has(x, "fix", "dcb pfc set dev PEER prio-pfc 3:on)"), "partner-ignored in PFC: the priorities");
	CFG(P.after, PFC_PRIOS) = 0x18;
	judge();
	x = find("partner-ignored");
	ktap_ok(has(x, "fix", "pfc-prios 3,4 rx on") &&
		has(x, "fix", "dcb pfc set dev PEER prio-pfc 3:on 4:on)"),
		"partner-ignored in PFC: dcb takes one PRIO:on a priority");
	CFG(P.after, PFC_PRIOS) = 0x08;
	STAT(P.after, PARTNER_IGNORED) = 10;
	judge();
	quiet("partner-ignored", "partner_ignored unchanged at 10");
	STAT(P.after, PARTNER_IGNORED) = 5;
	judge();
	fires("partner-ignored", FC_DOC_ERROR, "reset from 10, then 5 more");
	P.measured = false;
	judge();
	quiet("partner-ignored", "not measured");
}

static void test_rx_ignored(void)
{
	const struct fc_doc_finding *x;

	/* mode pause; the partner sends PFC for priority 3 */
	clean(&P);
	STAT(P.after, RX_PFC) = 40;
	STAT(P.after, RX_IGNORED) = 40;
	PRIO(P.after, 3, RX_PFC) = 40;
	judge();
	x = fires("rx-ignored", FC_DOC_WARNING, "PFC into mode pause");
	ktap_ok(has(x, "read", "rx_ignored +40 in 1 s; arrived: PAUSE +0 (of them XON +0), PFC +40 (prio 3 +40); this port: mode pause, rx on") &&
		has(x, "fix", "flowctl set dev veth0 mode pfc pfc-prios 3 rx on"),
		"rx-ignored: what arrived, our mode, mode pfc for the priorities seen");
	STAT(P.after, RX_IGNORED) = 0;
	judge();
	quiet("rx-ignored", "rx_ignored did not grow");

	/* mode pfc; the partner sends PAUSE */
	clean(&P);
	CFG(P.after, MODE) = FLOWCTL_MODE_PFC;
	CFG(P.after, PFC_PRIOS) = 0x08;
	STAT(P.after, RX_PAUSE) = 7;
	STAT(P.after, RX_IGNORED) = 7;
	judge();
	x = fires("rx-ignored", FC_DOC_WARNING, "PAUSE into mode pfc");
	ktap_ok(has(x, "read", "mode pfc, rx on, pfc-prios 3") &&
		has(x, "fix", "flowctl set dev veth0 mode pause rx on"), "rx-ignored: mode pause");

	/* mode pfc on 3; PFC for 4 */
	clean(&P);
	CFG(P.after, MODE) = FLOWCTL_MODE_PFC;
	CFG(P.after, PFC_PRIOS) = 0x08;
	STAT(P.after, RX_PFC) = 9;
	STAT(P.after, RX_IGNORED) = 9;
	PRIO(P.after, 4, RX_PFC) = 9;
	judge();
	x = find("rx-ignored");
	ktap_ok(has(x, "fix", "flowctl set dev veth0 pfc-prios 3,4"), "rx-ignored: pfc-prios mismatch");

	/* rx off */
	clean(&P);
	CFG(P.after, RX) = 0;
	STAT(P.after, RX_PAUSE) = 3;
	STAT(P.after, RX_IGNORED) = 3;
	judge();
	x = find("rx-ignored");
	ktap_ok(has(x, "read", "rx off") && has(x, "fix", "flowctl set dev veth0 rx on"),
		"rx-ignored: rx off");
}

static void test_storm_malformed(void)
{
	const struct fc_doc_finding *x;
	int i;

	clean(&P);
	CFG(P.after, MODE) = FLOWCTL_MODE_PFC;
	CFG(P.after, PFC_PRIOS) = 0x18;
	PRIO(P.before, 3, PAUSED_NS_TOTAL) = 5 * SEC;
	PRIO(P.after, 3, PAUSED_NS_TOTAL) = 5 * SEC + 950000000ULL;
	PRIO(P.after, 3, RX_PFC) = 1;
	judge();
	quiet("pause-storm", "priority 3 paused 95% of the interval by one XOFF");
	PRIO(P.after, 3, RX_PFC) = 6;
	PRIO(P.after, 3, RX_PFC_XON) = 5;
	judge();
	quiet("pause-storm", "six PFC frames naming 3, five of them XON");
	PRIO(P.after, 3, RX_PFC_XON) = 0;
	judge();
	x = fires("pause-storm", FC_DOC_WARNING, "priority 3 paused 95% of the interval, 6 XOFF");
	ktap_ok(has(x, "read", "priority 3 paused up to 95% of the interval") &&
		has(x, "fix", "flowctl set dev veth0 pfc-prios 4"), "pause-storm: the share, pfc-prios without 3");
	PRIO(P.after, 3, PAUSED_NS_TOTAL) = 5 * SEC + 899000000ULL;
	judge();
	quiet("pause-storm", "paused 89.9% of the interval");
	clean(&P);
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
		PRIO(P.after, i, PAUSED_NS_TOTAL) = SEC;
	STAT(P.after, RX_PAUSE) = 1;
	judge();
	quiet("pause-storm", "mode pause: one PAUSE held every priority the whole interval");
	STAT(P.after, RX_PAUSE) = 2;
	judge();
	x = fires("pause-storm", FC_DOC_WARNING, "mode pause: every priority paused the whole interval");
	ktap_ok(has(x, "read", "priorities 0-7 paused up to 100%") &&
		has(x, "fix", "flowctl set dev veth0 rx off"), "pause-storm in mode pause: rx off");

	clean(&P);
	STAT(P.after, RX_MALFORMED) = 1;
	judge();
	x = fires("malformed", FC_DOC_WARNING, "rx_malformed +1");
	ktap_ok(has(x, "fix", "tcpdump -i veth0 -nn -e ether proto 0x8808"), "malformed: tcpdump");
	clean(&P);
	STAT(P.after, RX_UNSUPPORTED) = 2;
	judge();
	fires("malformed", FC_DOC_WARNING, "rx_unsupported +2");
	clean(&P);
	STAT(P.before, RX_MALFORMED) = STAT(P.after, RX_MALFORMED) = 4;
	judge();
	quiet("malformed", "rx_malformed unchanged");
}

static void test_who_paused(void)
{
	const struct fc_doc_finding *x;

	clean(&P);
	STAT(P.after, RX_PAUSE) = 3;
	PRIO(P.after, 0, PAUSED_NS_TOTAL) = 400000000ULL;
	judge();
	x = fires("paused-by-partner", FC_DOC_INFO, "rx_pause +3");
	ktap_ok(has(x, "read", "PAUSE +3, PFC +0; paused up to 40% of the interval"),
		"paused-by-partner: frames and paused share");
	KTAP_EQ_U64(fc_doctor_status(&R), EXIT_OK, "paused-by-partner alone: exit status 0");
	clean(&P);
	CFG(P.after, MODE) = FLOWCTL_MODE_PFC;
	STAT(P.after, RX_PFC) = 4;
	PRIO(P.after, 3, RX_PFC) = 4;
	PRIO(P.after, 3, RX_PFC_XON) = 1;
	PRIO(P.after, 3, PAUSED_NS_TOTAL) = 1000000ULL;
	judge();
	x = fires("paused-by-partner", FC_DOC_INFO, "prio 3: 4 PFC, 1 of them XON");
	ktap_ok(has(x, "read", "PFC +3 (prio 3 +3); paused up to 0% of the interval"),
		"paused-by-partner: PFC XOFF per priority");
	PRIO(P.after, 3, PAUSED_NS_TOTAL) = 0;
	judge();
	quiet("paused-by-partner", "XOFF arrived but held nothing (ignored)");
	clean(&P);
	STAT(P.after, RX_XON) = 5;
	PRIO(P.after, 2, RX_PFC) = 2;
	PRIO(P.after, 2, RX_PFC_XON) = 2;
	/* Paused time from before (a pause the XON ended): the XON is what
	 * must not count as an XOFF.
	 */
	PRIO(P.after, 2, PAUSED_NS_TOTAL) = 300000000ULL;
	judge();
	quiet("paused-by-partner", "only XON arrived");

	clean(&P);
	STAT(P.after, TX_PAUSE) = 2;
	judge();
	x = fires("pausing-partner", FC_DOC_INFO, "tx_pause +2");
	ktap_ok(has(x, "fix", "flowctl watch dev veth0"), "pausing-partner: watch it");
	clean(&P);
	/* A priority's tx_pfc counts its XOFF, tx_pfc_xon its XON. */
	PRIO(P.after, 5, TX_PFC) = 6;
	PRIO(P.after, 5, TX_PFC_XON) = 2;
	judge();
	x = fires("pausing-partner", FC_DOC_INFO, "prio 5: 6 PFC XOFF sent, 2 XON");
	ktap_ok(has(x, "read", "PFC +6 (prio 5 +6)"), "pausing-partner: PFC XOFF per priority");
	clean(&P);
	PRIO(P.after, 2, TX_PFC) = 1;
	PRIO(P.after, 2, TX_PFC_XON) = 1;
	judge();
	fires("pausing-partner", FC_DOC_INFO, "one XOFF, then its XON");
	clean(&P);
	STAT(P.after, TX_XON) = 2;
	PRIO(P.after, 4, TX_PFC_XON) = 3;
	judge();
	quiet("pausing-partner", "only XON sent");
}

/* Every finding there is, for the output checks. */
static void everything(struct fc_doc_port *p, struct fc_doc_port *q)
{
	clean(p);
	p->nic.pause_rx = true;
	p->nic.have_rx_frames[0] = p->nic.have_rx_frames[1] = true;
	p->nic.have_tx_frames[0] = p->nic.have_tx_frames[1] = true;
	p->nic.rx_frames[1] = 9;
	p->nic.tx_frames[1] = 2;
	p->nic.rx_all_offered = true;
	p->nic.dcb_pfc_err = 0;
	p->nic.have_pfc = true;
	p->nic.pfc_en = 0x08;
	p->nic.dcbx_err = 0;
	p->nic.dcbx = DCB_CAP_DCBX_LLD_MANAGED;
	p->nic.duplex = FC_DOC_DUPLEX_HALF;
	CFG(p->after, PFC_PRIOS) = 0x08;
	CFG(p->after, SPEED_MBPS) = 1000;
	CFG(p->after, SPEED_SOURCE) = FLOWCTL_SPEED_SRC_CONFIG;
	STAT(p->after, PARTNER_IGNORED) = 100;
	STAT(p->after, RX_IGNORED) = 4;
	STAT(p->after, RX_PFC) = 4;
	PRIO(p->after, 3, RX_PFC) = 4;
	PRIO(p->after, 3, PAUSED_NS_TOTAL) = SEC;
	STAT(p->after, RX_MALFORMED) = 1;
	STAT(p->after, TX_PAUSE) = 3;
	/* Refreshed: two XOFF in the interval make the storm. */
	STAT(p->after, RX_PAUSE) = 2;
	/* One root flowctl in front of four TX queues. */
	p->nic.tx_queues = 4;
	p->flowctl_queues = 1;

	clean(q);
	snprintf(q->ifname, sizeof(q->ifname), "dummy0");
	q->qdisc = false;
	q->measured = false;
	q->nic.linkmodes_err = EOPNOTSUPP;
	q->nic.pause_err = EOPNOTSUPP;
	q->nic.features_err = EPERM;
}

static char *report_text(const struct fc_doc_facts *f, bool json)
{
	char *s = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&s, &n);

	print_init(json, false, out);
	fc_doctor_print(f, &R, SEC);
	fclose(out);
	print_init(false, false, stdout);
	return s;
}

/* The JSON report of R for f, into OUTDIR/name for check_json.py. */
static void save(const char *outdir, const char *name, const struct fc_doc_facts *f)
{
	char path[4096], *j = report_text(f, true);
	FILE *o;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	o = fopen(path, "w");
	ktap_ok(o && j && fputs(j, o) >= 0, "wrote %s", path);
	if (o)
		fclose(o);
	free(j);
}

static void test_output(const char *outdir)
{
	static struct fc_doc_port two[2];
	struct fc_doc_facts f = { .module = true, .all = true, .port = two, .nports = 2 };
	static const char *const ids[] = {
		/* Not rx-all-off: the PFC frames that reached flowctl on
		 * veth0 say they get through (test_features_dcb has it).
		 */
		"hw-pause-on", "nic-pfc", "nic-dcbx-firmware", "half-duplex",
		"speed-mismatch", "partner-ignored", "rx-ignored", "pause-storm",
		"malformed", "paused-by-partner", "pausing-partner", "no-qdisc",
		"hw-pause-unsupported", "not-read", "root-on-multiqueue",
	};
	size_t i;
	char *t;

	everything(&two[0], &two[1]);
	fc_doctor_free(&R);
	fc_doctor_judge(&f, &R);
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		ktap_ok(fc_doctor_find(&R, ids[i], NULL) != NULL, "two ports: %s among the findings", ids[i]);
	for (i = 1; i < R.n; i++)
		if (R.f[i].severity > R.f[i - 1].severity)
			break;
	ktap_ok(i == R.n, "the findings in order of severity");
	KTAP_EQ_U64(R.errors + R.warnings + R.infos, R.n, "errors + warnings + infos = findings");

	t = report_text(&f, false);
	ktap_ok(t && strstr(t, "\nveth0: flowctl mode pause rx on tx on pfc-prios 3 speed 1Gb/s (config)\n"),
		"text: the port and its flowctl configuration");
	ktap_ok(t && strstr(t, "\n  link 10Gb/s, half duplex, autoneg off; TX queues 4 (flowctl on 1); "
			     "MAC pause autoneg off rx on tx off, "
			     "received 9, sent 2; rx-all off; NIC PFC 3; DCBX in the firmware\n"),
		"text: what the driver said");
	ktap_ok(t && strstr(t, "\n  error    partner-ignored: the partner does not honor") &&
		strstr(t, "\n           fix: on the partner:"), "text: a finding under its port, with its fix");
	ktap_ok(t && strstr(t, "\ndummy0: no flowctl qdisc\n  link not reported; MAC pause unsupported; rx-all not read;"),
		"text: a device without a qdisc, what was not reported or read");
	ktap_ok(t && strstr(t, "Measured over 1 s.\n") == t, "text: the interval first");
	if (t)
		printf("# %s", t);
	free(t);

	save(outdir, "doctor.json", &f);

	/* No module, no dev: the namespace's finding, no ports. */
	f.module = false;
	f.nports = 0;
	fc_doctor_free(&R);
	fc_doctor_judge(&f, &R);
	save(outdir, "doctor-nomodule.json", &f);
}

/* One flowctl (the root qdisc) in front of several TX queues. */
static void test_queues(void)
{
	const struct fc_doc_finding *x;

	clean(&P);
	P.flowctl_queues = 1;
	P.nic.tx_queues = 8;
	judge();
	x = fires("root-on-multiqueue", FC_DOC_INFO, "root flowctl, 8 TX queues in use");
	ktap_ok(has(x, "measured", "8 TX queues") && has(x, "fix", "root handle 1: mq") &&
		has(x, "fix", "1:1..1:8"), "root-on-multiqueue: the queues counted, mq the fix");
	KTAP_EQ_U64(fc_doctor_status(&R), EXIT_OK, "root-on-multiqueue alone: exit status 0 (info)");
	P.flowctl_queues = 8;
	judge();
	quiet("root-on-multiqueue", "a flowctl child on each of the 8 queues (mq)");
	P.flowctl_queues = 1;
	P.nic.tx_queues = 1;
	judge();
	quiet("root-on-multiqueue", "one TX queue in use");
	P.nic.tx_queues = 8;
	P.nic.channels_err = EOPNOTSUPP;
	judge();
	quiet("root-on-multiqueue", "CHANNELS_GET unsupported: the queues are not known");
	P.nic.channels_err = 0;
	P.flowctl_queues = 0;
	judge();
	quiet("root-on-multiqueue", "DEV_GET queues not read");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	ktap_begin("flowctl doctor: the rules on synthetic facts");
	test_clean();
	test_module_qdisc();
	test_mac_pause();
	test_features_dcb();
	test_link();
	test_partner();
	test_rx_ignored();
	test_storm_malformed();
	test_who_paused();
	test_queues();
	test_output(argv[1]);
	fc_doctor_free(&R);
	return ktap_finish();
}
