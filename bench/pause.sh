#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Groups 3 and 4: how exactly a flowctl port pauses, and how fast the gate
# closes. One stream of PAUSE frames serves both.
#
#   +------------- ns A --------------+      +----------- ns B -------------+
#   | fctest send: UDP, 60 B frames,  |      | fcbench stamps: the receive  |
#   |  one every 20 us asked          |      |  timestamp of every datagram |
#   | a0 198.18.0.1  flowctl root     |======|                              |
#   |    speed 1000, 100, 10 in turn  | veth | fcbench pause: PAUSE frames, |
#   | flowctl -j monitor: pause-start |      |  each one's departure time   |
#   +---------------------------------+      +------------------------------+
#
# The stream is as dense as the sender manages (under TCG it cannot keep
# 20 us: it sends back to back and blocks on its socket while a0 is
# paused), so the gap the partner sees is the pause, plus the time until the
# gate opens and the qdisc runs again, plus at most one datagram spacing.
# Pause accuracy: the gap containing each pause versus quanta * 512 bit
# times. Reaction: the time from the frame's arrival (the kernel timestamp
# of it leaving b0, which on a veth is its arrival in a0's receive backlog)
# to the gate closing (the CLOCK_MONOTONIC timestamp of the pause-start
# event, taken just after the gate is written); and the datagrams the
# partner received after the gate closed and before the pause could have
# ended.
#
# With BENCH_PAUSE_NIC=MODEL (bench/nic.sh sets it) a0 and b0 are the two
# ends of the NIC pair of that model that scripts/vm-run --nic gives the VM
# (\$FLOWCTL_NICS) instead of a veth pair: the driver's TX ring and qemu's
# emulated wire sit between the gate and the partner. A datagram dequeued
# just before the gate closed then reaches b0 after it: "leaked" counts
# what the ring and the wire held, and the arrival-to-gate time includes
# the wire (the frame's timestamp is its departure from b0's driver).
# BENCH_PAUSE_RATE gives a0 a line rate (flowctl's rate), as a wire has.
#
# Usage: bench/pause.sh OUT.json
set -u
BENCH_GROUP=pause
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
OUT=${1:?usage: pause.sh OUT.json}
need_cmd jq ip tc flowctl
need_file "$FCBENCH" bench
need_file "$FCTEST" selftests

# Pause times from 0.1 ms to 3.4 s, each at the speeds that give it: at
# 1000 Mb/s a quantum is 0.512 us, at 100 Mb/s 5.12 us, at 10 Mb/s 51.2 us.
# Each speed is its own run of the stream; SPEEDS lists "SPEED:QUANTA,...".
SPEEDS="1000:1953,19531 100:20,195,1953,19531 10:19531,65535"
NIC=${BENCH_PAUSE_NIC:-}
SPEEDS=${BENCH_PAUSE_SPEEDS:-$SPEEDS}
REPS=$([ "$BENCH_QUICK" = 1 ] && echo 3 || echo 7)
SETTLE_US=40000			# flood resumes between two pauses
INTERVAL_US=20			# the stream: paced, not a flood (see Documentation/bench.md)
# With two CPUs or more, the stream's sender gets CPU 1 to itself and the
# rest of the lab (the PAUSE sender, the receiver, the monitor) runs on
# CPU 0: sharing a CPU, the PAUSE sender and the monitor preempted the
# sender for milliseconds around a pause (seen with ftrace on 6.1), and its
# silence counted as the pause's error.
if [ "$(nproc)" -ge 2 ]; then
	PIN_SENDER=(taskset -c 1)
	PIN_LAB=(taskset -c 0)
else
	PIN_SENDER=()
	PIN_LAB=()
fi

# nic_pair MODEL: the NIC pair of MODEL, its ends a0 in A and b0 in B.
nic_pair()
{
	nic_ends "$1"
	ip link set dev "$NIC_IF0" netns "$A" && ip -n "$A" link set dev "$NIC_IF0" name a0 &&
		ip link set dev "$NIC_IF1" netns "$B" && ip -n "$B" link set dev "$NIC_IF1" name b0 &&
		ip -n "$A" link set a0 up && ip -n "$B" link set b0 up
}

setup_ns A B
if [ -n "$NIC" ]; then
	nic_pair "$NIC" || fail "cannot move the $NIC pair into the namespaces"
else
	veth_pair "$A" a0 "$B" b0 || fail "veth setup"
fi
ip -n "$A" addr add 198.18.0.1/24 dev a0
ip -n "$B" addr add 198.18.0.2/24 dev b0
MAC_A=$(mac_of "$A" a0)
MAC_B=$(mac_of "$B" b0)
ip -n "$A" neigh add 198.18.0.2 lladdr "$MAC_B" dev a0 nud permanent
ip -n "$B" neigh add 198.18.0.1 lladdr "$MAC_A" dev b0 nud permanent
ip netns exec "$A" tc qdisc add dev a0 root flowctl || fail "cannot attach flowctl"

# measure SPEED QUANTA...: one run of the stream at SPEED with every pause
# time REPS times; appends "K REQ_NS TO_GATE GAP LEAKED INFLIGHT LONGEST QUANTA
# SPEED" rows to $BENCH_TMP/all, and the run's counts to $BENCH_TMP/counts.
measure()
{
	local speed=$1 r q delay=300000 args=() spid mpid fpid idle
	local nframes ngates spacing unmatched packets rx

	shift
	fc "$A" set dev a0 speed "$speed" || fail "flowctl set speed $speed"
	if [ -n "${BENCH_PAUSE_RATE:-}" ]; then
		fc "$A" set dev a0 rate "$BENCH_PAUSE_RATE" || fail "flowctl set rate $BENCH_PAUSE_RATE"
	fi
	fc "$A" stats reset dev a0
	# The frame sequence: every pause time once per round, each frame
	# sent once the previous pause ended and the flood ran again.
	: >"$BENCH_TMP/req"
	for ((r = 0; r < REPS; r++)); do
		for q in "$@"; do
			args+=("$delay" "$(pause_hex "$MAC_B" "$q")")
			echo "$q $((q * 512 * 1000 / speed))" >>"$BENCH_TMP/req"
			delay=$((q * 512 / speed + SETTLE_US))
		done
	done
	progress "a stream through a0 at $speed Mb/s, $((REPS * $#)) PAUSE frames of $* quanta"
	rm -f "$BENCH_TMP/stamps" "$BENCH_TMP/stamps.log" "$BENCH_TMP/events"
	# The receiver stops after a silence longer than the longest pause.
	idle=1
	for q in "$@"; do
		[ $((q * 512 / speed / 1000000 + 2)) -gt $idle ] && idle=$((q * 512 / speed / 1000000 + 2))
	done
	ip netns exec "$B" "${PIN_LAB[@]}" "$FCBENCH" stamps 7000 "$idle" "$BENCH_TMP/stamps" >"$BENCH_TMP/stamps.log" &
	spid=$!
	while ! grep -q ready "$BENCH_TMP/stamps.log" 2>/dev/null; do
		kill -0 $spid 2>/dev/null || fail "fcbench stamps did not start"
		sleep 0.05
	done
	start_monitor "$A" a0 "$speed" "$BENCH_TMP/events"
	mpid=$MONITOR_PID
	[ ${#PIN_LAB[@]} -eq 0 ] || taskset -p -c 0 "$mpid" >/dev/null ||
		fail "cannot move the monitor to CPU 0"
	ip netns exec "$A" "${PIN_SENDER[@]}" "$FCTEST" send 198.18.0.2 7000 "$INTERVAL_US" 1000000000 size 18 >/dev/null &
	fpid=$!
	sleep 0.5
	ip netns exec "$B" "${PIN_LAB[@]}" "$FCBENCH" pause b0 "$BENCH_TMP/frames" "${args[@]}" ||
		fail "could not send the PAUSE frames"
	sleep 0.2
	kill $fpid 2>/dev/null
	wait $fpid 2>/dev/null
	wait $spid || fail "fcbench stamps failed"
	sleep 0.2
	kill $mpid 2>/dev/null
	wait $mpid 2>/dev/null

	jq -r 'select(.type == "pause-start") | .timestamp_ns' "$BENCH_TMP/events" >"$BENCH_TMP/gates"
	nframes=$(wc -l <"$BENCH_TMP/frames")
	ngates=$(wc -l <"$BENCH_TMP/gates")
	[ "$ngates" -gt 0 ] || fail "no pause-start event seen for $nframes PAUSE frames"
	[ "$ngates" -eq "$nframes" ] ||
		progress "$nframes PAUSE frames sent, $ngates pause-start events seen"
	paste -d ' ' "$BENCH_TMP/frames" "$BENCH_TMP/req" | awk '{ print $1, $3, $5 }' >"$BENCH_TMP/join"
	"$FCBENCH" analyze "$BENCH_TMP/stamps" "$BENCH_TMP/join" "$BENCH_TMP/gates" \
		>"$BENCH_TMP/rows" || fail "could not join datagrams, frames and gate events"
	spacing=$(awk '$1 == "spacing_ns" { print $2 }' "$BENCH_TMP/rows")
	unmatched=$(grep -c '^unmatched' "$BENCH_TMP/rows")
	[ "$unmatched" -lt "$nframes" ] || fail "no PAUSE frame could be matched with its gate event"
	packets=$(awk '$1 == "packets" { print $2 }' "$BENCH_TMP/stamps.log")
	rx=$(fc_get "$A" a0 .stats.rx_pause)
	echo "$speed $spacing $packets $rx $unmatched" >>"$BENCH_TMP/counts"
	# The quanta of each row, by frame number, and the speed.
	awk -v speed="$speed" 'NR == FNR { q[NR - 1] = $1; next }
		$1 ~ /^[0-9]+$/ { print $0, q[$1], speed }' \
		"$BENCH_TMP/req" "$BENCH_TMP/rows" >>"$BENCH_TMP/all"
}

: >"$BENCH_TMP/all"
: >"$BENCH_TMP/counts"
for sq in $SPEEDS; do
	# shellcheck disable=SC2046 # the quanta are words
	measure "${sq%%:*}" $(echo "${sq#*:}" | tr , ' ')
done

# The same reaction for an XON: REPS pairs of a PAUSE of 65535 quanta at
# 100 Mb/s (335 ms) and, 20 ms after it left b0, an XON (0 quanta); the
# figure is from the XON's departure from b0 (its arrival at a0) to the
# pause-end event of the gate it opened.
xon_reaction()
{
	local r args=() mpid

	fc "$A" set dev a0 speed 100 || fail "flowctl set speed 100"
	for ((r = 0; r < REPS; r++)); do
		args+=("$([ "$r" = 0 ] && echo 300000 || echo 40000)" "$(pause_hex "$MAC_B" 65535)")
		args+=(20000 "$(pause_hex "$MAC_B" 0)")
	done
	progress "XON reaction: $REPS PAUSE frames, each ended by an XON 20 ms later"
	rm -f "$BENCH_TMP/events"
	start_monitor "$A" a0 100 "$BENCH_TMP/events"
	mpid=$MONITOR_PID
	ip netns exec "$B" "$FCBENCH" pause b0 "$BENCH_TMP/xframes" "${args[@]}" ||
		fail "could not send the PAUSE and XON frames"
	sleep 0.2
	kill $mpid 2>/dev/null
	wait $mpid 2>/dev/null
	# Each XON (odd frame) with the first pause-end event at or after it.
	jq -s -R --slurpfile ev <(jq -c 'select(.type == "pause-end") | .timestamp_ns' "$BENCH_TMP/events") '
		def med: sort | .[(length - 1) / 2 | floor];
		[split("\n")[] | select(length > 0) | split(" ") | map(tonumber) |
		 select(.[0] % 2 == 1) | .[2]] as $xon |
		[$xon[] | . as $t | ([$ev[] | select(. >= $t)] | min) as $e |
		 select($e != null) | $e - $t] as $d |
		{ xon_frames: ($xon | length), matched: ($d | length),
		  median: (if ($d | length) > 0 then ($d | med) else null end),
		  min: ($d | min), worst: ($d | max) }' "$BENCH_TMP/xframes" >"$BENCH_TMP/xon.json" ||
		fail "could not match the XON frames with pause-end events"
}
xon_reaction

# The peer of the pause error: how late the VM's own timer wakes a task for
# the same times (those up to 100 ms, from the rows measured; SLEEPS sleeps
# each), right after the streams in the same VM. A gate that opens as late
# as this peer wakes is as exact as the VM's timers allow.
timer_peer()
{
	local sleeps=21 ns

	mapfile -t ns < <(awk '$1 ~ /^[0-9]+$/ && $2 <= 100000000 { print $2 }' "$BENCH_TMP/all" | sort -n -u)
	[ ${#ns[@]} -gt 0 ] || fail "no pause time of 100 ms or less was measured"
	progress "timer peer: $sleeps sleeps of each of ${ns[*]} ns"
	"$FCBENCH" sleep "$sleeps" "${ns[@]}" >"$BENCH_TMP/sleep" || fail "fcbench sleep failed"
	jq -R -s --argjson n "$sleeps" '[split("\n")[] | select(length > 0) | split(" ") | map(tonumber) |
		{ requested_ns: .[0], sleeps: $n, median_late_ns: .[1], worst_late_ns: .[2] }]' \
		"$BENCH_TMP/sleep" >"$BENCH_TMP/sleep.json" || fail "could not read fcbench sleep"
}
timer_peer

# rows: K REQ_NS ARRIVAL_TO_GATE_NS GAP_NS LEAKED INFLIGHT LONGEST_NS QUANTA SPEED
jq -R -s --slurpfile xon "$BENCH_TMP/xon.json" --slurpfile timer "$BENCH_TMP/sleep.json" --slurpfile c <(jq -R -s '[split("\n")[] | select(length > 0) | split(" ") | map(tonumber) |
	{ speed_mbps: .[0], datagram_spacing_ns: .[1], datagrams: .[2], rx_pause_counted: .[3],
	  frames_unmatched: .[4] }]' "$BENCH_TMP/counts") '
	def med: sort | .[(length - 1) / 2 | floor];
	def worst: max_by(if . < 0 then -. else . end);
	def ratio: (. * 10000 | round) / 10000;
	[split("\n")[] | select(length > 0) | split(" ") | map(tonumber) |
	 { speed_mbps: .[8], quanta: .[7], requested_ns: .[1], arrival_to_gate_ns: .[2],
	   gap_ns: .[3], leaked: .[4], inflight: .[5], longest_gap_ns: .[6] }] as $f |
	{
	  pause_accuracy: {
	    runs: $c[0],
	    datagram_spacing_ns: ($c[0] | map(.datagram_spacing_ns) | max),
	    datagrams: ($c[0] | map(.datagrams) | add),
	    times: [$f | group_by([.speed_mbps, .quanta]) | sort_by(.[0].requested_ns)[] |
	      (map(.gap_ns - .requested_ns)) as $err |
	      { speed_mbps: .[0].speed_mbps, quanta: .[0].quanta,
	        requested_ns: .[0].requested_ns,
	        samples: length, gaps_ns: map(.gap_ns),
	        median_error_ns: ($err | med),
	        worst_error_ns: ($err | worst),
	        median_error_share: (($err | med) / .[0].requested_ns | ratio),
	        worst_error_share: (($err | worst) / .[0].requested_ns | ratio),
	        median_longest_gap_error_ns: (map(.longest_gap_ns - .requested_ns) | med) }],
	    timer_peer: $timer[0]
	  },
	  reaction: {
	    frames: ($f | length),
	    frames_unmatched: ($c[0] | map(.frames_unmatched) | add),
	    rx_pause_counted: ($c[0] | map(.rx_pause_counted) | add),
	    leaked_packets: ($f | map(.leaked) | add),
	    leaked_max_per_frame: ($f | map(.leaked) | max),
	    arrival_to_gate_ns: {
	      median: ($f | map(.arrival_to_gate_ns) | med),
	      min: ($f | map(.arrival_to_gate_ns) | min),
	      worst: ($f | map(.arrival_to_gate_ns) | max) },
	    inflight_packets_median: ($f | map(.inflight) | med),
	    xon_arrival_to_gate_open_ns: $xon[0]
	  }
	}' "$BENCH_TMP/all" >"$OUT" || fail "could not build the JSON"
progress "done: $(jq -c '.reaction | {leaked_packets, arrival_to_gate_ns}' "$OUT")"
