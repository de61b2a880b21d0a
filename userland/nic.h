/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a device's driver says of itself, for the doctor: ethtool netlink
 * (link modes, MAC pause and its counters, features) and dcbnl (the NIC's
 * own PFC, who runs DCBX). Each request's outcome, answer or errno, lands
 * in struct fc_doc_nic; nothing here prints.
 */
#ifndef FLOWCTL_NIC_H
#define FLOWCTL_NIC_H

#include "doctor.h"
#include "netlink.h"

struct fc_nic_socks {
	struct fc_nl eth;	/* generic netlink, family "ethtool" */
	int eth_err;		/* 0, or why it is unusable (positive errno) */
	struct fc_nl rt;	/* rtnetlink, for dcbnl */
	int rt_err;
};

/* Open both sockets; what fails is kept in *_err, reported per request. */
void fc_nic_open(struct fc_nic_socks *s);
void fc_nic_close(struct fc_nic_socks *s);
/* Every fact of dev (the pause counters as reading 0). */
void fc_nic_read(struct fc_nic_socks *s, const char *dev, struct fc_doc_nic *n);
/* The MAC's pause counters again, as reading 1. */
void fc_nic_read_pause(struct fc_nic_socks *s, const char *dev,
		       struct fc_doc_nic *n, int reading);

#endif
