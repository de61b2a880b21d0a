/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Is a pause counter growing in bursts, or all the time? Flow control
 * absorbs bursts; it cannot cure sustained overload. A pure function of
 * the per-interval deltas, so the rule is tested on the host.
 */
#ifndef FLOWCTL_VERDICT_H
#define FLOWCTL_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FC_VERDICT_MIN_INTERVALS	3	/* fewer: "unclear" */
#define FC_VERDICT_WINDOW		5	/* the last intervals that must all grow */
#define FC_VERDICT_STEADY_PCT		80	/* share of all intervals that must grow */

#define FC_VERDICT_RULE \
	"steady = grew in at least 80% of the intervals and in each of the " \
	"last min(N,5); bursty = grew, but not steadily; unclear = grew, " \
	"but fewer than 3 intervals were watched"

enum fc_verdict {
	FC_VERDICT_NONE,	/* never grew */
	FC_VERDICT_UNCLEAR,	/* grew, too few intervals to say */
	FC_VERDICT_BURSTY,	/* grew in spikes */
	FC_VERDICT_STEADY,	/* grew nearly all the time, up to the end */
};

struct fc_verdict_info {
	size_t intervals;	/* N */
	size_t grew;		/* intervals with delta > 0 */
	size_t window;		/* min(N, FC_VERDICT_WINDOW) */
	bool grew_in_window;	/* grew in each of the last window intervals */
	bool grew_last;
};

enum fc_verdict fc_verdict(const uint64_t *delta, size_t n,
			   struct fc_verdict_info *info);
const char *fc_verdict_name(enum fc_verdict v);

#endif
