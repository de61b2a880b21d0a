// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic helpers for the selftests.
 *
 *   fctest send ADDR PORT INTERVAL_US COUNT [prio P] [tos T] [size B]
 *               [sndbuf B] [gso SEG]
 *       UDP datagrams (B bytes of payload, default 64) at a fixed interval
 *       (absolute deadlines, so a stall does not shift later packets), each
 *       carrying its sequence number (gso: each one a UDP GSO super-packet
 *       of SEG-byte segments). Prints "sent N" at the end, or when
 *       stopped by SIGTERM or SIGINT.
 *   fctest recv PORT SECONDS [min-gap-us G]
 *       Print "ready" once bound and "first" at the first datagram (waiting
 *       up to 30 s for it); then receive until SECONDS pass with nothing.
 *       Times are the kernel's receive timestamps (SO_TIMESTAMPNS), so the
 *       receiver's own scheduling does not move them, sorted before the
 *       gaps are taken (veth can hand datagrams over through two CPUs'
 *       backlogs, which may deliver them out of order). Prints
 *       "packets N max_gap_us M span_us S first_us F" (F: the first
 *       datagram's wall-clock time in us) and each gap of at least G us as
 *       "gap AT_US LEN_US" (AT: the wall-clock time, in us, of the packet
 *       that opened the gap, comparable with seq's).
 *   fctest raw DEV HEX[,HEX...] [count N] [interval-us I]
 *       Send the frame given in hex through an AF_PACKET socket on DEV;
 *       several frames (up to 8) are sent in turn, N frames in all.
 *   fctest hold-tstamp
 *       Keep one socket with SO_TIMESTAMPNS open until killed, so that the
 *       kernel's timestamp static key stays on for a whole test run rather
 *       than being patched in and out as receivers come and go.
 *   fctest seq DEV DELAY_US HEX [DELAY_US HEX]...
 *       Send each frame DELAY_US after the previous one (the first after
 *       the start) and print "sent K AT_US WALL_US": the real offset from
 *       the start and the wall-clock time of sending, in us.
 *   fctest tstamp ADDR PORT COUNT
 *       COUNT UDP datagrams from a socket asking for software TX
 *       timestamps (SO_TIMESTAMPING: TX_SOFTWARE | SOFTWARE | OPT_ID), one
 *       every 10 ms; then read the error queue for 1 s and print
 *       "tstamps N": how many datagrams got a software TX timestamp.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "hexframe.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static volatile sig_atomic_t send_stop;

static void on_stop(int sig)
{
	(void)sig;
	send_stop = 1;
}

/* Until count datagrams are sent or SIGTERM/SIGINT; then prints "sent N". */
static int do_send(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_stop };
	struct sockaddr_in to = { .sin_family = AF_INET };
	uint64_t interval, count, i, next, sent = 0;
	static char buf[65000];
	size_t size = 64;
	int fd, a;

	if (argc < 4)
		return 2;
	if (inet_pton(AF_INET, argv[0], &to.sin_addr) != 1)
		return 2;
	to.sin_port = htons(atoi(argv[1]));
	interval = strtoull(argv[2], NULL, 0) * 1000;
	count = strtoull(argv[3], NULL, 0);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	for (a = 4; a + 1 < argc; a += 2) {
		int v = (int)strtol(argv[a + 1], NULL, 0);

		if (!strcmp(argv[a], "prio") &&
		    setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &v, sizeof(v)))
			die("SO_PRIORITY");
		if (!strcmp(argv[a], "tos") &&
		    setsockopt(fd, IPPROTO_IP, IP_TOS, &v, sizeof(v)))
			die("IP_TOS");
		if (!strcmp(argv[a], "sndbuf") &&
		    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)))
			die("SO_SNDBUF");
		if (!strcmp(argv[a], "size"))
			size = v > 8 && v <= (int)sizeof(buf) ? (size_t)v : 64;
		/* UDP GSO: each send is one super-packet of size/v segments. */
		if (!strcmp(argv[a], "gso") &&
		    setsockopt(fd, SOL_UDP, UDP_SEGMENT, &v, sizeof(v)))
			die("UDP_SEGMENT");
	}
	/* No SA_RESTART: a sendto blocked on a full socket buffer returns. */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	next = now_ns();
	for (i = 0; i < count && !send_stop; i++) {
		uint64_t t;

		memcpy(buf, &i, sizeof(i));
		/* Without IP_RECVERR, UDP does not report a qdisc drop
		 * (udp_send_skb turns ENOBUFS into success): "sent" counts
		 * what the socket took, tail drops included, and a full socket
		 * buffer blocks. ENOBUFS is tolerated should that change.
		 */
		if (sendto(fd, buf, size, 0, (void *)&to, sizeof(to)) >= 0)
			sent++;
		else if (errno == EINTR)
			break;
		else if (errno != ENOBUFS)
			die("sendto");
		next += interval;
		while (!send_stop && (t = now_ns()) < next) {
			uint64_t d = next - t;
			struct timespec ts = { d / 1000000000ull, d % 1000000000ull };

			nanosleep(&ts, NULL);
		}
	}
	printf("sent %llu\n", (unsigned long long)sent);
	return 0;
}

/* Software TX timestamps on the error queue; returns how many were read. */
static int read_tstamps(int fd, int wait_ms, unsigned char *seen, int count)
{
	char data[256], ctrl[512];
	int n = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLERR };
		struct iovec iov = { data, sizeof(data) };
		struct msghdr m = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctrl, .msg_controllen = sizeof(ctrl),
		};
		struct scm_timestamping *tss = NULL;
		struct sock_extended_err *ee = NULL;
		struct cmsghdr *c;

		if (poll(&p, 1, wait_ms) <= 0)
			return n;
		if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			continue;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level == SOL_SOCKET &&
			    c->cmsg_type == SCM_TIMESTAMPING)
				tss = (void *)CMSG_DATA(c);
			else if (c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR)
				ee = (void *)CMSG_DATA(c);
		}
		if (!tss || !ee || ee->ee_origin != SO_EE_ORIGIN_TIMESTAMPING ||
		    ee->ee_info != SCM_TSTAMP_SND)
			continue;
		if (!tss->ts[0].tv_sec && !tss->ts[0].tv_nsec)
			continue;
		if (ee->ee_data < (unsigned int)count && !seen[ee->ee_data]) {
			seen[ee->ee_data] = 1;
			n++;
		}
	}
}

static int do_tstamp(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	int fd, count, i, got = 0;
	unsigned int flags = SOF_TIMESTAMPING_TX_SOFTWARE |
			     SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_OPT_ID |
			     SOF_TIMESTAMPING_OPT_TSONLY;
	unsigned char *seen;
	char buf[64] = { 0 };

	if (argc < 3 || inet_pton(AF_INET, argv[0], &to.sin_addr) != 1)
		return 2;
	to.sin_port = htons(atoi(argv[1]));
	count = atoi(argv[2]);
	if (count <= 0)
		return 2;
	seen = calloc(count, 1);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || !seen)
		die("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)))
		die("SO_TIMESTAMPING");
	for (i = 0; i < count; i++) {
		if (sendto(fd, buf, sizeof(buf), 0, (void *)&to, sizeof(to)) < 0)
			die("sendto");
		got += read_tstamps(fd, 10, seen, count);
	}
	got += read_tstamps(fd, 1000, seen, count);
	printf("tstamps %d\n", got);
	free(seen);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int do_recv(int argc, char **argv)
{
	struct sockaddr_in me = { .sin_family = AF_INET };
	uint64_t max_gap = 0, min_gap = 0, *ts = NULL;
	size_t packets = 0, cap = 0, i;
	int fd, idle_ms, opt = 1 << 20;
	char buf[2048];

	if (argc < 2)
		return 2;
	me.sin_port = htons(atoi(argv[0]));
	idle_ms = atoi(argv[1]) * 1000;
	if (argc >= 4 && !strcmp(argv[2], "min-gap-us"))
		min_gap = strtoull(argv[3], NULL, 0) * 1000;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &opt, sizeof(opt));
	opt = 1;
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &opt, sizeof(opt)))
		die("SO_TIMESTAMPNS");
	if (bind(fd, (void *)&me, sizeof(me)))
		die("bind");
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
		struct cmsghdr *c;
		uint64_t t = 0;

		if (poll(&p, 1, packets ? idle_ms : 30000) <= 0)
			break;
		if (recvmsg(fd, &mh, 0) < 0)
			die("recvmsg");
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			struct timespec tsp;

			if (c->cmsg_level != SOL_SOCKET ||
			    c->cmsg_type != SCM_TIMESTAMPNS)
				continue;
			memcpy(&tsp, CMSG_DATA(c), sizeof(tsp));
			t = (uint64_t)tsp.tv_sec * 1000000000ull + tsp.tv_nsec;
		}
		if (!t) {
			fprintf(stderr, "fctest: datagram without a timestamp\n");
			return 1;
		}
		if (packets == cap) {
			cap = cap ? 2 * cap : 4096;
			ts = realloc(ts, cap * sizeof(*ts));
			if (!ts)
				die("realloc");
		}
		if (!packets) {
			printf("first\n");
			fflush(stdout);
		}
		ts[packets++] = t;
	}
	if (packets)
		qsort(ts, packets, sizeof(*ts), cmp_u64);
	for (i = 1; i < packets; i++) {
		uint64_t g = ts[i] - ts[i - 1];

		if (g > max_gap)
			max_gap = g;
		/* The gap's start on the wall clock (the datagrams' kernel
		 * timestamps), comparable with what seq prints for its frames.
		 */
		if (min_gap && g >= min_gap)
			printf("gap %llu %llu\n",
			       (unsigned long long)(ts[i - 1] / 1000),
			       (unsigned long long)(g / 1000));
	}
	printf("packets %zu max_gap_us %llu span_us %llu first_us %llu\n", packets,
	       (unsigned long long)(max_gap / 1000),
	       (unsigned long long)(packets ? (ts[packets - 1] - ts[0]) / 1000 : 0),
	       (unsigned long long)(packets ? ts[0] / 1000 : 0));
	free(ts);
	return 0;
}

static int packet_socket(const char *dev, struct sockaddr_ll *ll)
{
	int fd;

	memset(ll, 0, sizeof(*ll));
	ll->sll_family = AF_PACKET;
	ll->sll_ifindex = if_nametoindex(dev);
	if (!ll->sll_ifindex)
		die(dev);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		die("socket");
	return fd;
}

#define RAW_MAX_FRAMES 8

static int do_raw(int argc, char **argv)
{
	unsigned char frame[RAW_MAX_FRAMES][1514];
	size_t len[RAW_MAX_FRAMES];
	uint64_t count = 1, interval = 0, i;
	struct sockaddr_ll ll;
	char *hex, *tok, *save;
	int fd, a, n = 0;

	if (argc < 2)
		return 2;
	hex = strdup(argv[1]);
	if (!hex)
		die("strdup");
	for (tok = strtok_r(hex, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == RAW_MAX_FRAMES) {
			fprintf(stderr, "fctest: at most %d frames\n", RAW_MAX_FRAMES);
			return 2;
		}
		if (parse_hex("fctest", tok, frame[n], sizeof(frame[n]), &len[n]))
			return 2;
		n++;
	}
	free(hex);
	if (!n)
		return 2;
	for (a = 2; a + 1 < argc; a += 2) {
		if (!strcmp(argv[a], "count"))
			count = strtoull(argv[a + 1], NULL, 0);
		if (!strcmp(argv[a], "interval-us"))
			interval = strtoull(argv[a + 1], NULL, 0);
	}
	fd = packet_socket(argv[0], &ll);
	for (i = 0; i < count; i++) {
		unsigned int k = i % n;

		if (sendto(fd, frame[k], len[k], 0, (void *)&ll, sizeof(ll)) !=
		    (ssize_t)len[k])
			die("sendto");
		if (interval)
			usleep(interval);
	}
	return 0;
}

static int do_seq(int argc, char **argv)
{
	unsigned char frame[1514];
	struct sockaddr_ll ll;
	struct timespec rt;
	uint64_t start, next;
	int fd, a, k = 0;
	size_t len;

	if (argc < 3 || (argc - 1) % 2)
		return 2;
	fd = packet_socket(argv[0], &ll);
	start = next = now_ns();
	for (a = 1; a + 1 < argc; a += 2) {
		uint64_t t;

		if (parse_hex("fctest", argv[a + 1], frame, sizeof(frame), &len))
			return 2;
		next += strtoull(argv[a], NULL, 0) * 1000;
		while ((t = now_ns()) < next) {
			uint64_t d = next - t;
			struct timespec ts = { d / 1000000000ull, d % 1000000000ull };

			nanosleep(&ts, NULL);
		}
		t = now_ns();
		clock_gettime(CLOCK_REALTIME, &rt);
		if (sendto(fd, frame, len, 0, (void *)&ll, sizeof(ll)) != (ssize_t)len)
			die("sendto");
		/* Offset from the start, and the wall clock (us) at sending. */
		printf("sent %d %llu %llu\n", k++, (unsigned long long)((t - start) / 1000),
		       (unsigned long long)rt.tv_sec * 1000000ull + rt.tv_nsec / 1000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (argc >= 2 && !strcmp(argv[1], "send"))
		rc = do_send(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "recv"))
		rc = do_recv(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "raw"))
		rc = do_raw(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "tstamp"))
		rc = do_tstamp(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "hold-tstamp")) {
		int fd = socket(AF_INET, SOCK_DGRAM, 0), one = 1;

		if (fd < 0 ||
		    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)))
			die("SO_TIMESTAMPNS");
		for (;;)
			pause();
	} else if (argc >= 2 && !strcmp(argv[1], "seq"))
		rc = do_seq(argc - 2, argv + 2);
	if (rc == 2)
		fprintf(stderr, "usage: fctest send|recv|raw|seq|tstamp ... (see the source)\n");
	return rc;
}
