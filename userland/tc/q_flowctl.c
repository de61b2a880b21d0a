// SPDX-License-Identifier: GPL-2.0
/*
 * q_flowctl.so: tc's plugin for the flowctl qdisc. tc (iproute2) loads
 * TC_LIB_DIR/q_flowctl.so (Debian: /usr/lib/x86_64-linux-gnu/tc) when a
 * command names the flowctl qdisc, and calls flowctl_qdisc_util:
 *
 *   tc qdisc add dev eth0 root flowctl mode pfc pfc-prios 3 trust dscp
 *   tc qdisc change dev eth0 root flowctl xoff 64k xon 32k
 *   tc -s -d qdisc show dev eth0        tc -j -s qdisc show dev eth0
 *
 * The words are those of "flowctl set" and are parsed by the same code
 * (setparse.c); they become the same FLOWCTL_A_DEV_* attributes, nested in
 * TCA_OPTIONS, which the kernel checks with the same validator. Printing
 * goes through tc's own text/JSON writer, so that "tc -j" stays one JSON
 * document: the few functions used are declared below as iproute2 6.1
 * defines them (tc exports them; Debian's q_atm.so uses them the same way).
 * Everything else in this object is hidden (-fvisibility=hidden), so that
 * tc's own matches() and friends never replace ours.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/pkt_sched.h>
#include <libmnl/libmnl.h>
#include <linux/flowctl.h>

#include <flowctl/maccontrol.h>
#include "../flowctl.h"
#include "../fmt.h"
#include "../set.h"

/* iproute2 6.1, tc/tc_util.h: struct qdisc_util, padded for later fields. */
struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f,
			    struct rtattr *xstats);
	void *later[8];		/* parse_copt, print_copt, has_block, ... */
};

/* iproute2 6.1, include/json_print.h and color.h: resolved in tc. */
enum output_type { PRINT_FP = 1, PRINT_JSON = 2, PRINT_ANY = 4 };
#define COLOR_NONE 6
extern int print_color_string(enum output_type t, int color, const char *key,
			      const char *fmt, const char *value);
extern int print_color_uint(enum output_type t, int color, const char *key,
			    const char *fmt, unsigned int value);
extern int print_color_u64(enum output_type t, int color, const char *key,
			   const char *fmt, uint64_t value);
extern int print_color_on_off(enum output_type t, int color, const char *key,
			      const char *fmt, bool value);
extern void open_json_object(const char *str);
extern void close_json_object(void);
extern void open_json_array(enum output_type type, const char *delim);
extern void close_json_array(enum output_type type, const char *delim);
extern bool is_json_context(void);
extern void print_nl(void);	/* "\n", or " " under tc -oneline */

#define EXPORT __attribute__((visibility("default")))

static void usage(void)
{
	fprintf(stderr,
		"Usage: ... flowctl [ mode { pause | pfc | off } ] [ rx { on | off } ]\n"
		"                   [ tx { on | off } ] [ pfc-prios PRIO-LIST ]\n"
		"                   [ trust { pcp | dscp } ] [ speed { SPEED | auto } ]\n"
		"                   [ rate { RATE | off } ] [ limit BYTES ] [ xoff BYTES ]\n"
		"                   [ xon BYTES ] [ prio PRIO xoff BYTES xon BYTES ]...\n"
		"                   [ quanta QUANTA ] [ prio-tc { TC-MAP | 8021q | numeric } ]\n"
		"                   [ ets { TC:PERCENT[,TC:PERCENT...] | off } ]\n"
		"                   [ watchdog { MS | off } ] [ wd-restoration { MS | auto } ]\n"
		"                   [ wd-action { drop | forward | alert } ]\n"
		"                   [ tx-storm { MS | off } ] [ tunnel-wire { on | off } ]\n"
		"                   [ round-trip BITS ]\n"
		"The words and values of \"flowctl set\" (see flowctl(8)); tc qdisc change\n"
		"sets only what is given. xoff and xon 0 = derived from speed and limit.\n");
}

static int flowctl_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			     struct nlmsghdr *n, const char *dev)
{
	char *words[256], devword[] = "dev", devname[] = "tc-dev";
	struct fc_set_req r;
	struct nlattr *nest;
	int i;

	(void)qu;
	(void)dev;
	if (argc == 0)
		return 0;
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "help")) {
			usage();
			return -1;
		}
	}
	if (argc > 254) {
		fprintf(stderr, "flowctl: too many options\n");
		return -1;
	}
	/* fc_set_parse() wants "dev DEV" first: tc's device is the port. */
	words[0] = devword;
	words[1] = devname;
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "dev")) {
			fprintf(stderr, "flowctl: \"dev\" is tc's, not an option\n");
			return -1;
		}
		words[i + 2] = argv[i];
	}
	fc_help_hint = "tc qdisc add dev DEV root flowctl help";
	if (fc_set_parse(argc + 2, words, &r) != EXIT_OK || r.help)
		return -1;
	nest = mnl_attr_nest_start(n, TCA_OPTIONS);
	fc_set_build_opts(n, &r);
	mnl_attr_nest_end(n, nest);
	return 0;
}

static const char *const mode_names[] = { "off", "pause", "pfc" };
static const char *const trust_names[] = { "pcp", "dscp" };
static const char *const src_names[] = { "none", "config", "rate", "ethtool" };

static const char *name_of(const char *const *names, unsigned int n,
			   unsigned int v)
{
	return v < n ? names[v] : "unknown";
}

/* The values of one level of attributes: v[type], have bit type. */
struct attrs {
	uint64_t v[FLOWCTL_A_DEV_MAX + 1];
	uint64_t have;
};

static uint64_t attr_uint(const struct rtattr *a)
{
	const void *d = RTA_DATA(a);

	switch (RTA_PAYLOAD(a)) {
	case 1:
		return *(const uint8_t *)d;
	case 2:
		return *(const uint16_t *)d;
	case 4:
		return *(const uint32_t *)d;
	case 8: {
		uint64_t v;

		memcpy(&v, d, sizeof(v));
		return v;
	}
	}
	return 0;
}

static void print_prios(const char *key, const char *text, uint8_t mask)
{
	int p;

	print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", text);
	open_json_array(PRINT_JSON, key);
	for (p = 0; p < 8; p++) {
		if (!(mask & (1u << p)))
			continue;
		print_color_uint(PRINT_ANY, COLOR_NONE, NULL,
				 (mask & ((1u << p) - 1)) ? ",%u" : "%u", p);
	}
	close_json_array(PRINT_JSON, NULL);
	if (!mask)
		print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", "none");
}

/* The quanta's time at the speed in use, for -s's line (0: none): tc
 * prints a qdisc's options, then its statistics.
 */
static uint64_t shown_quanta_ns;

/*
 * tc's own units in the text (as tbf prints "rate 1Mbit burst 32Kb"), but
 * exact, so that the text goes back into tc qdisc change unchanged: the
 * largest unit that divides the value (iproute2's sprint_size rounds).
 */
static void print_size(const char *key, const char *word, uint32_t bytes)
{
	char b[32];

	if (bytes && !(bytes % (1024 * 1024)))
		snprintf(b, sizeof(b), "%uMb", bytes / (1024 * 1024));
	else if (bytes && !(bytes % 1024))
		snprintf(b, sizeof(b), "%uKb", bytes / 1024);
	else
		snprintf(b, sizeof(b), "%ub", bytes);
	print_color_uint(PRINT_JSON, COLOR_NONE, key, NULL, bytes);
	print_color_string(PRINT_FP, COLOR_NONE, NULL, word, b);
}

static void fmt_bits(char *b, size_t len, uint64_t bits)
{
	static const struct { const char *unit; uint64_t v; } u[] = {
		{ "Tbit", 1000000000000ULL }, { "Gbit", 1000000000ULL },
		{ "Mbit", 1000000ULL }, { "Kbit", 1000ULL },
	};
	size_t i;

	for (i = 0; bits && i < sizeof(u) / sizeof(u[0]); i++)
		if (!(bits % u[i].v)) {
			snprintf(b, len, "%" PRIu64 "%s", bits / u[i].v, u[i].unit);
			return;
		}
	snprintf(b, len, "%" PRIu64 "bit", bits);
}

static void print_ms(enum output_type t, const char *key, const char *word,
		     uint64_t ms)
{
	char b[32];

	if (ms && !(ms % 1000))
		snprintf(b, sizeof(b), "%" PRIu64 "s", ms / 1000);
	else
		snprintf(b, sizeof(b), "%" PRIu64 "ms", ms);
	print_color_u64(PRINT_JSON, COLOR_NONE, key, NULL, ms);
	if (t != PRINT_JSON)
		print_color_string(PRINT_FP, COLOR_NONE, NULL, word, b);
}

static int flowctl_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct attrs a = { { 0 }, 0 };
	struct rtattr *rta;
	int len, p;

	(void)qu;
	(void)f;
	shown_quanta_ns = 0;
	if (!opt)
		return 0;
	len = RTA_PAYLOAD(opt);
	for (rta = RTA_DATA(opt); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		unsigned int type = rta->rta_type & NLA_TYPE_MASK;

		if (type == FLOWCTL_A_DEV_TC_BW && RTA_PAYLOAD(rta) == 8) {
			const uint8_t *b = RTA_DATA(rta);

			for (p = 0; p < 8; p++)
				a.v[type] |= (uint64_t)b[p] << (8 * p);
			a.have |= 1ull << type;
		} else if (type <= FLOWCTL_A_DEV_MAX && type != FLOWCTL_A_DEV_PRIO) {
			a.v[type] = attr_uint(rta);
			a.have |= 1ull << type;
		}
	}
#define HAS(t) (a.have & (1ull << (t)))
	if (HAS(FLOWCTL_A_DEV_MODE))
		print_color_string(PRINT_ANY, COLOR_NONE, "mode", "mode %s ",
				   name_of(mode_names, 3, a.v[FLOWCTL_A_DEV_MODE]));
	if (HAS(FLOWCTL_A_DEV_RX))
		print_color_on_off(PRINT_ANY, COLOR_NONE, "rx", "rx %s ",
				   a.v[FLOWCTL_A_DEV_RX]);
	if (HAS(FLOWCTL_A_DEV_TX))
		print_color_on_off(PRINT_ANY, COLOR_NONE, "tx", "tx %s ",
				   a.v[FLOWCTL_A_DEV_TX]);
	if (HAS(FLOWCTL_A_DEV_PFC_PRIOS)) {
		print_prios("pfc_prios", "pfc-prios ",
			    (uint8_t)a.v[FLOWCTL_A_DEV_PFC_PRIOS]);
		print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", " ");
	}
	if (HAS(FLOWCTL_A_DEV_TRUST))
		print_color_string(PRINT_ANY, COLOR_NONE, "trust", "trust %s ",
				   name_of(trust_names, 2, a.v[FLOWCTL_A_DEV_TRUST]));
	if (HAS(FLOWCTL_A_DEV_SPEED)) {
		if (a.v[FLOWCTL_A_DEV_SPEED]) {
			char b[32];

			fmt_bits(b, sizeof(b), a.v[FLOWCTL_A_DEV_SPEED] * 1000000ULL);
			print_color_string(PRINT_FP, COLOR_NONE, NULL, "speed %s ", b);
		} else
			print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s",
					   "speed auto ");
		print_color_uint(PRINT_JSON, COLOR_NONE, "speed_config_mbps", NULL,
				 (unsigned int)a.v[FLOWCTL_A_DEV_SPEED]);
	}
	if (HAS(FLOWCTL_A_DEV_RATE)) {
		if (a.v[FLOWCTL_A_DEV_RATE]) {
			char b[32];

			fmt_bits(b, sizeof(b), a.v[FLOWCTL_A_DEV_RATE]);
			print_color_string(PRINT_FP, COLOR_NONE, NULL, "rate %s ", b);
		} else
			print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", "rate off ");
		print_color_u64(PRINT_JSON, COLOR_NONE, "rate_bps", NULL,
				a.v[FLOWCTL_A_DEV_RATE]);
	}
	if (HAS(FLOWCTL_A_DEV_LIMIT))
		print_size("limit_bytes", "limit %s ", (uint32_t)a.v[FLOWCTL_A_DEV_LIMIT]);
	if (HAS(FLOWCTL_A_DEV_XOFF))
		print_size("xoff_bytes", "xoff %s ", (uint32_t)a.v[FLOWCTL_A_DEV_XOFF]);
	if (HAS(FLOWCTL_A_DEV_XON))
		print_size("xon_bytes", "xon %s ", (uint32_t)a.v[FLOWCTL_A_DEV_XON]);
	if (HAS(FLOWCTL_A_DEV_QUANTA)) {
		uint64_t speed = HAS(FLOWCTL_A_DEV_SPEED_MBPS) ?
				 a.v[FLOWCTL_A_DEV_SPEED_MBPS] : 0;

		print_color_uint(PRINT_ANY, COLOR_NONE, "quanta", "quanta %u ",
				 (unsigned int)a.v[FLOWCTL_A_DEV_QUANTA]);
		/* A time only at the speed in use: the partner's may differ.
		 * The text stays what add takes; -s prints the time.
		 */
		if (speed) {
			shown_quanta_ns = mc_quanta_to_ns((mc_u32)a.v[FLOWCTL_A_DEV_QUANTA],
							  (mc_u32)speed);
			print_color_u64(PRINT_JSON, COLOR_NONE, "quanta_ns", NULL,
					shown_quanta_ns);
		}
	}
	if (HAS(FLOWCTL_A_DEV_PRIO_TC)) {
		uint32_t m = (uint32_t)a.v[FLOWCTL_A_DEV_PRIO_TC];

		print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", "prio-tc ");
		open_json_array(PRINT_JSON, "prio_tc");
		for (p = 0; p < 8; p++)
			print_color_uint(PRINT_ANY, COLOR_NONE, NULL,
					 p ? ",%u" : "%u", (m >> (4 * p)) & 0xf);
		close_json_array(PRINT_JSON, NULL);
		print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", " ");
	}
	if (HAS(FLOWCTL_A_DEV_TC_BW)) {
		uint64_t bw = a.v[FLOWCTL_A_DEV_TC_BW];
		bool first = true;

		print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", "ets ");
		for (p = 0; p < 8; p++) {
			unsigned int pct = (bw >> (8 * p)) & 0xff;

			if (!pct)
				continue;
			print_color_uint(PRINT_FP, COLOR_NONE, NULL,
					 first ? "%u" : ",%u", (unsigned int)p);
			print_color_uint(PRINT_FP, COLOR_NONE, NULL, ":%u", pct);
			first = false;
		}
		if (first)
			print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", "off");
		print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", " ");
		open_json_array(PRINT_JSON, "tc_bw");
		for (p = 0; p < 8; p++)
			print_color_uint(PRINT_JSON, COLOR_NONE, NULL, NULL,
					 (bw >> (8 * p)) & 0xff);
		close_json_array(PRINT_JSON, NULL);
	}
	/* The watchdog and the storm guard, in set's words; text only when on. */
	if (HAS(FLOWCTL_A_DEV_WD_DETECT_MS)) {
		static const char *const act[] = { "drop", "forward", "alert" };
		uint64_t det = a.v[FLOWCTL_A_DEV_WD_DETECT_MS];
		uint64_t res = a.v[FLOWCTL_A_DEV_WD_RESTORE_MS];
		uint64_t ac = a.v[FLOWCTL_A_DEV_WD_ACTION];
		enum output_type t = det ? PRINT_ANY : PRINT_JSON;

		print_ms(t, "wd_detect_ms", "watchdog %s ", det);
		if (res)
			print_ms(t, "wd_restore_ms", "wd-restoration %s ", res);
		else
			print_color_uint(PRINT_JSON, COLOR_NONE, "wd_restore_ms",
					 NULL, 0);
		print_color_string(t, COLOR_NONE, "wd_action", "wd-action %s ",
				   ac < 3 ? act[ac] : "unknown");
	}
	if (HAS(FLOWCTL_A_DEV_TX_STORM_MS))
		print_ms(a.v[FLOWCTL_A_DEV_TX_STORM_MS] ? PRINT_ANY : PRINT_JSON,
			 "tx_storm_ms", "tx-storm %s ", a.v[FLOWCTL_A_DEV_TX_STORM_MS]);
	if (HAS(FLOWCTL_A_DEV_TUNNEL_WIRE)) {
		print_color_on_off(PRINT_JSON, COLOR_NONE, "tunnel_wire", NULL,
				 a.v[FLOWCTL_A_DEV_TUNNEL_WIRE]);
		if (a.v[FLOWCTL_A_DEV_TUNNEL_WIRE])
			print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s",
					   "tunnel-wire on ");
	}
	if (HAS(FLOWCTL_A_DEV_PFC_DELAY))
		print_color_uint(a.v[FLOWCTL_A_DEV_PFC_DELAY] ? PRINT_ANY : PRINT_JSON,
				 COLOR_NONE, "round_trip_bits", "round-trip %u ",
				 (unsigned int)a.v[FLOWCTL_A_DEV_PFC_DELAY]);
#undef HAS
	/* Per-priority thresholds, as "prio P xoff B xon B". */
	open_json_array(PRINT_JSON, "prio");
	len = RTA_PAYLOAD(opt);
	for (rta = RTA_DATA(opt); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		struct rtattr *in;
		uint64_t pv[FLOWCTL_A_PRIO_MAX + 1] = { 0 };
		int ilen;

		if ((rta->rta_type & NLA_TYPE_MASK) != FLOWCTL_A_DEV_PRIO)
			continue;
		ilen = RTA_PAYLOAD(rta);
		for (in = RTA_DATA(rta); RTA_OK(in, ilen); in = RTA_NEXT(in, ilen)) {
			unsigned int t = in->rta_type & NLA_TYPE_MASK;

			if (t <= FLOWCTL_A_PRIO_MAX)
				pv[t] = attr_uint(in);
		}
		open_json_object(NULL);
		print_color_uint(PRINT_ANY, COLOR_NONE, "prio", "prio %u ",
				 (unsigned int)pv[FLOWCTL_A_PRIO_PRIO]);
		print_size("xoff_bytes", "xoff %s ", (uint32_t)pv[FLOWCTL_A_PRIO_XOFF]);
		print_size("xon_bytes", "xon %s ", (uint32_t)pv[FLOWCTL_A_PRIO_XON]);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	return 0;
}

static int flowctl_print_xstats(struct qdisc_util *qu, FILE *f,
				struct rtattr *xstats)
{
	/* A module from before the watchdog gives the struct up to here. */
	const size_t before_wd = offsetof(struct tc_flowctl_xstats, prio_wd_storms);
	const size_t before_split = offsetof(struct tc_flowctl_xstats, prio_wd_tx_drop);
	struct tc_flowctl_xstats st;
	size_t len;
	bool wd, split;
	int p;

	(void)qu;
	(void)f;
	if (!xstats)
		return 0;
	len = RTA_PAYLOAD(xstats);
	if (len < before_wd) {
		fprintf(stderr, "flowctl: xstats too short (%zu bytes)\n", len);
		return -1;
	}
	memset(&st, 0, sizeof(st));
	memcpy(&st, RTA_DATA(xstats), len < sizeof(st) ? len : sizeof(st));
	wd = len >= before_split;
	split = len >= sizeof(st);
	print_color_string(PRINT_FP, COLOR_NONE, NULL, "%s", " in force:");
	print_color_uint(PRINT_ANY, COLOR_NONE, "speed_mbps", " speed %uMb/s",
			 st.speed_mbps);
	print_color_string(PRINT_ANY, COLOR_NONE, "speed_source", " (%s)",
			   name_of(src_names, 4, st.speed_source));
	if (shown_quanta_ns) {
		char tb[FMT_LEN];

		fmt_ns(tb, sizeof(tb), shown_quanta_ns, false);
		print_color_string(PRINT_FP, COLOR_NONE, NULL, " quanta last %s", tb);
	}
	print_color_uint(PRINT_ANY, COLOR_NONE, "headroom_bytes", " headroom %uB",
			 st.headroom);
	print_color_uint(PRINT_ANY, COLOR_NONE, "xoff_bytes", " xoff %uB",
			 st.xoff);
	print_color_uint(PRINT_ANY, COLOR_NONE, "xon_bytes", " xon %uB", st.xon);
	print_nl();
	print_prios("paused_prios", " paused by the partner: ", st.paused);
	print_prios("xoff_active_prios", "; pausing the partner: ", st.xoff_active);
	if (wd)
		print_prios("wd_stormed_prios", "; stormed (watchdog): ", st.wd_stormed);
	print_nl();
	print_color_u64(PRINT_ANY, COLOR_NONE, "rx_pause", " rx pause %" PRIu64,
			st.rx_pause);
	print_color_u64(PRINT_ANY, COLOR_NONE, "rx_xon", " xon %" PRIu64, st.rx_xon);
	print_color_u64(PRINT_ANY, COLOR_NONE, "rx_pfc", " pfc %" PRIu64, st.rx_pfc);
	print_color_u64(PRINT_ANY, COLOR_NONE, "tx_pause", "; tx pause %" PRIu64,
			st.tx_pause);
	print_color_u64(PRINT_ANY, COLOR_NONE, "tx_xon", " xon %" PRIu64, st.tx_xon);
	print_color_u64(PRINT_ANY, COLOR_NONE, "tx_pfc", " pfc %" PRIu64, st.tx_pfc);
	print_nl();
	print_color_u64(PRINT_ANY, COLOR_NONE, "rx_ignored", " rx-ignored %" PRIu64,
			st.rx_ignored);
	print_color_u64(PRINT_ANY, COLOR_NONE, "rx_malformed", " rx-malformed %" PRIu64,
			st.rx_malformed);
	print_color_u64(PRINT_ANY, COLOR_NONE, "rx_unsupported",
			" rx-unsupported %" PRIu64, st.rx_unsupported);
	print_color_u64(PRINT_ANY, COLOR_NONE, "partner_ignored",
			" partner-ignored %" PRIu64, st.partner_ignored);
	print_color_u64(PRINT_ANY, COLOR_NONE, "events_suppressed",
			" events-suppressed %" PRIu64, st.events_suppressed);
	if (wd) {
		print_color_u64(PRINT_ANY, COLOR_NONE, "tx_storm_warning",
				" tx-storm warning %" PRIu64, st.tx_storm_warning);
		print_color_u64(PRINT_ANY, COLOR_NONE, "tx_storm_error",
				" error %" PRIu64, st.tx_storm_error);
	}
	open_json_array(PRINT_JSON, "prio");
	for (p = 0; p < 8; p++) {
		if (!st.prio_rx_pfc[p] && !st.prio_tx_pfc[p] &&
		    !st.prio_paused_ns_total[p] && !st.prio_wd_storms[p] &&
		    !st.prio_wd_drops[p] && !is_json_context())
			continue;
		print_nl();
		open_json_object(NULL);
		print_color_uint(PRINT_ANY, COLOR_NONE, "prio", " prio %u:", p);
		print_color_u64(PRINT_ANY, COLOR_NONE, "rx_pfc", " rx pfc %" PRIu64,
				st.prio_rx_pfc[p]);
		print_color_u64(PRINT_ANY, COLOR_NONE, "tx_pfc", " tx pfc %" PRIu64,
				st.prio_tx_pfc[p]);
		print_color_u64(PRINT_ANY, COLOR_NONE, "paused_ns_total",
				" paused %" PRIu64 " ns", st.prio_paused_ns_total[p]);
		if (wd) {
			print_color_u64(PRINT_ANY, COLOR_NONE, "wd_storms",
					" wd storms %" PRIu64, st.prio_wd_storms[p]);
			if (!split)
				print_color_u64(PRINT_ANY, COLOR_NONE, "wd_drops",
						" drops %" PRIu64, st.prio_wd_drops[p]);
		}
		if (split) {
			print_color_u64(PRINT_ANY, COLOR_NONE, "wd_tx_drop",
					" tx-drop %" PRIu64, st.prio_wd_tx_drop[p]);
			print_color_u64(PRINT_ANY, COLOR_NONE, "wd_rx_drop",
					" rx-drop %" PRIu64, st.prio_wd_rx_drop[p]);
		}
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	return 0;
}

EXPORT struct qdisc_util flowctl_qdisc_util = {
	.id		= "flowctl",
	.parse_qopt	= flowctl_parse_opt,
	.print_qopt	= flowctl_print_opt,
	.print_xstats	= flowctl_print_xstats,
};
