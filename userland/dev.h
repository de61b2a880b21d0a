/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One port as the kernel describes it in a DEV_GET reply. Attributes the
 * kernel did not send are absent (their bit in "have" is clear), unknown
 * ones are ignored: a newer or older module still shows what it can.
 */
#ifndef FLOWCTL_DEV_H
#define FLOWCTL_DEV_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/flowctl.h>

#include "netlink.h"

struct fc_doc_nic;

struct fc_prio {
	uint32_t have;				/* bit n: FLOWCTL_A_PRIO_n */
	uint64_t v[FLOWCTL_A_PRIO_MAX + 1];
};

/* One TX queue's flowctl (FLOWCTL_A_DEV_QUEUE), in a reply that asked. */
struct fc_queue {
	uint32_t have;				/* bit n: FLOWCTL_A_QUEUE_n */
	uint64_t v[FLOWCTL_A_QUEUE_MAX + 1];
};

/* The DCBX partner the port's agent heard (FLOWCTL_A_DEV_PEER). */
struct fc_peer {
	uint32_t have;				/* bit n: FLOWCTL_A_PEER_n */
	uint64_t v[FLOWCTL_A_PEER_MAX + 1];	/* the unsigned ones */
	uint8_t mac[6];
	uint8_t bw[8], tsa[8], reco_bw[8], reco_tsa[8];
	unsigned int napps;
	struct { uint8_t sel, prio; uint16_t proto; } app[FLOWCTL_PEER_APPS];
};

struct fc_dev {
	uint64_t have;				/* bit n: FLOWCTL_A_DEV_n */
	uint64_t v[FLOWCTL_A_DEV_MAX + 1];
	char ifname[IF_NAMESIZE];
	uint32_t stats_have;			/* bit n: FLOWCTL_A_STATS_n */
	uint64_t stats[FLOWCTL_A_STATS_MAX + 1];
	struct fc_prio prio[FLOWCTL_NUM_PRIOS];	/* by priority number */
	uint8_t dscp_prios[64];			/* FLOWCTL_A_DEV_DSCP_PRIOS */
	struct fc_peer peer;			/* FLOWCTL_A_DEV_PEER */
	uint64_t hwaddr;			/* its own MAC (48 bits), 0: unknown */
	struct fc_queue *queues;		/* FLOWCTL_A_DEV_QUEUE, in order;
						 * fc_dev_list_free() frees them
						 */
	unsigned int nqueues;
	const struct fc_doc_nic *nic;		/* its driver's own flow control,
						 * when read (show -s), or NULL
						 */
};

#define FC_HAS(mask, attr) (((mask) >> (attr)) & 1u)

/* An unsigned attribute of 1, 2, 4 or 8 bytes; false for any other length. */
bool fc_attr_uint(const struct nlattr *attr, uint64_t *v);

/*
 * How much a counter grew from one reading to the next: 0 unless both
 * have it; a counter that went down was reset, so it counts from zero.
 */
uint64_t fc_growth(uint64_t prev, uint64_t cur, bool have_prev, bool have_cur);

/* A MAC packed in 48 bits (FLOWCTL_A_DEV_PARTNER_MAC) as aa:bb:cc:dd:ee:ff. */
void fc_fmt_mac(char out[18], uint64_t mac);

/*
 * The MAC address of ifname in this network namespace (48 bits), or 0 when
 * it has none or cannot be read. DEV_GET does not carry it: rtnetlink does.
 */
uint64_t fc_dev_hwaddr(const char *ifname);

/* Parse one DEV_GET message (genetlink header included). 0 or -EINVAL. */
int fc_dev_parse(const struct nlmsghdr *nlh, struct fc_dev *d);

/* A growing array of ports, filled by fc_dev_list_cb. */
struct fc_dev_list {
	struct fc_dev *dev;
	size_t n, cap;
};
int fc_dev_list_cb(const struct nlmsghdr *nlh, void *data);
void fc_dev_list_sort(struct fc_dev_list *l);	/* by ifindex */
void fc_dev_list_free(struct fc_dev_list *l);

/* DEV_GET for one device (dev != NULL) or all (dump). Returns -errno. */
int fc_dev_get(struct fc_nl *nl, const char *dev, struct fc_dev_list *l);
/*
 * The same, brief (FLOWCTL_A_DEV_BRIEF): no counters, no priority nests,
 * no hwaddr; from a module without it, the full reply.
 */
int fc_dev_get_brief(struct fc_nl *nl, const char *dev, struct fc_dev_list *l);

/* One device with each TX queue's flowctl (FLOWCTL_A_DEV_QUEUES). */
int fc_dev_get_queues(struct fc_nl *nl, const char *dev, struct fc_dev_list *l);
/*
 * The port-level state of a brief reply (FLOWCTL_A_DEV_PAUSED ...): sent,
 * or worked out from the priority nests of a full one. A mask of
 * priorities, or -1 when neither says.
 */
int fc_dev_mask(const struct fc_dev *d, int attr);

#endif
