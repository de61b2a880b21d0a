// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink plumbing: resolve the "flowctl" family and its "events"
 * group through nlctrl, send a request, read until its ACK or NLMSG_DONE,
 * and keep what the kernel's extended ACK said so the user reads the
 * kernel's own reason, not just an errno.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/flowctl.h>
#include <linux/genetlink.h>

#include "netlink.h"
#include "parse.h"

struct run_ctx {
	struct fc_nl *nl;
	mnl_cb_t cb;
	void *data;
};

void fc_nl_reset_status(struct fc_nl *nl)
{
	nl->err = 0;
	nl->ext_msg[0] = '\0';
	nl->ext_off = -1;
	nl->ext_miss_type = -1;
}

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	struct fc_nl *nl = data;

	switch (mnl_attr_get_type(attr)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0)
			snprintf(nl->ext_msg, sizeof(nl->ext_msg), "%s",
				 mnl_attr_get_str(attr));
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
			nl->ext_off = (int32_t)mnl_attr_get_u32(attr);
		break;
#ifdef NLMSGERR_ATTR_MISS_TYPE
	case NLMSGERR_ATTR_MISS_TYPE:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
			nl->ext_miss_type = (int32_t)mnl_attr_get_u32(attr);
		break;
#endif
	}
	return MNL_CB_OK;
}

static int ctl_error(const struct nlmsghdr *nlh, void *data)
{
	struct run_ctx *ctx = data;
	struct fc_nl *nl = ctx->nl;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*e);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		nl->err = EBADMSG;
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		/* Without NLM_F_CAPPED our request is echoed before the TLVs. */
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
		    e->msg.nlmsg_len >= sizeof(struct nlmsghdr))
			off += MNL_ALIGN(e->msg.nlmsg_len -
					 sizeof(struct nlmsghdr));
		if (mnl_nlmsg_size(off) <= nlh->nlmsg_len)
			mnl_attr_parse(nlh, (unsigned int)off, extack_attr_cb,
				       nl);
	}
	if (e->error == 0)
		return MNL_CB_STOP;	/* the ACK */
	nl->err = e->error < 0 ? -e->error : EIO;
	errno = nl->err;
	return MNL_CB_ERROR;
}

/* NLMSG_DONE ends a dump; a negative int in it is the dump's error. */
static int ctl_done(const struct nlmsghdr *nlh, void *data)
{
	struct run_ctx *ctx = data;
	struct fc_nl *nl = ctx->nl;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int))
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(int));
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    mnl_nlmsg_size(sizeof(int)) <= nlh->nlmsg_len)
		mnl_attr_parse(nlh, sizeof(int), extack_attr_cb, nl);
	if (err < 0) {
		nl->err = -err;
		errno = nl->err;
		return MNL_CB_ERROR;
	}
	return MNL_CB_STOP;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct run_ctx *ctx = data;

	return ctx->cb ? ctx->cb(nlh, ctx->data) : MNL_CB_OK;
}

int fc_nl_process(struct fc_nl *nl, const void *buf, size_t len,
		  unsigned int seq, mnl_cb_t cb, void *data)
{
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = ctl_error,
		[NLMSG_DONE] = ctl_done,
	};
	struct run_ctx ctx = { .nl = nl, .cb = cb, .data = data };
	int ret;

	ret = mnl_cb_run2(buf, len, seq, nl->portid, data_cb, &ctx, ctl,
			  NLMSG_MIN_TYPE);
	if (ret < 0) {
		if (!nl->err)
			nl->err = errno ? errno : EIO;
		return MNL_CB_ERROR;
	}
	return ret;
}

int fc_nl_talk(struct fc_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
	       void *data)
{
	unsigned int seq = nlh->nlmsg_seq;

	fc_nl_reset_status(nl);
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0) {
		nl->err = errno;
		return -nl->err;
	}
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl->sock, nl->rx, FC_NL_RXBUF);
		int ret;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			nl->err = errno;
			return -nl->err;
		}
		ret = fc_nl_process(nl, nl->rx, (size_t)n, seq, cb, data);
		if (ret == MNL_CB_ERROR)
			return -nl->err;
		if (ret == MNL_CB_STOP)
			break;
	}
	if (nl->ext_msg[0])
		fprintf(stderr, "Warning: %s\n", nl->ext_msg);
	return 0;
}

struct nlmsghdr *fc_nl_msg(struct fc_nl *nl, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh;

	memset(nl->tx, 0, sizeof(nl->tx));
	nlh = mnl_nlmsg_put_header(nl->tx);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	return nlh;
}

static struct nlmsghdr *nl_req(struct fc_nl *nl, uint16_t type, uint8_t cmd,
			       uint8_t version, uint16_t flags)
{
	struct nlmsghdr *nlh = fc_nl_msg(nl, type, flags);
	struct genlmsghdr *genl;

	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

struct nlmsghdr *fc_nl_req(struct fc_nl *nl, uint8_t cmd, uint16_t flags)
{
	return nl_req(nl, nl->family, cmd, FLOWCTL_FAMILY_VERSION, flags);
}

struct nlmsghdr *fc_nl_genl_req(struct fc_nl *nl, uint8_t cmd, uint8_t version,
				uint16_t flags)
{
	return nl_req(nl, nl->family, cmd, version, flags);
}

void fc_nl_put_dev(struct nlmsghdr *nlh, const char *dev)
{
	mnl_attr_put_strz(nlh, FLOWCTL_A_DEV_IFNAME, dev);
}

static void parse_mcast_groups(struct fc_nl *nl, const struct nlattr *nest)
{
	const struct nlattr *grp, *a;

	mnl_attr_for_each_nested(grp, nest) {
		const char *name = NULL;
		uint32_t id = 0;

		mnl_attr_for_each_nested(a, grp) {
			switch (mnl_attr_get_type(a)) {
			case CTRL_ATTR_MCAST_GRP_NAME:
				if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
					name = mnl_attr_get_str(a);
				break;
			case CTRL_ATTR_MCAST_GRP_ID:
				if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
					id = mnl_attr_get_u32(a);
				break;
			}
		}
		if (name && !strcmp(name, FLOWCTL_MCGRP_EVENTS))
			nl->events_grp = id;
	}
}

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	struct fc_nl *nl = data;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U16) >= 0)
			nl->family = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_VERSION:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
			nl->version = mnl_attr_get_u32(attr);
		break;
	case CTRL_ATTR_MCAST_GROUPS:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) >= 0)
			parse_mcast_groups(nl, attr);
		break;
	}
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr_cb, data);
	return MNL_CB_OK;
}

int fc_nl_open_bus(struct fc_nl *nl, int bus)
{
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	fc_nl_reset_status(nl);
	nl->rx = malloc(FC_NL_RXBUF);
	if (!nl->rx) {
		perror("flowctl: malloc");
		return EXIT_FAIL;
	}
	nl->sock = mnl_socket_open(bus);
	if (!nl->sock) {
		perror("flowctl: cannot open a netlink socket");
		return EXIT_FAIL;
	}
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("flowctl: cannot bind the netlink socket");
		return EXIT_FAIL;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (unsigned int)time(NULL);
	/* Best effort: kernels before 4.12 have no extended ACK. */
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	return EXIT_OK;
}

int fc_nl_resolve(struct fc_nl *nl, const char *name)
{
	struct nlmsghdr *nlh;
	int err;

	nl->family = 0;
	nl->version = 0;
	nl->events_grp = 0;
	nlh = nl_req(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	err = fc_nl_talk(nl, nlh, family_cb, nl);
	if (!err && !nl->family)
		err = -ENOENT;
	return err;
}

int fc_nl_family_said(const struct fc_nl *nl, int err)
{
	if (err == -ENOENT) {
		fprintf(stderr, "flowctl module not loaded (modprobe flowctl)\n");
		return EXIT_FAIL;
	}
	if (err) {
		fprintf(stderr, "flowctl: cannot look up the %s netlink family: %s\n",
			FLOWCTL_FAMILY_NAME, strerror(-err));
		return EXIT_FAIL;
	}
	if (nl->version != FLOWCTL_FAMILY_VERSION)
		fprintf(stderr,
			"Warning: the kernel speaks flowctl netlink version %u, this tool version %d\n",
			nl->version, FLOWCTL_FAMILY_VERSION);
	return EXIT_OK;
}

int fc_nl_open(struct fc_nl *nl)
{
	int ret = fc_nl_open_bus(nl, NETLINK_GENERIC);

	if (ret)
		return ret;
	return fc_nl_family_said(nl, fc_nl_resolve(nl, FLOWCTL_FAMILY_NAME));
}

void fc_nl_close(struct fc_nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
	free(nl->rx);
	nl->rx = NULL;
}

/*
 * A listener's receive buffer: a port sends up to 64 messages at once and
 * 1000 a second, and a terminal can be slow to take them. 4 MiB, as root
 * past net.core.rmem_max (like iproute2's monitors); best effort.
 */
#define FC_EVENTS_RCVBUF (4 * 1024 * 1024)

int fc_nl_join_events(struct fc_nl *nl, int rcvbuf)
{
	int grp = (int)nl->events_grp, size = rcvbuf ? rcvbuf : FC_EVENTS_RCVBUF;
	int fd = mnl_socket_get_fd(nl->sock);

	if (!nl->events_grp) {
		fprintf(stderr, "flowctl: the kernel's flowctl family has no \"%s\" group\n",
			FLOWCTL_MCGRP_EVENTS);
		return EXIT_FAIL;
	}
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		if (errno == EPERM)
			fprintf(stderr, "permission denied: monitor needs CAP_NET_ADMIN\n");
		else
			perror("flowctl: cannot join the events group");
		return EXIT_FAIL;
	}
	/* A size asked for stays within net.core.rmem_max. */
	if (rcvbuf || setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	return EXIT_OK;
}

static const char *const dev_words[FLOWCTL_A_DEV_MAX + 1] = {
	[FLOWCTL_A_DEV_IFINDEX] = "dev",
	[FLOWCTL_A_DEV_IFNAME] = "dev",
	[FLOWCTL_A_DEV_MODE] = "mode",
	[FLOWCTL_A_DEV_RX] = "rx",
	[FLOWCTL_A_DEV_TX] = "tx",
	[FLOWCTL_A_DEV_PFC_PRIOS] = "pfc-prios",
	[FLOWCTL_A_DEV_TRUST] = "trust",
	[FLOWCTL_A_DEV_SPEED] = "speed",
	[FLOWCTL_A_DEV_RATE] = "rate",
	[FLOWCTL_A_DEV_LIMIT] = "limit",
	[FLOWCTL_A_DEV_XOFF] = "xoff",
	[FLOWCTL_A_DEV_XON] = "xon",
	[FLOWCTL_A_DEV_QUANTA] = "quanta",
	[FLOWCTL_A_DEV_PRIO] = "prio",
	[FLOWCTL_A_DEV_PRIO_TC] = "prio-tc",
};

const char *fc_nl_attr_word(const struct fc_nl *nl, int32_t off, char *buf,
			    size_t len)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)nl->tx;
	const struct nlattr *attr, *a;

	if (off < 0 || (uint32_t)off >= nlh->nlmsg_len ||
	    nlh->nlmsg_len > sizeof(nl->tx))
		return NULL;
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		const char *base = (const char *)nlh;
		int32_t start = (int32_t)((const char *)attr - base);
		int32_t end = start + (int32_t)MNL_ALIGN(attr->nla_len);
		uint16_t type = mnl_attr_get_type(attr);
		const char *word = type <= FLOWCTL_A_DEV_MAX ? dev_words[type] : NULL;
		int prio = -1;

		if (off < start || off >= end)
			continue;
		if (type != FLOWCTL_A_DEV_PRIO) {
			if (!word)
				return NULL;
			snprintf(buf, len, "%s", word);
			return buf;
		}
		word = "";
		mnl_attr_for_each_nested(a, attr) {
			int32_t s = (int32_t)((const char *)a - base);

			if (mnl_attr_get_type(a) == FLOWCTL_A_PRIO_PRIO &&
			    mnl_attr_get_payload_len(a) >= 1)
				prio = mnl_attr_get_u8(a);
			if (off >= s && off < s + (int32_t)MNL_ALIGN(a->nla_len)) {
				if (mnl_attr_get_type(a) == FLOWCTL_A_PRIO_XOFF)
					word = " xoff";
				else if (mnl_attr_get_type(a) == FLOWCTL_A_PRIO_XON)
					word = " xon";
			}
		}
		if (prio >= 0)
			snprintf(buf, len, "prio %d%s", prio, word);
		else
			snprintf(buf, len, "prio%s", word);
		return buf;
	}
	return NULL;
}

void fc_nl_perror(const struct fc_nl *nl, int err, const char *dev,
		  const char *what, bool no_qdisc)
{
	int e = err < 0 ? -err : err;
	char word[32];
	const char *w;

	switch (e) {
	case ENODEV:
		if (dev) {
			fprintf(stderr, "no such device %s\n", dev);
			return;
		}
		break;
	case EOPNOTSUPP:
		if (no_qdisc && dev) {
			fprintf(stderr,
				"%s has no flowctl qdisc; attach one with: tc qdisc add dev %s root flowctl\n",
				dev, dev);
			return;
		}
		break;
	case EPERM:
		if (matches(what, "set") || matches(what, "reset"))
			fprintf(stderr, "permission denied: set and reset need CAP_NET_ADMIN\n");
		else
			fprintf(stderr, "permission denied: %s needs CAP_NET_ADMIN\n",
				what);
		return;
	}
	if (!nl->ext_msg[0]) {
		fprintf(stderr, "Error: %s%s%s: %s\n", what, dev ? " " : "",
			dev ? dev : "", strerror(e));
		return;
	}
	w = fc_nl_attr_word(nl, nl->ext_off, word, sizeof(word));
	if (w)
		fprintf(stderr, "Error: %s (at \"%s\"; %s)\n", nl->ext_msg, w,
			strerror(e));
	else
		fprintf(stderr, "Error: %s (%s)\n", nl->ext_msg, strerror(e));
}
