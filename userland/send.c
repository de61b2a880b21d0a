// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl send: transmit PAUSE, XON or PFC frames on a device through an
 * AF_PACKET socket, built by the same codec the kernel module uses
 * (include/flowctl/maccontrol.h), past the device's qdisc
 * (PACKET_QDISC_BYPASS). Needs CAP_NET_RAW, not the module: it is how a
 * test plays the link partner. da, opcode, ethertype, enable and
 * length bend the frame out of shape to test how a receiver copes.
 */
#include <errno.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_packet.h>

#include <flowctl/maccontrol.h>

#include "flowctl.h"
#include "print.h"
#include "send.h"
#include "show.h"

static volatile sig_atomic_t send_stop;

static void on_signal(int sig)
{
	(void)sig;
	send_stop = 1;
}

void usage_send(FILE *f)
{
	fprintf(f,
		"Usage: flowctl send dev DEV FRAME [ count N ] [ interval USEC ]\n"
		"                    [ TESTING-AIDS ]\n"
		"       flowctl send help\n"
		"FRAME := { pause QUANTA | xon | pfc PFC-LIST }\n"
		"PFC-LIST := { PRIO | all }:QUANTA[,PFC-LIST]   e.g. 3:65535,4:100\n"
		"QUANTA := { 0 .. 65535 }  (units of 512 bit times; 0 = resume)\n"
		"N := frames to send, default 1; 0 = until Ctrl-C\n"
		"USEC := microseconds between frames (default 0), or a time: 10ms\n"
		"TESTING-AIDS := [ da MAC ] [ opcode N ] [ ethertype N ] [ enable N ]\n"
		"                [ length BYTES ]\n"
		"  da MAC        destination instead of 01:80:c2:00:00:01\n"
		"  opcode N      MAC Control opcode instead of 0x0001/0x0101; alone\n"
		"                (no FRAME) it sends a frame with zero parameters\n"
		"  ethertype N   EtherType instead of 0x8808\n"
		"  enable N      pfc only: the whole 16-bit priority_enable_vector\n"
		"  length BYTES  truncate or zero-pad the frame to 14 .. 1514 bytes\n"
		"Frames are 60 bytes (no FCS), SA = DEV's MAC. Needs CAP_NET_RAW, not the\n"
		"flowctl module.\n");
}

static int parse_pfc_list(const char *arg, struct fc_send_req *r)
{
	const char *p = arg;

	r->pfc_enable = 0;
	memset(r->pfc_time, 0, sizeof(r->pfc_time));
	while (*p) {
		char item[32], *colon;
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		uint64_t prio, q;
		uint8_t mask;
		int i, err;

		if (!len || len >= sizeof(item))
			return -EINVAL;
		memcpy(item, p, len);
		item[len] = '\0';
		colon = strchr(item, ':');
		if (!colon)
			return -EINVAL;
		*colon = '\0';
		if (matches(item, "all")) {
			mask = 0xff;
		} else {
			err = parse_u64(item, 0, 7, &prio);
			if (err)
				return err;
			mask = (uint8_t)(1u << prio);
		}
		err = parse_u64(colon + 1, 0, 65535, &q);
		if (err)
			return err;
		if (r->pfc_enable & mask)
			return -EINVAL;		/* a priority twice */
		r->pfc_enable |= mask;
		for (i = 0; i < 8; i++)
			if (mask & (1u << i))
				r->pfc_time[i] = (uint16_t)q;
		p += len;
		if (*p == ',') {
			p++;
			if (!*p)
				return -EINVAL;
		}
	}
	return r->pfc_enable ? 0 : -EINVAL;
}

int fc_send_parse(int argc, char **argv, struct fc_send_req *r, bool need_dev)
{
	static const char *const words[] = {
		"dev", "pause", "pfc", "count", "interval", "da", "opcode",
		"ethertype", "enable", "length", "xon", "help", NULL,
	};
	static const char *const needs[] = {
		"a device name", "quanta 0..65535",
		"PRIO:QUANTA[,PRIO:QUANTA...]", "frames 0..4294967295 (0 = until Ctrl-C)",
		"microseconds, or a time like 10ms", "a MAC address like 01:80:c2:00:00:01",
		"0..65535 (0x0000..0xffff)", "0..65535 (0x0000..0xffff)",
		"0..65535 (0x0000..0xffff)", "bytes 14..1514",
	};
	uint64_t v;
	int err, k;

	memset(r, 0, sizeof(*r));
	r->count = 1;
	while (argc > 0) {
		const char *kw, *arg = argc > 1 ? argv[1] : NULL;

		k = parse_keyword(argv[0], words);
		if (k < 0)
			return bad_keyword(argv[0], words, k, "send");
		kw = words[k];
		if (matches(kw, "help")) {
			usage_send(stdout);
			r->help = true;
			return EXIT_OK;
		}
		if (matches(kw, "xon")) {
			if (r->kind != FC_SEND_NONE)
				goto two_frames;
			r->kind = FC_SEND_XON;
			argc--;
			argv++;
			continue;
		}
		if (!arg)
			return missing_value(kw, needs[k]);

		if (matches(kw, "dev")) {
			if (fc_check_dev_name(arg))
				return EXIT_USAGE;
			r->dev = arg;
		} else if (matches(kw, "pause")) {
			if (r->kind != FC_SEND_NONE)
				goto two_frames;
			err = parse_u64(arg, 0, 65535, &v);
			if (err)
				return bad_value(kw, arg, err, "quanta 0..65535");
			r->kind = FC_SEND_PAUSE;
			r->quanta = (uint16_t)v;
		} else if (matches(kw, "pfc")) {
			if (r->kind != FC_SEND_NONE)
				goto two_frames;
			err = parse_pfc_list(arg, r);
			if (err)
				return bad_value(kw, arg, err,
						 "PRIO:QUANTA[,PRIO:QUANTA...], PRIO 0..7 or all, QUANTA 0..65535, each priority once");
			r->kind = FC_SEND_PFC;
		} else if (matches(kw, "count")) {
			err = parse_u64(arg, 0, UINT32_MAX, &v);
			if (err)
				return bad_value(kw, arg, err,
						 "frames 0..4294967295 (0 = until Ctrl-C)");
			r->count = v;
		} else if (matches(kw, "interval")) {
			err = parse_time(arg, 1000, 3600000000000ULL, &v);
			if (err)
				return bad_value(kw, arg, err,
						 "microseconds, or a time like 10ms (up to 3600 s)");
			r->interval_ns = v;
		} else if (matches(kw, "da")) {
			if (parse_mac(arg, r->da))
				return bad_value(kw, arg, -EINVAL,
						 "a MAC address like 01:80:c2:00:00:01");
			r->have_da = true;
		} else if (matches(kw, "opcode") || matches(kw, "ethertype") ||
			   matches(kw, "enable")) {
			err = parse_u64(arg, 0, 0xffff, &v);
			if (err)
				return bad_value(kw, arg, err,
						 "0..65535 (0x0000..0xffff)");
			if (matches(kw, "opcode")) {
				r->have_opcode = true;
				r->opcode = (uint16_t)v;
			} else if (matches(kw, "ethertype")) {
				r->have_ethertype = true;
				r->ethertype = (uint16_t)v;
			} else {
				r->have_enable = true;
				r->enable = (uint16_t)v;
			}
		} else {	/* length */
			err = parse_u64(arg, MC_HDR_LEN, FC_SEND_MAX_LEN, &v);
			if (err)
				return bad_value(kw, arg, err, "bytes 14..1514");
			r->have_length = true;
			r->length = (uint32_t)v;
		}
		argc -= 2;
		argv += 2;
	}
	if (need_dev && !r->dev) {
		fprintf(stderr, "Error: send needs dev DEV\n");
		usage_send(stderr);
		return EXIT_USAGE;
	}
	if (r->kind == FC_SEND_NONE && !r->have_opcode) {
		fprintf(stderr, "Error: nothing to send: give pause QUANTA, xon or pfc PFC-LIST\n");
		usage_send(stderr);
		return EXIT_USAGE;
	}
	if (r->have_enable && r->kind != FC_SEND_PFC) {
		fprintf(stderr, "Error: enable goes with pfc\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;

two_frames:
	fprintf(stderr, "Error: give one FRAME: pause, xon or pfc\n");
	usage_send(stderr);
	return EXIT_USAGE;
}

size_t fc_send_build(const struct fc_send_req *r, const uint8_t sa[6],
		     uint8_t *buf)
{
	size_t len;

	memset(buf, 0, FC_SEND_MAX_LEN);
	switch (r->kind) {
	case FC_SEND_PFC:
		len = mc_build_pfc(buf, sa, r->pfc_enable, r->pfc_time);
		break;
	case FC_SEND_PAUSE:
		len = mc_build_pause(buf, sa, r->quanta);
		break;
	default:	/* xon, or a bare frame for "opcode N" */
		len = mc_build_pause(buf, sa, 0);
		break;
	}
	if (r->have_da)
		memcpy(buf, r->da, 6);
	if (r->have_ethertype)
		mc_put_be16(buf + 12, r->ethertype);
	if (r->have_opcode)
		mc_put_be16(buf + MC_HDR_LEN, r->opcode);
	if (r->have_enable)
		mc_put_be16(buf + MC_HDR_LEN + 2, r->enable);
	if (r->have_length)
		len = r->length;	/* beyond 60 the buffer is zeros */
	return len;
}

static const char *kind_name(const struct fc_send_req *r)
{
	switch (r->kind) {
	case FC_SEND_PAUSE:
		return "pause";
	case FC_SEND_XON:
		return "xon";
	case FC_SEND_PFC:
		return "pfc";
	case FC_SEND_NONE:
		break;
	}
	return "raw";
}

void fc_send_print(const struct fc_send_req *r, uint64_t sent,
		   uint64_t dropped, size_t len)
{
	char buf[32];
	int i;

	open_json_object(NULL);
	print_u64(PRINT_ANY, "sent", "sent %s", sent);
	print_string(PRINT_ANY, "frame", " %s", kind_name(r));
	print_text(" frame%s", sent == 1 ? "" : "s");
	if (r->kind == FC_SEND_PAUSE)
		print_u64(PRINT_ANY, "quanta", " (quanta %s)", r->quanta);
	if (r->kind == FC_SEND_PFC) {
		print_text(" (");
		open_json_array("pfc");
		for (i = 0; i < 8; i++) {
			if (!(r->pfc_enable & (1u << i)))
				continue;
			open_json_object(NULL);
			print_u64(PRINT_ANY, "prio", "%s", (uint64_t)i);
			print_u64(PRINT_ANY, "quanta", ":%s", r->pfc_time[i]);
			print_text("%s", (r->pfc_enable >> (i + 1)) ? "," : "");
			close_json_object();
		}
		close_json_array();
		print_text(")");
	}
	print_string(PRINT_ANY, "ifname", " on %s", r->dev);
	print_u64(PRINT_JSON, "length", NULL, len);
	if (r->have_da) {
		snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x",
			 r->da[0], r->da[1], r->da[2], r->da[3], r->da[4], r->da[5]);
		print_string(PRINT_ANY, "da", " da %s", buf);
	}
	if (r->have_opcode) {
		snprintf(buf, sizeof(buf), "0x%04x", r->opcode);
		print_u64_as(PRINT_ANY, "opcode", " opcode %s", r->opcode, buf);
	}
	if (r->have_ethertype) {
		snprintf(buf, sizeof(buf), "0x%04x", r->ethertype);
		print_u64_as(PRINT_ANY, "ethertype", " ethertype %s", r->ethertype, buf);
	}
	if (r->have_enable) {
		snprintf(buf, sizeof(buf), "0x%04x", r->enable);
		print_u64_as(PRINT_ANY, "enable", " enable %s", r->enable, buf);
	}
	if (r->have_length)
		print_text(" length %zu", len);
	print_u64(dropped ? PRINT_ANY : PRINT_JSON, "dropped",
		  "; %s dropped by the local queue (ENOBUFS)", dropped);
	print_nl();
	close_json_object();
	json_end_document();
}

int cmd_send(int argc, char **argv)
{
	uint8_t frame[FC_SEND_MAX_LEN], sa[6];
	uint64_t sent = 0, dropped = 0, next = 0;
	struct sockaddr_ll sll;
	struct fc_send_req r;
	struct sigaction sigact;
	struct ifreq ifr;
	struct timespec ts;
	int fd, ret;
	size_t len;

	ret = fc_send_parse(argc, argv, &r, true);
	if (ret || r.help)
		return ret;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);	/* send only */
	if (fd < 0) {
		if (errno == EPERM)
			fprintf(stderr, "permission denied: send needs CAP_NET_RAW\n");
		else
			perror("flowctl: cannot open a packet socket");
		return EXIT_FAIL;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", r.dev);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = (int)if_nametoindex(r.dev);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "no such device %s\n", r.dev);
		close(fd);
		return EXIT_FAIL;
	}
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		fprintf(stderr, "flowctl: cannot read the MAC address of %s: %s\n",
			r.dev, strerror(errno));
		close(fd);
		return EXIT_FAIL;
	}
	if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
		fprintf(stderr, "%s is not an Ethernet device\n", r.dev);
		close(fd);
		return EXIT_FAIL;
	}
	memcpy(sa, ifr.ifr_hwaddr.sa_data, 6);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		fprintf(stderr, "flowctl: cannot bind to %s: %s\n", r.dev,
			strerror(errno));
		close(fd);
		return EXIT_FAIL;
	}
	/* Straight to the driver, as a MAC sends PAUSE: past the device's
	 * qdisc, so a flowctl port's bands (which treat any other 0x8808 frame
	 * as data, gated like the rest) neither hold nor reorder it.
	 */
	if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &(int){ 1 },
		       sizeof(int)) < 0) {
		fprintf(stderr, "flowctl: cannot bypass the qdisc of %s: %s\n",
			r.dev, strerror(errno));
		close(fd);
		return EXIT_FAIL;
	}
	len = fc_send_build(&r, sa, frame);

	memset(&sigact, 0, sizeof(sigact));
	sigact.sa_handler = on_signal;
	sigaction(SIGINT, &sigact, NULL);
	sigaction(SIGTERM, &sigact, NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	next = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;

	ret = EXIT_OK;
	while (!send_stop && (!r.count || sent + dropped < r.count)) {
		if (send(fd, frame, len, 0) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				dropped++;
			} else {
				fprintf(stderr, "flowctl: send on %s: %s%s\n", r.dev,
					strerror(errno),
					errno == ENETDOWN ? " (the device is down)" : "");
				ret = EXIT_FAIL;
				break;
			}
		} else {
			sent++;
		}
		if (r.interval_ns && (!r.count || sent + dropped < r.count)) {
			next += r.interval_ns;
			ts.tv_sec = (time_t)(next / 1000000000ULL);
			ts.tv_nsec = (long)(next % 1000000000ULL);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
	close(fd);
	fc_send_print(&r, sent, dropped, len);
	return ret;
}
