// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl watchdog: the PFC watchdog of each port (Documentation/watchdog.md)
 * in one place. Without settings it shows each port's configuration and the
 * state and counters of the priorities it watches; with them it sets them,
 * as "flowctl set ... watchdog MS wd-restoration MS wd-action A" would.
 */
#include <string.h>

#include "dev.h"
#include "flowctl.h"
#include "netlink.h"
#include "parse.h"
#include "print.h"
#include "set.h"
#include "show.h"

/* SONiC's default detection time, for "on" without "detection MS". */
#define FC_WD_DEFAULT_MS	200

void usage_watchdog(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j [ -p ] ] watchdog [ dev DEV ]\n"
		"       flowctl watchdog dev DEV { on | detection MS } [ restoration { MS | auto } ]\n"
		"                               [ action { drop | forward | alert } ]\n"
		"       flowctl watchdog dev DEV off\n"
		"       flowctl watchdog help\n"
		"A priority its partner keeps paused for the detection time (100..5000 ms;\n"
		"on = 200 ms) while its queue holds packets and never runs empty is\n"
		"stormed. action then: drop (ignore PAUSE/PFC for it, drop its packets,\n"
		"send no pause for it), forward (ignore PAUSE/PFC, keep sending) or alert\n"
		"(report only). It is restored after restoration ms (100..60000; auto =\n"
		"twice the detection) with no PAUSE/PFC naming it.\n"
		"Without settings: each port's watchdog, and the state and counters of\n"
		"the priorities it watches (all eight with -j). Settings need\n"
		"CAP_NET_ADMIN; those not given stay as they are.\n");
}

static const char *const wd_words[] = {
	"dev", "on", "off", "detection", "restoration", "action", "help", NULL,
};

enum { W_DEV, W_ON, W_OFF, W_DETECT, W_RESTORE, W_ACTION, W_HELP };

static const int wd_attr[] = {
	[W_DETECT] = FLOWCTL_A_DEV_WD_DETECT_MS,
	[W_RESTORE] = FLOWCTL_A_DEV_WD_RESTORE_MS,
	[W_ACTION] = FLOWCTL_A_DEV_WD_ACTION,
};

static const char *const wd_needs[] = {
	[W_DEV] = "a device name",
	[W_DETECT] = "the detection time 100..5000 ms",
	[W_RESTORE] = "auto (twice the detection), or 100..60000 ms",
	[W_ACTION] = "drop, forward or alert",
};

int fc_wd_parse(int argc, char **argv, struct fc_set_req *r, bool *helped)
{
	bool on = false, off = false;
	uint64_t v;
	int k;

	memset(r, 0, sizeof(*r));
	*helped = false;
	while (argc > 0) {
		k = parse_keyword(argv[0], wd_words);
		if (k < 0)
			return bad_keyword(argv[0], wd_words, k, "watchdog");
		if (k == W_HELP) {
			usage_watchdog(stdout);
			*helped = true;
			return EXIT_OK;
		}
		if (k == W_ON || k == W_OFF) {
			if ((k == W_ON && on) || (k == W_OFF && off)) {
				fprintf(stderr, "Error: %s given twice\n", wd_words[k]);
				return EXIT_USAGE;
			}
			*(k == W_ON ? &on : &off) = true;
			argc--;
			argv++;
			continue;
		}
		if (argc < 2)
			return missing_value(wd_words[k], wd_needs[k]);
		if (k == W_DEV) {
			if (r->dev) {
				fprintf(stderr, "Error: dev given twice\n");
				return EXIT_USAGE;
			}
			if (fc_check_dev_name(argv[1]))
				return EXIT_USAGE;
			r->dev = argv[1];
		} else {
			if (FC_HAS(r->have, wd_attr[k])) {
				fprintf(stderr, "Error: %s given twice\n", wd_words[k]);
				return EXIT_USAGE;
			}
			/* "detection off" is "off": the value parser takes it. */
			if (fc_wd_value(wd_attr[k], wd_words[k], argv[1], &v))
				return EXIT_USAGE;
			r->have |= 1u << wd_attr[k];
			r->v[wd_attr[k]] = v;
		}
		argc -= 2;
		argv += 2;
	}
	if (off && (on || r->have)) {
		fprintf(stderr, "Error: off takes no other setting\n");
		return EXIT_USAGE;
	}
	if (on && FC_HAS(r->have, FLOWCTL_A_DEV_WD_DETECT_MS)) {
		fprintf(stderr, "Error: on and detection both given (on is detection %d)\n",
			FC_WD_DEFAULT_MS);
		return EXIT_USAGE;
	}
	if (on || off) {
		r->have |= 1u << FLOWCTL_A_DEV_WD_DETECT_MS;
		r->v[FLOWCTL_A_DEV_WD_DETECT_MS] = on ? FC_WD_DEFAULT_MS : 0;
	}
	if (r->have && !r->dev) {
		fprintf(stderr, "Error: watchdog settings need dev DEV\n");
		usage_watchdog(stderr);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The priorities a port's watchdog watches: those whose gates the partner
 * can close (rx on): its PFC priorities, or all eight under link-level
 * PAUSE (which storm as one).
 */
static uint8_t watched(const struct fc_dev *d)
{
	if (!FC_HAS(d->have, FLOWCTL_A_DEV_MODE) ||
	    (FC_HAS(d->have, FLOWCTL_A_DEV_RX) && !d->v[FLOWCTL_A_DEV_RX]))
		return 0;
	switch (d->v[FLOWCTL_A_DEV_MODE]) {
	case FLOWCTL_MODE_PFC:
		if (!FC_HAS(d->have, FLOWCTL_A_DEV_PFC_PRIOS))
			return 0;
		return (uint8_t)d->v[FLOWCTL_A_DEV_PFC_PRIOS];
	case FLOWCTL_MODE_PAUSE:
		return 0xff;
	}
	return 0;
}

static uint64_t pv(const struct fc_prio *p, int attr)
{
	return FC_HAS(p->have, attr) ? p->v[attr] : 0;
}

static bool has_history(const struct fc_prio *p)
{
	return pv(p, FLOWCTL_A_PRIO_WD_STATE) == FLOWCTL_WD_STORMED ||
	       pv(p, FLOWCTL_A_PRIO_WD_STORMS) || pv(p, FLOWCTL_A_PRIO_WD_TX_DROP) ||
	       pv(p, FLOWCTL_A_PRIO_WD_RX_DROP) || pv(p, FLOWCTL_A_PRIO_WD_TX_FORWARD);
}

static void print_wd_prio(int prio, const struct fc_prio *p)
{
	char t[FMT_LEN];
	bool stormed = pv(p, FLOWCTL_A_PRIO_WD_STATE) == FLOWCTL_WD_STORMED;

	open_json_object(NULL);
	print_u64(PRINT_ANY, "prio", "  %-5s", (uint64_t)prio);
	print_string(PRINT_ANY, "state", "%-12s", stormed ? "stormed" : "operational");
	print_u64(PRINT_ANY, "storms", "%8s", pv(p, FLOWCTL_A_PRIO_WD_STORMS));
	print_u64(PRINT_ANY, "restored", "%9s", pv(p, FLOWCTL_A_PRIO_WD_RESTORED));
	print_u64(PRINT_ANY, "tx_drop", "%9s", pv(p, FLOWCTL_A_PRIO_WD_TX_DROP));
	print_u64(PRINT_ANY, "rx_drop", "%9s", pv(p, FLOWCTL_A_PRIO_WD_RX_DROP));
	print_u64(PRINT_ANY, "tx_forward", "%10s", pv(p, FLOWCTL_A_PRIO_WD_TX_FORWARD));
	print_u64(PRINT_JSON, "stormed_ns_total", NULL,
		  pv(p, FLOWCTL_A_PRIO_WD_STORMED_NS_TOTAL));
	print_string(PRINT_FP, NULL, "  %s",
		     fmt_ns(t, sizeof(t), pv(p, FLOWCTL_A_PRIO_WD_STORMED_NS_TOTAL), false));
	print_nl();
	close_json_object();
}

static void print_wd_dev(const struct fc_dev *d)
{
	uint64_t det = d->v[FLOWCTL_A_DEV_WD_DETECT_MS];
	uint64_t res = d->v[FLOWCTL_A_DEV_WD_RESTORE_MS];
	const char *act = fc_wd_action_name(d->v[FLOWCTL_A_DEV_WD_ACTION]);
	uint8_t w = watched(d);
	bool head = false;
	int i;

	open_json_object(NULL);
	print_string(PRINT_ANY, "ifname", "%s:", d->ifname);
	print_u64(PRINT_JSON, "ifindex", NULL, d->v[FLOWCTL_A_DEV_IFINDEX]);
	if (!FC_HAS(d->have, FLOWCTL_A_DEV_WD_DETECT_MS)) {
		/* A module without the watchdog. */
		print_bool(PRINT_JSON, "supported", NULL, false);
		print_text(" this flowctl module has no watchdog\n");
		close_json_object();
		return;
	}
	print_bool(PRINT_JSON, "on", NULL, det != 0);
	print_u64(PRINT_JSON, "detection_ms", NULL, det);
	print_u64(PRINT_JSON, "restoration_ms", NULL, det ? (res ? res : 2 * det) : res);
	print_bool(PRINT_JSON, "restoration_auto", NULL, res == 0);
	print_string(PRINT_JSON, "action", NULL, act ? act : "unknown");
	if (det)
		print_text(" watchdog %llu ms, restoration %llu ms%s, action %s",
			   (unsigned long long)det,
			   (unsigned long long)(res ? res : 2 * det),
			   res ? "" : " (auto)", act ? act : "unknown");
	else
		print_text(" watchdog off");
	if (det && !w)
		print_text(" (rx or flow control off: nothing to watch)");
	print_text("\n");

	open_json_array("prios");
	for (i = 0; i < FLOWCTL_NUM_PRIOS; i++) {
		const struct fc_prio *p = &d->prio[i];
		bool text = (det && (w >> i & 1)) || has_history(p);

		if (!is_json() && !text)
			continue;
		if (!head && !is_json()) {
			print_text("  %-5s%-12s%8s%9s%9s%9s%10s  %s\n", "prio",
				   "state", "storms", "restored", "tx-drop",
				   "rx-drop", "forwarded", "stormed");
			head = true;
		}
		print_wd_prio(i, p);
	}
	close_json_array();
	close_json_object();
}

void fc_wd_print(const struct fc_dev_list *l)
{
	size_t i;

	open_json_array(NULL);
	for (i = 0; i < l->n; i++)
		print_wd_dev(&l->dev[i]);
	close_json_array();
	json_end_document();
}

static int wd_show(const char *dev)
{
	struct fc_dev_list l = { 0 };
	int ret;

	ret = fc_dev_fetch(dev, "watchdog", &l);
	if (!ret) {
		fc_wd_print(&l);
		if (!l.n && !dev && !is_json())
			fprintf(stderr,
				"no flowctl qdisc in this network namespace; attach one with: tc qdisc add dev DEV root flowctl\n");
	}
	fc_dev_list_free(&l);
	return ret;
}

int cmd_watchdog(int argc, char **argv)
{
	struct fc_set_req r;
	struct nlmsghdr *nlh;
	struct fc_nl nl;
	bool helped;
	int ret;

	ret = fc_wd_parse(argc, argv, &r, &helped);
	if (ret || helped)
		return ret;
	if (!r.have)
		return wd_show(r.dev);
	ret = fc_nl_open(&nl);
	if (!ret) {
		nlh = fc_nl_req(&nl, FLOWCTL_CMD_DEV_SET, NLM_F_ACK);
		fc_set_build(nlh, &r);
		ret = fc_write_run(nlh, &nl, r.dev, "watchdog");
	}
	fc_nl_close(&nl);
	return ret;
}
