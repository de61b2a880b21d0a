/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLOWCTL_MONITOR_H
#define FLOWCTL_MONITOR_H

#include <libmnl/libmnl.h>

/* Print one FLOWCTL_CMD_EVENT message as monitor does. 0 or -EINVAL. */
int fc_event_print(const struct nlmsghdr *nlh);

#endif
