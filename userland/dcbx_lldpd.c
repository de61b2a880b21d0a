// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl dcbx other-agents lldpd: the DCBX TLVs leave through lldpd.
 *
 * Where lldpd runs on the port, a second sender of LLDPDUs would be a second
 * neighbour to the partner, which then turns DCBX off (802.1Qaz). So the
 * agent sends nothing itself: it hands each organizationally specific TLV
 * of the LLDPDU it would have sent to lldpd as a custom TLV (lldpcli's
 * "configure ports DEV lldp custom-tlv replace"), and lldpd sends them in
 * its own LLDPDUs, beside its TLVs, at once when they change and every
 * interval after. The partner's TLVs still come off the wire through the
 * agent's own packet socket: receiving adds no neighbour.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dcbx_lldpd.h"
#include "flowctl.h"

extern char **environ;

/* How long lldpcli may wait for lldpd: a stopped or hung lldpd must not stall
 * the agent, which also reads its partner.
 */
#define LLDPCLI_TIMEOUT_MS 5000

/*
 * lldpcli [-u SOCK] ARGS...: 0; -1 with its first line of complaint; or
 * FC_LLDPD_HUNG when it got no answer within LLDPCLI_TIMEOUT_MS (it is killed).
 */
static int lldpcli(struct fc_dcbx_agent *a, const char *const *args, char *err,
		   size_t errlen)
{
	const char *argv[24];
	posix_spawn_file_actions_t fa;
	int pfd[2], n = 0, i, status;
	bool hung = false;
	uint64_t deadline;
	size_t got = 0;
	pid_t pid;

	argv[n++] = "lldpcli";
	if (a->lldpd_sock) {
		argv[n++] = "-u";
		argv[n++] = a->lldpd_sock;
	}
	for (i = 0; args[i] && n < 23; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	err[0] = '\0';
	if (pipe(pfd))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_addclose(&fa, pfd[1]);
	i = posix_spawnp(&pid, "lldpcli", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (i) {
		close(pfd[0]);
		snprintf(err, errlen, "cannot run lldpcli: %s", strerror(i));
		return -1;
	}
	/* Its stderr until it exits (EOF), kept up to errlen, the rest drained
	 * so that it never blocks on a full pipe.
	 */
	deadline = fc_mono_ns() + LLDPCLI_TIMEOUT_MS * 1000000ULL;
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		uint64_t now = fc_mono_ns();
		char sink[256];
		ssize_t r;

		r = now < deadline ? poll(&p, 1, (int)((deadline - now + 999999) / 1000000)) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			hung = true;	/* no answer in time (or poll failed): killed */
			break;
		}
		if (got < errlen - 1)
			r = read(pfd[0], err + got, errlen - 1 - got);
		else
			r = read(pfd[0], sink, sizeof(sink));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (got < errlen - 1)
			got += (size_t)r;
	}
	close(pfd[0]);
	err[got] = '\0';
	err[strcspn(err, "\n")] = '\0';
	if (hung)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (hung) {
		snprintf(err, errlen, "lldpd did not answer lldpcli within %d s",
			 LLDPCLI_TIMEOUT_MS / 1000);
		return FC_LLDPD_HUNG;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (!err[0])
		snprintf(err, errlen, "lldpcli %s failed (status %d)", args[0],
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return -1;
}

int fc_lldpd_probe(struct fc_dcbx_agent *a)
{
	static const char *const args[] = { "show", "configuration", NULL };
	char err[256];

	if (!lldpcli(a, args, err, sizeof(err)))
		return 0;
	fprintf(stderr,
		"Error: dcbx: other-agents lldpd: lldpcli cannot reach lldpd%s%s: %s\n",
		a->lldpd_sock ? " on " : "", a->lldpd_sock ? a->lldpd_sock : "", err);
	return -1;
}

static void hexlist(char *out, size_t cap, const uint8_t *b, size_t n)
{
	size_t i, o = 0;

	out[0] = '\0';
	for (i = 0; i < n && o + 4 < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, "%s%02x", i ? "," : "", b[i]);
}

/* Hand one TLV (or its removal: len < 0) to lldpd. */
static int lldpd_tlv(struct fc_dcbx_agent *a, const uint8_t oui[3], uint8_t subtype,
		     const uint8_t *info, int len)
{
	char o[16], st[8], hex[LLDPD_TLV_MAX * 3 + 1], err[256], detail[320];
	const char *set[] = { "configure", "ports", a->dev, "lldp", "custom-tlv",
			      "replace", "oui", o, "subtype", st, "oui-info", hex, NULL };
	const char *del[] = { "unconfigure", "ports", a->dev, "lldp", "custom-tlv",
			      "oui", o, "subtype", st, NULL };
	int r;

	hexlist(o, sizeof(o), oui, 3);
	snprintf(st, sizeof(st), "%u", subtype);
	if (len > 0)
		hexlist(hex, sizeof(hex), info, (size_t)len);
	else
		set[10] = NULL;		/* an empty TLV: no oui-info */
	r = lldpcli(a, len < 0 ? del : set, err, sizeof(err));
	if (!r)
		return 0;
	snprintf(detail, sizeof(detail), "lldpd did not take the TLV %s/%u: %s", o,
		 subtype, err);
	fc_dcbx_event(a, "lldpd-error", detail);
	return r;
}

int fc_lldpd_push(struct fc_dcbx_agent *a, const uint8_t *frame, size_t len)
{
	bool seen[LLDPD_TLVS] = { false };
	size_t off = 14, i;
	int ret = 0, pushed = 0, r;

	while (off + 2 <= len) {
		unsigned int type = frame[off] >> 1;
		size_t tlen = ((frame[off] & 1u) << 8) | frame[off + 1];
		const uint8_t *v = frame + off + 2;
		struct fc_lldpd_tlv *t = NULL;

		if (!type || off + 2 + tlen > len)
			break;
		off += 2 + tlen;
		/* Only the organizationally specific TLVs are DCBX's: lldpd
		 * sends Chassis ID, Port ID and TTL of its own.
		 */
		if (type != 127 || tlen < 4 || tlen - 4 > LLDPD_TLV_MAX)
			continue;
		for (i = 0; i < a->lldpd_n; i++)
			if (!memcmp(a->lldpd[i].oui, v, 3) && a->lldpd[i].subtype == v[3])
				t = &a->lldpd[i];
		if (!t) {
			if (a->lldpd_n == LLDPD_TLVS)
				continue;
			t = &a->lldpd[a->lldpd_n++];
			memcpy(t->oui, v, 3);
			t->subtype = v[3];
			t->len = -1;
		}
		seen[t - a->lldpd] = true;
		if (t->len == (int)(tlen - 4) && !memcmp(t->info, v + 4, tlen - 4))
			continue;
		r = lldpd_tlv(a, t->oui, t->subtype, v + 4, (int)(tlen - 4));
		if (r == FC_LLDPD_HUNG)
			return r;	/* no lldpd to hear the rest either */
		if (r) {
			ret = -1;
			continue;
		}
		memcpy(t->info, v + 4, tlen - 4);
		t->len = (int)(tlen - 4);
		pushed++;
	}
	/* A TLV we no longer send (IEEE after CEE, say) leaves lldpd too. */
	for (i = 0; i < a->lldpd_n; i++) {
		if (seen[i] || a->lldpd[i].len < 0)
			continue;
		r = lldpd_tlv(a, a->lldpd[i].oui, a->lldpd[i].subtype, NULL, -1);
		if (r == FC_LLDPD_HUNG)
			return r;
		if (r) {
			ret = -1;
		} else {
			a->lldpd[i].len = -1;
			pushed++;
		}
	}
	/* tx: the changes lldpd took, each of which it sends at once. */
	if (pushed)
		a->tx++;
	return ret;
}

void fc_lldpd_clear(struct fc_dcbx_agent *a)
{
	size_t i;
	int r;

	for (i = 0; i < a->lldpd_n; i++) {
		if (a->lldpd[i].len < 0)
			continue;
		r = lldpd_tlv(a, a->lldpd[i].oui, a->lldpd[i].subtype, NULL, -1);
		if (r == FC_LLDPD_HUNG)
			return;
		if (!r)
			a->lldpd[i].len = -1;
	}
}
