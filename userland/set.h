/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLOWCTL_SET_H
#define FLOWCTL_SET_H

#include <stdbool.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/flowctl.h>

/* Settable attributes fit the have mask. */
_Static_assert(FLOWCTL_A_DEV_MAX < 64, "set's have mask too small");

/* What "flowctl set" was told: only these attributes go to the kernel. */
struct fc_set_req {
	const char *dev;
	bool help;				/* "help" was asked and printed */
	uint64_t have;				/* bit n: FLOWCTL_A_DEV_n given */
	uint64_t v[FLOWCTL_A_DEV_MAX + 1];
	uint8_t prio_have;			/* bit n: "prio n xoff .. xon .." */
	uint32_t prio_xoff[FLOWCTL_NUM_PRIOS];
	uint32_t prio_xon[FLOWCTL_NUM_PRIOS];
};

/* Parse the words after "set". Returns EXIT_OK or EXIT_USAGE (said why). */
int fc_set_parse(int argc, char **argv, struct fc_set_req *r);
/* Append the request's attributes (device first) to a DEV_SET message. */
void fc_set_build(struct nlmsghdr *nlh, const struct fc_set_req *r);
/* The same without the device: the body of tc's TCA_OPTIONS. */
void fc_set_build_opts(struct nlmsghdr *nlh, const struct fc_set_req *r);

/*
 * A watchdog setting's value (attr FLOWCTL_A_DEV_WD_DETECT_MS, _RESTORE_MS
 * or _ACTION) as set and watchdog take it; KW names the word in the error.
 * 0, or EXIT_USAGE with the error said.
 */
int fc_wd_value(int attr, const char *kw, const char *arg, uint64_t *v);
/* "drop", "forward", "alert", or NULL for a value this CLI does not know. */
const char *fc_wd_action_name(uint64_t action);

/*
 * The words after "flowctl watchdog" (wdcmd.c): r->dev and the watchdog's
 * attributes (none: show). *helped when help was printed. EXIT_OK or
 * EXIT_USAGE with the error said.
 */
int fc_wd_parse(int argc, char **argv, struct fc_set_req *r, bool *helped);

/*
 * set dev DEV json FILE (setjson.c): the settings of flowctl -j show's
 * object (or one-port array) in FILE ("-": stdin), parsed as set's words.
 */
struct json_t;
int fc_set_json(const char *dev, struct json_t *root, struct fc_set_req *r);
int fc_set_json_file(const char *dev, const char *path, struct fc_set_req *r);

struct fc_nl;
/* Run a write (set, reset) and report the kernel's answer: exit code. */
int fc_write_run(struct nlmsghdr *nlh, struct fc_nl *nl, const char *dev,
		 const char *what);

#endif
