/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flowctl doctor: the classic field pitfalls of PAUSE/PFC on a port, each
 * judged from what was read (the driver's ethtool and dcbnl answers, the
 * qdisc's configuration) or measured (counters read twice, an interval
 * apart). fc_doctor_judge() is a pure function of those facts, so every
 * rule is tested on the host with synthetic ones; nic.c and doctor_cmd.c
 * read the real ones.
 */
#ifndef FLOWCTL_DOCTOR_H
#define FLOWCTL_DOCTOR_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dev.h"

/* A pause priority is "stormed" when held this share of the interval. */
#define FC_DOC_STORM_PCT	90
/* ... by at least this many XOFF frames in the interval (refreshes). */
#define FC_DOC_STORM_XOFF	2

/* Zero is "unknown", so facts left zero say nothing. */
enum fc_doc_duplex {
	FC_DOC_DUPLEX_UNKNOWN,
	FC_DOC_DUPLEX_HALF,
	FC_DOC_DUPLEX_FULL,
};

enum fc_doc_severity {
	FC_DOC_INFO,
	FC_DOC_WARNING,
	FC_DOC_ERROR,
};

/*
 * What the device's driver says (ethtool netlink, dcbnl). Each *_err is 0
 * when the request was answered, else the positive errno it failed with:
 * EOPNOTSUPP is the driver's "I have no such thing".
 */
struct fc_doc_nic {
	/* ETHTOOL_MSG_LINKMODES_GET */
	int linkmodes_err;
	uint32_t speed_mbps;		/* 0: unknown (no link, or not said) */
	enum fc_doc_duplex duplex;
	bool autoneg;
	/* ETHTOOL_MSG_PAUSE_GET (ETHTOOL_FLAG_STATS) */
	int pause_err;
	bool pause_autoneg, pause_rx, pause_tx;
	/* ETHTOOL_A_PAUSE_STAT_*_FRAMES at the first [0] and second [1] reading */
	bool have_rx_frames[2], have_tx_frames[2];
	uint64_t rx_frames[2], tx_frames[2];
	/* ETHTOOL_MSG_CHANNELS_GET: the TX queues in use (tx + combined) */
	int channels_err;
	unsigned int tx_queues;		/* 0: not said */
	/* ETHTOOL_MSG_FEATURES_GET */
	int features_err;
	bool rx_all_offered;		/* the driver can switch it (not fixed) */
	bool rx_all_on;
	/* DCB_CMD_IEEE_GET: DCB_ATTR_IEEE_PFC */
	int dcb_pfc_err;
	bool have_pfc;			/* the reply carried struct ieee_pfc */
	uint8_t pfc_cap, pfc_en;
	bool have_pfc_counts;		/* and all of it: the counters too */
	uint64_t pfc_requests[8];	/* PFC frames the NIC sent, by priority */
	uint64_t pfc_indications[8];	/* and received */
	/* DCB_CMD_GDCBX */
	int dcbx_err;
	uint8_t dcbx;			/* DCB_CAP_DCBX_* */
	/* Processes with an LLDP packet socket bound to the device (the
	 * agents that speak DCBX on it: lldpad, lldpd, flowctl dcbx), from
	 * /proc/net/packet and the sockets in /proc/PID/fd.
	 */
	unsigned int nagents;		/* up to FC_DOC_AGENTS listed */
	struct {
		char comm[16];
		int pid;
	} agent[4];
};
#define FC_DOC_AGENTS 4

/* One device examined. */
struct fc_doc_port {
	char ifname[IF_NAMESIZE];
	bool qdisc;			/* it has flowctl (root or under mq) */
	unsigned int flowctl_queues;	/* TX queues with a flowctl (DEV_GET
					 * queues); 0: not read
					 */
	bool measured;			/* both readings of the qdisc were taken */
	struct fc_dev before, after;	/* DEV_GET at the start and the end */
	uint64_t elapsed_ns;		/* between the two readings */
	struct fc_doc_nic nic;
};

struct fc_doc_facts {
	bool module;			/* the flowctl genl family exists */
	bool all;			/* no dev given: every flowctl port */
	/* Where tc looks for q_flowctl.so ("": not judged) and whether it is
	 * there; TC_LIB_DIR set in the environment, as tc reads it.
	 */
	char tc_plugin_dir[256];
	bool tc_plugin, tc_lib_dir_env;
	struct fc_doc_port *port;
	size_t nports;
};

#define FC_DOC_MEASURED_LEN	400
#define FC_DOC_FIX_LEN		200

struct fc_doc_finding {
	const char *id;			/* kebab-case, as flowctl(8) lists them */
	enum fc_doc_severity severity;
	const char *ifname;		/* NULL: the network namespace */
	const char *meaning;		/* what it means, one sentence */
	char measured[FC_DOC_MEASURED_LEN];	/* what was read, with numbers */
	char fix[FC_DOC_FIX_LEN];	/* a command; "" when none */
};

struct fc_doc_report {
	struct fc_doc_finding *f;
	size_t n, cap;
	size_t errors, warnings, infos;
};

/*
 * Judge the facts: the findings in r (errors first, then warnings, then
 * infos; in rule order within each). 0, or -ENOMEM. fc_doctor_free()
 * frees them.
 */
int fc_doctor_judge(const struct fc_doc_facts *facts, struct fc_doc_report *r);
void fc_doctor_free(struct fc_doc_report *r);
/* The finding of r with this id for ifname (NULL: any), or NULL. */
const struct fc_doc_finding *fc_doctor_find(const struct fc_doc_report *r,
					    const char *id, const char *ifname);
const char *fc_doc_severity_name(enum fc_doc_severity s);
/* 0 when nothing of severity error or warning was found, else EXIT_FOUND. */
int fc_doctor_status(const struct fc_doc_report *r);

/* The facts and the findings, text or JSON (print.h); interval as asked. */
void fc_doctor_print(const struct fc_doc_facts *facts,
		     const struct fc_doc_report *r, uint64_t interval_ns);

#endif
