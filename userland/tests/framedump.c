// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: the frames "flowctl send" would put on the wire, and what
 * mc_parse makes of a frame, for cross-checks against scapy and tshark.
 *
 *   framedump [--sa MAC] SEND-ARGS            hex of the frame, one line
 *   framedump [--sa MAC] --pcap FILE SEND-ARGS [-- SEND-ARGS]...
 *                                             the frames as a pcap file
 *   framedump [--sa MAC] --raw SEND-ARGS      the frame's bytes (fuzz seeds)
 *   framedump --parse HEX [--own MAC]         mc_parse's verdict as JSON
 *
 * SEND-ARGS are the words of "flowctl send" without dev: pause 100, xon,
 * pfc 3:65535,4:100, opcode 2, da MAC, length 64 ...
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <flowctl/maccontrol.h>

#include "parse.h"
#include "send.h"

static const char *result_name(enum mc_result r)
{
	switch (r) {
	case MC_OK:
		return "ok";
	case MC_ERR_SHORT:
		return "short";
	case MC_ERR_ETHERTYPE:
		return "ethertype";
	case MC_ERR_DA:
		return "da";
	case MC_ERR_OPCODE:
		return "opcode";
	}
	return "?";
}

static int do_parse(const char *hex, const char *own_arg)
{
	uint8_t frame[FC_SEND_MAX_LEN], own[6];
	size_t len = strlen(hex) / 2, i;
	struct mc_frame f;
	enum mc_result r;

	if (strlen(hex) % 2 || len > sizeof(frame))
		return 2;
	for (i = 0; i < len; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return 2;
		frame[i] = (uint8_t)b;
	}
	if (own_arg && parse_mac(own_arg, own))
		return 2;
	memset(&f, 0, sizeof(f));
	r = mc_parse(frame, len, own_arg ? own : NULL, &f);
	printf("{\"result\":\"%s\",\"opcode\":%u,\"pause_time\":%u,\"enable\":%u,\"time\":[",
	       result_name(r), f.opcode, f.pause_time, f.enable);
	for (i = 0; i < MC_NUM_PRIOS; i++)
		printf("%s%u", i ? "," : "", f.time[i]);
	printf("]}\n");
	return 0;
}

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);	/* pcap is written in host order, magic says which */
}

static void put16(FILE *f, uint16_t v)
{
	fwrite(&v, 2, 1, f);
}

int main(int argc, char **argv)
{
	uint8_t sa[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x0a };
	uint8_t frame[FC_SEND_MAX_LEN];
	const char *pcap = NULL;
	bool raw = false;
	struct fc_send_req r;
	FILE *out = NULL;
	size_t len, i;
	int start, end, pkt = 0;

	argc--;
	argv++;
	if (argc >= 2 && !strcmp(argv[0], "--parse"))
		return do_parse(argv[1], argc >= 4 && !strcmp(argv[2], "--own") ? argv[3] : NULL);
	while (argc >= 2 && argv[0][0] == '-' && argv[0][1] == '-') {
		if (!strcmp(argv[0], "--sa")) {
			if (parse_mac(argv[1], sa))
				return 2;
		} else if (!strcmp(argv[0], "--pcap")) {
			pcap = argv[1];
		} else if (!strcmp(argv[0], "--raw")) {
			raw = true;
			argc--;
			argv++;
			continue;
		} else {
			break;
		}
		argc -= 2;
		argv += 2;
	}
	if (pcap) {
		out = fopen(pcap, "wb");
		if (!out) {
			perror(pcap);
			return 1;
		}
		put32(out, 0xa1b2c3d4);		/* microsecond pcap */
		put16(out, 2);
		put16(out, 4);
		put32(out, 0);
		put32(out, 0);
		put32(out, 65535);
		put32(out, 1);			/* LINKTYPE_ETHERNET */
	}
	for (start = 0; start < argc || (start == 0 && argc == 0); start = end + 1) {
		for (end = start; end < argc && strcmp(argv[end], "--"); end++)
			;
		if (fc_send_parse(end - start, argv + start, &r, false) || r.help)
			return 2;
		len = fc_send_build(&r, sa, frame);
		if (out) {
			put32(out, 1700000000u);
			put32(out, (uint32_t)pkt++);
			put32(out, (uint32_t)len);
			put32(out, (uint32_t)len);
			fwrite(frame, 1, len, out);
		} else if (raw) {
			fwrite(frame, 1, len, stdout);
		} else {
			for (i = 0; i < len; i++)
				printf("%02x", frame[i]);
			printf("\n");
		}
		if (end >= argc)
			break;
	}
	if (out)
		fclose(out);
	return 0;
}
