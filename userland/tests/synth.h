/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic kernel messages, built in memory with libmnl the way the
 * module lays them out: u64s behind PAD attributes, nests with
 * NLA_F_NESTED, priorities in any order, plus attributes this tool does
 * not know (a newer module) that must be skipped.
 */
#ifndef FLOWCTL_TESTS_SYNTH_H
#define FLOWCTL_TESTS_SYNTH_H

#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/flowctl.h>
#include <linux/genetlink.h>

#define SYNTH_FAMILY		0x1234
#define SYNTH_TX_BYTES_3	((1ULL << 63) + 5)	/* needs all 64 bits */
#define SYNTH_UNKNOWN		200			/* an attribute from the future */

static inline struct nlmsghdr *synth_genl(char *buf, uint16_t type, uint8_t cmd,
					  uint32_t seq, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = FLOWCTL_FAMILY_VERSION;
	return nlh;
}

/* Like the kernel's nla_put_u64_64bit: a PAD first when unaligned. */
static inline void synth_u64(struct nlmsghdr *nlh, uint16_t type, uint64_t v,
			     uint16_t pad)
{
	if ((nlh->nlmsg_len + 4) % 8)
		mnl_attr_put(nlh, pad, 0, NULL);
	mnl_attr_put_u64(nlh, type, v);
}

/* A fully populated port: veth0, ifindex 7, PFC on 3 and 4. */
static inline struct nlmsghdr *synth_full_dev(char *buf, uint32_t seq, uint16_t flags)
{
	struct nlmsghdr *nlh = synth_genl(buf, SYNTH_FAMILY, FLOWCTL_CMD_DEV_GET,
					  seq, flags);
	struct nlattr *nest;
	int p;

	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_IFINDEX, 7);
	mnl_attr_put_strz(nlh, FLOWCTL_A_DEV_IFNAME, "veth0");
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PFC);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_RX, 1);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_TX, 0);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_PFC_PRIOS, 0x18);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_TRUST, FLOWCTL_TRUST_PCP);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_SPEED, 100);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_SPEED_MBPS, 100);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_SPEED_SOURCE, FLOWCTL_SPEED_SRC_CONFIG);
	synth_u64(nlh, FLOWCTL_A_DEV_RATE, 0, FLOWCTL_A_DEV_PAD);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_LIMIT, 1000000);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_XOFF, 60000);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_XON, 30000);
	mnl_attr_put_u16(nlh, FLOWCTL_A_DEV_QUANTA, 65535);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_HEADROOM, 20000);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_PRIO_TC, 0x76543201);
	{
		static const uint8_t bw[8] = { 30, 0, 0, 50, 0, 20, 0, 0 };

		mnl_attr_put(nlh, FLOWCTL_A_DEV_TC_BW, sizeof(bw), bw);
	}
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_WD_DETECT_MS, 200);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_WD_RESTORE_MS, 0);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_WD_ACTION, FLOWCTL_WD_DROP);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_TX_STORM_MS, 500);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_TUNNEL_WIRE, 0);
	{
		uint8_t dscp[64] = { 0 };

		dscp[26] = 1u << 3;	/* dcb app: 26:3 and 48:6 */
		dscp[48] = 1u << 6;
		mnl_attr_put(nlh, FLOWCTL_A_DEV_DSCP_PRIOS, sizeof(dscp), dscp);
	}
	mnl_attr_put_u16(nlh, FLOWCTL_A_DEV_PFC_DELAY, 4096);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_DOORS, 0);	/* a NIC with its own */
	{
		static const uint8_t mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0xfe };

		mnl_attr_put(nlh, FLOWCTL_A_DEV_PARTNER_MAC, sizeof(mac), mac);
	}
	{
		/* A DCBX partner: PFC on 3, ETS, a Recommendation that differs,
		 * one DSCP and one EtherType APP entry.
		 */
		static const uint8_t mac[6] = { 0x02, 0x00, 0x00, 0x00, 0xdc, 0x02 };
		static const uint8_t bw[8] = { 40, 0, 0, 60, 0, 0, 0, 0 };
		static const uint8_t tsa[8] = { 2, 0, 0, 2, 0, 0, 0, 0 };
		static const uint8_t rbw[8] = { 100, 0, 0, 0, 0, 0, 0, 0 };
		static const uint8_t rtsa[8] = { 2, 0, 0, 0, 0, 0, 0, 0 };
		static const uint8_t app[8] = { 5, 3, 26, 0, 1, 3, 0x15, 0x89 };
		struct nlattr *peer = mnl_attr_nest_start(nlh, FLOWCTL_A_DEV_PEER);

		mnl_attr_put_u16(nlh, FLOWCTL_A_PEER_TTL, 117);
		mnl_attr_put(nlh, FLOWCTL_A_PEER_MAC, sizeof(mac), mac);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_PFC_EN, 0x08);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_PFC_CAP, 8);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_PFC_MBC, 0);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_PFC_WILLING, 1);
		mnl_attr_put_u32(nlh, FLOWCTL_A_PEER_ETS_PRIO_TC, 0x00003000);
		mnl_attr_put(nlh, FLOWCTL_A_PEER_ETS_TC_BW, 8, bw);
		mnl_attr_put(nlh, FLOWCTL_A_PEER_ETS_TC_TSA, 8, tsa);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_ETS_CAP, 8);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_ETS_WILLING, 0);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PEER_ETS_CBS, 0);
		mnl_attr_put_u32(nlh, FLOWCTL_A_PEER_RECO_PRIO_TC, 0);
		mnl_attr_put(nlh, FLOWCTL_A_PEER_RECO_TC_BW, 8, rbw);
		mnl_attr_put(nlh, FLOWCTL_A_PEER_RECO_TC_TSA, 8, rtsa);
		/* struct dcb_app: selector, priority, protocol (host order) */
		mnl_attr_put(nlh, FLOWCTL_A_PEER_APP, sizeof(app), app);
		mnl_attr_nest_end(nlh, peer);
	}
	mnl_attr_put_u32(nlh, SYNTH_UNKNOWN, 0xdeadbeef);

	nest = mnl_attr_nest_start(nlh, FLOWCTL_A_DEV_STATS);
	synth_u64(nlh, FLOWCTL_A_STATS_RX_PAUSE, 12, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_RX_XON, 3, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_RX_PFC, 40, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_TX_PAUSE, 0, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_TX_XON, 0, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_TX_PFC, 5, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_RX_IGNORED, 1, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_RX_MALFORMED, 2, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_RX_UNSUPPORTED, 3, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_PARTNER_IGNORED, 4, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_EVENTS_SUPPRESSED, 6, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_TX_STORM_WARNING, 2, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_TX_STORM_ERROR, 1, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, FLOWCTL_A_STATS_TX_XOFF_SHORT, 0, FLOWCTL_A_STATS_PAD);
	synth_u64(nlh, SYNTH_UNKNOWN, 99, FLOWCTL_A_STATS_PAD);
	mnl_attr_nest_end(nlh, nest);

	/* Highest priority first: the tool must order them itself. */
	for (p = FLOWCTL_NUM_PRIOS - 1; p >= 0; p--) {
		uint64_t b = (uint64_t)p;

		nest = mnl_attr_nest_start(nlh, FLOWCTL_A_DEV_PRIO);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PRIO_PRIO, (uint8_t)p);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PRIO_PAUSED, p == 3);
		synth_u64(nlh, FLOWCTL_A_PRIO_PAUSE_LEFT_NS, p == 3 ? 12345678 : 0,
			  FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_PAUSE_ELAPSED_NS, p == 3 ? 2000000 : 0,
			  FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_PAUSED_NS_TOTAL, b * 1000000000ULL,
			  FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_PAUSE_EPISODES, b, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_RX_PFC, 10 + b, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_RX_PFC_XON, 20 + b, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_TX_PFC, 30 + b, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_TX_PFC_XON, 40 + b, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_TX_PACKETS, 50 + b, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_TX_BYTES, p == 3 ? SYNTH_TX_BYTES_3 : 60 + b,
			  FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_BACKLOG_BYTES, 1500 * b, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_BACKLOG_PACKETS, b, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_DROPS, 70 + b, FLOWCTL_A_PRIO_PAD);
		mnl_attr_put_u32(nlh, FLOWCTL_A_PRIO_XOFF, 60000);
		mnl_attr_put_u32(nlh, FLOWCTL_A_PRIO_XON, 30000);
		synth_u64(nlh, FLOWCTL_A_PRIO_CHARGE_BYTES, 80 + b, FLOWCTL_A_PRIO_PAD);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PRIO_XOFF_ACTIVE, p == 4);
		synth_u64(nlh, FLOWCTL_A_PRIO_PARTNER_IGNORED, 90 + b, FLOWCTL_A_PRIO_PAD);
		/* Priority 3 is stormed, once before restored. */
		mnl_attr_put_u8(nlh, FLOWCTL_A_PRIO_WD_STATE,
				p == 3 ? FLOWCTL_WD_STORMED : FLOWCTL_WD_OPERATIONAL);
		synth_u64(nlh, FLOWCTL_A_PRIO_WD_STORMS, p == 3 ? 2 : 0, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_WD_RESTORED, p == 3 ? 1 : 0, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_WD_TX_DROP, p == 3 ? 812 : 0, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_WD_RX_DROP, p == 3 ? 7 : 0, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_WD_TX_FORWARD, 0, FLOWCTL_A_PRIO_PAD);
		synth_u64(nlh, FLOWCTL_A_PRIO_WD_STORMED_NS_TOTAL,
			  p == 3 ? 1200000000ULL : 0, FLOWCTL_A_PRIO_PAD);
		mnl_attr_put_u8(nlh, SYNTH_UNKNOWN, 1);
		mnl_attr_nest_end(nlh, nest);
	}
	/* Two TX queues under mq (show -d): 8001: and 8002:. */
	for (p = 0; p < 2; p++) {
		nest = mnl_attr_nest_start(nlh, FLOWCTL_A_DEV_QUEUE);
		mnl_attr_put_u16(nlh, FLOWCTL_A_QUEUE_INDEX, (uint16_t)p);
		mnl_attr_put_u32(nlh, FLOWCTL_A_QUEUE_HANDLE, (0x8001u + p) << 16);
		synth_u64(nlh, FLOWCTL_A_QUEUE_TX_PACKETS, 100 + p, FLOWCTL_A_QUEUE_PAD);
		synth_u64(nlh, FLOWCTL_A_QUEUE_TX_BYTES, 6400 + p, FLOWCTL_A_QUEUE_PAD);
		mnl_attr_put_u32(nlh, FLOWCTL_A_QUEUE_BACKLOG_BYTES, 1500u * p);
		mnl_attr_put_u32(nlh, FLOWCTL_A_QUEUE_BACKLOG_PACKETS, p);
		synth_u64(nlh, FLOWCTL_A_QUEUE_DROPS, 7 + p, FLOWCTL_A_QUEUE_PAD);
		mnl_attr_put_u8(nlh, SYNTH_UNKNOWN, 1);
		mnl_attr_nest_end(nlh, nest);
	}
	return nlh;
}

/* A port from an older module that sends little: eth1, ifindex 3. */
static inline struct nlmsghdr *synth_sparse_dev(char *buf, uint32_t seq, uint16_t flags)
{
	struct nlmsghdr *nlh = synth_genl(buf, SYNTH_FAMILY, FLOWCTL_CMD_DEV_GET,
					  seq, flags);

	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_IFINDEX, 3);
	mnl_attr_put_strz(nlh, FLOWCTL_A_DEV_IFNAME, "eth1");
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PAUSE);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_SPEED_MBPS, 0);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_SPEED_SOURCE, FLOWCTL_SPEED_SRC_NONE);
	return nlh;
}

/*
 * A brief reply (FLOWCTL_A_DEV_BRIEF asked): veth2, ifindex 9, link PAUSE
 * received (all eight paused), XOFF on 2 and 5, 6 stormed, 2 packets queued.
 */
static inline struct nlmsghdr *synth_brief_dev(char *buf, uint32_t seq, uint16_t flags)
{
	struct nlmsghdr *nlh = synth_genl(buf, SYNTH_FAMILY, FLOWCTL_CMD_DEV_GET,
					  seq, flags);

	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_IFINDEX, 9);
	mnl_attr_put_strz(nlh, FLOWCTL_A_DEV_IFNAME, "veth2");
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_MODE, FLOWCTL_MODE_PAUSE);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_RX, 1);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_TX, 1);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_PFC_PRIOS, 0);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_SPEED_MBPS, 10000);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_PAUSED, 0xff);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_XOFF_ACTIVE, 0x24);
	mnl_attr_put_u8(nlh, FLOWCTL_A_DEV_STORMED, 0x40);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_BACKLOG_BYTES, 3000);
	mnl_attr_put_u32(nlh, FLOWCTL_A_DEV_BACKLOG_PACKETS, 2);
	return nlh;
}

/* An event: veth0 rx pause-start prio 3, 65535 quanta at 100 Mb/s. */
static inline struct nlmsghdr *synth_event(char *buf, uint8_t type, int prio,
					   uint16_t quanta, uint64_t time_ns)
{
	struct nlmsghdr *nlh = synth_genl(buf, SYNTH_FAMILY, FLOWCTL_CMD_EVENT, 0, 0);

	mnl_attr_put_u8(nlh, FLOWCTL_A_EVENT_TYPE, type);
	mnl_attr_put_u32(nlh, FLOWCTL_A_EVENT_IFINDEX, 7);
	mnl_attr_put_strz(nlh, FLOWCTL_A_EVENT_IFNAME, "veth0");
	mnl_attr_put_u8(nlh, FLOWCTL_A_EVENT_DIR, FLOWCTL_DIR_RX);
	if (prio >= 0)
		mnl_attr_put_u8(nlh, FLOWCTL_A_EVENT_PRIO, (uint8_t)prio);
	mnl_attr_put_u16(nlh, FLOWCTL_A_EVENT_QUANTA, quanta);
	synth_u64(nlh, FLOWCTL_A_EVENT_TIME_NS, time_ns, FLOWCTL_A_EVENT_PAD);
	synth_u64(nlh, FLOWCTL_A_EVENT_TIMESTAMP_NS, 1234567890123ULL, FLOWCTL_A_EVENT_PAD);
	return nlh;
}

/*
 * A pause message as the kernel sends it: a header, a suppressed count
 * (0: absent), and one entry per event (prio -1: link-level).
 */
struct synth_entry {
	uint8_t type;
	int prio;
	uint16_t quanta;
	uint64_t time_ns;
};

static inline struct nlmsghdr *synth_entries(char *buf, uint64_t suppressed,
					     const struct synth_entry *e,
					     unsigned int n)
{
	struct nlmsghdr *nlh = synth_genl(buf, SYNTH_FAMILY, FLOWCTL_CMD_EVENT, 0, 0);
	unsigned int i;

	mnl_attr_put_u32(nlh, FLOWCTL_A_EVENT_IFINDEX, 7);
	mnl_attr_put_strz(nlh, FLOWCTL_A_EVENT_IFNAME, "veth0");
	synth_u64(nlh, FLOWCTL_A_EVENT_TIMESTAMP_NS, 1234567890123ULL, FLOWCTL_A_EVENT_PAD);
	mnl_attr_put_u8(nlh, FLOWCTL_A_EVENT_DIR, FLOWCTL_DIR_RX);
	if (suppressed)
		synth_u64(nlh, FLOWCTL_A_EVENT_SUPPRESSED, suppressed, FLOWCTL_A_EVENT_PAD);
	for (i = 0; i < n; i++) {
		struct nlattr *nest = mnl_attr_nest_start(nlh, FLOWCTL_A_EVENT_ENTRY);

		mnl_attr_put_u8(nlh, FLOWCTL_A_ENTRY_TYPE, e[i].type);
		if (e[i].prio >= 0)
			mnl_attr_put_u8(nlh, FLOWCTL_A_ENTRY_PRIO, (uint8_t)e[i].prio);
		mnl_attr_put_u16(nlh, FLOWCTL_A_ENTRY_QUANTA, e[i].quanta);
		synth_u64(nlh, FLOWCTL_A_ENTRY_TIME_NS, e[i].time_ns, FLOWCTL_A_ENTRY_PAD);
		mnl_attr_nest_end(nlh, nest);
	}
	return nlh;
}

#endif
