// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl metrics for synthetic kernel replies: the exposition's lines for
 * a full and a sparse port, and the whole text written to OUTDIR/metrics.prom
 * for test_promtool.sh, where Prometheus' own promtool judges it.
 *
 * usage: test_metrics OUTDIR
 */
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "synth.h"
#include "dev.h"
#include "metrics.h"

static char buf_full[16384] __attribute__((aligned(8)));
static char buf_sparse[4096] __attribute__((aligned(8)));
static char out[65536];

static bool has_line(const char *line)
{
	size_t n = strlen(line);
	const char *p = out;

	while ((p = strstr(p, line))) {
		if ((p == out || p[-1] == '\n') && p[n] == '\n')
			return true;
		p += n;
	}
	return false;
}

static int count_prefix(const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = out;
	int c = 0;

	for (; *p; p = strchr(p, '\n') + 1) {
		if (!strncmp(p, prefix, n))
			c++;
		if (!strchr(p, '\n'))
			break;
	}
	return c;
}

int main(int argc, char **argv)
{
	struct fc_dev_list devs = { 0 };
	char path[4096];
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	ktap_begin("flowctl metrics: Prometheus text exposition");
	devs.cap = 2;
	devs.dev = calloc(2, sizeof(*devs.dev));
	if (!devs.dev)
		return 1;
	ktap_ok(fc_dev_parse(synth_full_dev(buf_full, 1, 0), &devs.dev[0]) == 0 &&
		fc_dev_parse(synth_sparse_dev(buf_sparse, 1, 0), &devs.dev[1]) == 0,
		"parse a full and a sparse DEV_GET reply");
	devs.n = 2;
	fc_dev_list_sort(&devs);

	f = fmemopen(out, sizeof(out) - 1, "w");
	if (!f)
		return 1;
	fc_print_metrics(f, &devs);
	fclose(f);

	ktap_ok(has_line("# TYPE flowctl_pause_frames_total counter"),
		"counter families have TYPE counter");
	ktap_ok(has_line("flowctl_pause_frames_total{device=\"veth0\",dir=\"rx\"} 12") &&
		has_line("flowctl_pause_frames_total{device=\"veth0\",dir=\"tx\"} 0"),
		"PAUSE frames by direction, from the stats nest");
	ktap_ok(has_line("flowctl_pfc_frames_total{device=\"veth0\",dir=\"tx\"} 5"),
		"PFC frames sent");
	ktap_ok(has_line("flowctl_partner_ignored_frames_total{device=\"veth0\"} 4"),
		"partner-ignored frames");
	ktap_ok(has_line("flowctl_paused{device=\"veth0\",prio=\"3\"} 1") &&
		has_line("flowctl_paused{device=\"veth0\",prio=\"4\"} 0"),
		"paused state per priority");
	ktap_ok(has_line("flowctl_paused_seconds_total{device=\"veth0\",prio=\"5\"} 5.000000000"),
		"paused time in seconds (from nanoseconds)");
	ktap_ok(has_line("flowctl_prio_pfc_frames_total{device=\"veth0\",prio=\"2\",dir=\"rx\"} 12") &&
		has_line("flowctl_prio_pfc_frames_total{device=\"veth0\",prio=\"2\",dir=\"tx\"} 32"),
		"PFC frames per priority and direction");
	ktap_ok(has_line("flowctl_bytes_total{device=\"veth0\",prio=\"3\",dir=\"tx\"} 9223372036854775813"),
		"a 64-bit counter printed whole");
	ktap_ok(has_line("flowctl_port_info{device=\"veth0\",mode=\"pfc\",rx=\"on\",tx=\"off\",trust=\"pcp\",speed_source=\"config\",pfc_prios=\"3,4\"} 1"),
		"the configuration as labels of flowctl_port_info");
	ktap_ok(has_line("flowctl_speed_bytes{device=\"eth1\"} 0") &&
		count_prefix("flowctl_pause_frames_total{device=\"eth1\"") == 0 &&
		count_prefix("flowctl_paused{device=\"eth1\"") == 0,
		"a sparse port: what it sent, nothing it did not");
	ktap_ok(count_prefix("# TYPE flowctl_pause_frames_total ") == 1 &&
		count_prefix("# HELP flowctl_prio_pfc_frames_total ") == 1,
		"one HELP and one TYPE per family");
	ktap_ok(count_prefix("flowctl_drops_total{") == 8,
		"eight priorities of drops for the full port");

	ktap_ok(has_line("flowctl_speed_bytes{device=\"veth0\"} 12500000"),
		"the speed in bytes per second, as node_network_speed_bytes (100 Mb/s)");
	{
		/* node_exporter's conventions on every sample: the label device,
		 * base units (no _mbps), rx/tx never in a name (always dir), no
		 * hex mask as a label value.
		 */
		const char *p = out, *bad = NULL;
		int samples = 0;

		for (; *p; p = strchr(p, '\n') + 1) {
			size_t n = strcspn(p, "\n");

			if (*p != '#') {
				samples++;
				if (strncmp(p + strcspn(p, "{"), "{device=\"", 9) ||
				    (strstr(p, "_mbps") && strstr(p, "_mbps") < p + n) ||
				    !strncmp(p, "flowctl_rx_", 11) ||
				    !strncmp(p, "flowctl_tx_", 11) ||
				    (strstr(p, "\"0x") && strstr(p, "\"0x") < p + n))
					bad = p;
			}
			if (bad || !strchr(p, '\n'))
				break;
		}
		ktap_ok(samples > 100 && !bad, "%d samples by node_exporter's conventions%s%.*s",
			samples, bad ? "; not: " : "", bad ? (int)strcspn(bad, "\n") : 0,
			bad ? bad : "");
	}

	snprintf(path, sizeof(path), "%s/metrics.prom", argv[1]);
	f = fopen(path, "w");
	ktap_ok(f && fputs(out, f) >= 0 && fclose(f) == 0, "written to %s", path);
	free(devs.dev);
	return ktap_finish();
}
