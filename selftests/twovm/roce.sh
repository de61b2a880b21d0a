#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# RoCE v2 over a flowctl switch: one half of scripts/twovm --lab roce, run
# in its VM by vm-run. Soft-RoCE (rdma_rxe) opens its UDP socket (4791) in
# the first network namespace only, so each RDMA host is the first
# namespace of its VM; the switch of VM B is a namespace of its own. VM A
# has two wires, two ports and two RDMA devices: two senders for incast.
#
#   VM A                          VM B
#   a0 rxe0 flowctl 10 Mb/s ===== [ns S: s0 flowctl (tx) -+- br0 - s1 flowctl 3 Mb/s] == b0 rxe0
#   198.18.0.1                                            |                               198.18.0.2
#   a1 rxe1 flowctl 10 Mb/s ===== [      s2 flowctl (tx) -+ ]
#   198.18.0.3
#
# The RoCE traffic is marked DSCP 26 (traffic class 104). The switch's
# ports trust DSCP; A's take their DSCP map from the switch, as hosts do
# from a data-center switch: s0 and s2 run DCBX agents (not willing) whose
# APP TLV says DSCP 26 is priority 3 (`dcb app add ... dscp-prio 26:3`),
# and a0 and a1 run willing agents, which also take the switch's PFC
# configuration in every phase (PFC on 3 when the switch's port is in mode
# pfc, none otherwise) and its ETS. A DSCP 26 ping leaving a0 and a1
# before and after the adoption shows the priority it went on. Phases, one
# sender (rxe0):
#   lossy   s0 tx off: s1 drops what it cannot send
#   pause   s0 tx on, link PAUSE
#   pfc     s0 PFC on priority 3 only, and a0 by DCBX
# ib_write_bw writes ITERS x 64 KB on two QPs from A (client) to B (server), and
# ib_send_lat (64 B, the same class) measures the latency RoCE sees
# meanwhile. Then incast, both senders at once into b0:
#   incast-lossy  s0 and s2 tx off
#   incast-pfc    s0 and s2 PFC on priority 3, a0 and a1 by DCBX
# Each half saves what perftest reported, its rxe counters (summed over its
# RDMA devices) and the switch's or the host's flowctl counters.
#
#   selftests/twovm/roce.sh a|b DIR
set -u
role=${1:?usage: $0 a|b DIR}
dir=${2:?usage: $0 a|b DIR}
PHASES="lossy pause pfc incast-lossy incast-pfc"
ITERS=${FLOWCTL_ROCE_ITERS:-32}
LIMIT=${FLOWCTL_ROCE_TIMEOUT:-240}
LAT_ITERS=${FLOWCTL_ROCE_LAT_ITERS:-12}
TCLASS=104	# DSCP 26 (AF31): priority 3 under trust dscp
# Iterations, not a duration: the client ends when every write has been
# acknowledged. rxe holds a reference on the QP for each of its packets in
# a qdisc, and destroying a QP whose packets wait longer than 200 jiffies
# warns (rxe_pool.c, __rxe_cleanup): a client stopped by -D while the
# fabric pauses its queue would do exactly that. -u 20: the QP's ack
# timeout, 4.3 s. The longest wait a paused queue sees here is about
# 0.5 s, but at 2.1 s (-u 19) one PFC run retried once with nothing lost
# (B saw a duplicate, no sequence error): a vCPU stall under TCG, not a
# loss, and the claim here is about loss.
BW=(-x 1 -u 20 -n "$ITERS" -s 65536 -q 2 -F --report_gbits --tclass="$TCLASS")
LAT=(-d rxe0 -x 1 -u 20 -n "$LAT_ITERS" -s 64 -F -p 18600 --tclass="$TCLASS")

NAME=roce
# shellcheck source=selftests/twovm/lib.sh
source "$(dirname "$0")/lib.sh"

# counters PHASE: the hw counters of this VM's RDMA devices, summed by name,
# as one JSON object.
counters()
{
	local f

	for f in /sys/class/infiniband/*/ports/1/hw_counters/*; do
		printf '%s %s\n' "$(basename "$f")" "$(cat "$f")"
	done | awk '{ s[$1] += $2 } END { printf "{"; n = 0
		for (k in s) printf "%s\"%s\": %d", (n++ ? ", " : ""), k, s[k]; print "}" }' |
		jq -c . >"$dir/$1.$role.counters.json"
}

incast() { [[ $1 == incast-* ]]; }

command -v ib_write_bw >/dev/null || die "no ib_write_bw (perftest)"
modprobe rdma_rxe || die "modprobe rdma_rxe"
[ ${#wifs[@]} -ge 2 ] || die "two wires needed (scripts/twovm gives the roce lab two)"
say "kernel $(uname -r), wires $wmodel on ${wifs[*]}"

if [ "$role" = b ]; then
	ip netns add S || die "netns S"
	ip link set dev "${wifs[0]}" netns S name s0 || die "s0"
	ip link set dev "${wifs[1]}" netns S name s2 || die "s2"
	ip link add name b0 type veth peer name s1 netns S || die "veth"
	ip -n S link add name br0 type bridge
	for d in s0 s1 s2; do ip -n S link set "$d" master br0; done
	for d in s0 s1 s2 br0 lo; do ip -n S link set "$d" up; done
	ip link set b0 up
	ip addr add 198.18.0.2/24 dev b0
	agents=()
	for d in s0 s1 s2; do
		ip netns exec S tc qdisc add dev $d root flowctl || die "flowctl on $d"
	done
	# Soft-RoCE under TCG moves about 7 Mb/s: the bottleneck is below it.
	# Its buffer (160 KB) holds both senders' XOFF (20 KB each) and what
	# they send before the PFC frame has crossed to A and closed its gate:
	# 120 KB, 48 ms of both senders at 10 Mb/s. That reaction time is the
	# emulator's, not the wire's: with 60 KB (12 ms at 20 Mb/s) one incast
	# run in CI lost 41 packets. The buffer stays below what one sender
	# keeps in flight (rxe: 128 unacknowledged packets a QP, two QPs, 1 KB
	# each): without flow control it overflows. Small thresholds keep the queues short:
	# what waits paused in a0 (rxe keeps up to 64 packets a QP there) and
	# in s1 must leave within the QP's ack timeout. ETS gives class 1
	# (priority 0, perftest's TCP exchange) 10% of the wire: under strict
	# priority the RoCE class starves it and the runs cannot end.
	ip netns exec S flowctl set dev s1 rate 3mbit limit 160k trust dscp ets 1:10,3:90 ||
		die "s1 rate"
	# s0 and s2 recommend A's ETS over DCBX: the same shares.
	for d in s0 s2; do
		ip netns exec S flowctl set dev $d speed 100 xoff 20k xon 10k trust dscp \
			prio 3 xoff 20k xon 10k ets 1:10,3:90 || die "$d thresholds"
		ip netns exec S dcb app add dev $d dscp-prio 26:3 || die "dcb app on $d"
		ip netns exec S flowctl -j dcbx dev $d willing off >"$dir/dcbx.$d.log" 2>&1 &
		agents+=($!)
	done
	rdma link add rxe0 type rxe netdev b0 || die "rdma link add"
	ip -j link show dev b0 | jq -r '.[0].address' >"$dir/b.mac.new"
	mv "$dir/b.mac.new" "$dir/b.mac"
	# A's two addresses on its two ports: no ARP (A answers for both on
	# both ports, and rxe takes a frame by the port it came in on).
	waitfile "$dir/a.macs" 600
	read -r m0 m1 <"$dir/a.macs"
	ip neigh add 198.18.0.1 lladdr "$m0" dev b0 nud permanent
	ip neigh add 198.18.0.3 lladdr "$m1" dev b0 nud permanent
	for p in $PHASES; do
		waitfile "$dir/$p.go" 600
		case $p in
		lossy | incast-lossy) set=(tx off mode pause) ;;
		pause) set=(tx on mode pause) ;;
		pfc | incast-pfc) set=(tx on mode pfc pfc-prios 3) ;;
		esac
		for d in s0 s2; do
			ip netns exec S flowctl set dev $d "${set[@]}"
			ip netns exec S flowctl stats reset dev $d
		done
		d0=$(ip netns exec S flowctl -j -s show dev s1 | jq '[.[0].prio[].drops // 0] | add // 0')
		counters "$p.before"
		timeout $((LIMIT + 60)) ib_write_bw -d rxe0 "${BW[@]}" -p 18515 \
			>"$dir/$p.server.txt" 2>&1 &
		pids=($!)
		if incast "$p"; then
			timeout $((LIMIT + 60)) ib_write_bw -d rxe0 "${BW[@]}" -p 18516 \
				>"$dir/$p.server2.txt" 2>&1 &
		else
			timeout $((LIMIT + 120)) ib_send_lat "${LAT[@]}" \
				>"$dir/$p.lat-server.txt" 2>&1 &
		fi
		pids+=($!)
		sleep 1
		touch "$dir/$p.ready"
		wait "${pids[@]}"
		# The last writes may still wait in s1: its drain ends the pause
		# (XON) that A counts too.
		for ((i = 0; i < 100; i++)); do
			[ "$(ip netns exec S flowctl -j -br show | jq -c \
				'[.[] | .backlog_packets, (.xoff_prios | length)] | add')" = 0 ] && break
			sleep 0.1
		done
		sleep 0.5
		counters "$p.after"
		d1=$(ip netns exec S flowctl -j -s show dev s1 | jq '[.[0].prio[].drops // 0] | add // 0')
		s0=$(ip netns exec S flowctl -j -s show dev s0)
		s2=$(ip netns exec S flowctl -j -s show dev s2)
		jq -nc --argjson drops $((d1 - d0)) --argjson s0 "$s0" --argjson s2 "$s2" \
			'{drops: $drops, tx_pause: $s0[0].stats.tx_pause,
			  tx_pfc: [$s0[0].prio[].tx_pfc], tx_pfc_xon: [$s0[0].prio[].tx_pfc_xon],
			  s2_tx_pause: $s2[0].stats.tx_pause, s2_tx_pfc: [$s2[0].prio[].tx_pfc],
			  s2_tx_pfc_xon: [$s2[0].prio[].tx_pfc_xon]}' \
			>"$dir/$p.b.new"
		mv "$dir/$p.b.new" "$dir/$p.b.json"
		say "$p: $(cat "$dir/$p.b.json")"
	done
	kill "${agents[@]}" 2>/dev/null
	wait "${agents[@]}" 2>/dev/null
	exit 0
fi

ip link set dev "${wifs[0]}" name a0 || die "rename ${wifs[0]}"
ip link set dev "${wifs[1]}" name a1 || die "rename ${wifs[1]}"
# Two ports in one subnet: each answers ARP for its own address only.
sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2
ip link set a0 up
ip link set a1 up
ip addr add 198.18.0.1/24 dev a0
ip addr add 198.18.0.3/24 dev a1
for d in a0 a1; do
	tc qdisc add dev $d root flowctl || die "flowctl on $d"
	# ETS as at s1: strict priority would hold perftest's TCP exchange
	# (priority 0) behind the RoCE class whenever the gate opens, and
	# ib_send_lat would start only after the bulk transfer ended. No DSCP
	# map of its own: the switch's comes by DCBX.
	flowctl set dev $d speed 100 rate 10mbit mode pause ets 1:10,3:90 || die "$d rate"
done
rdma link add rxe0 type rxe netdev a0 || die "rdma link add rxe0"
rdma link add rxe1 type rxe netdev a1 || die "rdma link add rxe1"
echo "$(ip -j link show dev a0 | jq -r '.[0].address') $(ip -j link show dev a1 | jq -r '.[0].address')" \
	>"$dir/a.macs.new"
mv "$dir/a.macs.new" "$dir/a.macs"
waitfile "$dir/b.mac" 600
for d in a0 a1; do
	ip neigh add 198.18.0.2 lladdr "$(cat "$dir/b.mac")" dev $d nud permanent
done
for ((i = 0; i < 100; i++)); do
	ping -c 1 -W 1 -I a0 198.18.0.2 >/dev/null 2>&1 && break
done
[ $i -lt 100 ] || die "B does not answer across the wire of a0"
ping -c 1 -W 5 -I a1 198.18.0.2 >/dev/null 2>&1 || die "B does not answer across the wire of a1"

# probe DEV: the priorities on which DSCP 26 pings (RoCE's class) left DEV.
probe()
{
	local b a

	b=$(flowctl -j -s show dev "$1" | jq -c '[.[0].prio[].tx_packets]')
	ping -c 3 -i 0.2 -W 2 -Q "$TCLASS" -I "$1" 198.18.0.2 >/dev/null 2>&1
	a=$(flowctl -j -s show dev "$1" | jq -c '[.[0].prio[].tx_packets]')
	jq -nc --argjson b "$b" --argjson a "$a" '[range(8) | select($a[.] > $b[.])]'
}
# view DEV: what DCBX sets on DEV: [mode, PFC's priorities (null in mode
# pause), trust, DSCP map].
view()
{
	flowctl -j show dev "$1" |
		jq -c '.[0] | [.mode, (if .mode == "pfc" then .pfc_prios else null end), .trust, (.dscp_prio // [])]'
}
# adopted WANT: waits up to 30 s for both ports to show WANT (view's).
adopted()
{
	local i

	for ((i = 0; i < 300; i++)); do
		[ "$(view a0)" = "$1" ] && [ "$(view a1)" = "$1" ] && return 0
		sleep 0.1
	done
	die "DCBX did not give a0 and a1 $1 within 30 s (a0 $(view a0), a1 $(view a1))"
}
before0=$(probe a0) before1=$(probe a1) own=$(view a0)
agents=()
for d in a0 a1; do
	flowctl -j dcbx dev $d willing on >"$dir/dcbx.$d.log" 2>&1 &
	agents+=($!)
done
# The switch starts in the lossy phase's mode pause: PFC on no priority.
adopted '["pause",null,"dscp",[[26,3]]]'
jq -nc --argjson b0 "$before0" --argjson b1 "$before1" --argjson a0 "$(probe a0)" \
	--argjson a1 "$(probe a1)" --argjson own "$own" --argjson view "$(view a0)" \
	'{own: $own, before: [$b0, $b1], view: $view, after: [$a0, $a1]}' >"$dir/app.a.new"
mv "$dir/app.a.new" "$dir/app.a.json"
say "app: $(cat "$dir/app.a.json")"
for p in $PHASES; do
	for d in a0 a1; do
		flowctl stats reset dev $d
	done
	counters "$p.before"
	touch "$dir/$p.go"
	waitfile "$dir/$p.ready" 120
	# B set its ports' mode before it was ready: DCBX brings it here.
	case $p in
	pfc | incast-pfc) adopted '["pfc",[3],"dscp",[[26,3]]]' ;;
	*) adopted '["pause",null,"dscp",[[26,3]]]' ;;
	esac
	echo "bulk-start $(date +%s.%N)" >"$dir/$p.times"
	timeout "$LIMIT" ib_write_bw -d rxe0 "${BW[@]}" -p 18515 198.18.0.2 \
		>"$dir/$p.client.txt" 2>&1 &
	bp=$!
	if incast "$p"; then
		timeout "$LIMIT" ib_write_bw -d rxe1 "${BW[@]}" -p 18516 198.18.0.2 \
			>"$dir/$p.client2.txt" 2>&1
		echo "exit $?" >>"$dir/$p.client2.txt"
	else
		# The latency while the bulk transfer congests the switch.
		sleep 2
		echo "lat-start $(date +%s.%N)" >>"$dir/$p.times"
		timeout "$LIMIT" ib_send_lat "${LAT[@]}" 198.18.0.2 >"$dir/$p.lat.txt" 2>&1
		echo "exit $?" >>"$dir/$p.lat.txt"
		echo "lat-end $(date +%s.%N)" >>"$dir/$p.times"
	fi
	wait $bp
	echo "exit $?" >>"$dir/$p.client.txt"
	echo "bulk-end $(date +%s.%N)" >>"$dir/$p.times"
	counters "$p.after"
	waitfile "$dir/$p.b.json" 400
	a0=$(flowctl -j -s show dev a0)
	a1=$(flowctl -j -s show dev a1)
	jq -nc --argjson a0 "$a0" --argjson a1 "$a1" \
		'{rx_pause: $a0[0].stats.rx_pause, rx_pfc: [$a0[0].prio[].rx_pfc],
		  a1_rx_pause: $a1[0].stats.rx_pause, a1_rx_pfc: [$a1[0].prio[].rx_pfc],
		  tx_packets: [$a0[0].prio[].tx_packets]}' \
		>"$dir/$p.a.json"
	say "$p: $(cat "$dir/$p.a.json"); $(grep -E '^ *65536' "$dir/$p.client.txt" | tail -1)"
done
kill "${agents[@]}" 2>/dev/null
wait "${agents[@]}" 2>/dev/null
exit 0
