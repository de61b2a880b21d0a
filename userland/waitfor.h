/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLOWCTL_WAITFOR_H
#define FLOWCTL_WAITFOR_H

#include <stddef.h>
#include <stdint.h>

#include "dev.h"

/* A flowctl port of a lab, as flowctl waitfor reads it. */
struct fc_wf_port {
	const char *ns;			/* its network namespace, "" for ours */
	struct fc_dev d;
	uint64_t mac;			/* its own address, 48 bits */
};

/*
 * Print the wait-for cycles among ports (text or JSON, as print_init
 * says). Returns how many, or -1 out of memory.
 */
int fc_waitfor_print(const struct fc_wf_port *ports, size_t n, int namespaces);

#endif
