/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLOWCTL_WAITFOR_H
#define FLOWCTL_WAITFOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dev.h"

/* A flowctl port of a lab, as flowctl waitfor reads it. */
struct fc_wf_port {
	const char *ns;			/* its network namespace ("" for ours),
					 * or the label of the host it came from
					 */
	int node;			/* ports of one namespace or host share it */
	bool host;			/* read from a host's JSON (flowctl -j show) */
	struct fc_dev d;
	uint64_t mac;			/* its own address, 48 bits */
	int partner;			/* the port that paused it, or -1:
					 * fc_waitfor_print finds it
					 */
};

/* A growing set of ports. */
struct fc_wf_set {
	struct fc_wf_port *p;
	size_t n, cap;
};

/* A new zeroed port at the end of s, or NULL out of memory. */
struct fc_wf_port *fc_wf_add(struct fc_wf_set *s);

/*
 * Append the ports of one host, from its `flowctl -j show` (text, len
 * bytes), labelled label (kept, not copied) as node. 0, or -1 with the
 * reason in err and s as it was.
 */
int fc_wf_parse_show(struct fc_wf_set *s, const char *text, size_t len,
		     const char *label, int node, char *err, size_t errlen);

/*
 * Print the wait-for cycles among ports (text or JSON, as print_init
 * says), read from namespaces namespaces and hosts hosts. Returns how
 * many, or -1 out of memory.
 */
int fc_waitfor_print(const struct fc_wf_port *ports, size_t n, int namespaces,
		     int hosts);

#endif
