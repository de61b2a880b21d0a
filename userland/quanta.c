// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl quanta: how long a pause_time lasts, and how many quanta a time
 * needs. A pause_time means nothing without the link speed, so with no
 * speed we print the whole table from 10 Mb/s to 400 Gb/s.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <flowctl/maccontrol.h>

#include "flowctl.h"
#include "print.h"
#include "quanta.h"

const uint32_t fc_quanta_speeds[] = {
	10, 100, 1000, 2500, 5000, 10000, 25000, 40000, 50000, 100000,
	200000, 400000,
};
const unsigned int fc_quanta_nspeeds =
	sizeof(fc_quanta_speeds) / sizeof(fc_quanta_speeds[0]);

uint64_t fc_quanta_ps(uint64_t quanta, uint32_t mbps)
{
	/* 512 bits at 1 Mb/s last 512 us = 512e6 ps. */
	return (quanta * MC_QUANTUM_BITS * 1000000ULL + mbps / 2) / mbps;
}

uint64_t fc_quanta_for_ns(uint64_t ns, uint32_t mbps)
{
	const uint64_t per = MC_QUANTUM_BITS * 1000ULL;	/* ns x Mb/s */

	return (ns * mbps + per - 1) / per;
}

void usage_quanta(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j ] quanta QUANTA [ speed SPEED ]\n"
		"       flowctl [ -j ] quanta TIME [ speed SPEED ]\n"
		"       flowctl quanta help\n"
		"QUANTA := { 0 .. 65535 }  a bare number: pause_time in quanta\n"
		"TIME := a number with a unit: 100ns, 512us, 1ms, 1.5s\n"
		"SPEED := 10M, 100M, 1G, 2.5G, 10G, 25G, 400G ... or Mb/s: 1000\n"
		"One quantum is 512 bit times (1000 quanta = 512 us at 1G, 51.2 us at\n"
		"10G). A TIME is rounded up to whole quanta; one frame holds at most\n"
		"65535. Without speed: a table over 10M .. 400G.\n");
}

static void print_speed(uint32_t mbps, const char *fmt)
{
	char buf[FMT_LEN];

	print_u64_as(PRINT_ANY, "speed_mbps", fmt, mbps,
		     fmt_speed(buf, sizeof(buf), mbps));
}

/* quanta -> time at one speed. */
static void quanta_row(uint64_t quanta, uint32_t mbps, bool table)
{
	char txt[FMT_LEN];
	uint64_t ps = fc_quanta_ps(quanta, mbps);

	open_json_object(NULL);
	if (table) {
		print_u64(PRINT_JSON, "quanta", NULL, quanta);
		print_speed(mbps, "  %-10s");
		print_u64_as(PRINT_ANY, "time_ps", "%s\n", ps,
			     fmt_time(txt, sizeof(txt), ps, 12, true));
	} else {
		print_u64(PRINT_ANY, "quanta", "%s quanta", quanta);
		print_speed(mbps, " at %s");
		print_u64_as(PRINT_ANY, "time_ps", " = %s", ps,
			     fmt_time(txt, sizeof(txt), ps, 12, true));
		print_u64(PRINT_FP, NULL, " (%s bit times)\n", quanta * MC_QUANTUM_BITS);
	}
	close_json_object();
}

/* time -> quanta at one speed. */
static void time_row(uint64_t ns, uint32_t mbps, bool table)
{
	uint64_t q = fc_quanta_for_ns(ns, mbps);
	uint64_t max_ps = fc_quanta_ps(FC_QUANTA_MAX, mbps);
	char txt[FMT_LEN], t[FMT_LEN];
	bool fits = q <= FC_QUANTA_MAX;

	open_json_object(NULL);
	if (table) {
		print_u64(PRINT_JSON, "time_ns", NULL, ns);
		print_speed(mbps, "  %-10s");
	} else {
		print_u64_as(PRINT_ANY, "time_ns", "%s", ns,
			     fmt_ns(t, sizeof(t), ns, true));
		print_speed(mbps, " at %s");
	}
	print_bool(PRINT_JSON, "fits", NULL, fits);
	if (fits) {
		uint64_t ps = fc_quanta_ps(q, mbps);

		print_u64(PRINT_ANY, "quanta", table ? "%-8s" : " = %s quanta", q);
		print_u64_as(PRINT_ANY, "quanta_time_ps", table ? "%s\n" : " (%s)\n",
			     ps, fmt_time(txt, sizeof(txt), ps, 12, true));
	} else {
		print_null("quanta");
		print_text(table ? "%-8s" : " cannot be expressed in one frame: ",
			   table ? "-" : "");
		print_u64_as(PRINT_ANY, "max_time_ps",
			     table ? "(longer than 65535 quanta = %s)\n"
				   : "more than 65535 quanta; the longest pause is %s\n",
			     max_ps, fmt_time(txt, sizeof(txt), max_ps, 12, true));
	}
	close_json_object();
}

int cmd_quanta(int argc, char **argv)
{
	uint64_t quanta = 0, ns = 0;
	bool is_time = false, have_speed = false;
	const char *value;
	uint32_t mbps = 0;
	char txt[FMT_LEN];
	unsigned int i;
	int err;

	if (argc < 1)
		return incomplete(usage_quanta);
	if (want_help(argc, argv, usage_quanta))
		return EXIT_OK;
	value = argv[0];
	if (parse_u64(value, 0, UINT64_MAX, &quanta) == 0) {
		if (quanta > FC_QUANTA_MAX)
			return bad_value("quanta", value, -ERANGE,
					 "0..65535 quanta (or a time with a unit: 1ms)");
	} else if (value[0] >= '0' && value[0] <= '9') {
		err = parse_time(value, 0, FC_QUANTA_TIME_MAX_NS, &ns);
		if (err)
			return bad_value("time", value, err,
					 "quanta 0..65535, or a time up to 1000 s with a unit: 100ns, 512us, 1ms, 1.5s");
		is_time = true;
	} else {
		return what_is(value, usage_quanta);
	}
	argc--;
	argv++;
	while (argc > 0) {
		static const char *const words[] = { "speed", "help", NULL };
		int k = parse_keyword(argv[0], words);

		if (k < 0)
			return bad_keyword(argv[0], words, k, "quanta");
		if (k == 1) {
			usage_quanta(stdout);
			return EXIT_OK;
		}
		if (argc < 2)
			return missing_value("speed",
					     "1..10000000 Mb/s, like 1000, 100M, 2.5G, 10G");
		if (have_speed) {
			fprintf(stderr, "Error: speed given twice\n");
			return EXIT_USAGE;
		}
		err = parse_speed(argv[1], &mbps);
		if (err)
			return bad_value("speed", argv[1], err,
					 "1..10000000 Mb/s, like 1000, 100M, 2.5G, 10G");
		have_speed = true;
		argc -= 2;
		argv += 2;
	}

	if (have_speed) {
		if (is_time)
			time_row(ns, mbps, false);
		else
			quanta_row(quanta, mbps, false);
		json_end_document();
		return EXIT_OK;
	}
	if (is_time)
		print_text("%s in quanta (rounded up; at most 65535 in one frame):\n"
			   "  %-10s%-8s%s\n", fmt_ns(txt, sizeof(txt), ns, true),
			   "speed", "quanta", "lasting");
	else
		print_text("%" PRIu64 " quanta = %" PRIu64 " bit times:\n  %-10s%s\n",
			   quanta, quanta * MC_QUANTUM_BITS, "speed", "time");
	open_json_array(NULL);
	for (i = 0; i < fc_quanta_nspeeds; i++) {
		if (is_time)
			time_row(ns, fc_quanta_speeds[i], true);
		else
			quanta_row(quanta, fc_quanta_speeds[i], true);
	}
	close_json_array();
	json_end_document();
	return EXIT_OK;
}
