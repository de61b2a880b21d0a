/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLOWCTL_SHOW_H
#define FLOWCTL_SHOW_H

#include <stdio.h>

#include "dev.h"
#include "print.h"

/* What to print of a port. JSON from "show" always asks for everything. */
#define FC_SHOW_CONFIG		0x1	/* mode, rx, tx, thresholds ... */
#define FC_SHOW_STATE		0x2	/* paused, time left, backlog */
#define FC_SHOW_COUNTERS	0x4	/* stats nest and per-priority counters */
#define FC_SHOW_ALL		0x7

void fc_print_dev(const struct fc_dev *d, unsigned int what);
/* One line of "sample": time_ns, mono_ns and the ports (show -j -s). */
void fc_sample_print(uint64_t real_ns, uint64_t mono_ns,
		     const struct fc_dev_list *l);
/* A JSON array of ports, or one text block per port. */
void fc_print_devs(const struct fc_dev_list *l, unsigned int what);
/* flowctl -br show: a JSON array of ports, or a line per port. */
void fc_print_brief(const struct fc_dev_list *l);

/* Fetch one port (dev) or all (NULL), sorted; an error said as verb's: exit code. */
int fc_dev_fetch(const char *dev, const char *verb, struct fc_dev_list *l);
/* Fetch one port (dev) or all (NULL) and print what was asked: exit code. */
int fc_show_run(const char *dev, unsigned int what);
/* flowctl watchdog's report of the ports (wdcmd.c). */
void fc_wd_print(const struct fc_dev_list *l);
/*
 * Parse "[ dev DEV ] [ help ]". Returns an exit
 * code; *helped says "help" was printed.
 */
int fc_parse_dev_opt(int argc, char **argv, const char *cmd, const char **dev,
		     void (*usage)(FILE *), bool *helped);

/* Priorities of a mask: "0,3-5" in text, an array of numbers in JSON. */
void fc_print_prios(enum output_type t, const char *key, const char *fmt,
		    unsigned int mask);

const char *fc_mode_name(uint64_t mode);
const char *fc_trust_name(uint64_t trust);
const char *fc_speed_source_name(uint64_t src);

#endif
