// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl watch on synthetic readings: per-interval deltas, a counter
 * reset, and the verdicts at the end, in text (checked here) and JSON
 * (written to OUTDIR/watch.json for check_json.py).
 *
 * usage: test_watch OUTDIR
 */
#include <stdlib.h>
#include <string.h>

#include "ktap.h"
#include "dev.h"
#include "print.h"
#include "watch.h"

#define INTERVALS 6

struct fake {
	int call;	/* 0: the first reading, then one per interval */
};

/*
 * rx_pause +5 every interval (steady); rx_xon reset from 10 to 3 in
 * interval 4 (grew once: bursty); tx_pause +1 in interval 2 (bursty);
 * prio 3 rx_pfc +2 and 4 ms paused every interval (steady); prio 5
 * tx_pfc +1 in intervals 1 and 2, then nothing (bursty).
 */
static int fake_fetch(void *ctx, struct fc_dev *d)
{
	struct fake *f = ctx;
	uint64_t k = (uint64_t)f->call++;
	int p;

	memset(d, 0, sizeof(*d));
	d->have = 1u << FLOWCTL_A_DEV_IFNAME | 1u << FLOWCTL_A_DEV_IFINDEX;
	snprintf(d->ifname, sizeof(d->ifname), "veth0");
	d->stats_have = 1u << FLOWCTL_A_STATS_RX_PAUSE | 1u << FLOWCTL_A_STATS_RX_XON |
			1u << FLOWCTL_A_STATS_TX_PAUSE | 1u << FLOWCTL_A_STATS_TX_XON;
	d->stats[FLOWCTL_A_STATS_RX_PAUSE] = 100 + 5 * k;
	d->stats[FLOWCTL_A_STATS_RX_XON] = k < 4 ? 10 : 3;
	d->stats[FLOWCTL_A_STATS_TX_PAUSE] = k >= 2 ? 1 : 0;
	for (p = 0; p < FLOWCTL_NUM_PRIOS; p++) {
		struct fc_prio *pr = &d->prio[p];

		pr->have = 1u << FLOWCTL_A_PRIO_PRIO | 1u << FLOWCTL_A_PRIO_RX_PFC |
			   1u << FLOWCTL_A_PRIO_TX_PFC | 1u << FLOWCTL_A_PRIO_PAUSED_NS_TOTAL;
		pr->v[FLOWCTL_A_PRIO_PRIO] = (uint64_t)p;
	}
	d->prio[3].v[FLOWCTL_A_PRIO_RX_PFC] = 2 * k;
	d->prio[3].v[FLOWCTL_A_PRIO_PAUSED_NS_TOTAL] = 4000000 * k;
	d->prio[5].v[FLOWCTL_A_PRIO_TX_PFC] = k < 2 ? k : 2;
	return 0;
}

static char *run(bool json, int *ret)
{
	struct fake f = { 0 };
	char *s = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&s, &n);

	print_init(json, false, out);
	*ret = fc_watch_run("veth0", 10000000ULL, INTERVALS, fake_fetch, &f);
	fclose(out);
	print_init(false, false, stdout);
	return s;
}

int main(int argc, char **argv)
{
	char *t, *j, *copy, path[4096], *line, *save;
	FILE *f;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	ktap_begin("flowctl watch on synthetic readings");
	t = run(false, &ret);
	ktap_ok(ret == 0, "watch: %d intervals, exit 0", INTERVALS);
	copy = strdup(t);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("#   %s\n", line);
	free(copy);
	ktap_ok(strstr(t, "Watching veth0 every 10 ms for 6 intervals.") != NULL, "text: the header");
	ktap_ok(strstr(t, "rx = received: the partner is congested and paused us") &&
		strstr(t, "tx = sent: we are congested and paused the partner"),
		"text: the header says what rx and tx mean");
	ktap_ok(strstr(t, "  rx: pause +5 (") != NULL, "text: per-interval delta and rate");
	ktap_ok(strstr(t, "    prio 3: rx pfc +2 (") && strstr(t, "paused 4 ms ("),
		"text: a priority line with its paused time");
	ktap_ok(strstr(t, "steady = grew in at least 80% of the intervals") != NULL,
		"text: the verdict states its rule");
	ktap_ok(strstr(t, "  rx pause        steady  grew in 6 of 6 intervals: the partner is congested all the time") &&
		strstr(t, "sustained overload, which flow control cannot fix; add bandwidth or move traffic"),
		"text: rx pause is steady, with what to do");
	ktap_ok(strstr(t, "  rx xon          bursty  grew in 1 of 6 intervals") != NULL,
		"text: a counter reset counts as growth from zero (rx xon bursty)");
	ktap_ok(strstr(t, "  tx pause        bursty  grew in 1 of 6 intervals: we were congested in bursts") != NULL,
		"text: tx pause is bursty");
	ktap_ok(strstr(t, "  prio 3 rx pfc   steady") && strstr(t, "  prio 5 tx pfc   bursty  grew in 2 of 6"),
		"text: per-priority verdicts");
	ktap_ok(!strstr(t, "tx xon ") && !strstr(t, "prio 0 rx pfc"),
		"text: counters that never grew get no verdict");

	j = run(true, &ret);
	ktap_ok(ret == 0 && j[0] == '{' && strchr(j, '\n') == j + strlen(j) - 1,
		"json: one object on one line");
	snprintf(path, sizeof(path), "%s/watch.json", argv[1]);
	f = fopen(path, "w");
	if (f) {
		fputs(j, f);
		fclose(f);
	}
	ktap_ok(f != NULL, "json: saved for check_json.py");
	free(t);
	free(j);
	return ktap_finish();
}
