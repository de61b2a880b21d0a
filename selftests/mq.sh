#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# flowctl under mq: one flowctl child per TX queue, the port's gates, hook,
# charge and counters once per device (Documentation/mq.md). Each stream
# is steered to its TX queue by a tc filter (skbedit queue_mapping), and
# the mq classes' counters show that each queue carried its stream.
#
#   +------------- ns A --------------+      +----------- ns B -----------+
#   | fctest send, port 5000 -> q0    |      | fctest recv: gaps          |
#   |             port 5001 -> q1     |      | fctest raw: PAUSE/PFC      |
#   |  a0: mq, flowctl on 1:1 and 1:2 |======| b0                         |
#   |      speed 100 (5.12 us/quantum)| veth |                            |
#   +---------------------------------+      +----------------------------+
#
#   +-- ns H --+        +------------- ns S -------------+        +-- ns R --+
#   | h0       |========| s0 (mq, tx on)  br0  s1 (mq)   |========| r0       |
#   | flowctl  |  veth  | 2 queues              2 queues |  veth  | PAUSE    |
#   +----------+        +--------------------------------+        +----------+
#
# The second lab: R holds s1 paused, what H sends waits in s1's two queues,
# charged to s0, and s0's XOFF is decided on what both queues hold.

ALL_TESTS="pause_every_queue pfc_every_queue xon_kicks_every_queue xoff_device_sum
	   watchdog_both_queues replace_forms_under_traffic mqprio_children one_port_everywhere
	   where_refused"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc ip ethtool dcb
RETRY_TIMING=1
TIMING_CASES="pause_every_queue pfc_every_queue xon_kicks_every_queue watchdog_both_queues"

SPEED=100
INTERVAL_US=500
UNPAUSED_US=100000
TMP=$(mktemp -d)
HOLD=

# mq_pair NS1 DEV1 NS2 DEV2: a veth pair with two TX queues a side.
mq_pair()
{
	ip link add name "$2" numtxqueues 2 numrxqueues 2 netns "$1" type veth \
		peer name "$4" numtxqueues 2 numrxqueues 2 netns "$3" || return 1
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

# mq_flowctl NS DEV [OPTIONS]: mq at the root, flowctl on both its queues.
mq_flowctl()
{
	local ns=$1 dev=$2

	shift 2
	ip netns exec "$ns" tc qdisc replace dev "$dev" root handle 1: mq || return 1
	ip netns exec "$ns" tc qdisc replace dev "$dev" parent 1:1 flowctl "$@" || return 1
	ip netns exec "$ns" tc qdisc replace dev "$dev" parent 1:2 flowctl || return 1
}

# children NS DEV JQ: JQ of each flowctl child (tc -s, by parent), joined.
children()
{
	ip netns exec "$1" tc -j -s qdisc show dev "$2" |
		jq -r "[.[] | select(.kind == \"flowctl\")] | sort_by(.parent) |
			map($3 | tostring) | join(\" \")"
}

# steer NS DEV PORT QUEUE: UDP to PORT leaves DEV on TX queue QUEUE.
steer()
{
	ip netns exec "$1" tc filter add dev "$2" egress protocol ip prio 1 flower \
		ip_proto udp dst_port "$3" action skbedit queue_mapping "$4"
}


setup_prepare()
{
	local p

	setup_ns A B H S R
	no_ipv6 "$A" "$B" "$H" "$S" "$R" || return 1
	mq_pair "$A" a0 "$B" b0 || return 1
	ip -n "$A" addr add 198.18.0.1/24 dev a0
	ip -n "$B" addr add 198.18.0.2/24 dev b0
	MAC_A=$(mac_of "$A" a0)
	MAC_B=$(mac_of "$B" b0)
	ip -n "$A" neigh add 198.18.0.2 lladdr "$MAC_B" dev a0 nud permanent
	ip -n "$B" neigh add 198.18.0.1 lladdr "$MAC_A" dev b0 nud permanent
	ip netns exec "$A" tc qdisc add dev a0 clsact || return 1
	for p in 5000 5003; do steer "$A" a0 $p 0 || return 1; done
	for p in 5001 5004 5005; do steer "$A" a0 $p 1 || return 1; done
	mq_flowctl "$A" a0 speed $SPEED || return 1

	veth_pair "$H" h0 "$S" s0
	mq_pair "$S" s1 "$R" r0 || return 1
	ip -n "$S" link add name br0 type bridge
	ip -n "$S" link set s0 master br0
	ip -n "$S" link set s1 master br0
	ip -n "$S" link set br0 up
	ip -n "$H" addr add 198.18.1.1/24 dev h0
	ip -n "$R" addr add 198.18.1.2/24 dev r0
	MAC_R=$(mac_of "$R" r0)
	ip -n "$H" neigh add 198.18.1.2 lladdr "$MAC_R" dev h0 nud permanent
	ip -n "$R" neigh add 198.18.1.1 lladdr "$(mac_of "$H" h0)" dev r0 nud permanent
	ip netns exec "$S" tc qdisc add dev s1 clsact || return 1
	steer "$S" s1 6000 0 || return 1
	steer "$S" s1 6001 1 || return 1
	ip netns exec "$H" tc qdisc add dev h0 root flowctl || return 1
	# s0 takes the root form first: xoff_device_sum puts it under mq.
	ip netns exec "$S" tc qdisc add dev s0 root flowctl || return 1
	mq_flowctl "$S" s1 speed 10 || return 1
}

# Every priority's gate closes on both queues: the partner sees the same
# gap on the stream of each. The control: with rx off, no gap on either.
pause_every_queue()
{
	local before after b0 b1 a0 a1

	fc "$A" set dev a0 mode pause rx on
	before=$(children "$A" a0 .packets)
	stream 400 "5000:0 5001:0" 0 "$(pause_hex "$MAC_B" 20000)"
	after=$(children "$A" a0 .packets)
	log_info "children's packets before: $before; after: $after"
	check_gap "${GAP_AT[5000]}" "$(quanta_us 20000)" "PAUSE 20000 quanta, queue 0"
	check_gap "${GAP_AT[5001]}" "$(quanta_us 20000)" "PAUSE 20000 quanta, queue 1"
	read -r b0 b1 <<<"$before"
	read -r a0 a1 <<<"$after"
	[ $((a0 - b0)) -gt 300 ] && [ $((a1 - b1)) -gt 300 ]
	check_err $? "each queue carried its stream (packets per queue: $before -> $after)"
	check_eq "$(children "$A" a0 .rx_pause)" \
		"$(fc_get "$A" a0 .stats.rx_pause) $(fc_get "$A" a0 .stats.rx_pause)" \
		"each child's tc -s rx_pause vs show's (one device, one count)"
	fc "$A" set dev a0 rx off
	stream 400 "5000:0 5001:0" 0 "$(pause_hex "$MAC_B" 20000)"
	fc "$A" set dev a0 rx on
	[ "${GAP_AT[5000]}" -lt $(($(quanta_us 20000) / 2)) ] &&
		[ "${GAP_AT[5001]}" -lt $(($(quanta_us 20000) / 2)) ]
	check_err $? "with rx off a gap opened at the PAUSE (${GAP_AT[5000]}us, ${GAP_AT[5001]}us)"
	log_test "PAUSE closes both queues' gates (none with rx off)"
}

quanta_us()
{
	echo $(($1 * 512 / SPEED))
}

# PFC for priority 3 holds priority 3 on both queues, and priority 0 on
# queue 1 keeps going.
pfc_every_queue()
{
	fc "$A" set dev a0 mode pfc pfc-prios all
	check_err $? "set mode pfc"
	stream 500 "5003:3 5004:3 5005:0" 0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 40000)"
	check_gap "${GAP_AT[5003]}" "$(quanta_us 40000)" "PFC prio 3, queue 0"
	check_gap "${GAP_AT[5004]}" "$(quanta_us 40000)" "PFC prio 3, queue 1"
	check_range "${GAP[5005]}" 0 $UNPAUSED_US "prio 0 on queue 1 while prio 3 paused (us)"
	fc "$A" set dev a0 mode pause
	log_test "PFC holds one priority on both queues, and only it"
}

# An XON opens the gate on every queue and kicks each queue that holds
# packets: with the sender stopped nothing else would run them before the
# 65535 quanta (3.36 s at 10 Mb/s) end.
xon_kicks_every_queue()
{
	local t0 p got first rp=()

	fc "$A" set dev a0 mode pause speed 10 rx on
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
	check_eq "$(fc_get "$A" a0 .prio[0].paused)" true "a0 paused"
	for p in 5000 5001; do
		rm -f "$TMP/r.$p"
		ip netns exec "$B" "$FCTEST" recv $p 1 >"$TMP/r.$p" &
		rp+=($!)
		while ! grep -q ready "$TMP/r.$p"; do sleep 0.05; done
		ip netns exec "$A" "$FCTEST" send 198.18.0.2 $p 0 100 >/dev/null
	done
	check_range "$(fc_get "$A" a0 .prio[0].backlog_packets)" 200 210 \
		"datagrams held in band 0 of the two queues"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
	sleep 0.2
	t0=$(date +%s%6N)
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)"
	wait "${rp[@]}"
	for p in 5000 5001; do
		got=$(awk '/^packets/ {print $2}' "$TMP/r.$p")
		first=$(awk '/^packets/ {print $8}' "$TMP/r.$p")
		log_info "port $p: $got datagrams, the first $((first - t0)) us after the XON"
		check_eq "$got" 100 "datagrams to port $p once the gate opened"
		check_range $((first - t0)) 0 200000 "port $p: first datagram after the XON (us)"
	done
	fc "$A" set dev a0 speed $SPEED
	log_test "XON kicks each queue that holds packets"
}

hold_s1()
{
	ip netns exec "$R" "$FCTEST" raw r0 "$(pause_hex "$MAC_R" 65535)" \
		count 60 interval-us 1000000 &
	HOLD=$!
	for _ in $(seq 40); do
		[ "$(fc_get "$S" s1 .prio[0].paused)" = true ] && return 0
		sleep 0.05
	done
	return 1
}

release_s1()
{
	[ -z "$HOLD" ] || kill "$HOLD" 2>/dev/null
	wait "$HOLD" 2>/dev/null
	HOLD=
	ip netns exec "$R" "$FCTEST" raw r0 "$(pause_hex "$MAC_R" 0)"
	for _ in $(seq 50); do
		[ "$(fc_get "$S" s1 .prio[0].backlog_packets)" = 0 ] && return 0
		sleep 0.1
	done
}

# s0's XOFF is decided on the sum of what s1's two queues hold for it:
# 12 datagrams of 1000 B (about 12.8 kB on the wire) in one queue stay
# under the 20 kB XOFF; the same in each of the two cross it.
xoff_device_sum()
{
	local one two q

	mq_flowctl "$S" s0 speed 10 mode pause tx on xoff 20k xon 10k
	check_err $? "s0 under mq, tx on"
	fc "$S" stats reset dev s0
	fc "$H" stats reset dev h0
	hold_s1
	check_err $? "s1 not paused by R (precondition)"
	ip netns exec "$H" "$FCTEST" send 198.18.1.2 6000 0 12 size 1000 >/dev/null
	sleep 0.3
	one=$(fc_get "$S" s0 .stats.tx_pause)
	q=$(children "$S" s1 .backlog)
	log_info "one queue holds 12 datagrams: s1's children's backlog $q, s0's charge $(fc_get "$S" s0 .prio[0].charge_bytes) B, XOFF sent $one"
	check_eq "$one" 0 "XOFF from s0 with one queue at 12.8 kB (baseline)"
	ip netns exec "$H" "$FCTEST" send 198.18.1.2 6001 0 12 size 1000 >/dev/null
	sleep 0.3
	two=$(fc_get "$S" s0 .stats.tx_pause)
	q=$(children "$S" s1 .backlog)
	log_info "both queues hold 12: backlog $q, s0's charge $(fc_get "$S" s0 .prio[0].charge_bytes) B, XOFF sent $two"
	[ "$two" -ge 1 ]
	check_err $? "no XOFF from s0 with both queues at 12.8 kB (sum over 20 kB)"
	# Released, s0 sends its XON and nothing more: what it sent, h0 got.
	release_s1
	sleep 0.3
	check_eq "$(fc_get "$H" h0 .stats.rx_pause)" "$(fc_get "$S" s0 .stats.tx_pause)" \
		"PAUSE frames h0 received vs s0 sent"
	check_eq "$(fc_get "$H" h0 .stats.rx_xon)" "$(fc_get "$S" s0 .stats.tx_xon)" \
		"XON frames h0 received vs s0 sent"
	ip netns exec "$S" tc qdisc replace dev s0 root flowctl
	log_test "XOFF decided on the device's sum over its queues"
}

# A storm that holds priority 3 on both queues is one storm: the watchdog
# drops what both queues hold, and the queues' drops add up to its count.
watchdog_both_queues()
{
	local storm st d d0 d1 before b0 b1 s3 s4

	fc "$A" set dev a0 mode pfc pfc-prios 3 speed 10
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 65535)" \
		count 100000 interval-us 200000 >/dev/null &
	storm=$!
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 5003 2000 100000 prio 3 >/dev/null &
	s3=$!
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 5004 2000 100000 prio 3 >/dev/null &
	s4=$!
	sleep 0.5
	before=$(children "$A" a0 .backlog)
	read -r b0 b1 <<<"$before"
	[ "$b0" -gt 0 ] && [ "$b1" -gt 0 ]
	check_err $? "both queues held by the storm before the watchdog is on (backlog $before)"
	# From here priority 3 sends nothing: what the queues hold is purged
	# once stormed, what comes is dropped.
	fc "$A" stats reset dev a0
	before=$(children "$A" a0 .drops)
	fc "$A" watchdog dev a0 detection 200 action drop
	for _ in $(seq 50); do
		[ "$(fc_get "$A" a0 .prio[3].wd_state)" = stormed ] && break
		sleep 0.1
	done
	sleep 0.5
	kill $s3 $s4 2>/dev/null
	wait $s3 $s4 2>/dev/null
	sleep 0.2
	st=$(fc "$A" -j -s show dev a0)
	d=$(children "$A" a0 .drops)
	kill $storm 2>/dev/null
	wait $storm 2>/dev/null
	check_eq "$(echo "$st" | jq -r '.[0].prio[3].wd_state')" stormed "priority 3's watchdog state"
	check_eq "$(echo "$st" | jq '.[0].prio[3].wd_storms')" 1 "storms: one for the device"
	check_eq "$(echo "$st" | jq '.[0].prio[3].tx_packets')" 0 \
		"packets priority 3 sent since the storm held both queues"
	log_info "drops per queue: $before before, $d after; show: $(echo "$st" | jq '.[0].prio[3].wd_tx_drop') dropped"
	read -r b0 b1 <<<"$before"
	read -r d0 d1 <<<"$d"
	[ $((d0 - b0)) -gt 0 ] && [ $((d1 - b1)) -gt 0 ]
	check_err $? "the watchdog dropped from both queues (drops per queue: $before -> $d)"
	check_eq "$((d0 - b0 + d1 - b1))" "$(echo "$st" | jq '.[0].prio[3].wd_tx_drop')" \
		"the queues' drops vs show's wd_tx_drop"
	fc "$A" watchdog dev a0 off
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 0)"
	fc "$A" set dev a0 mode pause pfc-prios all speed $SPEED
	log_test "the watchdog takes a storm on both queues as one"
}

# Root form to mq form and back while both streams run: each form honors
# a PAUSE (65535 quanta at 10 Mb/s: 3.4 s, time for a slow kernel to look),
# the device is listed once, and the streams go on.
replace_forms_under_traffic()
{
	local p form n pids=() rp=()

	for p in 5000 5001; do
		rm -f "$TMP/r.$p"
		ip netns exec "$B" "$FCTEST" recv $p 1 min-gap-us 2000 >"$TMP/r.$p" &
		rp+=($!)
		while ! grep -q ready "$TMP/r.$p"; do sleep 0.05; done
		ip netns exec "$A" "$FCTEST" send 198.18.0.2 $p 200 1000000 >/dev/null &
		pids+=($!)
	done
	for form in root mq root mq; do
		if [ $form = root ]; then
			ip netns exec "$A" tc qdisc replace dev a0 root flowctl speed 10
		else
			mq_flowctl "$A" a0 speed 10
		fi
		check_err $? "replace with the $form form"
		n=$(fc "$A" -j show | jq '[.[] | select(.ifname == "a0")] | length')
		check_eq "$n" 1 "$form form: a0 listed once"
		# doctor: one root flowctl in front of a0's two queues, an info.
		n=$(fc "$A" -j doctor dev a0 interval 0.1 2>/dev/null |
			jq '[.findings[] | select(.id == "root-on-multiqueue")] | length')
		check_eq "$n" "$([ $form = root ] && echo 1 || echo 0)" \
			"$form form: doctor's root-on-multiqueue findings"
		ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
		check_eq "$(fc_get "$A" a0 .prio[0].paused)" true "$form form: PAUSE honored"
		ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)"
		sleep 0.2
	done
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	wait "${rp[@]}"
	for p in 5000 5001; do
		log_info "port $p: $(tail -n 1 "$TMP/r.$p")"
		check_range "$(awk '/^packets/ {print $2}' "$TMP/r.$p")" 100 1000000 \
			"datagrams to port $p across the replaces"
	done
	check_eq "$(ip netns exec "$A" tc -j qdisc show dev a0 | jq -r '.[0].kind')" mq "root at the end"
	log_test "replace between the root and mq forms under traffic; doctor names the root form on two queues"
}

# mqprio's TX queues take flowctl children as mq's do: one port, one gate.
mqprio_children()
{
	ip netns exec "$A" tc qdisc replace dev a0 root handle 5: mqprio num_tc 2 \
		map 0 0 0 0 1 1 1 1 queues 1@0 1@1 hw 0
	check_err $? "mqprio on a0"
	ip netns exec "$A" tc qdisc replace dev a0 parent 5:1 flowctl speed 10 &&
		ip netns exec "$A" tc qdisc replace dev a0 parent 5:2 flowctl
	check_err $? "flowctl on mqprio's two queues"
	check_eq "$(children "$A" a0 .parent)" "5:1 5:2" "flowctl children under mqprio"
	check_eq "$(fc "$A" -j show | jq -c '[.[] | select(.ifname == "a0") | .speed_mbps]')" \
		'[10]' "a0 listed once, with the first child's speed"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
	check_eq "$(fc_get "$A" a0 .prio[0].paused)" true "PAUSE honored under mqprio"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)"
	ip netns exec "$A" tc qdisc del dev a0 root
	mq_flowctl "$A" a0 speed $SPEED
	check_err $? "back to mq"
	log_test "flowctl children under mqprio: one port that honors PAUSE"
}

# The CLI's views report the device once, with the device's counters:
# show, metrics (Prometheus), doctor.
one_port_everywhere()
{
	local rx m out

	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 1)" count 3
	sleep 0.1
	rx=$(fc_get "$A" a0 .stats.rx_pause)
	check_range "$rx" 3 1000000 "rx_pause after three PAUSE frames"
	check_eq "$(fc "$A" -j show | jq '[.[] | select(.ifname == "a0")] | length')" 1 \
		"ports named a0 in flowctl show"
	m=$(fc "$A" metrics | grep '^flowctl_pause_frames_total{device="a0",dir="rx"}')
	check_eq "$(echo "$m" | wc -l)" 1 "a0's rx PAUSE samples in flowctl metrics"
	check_eq "${m##* }" "$rx" "a0's rx PAUSE in flowctl metrics vs show"
	out=$(fc "$A" doctor dev a0 2>&1)
	echo "$out" | grep -q 'no-qdisc'
	check_fail $? "flowctl doctor says a0 has no flowctl qdisc: $out"
	# -d: each queue's child, as tc sees it (fresh children: tc's packet
	# counts and the bands' are both from their attach).
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 5000 0 10 >/dev/null
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 5001 0 12 >/dev/null
	sleep 0.2
	out=$(fc "$A" -d -j show dev a0)
	check_eq "$(echo "$out" | jq -c '[.[0].queues[].index]')" "[0,1]" "show -d: the queues"
	check_eq "$(echo "$out" | jq -r '[.[0].queues[].handle] | join(" ")')" \
		"$(children "$A" a0 .handle)" "show -d: each queue's qdisc, as tc names it"
	check_eq "$(echo "$out" | jq -r '[.[0].queues[].tx_packets] | join(" ")')" \
		"$(children "$A" a0 .packets)" "show -d: what each queue sent, as tc counts it"
	check_eq "$(echo "$out" | jq -r '[.[0].queues[].tx_packets] | join(" ")')" "10 12" \
		"show -d: what each queue sent, as the test sent it"
	check_eq "$(fc "$A" -d -j show | jq '[.[] | select(.ifname == "a0") | .queues | length] | .[0]')" 2 \
		"show -d without dev: a0's queues"
	# Linux's own tools reach the mq port's one configuration (dcb.c's
	# doors find it through the device), and read it back.
	ip netns exec "$A" ethtool -A a0 rx off
	check_err $? "ethtool -A a0 rx off on the mq port"
	check_eq "$(fc_get "$A" a0 .rx)" false "rx after ethtool -A rx off"
	ip netns exec "$A" ethtool -a a0 | grep -Eq '^RX:[[:space:]]+off'
	check_err $? "ethtool -a does not read rx off back: $(ip netns exec "$A" ethtool -a a0)"
	ip netns exec "$A" dcb pfc set dev a0 prio-pfc all:off 3:on
	check_err $? "dcb pfc set on the mq port"
	check_eq "$(fc_get "$A" a0 .mode) $(fc_get "$A" a0 .pfc_prios | jq -c .)" \
		"pfc [3]" "mode and pfc_prios after dcb pfc set"
	ip netns exec "$A" dcb pfc show dev a0 prio-pfc | grep -q '3:on'
	check_err $? "dcb pfc show does not read 3:on back: $(ip netns exec "$A" dcb pfc show dev a0 prio-pfc)"
	fc "$A" set dev a0 mode pause rx on pfc-prios all
	log_test "show, metrics, doctor, ethtool and dcb see the mq port once; show -d each queue"
}

# Elsewhere than the root or an mq's queue, flowctl is refused; under mq
# a rate is (one wire, one clock); a child's options are the device's.
where_refused()
{
	local out

	out=$(ip netns exec "$A" tc qdisc replace dev a0 parent 1:1 flowctl rate 10mbit 2>&1)
	check_fail $? "rate under mq accepted"
	check_contains "$out" "rate shapes the root form only" "tc's error for rate under mq"
	check_eq "$(fc_get "$A" a0 .rate_bps)" 0 "rate after the refusal"
	ip netns exec "$A" tc qdisc replace dev a0 parent 1:2 flowctl mode pfc pfc-prios 3
	check_err $? "a child with options"
	check_eq "$(fc_get "$A" a0 .mode)" pfc "the device's mode after a child's options"
	check_eq "$(ip netns exec "$A" tc -j qdisc show dev a0 |
		jq -r '[.[] | select(.kind == "flowctl")] | map(.options.mode) | unique | join(",")')" \
		pfc "what each child's tc dump says"
	fc "$A" set dev a0 mode pause pfc-prios all
	ip netns exec "$H" tc qdisc replace dev h0 root handle 7: prio
	out=$(ip netns exec "$H" tc qdisc add dev h0 parent 7:1 flowctl 2>&1)
	check_fail $? "flowctl under prio accepted"
	check_contains "$out" "root qdisc or a TX queue's under mq" "tc's error under prio"
	ip netns exec "$H" tc qdisc replace dev h0 root flowctl
	log_test "refused under prio, rate refused under mq, a child's options are the device's"
}

cleanup()
{
	[ -z "$HOLD" ] || kill "$HOLD" 2>/dev/null
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed
run_tests
