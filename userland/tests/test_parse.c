// SPDX-License-Identifier: GPL-2.0
/*
 * Command-line parsing: every word parser with good, bad and out-of-range
 * input, then the "set" and "send" grammars, including what the user is
 * told about an unknown word.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"
#include "dev.h"
#include "flowctl.h"
#include "parse.h"
#include "send.h"
#include "set.h"

/* Run fn with stderr (and stdout) captured into buf. */
static char captured[8192];

static int capture(int (*fn)(int, char **, void *), int argc, char **argv,
		   void *arg)
{
	FILE *tmp = tmpfile();
	int saved_err = dup(2), saved_out = dup(1), ret;
	size_t n;

	fflush(stdout);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	dup2(fileno(tmp), 1);
	ret = fn(argc, argv, arg);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_err, 2);
	dup2(saved_out, 1);
	close(saved_err);
	close(saved_out);
	rewind(tmp);
	n = fread(captured, 1, sizeof(captured) - 1, tmp);
	captured[n] = '\0';
	fclose(tmp);
	return ret;
}

static int run_set(int argc, char **argv, void *arg)
{
	return fc_set_parse(argc, argv, arg);
}

static int run_send(int argc, char **argv, void *arg)
{
	return fc_send_parse(argc, argv, arg, true);
}

/* Split a line of words into argv (in place, at most 64 words). */
static int words(char *line, char **argv)
{
	int n = 0;
	char *tok, *save;

	for (tok = strtok_r(line, " ", &save); tok && n < 64;
	     tok = strtok_r(NULL, " ", &save))
		argv[n++] = tok;
	return n;
}

static void test_numbers(void)
{
	uint64_t v;

	KTAP_EQ_U64(parse_u64("42", 0, 100, &v), 0, "u64: 42 parses");
	KTAP_EQ_U64(v, 42, "u64: 42 is 42");
	KTAP_EQ_U64(parse_u64("0x1f", 0, 100, &v) == 0 && v == 31, 1, "u64: hex 0x1f = 31");
	KTAP_EQ_U64(parse_u64("010", 0, 100, &v) == 0 && v == 10, 1, "u64: 010 is decimal 10, not octal");
	ktap_ok(parse_u64("101", 0, 100, &v) == -ERANGE, "u64: above max is ERANGE");
	ktap_ok(parse_u64("4", 5, 100, &v) == -ERANGE, "u64: below min is ERANGE");
	ktap_ok(parse_u64("-1", 0, 100, &v) == -EINVAL, "u64: negative refused");
	ktap_ok(parse_u64("+1", 0, 100, &v) == -EINVAL, "u64: sign refused");
	ktap_ok(parse_u64(" 1", 0, 100, &v) == -EINVAL, "u64: leading space refused");
	ktap_ok(parse_u64("1x", 0, 100, &v) == -EINVAL, "u64: trailing junk refused");
	ktap_ok(parse_u64("", 0, 100, &v) == -EINVAL, "u64: empty refused");
	ktap_ok(parse_u64("0x", 0, 100, &v) == -EINVAL, "u64: bare 0x refused");
	ktap_ok(parse_u64("99999999999999999999999", 0, UINT64_MAX, &v) == -ERANGE,
		"u64: overflow is ERANGE");
	ktap_ok(parse_u64("18446744073709551615", 0, UINT64_MAX, &v) == 0 &&
		v == UINT64_MAX, "u64: UINT64_MAX parses");
}

static void test_on_off(void)
{
	bool b = false;

	ktap_ok(parse_on_off("on", &b) == 0 && b, "on/off: on");
	ktap_ok(parse_on_off("off", &b) == 0 && !b, "on/off: off");
	ktap_ok(parse_on_off("yes", &b) == -EINVAL, "on/off: yes refused");
	ktap_ok(parse_on_off("ON", &b) == -EINVAL, "on/off: ON refused (exact words)");
	ktap_ok(parse_on_off(NULL, &b) == -EINVAL, "on/off: missing refused");
}

static void test_rates(void)
{
	static const struct { const char *s; int err; uint64_t bps; } t[] = {
		{ "10000000", 0, 10000000ULL },
		{ "1gbit", 0, 1000000000ULL },
		{ "1Gbit", 0, 1000000000ULL },
		{ "100mbit", 0, 100000000ULL },
		{ "64kbit", 0, 64000ULL },
		{ "1.5gbit", 0, 1500000000ULL },
		{ "2.5G", 0, 2500000000ULL },
		{ "1tbit", 0, 1000000000000ULL },
		{ "800bit", 0, 800ULL },
		{ "0.5bit", -EINVAL, 0 },
		{ "1.0000000001gbit", -EINVAL, 0 },
		{ "1gbps", -EINVAL, 0 },
		{ "fast", -EINVAL, 0 },
		{ "1..5gbit", -EINVAL, 0 },
		{ ".5gbit", -EINVAL, 0 },
		{ "1e9", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "99999999999tbit", -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t v = 0;
		int err = parse_rate(t[i].s, &v);

		if (t[i].err)
			ktap_ok(err == t[i].err, "rate: \"%s\" refused (%d)", t[i].s, err);
		else
			ktap_ok(!err && v == t[i].bps, "rate: \"%s\" = %llu bit/s (got %llu)",
				t[i].s, (unsigned long long)t[i].bps,
				(unsigned long long)v);
	}
}

static void test_times(void)
{
	static const struct { const char *s; uint64_t unit; int err; uint64_t ns; } t[] = {
		{ "512us", 0, 0, 512000ULL },
		{ "1ms", 0, 0, 1000000ULL },
		{ "1.5s", 0, 0, 1500000000ULL },
		{ "100ns", 0, 0, 100ULL },
		{ "0.5ms", 0, 0, 500000ULL },
		{ "2usec", 0, 0, 2000ULL },
		{ "3msec", 0, 0, 3000000ULL },
		{ "1sec", 0, 0, 1000000000ULL },
		{ "1.000000001s", 0, 0, 1000000001ULL },
		{ "0.5ns", 0, -EINVAL, 0 },
		{ "1.0000000001s", 0, -EINVAL, 0 },
		{ "1000", 0, -EINVAL, 0 },		/* bare refused */
		{ "2", 1000000000ULL, 0, 2000000000ULL },	/* bare = s */
		{ "0.25", 1000000000ULL, 0, 250000000ULL },
		{ "250", 1000ULL, 0, 250000ULL },		/* bare = us */
		{ "1h", 0, -EINVAL, 0 },
		{ "ms", 0, -EINVAL, 0 },
		{ "1001s", 0, -ERANGE, 0 },		/* max 1000 s here */
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t v = 0;
		int err = parse_time(t[i].s, t[i].unit, 1000000000000ULL, &v);

		if (t[i].err)
			ktap_ok(err == t[i].err, "time: \"%s\" refused (%d)", t[i].s, err);
		else
			ktap_ok(!err && v == t[i].ns, "time: \"%s\" = %llu ns (got %llu)",
				t[i].s, (unsigned long long)t[i].ns,
				(unsigned long long)v);
	}
}

/* Milliseconds as the watchdog and tx-storm take them (100..5000 here). */
static void test_ms(void)
{
	static const struct { const char *s; int err; uint64_t ms; } t[] = {
		{ "200", 0, 200 }, { "200ms", 0, 200 }, { "1.5s", 0, 1500 },
		{ "0.2s", 0, 200 }, { "500000us", 0, 500 }, { "5000", 0, 5000 },
		{ "200us", -EINVAL, 0 },	/* not whole ms */
		{ "100.5ms", -EINVAL, 0 }, { "99ms", -ERANGE, 0 },
		{ "6s", -ERANGE, 0 }, { "2h", -EINVAL, 0 }, { "", -EINVAL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t v = 0;
		int err = parse_ms(t[i].s, 100, 5000, &v);

		if (t[i].err)
			ktap_ok(err == t[i].err, "ms: \"%s\" refused (%d)", t[i].s, err);
		else
			ktap_ok(!err && v == t[i].ms, "ms: \"%s\" = %llu ms (got %llu)",
				t[i].s, (unsigned long long)t[i].ms, (unsigned long long)v);
	}
}

static void test_speeds(void)
{
	static const struct { const char *s; int err; uint32_t mbps; } t[] = {
		{ "100M", 0, 100 }, { "1G", 0, 1000 }, { "10G", 0, 10000 },
		{ "25G", 0, 25000 }, { "400G", 0, 400000 }, { "1000", 0, 1000 },
		{ "2.5G", 0, 2500 }, { "10Gb/s", 0, 10000 }, { "100mbit", 0, 100 },
		{ "10gbps", 0, 10000 }, { "1T", 0, 1000000 },
		{ "0", -ERANGE, 0 }, { "0.5M", -EINVAL, 0 }, { "1.0005G", -EINVAL, 0 },
		{ "11T", -ERANGE, 0 }, { "fast", -EINVAL, 0 }, { "10K", -EINVAL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t v = 0;
		int err = parse_speed(t[i].s, &v);

		if (t[i].err)
			ktap_ok(err == t[i].err, "speed: \"%s\" refused (%d)", t[i].s, err);
		else
			ktap_ok(!err && v == t[i].mbps, "speed: \"%s\" = %u Mb/s (got %u)",
				t[i].s, t[i].mbps, v);
	}
}

static void test_bytes(void)
{
	uint32_t v = 0;

	ktap_ok(parse_bytes("1500", &v) == 0 && v == 1500, "bytes: 1500");
	ktap_ok(parse_bytes("64k", &v) == 0 && v == 65536, "bytes: 64k = 65536");
	ktap_ok(parse_bytes("1m", &v) == 0 && v == 1048576, "bytes: 1m = 1048576");
	ktap_ok(parse_bytes("1.5k", &v) == 0 && v == 1536, "bytes: 1.5k = 1536");
	ktap_ok(parse_bytes("4294967295", &v) == 0 && v == UINT32_MAX, "bytes: u32 max");
	ktap_ok(parse_bytes("4294967296", &v) == -ERANGE, "bytes: u32 max + 1 refused");
	ktap_ok(parse_bytes("4g", &v) == -ERANGE, "bytes: 4g refused");
	ktap_ok(parse_bytes("0.3k", &v) == -EINVAL, "bytes: 0.3k is not whole, refused");
	ktap_ok(parse_bytes("12q", &v) == -EINVAL, "bytes: unknown unit refused");
}

static void test_prio_lists(void)
{
	static const struct { const char *s; int err; uint8_t mask; } t[] = {
		{ "0", 0, 0x01 }, { "3,4", 0, 0x18 }, { "0,3-5", 0, 0x39 },
		{ "0-7", 0, 0xff }, { "all", 0, 0xff }, { "none", 0, 0x00 },
		{ "7", 0, 0x80 }, { "3,3", 0, 0x08 }, { "5-5", 0, 0x20 },
		{ "8", -ERANGE, 0 }, { "0-8", -ERANGE, 0 }, { "5-3", -EINVAL, 0 },
		{ "3,", -EINVAL, 0 }, { ",3", -EINVAL, 0 }, { "3-", -EINVAL, 0 },
		{ "", -EINVAL, 0 }, { "a", -EINVAL, 0 }, { "1;2", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 }, { "100", -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint8_t m = 0xaa;
		int err = parse_prio_list(t[i].s, &m);

		if (t[i].err)
			ktap_ok(err == t[i].err, "prio list: \"%s\" refused (%d)", t[i].s, err);
		else
			ktap_ok(!err && m == t[i].mask, "prio list: \"%s\" = 0x%02x (got 0x%02x)",
				t[i].s, t[i].mask, m);
	}
}

static void test_prio_tc(void)
{
	static const struct { const char *s; int err; uint32_t map; } t[] = {
		{ "1,0,2,3,4,5,6,7", 0, 0x76543201 }, { "8021q", 0, 0x76543201 },
		{ "numeric", 0, 0x76543210 }, { "0,0,0,0,0,0,0,7", 0, 0x70000000 },
		{ "7,7,7,7,7,7,7,7", 0, 0x77777777 },
		{ "1,0,2,3,4,5,6", -EINVAL, 0 }, { "1,0,2,3,4,5,6,7,", -EINVAL, 0 },
		{ "1,0,2,3,4,5,6,8", -ERANGE, 0 }, { "1,0,2,3,4,5,6,17", -ERANGE, 0 },
		{ "1;0,2,3,4,5,6,7", -EINVAL, 0 }, { "", -EINVAL, 0 },
		{ "a,0,2,3,4,5,6,7", -EINVAL, 0 }, { "1,0,2,3,4,5,6,7x", -EINVAL, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t m = 0xdeadbeef;
		int err = parse_prio_tc(t[i].s, &m);

		if (t[i].err)
			ktap_ok(err == t[i].err, "prio-tc: \"%s\" refused (%d)", t[i].s, err);
		else
			ktap_ok(!err && m == t[i].map, "prio-tc: \"%s\" = 0x%08x (got 0x%08x)",
				t[i].s, t[i].map, m);
	}
}

static void test_mac(void)
{
	uint8_t m[6];

	ktap_ok(parse_mac("01:80:c2:00:00:01", m) == 0 && m[0] == 1 && m[1] == 0x80 &&
		m[5] == 1, "mac: colon form");
	ktap_ok(parse_mac("02-00-00-AA-bb-0C", m) == 0 && m[3] == 0xaa && m[5] == 0x0c,
		"mac: dash form, mixed case");
	ktap_ok(parse_mac("01:80:c2:00:00", m) == -EINVAL, "mac: too short refused");
	ktap_ok(parse_mac("01:80-c2:00:00:01", m) == -EINVAL, "mac: mixed separators refused");
	ktap_ok(parse_mac("01:80:c2:00:00:0g", m) == -EINVAL, "mac: bad hex refused");
}

static void test_set(void)
{
	struct fc_set_req r;
	char line[512], *argv[64];
	int argc, ret;

	snprintf(line, sizeof(line),
		 "dev eth0 mode pfc rx on tx off pfc-prios 3,4 trust dscp speed 10G "
		 "rate 1.5gbit limit 64k xoff 30000 xon 20000 prio 3 xoff 9000 xon 3000 "
		 "prio 4 xon 1k xoff 2k quanta 65535");
	argc = words(line, argv);
	ret = capture(run_set, argc, argv, &r);
	ktap_ok(ret == EXIT_OK, "set: a full line parses");
	ktap_ok(r.dev && !strcmp(r.dev, "eth0"), "set: dev");
	KTAP_EQ_U64(r.have, 1u << FLOWCTL_A_DEV_MODE | 1u << FLOWCTL_A_DEV_RX |
		    1u << FLOWCTL_A_DEV_TX | 1u << FLOWCTL_A_DEV_PFC_PRIOS |
		    1u << FLOWCTL_A_DEV_TRUST | 1u << FLOWCTL_A_DEV_SPEED |
		    1u << FLOWCTL_A_DEV_RATE | 1u << FLOWCTL_A_DEV_LIMIT |
		    1u << FLOWCTL_A_DEV_XOFF | 1u << FLOWCTL_A_DEV_XON |
		    1u << FLOWCTL_A_DEV_QUANTA, "set: every attribute given is marked");
	KTAP_EQ_U64(r.v[FLOWCTL_A_DEV_MODE], FLOWCTL_MODE_PFC, "set: mode pfc");
	KTAP_EQ_U64(r.v[FLOWCTL_A_DEV_RX], 1, "set: rx on");
	KTAP_EQ_U64(r.v[FLOWCTL_A_DEV_TX], 0, "set: tx off");
	KTAP_EQ_U64(r.v[FLOWCTL_A_DEV_PFC_PRIOS], 0x18, "set: pfc-prios 3,4");
	KTAP_EQ_U64(r.v[FLOWCTL_A_DEV_TRUST], FLOWCTL_TRUST_DSCP, "set: trust dscp");
	KTAP_EQ_U64(r.v[FLOWCTL_A_DEV_SPEED], 10000, "set: speed 10G = 10000 Mb/s");
	KTAP_EQ_U64(r.v[FLOWCTL_A_DEV_RATE], 1500000000ULL, "set: rate 1.5gbit");
	KTAP_EQ_U64(r.v[FLOWCTL_A_DEV_LIMIT], 65536, "set: limit 64k");
	KTAP_EQ_U64(r.v[FLOWCTL_A_DEV_QUANTA], 65535, "set: quanta 65535");
	KTAP_EQ_U64(r.prio_have, 0x18, "set: prio 3 and 4 thresholds");
	ktap_ok(r.prio_xoff[3] == 9000 && r.prio_xon[3] == 3000, "set: prio 3 xoff/xon");
	ktap_ok(r.prio_xoff[4] == 2048 && r.prio_xon[4] == 1024,
		"set: prio 4 with xon before xoff");

	snprintf(line, sizeof(line), "dev eth0 speed auto rate off");
	argc = words(line, argv);
	ret = capture(run_set, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && FC_HAS(r.have, FLOWCTL_A_DEV_SPEED) &&
		r.v[FLOWCTL_A_DEV_SPEED] == 0 && FC_HAS(r.have, FLOWCTL_A_DEV_RATE) &&
		r.v[FLOWCTL_A_DEV_RATE] == 0, "set: speed auto and rate off send 0");
	ktap_ok(!FC_HAS(r.have, FLOWCTL_A_DEV_MODE), "set: only what was given is sent");

	static const struct { const char *line; const char *msg; } bad[] = {
		{ "dev eth0 frob 1", "What is \"frob\"?" },
		{ "dev eth0 watchdog 50", "watchdog \"50\" is out of range" },
		{ "dev eth0 watchdog 6000", "watchdog \"6000\" is out of range" },
		{ "dev eth0 wd-restoration 99", "wd-restoration \"99\" is out of range" },
		{ "dev eth0 wd-action shout", "wd-action" },
		{ "dev eth0 watchdog", "watchdog needs a value: off, or the detection time" },
		{ "dev eth0 mode pfc bogus", "What is \"bogus\"?" },
		{ "dev eth0 mode fast", "invalid mode \"fast\"" },
		{ "dev eth0 rx yes", "invalid rx \"yes\"" },
		{ "dev eth0 quanta 65536", "quanta \"65536\" is out of range" },
		{ "dev eth0 round-trip 65536", "round-trip \"65536\" is out of range" },
		{ "dev eth0 round-trip 1k", "invalid round-trip \"1k\"" },
		{ "dev eth0 quanta -1", "invalid quanta \"-1\"" },
		{ "dev eth0 prio 8 xoff 1 xon 1", "prio \"8\" is out of range" },
		{ "dev eth0 prio 3 xoff 1", "prio 3 needs \"xoff BYTES xon BYTES\"" },
		{ "dev eth0 prio 3 xoff", "xoff needs a value: bytes" },
		{ "dev eth0 prio", "prio needs a value: PRIO xoff BYTES xon BYTES" },
		{ "dev eth0 prio 3 xoff 1 xoff 2", "needs \"xoff BYTES xon BYTES\"" },
		{ "dev eth0 prio 3 xoff 2 xon 1 prio 3 xoff 2 xon 1", "prio 3 given twice" },
		{ "dev eth0 pfc-prios 9", "pfc-prios \"9\" is out of range" },
		{ "dev eth0 speed 0", "speed \"0\" is out of range" },
		{ "dev eth0 rate 1gbps", "invalid rate \"1gbps\"" },
		{ "dev eth0 limit 5g", "limit \"5g\" is out of range" },
		{ "dev eth0 mode pfc mode off", "mode given twice" },
		{ "dev eth0", "nothing to set" },
		{ "mode pfc", "set needs dev DEV" },
		{ "dev", "dev needs a value: a device name" },
		{ "dev eth0 trust", "trust needs a value: pcp or dscp" },
		{ "dev eth0 mode", "mode needs a value: pause, pfc or off" },
		{ "dev eth0 x 1", "\"x\" is ambiguous: did you mean xoff or xon?" },
		{ "dev eth0 p 1", "did you mean pfc-prios, prio or prio-tc?" },
		{ "dev eth0 mdoe pfc", "What is \"mdoe\"? Did you mean mode?" },
		{ "dev eth0 frob 1", "Expected dev, mode, rx, tx, pfc-prios, trust, speed, rate, limit, xoff, xon, prio, quanta, prio-tc, ets, help, watchdog, wd-restoration, wd-action, tx-storm, tunnel-wire or round-trip." },
		{ "dev eth0 ets 0:30,3:60", "ets \"0:30,3:60\" is out of range" },
		{ "dev eth0 ets 0:30,0:70", "invalid ets \"0:30,0:70\"" },
		{ "dev eth0 ets 8:100", "ets \"8:100\" is out of range" },
		{ "dev eth0 ets 0:0,1:100", "ets \"0:0,1:100\" is out of range" },
		{ "dev eth0 ets 0:101", "ets \"0:101\" is out of range" },
		{ "dev eth0 ets 0:100,", "invalid ets \"0:100,\"" },
		{ "dev eth0 ets", "ets needs a value: TC:PERCENT" },
		{ "dev eth0 trust ip", "invalid trust \"ip\"" },
		{ "dev waytoolongdevicename0 mode off", "not a valid device name" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s", bad[i].line);
		argc = words(line, argv);
		ret = capture(run_set, argc, argv, &r);
		if (!ktap_ok(ret == EXIT_USAGE && strstr(captured, bad[i].msg),
			     "set: \"%s\" -> exit 2, \"%s\"", bad[i].line, bad[i].msg))
			printf("# ret %d, said: %s", ret, captured);
	}
	snprintf(line, sizeof(line), "dev eth0 frob");
	argc = words(line, argv);
	capture(run_set, argc, argv, &r);
	ktap_ok(strstr(captured, "Try \"flowctl set help\".") &&
		!strstr(captured, "Usage: flowctl set"),
		"set: an unknown word is answered with the words and the help command, not the usage");

	snprintf(line, sizeof(line), "dev eth0 ets 0:30,3:50,5:20");
	argc = words(line, argv);
	ret = capture(run_set, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && FC_HAS(r.have, FLOWCTL_A_DEV_TC_BW) &&
		r.v[FLOWCTL_A_DEV_TC_BW] == (30ULL | 50ULL << 24 | 20ULL << 40),
		"set: ets 0:30,3:50,5:20 -> class 0 30%%, 3 50%%, 5 20%%");
	snprintf(line, sizeof(line), "dev eth0 ets off");
	argc = words(line, argv);
	ret = capture(run_set, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && FC_HAS(r.have, FLOWCTL_A_DEV_TC_BW) &&
		r.v[FLOWCTL_A_DEV_TC_BW] == 0, "set: ets off sends all zeros");
	snprintf(line, sizeof(line), "dev eth0 round-trip 4096");
	argc = words(line, argv);
	ret = capture(run_set, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && r.have == 1ull << FLOWCTL_A_DEV_PFC_DELAY &&
		r.v[FLOWCTL_A_DEV_PFC_DELAY] == 4096,
		"set: round-trip 4096 sends the PFC delay allowance, 4096 bits");

	/* Prefixes, as iproute2 users type them. */
	snprintf(line, sizeof(line), "d eth0 mo pfc pfc 3,4 tr dscp sp 10G ra 1gbit li 64k xof 9k xon 3k q 100");
	argc = words(line, argv);
	ret = capture(run_set, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && r.dev && !strcmp(r.dev, "eth0") &&
		r.v[FLOWCTL_A_DEV_MODE] == FLOWCTL_MODE_PFC &&
		r.v[FLOWCTL_A_DEV_PFC_PRIOS] == 0x18 &&
		r.v[FLOWCTL_A_DEV_TRUST] == FLOWCTL_TRUST_DSCP &&
		r.v[FLOWCTL_A_DEV_SPEED] == 10000 &&
		r.v[FLOWCTL_A_DEV_RATE] == 1000000000ULL &&
		r.v[FLOWCTL_A_DEV_LIMIT] == 65536 && r.v[FLOWCTL_A_DEV_XOFF] == 9216 &&
		r.v[FLOWCTL_A_DEV_XON] == 3072 && r.v[FLOWCTL_A_DEV_QUANTA] == 100,
		"set: unambiguous prefixes of every keyword (d, mo, pfc, tr, sp, ra, li, xof, xon, q)");
	if (ret)
		printf("# ret %d, said: %s", ret, captured);
	snprintf(line, sizeof(line), "dev eth0 prio 2 xof 1k xo 2k");
	argc = words(line, argv);
	ret = capture(run_set, argc, argv, &r);
	ktap_ok(ret == EXIT_USAGE, "set: \"xo\" after prio is ambiguous too (xoff, xon)");
	snprintf(line, sizeof(line), "dev eth0 prio 2 xon 1k xof 2k");
	argc = words(line, argv);
	ret = capture(run_set, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && r.prio_xoff[2] == 2048 && r.prio_xon[2] == 1024,
		"set: prio's xoff and xon take prefixes too");
	snprintf(line, sizeof(line), "dev eth0 help");
	argc = words(line, argv);
	ret = capture(run_set, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && r.help && strstr(captured, "PRIO-LIST :="),
		"set: help prints the grammar, exit 0");
}

static int run_wd(int argc, char **argv, void *arg)
{
	bool helped;

	return fc_wd_parse(argc, argv, arg, &helped);
}

#define WD_BITS(a, b, c) ((a) << FLOWCTL_A_DEV_WD_DETECT_MS | \
			  (b) << FLOWCTL_A_DEV_WD_RESTORE_MS | \
			  (c) << FLOWCTL_A_DEV_WD_ACTION)

static void test_watchdog(void)
{
	static const struct {
		const char *line;
		uint32_t have;
		uint64_t det, res, act;
	} good[] = {
		{ "", 0, 0, 0, 0 },
		{ "dev eth0", 0, 0, 0, 0 },
		{ "dev eth0 on", WD_BITS(1u, 0u, 0u), 200, 0, 0 },
		{ "dev eth0 off", WD_BITS(1u, 0u, 0u), 0, 0, 0 },
		{ "dev eth0 detection 300 restoration auto action forward",
		  WD_BITS(1u, 1u, 1u), 300, 0, FLOWCTL_WD_FORWARD },
		{ "dev eth0 on action alert", WD_BITS(1u, 0u, 1u), 200, 0, FLOWCTL_WD_ALERT },
		{ "dev eth0 det 5000 res 60000 act drop", WD_BITS(1u, 1u, 1u), 5000, 60000,
		  FLOWCTL_WD_DROP },
		{ "dev eth0 restoration 1000", WD_BITS(0u, 1u, 0u), 0, 1000, 0 },
	};
	static const struct { const char *line; const char *msg; } bad[] = {
		{ "dev eth0 on off", "off takes no other setting" },
		{ "dev eth0 off action drop", "off takes no other setting" },
		{ "dev eth0 on detection 300", "on and detection both given" },
		{ "dev eth0 on on", "on given twice" },
		{ "dev eth0 detection 99", "detection \"99\" is out of range" },
		{ "dev eth0 detection 5001", "detection \"5001\" is out of range" },
		{ "dev eth0 restoration 60001", "restoration \"60001\" is out of range" },
		{ "dev eth0 action shout", "invalid action \"shout\"" },
		{ "dev eth0 action", "action needs a value: drop, forward or alert" },
		{ "dev eth0 detection 300 detection 400", "detection given twice" },
		{ "detection 300", "watchdog settings need dev DEV" },
		{ "dev eth0 dev eth1", "dev given twice" },
		{ "dev eth0 frob", "What is \"frob\"?" },
		{ "dev eth0 o", "\"o\" is ambiguous" },
	};
	struct fc_set_req r;
	char line[256], *argv[64];
	int argc, ret;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(line, sizeof(line), "%s", good[i].line);
		argc = words(line, argv);
		ret = capture(run_wd, argc, argv, &r);
		if (!ktap_ok(ret == EXIT_OK && r.have == good[i].have &&
			     r.v[FLOWCTL_A_DEV_WD_DETECT_MS] == good[i].det &&
			     r.v[FLOWCTL_A_DEV_WD_RESTORE_MS] == good[i].res &&
			     r.v[FLOWCTL_A_DEV_WD_ACTION] == good[i].act,
			     "watchdog: \"%s\" parses to its attributes", good[i].line))
			printf("# ret %d have %#llx, said: %s", ret, (unsigned long long)r.have, captured);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s", bad[i].line);
		argc = words(line, argv);
		ret = capture(run_wd, argc, argv, &r);
		if (!ktap_ok(ret == EXIT_USAGE && strstr(captured, bad[i].msg),
			     "watchdog: \"%s\" -> exit 2, \"%s\"", bad[i].line, bad[i].msg))
			printf("# ret %d, said: %s", ret, captured);
	}
}

static void test_send(void)
{
	struct fc_send_req r;
	char line[512], *argv[64];
	int argc, ret;

	snprintf(line, sizeof(line), "dev eth0 pfc 3:65535,4:100 count 5 interval 250");
	argc = words(line, argv);
	ret = capture(run_send, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && r.kind == FC_SEND_PFC, "send: pfc parses");
	KTAP_EQ_U64(r.pfc_enable, 0x18, "send: pfc enable = listed priorities");
	ktap_ok(r.pfc_time[3] == 65535 && r.pfc_time[4] == 100 && r.pfc_time[0] == 0,
		"send: pfc times");
	KTAP_EQ_U64(r.count, 5, "send: count");
	KTAP_EQ_U64(r.interval_ns, 250000, "send: interval 250 = 250 us");

	snprintf(line, sizeof(line), "dev eth0 pfc all:7");
	argc = words(line, argv);
	ret = capture(run_send, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && r.pfc_enable == 0xff && r.pfc_time[7] == 7,
		"send: pfc all:7");

	snprintf(line, sizeof(line), "dev eth0 xon da 02:00:00:00:00:01 interval 1ms");
	argc = words(line, argv);
	ret = capture(run_send, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && r.kind == FC_SEND_XON && r.have_da &&
		r.interval_ns == 1000000 && r.count == 1, "send: xon, da, interval 1ms, count 1");

	snprintf(line, sizeof(line), "dev eth0 opcode 0x0002");
	argc = words(line, argv);
	ret = capture(run_send, argc, argv, &r);
	ktap_ok(ret == EXIT_OK && r.kind == FC_SEND_NONE && r.have_opcode &&
		r.opcode == 2, "send: opcode alone is a bare frame");

	static const struct { const char *line; const char *msg; } bad[] = {
		{ "dev eth0 pause 65536", "pause \"65536\" is out of range" },
		{ "dev eth0 pause 1 xon", "give one FRAME" },
		{ "dev eth0", "nothing to send" },
		{ "pause 1", "send needs dev DEV" },
		{ "dev eth0 pfc 3:1,3:2", "invalid pfc" },
		{ "dev eth0 pfc 8:1", "pfc \"8:1\" is out of range" },
		{ "dev eth0 pfc 3", "invalid pfc" },
		{ "dev eth0 pfc 3:1,", "invalid pfc" },
		{ "dev eth0 pause 1 enable 0x100", "enable goes with pfc" },
		{ "dev eth0 pause 1 length 13", "length \"13\" is out of range" },
		{ "dev eth0 pause 1 da 01:80:c2", "invalid da" },
		{ "dev eth0 pause 1 blah", "What is \"blah\"?" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "%s", bad[i].line);
		argc = words(line, argv);
		ret = capture(run_send, argc, argv, &r);
		if (!ktap_ok(ret == EXIT_USAGE && strstr(captured, bad[i].msg),
			     "send: \"%s\" -> exit 2, \"%s\"", bad[i].line, bad[i].msg))
			printf("# ret %d, said: %s", ret, captured);
	}
}

static void test_keywords(void)
{
	static const char *const w[] = { "show", "set", "stats", "sample", "send",
					 "pfc", "pfc-prios", NULL };

	KTAP_EQ_U64(parse_keyword("show", w), 0, "keyword: exact");
	KTAP_EQ_U64(parse_keyword("sh", w), 0, "keyword: unique prefix");
	KTAP_EQ_U64(parse_keyword("st", w), 2, "keyword: st = stats");
	ktap_ok(parse_keyword("s", w) == KW_AMBIGUOUS, "keyword: s is ambiguous");
	ktap_ok(parse_keyword("se", w) == KW_AMBIGUOUS, "keyword: se is ambiguous (set, send)");
	KTAP_EQ_U64(parse_keyword("pfc", w), 5, "keyword: an exact word wins over longer ones");
	KTAP_EQ_U64(parse_keyword("pfc-", w), 6, "keyword: pfc- = pfc-prios");
	ktap_ok(parse_keyword("showx", w) == KW_UNKNOWN, "keyword: longer than the word");
	ktap_ok(parse_keyword("", w) == KW_UNKNOWN, "keyword: empty is unknown");
	ktap_ok(parse_keyword(NULL, w) == KW_UNKNOWN, "keyword: NULL is unknown");
	KTAP_EQ_U64(word_distance("shwo", "show"), 1, "distance: a swap is one edit");
	KTAP_EQ_U64(word_distance("sow", "show"), 1, "distance: a deletion");
	KTAP_EQ_U64(word_distance("frob", "show"), 3, "distance: frob to show (three substitutions)");
	KTAP_EQ_U64(word_distance("", "set"), 3, "distance: empty");
}

int main(void)
{
	ktap_begin("flowctl command-line parsing");
	test_numbers();
	test_on_off();
	test_rates();
	test_times();
	test_ms();
	test_speeds();
	test_bytes();
	test_prio_lists();
	test_prio_tc();
	test_mac();
	test_keywords();
	test_set();
	test_send();
	test_watchdog();
	return ktap_finish();
}
