// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's side of a port, read the way ethtool(8) and dcb(8) read
 * it: ETHTOOL_MSG_LINKMODES_GET (speed, duplex, autoneg),
 * ETHTOOL_MSG_PAUSE_GET with ETHTOOL_FLAG_STATS (the MAC's own flow
 * control and its PAUSE frame counters), ETHTOOL_MSG_FEATURES_GET in
 * verbose bitsets (rx-all found by its name), and rtnetlink's RTM_GETDCB
 * (DCB_CMD_IEEE_GET's struct ieee_pfc, DCB_CMD_GDCBX). A driver without
 * the operation answers EOPNOTSUPP, which the doctor reads as "has none".
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/dcbnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>

#include "dev.h"
#include "nic.h"

void fc_nic_open(struct fc_nic_socks *s)
{
	int err;

	memset(s, 0, sizeof(*s));
	if (fc_nl_open_bus(&s->eth, NETLINK_GENERIC)) {
		s->eth_err = errno ? errno : EIO;
	} else {
		err = fc_nl_resolve(&s->eth, ETHTOOL_GENL_NAME);
		s->eth_err = -err;
	}
	if (fc_nl_open_bus(&s->rt, NETLINK_ROUTE))
		s->rt_err = errno ? errno : EIO;
}

void fc_nic_close(struct fc_nic_socks *s)
{
	fc_nl_close(&s->eth);
	fc_nl_close(&s->rt);
}

/* The request header nest has one type in every message read here. */
#define ETH_A_HEADER 1
_Static_assert(ETHTOOL_A_LINKMODES_HEADER == ETH_A_HEADER &&
	       ETHTOOL_A_PAUSE_HEADER == ETH_A_HEADER &&
	       ETHTOOL_A_FEATURES_HEADER == ETH_A_HEADER, "ethtool header types");

/* An ethtool request for dev, its header flags ETHTOOL_FLAG_*. */
static struct nlmsghdr *eth_req(struct fc_nl *nl, uint8_t cmd, const char *dev,
				uint32_t flags)
{
	struct nlmsghdr *nlh = fc_nl_genl_req(nl, cmd, ETHTOOL_GENL_VERSION, NLM_F_ACK);
	struct nlattr *h = mnl_attr_nest_start(nlh, ETH_A_HEADER);

	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, dev);
	if (flags)
		mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, flags);
	mnl_attr_nest_end(nlh, h);
	return nlh;
}

/* Send it and read the reply into cb: 0 or a positive errno. */
static int eth_talk(struct fc_nic_socks *s, struct nlmsghdr *nlh, mnl_cb_t cb,
		    void *data)
{
	return -fc_nl_talk(&s->eth, nlh, cb, data);
}

static int linkmodes_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fc_doc_nic *n = data;
	const struct nlattr *a;
	uint64_t v;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (!fc_attr_uint(a, &v))
			continue;
		switch (mnl_attr_get_type(a)) {
		case ETHTOOL_A_LINKMODES_SPEED:
			n->speed_mbps = v == (uint32_t)SPEED_UNKNOWN ? 0 : (uint32_t)v;
			break;
		case ETHTOOL_A_LINKMODES_DUPLEX:
			n->duplex = v == DUPLEX_HALF ? FC_DOC_DUPLEX_HALF :
				    v == DUPLEX_FULL ? FC_DOC_DUPLEX_FULL :
				    FC_DOC_DUPLEX_UNKNOWN;
			break;
		case ETHTOOL_A_LINKMODES_AUTONEG:
			n->autoneg = v == AUTONEG_ENABLE;
			break;
		}
	}
	return MNL_CB_OK;
}

struct pause_ctx {
	struct fc_doc_nic *n;
	int reading;
};

static int pause_cb(const struct nlmsghdr *nlh, void *data)
{
	struct pause_ctx *c = data;
	struct fc_doc_nic *n = c->n;
	const struct nlattr *a, *s;
	uint64_t v;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case ETHTOOL_A_PAUSE_AUTONEG:
			if (c->reading == 0 && fc_attr_uint(a, &v))
				n->pause_autoneg = v;
			break;
		case ETHTOOL_A_PAUSE_RX:
			if (c->reading == 0 && fc_attr_uint(a, &v))
				n->pause_rx = v;
			break;
		case ETHTOOL_A_PAUSE_TX:
			if (c->reading == 0 && fc_attr_uint(a, &v))
				n->pause_tx = v;
			break;
		case ETHTOOL_A_PAUSE_STATS:
			/* A counter the driver does not keep is left out. */
			mnl_attr_for_each_nested(s, a) {
				if (!fc_attr_uint(s, &v))
					continue;
				if (mnl_attr_get_type(s) == ETHTOOL_A_PAUSE_STAT_RX_FRAMES) {
					n->have_rx_frames[c->reading] = true;
					n->rx_frames[c->reading] = v;
				} else if (mnl_attr_get_type(s) == ETHTOOL_A_PAUSE_STAT_TX_FRAMES) {
					n->have_tx_frames[c->reading] = true;
					n->tx_frames[c->reading] = v;
				}
			}
			break;
		}
	}
	return MNL_CB_OK;
}

void fc_nic_read_pause(struct fc_nic_socks *s, const char *dev,
		       struct fc_doc_nic *n, int reading)
{
	struct pause_ctx c = { .n = n, .reading = reading };
	int err;

	if (s->eth_err) {
		if (reading == 0)
			n->pause_err = s->eth_err;
		return;
	}
	err = eth_talk(s, eth_req(&s->eth, ETHTOOL_MSG_PAUSE_GET, dev,
				  ETHTOOL_FLAG_STATS), pause_cb, &c);
	/* A kernel that knows no ETHTOOL_FLAG_STATS refuses the flag itself. */
	if (err == EOPNOTSUPP)
		err = eth_talk(s, eth_req(&s->eth, ETHTOOL_MSG_PAUSE_GET, dev, 0),
			       pause_cb, &c);
	if (reading == 0)
		n->pause_err = err;
}

/*
 * Whether the bit named name is set in a verbose (not compact) bitset:
 * without a mask (NOMASK) the bits listed are those set; with one, each
 * listed bit says its value.
 */
static bool bitset_has(const struct nlattr *set, const char *name)
{
	const struct nlattr *a, *bit, *b;
	bool nomask = false, on = false;

	mnl_attr_for_each_nested(a, set)
		if (mnl_attr_get_type(a) == ETHTOOL_A_BITSET_NOMASK)
			nomask = true;
	mnl_attr_for_each_nested(a, set) {
		if (mnl_attr_get_type(a) != ETHTOOL_A_BITSET_BITS)
			continue;
		mnl_attr_for_each_nested(bit, a) {
			const char *nm = NULL;
			bool value = false;

			if (mnl_attr_get_type(bit) != ETHTOOL_A_BITSET_BITS_BIT)
				continue;
			mnl_attr_for_each_nested(b, bit) {
				if (mnl_attr_get_type(b) == ETHTOOL_A_BITSET_BIT_NAME &&
				    mnl_attr_validate(b, MNL_TYPE_NUL_STRING) >= 0)
					nm = mnl_attr_get_str(b);
				else if (mnl_attr_get_type(b) == ETHTOOL_A_BITSET_BIT_VALUE)
					value = true;
			}
			if (nm && !strcmp(nm, name))
				on = nomask || value;
		}
	}
	return on;
}

static int features_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fc_doc_nic *n = data;
	const struct nlattr *a;
	bool hw = false, nochange = false;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case ETHTOOL_A_FEATURES_HW:
			hw = bitset_has(a, "rx-all");
			break;
		case ETHTOOL_A_FEATURES_NOCHANGE:
			nochange = bitset_has(a, "rx-all");
			break;
		case ETHTOOL_A_FEATURES_ACTIVE:
			n->rx_all_on = bitset_has(a, "rx-all");
			break;
		}
	}
	n->rx_all_offered = hw && !nochange;
	return MNL_CB_OK;
}

static int channels_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fc_doc_nic *n = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case ETHTOOL_A_CHANNELS_TX_COUNT:
		case ETHTOOL_A_CHANNELS_COMBINED_COUNT:
			if (mnl_attr_get_payload_len(a) >= sizeof(uint32_t))
				n->tx_queues += mnl_attr_get_u32(a);
			break;
		}
	}
	return MNL_CB_OK;
}

/* dcbnl: RTM_GETDCB for dev; the reply's attributes follow struct dcbmsg. */
static int dcb_talk(struct fc_nic_socks *s, const char *dev, uint8_t cmd,
		    mnl_cb_t cb, void *data)
{
	struct nlmsghdr *nlh;
	struct dcbmsg *d;

	if (s->rt_err)
		return s->rt_err;
	nlh = fc_nl_msg(&s->rt, RTM_GETDCB, NLM_F_ACK);
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, dev);
	return -fc_nl_talk(&s->rt, nlh, cb, data);
}

static int ieee_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fc_doc_nic *n = data;
	const struct nlattr *a, *i;

	mnl_attr_for_each(a, nlh, sizeof(struct dcbmsg)) {
		if (mnl_attr_get_type(a) != DCB_ATTR_IEEE)
			continue;
		mnl_attr_for_each_nested(i, a) {
			const uint8_t *pfc = mnl_attr_get_payload(i);
			struct ieee_pfc p;

			/* struct ieee_pfc: pfc_cap, then pfc_en */
			if (mnl_attr_get_type(i) != DCB_ATTR_IEEE_PFC ||
			    mnl_attr_get_payload_len(i) < 2)
				continue;
			n->have_pfc = true;
			n->pfc_cap = pfc[0];
			n->pfc_en = pfc[1];
			/* then the NIC's own PFC frames, sent (requests) and
			 * received (indications), per priority
			 */
			if (mnl_attr_get_payload_len(i) < sizeof(p))
				continue;
			memcpy(&p, pfc, sizeof(p));
			n->have_pfc_counts = true;
			memcpy(n->pfc_requests, p.requests, sizeof(n->pfc_requests));
			memcpy(n->pfc_indications, p.indications,
			       sizeof(n->pfc_indications));
		}
	}
	return MNL_CB_OK;
}

static int dcbx_cb(const struct nlmsghdr *nlh, void *data)
{
	struct fc_doc_nic *n = data;
	const struct nlattr *a;
	uint64_t v;

	mnl_attr_for_each(a, nlh, sizeof(struct dcbmsg))
		if (mnl_attr_get_type(a) == DCB_ATTR_DCBX && fc_attr_uint(a, &v))
			n->dcbx = (uint8_t)v;
	return MNL_CB_OK;
}

/*
 * The processes that speak LLDP on dev: the owners of the packet sockets
 * of protocol 0x88cc bound to its ifindex (/proc/net/packet, this
 * namespace's), found by their socket inodes in /proc/PID/fd.
 */
#define FC_LLDP_INODES 16
static void read_lldp_agents(const char *dev, struct fc_doc_nic *n)
{
	unsigned long inode[FC_LLDP_INODES];
	unsigned int ninodes = 0, ifindex = if_nametoindex(dev), i;
	char line[256], path[600], link[64];
	struct dirent *pe, *fe;
	DIR *procs, *fds;
	FILE *f;

	if (!ifindex)
		return;
	f = fopen("/proc/net/packet", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && ninodes < FC_LLDP_INODES) {
		unsigned int proto, iface;
		unsigned long ino;

		/* sk RefCnt Type Proto Iface R Rmem User Inode */
		if (sscanf(line, "%*s %*s %*s %x %u %*s %*s %*s %lu",
			   &proto, &iface, &ino) == 3 &&
		    proto == 0x88cc && iface == ifindex)
			inode[ninodes++] = ino;
	}
	fclose(f);
	if (!ninodes)
		return;
	procs = opendir("/proc");
	if (!procs)
		return;
	while ((pe = readdir(procs)) && n->nagents < FC_DOC_AGENTS) {
		bool found = false;

		if (!isdigit((unsigned char)pe->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", pe->d_name);
		fds = opendir(path);
		if (!fds)
			continue;
		while (!found && (fe = readdir(fds))) {
			unsigned long ino;
			ssize_t len;

			snprintf(path, sizeof(path), "/proc/%s/fd/%s",
				 pe->d_name, fe->d_name);
			len = readlink(path, link, sizeof(link) - 1);
			if (len <= 0)
				continue;
			link[len] = '\0';
			if (sscanf(link, "socket:[%lu]", &ino) != 1)
				continue;
			for (i = 0; i < ninodes && !found; i++)
				found = inode[i] == ino;
		}
		closedir(fds);
		if (!found)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", pe->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(n->agent[n->nagents].comm, sizeof(n->agent[0].comm), f)) {
			n->agent[n->nagents].comm[strcspn(n->agent[n->nagents].comm, "\n")] = '\0';
			n->agent[n->nagents].pid = atoi(pe->d_name);
			n->nagents++;
		}
		fclose(f);
	}
	closedir(procs);
}

void fc_nic_read(struct fc_nic_socks *s, const char *dev, struct fc_doc_nic *n)
{
	memset(n, 0, sizeof(*n));
	if (s->eth_err) {
		n->linkmodes_err = s->eth_err;
		n->features_err = s->eth_err;
		n->channels_err = s->eth_err;
	} else {
		n->linkmodes_err = eth_talk(s, eth_req(&s->eth, ETHTOOL_MSG_LINKMODES_GET, dev,
						      ETHTOOL_FLAG_COMPACT_BITSETS),
					    linkmodes_cb, n);
		n->features_err = eth_talk(s, eth_req(&s->eth, ETHTOOL_MSG_FEATURES_GET, dev, 0),
					   features_cb, n);
		n->channels_err = eth_talk(s, eth_req(&s->eth, ETHTOOL_MSG_CHANNELS_GET, dev, 0),
					   channels_cb, n);
	}
	fc_nic_read_pause(s, dev, n, 0);
	n->dcb_pfc_err = dcb_talk(s, dev, DCB_CMD_IEEE_GET, ieee_cb, n);
	n->dcbx_err = dcb_talk(s, dev, DCB_CMD_GDCBX, dcbx_cb, n);
	read_lldp_agents(dev, n);
}
