// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzzers for flowctl, run by selftests/fuzz.sh inside the VM.
 *
 *   fcfuzz frames TXDEV PORT_NETNS PORT SEED COUNT { fixed | any } [burst B]
 *       COUNT random MAC Control frames (and some other frames) from TXDEV,
 *       an AF_PACKET socket in the current namespace, to PORT, the flowctl
 *       port at the other end of the veth in the namespace PORT_NETNS (a
 *       path such as /run/netns/NAME). Opcodes, lengths (14 .. 1518),
 *       truncation, padding, VLAN tags, right and wrong destinations, PFC
 *       enable vectors and times are random; SEED makes the run repeatable.
 *       Frames go in bursts of at most B (default 128) through sendmmsg();
 *       after each burst the tool reads PORT's counters (dev-get) until
 *       every 0x8808 frame of the burst is counted, so that no frame waits
 *       in a backlog that could overflow: TXDEV's tx_dropped (veth counts a
 *       frame its peer refused there) must not move.
 *       Each frame is classified here, from the rules of 802.3 Annex 31B and
 *       31D as flowctl applies them (Documentation/receive-path.md), without
 *       the kernel's or the CLI's parser. At the end the deltas of PORT's
 *       counters must equal the prediction exactly: rx_pause, rx_xon,
 *       rx_pfc, rx_malformed, rx_unsupported and each priority's rx_pfc
 *       and rx_pfc_xon. rx_ignored: with "fixed" the configuration must not
 *       change during the run (it is read at the start and checked at the
 *       end) and rx_ignored is predicted exactly; with "any" someone changes
 *       it meanwhile and rx_ignored must lie between the frames no
 *       configuration honors (PFC with an empty enable vector) and all the
 *       valid frames.
 *   fcfuzz blast TXDEV SEED COUNT
 *       The same frames without any check (for runs that replace the qdisc
 *       under the flood).
 *   fcfuzz nl SEED COUNT DEV...
 *       COUNT random requests to the "flowctl" generic netlink family: every
 *       command (dev-get do and dump, dev-set, stats-reset, and commands the
 *       family does not have), random attribute sets with right and wrong
 *       lengths, types, values and nesting, truncated attributes. About a
 *       quarter go from a child that dropped to uid/gid 65534 (nobody), with
 *       no capability. The DEVs (flowctl ports, in this namespace) are
 *       read before each request; after a refused one their configuration
 *       must read back byte for byte the same; after an accepted dev-set it
 *       must hold the values sent. An unprivileged dev-set or stats-reset
 *       must be refused with EPERM.
 *
 * Output: "# " lines for the log; the last line is "ok ..." or "FAIL ...".
 * Exit 0 when every check held, 1 when one did not, 2 on a usage or setup
 * error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/flowctl.h>

#define NL_BUF		65536
#define MAX_FRAME	1518
#define MAX_BURST	256

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void die(const char *what)
{
	printf("FAIL %s: %s\n", what, strerror(errno));
	exit(2);
}

/* xorshift64*: small, fast, and the same sequence on every machine. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static void rng_seed(uint64_t seed)
{
	rng_state = seed * 0x9e3779b97f4a7c15ull + 0x1234567;
	if (!rng_state)
		rng_state = 1;
	rnd();
}

/* Uniform in [lo, hi]. */
static uint64_t rnd_in(uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return lo;
	if (hi - lo == UINT64_MAX)
		return rnd();
	return lo + rnd() % (hi - lo + 1);
}

/* true with probability pct percent */
static bool chance(unsigned int pct)
{
	return rnd() % 100 < pct;
}

static void rnd_bytes(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = rnd();
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* ------------------------------------------------------------------ */
/* Netlink plumbing shared by both fuzzers. */

struct nl {
	struct mnl_socket *sk;
	uint16_t family;
	uint32_t seq;
	/* when set, called for every family message of an answer */
	void (*on_msg)(const struct nlmsghdr *h);
	uint8_t buf[NL_BUF];
};

struct reply {
	int err;		/* 0, or the negative errno of the ack/done */
	int msgs;		/* family messages received */
	bool answered;		/* an ack, an error or a NLMSG_DONE came */
	uint8_t data[NL_BUF];	/* the first family message */
	size_t len;
};

static int nl_talk_raw(struct nl *n, void *req, size_t len, uint32_t seq,
		       struct reply *r)
{
	memset(r, 0, offsetof(struct reply, data));
	if (mnl_socket_sendto(n->sk, req, len) < 0)
		return -errno;
	for (;;) {
		ssize_t got = mnl_socket_recvfrom(n->sk, n->buf, sizeof(n->buf));
		struct nlmsghdr *h;
		int left;

		if (got < 0)
			return -errno;
		left = (int)got;
		for (h = (struct nlmsghdr *)n->buf; mnl_nlmsg_ok(h, left);
		     h = mnl_nlmsg_next(h, &left)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

				r->err = e->error;
				r->answered = true;
				return 0;
			}
			if (h->nlmsg_type == NLMSG_DONE) {
				if (mnl_nlmsg_get_payload_len(h) >= sizeof(int))
					r->err = *(int *)mnl_nlmsg_get_payload(h);
				r->answered = true;
				return 0;
			}
			if (h->nlmsg_type == n->family) {
				if (n->on_msg)
					n->on_msg(h);
				if (!r->msgs && h->nlmsg_len <= sizeof(r->data)) {
					memcpy(r->data, h, h->nlmsg_len);
					r->len = h->nlmsg_len;
				}
				r->msgs++;
			}
		}
	}
}

static struct nlmsghdr *genl_hdr(void *buf, uint16_t type, uint8_t cmd,
				 uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = FLOWCTL_FAMILY_VERSION;
	return nlh;
}

static int nl_open(struct nl *n, int timeout_s)
{
	uint8_t buf[512];
	struct nlmsghdr *req;
	struct timeval tv = { .tv_sec = timeout_s };
	static struct reply r;
	struct nlattr *a;
	int err;

	n->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!n->sk || mnl_socket_bind(n->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	setsockopt(mnl_socket_get_fd(n->sk), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	n->seq = 1;
	req = genl_hdr(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
		       NLM_F_REQUEST | NLM_F_ACK);
	req->nlmsg_seq = ++n->seq;
	mnl_attr_put_strz(req, CTRL_ATTR_FAMILY_NAME, FLOWCTL_FAMILY_NAME);
	n->family = GENL_ID_CTRL;	/* the reply comes from the controller */
	err = nl_talk_raw(n, req, req->nlmsg_len, req->nlmsg_seq, &r);
	if (err)
		return err;
	if (r.err)
		return r.err;
	n->family = 0;
	mnl_attr_for_each(a, (struct nlmsghdr *)r.data, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			n->family = mnl_attr_get_u16(a);
	return n->family ? 0 : -ENOENT;
}

/* dev-get by ifindex; the reply in r. */
static int dev_get(struct nl *n, unsigned int ifindex, struct reply *r)
{
	uint8_t buf[256];
	struct nlmsghdr *req;
	int err;

	req = genl_hdr(buf, n->family, FLOWCTL_CMD_DEV_GET,
		       NLM_F_REQUEST | NLM_F_ACK);
	req->nlmsg_seq = ++n->seq;
	mnl_attr_put_u32(req, FLOWCTL_A_DEV_IFINDEX, ifindex);
	err = nl_talk_raw(n, req, req->nlmsg_len, req->nlmsg_seq, r);
	if (!err && r->err)
		err = r->err;
	if (!err && !r->msgs)
		err = -ENODATA;
	return err;
}

static uint64_t attr_uint(const struct nlattr *a)
{
	switch (mnl_attr_get_payload_len(a)) {
	case 1:
		return mnl_attr_get_u8(a);
	case 2:
		return mnl_attr_get_u16(a);
	case 4:
		return mnl_attr_get_u32(a);
	case 8:
		return mnl_attr_get_u64(a);
	}
	return UINT64_MAX;
}

/* ------------------------------------------------------------------ */
/* Frames. */

enum cls {
	C_PAUSE, C_XON, C_PFC, C_MALFORMED, C_UNSUPPORTED, C_OTHER, C_NCLS
};

static const char *cls_name[C_NCLS] = {
	"rx_pause", "rx_xon", "rx_pfc", "rx_malformed", "rx_unsupported",
	"not_mac_control",
};

struct counts {
	uint64_t c[C_NCLS];
	uint64_t ignored;
	uint64_t prio_pfc[8], prio_xon[8];
};

struct port_cfg {
	uint64_t mode, rx, pfc_prios, speed_mbps;
};

static const uint8_t group_da[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

/*
 * What the port makes of a frame, from the standard as flowctl applies it
 * (written here, not taken from include/flowctl/maccontrol.h):
 *  - EtherType other than 0x8808 (after at most one VLAN tag, which the
 *    receive path strips): not a MAC Control frame, not counted;
 *  - a VLAN tag in front of 0x8808: malformed (Annex 31A: never tagged);
 *  - fewer than 2 octets after the header: malformed (no opcode);
 *  - opcode other than 0x0001 and 0x0101: unsupported, whatever else;
 *  - PAUSE: fewer than 2 octets of time, or a DA that is neither
 *    01-80-C2-00-00-01 nor the port's own address: malformed;
 *  - PFC: fewer than 18 octets (vector and eight times), or a DA other
 *    than the group address: malformed; the reserved upper octet of the
 *    enable vector is ignored;
 *  - otherwise PAUSE (time > 0), XON (PAUSE time 0) or PFC.
 */
static enum cls classify(const uint8_t *f, size_t len, const uint8_t *own,
			 bool *always_ignored, uint8_t *enable,
			 const uint8_t **body)
{
	size_t plen;
	uint16_t type = get16(f + 12), op;
	bool tagged = false, group;

	*always_ignored = false;
	*enable = 0;
	if (type == 0x8100 || type == 0x88a8) {
		/* The receive path needs the tag and two octets beyond it. */
		if (len < 14 + 4 + 2)
			return C_OTHER;
		tagged = true;
		type = get16(f + 16);
	}
	if (type != 0x8808)
		return C_OTHER;
	if (tagged)
		return C_MALFORMED;
	plen = len - 14;
	if (plen < 2)
		return C_MALFORMED;
	op = get16(f + 14);
	group = !memcmp(f, group_da, 6);
	*body = f + 16;
	if (op == 0x0001) {
		if (plen < 4 || (!group && memcmp(f, own, 6)))
			return C_MALFORMED;
		return get16(f + 16) ? C_PAUSE : C_XON;
	}
	if (op == 0x0101) {
		if (plen < 2 + 2 + 16 || !group)
			return C_MALFORMED;
		*enable = f[17];
		*always_ignored = !*enable;
		return C_PFC;
	}
	return C_UNSUPPORTED;
}

/* Whether a valid frame is ignored under configuration c. */
static bool ignored_under(const struct port_cfg *c, enum cls k,
			  const uint8_t *f)
{
	int prio;
	uint8_t honor;

	if (k == C_PAUSE || k == C_XON)
		return !c->rx || c->mode != FLOWCTL_MODE_PAUSE ||
		       (!c->speed_mbps && k == C_PAUSE);
	honor = (c->rx && c->mode == FLOWCTL_MODE_PFC) ? f[17] & c->pfc_prios : 0;
	for (prio = 0; prio < 8; prio++)
		if (!c->speed_mbps && get16(f + 18 + 2 * prio))
			honor &= ~(1u << prio);
	return !honor;
}

struct gen_stats {
	uint64_t kinds[16];
};

static const char *kind_name[] = {
	"pause", "pause-own-da", "pfc", "pause-bad-da", "pfc-bad-da",
	"pfc-reserved", "short", "opcode", "vlan", "qinq", "other-type",
	"802.3-length",
};
#define N_KINDS (sizeof(kind_name) / sizeof(kind_name[0]))

static uint16_t rnd_time(void)
{
	switch (rnd() % 6) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return 0xffff;
	case 3:
		return rnd_in(1, 64);
	default:
		return rnd();
	}
}

static void rnd_unicast(uint8_t *mac, const uint8_t *avoid)
{
	do {
		rnd_bytes(mac, 6);
		mac[0] &= ~1;
	} while (!memcmp(mac, avoid, 6));
}

/* A DA that is neither the group address nor own. */
static void bad_da(uint8_t *da, const uint8_t *own)
{
	static const uint8_t others[][6] = {
		{ 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
		{ 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 },
		{ 0x01, 0x80, 0xc2, 0x00, 0x00, 0x02 },
		{ 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e },
		{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
		{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
		{ 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
	};

	if (chance(50))
		memcpy(da, others[rnd() % 7], 6);
	else
		rnd_unicast(da, own);
}

/* Padding: zeros, random bytes or a pattern after the fields. */
static void pad(uint8_t *f, size_t from, size_t len)
{
	if (from >= len)
		return;
	switch (rnd() % 3) {
	case 0:
		memset(f + from, 0, len - from);
		break;
	case 1:
		rnd_bytes(f + from, len - from);
		break;
	default:
		memset(f + from, 0xa5, len - from);
	}
}

/* A length: mostly the minimum frame, some short and long ones. */
static size_t rnd_len(size_t min)
{
	switch (rnd() % 4) {
	case 0:
		return 60 < min ? min : 60;
	case 1:
		return rnd_in(min, 64 < min ? min : 64);
	case 2:
		return rnd_in(min, 1514);
	default:
		return rnd_in(min, 128);
	}
}

/*
 * One random frame into f (at most MAX_FRAME bytes); returns its length.
 * sa: TXDEV's address; own: the port's.
 */
static size_t gen_frame(uint8_t *f, const uint8_t *sa, const uint8_t *own,
			struct gen_stats *gs)
{
	unsigned int kind = rnd() % 100;
	size_t len, i;

	/* Weights: valid frames half the time, the rest spread. */
	if (kind < 22)
		kind = 0;
	else if (kind < 26)
		kind = 1;
	else if (kind < 50)
		kind = 2;
	else if (kind < 55)
		kind = 3;
	else if (kind < 60)
		kind = 4;
	else if (kind < 64)
		kind = 5;
	else if (kind < 74)
		kind = 6;
	else if (kind < 82)
		kind = 7;
	else if (kind < 88)
		kind = 8;
	else if (kind < 90)
		kind = 9;
	else if (kind < 97)
		kind = 10;
	else
		kind = 11;
	gs->kinds[kind]++;

	memcpy(f, group_da, 6);
	/* Mostly our own SA; sometimes anything, multicast included. */
	if (chance(90))
		memcpy(f + 6, sa, 6);
	else
		rnd_bytes(f + 6, 6);
	put16(f + 12, 0x8808);

	switch (kind) {
	case 0:		/* PAUSE */
	case 1:		/* PAUSE to the port's own address */
	case 3:		/* PAUSE to someone else */
		if (kind == 1)
			memcpy(f, own, 6);
		if (kind == 3)
			bad_da(f, own);
		len = rnd_len(18);
		put16(f + 14, 0x0001);
		put16(f + 16, rnd_time());
		pad(f, 18, len);
		break;
	case 2:		/* PFC */
	case 4:		/* PFC to a unicast or other address */
	case 5:		/* PFC with the reserved octet set (ignored) */
		if (kind == 4) {
			if (chance(30))
				memcpy(f, own, 6);
			else
				bad_da(f, own);
		}
		len = rnd_len(34);
		put16(f + 14, 0x0101);
		f[16] = kind == 5 ? rnd_in(1, 255) : 0;
		f[17] = chance(10) ? 0 : chance(10) ? 0xff : rnd();
		for (i = 0; i < 8; i++)
			put16(f + 18 + 2 * i, rnd_time());
		pad(f, 34, len);
		break;
	case 6:		/* cut short: PAUSE or PFC, any DA */
		i = rnd() % 3;
		put16(f + 14, i ? 0x0101 : 0x0001);
		len = i ? rnd_in(14, 33) : rnd_in(14, 17);
		if (chance(20))
			len = 14;
		rnd_bytes(f + 16, 18);
		if (i == 2)
			f[16] = 0;
		if (chance(20))
			bad_da(f, own);
		break;
	case 7:		/* another opcode */
		do {
			i = rnd() % 4 ? rnd_in(0, 0x0300) : (uint16_t)rnd();
		} while (i == 0x0001 || i == 0x0101);
		put16(f + 14, i);
		if (chance(30))
			bad_da(f, own);
		len = rnd_len(14);
		rnd_bytes(f + 16, len > 16 ? len - 16 : 0);
		if (len < 16)
			len = 16;
		break;
	case 8:		/* VLAN-tagged MAC Control frame */
	case 9:		/* two tags */
		put16(f + 12, chance(80) ? 0x8100 : 0x88a8);
		put16(f + 14, rnd());
		if (kind == 9) {
			put16(f + 16, 0x8100);
			put16(f + 18, rnd());
			put16(f + 20, 0x8808);
			len = rnd_len(24);
			i = 22;
		} else {
			put16(f + 16, 0x8808);
			len = rnd_len(20);
			i = 18;
		}
		put16(f + i, chance(50) ? 0x0001 : 0x0101);
		rnd_bytes(f + i + 2, 20);
		if (f[i] == 0x01)
			f[i + 2] = 0;
		pad(f, i + 22, len);
		break;
	case 10:	/* another EtherType */
		do {
			i = rnd_in(0x0600, 0xffff);
		} while (i == 0x8808 || i == 0x8100 || i == 0x88a8 ||
			 i == 0x9100 || i == 0x0800 || i == 0x0806 ||
			 i == 0x86dd);
		put16(f + 12, i);
		len = rnd_len(14);
		rnd_bytes(f + 14, len - 14);
		break;
	default:	/* 802.3 length field */
		len = rnd_len(14);
		put16(f + 12, rnd_in(0, 0x5ff));
		rnd_bytes(f + 14, len - 14);
		break;
	}
	if (len > MAX_FRAME)
		len = MAX_FRAME;
	return len;
}

struct port {
	struct nl nl;
	unsigned int ifindex;
	struct reply r;
};

static int read_counts(struct port *p, struct counts *c, struct port_cfg *cfg)
{
	struct nlattr *a, *b;
	int err;

	memset(c, 0, sizeof(*c));
	err = dev_get(&p->nl, p->ifindex, &p->r);
	if (err)
		return err;
	mnl_attr_for_each(a, (struct nlmsghdr *)p->r.data,
			  sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case FLOWCTL_A_DEV_MODE:
			if (cfg)
				cfg->mode = attr_uint(a);
			break;
		case FLOWCTL_A_DEV_RX:
			if (cfg)
				cfg->rx = attr_uint(a);
			break;
		case FLOWCTL_A_DEV_PFC_PRIOS:
			if (cfg)
				cfg->pfc_prios = attr_uint(a);
			break;
		case FLOWCTL_A_DEV_SPEED_MBPS:
			if (cfg)
				cfg->speed_mbps = attr_uint(a);
			break;
		case FLOWCTL_A_DEV_STATS:
			mnl_attr_for_each_nested(b, a) {
				uint64_t v = attr_uint(b);

				switch (mnl_attr_get_type(b)) {
				case FLOWCTL_A_STATS_RX_PAUSE:
					c->c[C_PAUSE] = v;
					break;
				case FLOWCTL_A_STATS_RX_XON:
					c->c[C_XON] = v;
					break;
				case FLOWCTL_A_STATS_RX_PFC:
					c->c[C_PFC] = v;
					break;
				case FLOWCTL_A_STATS_RX_MALFORMED:
					c->c[C_MALFORMED] = v;
					break;
				case FLOWCTL_A_STATS_RX_UNSUPPORTED:
					c->c[C_UNSUPPORTED] = v;
					break;
				case FLOWCTL_A_STATS_RX_IGNORED:
					c->ignored = v;
					break;
				}
			}
			break;
		case FLOWCTL_A_DEV_PRIO: {
			uint64_t prio = UINT64_MAX, pfc = 0, xon = 0;

			mnl_attr_for_each_nested(b, a) {
				switch (mnl_attr_get_type(b)) {
				case FLOWCTL_A_PRIO_PRIO:
					prio = attr_uint(b);
					break;
				case FLOWCTL_A_PRIO_RX_PFC:
					pfc = attr_uint(b);
					break;
				case FLOWCTL_A_PRIO_RX_PFC_XON:
					xon = attr_uint(b);
					break;
				}
			}
			if (prio < 8) {
				c->prio_pfc[prio] = pfc;
				c->prio_xon[prio] = xon;
			}
			break;
		}
		}
	}
	return 0;
}

static uint64_t counted(const struct counts *c)
{
	return c->c[C_PAUSE] + c->c[C_XON] + c->c[C_PFC] + c->c[C_MALFORMED] +
	       c->c[C_UNSUPPORTED];
}

static uint64_t read_sysfs_u64(const char *dev, const char *stat)
{
	char path[256];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", dev, stat);
	f = fopen(path, "r");
	if (!f)
		return UINT64_MAX;
	if (fscanf(f, "%llu", &v) != 1)
		v = UINT64_MAX;
	fclose(f);
	return v;
}

static int get_mac(int fd, const char *dev, uint8_t *mac)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		return -1;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return 0;
}

static int packet_socket(const char *dev, struct sockaddr_ll *ll, uint8_t *mac)
{
	int fd, sz = 4 << 20;

	memset(ll, 0, sizeof(*ll));
	ll->sll_family = AF_PACKET;
	ll->sll_ifindex = if_nametoindex(dev);
	ll->sll_halen = 6;
	if (!ll->sll_ifindex)
		die(dev);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("socket(AF_PACKET)");
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (get_mac(fd, dev, mac))
		die("SIOCGIFHWADDR");
	return fd;
}

static void hexdump(const char *what, const uint8_t *p, size_t len)
{
	size_t i;

	printf("# %s (%zu bytes): ", what, len);
	for (i = 0; i < len; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static uint8_t frames_buf[MAX_BURST][MAX_FRAME];

static int do_frames(int argc, char **argv, bool check)
{
	const char *txdev, *nspath = NULL, *portdev = NULL;
	uint64_t seed, count, sent = 0, tx_drop0, tx_drop1, t0, t1, waits = 0;
	struct counts pred, base, now, end;
	struct port_cfg cfg0 = { 0 }, cfg1 = { 0 };
	struct mmsghdr msgs[MAX_BURST];
	struct iovec iov[MAX_BURST];
	struct sockaddr_ll ll;
	struct gen_stats gs;
	uint8_t sa[6], own[6];
	unsigned int burst = 128, b, k;
	bool fixed = false, bad = false;
	uint64_t always_ign = 0;
	static struct port p;
	int fd, nsfd, a, err;

	memset(&pred, 0, sizeof(pred));
	memset(&gs, 0, sizeof(gs));
	if (check) {
		if (argc < 6)
			return 2;
		txdev = argv[0];
		nspath = argv[1];
		portdev = argv[2];
		seed = strtoull(argv[3], NULL, 0);
		count = strtoull(argv[4], NULL, 0);
		if (!strcmp(argv[5], "fixed"))
			fixed = true;
		else if (strcmp(argv[5], "any"))
			return 2;
		a = 6;
	} else {
		if (argc < 3)
			return 2;
		txdev = argv[0];
		seed = strtoull(argv[1], NULL, 0);
		count = strtoull(argv[2], NULL, 0);
		a = 3;
	}
	for (; a + 1 < argc; a += 2)
		if (!strcmp(argv[a], "burst"))
			burst = strtoul(argv[a + 1], NULL, 0);
	if (!burst || burst > MAX_BURST)
		return 2;
	rng_seed(seed);
	fd = packet_socket(txdev, &ll, sa);
	memset(own, 0xff, 6);
	if (check) {
		/* The port lives in another namespace: its netlink socket and
		 * its address are taken from there.
		 */
		nsfd = open(nspath, O_RDONLY);
		if (nsfd < 0 || setns(nsfd, CLONE_NEWNET))
			die(nspath);
		close(nsfd);
		err = socket(AF_INET, SOCK_DGRAM, 0);
		if (err < 0 || get_mac(err, portdev, own))
			die(portdev);
		close(err);
		p.ifindex = if_nametoindex(portdev);
		if (!p.ifindex)
			die(portdev);
		err = nl_open(&p.nl, 30);
		if (err) {
			errno = -err;
			die("netlink");
		}
		err = read_counts(&p, &base, &cfg0);
		if (err) {
			errno = -err;
			die("dev-get");
		}
	}
	tx_drop0 = read_sysfs_u64(txdev, "tx_dropped");

	printf("# seed %llu: %llu frames from %s, %s configuration\n",
	       (unsigned long long)seed, (unsigned long long)count, txdev,
	       !check ? "unchecked" : fixed ? "fixed" : "changing");
	if (check && fixed)
		printf("# configuration: mode %llu rx %llu pfc-prios 0x%02llx speed %llu Mb/s\n",
		       (unsigned long long)cfg0.mode, (unsigned long long)cfg0.rx,
		       (unsigned long long)cfg0.pfc_prios,
		       (unsigned long long)cfg0.speed_mbps);
	t0 = now_ns();
	while (sent < count) {
		uint64_t deadline;
		unsigned int n = rnd_in(1, burst);

		if (n > count - sent)
			n = count - sent;
		for (b = 0; b < n; b++) {
			size_t len = gen_frame(frames_buf[b], sa, own, &gs);
			const uint8_t *body = NULL;
			bool always;
			uint8_t en;
			enum cls kc;

			kc = classify(frames_buf[b], len, own, &always, &en, &body);
			pred.c[kc]++;
			if (kc == C_PFC) {
				for (k = 0; k < 8; k++) {
					if (!(en & (1u << k)))
						continue;
					pred.prio_pfc[k]++;
					if (!get16(body + 2 + 2 * k))
						pred.prio_xon[k]++;
				}
				always_ign += always;
			}
			if ((kc == C_PAUSE || kc == C_XON || kc == C_PFC) &&
			    fixed && ignored_under(&cfg0, kc, frames_buf[b]))
				pred.ignored++;
			iov[b].iov_base = frames_buf[b];
			iov[b].iov_len = len;
			memset(&msgs[b], 0, sizeof(msgs[b]));
			msgs[b].msg_hdr.msg_iov = &iov[b];
			msgs[b].msg_hdr.msg_iovlen = 1;
			msgs[b].msg_hdr.msg_name = &ll;
			msgs[b].msg_hdr.msg_namelen = sizeof(ll);
		}
		for (b = 0; b < n;) {
			int r = sendmmsg(fd, msgs + b, n - b, 0);

			if (r < 0) {
				if (errno == ENOBUFS || errno == EAGAIN) {
					usleep(1000);
					continue;
				}
				printf("# frame %llu of the run:\n",
				       (unsigned long long)(sent + b));
				hexdump("frame", frames_buf[b], iov[b].iov_len);
				die("sendmmsg");
			}
			b += r;
		}
		sent += n;
		if (!check)
			continue;
		/* Wait until the port has counted this burst. */
		deadline = now_ns() + 30000000000ull;
		for (;;) {
			err = read_counts(&p, &now, NULL);
			if (err) {
				errno = -err;
				die("dev-get");
			}
			if (counted(&now) - counted(&base) >=
			    pred.c[C_PAUSE] + pred.c[C_XON] + pred.c[C_PFC] +
			    pred.c[C_MALFORMED] + pred.c[C_UNSUPPORTED])
				break;
			if (now_ns() > deadline) {
				printf("# after frame %llu the port has counted %llu MAC Control frames of %llu sent for 30 s\n",
				       (unsigned long long)sent,
				       (unsigned long long)(counted(&now) - counted(&base)),
				       (unsigned long long)(pred.c[C_PAUSE] +
				       pred.c[C_XON] + pred.c[C_PFC] +
				       pred.c[C_MALFORMED] + pred.c[C_UNSUPPORTED]));
				bad = true;
				break;
			}
			waits++;
			usleep(200);
		}
		if (bad)
			break;
	}
	t1 = now_ns();
	tx_drop1 = read_sysfs_u64(txdev, "tx_dropped");
	printf("# sent %llu frames in %.2f s: %.0f frames/s (%llu waits for the counters)\n",
	       (unsigned long long)sent, (t1 - t0) / 1e9,
	       sent / ((t1 - t0) / 1e9), (unsigned long long)waits);
	printf("# kinds built:");
	for (k = 0; k < N_KINDS; k++)
		printf(" %s=%llu", kind_name[k], (unsigned long long)gs.kinds[k]);
	printf("\n");
	if (!check) {
		printf("ok %llu frames sent\n", (unsigned long long)sent);
		return 0;
	}
	/* One more read after a pause: nothing may arrive late. */
	usleep(100000);
	err = read_counts(&p, &end, &cfg1);
	if (err) {
		errno = -err;
		die("dev-get");
	}
	if (tx_drop1 != tx_drop0) {
		printf("# %s dropped %llu frames before they reached the port (tx_dropped): the counts cannot be exact\n",
		       txdev, (unsigned long long)(tx_drop1 - tx_drop0));
		bad = true;
	}
	for (k = 0; k < C_OTHER; k++) {
		uint64_t got = end.c[k] - base.c[k];

		printf("# %-15s predicted %8llu counted %8llu%s\n", cls_name[k],
		       (unsigned long long)pred.c[k], (unsigned long long)got,
		       got == pred.c[k] ? "" : "  <-- MISMATCH");
		if (got != pred.c[k])
			bad = true;
	}
	printf("# %-15s %8llu frames (not counted by the port)\n",
	       cls_name[C_OTHER], (unsigned long long)pred.c[C_OTHER]);
	for (k = 0; k < 8; k++) {
		uint64_t gp = end.prio_pfc[k] - base.prio_pfc[k];
		uint64_t gx = end.prio_xon[k] - base.prio_xon[k];

		if (gp != pred.prio_pfc[k] || gx != pred.prio_xon[k]) {
			printf("# prio %u: rx_pfc predicted %llu counted %llu, rx_pfc_xon predicted %llu counted %llu  <-- MISMATCH\n",
			       k, (unsigned long long)pred.prio_pfc[k],
			       (unsigned long long)gp,
			       (unsigned long long)pred.prio_xon[k],
			       (unsigned long long)gx);
			bad = true;
		}
	}
	{
		uint64_t gi = end.ignored - base.ignored;
		uint64_t valid = pred.c[C_PAUSE] + pred.c[C_XON] + pred.c[C_PFC];

		if (fixed) {
			printf("# %-15s predicted %8llu counted %8llu%s\n",
			       "rx_ignored", (unsigned long long)pred.ignored,
			       (unsigned long long)gi,
			       gi == pred.ignored ? "" : "  <-- MISMATCH");
			if (gi != pred.ignored)
				bad = true;
			if (memcmp(&cfg0, &cfg1, sizeof(cfg0))) {
				printf("# the configuration changed during a fixed run\n");
				bad = true;
			}
		} else {
			printf("# %-15s counted %llu, expected %llu..%llu\n",
			       "rx_ignored", (unsigned long long)gi,
			       (unsigned long long)always_ign,
			       (unsigned long long)valid);
			if (gi < always_ign || gi > valid) {
				printf("# rx_ignored out of range  <-- MISMATCH\n");
				bad = true;
			}
		}
	}
	if (bad) {
		printf("FAIL seed %llu: the port's counters differ from the frames sent (replay: FLOWCTL_FUZZ_SEED=%llu)\n",
		       (unsigned long long)seed, (unsigned long long)seed);
		return 1;
	}
	printf("ok %llu frames, every counter as predicted\n",
	       (unsigned long long)sent);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Netlink. */

#define MAX_DEVS 4

struct dev_ref {
	const char *name;
	unsigned int ifindex;
	uint8_t cfg[4096];	/* the configuration attributes, as read */
	size_t cfg_len;
	int seen;		/* in the last dump */
};

static struct dev_ref devs[MAX_DEVS];
static int ndevs;

static bool cfg_attr(uint16_t type)
{
	switch (type) {
	case FLOWCTL_A_DEV_IFINDEX:
	case FLOWCTL_A_DEV_IFNAME:
	case FLOWCTL_A_DEV_MODE:
	case FLOWCTL_A_DEV_RX:
	case FLOWCTL_A_DEV_TX:
	case FLOWCTL_A_DEV_PFC_PRIOS:
	case FLOWCTL_A_DEV_TRUST:
	case FLOWCTL_A_DEV_SPEED:
	case FLOWCTL_A_DEV_SPEED_MBPS:
	case FLOWCTL_A_DEV_SPEED_SOURCE:
	case FLOWCTL_A_DEV_RATE:
	case FLOWCTL_A_DEV_LIMIT:
	case FLOWCTL_A_DEV_XOFF:
	case FLOWCTL_A_DEV_XON:
	case FLOWCTL_A_DEV_QUANTA:
	case FLOWCTL_A_DEV_HEADROOM:
	case FLOWCTL_A_DEV_PRIO_TC:
		return true;
	}
	return false;
}

static void cfg_put(struct dev_ref *d, const struct nlattr *a)
{
	size_t l = a->nla_len;

	/* Aligned as in the message, the padding zeroed. */
	if (d->cfg_len + NLA_ALIGN(l) <= sizeof(d->cfg)) {
		memcpy(d->cfg + d->cfg_len, a, l);
		memset(d->cfg + d->cfg_len + l, 0, NLA_ALIGN(l) - l);
		d->cfg_len += NLA_ALIGN(l);
	}
}

/* Read a device's configuration: every attribute that is not a counter or
 * a time, in the order the kernel sends them. Counters and pause state
 * (stats, each priority's counters and times) are left out.
 */
static void cfg_from_msg(const struct nlmsghdr *h)
{
	struct dev_ref *d = NULL;
	struct nlattr *a, *b;
	int i;

	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == FLOWCTL_A_DEV_IFINDEX)
			for (i = 0; i < ndevs; i++)
				if (devs[i].ifindex == attr_uint(a))
					d = &devs[i];
	if (!d)
		return;
	d->cfg_len = 0;
	d->seen++;
	mnl_attr_for_each(a, h, sizeof(struct genlmsghdr)) {
		uint16_t t = mnl_attr_get_type(a);

		if (cfg_attr(t)) {
			cfg_put(d, a);
		} else if (t == FLOWCTL_A_DEV_PRIO) {
			mnl_attr_for_each_nested(b, a) {
				uint16_t u = mnl_attr_get_type(b);

				if (u == FLOWCTL_A_PRIO_PRIO ||
				    u == FLOWCTL_A_PRIO_XOFF ||
				    u == FLOWCTL_A_PRIO_XON)
					cfg_put(d, b);
			}
		}
	}
}

/* Every device's configuration, from one dump; -ENODEV names none. */
static int read_cfgs(struct nl *n, const char **missing)
{
	uint8_t buf[256];
	struct nlmsghdr *req;
	static struct reply r;
	int err, i;

	for (i = 0; i < ndevs; i++)
		devs[i].seen = 0;
	req = genl_hdr(buf, n->family, FLOWCTL_CMD_DEV_GET,
		       NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP);
	req->nlmsg_seq = ++n->seq;
	n->on_msg = cfg_from_msg;
	err = nl_talk_raw(n, req, req->nlmsg_len, req->nlmsg_seq, &r);
	n->on_msg = NULL;
	if (!err && r.err)
		err = r.err;
	if (err)
		return err;
	for (i = 0; i < ndevs; i++) {
		if (devs[i].seen != 1) {
			*missing = devs[i].name;
			return -ENODEV;
		}
	}
	return 0;
}

/* The value of a device-level attribute in a saved configuration; false
 * if absent. The device's own attributes come first in the reply, before
 * the priorities' (whose types overlap theirs): the first match is it.
 */
static bool cfg_get(const struct dev_ref *d, uint16_t type, uint64_t *v)
{
	const uint8_t *p = d->cfg, *end = d->cfg + d->cfg_len;

	while (p + sizeof(struct nlattr) <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < sizeof(*a))
			break;
		if (mnl_attr_get_type(a) == type) {
			*v = attr_uint(a);
			return true;
		}
		p += NLA_ALIGN(a->nla_len);
	}
	return false;
}

struct msg {
	uint8_t buf[8192];
	size_t len;
	uint8_t cmd;
	uint16_t flags;
	/* The last well-formed value of each set attribute: for checking
	 * what an accepted set did.
	 */
	bool has[FLOWCTL_A_DEV_MAX + 1];
	uint64_t val[FLOWCTL_A_DEV_MAX + 1];
};

static const char *ifname_choices[] = {
	NULL, NULL, "lo", "nonexistent0", "", "abcdefghijklmno",
	"abcdefghijklmnop", "a0\n", "eth0",
};

/* Put one attribute of random shape at m->buf + m->len. */
static void put_attr(struct msg *m, uint16_t type, const void *data,
		     size_t len)
{
	struct nlattr *a = (void *)(m->buf + m->len);

	if (m->len + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(m->buf))
		return;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((uint8_t *)a + NLA_HDRLEN, data, len);
	memset((uint8_t *)a + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	m->len += NLA_HDRLEN + NLA_ALIGN(len);
}

/* A value the policy accepts for a configuration attribute (the family's
 * own checks, thresholds against the limit, may still refuse it).
 */
static uint64_t clean_value(uint16_t type)
{
	switch (type) {
	case FLOWCTL_A_DEV_MODE:
		return rnd_in(0, 2);
	case FLOWCTL_A_DEV_RX:
	case FLOWCTL_A_DEV_TX:
	case FLOWCTL_A_DEV_TRUST:
		return rnd_in(0, 1);
	case FLOWCTL_A_DEV_PFC_PRIOS:
		return rnd() & 0xff;
	case FLOWCTL_A_DEV_SPEED:
		return chance(20) ? 0 : rnd_in(10, chance(50) ? 100000 : 800000);
	case FLOWCTL_A_DEV_RATE:
		return chance(50) ? 0 : rnd_in(64000, 800000000000ull);
	case FLOWCTL_A_DEV_LIMIT:
		return rnd_in(4096, chance(80) ? 4 << 20 : 268435456);
	case FLOWCTL_A_DEV_XOFF:
	case FLOWCTL_A_DEV_XON:
		return chance(30) ? 0 : rnd_in(1, 4 << 20);
	case FLOWCTL_A_DEV_QUANTA:
		return rnd_in(1, 0xffff);
	case FLOWCTL_A_DEV_PRIO_TC:
		return rnd() & 0x77777777;
	}
	return 0;
}

/* A value for an integer attribute of size sz, interesting or random. */
static uint64_t rnd_value(uint16_t type, unsigned int sz)
{
	static const uint64_t speeds[] = { 0, 1, 9, 10, 100, 1000, 10000,
					   800000, 800001, 0xffffffff };
	static const uint64_t rates[] = { 0, 1, 63999, 64000, 1000000,
					  800000000000ull, 800000000001ull,
					  UINT64_MAX };
	static const uint64_t bytes[] = { 0, 1, 1500, 4095, 4096, 65536,
					  200000, 268435456, 268435457,
					  0xffffffff };

	if (chance(30))
		return rnd() & (sz >= 8 ? UINT64_MAX : (1ull << (8 * sz)) - 1);
	switch (type) {
	case FLOWCTL_A_DEV_MODE:
	case FLOWCTL_A_DEV_TRUST:
		return rnd_in(0, 3);
	case FLOWCTL_A_DEV_RX:
	case FLOWCTL_A_DEV_TX:
		return rnd_in(0, 2);
	case FLOWCTL_A_DEV_SPEED:
		return speeds[rnd() % 10];
	case FLOWCTL_A_DEV_RATE:
		return rates[rnd() % 8];
	case FLOWCTL_A_DEV_LIMIT:
	case FLOWCTL_A_DEV_XOFF:
	case FLOWCTL_A_DEV_XON:
		return chance(50) ? bytes[rnd() % 10] : rnd_in(0, 1 << 20);
	case FLOWCTL_A_DEV_QUANTA:
		return chance(50) ? rnd_in(0, 2) : 0xffff - rnd_in(0, 1);
	case FLOWCTL_A_DEV_PRIO_TC:
		return chance(50) ? rnd() & 0x77777777 :
		       chance(50) ? FLOWCTL_PRIO_TC_8021Q : FLOWCTL_PRIO_TC_IDENTITY;
	}
	return rnd();
}

static unsigned int type_size(uint16_t type)
{
	switch (type) {
	case FLOWCTL_A_DEV_MODE:
	case FLOWCTL_A_DEV_RX:
	case FLOWCTL_A_DEV_TX:
	case FLOWCTL_A_DEV_PFC_PRIOS:
	case FLOWCTL_A_DEV_TRUST:
	case FLOWCTL_A_DEV_SPEED_SOURCE:
		return 1;
	case FLOWCTL_A_DEV_QUANTA:
		return 2;
	case FLOWCTL_A_DEV_RATE:
		return 8;
	}
	return 4;
}

/* An integer attribute of exactly sz bytes (host order, as netlink
 * integers are; sz other than 1, 2, 4, 8 makes a wrong length).
 */
static void put_uint(struct msg *m, uint16_t type, uint64_t v, unsigned int sz)
{
	uint8_t b[16] = { 0 };
	uint8_t x8 = v;
	uint16_t x16 = v;
	uint32_t x32 = v;

	if (sz > sizeof(b))
		sz = sizeof(b);
	if (sz == 1)
		memcpy(b, &x8, 1);
	else if (sz == 2)
		memcpy(b, &x16, 2);
	else if (sz == 4)
		memcpy(b, &x32, 4);
	else
		memcpy(b, &v, sz < 8 ? sz : 8);
	put_attr(m, type, b, sz);
}

/* A DEV_PRIO nest with random contents. */
static void put_prio_nest(struct msg *m, int depth)
{
	size_t start = m->len;
	struct nlattr *nest = (void *)(m->buf + m->len);
	int n = rnd_in(0, 4), i;

	if (m->len + NLA_HDRLEN > sizeof(m->buf))
		return;
	m->len += NLA_HDRLEN;
	for (i = 0; i < n; i++) {
		unsigned int t = rnd() % 10;

		if (t < 3)
			put_uint(m, FLOWCTL_A_PRIO_PRIO,
				 chance(80) ? rnd_in(0, 7) : rnd_in(8, 255),
				 chance(90) ? 1 : rnd_in(0, 4));
		else if (t < 5)
			put_uint(m, FLOWCTL_A_PRIO_XOFF,
				 rnd_value(FLOWCTL_A_DEV_XOFF, 4),
				 chance(90) ? 4 : rnd_in(0, 8));
		else if (t < 7)
			put_uint(m, FLOWCTL_A_PRIO_XON,
				 rnd_value(FLOWCTL_A_DEV_XON, 4),
				 chance(90) ? 4 : rnd_in(0, 8));
		else if (t < 8 && depth < 2)
			put_prio_nest(m, depth + 1);
		else
			put_uint(m, rnd_in(0, FLOWCTL_A_PRIO_MAX + 3), rnd(),
				 1u << rnd_in(0, 3));
	}
	nest->nla_type = FLOWCTL_A_DEV_PRIO | (chance(80) ? NLA_F_NESTED : 0);
	nest->nla_len = m->len - start;
}

/* Build a random request in m. */
static void gen_msg(struct msg *m, uint16_t family)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	unsigned int r = rnd() % 100, n, i;

	memset(m->has, 0, sizeof(m->has));
	if (r < 30)
		m->cmd = FLOWCTL_CMD_DEV_GET;
	else if (r < 75)
		m->cmd = FLOWCTL_CMD_DEV_SET;
	else if (r < 92)
		m->cmd = FLOWCTL_CMD_STATS_RESET;
	else if (r < 96)
		m->cmd = chance(50) ? FLOWCTL_CMD_UNSPEC : FLOWCTL_CMD_EVENT;
	else
		m->cmd = rnd_in(FLOWCTL_CMD_EVENT + 1, 255);
	m->flags = NLM_F_REQUEST | NLM_F_ACK;
	if (m->cmd == FLOWCTL_CMD_DEV_GET ? chance(40) : chance(5))
		m->flags |= NLM_F_DUMP;
	nlh = genl_hdr(m->buf, family, m->cmd, m->flags);
	g = mnl_nlmsg_get_payload(nlh);
	if (chance(5))
		g->version = rnd();
	if (chance(3))
		g->reserved = rnd();
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;

	/* Two in five requests are well formed: the device named once, by
 * ifindex or ifname, and values the policy accepts; the others anything.
 */
	if (chance(40)) {
		static const uint16_t cfg_types[] = {
			FLOWCTL_A_DEV_MODE, FLOWCTL_A_DEV_RX,
			FLOWCTL_A_DEV_TX, FLOWCTL_A_DEV_PFC_PRIOS,
			FLOWCTL_A_DEV_TRUST, FLOWCTL_A_DEV_SPEED,
			FLOWCTL_A_DEV_RATE, FLOWCTL_A_DEV_LIMIT,
			FLOWCTL_A_DEV_XOFF, FLOWCTL_A_DEV_XON,
			FLOWCTL_A_DEV_QUANTA, FLOWCTL_A_DEV_PRIO_TC,
		};
		const struct dev_ref *d = &devs[rnd() % ndevs];
		uint16_t type;
		uint64_t v;

		if (chance(50))
			put_uint(m, FLOWCTL_A_DEV_IFINDEX, d->ifindex, 4);
		else
			put_attr(m, FLOWCTL_A_DEV_IFNAME, d->name,
				 strlen(d->name) + 1);
		n = m->cmd == FLOWCTL_CMD_DEV_SET ? rnd_in(1, 4) : 0;
		for (i = 0; i < n; i++) {
			type = cfg_types[rnd() % 12];
			v = clean_value(type);
			put_uint(m, type, v, type_size(type));
			m->has[type] = true;
			m->val[type] = v;
		}
		nlh->nlmsg_len = m->len;
		return;
	}

	n = chance(10) ? rnd_in(0, 40) : rnd_in(0, 6);
	for (i = 0; i < n; i++) {
		unsigned int k = rnd() % 100;
		uint16_t type;
		unsigned int sz;
		uint64_t v;

		if (k < 25) {		/* the device, by ifindex */
			type = FLOWCTL_A_DEV_IFINDEX;
			v = chance(85) ? devs[rnd() % ndevs].ifindex :
			    chance(50) ? 0 : rnd_in(1, 1000);
			sz = chance(93) ? 4 : rnd_in(0, 8);
			put_uint(m, type, v, sz);
			if (sz == 4) {
				m->has[type] = true;
				m->val[type] = (uint32_t)v;
			}
			continue;
		}
		if (k < 40) {		/* by ifname */
			const char *s = ifname_choices[rnd() % 9];
			char tmp[40];
			size_t l;

			if (!s)
				s = devs[rnd() % ndevs].name;
			snprintf(tmp, sizeof(tmp), "%s", s);
			l = strlen(tmp) + (chance(85) ? 1 : 0);
			put_attr(m, FLOWCTL_A_DEV_IFNAME, tmp, l);
			m->has[FLOWCTL_A_DEV_IFNAME] = false;
			continue;
		}
		if (k < 48) {		/* a priority's thresholds */
			put_prio_nest(m, 0);
			continue;
		}
		if (k < 88) {		/* a configuration attribute */
			static const uint16_t cfg_types[] = {
				FLOWCTL_A_DEV_MODE, FLOWCTL_A_DEV_RX,
				FLOWCTL_A_DEV_TX, FLOWCTL_A_DEV_PFC_PRIOS,
				FLOWCTL_A_DEV_TRUST, FLOWCTL_A_DEV_SPEED,
				FLOWCTL_A_DEV_RATE, FLOWCTL_A_DEV_LIMIT,
				FLOWCTL_A_DEV_XOFF, FLOWCTL_A_DEV_XON,
				FLOWCTL_A_DEV_QUANTA, FLOWCTL_A_DEV_PRIO_TC,
			};
			type = cfg_types[rnd() % 12];
			sz = type_size(type);
			v = rnd_value(type, sz);
			if (sz < 8)
				v &= (1ull << (8 * sz)) - 1;
			if (chance(7))
				sz = rnd_in(0, 9);
			/* The last occurrence is the one that counts. */
			m->has[type] = sz == type_size(type);
			m->val[type] = v;
			if (chance(3))
				type |= chance(50) ? NLA_F_NESTED :
					NLA_F_NET_BYTEORDER;
			put_uint(m, type, v, sz);
			continue;
		}
		if (k < 96) {		/* read-only, unknown, out of range */
			static const uint16_t odd[] = {
				FLOWCTL_A_DEV_UNSPEC, FLOWCTL_A_DEV_PAD,
				FLOWCTL_A_DEV_SPEED_MBPS,
				FLOWCTL_A_DEV_SPEED_SOURCE,
				FLOWCTL_A_DEV_STATS, FLOWCTL_A_DEV_HEADROOM,
				FLOWCTL_A_DEV_MAX + 1, FLOWCTL_A_DEV_MAX + 7,
				0x3fff,
			};
			type = odd[rnd() % 9];
			if (type == FLOWCTL_A_DEV_STATS && chance(50)) {
				size_t start = m->len;
				struct nlattr *nest = (void *)(m->buf + m->len);

				m->len += NLA_HDRLEN;
				put_uint(m, FLOWCTL_A_STATS_RX_PAUSE, rnd(), 8);
				nest->nla_type = type | NLA_F_NESTED;
				nest->nla_len = m->len - start;
			} else {
				put_uint(m, type, rnd(), 1u << rnd_in(0, 3));
			}
			continue;
		}
		/* garbage bytes as an attribute of random type */
		{
			uint8_t junk[64];
			size_t l = rnd_in(0, sizeof(junk));

			rnd_bytes(junk, l);
			put_attr(m, rnd(), junk, l);
		}
	}
	/* Truncation: an attribute that claims more than the message holds,
	 * or a message cut inside an attribute or inside the headers.
	 */
	if (chance(6) && m->len > NLMSG_HDRLEN + GENL_HDRLEN) {
		struct nlattr *a = (void *)(m->buf + NLMSG_HDRLEN + GENL_HDRLEN);

		a->nla_len += rnd_in(1, 64);
		memset(m->has, 0, sizeof(m->has));
	} else if (chance(4) && m->len > NLMSG_HDRLEN) {
		m->len = rnd_in(NLMSG_HDRLEN, m->len - 1);
		memset(m->has, 0, sizeof(m->has));
	}
	nlh->nlmsg_len = m->len;
}

/* The unprivileged side: a child that dropped to nobody, sending what the
 * parent hands it over a socketpair and answering with the error.
 */
static int unpriv_fd = -1;

struct unpriv_answer {
	int ret;		/* 0 or -errno of send/recv */
	int err;
	int msgs;
	bool answered;
};

static void unpriv_child(int sfd, int timeout_s)
{
	static struct nl n;
	static struct msg m;
	static struct reply r;
	struct unpriv_answer ans;
	ssize_t got;
	int err;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("fcfuzz: dropping to nobody");
		_exit(2);
	}
	if (!setuid(0)) {
		fprintf(stderr, "fcfuzz: still root after setuid(65534)\n");
		_exit(2);
	}
	err = nl_open(&n, timeout_s);
	if (err) {
		fprintf(stderr, "fcfuzz: netlink as nobody: %s\n", strerror(-err));
		_exit(2);
	}
	while ((got = read(sfd, m.buf, sizeof(m.buf))) > 0) {
		struct nlmsghdr *h = (void *)m.buf;

		h->nlmsg_type = n.family;
		memset(&ans, 0, sizeof(ans));
		ans.ret = nl_talk_raw(&n, m.buf, got, h->nlmsg_seq, &r);
		ans.err = r.err;
		ans.msgs = r.msgs;
		ans.answered = r.answered;
		if (write(sfd, &ans, sizeof(ans)) != sizeof(ans))
			_exit(2);
	}
	_exit(0);
}

static const char *cmd_name(uint8_t cmd)
{
	switch (cmd) {
	case FLOWCTL_CMD_DEV_GET:
		return "dev-get";
	case FLOWCTL_CMD_DEV_SET:
		return "dev-set";
	case FLOWCTL_CMD_STATS_RESET:
		return "stats-reset";
	}
	return "unknown-cmd";
}

static void report_msg(uint64_t i, const struct msg *m, bool unpriv, int err)
{
	printf("# message %llu (%s%s%s, %s): error %d (%s)\n",
	       (unsigned long long)i, cmd_name(m->cmd),
	       m->flags & NLM_F_DUMP ? " dump" : "",
	       unpriv ? ", as nobody" : ", as root",
	       m->len < NLMSG_HDRLEN + GENL_HDRLEN ? "truncated header" : "full header",
	       err, err ? strerror(-err) : "accepted");
	hexdump("request", m->buf, m->len);
}

static int do_nl(int argc, char **argv)
{
	static struct nl n;
	static struct msg m;
	static struct reply r;
	static struct dev_ref before[MAX_DEVS];
	uint64_t seed, count, i, t0, t1;
	uint64_t st_acc = 0, st_ref = 0, st_unpriv = 0, st_eperm = 0,
		 per_cmd[4][2] = { { 0 } };
	int sp[2], d, err, fails = 0, timeout_s = 20;
	const char *miss = NULL;
	pid_t child;

	if (argc < 3)
		return 2;
	seed = strtoull(argv[0], NULL, 0);
	count = strtoull(argv[1], NULL, 0);
	for (d = 2; d < argc && ndevs < MAX_DEVS; d++) {
		devs[ndevs].name = argv[d];
		devs[ndevs].ifindex = if_nametoindex(argv[d]);
		if (!devs[ndevs].ifindex)
			die(argv[d]);
		ndevs++;
	}
	rng_seed(seed);
	err = nl_open(&n, timeout_s);
	if (err) {
		errno = -err;
		die("netlink");
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sp))
		die("socketpair");
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		close(sp[0]);
		unpriv_child(sp[1], timeout_s);
	}
	close(sp[1]);
	unpriv_fd = sp[0];
	signal(SIGPIPE, SIG_IGN);

	err = read_cfgs(&n, &miss);
	if (err) {
		errno = -err;
		die(err == -ENODEV ? miss : "dev-get dump");
	}
	printf("# seed %llu: %llu requests to family %u, devices",
	       (unsigned long long)seed, (unsigned long long)count, n.family);
	for (d = 0; d < ndevs; d++)
		printf(" %s (ifindex %u)", devs[d].name, devs[d].ifindex);
	printf("\n");
	t0 = now_ns();
	for (i = 0; i < count && fails < 5; i++) {
		bool unpriv = chance(25), bad = false, full_hdr;
		struct nlmsghdr *h = (void *)m.buf;
		int rerr, answered;
		uint32_t seq = ++n.seq;

		gen_msg(&m, n.family);
		full_hdr = m.len >= NLMSG_HDRLEN + GENL_HDRLEN;
		h->nlmsg_seq = seq;
		memcpy(before, devs, sizeof(before));
		if (unpriv) {
			struct unpriv_answer ans;

			st_unpriv++;
			if (write(unpriv_fd, m.buf, m.len) != (ssize_t)m.len ||
			    read(unpriv_fd, &ans, sizeof(ans)) != sizeof(ans)) {
				printf("# the unprivileged child is gone\n");
				fails = 99;
				break;
			}
			err = ans.ret;
			rerr = ans.err;
			answered = ans.answered;
		} else {
			err = nl_talk_raw(&n, m.buf, m.len, seq, &r);
			rerr = r.err;
			answered = r.answered;
		}
		if (err) {
			report_msg(i, &m, unpriv, rerr);
			printf("# no answer: %s\n", strerror(-err));
			fails++;
			continue;
		}
		/* A message too short for its headers may be dropped without
		 * an answer by nobody; every other one gets one.
		 */
		(void)answered;
		if (m.cmd <= FLOWCTL_CMD_STATS_RESET)
			per_cmd[m.cmd][rerr ? 1 : 0]++;
		if (rerr)
			st_ref++;
		else
			st_acc++;
		if (unpriv && full_hdr &&
		    (m.cmd == FLOWCTL_CMD_DEV_SET ||
		     m.cmd == FLOWCTL_CMD_STATS_RESET)) {
			if (!(m.flags & NLM_F_DUMP) && rerr != -EPERM) {
				printf("# unprivileged %s answered %d (%s), not EPERM\n",
				       cmd_name(m.cmd), rerr, strerror(-rerr));
				bad = true;
			}
			if ((m.flags & NLM_F_DUMP) && !rerr) {
				printf("# unprivileged %s with NLM_F_DUMP accepted\n",
				       cmd_name(m.cmd));
				bad = true;
			}
			if (rerr == -EPERM)
				st_eperm++;
		}
		err = read_cfgs(&n, &miss);
		if (err) {
			printf("# the dump misses a device (%s): %s\n",
			       err == -ENODEV ? miss : "-", strerror(-err));
			bad = true;
		}
		for (d = 0; d < ndevs && !err; d++) {
			if (devs[d].cfg_len == before[d].cfg_len &&
			    !memcmp(devs[d].cfg, before[d].cfg, devs[d].cfg_len))
				continue;
			if (rerr || unpriv || m.cmd != FLOWCTL_CMD_DEV_SET) {
				printf("# %s: the configuration changed after a %s %s\n",
				       devs[d].name, rerr ? "refused" : "accepted",
				       cmd_name(m.cmd));
				bad = true;
			}
		}
		if (!rerr && !unpriv && m.cmd == FLOWCTL_CMD_DEV_SET &&
		    !(m.flags & NLM_F_DUMP)) {
			/* Accepted: one device now holds every value sent. */
			static const uint16_t chk[] = {
				FLOWCTL_A_DEV_MODE, FLOWCTL_A_DEV_RX,
				FLOWCTL_A_DEV_TX, FLOWCTL_A_DEV_PFC_PRIOS,
				FLOWCTL_A_DEV_TRUST, FLOWCTL_A_DEV_SPEED,
				FLOWCTL_A_DEV_RATE, FLOWCTL_A_DEV_LIMIT,
				FLOWCTL_A_DEV_QUANTA, FLOWCTL_A_DEV_PRIO_TC,
			};
			bool found = false;
			unsigned int c;

			for (d = 0; d < ndevs && !found; d++) {
				bool all = true;

				for (c = 0; c < sizeof(chk) / sizeof(chk[0]); c++) {
					uint64_t v;

					if (!m.has[chk[c]])
						continue;
					if (!cfg_get(&devs[d], chk[c], &v) ||
					    v != m.val[chk[c]])
						all = false;
				}
				found = all;
			}
			if (!found) {
				printf("# an accepted dev-set: no device holds the values it sent\n");
				bad = true;
			}
		}
		if (bad) {
			report_msg(i, &m, unpriv, rerr);
			fails++;
		}
	}
	t1 = now_ns();
	close(unpriv_fd);
	waitpid(child, &err, 0);
	printf("# %llu requests in %.2f s: %.0f requests/s; %llu accepted, %llu refused; %llu as nobody (%llu EPERM)\n",
	       (unsigned long long)i, (t1 - t0) / 1e9, i / ((t1 - t0) / 1e9),
	       (unsigned long long)st_acc, (unsigned long long)st_ref,
	       (unsigned long long)st_unpriv, (unsigned long long)st_eperm);
	printf("# accepted/refused: dev-get %llu/%llu dev-set %llu/%llu stats-reset %llu/%llu\n",
	       (unsigned long long)per_cmd[1][0], (unsigned long long)per_cmd[1][1],
	       (unsigned long long)per_cmd[2][0], (unsigned long long)per_cmd[2][1],
	       (unsigned long long)per_cmd[3][0], (unsigned long long)per_cmd[3][1]);
	if (!WIFEXITED(err) || WEXITSTATUS(err)) {
		printf("# the unprivileged child failed (status %d)\n", err);
		fails++;
	}
	if (fails) {
		printf("FAIL seed %llu: %d requests broke a rule (replay: FLOWCTL_FUZZ_SEED=%llu)\n",
		       (unsigned long long)seed, fails, (unsigned long long)seed);
		return 1;
	}
	printf("ok %llu requests\n", (unsigned long long)i);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 2;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "frames"))
		ret = do_frames(argc - 2, argv + 2, true);
	else if (argc >= 2 && !strcmp(argv[1], "blast"))
		ret = do_frames(argc - 2, argv + 2, false);
	else if (argc >= 2 && !strcmp(argv[1], "nl"))
		ret = do_nl(argc - 2, argv + 2);
	if (ret == 2)
		fprintf(stderr, "usage: fcfuzz frames TXDEV NETNS PORT SEED COUNT {fixed|any} [burst B]\n"
			"       fcfuzz blast TXDEV SEED COUNT [burst B]\n"
			"       fcfuzz nl SEED COUNT DEV...\n");
	return ret;
}
