// SPDX-License-Identifier: GPL-2.0
/*
 * The flowctl netlink family refuses what it does not understand, says
 * which attribute is wrong, and changes nothing: raw requests the CLI would
 * never build (unknown and read-only attributes, wrong lengths, values out
 * of range, a valid value next to an invalid one).
 *
 * Built on the kernel's kselftest_harness.h (from Debian's linux-source);
 * run by nl_policy.sh in a network namespace of its own.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/flowctl.h>

#include "kselftest_harness.h"

#define NL_BUF 8192

struct nl {
	struct mnl_socket *sk;
	unsigned int seq;
	uint16_t family;
	int err;			/* last error, negative */
	char msg[256];			/* last extack message */
	int bad_attr_type;		/* type of the attribute extack points at */
	char reply[NL_BUF];
	size_t reply_len;
};

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			*(uint16_t *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

/* Send req and wait for the ack or reply; fills n->err, msg, bad_attr_type. */
static int nl_talk(struct nl *n, struct nlmsghdr *req, mnl_cb_t cb, void *data)
{
	char buf[NL_BUF];
	int len, ret;

	n->err = 0;
	n->msg[0] = 0;
	n->bad_attr_type = -1;
	req->nlmsg_seq = ++n->seq;
	req->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(n->sk, req, req->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *h;

		len = mnl_socket_recvfrom(n->sk, buf, sizeof(buf));
		if (len < 0)
			return -errno;
		h = (struct nlmsghdr *)buf;
		if (h->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = mnl_nlmsg_get_payload(h);
			struct nlattr *a;

			n->err = e->error;
			if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
				return n->err;
			mnl_attr_for_each(a, h, sizeof(*e)) {
				if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
					snprintf(n->msg, sizeof(n->msg), "%s",
						 mnl_attr_get_str(a));
				if (mnl_attr_get_type(a) == NLMSGERR_ATTR_OFFS) {
					uint32_t off = mnl_attr_get_u32(a);

					/* With NETLINK_CAP_ACK the offset is into our request. */
					if (off + sizeof(struct nlattr) <= req->nlmsg_len) {
						struct nlattr *bad = (void *)((char *)req + off);

						n->bad_attr_type = mnl_attr_get_type(bad);
					}
				}
			}
			return n->err;
		}
		ret = mnl_cb_run(buf, len, req->nlmsg_seq,
				 mnl_socket_get_portid(n->sk), cb, data);
		if (ret <= 0)
			return ret;
		memcpy(n->reply, buf, len);
		n->reply_len = len;
	}
}

static struct nlmsghdr *genl_req(char *buf, uint16_t type, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = FLOWCTL_FAMILY_VERSION;
	return nlh;
}

static int nl_open(struct nl *n)
{
	char buf[NL_BUF];
	struct nlmsghdr *req;
	int one = 1;

	memset(n, 0, sizeof(*n));
	n->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!n->sk || mnl_socket_bind(n->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	mnl_socket_setsockopt(n->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(n->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	n->seq = time(NULL);
	req = genl_req(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	mnl_attr_put_strz(req, CTRL_ATTR_FAMILY_NAME, FLOWCTL_FAMILY_NAME);
	return nl_talk(n, req, family_cb, &n->family);
}

/* An integer attribute (u8, u16 or u32) of the device's DEV_GET reply;
 * -1 if absent.
 */
static long long get_uint(struct nl *n, const char *dev, int attr)
{
	char buf[NL_BUF];
	struct nlmsghdr *req, *h;
	struct nlattr *a;

	req = genl_req(buf, n->family, FLOWCTL_CMD_DEV_GET);
	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, dev);
	if (nl_talk(n, req, NULL, NULL) < 0)
		return -1;
	h = (struct nlmsghdr *)n->reply;
	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != attr)
			continue;
		switch (mnl_attr_get_payload_len(a)) {
		case 1:
			return mnl_attr_get_u8(a);
		case 2:
			return mnl_attr_get_u16(a);
		default:
			return mnl_attr_get_u32(a);
		}
	}
	return -1;
}

static int get_u8(struct nl *n, const char *dev, int attr)
{
	return (int)get_uint(n, dev, attr);
}

FIXTURE(fc) {
	struct nl n;
	char buf[NL_BUF];
	const char *dev;
};

FIXTURE_SETUP(fc)
{
	self->dev = getenv("FC_DEV") ? getenv("FC_DEV") : "p0";
	ASSERT_EQ(0, nl_open(&self->n))
		TH_LOG("flowctl family not found: is the module loaded?");
	ASSERT_NE(0, self->n.family);
}

FIXTURE_TEARDOWN(fc)
{
	mnl_socket_close(self->n.sk);
}

/* A set request for the fixture's device. */
static struct nlmsghdr *set_req(FIXTURE_DATA(fc) *self)
{
	struct nlmsghdr *req = genl_req(self->buf, self->n.family,
					FLOWCTL_CMD_DEV_SET);

	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, self->dev);
	return req;
}

TEST_F(fc, valid_set_accepted)
{
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put_u8(req, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PFC);
	EXPECT_EQ(0, nl_talk(&self->n, req, NULL, NULL)) TH_LOG("%s", self->n.msg);
	EXPECT_EQ(FLOWCTL_MODE_PFC, get_u8(&self->n, self->dev, FLOWCTL_A_DEV_MODE));
	req = set_req(self);
	mnl_attr_put_u8(req, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PAUSE);
	EXPECT_EQ(0, nl_talk(&self->n, req, NULL, NULL));
}

TEST_F(fc, unknown_attribute_refused)
{
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put_u8(req, FLOWCTL_A_DEV_MAX + 5, 1);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_NE(0, strlen(self->n.msg)) TH_LOG("no extack message");
	EXPECT_EQ(FLOWCTL_A_DEV_MAX + 5, self->n.bad_attr_type);
	TH_LOG("kernel says: %s", self->n.msg);
}

TEST_F(fc, read_only_attribute_refused)
{
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put_u32(req, FLOWCTL_A_DEV_SPEED_MBPS, 1000);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_SPEED_MBPS, self->n.bad_attr_type);
	EXPECT_NE(0, strlen(self->n.msg));
}

/* The APP table's DSCP map: 64 bytes or nothing; doors are read only. */
TEST_F(fc, dscp_map_and_doors)
{
	uint8_t map[64] = { 0 };
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put(req, FLOWCTL_A_DEV_DSCP_PRIOS, 63, map);
	EXPECT_GT(0, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_DSCP_PRIOS, self->n.bad_attr_type);
	req = set_req(self);
	mnl_attr_put_u8(req, FLOWCTL_A_DEV_DOORS, 0);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_DOORS, self->n.bad_attr_type);
	map[26] = 1u << 3;
	req = set_req(self);
	mnl_attr_put(req, FLOWCTL_A_DEV_DSCP_PRIOS, sizeof(map), map);
	EXPECT_EQ(0, nl_talk(&self->n, req, NULL, NULL)) TH_LOG("%s", self->n.msg);
	map[26] = 0;
	req = set_req(self);
	mnl_attr_put(req, FLOWCTL_A_DEV_DSCP_PRIOS, sizeof(map), map);
	EXPECT_EQ(0, nl_talk(&self->n, req, NULL, NULL)) TH_LOG("%s", self->n.msg);
}

TEST_F(fc, wrong_length_refused)
{
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put_u32(req, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PFC);
	EXPECT_GT(0, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_MODE, self->n.bad_attr_type);
	EXPECT_EQ(FLOWCTL_MODE_PAUSE, get_u8(&self->n, self->dev, FLOWCTL_A_DEV_MODE));
}

TEST_F(fc, ets_shares_checked)
{
	static const uint8_t bad_sum[8] = { 30, 0, 0, 60, 0, 0, 0, 0 };
	static const uint8_t good[8] = { 30, 0, 0, 50, 0, 20, 0, 0 };
	static const uint8_t off[8];
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put(req, FLOWCTL_A_DEV_TC_BW, sizeof(bad_sum), bad_sum);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_TC_BW, self->n.bad_attr_type);
	EXPECT_NE(NULL, strstr(self->n.msg, "ETS shares must sum to 100"))
		TH_LOG("extack: '%s'", self->n.msg);
	req = set_req(self);
	mnl_attr_put(req, FLOWCTL_A_DEV_TC_BW, 7, good);
	EXPECT_GT(0, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_TC_BW, self->n.bad_attr_type);
	req = set_req(self);
	mnl_attr_put(req, FLOWCTL_A_DEV_TC_BW, sizeof(good), good);
	EXPECT_EQ(0, nl_talk(&self->n, req, NULL, NULL)) TH_LOG("%s", self->n.msg);
	req = set_req(self);
	mnl_attr_put(req, FLOWCTL_A_DEV_TC_BW, sizeof(off), off);
	EXPECT_EQ(0, nl_talk(&self->n, req, NULL, NULL)) TH_LOG("%s", self->n.msg);
}

/* Each bound of the watchdog's and the storm guard's times, as the kernel
 * checks them (the CLI checks them too, so only raw netlink reaches these).
 */
TEST_F(fc, watchdog_times_bounded)
{
	static const struct { int attr; uint32_t v; int err; } cases[] = {
		{ FLOWCTL_A_DEV_WD_DETECT_MS, 99, -ERANGE },
		{ FLOWCTL_A_DEV_WD_DETECT_MS, 5001, -ERANGE },
		{ FLOWCTL_A_DEV_WD_DETECT_MS, 5000, 0 },
		{ FLOWCTL_A_DEV_WD_RESTORE_MS, 99, -ERANGE },
		{ FLOWCTL_A_DEV_WD_RESTORE_MS, 60001, -ERANGE },
		{ FLOWCTL_A_DEV_WD_RESTORE_MS, 60000, 0 },
		{ FLOWCTL_A_DEV_TX_STORM_MS, 79, -ERANGE },
		{ FLOWCTL_A_DEV_TX_STORM_MS, 8001, -ERANGE },
		{ FLOWCTL_A_DEV_TX_STORM_MS, 8000, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nlmsghdr *req = set_req(self);

		mnl_attr_put_u32(req, cases[i].attr, cases[i].v);
		EXPECT_EQ(cases[i].err, nl_talk(&self->n, req, NULL, NULL))
			TH_LOG("attribute %d = %u: '%s'", cases[i].attr, cases[i].v,
			       self->n.msg);
		if (cases[i].err) {
			EXPECT_EQ(cases[i].attr, self->n.bad_attr_type);
		} else {
			EXPECT_EQ((int64_t)cases[i].v,
				  get_uint(&self->n, self->dev, cases[i].attr));
		}
	}
	/* Off again: 0 is off for all three. */
	{
		struct nlmsghdr *req = set_req(self);

		mnl_attr_put_u32(req, FLOWCTL_A_DEV_WD_DETECT_MS, 0);
		mnl_attr_put_u32(req, FLOWCTL_A_DEV_WD_RESTORE_MS, 0);
		mnl_attr_put_u32(req, FLOWCTL_A_DEV_TX_STORM_MS, 0);
		EXPECT_EQ(0, nl_talk(&self->n, req, NULL, NULL));
	}
}

/* Read only: the partner's address is the kernel's to say. */
TEST_F(fc, partner_mac_read_only)
{
	static const uint8_t mac[6] = { 2, 0, 0, 0, 0, 1 };
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put(req, FLOWCTL_A_DEV_PARTNER_MAC, sizeof(mac), mac);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_PARTNER_MAC, self->n.bad_attr_type);
}

/*
 * The queues flag: a DEV_GET's for one device; refused in a set, with
 * brief and in a dump. The reply carries one queue nest per TX queue,
 * each with its index and handle.
 */
TEST_F(fc, queues_flag)
{
	struct nlmsghdr *req = set_req(self), *h;
	struct nlattr *a;
	int queues = 0, indexed = 0;

	mnl_attr_put(req, FLOWCTL_A_DEV_QUEUES, 0, NULL);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_QUEUES, self->n.bad_attr_type);

	req = genl_req(self->buf, self->n.family, FLOWCTL_CMD_DEV_GET);
	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, self->dev);
	mnl_attr_put(req, FLOWCTL_A_DEV_BRIEF, 0, NULL);
	mnl_attr_put(req, FLOWCTL_A_DEV_QUEUES, 0, NULL);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_QUEUES, self->n.bad_attr_type);

	req = genl_req(self->buf, self->n.family, FLOWCTL_CMD_DEV_GET);
	req->nlmsg_flags |= NLM_F_DUMP;
	mnl_attr_put(req, FLOWCTL_A_DEV_QUEUES, 0, NULL);
	EXPECT_EQ(-EOPNOTSUPP, nl_talk(&self->n, req, NULL, NULL));

	req = genl_req(self->buf, self->n.family, FLOWCTL_CMD_DEV_GET);
	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, self->dev);
	mnl_attr_put(req, FLOWCTL_A_DEV_QUEUES, 0, NULL);
	ASSERT_EQ(0, nl_talk(&self->n, req, NULL, NULL)) TH_LOG("%s", self->n.msg);
	h = (struct nlmsghdr *)self->n.reply;
	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr)) {
		struct nlattr *q;

		if (mnl_attr_get_type(a) != FLOWCTL_A_DEV_QUEUE)
			continue;
		queues++;
		mnl_attr_for_each_nested(q, a)
			indexed += mnl_attr_get_type(q) == FLOWCTL_A_QUEUE_INDEX ||
				   mnl_attr_get_type(q) == FLOWCTL_A_QUEUE_HANDLE;
	}
	/* The fixture's device: flowctl at its root, one queue. */
	EXPECT_EQ(1, queues);
	EXPECT_EQ(2, indexed);
}

/*
 * The brief flag: a DEV_GET's; refused in a set and in a reset, and with a
 * payload (a flag has none). A brief get carries the port's state and no
 * priority nest.
 */
TEST_F(fc, brief_flag)
{
	static const uint8_t one = 1;
	struct nlmsghdr *req = set_req(self), *h;
	struct nlattr *a;
	int prios = 0, paused = 0;

	mnl_attr_put(req, FLOWCTL_A_DEV_BRIEF, 0, NULL);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_BRIEF, self->n.bad_attr_type);

	req = genl_req(self->buf, self->n.family, FLOWCTL_CMD_STATS_RESET);
	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, self->dev);
	mnl_attr_put(req, FLOWCTL_A_DEV_BRIEF, 0, NULL);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_BRIEF, self->n.bad_attr_type);

	req = genl_req(self->buf, self->n.family, FLOWCTL_CMD_DEV_GET);
	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, self->dev);
	mnl_attr_put(req, FLOWCTL_A_DEV_BRIEF, sizeof(one), &one);
	EXPECT_GT(0, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_BRIEF, self->n.bad_attr_type);

	req = genl_req(self->buf, self->n.family, FLOWCTL_CMD_DEV_GET);
	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, self->dev);
	mnl_attr_put(req, FLOWCTL_A_DEV_BRIEF, 0, NULL);
	ASSERT_EQ(0, nl_talk(&self->n, req, NULL, NULL)) TH_LOG("%s", self->n.msg);
	h = (struct nlmsghdr *)self->n.reply;
	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr)) {
		prios += mnl_attr_get_type(a) == FLOWCTL_A_DEV_PRIO ||
			 mnl_attr_get_type(a) == FLOWCTL_A_DEV_STATS;
		paused += mnl_attr_get_type(a) == FLOWCTL_A_DEV_PAUSED;
	}
	EXPECT_EQ(0, prios);
	EXPECT_EQ(1, paused);
}

TEST_F(fc, mode_out_of_range)
{
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put_u8(req, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PFC + 1);
	EXPECT_EQ(-ERANGE, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_MODE, self->n.bad_attr_type);
	EXPECT_NE(0, strlen(self->n.msg));
}

TEST_F(fc, all_or_nothing)
{
	struct nlmsghdr *req = set_req(self);

	/* A valid mode and rx next to an invalid speed: nothing changes. */
	mnl_attr_put_u8(req, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_OFF);
	mnl_attr_put_u8(req, FLOWCTL_A_DEV_RX, 0);
	mnl_attr_put_u32(req, FLOWCTL_A_DEV_SPEED, 5);
	EXPECT_GT(0, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_SPEED, self->n.bad_attr_type);
	TH_LOG("kernel says: %s", self->n.msg);
	EXPECT_EQ(FLOWCTL_MODE_PAUSE, get_u8(&self->n, self->dev, FLOWCTL_A_DEV_MODE));
	EXPECT_EQ(1, get_u8(&self->n, self->dev, FLOWCTL_A_DEV_RX));
}

TEST_F(fc, prio_nest_without_priority)
{
	struct nlmsghdr *req = set_req(self);
	struct nlattr *nest;

	nest = mnl_attr_nest_start(req, FLOWCTL_A_DEV_PRIO);
	mnl_attr_put_u32(req, FLOWCTL_A_PRIO_XOFF, 1000);
	mnl_attr_nest_end(req, nest);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_PRIO, self->n.bad_attr_type);
	EXPECT_NE(0, strlen(self->n.msg));
}

TEST_F(fc, prio_nest_read_only_inside)
{
	struct nlmsghdr *req = set_req(self);
	struct nlattr *nest;

	nest = mnl_attr_nest_start(req, FLOWCTL_A_DEV_PRIO);
	mnl_attr_put_u8(req, FLOWCTL_A_PRIO_PRIO, 3);
	mnl_attr_put_u64(req, FLOWCTL_A_PRIO_DROPS, 0);
	mnl_attr_nest_end(req, nest);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_PRIO_DROPS, self->n.bad_attr_type);
}

TEST_F(fc, no_device_named)
{
	struct nlmsghdr *req = genl_req(self->buf, self->n.family,
					FLOWCTL_CMD_DEV_SET);

	mnl_attr_put_u8(req, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PFC);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_NE(0, strlen(self->n.msg));
}

TEST_F(fc, no_such_device)
{
	struct nlmsghdr *req = genl_req(self->buf, self->n.family,
					FLOWCTL_CMD_DEV_GET);

	mnl_attr_put_u32(req, FLOWCTL_A_DEV_IFINDEX, 0x7ffffff0);
	EXPECT_EQ(-ENODEV, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_IFINDEX, self->n.bad_attr_type);
}

TEST_F(fc, device_without_flowctl)
{
	struct nlmsghdr *req = genl_req(self->buf, self->n.family,
					FLOWCTL_CMD_DEV_GET);

	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, "lo");
	EXPECT_EQ(-EOPNOTSUPP, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_NE(0, strlen(self->n.msg));
}

TEST_F(fc, ifname_and_ifindex_disagree)
{
	struct nlmsghdr *req = genl_req(self->buf, self->n.family,
					FLOWCTL_CMD_DEV_GET);

	mnl_attr_put_u32(req, FLOWCTL_A_DEV_IFINDEX, if_nametoindex("lo"));
	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, self->dev);
	EXPECT_EQ(-EINVAL, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_IFNAME, self->n.bad_attr_type);
}

/* An ifindex that names nothing is an error even when the ifname given
 * with it names the device: the set used to go to the ifname's device.
 */
TEST_F(fc, missing_ifindex_with_good_ifname)
{
	struct nlmsghdr *req = genl_req(self->buf, self->n.family,
					FLOWCTL_CMD_DEV_SET);
	int mode = get_u8(&self->n, self->dev, FLOWCTL_A_DEV_MODE);

	mnl_attr_put_u32(req, FLOWCTL_A_DEV_IFINDEX, 0x7ffffff0);
	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, self->dev);
	mnl_attr_put_u8(req, FLOWCTL_A_DEV_MODE,
			mode == FLOWCTL_MODE_OFF ? FLOWCTL_MODE_PFC : FLOWCTL_MODE_OFF);
	EXPECT_EQ(-ENODEV, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_IFINDEX, self->n.bad_attr_type);
	EXPECT_EQ(mode, get_u8(&self->n, self->dev, FLOWCTL_A_DEV_MODE));
}

/* And an ifname that names nothing, with an ifindex that does. */
TEST_F(fc, missing_ifname_with_good_ifindex)
{
	struct nlmsghdr *req = genl_req(self->buf, self->n.family,
					FLOWCTL_CMD_DEV_GET);

	mnl_attr_put_u32(req, FLOWCTL_A_DEV_IFINDEX, if_nametoindex(self->dev));
	mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, "fc-no-such");
	EXPECT_EQ(-ENODEV, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_IFNAME, self->n.bad_attr_type);
}

/* xoff + headroom used to wrap in u32: a huge xoff passed the headroom
 * check and XOFF was never sent.
 */
TEST_F(fc, xoff_wrapping_refused)
{
	struct nlmsghdr *req = set_req(self);
	long long xoff = get_uint(&self->n, self->dev, FLOWCTL_A_DEV_XOFF);

	mnl_attr_put_u32(req, FLOWCTL_A_DEV_XOFF, 0xffffffffu);
	mnl_attr_put_u32(req, FLOWCTL_A_DEV_XON, 1);
	EXPECT_GT(0, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_XOFF, self->n.bad_attr_type);
	EXPECT_NE(0, strlen(self->n.msg)) TH_LOG("no extack message");
	TH_LOG("kernel says: %s", self->n.msg);
	EXPECT_EQ(xoff, get_uint(&self->n, self->dev, FLOWCTL_A_DEV_XOFF));
}

/* Just below the wrap: within u32, past any limit. */
TEST_F(fc, xoff_past_limit_refused)
{
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put_u32(req, FLOWCTL_A_DEV_XOFF, 0xfffe0000u);
	mnl_attr_put_u32(req, FLOWCTL_A_DEV_XON, 1);
	EXPECT_GT(0, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_XOFF, self->n.bad_attr_type);
}

TEST_F(fc, prio_xoff_wrapping_refused)
{
	struct nlmsghdr *req = set_req(self);
	struct nlattr *nest;

	nest = mnl_attr_nest_start(req, FLOWCTL_A_DEV_PRIO);
	mnl_attr_put_u8(req, FLOWCTL_A_PRIO_PRIO, 3);
	mnl_attr_put_u32(req, FLOWCTL_A_PRIO_XOFF, 0xffffffffu);
	mnl_attr_put_u32(req, FLOWCTL_A_PRIO_XON, 1);
	mnl_attr_nest_end(req, nest);
	EXPECT_GT(0, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_PRIO_XOFF, self->n.bad_attr_type);
	EXPECT_NE(0, strlen(self->n.msg)) TH_LOG("no extack message");
}

/* Quanta 0 would turn every XOFF into an XON. */
TEST_F(fc, quanta_zero_refused)
{
	struct nlmsghdr *req = set_req(self);
	long long quanta = get_uint(&self->n, self->dev, FLOWCTL_A_DEV_QUANTA);

	mnl_attr_put_u16(req, FLOWCTL_A_DEV_QUANTA, 0);
	EXPECT_EQ(-ERANGE, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_QUANTA, self->n.bad_attr_type);
	EXPECT_NE(0, strlen(self->n.msg)) TH_LOG("no extack message");
	EXPECT_EQ(quanta, get_uint(&self->n, self->dev, FLOWCTL_A_DEV_QUANTA));
}

TEST_F(fc, xon_past_limit_refused)
{
	struct nlmsghdr *req = set_req(self);

	mnl_attr_put_u32(req, FLOWCTL_A_DEV_XON, 0x80000000u);
	EXPECT_EQ(-ERANGE, nl_talk(&self->n, req, NULL, NULL));
	EXPECT_EQ(FLOWCTL_A_DEV_XON, self->n.bad_attr_type);
}

/*
 * rtnetlink, not tc: raw TCA_OPTIONS, which tc's plugin never sends. On
 * FC_DEV2 (a device with no flowctl) an add whose options the family's
 * policy refuses must fail with the policy's words and attach nothing; an
 * add with good options is the control: accepted, then deleted.
 */
enum { OPT_NONE, OPT_UNKNOWN, OPT_IFNAME, OPT_MODE_RANGE, OPT_GOOD };

static int qdisc_req(struct nl *n, const char *dev, uint16_t type,
		     uint16_t flags, int with_options)
{
	char buf[NL_BUF];
	struct nlmsghdr *req = mnl_nlmsg_put_header(buf);
	struct tcmsg *t;

	req->nlmsg_type = type;
	req->nlmsg_flags = NLM_F_REQUEST | flags;
	t = mnl_nlmsg_put_extra_header(req, sizeof(*t));
	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = if_nametoindex(dev);
	t->tcm_parent = TC_H_ROOT;
	if (!t->tcm_ifindex)
		return -ENODEV;
	if (type == RTM_NEWQDISC)
		mnl_attr_put_strz(req, TCA_KIND, "flowctl");
	if (with_options != OPT_NONE) {
		struct nlattr *o = mnl_attr_nest_start(req, TCA_OPTIONS);

		switch (with_options) {
		case OPT_UNKNOWN:
			mnl_attr_put_u32(req, FLOWCTL_A_DEV_MAX + 1, 100);
			break;
		case OPT_IFNAME:
			mnl_attr_put_strz(req, FLOWCTL_A_DEV_IFNAME, dev);
			break;
		case OPT_MODE_RANGE:
			mnl_attr_put_u8(req, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PFC + 1);
			break;
		default:
			mnl_attr_put_u8(req, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PFC);
			mnl_attr_put_u16(req, FLOWCTL_A_DEV_QUANTA, 1000);
		}
		mnl_attr_nest_end(req, o);
	}
	return nl_talk(n, req, NULL, NULL);
}

TEST(tc_options)
{
	const char *dev = getenv("FC_DEV2") ? getenv("FC_DEV2") : "p1";
	struct nl n;

	memset(&n, 0, sizeof(n));
	n.sk = mnl_socket_open(NETLINK_ROUTE);
	ASSERT_NE(NULL, n.sk);
	ASSERT_EQ(0, mnl_socket_bind(n.sk, 0, MNL_SOCKET_AUTOPID));
	{
		int one = 1;

		mnl_socket_setsockopt(n.sk, NETLINK_EXT_ACK, &one, sizeof(one));
		mnl_socket_setsockopt(n.sk, NETLINK_CAP_ACK, &one, sizeof(one));
	}
	EXPECT_EQ(-EINVAL, qdisc_req(&n, dev, RTM_NEWQDISC,
				     NLM_F_CREATE | NLM_F_EXCL, OPT_UNKNOWN))
		TH_LOG("%s", n.msg);
	EXPECT_NE(NULL, strstr(n.msg, "Unknown attribute type"))
		TH_LOG("extack: '%s'", n.msg);
	EXPECT_EQ(-EINVAL, qdisc_req(&n, dev, RTM_NEWQDISC,
				     NLM_F_CREATE | NLM_F_EXCL, OPT_IFNAME))
		TH_LOG("%s", n.msg);
	EXPECT_NE(NULL, strstr(n.msg, "tc options name no device"))
		TH_LOG("extack: '%s'", n.msg);
	EXPECT_EQ(-ERANGE, qdisc_req(&n, dev, RTM_NEWQDISC,
				     NLM_F_CREATE | NLM_F_EXCL, OPT_MODE_RANGE))
		TH_LOG("%s", n.msg);
	EXPECT_EQ(FLOWCTL_A_DEV_MODE, n.bad_attr_type);
	/* Nothing attached: deleting a root flowctl finds none. */
	EXPECT_NE(0, qdisc_req(&n, dev, RTM_DELQDISC, 0, OPT_NONE));
	/* The control: good options are accepted. */
	EXPECT_EQ(0, qdisc_req(&n, dev, RTM_NEWQDISC,
			       NLM_F_CREATE | NLM_F_EXCL, OPT_GOOD))
		TH_LOG("%s", n.msg);
	EXPECT_EQ(0, qdisc_req(&n, dev, RTM_DELQDISC, 0, OPT_NONE)) TH_LOG("%s", n.msg);
	mnl_socket_close(n.sk);
}

TEST_HARNESS_MAIN
