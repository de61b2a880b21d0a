// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl waitfor: find PFC deadlocks as wait-for cycles (Documentation/
 * watchdog.md). It reads every flowctl port of a set of network namespaces
 * (each a switch, a router or a host of a lab) and follows who waits for
 * whom: an egress port E whose priority p is paused by its partner while
 * its band holds packets waits for the partner port P (the port whose MAC
 * sent the pause: E's partner_mac); when P is pausing p (XOFF in force),
 * the bytes it let in wait in the egress ports of P's namespace that are
 * themselves held on p. A cycle of such waits is a deadlock: nothing in it
 * can move until something outside breaks it (the watchdog, or a drop).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev.h"
#include "flowctl.h"
#include "netlink.h"
#include "parse.h"
#include "print.h"
#include "waitfor.h"

#define NETNS_DIR	"/run/netns"
#define MAX_NS		256

void usage_waitfor(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j [ -p ] ] waitfor [ netns NETNS ]...\n"
		"       flowctl waitfor help\n"
		"Read every flowctl port of the named network namespaces (default: this\n"
		"one and every one under " NETNS_DIR ", as ip netns lists them) and report\n"
		"each wait-for cycle: a priority paused by its partner with packets\n"
		"waiting, whose partner holds it because its own bytes wait in a port that\n"
		"is paused in turn... back to the first. Such a cycle is a PFC deadlock.\n"
		"Exit status 3 when a cycle was found. Needs to enter the namespaces\n"
		"(CAP_SYS_ADMIN).\n");
}

#define port fc_wf_port

struct graph {
	struct port *p;
	size_t n, cap;
};

/* A held (port, priority): paused by its partner with packets queued. */
static bool held(const struct port *e, int prio)
{
	const struct fc_prio *q = &e->d.prio[prio];

	return FC_HAS(q->have, FLOWCTL_A_PRIO_PAUSED) && q->v[FLOWCTL_A_PRIO_PAUSED] &&
	       FC_HAS(q->have, FLOWCTL_A_PRIO_BACKLOG_BYTES) &&
	       q->v[FLOWCTL_A_PRIO_BACKLOG_BYTES];
}

static bool xoff(const struct port *e, int prio)
{
	const struct fc_prio *q = &e->d.prio[prio];

	return FC_HAS(q->have, FLOWCTL_A_PRIO_XOFF_ACTIVE) &&
	       q->v[FLOWCTL_A_PRIO_XOFF_ACTIVE];
}

static uint64_t own_mac(const char *ifname)
{
	struct ifreq ifr;
	uint64_t mac = 0;
	int fd, k;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (!ioctl(fd, SIOCGIFHWADDR, &ifr))
		for (k = 0; k < 6; k++)
			mac = mac << 8 | (uint8_t)ifr.ifr_hwaddr.sa_data[k];
	close(fd);
	return mac;
}

/* The flowctl ports of the namespace we are in, appended to g. */
static int read_ports(struct graph *g, const char *ns)
{
	struct fc_dev_list l = { 0 };
	struct fc_nl nl;
	size_t i;
	int err;

	if (fc_nl_open_bus(&nl, NETLINK_GENERIC)) {
		fc_nl_close(&nl);
		return -1;
	}
	err = fc_nl_resolve(&nl, FLOWCTL_FAMILY_NAME);
	if (!err)
		err = fc_dev_get(&nl, NULL, &l);
	fc_nl_close(&nl);
	if (err == -ENOENT) {	/* the module is not loaded: no ports */
		fc_dev_list_free(&l);
		return 0;
	}
	if (err) {
		fprintf(stderr, "waitfor: cannot read the flowctl ports of %s: %s\n",
			*ns ? ns : "this namespace", strerror(-err));
		fc_dev_list_free(&l);
		return -1;
	}
	for (i = 0; i < l.n; i++) {
		struct port *p;

		if (g->n == g->cap) {
			size_t cap = g->cap ? 2 * g->cap : 64;
			struct port *np = realloc(g->p, cap * sizeof(*np));

			if (!np) {
				fc_dev_list_free(&l);
				return -1;
			}
			g->p = np;
			g->cap = cap;
		}
		p = &g->p[g->n++];
		p->ns = ns;
		p->d = l.dev[i];
		p->mac = own_mac(p->d.ifname);
	}
	fc_dev_list_free(&l);
	return 0;
}

/* The identity of a namespace file, to read each namespace once. */
static bool same_ns(const char *path, struct stat *seen, int *nseen)
{
	struct stat st;
	int i;

	if (stat(path, &st))
		return false;
	for (i = 0; i < *nseen; i++)
		if (seen[i].st_dev == st.st_dev && seen[i].st_ino == st.st_ino)
			return true;
	if (*nseen < MAX_NS + 1)
		seen[(*nseen)++] = st;
	return false;
}

static int enter(const char *ns)
{
	char path[4096];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", NETNS_DIR, ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "Cannot open network namespace \"%s\": %s\n", ns,
			strerror(errno));
		return -1;
	}
	ret = setns(fd, CLONE_NEWNET);
	if (ret)
		fprintf(stderr, "Cannot enter network namespace \"%s\": %s\n", ns,
			strerror(errno));
	close(fd);
	return ret;
}

/* The port whose MAC paused e (its partner), or -1. */
static int partner_of(const struct graph *g, const struct port *e)
{
	size_t i;

	if (!FC_HAS(e->d.have, FLOWCTL_A_DEV_PARTNER_MAC))
		return -1;
	for (i = 0; i < g->n; i++)
		if (g->p[i].mac == e->d.v[FLOWCTL_A_DEV_PARTNER_MAC])
			return (int)i;
	return -1;
}

static bool waits(const struct graph *g, int from, int to, int prio, int *via)
{
	const struct port *e = &g->p[from], *z = &g->p[to];
	int p;

	if (!held(e, prio) || !held(z, prio) || from == to)
		return false;
	p = partner_of(g, e);
	if (p < 0 || p == to || !xoff(&g->p[p], prio) ||
	    strcmp(g->p[p].ns, z->ns))
		return false;
	*via = p;
	return true;
}

static void print_cycle(const struct graph *g, const int *c, int len, int prio)
{
	int k, via;

	open_json_object(NULL);
	print_u64(PRINT_ANY, "prio", "wait-for cycle on priority %s:\n", (uint64_t)prio);
	open_json_array("ports");
	for (k = 0; k < len; k++) {
		const struct port *e = &g->p[c[k]];
		const struct port *n = &g->p[c[(k + 1) % len]];

		waits(g, c[k], c[(k + 1) % len], prio, &via);
		open_json_object(NULL);
		print_string(PRINT_ANY, "netns", "  %s", *e->ns ? e->ns : ".");
		print_string(PRINT_ANY, "ifname", "/%s", e->d.ifname);
		print_u64(PRINT_ANY, "backlog_bytes", " (%s bytes queued)",
			  e->d.prio[prio].v[FLOWCTL_A_PRIO_BACKLOG_BYTES]);
		print_string(PRINT_ANY, "paused_by_netns", " is paused by %s",
			     *g->p[via].ns ? g->p[via].ns : ".");
		print_string(PRINT_ANY, "paused_by_ifname", "/%s", g->p[via].d.ifname);
		print_string(PRINT_FP, NULL, ", whose bytes wait in %s",
			     *n->ns ? n->ns : ".");
		print_string(PRINT_FP, NULL, "/%s\n", n->d.ifname);
		close_json_object();
	}
	close_json_array();
	close_json_object();
}

/*
 * Every elementary cycle once: from each start s, paths through nodes
 * above s only (so a cycle is found from its lowest node alone).
 */
static int find(const struct graph *g, int start, int at, int prio, int *path,
		int len, bool *seen)
{
	int found = 0, via;
	size_t z;

	for (z = 0; z < g->n; z++) {
		if (!waits(g, at, (int)z, prio, &via))
			continue;
		if ((int)z == start) {
			path[len] = at;
			print_cycle(g, path + 1, len, prio);
			found++;
			continue;
		}
		if ((int)z < start || seen[z])
			continue;
		seen[z] = true;
		path[len] = at;
		found += find(g, start, (int)z, prio, path, len + 1, seen);
		seen[z] = false;
	}
	return found;
}

int fc_waitfor_print(const struct fc_wf_port *ports, size_t n, int namespaces)
{
	struct graph g = { .p = (struct port *)ports, .n = n };
	int found = 0, prio, *path;
	bool *seen;
	size_t s;

	path = calloc(n + 1, sizeof(*path));
	seen = calloc(n + 1, sizeof(*seen));
	if (!path || !seen) {
		free(path);
		free(seen);
		return -1;
	}
	open_json_object(NULL);
	print_u64(PRINT_JSON, "ports", NULL, n);
	print_u64(PRINT_JSON, "namespaces", NULL, (uint64_t)namespaces);
	open_json_array("cycles");
	for (prio = 0; prio < FLOWCTL_NUM_PRIOS; prio++)
		for (s = 0; s < n; s++)
			found += find(&g, (int)s, (int)s, prio, path, 1, seen);
	close_json_array();
	print_u64(PRINT_JSON, "found", NULL, (uint64_t)found);
	if (!found)
		print_text("no wait-for cycle among %zu flowctl ports in %d namespaces\n",
			   n, namespaces);
	close_json_object();
	json_end_document();
	free(path);
	free(seen);
	return found;
}

int cmd_waitfor(int argc, char **argv)
{
	static const char *const words[] = { "netns", "help", NULL };
	const char *names[MAX_NS];
	struct stat seen[MAX_NS + 1];
	struct graph g = { 0 };
	int n = 0, nseen = 0, nread = 0, home, ret = EXIT_OK, found, k;
	char path[4096];
	bool all = true;

	while (argc > 0) {
		k = parse_keyword(argv[0], words);
		if (k < 0)
			return bad_keyword(argv[0], words, k, "waitfor");
		if (k == 1) {
			usage_waitfor(stdout);
			return EXIT_OK;
		}
		if (argc < 2)
			return missing_value("netns", "a network namespace name");
		if (n == MAX_NS) {
			fprintf(stderr, "Error: at most %d namespaces\n", MAX_NS);
			return EXIT_USAGE;
		}
		if (strchr(argv[1], '/') || !*argv[1]) {
			fprintf(stderr, "Error: \"%s\" is not a namespace name (as ip netns names them)\n",
				argv[1]);
			return EXIT_USAGE;
		}
		names[n++] = argv[1];
		all = false;
		argc -= 2;
		argv += 2;
	}
	home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home < 0) {
		fprintf(stderr, "waitfor: cannot open this network namespace: %s\n",
			strerror(errno));
		return EXIT_FAIL;
	}
	if (all) {
		DIR *dir = opendir(NETNS_DIR);
		struct dirent *de;

		same_ns("/proc/self/ns/net", seen, &nseen);
		if (read_ports(&g, ""))
			ret = EXIT_FAIL;
		nread++;
		while (dir && (de = readdir(dir)) && n < MAX_NS) {
			if (de->d_name[0] == '.')
				continue;
			names[n] = strdup(de->d_name);
			if (!names[n]) {
				ret = EXIT_FAIL;
				break;
			}
			n++;
		}
		if (dir)
			closedir(dir);
	}
	for (k = 0; k < n && ret == EXIT_OK; k++) {
		/* Each namespace once: a name given twice, or ours by name. */
		snprintf(path, sizeof(path), "%s/%s", NETNS_DIR, names[k]);
		if (same_ns(path, seen, &nseen))
			continue;
		if (enter(names[k])) {
			/* Listed by ip netns but gone, or not ours to enter:
			 * when every namespace is read, skip it.
			 */
			if (!all)
				ret = EXIT_FAIL;
		} else {
			if (read_ports(&g, names[k]))
				ret = EXIT_FAIL;
			nread++;
		}
		if (setns(home, CLONE_NEWNET)) {
			fprintf(stderr, "waitfor: cannot return to this namespace: %s\n",
				strerror(errno));
			ret = EXIT_FAIL;
			break;
		}
	}
	close(home);
	if (ret != EXIT_OK)
		goto out;

	found = fc_waitfor_print(g.p, g.n, nread);
	ret = found < 0 ? EXIT_FAIL : found ? EXIT_FOUND : EXIT_OK;
out:
	if (all)
		for (k = 0; k < n; k++)
			free((char *)names[k]);
	free(g.p);
	return ret;
}
