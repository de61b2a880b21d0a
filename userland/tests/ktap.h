/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The smallest KTAP/TAP 13 harness: "ok N - ..." / "not ok N - ...", a
 * trailing plan and kselftest-style totals. ktap_finish() is the exit code:
 * 0 if all passed, 1 otherwise.
 */
#ifndef FLOWCTL_TESTS_KTAP_H
#define FLOWCTL_TESTS_KTAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int ktap_n, ktap_fail, ktap_skip;

static inline void ktap_begin(const char *name)
{
	printf("TAP version 13\n# %s\n", name);
	fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static inline bool ktap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	ktap_n++;
	if (!cond)
		ktap_fail++;
	printf("%sok %d - ", cond ? "" : "not ", ktap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

__attribute__((format(printf, 1, 2)))
static inline void ktap_skip_test(const char *fmt, ...)
{
	va_list ap;

	ktap_n++;
	ktap_skip++;
	printf("ok %d - ", ktap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP\n");
}

static inline int ktap_finish(void)
{
	printf("1..%d\n# Totals: pass:%d fail:%d skip:%d\n", ktap_n,
	       ktap_n - ktap_fail - ktap_skip, ktap_fail, ktap_skip);
	return ktap_fail ? 1 : 0;
}

/* Compare and say what was expected when it was not. */
#define KTAP_EQ_U64(got, want, fmt, ...)					\
	do {								\
		unsigned long long g_ = (got), w_ = (want);		\
		if (!ktap_ok(g_ == w_, fmt, ##__VA_ARGS__))		\
			printf("# got %llu, want %llu\n", g_, w_);	\
	} while (0)

#define KTAP_EQ_STR(got, want, fmt, ...)					\
	do {								\
		const char *g_ = (got), *w_ = (want);			\
		if (!ktap_ok(g_ && !strcmp(g_, w_), fmt, ##__VA_ARGS__)) \
			printf("# got \"%s\", want \"%s\"\n",		\
			       g_ ? g_ : "(null)", w_);			\
	} while (0)

#endif
