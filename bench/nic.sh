#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Group 8: the pause and its reaction through real drivers. bench/pause.sh
# once on a veth pair and once on each NIC pair that scripts/vm-run --nic
# gave the VM (virtio-net, e1000e, igb: $FLOWCTL_NICS), all at 100 Mb/s
# with pauses of 10 ms and 100 ms, side by side in one VM; each unshaped
# and at a line rate of 10 Mb/s ("MODEL@10mbit"). What a driver
# adds to veth: the frames its TX ring and qemu's emulated wire still hold
# when the gate closes (they reach the partner after it: "leaked"), and the
# wire's time in arrival-to-gate. Not in the default groups (it needs the
# NIC pairs): BENCH_GROUPS=nic make bench. Then bench/mq.sh on the igb pair
# (multiqueue: mq + pfifo_fast, root flowctl and mq + flowctl).
#
# Usage: bench/nic.sh OUT.json
set -u
BENCH_GROUP=nic
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
OUT=${1:?usage: nic.sh OUT.json}
need_cmd jq

models=(veth)
for p in ${FLOWCTL_NICS:-}; do
	models+=("${p%%,*}")
done
[ ${#models[@]} -gt 1 ] || fail "no NIC pairs in this VM: scripts/bench gives them for BENCH_GROUPS=nic"
# Each pair twice: a0 unshaped (the sender as fast as it goes, faster than
# qemu's emulated NICs deliver small frames), and with a line rate of
# RATE that the emulation sustains.
RATE=10mbit
runs=()
for m in "${models[@]}"; do
	for r in "" "$RATE"; do
		k=$m${r:+@$r}
		progress "$k"
		nic=$m
		[ "$m" != veth ] || nic=
		BENCH_PAUSE_NIC=$nic BENCH_PAUSE_RATE=$r BENCH_PAUSE_SPEEDS="100:1953,19531" \
			"$(dirname "$0")/pause.sh" "$BENCH_TMP/$k.json" || fail "pause.sh on $k"
		runs+=("$k")
	done
done
for m in "${runs[@]}"; do
	jq -c --arg m "$m" '{ ($m): {
		leaked_packets: .reaction.leaked_packets,
		leaked_max_per_frame: .reaction.leaked_max_per_frame,
		frames: .reaction.frames,
		arrival_to_gate_ns: .reaction.arrival_to_gate_ns,
		xon_arrival_to_gate_open_ns: .reaction.xon_arrival_to_gate_open_ns,
		datagram_spacing_ns: .pause_accuracy.datagram_spacing_ns,
		times: [.pause_accuracy.times[] | { requested_ns, samples, median_error_ns,
			worst_error_ns, median_error_share, median_longest_gap_error_ns }] } }' "$BENCH_TMP/$m.json"
done | jq -s '{ nic: add }' >"$BENCH_TMP/nic.json" || fail "could not build the JSON"
# Group 9's figures on the igb pair: its TX queues in use, under mq.
mq='{}'
if [[ " ${models[*]} " == *" igb "* ]]; then
	progress "igb: mq (bench/mq.sh)"
	BENCH_MQ_NIC=igb "$(dirname "$0")/mq.sh" "$BENCH_TMP/mq-igb.json" || fail "mq.sh on igb"
	mq=$(jq -c '{ igb: .mq }' "$BENCH_TMP/mq-igb.json") || fail "mq.sh on igb: no JSON"
fi
jq --argjson mq "$mq" '. + { nic_mq: $mq }' "$BENCH_TMP/nic.json" >"$OUT" ||
	fail "could not build the JSON"
progress "done: $(jq -c '.nic | map_values(.leaked_packets)' "$OUT")"
