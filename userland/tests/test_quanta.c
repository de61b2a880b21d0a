// SPDX-License-Identifier: GPL-2.0
/*
 * Quanta and time: the codec's conversions (what the kernel uses), the
 * CLI's picosecond conversions (what it prints), and the formatting of
 * times, speeds, rates and priority lists.
 */
#include <string.h>

#include <flowctl/maccontrol.h>

#include "ktap.h"
#include "print.h"
#include "quanta.h"

static void test_codec_conversions(void)
{
	static const struct { uint32_t q, mbps; uint64_t ns; } t[] = {
		{ 1000, 1000, 512000 },		/* 512 us at 1G */
		{ 1000, 10000, 51200 },		/* 51.2 us at 10G */
		{ 65535, 100, 335539200 },	/* 335.5392 ms at 100M */
		{ 1, 100, 5120 },		/* one quantum: 5120 ns at 100M */
		{ 1, 1000, 512 },
		{ 1, 10000, 51 },		/* 51.2 rounds to 51 */
		{ 1, 10, 51200 },
		{ 65535, 10, 3355392000ULL },	/* the longest pause there is */
		{ 65535, 1000, 33553920 },
		{ 65535, 25000, 1342157 },	/* 1342156.8 rounds up */
		{ 65535, 400000, 83885 },	/* 83884.8 */
		{ 0, 1000, 0 },			/* XON */
		{ 3, 400000, 4 },		/* 3.84 */
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		KTAP_EQ_U64(mc_quanta_to_ns(t[i].q, t[i].mbps), t[i].ns,
			    "mc_quanta_to_ns(%u quanta, %u Mb/s) = %llu ns", t[i].q,
			    t[i].mbps, (unsigned long long)t[i].ns);

	KTAP_EQ_U64(mc_ns_to_quanta(512000, 1000), 1000, "mc_ns_to_quanta: 512 us at 1G = 1000");
	KTAP_EQ_U64(mc_ns_to_quanta(512001, 1000), 1001, "mc_ns_to_quanta: rounds up");
	KTAP_EQ_U64(mc_ns_to_quanta(1, 1000), 1, "mc_ns_to_quanta: 1 ns needs 1 quantum");
	KTAP_EQ_U64(mc_ns_to_quanta(0, 1000), 0, "mc_ns_to_quanta: 0 ns = 0");
	KTAP_EQ_U64(mc_ns_to_quanta(1000000, 1000), 1954, "mc_ns_to_quanta: 1 ms at 1G = 1954");
	KTAP_EQ_U64(mc_ns_to_quanta(1000000000ULL, 1000), 0xffff,
		    "mc_ns_to_quanta: 1 s at 1G caps at 65535");
	KTAP_EQ_U64(mc_ns_to_quanta(335539200, 100), 65535,
		    "mc_ns_to_quanta: 335539200 ns at 100M = 65535");
	KTAP_EQ_U64(mc_ns_to_quanta(51200, 10000), 1000, "mc_ns_to_quanta: 51.2 us at 10G = 1000");
}

static void test_cli_conversions(void)
{
	uint32_t s;
	unsigned int i;
	bool ok = true;

	KTAP_EQ_U64(fc_quanta_ps(1000, 1000), 512000000ULL, "fc_quanta_ps: 1000 quanta at 1G");
	KTAP_EQ_U64(fc_quanta_ps(1, 400000), 1280, "fc_quanta_ps: 1 quantum at 400G = 1.28 ns");
	KTAP_EQ_U64(fc_quanta_ps(1, 2500), 204800, "fc_quanta_ps: 1 quantum at 2.5G = 204.8 ns");
	KTAP_EQ_U64(fc_quanta_ps(65535, 100), 335539200000ULL, "fc_quanta_ps: 65535 at 100M");
	KTAP_EQ_U64(fc_quanta_ps(65535, 10), 3355392000000ULL, "fc_quanta_ps: 65535 at 10M");
	KTAP_EQ_U64(fc_quanta_for_ns(1000000000ULL, 1000), 1953125,
		    "fc_quanta_for_ns: 1 s at 1G = 1953125 (not capped)");
	KTAP_EQ_U64(fc_quanta_for_ns(1000000000000ULL, 10000000), 19531250000000ULL,
		    "fc_quanta_for_ns: 1000 s at the top speed does not overflow");

	/* Round trip: quanta -> ns -> quanta, at every table speed. */
	for (i = 0; i < fc_quanta_nspeeds; i++) {
		s = fc_quanta_speeds[i];
		if (mc_ns_to_quanta(fc_quanta_ps(1000, s) / 1000, s) > 1000 ||
		    fc_quanta_for_ns(fc_quanta_ps(65535, s) / 1000, s) > 65535)
			ok = false;
	}
	ktap_ok(ok, "quanta -> time -> quanta never grows, at every table speed");
	KTAP_EQ_U64(fc_quanta_nspeeds, 12, "the table covers 12 speeds, 10M .. 400G");
}

static void test_formatting(void)
{
	char b[FMT_LEN];

	KTAP_EQ_STR(fmt_ns(b, sizeof(b), 512000, true), "512 us", "fmt: 512000 ns = 512 us");
	KTAP_EQ_STR(fmt_ns(b, sizeof(b), 335539200, true), "335.5392 ms", "fmt: exact ms");
	KTAP_EQ_STR(fmt_ns(b, sizeof(b), 335539200, false), "335.5 ms", "fmt: short ms");
	KTAP_EQ_STR(fmt_ns(b, sizeof(b), 0, false), "0 ns", "fmt: zero");
	KTAP_EQ_STR(fmt_ns(b, sizeof(b), 999, false), "999 ns", "fmt: ns");
	KTAP_EQ_STR(fmt_ns(b, sizeof(b), 1500000000ULL, false), "1.5 s", "fmt: 1.5 s");
	KTAP_EQ_STR(fmt_ns(b, sizeof(b), 99999, false), "100 us", "fmt: rounding carries");
	KTAP_EQ_STR(fmt_ns(b, sizeof(b), 123456789012ULL, false), "123.5 s", "fmt: 123.5 s");
	KTAP_EQ_STR(fmt_ns(b, sizeof(b), 86400000000000ULL, false), "86400 s", "fmt: a day");
	KTAP_EQ_STR(fmt_time(b, sizeof(b), 1280, 12, true), "1.28 ns", "fmt: ps to 1.28 ns");
	KTAP_EQ_STR(fmt_time(b, sizeof(b), 640, 12, true), "640 ps", "fmt: below 1 ns in ps");
	KTAP_EQ_STR(fmt_speed(b, sizeof(b), 100), "100Mb/s", "fmt: 100Mb/s");
	KTAP_EQ_STR(fmt_speed(b, sizeof(b), 2500), "2.5Gb/s", "fmt: 2.5Gb/s");
	KTAP_EQ_STR(fmt_speed(b, sizeof(b), 400000), "400Gb/s", "fmt: 400Gb/s");
	KTAP_EQ_STR(fmt_speed(b, sizeof(b), 1234), "1234Mb/s", "fmt: 1234Mb/s");
	KTAP_EQ_STR(fmt_rate(b, sizeof(b), 1000000000ULL), "1Gbit", "fmt: 1Gbit");
	KTAP_EQ_STR(fmt_rate(b, sizeof(b), 1500000000ULL), "1.5Gbit", "fmt: 1.5Gbit");
	KTAP_EQ_STR(fmt_rate(b, sizeof(b), 64000), "64Kbit", "fmt: 64Kbit");
	KTAP_EQ_STR(fmt_rate(b, sizeof(b), 999), "999bit", "fmt: 999bit");
	KTAP_EQ_STR(fmt_prio_list(b, sizeof(b), 0x18), "3,4", "fmt: prios 3,4");
	KTAP_EQ_STR(fmt_prio_list(b, sizeof(b), 0x39), "0,3-5", "fmt: prios 0,3-5");
	KTAP_EQ_STR(fmt_prio_list(b, sizeof(b), 0xff), "0-7", "fmt: prios 0-7");
	KTAP_EQ_STR(fmt_prio_list(b, sizeof(b), 0), "none", "fmt: no prios");
	KTAP_EQ_STR(fmt_prio_list(b, sizeof(b), 0x81), "0,7", "fmt: prios 0,7");
}

int main(void)
{
	ktap_begin("flowctl quanta and time conversions");
	test_codec_conversions();
	test_cli_conversions();
	test_formatting();
	return ktap_finish();
}
