/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line words. Every parser is pure: it returns 0, -EINVAL (not the
 * expected form) or -ERANGE (outside the bounds) and prints nothing, so the
 * tests can call it and the commands can word their own messages.
 */
#ifndef FLOWCTL_PARSE_H
#define FLOWCTL_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* Exit codes, documented in flowctl(8). */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* the kernel or the system said no */
#define EXIT_USAGE	2	/* the command line is wrong */
#define EXIT_FOUND	3	/* doctor found an error or a warning */

bool matches(const char *arg, const char *word);	/* exact */
/*
 * The keyword arg stands for, as iproute2 users type them: the word of
 * words (NULL-terminated) it equals, or the only one it is a prefix of.
 * Returns its index, KW_UNKNOWN or KW_AMBIGUOUS.
 */
#define KW_UNKNOWN	(-1)
#define KW_AMBIGUOUS	(-2)
int parse_keyword(const char *arg, const char *const *words);
/* Edit distance (insert, delete, substitute, swap of neighbours), capped. */
unsigned int word_distance(const char *a, const char *b);
int parse_on_off(const char *arg, bool *v);
/* Decimal, or hex with 0x; min <= v <= max. */
int parse_u64(const char *arg, uint64_t min, uint64_t max, uint64_t *v);
/*
 * A decimal number with an optional fraction ("1.5") times mult, which
 * must come out whole. rest gets what follows the number (the unit).
 */
int parse_decimal(const char *arg, uint64_t mult, uint64_t *v,
		  const char **rest);
/* Bit/s: "1gbit", "100mbit", "1.5Gbit", "64kbit", "10000000" (bit/s). */
int parse_rate(const char *arg, uint64_t *bps);
/*
 * Time to ns: "512us", "1ms", "1.5s", "100ns". default_unit_ns is the unit
 * of a bare number, or 0 if a bare number is refused. max_ns bounds it.
 */
int parse_time(const char *arg, uint64_t default_unit_ns, uint64_t max_ns,
	       uint64_t *ns);
/*
 * Milliseconds, min..max: a bare number is ms ("200"), or a time with a
 * unit that comes out in whole ms ("200ms", "1.5s", "500000us").
 */
int parse_ms(const char *arg, uint64_t min, uint64_t max, uint64_t *ms);
/* Link speed to Mb/s: "100M", "2.5G", "10Gb/s", "1000" (Mb/s); >= 1. */
#define SPEED_MAX_MBPS 10000000u
int parse_speed(const char *arg, uint32_t *mbps);
/* Bytes: "1500", "64k", "1.5m" (k = 1024); 0 .. UINT32_MAX. */
int parse_bytes(const char *arg, uint32_t *bytes);
/* Priorities: "0,3-5", "all", "none" -> bit mask. */
int parse_prio_list(const char *arg, uint8_t *mask);
/* "1,0,2,3,4,5,6,7", 8021q or numeric: 4 bits a priority */
int parse_prio_tc(const char *arg, uint32_t *map);
/*
 * ETS shares: "TC:PERCENT[,TC:PERCENT...]" (each class 0..7 once, shares
 * 1..100 summing to 100), or "off" (all strict). Packed: byte n of *bw (bits
 * 8n..8n+7) is class n's share.
 */
int parse_ets(const char *arg, uint64_t *bw);
/* MAC address: "01:80:c2:00:00:01" or with '-'. */
int parse_mac(const char *arg, uint8_t mac[6]);

#endif
