// SPDX-License-Identifier: GPL-2.0
/*
 * flowctl: IEEE 802.3x PAUSE and 802.1Q PFC in software.
 *
 * Module glue: the qdisc kind, the generic netlink family, and a netdevice
 * notifier that keeps each port's link speed (for quanta) up to date and
 * gives a device that goes its driver's ethtool operations back (dcb.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/jump_label.h>
#include <linux/netfilter.h>
#include <net/genetlink.h>
#include "flowctl.h"

static int fctl_netdev_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct fctl_sched *q;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_CHANGE:
		q = fctl_from_dev(dev);
		if (q) {
			fctl_update_speed(q);
			/* A frame the link refused while down goes now. */
			fctl_tx_reconsider(q);
		}
		break;
	case NETDEV_UNREGISTER:
		fctl_ports_unregister(dev);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block fctl_netdev_nb = {
	.notifier_call = fctl_netdev_event,
};

/*
 * The ingress hook sits behind two static keys (tc/nf ingress, and
 * netfilter's netdev ingress) that the kernel flips, by patching its own
 * text, when the first netdev ingress hook arrives and the last one goes.
 * flowctl holds both while any flowctl qdisc exists, and lets them go
 * FCTL_KEYS_LINGER after the last one: attaching and detaching ports patches
 * nothing (Documentation/receive-path.md), while a system with the module
 * loaded and no flowctl qdisc pays nothing on receive.
 */
#define FCTL_KEYS_LINGER	HZ

static DEFINE_MUTEX(fctl_keys_lock);
static unsigned int fctl_qdiscs;		/* fctl_keys_lock */
static bool fctl_keys_held;		/* fctl_keys_lock */
module_param_named(ingress_keys_held, fctl_keys_held, bool, 0444);
MODULE_PARM_DESC(ingress_keys_held,
		 "the ingress static keys are held (read only): a flowctl qdisc exists or went less than a second ago");

static void fctl_hold_ingress_keys(bool hold)
{
	if (hold) {
		net_inc_ingress_queue();
#ifdef CONFIG_JUMP_LABEL
		static_key_slow_inc(&nf_hooks_needed[NFPROTO_NETDEV][NF_NETDEV_INGRESS]);
#endif
	} else {
#ifdef CONFIG_JUMP_LABEL
		static_key_slow_dec(&nf_hooks_needed[NFPROTO_NETDEV][NF_NETDEV_INGRESS]);
#endif
		net_dec_ingress_queue();
	}
	WRITE_ONCE(fctl_keys_held, hold);
}

static void fctl_keys_release(struct work_struct *work)
{
	mutex_lock(&fctl_keys_lock);
	if (!fctl_qdiscs && fctl_keys_held)
		fctl_hold_ingress_keys(false);
	mutex_unlock(&fctl_keys_lock);
}

static DECLARE_DELAYED_WORK(fctl_keys_work, fctl_keys_release);

/* A qdisc is created (its init runs): the keys are held from here on. */
void fctl_keys_get(void)
{
	mutex_lock(&fctl_keys_lock);
	if (!fctl_qdiscs++ && !fctl_keys_held)
		fctl_hold_ingress_keys(true);
	mutex_unlock(&fctl_keys_lock);
}

/* A qdisc is destroyed: after the last, the keys go FCTL_KEYS_LINGER later. */
void fctl_keys_put(void)
{
	mutex_lock(&fctl_keys_lock);
	if (!--fctl_qdiscs)
		mod_delayed_work(system_wq, &fctl_keys_work, FCTL_KEYS_LINGER);
	mutex_unlock(&fctl_keys_lock);
}

static int __init fctl_module_init(void)
{
	int err;

	err = fctl_net_init();
	if (err)
		return err;
	err = fctl_netlink_init();
	if (err)
		goto err_net;
	err = register_netdevice_notifier(&fctl_netdev_nb);
	if (err)
		goto err_netlink;
	err = register_qdisc(&fctl_qdisc_ops);
	if (err)
		goto err_notifier;
	return 0;

err_notifier:
	unregister_netdevice_notifier(&fctl_netdev_nb);
err_netlink:
	fctl_netlink_exit();
err_net:
	fctl_net_exit();
	return err;
}

static void __exit fctl_module_exit(void)
{
	unregister_qdisc(&fctl_qdisc_ops);
	/* No qdisc is left (each holds a module reference). */
	cancel_delayed_work_sync(&fctl_keys_work);
	if (fctl_keys_held)
		fctl_hold_ingress_keys(false);
	fctl_ports_exit();
	unregister_netdevice_notifier(&fctl_netdev_nb);
	fctl_netlink_exit();
	fctl_net_exit();
	/* No rcu_barrier(): the module queues no RCU callback of its own.
	 * Configurations and charges go by kfree_rcu(), which runs no module
	 * code, so one still pending when the module's text is gone is safe.
	 */
}

module_init(fctl_module_init);
module_exit(fctl_module_exit);
MODULE_LICENSE("GPL");
MODULE_ALIAS("sch_flowctl");
MODULE_ALIAS("net-sch-flowctl");
MODULE_ALIAS_GENL_FAMILY(FLOWCTL_FAMILY_NAME);
MODULE_DESCRIPTION("IEEE 802.3x PAUSE and 802.1Q PFC in software");
MODULE_VERSION(FLOWCTL_VERSION);
