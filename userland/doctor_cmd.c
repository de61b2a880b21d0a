// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl doctor: gather the facts of a port (or of every flowctl port):
 * whether the module and the qdisc are there, what the driver says
 * (nic.c), and the qdisc's counters read twice an interval apart; let
 * fc_doctor_judge() find the pitfalls; print the facts and the findings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/dcbnl.h>

#include "doctor.h"
#include "flowctl.h"
#include "netlink.h"
#include "nic.h"
#include "print.h"
#include "show.h"

void usage_doctor(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j [ -p ] ] doctor [ dev DEV ] [ interval SECONDS ]\n"
		"       flowctl doctor help\n"
		"SECONDS := 0.01 .. 3600, or a time like 500ms (default 1)\n"
		"Looks for the pitfalls of PAUSE/PFC on DEV (with or without a flowctl\n"
		"qdisc), or on every flowctl port of the network namespace: the module\n"
		"and the qdisc; the MAC's own flow control, rx-all, the NIC's own PFC and\n"
		"DCBX (ethtool, dcbnl); the link's duplex and speed against flowctl's;\n"
		"and what the counters did over the interval (the partner ignoring our\n"
		"PAUSE, PAUSE we ignore, pause storms, malformed frames, who paused whom).\n"
		"Each finding has an id, a severity (error, warning, info), what was read\n"
		"or measured, and a fix.\n"
		"Exit status: 0 nothing of severity error or warning was found, 3 something\n"
		"was, 1 the kernel or the system refused, 2 usage error.\n");
}

/* DEV_GET of dev (or all): 0, -EOPNOTSUPP (no qdisc), or EXIT_FAIL said. */
static int read_ports(struct fc_nl *nl, const char *dev, struct fc_dev_list *l)
{
	int err = fc_dev_get(nl, dev, l);

	if (dev && err == -EOPNOTSUPP)
		return err;
	if (!err && dev && l->n != 1)
		err = -ENODEV;
	if (err) {
		fc_nl_perror(nl, err, dev, "doctor", true);
		return EXIT_FAIL;
	}
	return 0;
}

static int no_memory(void)
{
	fprintf(stderr, "flowctl: out of memory\n");
	return EXIT_FAIL;
}

/* The facts of the namespace's flowctl family and of the ports to examine. */
static int first_reading(struct fc_nl *nl, const char *dev, struct fc_doc_facts *f)
{
	struct fc_dev_list l = { 0 };
	size_t i;
	int ret;

	if (!f->module) {
		if (!dev)
			return EXIT_OK;
		f->port = calloc(1, sizeof(*f->port));
		if (!f->port)
			return no_memory();
		f->nports = 1;
		snprintf(f->port[0].ifname, sizeof(f->port[0].ifname), "%s", dev);
		return EXIT_OK;
	}
	ret = read_ports(nl, dev, &l);
	if (ret > 0) {
		fc_dev_list_free(&l);
		return ret;
	}
	fc_dev_list_sort(&l);
	f->nports = dev ? 1 : l.n;
	f->port = calloc(f->nports ? f->nports : 1, sizeof(*f->port));
	if (!f->port) {
		fc_dev_list_free(&l);
		return no_memory();
	}
	if (dev) {
		snprintf(f->port[0].ifname, sizeof(f->port[0].ifname), "%s", dev);
		f->port[0].qdisc = !ret;
		if (!ret)
			f->port[0].before = l.dev[0];
	} else {
		for (i = 0; i < l.n; i++) {
			struct fc_doc_port *p = &f->port[i];

			p->qdisc = true;
			p->before = l.dev[i];
			if (FC_HAS(l.dev[i].have, FLOWCTL_A_DEV_IFNAME))
				snprintf(p->ifname, sizeof(p->ifname), "%s", l.dev[i].ifname);
			else if (!if_indextoname((unsigned int)l.dev[i].v[FLOWCTL_A_DEV_IFINDEX],
						 p->ifname))
				snprintf(p->ifname, sizeof(p->ifname), "?");
		}
	}
	fc_dev_list_free(&l);
	return EXIT_OK;
}

/* How many TX queues have a flowctl (DEV_GET queues): 0 when not read. */
static unsigned int flowctl_queues(struct fc_nl *nl, const char *dev)
{
	struct fc_dev_list l = { 0 };
	unsigned int n = 0;

	if (!fc_dev_get_queues(nl, dev, &l) && l.n == 1)
		n = l.dev[0].nqueues;
	fc_dev_list_free(&l);
	return n;
}

/* The ports' counters again; a port gone since the first reading is not measured. */
static int second_reading(struct fc_nl *nl, const char *dev, struct fc_doc_facts *f,
			  uint64_t elapsed_ns)
{
	struct fc_dev_list l = { 0 };
	size_t i, k;
	int ret = read_ports(nl, dev, &l);

	if (ret > 0) {
		fc_dev_list_free(&l);
		return ret;
	}
	for (i = 0; i < f->nports; i++) {
		struct fc_doc_port *p = &f->port[i];

		for (k = 0; k < l.n && p->qdisc; k++) {
			if (l.dev[k].v[FLOWCTL_A_DEV_IFINDEX] !=
			    p->before.v[FLOWCTL_A_DEV_IFINDEX])
				continue;
			p->after = l.dev[k];
			p->measured = true;
			p->elapsed_ns = elapsed_ns;
		}
		/* No second reading: judge the configuration of the first. */
		if (!p->measured)
			p->after = p->before;
	}
	fc_dev_list_free(&l);
	return EXIT_OK;
}

static void sleep_until(uint64_t when_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(when_ns / 1000000000ULL),
		.tv_nsec = (long)(when_ns % 1000000000ULL),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Where tc looks for q_flowctl.so: TC_LIB_DIR, else its build's LIBDIR/tc. */
static void tc_plugin(struct fc_doc_facts *f)
{
	const char *env = getenv("TC_LIB_DIR");
	char path[sizeof(f->tc_plugin_dir) + 16];

	f->tc_lib_dir_env = env && *env;
	snprintf(f->tc_plugin_dir, sizeof(f->tc_plugin_dir), "%s",
		 f->tc_lib_dir_env ? env : FLOWCTL_TC_LIBDIR);
	snprintf(path, sizeof(path), "%s/q_flowctl.so", f->tc_plugin_dir);
	f->tc_plugin = !access(path, R_OK);
}

static int gather(const char *dev, uint64_t interval_ns, struct fc_doc_facts *f)
{
	struct fc_nic_socks nic;
	struct fc_nl nl;
	bool any = false;
	uint64_t t0 = 0;
	char t[FMT_LEN];
	size_t i;
	int ret, err;

	tc_plugin(f);
	ret = fc_nl_open_bus(&nl, NETLINK_GENERIC);
	if (!ret) {
		err = fc_nl_resolve(&nl, FLOWCTL_FAMILY_NAME);
		f->module = err != -ENOENT;
		if (f->module)
			ret = fc_nl_family_said(&nl, err);
	}
	/* The interval starts before flowctl's first reading and ends after
	 * its second, and the MAC's two readings lie within it: a frame the
	 * MAC counted in its window was counted by flowctl in its own (or is
	 * still on its way), and a share of the interval is never over 100%.
	 */
	t0 = fc_mono_ns();
	if (!ret)
		ret = first_reading(&nl, dev, f);
	if (ret) {
		fc_nl_close(&nl);
		return ret;
	}
	fc_nic_open(&nic);
	for (i = 0; i < f->nports; i++) {
		fc_nic_read(&nic, f->port[i].ifname, &f->port[i].nic);
		any |= f->port[i].qdisc;
		if (f->port[i].qdisc)
			f->port[i].flowctl_queues = flowctl_queues(&nl, f->port[i].ifname);
	}
	/* Growth needs a flowctl port to read twice. */
	if (any) {
		if (!is_json())
			fprintf(stderr, "measuring for %s...\n",
				fmt_ns(t, sizeof(t), interval_ns, false));
		sleep_until(t0 + interval_ns);
		for (i = 0; i < f->nports; i++)
			if (!f->port[i].nic.pause_err)
				fc_nic_read_pause(&nic, f->port[i].ifname, &f->port[i].nic, 1);
		ret = second_reading(&nl, dev, f, fc_mono_ns() - t0);
	}
	fc_nic_close(&nic);
	fc_nl_close(&nl);
	return ret;
}

static const char *duplex_name(enum fc_doc_duplex d)
{
	switch (d) {
	case FC_DOC_DUPLEX_HALF:
		return "half";
	case FC_DOC_DUPLEX_FULL:
		return "full";
	case FC_DOC_DUPLEX_UNKNOWN:
		break;
	}
	return "unknown";
}

/* The qdisc's configuration that the rules read. */
static void print_qdisc(const struct fc_doc_facts *f, const struct fc_doc_port *p)
{
	const struct fc_dev *d = &p->after;
	char buf[FMT_LEN];
	const char *s;

	if (!f->module) {
		print_text(" flowctl module not loaded");
		return;
	}
	print_bool(PRINT_JSON, "qdisc", NULL, p->qdisc);
	if (!p->qdisc) {
		print_text(" no flowctl qdisc");
		return;
	}
	print_text(" flowctl");
	if (FC_HAS(d->have, FLOWCTL_A_DEV_MODE)) {
		s = fc_mode_name(d->v[FLOWCTL_A_DEV_MODE]);
		print_string(PRINT_ANY, "mode", " mode %s", s ? s : "?");
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_RX))
		print_on_off(PRINT_ANY, "rx", " rx %s", d->v[FLOWCTL_A_DEV_RX] != 0);
	if (FC_HAS(d->have, FLOWCTL_A_DEV_TX))
		print_on_off(PRINT_ANY, "tx", " tx %s", d->v[FLOWCTL_A_DEV_TX] != 0);
	if (FC_HAS(d->have, FLOWCTL_A_DEV_PFC_PRIOS))
		fc_print_prios(PRINT_ANY, "pfc_prios", " pfc-prios %s",
			       (unsigned int)d->v[FLOWCTL_A_DEV_PFC_PRIOS]);
	if (FC_HAS(d->have, FLOWCTL_A_DEV_SPEED_MBPS))
		print_u64_as(PRINT_ANY, "speed_mbps", " speed %s", d->v[FLOWCTL_A_DEV_SPEED_MBPS],
			     d->v[FLOWCTL_A_DEV_SPEED_MBPS] ?
			     fmt_speed(buf, sizeof(buf), d->v[FLOWCTL_A_DEV_SPEED_MBPS]) : "none");
	if (FC_HAS(d->have, FLOWCTL_A_DEV_SPEED_SOURCE)) {
		s = fc_speed_source_name(d->v[FLOWCTL_A_DEV_SPEED_SOURCE]);
		print_string(PRINT_ANY, "speed_source", " (%s)", s ? s : "?");
	}
}

/* A counter of the MAC over the interval, if both readings had it. */
static void print_mac_frames(const struct fc_doc_port *p, int dir, const char *key,
			     const char *fmt)
{
	const struct fc_doc_nic *n = &p->nic;
	const bool *have = dir ? n->have_tx_frames : n->have_rx_frames;
	const uint64_t *v = dir ? n->tx_frames : n->rx_frames;

	if (p->measured && have[0] && have[1])
		print_u64(PRINT_ANY, key, fmt, fc_growth(v[0], v[1], true, true));
}

/* What the driver said; "unsupported" lists what it has none of. */
static void print_nic(const struct fc_doc_port *p)
{
	const struct fc_doc_nic *n = &p->nic;
	char buf[FMT_LEN];

	print_text("\n  ");
	if (!n->linkmodes_err) {
		print_u64_as(PRINT_ANY, "link_speed_mbps", "link %s", n->speed_mbps,
			     n->speed_mbps ? fmt_speed(buf, sizeof(buf), n->speed_mbps) :
			     "speed unknown");
		print_string(PRINT_ANY, "link_duplex",
			     n->duplex == FC_DOC_DUPLEX_UNKNOWN ? ", duplex %s" : ", %s duplex",
			     duplex_name(n->duplex));
		print_on_off(PRINT_ANY, "link_autoneg", ", autoneg %s", n->autoneg);
	} else {
		print_text("link %s", n->linkmodes_err == EOPNOTSUPP ? "not reported" : "not read");
	}
	if (!n->channels_err && n->tx_queues)
		print_u64(PRINT_ANY, "tx_queues", "; TX queues %s", n->tx_queues);
	if (p->flowctl_queues)
		print_u64(PRINT_ANY, "flowctl_queues", " (flowctl on %s)", p->flowctl_queues);
	print_text("; MAC pause");
	if (!n->pause_err) {
		print_on_off(PRINT_ANY, "mac_pause_autoneg", " autoneg %s", n->pause_autoneg);
		print_on_off(PRINT_ANY, "mac_pause_rx", " rx %s", n->pause_rx);
		print_on_off(PRINT_ANY, "mac_pause_tx", " tx %s", n->pause_tx);
		print_mac_frames(p, 0, "mac_rx_pause_frames", ", received %s");
		print_mac_frames(p, 1, "mac_tx_pause_frames", ", sent %s");
	} else {
		print_text(" %s", n->pause_err == EOPNOTSUPP ? "unsupported" : "not read");
	}
	print_text("; rx-all");
	if (!n->features_err) {
		print_on_off(PRINT_ANY, "rx_all", " %s", n->rx_all_on);
		print_bool(PRINT_JSON, "rx_all_fixed", NULL, !n->rx_all_offered);
		print_text("%s", n->rx_all_offered ? "" : " (fixed)");
	} else {
		print_text(" not read");
	}
	print_text("; NIC PFC");
	if (!n->dcb_pfc_err && n->have_pfc)
		fc_print_prios(PRINT_ANY, "nic_pfc_enable", " %s", n->pfc_en);
	else
		print_text(" %s", n->dcb_pfc_err == EOPNOTSUPP ? "unsupported" :
			   n->dcb_pfc_err ? "not read" : "not reported");
	print_text("; DCBX");
	if (!n->dcbx_err) {
		bool fw = n->dcbx & DCB_CAP_DCBX_LLD_MANAGED;

		print_bool(PRINT_JSON, "dcbx_lld_managed", NULL, fw);
		print_text(" in the %s", fw ? "firmware" : "host");
	} else {
		print_text(" %s", n->dcbx_err == EOPNOTSUPP ? "unsupported" : "not read");
	}

	open_json_array("unsupported");
	if (n->linkmodes_err == EOPNOTSUPP)
		print_string(PRINT_JSON, NULL, NULL, "ETHTOOL_MSG_LINKMODES_GET");
	if (n->pause_err == EOPNOTSUPP)
		print_string(PRINT_JSON, NULL, NULL, "ETHTOOL_MSG_PAUSE_GET");
	if (n->features_err == EOPNOTSUPP)
		print_string(PRINT_JSON, NULL, NULL, "ETHTOOL_MSG_FEATURES_GET");
	if (n->dcb_pfc_err == EOPNOTSUPP)
		print_string(PRINT_JSON, NULL, NULL, "DCB_CMD_IEEE_GET");
	if (n->dcbx_err == EOPNOTSUPP)
		print_string(PRINT_JSON, NULL, NULL, "DCB_CMD_GDCBX");
	close_json_array();
	print_nl();
}

static void print_finding(const struct fc_doc_finding *f, const char *indent)
{
	char fmt[32];

	open_json_object(NULL);
	snprintf(fmt, sizeof(fmt), "%s%%-8s ", indent);
	print_string(PRINT_ANY, "severity", fmt, fc_doc_severity_name(f->severity));
	print_string(PRINT_ANY, "id", "%s", f->id);
	if (f->ifname)
		print_string(PRINT_JSON, "ifname", NULL, f->ifname);
	print_string(PRINT_ANY, "meaning", ": %s\n", f->meaning);
	snprintf(fmt, sizeof(fmt), "%s         read: %%s\n", indent);
	print_string(PRINT_ANY, "measured", fmt, f->measured);
	if (f->fix[0]) {
		snprintf(fmt, sizeof(fmt), "%s         fix: %%s\n", indent);
		print_string(PRINT_ANY, "fix", fmt, f->fix);
	}
	close_json_object();
}

/* Text: the findings of ifname (NULL: of the namespace) under it. */
static void print_findings_of(const struct fc_doc_report *r, const char *ifname,
			      const char *indent)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		const char *o = r->f[i].ifname;

		if (ifname ? o && !strcmp(o, ifname) : !o)
			print_finding(&r->f[i], indent);
	}
}

void fc_doctor_print(const struct fc_doc_facts *facts,
		     const struct fc_doc_report *r, uint64_t interval_ns)
{
	char buf[FMT_LEN];
	size_t i;

	open_json_object(NULL);
	print_u64(PRINT_JSON, "interval_ns", NULL, interval_ns);
	for (i = 0; i < facts->nports; i++)
		if (facts->port[i].measured) {
			print_u64(PRINT_JSON, "elapsed_ns", NULL, facts->port[i].elapsed_ns);
			print_text("Measured over %s.\n",
				   fmt_ns(buf, sizeof(buf), facts->port[i].elapsed_ns, false));
			break;
		}
	if (!is_json())
		print_findings_of(r, NULL, "");
	open_json_array("ports");
	for (i = 0; i < facts->nports; i++) {
		const struct fc_doc_port *p = &facts->port[i];

		open_json_object(NULL);
		print_string(PRINT_ANY, "ifname", "%s:", p->ifname);
		print_qdisc(facts, p);
		print_nic(p);
		if (!is_json())
			print_findings_of(r, p->ifname, "  ");
		close_json_object();
	}
	close_json_array();
	open_json_array("findings");
	for (i = 0; is_json() && i < r->n; i++)
		print_finding(&r->f[i], "");
	close_json_array();
	print_u64(PRINT_ANY, "errors", "%s error", r->errors);
	print_text("%s, ", r->errors == 1 ? "" : "s");
	print_u64(PRINT_ANY, "warnings", "%s warning", r->warnings);
	print_text("%s, ", r->warnings == 1 ? "" : "s");
	print_u64(PRINT_ANY, "infos", "%s info", r->infos);
	print_text("%s.\n", r->infos == 1 ? "" : "s");
	close_json_object();
	json_end_document();
}

int cmd_doctor(int argc, char **argv)
{
	uint64_t interval_ns = 1000000000ULL;
	struct fc_doc_facts facts = { 0 };
	struct fc_doc_report r;
	const char *dev = NULL;
	int ret;

	ret = parse_periodic(argc, argv, "doctor", usage_doctor,
			     "seconds 0.01..3600, like 1, 0.5 or 500ms", NULL,
			     &dev, &interval_ns, NULL);
	if (ret >= 0)
		return ret;
	if (dev && !if_nametoindex(dev)) {
		fprintf(stderr, "no such device %s\n", dev);
		return EXIT_FAIL;
	}
	facts.all = !dev;
	ret = gather(dev, interval_ns, &facts);
	if (!ret && fc_doctor_judge(&facts, &r))
		ret = no_memory();
	if (!ret) {
		fc_doctor_print(&facts, &r, interval_ns);
		ret = fc_doctor_status(&r);
		fc_doctor_free(&r);
	}
	free(facts.port);
	return ret;
}
