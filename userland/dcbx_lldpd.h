/* SPDX-License-Identifier: GPL-2.0 */
/* flowctl dcbx other-agents lldpd: the DCBX TLVs sent by lldpd (dcbx_lldpd.c). */
#ifndef FLOWCTL_DCBX_LLDPD_H
#define FLOWCTL_DCBX_LLDPD_H

#include <stddef.h>
#include <stdint.h>

#include "dcbx_agent.h"

/* lldpd did not answer lldpcli within 5 s (stopped or hung): lldpcli killed. */
#define FC_LLDPD_HUNG (-2)

/* lldpcli answers on lldpd's socket: 0, or -1 with the reason on stderr. */
int fc_lldpd_probe(struct fc_dcbx_agent *a);

/* The organizationally specific TLVs of the LLDPDU FRAME to lldpd: those
 * that changed since the last push, and the removal of those no longer
 * there. 0; -1 when lldpcli refused one (an lldpd-error event says which;
 * it is tried again at the next push); FC_LLDPD_HUNG when lldpd did not
 * answer (the rest of the push waits for the next).
 */
int fc_lldpd_push(struct fc_dcbx_agent *a, const uint8_t *frame, size_t len);

/* Every TLV handed to lldpd taken back (the agent is leaving). */
void fc_lldpd_clear(struct fc_dcbx_agent *a);

#endif
