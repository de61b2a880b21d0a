#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The bytes an egress port holds are charged to the flowctl port they came
# in on, which the egress port finds by skb_iif. That index belongs to the
# namespace the frame was received in: a frame routed in namespace B and
# handed by a macvlan to its lower device in namespace A keeps an index of
# B, which in A can name an unrelated flowctl port. Such a port must not be
# charged (nor send XOFF for bytes it never received); a port whose frames
# are really routed out of the egress port in its own namespace still is.
#
#   +-- ns H --+      +---------------- ns A ------------------+      +-- ns S --+
#   | hp       |======| port0 (index 42) flowctl tx on, xoff 20k |      |          |
#   |          | veth |   routed 198.18.9.0/24 -> egress          |      |          |
#   +----------+      |            egress flowctl rate 128kbit   |======| sink     |
#                     |            ^ lower of mvl (in ns B)      | veth |          |
#   +-- ns G --+      +------------|-----------------------------+      +----------+
#   | hr       |======| rcv (index 42) --routed--> mvl (macvlan)  |
#   |          | veth |                 ns B                     |
#   +----------+      +------------------------------------------+
#
# port0 in A and rcv in B have the same ifindex, 42. What G sends is
# received on rcv, routed in B out mvl, and queued at egress (ns A) with
# skb_iif 42. Where a device stacked on egress lives in another namespace,
# as mvl does, frames that reach egress unbridged are charged to no port
# (Documentation/sending.md): the first case runs without mvl.

ALL_TESTS="routed_charged other_namespace_not_charged"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc

TMP=$(mktemp -d)

# topology [mvl]: with mvl, the macvlan on egress, in ns B.
topology()
{
	local with=${1:-}

	cleanup_ns
	setup_ns H G A B S
	no_ipv6 "$H" "$G" || return 1
	ip -n "$A" link add name port0 index 42 type veth peer name hp netns "$H" || return 1
	ip -n "$B" link add name rcv index 42 type veth peer name hr netns "$G" || return 1
	veth_pair "$A" egress "$S" sink || return 1
	local d
	for d in "$A port0" "$A egress" "$B rcv" "$H hp" "$G hr"; do
		# shellcheck disable=SC2086
		set -- $d
		ip -n "$1" link set "$2" up
	done
	ip netns exec "$A" sysctl -qw net.ipv4.ip_forward=1
	ip netns exec "$B" sysctl -qw net.ipv4.ip_forward=1
	ip -n "$H" addr add 198.18.1.2/24 dev hp
	ip -n "$A" addr add 198.18.1.1/24 dev port0
	ip -n "$A" addr add 198.18.2.1/24 dev egress
	ip -n "$S" addr add 198.18.2.2/24 dev sink
	ip -n "$G" addr add 198.18.3.2/24 dev hr
	ip -n "$B" addr add 198.18.3.1/24 dev rcv
	ip -n "$H" route add default via 198.18.1.1
	ip -n "$G" route add default via 198.18.3.1
	local mac_ls
	mac_ls=$(mac_of "$S" sink)
	ip -n "$A" route add 198.18.9.0/24 dev egress
	ip -n "$A" neigh add 198.18.9.9 lladdr "$mac_ls" dev egress nud permanent
	if [ "$with" = mvl ]; then
		ip -n "$A" link add link egress name mvl type macvlan mode bridge || return 1
		ip -n "$A" link set mvl netns "$B" || return 1
		ip -n "$B" link set mvl up
		ip -n "$B" addr add 198.18.4.1/24 dev mvl
		ip -n "$B" route add 198.18.9.0/24 dev mvl
		ip -n "$B" neigh add 198.18.9.9 lladdr "$mac_ls" dev mvl nud permanent
	fi
	check_eq "$(ip -n "$A" -j link show dev port0 | jq '.[0].ifindex')" 42 "port0's ifindex"
	check_eq "$(ip -n "$B" -j link show dev rcv | jq '.[0].ifindex')" 42 "rcv's ifindex"
	ip netns exec "$A" tc qdisc add dev port0 root flowctl || return 1
	ip netns exec "$A" tc qdisc add dev egress root flowctl || return 1
	fc "$A" set dev port0 speed 10 mode pause tx on xoff 20k xon 10k || return 1
	fc "$A" set dev egress rate 128kbit || return 1
}

# burst NS: 200 datagrams of 1000 B to 198.18.9.9 from NS, 200 us apart:
# 200 KB, which egress (128 kbit/s) takes 13 s to send, so most of it is
# still queued when the test looks, even on a slow (debug) kernel.
burst()
{
	ip netns exec "$1" "$FCTEST" send 198.18.9.9 9000 200 200 size 1000 >/dev/null
}

# look: from one dump, port0's charge, XOFF sent and partner-ignored, and
# egress's backlog bytes and packets seen (sent + queued).
look()
{
	fc "$A" -j -s show | jq -r '
		(.[] | select(.ifname == "port0")) as $p |
		(.[] | select(.ifname == "egress")) as $e |
		"\([$p.prio[].charge_bytes] | add) \($p.stats.tx_pause) \($p.stats.partner_ignored) " +
		"\([$e.prio[].backlog_bytes] | add) " +
		"\([$e.prio[] | .tx_packets + .backlog_packets] | add)"'
}

routed_charged()
{
	local p x ign l n

	topology || { check_err 1 "setup failed"; log_test "routed frames are charged"; return; }
	burst "$H"
	read -r p x ign l n < <(look)
	log_info "port0 charged $p B, sent PAUSE $x; egress holds $l B of $n packets"
	[ "$n" -ge 150 ] && [ "$l" -gt 20000 ]
	check_err $? "egress saw $n packets and holds $l B: the burst did not queue (precondition)"
	[ "$p" -gt 0 ]
	check_err $? "port0 not charged for the frames it routed out egress"
	[ "$x" -ge 1 ]
	check_err $? "port0 sent no XOFF with $p B charged (xoff 20k)"
	log_test "frames routed from port0 out egress, in one namespace, are charged to port0"
}

other_namespace_not_charged()
{
	local p x ign l n

	topology mvl || { check_err 1 "setup failed"; log_test "other namespace not charged"; return; }
	burst "$G"
	read -r p x ign l n < <(look)
	log_info "port0 charged $p B, sent PAUSE $x; egress holds $l B of $n packets (from rcv, index 42 of ns B)"
	[ "$n" -ge 150 ] && [ "$l" -gt 20000 ]
	check_err $? "egress saw $n packets and holds $l B: the burst from ns B did not queue (precondition)"
	check_eq "$p" 0 "bytes charged to port0, which received none of them"
	check_eq "$x" 0 "XOFF sent by port0"
	check_eq "$ign" 0 "partner-ignored of port0"
	log_test "an index of another namespace does not charge the port it names here"
}

cleanup()
{
	cleanup_ns
	rm -rf "$TMP"
}

run_tests
