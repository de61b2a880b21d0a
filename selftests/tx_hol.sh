#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Head-of-line blocking (seed 4.1, 5.1): H sends to R through an emulated
# slow link (congested) on priority 3 and to C through a fast one
# (uncongested) on priority 0. A global PAUSE from s0 stops both flows; PFC
# for priority 3 stops only the congested one. Priorities cross the switch
# as DSCP (CS3 = priority 3), since veth zeroes skb->priority: both a0 and
# s0 trust DSCP.
#
#   +-- ns H --+        +------------- ns S --------------+      +-- ns R --+
#   | a0       |========| s0 (tx)   br0   s1 (rate 20M)   |======| r0       |
#   | flowctl  |  veth  |                 s2              |      +----------+
#   +----------+        +-----------------||--------------+      +-- ns C --+
#                                         ++=======================| c0       |
#                                                                  +----------+
#
# Side by side in one run: the victim flow H->C is measured with tx off
# (its unpaused rate, while the congested flow only drops), with PAUSE and
# with PFC; it must keep 90% with PFC and lose more than half with PAUSE.

ALL_TESTS="victim_unpaused victim_pause victim_pfc pfc_mismatched"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc
# Rates measured under TCG: every case here needs H->R to congest s1, and
# judges rates; such a case that fails runs once more (lib.sh).
RETRY_TIMING=1
TIMING_CASES="victim_unpaused victim_pause victim_pfc pfc_mismatched"

SECS=3
BASE=0

setup_prepare()
{
	setup_ns H S R C
	veth_pair "$H" a0 "$S" s0
	veth_pair "$S" s1 "$R" r0
	veth_pair "$S" s2 "$C" c0
	ip -n "$S" link add name br0 type bridge
	for p in s0 s1 s2; do ip -n "$S" link set $p master br0; done
	ip -n "$S" link set br0 up
	ip -n "$H" addr add 198.18.0.1/24 dev a0
	ip -n "$R" addr add 198.18.0.2/24 dev r0
	ip -n "$C" addr add 198.18.0.3/24 dev c0
	ip -n "$H" neigh add 198.18.0.2 lladdr "$(mac_of "$R" r0)" dev a0 nud permanent
	ip -n "$H" neigh add 198.18.0.3 lladdr "$(mac_of "$C" c0)" dev a0 nud permanent
	ip netns exec "$H" tc qdisc add dev a0 root flowctl || return 1
	for p in s0 s1 s2; do ip netns exec "$S" tc qdisc add dev $p root flowctl || return 1; done
	fc "$S" set dev s1 rate 20mbit || return 1
	fc "$H" set dev a0 speed 1000 rate 200mbit trust dscp || return 1
	# Thresholds sized for a software partner under TCG: see tx_lossless.sh.
	fc "$S" set dev s0 speed 1000 trust dscp xoff 500k xon 350k \
		prio 3 xoff 500k xon 350k || return 1
}

# run: both flows for SECS seconds; VICTIM = datagrams C received,
# DROPS = drops at s1, CONG_SENT / CONG_GOT = the congested flow's
# datagrams sent by H and received by R, A0_DROPS = a0's drops.
run()
{
	local d0 d1 pc pr

	fc "$H" stats reset dev a0
	d0=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	ip netns exec "$C" "$FCTEST" recv 9001 2 >"$TMP/c" &
	pc=$!
	ip netns exec "$R" "$FCTEST" recv 9000 2 >"$TMP/r" &
	pr=$!
	while ! grep -q ready "$TMP/c" || ! grep -q ready "$TMP/r"; do sleep 0.05; done
	# Congested: CS3 (tos 0x60), paced at 3x s1's 20 Mb/s (1442 bytes on
	# the wire every 180 us, 64 Mb/s). a0 serves priority 3 first: an
	# unpaced congested sender that H can feed at a0's 200 Mb/s would
	# starve the victim even unpaused, and the lab would measure how fast
	# the emulator is. Victim: best effort, as fast as H can (nice 19, so
	# it never takes the CPU the paced sender needs), on a path (s2, C)
	# with no bottleneck but a0: unpaused it gets what priority 3 leaves of
	# a0; paused, priority 3's backlog at a0 never empties and the victim
	# behind it gets next to nothing.
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 180 1000000 size 1400 \
		tos 0x60 >"$TMP/sr" &
	local pb=$!
	ip netns exec "$H" nice -n 19 "$FCTEST" send 198.18.0.3 9001 0 1000000 \
		size 1400 tos 0 prio 0 sndbuf 32768 >/dev/null &
	local pv=$!
	sleep $SECS
	kill $pv $pb
	wait $pv $pb 2>/dev/null
	wait $pc $pr
	d1=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	DROPS=$((d1 - d0))
	VICTIM=$(awk '/^packets/ {print $2}' "$TMP/c")
	CONG_SENT=$(awk '/^sent/ {print $2}' "$TMP/sr")
	CONG_GOT=$(awk '/^packets/ {print $2}' "$TMP/r")
	A0_DROPS=$(fc_get "$H" a0 '.prio | map(.drops) | add')
	log_info "victim H->C received $VICTIM; congested H->R $CONG_GOT of $CONG_SENT sent," \
		"drops at a0 $A0_DROPS," \
		"drops at s1 $DROPS; s0 sent PAUSE $(fc_get "$S" s0 .stats.tx_pause)," \
		"PFC $(fc_get "$S" s0 .stats.tx_pfc)"
}

victim_unpaused()
{
	fc "$S" set dev s0 tx off
	run
	# Only a baseline that congested is one to compare with.
	BASE=0
	[ "$DROPS" -gt 0 ] && BASE=$VICTIM
	[ "$DROPS" -gt 0 ]
	check_err $? "no drops at s1 with tx off: H->R does not congest, so this proves nothing"
	[ "$BASE" -gt 100 ]
	check_err $? "the victim flow barely ran unpaused ($BASE datagrams)"
	log_test "baseline: tx off, H->R drops at s1, H->C runs at its rate"
}

victim_pause()
{
	fc "$H" set dev a0 mode pause
	fc "$S" set dev s0 tx on mode pause
	run
	[ "$BASE" -gt 100 ]
	check_err $? "no baseline to compare with: victim_unpaused did not measure a congested lab"
	[ "$VICTIM" -lt $((BASE / 2)) ]
	check_err $? "with global PAUSE the victim kept $VICTIM of $BASE datagrams: no HOL blocking shown"
	check_eq "$DROPS" 0 "drops at s1 with PAUSE"
	# Held, not dropped: the paused band keeps what H sent until the gate
	# opens (the socket buffer, not the band limit, stops the sender).
	check_eq "$A0_DROPS" 0 "drops at a0 (paused: holds, never drops)"
	check_eq "$CONG_GOT" "$CONG_SENT" "H->R datagrams received by R vs sent by H"
	log_info "victim with PAUSE: $VICTIM of $BASE"
	log_test "global PAUSE: the uncongested flow collapses with the congested one"
}

victim_pfc()
{
	fc "$H" set dev a0 mode pfc pfc-prios all
	fc "$S" set dev s0 tx on mode pfc pfc-prios 3
	fc "$S" stats reset dev s0
	run
	[ "$BASE" -gt 100 ]
	check_err $? "no baseline to compare with: victim_unpaused did not measure a congested lab"
	[ "$VICTIM" -ge $((BASE * 9 / 10)) ]
	check_err $? "with PFC the victim kept only $VICTIM of $BASE datagrams"
	check_eq "$DROPS" 0 "drops at s1 with PFC on priority 3"
	check_eq "$(fc_get "$H" a0 .prio[3].drops)" 0 "drops of priority 3 at a0 (paused: holds, never drops)"
	check_eq "$CONG_GOT" "$CONG_SENT" "priority 3 datagrams received by R vs sent by H"
	[ "$(fc_get "$S" s0 .stats.tx_pfc)" -gt 0 ]
	check_err $? "s0 sent no PFC"
	log_info "victim with PFC: $VICTIM of $BASE"
	check_eq "$(fc_get "$S" s0 .stats.partner_ignored)" 0 \
		"partner-ignored with both ends on"
	log_test "PFC on priority 3: the uncongested flow keeps its rate, H->R stays lossless"
}

# Mismatched ends in mode pfc (seed 6.2): s0 sends PFC for priority 3, a0
# does not listen (rx off). Drops come back and the counter of priority 3
# climbs; no other priority's does, and the port's total is their sum.
pfc_mismatched()
{
	local s per total others

	fc "$H" set dev a0 rx off
	fc "$S" set dev s0 tx on mode pfc pfc-prios 3
	fc "$S" stats reset dev s0
	run
	s=$(fc "$S" -j -s show dev s0)
	per=$(echo "$s" | jq '.[0].prio[3].partner_ignored')
	others=$(echo "$s" | jq '[.[0].prio[] | select(.prio != 3) | .partner_ignored] | add')
	total=$(echo "$s" | jq '.[0].stats.partner_ignored')
	log_info "partner ignored: prio 3 $per, others $others, total $total"
	[ "$DROPS" -gt 0 ]
	check_err $? "no drops with a partner that ignores PFC"
	[ "$per" -gt 0 ] 2>/dev/null
	check_err $? "priority 3's partner-ignored did not climb"
	check_eq "$others" 0 "partner-ignored on priorities without our XOFF"
	check_eq "$total" "$per" "port total vs priority 3"
	# s1's drops are all priority 3 frames past the headroom of our XOFF.
	[ "$per" -ge $((DROPS * 9 / 10)) ] 2>/dev/null
	check_err $? "priority 3's partner-ignored $per, under 90% of the $DROPS drops at s1"
	fc "$H" set dev a0 rx on
	log_test "PFC sent, partner ignores it: drops, partner-ignored of priority 3 climbs"
}

TMP=$(mktemp -d)
cleanup()
{
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed
run_tests
