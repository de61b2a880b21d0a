// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl show: a port's config, its live state per priority and, with -s,
 * its counters. Text is for a person and says what each direction means;
 * JSON is for programs and carries every field the kernel sent.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <flowctl/maccontrol.h>
#include "doctor.h"
#include "flowctl.h"
#include "netlink.h"
#include "nic.h"
#include "print.h"
#include "show.h"

const char *fc_mode_name(uint64_t mode)
{
	switch (mode) {
	case FLOWCTL_MODE_OFF:
		return "off";
	case FLOWCTL_MODE_PAUSE:
		return "pause";
	case FLOWCTL_MODE_PFC:
		return "pfc";
	}
	return NULL;
}

const char *fc_trust_name(uint64_t trust)
{
	switch (trust) {
	case FLOWCTL_TRUST_PCP:
		return "pcp";
	case FLOWCTL_TRUST_DSCP:
		return "dscp";
	}
	return NULL;
}

const char *fc_speed_source_name(uint64_t src)
{
	switch (src) {
	case FLOWCTL_SPEED_SRC_NONE:
		return "none";
	case FLOWCTL_SPEED_SRC_CONFIG:
		return "config";
	case FLOWCTL_SPEED_SRC_RATE:
		return "rate";
	case FLOWCTL_SPEED_SRC_ETHTOOL:
		return "ethtool";
	}
	return NULL;
}

void fc_print_prios(enum output_type t, const char *key, const char *fmt,
		    unsigned int mask)
{
	char buf[FMT_LEN];
	int i;

	print_string(t & PRINT_FP, NULL, fmt, fmt_prio_list(buf, sizeof(buf), mask));
	if (!(t & PRINT_JSON))
		return;
	open_json_array(key);
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
		if (mask & (1u << i))
			print_u64(PRINT_JSON, NULL, NULL, (uint64_t)i);
	close_json_array();
}

/* Print only what the kernel sent: absent attributes print nothing. */
static void dev_u64(const struct fc_dev *d, int attr, enum output_type t,
		    const char *key, const char *fmt)
{
	if (FC_HAS(d->have, attr))
		print_u64(t, key, fmt, d->v[attr]);
}

static void dev_on_off(const struct fc_dev *d, int attr, enum output_type t,
		       const char *key, const char *fmt)
{
	if (FC_HAS(d->have, attr))
		print_on_off(t, key, fmt, d->v[attr] != 0);
}

/* An enum as its name; a value this tool does not know as a number. */
static void dev_enum(const struct fc_dev *d, int attr, enum output_type t,
		     const char *key, const char *fmt,
		     const char *(*name)(uint64_t))
{
	const char *s;

	if (!FC_HAS(d->have, attr))
		return;
	s = name(d->v[attr]);
	if (s)
		print_string(t, key, fmt, s);
	else
		print_u64(t, key, fmt, d->v[attr]);
}

static void stat_u64(const struct fc_dev *d, int attr, enum output_type t,
		     const char *key, const char *fmt)
{
	if (FC_HAS(d->stats_have, attr))
		print_u64(t, key, fmt, d->stats[attr]);
}

static void prio_u64(const struct fc_prio *p, int attr, enum output_type t,
		     const char *key, const char *fmt)
{
	if (FC_HAS(p->have, attr))
		print_u64(t, key, fmt, p->v[attr]);
}

static void prio_ns(const struct fc_prio *p, int attr, enum output_type t,
		    const char *key, const char *fmt)
{
	if (FC_HAS(p->have, attr))
		print_ns(t, key, fmt, p->v[attr]);
}

static bool prio_flag(const struct fc_prio *p, int attr)
{
	return FC_HAS(p->have, attr) && p->v[attr];
}

/*
 * The APP table's DSCP entries that trust dscp classifies by, as dcb app
 * shows them: "dscp-prio 26:3 48:6" (text only when there are some), and
 * in JSON [[26,3],[48,6]].
 */
static void print_dscp_prios(const struct fc_dev *d, enum output_type t)
{
	unsigned int dscp, prio;
	bool any = false;

	open_json_array("dscp_prio");
	for (dscp = 0; dscp < 64; dscp++)
		for (prio = 0; prio < FLOWCTL_NUM_PRIOS; prio++) {
			if (!(d->dscp_prios[dscp] & (1u << prio)))
				continue;
			if (t & PRINT_JSON) {
				open_json_array(NULL);
				print_u64(PRINT_JSON, NULL, NULL, dscp);
				print_u64(PRINT_JSON, NULL, NULL, prio);
				close_json_array();
			}
			if (t & PRINT_FP)
				print_text("%s%u:%u", any ? " " : " dscp-prio ",
					   dscp, prio);
			any = true;
		}
	close_json_array();
}

static void print_config(const struct fc_dev *d, enum output_type t)
{
	char buf[FMT_LEN];
	uint64_t v;
	int i;

	dev_enum(d, FLOWCTL_A_DEV_MODE, t, "mode", " mode %s", fc_mode_name);
	dev_on_off(d, FLOWCTL_A_DEV_RX, t, "rx", " rx %s");
	dev_on_off(d, FLOWCTL_A_DEV_TX, t, "tx", " tx %s");
	if (FC_HAS(d->have, FLOWCTL_A_DEV_PFC_PRIOS))
		fc_print_prios(t, "pfc_prios", " pfc-prios %s",
			       (unsigned int)d->v[FLOWCTL_A_DEV_PFC_PRIOS]);
	dev_enum(d, FLOWCTL_A_DEV_TRUST, t, "trust", " trust %s", fc_trust_name);

	/* JSON: the speed in force, its source and the configured one. Text:
	 * the configured one, as set takes it (the one in force: "in force").
	 */
	dev_u64(d, FLOWCTL_A_DEV_SPEED_MBPS, t & PRINT_JSON, "speed_mbps", NULL);
	if (FC_HAS(d->have, FLOWCTL_A_DEV_SPEED_SOURCE)) {
		const char *s = fc_speed_source_name(d->v[FLOWCTL_A_DEV_SPEED_SOURCE]);

		if (s)
			print_string(t & PRINT_JSON, "speed_source", NULL, s);
		else
			print_u64(t & PRINT_JSON, "speed_source", NULL,
				  d->v[FLOWCTL_A_DEV_SPEED_SOURCE]);
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_SPEED)) {
		v = d->v[FLOWCTL_A_DEV_SPEED];
		print_u64_as(t, "speed_config_mbps", " speed %s", v,
			     v ? fmt_speed(buf, sizeof(buf), v) : "auto");
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_RATE)) {
		v = d->v[FLOWCTL_A_DEV_RATE];
		print_u64_as(t, "rate_bps", " rate %s", v,
			     v ? fmt_rate(buf, sizeof(buf), v) : "off");
	}
	dev_u64(d, FLOWCTL_A_DEV_LIMIT, t, "limit_bytes", " limit %sB");
	dev_u64(d, FLOWCTL_A_DEV_XOFF, t, "xoff_bytes", " xoff %sB");
	dev_u64(d, FLOWCTL_A_DEV_XON, t, "xon_bytes", " xon %sB");
	dev_u64(d, FLOWCTL_A_DEV_HEADROOM, t & PRINT_JSON, "headroom_bytes", NULL);
	dev_u64(d, FLOWCTL_A_DEV_QUANTA, t, "quanta", " quanta %s");
	/* Quanta are a time only at a speed: the partner's may differ. */
	if (FC_HAS(d->have, FLOWCTL_A_DEV_QUANTA) &&
	    FC_HAS(d->have, FLOWCTL_A_DEV_SPEED_MBPS) &&
	    d->v[FLOWCTL_A_DEV_SPEED_MBPS])
		print_u64(t & PRINT_JSON, "quanta_ns", NULL,
			  mc_quanta_to_ns((mc_u32)d->v[FLOWCTL_A_DEV_QUANTA],
					  (mc_u32)d->v[FLOWCTL_A_DEV_SPEED_MBPS]));
	if (FC_HAS(d->have, FLOWCTL_A_DEV_PRIO_TC)) {
		size_t n = 0;

		v = d->v[FLOWCTL_A_DEV_PRIO_TC];
		for (i = 0; i < FLOWCTL_NUM_PRIOS && n < sizeof(buf); i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u",
					      i ? "," : "",
					      (unsigned int)(v >> (4 * i)) & 0xf);
		print_string(t & PRINT_FP, NULL, " prio-tc %s", buf);
		if (t & PRINT_JSON) {
			open_json_array("prio_tc");
			for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
				print_u64(PRINT_JSON, NULL, NULL, (v >> (4 * i)) & 0xf);
			close_json_array();
		}
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_TC_BW)) {
		size_t n = 0;

		v = d->v[FLOWCTL_A_DEV_TC_BW];
		buf[0] = '\0';
		for (i = 0; i < FLOWCTL_NUM_PRIOS && n < sizeof(buf); i++)
			if ((v >> (8 * i)) & 0xff)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%u:%u",
						      n ? "," : "", i,
						      (unsigned int)(v >> (8 * i)) & 0xff);
		print_string(t & PRINT_FP, NULL, " ets %s", v ? buf : "off");
		if (t & PRINT_JSON) {
			open_json_array("tc_bw");
			for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
				print_u64(PRINT_JSON, NULL, NULL, (v >> (8 * i)) & 0xff);
			close_json_array();
		}
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_WD_DETECT_MS)) {
		static const char *const actions[] = { "drop", "forward", "alert" };
		uint64_t det = d->v[FLOWCTL_A_DEV_WD_DETECT_MS];
		uint64_t res = d->v[FLOWCTL_A_DEV_WD_RESTORE_MS];
		uint64_t act = d->v[FLOWCTL_A_DEV_WD_ACTION];

		dev_u64(d, FLOWCTL_A_DEV_WD_DETECT_MS, t & PRINT_JSON,
			"wd_detect_ms", NULL);
		dev_u64(d, FLOWCTL_A_DEV_WD_RESTORE_MS, t & PRINT_JSON,
			"wd_restore_ms", NULL);
		if (FC_HAS(d->have, FLOWCTL_A_DEV_WD_ACTION))
			print_string(t & PRINT_JSON, "wd_action", NULL,
				     act < 3 ? actions[act] : "?");
		/* Text names it only when on: most ports have none. */
		if ((t & PRINT_FP) && det) {
			print_text(" watchdog %llums", (unsigned long long)det);
			if (res)
				print_text(" wd-restoration %llums", (unsigned long long)res);
			else
				print_text(" wd-restoration auto");
			print_text(" wd-action %s", act < 3 ? actions[act] : "?");
		}
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_PARTNER_MAC)) {
		char mac[18];

		fc_fmt_mac(mac, d->v[FLOWCTL_A_DEV_PARTNER_MAC]);
		print_string(t & PRINT_JSON, "partner_mac", NULL, mac);
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_TX_STORM_MS)) {
		uint64_t ms = d->v[FLOWCTL_A_DEV_TX_STORM_MS];

		dev_u64(d, FLOWCTL_A_DEV_TX_STORM_MS, t & PRINT_JSON,
			"tx_storm_ms", NULL);
		if ((t & PRINT_FP) && ms)
			print_text(" tx-storm %llums", (unsigned long long)ms);
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_TUNNEL_WIRE)) {
		bool on = d->v[FLOWCTL_A_DEV_TUNNEL_WIRE];

		print_bool(t & PRINT_JSON, "tunnel_wire", NULL, on);
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_PFC_DELAY)) {
		uint64_t bits = d->v[FLOWCTL_A_DEV_PFC_DELAY];

		dev_u64(d, FLOWCTL_A_DEV_PFC_DELAY, t & PRINT_JSON,
			"round_trip_bits", NULL);
		if ((t & PRINT_FP) && bits)
			print_text(" round-trip %llu", (unsigned long long)bits);
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_DSCP_PRIOS) && (t & PRINT_JSON))
		print_dscp_prios(d, PRINT_JSON);
	if (FC_HAS(d->have, FLOWCTL_A_DEV_DOORS) && (t & PRINT_JSON)) {
		uint64_t doors = d->v[FLOWCTL_A_DEV_DOORS];

		open_json_object("doors");
		print_bool(PRINT_JSON, "ethtool_pause", NULL,
			   doors & FLOWCTL_DOOR_PAUSE);
		print_bool(PRINT_JSON, "dcb", NULL, doors & FLOWCTL_DOOR_DCB);
		close_json_object();
	}
}

/*
 * Text: what is in force beside the configuration, on a line of its own so
 * that the first line is set's words alone: the speed and where it comes
 * from, the headroom, how long the quanta last, what tc qdisc add set
 * (tunnel-wire) and the DSCP map dcb app sets.
 */
static void print_in_force(const struct fc_dev *d)
{
	char buf[FMT_LEN];
	bool any = false;

	if (FC_HAS(d->have, FLOWCTL_A_DEV_SPEED_MBPS)) {
		uint64_t v = d->v[FLOWCTL_A_DEV_SPEED_MBPS];
		const char *s = FC_HAS(d->have, FLOWCTL_A_DEV_SPEED_SOURCE) ?
				fc_speed_source_name(d->v[FLOWCTL_A_DEV_SPEED_SOURCE]) : NULL;

		print_text("  in force: speed %s",
			   v ? fmt_speed(buf, sizeof(buf), v) :
			       "none (no pause: unknown speed or half duplex)");
		if (v && s)
			print_text(" (%s)", s);
		any = true;
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_HEADROOM)) {
		print_text("%s headroom %lluB", any ? "" : "  in force:",
			   (unsigned long long)d->v[FLOWCTL_A_DEV_HEADROOM]);
		any = true;
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_QUANTA) &&
	    FC_HAS(d->have, FLOWCTL_A_DEV_SPEED_MBPS) &&
	    d->v[FLOWCTL_A_DEV_SPEED_MBPS]) {
		char tb[32];

		fmt_ns(tb, sizeof(tb),
		       mc_quanta_to_ns((mc_u32)d->v[FLOWCTL_A_DEV_QUANTA],
				       (mc_u32)d->v[FLOWCTL_A_DEV_SPEED_MBPS]), false);
		print_text("%s quanta last %s at %s", any ? "" : "  in force:", tb,
			   fmt_speed(buf, sizeof(buf), d->v[FLOWCTL_A_DEV_SPEED_MBPS]));
		any = true;
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_TUNNEL_WIRE) &&
	    d->v[FLOWCTL_A_DEV_TUNNEL_WIRE]) {
		print_text("%s tunnel-wire on", any ? "" : "  in force:");
		any = true;
	}
	if (FC_HAS(d->have, FLOWCTL_A_DEV_DSCP_PRIOS)) {
		unsigned int i;

		for (i = 0; i < 64; i++)
			if (d->dscp_prios[i])
				break;
		if (i < 64) {
			if (!any)
				print_text("  in force:");
			print_dscp_prios(d, PRINT_FP);
			any = true;
		}
	}
	if (any)
		print_text("\n");
}

static void print_port_counters(const struct fc_dev *d, enum output_type t)
{
	open_json_object("stats");
	if (d->stats_have & (1u << FLOWCTL_A_STATS_RX_PAUSE |
			     1u << FLOWCTL_A_STATS_RX_XON |
			     1u << FLOWCTL_A_STATS_RX_PFC))
		print_text("  received:");
	stat_u64(d, FLOWCTL_A_STATS_RX_PAUSE, t, "rx_pause", " pause %s");
	stat_u64(d, FLOWCTL_A_STATS_RX_XON, t, "rx_xon", " xon %s");
	stat_u64(d, FLOWCTL_A_STATS_RX_PFC, t, "rx_pfc", " pfc %s");
	if (d->stats_have & (1u << FLOWCTL_A_STATS_RX_PAUSE |
			     1u << FLOWCTL_A_STATS_RX_XON |
			     1u << FLOWCTL_A_STATS_RX_PFC))
		print_text(" (rx: " FC_RX_MEANS ")\n");

	if (d->stats_have & (1u << FLOWCTL_A_STATS_TX_PAUSE |
			     1u << FLOWCTL_A_STATS_TX_XON |
			     1u << FLOWCTL_A_STATS_TX_PFC))
		print_text("  sent:");
	stat_u64(d, FLOWCTL_A_STATS_TX_PAUSE, t, "tx_pause", " pause %s");
	stat_u64(d, FLOWCTL_A_STATS_TX_XON, t, "tx_xon", " xon %s");
	stat_u64(d, FLOWCTL_A_STATS_TX_PFC, t, "tx_pfc", " pfc %s");
	/* The storm guard's counters: in text once it acted. */
	if (FC_HAS(d->stats_have, FLOWCTL_A_STATS_TX_STORM_WARNING)) {
		enum output_type st = t;

		if (!d->stats[FLOWCTL_A_STATS_TX_STORM_WARNING] &&
		    !d->stats[FLOWCTL_A_STATS_TX_STORM_ERROR])
			st = (enum output_type)(st & PRINT_JSON);
		stat_u64(d, FLOWCTL_A_STATS_TX_STORM_WARNING, st,
			 "tx_storm_warning", " storm-warning %s");
		stat_u64(d, FLOWCTL_A_STATS_TX_STORM_ERROR, st,
			 "tx_storm_error", " storm-error %s");
	}
	/* A speed that left our XOFF too short to refresh: in text once. */
	if (FC_HAS(d->stats_have, FLOWCTL_A_STATS_TX_XOFF_SHORT)) {
		enum output_type st = t;

		if (!d->stats[FLOWCTL_A_STATS_TX_XOFF_SHORT])
			st = (enum output_type)(st & PRINT_JSON);
		stat_u64(d, FLOWCTL_A_STATS_TX_XOFF_SHORT, st,
			 "tx_xoff_short", " xoff-short %s");
	}
	if (d->stats_have & (1u << FLOWCTL_A_STATS_TX_PAUSE |
			     1u << FLOWCTL_A_STATS_TX_XON |
			     1u << FLOWCTL_A_STATS_TX_PFC))
		print_text(" (tx: " FC_TX_MEANS ")\n");

	if (d->stats_have & (1u << FLOWCTL_A_STATS_RX_IGNORED |
			     1u << FLOWCTL_A_STATS_RX_MALFORMED |
			     1u << FLOWCTL_A_STATS_RX_UNSUPPORTED |
			     1u << FLOWCTL_A_STATS_PARTNER_IGNORED |
			     1u << FLOWCTL_A_STATS_EVENTS_SUPPRESSED)) {
		print_text("  other:");
		stat_u64(d, FLOWCTL_A_STATS_RX_IGNORED, t, "rx_ignored",
			 " rx-ignored %s (valid, but mode or rx off)");
		stat_u64(d, FLOWCTL_A_STATS_RX_MALFORMED, t, "rx_malformed",
			 " rx-malformed %s");
		stat_u64(d, FLOWCTL_A_STATS_RX_UNSUPPORTED, t, "rx_unsupported",
			 " rx-unsupported %s (other MAC Control opcodes)");
		stat_u64(d, FLOWCTL_A_STATS_PARTNER_IGNORED, t, "partner_ignored",
			 " partner-ignored %s (the partner kept sending while we paused it)");
		stat_u64(d, FLOWCTL_A_STATS_EVENTS_SUPPRESSED, t, "events_suppressed",
			 " events-suppressed %s (pause events past the 1000 messages/s a port reports)");
		print_text("\n");
	}
	close_json_object();
}

/* The PFC watchdog's state and counters of a priority: in JSON always, in
 * text once it has stormed.
 */
static void print_prio_watchdog(const struct fc_prio *p, enum output_type ct)
{
	bool stormed = FC_HAS(p->have, FLOWCTL_A_PRIO_WD_STATE) &&
		       p->v[FLOWCTL_A_PRIO_WD_STATE] == FLOWCTL_WD_STORMED;
	enum output_type t = ct;

	if (!FC_HAS(p->have, FLOWCTL_A_PRIO_WD_STORMS))
		return;
	if (!stormed && !p->v[FLOWCTL_A_PRIO_WD_STORMS])
		t = PRINT_JSON;
	if (FC_HAS(p->have, FLOWCTL_A_PRIO_WD_STATE))
		print_string(t, "wd_state", "    watchdog: %s",
			     stormed ? "stormed" : "operational");
	prio_u64(p, FLOWCTL_A_PRIO_WD_STORMS, t, "wd_storms", " storms %s");
	prio_u64(p, FLOWCTL_A_PRIO_WD_RESTORED, t, "wd_restored", " restored %s");
	prio_u64(p, FLOWCTL_A_PRIO_WD_TX_DROP, t, "wd_tx_drop", " tx-drop %s");
	prio_u64(p, FLOWCTL_A_PRIO_WD_RX_DROP, t, "wd_rx_drop", " rx-drop %s");
	prio_u64(p, FLOWCTL_A_PRIO_WD_TX_FORWARD, t, "wd_tx_forward",
		 " forwarded %s");
	prio_ns(p, FLOWCTL_A_PRIO_WD_STORMED_NS_TOTAL, t,
		"wd_stormed_ns_total", " stormed-total %s");
	if (t & PRINT_FP)
		print_nl();
}

static void print_prio(const struct fc_prio *p, unsigned int what)
{
	enum output_type st = (what & FC_SHOW_STATE) ? PRINT_ANY : 0;
	enum output_type cf = (what & FC_SHOW_CONFIG) ? PRINT_ANY : 0;
	enum output_type ct = (what & FC_SHOW_COUNTERS) ? PRINT_ANY : 0;
	bool paused = prio_flag(p, FLOWCTL_A_PRIO_PAUSED);
	bool xoff = prio_flag(p, FLOWCTL_A_PRIO_XOFF_ACTIVE);

	open_json_object(NULL);
	print_u64(PRINT_ANY, "prio", "  prio %s:", p->v[FLOWCTL_A_PRIO_PRIO]);

	if (st) {
		if (FC_HAS(p->have, FLOWCTL_A_PRIO_PAUSED))
			print_bool(PRINT_JSON, "paused", NULL, paused);
		if (paused) {
			print_text(" paused by the partner");
			prio_ns(p, FLOWCTL_A_PRIO_PAUSE_ELAPSED_NS, st,
				"pause_elapsed_ns", " for %s");
			prio_ns(p, FLOWCTL_A_PRIO_PAUSE_LEFT_NS, st,
				"pause_left_ns", ", %s left");
			print_text(";");
		} else {
			prio_u64(p, FLOWCTL_A_PRIO_PAUSE_LEFT_NS, PRINT_JSON,
				 "pause_left_ns", NULL);
			prio_u64(p, FLOWCTL_A_PRIO_PAUSE_ELAPSED_NS, PRINT_JSON,
				 "pause_elapsed_ns", NULL);
		}
		if (FC_HAS(p->have, FLOWCTL_A_PRIO_XOFF_ACTIVE))
			print_bool(PRINT_JSON, "xoff_active", NULL, xoff);
		if (xoff)
			print_text(" pausing the partner (XOFF sent);");
		if (!paused && !xoff)
			print_text(" running;");
	}
	prio_u64(p, FLOWCTL_A_PRIO_XOFF, cf, "xoff_bytes", " xoff %sB");
	prio_u64(p, FLOWCTL_A_PRIO_XON, cf, "xon_bytes", " xon %sB");
	if (st && (FC_HAS(p->have, FLOWCTL_A_PRIO_BACKLOG_BYTES) ||
		   FC_HAS(p->have, FLOWCTL_A_PRIO_BACKLOG_PACKETS)))
		print_text(" backlog");
	prio_u64(p, FLOWCTL_A_PRIO_BACKLOG_BYTES, st, "backlog_bytes", " %sB");
	prio_u64(p, FLOWCTL_A_PRIO_BACKLOG_PACKETS, st, "backlog_packets", " %sp");
	prio_u64(p, FLOWCTL_A_PRIO_CHARGE_BYTES, st, "charge_bytes",
		 " charge %sB");
	print_nl();

	if (ct) {
		print_text("    rx:");
		prio_u64(p, FLOWCTL_A_PRIO_RX_PFC, ct, "rx_pfc", " pfc %s");
		prio_u64(p, FLOWCTL_A_PRIO_RX_PFC_XON, ct, "rx_pfc_xon",
			 " pfc-xon %s");
		prio_u64(p, FLOWCTL_A_PRIO_PAUSE_EPISODES, ct, "pause_episodes",
			 " episodes %s");
		prio_ns(p, FLOWCTL_A_PRIO_PAUSED_NS_TOTAL, ct, "paused_ns_total",
			" paused-total %s");
		print_text("\n    tx:");
		prio_u64(p, FLOWCTL_A_PRIO_TX_PFC, ct, "tx_pfc", " pfc %s");
		prio_u64(p, FLOWCTL_A_PRIO_TX_PFC_XON, ct, "tx_pfc_xon",
			 " pfc-xon %s");
		prio_u64(p, FLOWCTL_A_PRIO_PARTNER_IGNORED, ct, "partner_ignored",
			 "; partner-ignored %s");
		print_text("\n    queue:");
		prio_u64(p, FLOWCTL_A_PRIO_TX_PACKETS, ct, "tx_packets",
			 " sent %s packets");
		prio_u64(p, FLOWCTL_A_PRIO_TX_BYTES, ct, "tx_bytes", " %sB");
		prio_u64(p, FLOWCTL_A_PRIO_DROPS, ct, "drops", " dropped %s");
		print_nl();
		print_prio_watchdog(p, ct);
	}
	close_json_object();
}

/*
 * The NIC's own PFC frames per priority (struct ieee_pfc): requests sent,
 * indications received. Text names the priorities with any; JSON has all 8.
 */
static void print_pfc_counts(const struct fc_doc_nic *n)
{
	int i;
	bool any = false;

	open_json_array("pfc_requests");
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
		print_u64(PRINT_JSON, NULL, NULL, n->pfc_requests[i]);
	close_json_array();
	open_json_array("pfc_indications");
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
		print_u64(PRINT_JSON, NULL, NULL, n->pfc_indications[i]);
	close_json_array();
	/* dcbnl sends the whole struct whether the driver counts or not:
	 * text names only the priorities with frames.
	 */
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++) {
		if (!n->pfc_requests[i] && !n->pfc_indications[i])
			continue;
		print_text("%s %d: sent %llu received %llu", any ? "" : " (frames", i,
			   (unsigned long long)n->pfc_requests[i],
			   (unsigned long long)n->pfc_indications[i]);
		any = true;
	}
	if (any)
		print_text(")");
}

/*
 * The driver's own flow control beside flowctl's: the MAC's pause settings
 * and its pause frame counters (ethtool -I -a), rx-all, and the NIC's own
 * PFC (dcbnl). What the driver does not have is left out.
 */
static void print_nic(const struct fc_doc_nic *n, uint64_t doors)
{
	int i;
	bool any = false;

	open_json_object("nic");
	print_text("  nic:");
	if (doors & FLOWCTL_DOOR_PAUSE) {
		/* What ethtool reads here is flowctl's own (doors). */
		print_text(" mac pause none (ethtool -a reads flowctl's)");
	} else if (!n->pause_err) {
		open_json_object("pause");
		print_bool(PRINT_JSON, "autoneg", NULL, n->pause_autoneg);
		print_bool(PRINT_JSON, "rx", NULL, n->pause_rx);
		print_bool(PRINT_JSON, "tx", NULL, n->pause_tx);
		print_text(" mac pause autoneg %s rx %s tx %s", n->pause_autoneg ? "on" : "off",
			   n->pause_rx ? "on" : "off", n->pause_tx ? "on" : "off");
		if (n->have_rx_frames[0])
			print_u64(PRINT_ANY, "rx_frames", " (frames rx %s", n->rx_frames[0]);
		if (n->have_tx_frames[0])
			print_u64(PRINT_ANY, "tx_frames", n->have_rx_frames[0] ? " tx %s" : " (frames tx %s",
				  n->tx_frames[0]);
		if (n->have_rx_frames[0] || n->have_tx_frames[0])
			print_text(")");
		close_json_object();
		any = true;
	} else {
		print_text(" mac pause %s", n->pause_err == EOPNOTSUPP ? "none" : strerror(n->pause_err));
	}
	if (!n->features_err && (n->rx_all_offered || n->rx_all_on)) {
		print_bool(PRINT_JSON, "rx_all", NULL, n->rx_all_on);
		print_text("; rx-all %s", n->rx_all_on ? "on" : "off");
		any = true;
	}
	if (doors & FLOWCTL_DOOR_DCB) {
		print_text("; nic pfc none (dcb reads flowctl's)");
	} else if (!n->dcb_pfc_err && n->have_pfc) {
		print_u64(PRINT_JSON, "pfc_cap", NULL, n->pfc_cap);
		open_json_array("pfc_en");
		print_text("; nic pfc");
		for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
			if (n->pfc_en & (1u << i)) {
				print_u64(PRINT_ANY, NULL, " %s", (uint64_t)i);
			}
		close_json_array();
		if (!n->pfc_en)
			print_text(" off");
		if (n->have_pfc_counts)
			print_pfc_counts(n);
		any = true;
	}
	if (!any)
		print_text(" (the driver has no flow control of its own)");
	print_text("\n");
	close_json_object();
}

static const char *tsa_name(uint8_t tsa)
{
	switch (tsa) {
	case 0: return "strict";
	case 1: return "cbs";
	case 2: return "ets";
	case 255: return "vendor";
	}
	return "?";
}

static const char *app_sel_name(uint8_t sel)
{
	static const char *const names[] = {
		[2] = "stream-port", [3] = "dgram-port", [4] = "port", [5] = "dscp",
	};

	return sel < 6 && names[sel] ? names[sel] : "?";
}

/* One of the partner's ETS TLVs: classes, shares, TSAs (JSON, text). */
static void print_peer_ets(const struct fc_peer *p, const char *key, int ptc,
			   const uint8_t *bw, const uint8_t *tsa, bool text)
{
	enum output_type t = text ? PRINT_ANY : PRINT_JSON;
	uint64_t v = p->v[ptc];
	int i, n;

	print_string(t & PRINT_FP, NULL, " %s", key[3] == '_' ? "ets-reco prio-tc" : "prio-tc");
	open_json_object(key);
	open_json_array("prio_tc");
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++) {
		print_u64(PRINT_JSON, NULL, NULL, (v >> (4 * i)) & 0xf);
		if (text)
			print_text("%s%u", i ? "," : " ", (unsigned int)(v >> (4 * i)) & 0xf);
	}
	close_json_array();
	/* As flowctl's own: the ets classes' shares, the rest strict. */
	print_string(t & PRINT_FP, NULL, "%s", " ets");
	open_json_array("tc_bw");
	for (i = 0, n = 0; i < 8; i++) {
		print_u64(PRINT_JSON, NULL, NULL, bw[i]);
		if (!text)
			continue;
		if (tsa[i] == 2)
			print_text("%s%d:%u", n++ ? "," : " ", i, bw[i]);
		else if (tsa[i])
			print_text("%s%d:%s", n++ ? "," : " ", i, tsa_name(tsa[i]));
	}
	if (text && !n)
		print_text(" off");
	close_json_array();
	open_json_array("tc_tsa");
	for (i = 0; i < 8; i++)
		print_string(PRINT_JSON, NULL, NULL, tsa_name(tsa[i]));
	close_json_array();
	close_json_object();
}

/*
 * The DCBX partner the port's agent last heard (FLOWCTL_A_DEV_PEER), which
 * dcb netlink reports as the peer's: read only, so set json skips it.
 */
static void print_peer(const struct fc_dev *d)
{
	const struct fc_peer *p = &d->peer;
	char mac[18];
	unsigned int i;

	if (!FC_HAS(d->have, FLOWCTL_A_DEV_PEER) || !p->have)
		return;
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
		 p->mac[0], p->mac[1], p->mac[2], p->mac[3], p->mac[4], p->mac[5]);
	open_json_object("dcbx_partner");
	print_string(PRINT_ANY, "mac", "  dcbx partner %s:", mac);
	if (FC_HAS(p->have, FLOWCTL_A_PEER_PFC_EN)) {
		print_text(" pfc-prios");
		open_json_object("pfc");
		fc_print_prios(PRINT_ANY, "prios", " %s",
			       (unsigned int)p->v[FLOWCTL_A_PEER_PFC_EN]);
		print_u64(PRINT_JSON, "cap", NULL, p->v[FLOWCTL_A_PEER_PFC_CAP]);
		print_bool(PRINT_ANY, "willing", p->v[FLOWCTL_A_PEER_PFC_WILLING] ?
			   " (willing)" : "", p->v[FLOWCTL_A_PEER_PFC_WILLING]);
		print_bool(PRINT_JSON, "mbc", NULL, p->v[FLOWCTL_A_PEER_PFC_MBC]);
		close_json_object();
	}
	if (FC_HAS(p->have, FLOWCTL_A_PEER_ETS_PRIO_TC)) {
		print_peer_ets(p, "ets", FLOWCTL_A_PEER_ETS_PRIO_TC, p->bw, p->tsa,
			       true);
		print_bool(PRINT_JSON, "ets_willing", NULL,
			   p->v[FLOWCTL_A_PEER_ETS_WILLING]);
	}
	if (FC_HAS(p->have, FLOWCTL_A_PEER_RECO_PRIO_TC))
		/* Text names the Recommendation only where it differs. */
		print_peer_ets(p, "ets_reco", FLOWCTL_A_PEER_RECO_PRIO_TC,
			       p->reco_bw, p->reco_tsa,
			       !FC_HAS(p->have, FLOWCTL_A_PEER_ETS_PRIO_TC) ||
			       p->v[FLOWCTL_A_PEER_RECO_PRIO_TC] !=
			       p->v[FLOWCTL_A_PEER_ETS_PRIO_TC] ||
			       memcmp(p->bw, p->reco_bw, 8) ||
			       memcmp(p->tsa, p->reco_tsa, 8));
	if (FC_HAS(p->have, FLOWCTL_A_PEER_APP)) {
		print_text(" app");
		open_json_array("app");
		for (i = 0; i < p->napps; i++) {
			open_json_object(NULL);
			print_u64(PRINT_JSON, "selector", NULL, p->app[i].sel);
			print_u64(PRINT_JSON, "protocol", NULL, p->app[i].proto);
			print_u64(PRINT_JSON, "priority", NULL, p->app[i].prio);
			close_json_object();
			/* dcb app's words */
			if (p->app[i].sel == 1)
				print_text(" ethtype-prio 0x%04x:%u", p->app[i].proto,
					   p->app[i].prio);
			else
				print_text(" %s-prio %u:%u", app_sel_name(p->app[i].sel),
					   p->app[i].proto, p->app[i].prio);
		}
		close_json_array();
		if (!p->napps)
			print_text(" none");
	}
	print_u64(PRINT_ANY, "ttl_s", " (%s s left)\n", p->v[FLOWCTL_A_PEER_TTL]);
	close_json_object();
}

/* -d: each TX queue's flowctl, as tc names its qdisc ("8001:"). */
static void print_queues(const struct fc_dev *d)
{
	unsigned int i;
	char handle[16];

	open_json_array("queues");
	for (i = 0; i < d->nqueues; i++) {
		const uint64_t *v = d->queues[i].v;

		snprintf(handle, sizeof(handle), "%x:",
			 (unsigned int)(v[FLOWCTL_A_QUEUE_HANDLE] >> 16));
		open_json_object(NULL);
		print_u64(PRINT_ANY, "index", "  queue %s", v[FLOWCTL_A_QUEUE_INDEX]);
		print_string(PRINT_ANY, "handle", " (qdisc %s):", handle);
		print_u64(PRINT_ANY, "tx_packets", " sent %sp", v[FLOWCTL_A_QUEUE_TX_PACKETS]);
		print_u64(PRINT_ANY, "tx_bytes", " %sB", v[FLOWCTL_A_QUEUE_TX_BYTES]);
		print_u64(PRINT_ANY, "backlog_bytes", "; backlog %sB",
			  v[FLOWCTL_A_QUEUE_BACKLOG_BYTES]);
		print_u64(PRINT_ANY, "backlog_packets", " %sp",
			  v[FLOWCTL_A_QUEUE_BACKLOG_PACKETS]);
		print_u64(PRINT_ANY, "drops", "; dropped %s", v[FLOWCTL_A_QUEUE_DROPS]);
		print_nl();
		close_json_object();
	}
	close_json_array();
}

void fc_print_dev(const struct fc_dev *d, unsigned int what)
{
	enum output_type cf = (what & FC_SHOW_CONFIG) ? PRINT_ANY : 0;
	int i;

	open_json_object(NULL);
	if (FC_HAS(d->have, FLOWCTL_A_DEV_IFNAME))
		print_string(PRINT_ANY, "ifname", "%s:", d->ifname);
	else
		print_u64(PRINT_FP, NULL, "ifindex %s:", d->v[FLOWCTL_A_DEV_IFINDEX]);
	dev_u64(d, FLOWCTL_A_DEV_IFINDEX, PRINT_JSON, "ifindex", NULL);
	/* Its own MAC, which partners name in partner_mac: waitfor file. */
	if (d->hwaddr && (what & (FC_SHOW_STATE | FC_SHOW_CONFIG))) {
		char mac[18];

		fc_fmt_mac(mac, d->hwaddr);
		print_string(PRINT_JSON, "address", NULL, mac);
	}
	print_config(d, cf);
	print_nl();
	if ((cf & PRINT_FP) && !is_json())
		print_in_force(d);
	if (what & FC_SHOW_CONFIG)
		print_peer(d);

	if (what & FC_SHOW_COUNTERS)
		print_port_counters(d, PRINT_ANY);
	if (d->nic)
		print_nic(d->nic, FC_HAS(d->have, FLOWCTL_A_DEV_DOORS) ?
			  d->v[FLOWCTL_A_DEV_DOORS] : 0);

	if (what & (FC_SHOW_STATE | FC_SHOW_COUNTERS | FC_SHOW_CONFIG)) {
		open_json_array("prio");
		for (i = 0; i < FLOWCTL_NUM_PRIOS; i++)
			if (d->prio[i].have)
				print_prio(&d->prio[i], what);
		close_json_array();
	}
	if (d->nqueues && (what & FC_SHOW_STATE))
		print_queues(d);
	close_json_object();
}

/* A mask of the port's state in brief: priorities, "?" when not sent. */
static void print_brief_mask(const struct fc_dev *d, int attr,
			     const char *key, const char *fmt)
{
	int mask = fc_dev_mask(d, attr);

	if (mask < 0)
		print_string(PRINT_FP, NULL, fmt, "?");
	else
		fc_print_prios(PRINT_ANY, key, fmt, (unsigned int)mask);
}

/* The queue of all bands: sent, or the sum of a full reply's priorities. */
static bool brief_backlog(const struct fc_dev *d, uint64_t *bytes,
			  uint64_t *packets)
{
	int p;

	if (FC_HAS(d->have, FLOWCTL_A_DEV_BACKLOG_BYTES) &&
	    FC_HAS(d->have, FLOWCTL_A_DEV_BACKLOG_PACKETS)) {
		*bytes = d->v[FLOWCTL_A_DEV_BACKLOG_BYTES];
		*packets = d->v[FLOWCTL_A_DEV_BACKLOG_PACKETS];
		return true;
	}
	*bytes = *packets = 0;
	for (p = 0; p < FLOWCTL_NUM_PRIOS; p++) {
		const struct fc_prio *r = &d->prio[p];

		if (!FC_HAS(r->have, FLOWCTL_A_PRIO_BACKLOG_BYTES) ||
		    !FC_HAS(r->have, FLOWCTL_A_PRIO_BACKLOG_PACKETS))
			return false;
		*bytes += r->v[FLOWCTL_A_PRIO_BACKLOG_BYTES];
		*packets += r->v[FLOWCTL_A_PRIO_BACKLOG_PACKETS];
	}
	return true;
}

/*
 * flowctl -br show: one line a port, as "ip -br link" does. The priorities
 * the partner holds paused (paused), the partner's priorities our XOFF
 * holds (xoff), the watchdog's stormed ones, and the queue.
 */
static void print_brief(const struct fc_dev *d)
{
	uint64_t bytes, packets;
	char buf[FMT_LEN];

	open_json_object(NULL);
	print_string(PRINT_ANY, "ifname", "%-15s", d->ifname);
	dev_u64(d, FLOWCTL_A_DEV_IFINDEX, PRINT_JSON, "ifindex", NULL);
	dev_enum(d, FLOWCTL_A_DEV_MODE, PRINT_ANY, "mode", " %-5s",
		 fc_mode_name);
	dev_on_off(d, FLOWCTL_A_DEV_RX, PRINT_ANY, "rx", " rx %-3s");
	dev_on_off(d, FLOWCTL_A_DEV_TX, PRINT_ANY, "tx", " tx %-3s");
	if (FC_HAS(d->have, FLOWCTL_A_DEV_PFC_PRIOS))
		fc_print_prios(PRINT_ANY, "pfc_prios", " pfc-prios %-7s",
			       (unsigned int)d->v[FLOWCTL_A_DEV_PFC_PRIOS]);
	if (FC_HAS(d->have, FLOWCTL_A_DEV_SPEED_MBPS))
		print_u64_as(PRINT_ANY, "speed_mbps", " speed %-9s",
			     d->v[FLOWCTL_A_DEV_SPEED_MBPS],
			     d->v[FLOWCTL_A_DEV_SPEED_MBPS] ?
			     fmt_speed(buf, sizeof(buf),
				       d->v[FLOWCTL_A_DEV_SPEED_MBPS]) :
			     "none");
	print_brief_mask(d, FLOWCTL_A_DEV_PAUSED, "paused_prios",
			 " paused %-7s");
	print_brief_mask(d, FLOWCTL_A_DEV_XOFF_ACTIVE, "xoff_prios",
			 " xoff %-7s");
	print_brief_mask(d, FLOWCTL_A_DEV_STORMED, "stormed_prios",
			 " stormed %-7s");
	if (brief_backlog(d, &bytes, &packets)) {
		print_u64(PRINT_ANY, "backlog_bytes", " backlog %sB", bytes);
		print_u64(PRINT_ANY, "backlog_packets", " %sp", packets);
	}
	print_nl();
	close_json_object();
}

void fc_print_brief(const struct fc_dev_list *l)
{
	size_t i;

	open_json_array(NULL);
	for (i = 0; i < l->n; i++)
		print_brief(&l->dev[i]);
	close_json_array();
	json_end_document();
}

static int dev_fetch(const char *dev, const char *verb, bool brief,
		     struct fc_dev_list *l);

/* A dump that found no port says how to attach one (text only). */
static void say_no_port(const struct fc_dev_list *l, const char *dev)
{
	if (!l->n && !dev && !is_json())
		fprintf(stderr,
			"no flowctl qdisc in this network namespace; attach one with: tc qdisc add dev DEV root flowctl\n");
}

static int show_brief(const char *dev)
{
	struct fc_dev_list l = { 0 };
	int ret;

	ret = dev_fetch(dev, "show", true, &l);
	if (!ret) {
		fc_print_brief(&l);
		say_no_port(&l, dev);
	}
	fc_dev_list_free(&l);
	return ret;
}

void fc_print_devs(const struct fc_dev_list *l, unsigned int what)
{
	size_t i;

	open_json_array(NULL);
	for (i = 0; i < l->n; i++)
		fc_print_dev(&l->dev[i], what);
	close_json_array();
	json_end_document();
}

void usage_show(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j [ -p ] ] [ -s | -br ] [ -d ] show [ dev DEV ]\n"
		"       flowctl show help\n"
		"Without dev, every port of this network namespace that has a\n"
		"flowctl qdisc. -s adds counters; -j prints everything; -d adds\n"
		"each TX queue's flowctl (mq's children; the root form has one).\n"
		"-br: one line a port (mode, rx, tx, pfc-prios, speed; the\n"
		"priorities the partner holds paused, those our XOFF holds, those\n"
		"the watchdog holds stormed; the queue), from a dump without\n"
		"counters: for thousands of ports.\n");
}

static int dev_fetch(const char *dev, const char *verb, bool brief,
		     struct fc_dev_list *l)
{
	struct fc_nl nl;
	int ret, err;

	ret = fc_nl_open(&nl);
	if (!ret) {
		err = brief ? fc_dev_get_brief(&nl, dev, l) : fc_dev_get(&nl, dev, l);
		if (err) {
			fc_nl_perror(&nl, err, dev, verb, true);
			ret = EXIT_FAIL;
		} else {
			fc_dev_list_sort(l);
		}
	}
	fc_nl_close(&nl);
	return ret;
}

int fc_dev_fetch(const char *dev, const char *verb, struct fc_dev_list *l)
{
	return dev_fetch(dev, verb, false, l);
}

/*
 * -d: each port's TX queues, one DEV_GET each (a dump does not carry
 * them). The queues join the port as l holds it.
 */
static int fetch_queues(struct fc_dev_list *l)
{
	struct fc_nl nl;
	size_t i;
	int ret, err;

	ret = fc_nl_open(&nl);
	for (i = 0; !ret && i < l->n; i++) {
		struct fc_dev_list one = { 0 };

		err = fc_dev_get_queues(&nl, l->dev[i].ifname, &one);
		if (err == -ENODEV || err == -EOPNOTSUPP) {
			/* gone since the dump: shown as the dump saw it */
		} else if (err) {
			fc_nl_perror(&nl, err, l->dev[i].ifname, "show", true);
			ret = EXIT_FAIL;
		} else if (one.n == 1) {
			l->dev[i].queues = one.dev[0].queues;
			l->dev[i].nqueues = one.dev[0].nqueues;
			one.dev[0].queues = NULL;
		}
		fc_dev_list_free(&one);
	}
	fc_nl_close(&nl);
	return ret;
}

int fc_show_run(const char *dev, unsigned int what)
{
	struct fc_dev_list l = { 0 };
	struct fc_doc_nic *nics = NULL;
	int ret;

	ret = fc_dev_fetch(dev, "show", &l);
	if (!ret && fc_opt.details)
		ret = fetch_queues(&l);
	/* With counters, the driver's own beside them (ethtool, dcbnl). */
	if (!ret && (what & FC_SHOW_COUNTERS) && l.n) {
		struct fc_nic_socks socks;
		size_t i;

		nics = calloc(l.n, sizeof(*nics));
		if (nics) {
			fc_nic_open(&socks);
			for (i = 0; i < l.n; i++) {
				fc_nic_read(&socks, l.dev[i].ifname, &nics[i]);
				l.dev[i].nic = &nics[i];
			}
			fc_nic_close(&socks);
		}
	}
	if (!ret) {
		fc_print_devs(&l, what);
		say_no_port(&l, dev);
	}
	free(nics);
	fc_dev_list_free(&l);
	return ret;
}

int fc_parse_dev_opt(int argc, char **argv, const char *cmd, const char **dev,
		     void (*usage)(FILE *), bool *helped)
{
	static const char *const words[] = { "dev", "help", NULL };

	*helped = false;
	while (argc > 0) {
		int k = parse_keyword(argv[0], words);

		if (k < 0)
			return bad_keyword(argv[0], words, k, cmd);
		if (k == 1) {
			usage(stdout);
			*helped = true;
			return EXIT_OK;
		} else {
			if (argc < 2)
				return missing_value("dev", "a device name");
			if (*dev) {
				fprintf(stderr, "Error: dev given twice\n");
				return EXIT_USAGE;
			}
			if (fc_check_dev_name(argv[1]))
				return EXIT_USAGE;
			*dev = argv[1];
			argc -= 2;
			argv += 2;
		}
	}
	return EXIT_OK;
}

int cmd_show(int argc, char **argv)
{
	const char *dev = NULL;
	unsigned int what;
	bool helped;
	int ret;

	ret = fc_parse_dev_opt(argc, argv, "show", &dev, usage_show, &helped);
	if (ret || helped)
		return ret;
	if (fc_opt.brief) {
		if (fc_opt.details) {
			fprintf(stderr,
				"Error: -brief shows no queues: give -d or -br, not both\n");
			return EXIT_USAGE;
		}
		if (fc_opt.stats) {
			fprintf(stderr,
				"Error: -brief shows no counters: give -s or -br, not both\n");
			return EXIT_USAGE;
		}
		return show_brief(dev);
	}
	what = FC_SHOW_CONFIG | FC_SHOW_STATE;
	if (fc_opt.stats || fc_opt.json)
		what |= FC_SHOW_COUNTERS;
	return fc_show_run(dev, what);
}
