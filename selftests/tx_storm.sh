#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The send-side pause-storm guard (tx-storm, Documentation/watchdog.md): a
# port must not hold its partner paused for longer than tx-storm ms. Here
# the switch's egress s1 is held for ever by R (a stuck receiver), so the
# bytes s0 let in never leave and s0 would pause H for ever: the storm
# spreads one hop. With tx-storm, s0 warns at 85% of the limit, sends XON
# at the limit, and pauses H no more until its charge falls below XON;
# what H then sends is tail-dropped at s1, where it waits.
#
#   +-- ns H --+        +------------ ns S -------------+       +-- ns R --+
#   | a0       |========| s0 (tx on)    br0     s1      |=======| b0       |
#   | flowctl  |  veth  | flowctl              flowctl  |  veth | PAUSE    |
#   +----------+        +-------------------------------+       | for ever |
#                                                               +----------+

ALL_TESTS="storm_spreads_without_guard guard_stops_the_storm guard_lets_xoff_again"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc
# The warning and the limit are times under TCG: those cases run again on
# failure.
RETRY_TIMING=1
TIMING_CASES="guard_stops_the_storm guard_lets_xoff_again"

TMP=$(mktemp -d)
SENDER=
STORM=

setup_prepare()
{
	setup_ns H S R
	no_ipv6 "$H" "$S" "$R" || return 1
	veth_pair "$H" a0 "$S" s0
	veth_pair "$S" s1 "$R" b0
	ip -n "$S" link add name br0 type bridge
	ip -n "$S" link set s0 master br0
	ip -n "$S" link set s1 master br0
	ip -n "$S" link set br0 up
	ip -n "$H" addr add 198.18.0.1/24 dev a0
	ip -n "$R" addr add 198.18.0.2/24 dev b0
	MAC_R=$(mac_of "$R" b0)
	ip -n "$H" neigh add 198.18.0.2 lladdr "$MAC_R" dev a0 nud permanent
	ip -n "$S" link set br0 type bridge ageing_time 100000
	bridge -n "$S" fdb add "$MAC_R" dev s1 master static
	ip netns exec "$H" tc qdisc add dev a0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s1 root flowctl || return 1
	# PAUSE on every port; H's link at 100 Mb/s, s1's at 10 Mb/s.
	fc "$H" set dev a0 mode pause rx on speed 100 rate 100mbit || return 1
	fc "$S" set dev s0 mode pause tx on speed 100 rate 100mbit xoff 64k xon 32k || return 1
	fc "$S" set dev s1 mode pause rx on speed 10 rate 10mbit limit 256k || return 1
}

cleanup_case()
{
	[ -n "$STORM" ] && kill "$STORM" 2>/dev/null
	[ -n "$SENDER" ] && kill "$SENDER" 2>/dev/null
	wait "$STORM" "$SENDER" 2>/dev/null
	STORM= SENDER=
	# R lets s1 go; s1 drains, s0's charge falls, H runs.
	ip netns exec "$R" "$FCTEST" raw b0 "$(pause_hex "$MAC_R" 0)" >/dev/null
	sleep 1
	fc "$S" set dev s0 tx-storm off >/dev/null
	fc "$S" stats reset dev s0 >/dev/null
	fc "$S" stats reset dev s1 >/dev/null
	fc "$H" stats reset dev a0 >/dev/null
}

# storm: R pauses s1 for ever (65535 quanta, 3.4 s at 10 Mb/s, every
# 200 ms); H sends into it at 20 Mb/s.
storm()
{
	ip netns exec "$R" "$FCTEST" raw b0 "$(pause_hex "$MAC_R" 65535)" \
		count 100000 interval-us 200000 >/dev/null &
	STORM=$!
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 400 100000 size 1000 >/dev/null 2>&1 &
	SENDER=$!
}

# s0 VALUE: one of s0's port-level values (stats or top level).
s0() { fc_get "$S" s0 "$1"; }

# wait_xoff SECONDS: until s0 pauses H.
wait_xoff()
{
	local i

	for ((i = 0; i < $1 * 20; i++)); do
		[ "$(s0 '.prio[0].xoff_active')" = true ] && return 0
		sleep 0.05
	done
	return 1
}

# wait_tx_pause N SECONDS: until s0 has sent more than N XOFF. With the
# guard an XOFF is in force for 500 ms only, which a loaded host's slow
# reads of the state can miss: the counter cannot be missed.
wait_tx_pause()
{
	local i

	for ((i = 0; i < $2 * 20; i++)); do
		[ "$(s0 .stats.tx_pause)" -gt "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

storm_spreads_without_guard()
{
	local p0 p1

	storm
	wait_xoff 10
	check_err $? "s0 never paused H (the storm did not reach it)"
	p0=$(s0 .stats.tx_pause)
	sleep 2
	p1=$(s0 .stats.tx_pause)
	check_eq "$(s0 '.prio[0].xoff_active')" true "s0's XOFF after 2 s of the storm, no guard"
	[ "$p1" -gt "$p0" ]
	check_err $? "s0 did not refresh its XOFF ($p0 -> $p1)"
	check_eq "$(fc_get "$H" a0 '.prio[0].paused')" true "H held paused by s0"
	check_eq "$(s0 .stats.tx_storm_error)" 0 "storm errors with the guard off"
	cleanup_case
	log_test "baseline: a stuck receiver's pause spreads to the sender, for as long as it lasts"
}

guard_stops_the_storm()
{
	local t0 x0 p0 p1 d

	fc "$S" set dev s0 tx-storm 500
	check_err $? "flowctl set dev s0 tx-storm 500"
	check_eq "$(s0 .tx_storm_ms)" 500 "tx_storm_ms in show"
	x0=$(s0 .stats.tx_xon)
	# From the storm's start: the first XOFF follows within a second, and
	# however long any step takes, the guard's XON must come soon after.
	t0=$(date +%s%N)
	storm
	wait_tx_pause 0 10
	check_err $? "s0 never paused H"
	for ((i = 0; i < 100; i++)); do
		[ "$(s0 .stats.tx_storm_error)" -ge 1 ] && break
		sleep 0.05
	done
	t0=$((($(date +%s%N) - t0) / 1000000))
	log_info "s0 let H go $t0 ms after the storm began (tx-storm 500 ms)"
	# The limit is the point: 500 ms after the first XOFF, with room for
	# the storm to reach s0 and for TCG's late timers.
	check_range "$t0" 0 5000 "ms from the storm's start to the guard's XON (tx-storm 500 ms)"
	check_eq "$(s0 .stats.tx_storm_warning)" 1 "warnings (at 85% of the limit)"
	check_eq "$(s0 .stats.tx_storm_error)" 1 "errors (at the limit)"
	[ "$(s0 .stats.tx_xon)" -gt "$x0" ]
	check_err $? "s0 sent no XON at the limit"
	check_eq "$(s0 '.prio[0].xoff_active')" false "s0's XOFF after the limit"
	sleep 0.3
	check_eq "$(fc_get "$H" a0 '.prio[0].paused')" false "H after the limit"
	# The storm goes on: s0 stays quiet, what H sends is dropped at s1.
	p0=$(s0 .stats.tx_pause)
	sleep 1.5
	p1=$(s0 .stats.tx_pause)
	check_eq "$p1" "$p0" "XOFF sent in 1.5 s of storm after the limit"
	check_eq "$(s0 .stats.tx_storm_error)" 1 "errors after 1.5 s more (one per storm)"
	d=$(fc_get "$S" s1 '.prio[0].drops')
	[ "$d" -gt 0 ]
	check_err $? "nothing was dropped at s1 ($d): H did not send past the held egress"
	cleanup_case
	log_test "tx-storm: XON at the limit, one warning and one error, no XOFF while the storm lasts"
}

guard_lets_xoff_again()
{
	local p0

	fc "$S" set dev s0 tx-storm 500
	storm
	for ((i = 0; i < 100; i++)); do
		[ "$(s0 .stats.tx_storm_error)" -ge 1 ] && break
		sleep 0.05
	done
	check_eq "$(s0 .stats.tx_storm_error)" 1 "the first storm's error"
	# While H offers twice s1's rate, s1's band stays full and s0's charge
	# above XON: s0 may not pause H again (that is the guard).
	kill "$STORM"; wait "$STORM" 2>/dev/null; STORM=
	ip netns exec "$R" "$FCTEST" raw b0 "$(pause_hex "$MAC_R" 0)" >/dev/null
	p0=$(s0 .stats.tx_pause)
	sleep 1
	check_eq "$(s0 .stats.tx_pause)" "$p0" "XOFF sent while the charge stayed above XON"
	# The storm and the traffic end: s1 drains, s0's charge falls below
	# XON. Then a second storm: s0 may pause H again.
	kill "$SENDER"; wait "$SENDER" 2>/dev/null; SENDER=
	sleep 1
	check_eq "$(fc_get "$S" s0 '.prio[0].charge_bytes')" 0 "s0's charge once s1 drained"
	storm
	wait_tx_pause "$p0" 10
	check_err $? "s0 did not pause H in a second storm, after its charge fell below XON"
	[ "$(s0 .stats.tx_pause)" -gt "$p0" ]
	check_err $? "no XOFF sent in the second storm"
	cleanup_case
	log_test "tx-storm: XOFF allowed again once the charge fell below XON"
}

setup_prepare || setup_failed
run_tests
