// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl watch: read a port's counters every interval, print what each
 * pause counter did in that interval, and at the end say for each counter
 * that grew whether it grew in bursts (what flow control is for) or all
 * the time (sustained overload, which flow control cannot fix).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flowctl.h"
#include "netlink.h"
#include "print.h"
#include "show.h"
#include "verdict.h"
#include "watch.h"

#define PORT_SERIES	4
#define NSERIES		(PORT_SERIES + 2 * FLOWCTL_NUM_PRIOS)

struct series {
	const char *key;	/* JSON counter name */
	char label[24];		/* text: "rx pause", "prio 3 tx pfc" */
	int prio;		/* -1: port level */
	bool rx;		/* received (partner paused us) or sent */
	uint64_t *delta;
	size_t n, cap;
};

struct sample {
	uint64_t v[NSERIES];
	bool have[NSERIES];
	uint64_t paused_ns[FLOWCTL_NUM_PRIOS];
	bool have_paused[FLOWCTL_NUM_PRIOS];
	uint64_t when_ns;	/* CLOCK_MONOTONIC */
};

static volatile sig_atomic_t watch_stop;

static void on_signal(int sig)
{
	(void)sig;
	watch_stop = 1;
}

void usage_watch(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j [ -p ] ] watch dev DEV [ interval SECONDS ] [ count N ]\n"
		"       flowctl watch help\n"
		"SECONDS := 0.01 .. 3600, or a time like 500ms (default 1)\n"
		"N := intervals to watch, 1 .. 4294967295 (default: until Ctrl-C)\n"
		"Prints, per interval, the growth and rate of rx pause/xon, tx pause/xon,\n"
		"per-priority rx/tx pfc and the time each priority was paused; then a\n"
		"verdict for each counter that grew:\n"
		"  %s.\n"
		"Steady growth is sustained overload, which flow control cannot fix:\n"
		"add bandwidth or move traffic. Bursty growth is what flow control absorbs.\n"
		"rx: " FC_RX_MEANS "; tx: " FC_TX_MEANS ".\n", FC_VERDICT_RULE);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void init_series(struct series *s)
{
	static const char *const port_key[PORT_SERIES] = {
		"rx_pause", "rx_xon", "tx_pause", "tx_xon",
	};
	static const char *const port_label[PORT_SERIES] = {
		"rx pause", "rx xon", "tx pause", "tx xon",
	};
	int i;

	memset(s, 0, NSERIES * sizeof(*s));
	for (i = 0; i < PORT_SERIES; i++) {
		s[i].key = port_key[i];
		snprintf(s[i].label, sizeof(s[i].label), "%s", port_label[i]);
		s[i].prio = -1;
		s[i].rx = i < 2;
	}
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++) {
		struct series *r = &s[PORT_SERIES + 2 * i], *t = r + 1;

		r->key = "rx_pfc";
		snprintf(r->label, sizeof(r->label), "prio %d rx pfc", i);
		r->prio = i;
		r->rx = true;
		t->key = "tx_pfc";
		snprintf(t->label, sizeof(t->label), "prio %d tx pfc", i);
		t->prio = i;
		t->rx = false;
	}
}

static void take_sample(const struct fc_dev *d, struct sample *s)
{
	static const int port_attr[PORT_SERIES] = {
		FLOWCTL_A_STATS_RX_PAUSE, FLOWCTL_A_STATS_RX_XON,
		FLOWCTL_A_STATS_TX_PAUSE, FLOWCTL_A_STATS_TX_XON,
	};
	int i;

	memset(s, 0, sizeof(*s));
	s->when_ns = mono_ns();
	for (i = 0; i < PORT_SERIES; i++) {
		s->have[i] = FC_HAS(d->stats_have, port_attr[i]);
		s->v[i] = d->stats[port_attr[i]];
	}
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++) {
		const struct fc_prio *p = &d->prio[i];
		int k = PORT_SERIES + 2 * i;

		s->have[k] = FC_HAS(p->have, FLOWCTL_A_PRIO_RX_PFC);
		s->v[k] = p->v[FLOWCTL_A_PRIO_RX_PFC];
		s->have[k + 1] = FC_HAS(p->have, FLOWCTL_A_PRIO_TX_PFC);
		s->v[k + 1] = p->v[FLOWCTL_A_PRIO_TX_PFC];
		s->have_paused[i] = FC_HAS(p->have, FLOWCTL_A_PRIO_PAUSED_NS_TOTAL);
		s->paused_ns[i] = p->v[FLOWCTL_A_PRIO_PAUSED_NS_TOTAL];
	}
}

static int push(struct series *s, uint64_t d)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		uint64_t *n = realloc(s->delta, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->delta = n;
		s->cap = cap;
	}
	s->delta[s->n++] = d;
	return 0;
}

static void print_delta(const char *key, const char *label, uint64_t d,
			uint64_t elapsed_ns)
{
	char fmt[48], num[32], rkey[40];
	double rate = elapsed_ns ? (double)d * 1e9 / (double)elapsed_ns : 0;

	snprintf(fmt, sizeof(fmt), " %s +%%s", label);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)d);
	print_u64_as(PRINT_ANY, key, fmt, d, num);
	snprintf(rkey, sizeof(rkey), "%s_per_s", key);
	print_float(PRINT_JSON, rkey, NULL, rate, 3);
	print_float(PRINT_FP, NULL, " (%s/s)", rate, 1);
}

static void print_sample(const struct sample *prev, const struct sample *cur)
{
	uint64_t elapsed = cur->when_ns - prev->when_ns, d[NSERIES];
	char t[64];
	int i;

	for (i = 0; i < NSERIES; i++)
		d[i] = fc_growth(prev->v[i], cur->v[i], prev->have[i], cur->have[i]);

	open_json_object(NULL);
	print_string(PRINT_JSON, "time", NULL, fmt_wall(t, sizeof(t), true));
	print_string(PRINT_FP, NULL, "%s", fmt_wall(t, sizeof(t), false));
	print_u64(PRINT_JSON, "elapsed_ns", NULL, elapsed);
	print_text("  rx:");
	print_delta("rx_pause", "pause", d[0], elapsed);
	print_delta("rx_xon", "xon", d[1], elapsed);
	print_text("  tx:");
	print_delta("tx_pause", "pause", d[2], elapsed);
	print_delta("tx_xon", "xon", d[3], elapsed);
	print_nl();

	open_json_array("prio");
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++) {
		int k = PORT_SERIES + 2 * i;
		uint64_t paused = fc_growth(prev->paused_ns[i], cur->paused_ns[i],
					 prev->have_paused[i],
					 cur->have_paused[i]);

		/* Text lists only the priorities where something happened. */
		if (!is_json() && !d[k] && !d[k + 1] && !paused)
			continue;
		open_json_object(NULL);
		print_u64(PRINT_ANY, "prio", "    prio %s:", (uint64_t)i);
		print_text(" rx");
		print_delta("rx_pfc", "pfc", d[k], elapsed);
		print_text("  tx");
		print_delta("tx_pfc", "pfc", d[k + 1], elapsed);
		print_ns(PRINT_ANY, "paused_ns", "  paused %s", paused);
		print_float(PRINT_FP, NULL, " (%s%% of the interval)",
			    elapsed ? (double)paused * 100 / (double)elapsed : 0, 0);
		print_nl();
		close_json_object();
	}
	close_json_array();
	close_json_object();
	fflush(print_file());
}

static const char *meaning(enum fc_verdict v, bool rx)
{
	switch (v) {
	case FC_VERDICT_STEADY:
		return rx ? "the partner is congested all the time and keeps pausing us: "
			    "sustained overload, which flow control cannot fix; add "
			    "bandwidth or move traffic"
			  : "we are congested all the time and keep pausing the partner: "
			    "sustained overload, which flow control cannot fix; add "
			    "bandwidth or move traffic";
	case FC_VERDICT_BURSTY:
		return rx ? "the partner was congested in bursts and paused us: "
			    "flow control is absorbing bursts, as it should"
			  : "we were congested in bursts and paused the partner: "
			    "flow control is absorbing bursts, as it should";
	case FC_VERDICT_UNCLEAR:
		return "too few intervals to tell bursts from sustained overload";
	case FC_VERDICT_NONE:
		break;
	}
	return "";
}

static void print_verdicts(struct series *s, size_t intervals)
{
	struct fc_verdict_info info;
	int i, shown = 0;

	print_text("\nVerdict over %zu interval%s (%s):\n", intervals,
		   intervals == 1 ? "" : "s", FC_VERDICT_RULE);
	print_string(PRINT_JSON, "rule", NULL, FC_VERDICT_RULE);
	open_json_array("verdicts");
	for (i = 0; i < NSERIES; i++) {
		enum fc_verdict v = fc_verdict(s[i].delta, s[i].n, &info);

		if (v == FC_VERDICT_NONE)
			continue;
		shown++;
		open_json_object(NULL);
		print_string(PRINT_JSON, "counter", NULL, s[i].key);
		if (s[i].prio >= 0)
			print_u64(PRINT_JSON, "prio", NULL, (uint64_t)s[i].prio);
		print_string(PRINT_JSON, "dir", NULL, s[i].rx ? "rx" : "tx");
		print_string(PRINT_FP, NULL, "  %-15s", s[i].label);
		print_string(PRINT_ANY, "verdict", " %-7s", fc_verdict_name(v));
		print_u64(PRINT_ANY, "grew_intervals", " grew in %s", info.grew);
		print_u64(PRINT_ANY, "intervals", " of %s intervals", info.intervals);
		print_string(PRINT_ANY, "meaning", ": %s\n", meaning(v, s[i].rx));
		close_json_object();
	}
	close_json_array();
	if (!shown)
		print_text("  no pause counter grew: no congestion seen in either direction\n");
}

struct nl_fetch {
	struct fc_nl nl;
	const char *dev;
};

static int nl_fetch(void *ctx, struct fc_dev *out)
{
	struct nl_fetch *f = ctx;
	struct fc_dev_list l = { 0 };
	int err = fc_dev_get(&f->nl, f->dev, &l);

	if (!err && l.n != 1)
		err = -ENODEV;
	if (err)
		fc_nl_perror(&f->nl, err, f->dev, "watch", true);
	else
		*out = l.dev[0];
	fc_dev_list_free(&l);
	return err;
}

int fc_watch_run(const char *dev, uint64_t interval_ns, uint64_t count,
		 fc_watch_fetch_t fetch, void *ctx)
{
	struct series series[NSERIES];
	struct sample prev, cur;
	struct sigaction sa;
	struct fc_dev *d;
	size_t intervals = 0;
	char buf[FMT_LEN];
	uint64_t next;
	int ret, i;

	d = malloc(sizeof(*d));
	if (!d) {
		fprintf(stderr, "flowctl: out of memory\n");
		return EXIT_FAIL;
	}
	if (fetch(ctx, d)) {
		free(d);
		return EXIT_FAIL;
	}
	take_sample(d, &prev);

	watch_stop = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: sleeps end at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	init_series(series);

	open_json_object(NULL);
	print_string(PRINT_ANY, "ifname", "Watching %s", dev);
	print_u64_as(PRINT_ANY, "interval_ns", " every %s", interval_ns,
		     fmt_ns(buf, sizeof(buf), interval_ns, true));
	if (count)
		print_u64(PRINT_ANY, "count", " for %s intervals", count);
	else
		print_text(" until Ctrl-C");
	print_text(".\nrx = received: " FC_RX_MEANS ";\n"
		   "tx = sent: " FC_TX_MEANS ".\n");
	open_json_array("samples");
	fflush(print_file());

	next = prev.when_ns;
	ret = EXIT_OK;
	while (!watch_stop && (!count || intervals < count)) {
		struct timespec ts;

		next += interval_ns;
		ts.tv_sec = (time_t)(next / 1000000000ULL);
		ts.tv_nsec = (long)(next % 1000000000ULL);
		while (!watch_stop &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		if (watch_stop)
			break;
		fflush(print_file());
		if (fetch(ctx, d)) {
			ret = EXIT_FAIL;
			break;
		}
		take_sample(d, &cur);
		print_sample(&prev, &cur);
		for (i = 0; i < NSERIES; i++)
			if (push(&series[i], fc_growth(prev.v[i], cur.v[i],
						    prev.have[i], cur.have[i]))) {
				fprintf(stderr, "flowctl: out of memory\n");
				watch_stop = 1;
				ret = EXIT_FAIL;
			}
		prev = cur;
		intervals++;
		/* A late wakeup does not make the next intervals short. */
		if (next < prev.when_ns)
			next = prev.when_ns;
	}
	close_json_array();
	print_verdicts(series, intervals);
	close_json_object();
	json_end_document();

	for (i = 0; i < NSERIES; i++)
		free(series[i].delta);
	free(d);
	return ret;
}

int cmd_watch(int argc, char **argv)
{
	uint64_t interval_ns = 1000000000ULL, count = 0;
	struct nl_fetch *f;
	const char *dev = NULL;
	int ret;

	ret = parse_periodic(argc, argv, "watch", usage_watch, "seconds 0.01..3600, like 1, 0.5 or 500ms",
			     "a number of intervals 1..4294967295", &dev, &interval_ns, &count);
	if (ret >= 0)
		return ret;
	if (!dev) {
		fprintf(stderr, "Error: watch needs dev DEV\n");
		usage_watch(stderr);
		return EXIT_USAGE;
	}

	f = calloc(1, sizeof(*f));
	if (!f) {
		fprintf(stderr, "flowctl: out of memory\n");
		return EXIT_FAIL;
	}
	f->dev = dev;
	ret = fc_nl_open(&f->nl);
	if (!ret)
		ret = fc_watch_run(dev, interval_ns, count, nl_fetch, f);
	fc_nl_close(&f->nl);
	free(f);
	return ret;
}
