// SPDX-License-Identifier: GPL-2.0
/*
 * What show, stats and monitor print for synthetic kernel replies. The C
 * side checks the text wording and writes the JSON into OUTDIR; then
 * check_json.py checks the JSON's keys and types (run.sh runs both).
 *
 * usage: test_json OUTDIR
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ktap.h"
#include "synth.h"
#include "dev.h"
#include "monitor.h"
#include "print.h"
#include "send.h"
#include "dcbx_agent.h"
#include "show.h"
#include "set.h"
#include "flowctl.h"
#include "waitfor.h"
#include "doctor.h"

static char buf_full[16384] __attribute__((aligned(8)));
static char buf_sparse[4096] __attribute__((aligned(8)));
static char buf_ev[1024] __attribute__((aligned(8)));

static struct fc_dev_list devs;
static struct fc_doc_nic nic;

static void load(void)
{
	struct nlmsghdr *nlh;

	devs.cap = 2;
	devs.dev = calloc(2, sizeof(*devs.dev));
	nlh = synth_full_dev(buf_full, 1, 0);
	ktap_ok(fc_dev_parse(nlh, &devs.dev[0]) == 0, "parse: a full DEV_GET reply");
	nlh = synth_sparse_dev(buf_sparse, 1, 0);
	ktap_ok(fc_dev_parse(nlh, &devs.dev[1]) == 0, "parse: a sparse DEV_GET reply");
	devs.n = 2;
	fc_dev_list_sort(&devs);
	/* show reads the port's own MAC beside the reply; the full one has one. */
	devs.dev[1].hwaddr = 0x02005e1020a1ULL;
	/* and, with counters, what its driver says (an Intel NIC's defaults
	 * after ethtool -K rx-all on, with a NIC PFC on 3 and 4).
	 */
	nic.pause_autoneg = true;
	nic.pause_rx = true;
	nic.pause_tx = true;
	nic.have_rx_frames[0] = nic.have_tx_frames[0] = true;
	nic.rx_frames[0] = 7;
	nic.tx_frames[0] = 9;
	nic.rx_all_offered = nic.rx_all_on = true;
	nic.have_pfc = true;
	nic.pfc_cap = 8;
	nic.pfc_en = 0x18;
	nic.have_pfc_counts = true;
	nic.pfc_requests[3] = 10;
	nic.pfc_indications[4] = 2;
	devs.dev[1].nic = &nic;
}

static void test_parsed(void)
{
	const struct fc_dev *d = &devs.dev[1];	/* after the sort: ifindex 7 */
	const struct fc_dev *s = &devs.dev[0];
	int p;
	bool ok = true;

	KTAP_EQ_U64(s->v[FLOWCTL_A_DEV_IFINDEX], 3, "sort: by ifindex, eth1 (3) first");
	KTAP_EQ_STR(d->ifname, "veth0", "parse: ifname");
	KTAP_EQ_U64(d->v[FLOWCTL_A_DEV_QUANTA], 65535, "parse: u16 quanta");
	KTAP_EQ_U64(d->stats[FLOWCTL_A_STATS_RX_PFC], 40, "parse: u64 behind a PAD in the stats nest");
	ktap_ok(!FC_HAS(d->have, FLOWCTL_A_DEV_PAD) && !FC_HAS(d->stats_have, FLOWCTL_A_STATS_PAD),
		"parse: PAD attributes are not values");
	for (p = 0; p < FLOWCTL_NUM_PRIOS; p++)
		if (d->prio[p].v[FLOWCTL_A_PRIO_PRIO] != (uint64_t)p ||
		    d->prio[p].v[FLOWCTL_A_PRIO_RX_PFC] != 10 + (uint64_t)p)
			ok = false;
	ktap_ok(ok, "parse: priority nests land by their PRIO, whatever the order");
	KTAP_EQ_U64(d->prio[3].v[FLOWCTL_A_PRIO_TX_BYTES], SYNTH_TX_BYTES_3,
		    "parse: all 64 bits of a u64");
	ktap_ok(!FC_HAS(s->have, FLOWCTL_A_DEV_RX) && !s->stats_have && !s->prio[0].have,
		"parse: absent attributes stay absent");
}

/* Print with the given mode into a string (caller frees). */
static char *render(bool json, bool pretty, unsigned int what, const struct fc_dev_list *l)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	print_init(json, pretty, f);
	fc_print_devs(l, what);
	fclose(f);
	print_init(false, false, stdout);
	return s;
}

static void save(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* The settings show prints, as set's parser asked for them. */
static const int round_trip_attrs[] = {
	FLOWCTL_A_DEV_MODE, FLOWCTL_A_DEV_RX, FLOWCTL_A_DEV_TX,
	FLOWCTL_A_DEV_PFC_PRIOS, FLOWCTL_A_DEV_TRUST, FLOWCTL_A_DEV_SPEED,
	FLOWCTL_A_DEV_RATE, FLOWCTL_A_DEV_LIMIT, FLOWCTL_A_DEV_XOFF,
	FLOWCTL_A_DEV_XON, FLOWCTL_A_DEV_QUANTA, FLOWCTL_A_DEV_PRIO_TC,
	FLOWCTL_A_DEV_TC_BW, FLOWCTL_A_DEV_WD_DETECT_MS,
	FLOWCTL_A_DEV_WD_RESTORE_MS, FLOWCTL_A_DEV_WD_ACTION,
	FLOWCTL_A_DEV_TX_STORM_MS, FLOWCTL_A_DEV_PFC_DELAY,
};

/* The first attribute of D that R does not ask for with D's value, or -1. */
static int round_trip_off(const struct fc_dev *d, const struct fc_set_req *r)
{
	size_t i;

	for (i = 0; i < sizeof(round_trip_attrs) / sizeof(round_trip_attrs[0]); i++) {
		int a = round_trip_attrs[i];

		if (!FC_HAS(d->have, a))
			continue;
		if (!(r->have & (1ULL << a)) || r->v[a] != d->v[a])
			return a;
	}
	return -1;
}

/*
 * Show's config line goes back in: its words, given to set's parser as
 * they are, ask for exactly the configuration they were printed from.
 */
static void test_round_trip(const char *t)
{
	const struct fc_dev *d = &devs.dev[1];	/* veth0, after the sort */
	const char *p = strstr(t, "veth0: ");
	char line[1024], *argv[128], *save = NULL, *w;
	struct fc_set_req r;
	int argc = 0, rc, bad;
	size_t n;

	ktap_ok(p != NULL, "round trip: veth0's config line");
	if (!p)
		return;
	p += strlen("veth0: ");
	n = strcspn(p, "\n");
	snprintf(line, sizeof(line), "%.*s", (int)n, p);
	argv[argc++] = "dev";
	argv[argc++] = "veth0";
	for (w = strtok_r(line, " ", &save); w && argc < 127; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	rc = fc_set_parse(argc, argv, &r);
	ktap_ok(rc == EXIT_OK, "round trip: set's parser takes show's line as it is (%d words)", argc);
	bad = round_trip_off(d, &r);
	ktap_ok(rc == EXIT_OK && bad < 0,
		"round trip: every setting comes back with its value (first off: attribute %d)", bad);
}

/*
 * The same for flowctl -j show's object: set dev DEV json FILE takes it as
 * it is, counters, state and derived keys included.
 */
static void test_json_round_trip(const char *j)
{
	const struct fc_dev *d = &devs.dev[1];
	json_error_t e;
	json_t *root = json_loads(j, JSON_DECODE_INT_AS_REAL, &e), *obj, *one;
	struct fc_set_req r;
	int rc = -1, bad = -1;

	obj = root ? json_array_get(root, 1) : NULL;
	ktap_ok(obj && !strcmp(json_string_value(json_object_get(obj, "ifname")), "veth0"),
		"json round trip: veth0's object");
	if (!obj) {
		json_decref(root);
		return;
	}
	one = json_array();
	json_array_append(one, obj);
	rc = fc_set_json("veth0", one, &r);
	bad = rc == EXIT_OK ? round_trip_off(d, &r) : -1;
	ktap_ok(rc == EXIT_OK && bad < 0,
		"json round trip: set dev veth0 json takes show -j's array of one port, every setting with its value (first off: attribute %d)",
		bad);
	ktap_ok(rc == EXIT_OK && !strcmp(r.dev, "veth0") && !r.prio_have,
		"json round trip: the device named, no per-priority thresholds (show's are those in force)");
	rc = fc_set_json("veth0", root, &r);
	ktap_ok(rc == EXIT_USAGE, "json: a file of several ports is refused");
	json_object_set_new(obj, "xoff_bytes", json_string("60000"));
	rc = fc_set_json("veth0", one, &r);
	ktap_ok(rc == EXIT_USAGE, "json: a size given as a string is refused");
	json_object_set_new(obj, "xoff_bytes", json_real(1.5));
	rc = fc_set_json("veth0", one, &r);
	ktap_ok(rc == EXIT_USAGE, "json: a size that is not whole is refused");
	json_object_set_new(obj, "xoff_bytes", json_integer(60000));
	json_object_set_new(obj, "xof_bytes", json_integer(1));
	rc = fc_set_json("veth0", one, &r);
	ktap_ok(rc == EXIT_USAGE, "json: a key show does not print is refused");
	json_decref(one);
	json_decref(root);
}

static void test_text(void)
{
	char *t = render(false, false, FC_SHOW_CONFIG | FC_SHOW_STATE, &devs);
	char *ts = render(false, false, FC_SHOW_ALL, &devs);
	char *st = render(false, false, FC_SHOW_COUNTERS, &devs);

	printf("# show text:\n");
	{
		char *line, *save_ptr, *copy = strdup(ts);

		for (line = strtok_r(copy, "\n", &save_ptr); line;
		     line = strtok_r(NULL, "\n", &save_ptr))
			printf("#   %s\n", line);
		free(copy);
	}
	ktap_ok(strstr(t, "veth0: mode pfc rx on tx off pfc-prios 3,4 trust pcp speed 100Mb/s rate off "
			  "limit 1000000B xoff 60000B xon 30000B quanta 65535 prio-tc 1,0,2,3,4,5,6,7 "
			  "ets 0:30,3:50,5:20 watchdog 200ms wd-restoration auto wd-action drop "
			  "tx-storm 500ms round-trip 4096\n") != NULL,
		"text: the config line is set's words alone");
	ktap_ok(strstr(t, "\n  in force: speed 100Mb/s (config) headroom 20000B "
			  "quanta last 335.5 ms at 100Mb/s dscp-prio 26:3 48:6\n") != NULL,
		"text: what is in force (speed, headroom, the quanta's time, the DSCP map) on its own line");
	test_round_trip(t);
	ktap_ok(strstr(t, "quanta 65535") && strstr(t, "xoff 60000B xon 30000B"),
		"text: thresholds and quanta");
	ktap_ok(strstr(t, "\n  dcbx partner 02:00:00:00:dc:02: pfc-prios 3 (willing) "
			  "prio-tc 0,0,0,3,0,0,0,0 ets 0:40,3:60 ets-reco prio-tc "
			  "0,0,0,0,0,0,0,0 ets 0:100 app dscp-prio 26:3 ethtype-prio 0x8915:3 "
			  "(117 s left)\n") != NULL,
		"text: the DCBX partner's TLVs on a line of their own");
	ktap_ok(strstr(t, "prio 3: paused by the partner for 2 ms, 12.35 ms left") != NULL,
		"text: a paused priority shows the time left");
	ktap_ok(strstr(t, "prio 4: pausing the partner (XOFF sent)") != NULL,
		"text: a priority in XOFF says we pause the partner");
	ktap_ok(strstr(t, "prio 0: running") != NULL, "text: an idle priority runs");
	ktap_ok(strstr(t, "eth1: mode pause\n  in force: speed none (no pause: unknown speed or half duplex)\n") != NULL,
		"text: a sparse port prints only what it has");
	ktap_ok(!strstr(t, "received:") && !strstr(t, "rx_pause"),
		"text: no counters without -s");
	ktap_ok(strstr(ts, "received: pause 12 xon 3 pfc 40 (rx: the partner is congested and paused us)") != NULL,
		"text -s: received counters say the partner paused us");
	ktap_ok(strstr(ts, "sent: pause 0 xon 0 pfc 5 storm-warning 2 storm-error 1 (tx: we are congested and paused the partner)") != NULL,
		"text -s: sent counters say we paused the partner");
	ktap_ok(strstr(ts, "rx: pfc 13 pfc-xon 23 episodes 3 paused-total 3 s") != NULL,
		"text -s: per-priority rx counters");
	ktap_ok(strstr(ts, "sent 53 packets 9223372036854775813B dropped 73") != NULL,
		"text -s: per-priority queue counters, 64-bit");
	{
		const char *at = strstr(ts, "  nic: mac pause autoneg on rx on tx on (frames rx 7 tx 9); rx-all on; nic pfc 3 4 (frames 3: sent 10 received 0 4: sent 0 received 2)\n");

		ktap_ok(at && !strstr(at + 1, "  nic:") && strstr(ts, "  nic:") == at,
			"text -s: the driver's own pause, its counters, rx-all and the NIC's PFC with its frames, for the port it was read for");
	}
	ktap_ok(strstr(st, "veth0:\n") && !strstr(st, "mode pfc") && strstr(st, "received: pause 12"),
		"text stats: counters without the config");
	free(t);
	free(ts);
	free(st);
}

/*
 * A ring of three switches S1..S3: Si's cw port is paused on priority 3 by
 * S(i+1)'s ccw port, which holds XOFF because its bytes wait in S(i+1)'s
 * cw. ccw_xoff clears one XOFF: no cycle then.
 */
static int ring(struct fc_wf_port *w, int ccw_xoff_off, char **out)
{
	static const char *const ns[] = { "S1", "S2", "S3" };
	size_t n = 0;
	FILE *f;
	int i, found;

	memset(w, 0, 6 * sizeof(*w));
	for (i = 0; i < 3; i++) {
		struct fc_wf_port *cw = &w[i], *ccw = &w[3 + (i + 1) % 3];
		struct fc_prio *p = &cw->d.prio[3];

		cw->ns = ns[i];
		cw->node = i;
		snprintf(cw->d.ifname, sizeof(cw->d.ifname), "cw");
		cw->mac = 0x020000000010ULL + (uint64_t)i;
		p->have = 1u << FLOWCTL_A_PRIO_PRIO | 1u << FLOWCTL_A_PRIO_PAUSED |
			  1u << FLOWCTL_A_PRIO_BACKLOG_BYTES;
		p->v[FLOWCTL_A_PRIO_PRIO] = 3;
		p->v[FLOWCTL_A_PRIO_PAUSED] = 1;
		p->v[FLOWCTL_A_PRIO_BACKLOG_BYTES] = 1000 * (uint64_t)(i + 1);
		cw->d.have = 1u << FLOWCTL_A_DEV_PARTNER_MAC;
		cw->d.v[FLOWCTL_A_DEV_PARTNER_MAC] = 0x020000000020ULL + (uint64_t)(i + 1) % 3;
		ccw->ns = ns[(i + 1) % 3];
		ccw->node = (i + 1) % 3;
		snprintf(ccw->d.ifname, sizeof(ccw->d.ifname), "ccw");
		ccw->mac = 0x020000000020ULL + (uint64_t)(i + 1) % 3;
		ccw->d.prio[3].have = 1u << FLOWCTL_A_PRIO_PRIO | 1u << FLOWCTL_A_PRIO_XOFF_ACTIVE;
		ccw->d.prio[3].v[FLOWCTL_A_PRIO_PRIO] = 3;
		ccw->d.prio[3].v[FLOWCTL_A_PRIO_XOFF_ACTIVE] = (i + 1) % 3 != ccw_xoff_off;
	}
	f = open_memstream(out, &n);
	print_init(false, false, f);
	found = fc_waitfor_print(w, 6, 3, 0);
	fclose(f);
	print_init(false, false, stdout);
	return found;
}

static void test_waitfor(const char *dir)
{
	struct fc_wf_port w[6];
	char *t = NULL, *j = NULL;
	size_t n = 0;
	FILE *f;

	KTAP_EQ_U64(ring(w, -1, &t), 1, "waitfor: a ring of three held ports is one cycle, found once");
	ktap_ok(strstr(t, "wait-for cycle on priority 3:\n  S1/cw (1000 bytes queued) is paused by S2/ccw, whose bytes wait in S2/cw\n") &&
		strstr(t, "  S3/cw (3000 bytes queued) is paused by S1/ccw, whose bytes wait in S1/cw\n"),
		"waitfor: each wait names the port, its partner and where the partner's bytes wait");
	printf("# %s", t);
	free(t);
	t = NULL;
	KTAP_EQ_U64(ring(w, 1, &t), 0, "waitfor: one partner not in XOFF breaks the cycle");
	ktap_ok(strstr(t, "no wait-for cycle among 6 flowctl ports in 3 namespaces") != NULL,
		"waitfor: says so when there is none");
	free(t);
	ring(w, -1, &t);
	free(t);
	f = open_memstream(&j, &n);
	print_init(true, false, f);
	fc_waitfor_print(w, 6, 3, 0);
	fclose(f);
	print_init(false, false, stdout);
	save(dir, "waitfor.json", j);
	free(j);
}

/*
 * The ring again with each switch on a machine of its own: what its
 * flowctl -j show prints, read back by waitfor's file reader. Returns the
 * cycles found (the report in *out), or -1 when a host did not parse.
 */
static int hosts_ring(int ccw_xoff_off, bool json, char **out, size_t *nports)
{
	static const char *const label[] = { "S1", "S2", "S3" };
	struct fc_wf_set set = { 0 };
	struct fc_wf_port w[6];
	char err[256], *t = NULL;
	int i, k, found = 0;
	size_t n = 0;
	FILE *f;

	ring(w, ccw_xoff_off, &t);
	free(t);
	for (i = 0; i < 3; i++) {
		struct fc_dev d[2];
		struct fc_dev_list l = { .dev = d };
		char *j;

		for (k = 0; k < 6; k++)
			if (!strcmp(w[k].ns, label[i])) {
				d[l.n] = w[k].d;
				d[l.n].hwaddr = w[k].mac;
				d[l.n].have |= 1u << FLOWCTL_A_DEV_IFNAME;
				l.n++;
			}
		j = render(true, i == 1, FC_SHOW_ALL, &l);
		if (fc_wf_parse_show(&set, j, strlen(j), label[i], i, err, sizeof(err))) {
			printf("# %s: %s\n", label[i], err);
			found = -1;
		}
		free(j);
	}
	*nports = set.n;
	if (!found) {
		f = open_memstream(out, &n);
		print_init(json, false, f);
		found = fc_waitfor_print(set.p, set.n, 0, 3);
		fclose(f);
		print_init(false, false, stdout);
	}
	free(set.p);
	return found;
}

static void test_waitfor_hosts(const char *dir)
{
	static const struct {
		const char *json, *err;
	} bad[] = {
		{ "[{\"ifname\": \"cw\"", "line 1 column" },
		{ "{\"ifname\": \"cw\"}", "a JSON array of ports" },
		{ "[7]", "port 0 is not a JSON object" },
		{ "[{\"ifindex\": 3}]", "port 0 has no \"ifname\"" },
		{ "[{\"ifname\": \"a-name-longer-than-ifnamsiz\"}]", "port 0 has no \"ifname\"" },
		{ "[{\"ifname\": \"cw\"}]", "has no \"address\" (its own MAC): the device has none, or an older flowctl" },
		{ "[{\"ifname\": \"cw\", \"address\": \"02:00:00:00:00\"}]",
		  "\"address\" is not a MAC address" },
		{ "[{\"ifname\": \"cw\", \"address\": \"02:00:00:00:00:01\", \"partner_mac\": 5}]",
		  "\"partner_mac\" is not a MAC address" },
		{ "[{\"ifname\": \"cw\", \"address\": \"02:00:00:00:00:01\", \"prio\": {}}]",
		  "\"prio\" is not an array" },
		{ "[{\"ifname\": \"cw\", \"address\": \"02:00:00:00:00:01\", \"prio\": [{\"paused\": true}]}]",
		  "prio entry 0 has no \"prio\" number" },
		{ "[{\"ifname\": \"cw\", \"address\": \"02:00:00:00:00:01\", \"prio\": [{\"prio\": 8}]}]",
		  "priority 8 is not 0-7" },
		{ "[{\"ifname\": \"cw\", \"address\": \"02:00:00:00:00:01\", \"prio\": [{\"prio\": 3}, {\"prio\": 3}]}]",
		  "priority 3 twice" },
		{ "[{\"ifname\": \"cw\", \"address\": \"02:00:00:00:00:01\", \"prio\": [{\"prio\": 3, \"paused\": 1}]}]",
		  "\"paused\" is not true or false" },
		{ "[{\"ifname\": \"cw\", \"address\": \"02:00:00:00:00:01\", \"prio\": [{\"prio\": 3, \"backlog_bytes\": -1}]}]",
		  "\"backlog_bytes\" is not a count" },
		/* One good port, then a bad one: neither is kept. */
		{ "[{\"ifname\": \"ok\", \"address\": \"02:00:00:00:00:02\"}, {\"ifname\": \"cw\", \"address\": \"x\"}]",
		  "port 1 (cw): \"address\" is not a MAC address" },
	};
	struct fc_wf_set set = { 0 };
	char *t = NULL, *j = NULL, err[256];
	size_t np = 0, i;

	KTAP_EQ_U64(hosts_ring(-1, false, &t, &np), 1,
		    "waitfor file: three hosts' flowctl -j show, read back, hold the ring's one cycle");
	KTAP_EQ_U64(np, 6, "waitfor file: every port of the three hosts was read");
	ktap_ok(t && strstr(t, "  S1/cw (1000 bytes queued) is paused by S2/ccw, whose bytes wait in S2/cw\n") &&
		strstr(t, "  S3/cw (3000 bytes queued) is paused by S1/ccw, whose bytes wait in S1/cw\n"),
		"waitfor file: the cycle names each host's ports, as from namespaces");
	free(t);
	t = NULL;
	KTAP_EQ_U64(hosts_ring(1, false, &t, &np), 0,
		    "waitfor file: one host's port out of XOFF breaks the cycle");
	ktap_ok(t && strstr(t, "no wait-for cycle among 6 flowctl ports in 0 namespaces and 3 hosts") != NULL,
		"waitfor file: says so, counting the hosts");
	free(t);
	hosts_ring(-1, true, &j, &np);
	ktap_ok(j && strstr(j, "\"hosts\":3") && strstr(j, "\"host\":\"S1\"") &&
		strstr(j, "\"paused_by_host\":\"S2\"") && !strstr(j, "\"netns\""),
		"waitfor file -j: ports are named by host, not netns");
	save(dir, "waitfor-hosts.json", j);
	free(j);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = fc_wf_parse_show(&set, bad[i].json, strlen(bad[i].json), "h", 0,
					 err, sizeof(err));

		ktap_ok(r == -1 && set.n == 0 && strstr(err, bad[i].err),
			"waitfor file: %s is refused (%s), nothing kept", bad[i].json, err);
	}
	KTAP_EQ_U64(fc_wf_parse_show(&set, "[]", 2, "h", 0, err, sizeof(err)), 0,
		    "waitfor file: a host with no flowctl port is []");
	KTAP_EQ_U64(set.n, 0, "waitfor file: [] adds no port");
	free(set.p);
}

/*
 * flowctl -br show: a brief reply, a full one (the masks from its priority
 * nests, as from a module without the brief reply) and a sparse one.
 */
static void test_brief(const char *dir)
{
	static char buf_brief[1024] __attribute__((aligned(8)));
	struct fc_dev_list l = { 0 };
	char *t = NULL, *j = NULL;
	size_t n = 0;
	FILE *f;

	l.cap = 3;
	l.dev = calloc(3, sizeof(*l.dev));
	l.dev[0] = devs.dev[1];		/* veth0, full */
	l.dev[1] = devs.dev[0];		/* eth1, sparse */
	ktap_ok(fc_dev_parse(synth_brief_dev(buf_brief, 1, 0), &l.dev[2]) == 0,
		"parse: a brief DEV_GET reply");
	l.n = 3;
	ktap_ok(fc_dev_mask(&l.dev[2], FLOWCTL_A_DEV_XOFF_ACTIVE) == 0x24,
		"brief: a port-level mask as sent");
	ktap_ok(fc_dev_mask(&l.dev[0], FLOWCTL_A_DEV_STORMED) == 0x08,
		"brief: a mask from the priority nests of a full reply");
	ktap_ok(fc_dev_mask(&l.dev[1], FLOWCTL_A_DEV_PAUSED) == -1,
		"brief: no mask from a port that sent neither");

	f = open_memstream(&t, &n);
	print_init(false, false, f);
	fc_print_brief(&l);
	fclose(f);
	f = open_memstream(&j, &n);
	print_init(true, false, f);
	fc_print_brief(&l);
	fclose(f);
	print_init(false, false, stdout);
	printf("# show -br text:\n%s", t);
	ktap_ok(strstr(t, "veth0           pfc   rx on  tx off pfc-prios 3,4     speed 100Mb/s   paused 3       xoff 4       stormed 3       backlog 42000B 28p\n") != NULL,
		"brief text: a full reply's port on one line");
	ktap_ok(strstr(t, "eth1            pause speed none      paused ?       xoff ?       stormed ?      \n") != NULL,
		"brief text: a sparse port says what it does not know");
	ktap_ok(strstr(t, "veth2           pause rx on  tx on  pfc-prios none    speed 10Gb/s    paused 0-7     xoff 2,5     stormed 6       backlog 3000B 2p\n") != NULL,
		"brief text: a brief reply's port");
	ktap_ok(t && strchr(t, '\n') && strlen(t) > 0 &&
		!strstr(t, "received") && !strstr(t, "prio 3:"),
		"brief text: no counters, no priority lines");
	save(dir, "show-brief.json", j);
	free(t);
	free(j);
	free(l.dev);
}

static void test_json(const char *dir)
{
	char *j = render(true, false, FC_SHOW_ALL, &devs);
	char *p = render(true, true, FC_SHOW_ALL, &devs);
	char *s = render(true, false, FC_SHOW_COUNTERS, &devs);
	struct fc_dev_list empty = { 0 };
	char *e = render(true, false, FC_SHOW_ALL, &empty);

	ktap_ok(j[0] == '[' && j[strlen(j) - 2] == ']' && j[strlen(j) - 1] == '\n',
		"json: show prints one array and a newline");
	ktap_ok(strchr(j, '\n') == j + strlen(j) - 1, "json: compact JSON is one line");
	ktap_ok(strchr(p, '\n') < p + strlen(p) - 1, "json -p: pretty JSON spans lines");
	test_json_round_trip(j);
	{
		/* As printed: the object, up to the next top-level key. */
		const char *b = strstr(j, "\"dcbx_partner\":");
		const char *end = b ? strstr(b, ",\"stats\":") : NULL;
		char d[1024];

		snprintf(d, sizeof(d), "%.*s", b && end ? (int)(end - b) - 15 : 6,
			 b && end ? b + 15 : "(none)");
		KTAP_EQ_STR(d,
			    "{\"mac\":\"02:00:00:00:dc:02\",\"pfc\":{\"prios\":[3],\"cap\":8,"
			    "\"willing\":true,\"mbc\":false},\"ets\":{\"prio_tc\":[0,0,0,3,0,0,0,0],"
			    "\"tc_bw\":[40,0,0,60,0,0,0,0],\"tc_tsa\":[\"ets\",\"strict\",\"strict\","
			    "\"ets\",\"strict\",\"strict\",\"strict\",\"strict\"]},\"ets_willing\":false,"
			    "\"ets_reco\":{\"prio_tc\":[0,0,0,0,0,0,0,0],\"tc_bw\":[100,0,0,0,0,0,0,0],"
			    "\"tc_tsa\":[\"ets\",\"strict\",\"strict\",\"strict\",\"strict\",\"strict\","
			    "\"strict\",\"strict\"]},\"app\":[{\"selector\":5,\"protocol\":26,"
			    "\"priority\":3},{\"selector\":1,\"protocol\":35093,\"priority\":3}],"
			    "\"ttl_s\":117}",
			    "json: the DCBX partner's TLVs (dcbx_partner)");
	}
	KTAP_EQ_STR(e, "[]\n", "json: no ports is an empty array");
	save(dir, "show.json", j);
	{
		char *w = NULL, *wt = NULL;
		size_t wn = 0;
		FILE *f = open_memstream(&w, &wn);

		print_init(true, false, f);
		fc_wd_print(&devs);
		fclose(f);
		save(dir, "watchdog.json", w);
		f = open_memstream(&wt, &wn);
		print_init(false, false, f);
		fc_wd_print(&devs);
		fclose(f);
		print_init(false, false, stdout);
		ktap_ok(strstr(wt, "veth0: watchdog 200 ms, restoration 400 ms (auto), action drop\n") != NULL,
			"watchdog text: the port's settings, restoration auto resolved");
		ktap_ok(strstr(wt, "  3    stormed            2        1      812        7         0  1.2 s\n") != NULL,
			"watchdog text: priority 3's row");
		ktap_ok(strstr(wt, "  4    operational        0") != NULL && !strstr(wt, "  5    "),
			"watchdog text: the PFC priorities only (3 and 4)");
		ktap_ok(strstr(wt, "eth1: this flowctl module has no watchdog") != NULL,
			"watchdog text: a port without the attributes says so");
		if (!strstr(wt, "  3    stormed"))
			printf("# %s", wt);
		free(w);
		free(wt);
	}
	save(dir, "show-pretty.json", p);
	save(dir, "stats.json", s);
	save(dir, "empty.json", e);
	{
		char *sm = NULL;
		size_t sn = 0;
		FILE *f = open_memstream(&sm, &sn);

		print_init(true, false, f);
		fc_sample_print(1764748800123456789ULL, 1234567890123ULL, &devs);
		fclose(f);
		print_init(false, false, stdout);
		ktap_ok(strchr(sm, '\n') == sm + strlen(sm) - 1,
			"json: a sample is one line");
		save(dir, "sample.jsonl", sm);
		free(sm);
	}
	{
		/* dcbx -j: an event with a partner. */
		struct fc_dcbx_agent ag;
		char *sm = NULL;
		size_t sn = 0;
		FILE *f;

		memset(&ag, 0, sizeof(ag));
		ag.dev = "veth0";
		ag.pfc_state = DCBX_ADOPTED;
		ag.ets_state = DCBX_MISMATCH;
		ag.have_peer = true;
		memcpy(ag.peer_mac, "\x02\0\0\0\0\x0b", 6);
		ag.peer.have_pfc = true;
		ag.peer.pfc.enable = 0x18;
		ag.tx = 3;
		ag.rx = 2;
		ag.malformed = 1;
		ag.bad_tlvs = 2;
		ag.mismatches = 1;
		ag.adoptions = 1;
		f = open_memstream(&sm, &sn);
		print_init(true, false, f);
		fc_dcbx_event(&ag, "adopted", "the partner's configuration applied");
		ag.have_peer = false;
		fc_dcbx_event(&ag, "partner-gone", "its TTL ran out");
		fclose(f);
		print_init(false, false, stdout);
		save(dir, "dcbx.jsonl", sm);
		free(sm);
	}
	{
		/* send -j, every field it can print: a bent PFC frame. */
		char line[] = "dev veth0 pfc 3:100,4:0 da 01:80:c2:00:00:02 opcode 0x0102 ethertype 0x8808 enable 0x18 length 64";
		char *argv[32], *sm = NULL, *tok;
		struct fc_send_req r;
		size_t sn = 0;
		int argc = 0;
		FILE *f;

		for (tok = strtok(line, " "); tok; tok = strtok(NULL, " "))
			argv[argc++] = tok;
		ktap_ok(fc_send_parse(argc, argv, &r, true) == 0, "json: a send line to print");
		f = open_memstream(&sm, &sn);
		print_init(true, false, f);
		fc_send_print(&r, 5, 1, 64);
		fclose(f);
		print_init(false, false, stdout);
		save(dir, "send.json", sm);
		free(sm);
	}
	free(j);
	free(p);
	free(s);
	free(e);
}

static char *render_event(bool json, struct nlmsghdr *nlh)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	print_init(json, false, f);
	fc_event_print(nlh);
	fclose(f);
	print_init(false, false, stdout);
	return s;
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* One message, three events of one frame, and 40 the port held back. */
static void test_entries(const char *dir)
{
	static const struct synth_entry e[] = {
		{ FLOWCTL_EVENT_PAUSE_END, 2, 0, 1500000 },
		{ FLOWCTL_EVENT_PAUSE_START, 3, 65535, 335539200 },
		{ FLOWCTL_EVENT_PAUSE_START, 5, 100, 512000 },
	};
	struct nlmsghdr *nlh = synth_entries(buf_ev, 40, e, 3);
	char *t = render_event(false, nlh), *j = render_event(true, nlh);
	const char *l2, *l3, *l4;

	for (l2 = t; l2 && *l2; l2 = strchr(l2, '\n') ? strchr(l2, '\n') + 1 : NULL)
		printf("# monitor: %.*s\n", (int)strcspn(l2, "\n"), l2);
	l2 = strchr(t, '\n');
	l3 = l2 ? strchr(l2 + 1, '\n') : NULL;
	l4 = l3 ? strchr(l3 + 1, '\n') : NULL;
	ktap_ok(strstr(t, "veth0 rx suppressed 40 events") != NULL && l2 &&
		strstr(t, "suppressed") < l2,
		"monitor text: the suppressed count comes first");
	ktap_ok(l2 && l3 && strstr(l2, "veth0 rx pause-end prio 2 quanta 0 after 1.5 ms") &&
		strstr(l2, "pause-end") < l3,
		"monitor text: an entry takes the header's device and direction");
	ktap_ok(l3 && l4 && strstr(l3, "pause-start prio 3 quanta 65535 (335.5 ms at 100Mb/s)") &&
		strstr(l4, "pause-start prio 5 quanta 100 "),
		"monitor text: one line per entry, in order");
	ktap_ok(count_lines(t) == 4, "monitor text: four lines");
	ktap_ok(count_lines(j) == 4, "monitor json: four objects");
	save(dir, "entries.jsonl", j);
	free(t);
	free(j);
}

static void test_events(const char *dir)
{
	struct nlmsghdr *nlh;
	char *t, *j, *all;
	size_t n;

	nlh = synth_event(buf_ev, FLOWCTL_EVENT_PAUSE_START, 3, 65535, 335539200);
	t = render_event(false, nlh);
	printf("# monitor: %s", t);
	ktap_ok(strstr(t, " [1234.567890123] veth0 rx pause-start prio 3 quanta 65535 "
			  "(335.5 ms at 100Mb/s): the partner paused us\n") != NULL,
		"monitor text: pause-start with time, speed and direction");
	ktap_ok(t[2] == ':' && t[5] == ':' && t[8] == '.', "monitor text: starts with HH:MM:SS.usec");
	j = render_event(true, nlh);
	free(t);

	nlh = synth_event(buf_ev, FLOWCTL_EVENT_PAUSE_END, -1, 0, 2000000);
	t = render_event(false, nlh);
	printf("# monitor: %s", t);
	ktap_ok(strstr(t, "veth0 rx pause-end link quanta 0 after 2 ms") != NULL,
		"monitor text: link-level pause-end with its length");
	n = strlen(j);
	all = malloc(n + 4096);
	strcpy(all, j);
	free(j);
	j = render_event(true, nlh);
	strcat(all, j);
	ktap_ok(strchr(all, '\n') == all + n - 1, "monitor json: one object per line");
	save(dir, "events.jsonl", all);
	free(all);
	free(j);
	free(t);
	test_entries(dir);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	ktap_begin("flowctl show/stats/monitor output for synthetic replies");
	load();
	test_parsed();
	test_text();
	test_json(argv[1]);
	test_brief(argv[1]);
	test_waitfor(argv[1]);
	test_waitfor_hosts(argv[1]);
	test_events(argv[1]);
	fc_dev_list_free(&devs);
	return ktap_finish();
}
