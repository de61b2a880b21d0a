#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The module loads and unloads; tc attaches the qdisc, loading the module
# through its alias; rmmod is refused while a qdisc exists.
#
#   +-------- ns a --------+      +-------- ns b --------+
#   |  a0 (flowctl root)   |======|  b0                  |
#   +----------------------+ veth +----------------------+

ALL_TESTS="load_unload tc_autoload tc_replace_del rmmod_busy"
source "$(dirname "$0")/lib.sh"

setup_prepare()
{
	setup_ns A B
	veth_pair "$A" a0 "$B" b0
}

load_unload()
{
	modprobe -r flowctl 2>/dev/null
	modprobe flowctl
	check_err $? "modprobe flowctl failed"
	grep -q '^flowctl ' /proc/modules
	check_err $? "flowctl not in /proc/modules after modprobe"
	[ -n "${FLOWCTL_KO:-}" ] && [ -e "$FLOWCTL_KO" ]
	check_err $? "FLOWCTL_KO does not name the module file"
	modprobe -r flowctl
	check_err $? "modprobe -r flowctl failed"
	! grep -q '^flowctl ' /proc/modules
	check_err $? "flowctl still loaded after modprobe -r"
	log_test "module loads and unloads"
}

tc_autoload()
{
	modprobe -r flowctl 2>/dev/null
	ip netns exec "$A" tc qdisc add dev a0 root handle 1: flowctl
	check_err $? "tc qdisc add ... flowctl failed with the module unloaded"
	grep -q '^flowctl ' /proc/modules
	check_err $? "tc did not load the module through its alias"
	ip netns exec "$A" tc -s qdisc show dev a0 | grep -q 'qdisc flowctl 1: root'
	check_err $? "tc qdisc show does not list the flowctl root qdisc"
	log_test "tc qdisc add loads the module through its alias"
}

tc_replace_del()
{
	ip netns exec "$A" tc qdisc replace dev a0 root flowctl
	check_err $? "tc qdisc replace with flowctl failed"
	ip netns exec "$A" tc qdisc replace dev a0 root pfifo_fast
	check_err $? "replacing flowctl by pfifo_fast failed"
	ip netns exec "$A" tc qdisc replace dev a0 root flowctl
	check_err $? "replacing pfifo_fast by flowctl failed"
	# Options: tc refuses them itself without a parser for flowctl, so
	# nl_policy's tc_options_refused sends them raw to the kernel.
	ip netns exec "$A" tc qdisc del dev a0 root
	check_err $? "tc qdisc del failed"
	! ip netns exec "$A" tc qdisc show dev a0 | grep -q flowctl
	check_err $? "flowctl still attached after del"
	log_test "tc qdisc replace and del"
}

rmmod_busy()
{
	ip netns exec "$A" tc qdisc add dev a0 root flowctl
	check_err $? "attach failed"
	rmmod flowctl 2>/dev/null
	check_fail $? "rmmod succeeded while a flowctl qdisc exists"
	ip netns exec "$A" tc qdisc show dev a0 | grep -q flowctl
	check_err $? "qdisc gone after a refused rmmod"
	ip netns exec "$A" tc qdisc del dev a0 root
	rmmod flowctl
	check_err $? "rmmod failed after the qdisc was deleted"
	log_test "rmmod refused while attached, works after"
}

setup_prepare
run_tests
