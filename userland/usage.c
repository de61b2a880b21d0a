// SPDX-License-Identifier: GPL-2.0
/*
 * Usage errors, worded the way iproute2 words them, so that a mistyped
 * word always gets the same answer: what was wrong, then the grammar.
 */
#include <errno.h>
#include <stdio.h>

#include "flowctl.h"

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
