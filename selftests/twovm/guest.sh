#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# One half of scripts/twovm's lab, run inside its VM by vm-run: ROLE a (host
# A) or b (switch S and host R). The halves meet on the wire (FLOWCTL_WIRES:
# the NIC whose frames go to the other VM) and agree on each phase through
# files in DIR, the results share both VMs mount.
#
#   VM A                          VM B
#   a0 flowctl rate 200 Mb/s ==== s0 flowctl (tx) - br0 - s1 flowctl rate 20 Mb/s == b0 (ns R)
#   198.18.0.1                                                                       198.18.0.2
#
# Phases: baseline (s0 tx off) and lossless (s0 tx on). In each, A sends
# 3000 datagrams of 1400 B to R as fast as a0's rate lets; B reports what
# s1 dropped, what R received and the PAUSE s0 sent; A what a0 received.
#
#   selftests/twovm/guest.sh a|b DIR
set -u
role=${1:?usage: $0 a|b DIR}
dir=${2:?usage: $0 a|b DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
FCTEST=$here/tools/fctest
PHASES="baseline lossless"

NAME=twovm
# shellcheck source=selftests/twovm/lib.sh
source "$here/twovm/lib.sh"
say "kernel $(uname -r), wire $wmodel on $wif ($wmac)"

# drops: what s1 dropped, as flowctl counts it per band (tc -j would need
# the q_flowctl.so plugin to print valid JSON).
drops()
{
	local v

	v=$(flowctl -j -s show dev s1 | jq '[.[0].prio[].drops // 0] | add // 0') || die "flowctl show s1"
	echo "${v:-0}"
}

if [ "$role" = b ]; then
	ip link set dev "$wif" name s0 || die "rename $wif"
	ip link set s0 up
	ip netns add R || die "netns R"
	ip link add name s1 type veth peer name b0 netns R || die "veth"
	ip link add name br0 type bridge
	ip link set s0 master br0
	ip link set s1 master br0
	ip link set s1 up
	ip link set br0 up
	ip -n R link set lo up
	ip -n R link set b0 up
	ip -n R addr add 198.18.0.2/24 dev b0
	tc qdisc add dev s0 root flowctl || die "flowctl on s0"
	tc qdisc add dev s1 root flowctl || die "flowctl on s1"
	flowctl set dev s1 rate 20mbit || die "s1 rate"
	flowctl set dev s0 speed 100 xoff 500k xon 350k || die "s0 thresholds"
	ip -n R -j link show dev b0 | jq -r '.[0].address' >"$dir/b.mac.new"
	mv "$dir/b.mac.new" "$dir/b.mac"
	for p in $PHASES; do
		waitfile "$dir/$p.go" 600
		if [ "$p" = baseline ]; then
			flowctl set dev s0 tx off
		else
			flowctl set dev s0 tx on mode pause
		fi
		flowctl stats reset dev s0
		d0=$(drops)
		ip netns exec R "$FCTEST" recv 9100 3 >"$dir/$p.recv" &
		rp=$!
		for ((i = 0; i < 200; i++)); do
			grep -q ready "$dir/$p.recv" 2>/dev/null && break
			sleep 0.05
		done
		[ $i -lt 200 ] || die "$p: R's receiver did not start"
		touch "$dir/$p.ready"
		wait $rp
		d1=$(drops)
		got=$(awk '/^packets/ {print $2}' "$dir/$p.recv")
		s0=$(flowctl -j -s show dev s0) || die "$p: flowctl show s0"
		jq -nc --argjson drops $((d1 - d0)) --argjson got "${got:-0}" \
			--argjson s0 "$s0" \
			'{drops: $drops, received: $got, tx_pause: ($s0[0].stats.tx_pause // 0),
			  partner_ignored: ($s0[0].stats.partner_ignored // 0)}' \
			>"$dir/$p.b.new" || die "$p: the counters"
		mv "$dir/$p.b.new" "$dir/$p.b.json"
		say "$p: $(cat "$dir/$p.b.json")"
	done
	exit 0
fi

ip link set dev "$wif" name a0 || die "rename $wif"
ip link set a0 up
ip addr add 198.18.0.1/24 dev a0
tc qdisc add dev a0 root flowctl || die "flowctl on a0"
flowctl set dev a0 speed 100 rate 200mbit || die "a0 rate"
waitfile "$dir/b.mac" 600
ip neigh add 198.18.0.2 lladdr "$(cat "$dir/b.mac")" dev a0 nud permanent
# The wire is up when R answers (the bridge learns a0 on the way).
for ((i = 0; i < 100; i++)); do
	ping -c 1 -W 1 198.18.0.2 >/dev/null 2>&1 && break
done
[ $i -lt 100 ] || die "R does not answer across the wire"
for p in $PHASES; do
	flowctl stats reset dev a0
	touch "$dir/$p.go"
	waitfile "$dir/$p.ready" 120
	timeout 120 "$FCTEST" send 198.18.0.2 9100 0 3000 size 1400 >/dev/null
	waitfile "$dir/$p.b.json" 120
	a0=$(flowctl -j -s show dev a0) || die "$p: flowctl show a0"
	jq -nc --argjson a0 "$a0" '{rx_pause: ($a0[0].stats.rx_pause // 0)}' >"$dir/$p.a.json" ||
		die "$p: the counters"
	say "$p: $(cat "$dir/$p.a.json")"
done
exit 0
