#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Group 9: a device with two TX queues, sent to from both vCPUs: what one
# root qdisc costs against mq with a child per queue (Documentation/mq.md).
#
# pktgen's two threads (kpktgend_0 on CPU 0, kpktgend_1 on CPU 1) each
# send 64-byte UDP frames (pkt_size 60, FCS not counted) through
# dev_queue_xmit (xmit_mode queue_xmit) on m0, a veth with two TX queues
# whose XPS map sends CPU n's frames to queue n; the qdisc under test is
# m0's. The destination MAC is nobody's, so r0, the peer in ns R, drops
# each frame at once (PACKET_OTHERHOST); the figure is frames delivered to
# r0 per second of pktgen's run.
#
#   +------------- init ns -------------+      +-- ns R --+
#   | kpktgend_0 (CPU 0) -> TX queue 0  |      |          |
#   | kpktgend_1 (CPU 1) -> TX queue 1  |======| r0       |
#   | m0: the qdisc under test          | veth | counts   |
#   +-----------------------------------+      +----------+
#
# The peers: mq with pfifo_fast on each queue (Linux's default on a
# multiqueue NIC), mq with prio on each queue (a qdisc that, as flowctl,
# always enqueues and dequeues: no empty-queue bypass), root flowctl (every
# queue behind one qdisc lock), and mq with a flowctl child on each queue. Each runs ROUNDS times (3; 1 with
# BENCH_QUICK), interleaved, the best round kept.
#
# Then pause exactness per queue: a stream on each queue (fctest, 2000
# datagrams/s, one per queue through a queue_mapping filter), a PAUSE of
# 20000 quanta at 100 Mb/s (102.4 ms) from r0; each queue's gap at the
# receiver against the pause time, and how long after the PAUSE frame left
# r0 each queue's last datagram before the gap arrived (at 2000 datagrams/s
# a queue, one datagram per 500 us of it), for mq + flowctl and for root
# flowctl.
#
# With BENCH_MQ_NIC=MODEL (bench/nic.sh sets it for igb) m0 and r0 are the
# two ends of that model's NIC pair (scripts/vm-run --nic, $FLOWCTL_NICS)
# instead of a veth: the driver's TX queues in use (real_num_tx_queues: igb
# has one per vCPU, up to 8), the frames addressed to r0's MAC (the NIC
# filters others out before it counts them; r0's stack drops them at IP),
# XPS sending CPU n to queue n on queues 0 and 1 and no CPU to the others.
#
# Usage: bench/mq.sh OUT.json
set -u
BENCH_GROUP=mq
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
OUT=${1:?usage: mq.sh OUT.json}
need_cmd jq ip tc flowctl
need_module pktgen
need_module veth
need_module sch_prio
need_module flowctl

if [ "$BENCH_QUICK" = 1 ]; then
	RUN_S=1 ROUNDS=1 GAPS=2
else
	RUN_S=1 ROUNDS=3 GAPS=5
fi
[ "$(nproc)" -ge 2 ] || fail "two CPUs wanted, the VM has $(nproc)"
QDISCS=("mq + pfifo_fast" "mq + prio" "root flowctl" "mq + flowctl")
NIC=${BENCH_MQ_NIC:-}

# carrier DEV [NS]: waits up to 10 s for DEV's carrier (an emulated NIC
# negotiates its link after up).
carrier()
{
	local i ns=(${2:+ip netns exec "$2"})

	for ((i = 0; i < 100; i++)); do
		[ "$("${ns[@]}" cat "/sys/class/net/$1/carrier" 2>/dev/null)" = 1 ] && return 0
		nap 0.1
	done
	fail "$1 has no carrier after 10 s"
}

setup_ns R
if [ -n "$NIC" ]; then
	nic_ends "$NIC"
	ip link set dev "$NIC_IF0" down && ip link set dev "$NIC_IF0" name m0 &&
		ip link set dev "$NIC_IF1" down && ip link set dev "$NIC_IF1" netns "$R" &&
		ip -n "$R" link set dev "$NIC_IF1" name r0 || fail "the $NIC pair as m0 and r0"
	DST_MAC=$(mac_of "$R" r0)
	# The MAC's own pause off, as on a port flowctl paces (flowctl doctor).
	ethtool -A m0 autoneg off rx off tx off 2>/dev/null
else
	ip link add name m0 numtxqueues 2 numrxqueues 2 type veth \
		peer name r0 numtxqueues 2 numrxqueues 2 netns "$R" || fail "veth"
fi
ip link set dev m0 up
ip -n "$R" link set dev r0 up
carrier m0
carrier r0 "$R"
NQ=$(find /sys/class/net/m0/queues -maxdepth 1 -name 'tx-*' | wc -l)
[ "$NQ" -ge 2 ] || fail "m0 has $NQ TX queue(s) in use, two wanted"
for ((i = 0; i < NQ; i++)); do
	x=0
	[ $i -lt 2 ] && x=$((1 << i))
	echo $x >"/sys/class/net/m0/queues/tx-$i/xps_cpus" || fail "XPS on tx-$i"
done

# qdisc Q: m0's qdisc becomes one of QDISCS.
qdisc()
{
	local child

	tc qdisc del dev m0 root 2>/dev/null
	case $1 in
	"root flowctl")
		tc qdisc add dev m0 root flowctl || fail "tc qdisc add dev m0 root flowctl"
		return
		;;
	"mq + pfifo_fast") child=pfifo_fast ;;
	"mq + prio") child=prio ;;
	"mq + flowctl") child=flowctl ;;
	esac
	tc qdisc add dev m0 root handle 1: mq || fail "mq on m0"
	children "" $child
}

# children NS QDISC [OPTIONS...]: QDISC on each of m0's TX queues in use
# under mq 1:, the first with OPTIONS.
children()
{
	local ns=(${1:+ip netns exec "$1"}) i opts

	shift
	for ((i = 1; i <= NQ; i++)); do
		opts=()
		[ $i -gt 1 ] || opts=("${@:2}")
		"${ns[@]}" tc qdisc replace dev m0 parent 1:$i "$1" "${opts[@]}" ||
			fail "$1 under mq on queue $((i - 1))"
	done
}

pg_reset
PG_DEVS=(m0@0 m0@1)
pg_device 0 m0@0 60 queue_xmit
pg_device 1 m0@1 60 queue_xmit

ip netns exec "$R" sleep 100000 &
R_PID=$!
R_STATS=/proc/$R_PID/root/sys/class/net/r0/statistics/rx_packets
for ((i = 0; i < 100; i++)); do
	[ -r "$R_STATS" ] && break
	nap 0.1
done
[ -r "$R_STATS" ] || fail "cannot read r0's counters through $R_STATS"

# per_queue: "q0 q1", the packets each TX queue of m0 sent (its mq class,
# or for the root form the driver's per-queue count is not kept: "-").
declare -A PPS SPLIT
progress "64 B from 2 CPUs on 2 TX queues: ${#QDISCS[@]} qdiscs x $ROUNDS rounds of ${RUN_S} s"
for ((round = 1; round <= ROUNDS; round++)); do
	for q in "${QDISCS[@]}"; do
		qdisc "$q"
		before=$(<"$R_STATS")
		pg_run "$RUN_S"
		nap 0.1
		after=$(<"$R_STATS")
		PPS[$q]+="$(((after - before) * 1000000 / PG_US)) "
		# What each queue's child sent: both queues carried frames.
		[ "$q" = "root flowctl" ] ||
			SPLIT[$q]=$(tc -j -s qdisc show dev m0 |
				jq -r '[.[] | select((.parent // "") | startswith("1:"))] |
					sort_by(.parent | ltrimstr("1:") | tonumber) |
					map(.packets | tostring) | join(" ")')
	done
done
pg_reset
kill $R_PID 2>/dev/null

# Pause exactness per queue: streams to two ports, each on its own queue,
# in the selftests' gap lab (lib.sh's stream: ns A's 198.18.0.1 sends to
# 198.18.0.2 on ns B's b0, which plays the PAUSE).
setup_ns A
ip link set dev m0 netns "$A" || fail "m0 into a namespace"
B=$R
ip -n "$B" link set dev r0 down
ip -n "$B" link set dev r0 name b0 || fail "r0 renamed b0"
ip -n "$A" link set dev m0 up
ip -n "$B" link set dev b0 up
carrier m0 "$A"
carrier b0 "$B"
ip -n "$A" addr add 198.18.0.1/24 dev m0
ip -n "$B" addr add 198.18.0.2/24 dev b0
ip -n "$A" neigh add 198.18.0.2 lladdr "$(mac_of "$B" b0)" dev m0 nud permanent
ip netns exec "$A" tc qdisc add dev m0 clsact || fail "clsact"
for p in 5000 5001; do
	ip netns exec "$A" tc filter add dev m0 egress protocol ip prio 1 flower \
		ip_proto udp dst_port $p action skbedit queue_mapping $((p - 5000)) ||
		fail "queue_mapping filter"
done
INTERVAL_US=500
TMP=$BENCH_TMP
MAC_B=$(mac_of "$B" b0)
declare -A GAPS_OF STOPS_OF
progress "pause exactness: 20000 quanta at 100 Mb/s, a stream per queue, $GAPS pauses per form"
for form in "mq + flowctl" "root flowctl"; do
	if [ "$form" = "root flowctl" ]; then
		ip netns exec "$A" tc qdisc replace dev m0 root flowctl speed 100 ||
			fail "root flowctl"
	else
		ip netns exec "$A" tc qdisc replace dev m0 root handle 1: mq || fail "mq"
		children "$A" flowctl speed 100
	fi
	for ((n = 0; n < GAPS; n++)); do
		stream 400 "5000:0 5001:0" 0 "$(pause_hex "$MAC_B" 20000)" >/dev/null 2>&1
		GAPS_OF[$form/0]+="${GAP_AT[5000]:-0} "
		GAPS_OF[$form/1]+="${GAP_AT[5001]:-0} "
		STOPS_OF[$form/0]+="${GAP_AT_START[5000]:-0} "
		STOPS_OF[$form/1]+="${GAP_AT_START[5001]:-0} "
	done
	ip netns exec "$A" tc qdisc del dev m0 root
done

{
	for q in "${QDISCS[@]}"; do
		# shellcheck disable=SC2086
		printf 'pps\t%s\t%s\t%s\t%s\n' "$q" "$(best ${PPS[$q]})" "${PPS[$q]% }" "${SPLIT[$q]:--}"
	done
	for form in "mq + flowctl" "root flowctl"; do
		for qn in 0 1; do
			# shellcheck disable=SC2086
			printf 'gap\t%s\t%s\t%s\t%s\t%s\t%s\n' "$form" "$qn" \
				"$(median ${GAPS_OF[$form/$qn]})" "${GAPS_OF[$form/$qn]% }" \
				"$(median ${STOPS_OF[$form/$qn]})" "${STOPS_OF[$form/$qn]% }"
		done
	done
} >"$BENCH_TMP/mq"

jq -R -s --argjson rounds "$ROUNDS" --arg run_s "$RUN_S" --arg nic "$NIC" --argjson nq "$NQ" '
	def r3($n; $d): if $d > 0 then ($n / $d * 1000 | round) / 1000 else null end;
	[split("\n")[] | select(length > 0) | split("\t")] as $l |
	[$l[] | select(.[0] == "pps") |
	  { qdisc: .[1], pps: (.[2] | tonumber), rounds_pps: (.[3] | split(" ") | map(tonumber)),
	    queue_packets: (if .[4] == "-" then null else (.[4] | split(" ") | map(tonumber)) end) }] as $p |
	($p[] | select(.qdisc == "mq + pfifo_fast") | .pps) as $base |
	($p[] | select(.qdisc == "root flowctl") | .pps) as $root |
	{ mq: {
	    nic: (if $nic == "" then "veth" else $nic end),
	    frame_bytes: 64, senders: 2, queues: $nq, rounds: $rounds, run_s: ($run_s | tonumber),
	    cases: [$p[] | . + { ratio_to_mq_pfifo_fast: r3(.pps; $base), ratio_to_root_flowctl: r3(.pps; $root) }],
	    pause: { quanta: 20000, speed_mbps: 100, expected_us: 102400,
	      gaps: [$l[] | select(.[0] == "gap") |
	        { form: .[1], queue: (.[2] | tonumber), median_us: (.[3] | tonumber),
	          gaps_us: (.[4] | split(" ") | map(tonumber)),
	          stop_median_us: (.[5] | tonumber), stops_us: (.[6] | split(" ") | map(tonumber)) }] } } }' \
	"$BENCH_TMP/mq" >"$OUT" || fail "could not build the JSON"
progress "done: $(jq -c '[.mq.cases[] | {qdisc, pps}]' "$OUT")"
