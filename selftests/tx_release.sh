#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A port that stops sending PAUSE releases its partner at once: detaching
# the qdisc, "tx off" and a mode change each send XON for the XOFF in force,
# so the partner's gate opens within milliseconds, not when its 65535
# quanta run out (3.4 s at 10 Mb/s). Also: flowctl refuses any parent but
# root.
#
#   +-- ns H --+        +----------- ns S -----------+        +-- ns R --+
#   | a0       |========| s0 (tx on)  br0   s1       |========| b0       |
#   | flowctl  |  veth  | flowctl           flowctl  |  veth  | sends    |
#   | speed 10 |        | xoff 20k          speed 10 |        | PAUSE    |
#   +----------+        +----------------------------+        +----------+
#
# R keeps s1 paused, so what H sends waits in s1's band charged to s0, and
# s0 holds an XOFF to a0.

ALL_TESTS="detach_releases tx_off_releases mode_change_releases reset_releases"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc

TMP=$(mktemp -d)
REFRESH=

topology()
{
	cleanup_ns
	setup_ns H S R
	no_ipv6 "$H" || return 1
	veth_pair "$H" a0 "$S" s0
	veth_pair "$S" s1 "$R" b0
	ip -n "$S" link add name br0 type bridge
	ip -n "$S" link set s0 master br0
	ip -n "$S" link set s1 master br0
	ip -n "$S" link set br0 up
	ip -n "$H" addr add 198.18.0.1/24 dev a0
	ip -n "$H" neigh add 198.18.0.2 lladdr "$(mac_of "$R" b0)" dev a0 nud permanent
	ip netns exec "$H" tc qdisc add dev a0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s1 root flowctl || return 1
	fc "$H" set dev a0 speed 10 mode pause rx on || return 1
	fc "$S" set dev s1 speed 10 mode pause rx on || return 1
	fc "$S" set dev s0 speed 10 tx on mode pause xoff 20k xon 10k \
		prio 0 xoff 20k xon 10k || return 1
}

# xoff_in_force: pause s1 from R (refreshed every second), fill s1's band
# from H; returns once a0 is paused by s0's XOFF.
xoff_in_force()
{
	local mac_r i

	mac_r=$(mac_of "$R" b0)
	ip netns exec "$R" "$FCTEST" raw b0 "$(pause_hex "$mac_r" 65535)" \
		count 30 interval-us 1000000 &
	REFRESH=$!
	# s1 held first (the sender of the PAUSE can start late on a loaded
	# host): then H's bytes stay charged to s0.
	for i in $(seq 50); do
		[ "$(fc_get "$S" s1 .prio[0].paused)" = true ] && break
		sleep 0.1
	done
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 0 100 size 1000 >/dev/null
	for i in $(seq 50); do
		[ "$(fc_get "$H" a0 .prio[0].paused)" = true ] && return 0
		sleep 0.1
	done
	return 1
}

stop_refresh()
{
	[ -z "$REFRESH" ] || kill "$REFRESH" 2>/dev/null
	wait "$REFRESH" 2>/dev/null
	REFRESH=
}

# released WHAT: a0's gate open at the first look after WHAT, by an XON.
released()
{
	local s

	s=$(fc "$H" -j -s show dev a0)
	check_eq "$(echo "$s" | jq '.[0].prio[0].paused')" false \
		"a0 still paused right after $1 (left: $(echo "$s" | jq '.[0].prio[0].pause_left_ns') ns)"
	[ "$(echo "$s" | jq '.[0].stats.rx_xon')" -ge 1 ]
	check_err $? "a0 received no XON after $1"
}

detach_releases()
{
	topology || { check_err 1 "setup failed"; log_test "detach sends XON"; return; }
	xoff_in_force
	check_err $? "s0 never paused a0 (precondition)"
	check_eq "$(fc_get "$H" a0 .stats.rx_xon)" 0 "XON before the detach"
	ip netns exec "$S" tc qdisc del dev s0 root
	released "tc qdisc del dev s0 root"
	stop_refresh
	log_test "detaching a pausing port sends XON: the partner's gate opens at once"
}

tx_off_releases()
{
	topology || { check_err 1 "setup failed"; log_test "tx off sends XON"; return; }
	xoff_in_force
	check_err $? "s0 never paused a0 (precondition)"
	fc "$S" set dev s0 tx off
	released "flowctl set dev s0 tx off"
	check_eq "$(fc_get "$S" s0 .stats.tx_xon)" 1 "s0's XON counted"
	stop_refresh
	log_test "tx off sends XON for the XOFF in force"
}

mode_change_releases()
{
	topology || { check_err 1 "setup failed"; log_test "mode change sends XON"; return; }
	xoff_in_force
	check_err $? "s0 never paused a0 (precondition)"
	# PAUSE to PFC: the link-level XOFF is released with a PAUSE XON, and
	# the charge (priority 0) asks for a PFC XOFF, which a0 (mode pause)
	# does not honor.
	fc "$S" set dev s0 mode pfc pfc-prios 0
	released "flowctl set dev s0 mode pfc"
	check_eq "$(fc_get "$S" s0 .stats.tx_xon)" 1 "s0's PAUSE XON counted"
	[ "$(fc_get "$S" s0 .prio[0].tx_pfc)" -ge 1 ]
	check_err $? "s0 sent no PFC XOFF for priority 0 after the mode change"
	# One snapshot of a0 (s0 keeps refreshing its PFC XOFF, so two reads
	# can straddle a frame), then s0's count, which can only have grown.
	local a got ign sent
	a=$(fc "$H" -j -s show dev a0)
	got=$(echo "$a" | jq '.[0].stats.rx_pfc')
	ign=$(echo "$a" | jq '.[0].stats.rx_ignored')
	sent=$(fc_get "$S" s0 .stats.tx_pfc)
	log_info "s0 sent $sent PFC frames; a0 received $got, ignored $ign"
	[ "$got" -ge 1 ] && [ "$got" -le "$sent" ]
	check_err $? "a0 received $got PFC frames of the $sent s0 sent"
	check_eq "$ign" "$got" "PFC frames a0 ignored (mode pause) of those it received"
	stop_refresh
	log_test "a mode change releases the state in force and sends the new one"
}

reset_releases()
{
	topology || { check_err 1 "setup failed"; log_test "reset sends XON"; return; }
	xoff_in_force
	check_err $? "s0 never paused a0 (precondition)"
	# Replacing s1's qdisc purges the bytes charged to s0: below XON, s0
	# releases a0 although s1's own qdisc is being replaced meanwhile.
	ip netns exec "$S" tc qdisc replace dev s1 root pfifo
	sleep 0.05
	released "tc qdisc replace dev s1 (the charge purged)"
	check_eq "$(fc "$S" -j -s show dev s0 | jq '[.[0].prio[].charge_bytes] | add')" 0 \
		"charge to s0 after the purge"
	stop_refresh
	log_test "purging the charged bytes releases the partner"
}

cleanup()
{
	stop_refresh
	cleanup_ns
	rm -rf "$TMP"
}

run_tests
