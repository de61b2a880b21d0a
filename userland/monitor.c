// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl monitor: join the "events" group and print each pause start, pause
 * end and config change as the kernel reports it, stamped with the wall
 * clock here and the kernel's CLOCK_MONOTONIC stamp.
 */
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <string.h>

#include <linux/genetlink.h>

#include "dev.h"
#include "flowctl.h"
#include "netlink.h"
#include "print.h"
#include "monitor.h"
#include "show.h"

struct event {
	uint32_t have;				/* bit n: FLOWCTL_A_EVENT_n */
	uint64_t v[FLOWCTL_A_EVENT_MAX + 1];
	char ifname[IF_NAMESIZE];
};

/* One message: its header fields, and each event it carries. */
#define MAX_ENTRIES 32

struct message {
	struct event base;		/* top level; a whole event if flat */
	struct event ent[MAX_ENTRIES];	/* FLOWCTL_A_EVENT_ENTRY, merged */
	unsigned int n;
};

struct monitor {
	const char *dev;
	unsigned int ifindex;		/* of dev, 0 for every device */
	uint64_t count, seen;		/* stop after count events (0: never) */
};

static volatile sig_atomic_t monitor_stop;

static void on_signal(int sig)
{
	(void)sig;
	monitor_stop = 1;
}

void usage_monitor(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j ] monitor [ dev DEV ] [ count N ] [ rcvbuf BYTES ]\n"
		"       flowctl monitor help\n"
		"N := stop after N events, 1 .. 4294967295 (default: until Ctrl-C)\n"
		"BYTES := the socket's receive buffer, 1024 .. 2147483647, within\n"
		"         net.core.rmem_max (default: 4 MiB, past rmem_max)\n"
		"Needs CAP_NET_ADMIN (the events group is for administrators).\n"
		"Each line: wall clock, [kernel CLOCK_MONOTONIC], device, direction,\n"
		"event (pause-start, pause-end, config, storm-start, storm-end),\n"
		"priority (absent for link-level PAUSE), quanta and time. -j prints\n"
		"one JSON object per line.\n"
		"rx: " FC_RX_MEANS "; tx: " FC_TX_MEANS ".\n"
		"A port reports at most 1000 messages/s (bursts of 64), one per frame;\n"
		"events past that are counted, and a \"suppressed N events\" line\n"
		"(type suppressed in JSON) comes with the port's next message.\n");
}

/* An entry's attributes land on the event attribute of the same meaning. */
static const uint16_t entry_to_event[FLOWCTL_A_ENTRY_MAX + 1] = {
	[FLOWCTL_A_ENTRY_TYPE]		= FLOWCTL_A_EVENT_TYPE,
	[FLOWCTL_A_ENTRY_PRIO]		= FLOWCTL_A_EVENT_PRIO,
	[FLOWCTL_A_ENTRY_QUANTA]	= FLOWCTL_A_EVENT_QUANTA,
	[FLOWCTL_A_ENTRY_TIME_NS]	= FLOWCTL_A_EVENT_TIME_NS,
};

static int entry_attr_cb(const struct nlattr *attr, void *data)
{
	struct event *e = data;
	uint16_t type = mnl_attr_get_type(attr);
	uint64_t v;

	if (type > FLOWCTL_A_ENTRY_MAX || !entry_to_event[type] ||
	    !fc_attr_uint(attr, &v))
		return MNL_CB_OK;
	e->v[entry_to_event[type]] = v;
	e->have |= 1u << entry_to_event[type];
	return MNL_CB_OK;
}

static int event_attr_cb(const struct nlattr *attr, void *data)
{
	struct message *m = data;
	struct event *e = &m->base;
	uint16_t type = mnl_attr_get_type(attr);
	uint64_t v;

	if (type == FLOWCTL_A_EVENT_UNSPEC || type == FLOWCTL_A_EVENT_PAD ||
	    type > FLOWCTL_A_EVENT_MAX)
		return MNL_CB_OK;
	if (type == FLOWCTL_A_EVENT_IFNAME) {
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) >= 0) {
			snprintf(e->ifname, sizeof(e->ifname), "%s",
				 mnl_attr_get_str(attr));
			e->have |= 1u << type;
		}
		return MNL_CB_OK;
	}
	if (type == FLOWCTL_A_EVENT_ENTRY) {
		if (m->n < MAX_ENTRIES &&
		    mnl_attr_validate(attr, MNL_TYPE_NESTED) >= 0)
			mnl_attr_parse_nested(attr, entry_attr_cb, &m->ent[m->n++]);
		return MNL_CB_OK;
	}
	if (!fc_attr_uint(attr, &v))
		return MNL_CB_OK;
	e->v[type] = v;
	e->have |= 1u << type;
	return MNL_CB_OK;
}

static const char *event_name(uint64_t type)
{
	switch (type) {
	case FLOWCTL_EVENT_PAUSE_START:
		return "pause-start";
	case FLOWCTL_EVENT_PAUSE_END:
		return "pause-end";
	case FLOWCTL_EVENT_CONFIG:
		return "config";
	case FLOWCTL_EVENT_STORM_START:
		return "storm-start";
	case FLOWCTL_EVENT_STORM_END:
		return "storm-end";
	}
	return NULL;
}

static const char *dir_name(uint64_t dir)
{
	switch (dir) {
	case FLOWCTL_DIR_RX:
		return "rx";
	case FLOWCTL_DIR_TX:
		return "tx";
	}
	return NULL;
}

#define HAS(e, a) FC_HAS((e)->have, a)

/* Wall clock, kernel stamp, device and direction: every line starts so. */
static void print_head(const struct event *e)
{
	char buf[64], t[FMT_LEN];
	const char *s;

	print_string(PRINT_JSON, "time", NULL, fmt_wall(buf, sizeof(buf), true));
	print_string(PRINT_FP, NULL, "%s", fmt_wall(buf, sizeof(buf), false));
	if (HAS(e, FLOWCTL_A_EVENT_TIMESTAMP_NS)) {
		uint64_t ts = e->v[FLOWCTL_A_EVENT_TIMESTAMP_NS];

		snprintf(t, sizeof(t), "%llu.%09llu",
			 (unsigned long long)(ts / 1000000000ULL),
			 (unsigned long long)(ts % 1000000000ULL));
		print_u64_as(PRINT_ANY, "timestamp_ns", " [%s]", ts, t);
	}
	if (HAS(e, FLOWCTL_A_EVENT_IFNAME))
		print_string(PRINT_ANY, "ifname", " %s", e->ifname);
	if (HAS(e, FLOWCTL_A_EVENT_IFINDEX))
		print_u64(HAS(e, FLOWCTL_A_EVENT_IFNAME) ? PRINT_JSON : PRINT_ANY,
			  "ifindex", " ifindex %s", e->v[FLOWCTL_A_EVENT_IFINDEX]);
	if (HAS(e, FLOWCTL_A_EVENT_DIR)) {
		s = dir_name(e->v[FLOWCTL_A_EVENT_DIR]);
		if (s)
			print_string(PRINT_ANY, "dir", " %s", s);
		else
			print_u64(PRINT_ANY, "dir", " dir %s", e->v[FLOWCTL_A_EVENT_DIR]);
	}
}

static void print_end(void)
{
	print_nl();
	close_json_object();
	json_end_document();
	fflush(print_file());
}

/* The port's events the kernel did not report since its last message. */
static void print_suppressed(const struct event *e, uint64_t n)
{
	open_json_object(NULL);
	print_head(e);
	print_string(PRINT_ANY, "type", " %s", "suppressed");
	print_u64(PRINT_ANY, "events", " %s events", n);
	print_text(" (more than the port's 1000 messages/s; see events_suppressed in stats)");
	print_end();
}

static void print_event(const struct event *e)
{
	char buf[64], speed[FMT_LEN], t[FMT_LEN];
	uint64_t type = e->v[FLOWCTL_A_EVENT_TYPE];
	const char *s;
	bool storm;

	open_json_object(NULL);
	print_head(e);
	if (HAS(e, FLOWCTL_A_EVENT_TYPE)) {
		s = event_name(type);
		if (s)
			print_string(PRINT_ANY, "type", " %s", s);
		else
			print_u64(PRINT_ANY, "type", " event %s", type);
	}
	if (HAS(e, FLOWCTL_A_EVENT_PRIO))
		print_u64(PRINT_ANY, "prio", " prio %s", e->v[FLOWCTL_A_EVENT_PRIO]);
	else if (type != FLOWCTL_EVENT_CONFIG && HAS(e, FLOWCTL_A_EVENT_DIR))
		print_text(" link");
	/* A storm has no quanta, and its start no length yet. */
	storm = type == FLOWCTL_EVENT_STORM_START || type == FLOWCTL_EVENT_STORM_END;
	if (HAS(e, FLOWCTL_A_EVENT_QUANTA) && !storm)
		print_u64(PRINT_ANY, "quanta", " quanta %s",
			  e->v[FLOWCTL_A_EVENT_QUANTA]);
	if (HAS(e, FLOWCTL_A_EVENT_TIME_NS) && type != FLOWCTL_EVENT_STORM_START) {
		uint64_t ns = e->v[FLOWCTL_A_EVENT_TIME_NS];
		uint64_t q = e->v[FLOWCTL_A_EVENT_QUANTA];

		fmt_ns(t, sizeof(t), ns, false);
		if (type == FLOWCTL_EVENT_PAUSE_START && q && ns &&
		    HAS(e, FLOWCTL_A_EVENT_QUANTA)) {
			/*
			 * The kernel computed ns from quanta at the speed it
			 * uses; the event does not carry that speed, so
			 * derive it: quanta * 512 bits / ns.
			 */
			uint64_t mbps = (q * 512000ULL + ns / 2) / ns;

			snprintf(buf, sizeof(buf), "%s at %s", t,
				 fmt_speed(speed, sizeof(speed), mbps));
			print_u64_as(PRINT_ANY, "time_ns", " (%s)", ns, buf);
		} else if (type == FLOWCTL_EVENT_PAUSE_END ||
			   type == FLOWCTL_EVENT_STORM_END) {
			print_u64_as(PRINT_ANY, "time_ns", " after %s", ns, t);
		} else {
			print_u64_as(PRINT_ANY, "time_ns", " (%s)", ns, t);
		}
	}
	if (type == FLOWCTL_EVENT_PAUSE_START && HAS(e, FLOWCTL_A_EVENT_DIR))
		print_text(e->v[FLOWCTL_A_EVENT_DIR] == FLOWCTL_DIR_RX ?
			   ": the partner paused us" : ": we paused the partner");
	print_end();
}

/*
 * A message carries one event flat (config changes, and kernels before
 * entries), or one entry per pause event under a common header.
 */
static bool parse_message(const struct nlmsghdr *nlh, struct message *m)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const uint32_t own = 1u << FLOWCTL_A_EVENT_TYPE |
			     1u << FLOWCTL_A_EVENT_PRIO |
			     1u << FLOWCTL_A_EVENT_QUANTA |
			     1u << FLOWCTL_A_EVENT_TIME_NS;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl) ||
	    genl->cmd != FLOWCTL_CMD_EVENT)
		return false;
	mnl_attr_parse(nlh, sizeof(*genl), event_attr_cb, m);
	for (i = 0; i < m->n; i++) {
		struct event *e = &m->ent[i];
		struct event merged = m->base;
		unsigned int a;

		merged.have &= ~own;
		for (a = 0; a <= FLOWCTL_A_EVENT_MAX; a++)
			if (e->have & own & (1u << a))
				merged.v[a] = e->v[a];
		merged.have |= e->have & own;
		*e = merged;
	}
	return true;
}

/* Print what m carries; stop after *left events when left is given. */
static unsigned int print_message(const struct message *m, uint64_t *left)
{
	unsigned int i, printed = 0;

	if (HAS(&m->base, FLOWCTL_A_EVENT_SUPPRESSED) &&
	    m->base.v[FLOWCTL_A_EVENT_SUPPRESSED])
		print_suppressed(&m->base, m->base.v[FLOWCTL_A_EVENT_SUPPRESSED]);
	if (!m->n) {
		if (!HAS(&m->base, FLOWCTL_A_EVENT_TYPE))
			return 0;
		print_event(&m->base);
		return 1;
	}
	for (i = 0; i < m->n && (!left || printed < *left); i++) {
		print_event(&m->ent[i]);
		printed++;
	}
	return printed;
}

int fc_event_print(const struct nlmsghdr *nlh)
{
	struct message m;

	if (!parse_message(nlh, &m))
		return -EINVAL;
	print_message(&m, NULL);
	return 0;
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	struct monitor *mon = data;
	struct message m;
	const struct event *e = &m.base;
	uint64_t left;

	if (!parse_message(nlh, &m))
		return MNL_CB_OK;
	if (mon->dev) {
		if (HAS(e, FLOWCTL_A_EVENT_IFINDEX)) {
			if (e->v[FLOWCTL_A_EVENT_IFINDEX] != mon->ifindex)
				return MNL_CB_OK;
		} else if (!HAS(e, FLOWCTL_A_EVENT_IFNAME) ||
			   strcmp(e->ifname, mon->dev)) {
			return MNL_CB_OK;
		}
	}
	left = mon->count ? mon->count - mon->seen : 0;
	mon->seen += print_message(&m, mon->count ? &left : NULL);
	if (mon->count && mon->seen >= mon->count)
		return MNL_CB_STOP;
	return MNL_CB_OK;
}

int cmd_monitor(int argc, char **argv)
{
	struct monitor m = { 0 };
	struct sigaction sa;
	struct fc_nl nl;
	uint64_t v;
	int ret, err, rcvbuf = 0;

	while (argc > 0) {
		static const char *const words[] = {
			"dev", "count", "rcvbuf", "help", NULL
		};
		int k = parse_keyword(argv[0], words);

		if (k < 0)
			return bad_keyword(argv[0], words, k, "monitor");
		if (k == 3) {
			usage_monitor(stdout);
			return EXIT_OK;
		}
		if (argc < 2)
			return missing_value(words[k], k == 0 ? "a device name" :
					     k == 1 ? "a number of events 1..4294967295" :
					     "a buffer size in bytes 1024..2147483647");
		if (k == 0) {
			if (fc_check_dev_name(argv[1]))
				return EXIT_USAGE;
			m.dev = argv[1];
		} else if (k == 2) {
			err = parse_u64(argv[1], 1024, INT32_MAX, &v);
			if (err)
				return bad_value("rcvbuf", argv[1], err,
						 "a buffer size in bytes 1024..2147483647");
			rcvbuf = (int)v;
		} else {
			err = parse_u64(argv[1], 1, UINT32_MAX, &v);
			if (err)
				return bad_value("count", argv[1], err,
						 "a number of events 1..4294967295");
			m.count = v;
		}
		argc -= 2;
		argv += 2;
	}
	if (m.dev) {
		m.ifindex = if_nametoindex(m.dev);
		if (!m.ifindex) {
			fprintf(stderr, "no such device %s\n", m.dev);
			return EXIT_FAIL;
		}
	}
	ret = fc_nl_open(&nl);
	if (!ret)
		ret = fc_nl_join_events(&nl, rcvbuf);
	if (ret) {
		fc_nl_close(&nl);
		return ret;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: recv returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (!is_json())
		fprintf(stderr, "Monitoring flowctl events%s%s (rx: %s; tx: %s). Ctrl-C to stop.\n",
			m.dev ? " on " : "", m.dev ? m.dev : "", FC_RX_MEANS,
			FC_TX_MEANS);
	while (!monitor_stop) {
		ssize_t n = mnl_socket_recvfrom(nl.sock, nl.rx, FC_NL_RXBUF);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				fprintf(stderr, "Warning: events lost: the receive buffer overflowed\n");
				continue;
			}
			perror("flowctl: monitor");
			ret = EXIT_FAIL;
			break;
		}
		/* Notifications carry seq 0: no sequence check. */
		err = fc_nl_process(&nl, nl.rx, (size_t)n, 0, event_cb, &m);
		if (err == MNL_CB_STOP && m.count && m.seen >= m.count)
			break;
	}
	fc_nl_close(&nl);
	return ret;
}
