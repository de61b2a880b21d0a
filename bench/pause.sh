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
#   |    speed 100 (5.12 us/quantum)  | veth | fcbench pause: PAUSE frames, |
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
# Usage: bench/pause.sh OUT.json
set -u
BENCH_GROUP=pause
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
OUT=${1:?usage: pause.sh OUT.json}
need_cmd jq ip tc flowctl
need_file "$FCBENCH" bench
need_file "$FCTEST" selftests

SPEED=100
QUANTA="20 195 1953 19531"	# 102.4 us, 998.4 us, 10.0 ms, 100.0 ms
REPS=$([ "$BENCH_QUICK" = 1 ] && echo 3 || echo 7)
SETTLE_US=40000			# flood resumes between two pauses
INTERVAL_US=20			# the stream: paced, not a flood (see Documentation/bench.md)

setup_ns A B
veth_pair "$A" a0 "$B" b0 || fail "veth setup"
ip -n "$A" addr add 198.18.0.1/24 dev a0
ip -n "$B" addr add 198.18.0.2/24 dev b0
MAC_A=$(mac_of "$A" a0)
MAC_B=$(mac_of "$B" b0)
ip -n "$A" neigh add 198.18.0.2 lladdr "$MAC_B" dev a0 nud permanent
ip -n "$B" neigh add 198.18.0.1 lladdr "$MAC_A" dev b0 nud permanent
ip netns exec "$A" tc qdisc add dev a0 root flowctl || fail "cannot attach flowctl"
fc "$A" set dev a0 speed $SPEED || fail "flowctl set speed"

# The frame sequence: every pause time once per round, each frame sent
# once the previous pause ended and the flood ran again.
args=()
: >"$BENCH_TMP/req"
delay=300000
for ((r = 0; r < REPS; r++)); do
	for q in $QUANTA; do
		args+=("$delay" "$(pause_hex "$MAC_B" "$q")")
		echo "$q $((q * 512 * 1000 / SPEED))" >>"$BENCH_TMP/req"
		delay=$((q * 512 / SPEED + SETTLE_US))
	done
done

progress "a stream through a0, $((REPS * $(echo "$QUANTA" | wc -w))) PAUSE frames of 100 us..100 ms at ${SPEED} Mb/s"
ip netns exec "$B" "$FCBENCH" stamps 7000 1 "$BENCH_TMP/stamps" >"$BENCH_TMP/stamps.log" &
spid=$!
while ! grep -q ready "$BENCH_TMP/stamps.log" 2>/dev/null; do
	kill -0 $spid 2>/dev/null || fail "fcbench stamps did not start"
	sleep 0.05
done
ip netns exec "$A" flowctl -j monitor dev a0 >"$BENCH_TMP/events" &
mpid=$!
# The monitor subscribes some time after it starts (a second or more under
# TCG): poke the port until its config event shows up.
for ((i = 0; i < 100; i++)); do
	fc "$A" set dev a0 speed $SPEED
	sleep 0.1
	grep -q '"config"' "$BENCH_TMP/events" && break
done
grep -q '"config"' "$BENCH_TMP/events" || fail "flowctl monitor shows no events"
ip netns exec "$A" "$FCTEST" send 198.18.0.2 7000 "$INTERVAL_US" 1000000000 size 18 >/dev/null &
fpid=$!
sleep 0.5
ip netns exec "$B" "$FCBENCH" pause b0 "$BENCH_TMP/frames" "${args[@]}" ||
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

# rows: K REQ_NS ARRIVAL_TO_GATE_NS GAP_NS LEAKED INFLIGHT
# The quanta of each row, by frame number.
awk 'NR == FNR { q[NR - 1] = $1; next } $1 ~ /^[0-9]+$/ { print $0, q[$1] }' \
	"$BENCH_TMP/req" "$BENCH_TMP/rows" |
	jq -R -s --argjson speed $SPEED --argjson spacing "$spacing" \
		--argjson packets "$packets" --argjson rx "$rx" \
		--argjson unmatched "$unmatched" '
	def med: sort | .[(length - 1) / 2 | floor];
	def worst: max_by(if . < 0 then -. else . end);
	[split("\n")[] | select(length > 0) | split(" ") | map(tonumber) |
	 { quanta: .[6], requested_ns: .[1], arrival_to_gate_ns: .[2],
	   gap_ns: .[3], leaked: .[4], inflight: .[5] }] as $f |
	{
	  pause_accuracy: {
	    speed_mbps: $speed,
	    datagram_spacing_ns: $spacing,
	    datagrams: $packets,
	    times: [$f | group_by(.requested_ns)[] |
	      { quanta: .[0].quanta, requested_ns: .[0].requested_ns,
	        samples: length, gaps_ns: map(.gap_ns),
	        median_error_ns: (map(.gap_ns - .requested_ns) | med),
	        worst_error_ns: (map(.gap_ns - .requested_ns) | worst) }]
	  },
	  reaction: {
	    frames: ($f | length),
	    frames_unmatched: $unmatched,
	    rx_pause_counted: $rx,
	    leaked_packets: ($f | map(.leaked) | add),
	    leaked_max_per_frame: ($f | map(.leaked) | max),
	    arrival_to_gate_ns: {
	      median: ($f | map(.arrival_to_gate_ns) | med),
	      min: ($f | map(.arrival_to_gate_ns) | min),
	      worst: ($f | map(.arrival_to_gate_ns) | max) },
	    inflight_packets_median: ($f | map(.inflight) | med)
	  }
	}' >"$OUT" || fail "could not build the JSON"
progress "done: $(jq -c '.reaction | {leaked_packets, arrival_to_gate_ns}' "$OUT")"
