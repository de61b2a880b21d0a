// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl metrics: every counter and state of every port of the namespace
 * in the Prometheus text exposition format (version 0.0.4), for
 * node_exporter's textfile collector or any scraper that reads a file.
 *
 * Names follow Prometheus' conventions: flowctl_ prefix, base units
 * (seconds, bytes: the shaper's bit/s is printed in bytes/s), _total on
 * counters; labels dev, prio (0..7) and dir
 * (rx: from the link partner, tx: sent by this port). A family's samples
 * are printed together, after its HELP and TYPE lines; an attribute the
 * kernel did not send is not printed (a newer or older module).
 */
#include <inttypes.h>
#include <string.h>

#include "flowctl.h"
#include "metrics.h"
#include "fmt.h"
#include "show.h"

enum fc_scope { FC_M_DEV, FC_M_STAT, FC_M_PRIO };

/* One sample source; consecutive rows of one name make one family. */
struct fc_metric {
	const char *name;
	const char *type;		/* counter or gauge */
	const char *help;
	enum fc_scope scope;
	int attr;
	const char *dir;		/* the dir label, or NULL */
	unsigned int div;		/* printed as value / div: 10^9 (ns
					 * to s), 1000 (ms to s) or 8 (bit
					 * to byte) */
	unsigned int mul;		/* or value * mul: 125000 (Mb/s to
					 * bytes/s) */
};

#define M(n, t, h, s, a, d) { n, t, h, s, a, d, 1, 1 }

static const struct fc_metric fc_metrics[] = {
	M("flowctl_pause_frames_total", "counter",
	  "Link-level PAUSE frames with a non-zero time (XOFF), received from the partner (rx) or sent by this port (tx).",
	  FC_M_STAT, FLOWCTL_A_STATS_RX_PAUSE, "rx"),
	M("flowctl_pause_frames_total", "counter", NULL,
	  FC_M_STAT, FLOWCTL_A_STATS_TX_PAUSE, "tx"),
	M("flowctl_xon_frames_total", "counter",
	  "Link-level PAUSE frames with time 0 (XON), received (rx) or sent (tx).",
	  FC_M_STAT, FLOWCTL_A_STATS_RX_XON, "rx"),
	M("flowctl_xon_frames_total", "counter", NULL,
	  FC_M_STAT, FLOWCTL_A_STATS_TX_XON, "tx"),
	M("flowctl_pfc_frames_total", "counter",
	  "PFC (802.1Qbb) frames received (rx) or sent (tx).",
	  FC_M_STAT, FLOWCTL_A_STATS_RX_PFC, "rx"),
	M("flowctl_pfc_frames_total", "counter", NULL,
	  FC_M_STAT, FLOWCTL_A_STATS_TX_PFC, "tx"),
	M("flowctl_ignored_frames_total", "counter",
	  "Valid PAUSE/PFC frames received that the mode, rx off or a missing link speed made the port ignore.",
	  FC_M_STAT, FLOWCTL_A_STATS_RX_IGNORED, "rx"),
	M("flowctl_malformed_frames_total", "counter",
	  "MAC Control frames received that were malformed (length, destination, tag).",
	  FC_M_STAT, FLOWCTL_A_STATS_RX_MALFORMED, "rx"),
	M("flowctl_unsupported_frames_total", "counter",
	  "MAC Control frames received with an opcode other than PAUSE or PFC.",
	  FC_M_STAT, FLOWCTL_A_STATS_RX_UNSUPPORTED, "rx"),
	M("flowctl_partner_ignored_frames_total", "counter",
	  "Frames that arrived from the partner past the headroom our XOFF in force left: the partner does not honor our PAUSE/PFC.",
	  FC_M_STAT, FLOWCTL_A_STATS_PARTNER_IGNORED, NULL),
	M("flowctl_events_suppressed_total", "counter",
	  "Pause events not reported on the netlink events group (rate bound).",
	  FC_M_STAT, FLOWCTL_A_STATS_EVENTS_SUPPRESSED, NULL),
	{ "flowctl_speed_bytes", "gauge",
	  "The link speed in bytes per second that converts pause quanta to time, as node_network_speed_bytes (0: none usable).",
	  FC_M_DEV, FLOWCTL_A_DEV_SPEED_MBPS, NULL, 1, 125000 },
	{ "flowctl_rate_bytes_per_second", "gauge",
	  "The port's shaper rate (0: off).",
	  FC_M_DEV, FLOWCTL_A_DEV_RATE, NULL, 8, 1 },
	M("flowctl_band_limit_bytes", "gauge",
	  "The byte limit of each band.",
	  FC_M_DEV, FLOWCTL_A_DEV_LIMIT, NULL),
	M("flowctl_headroom_bytes", "gauge",
	  "Bytes above the XOFF threshold that the partner may still send after our XOFF.",
	  FC_M_DEV, FLOWCTL_A_DEV_HEADROOM, NULL),
	M("flowctl_paused", "gauge",
	  "1 while the partner's PAUSE/PFC holds this priority's band.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_PAUSED, NULL),
	{ "flowctl_paused_seconds_total", "counter",
	  "Time this priority's band was held by the partner's PAUSE/PFC.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_PAUSED_NS_TOTAL, NULL, 1000000000, 1 },
	M("flowctl_pause_episodes_total", "counter",
	  "Pauses of this priority (a refresh in force does not start one).",
	  FC_M_PRIO, FLOWCTL_A_PRIO_PAUSE_EPISODES, NULL),
	M("flowctl_prio_pfc_frames_total", "counter",
	  "PFC frames naming this priority, received (rx) or sent (tx).",
	  FC_M_PRIO, FLOWCTL_A_PRIO_RX_PFC, "rx"),
	M("flowctl_prio_pfc_frames_total", "counter", NULL,
	  FC_M_PRIO, FLOWCTL_A_PRIO_TX_PFC, "tx"),
	M("flowctl_prio_pfc_xon_frames_total", "counter",
	  "PFC frames naming this priority with time 0, received (rx) or sent (tx).",
	  FC_M_PRIO, FLOWCTL_A_PRIO_RX_PFC_XON, "rx"),
	M("flowctl_prio_pfc_xon_frames_total", "counter", NULL,
	  FC_M_PRIO, FLOWCTL_A_PRIO_TX_PFC_XON, "tx"),
	M("flowctl_packets_total", "counter",
	  "Packets this priority's band sent (tx).",
	  FC_M_PRIO, FLOWCTL_A_PRIO_TX_PACKETS, "tx"),
	M("flowctl_bytes_total", "counter",
	  "Bytes this priority's band sent (tx).",
	  FC_M_PRIO, FLOWCTL_A_PRIO_TX_BYTES, "tx"),
	M("flowctl_drops_total", "counter",
	  "Packets this priority's band tail-dropped at its limit.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_DROPS, NULL),
	M("flowctl_backlog_bytes", "gauge",
	  "Bytes queued in this priority's band.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_BACKLOG_BYTES, NULL),
	M("flowctl_backlog_packets", "gauge",
	  "Packets queued in this priority's band.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_BACKLOG_PACKETS, NULL),
	M("flowctl_charge_bytes", "gauge",
	  "Bytes that came in on this port and wait in egress queues, by priority: what XOFF/XON is decided on.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_CHARGE_BYTES, NULL),
	M("flowctl_xoff_threshold_bytes", "gauge",
	  "The charge above which this port sends XOFF for the priority.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_XOFF, NULL),
	M("flowctl_xon_threshold_bytes", "gauge",
	  "The charge below which this port sends XON for the priority.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_XON, NULL),
	M("flowctl_xoff_active", "gauge",
	  "1 while this port's XOFF for the priority is in force.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_XOFF_ACTIVE, NULL),
	M("flowctl_prio_partner_ignored_frames_total", "counter",
	  "Frames of this priority that arrived past the headroom of our XOFF in force.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_PARTNER_IGNORED, NULL),
	{ "flowctl_pause_storm_limit_seconds", "gauge",
	  "The pause-storm guard's limit: the longest our XOFF may hold the partner (tx; 0: off).",
	  FC_M_DEV, FLOWCTL_A_DEV_TX_STORM_MS, "tx", 1000, 1 },
	M("flowctl_pause_storm_warning_events_total", "counter",
	  "Our XOFF held the partner for 85% of the pause-storm guard's limit.",
	  FC_M_STAT, FLOWCTL_A_STATS_TX_STORM_WARNING, "tx"),
	M("flowctl_pause_storm_error_events_total", "counter",
	  "Our XOFF reached the pause-storm guard's limit: XON sent, no XOFF until the charge fell below XON.",
	  FC_M_STAT, FLOWCTL_A_STATS_TX_STORM_ERROR, "tx"),
	M("flowctl_xoff_short_events_total", "counter",
	  "Speed changes under tx on that left our XOFF shorter than its refresh, or left no speed.",
	  FC_M_STAT, FLOWCTL_A_STATS_TX_XOFF_SHORT, "tx"),
	{ "flowctl_watchdog_detection_seconds", "gauge",
	  "The PFC watchdog's detection time (0: the watchdog is off).",
	  FC_M_DEV, FLOWCTL_A_DEV_WD_DETECT_MS, NULL, 1000, 1 },
	M("flowctl_watchdog_stormed", "gauge",
	  "1 while the PFC watchdog holds this priority stormed (its partner kept it paused with packets waiting).",
	  FC_M_PRIO, FLOWCTL_A_PRIO_WD_STATE, NULL),
	M("flowctl_watchdog_storms_total", "counter",
	  "Storms the PFC watchdog detected on this priority.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_WD_STORMS, NULL),
	M("flowctl_watchdog_restored_total", "counter",
	  "Stormed states of this priority the watchdog ended after its restoration time without PAUSE/PFC.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_WD_RESTORED, NULL),
	M("flowctl_watchdog_dropped_packets_total", "counter",
	  "Packets of a stormed priority dropped under action drop: queued or arriving at the band (tx), or arriving on the port (rx).",
	  FC_M_PRIO, FLOWCTL_A_PRIO_WD_TX_DROP, "tx"),
	M("flowctl_watchdog_dropped_packets_total", "counter", NULL,
	  FC_M_PRIO, FLOWCTL_A_PRIO_WD_RX_DROP, "rx"),
	M("flowctl_watchdog_forwarded_packets_total", "counter",
	  "Packets a stormed priority sent under action forward, its partner's pause ignored.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_WD_TX_FORWARD, NULL),
	{ "flowctl_watchdog_stormed_seconds_total", "counter",
	  "Time this priority spent stormed.",
	  FC_M_PRIO, FLOWCTL_A_PRIO_WD_STORMED_NS_TOTAL, NULL, 1000000000, 1 },
};

/* A label value with \, " and newline escaped, as the format requires. */
static void put_label(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*v, f);
	}
}

static void put_sample(FILE *f, const struct fc_metric *m,
		       const struct fc_dev *d, int prio, uint64_t v)
{
	fprintf(f, "%s{device=\"", m->name);
	put_label(f, d->ifname);
	fputc('"', f);
	if (prio >= 0)
		fprintf(f, ",prio=\"%d\"", prio);
	if (m->dir)
		fprintf(f, ",dir=\"%s\"", m->dir);
	if (m->div == 1000000000)
		fprintf(f, "} %" PRIu64 ".%09" PRIu64 "\n", v / m->div,
			v % m->div);
	else if (m->div == 8)
		fprintf(f, "} %" PRIu64 ".%03" PRIu64 "\n", v / 8, v % 8 * 125);
	else if (m->div == 1000)
		fprintf(f, "} %" PRIu64 ".%03" PRIu64 "\n", v / 1000, v % 1000);
	else
		fprintf(f, "} %" PRIu64 "\n", v * m->mul);
}

static void put_rows(FILE *f, const struct fc_metric *m,
		     const struct fc_dev *d)
{
	int p;

	switch (m->scope) {
	case FC_M_DEV:
		if (FC_HAS(d->have, m->attr))
			put_sample(f, m, d, -1, d->v[m->attr]);
		break;
	case FC_M_STAT:
		if (FC_HAS(d->stats_have, m->attr))
			put_sample(f, m, d, -1, d->stats[m->attr]);
		break;
	case FC_M_PRIO:
		for (p = 0; p < FLOWCTL_NUM_PRIOS; p++)
			if (FC_HAS(d->prio[p].have, m->attr))
				put_sample(f, m, d, p, d->prio[p].v[m->attr]);
		break;
	}
}

/* The info family: the configuration as labels, value 1. */
static void put_info(FILE *f, const struct fc_dev_list *l)
{
	const char *s;
	size_t i;

	fputs("# HELP flowctl_port_info A flowctl port and its configuration (labels); always 1.\n"
	      "# TYPE flowctl_port_info gauge\n", f);
	for (i = 0; i < l->n; i++) {
		const struct fc_dev *d = &l->dev[i];

		fputs("flowctl_port_info{device=\"", f);
		put_label(f, d->ifname);
		fputc('"', f);
		s = FC_HAS(d->have, FLOWCTL_A_DEV_MODE) ?
		    fc_mode_name(d->v[FLOWCTL_A_DEV_MODE]) : NULL;
		if (s)
			fprintf(f, ",mode=\"%s\"", s);
		if (FC_HAS(d->have, FLOWCTL_A_DEV_RX))
			fprintf(f, ",rx=\"%s\"", d->v[FLOWCTL_A_DEV_RX] ? "on" : "off");
		if (FC_HAS(d->have, FLOWCTL_A_DEV_TX))
			fprintf(f, ",tx=\"%s\"", d->v[FLOWCTL_A_DEV_TX] ? "on" : "off");
		s = FC_HAS(d->have, FLOWCTL_A_DEV_TRUST) ?
		    fc_trust_name(d->v[FLOWCTL_A_DEV_TRUST]) : NULL;
		if (s)
			fprintf(f, ",trust=\"%s\"", s);
		s = FC_HAS(d->have, FLOWCTL_A_DEV_SPEED_SOURCE) ?
		    fc_speed_source_name(d->v[FLOWCTL_A_DEV_SPEED_SOURCE]) : NULL;
		if (s)
			fprintf(f, ",speed_source=\"%s\"", s);
		if (FC_HAS(d->have, FLOWCTL_A_DEV_PFC_PRIOS)) {
			char prios[FMT_LEN];

			fprintf(f, ",pfc_prios=\"%s\"",
				fmt_prio_list(prios, sizeof(prios),
					      (unsigned int)d->v[FLOWCTL_A_DEV_PFC_PRIOS]));
		}
		fputs("} 1\n", f);
	}
}

void fc_print_metrics(FILE *f, const struct fc_dev_list *l)
{
	size_t i, k, r, j, n = sizeof(fc_metrics) / sizeof(fc_metrics[0]);

	put_info(f, l);
	for (i = 0; i < n; i = k) {
		/* A family: rows i..k-1 share the name; the first has HELP. */
		for (k = i + 1; k < n && !strcmp(fc_metrics[k].name,
						 fc_metrics[i].name); k++)
			;
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fc_metrics[i].name,
			fc_metrics[i].help, fc_metrics[i].name,
			fc_metrics[i].type);
		for (j = 0; j < l->n; j++)
			for (r = i; r < k; r++)
				put_rows(f, &fc_metrics[r], &l->dev[j]);
	}
}

void usage_metrics(FILE *f)
{
	fprintf(f,
		"Usage: flowctl metrics [ dev DEV ]\n"
		"       flowctl metrics help\n"
		"Every counter and state of every flowctl port of this network\n"
		"namespace (or of DEV) in the Prometheus text format, for\n"
		"node_exporter's textfile collector: labels device (as node_network_*\n"
		"have it), prio, dir (rx: from the partner, tx: sent by this port).\n");
}

int cmd_metrics(int argc, char **argv)
{
	struct fc_dev_list l = { 0 };
	const char *dev = NULL;
	bool helped;
	int ret;

	ret = fc_parse_dev_opt(argc, argv, "metrics", &dev, usage_metrics, &helped);
	if (ret || helped)
		return ret;
	ret = fc_dev_fetch(dev, "metrics", &l);
	if (!ret) {
		fc_print_metrics(stdout, &l);
		if (fflush(stdout) || ferror(stdout)) {
			perror("flowctl metrics: write");
			ret = EXIT_FAIL;
		}
	}
	fc_dev_list_free(&l);
	return ret;
}
