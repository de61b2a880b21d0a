#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# q_flowctl.so as Debian's tc loads it, on the host (whose kernel has no
# flowctl): tc finds the plugin through TC_LIB_DIR, parses flowctl's words
# with it and sends the request (the kernel then answers that it knows no
# such qdisc), refuses bad words through tc's error path before sending
# anything, and without the plugin refuses options as tc always has. In a
# network namespace of its own (unshare -n); without tc or unshare: exit 4.
# selftests/tc.sh does the rest against the module, in the VM.
#
# usage: test_tc_plugin.sh USERLAND-DIR
dir=$(cd "${1:?usage: $0 USERLAND-DIR}" && pwd)
echo "TAP version 13"
if ! command -v tc >/dev/null || ! unshare -n true 2>/dev/null; then
	echo "1..0 # SKIP needs tc and unshare -n (root)"
	exit 4
fi
echo "1..9"
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
# tcx LIBDIR ARGS...: tc's stderr and exit status in a fresh namespace
tcx() {
	local lib=$1

	shift
	out=$(TC_LIB_DIR=$lib unshare -n tc "$@" 2>&1)
	rc=$?
}
sent="Specified qdisc kind is unknown"

tcx "$dir/tc" qdisc add dev lo root flowctl mode pfc pfc-prios 3,4 trust dscp \
	speed 25G xoff 64k xon 32k prio 3 xoff 20k xon 10k quanta 1000 prio-tc 8021q
[ $rc -ne 0 ] && [[ $out == *"$sent"* ]]
ok $? "every option parses and the request is sent: $out"
# The units tc -d qdisc show prints go back in (selftests/tc.sh round-trips
# them through the module).
tcx "$dir/tc" qdisc add dev lo root flowctl speed 25Gbit rate 100Mbit limit 1Mb \
	xoff 300Kb xon 1500b watchdog 200ms wd-restoration 1s tx-storm 500ms
[ $rc -ne 0 ] && [[ $out == *"$sent"* ]]
ok $? "the printed units parse (Gbit, Mbit, Mb, Kb, b, ms, s): $out"
tcx "$dir/tc" qdisc add dev lo root flowctl mo pfc pfc- 3 tr dscp
[[ $out == *"$sent"* ]]
ok $? "prefixes of the keywords: $out"
tcx "$dir/tc" qdisc add dev lo root flowctl mode bogus
[ $rc -ne 0 ] && [[ $out == *'invalid mode "bogus": expected pause, pfc or off'* ]] &&
	[[ $out != *"$sent"* ]]
ok $? "a bad value: flowctl's words, nothing sent"
tcx "$dir/tc" qdisc add dev lo root flowctl xoff
[ $rc -ne 0 ] && [[ $out == *"xoff needs a value"* ]] && [[ $out != *"$sent"* ]]
ok $? "a keyword without its value says which value"
tcx "$dir/tc" qdisc add dev lo root flowctl mdoe pfc
[[ $out == *'Did you mean mode?'* ]] && [[ $out == *'tc qdisc add dev DEV root flowctl help'* ]]
ok $? "a typo: did you mean, and tc's help command"
tcx "$dir/tc" qdisc add dev lo root flowctl mode pfc dev eth0
[ $rc -ne 0 ] && [[ $out == *'"dev" is tc'"'"'s, not an option'* ]] && [[ $out != *"$sent"* ]]
ok $? "dev among flowctl's options: refused (tc's dev is the port), nothing sent"
tcx "$dir/tc" qdisc add dev lo root flowctl help
[[ $out == *"Usage: ... flowctl [ mode { pause | pfc | off } ]"* ]] && [[ $out != *"$sent"* ]]
ok $? "help: the grammar"
tcx /nonexistent qdisc add dev lo root flowctl mode pfc
[ $rc -ne 0 ] && [[ $out == *'Unknown qdisc "flowctl", hence option "mode" is unparsable'* ]]
ok $? "without the plugin tc refuses options itself"
exit $fail
