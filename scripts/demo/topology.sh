# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The lab's topology, sourced by scripts/demo/experiments.sh (inside the VM,
# as root). The classic 10G-in, 1G-out lab, scaled to what TCG runs:
#
#   +- hostA -+        +------------------ switch -------------------+      +- hostB -+
#   | a0      |========| s0 (tx)          br0         s1 (rate R)    |======| b0      |
#   | flowctl |  veth  | flowctl                      flowctl        | veth |         |
#   | 10 x R  |        |                              s2 (hol only)  |      +---------+
#   +---------+        +-------------------------------||------------+      +- hostC -+
#                                                      ++=====================| c0      |
#                                                                             +---------+
#
# Every port is a flowctl qdisc. s1 is the slow link (rate R); a0 is shaped
# to 10 x R, as a link ten times faster would be, so the kernel's backlog
# queue between a veth pair does not act as a wire of unbounded length. s2
# (head-of-line experiment) has no shaper: hostC's path is uncongested.
#
# Priorities cross the switch as DSCP (CS3 = priority 3), since veth zeroes
# skb->priority: a0 and s0 trust DSCP. Both ends of the fast link use speed
# 1000 for quanta: 65535 quanta then last 33.5 ms and the XOFF refresh runs
# every 16.8 ms, which TCG's timers keep. s0's thresholds leave 724 KiB of
# headroom between XOFF and s1's 1 MiB limit for a partner that reacts in
# software under TCG (29 ms of a0 at 200 Mb/s; with 500 KiB, 20 ms, a host
# busy with other VMs made the lossless runs drop) and 150 KiB of
# hysteresis (Documentation/sending.md).

# tc reads flowctl's options through q_flowctl.so (userland/tc): without it
# "tc -j" writes "[Unknown qdisc, optlen=N]" into its JSON. The plugin next
# to tc's own plugins, in a directory of the VM's /tmp (as selftests/lib.sh).
if [ -z "${TC_LIB_DIR:-}" ]; then
	lab_tc_plugin=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/userland/tc/q_flowctl.so
	if [ -f "$lab_tc_plugin" ]; then
		TC_LIB_DIR=$(mktemp -d "${TMPDIR:-/tmp}/flowctl-tc-lib.XXXXXX")
		for f in /usr/lib/*-linux-gnu/tc/* /usr/lib/tc/*; do
			[ -e "$f" ] && ln -sf "$f" "$TC_LIB_DIR/"
		done
		ln -sf "$lab_tc_plugin" "$TC_LIB_DIR/q_flowctl.so"
		export TC_LIB_DIR
	fi
fi

LAB_XOFF=${LAB_XOFF:-300k}
LAB_XON=${LAB_XON:-150k}

# lab_names PREFIX: the namespace names of one lab instance.
lab_names()
{
	NS_A=${1}hostA
	NS_S=${1}switch
	NS_B=${1}hostB
	NS_C=${1}hostC
}

lab_mac()
{
	ip -n "$1" -j link show dev "$2" | jq -r '.[0].address'
}

lab_veth()
{
	ip link add name "$2" netns "$1" type veth peer name "$4" netns "$3" || return 1
	ip -n "$1" link set dev "$2" up && ip -n "$3" link set dev "$4" up
}

# lab_up PREFIX RATE_MBIT WITH_C: build the topology (WITH_C=1 adds hostC).
lab_up()
{
	local rate=$2 with_c=$3 ns p ports

	lab_names "$1"
	for ns in "$NS_A" "$NS_S" "$NS_B"; do
		ip netns add "$ns" && ip -n "$ns" link set dev lo up || return 1
	done
	lab_veth "$NS_A" a0 "$NS_S" s0 || return 1
	lab_veth "$NS_S" s1 "$NS_B" b0 || return 1
	ip -n "$NS_S" link add name br0 type bridge || return 1
	ip -n "$NS_S" link set dev s0 master br0
	ip -n "$NS_S" link set dev s1 master br0
	ip -n "$NS_A" addr add 198.18.0.1/24 dev a0
	ip -n "$NS_B" addr add 198.18.0.2/24 dev b0
	ip -n "$NS_A" neigh add 198.18.0.2 lladdr "$(lab_mac "$NS_B" b0)" dev a0 nud permanent
	ip -n "$NS_B" neigh add 198.18.0.1 lladdr "$(lab_mac "$NS_A" a0)" dev b0 nud permanent
	if [ "$with_c" = 1 ]; then
		ip netns add "$NS_C" && ip -n "$NS_C" link set dev lo up || return 1
		lab_veth "$NS_S" s2 "$NS_C" c0 || return 1
		ip -n "$NS_S" link set dev s2 master br0
		ip -n "$NS_C" addr add 198.18.0.3/24 dev c0
		ip -n "$NS_A" neigh add 198.18.0.3 lladdr "$(lab_mac "$NS_C" c0)" dev a0 nud permanent
		ip -n "$NS_C" neigh add 198.18.0.1 lladdr "$(lab_mac "$NS_A" a0)" dev c0 nud permanent
	fi
	ip -n "$NS_S" link set dev br0 up
	tc -n "$NS_A" qdisc add dev a0 root flowctl || return 1
	ports=(s0 s1)
	[ "$with_c" = 1 ] && ports+=(s2)
	for p in "${ports[@]}"; do
		tc -n "$NS_S" qdisc add dev "$p" root flowctl || return 1
	done
	flowctl -n "$NS_S" set dev s1 rate "${rate}mbit" || return 1
	# hostA's queue holds what the switch holds back: room for every
	# stream's window, so hostA does not drop its own traffic while paused.
	flowctl -n "$NS_A" set dev a0 speed 1000 rate "$((10 * rate))mbit" trust dscp \
		limit 4m || return 1
	flowctl -n "$NS_S" set dev s0 speed 1000 trust dscp xoff "$LAB_XOFF" xon "$LAB_XON" \
		prio 3 xoff "$LAB_XOFF" xon "$LAB_XON" || return 1
}

# lab_mode PREFIX MODE: off | pause | pfc | ends (PAUSE sent, rx off at hostA)
# | manual | dcbx: the switch sends PFC for priority 3 while hostA, set by
# hand, honors only PAUSE (seed 6.2's mismatched ends); in dcbx the DCBX
# agents then run (experiments.sh) and hostA, willing, adopts the switch's
# PFC configuration.
lab_mode()
{
	lab_names "$1"
	case $2 in
	off)
		flowctl -n "$NS_S" set dev s0 tx off mode pause &&
			flowctl -n "$NS_A" set dev a0 mode pause rx on ;;
	pause)
		flowctl -n "$NS_S" set dev s0 tx on mode pause &&
			flowctl -n "$NS_A" set dev a0 mode pause rx on ;;
	pfc)
		flowctl -n "$NS_S" set dev s0 tx on mode pfc pfc-prios 3 &&
			flowctl -n "$NS_A" set dev a0 mode pfc pfc-prios all rx on ;;
	ends)
		flowctl -n "$NS_S" set dev s0 tx on mode pause &&
			flowctl -n "$NS_A" set dev a0 mode pause rx off ;;
	manual | dcbx)
		flowctl -n "$NS_S" set dev s0 tx on mode pfc pfc-prios 3 &&
			flowctl -n "$NS_A" set dev a0 mode pause rx on ;;
	*)
		echo "lab: unknown mode $2" >&2
		return 1 ;;
	esac
}

# lab_down PREFIX
lab_down()
{
	local ns

	lab_names "$1"
	for ns in "$NS_A" "$NS_S" "$NS_B" "$NS_C"; do
		[ -e "/run/netns/$ns" ] || continue
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	return 0
}
