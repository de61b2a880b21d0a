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
