// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl: configure and watch the flowctl qdisc (802.3x PAUSE and 802.1Qbb
 * PFC in software) over generic netlink, send MAC Control frames, convert
 * quanta. Layout after iproute2's dcb: flowctl [OPTIONS] COMMAND ... | help.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "flowctl.h"
#include "print.h"

void usage_main(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ OPTIONS ] COMMAND [ ARGS ]\n"
		"       flowctl [ OPTIONS ] COMMAND help\n"
		"       flowctl help [ COMMAND ]\n"
		"COMMAND := { show | set | stats | watch | sample | monitor | send |\n"
		"            metrics | quanta | dcbx | doctor | watchdog | waitfor | help }\n"
		"OPTIONS := { -j[son] | -p[retty] | -s[tatistics] | -br[ief] | -d[etails] |\n"
		"             -n[etns] NETNS | -V[ersion] | -h[elp] }\n"
		"\n"
		"  show     config and live state of the flowctl ports (-s: counters)\n"
		"  set      change a port's config (the kernel keeps what is not given)\n"
		"  stats    counters, or reset them\n"
		"  watch    counter deltas each interval, then a steady/bursty verdict\n"
		"  sample   state and counters as JSON lines at an interval (for plots)\n"
		"  monitor  pause and config events as they happen\n"
		"  send     transmit PAUSE / PFC frames (no module needed)\n"
		"  metrics  every counter and state in Prometheus' text format\n"
		"  quanta   convert pause quanta to time and back\n"
		"  dcbx     the DCBX agent of a port: advertise, read, adopt (LLDP)\n"
		"  doctor   look for the pitfalls of PAUSE/PFC on a port: findings and fixes\n"
		"  watchdog the PFC watchdog: a queue its partner holds paused (storm)\n"
		"  waitfor  PFC deadlocks: wait-for cycles across network namespaces\n"
		"\n"
		"  -j  JSON output          -p  pretty JSON (implies -j)\n"
		"  -s  include counters     -n  run in network namespace NETNS\n"
		"  -br show: one line a port, no counters (thousands of ports)\n"
		"  -V  print the version\n"
		"\n"
		"rx = received PAUSE: " FC_RX_MEANS ";\n"
		"tx = sent PAUSE: " FC_TX_MEANS ".\n"
		"Exit status: 0 success, 1 the kernel or the system refused, 2 usage error;\n"
		"doctor: 3 when it found an error or a warning.\n");
}

static int switch_netns(const char *name)
{
	char path[4096];
	int fd;

	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "Cannot open network namespace \"%s\": %s\n",
			name, strerror(errno));
		return EXIT_FAIL;
	}
	if (setns(fd, CLONE_NEWNET) < 0) {
		fprintf(stderr, "Cannot switch to network namespace \"%s\": %s\n",
			name, strerror(errno));
		close(fd);
		return EXIT_FAIL;
	}
	close(fd);
	return EXIT_OK;
}

static bool is_opt(const char *arg, const char *s, const char *l)
{
	/* "-j", "-json", "--json" */
	if (!strcmp(arg, s))
		return true;
	if (arg[0] == '-' && arg[1] == '-')
		arg++;
	return !strcmp(arg, l);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	void (*usage)(FILE *f);
} commands[] = {
	{ "show", cmd_show, usage_show },
	{ "set", cmd_set, usage_set },
	{ "stats", cmd_stats, usage_stats },
	{ "watch", cmd_watch, usage_watch },
	{ "sample", cmd_sample, usage_sample },
	{ "monitor", cmd_monitor, usage_monitor },
	{ "send", cmd_send, usage_send },
	{ "metrics", cmd_metrics, usage_metrics },
	{ "quanta", cmd_quanta, usage_quanta },
	{ "dcbx", cmd_dcbx, usage_dcbx },
	{ "doctor", cmd_doctor, usage_doctor },
	{ "watchdog", cmd_watchdog, usage_watchdog },
	{ "waitfor", cmd_waitfor, usage_waitfor },
	{ "help", NULL, usage_main },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char *command_words[N_COMMANDS + 1];

/* The command argv[0] names (a prefix will do), or -1 with the error said. */
static int find_command(const char *arg)
{
	size_t i;
	int k;

	for (i = 0; i < N_COMMANDS; i++)
		command_words[i] = commands[i].name;
	k = parse_keyword(arg, command_words);
	if (k < 0)
		bad_keyword(arg, command_words, k, NULL);
	return k;
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "-help") ||
	       !strcmp(arg, "--help");
}

int main(int argc, char **argv)
{
	int ret, k;

	argc--;
	argv++;
	while (argc > 0 && argv[0][0] == '-' && argv[0][1]) {
		const char *o = argv[0];

		if (is_opt(o, "-j", "-json")) {
			fc_opt.json = true;
		} else if (is_opt(o, "-p", "-pretty")) {
			fc_opt.json = true;
			fc_opt.pretty = true;
		} else if (is_opt(o, "-s", "-statistics") ||
			   is_opt(o, "-s", "-stats")) {
			fc_opt.stats = true;
		} else if (is_opt(o, "-br", "-brief")) {
			fc_opt.brief = true;
		} else if (is_opt(o, "-d", "-details")) {
			fc_opt.details = true;
		} else if (is_opt(o, "-n", "-netns")) {
			if (argc < 2) {
				fprintf(stderr, "Option \"%s\" needs a network namespace name\n",
					o);
				return EXIT_USAGE;
			}
			fc_opt.netns = argv[1];
			argc--;
			argv++;
		} else if (is_opt(o, "-V", "-Version") ||
			   is_opt(o, "-V", "-version")) {
			printf("flowctl %s\n", FLOWCTL_VERSION);
			return EXIT_OK;
		} else if (is_opt(o, "-h", "-help")) {
			usage_main(stdout);
			return EXIT_OK;
		} else {
			fprintf(stderr, "Option \"%s\" is unknown, try \"flowctl help\".\n",
				o);
			return EXIT_USAGE;
		}
		argc--;
		argv++;
	}
	if (argc < 1) {
		usage_main(stderr);
		return EXIT_USAGE;
	}
	k = find_command(argv[0]);
	if (k < 0)
		return EXIT_USAGE;
	if (!commands[k].fn) {
		/* help [COMMAND] */
		if (argc < 2) {
			usage_main(stdout);
			return EXIT_OK;
		}
		k = find_command(argv[1]);
		if (k < 0)
			return EXIT_USAGE;
		commands[k].usage(stdout);
		return EXIT_OK;
	}
	/* COMMAND -h | --help, as COMMAND help */
	if (argc > 1 && is_help(argv[1])) {
		commands[k].usage(stdout);
		return EXIT_OK;
	}
	if (fc_opt.netns) {
		ret = switch_netns(fc_opt.netns);
		if (ret)
			return ret;
	}
	print_init(fc_opt.json, fc_opt.pretty, stdout);
	ret = commands[k].fn(argc - 1, argv + 1);
	fflush(stdout);
	return ret;
}
