// SPDX-License-Identifier: GPL-2.0
/*
 * DCBX's decision (802.1Qaz 38.4/38.5): who uses whose PFC and ETS
 * configuration, for each combination of willing bits, MAC order and
 * agreement. (tests/test_dcbx.py judges the frames.)
 */
#include <string.h>

#include "ktap.h"
#include "../dcbx.h"

static struct dcbx_pfc pfc(bool willing, uint8_t enable)
{
	struct dcbx_pfc p = { .willing = willing, .cap = 8, .enable = enable };

	return p;
}

static void test_pfc(void)
{
	struct dcbx_pfc l, r, use;
	enum dcbx_state s;

	l = pfc(true, 0x08);
	s = dcbx_pfc_decide(&l, NULL, 0, &use);
	ktap_ok(s == DCBX_NO_PARTNER && use.enable == 0x08, "pfc: no partner, our own");
	r = pfc(false, 0x18);
	s = dcbx_pfc_decide(&l, &r, -1, &use);
	ktap_ok(s == DCBX_ADOPTED && use.enable == 0x18,
		"pfc: willing vs unwilling: we adopt the partner's, whatever the MACs");
	l = pfc(false, 0x08);
	r = pfc(true, 0x18);
	s = dcbx_pfc_decide(&l, &r, 1, &use);
	ktap_ok(s == DCBX_PARTNER_ADOPTS && use.enable == 0x08,
		"pfc: unwilling vs willing: we keep ours, the partner takes it");
	l = pfc(true, 0x08);
	s = dcbx_pfc_decide(&l, &r, 1, &use);
	ktap_ok(s == DCBX_PARTNER_ADOPTS && use.enable == 0x08,
		"pfc: both willing, our MAC higher: we keep ours (lldpad's pfc_sm)");
	s = dcbx_pfc_decide(&l, &r, -1, &use);
	ktap_ok(s == DCBX_ADOPTED && use.enable == 0x18,
		"pfc: both willing, our MAC lower: we adopt (lldpad's pfc_sm)");
	l = pfc(false, 0x08);
	r = pfc(false, 0x18);
	s = dcbx_pfc_decide(&l, &r, 1, &use);
	ktap_ok(s == DCBX_MISMATCH && use.enable == 0x08,
		"pfc: neither willing and they differ: mismatch, we keep ours");
	r = pfc(false, 0x08);
	s = dcbx_pfc_decide(&l, &r, 1, &use);
	ktap_ok(s == DCBX_AGREE, "pfc: neither willing, the same: agree");
	l = pfc(true, 0x08);
	r = pfc(true, 0x08);
	s = dcbx_pfc_decide(&l, &r, 1, &use);
	ktap_ok(s == DCBX_AGREE && use.enable == 0x08, "pfc: both willing, the same: agree");
}

static void test_ets(void)
{
	struct dcbx_ets l = { .willing = true, .prio_tc = { 1, 0, 2, 3, 4, 5, 6, 7 } };
	struct dcbx_lldpdu r;
	struct dcbx_ets use;
	enum dcbx_state s;

	memset(&r, 0, sizeof(r));
	s = dcbx_ets_decide(&l, &r, 1, &use);
	ktap_ok(s == DCBX_NO_PARTNER, "ets: a partner without the ETS TLV");
	r.have_ets_cfg = true;
	r.ets_cfg.willing = false;
	memcpy(r.ets_cfg.prio_tc, "\0\1\2\3\4\5\6\7", 8);
	memcpy(r.ets_cfg.tc_bw, "\x1e\0\0\x32\0\x14\0\0", 8);
	memcpy(r.ets_cfg.tsa, "\2\0\0\2\0\2\0\0", 8);
	s = dcbx_ets_decide(&l, &r, -1, &use);
	ktap_ok(s == DCBX_OWN && use.tc_bw[0] == 0,
		"ets: willing, but the partner recommends nothing: our own");
	r.have_ets_rec = true;
	r.ets_rec = r.ets_cfg;
	memcpy(r.ets_rec.tc_bw, "\x64\0\0\0\0\0\0\0", 8);
	memcpy(r.ets_rec.tsa, "\2\0\0\0\0\0\0\0", 8);
	s = dcbx_ets_decide(&l, &r, -1, &use);
	ktap_ok(s == DCBX_ADOPTED && use.tc_bw[0] == 100 && use.tc_bw[3] == 0,
		"ets: the partner's recommendation is what a willing end adopts");
	r.ets_cfg.willing = true;
	s = dcbx_ets_decide(&l, &r, 1, &use);
	ktap_ok(s == DCBX_ADOPTED && use.tc_bw[0] == 100,
		"ets: asymmetric: both willing, a willing end adopts whatever the MACs");
	l.willing = false;
	r.ets_cfg.willing = false;
	s = dcbx_ets_decide(&l, &r, -1, &use);
	ktap_ok(s == DCBX_OWN && use.tc_bw[0] == 0,
		"ets: neither willing and they differ: each its own, no mismatch");
	r.ets_cfg.willing = true;
	s = dcbx_ets_decide(&l, &r, -1, &use);
	ktap_ok(s == DCBX_PARTNER_ADOPTS, "ets: the partner willing: it adopts ours");
	memcpy(&r.ets_cfg, &l, sizeof(l));
	s = dcbx_ets_decide(&l, &r, -1, &use);
	ktap_ok(s == DCBX_AGREE, "ets: the same tables: agree");
}

static struct dcbx_lldpdu cee_partner(bool willing, bool error, uint8_t enable)
{
	struct dcbx_lldpdu r;

	memset(&r, 0, sizeof(r));
	r.have_cee = true;
	r.cee.pfc.have = r.cee.pfc.enable = true;
	r.cee.pfc.willing = willing;
	r.cee.pfc.error = error;
	r.cee.pfc_enable = enable;
	r.cee.pfc_tcs = 8;
	return r;
}

/* CEE: lldpad's run_feature_protocol, and the groups as ETS and back. */
static void test_cee(void)
{
	struct dcbx_pfc l = pfc(true, 0x08), use;
	struct dcbx_lldpdu r = cee_partner(false, false, 0x18), none;
	struct dcbx_ets e = { .prio_tc = { 0, 1, 2, 3, 4, 5, 6, 7 },
			      .tc_bw = { 40, 0, 0, 60 },
			      .tsa = { DCBX_TSA_ETS, 0, 0, DCBX_TSA_ETS } }, back;
	struct dcbx_cee c;
	enum dcbx_state s;
	bool err;

	memset(&none, 0, sizeof(none));
	s = dcbx_cee_pfc_decide(&l, &none, &use, &err);
	ktap_ok(s == DCBX_NO_PARTNER && !err && use.enable == 0x08, "cee pfc: no partner, ours, no error");
	s = dcbx_cee_pfc_decide(&l, &r, &use, &err);
	ktap_ok(s == DCBX_ADOPTED && !err && use.enable == 0x18,
		"cee pfc: willing vs unwilling: we adopt the partner's");
	r = cee_partner(false, true, 0x18);
	s = dcbx_cee_pfc_decide(&l, &r, &use, &err);
	ktap_ok(s == DCBX_OWN && use.enable == 0x08,
		"cee pfc: an unwilling partner in error is not adopted");
	r = cee_partner(true, false, 0x18);
	s = dcbx_cee_pfc_decide(&l, &r, &use, &err);
	ktap_ok(s == DCBX_MISMATCH && err && use.enable == 0x08,
		"cee pfc: both willing and different: no MAC tie-break, a mismatch with our Error bit");
	l = pfc(false, 0x08);
	r = cee_partner(false, false, 0x08);
	s = dcbx_cee_pfc_decide(&l, &r, &use, &err);
	ktap_ok(s == DCBX_AGREE && !err, "cee pfc: neither willing, the same: agree");
	r.cee.pfc.have = false;
	s = dcbx_cee_pfc_decide(&l, &r, &use, &err);
	ktap_ok(err, "cee pfc: a partner without the PFC feature: our Error bit");
	r = cee_partner(false, false, 0x18);
	r.cee.pfc.enable = false;
	s = dcbx_cee_pfc_decide(&l, &r, &use, &err);
	ktap_ok(s == DCBX_OWN && !err && use.enable == 0x08, "cee pfc: the partner's feature disabled: ours");

	dcbx_ets_to_cee_pg(&e, &c);
	ktap_ok(!memcmp(c.pgid, (uint8_t[]){ 0, 15, 15, 3, 15, 15, 15, 15 }, 8) &&
		!memcmp(c.pg_pct, (uint8_t[]){ 40, 0, 0, 60, 0, 0, 0, 0 }, 8),
		"cee pg: ETS classes are groups with their percents, strict classes group 15");
	dcbx_cee_pg_to_ets(&c, &back);
	ktap_ok(!memcmp(back.prio_tc, (uint8_t[]){ 0, 7, 7, 3, 7, 7, 7, 7 }, 8) &&
		!memcmp(back.tc_bw, (uint8_t[]){ 40, 0, 0, 60, 0, 0, 0, 0 }, 8) &&
		back.tsa[0] == DCBX_TSA_ETS && back.tsa[3] == DCBX_TSA_ETS && back.tsa[7] == DCBX_TSA_STRICT,
		"cee pg: group 15 comes back as the highest unused class, strict");
	dcbx_ets_to_cee_pg(&back, &c);
	ktap_ok(!memcmp(c.pgid, (uint8_t[]){ 0, 15, 15, 3, 15, 15, 15, 15 }, 8),
		"cee pg: and goes out again as it came");
	memset(&e, 0, sizeof(e));
	dcbx_ets_to_cee_pg(&e, &c);
	ktap_ok(c.pgid[0] == 15 && c.pgid[7] == 15 && c.pg_pct[0] == 100,
		"cee pg: no ETS class: every priority strict, the percents on group 0");
	memset(&c, 0, sizeof(c));
	memcpy(c.pg_pct, (uint8_t[]){ 12, 12, 12, 12, 13, 13, 13, 13 }, 8);
	memcpy(c.pgid, (uint8_t[]){ 0, 0, 0, 1, 0, 0, 0, 0 }, 8);
	dcbx_cee_pg_to_ets(&c, &back);
	ktap_ok(back.tc_bw[0] + back.tc_bw[1] == 100 && back.tc_bw[0] > 0 && back.tc_bw[1] > 0 &&
		dcbx_ets_valid(&back),
		"cee pg: percents of groups no priority uses: the used ones scaled to 100 (lldpad's default)");
	r = cee_partner(false, false, 0x18);
	r.cee.pg.have = r.cee.pg.enable = true;
	memcpy(r.cee.pgid, (uint8_t[]){ 0, 0, 0, 1, 0, 0, 0, 15 }, 8);
	memcpy(r.cee.pg_pct, (uint8_t[]){ 50, 50, 0, 0, 0, 0, 0, 0 }, 8);
	dcbx_cee_to_ieee(&r);
	ktap_ok(r.have_pfc && r.pfc.enable == 0x18 && r.have_ets_cfg && r.have_ets_rec &&
		r.ets_rec.prio_tc[3] == 1 && r.ets_rec.prio_tc[7] == 7 && r.ets_rec.tc_bw[1] == 50 &&
		!r.have_app, "cee: an unwilling partner's PFC and groups read as 802.1Qaz's, groups as a Recommendation");
}

int main(void)
{
	ktap_begin("DCBX: who uses whose configuration");
	test_pfc();
	test_ets();
	test_cee();
	return ktap_finish();
}
