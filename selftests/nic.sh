#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# flowctl on real drivers: the NIC pairs that scripts/vm-run --nic gives the
# VM (virtio-net, e1000e, igb, each pair joined back to back by a two-port
# qemu hub), one lab per pair, with the driver's own TX ring, link speed and
# receive filter in the path instead of veth's.
#
#   +-- ns H --+   NIC pair   +------------ ns S ------------+       +-- ns R --+
#   | a0       |==============| s0 (tx)     br0     s1 (rate) |=======| b0       |
#   | flowctl  | (the driver) | flowctl             flowctl   |  veth |          |
#   +----------+              +------------------------------+       +----------+
#   198.18.0.1                                                        198.18.0.2
#
# Per model M:
#   wire_M      the pair carries IP; attaching flowctl put 01:80:c2:00:00:01
#               in the NIC's multicast filter (virtio-net's filter is exact:
#               without the entry it drops every PAUSE; the Intel MACs hash
#               bytes 4-5, and 224.0.0.1's 01:00:5e:00:00:01, joined on
#               every IPv4 device, sets the same bit); the speed the driver
#               reports
#   filter_M    without flowctl, 10 PAUSE frames against the NIC's receive
#               filter: each passes once 01:80:c2:00:00:01 is joined;
#               virtio-net (an exact filter) drops them before
#   pause_M     a PAUSE built by scapy, sent by s0's driver, opens a gap of
#               its length in a0's stream; with rx off the same frame
#               opens none (the emulated MAC does not pause by itself)
#   pfc_M       PFC for priority 3 gaps that priority's stream only
#   lossless_M  the bridge's congested egress makes s0 send PAUSE through
#               the driver: no drop; its baseline (tx off) drops
#   gso_M       TCP (iperf3) from H to R: what a0's qdisc dequeues are GSO
#               packets of several frames each (bytes per packet > 1514),
#               cut into frames after flowctl; the driver's frame count
#               beside it (Documentation/nics.md)
#   doctor_M    (e1000e, igb: drivers with MAC flow control, rx-all and a
#               link speed) flowctl doctor finds the MAC's own pause on,
#               rx-all off and the speed flowctl was told that is not the
#               link's; running the fixes it printed clears each one, and a
#               PAUSE still gaps the stream
# Then default_qdisc: net.core.default_qdisc=flowctl gives each one-queue
# NIC a flowctl; a multiqueue one (igb) gets mq with a flowctl child on
# each TX queue, one port for the device, and the PAUSE it honors.
# And on veth: mc_filter, how the multicast filter entry comes and goes.

source "$(dirname "$0")/lib.sh"
require_cmd jq tc ip ethtool iperf3

# "MODEL,MAC,MAC ..." from vm-run --nic.
read -r -a PAIRS <<<"${FLOWCTL_NICS:-}"
MODELS=()
for p in "${PAIRS[@]}"; do
	MODELS+=("${p%%,*}")
done
ALL_TESTS="mc_filter"
for m in "${MODELS[@]}"; do
	ALL_TESTS+=" wire_$m filter_$m pause_$m pfc_$m lossless_$m gso_$m"
	[ "$m" = virtio ] || ALL_TESTS+=" doctor_$m"
done
[ ${#MODELS[@]} -gt 0 ] || ALL_TESTS+=" nic_pairs"
[ ${#MODELS[@]} -eq 0 ] || ALL_TESTS+=" default_qdisc"
RETRY_TIMING=1
TIMING_CASES=
for m in "${MODELS[@]}"; do
	TIMING_CASES+=" pause_$m pfc_$m lossless_$m"
done

SPEED=100		# quanta at 100 Mb/s: 5.12 us each
QUANTA=40000		# 204.8 ms
PAUSE_US=$((QUANTA * 512 / SPEED))
RATE_MBIT=20
TMP=$(mktemp -d)
declare -A H S R IF0 IF1 LAB_ERR

# lab M MAC0 MAC1: the namespaces of model M's lab, from its pair.
lab()
{
	local m=$1 mac0=$2 mac1=$3 i0 i1 h s r

	if ! i0=$(nic_of "$mac0") || ! i1=$(nic_of "$mac1"); then
		LAB_ERR[$m]="no interface has $mac0 or $mac1: is the $m driver in this kernel?"
		return 0
	fi
	IF0[$m]=$i0
	IF1[$m]=$i1
	setup_ns "H_$m" "S_$m" "R_$m" || return 1
	eval "h=\$H_$m s=\$S_$m r=\$R_$m"
	H[$m]=$h
	S[$m]=$s
	R[$m]=$r
	ip link set dev "$i0" netns "$h" || return 1
	ip -n "$h" link set dev "$i0" name a0 || return 1
	ip link set dev "$i1" netns "$s" || return 1
	ip -n "$s" link set dev "$i1" name s0 || return 1
	ip -n "$h" link set a0 up
	ip -n "$s" link set s0 up
	veth_pair "$s" s1 "$r" b0 || return 1
	ip -n "$s" link add name br0 type bridge
	ip -n "$s" link set s0 master br0
	ip -n "$s" link set s1 master br0
	ip -n "$s" link set br0 up
	ip -n "$h" addr add 198.18.0.1/24 dev a0
	ip -n "$r" addr add 198.18.0.2/24 dev b0
	ip -n "$h" neigh add 198.18.0.2 lladdr "$(mac_of "$r" b0)" dev a0 nud permanent
	ip -n "$r" neigh add 198.18.0.1 lladdr "$(mac_of "$h" a0)" dev b0 nud permanent
	# tc's words at attach: the kernel warns when the MAC's pause is on.
	ip netns exec "$h" tc qdisc add dev a0 root flowctl 2>"$TMP/attach-$m" || return 1
	ip netns exec "$s" tc qdisc add dev s0 root flowctl || return 1
	ip netns exec "$s" tc qdisc add dev s1 root flowctl || return 1
	fc "$s" set dev s1 rate ${RATE_MBIT}mbit || return 1
	# a0's line rate: 10 x the bottleneck (the lab's sending port is shaped,
	# as a wire is; the emulated NIC itself sends as fast as qemu runs).
	fc "$h" set dev a0 speed $SPEED rate $((10 * RATE_MBIT))mbit || return 1
	fc "$s" set dev s0 speed $SPEED xoff 500k xon 350k || return 1
}

setup_prepare()
{
	local p m

	for p in "${PAIRS[@]}"; do
		IFS=, read -r m mac0 mac1 <<<"$p"
		lab "$m" "$mac0" "$mac1" || return 1
	done
}

# has_lab M: the lab of M exists, or the case fails saying why not.
has_lab()
{
	[ -z "${LAB_ERR[$1]:-}" ] && return 0
	check_err 1 "${LAB_ERR[$1]}"
	return 1
}

nic_pairs()
{
	log_skip "NICs of real drivers" "no NIC pairs in this VM (scripts/vm-run --nic virtio --nic e1000e --nic igb; make check gives them)"
}

# maddr NS DEV: does DEV's multicast list hold the PAUSE address?
maddr()
{
	ip -n "$1" maddr show dev "$2" | grep -q '01:80:c2:00:00:01'
}

mc_filter()
{
	setup_ns V
	veth_pair "$V" v0 "$V" v1
	maddr "$V" v0
	check_fail $? "01:80:c2:00:00:01 on v0 before flowctl"
	ip netns exec "$V" tc qdisc add dev v0 root flowctl
	maddr "$V" v0
	check_err $? "attaching flowctl did not add 01:80:c2:00:00:01 to v0's multicast list"
	ip netns exec "$V" tc qdisc del dev v0 root
	maddr "$V" v0
	check_fail $? "01:80:c2:00:00:01 still on v0 after flowctl went"
	# A user's own entry is counted apart from flowctl's.
	ip -n "$V" maddr add 01:80:c2:00:00:01 dev v0
	ip netns exec "$V" tc qdisc add dev v0 root flowctl
	ip netns exec "$V" tc qdisc del dev v0 root
	maddr "$V" v0
	check_err $? "flowctl's detach took the user's own 01:80:c2:00:00:01 entry"
	ip -n "$V" maddr del 01:80:c2:00:00:01 dev v0
	log_test "attach joins 01:80:c2:00:00:01 (the NIC's filter passes PAUSE), detach leaves it, a user's entry stays"
}

wire()
{
	local m=$1 h s drv spd src

	has_lab "$m" || { log_test "$m: the pair is a wire"; return; }
	h=${H[$m]} s=${S[$m]}
	drv=$(ip netns exec "$h" ethtool -i a0 | awk '/^driver:/ {print $2}')
	log_info "$m: a0 is ${IF0[$m]}, s0 is ${IF1[$m]}, driver $drv"
	case $m in
	virtio) check_eq "$drv" virtio_net "a0's driver" ;;
	*) check_eq "$drv" "$m" "a0's driver" ;;
	esac
	ip netns exec "$h" ping -c 3 -i 0.2 -W 2 198.18.0.2 >/dev/null
	check_err $? "no ping across the $m pair and the bridge"
	maddr "$h" a0
	check_err $? "01:80:c2:00:00:01 not in a0's multicast list"
	log_info "$m: $(fc "$h" -s show dev a0 | grep '^  nic:')"
	# flowctl answers what the driver lacks (dcb.md): DCB on all three,
	# ethtool's pause only where the driver has none.
	check_eq "$(fc "$h" -j show dev a0 | jq -c '.[0].doors')" \
		"{\"ethtool_pause\":$([ "$m" = virtio ] && echo true || echo false),\"dcb\":true}" \
		"$m: the doors flowctl answers"
	check_eq "$(ip netns exec "$h" dcb -j pfc show dev a0 | jq '.pfc_cap')" 8 "$m: dcb pfc show"
	if [ "$m" = virtio ]; then
		check_eq "$(fc "$h" -j -s show dev a0 | jq -c '.[0].nic.pause')" null \
			"virtio: show -s's nic has no MAC pause"
		check_eq "$(cat "$TMP/attach-$m")" "" "virtio: tc's words at attach (no MAC pause)"
	else
		# The driver's default: the MAC's own pause on, said at attach.
		grep -q "^Warning: flowctl: the MAC's own pause is on" "$TMP/attach-$m"
		check_err $? "$m: tc did not warn of the MAC's pause at attach: '$(cat "$TMP/attach-$m")'"
		dmesg | grep -q " $m .* a0: flowctl: the MAC's own pause is on (autoneg on rx on tx on)"
		check_err $? "$m: no kernel log line of the MAC's pause at attach"
	fi
	maddr "$s" s0
	check_err $? "01:80:c2:00:00:01 not in s0's multicast list"
	spd=$(fc "$h" -j show dev a0 | jq -r '.[0].speed_mbps')
	src=$(fc "$h" -j show dev a0 | jq -r '.[0].speed_source')
	log_info "$m: a0's quanta speed $spd Mb/s ($src); ethtool: $(ip netns exec "$h" ethtool a0 2>/dev/null |
		awk '/Speed:|Duplex:/ {printf "%s %s ", $1, $2}')"
	log_test "$m: the pair is a wire, flowctl on both ends, the PAUSE address in both NICs' filters"
}

# waitgrep WORD FILE SECONDS: until FILE holds WORD; 1 if it never does.
waitgrep()
{
	local i

	for ((i = 0; i < $3 * 20; i++)); do
		grep -q "$1" "$2" 2>/dev/null && return 0
		sleep 0.05
	done
	log_info "no \"$1\" in $2 after $3 s: $(cat "$2" 2>/dev/null)"
	return 1
}

# rx_packets NS DEV: what the driver passed up.
rx_packets()
{
	ip -n "$1" -j -s link show dev "$2" | jq '.[0].stats64.rx.packets'
}

filter()
{
	local m=$1 h s hex r0 r1 r2

	has_lab "$m" || { log_test "$m: the receive filter and the PAUSE address"; return; }
	h=${H[$m]} s=${S[$m]}
	hex=$(pause_hex "$(mac_of "$s" s0)" 1)
	ip netns exec "$h" tc qdisc del dev a0 root
	maddr "$h" a0
	check_fail $? "$m: 01:80:c2:00:00:01 on a0 with no flowctl"
	r0=$(rx_packets "$h" a0)
	ip netns exec "$s" "$FCTEST" raw s0 "$hex" count 10 interval-us 1000
	sleep 0.3
	r1=$(rx_packets "$h" a0)
	ip -n "$h" maddr add 01:80:c2:00:00:01 dev a0
	ip netns exec "$s" "$FCTEST" raw s0 "$hex" count 10 interval-us 1000
	sleep 0.3
	r2=$(rx_packets "$h" a0)
	ip -n "$h" maddr del 01:80:c2:00:00:01 dev a0
	log_info "$m: the driver passed up $((r1 - r0)) of 10 PAUSE frames without 01:80:c2:00:00:01 in its filter, $((r2 - r1)) with it"
	[ $((r2 - r1)) -ge 10 ]
	check_err $? "$m: $((r2 - r1)) of 10 PAUSE frames reached the host with the address joined"
	if [ "$m" = virtio ]; then
		[ $((r1 - r0)) -lt 5 ]
		check_err $? "virtio: $((r1 - r0)) of 10 PAUSE frames passed an exact filter that does not hold the address"
	fi
	ip netns exec "$h" tc qdisc add dev a0 root flowctl &&
		fc "$h" set dev a0 speed $SPEED rate $((10 * RATE_MBIT))mbit
	check_err $? "$m: flowctl back on a0"
	log_test "$m: the NIC's receive filter passes PAUSE once 01:80:c2:00:00:01 is joined"
}

# stream M "PORT:PRIO ..." HEX: one UDP stream per PORT:PRIO from H to R for
# about 1.5 s; HEX leaves s0 300 ms after every stream flows. GAP[PORT]:
# each stream's longest gap (us); START[PORT]: when that gap began (its
# last datagram before reached R), in us after HEX left s0 (wall clock).
declare -A GAP START
stream()
{
	local m=$1 flows=$2 hex=$3 f port prio pids=() rpids=()
	local h=${H[$m]} s=${S[$m]} r=${R[$m]}

	GAP=()
	START=()
	for f in $flows; do
		port=${f%%:*}
		rm -f "$TMP/r.$port"
		ip netns exec "$r" "$FCTEST" recv "$port" 1 min-gap-us 2000 >"$TMP/r.$port" &
		rpids+=($!)
	done
	for f in $flows; do
		waitgrep ready "$TMP/r.${f%%:*}" 10 || check_err 1 "$m: the receiver did not start"
	done
	for f in $flows; do
		port=${f%%:*}
		prio=${f##*:}
		ip netns exec "$h" "$FCTEST" send 198.18.0.2 "$port" 500 3000 prio "$prio" \
			>/dev/null &
		pids+=($!)
	done
	for f in $flows; do
		waitgrep first "$TMP/r.${f%%:*}" 35 || check_err 1 "$m: no datagram reached R"
	done
	ip netns exec "$s" "$FCTEST" seq s0 300000 "$hex" >"$TMP/seq"
	wait "${pids[@]}" "${rpids[@]}"
	for f in $flows; do
		port=${f%%:*}
		GAP[$port]=$(awk '/^packets/ {print $4}' "$TMP/r.$port")
		START[$port]=$(awk -v len="${GAP[$port]}" -v sent="$(awk '/^sent/ {print $4}' "$TMP/seq")" \
			'$1 == "gap" && $3 == len { print $2 - sent; exit }' "$TMP/r.$port")
	done
}

# check_gap US WHAT: a pause's gap, -10 ms .. +25 ms of PAUSE_US. rx_pause.sh
# allows -1.5 ms over veth; here a datagram the driver took before the gate
# closed can reach R late: it waits in the NIC's TX queue for qemu to send
# it (virtio's queue is served by qemu's main loop, late under TCG), then
# in the other NIC's receive path. Seen: 198.2 ms (virtio, 6.1) and 202.3
# ms (virtio, 6.12) for 204.8; a frame with rx off gaps nothing past 11 ms.
check_gap()
{
	check_range "$1" $((PAUSE_US - 10000)) $((PAUSE_US + 25000)) "$2"
}

pause()
{
	local m=$1 h s hex rx0 rx1 ign0 ign1

	has_lab "$m" || { log_test "$m: PAUSE through the driver"; return; }
	h=${H[$m]} s=${S[$m]}
	hex=$(scapy_pause_hex "$(mac_of "$s" s0)" $QUANTA)
	fc "$h" set dev a0 mode pause rx on
	rx0=$(fc_get "$h" a0 .stats.rx_pause)
	stream "$m" "9001:0" "$hex"
	rx1=$(fc_get "$h" a0 .stats.rx_pause)
	log_info "$m: rx on: gap ${GAP[9001]} us for a ${PAUSE_US} us PAUSE, from ${START[9001]:-?} us after it left s0; rx_pause $rx0 -> $rx1"
	check_eq $((rx1 - rx0)) 1 "PAUSE frames a0 counted"
	check_gap "${GAP[9001]}" "$m: the gap a PAUSE opened"
	# The same frame with rx off: counted as ignored, no gap. So the gap
	# is flowctl's, not the emulated MAC's.
	fc "$h" set dev a0 rx off
	ign0=$(fc_get "$h" a0 .stats.rx_ignored)
	stream "$m" "9001:0" "$hex"
	ign1=$(fc_get "$h" a0 .stats.rx_ignored)
	log_info "$m: rx off: longest gap ${GAP[9001]} us; rx_ignored $ign0 -> $ign1"
	check_eq $((ign1 - ign0)) 1 "PAUSE frames a0 ignored with rx off"
	[ "${GAP[9001]}" -lt 100000 ]
	check_err $? "$m: a ${GAP[9001]} us gap with rx off: something else paused a0"
	fc "$h" set dev a0 rx on
	log_test "$m: a scapy PAUSE through the driver gaps a0's stream for its length; with rx off it does not"
}

pfc()
{
	local m=$1 h s hex

	has_lab "$m" || { log_test "$m: PFC through the driver"; return; }
	h=${H[$m]} s=${S[$m]}
	# Priority 3 for QUANTA, the others not named.
	hex=$(scapy_pfc_hex "$(mac_of "$s" s0)" -1 -1 -1 $QUANTA -1 -1 -1 -1)
	fc "$h" set dev a0 mode pfc pfc-prios all rx on
	stream "$m" "9003:3 9000:0" "$hex"
	log_info "$m: priority 3 gap ${GAP[9003]} us, priority 0 gap ${GAP[9000]} us (PFC for 3: ${PAUSE_US} us)"
	check_gap "${GAP[9003]}" "$m: the gap PFC opened on priority 3"
	[ "${GAP[9000]}" -lt 100000 ]
	check_err $? "$m: priority 0 stalled ${GAP[9000]} us under a PFC frame for priority 3"
	fc "$h" set dev a0 mode pause
	log_test "$m: PFC for priority 3 through the driver gaps that priority alone"
}

# offer M: 3000 datagrams of 1400 B as fast as a0's rate lets into s1's
# 20 Mb/s; DROPS at s1, GOT at R, s0's PAUSE sent, a0's received.
offer()
{
	local m=$1 h=${H[$1]} s=${S[$1]} r=${R[$1]} d0 d1 rp

	fc "$s" stats reset dev s0
	fc "$h" stats reset dev a0
	d0=$(ip netns exec "$s" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	ip netns exec "$r" "$FCTEST" recv 9100 2 >"$TMP/r" &
	rp=$!
	waitgrep ready "$TMP/r" 10 || check_err 1 "$m: the receiver did not start"
	timeout 120 ip netns exec "$h" "$FCTEST" send 198.18.0.2 9100 0 3000 size 1400 >/dev/null
	wait $rp
	d1=$(ip netns exec "$s" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	DROPS=$((d1 - d0))
	GOT=$(awk '/^packets/ {print $2}' "$TMP/r")
	S0_TX=$(fc_get "$s" s0 .stats.tx_pause)
	A0_RX=$(fc_get "$h" a0 .stats.rx_pause)
	log_info "$m: drops at s1 $DROPS, received $GOT/3000; s0 sent PAUSE $S0_TX, a0 received $A0_RX"
}

lossless()
{
	local m=$1 s

	has_lab "$m" || { log_test "$m: lossless across the driver"; return; }
	s=${S[$m]}
	fc "$s" set dev s0 tx off
	offer "$m"
	[ "$DROPS" -gt 0 ]
	check_err $? "$m: no drop with tx off: the lab does not congest, so it proves nothing"
	check_eq "$S0_TX" 0 "$m: PAUSE sent with tx off"
	fc "$s" set dev s0 tx on mode pause
	offer "$m"
	check_eq "$DROPS" 0 "$m: drops at s1 with s0's PAUSE"
	check_eq "$GOT" 3000 "$m: datagrams received"
	[ "$S0_TX" -gt 0 ]
	check_err $? "$m: s0 sent no PAUSE"
	check_eq "$A0_RX" "$S0_TX" "$m: PAUSE received by a0 vs sent by s0's driver"
	fc "$s" set dev s0 tx off
	log_test "$m: s0 sends PAUSE through the driver: no drop (tx off, the baseline, drops)"
}

# a0_sent NS: "PACKETS BYTES" a0's flowctl qdisc sent (all priorities).
a0_sent()
{
	fc "$1" -j -s show dev a0 |
		jq -r '[([.[0].prio[].tx_packets] | add), ([.[0].prio[].tx_bytes] | add)] | @tsv'
}

# gso M: a TCP stream from H to R. The stack hands a0's qdisc GSO packets
# of several MSS each; the driver (TSO) or the stack (GSO, after the qdisc)
# cuts them into frames. One packet dequeued just before a gate closes so
# puts all its frames on the wire after it: the headroom must hold them.
gso()
{
	local m=$1 h r p0 b0 p1 b1 f0 f1 pkts bytes frames sp rc off

	has_lab "$m" || { log_test "$m: TCP through the driver"; return; }
	h=${H[$m]} r=${R[$m]}
	off=$(ip netns exec "$h" ethtool -k a0 |
		awk '/^(tcp-segmentation-offload|generic-segmentation-offload):/ {printf "%s %s ", $1, $2}')
	ip netns exec "$r" iperf3 -s -1 -B 198.18.0.2 >/dev/null 2>&1 &
	sp=$!
	sleep 1
	read -r p0 b0 <<<"$(a0_sent "$h")"
	f0=$(ip -n "$h" -j -s link show dev a0 | jq '.[0].stats64.tx.packets')
	ip netns exec "$h" iperf3 -c 198.18.0.2 -t 3 -J >"$TMP/iperf-$m.json" 2>&1
	rc=$?
	check_err $rc "$m: iperf3 from H to R failed: $(tail -n 3 "$TMP/iperf-$m.json")"
	[ $rc -eq 0 ] || kill $sp 2>/dev/null
	wait $sp 2>/dev/null
	read -r p1 b1 <<<"$(a0_sent "$h")"
	f1=$(ip -n "$h" -j -s link show dev a0 | jq '.[0].stats64.tx.packets')
	pkts=$((p1 - p0)) bytes=$((b1 - b0)) frames=$((f1 - f0))
	log_info "$m: TCP for 3 s ($off): a0's qdisc sent $pkts packets, $bytes bytes ($((bytes / (pkts > 0 ? pkts : 1))) B a packet); the driver counted $frames; iperf3: $(jq -r '(.end.sum_received.bits_per_second // 0) / 1e6 | round' "$TMP/iperf-$m.json" 2>/dev/null) Mb/s received"
	[ "$pkts" -gt 0 ] && [ $((bytes / pkts)) -gt 1514 ]
	check_err $? "$m: no GSO packet at the qdisc: $pkts packets, $bytes bytes"
	log_test "$m: TCP through the driver: the qdisc dequeues GSO packets of several frames"
}

# findings NS DEV: the ids of flowctl doctor's findings on DEV, sorted.
findings()
{
	fc "$1" -j doctor dev "$2" interval 0.2 2>/dev/null |
		jq -r '[.findings[].id] | sort | join(" ")'
}

doctor()
{
	local m=$1 h f before after fixes hex rx0 rx1

	has_lab "$m" || { log_test "$m: flowctl doctor on the driver"; return; }
	h=${H[$m]}
	# What the lab set (speed 100 for quanta) and the driver's defaults.
	before=$(findings "$h" a0)
	log_info "$m: ethtool -a: $(ip netns exec "$h" ethtool -a a0 2>/dev/null | awk 'NR > 1 {printf "%s ", $0}')"
	log_info "$m: findings before: $before"
	for f in hw-pause-on rx-all-off speed-mismatch; do
		[[ " $before " == *" $f "* ]]
		check_err $? "$m: doctor did not find $f"
	done
	# show -s says the same of the driver (its own pause, rx-all).
	check_eq "$(fc "$h" -j -s show dev a0 | jq -c '.[0].nic | [.pause.autoneg, .pause.rx, .pause.tx, .rx_all]')" \
		"[true,true,true,false]" "$m: show -s's nic before the fixes"
	# Run each fix doctor printed for those three, as a user would.
	fixes=$(fc "$h" -j doctor dev a0 interval 0.2 2>/dev/null |
		jq -r '.findings[] | select(.id == "hw-pause-on" or .id == "rx-all-off" or .id == "speed-mismatch") | .fix')
	while read -r f; do
		[ -n "$f" ] || continue
		log_info "$m: fix: $f"
		ip netns exec "$h" $f >/dev/null
		check_err $? "$m: doctor's fix failed: $f"
	done <<<"$fixes"
	after=$(findings "$h" a0)
	log_info "$m: findings after: $after; ethtool -a: $(ip netns exec "$h" ethtool -a a0 2>/dev/null | awk 'NR > 1 {printf "%s ", $0}')"
	for f in hw-pause-on rx-all-off speed-mismatch; do
		[[ " $after " != *" $f "* ]]
		check_err $? "$m: $f is still there after its fix"
	done
	check_eq "$(fc "$h" -j -s show dev a0 | jq -c '.[0].nic | [.pause.autoneg, .pause.rx, .pause.tx, .rx_all]')" \
		"[false,false,false,true]" "$m: show -s's nic after the fixes"
	log_info "$m: $(fc "$h" -s show dev a0 | grep '^  nic:')"
	check_eq "$(fc "$h" -j show dev a0 | jq -r '.[0] | "\(.speed_mbps) \(.speed_source)"')" \
		"$((10 * RATE_MBIT)) rate" "$m: a0's quanta speed after speed auto (the line rate wins over ethtool's)"
	# With the MAC's pause off and rx-all on, PAUSE still reaches flowctl.
	hex=$(scapy_pause_hex "$(mac_of "${S[$m]}" s0)" 8000)
	rx0=$(fc_get "$h" a0 .stats.rx_pause)
	ip netns exec "${S[$m]}" "$FCTEST" raw s0 "$hex" count 1
	sleep 0.2
	rx1=$(fc_get "$h" a0 .stats.rx_pause)
	check_eq $((rx1 - rx0)) 1 "$m: PAUSE frames a0 counted after the fixes"
	# Attached again with the MAC's pause off: tc says nothing.
	ip netns exec "$h" tc qdisc del dev a0 root
	check_eq "$(ip netns exec "$h" tc qdisc add dev a0 root flowctl 2>&1)" "" \
		"$m: tc's words attaching flowctl with the MAC's pause off"
	fc "$h" set dev a0 speed $SPEED rate $((10 * RATE_MBIT))mbit
	log_test "$m: flowctl doctor finds the MAC's pause, rx-all off and a wrong speed on the driver; its fixes clear them"
}

for m in "${MODELS[@]}"; do
	eval "doctor_$m() { doctor $m; }; filter_$m() { filter $m; }"
	eval "wire_$m() { wire $m; }; pause_$m() { pause $m; }"
	eval "pfc_$m() { pfc $m; }; lossless_$m() { lossless $m; }; gso_$m() { gso $m; }"
done

# default_qdisc: with net.core.default_qdisc=flowctl, the default the kernel
# attaches (here after the root is deleted) is flowctl on a device with one
# TX queue. A device with several gets mq, with the default as each
# queue's child: a flowctl on each queue, sharing the device's port. Each
# qdisc holds a module reference, so the module's count says how many
# flowctls there are.
default_qdisc()
{
	local m h saved nq nreal r0 r1 kind

	saved=$(sysctl -n net.core.default_qdisc)
	for m in "${MODELS[@]}"; do
		has_lab "$m" || continue
		h=${H[$m]}
		nq=$(ip -n "$h" -j -d link show dev a0 | jq '.[0].num_tx_queues')
		# The queues in use (igb: one per CPU) take the default; mq gives
		# the others pfifo_fast.
		nreal=$(ip netns exec "$h" sh -c 'ls -d /sys/class/net/a0/queues/tx-*' | wc -l)
		r0=$(cat /sys/module/flowctl/refcnt)
		sysctl -qw net.core.default_qdisc=flowctl
		ip netns exec "$h" tc qdisc del dev a0 root
		sysctl -qw net.core.default_qdisc="$saved"
		r1=$(cat /sys/module/flowctl/refcnt)
		kind=$(ip netns exec "$h" tc -j qdisc show dev a0 | jq -r '.[0].kind')
		log_info "$m: $nq TX queues, $nreal in use: root $kind, flowctl qdiscs $((r1 - r0)) (+1 for the one deleted)"
		if [ "$nq" -eq 1 ]; then
			check_eq "$kind" flowctl "$m ($nq TX queue): the default root"
			check_eq "$((r1 - r0))" 0 "$m: flowctl qdiscs made by the default, less the one deleted"
			check_eq "$(fc "$h" -j show | jq -c '[.[].ifname]')" '["a0"]' "$m: ports listed"
		else
			check_eq "$kind" mq "$m ($nq TX queues): the default root"
			check_eq "$((r1 - r0))" $((nreal - 1)) "$m: flowctl qdiscs made by the default, less the one deleted"
			check_eq "$(ip netns exec "$h" tc -j qdisc show dev a0 |
				jq '[.[] | select(.kind == "flowctl")] | length')" "$nreal" \
				"$m: flowctl children of mq"
			check_eq "$(fc "$h" -j show | jq -c '[.[].ifname]')" '["a0"]' "$m: ports listed"
			# 65535 quanta at 10 Mb/s: 3.4 s paused.
			fc "$h" set dev a0 speed 10 mode pause rx on
			check_err $? "$m: flowctl set on the mq port"
			ip netns exec "${S[$m]}" "$FCTEST" raw s0 "$(pause_hex "$(mac_of "${S[$m]}" s0)" 65535)"
			sleep 0.1
			check_eq "$(fc_get "$h" a0 .stats.rx_pause)" 1 "$m: PAUSE frames the mq port counted"
			check_eq "$(fc_get "$h" a0 .prio[0].paused)" true "$m: the mq port paused"
			ip netns exec "${S[$m]}" "$FCTEST" raw s0 "$(pause_hex "$(mac_of "${S[$m]}" s0)" 0)"
		fi
		# The lab as it was.
		ip netns exec "$h" tc qdisc replace dev a0 root flowctl 2>/dev/null
		check_err $? "$m: flowctl back on a0"
		fc "$h" set dev a0 speed $SPEED rate $((10 * RATE_MBIT))mbit
	done
	sysctl -qw net.core.default_qdisc="$saved"
	log_test "default_qdisc=flowctl: flowctl on a one-queue NIC; on a multiqueue one, mq with flowctl children"
}

# give_back: each NIC to the VM's first namespace under its own name. A
# namespace deleted with a NIC in it sends it back as it is, named a0 or
# s0, and the next script's veth a0 would then clash with it.
give_back()
{
	local m

	for m in "${!IF0[@]}"; do
		[ -n "${H[$m]:-}" ] || continue
		ip -n "${S[$m]}" link set dev s0 nomaster 2>/dev/null
		ip -n "${H[$m]}" link set dev a0 down 2>/dev/null
		ip -n "${S[$m]}" link set dev s0 down 2>/dev/null
		ip -n "${H[$m]}" link set dev a0 name "${IF0[$m]}" netns 1 2>/dev/null
		ip -n "${S[$m]}" link set dev s0 name "${IF1[$m]}" netns 1 2>/dev/null
	done
}

cleanup()
{
	give_back
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed
run_tests
