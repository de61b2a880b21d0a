// SPDX-License-Identifier: GPL-2.0
/*
 * Throwaway module with one deliberate bug of the kind the debug lane must
 * catch (selftests/debug/planted.sh, make check-debug-selftest):
 *
 *   insmod planted.ko bug=uaf        read of freed slab memory (KASAN)
 *   insmod planted.ko bug=lockorder  A then B, later B then A (lockdep)
 *   insmod planted.ko bug=leak       a kmalloc whose pointer is dropped (kmemleak)
 *   insmod planted.ko bug=none       nothing: the control run must pass
 *
 * Never load it anywhere but a throwaway VM.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/string.h>

static char *bug = "none";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "uaf, lockorder, leak or none");

static DEFINE_MUTEX(planted_a);
static DEFINE_MUTEX(planted_b);

static noinline int planted_uaf(void)
{
	volatile char *p = kmalloc(64, GFP_KERNEL);
	char c;

	if (!p)
		return -ENOMEM;
	p[8] = 42;
	kfree((void *)p);
	c = p[8];		/* use after free */
	pr_info("planted: read %d from freed memory\n", c);
	return 0;
}

static noinline void planted_lockorder(void)
{
	mutex_lock(&planted_a);
	mutex_lock(&planted_b);
	mutex_unlock(&planted_b);
	mutex_unlock(&planted_a);

	/* The inverse order: a deadlock waiting for a second thread. */
	mutex_lock(&planted_b);
	mutex_lock(&planted_a);
	mutex_unlock(&planted_a);
	mutex_unlock(&planted_b);
}

static noinline void planted_leak(void)
{
	void *volatile p = kmalloc(1234, GFP_KERNEL);

	if (p)
		memset(p, 0x5a, 1234);
	p = NULL;		/* the only reference is gone */
}

static int __init planted_init(void)
{
	pr_info("planted: bug=%s\n", bug);
	if (!strcmp(bug, "uaf"))
		return planted_uaf();
	if (!strcmp(bug, "lockorder"))
		planted_lockorder();
	else if (!strcmp(bug, "leak"))
		planted_leak();
	else if (strcmp(bug, "none"))
		return -EINVAL;
	return 0;
}

static void __exit planted_exit(void)
{
}

module_init(planted_init);
module_exit(planted_exit);
MODULE_DESCRIPTION("flowctl debug lane: deliberately planted bugs");
MODULE_LICENSE("GPL");
