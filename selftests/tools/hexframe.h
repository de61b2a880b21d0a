/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A frame given as hex on the command line ("0180c2000001..." with optional
 * ':' or ' ' between bytes): shared by selftests/tools/fctest and
 * bench/tools/fcbench.
 */
#ifndef FLOWCTL_HEXFRAME_H
#define FLOWCTL_HEXFRAME_H

#include <stddef.h>
#include <stdio.h>

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Fills FRAME (at most MAX bytes); -1 with a message naming PROG if bad. */
static int parse_hex(const char *prog, const char *h, unsigned char *frame,
		     size_t max, size_t *lenp)
{
	size_t len = 0;

	while (*h) {
		int hi, lo;

		if (*h == ':' || *h == ' ') {
			h++;
			continue;
		}
		hi = hexval(h[0]);
		lo = h[1] ? hexval(h[1]) : -1;
		if (hi < 0 || lo < 0 || len >= max) {
			fprintf(stderr, "%s: bad hex frame\n", prog);
			return -1;
		}
		frame[len++] = hi << 4 | lo;
		h += 2;
	}
	*lenp = len;
	return 0;
}

#endif
