// SPDX-License-Identifier: GPL-2.0
/*
 * Throwaway module for selftests/harness: complains on load, so that the
 * self-test can check that scripts/vm-run catches kernel reports.  Only ever
 * load it inside a vm-run VM.
 *
 *   insmod warn_mod.ko           WARN()s; with panic_on_warn the VM panics
 *   insmod warn_mod.ko report=1  logs a "BUG:" line without WARN()ing, like
 *                                the reports that do not panic (might_sleep,
 *                                lockdep); vm-run must fail the run from dmesg
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#include <linux/bug.h>
#include <linux/module.h>
#include <linux/printk.h>

static bool report;
module_param(report, bool, 0444);
MODULE_PARM_DESC(report, "log a BUG: line instead of WARN()ing");

static int __init warn_mod_init(void)
{
	if (report)
		pr_err("BUG: warn_mod: simulated kernel report for the vm-run self-test\n");
	else
		WARN(1, "warn_mod: deliberate warning for the vm-run self-test\n");
	return 0;
}

static void __exit warn_mod_exit(void)
{
}

module_init(warn_mod_init);
module_exit(warn_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("vm-run self-test: complain on load");
