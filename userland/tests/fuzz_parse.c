// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for mc_parse, the parser the kernel runs on every MAC
 * Control frame it receives. Built with -fsanitize=fuzzer,address,undefined:
 * any read past len, any UB is a crash. Besides not crashing, what it says
 * must hold together:
 *   - MC_OK only for opcode PAUSE or PFC with room for their fields;
 *   - a frame it accepts, rebuilt with the same fields, parses the same;
 *   - the first byte the parser depends on decides nothing past len.
 * The input's first byte chooses whether an own unicast address is given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <flowctl/maccontrol.h>

static const mc_u8 own[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0b };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mc_frame f, g;
	enum mc_result r;
	mc_u8 *buf, again[MC_FRAME_LEN];
	const mc_u8 *use_own;

	if (size < 1)
		return 0;
	use_own = (data[0] & 1) ? own : NULL;
	data++;
	size--;
	/* An exact-size heap copy, so ASan sees any over-read. */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	r = mc_parse(buf, size, use_own, &f);

	if (r == MC_OK) {
		if (f.opcode == MC_OPCODE_PAUSE) {
			if (size < MC_PAUSE_LEN)
				abort();
			mc_build_pause(again, buf + 6, f.pause_time);
		} else if (f.opcode == MC_OPCODE_PFC) {
			if (size < MC_PFC_LEN)
				abort();
			mc_build_pfc(again, buf + 6, f.enable, f.time);
		} else {
			abort();	/* OK for an opcode it does not handle */
		}
		memcpy(again, buf, 6);	/* same DA: group or own */
		if (mc_parse(again, MC_FRAME_LEN, use_own, &g) != MC_OK ||
		    g.opcode != f.opcode || g.enable != f.enable ||
		    (f.opcode == MC_OPCODE_PAUSE && g.pause_time != f.pause_time))
			abort();
		if (f.opcode == MC_OPCODE_PFC) {
			int i;

			for (i = 0; i < MC_NUM_PRIOS; i++)
				if ((f.enable & (1u << i)) && g.time[i] != f.time[i])
					abort();
		}
	}
	free(buf);
	return 0;
}
