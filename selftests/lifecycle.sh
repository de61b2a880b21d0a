#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Attach, detach and replace the qdisc while traffic flows and PAUSE/PFC
# frames arrive; take the link down and up; delete a namespace with the
# qdisc attached; the ingress static keys held while a flowctl qdisc exists
# and let go after the last; rmmod after. Nothing may oops, warn or leak: vm-run fails
# the run on any BUG/WARNING in dmesg, and the kernel runs panic_on_warn.
#
#   +----------- ns A -----------+      +----------- ns B -----------+
#   | fctest send (prio 0 and 3) |      | fctest recv                |
#   | a0 flowctl (attach/detach) |======| b0: PAUSE/PFC every 200 us |
#   +----------------------------+ veth +----------------------------+

ALL_TESTS="churn_under_load link_flap netns_delete ingress_keys rmmod_after"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc

setup_prepare()
{
	setup_ns A B
	veth_pair "$A" a0 "$B" b0
	ip -n "$A" addr add 198.18.0.1/24 dev a0
	ip -n "$B" addr add 198.18.0.2/24 dev b0
	ip -n "$A" neigh add 198.18.0.2 lladdr "$(mac_of "$B" b0)" dev a0 nud permanent
	MAC_B=$(mac_of "$B" b0)
}

load()
{
	ip netns exec "$B" "$FCTEST" recv 6000 2 >/dev/null &
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 6000 100 30000 prio 0 >/dev/null &
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 6000 100 30000 prio 3 >/dev/null &
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 3000)" \
		count 5000 interval-us 200 &
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 3000)" \
		count 5000 interval-us 200 &
}

churn_under_load()
{
	local i err=0

	load
	for i in $(seq 1 30); do
		ip netns exec "$A" tc qdisc replace dev a0 root flowctl || err=1
		fc "$A" set dev a0 speed 100 tx on mode $([ $((i % 2)) -eq 0 ] && echo pfc || echo pause) \
			>/dev/null 2>&1
		fc "$A" -j -s show >/dev/null || err=1
		[ $((i % 5)) -eq 0 ] && ip netns exec "$A" tc qdisc replace dev a0 root pfifo_fast
		[ $((i % 7)) -eq 0 ] && ip netns exec "$A" tc qdisc del dev a0 root 2>/dev/null
	done
	check_err $err "attach/replace/show failed during churn"
	ip netns exec "$A" tc qdisc replace dev a0 root flowctl
	wait
	ip netns exec "$A" tc -s qdisc show dev a0 | grep -q 'qdisc flowctl'
	check_err $? "flowctl not attached at the end"
	log_test "attach/replace/detach under traffic and a PAUSE/PFC stream"
}

link_flap()
{
	local i

	ip netns exec "$A" tc qdisc replace dev a0 root flowctl
	fc "$A" set dev a0 speed 100
	load
	for i in $(seq 1 10); do
		ip -n "$A" link set a0 down
		ip -n "$A" link set a0 up
		sleep 0.1
	done
	wait
	ip netns exec "$A" tc qdisc show dev a0 | grep -q flowctl
	check_err $? "flowctl gone after link flaps"
	check_eq "$(fc_get "$A" a0 '.prio | map(.backlog_packets) | add')" 0 \
		"backlog after the link flaps and the stream ended"
	log_test "link down/up under traffic and PAUSE"
}

# mod_refs: the module's reference count (each flowctl qdisc holds one).
mod_refs()
{
	awk '$1 == "flowctl" { print $3 }' /proc/modules
}

# The port must really go: its qdisc's module reference is dropped and the
# veth pair (both ends) destroyed, which the kernel does asynchronously
# after "ip netns del" returns.
netns_delete()
{
	local r0 r1 i

	setup_ns X Y
	veth_pair "$X" x0 "$Y" y0
	r0=$(mod_refs)
	ip netns exec "$X" tc qdisc add dev x0 root flowctl
	fc "$X" set dev x0 speed 10
	check_eq "$(fc "$X" -j show | jq length)" 1 "flowctl ports in the namespace before"
	check_eq "$(mod_refs)" $((r0 + 1)) "module references with the port attached"
	ip netns exec "$Y" "$FCTEST" raw y0 "$(pause_hex "$(mac_of "$Y" y0)" 65535)" \
		count 1000 interval-us 100 &
	for ((i = 0; i < 40; i++)); do
		[ "$(fc_get "$X" x0 .prio[0].paused)" = true ] && break
		sleep 0.05
	done
	check_eq "$(fc_get "$X" x0 .prio[0].paused)" true "x0 paused before the delete"
	ip netns del "$X"
	check_err $? "deleting a namespace with a flowctl qdisc failed"
	for ((i = 0; i < 100; i++)); do
		r1=$(mod_refs)
		[ "$r1" -eq "$r0" ] && ! ip -n "$Y" link show dev y0 >/dev/null 2>&1 && break
		sleep 0.1
	done
	check_eq "$r1" "$r0" "module references 10 s after the namespace was deleted"
	ip -n "$Y" link show dev y0 >/dev/null 2>&1
	check_fail $? "y0, x0's peer, still exists 10 s after the namespace was deleted"
	wait
	log_test "namespace deleted with a paused flowctl qdisc attached: the port is torn down"
}

KEYS=/sys/module/flowctl/parameters/ingress_keys_held

# keys_become Y|N: wait up to 5 s for the module's ingress keys state.
keys_become()
{
	local i

	for ((i = 0; i < 50; i++)); do
		[ "$(cat "$KEYS")" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# pause_x0 N: y0 sends N PAUSE frames; wait up to 2 s for x0 to count them.
pause_x0()
{
	local i

	ip netns exec "$Y" "$FCTEST" raw y0 "$(pause_hex "$(mac_of "$Y" y0)" 100)" count "$1"
	for ((i = 0; i < 40; i++)); do
		[ "$(fc_get "$X" x0 .stats.rx_pause)" = "$1" ] && break
		sleep 0.05
	done
}

# The module holds the ingress static keys while a flowctl qdisc exists
# and lets them go a second after the last one: with the module loaded and
# no qdisc, the receive path pays nothing. A port still attached keeps
# them (and keeps honoring PAUSE) when another goes.
ingress_keys()
{
	local r0 i

	cleanup_ns
	# The case is about the loaded module, whichever case ran before.
	modprobe flowctl
	r0=0
	for ((i = 0; i < 100; i++)); do
		r0=$(mod_refs)
		[ "$r0" -eq 0 ] && break
		sleep 0.1
	done
	check_eq "$r0" 0 "flowctl qdiscs left in the VM before the case"
	keys_become N
	check_err $? "the ingress keys still held with no flowctl qdisc (reads $(cat "$KEYS"))"
	setup_ns X Y
	veth_pair "$X" x0 "$Y" y0
	veth_pair "$X" x1 "$Y" y1
	ip netns exec "$X" tc qdisc add dev x0 root flowctl
	ip netns exec "$X" tc qdisc add dev x1 root flowctl
	check_eq "$(cat "$KEYS")" Y "ingress keys with two ports attached"
	ip netns exec "$X" tc qdisc del dev x1 root
	sleep 2
	check_eq "$(cat "$KEYS")" Y "ingress keys 2 s after one of two ports went"
	pause_x0 3
	check_eq "$(fc_get "$X" x0 .stats.rx_pause)" 3 "PAUSE frames x0 counted after x1 went"
	# The last one goes and a new one comes within the second: the
	# pending release must leave the keys to it.
	ip netns exec "$X" tc qdisc del dev x0 root
	ip netns exec "$X" tc qdisc add dev x0 root flowctl
	sleep 2
	check_eq "$(cat "$KEYS")" Y "ingress keys 2 s after a port came back within the second"
	pause_x0 2
	check_eq "$(fc_get "$X" x0 .stats.rx_pause)" 2 "PAUSE frames the new x0 counted"
	ip netns exec "$X" tc qdisc del dev x0 root
	keys_become N
	check_err $? "the ingress keys still held 5 s after the last port went"
	log_test "ingress static keys held while a flowctl qdisc exists, let go after the last"
}

rmmod_after()
{
	cleanup_ns
	# Namespaces are torn down asynchronously: wait for the last qdisc.
	for _ in $(seq 1 50); do
		rmmod flowctl 2>/dev/null && break
		sleep 0.2
	done
	! grep -q '^flowctl ' /proc/modules
	check_err $? "rmmod flowctl failed after every qdisc was gone"
	modprobe flowctl
	log_test "rmmod after churn"
}

setup_prepare || setup_failed
run_tests
