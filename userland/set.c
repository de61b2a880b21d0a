// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl set: send only the settings that were given. The kernel does the
 * read-modify-write and applies all of them or none, so a refused request
 * leaves the port as it was; its extack says which word it refused.
 */
#include <errno.h>
#include <string.h>

#include "flowctl.h"
#include "netlink.h"
#include "print.h"
#include "set.h"
#include "show.h"

/*
 * EOPNOTSUPP means either "no flowctl qdisc here" or "this kernel cannot
 * do that setting yet". A DEV_GET tells them apart.
 */
static bool dev_has_qdisc(struct fc_nl *nl, const char *dev)
{
	struct fc_dev_list l = { 0 };
	int err = fc_dev_get(nl, dev, &l);

	fc_dev_list_free(&l);
	return err != -EOPNOTSUPP;
}

int fc_write_run(struct nlmsghdr *nlh, struct fc_nl *nl, const char *dev,
		 const char *what)
{
	static struct fc_nl saved;
	int err = fc_nl_talk(nl, nlh, NULL, NULL);
	bool no_qdisc;

	if (!err)
		return EXIT_OK;
	saved = *nl;	/* the probe below reuses the buffers */
	no_qdisc = err == -EOPNOTSUPP && !dev_has_qdisc(nl, dev);
	fc_nl_perror(&saved, err, dev, what, no_qdisc);
	return EXIT_FAIL;
}

int cmd_set(int argc, char **argv)
{
	struct fc_set_req r;
	struct nlmsghdr *nlh;
	struct fc_nl nl;
	int ret;

	if (argc == 4 && !strcmp(argv[0], "dev") && !strcmp(argv[2], "json"))
		ret = fc_set_json_file(argv[1], argv[3], &r);
	else
		ret = fc_set_parse(argc, argv, &r);
	if (ret || r.help)
		return ret;
	ret = fc_nl_open(&nl);
	if (!ret) {
		nlh = fc_nl_req(&nl, FLOWCTL_CMD_DEV_SET, NLM_F_ACK);
		fc_set_build(nlh, &r);
		ret = fc_write_run(nlh, &nl, r.dev, "set");
	}
	fc_nl_close(&nl);
	return ret;
}
