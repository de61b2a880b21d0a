/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink side: one socket, the family id and the "events"
 * group resolved through nlctrl, requests that wait for their ACK or
 * NLMSG_DONE, and the kernel's extended ACK kept for the error message.
 */
#ifndef FLOWCTL_NETLINK_H
#define FLOWCTL_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#define FC_NL_TXBUF	8192
#define FC_NL_RXBUF	65536	/* > MNL_SOCKET_BUFFER_SIZE: dumps fill it */

struct fc_nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	uint16_t family;		/* 0 until resolved */
	uint32_t version;		/* the kernel's family version */
	uint32_t events_grp;		/* 0 if the family has no such group */
	char tx[FC_NL_TXBUF];		/* the last request, for extack offsets */
	char *rx;
	/* What the kernel said about the last request. */
	int err;			/* positive errno, 0 if it succeeded */
	char ext_msg[256];		/* NLMSGERR_ATTR_MSG, "" if none */
	int32_t ext_off;		/* NLMSGERR_ATTR_OFFS, -1 if none */
	int32_t ext_miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, -1 if none */
};

/* Open, bind and resolve the family. Prints why on failure: exit code. */
int fc_nl_open(struct fc_nl *nl);
void fc_nl_close(struct fc_nl *nl);
/*
 * The steps of fc_nl_open, for other families and buses. fc_nl_open_bus
 * opens and binds a socket of bus (NETLINK_GENERIC, NETLINK_ROUTE) and
 * says why it could not: exit code (fc_nl_close either way).
 * fc_nl_resolve looks a generic netlink family up by name, quietly: 0, or
 * -ENOENT when the kernel has no such family, or another -errno.
 * fc_nl_family_said tells the user what fc_nl_resolve's err means for the
 * flowctl family (module not loaded, another version): exit code.
 */
int fc_nl_open_bus(struct fc_nl *nl, int bus);
int fc_nl_resolve(struct fc_nl *nl, const char *name);
int fc_nl_family_said(const struct fc_nl *nl, int err);

/* Start a request for a flowctl command in nl->tx; NLM_F_REQUEST is added. */
struct nlmsghdr *fc_nl_req(struct fc_nl *nl, uint8_t cmd, uint16_t flags);
/* The same for the family fc_nl_resolve found, at its version. */
struct nlmsghdr *fc_nl_genl_req(struct fc_nl *nl, uint8_t cmd, uint8_t version,
				uint16_t flags);
/* A bare request of any message type (the caller adds its header). */
struct nlmsghdr *fc_nl_msg(struct fc_nl *nl, uint16_t type, uint16_t flags);
/* Put the device: its name (the kernel looks it up in our namespace). */
void fc_nl_put_dev(struct nlmsghdr *nlh, const char *dev);

/*
 * Send nlh and read replies until the ACK, NLMSG_DONE or an error; cb (may
 * be NULL) sees each data message. Returns 0 or -errno; nl->err, ext_msg
 * and ext_off say what the kernel said.
 */
int fc_nl_talk(struct fc_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
	       void *data);
/*
 * Run the callbacks over a buffer of received messages (also used by the
 * tests). Returns MNL_CB_OK (more to come), MNL_CB_STOP or MNL_CB_ERROR.
 */
int fc_nl_process(struct fc_nl *nl, const void *buf, size_t len,
		  unsigned int seq, mnl_cb_t cb, void *data);
void fc_nl_reset_status(struct fc_nl *nl);

/* Subscribe to the "events" group. Returns exit code; prints why. */
int fc_nl_join_events(struct fc_nl *nl, int rcvbuf);

/*
 * Tell the user what went wrong, in the words of flowctl(8). err is
 * -errno from fc_nl_talk; dev may be NULL; what names the operation
 * ("show", "set", ...). no_qdisc: for EOPNOTSUPP, whether the device has
 * no flowctl qdisc (else the kernel refused one setting: relay its words).
 */
void fc_nl_perror(const struct fc_nl *nl, int err, const char *dev,
		  const char *what, bool no_qdisc);
/* The set keyword for the attribute at offset off of the request, or NULL. */
const char *fc_nl_attr_word(const struct fc_nl *nl, int32_t off, char *buf,
			    size_t len);

#endif
