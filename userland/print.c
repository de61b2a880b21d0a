// SPDX-License-Identifier: GPL-2.0
/*
 * Text and JSON output from the same calls. The JSON writer keeps a small
 * stack of "is this the first member" flags so commas and pretty-printing
 * indentation come out right without the callers caring.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "print.h"

#define JSON_MAX_DEPTH 16

static FILE *out;
static bool json;
static bool pretty;
static int depth;
static bool first[JSON_MAX_DEPTH + 1] = { true };

void print_init(bool j, bool p, FILE *f)
{
	json = j;
	pretty = p;
	out = f ? f : stdout;
	depth = 0;
	first[0] = true;
}

bool is_json(void)
{
	return json;
}

FILE *print_file(void)
{
	return out ? out : stdout;
}

static bool want_text(enum output_type t)
{
	return !json && (t & PRINT_FP);
}

static bool want_json(enum output_type t)
{
	return json && (t & PRINT_JSON);
}

static void json_indent(void)
{
	int i;

	if (!pretty)
		return;
	if (depth > 0 || !first[0])
		fputc('\n', print_file());
	for (i = 0; i < depth; i++)
		fputs("    ", print_file());
}

static void json_escape(const char *s)
{
	FILE *f = print_file();
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Comma, newline and indent before a member; then "key": if named. */
static void json_key(const char *key)
{
	if (!first[depth])
		fputc(',', print_file());
	json_indent();
	first[depth] = false;
	if (key) {
		json_escape(key);
		fputs(pretty ? ": " : ":", print_file());
	}
}

static void json_open(const char *key, char c)
{
	json_key(key);
	fputc(c, print_file());
	if (depth < JSON_MAX_DEPTH)
		depth++;
	first[depth] = true;
}

static void json_close(char c)
{
	bool empty = first[depth];

	if (depth > 0)
		depth--;
	if (!empty && pretty) {
		int i;

		fputc('\n', print_file());
		for (i = 0; i < depth; i++)
			fputs("    ", print_file());
	}
	fputc(c, print_file());
}

void open_json_object(const char *name)
{
	if (json)
		json_open(name, '{');
}

void close_json_object(void)
{
	if (json)
		json_close('}');
}

void open_json_array(const char *name)
{
	if (json)
		json_open(name, '[');
}

void close_json_array(void)
{
	if (json)
		json_close(']');
}

void json_end_document(void)
{
	if (!json)
		return;
	fputc('\n', print_file());
	depth = 0;
	first[0] = true;
	fflush(print_file());
}

void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *s)
{
	if (want_json(t)) {
		json_key(key);
		json_escape(s);
	} else if (want_text(t)) {
		fprintf(print_file(), fmt, s);
	}
}

void print_u64_as(enum output_type t, const char *key, const char *fmt,
		  uint64_t v, const char *text)
{
	if (want_json(t)) {
		json_key(key);
		fprintf(print_file(), "%" PRIu64, v);
	} else if (want_text(t)) {
		fprintf(print_file(), fmt, text);
	}
}

void print_number(enum output_type t, const char *key, const char *fmt,
		  const char *number, const char *text)
{
	if (want_json(t)) {
		json_key(key);
		fputs(number, print_file());
	} else if (want_text(t)) {
		fprintf(print_file(), fmt, text);
	}
}

void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	print_u64_as(t, key, fmt, v, buf);
}

void print_ns(enum output_type t, const char *key, const char *fmt,
	      uint64_t ns)
{
	char buf[FMT_LEN];

	print_u64_as(t, key, fmt, ns, fmt_ns(buf, sizeof(buf), ns, false));
}

void print_bool(enum output_type t, const char *key, const char *fmt, bool v)
{
	if (want_json(t)) {
		json_key(key);
		fputs(v ? "true" : "false", print_file());
	} else if (want_text(t)) {
		fprintf(print_file(), fmt, v ? "true" : "false");
	}
}

void print_on_off(enum output_type t, const char *key, const char *fmt,
		  bool v)
{
	if (want_json(t)) {
		json_key(key);
		fputs(v ? "true" : "false", print_file());
	} else if (want_text(t)) {
		fprintf(print_file(), fmt, v ? "on" : "off");
	}
}

void print_float(enum output_type t, const char *key, const char *fmt,
		 double v, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	if (want_json(t)) {
		json_key(key);
		fputs(buf, print_file());
	} else if (want_text(t)) {
		fprintf(print_file(), fmt, buf);
	}
}

void print_null(const char *key)
{
	if (json) {
		json_key(key);
		fputs("null", print_file());
	}
}

void print_text(const char *fmt, ...)
{
	va_list ap;

	if (json)
		return;
	va_start(ap, fmt);
	vfprintf(print_file(), fmt, ap);
	va_end(ap);
}

void print_nl(void)
{
	if (!json)
		fputc('\n', print_file());
}

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

char *fmt_wall(char *buf, size_t len, bool iso)
{
	struct timeval tv;
	struct tm tm;
	char date[40], zone[8];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	if (iso) {
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
		/* RFC 3339: the offset as +hh:mm, not %z's +hhmm */
		strftime(zone, sizeof(zone), "%z", &tm);
		snprintf(buf, len, "%s.%06ld%.3s:%.2s", date, (long)tv.tv_usec,
			 zone, zone + 3);
	} else {
		strftime(date, sizeof(date), "%H:%M:%S", &tm);
		snprintf(buf, len, "%s.%06ld", date, (long)tv.tv_usec);
	}
	return buf;
}
