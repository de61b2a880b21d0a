#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# flowctl.mininet (python/flowctl/mininet.py): Mininet's own engine builds
# the topologies; the link class puts flowctl on both ends and configures
# it. Mininet runs in the VM's root namespace (its Linux bridge switch
# there, its hosts in their own namespaces), as on a lab server.

ALL_TESTS="class_configures_both_ends bad_settings_refused mn_custom_pfcring"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc mn brctl

MNLAB=$TOP/selftests/tools/mnlab.py
EX=$TOP/python/flowctl/examples

cleanup_case()
{
	mn -c >/dev/null 2>&1
}

class_configures_both_ends()
{
	local j

	j=$("$MNLAB" attach 2>"$TMPDIR/mn.err")
	check_err $? "mnlab.py attach: $(tail -n 3 "$TMPDIR/mn.err")"
	log_info "$j"
	check_eq "$(jq -r '."h1-eth0" | [.mode, .rx, .tx, .rate_bps, .speed_mbps] | join(" ")' <<<"$j")" \
		"pause true false 100000000 100" "h1-eth0: the sender's end of the fast link"
	check_eq "$(jq -r '."s1-eth1" | [.mode, .tx, .xoff_bytes, .xon_bytes] | join(" ")' <<<"$j")" \
		"pause true 65536 32768" "s1-eth1: the switch's end, tx on with its watermarks"
	check_eq "$(jq -r '."s1-eth2" | [.rate_bps, .speed_mbps] | join(" ")' <<<"$j")" \
		"10000000 10" "s1-eth2: the slow link"
	check_eq "$(jq -r '."h2-eth0".mode' <<<"$j")" pause "h2-eth0: flowctl on the far end too"
	check_eq "$(jq -r '.loss' <<<"$j")" 0 "pingall's loss (%)"
	cleanup_case
	log_test "the Mininet link class attaches flowctl to both ends and configures each"
}

bad_settings_refused()
{
	local j

	j=$("$MNLAB" refuse 2>"$TMPDIR/mn.err")
	check_err $? "mnlab.py refuse: $(tail -n 3 "$TMPDIR/mn.err")"
	log_info "$j"
	jq -r .refused <<<"$j" | grep -q '^FlowctlError: \(flowctl set\|tc qdisc replace\) dev h1-eth0 .*xoff'
	check_err $? "a refused xoff does not raise FlowctlError with flowctl's reason: $(jq -r .refused <<<"$j")"
	jq -r .unknown <<<"$j" | grep -q '^ValueError: not a flowctl setting: mdoe'
	check_err $? "an unknown setting does not raise ValueError: $(jq -r .unknown <<<"$j")"
	cleanup_case
	log_test "a setting flowctl refuses, or does not know, stops the topology with the reason"
}

mn_custom_pfcring()
{
	local out

	out=$(cd "$TOP" && PYTHONPATH=$TOP/python timeout 300 mn --custom "$EX/pfcring.py" \
		--topo pfcring,watchdog=200 --switch lxbr --controller none --test pingall 2>&1)
	check_err $? "mn --custom pfcring.py --test pingall: $(tail -n 5 <<<"$out")"
	grep -q 'Results: 0% dropped' <<<"$out"
	check_err $? "pingall over the ring: $(grep Results <<<"$out")"
	grep -q '(flowctl r1-cw: mode pfc rx on pfc-prios 3 trust dscp speed 10 rate 10mbit watchdog 200 wd-action drop)' <<<"$out"
	check_err $? "r1-cw was not configured with the watchdog: $(grep 'r1-cw' <<<"$out" | head -n 2)"
	cleanup_case
	log_test "mn --custom runs the PFC ring: flowctl on every link, the watchdog on each router's clockwise port"
}

TMPDIR=$(mktemp -d)
run_tests
