// SPDX-License-Identifier: GPL-2.0
/*
 * The words of "flowctl set" and the attributes they become: shared by the
 * CLI and by tc's flowctl plugin (tc/q_flowctl.c), so both take the same
 * grammar and send the same attributes, which the kernel checks with one
 * validator.
 */
#include <errno.h>
#include <string.h>

#include "dev.h"
#include "flowctl.h"
#include "set.h"

void usage_set(FILE *f)
{
	fprintf(f,
		"Usage: flowctl set dev DEV [ mode { pause | pfc | off } ]\n"
		"               [ rx { on | off } ] [ tx { on | off } ]\n"
		"               [ pfc-prios PRIO-LIST ] [ trust { pcp | dscp } ]\n"
		"               [ speed { SPEED | auto } ] [ rate { RATE | off } ]\n"
		"               [ limit BYTES ] [ xoff BYTES ] [ xon BYTES ]\n"
		"               [ prio PRIO xoff BYTES xon BYTES ]... [ quanta QUANTA ]\n"
		"               [ prio-tc { TC-MAP | 8021q | numeric } ]\n"
		"               [ ets { TC:PERCENT[,TC:PERCENT...] | off } ]\n"
		"               [ watchdog { MS | off } ] [ wd-restoration { MS | auto } ]\n"
		"               [ wd-action { drop | forward | alert } ]\n"
		"               [ tx-storm { MS | off } ] [ round-trip BITS ]\n"
		"       flowctl set dev DEV json { FILE | - }\n"
		"       flowctl set help\n"
		"PRIO-LIST := { PRIO[-PRIO][,PRIO-LIST] | all | none }   e.g. 3,4 or 0,3-5\n"
		"PRIO := { 0 .. 7 }\n"
		"SPEED := Mb/s as a number, or with a unit: 100M, 2.5G, 10G, 400G\n"
		"RATE := bit/s: 10000000, 64kbit, 100mbit, 1.5gbit, 1tbit\n"
		"BYTES := 0 .. 4294967295, or with k, m, g (x 1024): 1500, 64k, 1m\n"
		"QUANTA := { 1 .. 65535 }  (pause time in XOFF, units of 512 bit times)\n"
		"TC-MAP := TC,TC,TC,TC,TC,TC,TC,TC  the traffic class 0..7 of priorities\n"
		"          0..7; higher classes are served first. 8021q (the default):\n"
		"          1,0,2,3,4,5,6,7 (IEEE 802.1Q); numeric: 0,1,2,3,4,5,6,7\n"
		"ets: the classes named share the link by PERCENT (802.1Qaz ETS,\n"
		"          summing to 100) after the strict ones; off: all strict\n"
		"watchdog: a queue held paused by the partner for MS (100..5000) while it\n"
		"          has packets and sends none is stormed; wd-action says what then\n"
		"          (drop: ignore the partner and drop; forward: ignore and send;\n"
		"          alert: report); restored after wd-restoration (100..60000 ms,\n"
		"          auto = 2 x MS) with no PAUSE/PFC for it.\n"
		"rx on: obey PAUSE received (the partner paused us).\n"
		"tx on: send PAUSE when our queues pass xoff (we pause the partner).\n"
		"tx-storm: our XOFF may hold the partner at most MS (80..8000): then XON,\n"
		"          and no XOFF again until the charge falls below xon.\n"
		"MS: milliseconds, or a time with a unit: 200ms, 1.5s\n"
		"round-trip: the link's round trip in bits (802.1Qbb's delay allowance,\n"
		"          0..65535): added to the derived headroom.\n"
		"tunnel-wire on (tc qdisc add only): the vxlan, geneve or gretap device\n"
		"          is a point-to-point wire to one host; fixed until detached.\n"
		"json: the settings in flowctl -j show's output (FILE, - for stdin), as\n"
		"          these words; what show derives or counts is skipped.\n"
		"Only the settings given change; set needs CAP_NET_ADMIN.\n");
}

static const char *const mode_words[] = {
	[FLOWCTL_MODE_OFF] = "off",
	[FLOWCTL_MODE_PAUSE] = "pause",
	[FLOWCTL_MODE_PFC] = "pfc",
};

static const char *const trust_words[] = {
	[FLOWCTL_TRUST_PCP] = "pcp",
	[FLOWCTL_TRUST_DSCP] = "dscp",
};

static int word_index(const char *arg, const char *const *words, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (words[i] && matches(arg, words[i]))
			return i;
	return -1;
}

static int twice(const char *kw)
{
	fprintf(stderr, "Error: %s given twice\n", kw);
	return EXIT_USAGE;
}

/* The keywords of set, and what each needs after it. */
static const char *const set_words[] = {
	"dev", "mode", "rx", "tx", "pfc-prios", "trust", "speed", "rate",
	"limit", "xoff", "xon", "prio", "quanta", "prio-tc", "ets", "help",
	"watchdog", "wd-restoration", "wd-action", "tx-storm", "tunnel-wire",
	"round-trip", NULL,
};

static const char *const set_needs[] = {
	"a device name",
	"pause, pfc or off",
	"on or off",
	"on or off",
	"priorities 0..7 like 3,4 or 0,3-5, all or none",
	"pcp or dscp",
	"auto, or 1..10000000 Mb/s like 100, 100M, 10G",
	"off, or bit/s like 10000000, 100mbit, 1gbit",
	"bytes 0..4294967295 (k, m, g = x 1024)",
	"bytes 0..4294967295 (k, m, g = x 1024)",
	"bytes 0..4294967295 (k, m, g = x 1024)",
	"PRIO xoff BYTES xon BYTES",
	"quanta 1..65535",
	"eight traffic classes like 1,0,2,3,4,5,6,7, or 8021q or numeric",
	"TC:PERCENT,... summing to 100 (like 0:30,3:50,5:20), or off",
	"",
	"off, or the detection time 100..5000 ms (200, 200ms, 1.5s)",
	"auto (twice the detection), or 100..60000 ms (400, 400ms, 2s)",
	"drop, forward or alert",
	"off, or the longest our XOFF may hold the partner, 80..8000 ms (500, 500ms, 1s)",
	"on or off",
	"bits 0..65535",
};

static const char *const wd_action_words[] = {
	[FLOWCTL_WD_DROP] = "drop",
	[FLOWCTL_WD_FORWARD] = "forward",
	[FLOWCTL_WD_ALERT] = "alert",
};

static const char *const prio_words[] = { "xoff", "xon", NULL };

const char *fc_wd_action_name(uint64_t action)
{
	return action < 3 ? wd_action_words[action] : NULL;
}

int fc_wd_value(int attr, const char *kw, const char *arg, uint64_t *v)
{
	int err, i;

	switch (attr) {
	case FLOWCTL_A_DEV_WD_DETECT_MS:
		if (matches(arg, "off")) {
			*v = 0;
			return 0;
		}
		err = parse_ms(arg, 100, 5000, v);
		if (err)
			return bad_value(kw, arg, err,
					 "off, or the detection time 100..5000 ms (200, 200ms, 1.5s)");
		return 0;
	case FLOWCTL_A_DEV_WD_RESTORE_MS:
		if (matches(arg, "auto")) {
			*v = 0;
			return 0;
		}
		err = parse_ms(arg, 100, 60000, v);
		if (err)
			return bad_value(kw, arg, err,
					 "auto (twice the detection), or 100..60000 ms (400, 400ms, 2s)");
		return 0;
	default:	/* FLOWCTL_A_DEV_WD_ACTION */
		i = word_index(arg, wd_action_words, 3);
		if (i < 0)
			return bad_value(kw, arg, -EINVAL, "drop, forward or alert");
		*v = (uint64_t)i;
		return 0;
	}
}

int fc_set_parse(int argc, char **argv, struct fc_set_req *r)
{
	memset(r, 0, sizeof(*r));
	while (argc > 0) {
		const char *kw, *arg = argc > 1 ? argv[1] : NULL;
		int attr = -1, err = 0, i, k;
		uint64_t v = 0;
		uint32_t u32;
		bool b;

		k = parse_keyword(argv[0], set_words);
		if (k < 0)
			return bad_keyword(argv[0], set_words, k, "set");
		kw = set_words[k];
		if (matches(kw, "help")) {
			usage_set(stdout);
			r->help = true;
			return EXIT_OK;
		}
		if (!arg)
			return missing_value(kw, set_needs[k]);
		if (matches(kw, "prio")) {
			uint32_t xoff = 0, xon = 0;
			bool have_xoff = false, have_xon = false;
			int j;

			err = parse_u64(arg, 0, FLOWCTL_NUM_PRIOS - 1, &v);
			if (err)
				return bad_value("prio", arg, err, "a priority 0..7");
			if (r->prio_have & (1u << v)) {
				fprintf(stderr, "Error: prio %d given twice\n", (int)v);
				return EXIT_USAGE;
			}
			for (j = 2; j < 6; j += 2) {
				const char *w = j < argc ? argv[j] : NULL;
				int pk = w ? parse_keyword(w, prio_words) : KW_UNKNOWN;

				if (pk == 0 && !have_xoff) {
					have_xoff = true;
				} else if (pk == 1 && !have_xon) {
					have_xon = true;
				} else {
					fprintf(stderr, "Error: prio %d needs \"xoff BYTES xon BYTES\"\n",
						(int)v);
					return EXIT_USAGE;
				}
				if (j + 1 >= argc)
					return missing_value(prio_words[pk],
							     set_needs[9]);
				err = parse_bytes(argv[j + 1], pk ? &xon : &xoff);
				if (err)
					return bad_value(prio_words[pk], argv[j + 1], err,
							 "bytes 0..4294967295 (k, m, g = x 1024)");
			}
			r->prio_have |= (uint8_t)(1u << v);
			r->prio_xoff[v] = xoff;
			r->prio_xon[v] = xon;
			argc -= 6;
			argv += 6;
			continue;
		}

		if (matches(kw, "dev")) {
			if (r->dev)
				return twice(kw);
			if (fc_check_dev_name(arg))
				return EXIT_USAGE;
			r->dev = arg;
		} else if (matches(kw, "mode")) {
			attr = FLOWCTL_A_DEV_MODE;
			i = word_index(arg, mode_words, 3);
			if (i < 0)
				return bad_value(kw, arg, -EINVAL, "pause, pfc or off");
			v = (uint64_t)i;
		} else if (matches(kw, "rx") || matches(kw, "tx") ||
			   matches(kw, "tunnel-wire")) {
			attr = matches(kw, "rx") ? FLOWCTL_A_DEV_RX :
			       matches(kw, "tx") ? FLOWCTL_A_DEV_TX :
			       FLOWCTL_A_DEV_TUNNEL_WIRE;
			if (parse_on_off(arg, &b))
				return bad_value(kw, arg, -EINVAL, "on or off");
			v = b;
		} else if (matches(kw, "pfc-prios")) {
			uint8_t mask;

			attr = FLOWCTL_A_DEV_PFC_PRIOS;
			err = parse_prio_list(arg, &mask);
			if (err)
				return bad_value(kw, arg, err,
						 "priorities 0..7 like 3,4 or 0,3-5, all or none");
			v = mask;
		} else if (matches(kw, "trust")) {
			attr = FLOWCTL_A_DEV_TRUST;
			i = word_index(arg, trust_words, 2);
			if (i < 0)
				return bad_value(kw, arg, -EINVAL, "pcp or dscp");
			v = (uint64_t)i;
		} else if (matches(kw, "speed")) {
			attr = FLOWCTL_A_DEV_SPEED;
			if (matches(arg, "auto")) {
				v = 0;
			} else {
				err = parse_speed(arg, &u32);
				if (err)
					return bad_value(kw, arg, err,
							 "auto, or 1..10000000 Mb/s like 100, 100M, 10G");
				v = u32;
			}
		} else if (matches(kw, "rate")) {
			attr = FLOWCTL_A_DEV_RATE;
			if (matches(arg, "off")) {
				v = 0;
			} else {
				err = parse_rate(arg, &v);
				if (err)
					return bad_value(kw, arg, err,
							 "off, or bit/s like 10000000, 100mbit, 1gbit");
			}
		} else if (matches(kw, "limit") || matches(kw, "xoff") ||
			   matches(kw, "xon")) {
			attr = matches(kw, "limit") ? FLOWCTL_A_DEV_LIMIT :
			       matches(kw, "xoff") ? FLOWCTL_A_DEV_XOFF :
			       FLOWCTL_A_DEV_XON;
			err = parse_bytes(arg, &u32);
			if (err)
				return bad_value(kw, arg, err,
						 "bytes 0..4294967295 (k, m, g = x 1024)");
			v = u32;
		} else if (matches(kw, "ets")) {
			attr = FLOWCTL_A_DEV_TC_BW;
			err = parse_ets(arg, &v);
			if (err)
				return bad_value(kw, arg, err,
						 "TC:PERCENT,... with classes 0..7 once each and shares 1..100 summing to 100, like 0:30,3:50,5:20; or off");
		} else if (matches(kw, "watchdog")) {
			attr = FLOWCTL_A_DEV_WD_DETECT_MS;
			if (fc_wd_value(attr, kw, arg, &v))
				return EXIT_USAGE;
		} else if (matches(kw, "wd-restoration")) {
			attr = FLOWCTL_A_DEV_WD_RESTORE_MS;
			if (fc_wd_value(attr, kw, arg, &v))
				return EXIT_USAGE;
		} else if (matches(kw, "wd-action")) {
			attr = FLOWCTL_A_DEV_WD_ACTION;
			if (fc_wd_value(attr, kw, arg, &v))
				return EXIT_USAGE;
		} else if (matches(kw, "tx-storm")) {
			attr = FLOWCTL_A_DEV_TX_STORM_MS;
			if (matches(arg, "off")) {
				v = 0;
			} else {
				err = parse_ms(arg, 80, 8000, &v);
				if (err)
					return bad_value(kw, arg, err,
							 "off, or the longest our XOFF may hold the partner, 80..8000 ms (500, 500ms, 1s)");
			}
		} else if (matches(kw, "round-trip")) {
			attr = FLOWCTL_A_DEV_PFC_DELAY;
			err = parse_u64(arg, 0, 65535, &v);
			if (err)
				return bad_value(kw, arg, err,
						 "bits 0..65535 (802.1Qbb's delay allowance)");
		} else if (matches(kw, "prio-tc")) {
			attr = FLOWCTL_A_DEV_PRIO_TC;
			err = parse_prio_tc(arg, &u32);
			if (err)
				return bad_value(kw, arg, err,
						 "eight traffic classes 0..7, one per priority, like 1,0,2,3,4,5,6,7; or 8021q or numeric");
			v = u32;
		} else {	/* quanta */
			attr = FLOWCTL_A_DEV_QUANTA;
			err = parse_u64(arg, 1, 65535, &v);
			if (err)
				return bad_value(kw, arg, err, "quanta 1..65535 (0 would make every XOFF an XON)");
		}
		if (attr >= 0) {
			if (FC_HAS(r->have, attr))
				return twice(kw);
			r->have |= 1ull << attr;
			r->v[attr] = v;
		}
		argc -= 2;
		argv += 2;
	}
	if (!r->dev) {
		fprintf(stderr, "Error: set needs dev DEV\n");
		usage_set(stderr);
		return EXIT_USAGE;
	}
	if (!r->have && !r->prio_have) {
		fprintf(stderr, "Error: nothing to set on %s\n", r->dev);
		usage_set(stderr);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

void fc_set_build(struct nlmsghdr *nlh, const struct fc_set_req *r)
{
	mnl_attr_put_strz(nlh, FLOWCTL_A_DEV_IFNAME, r->dev);
	fc_set_build_opts(nlh, r);
}

void fc_set_build_opts(struct nlmsghdr *nlh, const struct fc_set_req *r)
{
	static const struct { int attr; int width; } order[] = {
		{ FLOWCTL_A_DEV_MODE, 1 }, { FLOWCTL_A_DEV_RX, 1 },
		{ FLOWCTL_A_DEV_TX, 1 }, { FLOWCTL_A_DEV_PFC_PRIOS, 1 },
		{ FLOWCTL_A_DEV_TRUST, 1 }, { FLOWCTL_A_DEV_SPEED, 4 },
		{ FLOWCTL_A_DEV_RATE, 8 }, { FLOWCTL_A_DEV_LIMIT, 4 },
		{ FLOWCTL_A_DEV_XOFF, 4 }, { FLOWCTL_A_DEV_XON, 4 },
		{ FLOWCTL_A_DEV_QUANTA, 2 }, { FLOWCTL_A_DEV_PRIO_TC, 4 },
		{ FLOWCTL_A_DEV_TC_BW, 0 }, { FLOWCTL_A_DEV_WD_DETECT_MS, 4 },
		{ FLOWCTL_A_DEV_WD_RESTORE_MS, 4 }, { FLOWCTL_A_DEV_WD_ACTION, 1 },
		{ FLOWCTL_A_DEV_TX_STORM_MS, 4 }, { FLOWCTL_A_DEV_TUNNEL_WIRE, 1 },
		{ FLOWCTL_A_DEV_PFC_DELAY, 2 },
	};
	size_t i;
	int p;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int a = order[i].attr;
		uint64_t v = r->v[a];

		if (!FC_HAS(r->have, a))
			continue;
		switch (order[i].width) {
		case 1:
			mnl_attr_put_u8(nlh, (uint16_t)a, (uint8_t)v);
			break;
		case 2:
			mnl_attr_put_u16(nlh, (uint16_t)a, (uint16_t)v);
			break;
		case 4:
			mnl_attr_put_u32(nlh, (uint16_t)a, (uint32_t)v);
			break;
		case 0: {	/* eight bytes, byte n = bits 8n..8n+7 of v */
			uint8_t bytes[8];
			int k;

			for (k = 0; k < 8; k++)
				bytes[k] = (uint8_t)(v >> (8 * k));
			mnl_attr_put(nlh, (uint16_t)a, sizeof(bytes), bytes);
			break;
		}
		default:
			mnl_attr_put_u64(nlh, (uint16_t)a, v);
		}
	}
	for (p = 0; p < FLOWCTL_NUM_PRIOS; p++) {
		struct nlattr *nest;

		if (!(r->prio_have & (1u << p)))
			continue;
		nest = mnl_attr_nest_start(nlh, FLOWCTL_A_DEV_PRIO);
		mnl_attr_put_u8(nlh, FLOWCTL_A_PRIO_PRIO, (uint8_t)p);
		mnl_attr_put_u32(nlh, FLOWCTL_A_PRIO_XOFF, r->prio_xoff[p]);
		mnl_attr_put_u32(nlh, FLOWCTL_A_PRIO_XON, r->prio_xon[p]);
		mnl_attr_nest_end(nlh, nest);
	}
}

