#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The receive side's state, beyond the gap on the wire (rx_pause.sh): what
# a configuration change does to running gates, a counter reset during a
# pause, which speed converts quanta (configured, the shaper's rate,
# ethtool's; re-read when the link comes up), and a port with no usable
# speed (times ignored, XON honored); a half-duplex link has none (PAUSE
# does not exist on half duplex): a tap, whose driver reports what ethtool
# set, stands for it.
#
#   +-- ns A ------------------------+        +-- ns B --+
#   | a0 (flowctl)                   |========| b0       |
#   |                                |  veth  | sends    |
#   | x0 --tc mirred ingress--> d0   |========| y0       |
#   |       (d0: dummy, flowctl,     |  veth  | PAUSE    |
#   |        no link speed)          |        |          |
#   | t0, t1 (taps, flowctl; ethtool sets their speed and duplex)
#   +--------------------------------+        +----------+

ALL_TESTS="config_opens_gates stats_reset_in_pause speed_sources no_speed
	   speed_reread_at_up half_duplex snapshot_under_toggling"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc ip ethtool
# Two cases look at gates a 3.4 s pause holds (65535 quanta at 10 Mb/s,
# the longest there is) over several commands: the debug kernel's commands
# outlast it. They run again on failure and are not judged there.
RETRY_TIMING=1
TIMING_CASES="config_opens_gates stats_reset_in_pause"

TMP=$(mktemp -d)
Q65535_10=3355392000	# 65535 quanta at 10 Mb/s, in ns

setup_prepare()
{
	setup_ns A B
	no_ipv6 "$A" "$B" || return 1
	veth_pair "$A" a0 "$B" b0
	MAC_B=$(mac_of "$B" b0)
	ip netns exec "$A" tc qdisc add dev a0 root flowctl || return 1
}

# pause NS DEV PEER_NS PEER_DEV QUANTA: one PAUSE frame from the peer.
pause()
{
	ip netns exec "$3" "$FCTEST" raw "$4" "$(pause_hex "$(mac_of "$3" "$4")" "$5")"
}

# A configuration that no longer honors a running pause opens its gate at
# once: rx off, a mode change, a priority taken out of pfc-prios.
config_opens_gates()
{
	fc "$A" set dev a0 mode pause rx on speed 10
	pause "$A" a0 "$B" b0 65535
	check_eq "$(fc_get "$A" a0 .prio[0].paused)" true "paused by PAUSE"
	fc "$A" set dev a0 rx off
	check_eq "$(fc_get "$A" a0 ' | [.prio[].paused] | any')" false "any gate closed after rx off"
	fc "$A" set dev a0 rx on
	pause "$A" a0 "$B" b0 65535
	check_eq "$(fc_get "$A" a0 .prio[5].paused)" true "paused by PAUSE again"
	fc "$A" set dev a0 mode pfc pfc-prios all
	check_eq "$(fc_get "$A" a0 ' | [.prio[].paused] | any')" false "any gate closed after mode pfc"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x18 0 0 0 65535 65535)"
	check_eq "$(fc_get "$A" a0 ' | [.prio[].paused] | map(tostring) | join(",")')" \
		false,false,false,true,true,false,false,false "PFC pauses 3 and 4"
	fc "$A" set dev a0 pfc-prios 0-2,4-7
	check_eq "$(fc_get "$A" a0 ' | [.prio[].paused] | map(tostring) | join(",")')" \
		false,false,false,false,true,false,false,false "3 taken out of pfc-prios"
	fc "$A" set dev a0 mode pause pfc-prios all
	check_eq "$(fc_get "$A" a0 ' | [.prio[].paused] | any')" false "any gate closed after mode pause"
	log_test "a configuration change opens the gates it no longer honors, at once"
}

# stats reset in the middle of a pause: counters restart, the pause goes
# on and counts as one episode from the reset.
stats_reset_in_pause()
{
	local s tf t0 t1 el left

	fc "$A" set dev a0 mode pause rx on speed 10
	tf=$(date +%s%N)
	pause "$A" a0 "$B" b0 65535
	sleep 0.3
	t0=$(date +%s%N)
	fc "$A" stats reset dev a0
	check_err $? "stats reset failed"
	sleep 0.2
	s=$(fc "$A" -j -s show dev a0)
	t1=$(date +%s%N)
	check_eq "$(echo "$s" | jq '.[0].prio[0].paused')" true "still paused after the reset"
	check_eq "$(echo "$s" | jq '.[0].stats.rx_pause')" 0 "rx_pause after the reset"
	check_eq "$(echo "$s" | jq '.[0].prio[0].pause_episodes')" 1 "episodes: the running pause"
	el=$(echo "$s" | jq '.[0].prio[0].paused_ns_total')
	# Counted from the reset, not from the frame 0.3 s before it.
	check_range "$el" 1 $((t1 - t0)) "paused_ns_total since the reset"
	# The pause itself runs to its end: what is left is its time minus
	# what passed since the frame (the 0.5 s slept, less the few ms the
	# frame may take to arrive), no more.
	left=$(echo "$s" | jq '.[0].prio[0].pause_left_ns')
	check_range "$left" $((Q65535_10 - (t1 - tf))) $((Q65535_10 - 450000000)) \
		"pause_left_ns after the reset"
	pause "$A" a0 "$B" b0 0
	check_eq "$(fc_get "$A" a0 .stats.rx_xon)" 1 "rx_xon after the reset"
	check_eq "$(fc_get "$A" a0 .prio[0].paused)" false "open after XON"
	log_test "stats reset during a pause: counters restart, the pause goes on"
}

# whole_ns QUANTA: send a PAUSE and read pause_left_ns + pause_elapsed_ns,
# the pause's whole time at the speed in use; then XON.
whole_ns()
{
	pause "$A" a0 "$B" b0 "$1"
	fc_get "$A" a0 '.prio[0] | .pause_left_ns + .pause_elapsed_ns'
	pause "$A" a0 "$B" b0 0
}

# The speed that converts quanta: configured, else the shaper's rate, else
# ethtool's (veth: 10000). Each is shown with its source and sets the
# pause's length: 65535 quanta x 512 bits.
speed_sources()
{
	fc "$A" set dev a0 mode pause rx on speed 10 rate off
	check_eq "$(fc_get "$A" a0 ' | "\(.speed_mbps) \(.speed_source)"')" "10 config" "configured"
	check_eq "$(whole_ns 65535)" $Q65535_10 "65535 quanta at 10 Mb/s (ns)"
	fc "$A" set dev a0 speed auto rate 20mbit
	check_eq "$(fc_get "$A" a0 ' | "\(.speed_mbps) \(.speed_source)"')" "20 rate" "from the rate"
	check_eq "$(whole_ns 65535)" $((Q65535_10 / 2)) "65535 quanta at 20 Mb/s (ns)"
	fc "$A" set dev a0 rate off
	# (At 10 Gb/s 65535 quanta last 3.4 ms: over before anyone can look.)
	check_eq "$(fc_get "$A" a0 ' | "\(.speed_mbps) \(.speed_source)"')" "10000 ethtool" "from ethtool"
	fc "$A" set dev a0 speed 10
	log_test "speed from the configuration, the rate, ethtool, in that order"
}

# d0 is a dummy device: ethtool knows no speed for it. Frames reach its
# receive path through tc mirred from x0's ingress (its netdev ingress hook
# runs as for any received frame). With no usable speed a time cannot be
# converted: PAUSE and PFC times are ignored (rx_ignored), XON is honored.
no_speed()
{
	local s

	ip -n "$A" link add name d0 type dummy || { check_err 1 "cannot create a dummy"; log_test "no speed"; return; }
	ip -n "$A" link set d0 up
	veth_pair "$A" x0 "$B" y0
	ip netns exec "$A" tc qdisc add dev x0 clsact
	ip netns exec "$A" tc filter add dev x0 ingress matchall \
		action mirred ingress redirect dev d0
	check_err $? "cannot redirect x0's ingress to d0"
	ip netns exec "$A" tc qdisc add dev d0 root flowctl
	check_err $? "cannot attach flowctl to d0"
	check_eq "$(fc_get "$A" d0 ' | "\(.speed_mbps) \(.speed_source)"')" "0 none" "d0's speed"
	pause "$A" d0 "$B" y0 65535
	s=$(fc "$A" -j -s show dev d0)
	check_eq "$(echo "$s" | jq '.[0].stats.rx_pause')" 1 "rx_pause (the frame arrived)"
	check_eq "$(echo "$s" | jq '.[0].stats.rx_ignored')" 1 "rx_ignored: a time with no speed"
	check_eq "$(echo "$s" | jq '.[0].prio[0].paused')" false "paused with no speed"
	# A speed given, a pause in force; then the speed goes away: the XON
	# needs none and is honored.
	fc "$A" set dev d0 speed 10
	pause "$A" d0 "$B" y0 65535
	check_eq "$(fc_get "$A" d0 .prio[0].paused)" true "paused at a configured 10 Mb/s"
	fc "$A" set dev d0 speed auto
	pause "$A" d0 "$B" y0 0
	s=$(fc "$A" -j -s show dev d0)
	check_eq "$(echo "$s" | jq '.[0].prio[0].paused')" false "XON with no speed opens the gate"
	check_eq "$(echo "$s" | jq '.[0].stats.rx_xon')" 1 "rx_xon"
	check_eq "$(echo "$s" | jq '.[0].stats.rx_ignored')" 1 "rx_ignored after the XON"
	# PFC: the XON part of a frame is honored, the times are not.
	fc "$A" set dev d0 speed 10 mode pfc pfc-prios all
	ip netns exec "$B" "$FCTEST" raw y0 "$(pfc_hex "$(mac_of "$B" y0)" 0x08 0 0 0 65535)"
	check_eq "$(fc_get "$A" d0 .prio[3].paused)" true "PFC pause of priority 3 at 10 Mb/s"
	fc "$A" set dev d0 speed auto
	ip netns exec "$B" "$FCTEST" raw y0 "$(pfc_hex "$(mac_of "$B" y0)" 0x18 0 0 0 0 65535)"
	s=$(fc "$A" -j -s show dev d0)
	check_eq "$(echo "$s" | jq -c '[.[0].prio[3].paused, .[0].prio[4].paused]')" \
		"[false,false]" "with no speed: priority 3's XON honored, priority 4's time not"
	check_eq "$(echo "$s" | jq '.[0].stats.rx_ignored')" 1 "rx_ignored (the frame was partly honored)"
	log_test "no usable speed: times ignored, XON honored"
}

# The link speed is read again when the device comes up: a tap reports the
# speed ethtool gave it, so a speed set while it is down shows after "up".
# (flowctl refuses a bond master: qdisc.sh attach_kinds.)
speed_reread_at_up()
{
	modprobe tun 2>/dev/null
	[ -e /dev/net/tun ] || { mkdir -p /dev/net && mknod /dev/net/tun c 10 200; }
	ip -n "$A" tuntap add dev t1 mode tap ||
		{ check_err 1 "cannot create a tap"; log_test "speed re-read"; return; }
	ip netns exec "$A" ethtool -s t1 speed 100 duplex full autoneg off
	ip -n "$A" link set t1 up
	ip netns exec "$A" tc qdisc add dev t1 root flowctl
	check_err $? "cannot attach flowctl to t1"
	check_eq "$(fc_get "$A" t1 ' | "\(.speed_mbps) \(.speed_source)"')" "100 ethtool" \
		"t1 at 100 Mb/s"
	ip -n "$A" link set t1 down
	ip netns exec "$A" ethtool -s t1 speed 1000 duplex full autoneg off
	ip -n "$A" link set t1 up
	check_eq "$(fc_get "$A" t1 ' | "\(.speed_mbps) \(.speed_source)"')" "1000 ethtool" \
		"t1 set to 1000 Mb/s while down, after up"
	ip -n "$A" link del t1
	log_test "the link speed is read again when the device comes up"
}

# A partner toggling XOFF and XON on all eight priorities while show reads
# in a loop: a snapshot reads its clock under the lock that episodes start
# under, so no running pause has lasted longer than the longest pause
# (65535 quanta), and no priority's total time paused goes backwards.
snapshot_under_toggling()
{
	local i r prev='[0,0,0,0,0,0,0,0]' xoff xon p1 p2 bad=

	fc "$A" set dev a0 mode pfc pfc-prios all rx on speed 10
	fc "$A" stats reset dev a0
	xoff=$(pfc_hex "$MAC_B" 0xff 65535 65535 65535 65535 65535 65535 65535 65535)
	xon=$(pfc_hex "$MAC_B" 0xff)
	ip netns exec "$B" "$FCTEST" raw b0 "$xoff" count 10000000 interval-us 300 >/dev/null &
	p1=$!
	ip netns exec "$B" "$FCTEST" raw b0 "$xon" count 10000000 interval-us 370 >/dev/null &
	p2=$!
	for ((i = 0; i < 40; i++)); do
		# "ELAPSED_MAX DECREASED TOTALS"
		r=$(fc "$A" -j -s show dev a0 | jq -r --argjson prev "$prev" '.[0].prio as $p |
			[$p[].paused_ns_total] as $t |
			"\([$p[].pause_elapsed_ns // 0] | max) \([range(8) | select($t[.] < $prev[.])] | length) \($t | tojson)"')
		read -r el dec prev <<<"$r"
		if [ -z "$prev" ]; then
			bad="show -j gave no priorities"
			break
		fi
		if ! awk -v e="$el" -v m="$Q65535_10" 'BEGIN { exit !(e <= m) }'; then
			bad="read $i: a pause running for ${el} ns, longer than 65535 quanta ($Q65535_10 ns)"
			break
		fi
		if [ "$dec" -ne 0 ]; then
			bad="read $i: paused_ns_total went backwards on $dec priorities: $prev"
			break
		fi
	done
	kill "$p1" "$p2" 2>/dev/null
	wait "$p1" "$p2" 2>/dev/null
	ip netns exec "$B" "$FCTEST" raw b0 "$xon" >/dev/null
	check_err "$([ -z "$bad" ]; echo $?)" "$bad"
	[ "$(fc_get "$A" a0 '.prio[0].pause_episodes')" -gt 10 ]
	check_err $? "the partner's toggling gave $(fc_get "$A" a0 '.prio[0].pause_episodes') episodes, not a toggling"
	fc "$A" set dev a0 mode pause
	log_test "show under a partner toggling XOFF/XON: elapsed within the longest pause, totals never decrease"
}

# half_duplex: the tun driver reports the speed and duplex ethtool gave it
# (10 Mb/s full by default). Full duplex: ethtool's speed converts quanta;
# half duplex, read again at up: no speed (PAUSE does not apply there), so
# times are ignored as in no_speed; full again: the speed is back.
half_duplex()
{
	local sd

	# The VM's /dev knows /dev/net/tun only once the module is in.
	modprobe tun 2>/dev/null
	[ -e /dev/net/tun ] || { mkdir -p /dev/net && mknod /dev/net/tun c 10 200; }
	ip -n "$A" tuntap add dev t0 mode tap ||
		{ check_err 1 "cannot create a tap"; log_test "half duplex"; return; }
	ip netns exec "$A" ethtool -s t0 speed 100 duplex full autoneg off
	check_err $? "ethtool cannot set the tap's speed"
	ip netns exec "$A" tc qdisc add dev t0 root flowctl
	check_err $? "cannot attach flowctl to t0"
	sd=' | "\(.speed_mbps) \(.speed_source)"'
	check_eq "$(fc_get "$A" t0 "$sd")" "100 ethtool" "t0 at 100 Mb/s full duplex"
	ip netns exec "$A" ethtool -s t0 speed 100 duplex half autoneg off
	ip -n "$A" link set t0 up
	check_eq "$(fc_get "$A" t0 "$sd")" "0 none" "t0 at 100 Mb/s half duplex, after up"
	ip -n "$A" link set t0 down
	ip netns exec "$A" ethtool -s t0 speed 1000 duplex full autoneg off
	ip -n "$A" link set t0 up
	check_eq "$(fc_get "$A" t0 "$sd")" "1000 ethtool" "t0 at 1000 Mb/s full duplex, after up"
	ip -n "$A" link del t0
	log_test "a half-duplex link has no speed for quanta (ethtool's duplex read at up)"
}

cleanup()
{
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed
run_tests
