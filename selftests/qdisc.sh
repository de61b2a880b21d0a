#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The qdisc itself: which band a packet takes, byte limits with tail drop
# and tc's statistics, skbs released from their socket at dequeue on veth
# (as a NIC's TX completion does) with their TX timestamps kept, a
# multi-queue device, root-only attachment, and 0x8808 frames from the
# stack held by a received PAUSE like any other data.
#
#   +-------- ns A --------+      +-------- ns B --------+      +---- ns C ----+
#   | a0 flowctl           |======| b0 ---- br0 ----- b1 |======| c0           |
#   | a0.10 (vlan, qos-map)| veth |          tbf on b1   | veth |              |
#   +----------------------+      +----------------------+      +--------------+
#   198.18.0.1/24                                                198.18.0.3/24
#
# B bridges rather than routes: IP receive orphans an skb (ip_rcv_core), a
# bridge does not, so two veth hops of bridging carry the sender's socket
# charge as far as the tbf.

ALL_TESTS="classify band_limit band_order socket_release tx_timestamps multiqueue root_only
	   attach_kinds tunnel_wire foreign_control_is_data"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc ethtool
# socket_release needs a sender faster than 5 Mb/s (lib.sh: the debug lane);
# band_order reads the bands 0.2 s after the XON, which must come before
# band 0's 800 ms of shaped drain is over (the debug kernel took longer).
# After lib.sh, which starts it empty.
RETRY_TIMING=1
TIMING_CASES="socket_release band_order"

setup_prepare()
{
	setup_ns A B C
	no_ipv6 "$A" || return 1
	veth_pair "$A" a0 "$B" b0
	veth_pair "$B" b1 "$C" c0
	ip -n "$B" link add name br0 type bridge
	ip -n "$B" link set b0 master br0
	ip -n "$B" link set b1 master br0
	ip -n "$B" link set br0 up
	ip -n "$A" addr add 198.18.0.1/24 dev a0
	ip -n "$C" addr add 198.18.0.3/24 dev c0
	MAC_A=$(mac_of "$A" a0)
	MAC_B=$(mac_of "$B" b0)
	ip -n "$A" neigh add 198.18.0.2 lladdr "$MAC_B" dev a0 nud permanent
	ip -n "$A" neigh add 198.18.0.3 lladdr "$(mac_of "$C" c0)" dev a0 nud permanent
	ip -n "$C" neigh add 198.18.0.1 lladdr "$MAC_A" dev c0 nud permanent
	ip -n "$A" link add link a0 name a0.10 type vlan id 10 egress-qos-map 0:4
	ip -n "$A" addr add 198.18.10.1/24 dev a0.10
	ip -n "$A" link set a0.10 up
	ip -n "$A" neigh add 198.18.10.2 lladdr "$MAC_B" dev a0.10 nud permanent
	ip netns exec "$A" tc qdisc add dev a0 root flowctl || return 1
}

# tx_delta CMD...: run CMD, leave per-priority tx_packets deltas in TXD[].
TXD=()
tx_delta()
{
	local before after p

	before=$(fc "$A" -j -s show dev a0 | jq -c '[.[0].prio[].tx_packets]')
	"$@" >/dev/null
	sleep 0.2
	after=$(fc "$A" -j -s show dev a0 | jq -c '[.[0].prio[].tx_packets]')
	for p in 0 1 2 3 4 5 6 7; do
		TXD[$p]=$(( $(echo "$after" | jq ".[$p]") - $(echo "$before" | jq ".[$p]") ))
	done
}

# send20 ADDR PORT [OPTS...]: 20 datagrams, one per millisecond.
send20()
{
	local addr=$1 port=$2

	shift 2
	ip netns exec "$A" "$FCTEST" send "$addr" "$port" 1000 20 "$@"
}

# ipv6_hex TCLASS: an Ethernet frame from a0 to b0 carrying IPv6 with that
# traffic class and an empty UDP datagram.
ipv6_hex()
{
	printf '%s%s86dd%08x0008114020010002%s0120010002%s02%s' "${MAC_B//:/}" "${MAC_A//:/}" \
		$(((6 << 28) | ($1 << 20))) "$(printf '%0*d' 22 0)" "$(printf '%0*d' 22 0)" \
		1b581b5800080000
}

classify()
{
	local tagged

	fc "$A" set dev a0 trust pcp
	tx_delta send20 198.18.0.2 7000 prio 6
	check_eq "${TXD[6]}" 20 "SO_PRIORITY 6 -> band 6"
	tx_delta send20 198.18.0.2 7000 prio 9
	check_eq "${TXD[0]}" 20 "skb->priority 9 (above 7) -> band 0"
	# IP_TOS also sets the socket priority: "prio" after "tos" resets it.
	tx_delta send20 198.18.0.2 7000 tos 0xb8 prio 0
	check_eq "${TXD[0]}" 20 "DSCP 46 with trust pcp -> band 0 (skb->priority)"
	fc "$A" set dev a0 trust dscp
	tx_delta send20 198.18.0.2 7000 tos 0xb8 prio 0
	check_eq "${TXD[5]}" 20 "DSCP 46 (EF) with trust dscp -> band 5 (46 >> 3)"
	tx_delta send20 198.18.0.2 7000 tos 0x28 prio 7
	check_eq "${TXD[1]}" 20 "DSCP 10 (AF11) with trust dscp -> band 1, not skb->priority 7"
	# Through the VLAN device: egress-qos-map 0:4 gives PCP 4 (an
	# accelerated tag: veth offloads VLAN insertion).
	tx_delta send20 198.18.10.2 7000 tos 0xb8 prio 0
	check_eq "${TXD[4]}" 20 "VLAN PCP 4 (accelerated tag) wins over DSCP"
	# A tag in the payload: a raw frame with TPID 0x8100, PCP 2.
	tagged="${MAC_B//:/}${MAC_A//:/}8100400a0800$(printf '%0*d' 92 0)"
	tx_delta ip netns exec "$A" "$FCTEST" raw a0 "$tagged" count 20
	check_eq "${TXD[2]}" 20 "VLAN PCP 2 in the payload -> band 2"
	# IPv6: DSCP is the upper six bits of the traffic class. Raw frames
	# (A has no IPv6 stack: its chatter would land in the bands counted
	# here), 2001:2::1 -> 2001:2::2 (RFC 5180's benchmarking range), UDP.
	fc "$A" set dev a0 trust dscp
	tx_delta ip netns exec "$A" "$FCTEST" raw a0 "$(ipv6_hex 0xb8)" count 20
	check_eq "${TXD[5]}" 20 "IPv6 traffic class 0xb8 (DSCP 46) with trust dscp -> band 5"
	tx_delta ip netns exec "$A" "$FCTEST" raw a0 "$(ipv6_hex 0x28)" count 20
	check_eq "${TXD[1]}" 20 "IPv6 traffic class 0x28 (DSCP 10) with trust dscp -> band 1"
	fc "$A" set dev a0 trust pcp
	tx_delta ip netns exec "$A" "$FCTEST" raw a0 "$(ipv6_hex 0xb8)" count 20
	check_eq "${TXD[0]}" 20 "IPv6 DSCP 46 with trust pcp -> band 0"
	log_test "priority from PCP (accelerated and in-band), DSCP (IPv4 and IPv6), skb->priority"
}

band_limit()
{
	local s drops backlog tcs

	# 4096 bytes per band; each datagram is 14+20+8+64 = 106 bytes, so 38
	# fit. Pause the port, offer 100, read the state, let it go.
	# At 10 Mb/s, 65535 quanta last 3.4 s: time enough to look.
	fc "$A" set dev a0 limit 4096 speed 10 mode pause
	fc "$A" stats reset dev a0
	ip netns exec "$A" tc -s qdisc show dev a0 >/dev/null
	local d0
	d0=$(ip netns exec "$A" tc -j -s qdisc show dev a0 | jq '.[0].drops')
	# The partner refreshes its PAUSE every second while we look (a slow
	# kernel can take longer than 3.4 s over the sending and the looking).
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)" \
		count 120 interval-us 1000000 &
	local refresh=$!
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 7001 100 100 >/dev/null
	s=$(fc "$A" -j -s show dev a0)
	tcs=$(ip netns exec "$A" tc -j -s qdisc show dev a0)
	check_eq "$(echo "$s" | jq '.[0].prio[0].paused')" true "band 0 paused"
	check_eq "$(echo "$s" | jq '.[0].prio[0].backlog_packets')" 38 "band 0 backlog (packets)"
	check_eq "$(echo "$s" | jq '.[0].prio[0].backlog_bytes')" $((38 * 106)) "band 0 backlog (bytes)"
	check_eq "$(echo "$s" | jq '.[0].prio[0].drops')" 62 "band 0 tail drops"
	check_eq "$(echo "$tcs" | jq '.[0].backlog')" $((38 * 106)) "tc backlog (bytes)"
	check_eq "$(echo "$tcs" | jq '.[0].qlen')" 38 "tc qlen"
	check_eq "$(( $(echo "$tcs" | jq '.[0].drops') - d0 ))" 62 "tc drops"
	kill $refresh
	wait $refresh 2>/dev/null
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)"
	sleep 0.2
	s=$(fc "$A" -j -s show dev a0)
	tcs=$(ip netns exec "$A" tc -j -s qdisc show dev a0)
	check_eq "$(echo "$s" | jq '.[0].prio[0].backlog_packets')" 0 "backlog after XON"
	check_eq "$(echo "$s" | jq '.[0].prio[0].tx_packets')" 38 "band 0 sent after XON"
	check_eq "$(echo "$tcs" | jq '.[0].backlog')" 0 "tc backlog after XON"
	fc "$A" set dev a0 limit 1m speed auto
	log_test "byte limit per band, tail drop counted, tc -s statistics"
}

# drain_order MAP: with a0 paused (the partner refreshing its PAUSE every
# second, so that a slow kernel's sending cannot outlast it), 20 datagrams
# at priority 1, then 20 at priority 0; XON, and the shaper (200 kbit/s:
# 40 ms a datagram) drains them. Prints the backlogs of bands 0 and 1 just
# before the XON, then 0.2 s after it.
drain_order()
{
	local s refresh

	fc "$A" set dev a0 prio-tc "$1" speed 10 rate 200kbit mode pause
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)" \
		count 120 interval-us 1000000 &
	refresh=$!
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 7003 0 20 size 1000 prio 1 >/dev/null
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 7003 0 20 size 1000 prio 0 >/dev/null
	kill $refresh
	wait $refresh 2>/dev/null
	s=$(fc "$A" -j -s show dev a0)
	echo "$s" | jq -r '"\(.[0].prio[0].backlog_packets) \(.[0].prio[1].backlog_packets) "' |
		tr -d '\n'
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)"
	sleep 0.2
	s=$(fc "$A" -j -s show dev a0)
	echo "$s" | jq -r '"\(.[0].prio[0].backlog_packets) \(.[0].prio[1].backlog_packets)"'
	for _ in $(seq 100); do	# until all drained
		[ "$(fc "$A" -j -s show dev a0 | jq '[.[0].prio[].backlog_packets] | add')" = 0 ] &&
			break
		sleep 0.1
	done
}

band_order()
{
	local p0 p1 b0 b1 TMPD

	TMPD=$(mktemp -d)

	check_eq "$(fc_get "$A" a0 '.prio_tc | map(tostring) | join(",")')" "1,0,2,3,4,5,6,7" \
		"default prio-tc (IEEE 802.1Q Table 8-5)"
	drain_order 8021q >"$TMPD/order"
	read -r p0 p1 b0 b1 <"$TMPD/order"
	log_info "802.1Q order: backlog before XON $p0/$p1, 0.2 s after: band 0 $b0, band 1 $b1"
	check_eq "$p0 $p1" "20 20" "both bands held before the XON (802.1Q order)"
	check_eq "$b1" 20 "band 1 (background) untouched while band 0 drains"
	[ "$b0" -lt 20 ]
	check_err $? "band 0 (best effort) not served first: backlog $b0"
	drain_order numeric >"$TMPD/order"
	read -r p0 p1 b0 b1 <"$TMPD/order"
	log_info "numeric order: before XON $p0/$p1, after: band 0 $b0, band 1 $b1"
	check_eq "$p0 $p1" "20 20" "both bands held before the XON (numeric)"
	check_eq "$b0" 20 "band 0 untouched while band 1 drains (prio-tc numeric)"
	[ "$b1" -lt 20 ]
	check_err $? "band 1 not served first with prio-tc numeric: backlog $b1"
	drain_order 0,0,0,0,0,0,0,0 >"$TMPD/order"
	read -r p0 p1 b0 b1 <"$TMPD/order"
	log_info "one class: before XON $p0/$p1, after: band 0 $b0, band 1 $b1"
	check_eq "$p0 $p1" "20 20" "both bands held before the XON (one class)"
	check_eq "$b0" 20 "one class for all: the higher priority (1) first"
	rm -rf "$TMPD"
	fc "$A" set dev a0 prio-tc 8021q rate off speed auto
	check_eq "$(fc_get "$A" a0 '.prio_tc | map(tostring) | join(",")')" "1,0,2,3,4,5,6,7" "prio-tc 8021q"
	log_test "bands served in IEEE 802.1Q order by default, prio-tc sets the order"
}

# offer QDISC: UDP as fast as the sender can, through a0 with QDISC, into
# a 5 Mb/s tbf on b1 whose queue (300 KB) is larger than the sender's
# socket buffer; prints the tbf's drops.
offer()
{
	ip netns exec "$A" tc qdisc replace dev a0 root "$@"
	ip netns exec "$B" tc qdisc replace dev b1 root tbf rate 5mbit burst 10kb limit 300kb
	ip netns exec "$C" "$FCTEST" recv 7002 1 >/dev/null &
	local r=$!
	sleep 0.3
	timeout 60 ip netns exec "$A" "$FCTEST" send 198.18.0.3 7002 0 2000 size 1000 \
		sndbuf 32768 >/dev/null
	wait $r
	ip netns exec "$B" tc -j -s qdisc show dev b1 | jq '.[0].drops'
	ip netns exec "$B" tc qdisc del dev b1 root
}

socket_release()
{
	local base drops

	# Baseline: pfifo_fast keeps each skb charged to its socket all the way
	# to the tbf two hops away, so the sender blocks and the tbf never
	# overflows: the veth artefact a flowctl port must not have.
	base=$(offer pfifo_fast)
	drops=$(offer flowctl)
	log_info "tbf drops: $base with pfifo_fast on a0, $drops with flowctl on a0"
	check_eq "$base" 0 "tbf drops with pfifo_fast (baseline)"
	[ "$drops" -gt 0 ] 2>/dev/null
	check_err $? "flowctl on a0 did not release skbs: no drops at the 5 Mb/s tbf"
	log_test "skbs are released from their socket at dequeue, like TX completion"
}

tx_timestamps()
{
	local base got

	# A socket asking for software TX timestamps gets one per datagram
	# through a flowctl port as through pfifo_fast (veth takes them in its
	# xmit; flowctl, which releases the socket before that, takes them as
	# it does).
	ip netns exec "$A" tc qdisc replace dev a0 root pfifo_fast
	base=$(ip netns exec "$A" "$FCTEST" tstamp 198.18.0.2 7005 20 | awk '{print $2}')
	ip netns exec "$A" tc qdisc replace dev a0 root flowctl
	got=$(ip netns exec "$A" "$FCTEST" tstamp 198.18.0.2 7005 20 | awk '{print $2}')
	log_info "software TX timestamps: $base of 20 with pfifo_fast, $got of 20 with flowctl"
	check_eq "$base" 20 "timestamps through pfifo_fast (baseline)"
	check_eq "$got" 20 "timestamps through flowctl"
	log_test "SO_TIMESTAMPING software TX timestamps through a flowctl port"
}

multiqueue()
{
	local mq

	setup_ns Q R
	ip link add name q0 netns "$Q" numtxqueues 4 numrxqueues 4 type veth \
		peer name r0 netns "$R" numtxqueues 4 numrxqueues 4
	ip -n "$Q" link set q0 up
	ip -n "$R" link set r0 up
	ip netns exec "$Q" tc qdisc add dev q0 root flowctl
	check_err $? "attach on a 4-queue veth failed"
	ip netns exec "$R" "$FCTEST" raw r0 "$(pause_hex "$(mac_of "$R" r0)" 100)"
	sleep 0.1
	check_eq "$(fc_get "$Q" q0 .stats.rx_pause)" 1 "PAUSE counted on a 4-queue veth"
	mq=$(ip netns exec "$Q" tc qdisc show dev q0 | head -n 1)
	echo "$mq" | grep -q 'qdisc flowctl'
	check_err $? "root qdisc is not flowctl: $mq"
	log_test "a multi-queue device"
}

root_only()
{
	local err

	# Under prio: refused with the reason, and nothing attached. (Under
	# mq a TX queue's child is welcome: mq.sh.)
	setup_ns P
	ip link add name p0 netns "$P" numtxqueues 4 type veth peer name p1 netns "$P"
	ip -n "$P" link set p0 up
	ip netns exec "$P" tc qdisc add dev p0 root handle 1: prio
	err=$(ip netns exec "$P" tc qdisc add dev p0 parent 1:1 flowctl 2>&1)
	check_fail $? "flowctl accepted under prio"
	echo "$err" | grep -q "root qdisc or a TX queue's under mq"
	check_err $? "refusal does not say why: $err"
	ip netns exec "$P" tc qdisc show dev p0 | grep -q flowctl
	check_fail $? "a flowctl qdisc is attached under prio"
	ip netns exec "$P" tc qdisc replace dev p0 root flowctl
	check_err $? "flowctl refused as root after the refusal"
	check_eq "$(fc "$P" -j show | jq 'length')" 1 "flowctl ports the CLI finds"
	log_test "flowctl under prio: refused, with the reason"
}

# PAUSE is link-local: flowctl attaches to one end of one link. Devices
# above links or across them are refused, each with the place to attach
# instead and nothing attached; the links under them (veth, tap, a bridge's
# port, a bond's slave, the real device of a VLAN or macvlan) are welcome.
attach_kinds()
{
	local k dev words err kinds

	modprobe tun 2>/dev/null
	[ -e /dev/net/tun ] || { mkdir -p /dev/net && mknod /dev/net/tun c 10 200; }
	setup_ns K
	ip -n "$K" link add name k0 type veth peer name k1
	ip -n "$K" link add name k2 type veth peer name k3
	ip -n "$K" link add name k4 type veth peer name k5
	ip -n "$K" addr add 198.18.5.1/24 dev k1
	# DEV|the words its refusal must hold|how to make it
	kinds="kbr|the bridge's ports|type bridge
kbond|each slave of the bond|type bond mode 802.3ad
kteam|each slave of the bond or team|type team
k0.5|the VLAN's real device|link k0 type vlan id 5
kmv|the lower device|link k0 type macvlan mode bridge
kmvt|the lower device|link k0 type macvtap mode bridge
kipv|the lower device|link k1 type ipvlan mode l2
kms|the lower device|link k3 type macsec
kvrf|its ports|type vrf table 10
kvx|the underlay's ports|type vxlan id 42 local 198.18.5.1 remote 198.18.5.2 dstport 4789
kgn|the underlay's ports|type geneve id 42 remote 198.18.5.2
kgt|the underlay's ports|type gretap local 198.18.5.1 remote 198.18.5.2
kes|the underlay's ports|type erspan local 198.18.5.1 remote 198.18.5.2 seq key 10 erspan_ver 1 erspan 123"
	while IFS='|' read -r dev words k; do
		# shellcheck disable=SC2086
		if ! ip -n "$K" link add name "$dev" $k; then
			check_err 1 "cannot make $dev ($k)"
			continue
		fi
		err=$(ip netns exec "$K" tc qdisc add dev "$dev" root flowctl 2>&1)
		check_fail $? "flowctl attached to $dev ($k)"
		echo "$err" | grep -qF "attach flowctl to $words"
		check_err $? "$dev ($k): the refusal does not name $words: $err"
		ip netns exec "$K" tc qdisc show dev "$dev" | grep -q flowctl
		check_fail $? "a flowctl qdisc is on $dev after the refusal"
	done <<<"$kinds"
	# Welcome: the links themselves, whatever sits above them.
	ip -n "$K" link set k2 master kbr
	ip -n "$K" link set k4 master kbond
	ip -n "$K" tuntap add dev kt0 mode tap
	check_err $? "cannot make a tap"
	for dev in k0 k2 k4 kt0; do
		err=$(ip netns exec "$K" tc qdisc add dev "$dev" root flowctl 2>&1)
		check_err $? "flowctl refused on $dev: $err"
	done
	check_eq "$(fc "$K" -j show | jq -c '[.[].ifname] | sort')" '["k0","k2","k4","kt0"]' \
		"flowctl ports: the veth under a VLAN and a macvlan, a bridge port, a bond slave, a tap"
	log_test "attach: refused on a bridge, bond, team, VLAN, macvlan, ipvlan, macsec, VRF and tunnels, with the place to attach; welcome on the links under them"
}

# A vxlan between two namespaces over a veth underlay is a wire to one
# host: refused as it is, taken with tunnel-wire on, which is then fixed;
# a PAUSE sent into one end arrives at the other end's flowctl.
tunnel_wire()
{
	local err

	setup_ns V W
	veth_pair "$V" u0 "$W" u1
	ip -n "$V" addr add 198.18.6.1/24 dev u0
	ip -n "$W" addr add 198.18.6.2/24 dev u1
	ip -n "$V" link add name vx0 type vxlan id 42 local 198.18.6.1 remote 198.18.6.2 dstport 4789
	ip -n "$W" link add name vx1 type vxlan id 42 local 198.18.6.2 remote 198.18.6.1 dstport 4789
	ip -n "$V" link set vx0 up
	ip -n "$W" link set vx1 up
	err=$(ip netns exec "$V" tc qdisc add dev vx0 root flowctl 2>&1)
	check_fail $? "flowctl attached to a vxlan without tunnel-wire"
	echo "$err" | grep -qF "tunnel-wire on"
	check_err $? "the refusal does not name tunnel-wire: $err"
	err=$(ip netns exec "$V" tc qdisc add dev vx0 root flowctl tunnel-wire on 2>&1)
	check_err $? "flowctl refused on a vxlan with tunnel-wire on: $err"
	err=$(ip netns exec "$W" tc qdisc add dev vx1 root flowctl tunnel-wire on 2>&1)
	check_err $? "flowctl refused on a vxlan with tunnel-wire on: $err"
	check_eq "$(fc_get "$V" vx0 .tunnel_wire)" true "flowctl show: tunnel_wire"
	check_eq "$(ip netns exec "$V" tc -j qdisc show dev vx0 | jq '.[0].options.tunnel_wire')" true \
		"tc -j: tunnel_wire in the options"
	ip netns exec "$V" tc qdisc show dev vx0 | grep -q "tunnel-wire on"
	check_err $? "tc qdisc show does not print tunnel-wire on"
	err=$(fc "$V" set dev vx0 tunnel-wire off 2>&1)
	check_fail $? "tunnel-wire turned off while attached"
	echo "$err" | grep -qF "fixed while flowctl is attached"
	check_err $? "the refusal does not say tunnel-wire is fixed: $err"
	check_eq "$(fc_get "$V" vx0 .tunnel_wire)" true "tunnel_wire after the refused set"
	err=$(ip netns exec "$V" tc qdisc add dev u0 root flowctl tunnel-wire on 2>&1)
	check_fail $? "tunnel-wire on accepted on a veth"
	echo "$err" | grep -qF "tunnel-wire is for a vxlan"
	check_err $? "the refusal on a veth does not say what tunnel-wire is for: $err"
	fc "$W" stats reset dev vx1
	fc "$V" send dev vx0 pause 1000 >/dev/null
	check_err $? "flowctl send on vx0 failed"
	sleep 0.3
	check_eq "$(fc_get "$W" vx1 .stats.rx_pause)" 1 "PAUSE frames from vx0 at vx1's flowctl"
	log_test "tunnel-wire: a vxlan refused without it, taken with it, fixed while attached; PAUSE crosses it"
}

# A MAC Control frame that reaches the qdisc from the stack (a raw socket:
# here 50 PAUSE frames to the partner's group address) is data like any
# other: it waits in its band while the partner pauses the port. Only the
# port's own XOFF/XON and flowctl send (a socket that bypasses the qdisc)
# go to the driver directly, so no other sender can jump the gate.
foreign_control_is_data()
{
	local s refresh

	fc "$A" set dev a0 speed 10 mode pause
	fc "$A" stats reset dev a0
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)" \
		count 120 interval-us 1000000 &
	refresh=$!
	ip netns exec "$A" "$FCTEST" raw a0 "$(pause_hex "$MAC_A" 1)" count 50
	check_err $? "cannot send from a raw socket on a0"
	s=$(fc "$A" -j -s show dev a0)
	check_eq "$(echo "$s" | jq '.[0].prio[0].paused')" true "band 0 paused (precondition)"
	check_eq "$(echo "$s" | jq '.[0].prio[0].backlog_packets')" 50 \
		"0x8808 frames from a raw socket held in band 0 while paused"
	check_eq "$(echo "$s" | jq '.[0].prio[0].tx_packets')" 0 \
		"0x8808 frames from a raw socket sent while paused"
	kill $refresh
	wait $refresh 2>/dev/null
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)"
	sleep 0.3
	check_eq "$(fc_get "$A" a0 .prio[0].tx_packets)" 50 "sent after the XON"
	fc "$A" set dev a0 speed auto
	log_test "0x8808 frames from the stack are data: gated by a received PAUSE"
}

setup_prepare || setup_failed
run_tests
