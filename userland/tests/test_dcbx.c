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

int main(void)
{
	ktap_begin("DCBX: who uses whose configuration");
	test_pfc();
	test_ets();
	return ktap_finish();
}
