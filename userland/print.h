/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output helpers: each value goes through one call that writes either the
 * text form or the JSON form, the way iproute2's json_print does. A command
 * never tests "if (json)" to print a value twice.
 */
#ifndef FLOWCTL_PRINT_H
#define FLOWCTL_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fmt.h"

enum output_type {
	PRINT_FP = 1,		/* text only */
	PRINT_JSON = 2,		/* JSON only */
	PRINT_ANY = 3,		/* whichever is on */
};

/* Set up output: json on/off, pretty JSON, where to write. */
void print_init(bool json, bool pretty, FILE *out);
bool is_json(void);
FILE *print_file(void);

/*
 * JSON structure. name is the key inside an object, NULL inside an array
 * or at the top level. In text mode these do nothing.
 */
void open_json_object(const char *name);
void close_json_object(void);
void open_json_array(const char *name);
void close_json_array(void);
/* End a top-level JSON value with a newline (JSON lines, documents). */
void json_end_document(void);

/*
 * Values. fmt is a printf format with one %s that receives the text form.
 * In JSON mode the key gets the native JSON value; fmt is not used.
 */
void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *s);
void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t v);
void print_bool(enum output_type t, const char *key, const char *fmt,
		bool v);		/* text: "true"/"false" */
void print_on_off(enum output_type t, const char *key, const char *fmt,
		  bool v);		/* text: "on"/"off", JSON: bool */
void print_float(enum output_type t, const char *key, const char *fmt,
		 double v, int decimals);
void print_null(const char *key);	/* JSON only */
/* A number in JSON, a text rendering of it (e.g. "10Gb/s") in text. */
void print_u64_as(enum output_type t, const char *key, const char *fmt,
		  uint64_t v, const char *text);
/* A number already formatted (e.g. "1.28") in JSON, text in text. */
void print_number(enum output_type t, const char *key, const char *fmt,
		  const char *number, const char *text);
/* Nanoseconds: the number in JSON, "12.3 ms" in text. */
void print_ns(enum output_type t, const char *key, const char *fmt,
	      uint64_t ns);

/* Text only: free-form decoration, and a newline. */
void print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void print_nl(void);

/* Formatting (fmt.h), and the wall clock. Each returns buf. */
char *fmt_wall(char *buf, size_t len, bool iso);	/* now, local */

#endif
