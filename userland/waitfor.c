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
 * Ports of other machines come as files: each host's `flowctl -j show`.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <net/if.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "dev.h"
#include "flowctl.h"
#include "netlink.h"
#include "parse.h"
#include "print.h"
#include "waitfor.h"

#define NETNS_DIR	"/run/netns"
#define MAX_NS		256
#define MAX_FILE	(64u << 20)	/* bytes of one host's JSON */

void usage_waitfor(FILE *f)
{
	fprintf(f,
		"Usage: flowctl [ -j [ -p ] ] waitfor [ netns NETNS ]... [ file FILE ]...\n"
		"       flowctl waitfor help\n"
		"Read every flowctl port of the named network namespaces and hosts, and\n"
		"report each wait-for cycle: a priority paused by its partner with packets\n"
		"waiting, whose partner holds it because its own bytes wait in a port that\n"
		"is paused in turn... back to the first. Such a cycle is a PFC deadlock.\n"
		"  netns NETNS  a namespace of this machine (entering it needs\n"
		"               CAP_SYS_ADMIN)\n"
		"  file FILE    another machine: FILE holds what `flowctl -j show` printed\n"
		"               there (its ports are labelled by FILE's name without .json)\n"
		"With neither: this namespace and every one under " NETNS_DIR ", as ip netns\n"
		"lists them. Exit status 3 when a cycle was found.\n");
}

#define port fc_wf_port
#define graph fc_wf_set

struct port *fc_wf_add(struct graph *g)
{
	struct port *p;

	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 64;
		struct port *np = realloc(g->p, cap * sizeof(*np));

		if (!np)
			return NULL;
		g->p = np;
		g->cap = cap;
	}
	p = &g->p[g->n++];
	memset(p, 0, sizeof(*p));
	return p;
}

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

/* The flowctl ports of the namespace we are in, appended to g. */
static int read_ports(struct graph *g, const char *ns, int node)
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
		struct port *p = fc_wf_add(g);

		if (!p) {
			fc_dev_list_free(&l);
			return -1;
		}
		p->ns = ns;
		p->node = node;
		p->d = l.dev[i];
		p->mac = p->d.hwaddr;
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

/*
 * Each port's partner: the one port whose MAC paused it, found once. A
 * port of another namespace or host wins over one of e's own; two or more
 * candidates (MACs reused across machines or VMs) are not guessed between:
 * the port is not followed, and stderr says why.
 */
static void find_partners(struct graph *g)
{
	size_t i, j;

	for (i = 0; i < g->n; i++) {
		struct port *e = &g->p[i];
		uint64_t pm = e->d.v[FLOWCTL_A_DEV_PARTNER_MAC];
		int other = 0, own = 0, po = -1, pw = -1;

		e->partner = -1;
		if (!FC_HAS(e->d.have, FLOWCTL_A_DEV_PARTNER_MAC))
			continue;
		for (j = 0; j < g->n; j++) {
			if (j == i || g->p[j].mac != pm)
				continue;
			if (g->p[j].node != e->node) {
				other++;
				po = (int)j;
			} else {
				own++;
				pw = (int)j;
			}
		}
		if (other == 1 || (!other && own == 1)) {
			e->partner = other ? po : pw;
		} else if (other + own > 1) {
			char mac[18];

			fc_fmt_mac(mac, pm);
			fprintf(stderr,
				"waitfor: %s/%s: its partner's address %s is on %d ports; not followed\n",
				*e->ns ? e->ns : ".", e->d.ifname, mac, other ? other : own);
		}
	}
}

static bool waits(const struct graph *g, int from, int to, int prio, int *via)
{
	const struct port *e = &g->p[from], *z = &g->p[to];
	int p;

	if (!held(e, prio) || !held(z, prio) || from == to)
		return false;
	p = e->partner;
	if (p < 0 || p == to || !xoff(&g->p[p], prio) || g->p[p].node != z->node)
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
		print_string(PRINT_ANY, e->host ? "host" : "netns", "  %s",
			     *e->ns ? e->ns : ".");
		print_string(PRINT_ANY, "ifname", "/%s", e->d.ifname);
		print_u64(PRINT_ANY, "backlog_bytes", " (%s bytes queued)",
			  e->d.prio[prio].v[FLOWCTL_A_PRIO_BACKLOG_BYTES]);
		print_string(PRINT_ANY, g->p[via].host ? "paused_by_host" : "paused_by_netns",
			     " is paused by %s", *g->p[via].ns ? g->p[via].ns : ".");
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

int fc_waitfor_print(const struct fc_wf_port *ports, size_t n, int namespaces,
		     int hosts)
{
	struct graph g = { .p = (struct port *)ports, .n = n };
	int found = 0, prio, *path;
	bool *seen;
	size_t s;

	find_partners(&g);
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
	print_u64(PRINT_JSON, "hosts", NULL, (uint64_t)hosts);
	open_json_array("cycles");
	for (prio = 0; prio < FLOWCTL_NUM_PRIOS; prio++)
		for (s = 0; s < n; s++)
			found += find(&g, (int)s, (int)s, prio, path, 1, seen);
	close_json_array();
	print_u64(PRINT_JSON, "found", NULL, (uint64_t)found);
	if (!found && hosts)
		print_text("no wait-for cycle among %zu flowctl ports in %d namespaces and %d hosts\n",
			   n, namespaces, hosts);
	else if (!found)
		print_text("no wait-for cycle among %zu flowctl ports in %d namespaces\n",
			   n, namespaces);
	close_json_object();
	json_end_document();
	free(path);
	free(seen);
	return found;
}

/* Another machine's ports: its `flowctl -j show`, parsed with jansson. */

static int __attribute__((format(printf, 3, 4)))
bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* An optional MAC member: 0 absent, 1 read, -1 not a MAC. */
static int json_mac(const json_t *o, const char *key, uint64_t *mac)
{
	const json_t *v = json_object_get(o, key);
	uint8_t b[6];
	int k;

	if (!v)
		return 0;
	if (!json_is_string(v) || parse_mac(json_string_value(v), b))
		return -1;
	*mac = 0;
	for (k = 0; k < 6; k++)
		*mac = *mac << 8 | b[k];
	return 1;
}

/* An optional member: a bool (as 0/1) or a non-negative integer. */
static int json_num(const json_t *o, const char *key, bool boolean,
		    uint32_t *have, int attr, uint64_t *v)
{
	const json_t *x = json_object_get(o, key);

	if (!x)
		return 0;
	if (boolean ? !json_is_boolean(x) :
		      !json_is_integer(x) || json_integer_value(x) < 0)
		return -1;
	*v = boolean ? json_is_true(x) : (uint64_t)json_integer_value(x);
	*have |= 1u << attr;
	return 0;
}

static int parse_prios(struct port *p, const json_t *prios, size_t n,
		       char *err, size_t len)
{
	static const struct {
		const char *key;
		int attr;
		bool boolean;
	} fields[] = {
		{ "paused", FLOWCTL_A_PRIO_PAUSED, true },
		{ "xoff_active", FLOWCTL_A_PRIO_XOFF_ACTIVE, true },
		{ "backlog_bytes", FLOWCTL_A_PRIO_BACKLOG_BYTES, false },
	};
	const json_t *o, *num;
	size_t i, f;

	if (!json_is_array(prios))
		return bad(err, len, "port %zu (%s): \"prio\" is not an array",
			   n, p->d.ifname);
	json_array_foreach(prios, i, o) {
		struct fc_prio *q;
		json_int_t prio;

		num = json_object_get(o, "prio");
		if (!json_is_object(o) || !json_is_integer(num))
			return bad(err, len, "port %zu (%s): prio entry %zu has no \"prio\" number",
				   n, p->d.ifname, i);
		prio = json_integer_value(num);
		if (prio < 0 || prio >= FLOWCTL_NUM_PRIOS)
			return bad(err, len, "port %zu (%s): priority %lld is not 0-%d",
				   n, p->d.ifname, (long long)prio, FLOWCTL_NUM_PRIOS - 1);
		q = &p->d.prio[prio];
		if (q->have)
			return bad(err, len, "port %zu (%s): priority %lld twice",
				   n, p->d.ifname, (long long)prio);
		q->have = 1u << FLOWCTL_A_PRIO_PRIO;
		q->v[FLOWCTL_A_PRIO_PRIO] = (uint64_t)prio;
		for (f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
			if (json_num(o, fields[f].key, fields[f].boolean, &q->have,
				     fields[f].attr, &q->v[fields[f].attr]))
				return bad(err, len, "port %zu (%s) priority %lld: \"%s\" is not %s",
					   n, p->d.ifname, (long long)prio, fields[f].key,
					   fields[f].boolean ? "true or false" :
					   "a count");
	}
	return 0;
}

static int parse_port(struct graph *g, const json_t *o, size_t n,
		      const char *label, int node, char *err, size_t len)
{
	const json_t *name = json_object_get(o, "ifname"), *prios;
	uint64_t mac = 0;
	struct port *p;

	if (!json_is_object(o))
		return bad(err, len, "port %zu is not a JSON object", n);
	if (!json_is_string(name) || !*json_string_value(name) ||
	    strlen(json_string_value(name)) >= IF_NAMESIZE)
		return bad(err, len, "port %zu has no \"ifname\" (an interface name)", n);
	p = fc_wf_add(g);
	if (!p)
		return bad(err, len, "out of memory");
	p->ns = label;
	p->node = node;
	p->host = true;
	snprintf(p->d.ifname, sizeof(p->d.ifname), "%s", json_string_value(name));
	p->d.have = 1u << FLOWCTL_A_DEV_IFNAME;
	switch (json_mac(o, "address", &mac)) {
	case 1:
		p->mac = mac;
		p->d.hwaddr = mac;
		break;
	case 0:
		return bad(err, len,
			   "port %zu (%s) has no \"address\" (its own MAC): the device has none, or an older flowctl printed this; run this version's flowctl -j show",
			   n, p->d.ifname);
	default:
		return bad(err, len, "port %zu (%s): \"address\" is not a MAC address",
			   n, p->d.ifname);
	}
	switch (json_mac(o, "partner_mac", &mac)) {
	case 1:
		p->d.have |= 1u << FLOWCTL_A_DEV_PARTNER_MAC;
		p->d.v[FLOWCTL_A_DEV_PARTNER_MAC] = mac;
		break;
	case -1:
		return bad(err, len, "port %zu (%s): \"partner_mac\" is not a MAC address",
			   n, p->d.ifname);
	}
	prios = json_object_get(o, "prio");
	return prios ? parse_prios(p, prios, n, err, len) : 0;
}

int fc_wf_parse_show(struct graph *g, const char *text, size_t len,
		     const char *label, int node, char *err, size_t errlen)
{
	size_t n0 = g->n, i;
	json_error_t je;
	json_t *root, *o;
	int ret = 0;

	root = json_loadb(text, len, 0, &je);
	if (!root)
		return bad(err, errlen, "line %d column %d: %s", je.line, je.column,
			   je.text);
	if (!json_is_array(root))
		ret = bad(err, errlen,
			  "not what flowctl -j show prints (a JSON array of ports)");
	json_array_foreach(root, i, o) {
		if (ret)
			break;
		ret = parse_port(g, o, i, label, node, err, errlen);
	}
	json_decref(root);
	if (ret)
		g->n = n0;
	return ret;
}

/* FILE's label: its name without the directory and ".json". */
static char *file_label(const char *path)
{
	char *copy = strdup(path), *label, *dot;

	if (!copy)
		return NULL;
	label = strdup(basename(copy));
	free(copy);
	if (!label)
		return NULL;
	dot = strrchr(label, '.');
	if (dot && dot != label && !strcmp(dot, ".json"))
		*dot = '\0';
	return label;
}

static int read_host(struct graph *g, const char *path, const char *label,
		     int node)
{
	char err[256], *text = NULL;
	size_t len = 0, cap = 0, got;
	int ret = -1;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "waitfor: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			char *nt;

			if (cap > MAX_FILE) {
				fprintf(stderr, "waitfor: %s: more than %u MiB\n", path,
					MAX_FILE >> 20);
				goto out;
			}
			/* One byte past the bound tells a file of the bound
			 * from a longer one.
			 */
			cap = cap ? 2 * cap : 65536;
			if (cap > MAX_FILE + 1)
				cap = MAX_FILE + 1;
			nt = realloc(text, cap);
			if (!nt) {
				fprintf(stderr, "waitfor: out of memory\n");
				goto out;
			}
			text = nt;
		}
		got = fread(text + len, 1, cap - len, f);
		len += got;
	} while (got);
	if (ferror(f)) {
		fprintf(stderr, "waitfor: cannot read %s: %s\n", path, strerror(errno));
		goto out;
	}
	ret = fc_wf_parse_show(g, text, len, label, node, err, sizeof(err));
	if (ret)
		fprintf(stderr, "waitfor: %s: %s\n", path, err);
out:
	fclose(f);
	free(text);
	return ret;
}

int cmd_waitfor(int argc, char **argv)
{
	static const char *const words[] = { "netns", "file", "help", NULL };
	const char *names[MAX_NS], *files[MAX_NS];
	char *labels[MAX_NS] = { NULL };
	struct stat seen[MAX_NS + 1];
	struct graph g = { 0 };
	int n = 0, nf = 0, nseen = 0, nread = 0, node = 0, home = -1;
	int ret = EXIT_OK, found, k, i;
	char path[4096];
	bool all = true;

	while (argc > 0) {
		k = parse_keyword(argv[0], words);
		if (k < 0)
			return bad_keyword(argv[0], words, k, "waitfor");
		if (k == 2) {
			usage_waitfor(stdout);
			return EXIT_OK;
		}
		if (argc < 2)
			return k ? missing_value("file", "a file of flowctl -j show's output") :
				   missing_value("netns", "a network namespace name");
		if ((k ? nf : n) == MAX_NS) {
			fprintf(stderr, "Error: at most %d %s\n", MAX_NS,
				k ? "files" : "namespaces");
			return EXIT_USAGE;
		}
		if (k == 1) {
			files[nf++] = argv[1];
		} else if (strchr(argv[1], '/') || !*argv[1]) {
			fprintf(stderr, "Error: \"%s\" is not a namespace name (as ip netns names them)\n",
				argv[1]);
			return EXIT_USAGE;
		} else {
			names[n++] = argv[1];
		}
		all = false;
		argc -= 2;
		argv += 2;
	}
	/* Each host once, and by a name of its own. */
	for (k = 0; k < nf; k++) {
		labels[k] = file_label(files[k]);
		if (!labels[k]) {
			fprintf(stderr, "waitfor: out of memory\n");
			ret = EXIT_FAIL;
			goto out;
		}
		for (i = 0; i < n; i++)
			if (!strcmp(names[i], labels[k])) {
				fprintf(stderr,
					"Error: %s would be host \"%s\", the name of a namespace given too: rename the file\n",
					files[k], labels[k]);
				ret = EXIT_USAGE;
				goto out;
			}
		for (i = 0; i < k; i++)
			if (!strcmp(labels[i], labels[k])) {
				fprintf(stderr,
					"Error: %s and %s would both be host \"%s\": give each host's file its own name\n",
					files[i], files[k], labels[k]);
				ret = EXIT_USAGE;
				goto out;
			}
	}
	if (n || all) {
		home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		if (home < 0) {
			fprintf(stderr, "waitfor: cannot open this network namespace: %s\n",
				strerror(errno));
			ret = EXIT_FAIL;
			goto out;
		}
	}
	if (all) {
		DIR *dir = opendir(NETNS_DIR);
		struct dirent *de;

		same_ns("/proc/self/ns/net", seen, &nseen);
		if (read_ports(&g, "", node++))
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
			if (read_ports(&g, names[k], node++))
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
	for (k = 0; k < nf && ret == EXIT_OK; k++)
		if (read_host(&g, files[k], labels[k], node++))
			ret = EXIT_FAIL;
	if (ret != EXIT_OK)
		goto out;

	found = fc_waitfor_print(g.p, g.n, nread, nf);
	ret = found < 0 ? EXIT_FAIL : found ? EXIT_FOUND : EXIT_OK;
out:
	if (home >= 0)
		close(home);
	if (all)
		for (k = 0; k < n; k++)
			free((char *)names[k]);
	for (k = 0; k < nf; k++)
		free(labels[k]);
	free(g.p);
	return ret;
}
