// SPDX-License-Identifier: GPL-2.0
/*
 * Usage errors, worded the way iproute2 words them, so that a mistyped
 * word always gets the same answer: what was wrong, then the grammar.
 */
#include <errno.h>
#include <stdio.h>

#include "flowctl.h"
#include "show.h"

struct fc_opts fc_opt;

int what_is(const char *word, void (*usage)(FILE *))
{
	fprintf(stderr, "What is \"%s\"?\n", word);
	usage(stderr);
	return EXIT_USAGE;
}

int incomplete(void (*usage)(FILE *))
{
	fprintf(stderr, "Command line is not complete. Try option \"help\"\n");
	usage(stderr);
	return EXIT_USAGE;
}

int bad_value(const char *keyword, const char *arg, int err,
	      const char *expected)
{
	if (err == -ERANGE)
		fprintf(stderr, "Error: %s \"%s\" is out of range: expected %s\n",
			keyword, arg, expected);
	else
		fprintf(stderr, "Error: invalid %s \"%s\": expected %s\n",
			keyword, arg, expected);
	return EXIT_USAGE;
}

bool want_help(int argc, char **argv, void (*usage)(FILE *))
{
	if (argc > 0 && matches(argv[0], "help")) {
		usage(stdout);
		return true;
	}
	return false;
}

int parse_periodic(int argc, char **argv, void (*usage)(FILE *),
		   const char *interval_hint, const char *count_hint,
		   const char **dev, uint64_t *interval_ns, uint64_t *count)
{
	uint64_t v;
	int err;

	while (argc > 0) {
		if (matches(argv[0], "help")) {
			usage(stdout);
			return EXIT_OK;
		}
		if (!matches(argv[0], "dev") && !matches(argv[0], "interval") &&
		    !matches(argv[0], "count"))
			return what_is(argv[0], usage);
		if (argc < 2)
			return incomplete(usage);
		if (matches(argv[0], "dev")) {
			if (fc_check_dev_name(argv[1]))
				return EXIT_USAGE;
			*dev = argv[1];
		} else if (matches(argv[0], "interval")) {
			err = parse_time(argv[1], 1000000000ULL, 3600000000000ULL, &v);
			if (!err && v < 10000000ULL)
				err = -ERANGE;
			if (err)
				return bad_value("interval", argv[1], err, interval_hint);
			*interval_ns = v;
		} else {
			err = parse_u64(argv[1], 1, UINT32_MAX, &v);
			if (err)
				return bad_value("count", argv[1], err, count_hint);
			*count = v;
		}
		argc -= 2;
		argv += 2;
	}
	return -1;
}
