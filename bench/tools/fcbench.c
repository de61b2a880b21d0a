// SPDX-License-Identifier: GPL-2.0
/*
 * Measuring helpers for the benchmarks (they run inside the VM).
 *
 *   fcbench stamps PORT IDLE_S OUT
 *       Receive UDP datagrams on PORT and write the kernel's receive
 *       timestamp of each (SO_TIMESTAMPNS, converted to CLOCK_MONOTONIC
 *       nanoseconds) to OUT, one per line, sorted. Prints "ready" once
 *       bound, then receives until IDLE_S seconds pass with nothing after
 *       the first datagram (or 30 s before it). On a veth the receive
 *       timestamp is taken in the partner's transmit path, so it is the
 *       moment the datagram left the partner's qdisc.
 *   fcbench pause DEV OUT DELAY_US HEX [DELAY_US HEX]...
 *       Send each MAC Control frame (hex) on DEV through AF_PACKET,
 *       DELAY_US after the previous one was sent, and write per frame
 *       "K SEND_NS TAP_NS" to OUT: CLOCK_MONOTONIC just before sendto(),
 *       and the kernel's timestamp of the frame leaving DEV, taken by a
 *       second packet socket on DEV (the moment veth hands the frame to
 *       its peer's receive backlog).
 *   fcbench analyze STAMPS FRAMES GATES
 *       Join the three files: FRAMES has "K TAP_NS REQ_NS" lines, GATES
 *       the CLOCK_MONOTONIC time of each pause-start event in order.
 *       For each frame print "K REQ_NS ARRIVAL_TO_GATE_NS GAP_NS LEAKED
 *       INFLIGHT LONGEST_NS" ("unmatched K" when the frame has no gate event of its
 *       own: it arrived while the previous pause still ran): the gap at the partner that contains the gate's
 *       closing (first datagram after it minus last before it), the
 *       datagrams timestamped after the gate closed and before the
 *       earliest time the pause could end (TAP_NS + REQ_NS), and those
 *       between the frame's arrival and the gate closing; and the
 *       longest interval from the gate's closing until twice the pause.
 *       Then one line "spacing_ns MEDIAN" with the median interval
 *       between datagrams (the resolution of the gaps).
 *   fcbench charge DEV INTERVAL_US STOPFILE
 *       Read DEV's flowctl port over generic netlink every INTERVAL_US
 *       until STOPFILE is gone, and print "samples N max BYTES span_us T":
 *       the largest total charge_bytes seen (the module keeps no peak).
 *   fcbench dump flowctl|flowctl-brief|tc REPEAT
 *       Dump every flowctl port (FLOWCTL_CMD_DEV_GET; flowctl-brief with
 *       FLOWCTL_A_DEV_BRIEF, what "flowctl -br show" asks) or every qdisc
 *       (RTM_GETQDISC) of the current network namespace REPEAT times over
 *       one netlink socket and print "messages N median_us T bytes B":
 *       the time from sending the request to the end of the dump, without
 *       the process start a CLI would add, and the bytes one dump read.
 *   fcbench sleep REPS NS [NS]...
 *       The VM's own timer, the peer of a pause's error: REPS times per NS,
 *       sleep until an absolute CLOCK_MONOTONIC time NS ahead
 *       (clock_nanosleep, timer slack 1 ns like the qdisc watchdog's
 *       hrtimer) and read the clock on waking; print per NS "NS MEDIAN_NS
 *       WORST_NS", how late the wakeup was. It covers the hrtimer firing and
 *       a task being scheduled; a gate opening covers the hrtimer firing and
 *       the transmit softirq.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/flowctl.h>
#include <linux/genetlink.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "../../selftests/tools/hexframe.h"

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static uint64_t ts_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* CLOCK_REALTIME minus CLOCK_MONOTONIC, from the tightest of a few reads. */
static int64_t real_minus_mono(void)
{
	uint64_t best = UINT64_MAX;
	int64_t off = 0;
	int i;

	for (i = 0; i < 20; i++) {
		uint64_t m1 = ts_ns(CLOCK_MONOTONIC);
		uint64_t r = ts_ns(CLOCK_REALTIME);
		uint64_t m2 = ts_ns(CLOCK_MONOTONIC);

		if (m2 - m1 < best) {
			best = m2 - m1;
			off = (int64_t)(r - (m1 + (m2 - m1) / 2));
		}
	}
	return off;
}

/* The SCM_TIMESTAMPNS of a received message, in CLOCK_MONOTONIC ns. */
static uint64_t msg_stamp(struct msghdr *mh, int64_t off)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		struct timespec t;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS)
			continue;
		memcpy(&t, CMSG_DATA(c), sizeof(t));
		return (uint64_t)((int64_t)((uint64_t)t.tv_sec * 1000000000ull +
					    t.tv_nsec) - off);
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int do_stamps(int argc, char **argv)
{
	struct sockaddr_in me = { .sin_family = AF_INET };
	int fd, opt = 4 << 20, idle_ms;
	uint64_t *ts = NULL;
	size_t n = 0, cap = 0, i;
	int64_t off;
	char buf[2048];
	FILE *out;

	if (argc < 3)
		return 2;
	me.sin_port = htons(atoi(argv[0]));
	idle_ms = atoi(argv[1]) * 1000;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	/* SO_RCVBUFFORCE passes the rmem_max cap (we are root). */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &opt, sizeof(opt)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &opt, sizeof(opt));
	opt = 1;
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &opt, sizeof(opt)))
		die("SO_TIMESTAMPNS");
	if (bind(fd, (void *)&me, sizeof(me)))
		die("bind");
	off = real_minus_mono();
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char ctrl[CMSG_SPACE(sizeof(struct timespec))];
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctrl, .msg_controllen = sizeof(ctrl),
		};
		uint64_t t;

		if (poll(&p, 1, n ? idle_ms : 30000) <= 0)
			break;
		if (recvmsg(fd, &mh, 0) < 0)
			die("recvmsg");
		t = msg_stamp(&mh, off);
		if (!t) {
			fprintf(stderr, "fcbench: datagram without a timestamp\n");
			return 1;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			ts = realloc(ts, cap * sizeof(*ts));
			if (!ts)
				die("realloc");
		}
		ts[n++] = t;
	}
	/* veth may deliver through two CPUs' backlogs, out of order. */
	qsort(ts, n, sizeof(*ts), cmp_u64);
	out = fopen(argv[2], "w");
	if (!out)
		die(argv[2]);
	for (i = 0; i < n; i++)
		fprintf(out, "%llu\n", (unsigned long long)ts[i]);
	if (fclose(out))
		die(argv[2]);
	printf("packets %zu\n", n);
	free(ts);
	return 0;
}

/* A packet socket on DEV that sees only MAC Control frames DEV sends. */
static int tap_socket(int ifindex)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_AD_OFF + SKF_AD_PKTTYPE),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PACKET_OUTGOING, 0, 3),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETH_P_PAUSE, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };
	struct sockaddr_ll ll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = ifindex,
	};
	int fd, one = 1;

	/* Protocol 0 receives nothing until bind(): no frame from another
	 * device gets queued before the filter is in place.
	 */
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)))
		die("SO_ATTACH_FILTER");
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)))
		die("SO_TIMESTAMPNS");
	if (bind(fd, (void *)&ll, sizeof(ll)))
		die("bind");
	return fd;
}

static int do_pause(int argc, char **argv)
{
	struct sockaddr_ll ll = { .sll_family = AF_PACKET };
	unsigned char frame[1514];
	uint64_t next;
	int fd, tap, a, k = 0;
	int64_t off;
	size_t len;
	FILE *out;

	if (argc < 4 || (argc - 2) % 2)
		return 2;
	ll.sll_ifindex = if_nametoindex(argv[0]);
	if (!ll.sll_ifindex)
		die(argv[0]);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("socket");
	tap = tap_socket(ll.sll_ifindex);
	out = fopen(argv[1], "w");
	if (!out)
		die(argv[1]);
	off = real_minus_mono();
	next = ts_ns(CLOCK_MONOTONIC);
	for (a = 2; a + 1 < argc; a += 2) {
		struct pollfd p = { .fd = tap, .events = POLLIN };
		char ctrl[CMSG_SPACE(sizeof(struct timespec))];
		struct iovec iov = { frame, sizeof(frame) };
		struct msghdr mh = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctrl, .msg_controllen = sizeof(ctrl),
		};
		struct sockaddr_ll from;
		uint64_t t, sent;

		mh.msg_name = &from;
		mh.msg_namelen = sizeof(from);
		if (parse_hex("fcbench", argv[a + 1], frame, sizeof(frame), &len))
			return 2;
		/* From the previous frame's real send time, not a fixed
		 * schedule: after a stall of the VM, catching up would send a
		 * frame into the pause before it.
		 */
		next += strtoull(argv[a], NULL, 0) * 1000;
		while ((t = ts_ns(CLOCK_MONOTONIC)) < next) {
			uint64_t d = next - t;
			struct timespec ts = { d / 1000000000ull, d % 1000000000ull };

			nanosleep(&ts, NULL);
		}
		sent = ts_ns(CLOCK_MONOTONIC);
		next = sent;
		if (sendto(fd, frame, len, 0, (void *)&ll, sizeof(ll)) != (ssize_t)len)
			die("sendto");
		if (poll(&p, 1, 5000) <= 0 || recvmsg(tap, &mh, 0) < 0) {
			fprintf(stderr, "fcbench: frame %d not seen leaving %s\n",
				k, argv[0]);
			return 1;
		}
		t = msg_stamp(&mh, off);
		if (from.sll_pkttype != PACKET_OUTGOING ||
		    from.sll_protocol != htons(ETH_P_PAUSE)) {
			fprintf(stderr, "fcbench: the tap on %s saw another frame\n",
				argv[0]);
			return 1;
		}
		if (!t) {
			fprintf(stderr, "fcbench: frame %d without a timestamp\n", k);
			return 1;
		}
		fprintf(out, "%d %llu %llu\n", k++, (unsigned long long)sent,
			(unsigned long long)t);
	}
	if (fclose(out))
		die(argv[1]);
	return 0;
}

static uint64_t *read_u64s(const char *path, size_t *np)
{
	unsigned long long v;
	size_t n = 0, cap = 0;
	uint64_t *a = NULL;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fscanf(f, "%llu", &v) == 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			a = realloc(a, cap * sizeof(*a));
			if (!a)
				die("realloc");
		}
		a[n++] = v;
	}
	fclose(f);
	*np = n;
	return a;
}

/* Index of the first element of the sorted s[0..n) greater than t. */
static size_t upper(const uint64_t *s, size_t n, uint64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int do_analyze(int argc, char **argv)
{
	unsigned long long k, tap, req;
	size_t ns, ng, nf = 0, cap = 0, i, g = 0;
	uint64_t *s, *gates, *d;
	struct frame {
		unsigned long long k, tap, req;
	} *fr = NULL;
	FILE *f;

	if (argc < 3)
		return 2;
	s = read_u64s(argv[0], &ns);
	gates = read_u64s(argv[2], &ng);
	if (ns < 2) {
		fprintf(stderr, "fcbench: fewer than 2 datagrams in %s\n", argv[0]);
		return 1;
	}
	f = fopen(argv[1], "r");
	if (!f)
		die(argv[1]);
	while (fscanf(f, "%llu %llu %llu", &k, &tap, &req) == 3) {
		if (nf == cap) {
			cap = cap ? 2 * cap : 64;
			fr = realloc(fr, cap * sizeof(*fr));
			if (!fr)
				die("realloc");
		}
		fr[nf].k = k;
		fr[nf].tap = tap;
		fr[nf++].req = req;
	}
	fclose(f);
	for (i = 0; i < nf; i++) {
		uint64_t gate, longest, until = i + 1 < nf ? fr[i + 1].tap : UINT64_MAX;
		size_t after, end, start, j;

		/*
		 * A frame's gate is the first pause-start at or after it left
		 * the partner and before the next frame did. A frame that
		 * found the previous pause still running (the VM stalled)
		 * only replaced its time and has none.
		 */
		while (g < ng && gates[g] < fr[i].tap)
			g++;
		if (g == ng || gates[g] >= until) {
			printf("unmatched %llu\n", fr[i].k);
			continue;
		}
		gate = gates[g++];
		after = upper(s, ns, gate);
		if (after == 0 || after == ns) {
			printf("unmatched %llu\n", fr[i].k);
			continue;
		}
		end = upper(s, ns, fr[i].tap + fr[i].req);
		start = upper(s, ns, fr[i].tap);
		/* The longest silence from the gate's closing to the first
		 * datagram after twice the pause: where a ring or a wire
		 * delivers datagrams after the gate closed, the pause is
		 * that silence, not the interval around the closing.
		 */
		longest = s[after] - s[after - 1];
		for (j = after + 1; j < ns; j++) {
			if (s[j] - s[j - 1] > longest)
				longest = s[j] - s[j - 1];
			if (s[j] > fr[i].tap + 2 * fr[i].req)
				break;
		}
		printf("%llu %llu %llu %llu %zu %zu %llu\n", fr[i].k, fr[i].req,
		       (unsigned long long)(gate - fr[i].tap),
		       (unsigned long long)(s[after] - s[after - 1]),
		       end > after ? end - after : 0, after - start,
		       (unsigned long long)longest);
	}
	d = malloc((ns - 1) * sizeof(*d));
	if (!d)
		die("malloc");
	for (i = 1; i < ns; i++)
		d[i - 1] = s[i] - s[i - 1];
	qsort(d, ns - 1, sizeof(*d), cmp_u64);
	printf("spacing_ns %llu\n", (unsigned long long)d[(ns - 1) / 2]);
	free(d);
	free(fr);
	free(s);
	free(gates);
	return 0;
}

/* Generic netlink without a library: one request, one reply. */
struct nl_req {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char attrs[64];
};

static void nl_put_str(struct nl_req *r, unsigned short type, const char *v)
{
	struct nlattr *a = (void *)((char *)r + NLMSG_ALIGN(r->n.nlmsg_len));
	size_t len = strlen(v) + 1;

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, v, len);
	r->n.nlmsg_len = NLMSG_ALIGN(r->n.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static ssize_t nl_call(int fd, struct nl_req *r, char *buf, size_t size)
{
	struct nlmsghdr *h = (void *)buf;
	ssize_t n;

	if (send(fd, r, r->n.nlmsg_len, 0) < 0)
		die("netlink send");
	n = recv(fd, buf, size, 0);
	if (n < (ssize_t)NLMSG_HDRLEN || !NLMSG_OK(h, (size_t)n))
		die("netlink recv");
	if (h->nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr *e = NLMSG_DATA(h);

		errno = -e->error;
		die("netlink request");
	}
	return n;
}

/* Each attribute in [p, p + len). */
#define for_each_attr(a, p, len)					\
	for (a = (struct nlattr *)(p);					\
	     (char *)a + NLA_HDRLEN <= (char *)(p) + (len) &&		\
	     a->nla_len >= NLA_HDRLEN &&				\
	     (char *)a + a->nla_len <= (char *)(p) + (len);		\
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))

static int genl_family(int fd, const char *name)
{
	struct nl_req r = {
		.n = { .nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN),
		       .nlmsg_type = GENL_ID_CTRL, .nlmsg_flags = NLM_F_REQUEST },
		.g = { .cmd = CTRL_CMD_GETFAMILY, .version = 1 },
	};
	static char buf[8192];
	struct nlmsghdr *h = (void *)buf;
	struct nlattr *a;

	nl_put_str(&r, CTRL_ATTR_FAMILY_NAME, name);
	nl_call(fd, &r, buf, sizeof(buf));
	for_each_attr(a, (char *)NLMSG_DATA(h) + GENL_HDRLEN,
		      h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN))
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)((char *)a + NLA_HDRLEN);
	fprintf(stderr, "fcbench: no generic netlink family %s\n", name);
	exit(1);
}

/* The sum of charge_bytes over the port's priorities. */
static uint64_t port_charge(int fd, int family, const char *dev)
{
	struct nl_req r = {
		.n = { .nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN),
		       .nlmsg_type = family, .nlmsg_flags = NLM_F_REQUEST },
		.g = { .cmd = FLOWCTL_CMD_DEV_GET, .version = FLOWCTL_FAMILY_VERSION },
	};
	static char buf[16384];
	struct nlmsghdr *h = (void *)buf;
	struct nlattr *a, *b;
	uint64_t sum = 0, v;

	nl_put_str(&r, FLOWCTL_A_DEV_IFNAME, dev);
	nl_call(fd, &r, buf, sizeof(buf));
	for_each_attr(a, (char *)NLMSG_DATA(h) + GENL_HDRLEN,
		      h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN)) {
		if ((a->nla_type & NLA_TYPE_MASK) != FLOWCTL_A_DEV_PRIO)
			continue;
		for_each_attr(b, (char *)a + NLA_HDRLEN, a->nla_len - NLA_HDRLEN) {
			if ((b->nla_type & NLA_TYPE_MASK) != FLOWCTL_A_PRIO_CHARGE_BYTES ||
			    b->nla_len < NLA_HDRLEN + sizeof(v))
				continue;
			memcpy(&v, (char *)b + NLA_HDRLEN, sizeof(v));
			sum += v;
		}
	}
	return sum;
}

static int do_charge(int argc, char **argv)
{
	uint64_t interval, t0, n = 0, max = 0;
	int fd, family;

	if (argc < 3)
		return 2;
	interval = strtoull(argv[1], NULL, 0) * 1000;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		die("socket");
	family = genl_family(fd, FLOWCTL_FAMILY_NAME);
	t0 = ts_ns(CLOCK_MONOTONIC);
	while (!access(argv[2], F_OK)) {
		uint64_t c = port_charge(fd, family, argv[0]);
		struct timespec ts = { interval / 1000000000ull,
				       interval % 1000000000ull };

		if (c > max)
			max = c;
		n++;
		nanosleep(&ts, NULL);
	}
	printf("samples %llu max %llu span_us %llu\n", (unsigned long long)n,
	       (unsigned long long)max,
	       (unsigned long long)((ts_ns(CLOCK_MONOTONIC) - t0) / 1000));
	return 0;
}

/* One dump; returns the messages it carried, *bytes the bytes read. */
static size_t dump_once(int fd, struct nlmsghdr *req, size_t *bytes)
{
	static char buf[65536];
	size_t msgs = 0;

	*bytes = 0;

	if (send(fd, req, req->nlmsg_len, 0) < 0)
		die("netlink send");
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n < 0)
			die("netlink recv");
		*bytes += n;
		for (h = (void *)buf; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return msgs;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				errno = -e->error;
				die("netlink dump");
			}
			msgs++;
		}
	}
}

static int do_dump(int argc, char **argv)
{
	struct {
		struct nlmsghdr n;
		union {
			struct {
				struct genlmsghdr g;
				struct nlattr brief;
			};
			struct tcmsg t;
		};
	} req;
	uint64_t *us;
	size_t msgs = 0, bytes = 0;
	int fd, i, rep;

	if (argc < 2)
		return 2;
	rep = atoi(argv[1]);
	if (rep < 1)
		return 2;
	memset(&req, 0, sizeof(req));
	req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	if (!strcmp(argv[0], "flowctl") || !strcmp(argv[0], "flowctl-brief")) {
		fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
		if (fd < 0)
			die("socket");
		req.n.nlmsg_type = genl_family(fd, FLOWCTL_FAMILY_NAME);
		req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
		req.g.cmd = FLOWCTL_CMD_DEV_GET;
		req.g.version = FLOWCTL_FAMILY_VERSION;
		if (strcmp(argv[0], "flowctl")) {
			req.brief.nla_len = NLA_HDRLEN;
			req.brief.nla_type = FLOWCTL_A_DEV_BRIEF;
			req.n.nlmsg_len += NLA_HDRLEN;
		}
	} else if (!strcmp(argv[0], "tc")) {
		fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
		if (fd < 0)
			die("socket");
		req.n.nlmsg_type = RTM_GETQDISC;
		req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
		req.t.tcm_family = AF_UNSPEC;
	} else {
		return 2;
	}
	us = calloc(rep, sizeof(*us));
	if (!us)
		die("calloc");
	for (i = 0; i < rep; i++) {
		uint64_t t0 = ts_ns(CLOCK_MONOTONIC);

		req.n.nlmsg_seq = i + 1;
		msgs = dump_once(fd, &req.n, &bytes);
		us[i] = (ts_ns(CLOCK_MONOTONIC) - t0) / 1000;
	}
	qsort(us, rep, sizeof(*us), cmp_u64);
	printf("messages %zu median_us %llu bytes %zu\n", msgs,
	       (unsigned long long)us[(rep - 1) / 2], bytes);
	free(us);
	return 0;
}

static int do_sleep(int argc, char **argv)
{
	unsigned long rep;
	uint64_t *late;
	char *end;
	int a;

	if (argc < 2)
		return 2;
	rep = strtoul(argv[0], &end, 10);
	if (*end || !rep || rep > 100000) {
		fprintf(stderr, "fcbench: REPS must be 1..100000\n");
		return 2;
	}
	/* Every time is checked before the first is measured. */
	for (a = 1; a < argc; a++) {
		unsigned long long ns = strtoull(argv[a], &end, 10);

		if (*end || !ns || ns > 10ULL * 1000000000ULL) {
			fprintf(stderr, "fcbench: %s: NS must be 1..10^10\n", argv[a]);
			return 2;
		}
	}
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0))
		die("PR_SET_TIMERSLACK");
	late = calloc(rep, sizeof(*late));
	if (!late)
		die("calloc");
	for (a = 1; a < argc; a++) {
		uint64_t ns = strtoull(argv[a], NULL, 10);
		unsigned long i;

		for (i = 0; i < rep; i++) {
			uint64_t target = ts_ns(CLOCK_MONOTONIC) + ns, now;
			struct timespec t = {
				.tv_sec = target / 1000000000ULL,
				.tv_nsec = target % 1000000000ULL,
			};
			int e;

			do
				e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
						    &t, NULL);
			while (e == EINTR);
			if (e) {
				errno = e;
				die("clock_nanosleep");
			}
			now = ts_ns(CLOCK_MONOTONIC);
			late[i] = now - target;
		}
		qsort(late, rep, sizeof(*late), cmp_u64);
		printf("%llu %llu %llu\n", (unsigned long long)ns,
		       (unsigned long long)late[(rep - 1) / 2],
		       (unsigned long long)late[rep - 1]);
	}
	free(late);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (argc >= 2 && !strcmp(argv[1], "stamps"))
		rc = do_stamps(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "pause"))
		rc = do_pause(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "analyze"))
		rc = do_analyze(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "charge"))
		rc = do_charge(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "dump"))
		rc = do_dump(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "sleep"))
		rc = do_sleep(argc - 2, argv + 2);
	if (rc == 2)
		fprintf(stderr, "usage: fcbench stamps|pause|analyze|charge|dump|sleep ... (see the source)\n");
	return rc;
}
