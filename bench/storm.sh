#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Group 7: what a pause-event storm costs. A partner toggles PFC on all
# eight priorities as fast as it can send (XOFF all, XON all, ...: every
# frame moves eight gates), once with nobody listening on the events group
# and once with `flowctl -j monitor` listening, side by side.
#
#   +------------- ns A --------------+      +----------- ns B -------------+
#   | a0 flowctl root, mode pfc,      |======| fctest raw: PFC XOFF/XON     |
#   |    speed 100                    | veth |  back to back                |
#   | flowctl -j monitor (2nd run)    |      |                              |
#   +---------------------------------+      +------------------------------+
#
# Figures per run: frames absorbed per second, the VM's CPU busy share
# (/proc/stat, both CPUs, all of it: sender and listener included) and its
# softirq share, the peak rise of slab memory (/proc/meminfo) and of the
# listener's netlink receive queue (/proc/net/netlink), messages and events
# the listener got, and events the port counted as suppressed.
#
# Usage: bench/storm.sh OUT.json
set -u
BENCH_GROUP=storm
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
OUT=${1:?usage: storm.sh OUT.json}
need_cmd jq ip tc flowctl
need_file "$FCTEST" selftests

PAIRS=$([ "$BENCH_QUICK" = 1 ] && echo 5000 || echo 20000)

setup_ns A B
veth_pair "$A" a0 "$B" b0 || fail "veth setup"
MAC_B=$(mac_of "$B" b0)
ip netns exec "$A" tc qdisc add dev a0 root flowctl || fail "cannot attach flowctl"
fc "$A" set dev a0 mode pfc pfc-prios all speed 100 || fail "flowctl set"
XOFF=$(pfc_hex "$MAC_B" 0xff 65535 65535 65535 65535 65535 65535 65535 65535)
XON=$(pfc_hex "$MAC_B" 0xff 0 0 0 0 0 0 0 0)

# cpu_jiffies: "busy softirq total" of the cpu line of /proc/stat.
cpu_jiffies()
{
	local _c u n s idle io irq sirq steal rest

	read -r _c u n s idle io irq sirq steal rest </proc/stat
	echo "$((u + n + s + irq + sirq + steal)) $sirq $((u + n + s + idle + io + irq + sirq + steal))"
}

slab_kb()
{
	local k v _u

	while read -r k v _u; do
		[ "$k" = Slab: ] && { echo "$v"; return; }
	done </proc/meminfo
}

# sampler OUT: the largest slab and netlink receive queue seen, every 20 ms.
sampler()
{
	local smax=0 rmax=0 s r line

	while [ ! -e "$BENCH_TMP/stop" ]; do
		s=$(slab_kb)
		[ "$s" -gt "$smax" ] && smax=$s
		# /proc/net/netlink: sk Eth Pid Groups Rmem ...; generic netlink
		# is protocol 16, and only the listener's queue grows.
		r=0
		while read -r -a line; do
			[ "${line[1]}" = 16 ] && [ "${line[4]}" -gt "$r" ] && r=${line[4]}
		done < <(ip netns exec "$A" cat /proc/net/netlink)
		[ "$r" -gt "$rmax" ] && rmax=$r
		nap 0.02
	done
	echo "$smax $rmax" >"$1"
}

# run LISTENER(0|1): one storm; prints its JSON object.
run()
{
	local listen=$1 mpid= t0 t1 c0 c1 slab0 frames msgs=0 ev=0 sup peak
	local b0 s0 n0 b1 s1 n1

	fc "$A" stats reset dev a0
	if [ "$listen" = 1 ]; then
		start_monitor "$A" a0 100 "$BENCH_TMP/events"
		mpid=$MONITOR_PID
	fi
	rm -f "$BENCH_TMP/stop"
	slab0=$(slab_kb)
	sampler "$BENCH_TMP/peak" &
	local spid=$!
	read -r b0 s0 n0 < <(cpu_jiffies)
	t0=$(now_ns)
	ip netns exec "$B" "$FCTEST" raw b0 "$XOFF,$XON" count $((2 * PAIRS)) ||
		fail "could not send the PFC frames"
	nap 0.5
	t1=$(now_ns)
	read -r b1 s1 n1 < <(cpu_jiffies)
	touch "$BENCH_TMP/stop"
	wait "$spid"
	read -r c0 peak <"$BENCH_TMP/peak"
	frames=$(fc_get "$A" a0 .stats.rx_pfc)
	sup=$(fc_get "$A" a0 .stats.events_suppressed)
	if [ -n "$mpid" ]; then
		kill "$mpid" 2>/dev/null
		wait "$mpid" 2>/dev/null
		msgs=$(jq -s '[.[] | select(.type == "pause-start" or .type == "pause-end") | .timestamp_ns] | unique | length' "$BENCH_TMP/events")
		ev=$(jq -s '[.[] | select(.type == "pause-start" or .type == "pause-end")] | length' "$BENCH_TMP/events")
		[ -s "$BENCH_TMP/events.err" ] && progress "monitor: $(head -1 "$BENCH_TMP/events.err")"
	fi
	c1=$((c0 - slab0))
	jq -n --argjson listener "$listen" --argjson sent $((2 * PAIRS)) \
		--argjson frames "$frames" --argjson ns $((t1 - t0)) \
		--argjson busy $((b1 - b0)) --argjson sirq $((s1 - s0)) --argjson all $((n1 - n0)) \
		--argjson slab "$c1" --argjson rmem "$peak" --argjson msgs "$msgs" \
		--argjson ev "$ev" --argjson sup "$sup" '
		{ listener: ($listener == 1), frames_sent: $sent, frames_absorbed: $frames,
		  seconds: ($ns / 1e9), frames_per_s: ($frames / ($ns / 1e9) | round),
		  cpu_busy_pct: (if $all > 0 then ($busy * 1000 / $all | round) / 10 else null end),
		  softirq_pct: (if $all > 0 then ($sirq * 1000 / $all | round) / 10 else null end),
		  slab_peak_rise_kb: $slab, listener_rmem_peak_bytes: $rmem,
		  messages: $msgs, events_reported: $ev, events_suppressed: $sup,
		  events_total: (if $listener == 1 then $ev + $sup else null end) }'
}

progress "PFC storm: $((2 * PAIRS)) frames toggling 8 priorities, no listener"
r0=$(run 0) || exit 1
progress "PFC storm: the same with flowctl -j monitor listening"
r1=$(run 1) || exit 1
jq -n --argjson a "$r0" --argjson b "$r1" '{ storm: { runs: [$a, $b] } }' >"$OUT" ||
	fail "could not build the JSON"
progress "done: $(jq -c '.storm.runs[] | {listener, frames_per_s, cpu_busy_pct, messages, events_suppressed}' "$OUT" | tr '\n' ' ')"
