#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# flowctl doctor against the module: each finding it can be made to give
# in a VM, and the same port without the fault, where it must not.
#
#   +-- ns A -----------------------------+        +-- ns B --------------+
#   | a0 (flowctl)                        |========| b0 (no qdisc)        |
#   |                                     |  veth  | flowctl send: PFC,   |
#   | d0 (dummy, flowctl: no link speed)  |        | PAUSE, short frames  |
#   | t0 (tap, flowctl; ethtool's duplex) |        +----------------------+
#   +-------------------------------------+
#
#   partner_ignored, the lab of tx_lossless.sh's mismatched_ends:
#   +-- ns H --+        +-------------- ns S --------------+       +-- ns R --+
#   | h0       |========| s0 (tx on)    br0    s1 (rate R) |=======| r0       |
#   | flowctl  |  veth  | flowctl               flowctl     |  veth |          |
#   | rx off   |        +----------------------------------+       +----------+
#   +----------+
#
# A veth has no MAC flow control and no dcbnl of its own: flowctl answers
# both there (an info, flowctl-doors), so a clean port gives no error nor
# warning: exit 0.

ALL_TESTS="clean_port no_qdisc rx_ignored malformed pause_storm speed_mismatch
	   no_speed half_duplex partner_ignored"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc ip ethtool
# Two cases need the kernel to keep up under TCG: a pause refreshed every
# 200 ms, and a congested bridge whose partner ignores (or honors) PAUSE.
# They run again on failure (lib.sh).
RETRY_TIMING=1
TIMING_CASES="pause_storm partner_ignored"

TMP=$(mktemp -d)

setup_prepare()
{
	setup_ns A B
	no_ipv6 "$A" "$B" || return 1
	veth_pair "$A" a0 "$B" b0
	ip netns exec "$A" tc qdisc add dev a0 root flowctl || return 1
}

# a0 as a fresh qdisc leaves it: mode pause, rx on, tx off, the link's
# speed, no shaper; counters zero.
reset_a0()
{
	fc "$A" set dev a0 mode pause rx on tx off speed auto rate off pfc-prios all
	fc "$A" stats reset dev a0
}

# doctor NS ARGS...: "flowctl -j doctor ARGS" in NS; the JSON in
# $TMP/doc, stderr in $TMP/doc.err, the exit status in DOC_RC.
doctor()
{
	local ns=$1

	shift
	DOC_ARGS="$*"
	fc "$ns" -j doctor "$@" >"$TMP/doc" 2>"$TMP/doc.err"
	DOC_RC=$?
	doctor_log
}

doctor_log()
{
	log_info "doctor $DOC_ARGS: exit $DOC_RC: $(jq -c '[.findings[] | "\(.severity) \(.id): \(.measured)"]' "$TMP/doc" 2>/dev/null)"
}

# doctor_bg NS ARGS...: doctor in the background, back once it took its
# first reading and sleeps out the interval (x86_64's clock_nanosleep is
# syscall 230); doctor_wait: its exit status and findings, as doctor's.
DOC_PID=
doctor_bg()
{
	local ns=$1 i

	shift
	DOC_ARGS="$*"
	# Not through fc (a function: $! would be the subshell running it);
	# ip netns exec execs flowctl in its own process.
	ip netns exec "$ns" flowctl -j doctor "$@" >"$TMP/doc" 2>"$TMP/doc.err" &
	DOC_PID=$!
	for ((i = 0; i < 1000; i++)); do
		[ "$(cut -d' ' -f1 "/proc/$DOC_PID/syscall" 2>/dev/null)" = 230 ] && return 0
		kill -0 "$DOC_PID" 2>/dev/null || break
		sleep 0.01
	done
	log_info "doctor was not seen sleeping out its interval"
}

doctor_wait()
{
	wait "$DOC_PID"
	DOC_RC=$?
	doctor_log
}

# sev ID [DEV]: the severity of finding ID (of DEV), "" if it did not fire.
sev()
{
	jq -r --arg id "$1" --arg dev "${2:-}" \
		'[.findings[] | select(.id == $id and ($dev == "" or .ifname == $dev))][0].severity // ""' \
		"$TMP/doc"
}

# field ID KEY: a key of finding ID
field()
{
	jq -r --arg id "$1" --arg k "$2" \
		'[.findings[] | select(.id == $id)][0][$k] // ""' "$TMP/doc"
}

# fires ID SEVERITY WHAT / quiet ID WHAT
fires()
{
	check_eq "$(sev "$1")" "$2" "$1: $3"
}

quiet()
{
	# Silence means something only from a report that was written.
	jq -e '.findings | type == "array"' "$TMP/doc" >/dev/null 2>&1
	check_err $? "$1: doctor wrote no report to judge ($2)"
	check_eq "$(sev "$1")" "" "$1 fired: $2"
}

# has ID KEY TEXT: the finding's KEY (measured, fix) contains TEXT
has()
{
	local got

	got=$(field "$1" "$2")
	[[ $got == *"$3"* ]]
	check_err $? "$1 $2: '$got' does not contain '$3'"
}

# A fresh veth port: the info about flowctl's doors, nothing else; exit 0.
clean_port()
{
	reset_a0
	doctor "$A" dev a0 interval 0.3
	check_eq "$DOC_RC" 0 "exit status of doctor on a clean port"
	check_eq "$(jq -c '[.errors, .warnings]' "$TMP/doc")" "[0,0]" "errors and warnings"
	check_eq "$(jq -r '[.findings[].id] | join(",")' "$TMP/doc")" "flowctl-doors" "findings"
	has flowctl-doors measured "doors: ethtool pause (ETHTOOL_MSG_PAUSE_*) DCB netlink"
	check_eq "$(jq -c '.ports[0] | [.qdisc, .mode, .speed_mbps, .speed_source, .link_speed_mbps, .link_duplex]' "$TMP/doc")" \
		'[true,"pause",10000,"ethtool",10000,"full"]' "what was read of a0"
	check_range "$(jq '.elapsed_ns' "$TMP/doc")" 300000000 2000000000 "elapsed_ns"
	[ ! -s "$TMP/doc.err" ]
	check_err $? "-j wrote to stderr: $(cat "$TMP/doc.err")"
	# Every flowctl port of the namespace: a0 alone.
	doctor "$A" interval 0.1
	check_eq "$DOC_RC" 0 "exit status of doctor without dev"
	check_eq "$(jq -r '[.ports[].ifname] | join(",")' "$TMP/doc")" "a0" "ports examined"
	# Text: the progress on stderr, the port on stdout.
	fc "$A" doctor dev a0 interval 0.1 >"$TMP/out" 2>"$TMP/err"
	check_eq "$?" 0 "exit status of doctor in text"
	grep -q '^measuring for 100 ms\.\.\.$' "$TMP/err"
	check_err $? "no progress on stderr: $(cat "$TMP/err")"
	grep -q '^a0: flowctl mode pause rx on tx off .*speed 10Gb/s (ethtool)$' "$TMP/out"
	check_err $? "the port's line: $(head -1 "$TMP/out")"
	log_test "a clean port: no error nor warning, exit 0"
}

no_qdisc()
{
	doctor "$B" dev b0 interval 0.1
	check_eq "$DOC_RC" 3 "exit status without a qdisc"
	fires no-qdisc error "b0 has none"
	has no-qdisc fix "tc qdisc add dev b0 root flowctl"
	check_eq "$(jq '.ports[0].qdisc' "$TMP/doc")" false "qdisc"
	doctor "$B" interval 0.1
	check_eq "$DOC_RC" 3 "exit status in a namespace with no flowctl port"
	fires no-ports warning "B has no flowctl port"
	doctor "$A" dev a0 interval 0.1
	quiet no-qdisc "a0 has one"
	log_test "no-qdisc on a device without flowctl, no-ports in a namespace without any"
}

# a0 in mode pause; the partner sends PFC for priority 3.
rx_ignored()
{
	local sp

	reset_a0
	fc "$B" send dev b0 pfc 3:1000 count 100 interval 10ms >/dev/null &
	sp=$!
	sleep 0.1
	doctor "$A" dev a0 interval 0.5
	wait $sp
	check_eq "$DOC_RC" 3 "exit status"
	fires rx-ignored warning "PFC into mode pause"
	has rx-ignored measured "this port: mode pause, rx on"
	has rx-ignored measured "(prio 3 +"
	has rx-ignored fix "flowctl set dev a0 mode pfc pfc-prios 3 rx on"
	quiet paused-by-partner "the PFC frames held nothing"
	# The fix applied: the same frames are honored.
	fc "$A" set dev a0 mode pfc pfc-prios 3 rx on
	fc "$B" send dev b0 pfc 3:1000 count 100 interval 10ms >/dev/null &
	sp=$!
	sleep 0.1
	doctor "$A" dev a0 interval 0.5
	wait $sp
	quiet rx-ignored "mode pfc pfc-prios 3"
	fires paused-by-partner info "PFC XOFF that held priority 3"
	log_test "rx-ignored: PFC into mode pause, and its fix"
}

malformed()
{
	local sp

	reset_a0
	# 17 bytes: the pause time cut to one byte (a 20-byte PAUSE is well
	# formed: the parser needs the 18 bytes up to the time).
	ip netns exec "$B" "$FCTEST" raw b0 "0180c2000001$(mac_of "$B" b0 | tr -d :)88080001ff" \
		count 300 interval-us 10000 &
	sp=$!
	# Measure once they arrive (the sender can take a while to start).
	for _ in $(seq 60); do
		[ "$(fc_get "$A" a0 .stats.rx_malformed)" -gt 0 ] && break
		sleep 0.05
	done
	doctor "$A" dev a0 interval 0.3
	kill $sp 2>/dev/null
	wait $sp 2>/dev/null
	fires malformed warning "17-byte PAUSE frames"
	has malformed fix "tcpdump -i a0"
	doctor "$A" dev a0 interval 0.2
	quiet malformed "nothing arrived"
	log_test "malformed: short MAC Control frames"
}

# 65535 quanta at a configured 10 Mb/s last 3.4 s: refreshed every 200 ms,
# the partner holds a0 the whole interval.
pause_storm()
{
	local sp share

	reset_a0
	fc "$A" set dev a0 speed 10
	# Not through fc (a function: kill $! would stop its subshell, not
	# the sender, which would storm on into the cases below).
	ip netns exec "$B" flowctl send dev b0 pause 65535 count 25 interval 200ms >/dev/null &
	sp=$!
	sleep 0.1
	doctor "$A" dev a0 interval 1
	kill $sp 2>/dev/null
	wait $sp 2>/dev/null
	fc "$B" send dev b0 xon >/dev/null
	fires pause-storm warning "paused the whole interval"
	has pause-storm measured "priorities 0-7 paused up to"
	has pause-storm fix "flowctl set dev a0 rx off"
	fires paused-by-partner info "PAUSE XOFF every 200 ms"
	fires speed-mismatch warning "speed 10 configured on a 10 Gb/s veth"
	# At the link's 10 Gb/s the same frame pauses a0 for 3.4 ms: no storm.
	fc "$A" set dev a0 speed 10000
	fc "$B" send dev b0 pause 65535 >/dev/null
	doctor "$A" dev a0 interval 0.5
	quiet pause-storm "a 3.4 ms pause, before the interval"
	# One long pause within the interval is no storm: a storm refreshes.
	# The pause (3.36 s) outlasts the 3.3 s interval it starts in: paused
	# 90% of it or more, by one XOFF, if it starts within 0.33 s (sending
	# took 0.22 s on a host whose other core was busy). It is sent once
	# doctor took its first reading and sleeps out the interval
	# (clock_nanosleep, x86_64's syscall 230), so a loaded host's slow
	# process start cannot put it before the interval.
	# A measurement whose PAUSE came too late proves nothing: it is made
	# again (three times at most).
	fc "$A" set dev a0 speed 10
	for _ in 1 2 3; do
		doctor_bg "$A" dev a0 interval 3.3
		fc "$B" send dev b0 pause 65535 >/dev/null
		doctor_wait
		fc "$B" send dev b0 xon >/dev/null
		share=$(field paused-by-partner measured |
			sed -n 's/.*paused up to \([0-9]*\)% of the interval.*/\1/p')
		[ "${share:-0}" -ge 90 ] && break
		sleep 0.5
	done
	fires paused-by-partner info "one 3.4 s PAUSE within the interval"
	[ "${share:-0}" -ge 90 ]
	check_err $? "one PAUSE held a0 ${share:-?}% of the interval, not 90% or more: the case proves nothing"
	quiet pause-storm "one 3.4 s PAUSE, ${share:-?}% of the interval, not refreshed"
	reset_a0
	log_test "pause-storm: a partner that keeps a0 paused"
}

speed_mismatch()
{
	reset_a0
	fc "$A" set dev a0 speed 1000
	doctor "$A" dev a0 interval 0.1
	check_eq "$DOC_RC" 3 "exit status"
	fires speed-mismatch warning "speed 1000 on a 10 Gb/s veth"
	has speed-mismatch measured "speed 1Gb/s (speed_source config); the link: 10Gb/s"
	has speed-mismatch fix "flowctl set dev a0 speed auto"
	fc "$A" set dev a0 speed auto
	doctor "$A" dev a0 interval 0.1
	quiet speed-mismatch "speed auto"
	check_eq "$DOC_RC" 0 "exit status after speed auto"
	log_test "speed-mismatch: a configured speed that is not the link's"
}

# A dummy has no link settings: flowctl has no speed.
no_speed()
{
	ip -n "$A" link add name d0 type dummy ||
		{ check_err 1 "cannot create a dummy"; log_test "no-speed"; return; }
	ip -n "$A" link set d0 up
	ip netns exec "$A" tc qdisc add dev d0 root flowctl
	check_err $? "cannot attach flowctl to d0"
	doctor "$A" dev d0 interval 0.1
	check_eq "$DOC_RC" 3 "exit status"
	fires no-speed warning "a dummy: no link speed"
	has no-speed measured "speed_source none"
	has no-speed fix "flowctl set dev d0 speed SPEED"
	check_eq "$(jq -c '.ports[0].unsupported | index("ETHTOOL_MSG_LINKMODES_GET") != null' "$TMP/doc")" \
		true "LINKMODES_GET unsupported on a dummy"
	quiet not-read "EOPNOTSUPP is an answer"
	fc "$A" set dev d0 speed 100
	doctor "$A" dev d0 interval 0.1
	quiet no-speed "speed 100 configured"
	ip -n "$A" link del d0
	log_test "no-speed: a device with no link speed"
}

# The tun driver reports the speed and duplex ethtool gave it; flowctl
# reads them again when the device comes up (rx_state.sh half_duplex).
half_duplex()
{
	modprobe tun 2>/dev/null
	[ -e /dev/net/tun ] || { mkdir -p /dev/net && mknod /dev/net/tun c 10 200; }
	ip -n "$A" tuntap add dev t0 mode tap ||
		{ check_err 1 "cannot create a tap"; log_test "half-duplex"; return; }
	ip netns exec "$A" ethtool -s t0 speed 100 duplex half autoneg off
	check_err $? "ethtool cannot set the tap's duplex"
	ip netns exec "$A" tc qdisc add dev t0 root flowctl
	check_err $? "cannot attach flowctl to t0"
	ip -n "$A" link set t0 up
	doctor "$A" dev t0 interval 0.1
	check_eq "$DOC_RC" 3 "exit status"
	fires half-duplex error "t0 at 100 Mb/s half duplex"
	has half-duplex fix "ethtool -s t0 speed 100 duplex full autoneg off"
	fires no-speed warning "no speed on half duplex"
	check_eq "$(jq -r '.ports[0].link_duplex' "$TMP/doc")" half "link_duplex"
	ip -n "$A" link set t0 down
	ip netns exec "$A" ethtool -s t0 speed 100 duplex full autoneg off
	ip -n "$A" link set t0 up
	doctor "$A" dev t0 interval 0.1
	quiet half-duplex "full duplex"
	quiet no-speed "100 Mb/s full duplex from ethtool"
	ip -n "$A" link del t0
	log_test "half-duplex: a tap at half duplex, then full"
}

# partner_lab: tx_lossless.sh's lab: H floods s0 at 10x what s1 forwards;
# s0 pauses h0 past 500 KB charged to it.
partner_lab()
{
	local v

	# A second run (RETRY_TIMING) builds it anew.
	for v in H S R; do
		ip netns pids "fc-$v-$$" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "fc-$v-$$" 2>/dev/null
	done
	setup_ns H S R || return 1
	no_ipv6 "$H" || return 1
	veth_pair "$H" h0 "$S" s0 || return 1
	veth_pair "$S" s1 "$R" r0 || return 1
	ip -n "$S" link add name br0 type bridge
	ip -n "$S" link set s0 master br0
	ip -n "$S" link set s1 master br0
	ip -n "$S" link set br0 up
	ip -n "$H" addr add 198.18.1.1/24 dev h0
	ip -n "$H" neigh add 198.18.1.2 lladdr "$(mac_of "$R" r0)" dev h0 nud permanent
	ip netns exec "$H" tc qdisc add dev h0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s1 root flowctl || return 1
	fc "$S" set dev s1 rate 20mbit || return 1
	fc "$H" set dev h0 speed 1000 rate 200mbit || return 1
	fc "$S" set dev s0 speed 1000 xoff 500k xon 350k tx on mode pause || return 1
}

# flooded H-RX: doctor on s0 while H floods it, h0's rx set to H-RX.
flooded()
{
	local sp

	fc "$H" set dev h0 rx "$1"
	ip netns exec "$H" "$FCTEST" send 198.18.1.2 9000 0 1000000 size 1400 >/dev/null &
	sp=$!
	sleep 1
	doctor "$S" dev s0 interval 1
	kill $sp 2>/dev/null
	wait $sp 2>/dev/null
	sleep 0.5
}

# One end sends PAUSE, the other ignores it (h0 rx off); then both on.
partner_ignored()
{
	partner_lab || { check_err 1 "the bridge lab could not be built"; log_test "partner-ignored"; return; }
	flooded off
	check_eq "$DOC_RC" 3 "exit status"
	fires partner-ignored error "h0 ignores s0's PAUSE"
	has partner-ignored measured "partner_ignored +"
	has partner-ignored fix "on the partner: flowctl set dev PEER mode pause rx on"
	fires pausing-partner info "s0 sent XOFF"
	flooded on
	quiet partner-ignored "h0 honors s0's PAUSE"
	fires pausing-partner info "s0 sent XOFF"
	log_test "partner-ignored: one end shouts, the other ignores"
}

cleanup()
{
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed
run_tests
