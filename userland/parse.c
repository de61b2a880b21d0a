// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers for command-line words: on/off, bounded integers, rates, times,
 * speeds, byte counts, priority lists, MAC addresses. Numbers are exact:
 * "1.5gbit" is 1500000000 bit/s, and "0.5ns" is refused rather than
 * rounded, so what the user typed is what the kernel gets.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <linux/flowctl.h>

#include "parse.h"

bool matches(const char *arg, const char *word)
{
	return arg && !strcmp(arg, word);
}

int parse_keyword(const char *arg, const char *const *words)
{
	size_t len;
	int i, found = KW_UNKNOWN;

	if (!arg || !*arg)
		return KW_UNKNOWN;
	len = strlen(arg);
	for (i = 0; words[i]; i++) {
		if (!strcmp(arg, words[i]))
			return i;
		if (!strncmp(arg, words[i], len))
			found = found == KW_UNKNOWN ? i : KW_AMBIGUOUS;
	}
	return found;
}

#define DIST_CAP 32

unsigned int word_distance(const char *a, const char *b)
{
	/* Optimal string alignment distance over the first DIST_CAP bytes. */
	unsigned int d[DIST_CAP + 1][DIST_CAP + 1];
	size_t la = strnlen(a, DIST_CAP), lb = strnlen(b, DIST_CAP), i, j;

	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			unsigned int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	}
	return d[la][lb];
}

int parse_on_off(const char *arg, bool *v)
{
	if (matches(arg, "on")) {
		*v = true;
		return 0;
	}
	if (matches(arg, "off")) {
		*v = false;
		return 0;
	}
	return -EINVAL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int parse_u64(const char *arg, uint64_t min, uint64_t max, uint64_t *v)
{
	unsigned long long n;
	char *end;
	int base = 10;

	if (!arg || !*arg)
		return -EINVAL;
	if (arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X')) {
		base = 16;
		if (!arg[2])
			return -EINVAL;
	} else if (!is_digit(arg[0])) {
		return -EINVAL;	/* no sign, no space */
	}
	errno = 0;
	n = strtoull(arg, &end, base);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || n < min || n > max)
		return -ERANGE;
	*v = n;
	return 0;
}

int parse_decimal(const char *arg, uint64_t mult, uint64_t *v,
		  const char **rest)
{
	uint64_t ip = 0, frac = 0, fscale = 1, r;
	const char *p = arg;
	int fd = 0;

	if (!arg || !is_digit(*p))
		return -EINVAL;
	for (; is_digit(*p); p++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		const char *q;

		p++;
		if (!is_digit(*p))
			return -EINVAL;
		/* Trailing zeros of the fraction change nothing: drop them. */
		for (q = p; is_digit(*q); q++)
			;
		while (q > p && q[-1] == '0')
			q--;
		for (; p < q; p++) {
			if (++fd > 9)
				return -EINVAL;	/* finer than anyone means */
			frac = frac * 10 + (uint64_t)(*p - '0');
			fscale *= 10;
		}
		while (is_digit(*p))
			p++;
	}
	if (mult && ip > UINT64_MAX / mult)
		return -ERANGE;
	r = ip * mult;
	/* frac / fscale * mult must be whole: cancel common factors of 10. */
	while (fscale > 1 && mult % 10 == 0) {
		mult /= 10;
		fscale /= 10;
	}
	if (frac) {
		uint64_t f = frac * mult;	/* < 1e9 * mult, fits */

		if (f % fscale)
			return -EINVAL;
		if (r > UINT64_MAX - f / fscale)
			return -ERANGE;
		r += f / fscale;
	}
	*v = r;
	if (rest)
		*rest = p;
	else if (*p)
		return -EINVAL;
	return 0;
}

struct unit {
	const char *name;
	uint64_t mult;
};

/* Parse "NUMBER[UNIT]" with a unit from the table ("" for a bare number). */
static int parse_with_units(const char *arg, const struct unit *units,
			    uint64_t *v)
{
	const char *rest;
	uint64_t tmp;
	int i, err;

	/* Find the unit first: the multiplier decides whether a fraction fits. */
	if (!arg || !is_digit(*arg))
		return -EINVAL;
	rest = arg;
	while (is_digit(*rest) || *rest == '.')
		rest++;
	for (i = 0; units[i].name; i++) {
		if (strcasecmp(rest, units[i].name))
			continue;
		err = parse_decimal(arg, units[i].mult, &tmp, &rest);
		if (err)
			return err;
		*v = tmp;
		return 0;
	}
	return -EINVAL;
}

int parse_rate(const char *arg, uint64_t *bps)
{
	static const struct unit units[] = {
		{ "", 1 }, { "bit", 1 },
		{ "k", 1000 }, { "kbit", 1000 },
		{ "m", 1000000 }, { "mbit", 1000000 },
		{ "g", 1000000000ULL }, { "gbit", 1000000000ULL },
		{ "t", 1000000000000ULL }, { "tbit", 1000000000000ULL },
		{ NULL, 0 },
	};

	return parse_with_units(arg, units, bps);
}

int parse_time(const char *arg, uint64_t default_unit_ns, uint64_t max_ns,
	       uint64_t *ns)
{
	static const struct unit units[] = {
		{ "ns", 1 }, { "nsec", 1 },
		{ "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 },
		{ "s", 1000000000ULL }, { "sec", 1000000000ULL },
		{ NULL, 0 },
	};
	const char *p = arg;
	uint64_t v;
	int err;

	if (!arg)
		return -EINVAL;
	while (is_digit(*p) || *p == '.')
		p++;
	if (p != arg && !*p) {
		if (!default_unit_ns)
			return -EINVAL;
		err = parse_decimal(arg, default_unit_ns, &v, NULL);
	} else {
		err = parse_with_units(arg, units, &v);
	}
	if (err)
		return err;
	if (v > max_ns)
		return -ERANGE;
	*ns = v;
	return 0;
}

int parse_ms(const char *arg, uint64_t min, uint64_t max, uint64_t *ms)
{
	uint64_t ns;
	int err;

	err = parse_time(arg, 1000000ULL, UINT64_MAX / 2, &ns);
	if (err)
		return err;
	if (ns % 1000000ULL)
		return -EINVAL;
	if (ns / 1000000ULL < min || ns / 1000000ULL > max)
		return -ERANGE;
	*ms = ns / 1000000ULL;
	return 0;
}

int parse_speed(const char *arg, uint32_t *mbps)
{
	static const struct unit units[] = {
		{ "", 1 }, { "m", 1 }, { "mb/s", 1 }, { "mbit", 1 },
		{ "mbps", 1 },
		{ "g", 1000 }, { "gb/s", 1000 }, { "gbit", 1000 },
		{ "gbps", 1000 },
		{ "t", 1000000 }, { "tb/s", 1000000 }, { "tbit", 1000000 },
		{ "tbps", 1000000 },
		{ NULL, 0 },
	};
	uint64_t v;
	int err;

	err = parse_with_units(arg, units, &v);
	if (err)
		return err;
	if (v < 1 || v > SPEED_MAX_MBPS)
		return -ERANGE;
	*mbps = (uint32_t)v;
	return 0;
}

int parse_bytes(const char *arg, uint32_t *bytes)
{
	static const struct unit units[] = {
		{ "", 1 }, { "b", 1 },
		{ "k", 1024 }, { "kb", 1024 }, { "kib", 1024 },
		{ "m", 1048576 }, { "mb", 1048576 }, { "mib", 1048576 },
		{ "g", 1073741824ULL }, { "gb", 1073741824ULL },
		{ "gib", 1073741824ULL },
		{ NULL, 0 },
	};
	uint64_t v;
	int err;

	err = parse_with_units(arg, units, &v);
	if (err)
		return err;
	if (v > UINT32_MAX)
		return -ERANGE;
	*bytes = (uint32_t)v;
	return 0;
}

/*
 * A priority-to-traffic-class map: eight classes 0..7, for priorities 0..7
 * in order ("1,0,2,3,4,5,6,7"), or "8021q" (IEEE 802.1Q Table 8-5, the
 * default) or "numeric" (class = priority). Packed 4 bits a priority.
 */
int parse_prio_tc(const char *arg, uint32_t *map)
{
	uint32_t m = 0;
	const char *p = arg;
	int prio;

	if (matches(arg, "8021q")) {
		*map = FLOWCTL_PRIO_TC_8021Q;
		return 0;
	}
	if (matches(arg, "numeric")) {
		*map = FLOWCTL_PRIO_TC_IDENTITY;
		return 0;
	}
	if (!arg || !*arg)
		return -EINVAL;
	for (prio = 0; prio < FLOWCTL_NUM_PRIOS; prio++) {
		if (!is_digit(*p))
			return -EINVAL;
		if (p[0] > '7' || is_digit(p[1]))
			return -ERANGE;
		m |= (uint32_t)(p[0] - '0') << (4 * prio);
		p++;
		if (prio < FLOWCTL_NUM_PRIOS - 1 && *p++ != ',')
			return -EINVAL;
	}
	if (*p)
		return -EINVAL;
	*map = m;
	return 0;
}

int parse_ets(const char *arg, uint64_t *bw)
{
	const char *p = arg;
	unsigned int sum = 0;
	uint64_t v = 0;
	uint8_t seen = 0;

	if (matches(arg, "off")) {
		*bw = 0;
		return 0;
	}
	if (!arg || !*arg)
		return -EINVAL;
	while (*p) {
		unsigned int tc, pct = 0;
		int digits = 0;

		if (!is_digit(p[0]) || p[1] != ':')
			return -EINVAL;
		tc = (unsigned int)(p[0] - '0');
		if (tc > 7)
			return -ERANGE;
		if (seen & (1u << tc))
			return -EINVAL;
		seen |= (uint8_t)(1u << tc);
		for (p += 2; is_digit(*p); p++, digits++) {
			pct = pct * 10 + (unsigned int)(*p - '0');
			if (pct > 100)
				return -ERANGE;
		}
		if (!digits || (*p && *p != ','))
			return -EINVAL;
		if (!pct)
			return -ERANGE;
		v |= (uint64_t)pct << (8 * tc);
		sum += pct;
		if (*p == ',' && !*++p)
			return -EINVAL;
	}
	if (sum != 100)
		return -ERANGE;
	*bw = v;
	return 0;
}

int parse_prio_list(const char *arg, uint8_t *mask)
{
	uint8_t m = 0;
	const char *p = arg;

	if (matches(arg, "all")) {
		*mask = 0xff;
		return 0;
	}
	if (matches(arg, "none")) {
		*mask = 0;
		return 0;
	}
	if (!arg || !*arg)
		return -EINVAL;
	for (;;) {
		int lo, hi;

		if (!is_digit(*p))
			return -EINVAL;
		lo = 0;
		while (is_digit(*p)) {
			lo = lo * 10 + (*p++ - '0');
			if (lo > 99)
				return -ERANGE;
		}
		hi = lo;
		if (*p == '-') {
			p++;
			if (!is_digit(*p))
				return -EINVAL;
			hi = 0;
			while (is_digit(*p)) {
				hi = hi * 10 + (*p++ - '0');
				if (hi > 99)
					return -ERANGE;
			}
		}
		if (lo > 7 || hi > 7)
			return -ERANGE;
		if (hi < lo)
			return -EINVAL;
		for (; lo <= hi; lo++)
			m |= (uint8_t)(1u << lo);
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	*mask = m;
	return 0;
}

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

int parse_mac(const char *arg, uint8_t mac[6])
{
	uint8_t m[6];
	char sep = 0;
	int i;

	if (!arg || strlen(arg) != 17)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		const char *p = arg + 3 * i;
		int hi = hexval(p[0]), lo = hexval(p[1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		m[i] = (uint8_t)(hi << 4 | lo);
		if (i == 5)
			break;
		if (p[2] != ':' && p[2] != '-')
			return -EINVAL;
		if (sep && p[2] != sep)
			return -EINVAL;
		sep = p[2];
	}
	memcpy(mac, m, 6);
	return 0;
}
