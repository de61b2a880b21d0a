// SPDX-License-Identifier: GPL-2.0
/*
 * fcdump: dump every flowctl port of this namespace, and stop between the
 * dump's parts so that a test can change the device list meanwhile.
 *
 *   fcdump [brief] [pause-after K]
 *
 * Prints "dev IFINDEX IFNAME" per port, in the order the kernel sent them,
 * then "bytes N": what the dump's messages carried. brief asks for the
 * brief reply (FLOWCTL_A_DEV_BRIEF).
 * With pause-after K, after the K-th recv() of the dump (each recv gives
 * the kernel's next part) it prints "paused after N ports" and waits for a
 * line on stdin before reading on; if the dump ended before that, it says
 * "ended before the pause". The kernel builds one part per recv(), so what
 * is changed during the pause shows in the parts after it.
 */
#include <errno.h>
#include <stdbool.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/flowctl.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int family_cb(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID)
		*(uint16_t *)data = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

static int family_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_cb, data);
}

struct port {
	uint32_t ifindex;
	const char *ifname;
};

static int port_attr_cb(const struct nlattr *attr, void *data)
{
	struct port *p = data;

	if (mnl_attr_get_type(attr) == FLOWCTL_A_DEV_IFINDEX)
		p->ifindex = mnl_attr_get_u32(attr);
	if (mnl_attr_get_type(attr) == FLOWCTL_A_DEV_IFNAME)
		p->ifname = mnl_attr_get_str(attr);
	return MNL_CB_OK;
}

static unsigned int ports;

static int port_cb(const struct nlmsghdr *nlh, void *data)
{
	struct port p = { 0, "?" };

	(void)data;
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), port_attr_cb, &p);
	printf("dev %u %s\n", p.ifindex, p.ifname);
	ports++;
	return MNL_CB_OK;
}

static struct nlmsghdr *request(char *buf, uint16_t type, uint8_t cmd,
				uint16_t flags, unsigned int seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

int main(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int seq = (unsigned int)time(NULL), portid, recvs = 0;
	long pause_after = 0, bytes = 0;
	bool brief = false;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	uint16_t family = 0;
	char line[16];
	int ret;

	if (argc > 1 && !strcmp(argv[1], "brief")) {
		brief = true;
		argc--;
		argv++;
	}
	if (argc == 3 && !strcmp(argv[1], "pause-after"))
		pause_after = strtol(argv[2], NULL, 10);
	else if (argc != 1) {
		fprintf(stderr, "usage: fcdump [brief] [pause-after K]\n");
		return 2;
	}
	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		die("netlink");
	portid = mnl_socket_get_portid(nl);

	nlh = request(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, NLM_F_ACK, seq);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, FLOWCTL_FAMILY_NAME);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die("sendto");
	do {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0)
			die("recv");
		ret = mnl_cb_run(buf, ret, seq, portid, family_msg_cb, &family);
	} while (ret > 0);
	if (!family) {
		fprintf(stderr, "fcdump: no %s family (module not loaded?)\n",
			FLOWCTL_FAMILY_NAME);
		return 1;
	}

	nlh = request(buf, family, FLOWCTL_CMD_DEV_GET, NLM_F_DUMP, ++seq);
	if (brief)
		mnl_attr_put(nlh, FLOWCTL_A_DEV_BRIEF, 0, NULL);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die("sendto");
	do {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0)
			die("recv");
		bytes += ret;
		ret = mnl_cb_run(buf, ret, seq, portid, port_cb, NULL);
		if (ret < 0)
			die("dump");
		if (ret > 0 && pause_after && ++recvs == pause_after) {
			printf("paused after %u ports\n", ports);
			fflush(stdout);
			if (!fgets(line, sizeof(line), stdin))
				return 1;
		}
	} while (ret > 0);
	if (pause_after && recvs < pause_after)
		printf("ended before the pause\n");
	printf("bytes %ld\n", bytes);
	mnl_socket_close(nl);
	return 0;
}
