// SPDX-License-Identifier: GPL-2.0
/*
 * The watch verdict (see verdict.h and flowctl(8)): steady when a counter
 * grew in at least 80% of the intervals and in every one of the last
 * min(N, 5), bursty when it grew otherwise, unclear with under 3 intervals.
 */
#include "verdict.h"

enum fc_verdict fc_verdict(const uint64_t *delta, size_t n,
			   struct fc_verdict_info *info)
{
	struct fc_verdict_info in = { .intervals = n };
	size_t i;

	in.window = n < FC_VERDICT_WINDOW ? n : FC_VERDICT_WINDOW;
	in.grew_in_window = n > 0;
	for (i = 0; i < n; i++) {
		if (delta[i])
			in.grew++;
		else if (i >= n - in.window)
			in.grew_in_window = false;
	}
	in.grew_last = n > 0 && delta[n - 1] > 0;
	if (info)
		*info = in;
	if (!in.grew)
		return FC_VERDICT_NONE;
	if (n < FC_VERDICT_MIN_INTERVALS)
		return FC_VERDICT_UNCLEAR;
	if (in.grew * 100 >= FC_VERDICT_STEADY_PCT * n && in.grew_in_window)
		return FC_VERDICT_STEADY;
	return FC_VERDICT_BURSTY;
}

const char *fc_verdict_name(enum fc_verdict v)
{
	switch (v) {
	case FC_VERDICT_NONE:
		return "none";
	case FC_VERDICT_UNCLEAR:
		return "unclear";
	case FC_VERDICT_BURSTY:
		return "bursty";
	case FC_VERDICT_STEADY:
		return "steady";
	}
	return "?";
}
