#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Stress for the debug lane (make check-debug, Documentation/check-debug.md):
# attach, detach, replace and rmmod/modprobe in loops while UDP traffic flows
# and PAUSE/PFC frames arrive, with netlink set/dump/stats loops, ethtool
# and dcb requests (the doors of dcb.c) and a monitor running in parallel.  On a stock kernel it only shows that nothing
# oopses; on the debug kernel KASAN, lockdep, debug objects and kmemleak
# judge it.  Not in selftests/run's default list (it is long): run it as
# "selftests/run stress.sh".
#
#   FLOWCTL_STRESS_SECONDS   how long each loop runs (default 60)
#
#   +------------- ns A -------------+      +----------- ns B -----------+
#   | fctest send prio 0, 3          |      | fctest recv                |
#   | a0 flowctl: attach/replace/del |======| b0, b2: PAUSE, PFC streams |
#   | a1..a3 flowctl (rmmod loop)    | veth |                            |
#   | flowctl set/show/stats/monitor |      |                            |
#   +--------------------------------+      +----------------------------+
#
# mq_churn: a4, with two TX queues, goes between the root form and mq with
# flowctl children (Documentation/mq.md), a child at a time and all at once.
#
# xoff_churn: the sending side, a switch that keeps pausing its partner
# while its ports come and go:
#
#   +- ns H -+       +----------- ns S -----------+       +- ns R -+
#   | h0     |=======| s0 (tx on)   br0   s1 1 Mb/s|=======| r0     |
#   | flowctl|       | flowctl            flowctl  |       |        |
#   +--------+       +-----------------------------+       +--------+

ALL_TESTS="churn_with_netlink mq_churn rmmod_under_load netns_teardown xoff_churn"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc ethtool dcb

SECS=${FLOWCTL_STRESS_SECONDS:-60}

setup_prepare()
{
	local i

	setup_ns A B
	for i in 0 1 2 3; do
		veth_pair "$A" a$i "$B" b$i || return 1
		ip -n "$A" addr add 198.18.$i.1/24 dev a$i
		ip -n "$B" addr add 198.18.$i.2/24 dev b$i
		ip -n "$A" neigh add 198.18.$i.2 lladdr "$(mac_of "$B" b$i)" \
			dev a$i nud permanent
	done
	ip link add name a4 numtxqueues 2 numrxqueues 2 netns "$A" type veth \
		peer name b4 numtxqueues 2 numrxqueues 2 netns "$B" || return 1
	ip -n "$A" link set a4 up
	ip -n "$B" link set b4 up
	ip -n "$A" addr add 198.18.4.1/24 dev a4
	ip -n "$B" addr add 198.18.4.2/24 dev b4
	ip -n "$A" neigh add 198.18.4.2 lladdr "$(mac_of "$B" b4)" dev a4 nud permanent
}

# bg CMD...: run CMD in the background until stop_bg.
bg()
{
	"$@" >/dev/null 2>&1 &
	BG+=($!)
}


# load I: traffic on a$I at two priorities, and PAUSE and PFC frames
# arriving on it (1000 frames/s of each), for longer than any loop runs.
# Modest rates: under TCG, with KASAN and lockdep, more only starves the
# loops that do the work.
load()
{
	local i=$1 mac n=$((SECS * 1000 + 60000)) p

	mac=$(mac_of "$B" b$i)
	bg ip netns exec "$B" "$FCTEST" recv 600$i $((SECS + 60))
	for p in 0 3; do
		bg ip netns exec "$A" "$FCTEST" send 198.18.$i.2 600$i 1000 "$n" prio $p
	done
	bg ip netns exec "$B" "$FCTEST" raw b$i "$(pause_hex "$mac" 2000)" \
		count "$n" interval-us 1000
	bg ip netns exec "$B" "$FCTEST" raw b$i "$(pfc_hex "$mac" 0x28 0 0 0 3000 0 500)" \
		count "$n" interval-us 1000
}

# netlink_loop DEV...: set, dump, stats and reset on the devices, until killed;
# errors are expected while a qdisc or the module is away.
netlink_loop()
{
	local i=0 d

	while :; do
		for d in "$@"; do
			case $((i % 4)) in
			0) fc "$A" set dev "$d" mode pfc pfc-prios 3,5 speed 1G xoff 64k xon 32k ;;
			1) fc "$A" set dev "$d" mode pause rx on tx on speed 100 quanta 1000 ;;
			2) fc "$A" set dev "$d" mode off rate 50mbit ;;
			3) fc "$A" set dev "$d" rate off limit 256k prio 3 xoff 16k xon 8k ;;
			esac
			fc "$A" -j -s show dev "$d"
			fc "$A" -j -s show
			fc "$A" stats reset dev "$d"
		done
		i=$((i + 1))
		# A breath: under TCG a loop that never sleeps starves the VM.
		sleep 0.05
	done
}

# dcb_loop [noset] DEV...: Linux's own tools on the ports while flowctl
# comes and goes (dcb.c's doors): ethtool's pause get, set and statistics,
# and DCB's PFC, ETS, APP and DCBX requests, answered or refused. noset:
# no ethtool -A, for the rmmod loop: ethtool's PAUSE_SET tests the ops
# before RTNL, and one that raced rmmod could find the driver's (no pause
# operations) when it calls them (Documentation/dcb.md, "Lifetime").
dcb_loop()
{
	local i=0 d set=1

	[ "$1" = noset ] && { set=0; shift; }
	while :; do
		for d in "$@"; do
			ip netns exec "$A" ethtool -a "$d"
			ip netns exec "$A" ethtool -I -a "$d"
			[ $set = 1 ] &&
				ip netns exec "$A" ethtool -A "$d" rx $([ $((i % 2)) -eq 0 ] && echo on || echo off)
			ip netns exec "$A" dcb -s pfc show dev "$d"
			ip netns exec "$A" dcb pfc set dev "$d" prio-pfc all:off $((i % 8)):on
			ip netns exec "$A" dcb ets show dev "$d"
			ip netns exec "$A" dcb app add dev "$d" dscp-prio $((i % 64)):$((i % 8))
			ip netns exec "$A" dcb app del dev "$d" dscp-prio $(((i + 63) % 64)):$(((i + 7) % 8))
			ip netns exec "$A" dcb dcbx show dev "$d"
		done
		i=$((i + 1))
		sleep 0.05
	done
}

churn_with_netlink()
{
	local end i=0 err=0

	ip netns exec "$A" tc qdisc replace dev a0 root flowctl || err=1
	load 0
	bg netlink_loop a0
	bg dcb_loop a0
	bg ip netns exec "$A" flowctl monitor
	end=$((SECONDS + SECS))
	while [ $SECONDS -lt $end ]; do
		i=$((i + 1))
		ip netns exec "$A" tc qdisc replace dev a0 root flowctl || err=1
		fc "$A" set dev a0 speed 100 mode $([ $((i % 2)) -eq 0 ] && echo pfc || echo pause) \
			>/dev/null 2>&1
		case $((i % 5)) in
		1) ip netns exec "$A" tc qdisc replace dev a0 root pfifo_fast ;;
		2) ip netns exec "$A" tc qdisc del dev a0 root 2>/dev/null ;;
		3) ip netns exec "$A" tc qdisc replace dev a0 root handle 1: flowctl ;;
		4) ip netns exec "$A" tc qdisc replace dev a0 root fq_codel ;;
		esac
	done
	ip netns exec "$A" tc qdisc replace dev a0 root flowctl || err=1
	stop_bg
	log_info "$i rounds of attach/replace/detach in $((SECONDS - end + SECS)) s"
	check_err $err "attaching flowctl failed during the churn"
	ip netns exec "$A" tc qdisc show dev a0 | grep -q 'qdisc flowctl'
	check_err $? "flowctl not attached at the end"
	fc "$A" -j -s show dev a0 | jq -e '.[0].prio' >/dev/null
	check_err $? "flowctl show fails after the churn"
	log_test "attach/replace/detach with netlink set/dump loops, traffic, PAUSE/PFC"
}

mq_churn()
{
	local end i=0 err=0

	load 4
	bg netlink_loop a4
	bg dcb_loop a4
	bg ip netns exec "$A" flowctl monitor
	end=$((SECONDS + SECS))
	while [ $SECONDS -lt $end ]; do
		i=$((i + 1))
		case $((i % 6)) in
		0) ip netns exec "$A" tc qdisc replace dev a4 root flowctl || err=1 ;;
		1|3) ip netns exec "$A" tc qdisc replace dev a4 root handle $((i % 4 + 1)): mq &&
		   ip netns exec "$A" tc qdisc replace dev a4 parent $((i % 4 + 1)):1 flowctl &&
		   ip netns exec "$A" tc qdisc replace dev a4 parent $((i % 4 + 1)):2 flowctl mode pfc ||
			err=1 ;;
		2) ip netns exec "$A" tc qdisc replace dev a4 parent 2:1 pfifo_fast ;;
		4) ip netns exec "$A" tc qdisc replace dev a4 parent 4:2 fq_codel ;;
		5) ip netns exec "$A" tc qdisc del dev a4 root 2>/dev/null ;;
		esac
	done
	ip netns exec "$A" tc qdisc replace dev a4 root handle 9: mq || err=1
	ip netns exec "$A" tc qdisc replace dev a4 parent 9:1 flowctl || err=1
	ip netns exec "$A" tc qdisc replace dev a4 parent 9:2 flowctl || err=1
	stop_bg
	log_info "$i rounds of root, mq, child and detach in $((SECONDS - end + SECS)) s"
	check_err $err "attaching flowctl (root or under mq) failed during the churn"
	check_eq "$(fc "$A" -j show | jq '[.[] | select(.ifname == "a4")] | length')" 1 \
		"a4 listed once at the end"
	fc "$A" -j -s show dev a4 | jq -e '.[0].prio' >/dev/null
	check_err $? "flowctl show fails after the churn"
	ip netns exec "$A" tc qdisc del dev a4 root
	log_test "root and mq forms, children replaced and detached, with netlink and dcb loops, traffic, PAUSE/PFC"
}

# unload: delete every flowctl qdisc, then rmmod until it works (a qdisc
# goes away after an RCU grace period, a dump in flight holds the module).
unload()
{
	local i d

	for d in a0 a1 a2 a3 a4; do
		ip netns exec "$A" tc qdisc del dev "$d" root 2>/dev/null
	done
	for i in $(seq 1 100); do
		rmmod flowctl 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

rmmod_under_load()
{
	local end n=0 err=0 d

	load 0
	load 2
	bg netlink_loop a0 a1 a2 a3
	bg dcb_loop noset a0 a1
	bg ip netns exec "$A" flowctl monitor
	end=$((SECONDS + SECS))
	while [ $SECONDS -lt $end ]; do
		modprobe flowctl || { err=1; break; }
		for d in a0 a1 a2 a3; do
			ip netns exec "$A" tc qdisc replace dev $d root flowctl || err=1
		done
		sleep 0.$((RANDOM % 5))
		ip netns exec "$A" tc qdisc replace dev a1 root pfifo_fast
		unload || { err=2; break; }
		n=$((n + 1))
	done
	stop_bg
	log_info "$n unloads in $((SECONDS - end + SECS)) s"
	case $err in
	1) check_err 1 "modprobe flowctl or attaching it failed in the loop" ;;
	2) check_err 1 "rmmod flowctl failed after every qdisc was deleted" ;;
	esac
	modprobe flowctl
	check_err $? "modprobe after the loop"
	log_test "rmmod/modprobe while traffic flows, PAUSE/PFC arrive, netlink loops"
}

netns_teardown()
{
	local end n=0 err=0 X Y xp yp

	end=$((SECONDS + SECS / 2))
	while [ $SECONDS -lt $end ]; do
		X=fc-X-$$-$n Y=fc-Y-$$-$n
		{ ip netns add "$X" && ip netns add "$Y"; } || { err=1; break; }
		ip link add name x0 netns "$X" type veth peer name y0 netns "$Y"
		ip -n "$X" link set x0 up
		ip -n "$Y" link set y0 up
		ip -n "$X" addr add 198.18.9.1/24 dev x0
		ip -n "$X" neigh add 198.18.9.2 lladdr "$(mac_of "$Y" y0)" dev x0 nud permanent
		ip netns exec "$X" tc qdisc add dev x0 root flowctl || err=1
		ip netns exec "$X" flowctl set dev x0 mode pfc pfc-prios all >/dev/null 2>&1
		ip netns exec "$Y" "$FCTEST" raw y0 "$(pfc_hex "$(mac_of "$Y" y0)" 0xff \
			65535 65535 65535 65535 65535 65535 65535 65535)" \
			count 100000 interval-us 200 >/dev/null 2>&1 &
		yp=$!
		ip netns exec "$X" "$FCTEST" send 198.18.9.2 7000 200 100000 prio 3 >/dev/null 2>&1 &
		xp=$!
		ip netns exec "$X" flowctl monitor >/dev/null 2>&1 &
		xp="$xp $!"
		sleep 0.3
		# The name goes first; the namespace itself (and the qdisc with
		# it) when its last process exits, while PFC still arrives.
		ip netns del "$X" || err=1
		# shellcheck disable=SC2086
		kill $xp 2>/dev/null
		sleep 0.2
		kill $yp 2>/dev/null
		wait
		ip netns del "$Y"
		n=$((n + 1))
	done
	log_info "$n namespaces deleted with a paused flowctl attached"
	check_err $err "creating or deleting the namespaces failed"
	log_test "namespaces deleted under PFC, traffic and a monitor"
}

# XOFF, refresh and XON sent all the time (thresholds of a few frames, a
# 1 Mb/s egress, 102 ms quanta refreshed every 51 ms, mode switched between
# pause and pfc) while every port of the path is detached, replaced and
# re-attached, s1's link goes down and up, and netlink loops run. At the
# end, with the traffic stopped, the bytes charged to s0 return to 0.
xoff_churn()
{
	local H S R end n=0 err=0 sent charge i

	H=fc-H-$$ S=fc-S-$$ R=fc-R-$$
	ip netns add "$H" && ip netns add "$S" && ip netns add "$R" || { check_err 1 "netns"; return; }
	ip link add name h0 netns "$H" type veth peer name s0 netns "$S"
	ip link add name s1 netns "$S" type veth peer name r0 netns "$R"
	ip -n "$S" link add name br0 type bridge
	ip -n "$S" link set s0 master br0
	ip -n "$S" link set s1 master br0
	for d in "$H h0" "$S s0" "$S s1" "$S br0" "$R r0"; do
		# shellcheck disable=SC2086
		ip -n ${d% *} link set dev ${d#* } up
	done
	ip -n "$H" addr add 198.18.10.1/24 dev h0
	ip -n "$R" addr add 198.18.10.2/24 dev r0
	ip -n "$H" neigh add 198.18.10.2 lladdr "$(mac_of "$R" r0)" dev h0 nud permanent
	attach_sw()
	{
		ip netns exec "$H" tc qdisc replace dev h0 root flowctl &&
		ip netns exec "$S" tc qdisc replace dev s0 root flowctl &&
		ip netns exec "$S" tc qdisc replace dev s1 root flowctl &&
		fc "$H" set dev h0 trust dscp mode pfc pfc-prios all >/dev/null &&
		fc "$S" set dev s1 rate 1mbit >/dev/null &&
		fc "$S" set dev s0 tx on trust dscp speed 10 quanta 2000 limit 300k \
			xoff 20k xon 10k prio 3 xoff 20k xon 10k >/dev/null
	}
	attach_sw || err=1
	fc "$S" stats reset dev s0
	bg ip netns exec "$R" "$FCTEST" recv 7010 $((SECS + 60))
	bg ip netns exec "$H" "$FCTEST" send 198.18.10.2 7010 0 100000000 size 1000 tos 0x60
	bg ip netns exec "$H" "$FCTEST" send 198.18.10.2 7010 2000 100000000 size 200
	bg netlink_loop_ns "$S" s0 s1
	bg ip netns exec "$S" flowctl monitor
	end=$((SECONDS + SECS))
	while [ $SECONDS -lt $end ]; do
		case $((n % 6)) in
		0) fc "$S" set dev s0 mode pause >/dev/null ;;
		1) ip netns exec "$S" tc qdisc del dev s1 root ;;
		2) fc "$S" set dev s0 mode pfc pfc-prios 3 >/dev/null ;;
		3) ip netns exec "$S" tc qdisc del dev s0 root ;;
		4) ip -n "$S" link set dev s1 down; sleep 0.2; ip -n "$S" link set dev s1 up ;;
		5) ip netns exec "$H" tc qdisc replace dev h0 root pfifo_fast ;;
		esac
		sleep 0.5
		attach_sw || err=1
		sleep 0.5
		n=$((n + 1))
	done
	sent=$(( $(fc_get "$S" s0 .stats.tx_pause) + $(fc_get "$S" s0 .stats.tx_pfc) ))
	stop_bg
	# Drained: nothing left charged to s0 once s1's queue empties.
	for i in $(seq 100); do
		charge=$(fc "$S" -j -s show dev s0 | jq '[.[0].prio[].charge_bytes] | add')
		[ "$charge" = 0 ] && break
		sleep 0.2
	done
	log_info "$n rounds; s0 sent $sent XOFF frames since its last attach"
	check_err $err "attaching or configuring the switch failed during the churn"
	[ "$sent" -gt 0 ] 2>/dev/null
	check_err $? "s0 sent no XOFF in the last round: the sending path was not exercised"
	check_eq "$charge" 0 "bytes charged to s0 after the queues drained"
	ip netns del "$H"
	ip netns del "$S"
	ip netns del "$R"
	log_test "XOFF/XON sent while the switch's ports are detached, replaced, downed"
}

# netlink_loop_ns NS DEV...: as netlink_loop, in namespace NS.
netlink_loop_ns()
{
	local ns=$1 d

	shift
	while :; do
		for d in "$@"; do
			fc "$ns" -j -s show dev "$d"
		done
		# Not s0's: the case reads what it sent.
		fc "$ns" stats reset dev "$2"
		sleep 0.05
	done
}

setup_prepare || setup_failed
run_tests
