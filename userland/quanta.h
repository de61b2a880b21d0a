/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pause quanta and time. One quantum is 512 bit times: 5120 ns at 100 Mb/s,
 * 512 ns at 1 Gb/s, 51.2 ns at 10 Gb/s. The kernel rounds to whole ns
 * (mc_quanta_to_ns); for display we keep picoseconds, so 1 quantum at
 * 400 Gb/s reads 1.28 ns rather than 1 ns.
 */
#ifndef FLOWCTL_QUANTA_H
#define FLOWCTL_QUANTA_H

#include <stdint.h>

#define FC_QUANTA_MAX		65535u
#define FC_QUANTA_TIME_MAX_NS	1000000000000ULL	/* 1000 s, ample */

/* Picoseconds that quanta last at mbps (> 0), rounded to nearest. */
uint64_t fc_quanta_ps(uint64_t quanta, uint32_t mbps);
/* Quanta that cover ns at mbps, rounded up, NOT capped (may be > 65535). */
uint64_t fc_quanta_for_ns(uint64_t ns, uint32_t mbps);

/* The speeds of the table printed when no speed is given. */
extern const uint32_t fc_quanta_speeds[];
extern const unsigned int fc_quanta_nspeeds;

#endif
