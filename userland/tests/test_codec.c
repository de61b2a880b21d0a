// SPDX-License-Identifier: GPL-2.0
/*
 * The MAC Control frame codec in include/flowctl/maccontrol.h, the one the
 * kernel module uses: frames built byte for byte as 802.3 Annex 31B/31D
 * say, build/parse round trips, and every malformed case. Frames under
 * test end right at a PROT_NONE page, so a read past len faults.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <flowctl/maccontrol.h>

#include "ktap.h"

static const mc_u8 sa[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a };
static const mc_u8 own[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0b };

static mc_u8 *guard_page;
static size_t page;

/* Copy len bytes of frame so that they end at the guard page. */
static const mc_u8 *at_edge(const mc_u8 *frame, size_t len)
{
	mc_u8 *p = guard_page + page - len;

	memcpy(p, frame, len);
	return p;
}

static enum mc_result parse_at_edge(const mc_u8 *frame, size_t len,
				    const mc_u8 *own_addr, struct mc_frame *f)
{
	return mc_parse(at_edge(frame, len), len, own_addr, f);
}

static bool all_zero(const mc_u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

static void test_build_pause(void)
{
	mc_u8 buf[MC_FRAME_LEN + 8];
	static const mc_u8 want[18] = {
		0x01, 0x80, 0xc2, 0x00, 0x00, 0x01,	/* DA */
		0x02, 0x00, 0x00, 0x00, 0x00, 0x0a,	/* SA */
		0x88, 0x08,				/* MAC Control */
		0x00, 0x01,				/* PAUSE */
		0x12, 0x34,				/* pause_time */
	};

	memset(buf, 0xee, sizeof(buf));
	KTAP_EQ_U64(mc_build_pause(buf, sa, 0x1234), 60, "pause: built frame is 60 bytes");
	ktap_ok(!memcmp(buf, want, sizeof(want)), "pause: DA, SA, type, opcode, time in place");
	ktap_ok(all_zero(buf + 18, 60 - 18), "pause: zero padding to 60 bytes");
	ktap_ok(buf[60] == 0xee, "pause: nothing written past 60 bytes");
}

static void test_build_pfc(void)
{
	mc_u8 buf[MC_FRAME_LEN + 8];
	mc_u16 t[8] = { 0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666, 0x7777, 0x8888 };
	static const mc_u8 want[34] = {
		0x01, 0x80, 0xc2, 0x00, 0x00, 0x01,
		0x02, 0x00, 0x00, 0x00, 0x00, 0x0a,
		0x88, 0x08,
		0x01, 0x01,				/* PFC */
		0x00, 0x18,				/* enable: prio 3, 4 */
		0, 0, 0, 0, 0, 0,			/* prio 0-2: not enabled */
		0x44, 0x44, 0x55, 0x55,			/* prio 3, 4 */
		0, 0, 0, 0, 0, 0,			/* prio 5-7 */
	};

	memset(buf, 0xee, sizeof(buf));
	KTAP_EQ_U64(mc_build_pfc(buf, sa, 0x18, t), 60, "pfc: built frame is 60 bytes");
	ktap_ok(!memcmp(buf, want, sizeof(want)),
		"pfc: enable vector and only the enabled times, priority 0 first");
	ktap_ok(all_zero(buf + 34, 60 - 34), "pfc: zero padding to 60 bytes");
	ktap_ok(buf[60] == 0xee, "pfc: nothing written past 60 bytes");
}

static void test_round_trips(void)
{
	static const mc_u16 quanta[] = { 0, 1, 2, 0x00ff, 0x0100, 0x1234, 0x8000, 0xfffe, 0xffff };
	mc_u8 buf[MC_FRAME_LEN];
	struct mc_frame f;
	bool ok = true;
	unsigned int e;
	size_t i;
	int p;

	for (i = 0; i < sizeof(quanta) / sizeof(quanta[0]); i++) {
		mc_build_pause(buf, sa, quanta[i]);
		if (parse_at_edge(buf, 60, NULL, &f) != MC_OK ||
		    f.opcode != MC_OPCODE_PAUSE || f.pause_time != quanta[i])
			ok = false;
	}
	ktap_ok(ok, "pause: build -> parse keeps pause_time (0 .. 65535)");

	ok = true;
	for (e = 0; e < 256; e++) {
		mc_u16 t[8];

		for (p = 0; p < 8; p++)
			t[p] = (mc_u16)(e * 257 + p * 4099 + 1);
		mc_build_pfc(buf, sa, (mc_u8)e, t);
		if (parse_at_edge(buf, 60, NULL, &f) != MC_OK ||
		    f.opcode != MC_OPCODE_PFC || f.enable != e) {
			ok = false;
			continue;
		}
		for (p = 0; p < 8; p++)
			if (f.time[p] != ((e & (1u << p)) ? t[p] : 0))
				ok = false;
	}
	ktap_ok(ok, "pfc: build -> parse keeps enable and times, all 256 enable vectors");

	mc_build_pause(buf, sa, 7);
	ktap_ok(parse_at_edge(buf, 18, NULL, &f) == MC_OK && f.pause_time == 7,
		"pause: 18 bytes (no padding) is enough to parse");
	mc_build_pfc(buf, sa, 1, (mc_u16[8]){ 9 });
	ktap_ok(parse_at_edge(buf, 34, NULL, &f) == MC_OK && f.time[0] == 9,
		"pfc: 34 bytes (no padding) is enough to parse");
	{
		mc_u8 big[1514] = { 0 };

		mc_build_pause(big, sa, 3);
		ktap_ok(parse_at_edge(big, sizeof(big), NULL, &f) == MC_OK && f.pause_time == 3,
			"pause: a 1514-byte frame parses");
	}
}

static void test_short(void)
{
	mc_u8 pause[MC_FRAME_LEN], pfc[MC_FRAME_LEN];
	struct mc_frame f;
	bool ok_pause = true, ok_pfc = true, ok_other = true;
	size_t len;

	mc_build_pause(pause, sa, 100);
	mc_build_pfc(pfc, sa, 0x08, (mc_u16[8]){ 0, 0, 0, 100 });
	for (len = 0; len < MC_FRAME_LEN; len++) {
		enum mc_result want_pause = len < MC_PAUSE_LEN ? MC_ERR_SHORT : MC_OK;
		enum mc_result want_pfc = len < MC_PFC_LEN ? MC_ERR_SHORT : MC_OK;
		mc_u8 other[MC_FRAME_LEN];
		enum mc_result r;

		r = parse_at_edge(pause, len, NULL, &f);
		if (r != want_pause) {
			printf("# pause len %zu: %d, want %d\n", len, r, want_pause);
			ok_pause = false;
		}
		r = parse_at_edge(pfc, len, NULL, &f);
		if (r != want_pfc) {
			printf("# pfc len %zu: %d, want %d\n", len, r, want_pfc);
			ok_pfc = false;
		}
		/* An unknown opcode needs only the opcode to be refused. */
		memcpy(other, pause, sizeof(other));
		mc_put_be16(other + MC_HDR_LEN, 0x0002);
		r = parse_at_edge(other, len, NULL, &f);
		if (r != (len < MC_HDR_LEN + 2 ? MC_ERR_SHORT : MC_ERR_OPCODE)) {
			printf("# opcode 2 len %zu: %d\n", len, r);
			ok_other = false;
		}
	}
	ktap_ok(ok_pause, "pause: every length 0..59 (SHORT below 18, else OK), no over-read");
	ktap_ok(ok_pfc, "pfc: every length 0..59 (SHORT below 34, else OK), no over-read");
	ktap_ok(ok_other, "opcode 2: every length 0..59 (SHORT below 16, else OPCODE)");
	ktap_ok(mc_parse(NULL, 0, NULL, &f) == MC_ERR_SHORT, "a NULL buffer of length 0 is SHORT");
}

static void test_ethertype(void)
{
	static const mc_u16 types[] = { 0x0800, 0x86dd, 0x8809, 0x0888, 0x0000, 0xffff, 0x8100 };
	mc_u8 buf[MC_FRAME_LEN];
	struct mc_frame f;
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		mc_build_pause(buf, sa, 1);
		mc_put_be16(buf + 12, types[i]);
		KTAP_EQ_U64(parse_at_edge(buf, 60, NULL, &f), MC_ERR_ETHERTYPE,
			    "ethertype 0x%04x refused", types[i]);
	}
}

static void test_da(void)
{
	static const mc_u8 other_group[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x02 };
	static const mc_u8 bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	mc_u8 buf[MC_FRAME_LEN];
	struct mc_frame f;

	/* PAUSE to our own unicast address: allowed by 802.3 31B.3.1. */
	mc_build_pause(buf, sa, 5);
	memcpy(buf, own, 6);
	ktap_ok(parse_at_edge(buf, 60, own, &f) == MC_OK && f.pause_time == 5,
		"pause: DA = own unicast address accepted when own is given");
	KTAP_EQ_U64(parse_at_edge(buf, 60, NULL, &f), MC_ERR_DA,
		    "pause: unicast DA refused without own address");
	KTAP_EQ_U64(parse_at_edge(buf, 60, sa, &f), MC_ERR_DA,
		    "pause: unicast DA refused when it is not ours");
	memcpy(buf, other_group, 6);
	KTAP_EQ_U64(parse_at_edge(buf, 60, own, &f), MC_ERR_DA,
		    "pause: 01-80-C2-00-00-02 refused");
	memcpy(buf, bcast, 6);
	KTAP_EQ_U64(parse_at_edge(buf, 60, own, &f), MC_ERR_DA, "pause: broadcast DA refused");
	mc_build_pause(buf, sa, 5);
	ktap_ok(parse_at_edge(buf, 60, own, &f) == MC_OK,
		"pause: group DA accepted with own given too");

	/* PFC must use the group address (802.1Q 36.1.3). */
	mc_build_pfc(buf, sa, 1, (mc_u16[8]){ 1 });
	memcpy(buf, own, 6);
	KTAP_EQ_U64(parse_at_edge(buf, 60, own, &f), MC_ERR_DA,
		    "pfc: own unicast DA refused (PFC needs the group address)");
	KTAP_EQ_U64(parse_at_edge(buf, 60, NULL, &f), MC_ERR_DA,
		    "pfc: unicast DA refused without own address");
	memcpy(buf, other_group, 6);
	KTAP_EQ_U64(parse_at_edge(buf, 60, NULL, &f), MC_ERR_DA, "pfc: 01-80-C2-00-00-02 refused");
	memcpy(buf, bcast, 6);
	KTAP_EQ_U64(parse_at_edge(buf, 60, NULL, &f), MC_ERR_DA, "pfc: broadcast DA refused");
}

static void test_reserved(void)
{
	mc_u8 buf[MC_FRAME_LEN];
	struct mc_frame f;
	bool ok = true;
	unsigned int hi;

	for (hi = 1; hi < 256; hi++) {
		mc_build_pfc(buf, sa, 0x08, (mc_u16[8]){ 0, 0, 0, 100 });
		buf[MC_HDR_LEN + 2] = (mc_u8)hi;
		if (parse_at_edge(buf, 60, NULL, &f) != MC_OK ||
		    f.enable != 0x08 || f.time[3] != 100)
			ok = false;
	}
	ktap_ok(ok, "pfc: every reserved (upper) enable octet ignored: the lower octet names the priorities");
	mc_build_pfc(buf, sa, 0, (mc_u16[8]){ 0 });
	ktap_ok(parse_at_edge(buf, 60, NULL, &f) == MC_OK && f.enable == 0,
		"pfc: an all-zero enable vector parses (it pauses nothing)");
}

static void test_opcodes(void)
{
	mc_u8 buf[MC_FRAME_LEN];
	struct mc_frame f;
	unsigned long wrong = 0;
	unsigned int op;

	for (op = 0; op <= 0xffff; op++) {
		enum mc_result r, want;

		mc_build_pause(buf, sa, 1);
		mc_put_be16(buf + MC_HDR_LEN, (mc_u16)op);
		r = parse_at_edge(buf, 60, NULL, &f);
		want = (op == MC_OPCODE_PAUSE || op == MC_OPCODE_PFC) ? MC_OK : MC_ERR_OPCODE;
		if (r != want) {
			if (wrong++ < 5)
				printf("# opcode 0x%04x: %d, want %d\n", op, r, want);
		}
	}
	KTAP_EQ_U64(wrong, 0, "every opcode but 0x0001 and 0x0101 is refused as OPCODE");
	mc_build_pause(buf, sa, 1);
	mc_put_be16(buf + MC_HDR_LEN, 0x0002);
	memcpy(buf, own, 6);
	KTAP_EQ_U64(parse_at_edge(buf, 60, NULL, &f), MC_ERR_OPCODE,
		    "an unknown opcode is OPCODE whatever its DA (counted unsupported)");
}

int main(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	guard_page = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard_page == MAP_FAILED || mprotect(guard_page + page, page, PROT_NONE)) {
		perror("mmap");
		return 1;
	}
	ktap_begin("flowctl MAC Control frame codec (include/flowctl/maccontrol.h)");
	test_build_pause();
	test_build_pfc();
	test_round_trips();
	test_short();
	test_ethertype();
	test_da();
	test_reserved();
	test_opcodes();
	return ktap_finish();
}
