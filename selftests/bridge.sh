#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# On a bridge port, PAUSE reaches flowctl before the bridge sees it, and the
# bridge never forwards it.
#
#   +-- ns A --+      +------------ ns S ------------+      +-- ns C --+
#   |   a0     |======| s0 (flowctl)  br0  s1        |======|   c0     |
#   +----------+ veth +-------------------------------+ veth +----------+
#
# Baseline: a frame to the same group address that is not MAC Control
# (EtherType 0x88b5, local experimental) reaches the bridge, which drops
# 01-80-C2-00-00-01 as link-local; a unicast frame of that EtherType to
# C's address is forwarded, so the capture on c0 works and would see a
# PAUSE addressed the same way if the bridge forwarded it.

ALL_TESTS="pause_counted_not_forwarded"
source "$(dirname "$0")/lib.sh"
require_cmd jq tcpdump

TMP=$(mktemp -d)

setup_prepare()
{
	setup_ns A S C
	veth_pair "$A" a0 "$S" s0
	veth_pair "$S" s1 "$C" c0
	ip -n "$S" link add name br0 type bridge
	ip -n "$S" link set s0 master br0
	ip -n "$S" link set s1 master br0
	ip -n "$S" link set br0 up
	ip netns exec "$S" tc qdisc add dev s0 root flowctl || return 1
	fc "$S" set dev s0 speed 100
}

pause_counted_not_forwarded()
{
	local mac_a mac_c cap before after seen fwd

	mac_a=$(mac_of "$A" a0)
	mac_c=$(mac_of "$C" c0)
	ip netns exec "$C" tcpdump -Z root -i c0 -nn -e -w "$TMP/c0.pcap" -U \
		'ether proto 0x8808 or ether proto 0x88b5' 2>"$TMP/tcpdump.err" &
	cap=$!
	sleep 1
	before=$(fc_get "$S" s0 .stats.rx_pause)
	# PAUSE to the group address and to C's unicast address (a PAUSE to a
	# unicast address that is not ours is malformed for s0, and must not be
	# forwarded either).
	ip netns exec "$A" "$FCTEST" raw a0 "$(pause_hex "$mac_a" 1000)" count 10
	ip netns exec "$A" "$FCTEST" raw a0 "$(pause_hex "$mac_a" 1000 "$mac_c")" count 10
	# Baseline traffic that the bridge does forward: unicast to C, 0x88b5.
	ip netns exec "$A" "$FCTEST" raw a0 \
		"${mac_c//:/}${mac_a//:/}88b5$(printf '%0*d' 92 0)" count 5
	sleep 1
	kill $cap
	wait $cap 2>/dev/null
	after=$(fc_get "$S" s0 .stats.rx_pause)
	check_eq $((after - before)) 10 "PAUSE frames counted by flowctl on s0"
	check_eq "$(fc_get "$S" s0 .stats.rx_malformed)" 10 \
		"PAUSE to a foreign unicast DA counted as malformed"
	# One line per frame starts with its timestamp; hex dumps are indented.
	seen=$(tcpdump -r "$TMP/c0.pcap" -nn 'ether proto 0x8808' 2>/dev/null |
	       grep -c '^[0-9]')
	fwd=$(tcpdump -r "$TMP/c0.pcap" -nn 'ether proto 0x88b5' 2>/dev/null |
	      grep -c '^[0-9]')
	check_eq "$fwd" 5 "baseline frames forwarded by the bridge to c0"
	check_eq "$seen" 0 "MAC Control frames seen on c0"
	log_test "PAUSE on a bridge port is consumed by flowctl, never forwarded"
}

cleanup()
{
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed
run_tests
