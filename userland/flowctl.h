/* SPDX-License-Identifier: GPL-2.0 */
/* flowctl(8): the commands and what they share. */
#ifndef FLOWCTL_H
#define FLOWCTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "parse.h"

#ifndef FLOWCTL_VERSION
#define FLOWCTL_VERSION "unknown"
#endif

/* CLOCK_MONOTONIC in nanoseconds: deadlines and intervals. */
static inline uint64_t fc_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The global options, set by main() before a command runs. */
struct fc_opts {
	bool json;
	bool pretty;
	bool stats;
	bool brief;		/* -br: show prints a line a port */
	bool details;		/* -d: show adds each TX queue's flowctl */
	const char *netns;
};
extern struct fc_opts fc_opt;

/* Each command gets the words after its name and returns an exit code. */
int cmd_show(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_quanta(int argc, char **argv);
int cmd_metrics(int argc, char **argv);
int cmd_dcbx(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_watchdog(int argc, char **argv);
int cmd_waitfor(int argc, char **argv);

/* Usage text for each level; f is stdout for "help", stderr on errors. */
void usage_main(FILE *f);
void usage_show(FILE *f);
void usage_set(FILE *f);
void usage_stats(FILE *f);
void usage_watch(FILE *f);
void usage_sample(FILE *f);
void usage_monitor(FILE *f);
void usage_send(FILE *f);
void usage_quanta(FILE *f);
void usage_metrics(FILE *f);
void usage_dcbx(FILE *f);
void usage_doctor(FILE *f);
void usage_watchdog(FILE *f);
void usage_waitfor(FILE *f);

/* Usage errors: print the reason and the usage to stderr; return EXIT_USAGE. */
int what_is(const char *word, void (*usage)(FILE *));
int incomplete(void (*usage)(FILE *));
/*
 * A keyword parse_keyword() did not resolve (why: KW_UNKNOWN or
 * KW_AMBIGUOUS): the candidates, then 'Try "flowctl CMD help".' (CMD NULL:
 * the command word itself). No usage dump.
 */
int bad_keyword(const char *arg, const char *const *words, int why,
		const char *cmd);
/* Set: bad_keyword() says 'Try "HINT".' instead (the tc plugin's grammar). */
extern const char *fc_help_hint;
/* A device name the kernel could accept: 0, or EXIT_USAGE after saying why. */
int fc_check_dev_name(const char *dev);
/* "Error: KEYWORD needs a value: EXPECTED" */
int missing_value(const char *keyword, const char *expected);
int bad_value(const char *keyword, const char *arg, int err,
	      const char *expected);
/*
 * "[dev DEV] [interval TIME] [count N] | help" of watch and sample (count
 * NULL: no count word, as doctor): -1 when the words parsed (the outputs
 * set only for words given), else the exit status to return (help
 * printed, or a usage error reported).
 */
int parse_periodic(int argc, char **argv, const char *cmd,
		   void (*usage)(FILE *),
		   const char *interval_hint, const char *count_hint,
		   const char **dev, uint64_t *interval_ns, uint64_t *count);
/* "help" as the next word: print usage to stdout, return true. */
bool want_help(int argc, char **argv, void (*usage)(FILE *));

/* The direction wording, used wherever rx or tx counters are shown. */
#define FC_RX_MEANS "the partner is congested and paused us"
#define FC_TX_MEANS "we are congested and paused the partner"

#endif
