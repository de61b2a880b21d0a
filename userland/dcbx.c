// SPDX-License-Identifier: GPL-2.0
/*
 * DCBX LLDPDUs (802.1Qaz over 802.1AB): see dcbx.h for the layout.
 */
#include <errno.h>
#include <string.h>

#include "dcbx.h"

const uint8_t lldp_nearest_bridge[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };

static const uint8_t oui_8021[3] = { 0x00, 0x80, 0xc2 };
static const uint8_t oui_cee[3] = { 0x00, 0x1b, 0x21 };

#define TLV_END		0
#define TLV_CHASSIS	1
#define TLV_PORT	2
#define TLV_TTL		3
#define TLV_ORG		127

#define ETS_LEN		25	/* OUI, subtype, flags, 4 + 8 + 8 */
#define PFC_LEN		6	/* OUI, subtype, flags, enable */
#define APP_LEN(n)	(5 + 3 * (n))	/* OUI, subtype, reserved, entries */

#define CEE_CTRL	1
#define CEE_PG		2
#define CEE_PFC		3
#define CEE_APP		4
#define CEE_CTRL_LEN	10
#define CEE_PG_LEN	17
#define CEE_PFC_LEN	6
#define CEE_APP_LEN(n)	(4 + 6 * (n))

const char *dcbx_strerror(enum dcbx_err e)
{
	switch (e) {
	case DCBX_OK:
		return "ok";
	case DCBX_NOT_LLDP:
		return "not an LLDPDU";
	case DCBX_TRUNCATED:
		return "a TLV runs past the frame";
	case DCBX_BAD_ORDER:
		return "Chassis ID, Port ID and TTL are not the first three TLVs";
	case DCBX_BAD_LENGTH:
		return "a TLV's length is wrong for its type";
	case DCBX_NO_END:
		return "no End of LLDPDU TLV";
	case DCBX_DUPLICATE:
		return "a DCBX TLV appears twice";
	case DCBX_BAD_VALUE:
		return "a DCBX value is out of range";
	}
	return "unknown";
}

const char *dcbx_feature_name(enum dcbx_feature f)
{
	switch (f) {
	case DCBX_F_ETS_CFG:
		return "ETS Configuration";
	case DCBX_F_ETS_REC:
		return "ETS Recommendation";
	case DCBX_F_PFC:
		return "PFC Configuration";
	case DCBX_F_APP:
		return "Application Priority";
	case DCBX_F_CEE:
		return "CEE DCBX";
	case DCBX_FEATURES:
		break;
	}
	return "unknown";
}

bool dcbx_ets_valid(const struct dcbx_ets *e)
{
	unsigned int sum = 0, i;
	bool ets = false;

	for (i = 0; i < 8; i++) {
		if (e->prio_tc[i] > 7)
			return false;
		if (e->tsa[i] != DCBX_TSA_STRICT && e->tsa[i] != DCBX_TSA_CBS &&
		    e->tsa[i] != DCBX_TSA_ETS && e->tsa[i] != DCBX_TSA_VENDOR)
			return false;
		ets |= e->tsa[i] == DCBX_TSA_ETS;
		sum += e->tc_bw[i];
	}
	return sum == 100 || (sum == 0 && !ets);
}

/* put_tlv: the header and value at *p, if it fits before end. */
static bool put_tlv(uint8_t **p, const uint8_t *end, unsigned int type,
		    const uint8_t *v, size_t len)
{
	if (len > 511 || (size_t)(end - *p) < 2 + len)
		return false;
	(*p)[0] = (uint8_t)(type << 1 | len >> 8);
	(*p)[1] = (uint8_t)len;
	if (len)
		memcpy(*p + 2, v, len);
	*p += 2 + len;
	return true;
}

static void ets_tables(uint8_t *v, const struct dcbx_ets *e)
{
	int i;

	for (i = 0; i < 4; i++)
		v[i] = (uint8_t)(e->prio_tc[2 * i] << 4 | e->prio_tc[2 * i + 1]);
	memcpy(v + 4, e->tc_bw, 8);
	memcpy(v + 12, e->tsa, 8);
}

/* A CEE feature sub-TLV's first four octets. */
static void cee_feat_put(uint8_t *v, const struct dcbx_cee_feat *f)
{
	v[0] = f->oper_ver;
	v[1] = f->max_ver;
	v[2] = (uint8_t)((f->enable ? 0x80 : 0) | (f->willing ? 0x40 : 0) |
			 (f->error ? 0x20 : 0));
	v[3] = 0;
}

/* The CEE TLV's value (OUI, subtype, sub-TLVs) into v; its length, or 0. */
static size_t cee_value(uint8_t *v, size_t cap, const struct dcbx_cee *c)
{
	uint8_t *p = v + 4, *end = v + cap, sub[CEE_APP_LEN(DCBX_CEE_APP_MAX)];
	unsigned int i;

	memcpy(v, oui_cee, 3);
	v[3] = DCBX_CEE_SUBTYPE;
	sub[0] = c->oper_ver;
	sub[1] = c->max_ver;
	for (i = 0; i < 4; i++) {
		sub[2 + i] = (uint8_t)(c->seq >> (24 - 8 * i));
		sub[6 + i] = (uint8_t)(c->ack >> (24 - 8 * i));
	}
	if (!put_tlv(&p, end, CEE_CTRL, sub, CEE_CTRL_LEN))
		return 0;
	if (c->pg.have) {
		cee_feat_put(sub, &c->pg);
		for (i = 0; i < 4; i++)
			sub[4 + i] = (uint8_t)(c->pgid[2 * i] << 4 | (c->pgid[2 * i + 1] & 0xf));
		memcpy(sub + 8, c->pg_pct, 8);
		sub[16] = c->pg_tcs;
		if (!put_tlv(&p, end, CEE_PG, sub, CEE_PG_LEN))
			return 0;
	}
	if (c->pfc.have) {
		cee_feat_put(sub, &c->pfc);
		sub[4] = c->pfc_enable;
		sub[5] = c->pfc_tcs;
		if (!put_tlv(&p, end, CEE_PFC, sub, CEE_PFC_LEN))
			return 0;
	}
	if (c->app.have) {
		cee_feat_put(sub, &c->app);
		for (i = 0; i < c->napp; i++) {
			const struct dcbx_cee_app *a = &c->apps[i];
			uint8_t *x = sub + CEE_APP_LEN(i);

			x[0] = (uint8_t)(a->proto >> 8);
			x[1] = (uint8_t)a->proto;
			x[2] = (uint8_t)((a->oui[0] & 0xfc) | (a->sel & 3));
			x[3] = a->oui[1];
			x[4] = a->oui[2];
			x[5] = a->prio_map;
		}
		if (!put_tlv(&p, end, CEE_APP, sub, CEE_APP_LEN(c->napp)))
			return 0;
	}
	return (size_t)(p - v);
}

size_t dcbx_build(uint8_t *buf, size_t cap, const uint8_t sa[6],
		  const struct dcbx_lldpdu *d)
{
	uint8_t *p = buf, *end = buf + cap, v[ETS_LEN];
	uint8_t ttl[2] = { (uint8_t)(d->ttl >> 8), (uint8_t)d->ttl };

	if (cap < 14 || !d->chassis_len || !d->port_len)
		return 0;
	if ((d->have_ets_cfg && !dcbx_ets_valid(&d->ets_cfg)) ||
	    (d->have_ets_rec && !dcbx_ets_valid(&d->ets_rec)) ||
	    (d->have_pfc && d->pfc.cap > 8) ||
	    (d->have_app && d->app.n > DCBX_APP_MAX) ||
	    (d->have_cee && d->cee.napp > DCBX_CEE_APP_MAX))
		return 0;
	memcpy(p, lldp_nearest_bridge, 6);
	memcpy(p + 6, sa, 6);
	p[12] = LLDP_ETHERTYPE >> 8;
	p[13] = LLDP_ETHERTYPE & 0xff;
	p += 14;

	{
		uint8_t id[256];

		id[0] = d->chassis_subtype;
		memcpy(id + 1, d->chassis_id, d->chassis_len);
		if (!put_tlv(&p, end, TLV_CHASSIS, id, 1u + d->chassis_len))
			return 0;
		id[0] = d->port_subtype;
		memcpy(id + 1, d->port_id, d->port_len);
		if (!put_tlv(&p, end, TLV_PORT, id, 1u + d->port_len))
			return 0;
	}
	if (!put_tlv(&p, end, TLV_TTL, ttl, 2))
		return 0;

	memcpy(v, oui_8021, 3);
	if (d->have_ets_cfg) {
		const struct dcbx_ets *e = &d->ets_cfg;

		v[3] = DCBX_SUBTYPE_ETS_CFG;
		v[4] = (uint8_t)((e->willing ? 0x80 : 0) | (e->cbs ? 0x40 : 0) |
				 (e->max_tcs & 7));
		ets_tables(v + 5, e);
		if (!put_tlv(&p, end, TLV_ORG, v, ETS_LEN))
			return 0;
	}
	if (d->have_ets_rec) {
		v[3] = DCBX_SUBTYPE_ETS_REC;
		v[4] = 0;
		ets_tables(v + 5, &d->ets_rec);
		if (!put_tlv(&p, end, TLV_ORG, v, ETS_LEN))
			return 0;
	}
	if (d->have_pfc) {
		v[3] = DCBX_SUBTYPE_PFC;
		v[4] = (uint8_t)((d->pfc.willing ? 0x80 : 0) |
				 (d->pfc.mbc ? 0x40 : 0) | (d->pfc.cap & 0xf));
		v[5] = d->pfc.enable;
		if (!put_tlv(&p, end, TLV_ORG, v, PFC_LEN))
			return 0;
	}
	if (d->have_app) {
		uint8_t a[APP_LEN(DCBX_APP_MAX)];
		unsigned int i;

		memcpy(a, oui_8021, 3);
		a[3] = DCBX_SUBTYPE_APP;
		a[4] = 0;
		for (i = 0; i < d->app.n; i++) {
			const struct dcbx_app_entry *e = &d->app.e[i];

			a[5 + 3 * i] = (uint8_t)((e->prio & 7) << 5 | (e->sel & 7));
			a[6 + 3 * i] = (uint8_t)(e->proto >> 8);
			a[7 + 3 * i] = (uint8_t)e->proto;
		}
		if (!put_tlv(&p, end, TLV_ORG, a, APP_LEN(d->app.n)))
			return 0;
	}
	if (d->have_cee) {
		uint8_t c[511];
		size_t n = cee_value(c, sizeof(c), &d->cee);

		if (!n || !put_tlv(&p, end, TLV_ORG, c, n))
			return 0;
	}
	if (!put_tlv(&p, end, TLV_END, NULL, 0))
		return 0;
	/* Pad to Ethernet's 60-byte minimum (without the FCS). */
	while (p - buf < 60) {
		if (p == end)
			return 0;
		*p++ = 0;
	}
	return (size_t)(p - buf);
}

static void ets_read(const uint8_t *v, struct dcbx_ets *e)
{
	int i;

	for (i = 0; i < 4; i++) {
		e->prio_tc[2 * i] = v[i] >> 4;
		e->prio_tc[2 * i + 1] = v[i] & 0xf;
	}
	memcpy(e->tc_bw, v + 4, 8);
	memcpy(e->tsa, v + 12, 8);
}

static void feature_bad(struct dcbx_lldpdu *d, enum dcbx_feature f,
			enum dcbx_err e)
{
	if (d->bad & (1u << f))
		return;
	d->bad |= 1u << f;
	d->bad_err[f] = (uint8_t)e;
	switch (f) {
	case DCBX_F_ETS_CFG:
		d->have_ets_cfg = false;
		memset(&d->ets_cfg, 0, sizeof(d->ets_cfg));
		break;
	case DCBX_F_ETS_REC:
		d->have_ets_rec = false;
		memset(&d->ets_rec, 0, sizeof(d->ets_rec));
		break;
	case DCBX_F_APP:
		d->have_app = false;
		memset(&d->app, 0, sizeof(d->app));
		break;
	case DCBX_F_CEE:
		break;		/* cee_parse keeps the sub-TLVs that were good */
	default:
		d->have_pfc = false;
		memset(&d->pfc, 0, sizeof(d->pfc));
	}
}

/* One 802.1Qaz TLV (value v, tlen octets from the OUI): read, or marked bad. */
static void dcbx_feature(struct dcbx_lldpdu *d, const uint8_t *v,
			 unsigned int tlen, uint8_t *seen)
{
	enum dcbx_feature f = v[3] == DCBX_SUBTYPE_PFC ? DCBX_F_PFC :
			      v[3] == DCBX_SUBTYPE_ETS_CFG ? DCBX_F_ETS_CFG :
			      v[3] == DCBX_SUBTYPE_APP ? DCBX_F_APP :
			      DCBX_F_ETS_REC;
	unsigned int i;

	/* 802.1Qaz: a second copy of a TLV voids both. */
	if (*seen & (1u << f)) {
		feature_bad(d, f, DCBX_DUPLICATE);
		return;
	}
	*seen |= 1u << f;
	if (f == DCBX_F_APP) {
		if (tlen < APP_LEN(0) || (tlen - APP_LEN(0)) % 3) {
			feature_bad(d, f, DCBX_BAD_LENGTH);
			return;
		}
		d->have_app = true;
		d->app.n = (tlen - APP_LEN(0)) / 3;
		for (i = 0; i < d->app.n; i++) {
			struct dcbx_app_entry *e = &d->app.e[i];
			const uint8_t *x = v + APP_LEN(0) + 3 * i;

			e->prio = x[0] >> 5;
			e->sel = x[0] & 7;
			e->proto = (uint16_t)(x[1] << 8 | x[2]);
			/* Selector 0 is reserved; a DSCP is 6 bits. */
			if (!e->sel || (e->sel == DCBX_APP_SEL_DSCP && e->proto > 63)) {
				feature_bad(d, f, DCBX_BAD_VALUE);
				return;
			}
		}
		return;
	}
	if (tlen != (f == DCBX_F_PFC ? PFC_LEN : ETS_LEN)) {
		feature_bad(d, f, DCBX_BAD_LENGTH);
		return;
	}
	switch (f) {
	case DCBX_F_PFC:
		d->have_pfc = true;
		d->pfc.willing = v[4] & 0x80;
		d->pfc.mbc = v[4] & 0x40;
		d->pfc.cap = v[4] & 0xf;
		d->pfc.enable = v[5];
		if (d->pfc.cap > 8)
			feature_bad(d, f, DCBX_BAD_VALUE);
		break;
	case DCBX_F_ETS_CFG:
		d->have_ets_cfg = true;
		d->ets_cfg.willing = v[4] & 0x80;
		d->ets_cfg.cbs = v[4] & 0x40;
		d->ets_cfg.max_tcs = v[4] & 7;
		ets_read(v + 5, &d->ets_cfg);
		if (!dcbx_ets_valid(&d->ets_cfg))
			feature_bad(d, f, DCBX_BAD_VALUE);
		break;
	default:
		d->have_ets_rec = true;
		ets_read(v + 5, &d->ets_rec);
		if (!dcbx_ets_valid(&d->ets_rec))
			feature_bad(d, f, DCBX_BAD_VALUE);
	}
}

static void cee_feat_get(const uint8_t *v, struct dcbx_cee_feat *f)
{
	f->have = true;
	f->oper_ver = v[0];
	f->max_ver = v[1];
	f->enable = v[2] & 0x80;
	f->willing = v[2] & 0x40;
	f->error = v[2] & 0x20;
}

/*
 * The CEE TLV (v: tlen octets from the OUI). Without a well-formed Control
 * sub-TLV it says nothing (have_cee false); a malformed feature sub-TLV
 * costs only that feature. Either is counted as a bad CEE TLV.
 */
static void cee_parse(struct dcbx_lldpdu *d, const uint8_t *v, unsigned int tlen,
		      uint8_t *seen)
{
	struct dcbx_cee *c = &d->cee;
	const uint8_t *p = v + 4, *end = v + tlen;
	uint8_t subs = 0;
	unsigned int i;

	if (*seen & (1u << DCBX_F_CEE)) {
		feature_bad(d, DCBX_F_CEE, DCBX_DUPLICATE);
		return;
	}
	*seen |= 1u << DCBX_F_CEE;
	while (end - p >= 2) {
		unsigned int type = p[0] >> 1;
		unsigned int len = (unsigned int)(p[0] & 1) << 8 | p[1];
		const uint8_t *s = p + 2;
		bool ok;

		if ((size_t)(end - s) < len) {
			feature_bad(d, DCBX_F_CEE, DCBX_TRUNCATED);
			break;
		}
		p = s + len;
		if (type < CEE_CTRL || type > CEE_APP)
			continue;	/* Logical Link Down and later: not ours */
		if (subs & (1u << type)) {
			feature_bad(d, DCBX_F_CEE, DCBX_DUPLICATE);
			continue;
		}
		subs |= 1u << type;
		ok = type == CEE_CTRL ? len == CEE_CTRL_LEN :
		     type == CEE_PG ? len == CEE_PG_LEN :
		     type == CEE_PFC ? len == CEE_PFC_LEN :
		     len >= CEE_APP_LEN(0) && (len - CEE_APP_LEN(0)) % 6 == 0 &&
		     (len - CEE_APP_LEN(0)) / 6 <= DCBX_CEE_APP_MAX;
		if (!ok) {
			feature_bad(d, DCBX_F_CEE, DCBX_BAD_LENGTH);
			continue;
		}
		switch (type) {
		case CEE_CTRL:
			d->have_cee = true;
			c->oper_ver = s[0];
			c->max_ver = s[1];
			c->seq = (uint32_t)s[2] << 24 | (uint32_t)s[3] << 16 |
				 (uint32_t)s[4] << 8 | s[5];
			c->ack = (uint32_t)s[6] << 24 | (uint32_t)s[7] << 16 |
				 (uint32_t)s[8] << 8 | s[9];
			break;
		case CEE_PG:
			for (i = 0; i < 8; i++) {
				c->pgid[i] = i % 2 ? s[4 + i / 2] & 0xf : s[4 + i / 2] >> 4;
				if (c->pgid[i] > 7 && c->pgid[i] != DCBX_CEE_PG_STRICT)
					break;
			}
			if (i < 8) {
				feature_bad(d, DCBX_F_CEE, DCBX_BAD_VALUE);
				break;
			}
			for (i = 0; i < 8 && s[8 + i] <= 100; i++)
				;
			if (i < 8) {
				feature_bad(d, DCBX_F_CEE, DCBX_BAD_VALUE);
				break;
			}
			cee_feat_get(s, &c->pg);
			memcpy(c->pg_pct, s + 8, 8);
			c->pg_tcs = s[16];
			break;
		case CEE_PFC:
			cee_feat_get(s, &c->pfc);
			c->pfc_enable = s[4];
			c->pfc_tcs = s[5];
			break;
		default:
			cee_feat_get(s, &c->app);
			c->napp = (len - CEE_APP_LEN(0)) / 6;
			for (i = 0; i < c->napp; i++) {
				const uint8_t *x = s + CEE_APP_LEN(i);
				struct dcbx_cee_app *a = &c->apps[i];

				a->proto = (uint16_t)(x[0] << 8 | x[1]);
				a->sel = x[2] & 3;
				a->oui[0] = x[2] & 0xfc;
				a->oui[1] = x[3];
				a->oui[2] = x[4];
				a->prio_map = x[5];
			}
		}
	}
	if (!d->have_cee) {
		memset(c, 0, sizeof(*c));
		if (!(d->bad & (1u << DCBX_F_CEE)))
			feature_bad(d, DCBX_F_CEE, DCBX_BAD_LENGTH);
	}
}

enum dcbx_err dcbx_parse(const uint8_t *frame, size_t len,
			 struct dcbx_lldpdu *d)
{
	const uint8_t *p, *end = frame + len;
	unsigned int n = 0;
	uint8_t seen = 0;

	memset(d, 0, sizeof(*d));
	if (len < 14 || frame[12] != (LLDP_ETHERTYPE >> 8) ||
	    frame[13] != (LLDP_ETHERTYPE & 0xff))
		return DCBX_NOT_LLDP;
	for (p = frame + 14;; n++) {
		unsigned int type, tlen;
		const uint8_t *v;

		if (end - p < 2)
			return n ? DCBX_NO_END : DCBX_TRUNCATED;
		type = p[0] >> 1;
		tlen = (unsigned int)(p[0] & 1) << 8 | p[1];
		v = p + 2;
		if ((size_t)(end - v) < tlen)
			return DCBX_TRUNCATED;
		p = v + tlen;
		/* 802.1AB 9.2.7.7.2: Chassis ID, Port ID, TTL, in that order. */
		if ((n == 0 && type != TLV_CHASSIS) ||
		    (n == 1 && type != TLV_PORT) || (n == 2 && type != TLV_TTL) ||
		    (n > 2 && type >= TLV_CHASSIS && type <= TLV_TTL))
			return DCBX_BAD_ORDER;
		switch (type) {
		case TLV_END:
			if (tlen)
				return DCBX_BAD_LENGTH;
			return DCBX_OK;
		case TLV_CHASSIS:
		case TLV_PORT:
			if (tlen < 2 || tlen > 256)
				return DCBX_BAD_LENGTH;
			if (type == TLV_CHASSIS) {
				d->chassis_subtype = v[0];
				d->chassis_len = (uint8_t)(tlen - 1);
				memcpy(d->chassis_id, v + 1, tlen - 1);
			} else {
				d->port_subtype = v[0];
				d->port_len = (uint8_t)(tlen - 1);
				memcpy(d->port_id, v + 1, tlen - 1);
			}
			break;
		case TLV_TTL:
			if (tlen < 2)
				return DCBX_BAD_LENGTH;
			d->ttl = (uint16_t)(v[0] << 8 | v[1]);
			break;
		case TLV_ORG:
			if (tlen < 4)
				return DCBX_BAD_LENGTH;
			if (!memcmp(v, oui_cee, 3) && v[3] == DCBX_CEE_SUBTYPE) {
				cee_parse(d, v, tlen, &seen);
				break;
			}
			if (memcmp(v, oui_8021, 3) ||
			    (v[3] != DCBX_SUBTYPE_ETS_CFG &&
			     v[3] != DCBX_SUBTYPE_ETS_REC &&
			     v[3] != DCBX_SUBTYPE_PFC &&
			     v[3] != DCBX_SUBTYPE_APP)) {
				d->unknown_tlvs++;
				break;
			}
			dcbx_feature(d, v, tlen, &seen);
			break;
		default:
			d->unknown_tlvs++;
		}
	}
}

const char *dcbx_state_name(enum dcbx_state s)
{
	switch (s) {
	case DCBX_NO_PARTNER:
		return "no-partner";
	case DCBX_AGREE:
		return "agree";
	case DCBX_ADOPTED:
		return "adopted";
	case DCBX_PARTNER_ADOPTS:
		return "partner-adopts";
	case DCBX_MISMATCH:
		return "mismatch";
	case DCBX_OWN:
		return "own";
	}
	return "unknown";
}

/* The shared rule: who uses whose configuration. */
static enum dcbx_state decide(bool lw, bool rw, int mac_cmp, bool same,
			      bool *adopt)
{
	*adopt = false;
	if (same)
		return DCBX_AGREE;
	/* Both willing: the lower MAC adopts (lldpad's pfc_sm). */
	if (lw && (!rw || mac_cmp < 0)) {
		*adopt = true;
		return DCBX_ADOPTED;
	}
	if (rw)
		return DCBX_PARTNER_ADOPTS;
	return DCBX_MISMATCH;
}

enum dcbx_state dcbx_pfc_decide(const struct dcbx_pfc *local,
				const struct dcbx_pfc *remote, int mac_cmp,
				struct dcbx_pfc *use)
{
	enum dcbx_state s;
	bool adopt;

	*use = *local;
	if (!remote)
		return DCBX_NO_PARTNER;
	s = decide(local->willing, remote->willing, mac_cmp,
		   local->enable == remote->enable, &adopt);
	if (adopt)
		use->enable = remote->enable;
	return s;
}

static bool ets_same(const struct dcbx_ets *a, const struct dcbx_ets *b)
{
	return !memcmp(a->prio_tc, b->prio_tc, 8) &&
	       !memcmp(a->tc_bw, b->tc_bw, 8) && !memcmp(a->tsa, b->tsa, 8);
}

enum dcbx_state dcbx_ets_decide(const struct dcbx_ets *local,
				const struct dcbx_lldpdu *remote, int mac_cmp,
				struct dcbx_ets *use)
{
	(void)mac_cmp;
	*use = *local;
	if (!remote || (!remote->have_ets_cfg && !remote->have_ets_rec))
		return DCBX_NO_PARTNER;
	if (local->willing && remote->have_ets_rec) {
		memcpy(use->prio_tc, remote->ets_rec.prio_tc, 8);
		memcpy(use->tc_bw, remote->ets_rec.tc_bw, 8);
		memcpy(use->tsa, remote->ets_rec.tsa, 8);
		return ets_same(local, &remote->ets_rec) ? DCBX_AGREE : DCBX_ADOPTED;
	}
	if (!remote->have_ets_cfg)
		return DCBX_OWN;
	if (ets_same(local, &remote->ets_cfg))
		return DCBX_AGREE;
	return remote->ets_cfg.willing ? DCBX_PARTNER_ADOPTS : DCBX_OWN;
}

void dcbx_app_to_dscp(const struct dcbx_app *app, uint8_t map[64])
{
	unsigned int i;

	memset(map, 0, 64);
	for (i = 0; i < app->n && i < DCBX_APP_MAX; i++)
		if (app->e[i].sel == DCBX_APP_SEL_DSCP && app->e[i].proto < 64)
			map[app->e[i].proto] |= (uint8_t)(1u << (app->e[i].prio & 7));
}

unsigned int dcbx_dscp_to_app(const uint8_t map[64], struct dcbx_app *app)
{
	unsigned int d, prio;

	app->n = 0;
	for (d = 0; d < 64; d++)
		for (prio = 0; prio < 8; prio++) {
			if (!(map[d] & (1u << prio)) || app->n == DCBX_APP_MAX)
				continue;
			app->e[app->n].prio = (uint8_t)prio;
			app->e[app->n].sel = DCBX_APP_SEL_DSCP;
			app->e[app->n].proto = (uint16_t)d;
			app->n++;
		}
	return app->n;
}

enum dcbx_state dcbx_app_decide(const uint8_t local[64], bool willing,
				const struct dcbx_lldpdu *remote, uint8_t use[64])
{
	uint8_t theirs[64];

	memcpy(use, local, 64);
	if (!remote || !remote->have_app)
		return DCBX_NO_PARTNER;
	dcbx_app_to_dscp(&remote->app, theirs);
	if (!memcmp(theirs, local, 64))
		return DCBX_AGREE;
	if (!willing)
		return DCBX_OWN;
	memcpy(use, theirs, 64);
	return DCBX_ADOPTED;
}

void dcbx_ets_to_cee_pg(const struct dcbx_ets *e, struct dcbx_cee *c)
{
	bool any_ets = false;
	int i;

	for (i = 0; i < 8; i++)
		any_ets |= e->tsa[i] == DCBX_TSA_ETS && e->tc_bw[i];
	memset(c->pg_pct, 0, sizeof(c->pg_pct));
	for (i = 0; i < 8; i++) {
		uint8_t tc = e->prio_tc[i] & 7;
		bool ets = e->tsa[tc] == DCBX_TSA_ETS && e->tc_bw[tc];

		c->pgid[i] = ets || !any_ets ? tc : DCBX_CEE_PG_STRICT;
		if (ets)
			c->pg_pct[tc] = e->tc_bw[tc];
	}
	/* Without ETS every class is strict: one strict group, the percents
	 * (which CEE wants summing to 100) on a group no priority uses.
	 */
	if (!any_ets) {
		for (i = 0; i < 8; i++)
			c->pgid[i] = DCBX_CEE_PG_STRICT;
		c->pg_pct[0] = 100;
	}
	c->pg_tcs = 8;
}

void dcbx_cee_pg_to_ets(const struct dcbx_cee *c, struct dcbx_ets *e)
{
	uint8_t used = 0, strict = 7;
	int i;

	memset(e->prio_tc, 0, 8);
	memset(e->tc_bw, 0, 8);
	memset(e->tsa, DCBX_TSA_STRICT, 8);
	for (i = 0; i < 8; i++)
		if (c->pgid[i] < 8)
			used |= (uint8_t)(1u << c->pgid[i]);
	while (strict > 0 && (used & (1u << strict)))
		strict--;
	for (i = 0; i < 8; i++) {
		uint8_t g = c->pgid[i] < 8 ? c->pgid[i] : strict;

		e->prio_tc[i] = g;
		if (c->pgid[i] < 8 && c->pg_pct[g]) {
			e->tc_bw[g] = c->pg_pct[g];
			e->tsa[g] = DCBX_TSA_ETS;
		}
	}
	/* Groups no priority uses may hold percents: the used ones' shares
	 * are scaled to 100, the rest to the largest (an ETS table sums to 100).
	 */
	{
		unsigned int sum = 0, acc = 0, big = 0;

		for (i = 0; i < 8; i++)
			sum += e->tc_bw[i];
		if (!sum || sum == 100)
			return;
		for (i = 0; i < 8; i++) {
			if (!e->tc_bw[i])
				continue;
			e->tc_bw[i] = (uint8_t)(e->tc_bw[i] * 100 / sum ? e->tc_bw[i] * 100 / sum : 1);
			acc += e->tc_bw[i];
			if (e->tc_bw[i] > e->tc_bw[big])
				big = (unsigned int)i;
		}
		e->tc_bw[big] = (uint8_t)(e->tc_bw[big] + 100 - acc);
	}
}

void dcbx_cee_to_ieee(struct dcbx_lldpdu *d)
{
	const struct dcbx_cee *c = &d->cee;

	d->have_pfc = d->have_ets_cfg = d->have_ets_rec = d->have_app = false;
	memset(&d->pfc, 0, sizeof(d->pfc));
	memset(&d->ets_cfg, 0, sizeof(d->ets_cfg));
	memset(&d->ets_rec, 0, sizeof(d->ets_rec));
	memset(&d->app, 0, sizeof(d->app));
	if (!d->have_cee)
		return;
	/* A feature the partner has not enabled says nothing (lldpad's F16). */
	if (c->pfc.have && c->pfc.enable) {
		d->have_pfc = true;
		d->pfc.willing = c->pfc.willing;
		d->pfc.cap = c->pfc_tcs > 8 ? 8 : c->pfc_tcs;
		d->pfc.enable = c->pfc_enable;
	}
	if (c->pg.have && c->pg.enable) {
		d->have_ets_cfg = true;
		d->ets_cfg.willing = c->pg.willing;
		d->ets_cfg.max_tcs = c->pg_tcs > 8 || !c->pg_tcs ? 8 : c->pg_tcs;
		dcbx_cee_pg_to_ets(c, &d->ets_cfg);
		/* CEE has no Recommendation: an unwilling partner's groups are
		 * what a willing end takes, and one in error offers nothing.
		 */
		if (!c->pg.willing && !c->pg.error) {
			d->have_ets_rec = true;
			d->ets_rec = d->ets_cfg;
		}
	}
}

enum dcbx_state dcbx_cee_pfc_decide(const struct dcbx_pfc *local,
				    const struct dcbx_lldpdu *remote,
				    struct dcbx_pfc *use, bool *error)
{
	const struct dcbx_cee_feat *f = &remote->cee.pfc;
	bool same;

	*use = *local;
	*error = false;
	if (!remote->have_cee)
		return DCBX_NO_PARTNER;
	/* The partner without the feature: an error on our side (F8). */
	if (!f->have) {
		*error = true;
		return DCBX_NO_PARTNER;
	}
	if (!f->enable)
		return DCBX_OWN;
	same = local->enable == remote->cee.pfc_enable;
	if (local->willing && !f->willing) {
		if (f->error)
			return DCBX_OWN;
		use->enable = remote->cee.pfc_enable;
		return same ? DCBX_AGREE : DCBX_ADOPTED;
	}
	if (!local->willing && f->willing)
		return same ? DCBX_AGREE : DCBX_PARTNER_ADOPTS;
	/* Equal willing bits: no one adopts (no MAC tie-break in CEE). */
	if (same)
		return DCBX_AGREE;
	*error = true;
	return DCBX_MISMATCH;
}
