// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl stats: the counters alone (what "show -s" adds, without the
 * config), and "stats reset" to zero them.
 */
#include <string.h>

#include "flowctl.h"
#include "netlink.h"
#include "set.h"
#include "show.h"

void usage_stats(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j [ -p ] ] stats [ dev DEV ]\n"
		"       flowctl stats reset dev DEV\n"
		"       flowctl stats help\n"
		"received (rx) counters: " FC_RX_MEANS ".\n"
		"sent (tx) counters: " FC_TX_MEANS ".\n"
		"reset needs CAP_NET_ADMIN.\n");
}

static int stats_reset(int argc, char **argv)
{
	const char *dev = NULL;
	struct nlmsghdr *nlh;
	struct fc_nl nl;
	bool helped;
	int ret;

	ret = fc_parse_dev_opt(argc, argv, "stats", &dev, usage_stats, &helped);
	if (ret || helped)
		return ret;
	if (!dev) {
		fprintf(stderr, "Error: stats reset needs dev DEV\n");
		usage_stats(stderr);
		return EXIT_USAGE;
	}
	ret = fc_nl_open(&nl);
	if (!ret) {
		nlh = fc_nl_req(&nl, FLOWCTL_CMD_STATS_RESET, NLM_F_ACK);
		fc_nl_put_dev(nlh, dev);
		ret = fc_write_run(nlh, &nl, dev, "reset");
	}
	fc_nl_close(&nl);
	return ret;
}

int cmd_stats(int argc, char **argv)
{
	const char *dev = NULL;
	bool helped;
	int ret;

	static const char *const words[] = { "dev", "reset", "help", NULL };
	int k;

	if (argc > 0) {
		k = parse_keyword(argv[0], words);
		if (k < 0)
			return bad_keyword(argv[0], words, k, "stats");
		if (k == 1)
			return stats_reset(argc - 1, argv + 1);
	}
	ret = fc_parse_dev_opt(argc, argv, "stats", &dev, usage_stats, &helped);
	if (ret || helped)
		return ret;
	return fc_show_run(dev, FC_SHOW_COUNTERS);
}
