#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A PFC deadlock, formed, kept and broken (Documentation/watchdog.md): three
# routers in a ring, each with a host; each host sends to the host two hops
# clockwise, on priority 3. Each inter-switch link carries two flows and
# has half the rate they offer, so every link's queue fills and pauses the
# one before it: a cyclic buffer dependency. Once all three are paused, each
# holds bytes charged to the link before it above XON, and nothing moves,
# with nothing lost, after the hosts stop. The watchdog on the inter-switch
# ports finds the stormed queue, drops it, and the cycle opens. The ring is
# scripts/demo/fabric.sh's fab_ring (make demo -e deadlock runs it too):
# link i is Si cw -> S(i+1) ccw, flow i Hi -> H(i+2) over links i and i+1.

ALL_TESTS="deadlock_forms cycle_reported watchdog_breaks_deadlock traffic_flows_again"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc
# Whether the cycle closes depends on when the queues fill under TCG: the
# cases that need it formed run again on failure (on the debug kernel the
# ring is too slow to fill, and they are not judged there).
RETRY_TIMING=1
TIMING_CASES="deadlock_forms cycle_reported watchdog_breaks_deadlock"

SENDERS=()
# shellcheck source=scripts/demo/fabric.sh
source "$TOP/scripts/demo/fabric.sh"
next() { fab_next "$1"; }

setup_prepare()
{
	local i h

	setup_ns S1 S2 S3 H1 H2 H3
	fab_ring "$S1" "$S2" "$S3" "$H1" "$H2" "$H3" || return 1
	for i in 1 2 3; do
		eval "h=\$H$i"
		ip netns exec "$h" "$FCTEST" recv 7000 100 >/dev/null &
	done
}

# flows SECONDS: each host sends ~8.5 Mb/s at priority 3 to the host two
# hops clockwise for SECONDS, then stops.
flows()
{
	local i p h

	SENDERS=()
	for i in 1 2 3; do
		eval "h=\$H$i"
		ip netns exec "$h" "$FCTEST" send "198.18.$(next "$(next "$i")").1" 7000 \
			1000 100000 tos 0x60 size 1000 >/dev/null 2>&1 &
		SENDERS+=($!)
	done
	sleep "$1"
	for p in "${SENDERS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${SENDERS[@]}"; do
		wait "$p" 2>/dev/null
	done
	SENDERS=()
}

# ring JQ: the value of JQ for priority 3 of each cw port, space-separated.
ring()
{
	local i s out=

	for i in 1 2 3; do
		eval "s=\$S$i"
		out+="$(fc_get "$s" cw ".prio[3]$1") "
	done
	echo "${out% }"
}

# The baseline: the same ring, no watchdog.
deadlock_forms()
{
	local sent0 sent1 backlog drops b

	flows 4
	sleep 0.5
	sent0=$(ring .tx_packets)
	sleep 3
	sent1=$(ring .tx_packets)
	backlog=$(ring .backlog_bytes)
	drops=$(ring .drops)
	log_info "cw queues after the hosts stopped: backlog $backlog bytes, paused $(ring .paused), sent $sent0 -> $sent1"
	check_eq "$(ring .paused)" "true true true" "the three inter-switch queues paused"
	check_eq "$sent1" "$sent0" "packets the ring sent in the 3 s after the hosts stopped"
	for b in $backlog; do
		[ "$b" -gt 0 ]
		check_err $? "a cw queue is empty (backlog $backlog): no cycle"
	done
	check_eq "$drops" "0 0 0" "drops in the cw queues (PFC is lossless)"
	check_eq "$(ring .wd_storms)" "0 0 0" "storms with the watchdog off"
	log_test "deadlock: three paused queues in a ring stay full and silent (no watchdog)"
}

# waitfor_args: every namespace of the lab, for flowctl waitfor.
waitfor_args()
{
	local v

	for v in S1 S2 S3 H1 H2 H3; do
		echo "netns ${!v}"
	done
}

# Continues the baseline's ring: flowctl waitfor names the cycle.
cycle_reported()
{
	local out j rc i n s t

	# It needs the deadlock (formed by the baseline, or here).
	if [ "$(ring .paused)" != "true true true" ]; then
		flows 4
		sleep 0.5
	fi
	check_eq "$(ring .paused)" "true true true" "the ring deadlocked before waitfor"
	# shellcheck disable=SC2046 # one word each
	out=$(flowctl waitfor $(waitfor_args))
	rc=$?
	log_info "$out"
	check_eq "$rc" 3 "flowctl waitfor's exit status with a cycle"
	for i in 1 2 3; do
		n=$(next "$i")
		eval "s=\$S$i t=\$S$n"
		grep -q "^  $s/cw ([0-9]* bytes queued) is paused by $t/ccw, whose bytes wait in $t/cw\$" <<<"$out"
		check_err $? "the cycle does not name S$i cw waiting for S$n"
	done
	# shellcheck disable=SC2046
	j=$(flowctl -j waitfor $(waitfor_args))
	check_eq "$(jq -r '[.found, .namespaces, (.cycles[0].prio), (.cycles[0].ports | length)] | join(" ")' <<<"$j")" \
		"1 6 3 3" "waitfor -j: one cycle over 6 namespaces, priority 3, three ports"

	# The same lab as separate machines: each namespace's flowctl -j show
	# in a file named for its switch or host, read back by waitfor file.
	local dir v files=()
	dir=$(mktemp -d)
	for v in S1 S2 S3 H1 H2 H3; do
		fc "${!v}" -j show >"$dir/$v.json" || check_err 1 "flowctl -j show in $v"
		files+=(file "$dir/$v.json")
	done
	check_eq "$(jq -r '[.[] | select(.ifname == "cw" or .ifname == "ccw") | (.address | test("^([0-9a-f]{2}:){5}[0-9a-f]{2}$"))] | all' "$dir/S1.json")" \
		true "show -j: each port's own address"
	out=$(flowctl waitfor "${files[@]}")
	rc=$?
	log_info "$out"
	check_eq "$rc" 3 "flowctl waitfor file's exit status with a cycle"
	for i in 1 2 3; do
		n=$(next "$i")
		grep -q "^  S$i/cw ([0-9]* bytes queued) is paused by S$n/ccw, whose bytes wait in S$n/cw\$" <<<"$out"
		check_err $? "from files: the cycle does not name S$i cw waiting for S$n"
	done
	j=$(flowctl -j waitfor "${files[@]}")
	check_eq "$(jq -r '[.found, .namespaces, .hosts, (.cycles[0].ports | map(.host) | sort | join(","))] | join(" ")' <<<"$j")" \
		"1 0 6 S1,S2,S3" "waitfor file -j: one cycle over 6 hosts, through S1, S2, S3"
	rm -rf "$dir"
	log_test "flowctl waitfor reports the wait-for cycle: each cw port, who pauses it, where its bytes wait (namespaces, and each one's show -j as a host)"
}

# Continues the baseline's ring: the deadlock is still there.
watchdog_breaks_deadlock()
{
	local i s t0 storms drops

	if [ "$(ring .paused)" != "true true true" ]; then
		flows 4
		sleep 0.5
	fi
	check_eq "$(ring .paused)" "true true true" "the ring deadlocked before the watchdog"
	t0=$(date +%s%N)
	for i in 1 2 3; do
		eval "s=\$S$i"
		fc "$s" watchdog dev cw detection 200 action drop || check_err 1 "flowctl watchdog on S$i cw"
	done
	for ((i = 0; i < 100; i++)); do
		[ "$(ring .backlog_bytes)" = "0 0 0" ] && break
		sleep 0.05
	done
	log_info "the ring drained $((($(date +%s%N) - t0) / 1000000)) ms after the watchdog was turned on (detection 200 ms)"
	check_eq "$(ring .backlog_bytes)" "0 0 0" "cw backlog 5 s after the watchdog came on"
	storms=$(ring .wd_storms)
	drops=$(ring .wd_tx_drop)
	log_info "storms per cw port: $storms; packets the watchdog dropped: $drops"
	[ $((${storms// /+})) -ge 1 ]
	check_err $? "no storm counted on any cw port ($storms)"
	[ $((${drops// /+})) -ge 1 ]
	check_err $? "the watchdog dropped nothing ($drops)"
	for i in 1 2 3; do
		eval "s=\$S$i"
		fc "$s" watchdog dev cw | grep -q '^cw: watchdog 200 ms, restoration 400 ms (auto), action drop'
		check_err $? "flowctl watchdog on S$i does not show cw's configuration"
	done
	# shellcheck disable=SC2046
	flowctl waitfor $(waitfor_args) >/dev/null
	check_eq $? 0 "flowctl waitfor's exit status once the ring drained"
	log_test "the watchdog breaks the deadlock: the stormed queues dropped, the ring drains"
}

# After restoration, the ring carries traffic again: a light load (below
# every link's rate) goes through, every packet of it.
traffic_flows_again()
{
	local i t s s0 s1 sent a0 a1 b0 b1

	for i in 1 2 3; do
		eval "s=\$S$i"
		for ((t = 0; t < 100; t++)); do
			[ "$(fc_get "$s" cw '.prio[3].wd_state')" = operational ] && break
			sleep 0.05
		done
	done
	check_eq "$(ring .wd_state)" "operational operational operational" "states after restoration"
	s0=$(ring .tx_packets)
	# 200 packets from H1 to H3, 2 Mb/s: over S1 cw and S2 cw.
	ip netns exec "$H1" "$FCTEST" send 198.18.3.1 7000 4000 200 tos 0x60 size 1000 >/dev/null
	sleep 1
	s1=$(ring .tx_packets)
	read -r a0 b0 _ <<<"$s0"
	read -r a1 b1 _ <<<"$s1"
	sent="$((a1 - a0)) $((b1 - b0))"
	check_eq "$sent" "200 200" "priority 3 packets S1 cw and S2 cw sent of H1's 200 to H3"
	log_test "after the watchdog restored the ring, traffic flows again"
}

cleanup_case()
{
	:
}

setup_prepare || setup_failed
run_tests
