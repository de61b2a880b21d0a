// SPDX-License-Identifier: GPL-2.0
/*
 * The watch verdict: steady = grew in >= 80% of the intervals and in each
 * of the last min(N, 5); bursty = grew otherwise; unclear = grew, N < 3.
 */
#include <string.h>

#include "ktap.h"
#include "verdict.h"

/* "1101" -> deltas {1,1,0,1}; digits are the growth of each interval. */
static enum fc_verdict run(const char *pattern, struct fc_verdict_info *info)
{
	uint64_t d[64];
	size_t n = strlen(pattern), i;

	for (i = 0; i < n && i < 64; i++)
		d[i] = (uint64_t)(pattern[i] - '0');
	return fc_verdict(d, n, info);
}

static void expect(const char *pattern, enum fc_verdict want, const char *why)
{
	enum fc_verdict got = run(pattern, NULL);

	if (!ktap_ok(got == want, "\"%s\" is %s: %s", pattern, fc_verdict_name(want), why))
		printf("# got %s\n", fc_verdict_name(got));
}

int main(void)
{
	struct fc_verdict_info info;

	ktap_begin("flowctl watch verdict");
	expect("", FC_VERDICT_NONE, "nothing watched");
	expect("0000000000", FC_VERDICT_NONE, "never grew");
	expect("1", FC_VERDICT_UNCLEAR, "one interval cannot tell");
	expect("11", FC_VERDICT_UNCLEAR, "two intervals cannot tell");
	expect("01", FC_VERDICT_UNCLEAR, "two intervals cannot tell");
	expect("111", FC_VERDICT_STEADY, "3 of 3, the whole window");
	expect("011", FC_VERDICT_BURSTY, "missed one of a 3-interval window");
	expect("1111", FC_VERDICT_STEADY, "4 of 4");
	expect("11111", FC_VERDICT_STEADY, "5 of 5");
	expect("1111111111", FC_VERDICT_STEADY, "10 of 10");
	expect("0111111111", FC_VERDICT_STEADY, "9 of 10 (90%), last 5 all grew");
	expect("0011111111", FC_VERDICT_STEADY, "8 of 10 (80%, the boundary), last 5 all grew");
	expect("0001111111", FC_VERDICT_BURSTY, "7 of 10 (70%) is below 80%");
	expect("1111111110", FC_VERDICT_BURSTY, "90% but stopped in the last interval");
	expect("1111110111", FC_VERDICT_BURSTY, "90% but a gap inside the last 5");
	expect("1111011111", FC_VERDICT_STEADY, "90%, the gap is before the last 5");
	expect("1000000000", FC_VERDICT_BURSTY, "one spike, then nothing");
	expect("0000000001", FC_VERDICT_BURSTY, "one spike at the end");
	expect("1010101010", FC_VERDICT_BURSTY, "every other interval");
	expect("9000009000", FC_VERDICT_BURSTY, "two big spikes");
	expect("100", FC_VERDICT_BURSTY, "3 intervals, grew once");

	/* The numbers watch prints next to the verdict. */
	run("0011111111", &info);
	ktap_ok(info.intervals == 10 && info.grew == 8 && info.window == 5 &&
		info.grew_in_window && info.grew_last,
		"info: 10 intervals, grew 8, window 5, grew in window and last");
	run("110", &info);
	ktap_ok(info.window == 3 && !info.grew_in_window && !info.grew_last && info.grew == 2,
		"info: window is min(N, 5) = 3");
	ktap_ok(fc_verdict(NULL, 0, &info) == FC_VERDICT_NONE && info.intervals == 0,
		"no intervals at all: none (NULL deltas allowed when N = 0)");

	/* 60 intervals: 80% and the last 5 is the rule at any length. */
	{
		uint64_t d[60];
		int i;

		for (i = 0; i < 60; i++)
			d[i] = i < 12 ? 0 : 3;	/* 48 of 60 = 80% */
		ktap_ok(fc_verdict(d, 60, NULL) == FC_VERDICT_STEADY, "48 of 60 grew, to the end: steady");
		d[12] = 0;			/* 47 of 60 < 80% */
		ktap_ok(fc_verdict(d, 60, NULL) == FC_VERDICT_BURSTY, "47 of 60 grew: bursty");
	}
	KTAP_EQ_STR(fc_verdict_name(FC_VERDICT_STEADY), "steady", "names: steady");
	KTAP_EQ_STR(fc_verdict_name(FC_VERDICT_BURSTY), "bursty", "names: bursty");
	return ktap_finish();
}
