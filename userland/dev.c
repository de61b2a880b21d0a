// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding of DEV_GET replies into struct fc_dev. Integers are read by
 * their payload length (1, 2, 4 or 8 bytes), so a module that widens a
 * field still reads right; PAD and unknown attributes are skipped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>

#include "dev.h"

_Static_assert(FLOWCTL_A_DEV_MAX < 64, "have mask too small");
_Static_assert(FLOWCTL_A_PRIO_MAX < 32, "have mask too small");
_Static_assert(FLOWCTL_A_STATS_MAX < 32, "have mask too small");

bool fc_attr_uint(const struct nlattr *attr, uint64_t *v)
{
	switch (mnl_attr_get_payload_len(attr)) {
	case 1:
		*v = mnl_attr_get_u8(attr);
		return true;
	case 2:
		*v = mnl_attr_get_u16(attr);
		return true;
	case 4:
		*v = mnl_attr_get_u32(attr);
		return true;
	case 8:
		*v = mnl_attr_get_u64(attr);
		return true;
	}
	return false;
}

uint64_t fc_growth(uint64_t prev, uint64_t cur, bool have_prev, bool have_cur)
{
	if (!have_prev || !have_cur)
		return 0;
	return cur >= prev ? cur - prev : cur;
}

static int stats_cb(const struct nlattr *attr, void *data)
{
	struct fc_dev *d = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type == FLOWCTL_A_STATS_UNSPEC || type == FLOWCTL_A_STATS_PAD ||
	    type > FLOWCTL_A_STATS_MAX)
		return MNL_CB_OK;
	if (fc_attr_uint(attr, &d->stats[type]))
		d->stats_have |= 1u << type;
	return MNL_CB_OK;
}

static int prio_cb(const struct nlattr *attr, void *data)
{
	struct fc_prio *p = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type == FLOWCTL_A_PRIO_UNSPEC || type == FLOWCTL_A_PRIO_PAD ||
	    type > FLOWCTL_A_PRIO_MAX)
		return MNL_CB_OK;
	if (fc_attr_uint(attr, &p->v[type]))
		p->have |= 1u << type;
	return MNL_CB_OK;
}

static void parse_prio(struct fc_dev *d, const struct nlattr *nest)
{
	struct fc_prio p;

	memset(&p, 0, sizeof(p));
	if (mnl_attr_parse_nested(nest, prio_cb, &p) < 0)
		return;
	if (!FC_HAS(p.have, FLOWCTL_A_PRIO_PRIO) ||
	    p.v[FLOWCTL_A_PRIO_PRIO] >= FLOWCTL_NUM_PRIOS)
		return;		/* cannot tell which priority: skip it */
	d->prio[p.v[FLOWCTL_A_PRIO_PRIO]] = p;
}


static int peer_cb(const struct nlattr *attr, void *data)
{
	struct fc_peer *p = data;
	unsigned int type = mnl_attr_get_type(attr);
	size_t len = mnl_attr_get_payload_len(attr);
	const void *b = mnl_attr_get_payload(attr);
	uint8_t *dst = NULL;

	if (type > FLOWCTL_A_PEER_MAX)
		return MNL_CB_OK;
	switch (type) {
	case FLOWCTL_A_PEER_MAC:
		dst = len == 6 ? p->mac : NULL;
		break;
	case FLOWCTL_A_PEER_ETS_TC_BW:
		dst = len == 8 ? p->bw : NULL;
		break;
	case FLOWCTL_A_PEER_ETS_TC_TSA:
		dst = len == 8 ? p->tsa : NULL;
		break;
	case FLOWCTL_A_PEER_RECO_TC_BW:
		dst = len == 8 ? p->reco_bw : NULL;
		break;
	case FLOWCTL_A_PEER_RECO_TC_TSA:
		dst = len == 8 ? p->reco_tsa : NULL;
		break;
	case FLOWCTL_A_PEER_APP:
		if (len % 4 || len / 4 > FLOWCTL_PEER_APPS)
			return MNL_CB_OK;
		memcpy(p->app, b, len);
		p->napps = (unsigned int)(len / 4);
		p->have |= 1u << type;
		return MNL_CB_OK;
	default:
		if (fc_attr_uint(attr, &p->v[type]))
			p->have |= 1u << type;
		return MNL_CB_OK;
	}
	if (dst) {
		memcpy(dst, b, len);
		p->have |= 1u << type;
	}
	return MNL_CB_OK;
}
static int queue_cb(const struct nlattr *attr, void *data)
{
	struct fc_queue *q = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type > FLOWCTL_A_QUEUE_MAX || type == FLOWCTL_A_QUEUE_PAD)
		return MNL_CB_OK;
	if (fc_attr_uint(attr, &q->v[type]))
		q->have |= 1u << type;
	return MNL_CB_OK;
}

/* One more queue; one the memory cannot hold is left out. */
static void parse_queue(struct fc_dev *d, const struct nlattr *attr)
{
	struct fc_queue *n = realloc(d->queues, (d->nqueues + 1) * sizeof(*n));

	if (!n)
		return;
	d->queues = n;
	memset(&n[d->nqueues], 0, sizeof(*n));
	mnl_attr_parse_nested(attr, queue_cb, &n[d->nqueues]);
	d->nqueues++;
}

static int dev_cb(const struct nlattr *attr, void *data)
{
	struct fc_dev *d = data;
	uint16_t type = mnl_attr_get_type(attr);

	switch (type) {
	case FLOWCTL_A_DEV_UNSPEC:
	case FLOWCTL_A_DEV_PAD:
		return MNL_CB_OK;
	case FLOWCTL_A_DEV_IFNAME:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
			return MNL_CB_OK;
		snprintf(d->ifname, sizeof(d->ifname), "%s",
			 mnl_attr_get_str(attr));
		d->have |= 1ull << type;
		return MNL_CB_OK;
	case FLOWCTL_A_DEV_STATS:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) >= 0)
			mnl_attr_parse_nested(attr, stats_cb, d);
		d->have |= 1ull << type;
		return MNL_CB_OK;
	case FLOWCTL_A_DEV_PRIO:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) >= 0)
			parse_prio(d, attr);
		d->have |= 1ull << type;
		return MNL_CB_OK;
	case FLOWCTL_A_DEV_PEER:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) >= 0 &&
		    mnl_attr_parse_nested(attr, peer_cb, &d->peer) >= 0)
			d->have |= 1ull << type;
		return MNL_CB_OK;
	case FLOWCTL_A_DEV_QUEUE:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) >= 0)
			parse_queue(d, attr);
		d->have |= 1ull << type;
		return MNL_CB_OK;
	}
	if (type > FLOWCTL_A_DEV_MAX)
		return MNL_CB_OK;
	if (type == FLOWCTL_A_DEV_TC_BW) {
		/* eight bytes, packed as byte n = bits 8n..8n+7 */
		const uint8_t *b = mnl_attr_get_payload(attr);
		int k;

		if (mnl_attr_get_payload_len(attr) != 8)
			return MNL_CB_OK;
		d->v[type] = 0;
		for (k = 0; k < 8; k++)
			d->v[type] |= (uint64_t)b[k] << (8 * k);
		d->have |= 1ull << type;
		return MNL_CB_OK;
	}
	if (type == FLOWCTL_A_DEV_DSCP_PRIOS) {
		if (mnl_attr_get_payload_len(attr) != sizeof(d->dscp_prios))
			return MNL_CB_OK;
		memcpy(d->dscp_prios, mnl_attr_get_payload(attr),
		       sizeof(d->dscp_prios));
		d->have |= 1ull << type;
		return MNL_CB_OK;
	}
	if (type == FLOWCTL_A_DEV_PARTNER_MAC) {
		/* six bytes, the first in bits 40..47 */
		const uint8_t *b = mnl_attr_get_payload(attr);
		int k;

		if (mnl_attr_get_payload_len(attr) != 6)
			return MNL_CB_OK;
		d->v[type] = 0;
		for (k = 0; k < 6; k++)
			d->v[type] = d->v[type] << 8 | b[k];
		d->have |= 1ull << type;
		return MNL_CB_OK;
	}
	if (fc_attr_uint(attr, &d->v[type]))
		d->have |= 1ull << type;
	return MNL_CB_OK;
}

void fc_fmt_mac(char out[18], uint64_t mac)
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
		 (unsigned int)(mac >> 40) & 0xff, (unsigned int)(mac >> 32) & 0xff,
		 (unsigned int)(mac >> 24) & 0xff, (unsigned int)(mac >> 16) & 0xff,
		 (unsigned int)(mac >> 8) & 0xff, (unsigned int)mac & 0xff);
}

uint64_t fc_dev_hwaddr(const char *ifname)
{
	struct ifreq ifr;
	uint64_t mac = 0;
	int fd, k;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (!ioctl(fd, SIOCGIFHWADDR, &ifr))
		for (k = 0; k < 6; k++)
			mac = mac << 8 | (uint8_t)ifr.ifr_hwaddr.sa_data[k];
	close(fd);
	return mac;
}

int fc_dev_parse(const struct nlmsghdr *nlh, struct fc_dev *d)
{
	memset(d, 0, sizeof(*d));
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr))
		return -EINVAL;
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), dev_cb, d) < 0)
		return -EINVAL;
	return 0;
}

int fc_dev_list_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fc_dev_list *l = data;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		struct fc_dev *n = realloc(l->dev, cap * sizeof(*n));

		if (!n) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		l->dev = n;
		l->cap = cap;
	}
	/* A message we cannot decode at all is skipped, not fatal. */
	if (fc_dev_parse(nlh, &l->dev[l->n]) == 0)
		l->n++;
	return MNL_CB_OK;
}

static int cmp_ifindex(const void *a, const void *b)
{
	const struct fc_dev *x = a, *y = b;
	uint64_t i = x->v[FLOWCTL_A_DEV_IFINDEX], j = y->v[FLOWCTL_A_DEV_IFINDEX];

	return i < j ? -1 : i > j;
}

void fc_dev_list_sort(struct fc_dev_list *l)
{
	if (l->n > 1)
		qsort(l->dev, l->n, sizeof(*l->dev), cmp_ifindex);
}

void fc_dev_list_free(struct fc_dev_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->dev[i].queues);
	free(l->dev);
	memset(l, 0, sizeof(*l));
}

static int dev_get(struct fc_nl *nl, const char *dev, bool brief,
		   struct fc_dev_list *l)
{
	struct nlmsghdr *nlh;

	if (dev) {
		nlh = fc_nl_req(nl, FLOWCTL_CMD_DEV_GET, NLM_F_ACK);
		fc_nl_put_dev(nlh, dev);
	} else {
		nlh = fc_nl_req(nl, FLOWCTL_CMD_DEV_GET, NLM_F_DUMP);
	}
	if (brief)
		mnl_attr_put(nlh, FLOWCTL_A_DEV_BRIEF, 0, NULL);
	return fc_nl_talk(nl, nlh, fc_dev_list_cb, l);
}

int fc_dev_get(struct fc_nl *nl, const char *dev, struct fc_dev_list *l)
{
	size_t i;
	int ret;

	ret = dev_get(nl, dev, false, l);
	/* Each port's own MAC, which its partner names in partner_mac. */
	for (i = 0; !ret && i < l->n; i++)
		l->dev[i].hwaddr = fc_dev_hwaddr(l->dev[i].ifname);
	return ret;
}

int fc_dev_get_queues(struct fc_nl *nl, const char *dev, struct fc_dev_list *l)
{
	struct nlmsghdr *nlh = fc_nl_req(nl, FLOWCTL_CMD_DEV_GET, NLM_F_ACK);

	fc_nl_put_dev(nlh, dev);
	mnl_attr_put(nlh, FLOWCTL_A_DEV_QUEUES, 0, NULL);
	return fc_nl_talk(nl, nlh, fc_dev_list_cb, l);
}

/* The kernel's error points at the request's brief flag. */
static bool refused_brief(const struct fc_nl *nl)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)nl->tx;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == FLOWCTL_A_DEV_BRIEF)
			return nl->ext_off == (const char *)a - (const char *)nlh;
	return false;
}

int fc_dev_get_brief(struct fc_nl *nl, const char *dev, struct fc_dev_list *l)
{
	int ret = dev_get(nl, dev, true, l);

	/* A module older than the brief reply refuses the flag: the full
	 * reply carries the same, per priority.
	 */
	if (ret == -EINVAL && refused_brief(nl)) {
		fc_dev_list_free(l);
		ret = dev_get(nl, dev, false, l);
	}
	return ret;
}

int fc_dev_mask(const struct fc_dev *d, int attr)
{
	unsigned int mask = 0;
	int p, pa;

	if (FC_HAS(d->have, attr))
		return (int)(d->v[attr] & 0xff);
	switch (attr) {
	case FLOWCTL_A_DEV_PAUSED:
		pa = FLOWCTL_A_PRIO_PAUSED;
		break;
	case FLOWCTL_A_DEV_XOFF_ACTIVE:
		pa = FLOWCTL_A_PRIO_XOFF_ACTIVE;
		break;
	case FLOWCTL_A_DEV_STORMED:
		pa = FLOWCTL_A_PRIO_WD_STATE;
		break;
	default:
		return -1;
	}
	for (p = 0; p < FLOWCTL_NUM_PRIOS; p++) {
		if (!FC_HAS(d->prio[p].have, pa))
			return -1;
		if (pa == FLOWCTL_A_PRIO_WD_STATE ?
		    d->prio[p].v[pa] == FLOWCTL_WD_STORMED : d->prio[p].v[pa] != 0)
			mask |= 1u << p;
	}
	return (int)mask;
}
