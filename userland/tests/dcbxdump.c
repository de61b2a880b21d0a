// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: DCBX LLDPDUs through dcbx.c, for cross-checks against
 * scapy and tshark (tests/test_dcbx.py).
 *
 *   dcbxdump build [sa=MAC] [ttl=N] [pfc=W:MBC:CAP:ENABLE]
 *                  [etscfg=W:CBS:MAX:PRIOTC:BW:TSA] [etsrec=PRIOTC:BW:TSA]
 *                  [app=[PRIO:SEL:PROTO[,PRIO:SEL:PROTO...]]]
 *                  [cee=SEQ:ACK] [ceepg=FLAGS:PGIDS:PCT] [ceepfc=FLAGS:ENABLE]
 *                  [ceeapp=FLAGS:SEL:PROTO:PRIOMAP[,SEL:PROTO:PRIOMAP...]]
 *       CEE: FLAGS a string of e, w, x (enable, willing, error) or -;
 *       PGIDS 8 hex digits (15 = f: strict), PCT 8 numbers with commas
 *       the frame as one hex line. PRIOTC: 8 digits (priority 0..7's
 *       class), BW and TSA: 8 numbers with commas
 *   dcbxdump parse HEX
 *       what dcbx_parse() makes of it, as one JSON object
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dcbx.h"
#include "../parse.h"

static int list8(const char *s, uint8_t *v)
{
	char *end;
	int i;

	for (i = 0; i < 8; i++) {
		unsigned long x = strtoul(s, &end, 0);

		if (end == s || x > 255 || (i < 7 ? *end != ',' : *end != ':' && *end))
			return -1;
		v[i] = (uint8_t)x;
		s = end + (*end != 0);
	}
	return 0;
}

static const char *ets_args(const char *s, struct dcbx_ets *e)
{
	int i;

	for (i = 0; i < 8; i++) {
		if (s[i] < '0' || s[i] > '9')
			return NULL;
		e->prio_tc[i] = (uint8_t)(s[i] - '0');
	}
	if (s[8] != ':' || list8(s + 9, e->tc_bw))
		return NULL;
	s = strchr(s + 9, ':');
	if (!s || list8(s + 1, e->tsa))
		return NULL;
	return s;
}

static void cee_flags(const char *f, struct dcbx_cee_feat *x)
{
	x->have = true;
	x->enable = strchr(f, 'e');
	x->willing = strchr(f, 'w');
	x->error = strchr(f, 'x');
}

static int build(int argc, char **argv)
{
	struct dcbx_lldpdu d = { 0 };
	uint8_t sa[6] = { 0x02, 0, 0, 0, 0, 0x0a }, buf[LLDP_MAX_FRAME];
	size_t len, i;
	int a;

	d.ttl = LLDP_DEFAULT_TTL;
	for (a = 0; a < argc; a++) {
		const char *s = argv[a];
		unsigned int w, m, c, x;

		if (!strncmp(s, "sa=", 3)) {
			if (parse_mac(s + 3, sa))
				return 2;
		} else if (!strncmp(s, "ttl=", 4)) {
			d.ttl = (uint16_t)strtoul(s + 4, NULL, 0);
		} else if (sscanf(s, "pfc=%u:%u:%u:%i", &w, &m, &c, &x) == 4) {
			d.have_pfc = true;
			d.pfc.willing = w;
			d.pfc.mbc = m;
			d.pfc.cap = (uint8_t)c;
			d.pfc.enable = (uint8_t)x;
		} else if (sscanf(s, "etscfg=%u:%u:%u:", &w, &c, &m) == 3) {
			const char *t = strchr(strchr(strchr(s, ':') + 1, ':') + 1, ':') + 1;

			d.have_ets_cfg = true;
			d.ets_cfg.willing = w;
			d.ets_cfg.cbs = c;
			d.ets_cfg.max_tcs = (uint8_t)m;
			if (!ets_args(t, &d.ets_cfg))
				return 2;
		} else if (!strncmp(s, "app=", 4)) {
			const char *t = s + 4;

			d.have_app = true;
			while (*t) {
				struct dcbx_app_entry *e = &d.app.e[d.app.n];
				int used = 0;

				if (d.app.n == DCBX_APP_MAX ||
				    sscanf(t, "%u:%u:%i%n", &w, &m, &x, &used) != 3)
					return 2;
				e->prio = (uint8_t)w;
				e->sel = (uint8_t)m;
				e->proto = (uint16_t)x;
				d.app.n++;
				t += used;
				if (*t == ',')
					t++;
			}
		} else if (sscanf(s, "cee=%u:%u", &w, &x) == 2) {
			d.have_cee = true;
			d.cee.seq = w;
			d.cee.ack = (uint32_t)x;
		} else if (!strncmp(s, "ceepg=", 6)) {
			char fl[8];
			const char *t;

			if (sscanf(s + 6, "%7[^:]:", fl) != 1 || !(t = strchr(s + 6, ':')))
				return 2;
			cee_flags(fl, &d.cee.pg);
			for (i = 0; i < 8; i++) {
				char h[2] = { t[1 + i], 0 };

				d.cee.pgid[i] = (uint8_t)strtoul(h, NULL, 16);
			}
			if (t[9] != ':' || list8(t + 10, d.cee.pg_pct))
				return 2;
			d.cee.pg_tcs = 8;
		} else if (!strncmp(s, "ceepfc=", 7)) {
			char fl[8];

			if (sscanf(s + 7, "%7[^:]:%i", fl, &x) != 2)
				return 2;
			cee_flags(fl, &d.cee.pfc);
			d.cee.pfc_enable = (uint8_t)x;
			d.cee.pfc_tcs = 8;
		} else if (!strncmp(s, "ceeapp=", 7)) {
			char fl[8];
			const char *t = strchr(s + 7, ':');

			if (sscanf(s + 7, "%7[^:]:", fl) != 1 || !t)
				return 2;
			cee_flags(fl, &d.cee.app);
			t++;
			while (*t) {
				struct dcbx_cee_app *e = &d.cee.apps[d.cee.napp];
				int used = 0;

				if (d.cee.napp == DCBX_CEE_APP_MAX ||
				    sscanf(t, "%u:%i:%i%n", &w, &x, &m, &used) != 3)
					return 2;
				e->sel = (uint8_t)w;
				e->proto = (uint16_t)x;
				e->prio_map = (uint8_t)m;
				memcpy(e->oui, "\x00\x1b\x21", 3);
				d.cee.napp++;
				t += used;
				if (*t == ',')
					t++;
			}
		} else if (!strncmp(s, "etsrec=", 7)) {
			d.have_ets_rec = true;
			if (!ets_args(s + 7, &d.ets_rec))
				return 2;
		} else {
			fprintf(stderr, "dcbxdump: what is \"%s\"?\n", s);
			return 2;
		}
	}
	d.chassis_subtype = 4;		/* MAC address */
	memcpy(d.chassis_id, sa, 6);
	d.chassis_len = 6;
	d.port_subtype = 5;		/* interface name */
	memcpy(d.port_id, "eth0", 4);
	d.port_len = 4;
	len = dcbx_build(buf, sizeof(buf), sa, &d);
	if (!len) {
		fprintf(stderr, "dcbxdump: dcbx_build refused\n");
		return 1;
	}
	for (i = 0; i < len; i++)
		printf("%02x", buf[i]);
	printf("\n");
	return 0;
}

static void print_ets(const char *key, const struct dcbx_ets *e, bool cfg)
{
	int i;

	printf(",\"%s\":{", key);
	if (cfg)
		printf("\"willing\":%d,\"cbs\":%d,\"max_tcs\":%u,", e->willing,
		       e->cbs, e->max_tcs);
	printf("\"prio_tc\":[");
	for (i = 0; i < 8; i++)
		printf("%s%u", i ? "," : "", e->prio_tc[i]);
	printf("],\"tc_bw\":[");
	for (i = 0; i < 8; i++)
		printf("%s%u", i ? "," : "", e->tc_bw[i]);
	printf("],\"tsa\":[");
	for (i = 0; i < 8; i++)
		printf("%s%u", i ? "," : "", e->tsa[i]);
	printf("]}");
}

static int parse(const char *hex)
{
	static uint8_t buf[4096];
	struct dcbx_lldpdu d;
	enum dcbx_err e;
	size_t n = strlen(hex) / 2, i;

	if (n > sizeof(buf))
		return 2;
	for (i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return 2;
		buf[i] = (uint8_t)b;
	}
	e = dcbx_parse(buf, n, &d);
	printf("{\"result\":%d,\"reason\":\"%s\",\"ttl\":%u,\"chassis_subtype\":%u,\"chassis_len\":%u,\"port_subtype\":%u,\"port_len\":%u,\"unknown\":%u",
	       (int)e, dcbx_strerror(e), d.ttl, d.chassis_subtype, d.chassis_len,
	       d.port_subtype, d.port_len, d.unknown_tlvs);
	if (d.have_pfc)
		printf(",\"pfc\":{\"willing\":%d,\"mbc\":%d,\"cap\":%u,\"enable\":%u}",
		       d.pfc.willing, d.pfc.mbc, d.pfc.cap, d.pfc.enable);
	if (d.have_ets_cfg)
		print_ets("ets_cfg", &d.ets_cfg, true);
	if (d.have_ets_rec)
		print_ets("ets_rec", &d.ets_rec, false);
	if (d.have_app) {
		printf(",\"app\":[");
		for (i = 0; i < d.app.n; i++)
			printf("%s[%u,%u,%u]", i ? "," : "", d.app.e[i].prio,
			       d.app.e[i].sel, d.app.e[i].proto);
		printf("]");
	}
	if (d.have_cee) {
		const struct dcbx_cee *c = &d.cee;
		const struct dcbx_cee_feat *f[3] = { &c->pg, &c->pfc, &c->app };
		static const char *const names[3] = { "pg", "pfc", "app" };

		printf(",\"cee\":{\"seq\":%u,\"ack\":%u", c->seq, c->ack);
		for (i = 0; i < 3; i++)
			if (f[i]->have)
				printf(",\"%s_flags\":\"%s%s%s\"", names[i],
				       f[i]->enable ? "e" : "", f[i]->willing ? "w" : "",
				       f[i]->error ? "x" : "");
		if (c->pg.have) {
			printf(",\"pgid\":[");
			for (i = 0; i < 8; i++)
				printf("%s%u", i ? "," : "", c->pgid[i]);
			printf("],\"pg_pct\":[");
			for (i = 0; i < 8; i++)
				printf("%s%u", i ? "," : "", c->pg_pct[i]);
			printf("]");
		}
		if (c->pfc.have)
			printf(",\"pfc_enable\":%u", c->pfc_enable);
		if (c->app.have) {
			printf(",\"app\":[");
			for (i = 0; i < c->napp; i++)
				printf("%s[%u,%u,%u,\"%02x%02x%02x\"]", i ? "," : "",
				       c->apps[i].sel, c->apps[i].proto, c->apps[i].prio_map,
				       c->apps[i].oui[0], c->apps[i].oui[1], c->apps[i].oui[2]);
			printf("]");
		}
		printf("}");
	}
	printf(",\"bad\":{");
	for (i = 0; i < DCBX_FEATURES; i++)
		if (d.bad & (1u << i))
			printf("%s\"%s\":%u", (d.bad & ((1u << i) - 1)) ? "," : "",
			       dcbx_feature_name((enum dcbx_feature)i), d.bad_err[i]);
	printf("}}\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "build"))
		return build(argc - 2, argv + 2);
	if (argc == 3 && !strcmp(argv[1], "parse"))
		return parse(argv[2]);
	fprintf(stderr, "usage: dcbxdump build ... | parse HEX\n");
	return 2;
}
