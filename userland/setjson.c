// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl set dev DEV json FILE: the configuration keys of "flowctl -j show"
 * given back. Each becomes set's words and goes through set's own parser,
 * so the one validator judges them. What show works out or counts (the
 * speed in force, headroom, the priorities' state and in-force thresholds,
 * counters) is skipped, and so is tunnel_wire (tc qdisc add's alone); a key
 * show does not print, or a value of the wrong type, is refused before
 * anything is sent.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "flowctl.h"
#include "set.h"

enum kind { K_STR, K_ON_OFF, K_NUM, K_PRIOS, K_PRIO_TC, K_TC_BW };

static const struct key {
	const char *key;
	const char *word;
	enum kind kind;
	const char *zero;	/* K_NUM: the word for 0, if it has one */
	const char *unit;	/* K_NUM: appended to the number */
} keys[] = {
	{ "mode", "mode", K_STR, NULL, NULL },
	{ "rx", "rx", K_ON_OFF, NULL, NULL },
	{ "tx", "tx", K_ON_OFF, NULL, NULL },
	{ "pfc_prios", "pfc-prios", K_PRIOS, NULL, NULL },
	{ "trust", "trust", K_STR, NULL, NULL },
	{ "speed_config_mbps", "speed", K_NUM, "auto", "" },
	{ "rate_bps", "rate", K_NUM, "off", "" },
	{ "limit_bytes", "limit", K_NUM, NULL, "" },
	{ "xoff_bytes", "xoff", K_NUM, NULL, "" },
	{ "xon_bytes", "xon", K_NUM, NULL, "" },
	{ "quanta", "quanta", K_NUM, NULL, "" },
	{ "prio_tc", "prio-tc", K_PRIO_TC, NULL, NULL },
	{ "tc_bw", "ets", K_TC_BW, NULL, NULL },
	{ "wd_detect_ms", "watchdog", K_NUM, "off", "ms" },
	{ "wd_restore_ms", "wd-restoration", K_NUM, "auto", "ms" },
	{ "wd_action", "wd-action", K_STR, NULL, NULL },
	{ "tx_storm_ms", "tx-storm", K_NUM, "off", "ms" },
	{ "round_trip_bits", "round-trip", K_NUM, NULL, "" },
};

/* What show prints and set does not take. */
static const char *const skipped[] = {
	"ifname", "ifindex", "address", "speed_mbps", "speed_source",
	"headroom_bytes", "quanta_ns", "partner_mac", "tunnel_wire",
	"dscp_prio", "doors", "dcbx_partner", "stats", "nic", "prio", "queues",
	NULL,
};

#define MAX_WORDS	(2 + 2 * (sizeof(keys) / sizeof(keys[0])))
#define WORD_LEN	64

static bool is_skipped(const char *k)
{
	int i;

	for (i = 0; skipped[i]; i++)
		if (!strcmp(k, skipped[i]))
			return true;
	return false;
}

static int bad(const char *key, const char *want)
{
	fprintf(stderr, "Error: json: \"%s\" must be %s\n", key, want);
	return EXIT_USAGE;
}

/*
 * A whole number 0..2^53 (the file is read with every number a double:
 * show's counters may pass jansson's int64), into *v.
 */
static int whole(json_t *e, uint64_t max, uint64_t *v)
{
	double d;

	if (!json_is_number(e))
		return -1;
	d = json_number_value(e);
	if (!(d >= 0) || d > 9007199254740992.0 || d != (double)(uint64_t)d ||
	    d > (double)max)
		return -1;
	*v = (uint64_t)d;
	return 0;
}

/* An array of N (any up to 8 when 0) whole numbers 0..MAX, into v[]. */
static int int_array(json_t *a, size_t n, uint64_t max, uint64_t *v, size_t *len)
{
	size_t i;
	json_t *e;

	if (!json_is_array(a) || (n && json_array_size(a) != n) ||
	    json_array_size(a) > 8)
		return -1;
	json_array_foreach(a, i, e)
		if (whole(e, max, &v[i]))
			return -1;
	*len = json_array_size(a);
	return 0;
}

/* v[0..n) as "a,b,c" into w. */
static void join(char *w, const uint64_t *v, size_t n)
{
	size_t i, o = 0;

	w[0] = '\0';
	for (i = 0; i < n; i++)
		o += (size_t)snprintf(w + o, WORD_LEN - o, "%s%" PRIu64, i ? "," : "", v[i]);
}

static int value_word(const struct key *k, json_t *val, char *w)
{
	uint64_t v[8];
	size_t n, i, o = 0;

	switch (k->kind) {
	case K_STR:
		if (!json_is_string(val))
			return bad(k->key, "a string");
		snprintf(w, WORD_LEN, "%s", json_string_value(val));
		return 0;
	case K_ON_OFF:
		if (!json_is_boolean(val))
			return bad(k->key, "true or false");
		snprintf(w, WORD_LEN, "%s", json_is_true(val) ? "on" : "off");
		return 0;
	case K_NUM:
		if (whole(val, UINT64_MAX, &v[0]))
			return bad(k->key, "a whole number 0 or more");
		if (!v[0] && k->zero)
			snprintf(w, WORD_LEN, "%s", k->zero);
		else
			snprintf(w, WORD_LEN, "%" PRIu64 "%s", v[0], k->unit);
		return 0;
	case K_PRIOS:
		if (int_array(val, 0, 7, v, &n))
			return bad(k->key, "an array of priorities 0..7");
		if (n)
			join(w, v, n);
		else
			snprintf(w, WORD_LEN, "none");
		return 0;
	case K_PRIO_TC:
		if (int_array(val, 8, 7, v, &n))
			return bad(k->key, "an array of eight traffic classes 0..7");
		join(w, v, n);
		return 0;
	case K_TC_BW:
		if (int_array(val, 8, 100, v, &n))
			return bad(k->key, "an array of eight percentages 0..100");
		for (i = 0; i < n; i++)
			if (v[i])
				o += (size_t)snprintf(w + o, WORD_LEN - o,
						      "%s%zu:%" PRIu64,
						      o ? "," : "", i, v[i]);
		if (!o)
			snprintf(w, WORD_LEN, "off");
		return 0;
	}
	return EXIT_USAGE;
}

int fc_set_json(const char *dev, json_t *root, struct fc_set_req *r)
{
	static char buf[MAX_WORDS][WORD_LEN];
	char *argv[MAX_WORDS];
	json_t *obj = root, *val;
	const char *key;
	int argc = 0, ret;
	size_t i;

	if (json_is_array(root)) {
		if (json_array_size(root) != 1) {
			fprintf(stderr, "Error: json: %zu ports in the file; give one (flowctl -j show dev %s)\n",
				json_array_size(root), dev);
			return EXIT_USAGE;
		}
		obj = json_array_get(root, 0);
	}
	if (!json_is_object(obj)) {
		fprintf(stderr, "Error: json: not a port's object (flowctl -j show dev %s)\n", dev);
		return EXIT_USAGE;
	}
	json_object_foreach(obj, key, val) {
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(key, keys[i].key))
				break;
		if (i == sizeof(keys) / sizeof(keys[0])) {
			if (is_skipped(key))
				continue;
			fprintf(stderr, "Error: json: unknown key \"%s\" (the keys of flowctl -j show)\n",
				key);
			return EXIT_USAGE;
		}
	}
	argv[argc++] = "dev";
	argv[argc++] = (char *)dev;
	/* In set's order, whatever the file's. */
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		val = json_object_get(obj, keys[i].key);
		if (!val)
			continue;
		ret = value_word(&keys[i], val, buf[argc + 1]);
		if (ret)
			return ret;
		snprintf(buf[argc], WORD_LEN, "%s", keys[i].word);
		argv[argc] = buf[argc];
		argv[argc + 1] = buf[argc + 1];
		argc += 2;
	}
	if (argc == 2) {
		fprintf(stderr, "Error: json: no setting in the file\n");
		return EXIT_USAGE;
	}
	return fc_set_parse(argc, argv, r);
}

int fc_set_json_file(const char *dev, const char *path, struct fc_set_req *r)
{
	json_error_t e;
	json_t *root;
	int ret;

	root = strcmp(path, "-") ?
	       json_load_file(path, JSON_DECODE_INT_AS_REAL, &e) :
	       json_loadf(stdin, JSON_DECODE_INT_AS_REAL, &e);
	if (!root) {
		fprintf(stderr, "Error: json: %s:%d: %s\n",
			strcmp(path, "-") ? path : "stdin", e.line, e.text);
		return EXIT_USAGE;
	}
	ret = fc_set_json(dev, root, r);
	json_decref(root);
	return ret;
}
