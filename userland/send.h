/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLOWCTL_SEND_H
#define FLOWCTL_SEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FC_SEND_MAX_LEN 1514	/* the largest frame "length" may ask for */

enum fc_send_kind {
	FC_SEND_NONE,		/* only "opcode N": a bare MAC Control frame */
	FC_SEND_PAUSE,
	FC_SEND_XON,		/* PAUSE with time 0 */
	FC_SEND_PFC,
};

struct fc_send_req {
	const char *dev;
	bool help;
	enum fc_send_kind kind;
	uint16_t quanta;			/* pause */
	uint8_t pfc_enable;			/* pfc: the priorities listed */
	uint16_t pfc_time[8];
	uint64_t count;				/* 0: until Ctrl-C */
	uint64_t interval_ns;
	/* Testing aids: override fields of the frame built above. */
	bool have_da, have_opcode, have_ethertype, have_enable, have_length;
	uint8_t da[6];
	uint16_t opcode, ethertype, enable;
	uint32_t length;
};

/*
 * Parse the words after "send". need_dev: "dev DEV" is required (the
 * frame dump helper in the tests builds frames without a device).
 */
int fc_send_parse(int argc, char **argv, struct fc_send_req *r, bool need_dev);
/* What send prints when it is done: frames sent, the frame, drops. */
void fc_send_print(const struct fc_send_req *r, uint64_t sent,
		   uint64_t dropped, size_t len);
/* Build the frame into buf (FC_SEND_MAX_LEN bytes); returns its length. */
size_t fc_send_build(const struct fc_send_req *r, const uint8_t sa[6],
		     uint8_t *buf);

#endif
