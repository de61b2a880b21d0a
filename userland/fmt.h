/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLOWCTL_FMT_H
#define FLOWCTL_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Formatting (no output). Each returns buf. */
#define FMT_LEN 48
/*
 * v counts units of 10^-exp10 seconds (exp10 = 9: ns, 12: ps). exact keeps
 * every digit ("335.5392 ms"), otherwise 4 significant digits ("335.5 ms").
 */
char *fmt_time(char *buf, size_t len, uint64_t v, int exp10, bool exact);
char *fmt_ns(char *buf, size_t len, uint64_t ns, bool exact);
char *fmt_speed(char *buf, size_t len, uint64_t mbps);	/* "2.5Gb/s" */
char *fmt_rate(char *buf, size_t len, uint64_t bps);	/* "1Gbit" */
char *fmt_prio_list(char *buf, size_t len, unsigned int mask); /* "0,3-5" */
#endif
