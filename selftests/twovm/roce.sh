#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# RoCE v2 over a flowctl switch: one half of scripts/twovm --lab roce, run
# in its VM by vm-run. Soft-RoCE (rdma_rxe) opens its UDP socket (4791) in
# the first network namespace only, so each RDMA host is the first
# namespace of its VM; the switch of VM B is a namespace of its own.
#
#   VM A                          VM B
#   a0 rxe0 flowctl 200 Mb/s ==== [ns S: s0 flowctl (tx) - br0 - s1 flowctl 20 Mb/s] == b0 rxe0
#   198.18.0.1                                                                       198.18.0.2
#
# The RoCE traffic is marked DSCP 26 (traffic class 104): priority 3 where
# a port trusts DSCP (all four do). Phases: lossy (s0 tx off: s1 drops what
# it cannot send), pause (s0 tx on, link PAUSE) and pfc (s0 and a0 PFC on
# priority 3 only). In each, ib_write_bw runs for SECONDS from A (client) to
# B (server), and ib_send_lat (64 B, the same class) measures the latency
# RoCE sees meanwhile; each half saves what perftest reported and its rxe
# counters.
#
#   selftests/twovm/roce.sh a|b DIR
set -u
role=${1:?usage: $0 a|b DIR}
dir=${2:?usage: $0 a|b DIR}
PHASES="lossy pause pfc"
SECONDS_RUN=${FLOWCTL_ROCE_SECONDS:-12}
LAT_ITERS=${FLOWCTL_ROCE_LAT_ITERS:-12}
TCLASS=104	# DSCP 26 (AF31): priority 3 under trust dscp
BW=(-d rxe0 -x 1 -u 18 -D "$SECONDS_RUN" -s 65536 -q 2 -F --report_gbits --tclass=$TCLASS)
LAT=(-d rxe0 -x 1 -u 18 -n "$LAT_ITERS" -s 64 -F -p 18600 --tclass=$TCLASS)

NAME=roce
# shellcheck source=selftests/twovm/lib.sh
source "$(dirname "$0")/lib.sh"

# counters PHASE: rxe0's hw counters as one JSON object.
counters()
{
	local f out="{"

	for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do
		out+="\"$(basename "$f")\": $(cat "$f"),"
	done
	echo "${out%,}}" | jq -c . >"$dir/$1.$role.counters.json"
}

command -v ib_write_bw >/dev/null || die "no ib_write_bw (perftest)"
modprobe rdma_rxe || die "modprobe rdma_rxe"
say "kernel $(uname -r), wire $wmodel on $wif"

if [ "$role" = b ]; then
	ip netns add S || die "netns S"
	ip link set dev "$wif" netns S name s0 || die "s0"
	ip link add name b0 type veth peer name s1 netns S || die "veth"
	ip -n S link add name br0 type bridge
	ip -n S link set s0 master br0
	ip -n S link set s1 master br0
	for d in s0 s1 br0 lo; do ip -n S link set "$d" up; done
	ip link set b0 up
	ip addr add 198.18.0.2/24 dev b0
	ip netns exec S tc qdisc add dev s0 root flowctl || die "flowctl on s0"
	ip netns exec S tc qdisc add dev s1 root flowctl || die "flowctl on s1"
	# Soft-RoCE under TCG moves about 7 Mb/s: the bottleneck is below it.
	ip netns exec S flowctl set dev s1 rate 2mbit limit 200k trust dscp || die "s1 rate"
	ip netns exec S flowctl set dev s0 speed 100 xoff 100k xon 50k trust dscp \
		prio 3 xoff 100k xon 50k || die "s0 thresholds"
	rdma link add rxe0 type rxe netdev b0 || die "rdma link add"
	ip -j link show dev b0 | jq -r '.[0].address' >"$dir/b.mac.new"
	mv "$dir/b.mac.new" "$dir/b.mac"
	for p in $PHASES; do
		waitfile "$dir/$p.go" 600
		case $p in
		lossy) ip netns exec S flowctl set dev s0 tx off mode pause ;;
		pause) ip netns exec S flowctl set dev s0 tx on mode pause ;;
		pfc) ip netns exec S flowctl set dev s0 tx on mode pfc pfc-prios 3 ;;
		esac
		ip netns exec S flowctl stats reset dev s0
		d0=$(ip netns exec S flowctl -j -s show dev s1 | jq '[.[0].prio[].drops // 0] | add // 0')
		counters "$p.before"
		timeout $((SECONDS_RUN + 120)) ib_write_bw "${BW[@]}" >"$dir/$p.server.txt" 2>&1 &
		sp=$!
		timeout $((SECONDS_RUN + 300)) ib_send_lat "${LAT[@]}" >"$dir/$p.lat-server.txt" 2>&1 &
		lp=$!
		sleep 1
		touch "$dir/$p.ready"
		wait $sp
		wait $lp
		counters "$p.after"
		d1=$(ip netns exec S flowctl -j -s show dev s1 | jq '[.[0].prio[].drops // 0] | add // 0')
		s0=$(ip netns exec S flowctl -j -s show dev s0)
		jq -nc --argjson drops $((d1 - d0)) --argjson s0 "$s0" \
			'{drops: $drops, tx_pause: $s0[0].stats.tx_pause,
			  tx_pfc: [$s0[0].prio[].tx_pfc]}' >"$dir/$p.b.new"
		mv "$dir/$p.b.new" "$dir/$p.b.json"
		say "$p: $(cat "$dir/$p.b.json")"
	done
	exit 0
fi

ip link set dev "$wif" name a0 || die "rename $wif"
ip link set a0 up
ip addr add 198.18.0.1/24 dev a0
tc qdisc add dev a0 root flowctl || die "flowctl on a0"
flowctl set dev a0 speed 100 rate 20mbit trust dscp || die "a0 rate"
rdma link add rxe0 type rxe netdev a0 || die "rdma link add"
waitfile "$dir/b.mac" 600
ip neigh add 198.18.0.2 lladdr "$(cat "$dir/b.mac")" dev a0 nud permanent
for ((i = 0; i < 100; i++)); do
	ping -c 1 -W 1 198.18.0.2 >/dev/null 2>&1 && break
done
[ $i -lt 100 ] || die "B does not answer across the wire"
for p in $PHASES; do
	if [ "$p" = pfc ]; then
		flowctl set dev a0 mode pfc pfc-prios 3 || die "a0 pfc"
	else
		flowctl set dev a0 mode pause || die "a0 pause"
	fi
	flowctl stats reset dev a0
	counters "$p.before"
	touch "$dir/$p.go"
	waitfile "$dir/$p.ready" 120
	timeout $((SECONDS_RUN + 60)) ib_write_bw "${BW[@]}" 198.18.0.2 >"$dir/$p.client.txt" 2>&1 &
	bp=$!
	# The latency while the bulk transfer congests the switch.
	sleep 2
	timeout $((SECONDS_RUN + 240)) ib_send_lat "${LAT[@]}" 198.18.0.2 >"$dir/$p.lat.txt" 2>&1
	echo "exit $?" >>"$dir/$p.lat.txt"
	wait $bp
	echo "exit $?" >>"$dir/$p.client.txt"
	counters "$p.after"
	waitfile "$dir/$p.b.json" 400
	a0=$(flowctl -j -s show dev a0)
	jq -nc --argjson a0 "$a0" '{rx_pause: $a0[0].stats.rx_pause, rx_pfc: [$a0[0].prio[].rx_pfc]}' \
		>"$dir/$p.a.json"
	say "$p: $(cat "$dir/$p.a.json"); $(grep -E '^ *65536' "$dir/$p.client.txt" | tail -1); latency: $(grep -E '^ *64 ' "$dir/$p.lat.txt" | tail -1)"
done
exit 0
