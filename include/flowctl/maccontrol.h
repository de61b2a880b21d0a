/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * MAC Control frame codec shared by the kernel module and the CLI:
 * IEEE 802.3 Annex 31B (PAUSE) and Annex 31D (PFC, 802.1Q clause 36).
 *
 * Everything works on a flat byte buffer that starts at the destination
 * address and holds len bytes (no FCS). Reads are bounds-checked against len.
 */
#ifndef _FLOWCTL_MACCONTROL_H
#define _FLOWCTL_MACCONTROL_H

#ifdef __KERNEL__
#include <linux/math64.h>
#include <linux/types.h>
#include <linux/string.h>
typedef u8 mc_u8;
typedef u16 mc_u16;
typedef u32 mc_u32;
typedef u64 mc_u64;
#define mc_div_u64(n, d)	div_u64(n, d)	/* 32-bit kernels: no u64 '/' */
#else
#include <stddef.h>
#include <stdint.h>
#include <string.h>
typedef uint8_t mc_u8;
typedef uint16_t mc_u16;
typedef uint32_t mc_u32;
typedef uint64_t mc_u64;
#define mc_div_u64(n, d)	((n) / (d))
#endif

#define MC_ETHERTYPE		0x8808
#define MC_OPCODE_PAUSE		0x0001
#define MC_OPCODE_PFC		0x0101
#define MC_FRAME_LEN		60	/* minimum Ethernet frame, without FCS */
#define MC_HDR_LEN		14	/* DA, SA, EtherType */
#define MC_PAUSE_LEN		(MC_HDR_LEN + 2 + 2)
#define MC_PFC_LEN		(MC_HDR_LEN + 2 + 2 + 8 * 2)
#define MC_NUM_PRIOS		8
#define MC_QUANTUM_BITS		512

static const mc_u8 mc_pause_da[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

enum mc_result {
	MC_OK,
	MC_ERR_SHORT,		/* too short to hold its fields */
	MC_ERR_ETHERTYPE,	/* not 0x8808 */
	MC_ERR_DA,		/* DA neither the MAC Control group nor ours */
	MC_ERR_OPCODE,		/* opcode other than PAUSE and PFC */
};

struct mc_frame {
	mc_u16 opcode;
	mc_u16 pause_time;		/* PAUSE */
	mc_u8 enable;			/* PFC: bit n = priority n */
	mc_u16 time[MC_NUM_PRIOS];	/* PFC */
};

static inline mc_u16 mc_get_be16(const mc_u8 *p)
{
	return (mc_u16)((p[0] << 8) | p[1]);
}

static inline void mc_put_be16(mc_u8 *p, mc_u16 v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/*
 * Parse a MAC Control frame. own may be NULL; when given, a PAUSE addressed
 * to that unicast address is accepted too (802.3 31B.3.1). PFC must use the
 * group address. The upper octet of the PFC enable vector is reserved: a
 * sender sets it to zero and a receiver ignores it (802.3's rule for
 * reserved fields, as for the padding after the times), so only the lower
 * octet, e[7:0], names priorities.
 */
static inline enum mc_result mc_parse(const mc_u8 *buf, size_t len,
				      const mc_u8 *own, struct mc_frame *f)
{
	int da_group, i;

	if (len < MC_HDR_LEN + 2)
		return MC_ERR_SHORT;
	if (mc_get_be16(buf + 12) != MC_ETHERTYPE)
		return MC_ERR_ETHERTYPE;
	memset(f, 0, sizeof(*f));
	f->opcode = mc_get_be16(buf + MC_HDR_LEN);
	da_group = !memcmp(buf, mc_pause_da, 6);

	switch (f->opcode) {
	case MC_OPCODE_PAUSE:
		if (len < MC_PAUSE_LEN)
			return MC_ERR_SHORT;
		if (!da_group && !(own && !memcmp(buf, own, 6)))
			return MC_ERR_DA;
		f->pause_time = mc_get_be16(buf + MC_HDR_LEN + 2);
		return MC_OK;
	case MC_OPCODE_PFC:
		if (len < MC_PFC_LEN)
			return MC_ERR_SHORT;
		if (!da_group)
			return MC_ERR_DA;
		f->enable = buf[MC_HDR_LEN + 3];
		for (i = 0; i < MC_NUM_PRIOS; i++)
			f->time[i] = mc_get_be16(buf + MC_HDR_LEN + 4 + 2 * i);
		return MC_OK;
	default:
		return MC_ERR_OPCODE;
	}
}

/* Build a 60-byte PAUSE frame into buf (at least MC_FRAME_LEN bytes). */
static inline size_t mc_build_pause(mc_u8 *buf, const mc_u8 *sa, mc_u16 quanta)
{
	memset(buf, 0, MC_FRAME_LEN);
	memcpy(buf, mc_pause_da, 6);
	memcpy(buf + 6, sa, 6);
	mc_put_be16(buf + 12, MC_ETHERTYPE);
	mc_put_be16(buf + MC_HDR_LEN, MC_OPCODE_PAUSE);
	mc_put_be16(buf + MC_HDR_LEN + 2, quanta);
	return MC_FRAME_LEN;
}

/* Build a 60-byte PFC frame: times for the priorities set in enable. */
static inline size_t mc_build_pfc(mc_u8 *buf, const mc_u8 *sa, mc_u8 enable,
				  const mc_u16 *time)
{
	int i;

	memset(buf, 0, MC_FRAME_LEN);
	memcpy(buf, mc_pause_da, 6);
	memcpy(buf + 6, sa, 6);
	mc_put_be16(buf + 12, MC_ETHERTYPE);
	mc_put_be16(buf + MC_HDR_LEN, MC_OPCODE_PFC);
	buf[MC_HDR_LEN + 3] = enable;
	for (i = 0; i < MC_NUM_PRIOS; i++)
		if (enable & (1u << i))
			mc_put_be16(buf + MC_HDR_LEN + 4 + 2 * i, time[i]);
	return MC_FRAME_LEN;
}

/* Nanoseconds that quanta last at speed_mbps (> 0): quanta * 512 bits. */
static inline mc_u64 mc_quanta_to_ns(mc_u32 quanta, mc_u32 speed_mbps)
{
	/* 512 bits at 1 Mb/s take 512 us: 512000 ns per quantum per Mb/s. */
	return mc_div_u64((mc_u64)quanta * MC_QUANTUM_BITS * 1000 +
			  speed_mbps / 2, speed_mbps);
}

/* Quanta (rounded up, capped at 0xffff) that cover ns at speed_mbps. */
static inline mc_u32 mc_ns_to_quanta(mc_u64 ns, mc_u32 speed_mbps)
{
	mc_u64 q = mc_div_u64(ns * speed_mbps + MC_QUANTUM_BITS * 1000 - 1,
			      MC_QUANTUM_BITS * 1000);

	return q > 0xffff ? 0xffff : (mc_u32)q;
}

#endif /* _FLOWCTL_MACCONTROL_H */
