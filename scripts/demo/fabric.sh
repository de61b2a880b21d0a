# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The routed fabrics of the deadlock and storm labs (Documentation/watchdog.md),
# shared by make demo (scripts/demo/experiments.sh: -e deadlock, -e storm)
# and the selftests (deadlock.sh, storm_fabric.sh). Each function takes the
# names of namespaces that exist already and builds the links, addresses,
# routes and flowctl ports in them. Needs ip, tc, jq and flowctl in PATH.
#
# The ring (fab_ring): three routers, each with a host; every host reaches
# the other two clockwise, so each host's flow to the host two hops on
# crosses two inter-switch links, each of which carries two flows:
#
#              H1                       H2                       H3
#              | h0 (20 Mb/s)           | h0                     | h0
#              | hp                     | hp                     | hp
#   +--------- S1 ---------+  +-------- S2 ---------+  +-------- S3 --------+
#   | ccw              cw  |==| ccw              cw |==| ccw             cw |==> S1 ccw
#   +----------------------+  +---------------------+  +--------------------+
#       link i: Si cw -> S(i+1) ccw, 10 Mb/s; host i is 198.18.i.1 (its
#       router 198.18.i.254), link i 198.19.i.1 (Si) - 198.19.i.2. PFC on
#       priority 3, which DSCP 24 (precedence 3) selects on every port.
#
# The storm fabric (fab_storm): two levels of routers, 10 Mb/s wires, PFC on
# priority 3 on every port; each router port that takes traffic in pauses
# its partner (tx on). R (198.18.2.1) is the host whose port can storm; H3
# (198.18.3.1) a healthy host behind the same leaf.
#
#   H1 ==h0/l1h== L1 ==l1s/sl1== S ==sl2/l2s== L2 ==l2r/r0== R
#                                               \==l2h/h3== H3

fab_fc()
{
	local ns=$1

	shift
	ip netns exec "$ns" flowctl "$@"
}

fab_mac()
{
	ip -n "$1" -j link show dev "$2" | jq -r '.[0].address'
}

# fab_next I: the ring's next router after I (1..3).
fab_next() { echo $(($1 % 3 + 1)); }

# fab_link NS1 DEV1 ADDR1 NS2 DEV2 ADDR2: a veth pair, /24 addresses on
# both ends and each end's neighbour entry (no ARP in the way of a pause).
fab_link()
{
	ip link add name "$2" netns "$1" type veth peer name "$5" netns "$4" || return 1
	ip -n "$1" link set "$2" up
	ip -n "$4" link set "$5" up
	ip -n "$1" addr add "$3/24" dev "$2"
	ip -n "$4" addr add "$6/24" dev "$5"
	ip -n "$1" neigh add "$6" lladdr "$(fab_mac "$4" "$5")" dev "$2" nud permanent
	ip -n "$4" neigh add "$3" lladdr "$(fab_mac "$1" "$2")" dev "$5" nud permanent
}

# fab_no_ipv6 NS...: IPv6 off (no stray frames in the counters).
fab_no_ipv6()
{
	local ns

	for ns in "$@"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 || return 1
	done
}

# fab_router NS...: IPv4 forwarding on.
fab_router()
{
	local ns

	for ns in "$@"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1 || return 1
	done
}

# fab_ring S1 S2 S3 H1 H2 H3: the deadlock ring, flowctl on every port,
# the watchdog off. Inter-switch ports: XOFF 64k, XON 32k on priority 3.
fab_ring()
{
	local -a S=("" "$1" "$2" "$3") H=("" "$4" "$5" "$6")
	local i n d ns dev

	fab_no_ipv6 "${S[@]:1}" "${H[@]:1}" || return 1
	fab_router "${S[@]:1}" || return 1
	for i in 1 2 3; do
		fab_link "${H[i]}" h0 "198.18.$i.1" "${S[i]}" hp "198.18.$i.254" || return 1
	done
	for i in 1 2 3; do
		n=$(fab_next "$i")
		fab_link "${S[i]}" cw "198.19.$i.1" "${S[n]}" ccw "198.19.$i.2" || return 1
	done
	for i in 1 2 3; do
		n=$(fab_next "$i")
		ip -n "${H[i]}" route add default via "198.18.$i.254"
		# Every other host is reached clockwise.
		ip -n "${S[i]}" route add "198.18.$n.0/24" via "198.19.$i.2"
		ip -n "${S[i]}" route add "198.18.$(fab_next "$n").0/24" via "198.19.$i.2"
	done
	for i in 1 2 3; do
		for d in "${H[i]} h0" "${S[i]} hp" "${S[i]} cw" "${S[i]} ccw"; do
			read -r ns dev <<<"$d"
			ip netns exec "$ns" tc qdisc add dev "$dev" root flowctl || return 1
			fab_fc "$ns" set dev "$dev" mode pfc pfc-prios 3 trust dscp rx on || return 1
		done
		# Host links at 20 Mb/s, inter-switch links at 10: a real wire's
		# rate at each sending port.
		fab_fc "${H[i]}" set dev h0 speed 100 rate 20mbit || return 1
		fab_fc "${S[i]}" set dev hp speed 100 rate 20mbit tx on \
			prio 3 xoff 64k xon 32k || return 1
		fab_fc "${S[i]}" set dev cw speed 10 rate 10mbit || return 1
		fab_fc "${S[i]}" set dev ccw speed 10 tx on prio 3 xoff 64k xon 32k || return 1
	done
}

# fab_storm_port NS DEV [SETTINGS...]: flowctl with PFC on priority 3 and a
# 10 Mb/s wire.
fab_storm_port()
{
	local ns=$1 dev=$2

	shift 2
	ip netns exec "$ns" tc qdisc add dev "$dev" root flowctl || return 1
	fab_fc "$ns" set dev "$dev" mode pfc pfc-prios 3 trust dscp rx on speed 10 \
		rate 10mbit "$@" || return 1
}

# fab_storm H1 L1 S L2 R H3: the storm fabric, the watchdog off.
fab_storm()
{
	local h1=$1 l1=$2 s=$3 l2=$4 r=$5 h3=$6

	fab_no_ipv6 "$@" || return 1
	fab_router "$l1" "$s" "$l2" || return 1
	fab_link "$h1" h0 198.18.1.1 "$l1" l1h 198.18.1.254 || return 1
	fab_link "$l1" l1s 198.19.1.1 "$s" sl1 198.19.1.2 || return 1
	fab_link "$s" sl2 198.19.2.1 "$l2" l2s 198.19.2.2 || return 1
	fab_link "$l2" l2r 198.18.2.254 "$r" r0 198.18.2.1 || return 1
	fab_link "$l2" l2h 198.18.3.254 "$h3" h3 198.18.3.1 || return 1
	ip -n "$h1" route add default via 198.18.1.254
	ip -n "$r" route add default via 198.18.2.254
	ip -n "$h3" route add default via 198.18.3.254
	ip -n "$l1" route add 198.18.0.0/15 via 198.19.1.2
	ip -n "$s" route add 198.18.1.0/24 via 198.19.1.1
	ip -n "$s" route add 198.18.2.0/23 via 198.19.2.2
	ip -n "$l2" route add 198.18.1.0/24 via 198.19.2.1
	fab_storm_port "$h1" h0 || return 1
	fab_storm_port "$l1" l1h tx on prio 3 xoff 32k xon 16k || return 1
	fab_storm_port "$l1" l1s || return 1
	fab_storm_port "$s" sl1 tx on prio 3 xoff 32k xon 16k || return 1
	fab_storm_port "$s" sl2 || return 1
	fab_storm_port "$l2" l2s tx on prio 3 xoff 32k xon 16k || return 1
	fab_storm_port "$l2" l2r || return 1
	fab_storm_port "$l2" l2h || return 1
	fab_storm_port "$r" r0 || return 1
	fab_storm_port "$h3" h3 || return 1
}

# fabric_label EXPERIMENT MODE: what a lab run shows (make demo).
fabric_label()
{
	case $1/$2 in
	deadlock/off) echo "PFC deadlock in a ring of three switches, no watchdog" ;;
	deadlock/watchdog) echo "the same ring with the PFC watchdog on the inter-switch ports" ;;
	storm/off) echo "a PFC storm from a stuck receiver in a two-level fabric, no watchdog" ;;
	storm/watchdog) echo "the same storm with the PFC watchdog on the leaf port facing it" ;;
	esac
}
