#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# IEEE 802.1Qaz ETS on a flowctl port: traffic classes named in "ets" share
# the link (what the strict classes leave) in proportion to their shares,
# by deficit round robin; strict classes go first; an idle class's share
# goes to the others; a class the partner paused with PFC earns nothing
# while paused, so it gets no catch-up burst when released. The baseline
# (ets off) is strict priority: the highest class takes the link.
#
#   +------------- ns A -------------+        +---- ns B ----+
#   | fctest send prio 0, 3, 5       |        |              |
#   | a0: flowctl, rate 10mbit,      |========| b0           |
#   |     prio-tc numeric, ets ...   |  veth  | sends PFC    |
#   +--------------------------------+        +--------------+
#   198.18.0.1/24                               198.18.0.2/24

ALL_TESTS="strict_baseline ets_shares strict_first work_conserving paused_no_catchup set_refused"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc
# Shares are rates measured over a window of a shaped port under TCG.
RETRY_TIMING=1
TIMING_CASES="strict_baseline ets_shares strict_first work_conserving paused_no_catchup"

SENDERS=()
WINDOW=${FLOWCTL_ETS_WINDOW:-2}

setup_prepare()
{
	setup_ns A B
	no_ipv6 "$A" || return 1
	veth_pair "$A" a0 "$B" b0
	ip -n "$A" addr add 198.18.0.1/24 dev a0
	ip -n "$B" addr add 198.18.0.2/24 dev b0
	ip -n "$A" neigh add 198.18.0.2 lladdr "$(mac_of "$B" b0)" dev a0 nud permanent
	ip netns exec "$A" tc qdisc add dev a0 root flowctl || return 1
	fc "$A" set dev a0 rate 10mbit prio-tc numeric mode pfc pfc-prios 3 rx on || return 1
}

# start PRIO...: one saturating UDP sender per priority
start()
{
	local p

	for p in "$@"; do
		ip netns exec "$A" "$FCTEST" send 198.18.0.2 9000 0 100000000 prio "$p" \
			size 1000 >/dev/null 2>&1 &
		SENDERS+=($!)
	done
}

stop()
{
	local pid

	for pid in "${SENDERS[@]}"; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	SENDERS=()
}

# shares: per-priority share (percent, rounded) of the bytes a0 sent in the
# next WINDOW seconds, as "p0 p1 ... p7"
shares()
{
	local before after

	before=$(fc "$A" -j -s show dev a0 | jq -c '[.[0].prio[].tx_bytes]')
	sleep "$WINDOW"
	after=$(fc "$A" -j -s show dev a0 | jq -c '[.[0].prio[].tx_bytes]')
	jq -rn --argjson a "$after" --argjson b "$before" \
		'[range(8) | $a[.] - $b[.]] as $d | ($d | add) as $t |
		 if $t == 0 then "0 0 0 0 0 0 0 0" else
		 [$d[] | . * 100 / $t | round | tostring] | join(" ") end'
}

# near GOT WANT WHAT: GOT within 5 percentage points of WANT
near()
{
	[ "$1" -ge $(($2 - 5)) ] && [ "$1" -le $(($2 + 5)) ]
	check_err $? "$3: $1% (want $2% +-5)"
}

strict_baseline()
{
	local s

	fc "$A" set dev a0 ets off
	start 0 3 5
	sleep 1
	read -r -a s <<<"$(shares)"
	stop
	log_info "ets off: shares of priorities 0/3/5: ${s[0]}/${s[3]}/${s[5]}"
	[ "${s[5]}" -ge 95 ]
	check_err $? "strict priority: class 5 took ${s[5]}% (want >= 95%)"
	log_test "baseline: without ETS the highest class takes the link (strict priority)"
}

ets_shares()
{
	local s

	fc "$A" set dev a0 ets 0:30,3:50,5:20
	check_err $? "set ets failed"
	check_eq "$(fc_get "$A" a0 '.tc_bw | map(tostring) | join(",")')" "30,0,0,50,0,20,0,0" "tc_bw"
	start 0 3 5
	sleep 1
	read -r -a s <<<"$(shares)"
	stop
	log_info "ets 0:30,3:50,5:20: shares of priorities 0/3/5: ${s[0]}/${s[3]}/${s[5]}"
	near "${s[0]}" 30 "class 0"
	near "${s[3]}" 50 "class 3"
	near "${s[5]}" 20 "class 5"
	log_test "ETS: three saturated classes get 30/50/20% of the link, +-5 points"
}

strict_first()
{
	local s

	fc "$A" set dev a0 ets 0:50,3:50
	start 0 3 5
	sleep 1
	read -r -a s <<<"$(shares)"
	stop
	log_info "ets 0:50,3:50 (5 strict): shares 0/3/5: ${s[0]}/${s[3]}/${s[5]}"
	[ "${s[5]}" -ge 95 ]
	check_err $? "the strict class 5 took ${s[5]}% (want >= 95%)"
	log_test "strict classes are served before the ETS classes"
}

work_conserving()
{
	local s

	fc "$A" set dev a0 ets 0:30,3:50,5:20
	start 0 5
	sleep 1
	read -r -a s <<<"$(shares)"
	stop
	log_info "ets 0:30,3:50,5:20, class 3 idle: shares 0/5: ${s[0]}/${s[5]}"
	near "${s[0]}" 60 "class 0 with 3 idle"
	near "${s[5]}" 40 "class 5 with 3 idle"
	log_test "an idle class's share goes to the others in proportion (work conserving)"
}

paused_no_catchup()
{
	local s mac_b

	fc "$A" set dev a0 ets 0:30,3:50,5:20
	mac_b=$(mac_of "$B" b0)
	start 0 3 5
	sleep 0.5
	# Priority 3 paused for 1 s (65535 quanta at 10 Mb/s = 3.4 s, refreshed
	# by nothing; released by an XON), then the share right after.
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$mac_b" 0x08 0 0 0 65535 0 0 0 0)" count 1
	sleep 1
	check_eq "$(fc_get "$A" a0 .prio[3].paused)" true "priority 3 paused by b0"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$mac_b" 0x08 0 0 0 0 0 0 0 0)" count 1
	WINDOW=0.5
	read -r -a s <<<"$(shares)"
	WINDOW=${FLOWCTL_ETS_WINDOW:-2}
	stop
	log_info "the 0.5 s after the XON: shares 0/3/5: ${s[0]}/${s[3]}/${s[5]}"
	[ "${s[3]}" -le 55 ]
	check_err $? "class 3 took ${s[3]}% right after its release (a catch-up burst; want <= 55%)"
	near "${s[3]}" 50 "class 3 after its release"
	log_test "a class paused by PFC earns nothing while paused: no catch-up burst when released"
}

set_refused()
{
	local msg before

	before=$(fc_get "$A" a0 '.tc_bw')
	msg=$(fc "$A" set dev a0 ets 0:30,3:60 2>&1)
	check_fail $? "ets summing to 90 accepted by the CLI"
	log_info "CLI: $msg"
	msg=$(ip netns exec "$A" tc qdisc change dev a0 root flowctl ets 0:30,3:60 2>&1)
	check_fail $? "ets summing to 90 accepted through tc"
	echo "$msg" | grep -q 'ets "0:30,3:60" is out of range'
	check_err $? "tc (with q_flowctl.so) refused it without flowctl's words: $msg"
	check_eq "$(fc_get "$A" a0 '.tc_bw')" "$before" "tc_bw after refused sets"
	log_test "ETS shares that do not sum to 100 are refused (the kernel's own check: nl_policy.sh)"
}

cleanup()
{
	stop
	cleanup_ns
}

setup_prepare || setup_failed
run_tests
