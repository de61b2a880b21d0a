// SPDX-License-Identifier: GPL-2.0
/*
 * Numbers as people read them: times, speeds, rates, priority lists. No
 * output of its own, so tc's plugin links it beside tc's printer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

static const uint64_t pow10_tab[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL,
};

/* Trailing zeros of the fraction go, and the point if nothing is left. */
static void trim_fraction(char *s)
{
	char *dot = strchr(s, '.');
	char *end;

	if (!dot)
		return;
	end = s + strlen(s) - 1;
	while (end > dot && *end == '0')
		*end-- = '\0';
	if (end == dot)
		*end = '\0';
}

char *fmt_time(char *buf, size_t len, uint64_t v, int exp10, bool exact)
{
	static const struct { const char *name; int exp10; } units[] = {
		{ "s", 0 }, { "ms", 3 }, { "us", 6 }, { "ns", 9 }, { "ps", 12 },
	};
	uint64_t scale = 1, ip, frac;
	int k = 0, decimals, digits;
	const char *unit = "s";
	char num[48];
	size_t i;

	if (!v) {
		snprintf(buf, len, "0 ns");
		return buf;
	}
	/* The largest unit that v reaches, never finer than v's own unit. */
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (units[i].exp10 > exp10)
			break;
		k = exp10 - units[i].exp10;
		scale = pow10_tab[k];
		unit = units[i].name;
		if (v >= scale)
			break;
	}
	ip = v / scale;
	frac = v % scale;
	decimals = k;
	if (!exact) {
		uint64_t t;

		for (digits = 1, t = ip; t >= 10; t /= 10)
			digits++;
		decimals = digits >= 4 ? 0 : 4 - digits;
		if (decimals > k)
			decimals = k;
		/* Round the fraction to that many decimals. */
		frac = (frac + pow10_tab[k - decimals] / 2) /
		       pow10_tab[k - decimals];
		if (frac >= pow10_tab[decimals]) {
			ip++;
			frac -= pow10_tab[decimals];
		}
	}
	if (decimals)
		snprintf(num, sizeof(num), "%" PRIu64 ".%0*" PRIu64, ip,
			 decimals, frac);
	else
		snprintf(num, sizeof(num), "%" PRIu64, ip);
	trim_fraction(num);
	snprintf(buf, len, "%s %s", num, unit);
	return buf;
}

char *fmt_ns(char *buf, size_t len, uint64_t ns, bool exact)
{
	return fmt_time(buf, len, ns, 9, exact);
}

char *fmt_speed(char *buf, size_t len, uint64_t mbps)
{
	char num[48];

	if (mbps >= 1000 && mbps % 100 == 0) {
		snprintf(num, sizeof(num), "%" PRIu64 ".%" PRIu64,
			 mbps / 1000, (mbps % 1000) / 100);
		trim_fraction(num);
		snprintf(buf, len, "%sGb/s", num);
	} else {
		snprintf(buf, len, "%" PRIu64 "Mb/s", mbps);
	}
	return buf;
}

char *fmt_rate(char *buf, size_t len, uint64_t bps)
{
	static const struct { const char *name; uint64_t mult; } units[] = {
		{ "Tbit", 1000000000000ULL }, { "Gbit", 1000000000ULL },
		{ "Mbit", 1000000ULL }, { "Kbit", 1000ULL },
	};
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (bps >= units[i].mult && bps % (units[i].mult / 1000) == 0) {
			char num[48];

			snprintf(num, sizeof(num), "%" PRIu64 ".%03" PRIu64,
				 bps / units[i].mult,
				 (bps % units[i].mult) / (units[i].mult / 1000));
			trim_fraction(num);
			snprintf(buf, len, "%s%s", num, units[i].name);
			return buf;
		}
	}
	snprintf(buf, len, "%" PRIu64 "bit", bps);
	return buf;
}

char *fmt_prio_list(char *buf, size_t len, unsigned int mask)
{
	size_t off = 0;
	int p = 0;

	buf[0] = '\0';
	if (!(mask & 0xff)) {
		snprintf(buf, len, "none");
		return buf;
	}
	while (p < 8) {
		int q = p;

		if (!(mask & (1u << p))) {
			p++;
			continue;
		}
		while (q + 1 < 8 && (mask & (1u << (q + 1))))
			q++;
		if (off < len)
			off += snprintf(buf + off, len - off, "%s%d",
					off ? "," : "", p);
		if (q >= p + 2 && off < len)
			off += snprintf(buf + off, len - off, "-%d", q);
		else if (q == p + 1 && off < len)
			off += snprintf(buf + off, len - off, ",%d", q);
		p = q + 1;
	}
	return buf;
}
