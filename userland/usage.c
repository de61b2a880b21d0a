// SPDX-License-Identifier: GPL-2.0
/*
 * Usage errors, worded the way iproute2 words them, so that a mistyped
 * word always gets the same answer: what was wrong, then the grammar.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "flowctl.h"
#include "show.h"

struct fc_opts fc_opt;
const char *fc_help_hint;

int fc_check_dev_name(const char *dev)
{
	if (!dev[0] || strlen(dev) >= IF_NAMESIZE || strchr(dev, '/') ||
	    strchr(dev, ' ')) {
		fprintf(stderr, "Error: \"%s\" is not a valid device name\n", dev);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int what_is(const char *word, void (*usage)(FILE *))
{
	fprintf(stderr, "What is \"%s\"?\n", word);
	usage(stderr);
	return EXIT_USAGE;
}

/* "a, b or c" of the words whose pick[] is set. */
static void print_words(const char *const *words, const bool *pick)
{
	int i, left = 0;

	for (i = 0; words[i]; i++)
		left += pick[i];
	for (i = 0; words[i]; i++) {
		if (!pick[i])
			continue;
		left--;
		fprintf(stderr, "%s%s", words[i],
			left > 1 ? ", " : left == 1 ? " or " : "");
	}
}

#define KW_MAX 32

int bad_keyword(const char *arg, const char *const *words, int why,
		const char *cmd)
{
	bool pick[KW_MAX + 1] = { false };
	size_t len = strlen(arg);
	int i, close = 0;

	for (i = 0; words[i] && i < KW_MAX; i++) {
		if (why == KW_AMBIGUOUS) {
			pick[i] = !strncmp(arg, words[i], len);
		} else {
			unsigned int max = strlen(words[i]) <= 4 ? 1 : 2;

			pick[i] = word_distance(arg, words[i]) <= max;
			close += pick[i];
		}
	}
	if (why == KW_AMBIGUOUS) {
		fprintf(stderr, "Error: \"%s\" is ambiguous: did you mean ", arg);
		print_words(words, pick);
		fprintf(stderr, "?\n");
	} else if (close) {
		fprintf(stderr, "What is \"%s\"? Did you mean ", arg);
		print_words(words, pick);
		fprintf(stderr, "?\n");
	} else {
		for (i = 0; words[i] && i < KW_MAX; i++)
			pick[i] = true;
		fprintf(stderr, "What is \"%s\"? Expected ", arg);
		print_words(words, pick);
		fprintf(stderr, ".\n");
	}
	if (fc_help_hint)
		fprintf(stderr, "Try \"%s\".\n", fc_help_hint);
	else if (cmd)
		fprintf(stderr, "Try \"flowctl %s help\".\n", cmd);
	else
		fprintf(stderr, "Try \"flowctl help\".\n");
	return EXIT_USAGE;
}

int missing_value(const char *keyword, const char *expected)
{
	fprintf(stderr, "Error: %s needs a value: %s\n", keyword, expected);
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

int parse_periodic(int argc, char **argv, const char *cmd,
		   void (*usage)(FILE *),
		   const char *interval_hint, const char *count_hint,
		   const char **dev, uint64_t *interval_ns, uint64_t *count)
{
	static const char *const with_count[] = {
		"dev", "interval", "count", "help", NULL,
	};
	static const char *const without_count[] = {
		"dev", "interval", "help", NULL,
	};
	const char *const *words = count ? with_count : without_count;
	const char *w;
	uint64_t v;
	int err, k;

	while (argc > 0) {
		k = parse_keyword(argv[0], words);
		if (k < 0)
			return bad_keyword(argv[0], words, k, cmd);
		w = words[k];
		if (matches(w, "help")) {
			usage(stdout);
			return EXIT_OK;
		}
		if (argc < 2)
			return missing_value(w, matches(w, "dev") ? "a device name" :
					     matches(w, "interval") ? interval_hint : count_hint);
		if (matches(w, "dev")) {
			if (fc_check_dev_name(argv[1]))
				return EXIT_USAGE;
			*dev = argv[1];
		} else if (matches(w, "interval")) {
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
