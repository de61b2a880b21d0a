/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLOWCTL_WATCH_H
#define FLOWCTL_WATCH_H

#include <stdint.h>

#include "dev.h"

/* Read the port once: 0, or -errno after telling the user why. */
typedef int (*fc_watch_fetch_t)(void *ctx, struct fc_dev *out);

/*
 * The watch loop: a first reading, then one every interval_ns for count
 * intervals (0: until SIGINT/SIGTERM), then the verdicts. Returns an exit
 * code. The CLI fetches over netlink; the tests hand in readings.
 */
int fc_watch_run(const char *dev, uint64_t interval_ns, uint64_t count,
		 fc_watch_fetch_t fetch, void *ctx);

#endif
