/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLOWCTL_METRICS_H
#define FLOWCTL_METRICS_H

#include <stdio.h>

#include "dev.h"

/* Every port of l in the Prometheus text exposition format. */
void fc_print_metrics(FILE *f, const struct fc_dev_list *l);

#endif
