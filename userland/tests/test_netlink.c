// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink side without a kernel: the DEV_SET message "set" builds, a
 * dump that spans two receive buffers, ACKs, errors with and without the
 * echoed request, extended ACK messages and offsets mapped back to the
 * word the user typed, and the user-facing error wording.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ktap.h"
#include "synth.h"
#include "dev.h"
#include "netlink.h"
#include "set.h"

static char buf[3][16384] __attribute__((aligned(8)));
static struct fc_nl nl;

static void nl_init(void)
{
	memset(&nl, 0, sizeof(nl));
	nl.family = SYNTH_FAMILY;
	nl.portid = 0;
	nl.seq = 100;
	fc_nl_reset_status(&nl);
}

/* The DEV_SET for "dev eth9 mode pfc tx on rate 1gbit quanta 300 prio 3 ...". */
static struct nlmsghdr *build_set(void)
{
	static char *argv[] = {
		"dev", "eth9", "mode", "pfc", "tx", "on", "rate", "1gbit",
		"quanta", "300", "prio", "3", "xoff", "9000", "xon", "3000",
		"ets", "0:30,3:50,5:20",
	};
	struct fc_set_req r;
	struct nlmsghdr *nlh;

	if (fc_set_parse(sizeof(argv) / sizeof(argv[0]), argv, &r))
		return NULL;
	nlh = fc_nl_req(&nl, FLOWCTL_CMD_DEV_SET, NLM_F_ACK);
	fc_set_build(nlh, &r);
	return nlh;
}

static const struct nlattr *find(const struct nlmsghdr *nlh, uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

static void test_set_message(void)
{
	struct nlmsghdr *nlh = build_set();
	const struct genlmsghdr *g;
	const struct nlattr *a, *in;
	int n = 0, prio = -1;
	uint32_t xoff = 0, xon = 0;

	ktap_ok(nlh != NULL, "set: the request builds");
	if (!nlh)
		return;
	g = mnl_nlmsg_get_payload(nlh);
	ktap_ok(nlh->nlmsg_type == SYNTH_FAMILY && g->cmd == FLOWCTL_CMD_DEV_SET &&
		g->version == FLOWCTL_FAMILY_VERSION, "set: family, DEV_SET, version 1");
	ktap_ok((nlh->nlmsg_flags & (NLM_F_REQUEST | NLM_F_ACK)) == (NLM_F_REQUEST | NLM_F_ACK),
		"set: NLM_F_REQUEST | NLM_F_ACK");
	a = find(nlh, FLOWCTL_A_DEV_IFNAME);
	ktap_ok(a && mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0 &&
		!strcmp(mnl_attr_get_str(a), "eth9"), "set: IFNAME, NUL-terminated");
	a = find(nlh, FLOWCTL_A_DEV_MODE);
	ktap_ok(a && mnl_attr_get_payload_len(a) == 1 && mnl_attr_get_u8(a) == FLOWCTL_MODE_PFC,
		"set: MODE is a u8");
	a = find(nlh, FLOWCTL_A_DEV_TX);
	ktap_ok(a && mnl_attr_get_payload_len(a) == 1 && mnl_attr_get_u8(a) == 1, "set: TX is a u8");
	a = find(nlh, FLOWCTL_A_DEV_RATE);
	ktap_ok(a && mnl_attr_get_payload_len(a) == 8 && mnl_attr_get_u64(a) == 1000000000ULL,
		"set: RATE is a u64");
	a = find(nlh, FLOWCTL_A_DEV_QUANTA);
	ktap_ok(a && mnl_attr_get_payload_len(a) == 2 && mnl_attr_get_u16(a) == 300,
		"set: QUANTA is a u16");
	a = find(nlh, FLOWCTL_A_DEV_TC_BW);
	ktap_ok(a && mnl_attr_get_payload_len(a) == 8 &&
		!memcmp(mnl_attr_get_payload(a), "\x1e\0\0\x32\0\x14\0\0", 8),
		"set: TC_BW is eight bytes, byte n = class n's percent");
	ktap_ok(!find(nlh, FLOWCTL_A_DEV_RX) && !find(nlh, FLOWCTL_A_DEV_SPEED) &&
		!find(nlh, FLOWCTL_A_DEV_LIMIT), "set: nothing that was not given");
	a = find(nlh, FLOWCTL_A_DEV_PRIO);
	ktap_ok(a && (a->nla_type & NLA_F_NESTED), "set: PRIO nest carries NLA_F_NESTED");
	if (a)
		mnl_attr_for_each_nested(in, a) {
			n++;
			switch (mnl_attr_get_type(in)) {
			case FLOWCTL_A_PRIO_PRIO:
				prio = mnl_attr_get_u8(in);
				break;
			case FLOWCTL_A_PRIO_XOFF:
				xoff = mnl_attr_get_u32(in);
				break;
			case FLOWCTL_A_PRIO_XON:
				xon = mnl_attr_get_u32(in);
				break;
			}
		}
	ktap_ok(n == 3 && prio == 3 && xoff == 9000 && xon == 3000,
		"set: PRIO nest = PRIO_PRIO 3, PRIO_XOFF 9000, PRIO_XON 3000");
}

static void test_dump(void)
{
	struct fc_dev_list l = { 0 };
	struct nlmsghdr *nlh;
	size_t len1, len2;
	int ret;

	nl_init();
	nlh = synth_full_dev(buf[0], 55, NLM_F_MULTI);
	len1 = nlh->nlmsg_len;
	nlh = synth_sparse_dev(buf[1], 55, NLM_F_MULTI);
	len2 = nlh->nlmsg_len;
	nlh = (struct nlmsghdr *)(buf[1] + len2);
	nlh = mnl_nlmsg_put_header(nlh);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = 55;
	*(int *)mnl_nlmsg_put_extra_header(nlh, sizeof(int)) = 0;
	len2 += nlh->nlmsg_len;

	ret = fc_nl_process(&nl, buf[0], len1, 55, fc_dev_list_cb, &l);
	ktap_ok(ret == MNL_CB_OK && l.n == 1, "dump: the first buffer asks for more");
	ret = fc_nl_process(&nl, buf[1], len2, 55, fc_dev_list_cb, &l);
	ktap_ok(ret == MNL_CB_STOP && l.n == 2 && nl.err == 0,
		"dump: the second buffer ends at NLMSG_DONE with 2 ports");
	fc_dev_list_free(&l);

	nl_init();
	ret = fc_nl_process(&nl, buf[0], len1, 56, fc_dev_list_cb, &l);
	ktap_ok(ret == MNL_CB_ERROR && (nl.err == EPROTO || nl.err == ESRCH),
		"dump: a reply to another request (seq) is an error");
	fc_dev_list_free(&l);

	/* A dump error travels in NLMSG_DONE, with its extack. */
	nl_init();
	nlh = mnl_nlmsg_put_header(buf[2]);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI | NLM_F_ACK_TLVS;
	nlh->nlmsg_seq = 57;
	*(int *)mnl_nlmsg_put_extra_header(nlh, sizeof(int)) = -EMSGSIZE;
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "dump too big");
	ret = fc_nl_process(&nl, buf[2], nlh->nlmsg_len, 57, fc_dev_list_cb, &l);
	ktap_ok(ret == MNL_CB_ERROR && nl.err == EMSGSIZE && !strcmp(nl.ext_msg, "dump too big"),
		"dump: NLMSG_DONE with an error and an extack message");
	fc_dev_list_free(&l);
}

/* An NLMSG_ERROR for req: capped or with the request echoed. */
static size_t put_error(char *b, const struct nlmsghdr *req, int error, bool capped,
			const char *msg, int32_t off)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(b);
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_flags = (capped ? NLM_F_CAPPED : 0) | (msg ? NLM_F_ACK_TLVS : 0);
	if (capped) {
		e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
		e->msg = *req;
	} else {
		e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e) - sizeof(*req) +
					       MNL_ALIGN(req->nlmsg_len));
		memcpy(&e->msg, req, req->nlmsg_len);
	}
	e->error = error;
	if (msg) {
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
		if (off >= 0)
			mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, (uint32_t)off);
	}
	return nlh->nlmsg_len;
}

static int32_t offset_of_prio_xon(const struct nlmsghdr *req)
{
	const struct nlattr *nest = find(req, FLOWCTL_A_DEV_PRIO), *a;

	if (!nest)
		return -1;
	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == FLOWCTL_A_PRIO_XON)
			return (int32_t)((const char *)a - (const char *)req);
	return -1;
}

static void test_errors(void)
{
	struct nlmsghdr *req;
	char word[32];
	int32_t off;
	size_t len;
	int ret, capped;

	for (capped = 1; capped >= 0; capped--) {
		nl_init();
		req = build_set();
		off = offset_of_prio_xon(req);
		len = put_error(buf[0], req, -EINVAL, capped, "xon must be below xoff", off);
		ret = fc_nl_process(&nl, buf[0], len, req->nlmsg_seq, NULL, NULL);
		ktap_ok(ret == MNL_CB_ERROR && nl.err == EINVAL,
			"error (%s): -EINVAL is reported", capped ? "capped" : "request echoed");
		KTAP_EQ_STR(nl.ext_msg, "xon must be below xoff",
			    "error (%s): the extack message is kept", capped ? "capped" : "echoed");
		ktap_ok(nl.ext_off == off, "error (%s): the extack offset is kept",
			capped ? "capped" : "echoed");
		KTAP_EQ_STR(fc_nl_attr_word(&nl, nl.ext_off, word, sizeof(word)), "prio 3 xon",
			    "error (%s): the offset names the word typed: prio 3 xon",
			    capped ? "capped" : "echoed");
	}
	nl_init();
	req = build_set();
	off = (int32_t)((const char *)find(req, FLOWCTL_A_DEV_TX) - (const char *)req);
	KTAP_EQ_STR(fc_nl_attr_word(&nl, off, word, sizeof(word)), "tx",
		    "extack offset of TX names \"tx\"");
	ktap_ok(fc_nl_attr_word(&nl, 3, word, sizeof(word)) == NULL &&
		fc_nl_attr_word(&nl, 100000, word, sizeof(word)) == NULL,
		"extack offsets outside the attributes name nothing");

	/* The ACK. */
	nl_init();
	req = build_set();
	len = put_error(buf[0], req, 0, true, NULL, -1);
	ret = fc_nl_process(&nl, buf[0], len, req->nlmsg_seq, NULL, NULL);
	ktap_ok(ret == MNL_CB_STOP && nl.err == 0 && !nl.ext_msg[0], "ack: error 0 ends the request");

	/* A truncated error message. */
	nl_init();
	{
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf[0]);

		nlh->nlmsg_type = NLMSG_ERROR;
		nlh->nlmsg_seq = 9;
		mnl_nlmsg_put_extra_header(nlh, 2);
		ret = fc_nl_process(&nl, buf[0], nlh->nlmsg_len, 9, NULL, NULL);
		ktap_ok(ret == MNL_CB_ERROR && nl.err == EBADMSG, "a truncated NLMSG_ERROR is EBADMSG");
	}
}

static char captured[4096];

static void perror_into(int err, const char *dev, const char *what, bool no_qdisc)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	fc_nl_perror(&nl, err, dev, what, no_qdisc);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(captured, 1, sizeof(captured) - 1, tmp);
	captured[n] = '\0';
	fclose(tmp);
}

static void test_wording(void)
{
	struct nlmsghdr *req;
	int32_t off;

	nl_init();
	perror_into(-ENODEV, "eth9", "show", true);
	KTAP_EQ_STR(captured, "no such device eth9\n", "wording: ENODEV");
	perror_into(-EOPNOTSUPP, "eth9", "show", true);
	KTAP_EQ_STR(captured,
		    "eth9 has no flowctl qdisc; attach one with: tc qdisc add dev eth9 root flowctl\n",
		    "wording: EOPNOTSUPP without a qdisc");
	perror_into(-EPERM, "eth9", "set", false);
	KTAP_EQ_STR(captured, "permission denied: set and reset need CAP_NET_ADMIN\n",
		    "wording: EPERM");
	perror_into(-EINVAL, "eth9", "set", false);
	KTAP_EQ_STR(captured, "Error: set eth9: Invalid argument\n",
		    "wording: an errno without extack");

	req = build_set();
	off = (int32_t)((const char *)find(req, FLOWCTL_A_DEV_TX) - (const char *)req);
	snprintf(nl.ext_msg, sizeof(nl.ext_msg), "not supported yet");
	nl.ext_off = off;
	perror_into(-EOPNOTSUPP, "eth9", "set", false);
	KTAP_EQ_STR(captured, "Error: not supported yet (at \"tx\"; Operation not supported)\n",
		    "wording: a refused setting relays the kernel's extack");
	nl.ext_off = -1;
	perror_into(-ERANGE, "eth9", "set", false);
	KTAP_EQ_STR(captured, "Error: not supported yet (Numerical result out of range)\n",
		    "wording: extack without an offset");
}

int main(void)
{
	ktap_begin("flowctl netlink messages without a kernel");
	nl_init();
	test_set_message();
	test_dump();
	test_errors();
	test_wording();
	return ktap_finish();
}
