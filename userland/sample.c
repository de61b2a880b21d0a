// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl sample: every port's state and counters (what "show -j -s"
 * prints) at a fixed interval, one JSON object per line, for plotting a
 * run over time. One process and one netlink socket for the whole run:
 * starting a process per sample costs tens of milliseconds under
 * emulation, more than a 100 ms sampling period can afford.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "flowctl.h"
#include "netlink.h"
#include "print.h"
#include "show.h"

static volatile sig_atomic_t sample_stop;

static void on_signal(int sig)
{
	(void)sig;
	sample_stop = 1;
}

void usage_sample(FILE *f)
{
	fprintf(f,
		"Usage: flowctl sample [ dev DEV ] [ interval SECONDS ] [ count N ]\n"
		"       flowctl sample help\n"
		"SECONDS := 0.01 .. 3600, or a time like 100ms (default 0.1)\n"
		"N := samples to take, 1 .. 4294967295 (default: until SIGINT/SIGTERM)\n"
		"Prints one JSON object per line and sample: \"time_ns\" (CLOCK_REALTIME),\n"
		"\"mono_ns\" (CLOCK_MONOTONIC) and \"ports\", the array \"show -j -s\"\n"
		"prints for DEV or for every flowctl port of the network namespace.\n");
}

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void fc_sample_print(uint64_t real_ns, uint64_t mono_ns,
		     const struct fc_dev_list *l)
{
	size_t i;

	open_json_object(NULL);
	print_u64(PRINT_JSON, "time_ns", NULL, real_ns);
	print_u64(PRINT_JSON, "mono_ns", NULL, mono_ns);
	open_json_array("ports");
	for (i = 0; i < l->n; i++)
		fc_print_dev(&l->dev[i], FC_SHOW_ALL);
	close_json_array();
	close_json_object();
	json_end_document();
}

static int sample_once(struct fc_nl *nl, const char *dev)
{
	struct fc_dev_list l = { 0 };
	uint64_t real = clock_ns(CLOCK_REALTIME), mono = clock_ns(CLOCK_MONOTONIC);
	int err;

	err = fc_dev_get(nl, dev, &l);
	if (err) {
		fc_nl_perror(nl, err, dev, "sample", true);
		fc_dev_list_free(&l);
		return EXIT_FAIL;
	}
	fc_dev_list_sort(&l);
	fc_sample_print(real, mono, &l);
	fc_dev_list_free(&l);
	return EXIT_OK;
}

int cmd_sample(int argc, char **argv)
{
	uint64_t interval_ns = 100000000ULL, count = 0, n = 0, next;
	const char *dev = NULL;
	sigset_t stop_sigs, old_sigs;
	struct sigaction sa;
	struct fc_nl nl;
	int ret;

	ret = parse_periodic(argc, argv, "sample", usage_sample, "seconds 0.01..3600, like 0.1 or 100ms",
			     "a number of samples 1..4294967295", &dev, &interval_ns, &count);
	if (ret >= 0)
		return ret;

	/* Always JSON lines, whatever -j says: this is for programs. */
	print_init(true, false, stdout);
	sample_stop = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: sleeps end at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* SIGINT and SIGTERM wait while a sample is read and written out
	 * whole: a signal in the middle of a write() to a file system that
	 * can be interrupted (9p, NFS) would leave half a line behind. They
	 * end the sleep between samples instead.
	 */
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	ret = fc_nl_open(&nl);
	next = clock_ns(CLOCK_MONOTONIC);
	while (!ret && !sample_stop && (!count || n < count)) {
		struct timespec ts;

		sigprocmask(SIG_BLOCK, &stop_sigs, &old_sigs);
		ret = sample_once(&nl, dev);
		if (fflush(stdout) == EOF && !ret) {
			fprintf(stderr, "flowctl: sample: cannot write: %s\n", strerror(errno));
			ret = EXIT_FAIL;
		}
		sigprocmask(SIG_SETMASK, &old_sigs, NULL);
		n++;
		if (ret || (count && n >= count))
			break;
		next += interval_ns;
		/* A late sample does not make the next intervals short. */
		if (next < clock_ns(CLOCK_MONOTONIC))
			next = clock_ns(CLOCK_MONOTONIC);
		ts.tv_sec = (time_t)(next / 1000000000ULL);
		ts.tv_nsec = (long)(next % 1000000000ULL);
		while (!sample_stop &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	fc_nl_close(&nl);
	return ret;
}
