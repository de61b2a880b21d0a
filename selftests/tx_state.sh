#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The sending side, judged in a lab that congests whatever the VM's speed:
# R holds s1 paused, so what H sends waits in s1's bands, charged to s0,
# and s0 pauses a0. Then: the refresh of a held XOFF (at half its time, and
# no faster), sent while s0 is itself paused by a0 (MAC Control frames go
# first and are never held); every frame counted at both ends; PFC for
# several priorities in one frame, and priorities outside the PFC set
# lossy while the others hold; a GSO super-packet charged by its size on
# the wire; the shaper's absolute rate, and a raised rate that takes
# effect at once.
#
#   +-- ns H --+        +----------- ns S -----------+        +-- ns R --+
#   | a0       |========| s0 (tx on)  br0   s1       |========| b0       |
#   | flowctl  |  veth  | flowctl           flowctl  |  veth  | receives,|
#   |          |        |                   speed 10 |        | PAUSE    |
#   +----------+        +----------------------------+        +----------+

ALL_TESTS="refresh_while_paused pfc_lossless_and_lossy gso_wire_charge shaper_rate
	   rate_raise_unstalls xoff_cannot_lapse"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc tcpdump tshark
# Cases that count frames per second (the refresh), need a partner to react
# within a headroom (PFC) or measure a rate run once more on failure; the
# exact counts of the GSO charge never do.
RETRY_TIMING=1
TIMING_CASES="refresh_while_paused pfc_lossless_and_lossy shaper_rate rate_raise_unstalls"

TMP=$(mktemp -d)
HOLD=

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
	# R's replies (ICMP to a port nobody listens on) need no ARP: H's
	# answer would be one more frame in a0's band 0, which the cases count.
	ip -n "$R" neigh add 198.18.0.1 lladdr "$(mac_of "$H" a0)" dev b0 nud permanent
	ip netns exec "$H" tc qdisc add dev a0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s1 root flowctl || return 1
	fc "$S" set dev s1 speed 10 mode pause rx on || return 1
}

# hold_s1: R pauses s1 (65535 quanta at 10 Mb/s, 3.4 s), refreshed every
# second until release_s1, which also sends XON.
hold_s1()
{
	ip netns exec "$R" "$FCTEST" raw b0 "$(pause_hex "$MAC_R" 65535)" \
		count 60 interval-us 1000000 &
	HOLD=$!
	for _ in $(seq 40); do
		[ "$(fc_get "$S" s1 .prio[0].paused)" = true ] && return 0
		sleep 0.05
	done
	return 1
}

release_s1()
{
	[ -z "$HOLD" ] || kill "$HOLD" 2>/dev/null
	wait "$HOLD" 2>/dev/null
	HOLD=
	ip netns exec "$R" "$FCTEST" raw b0 "$(pause_hex "$MAC_R" 0)"
}

# counts NS DEV: "tx_pause tx_xon tx_pfc rx_pause rx_xon rx_pfc" of DEV.
counts()
{
	fc_get "$1" "$2" ' | .stats | "\(.tx_pause) \(.tx_xon) \(.tx_pfc) \(.rx_pause) \(.rx_xon) \(.rx_pfc)"'
}

# A held XOFF of 10000 quanta at 10 Mb/s lasts 512 ms: s0 refreshes it
# at half that, 256 ms, so a0 stays paused in one episode, and sends no
# more than that (a refresh storm would). Meanwhile a0 keeps s0 paused
# (flowctl send, past a0's qdisc): s0's frames are MAC Control frames and
# leave anyway. At the end, what each end sent the other counted.
refresh_while_paused()
{
	local c0 c1 n t0 t1 lo hi s0c a0c ep

	fc "$H" set dev a0 speed 10 mode pause rx on tx off rate off
	fc "$S" set dev s0 speed 10 mode pause tx on rx on quanta 10000 xoff 20k xon 10k
	fc "$S" stats reset dev s0
	fc "$H" stats reset dev a0
	hold_s1
	check_err $? "s1 not paused by R (precondition)"
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 0 100 size 1000 >/dev/null
	for _ in $(seq 50); do
		[ "$(fc_get "$H" a0 .prio[0].paused)" = true ] && break
		sleep 0.1
	done
	check_eq "$(fc_get "$H" a0 .prio[0].paused)" true "a0 paused by s0's XOFF (precondition)"
	# a0 pauses s0 for 65535 quanta, again every second.
	fc "$H" send dev a0 pause 65535 count 4 interval 1s >/dev/null &
	local sp=$!
	for _ in $(seq 40); do
		[ "$(fc_get "$S" s0 .prio[0].paused)" = true ] && break
		sleep 0.05
	done
	check_eq "$(fc_get "$S" s0 .prio[0].paused)" true "s0 paused by a0"
	c0=$(fc_get "$S" s0 .stats.tx_pause)
	t0=$(date +%s%N)
	sleep 2
	c1=$(fc_get "$S" s0 .stats.tx_pause)
	t1=$(date +%s%N)
	n=$((c1 - c0))
	lo=$(((t1 - t0) / 512000000))
	hi=$(((t1 - t0) / 256000000 + 2))
	log_info "s0 sent $n XOFF in $(((t1 - t0) / 1000000)) ms while paused by a0 (refresh 256 ms)"
	check_range "$n" "$lo" "$hi" "XOFF frames s0 sent in the window"
	ep=$(fc_get "$H" a0 .prio[0].pause_episodes)
	check_eq "$ep" 1 "a0's pause episodes while s0 held its XOFF (refreshed before it ran out)"
	[ "$(fc_get "$H" a0 .prio[0].paused_ns_total)" -ge $((t1 - t0)) ]
	check_err $? "a0's paused_ns_total is shorter than the window s0 held it paused"
	wait $sp
	release_s1
	for _ in $(seq 50); do
		[ "$(fc_get "$H" a0 .prio[0].paused)" = false ] && break
		sleep 0.1
	done
	sleep 0.3
	s0c=$(counts "$S" s0)
	a0c=$(counts "$H" a0)
	log_info "s0: tx_pause tx_xon tx_pfc rx_pause rx_xon rx_pfc = $s0c; a0: $a0c"
	read -r s_tp s_tx _ s_rp _ _ <<<"$s0c"
	read -r a_tp _ _ a_rp a_rx _ <<<"$a0c"
	check_eq "$a_rp" "$s_tp" "PAUSE frames a0 received vs s0 sent"
	check_eq "$a_rx" "$s_tx" "XON frames a0 received vs s0 sent"
	check_eq "$s_rp" 4 "PAUSE frames s0 received of the 4 flowctl send sent"
	check_eq "$a_tp" 0 "a0's qdisc sent no PAUSE of its own (tx off)"
	log_test "a held XOFF is refreshed at half its time, also while paused; both ends count the same"
}

# Mode pfc, priorities 3 and 4 lossless, 0 not. H sends 300 datagrams of
# 1000 bytes at each of 0, 3 and 4 (DSCP) through a0 at 10 Mb/s into s1,
# held by R, whose band limit is 100 KB: priority 0 is tail-dropped there,
# 3 and 4 are paused at a0 by PFC and arrive whole once R lets s1 go.
# Priority 0 has the same 20k XOFF threshold as 3 and 4: only its being
# outside the PFC set keeps it lossy (not a threshold it never reaches).
pfc_lossless_and_lossy()
{
	local pcap=$TMP/a0.pcap cap s p got multi pids=() spids=()

	fc "$H" set dev a0 speed 10 mode pfc pfc-prios all rx on tx off rate 10mbit trust dscp
	fc "$S" set dev s0 speed 10 mode pfc pfc-prios 3,4 tx on trust dscp quanta 65535 \
		prio 0 xoff 20k xon 10k prio 3 xoff 20k xon 10k prio 4 xoff 20k xon 10k
	fc "$S" set dev s1 limit 100k trust dscp
	fc "$S" stats reset dev s1
	fc "$S" stats reset dev s0
	fc "$H" stats reset dev a0
	capture "$H" a0 "$pcap" 'ether proto 0x8808'
	check_err $? "tcpdump did not start on a0"
	cap=$CAP_PID
	for p in 0 3 4; do
		ip netns exec "$R" "$FCTEST" recv $((9100 + p)) 5 >"$TMP/r.$p" &
		pids+=($!)
	done
	for p in 0 3 4; do
		while ! grep -q ready "$TMP/r.$p" 2>/dev/null; do sleep 0.05; done
	done
	hold_s1
	check_err $? "s1 not paused by R (precondition)"
	# In the background: a sender whose priority is paused blocks on its
	# socket buffer (held, not dropped) until s1 is let go.
	for p in 0 3 4; do
		ip netns exec "$H" "$FCTEST" send 198.18.0.2 $((9100 + p)) 0 300 size 1000 \
			tos $((p << 5)) >"$TMP/s.$p" &
		spids+=($!)
	done
	# 900 KB at 10 Mb/s: 0.75 s for a0 to offer it all, if unpaused.
	sleep 2
	s=$(fc "$S" -j -s show dev s0)
	log_info "s0 PFC sent per priority: $(echo "$s" | jq -c '[.[0].prio[].tx_pfc]')"
	release_s1
	wait "${spids[@]}"
	wait "${pids[@]}"
	sleep 0.5
	kill $cap
	wait $cap 2>/dev/null
	s=$(fc "$S" -j -s show dev s0)
	for p in 3 4; do
		got=$(awk '/^packets/ {print $2}' "$TMP/r.$p")
		check_eq "$got" "$(awk '/^sent/ {print $2}' "$TMP/s.$p")" \
			"priority $p: datagrams received vs sent (lossless)"
		[ "$(echo "$s" | jq ".[0].prio[$p].tx_pfc")" -ge 1 ]
		check_err $? "s0 sent no PFC XOFF for priority $p"
		check_eq "$(fc_get "$S" s1 ".prio[$p].drops")" 0 "s1's drops of priority $p"
		check_eq "$(fc_get "$H" a0 ".prio[$p].drops")" 0 "a0's drops of priority $p"
	done
	got=$(awk '/^packets/ {print $2}' "$TMP/r.0")
	log_info "priority 0: $got of 300 received, s1 dropped $(fc_get "$S" s1 .prio[0].drops)"
	[ "$(fc_get "$S" s1 .prio[0].drops)" -gt 0 ]
	check_err $? "priority 0 (outside the PFC set) was not dropped at s1: paused by a PFC frame it should not have had, or the lab did not congest"
	check_eq "$(echo "$s" | jq '[.[0].prio[0,1,2,5,6,7].tx_pfc, .[0].prio[0,1,2,5,6,7].tx_pfc_xon] | add')" 0 \
		"PFC frames naming a priority outside the set"
	check_eq "$(fc_get "$H" a0 .prio[0].pause_episodes)" 0 "a0's priority 0 paused"
	# Per priority, what s0 sent a0 counted; and at least one frame named
	# both 3 and 4 (a refresh carries every XOFF in force).
	for p in 3 4; do
		check_eq "$(fc_get "$H" a0 ".prio[$p].rx_pfc")" \
			"$(echo "$s" | jq ".[0].prio[$p].tx_pfc + .[0].prio[$p].tx_pfc_xon")" \
			"priority $p: PFC a0 counted vs s0 sent"
	done
	multi=$(tshark -r "$pcap" -Y 'macc.opcode == 0x0101' -T fields -e macc.cbfc.enbv \
		2>/dev/null | sort | uniq -c | tr '\n' ' ')
	log_info "PFC enable vectors seen on a0: $multi"
	echo "$multi" | grep -q '0x0018'
	check_err $? "no PFC frame named priorities 3 and 4 together: $multi"
	fc "$H" set dev a0 mode pause rate off trust pcp
	fc "$S" set dev s0 mode pause trust pcp
	fc "$S" set dev s1 limit 1m trust pcp
	log_test "PFC: priorities 3 and 4 held, not dropped, 0 tail-dropped; frames name both"
}

# One UDP GSO send of 10 segments of 1400 bytes waits in s1, charged to s0
# by its size on the wire: 10 x (1400 + 8 + 20 + 14) bytes of frames,
# plus 24 bytes each of preamble, FCS and gap: 14660.
gso_wire_charge()
{
	local c

	fc "$H" set dev a0 mode pause rate off
	# tx on: a port with tx off is charged nothing. XOFF far above one
	# packet, so nothing is sent.
	fc "$S" set dev s0 mode pause tx on xoff 100k xon 50k
	hold_s1
	check_err $? "s1 not paused by R (precondition)"
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 0 1 size 14000 gso 1400 >/dev/null
	check_err $? "cannot send a UDP GSO datagram"
	sleep 0.3
	c=$(fc "$S" -j -s show dev s0 | jq '[.[0].prio[].charge_bytes] | add')
	check_eq "$c" 14660 "bytes charged to s0 for one 10-segment GSO packet"
	check_eq "$(fc_get "$S" s1 '.prio | map(.backlog_packets) | add')" 1 \
		"s1 holds it as one packet"
	release_s1
	sleep 0.3
	check_eq "$(fc "$S" -j -s show dev s0 | jq '[.[0].prio[].charge_bytes] | add')" 0 \
		"charge once it left"
	fc "$S" set dev s0 tx off
	log_test "a GSO packet is charged its size on the wire, per segment"
}

# rate 10mbit: 500 datagrams of 1000 bytes (1066 on the wire) leave a0 at
# 10 Mb/s. TCG's timers can only make the shaper late, never early:
# within 85% and 102% of the rate, as R measures it.
shaper_rate()
{
	local got span bps

	fc "$H" set dev a0 mode pause rate 10mbit
	# One datagram first, then 200 ms of idle wire: idle time earns no
	# burst (a 20 ms catch-up would put the rate 5% high).
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 0 1 size 1000 >/dev/null
	sleep 0.2
	fc "$H" stats reset dev a0
	ip netns exec "$R" "$FCTEST" recv 9000 1 >"$TMP/r" &
	local rp=$!
	while ! grep -q ready "$TMP/r"; do sleep 0.05; done
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 0 500 size 1000 >/dev/null
	wait $rp
	got=$(awk '/^packets/ {print $2}' "$TMP/r")
	span=$(awk '/^packets/ {print $6}' "$TMP/r")
	check_eq "$got" 500 "datagrams received"
	# What a0 says it sent, against what R received: 500 frames of
	# 1000 + 8 + 20 + 14 bytes.
	check_eq "$(fc_get "$H" a0 '.prio[0] | "\(.tx_packets) \(.tx_bytes)"')" "500 521000" \
		"a0's band 0 tx_packets and tx_bytes"
	# got - 1 intervals between the first and the last arrival.
	bps=$(((got - 1) * 1066 * 8 * 1000000 / (span > 0 ? span : 1)))
	log_info "shaped at 10 Mb/s: $bps b/s on the wire"
	check_range "$bps" 8500000 10200000 "rate on the wire (b/s)"
	fc "$H" set dev a0 rate off
	log_test "the shaper's rate: 10 Mb/s on the wire, within 85%..102%"
}

# The shaper's clock of the wire must not hold the queue at the old rate
# once the rate is raised. At 64 kbit/s a 43-segment GSO packet (61 KB on
# the wire) puts the clock 7.7 s ahead, so the datagram behind it waits;
# raised to 100 Mb/s, that datagram leaves at once (the tools that set and
# look take a few hundred ms under TCG, seconds on a loaded host), not
# when the old clock comes round some 7 s after the raise: within 5 s.
rate_raise_unstalls()
{
	local t0 t1 left=1

	fc "$H" set dev a0 mode pause rate 64kbit
	fc "$H" stats reset dev a0
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9001 0 1 size 60000 gso 1400 >/dev/null
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9001 0 1 size 100 >/dev/null
	sleep 0.1
	check_eq "$(fc_get "$H" a0 '.prio[0] | "\(.tx_packets) \(.backlog_packets)"')" "1 1" \
		"at 64 kbit/s: the GSO packet sent, the datagram behind it waiting"
	t0=$(date +%s%N)
	fc "$H" set dev a0 rate 100mbit
	while :; do
		left=$(fc_get "$H" a0 .prio[0].backlog_packets)
		t1=$(date +%s%N)
		[ "$left" = 0 ] || [ $((t1 - t0)) -gt 6000000000 ] && break
		sleep 0.02
	done
	log_info "the waiting datagram left within $(((t1 - t0) / 1000000)) ms of the rate's raise"
	check_eq "$left" 0 "the datagram still waits 6 s after the rate was raised to 100 Mb/s"
	check_range $(((t1 - t0) / 1000000)) 0 5000 "ms from the raise to an empty queue"
	check_eq "$(fc_get "$H" a0 .prio[0].tx_packets)" 2 "both sent"
	fc "$H" set dev a0 rate off
	log_test "a raised rate takes effect at once (the old rate's clock does not hold the queue)"
}

cleanup()
{
	release_s1 2>/dev/null
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed

# An XOFF that would run out before its refresh (under 100 us at the speed
# in force) is refused by set and by tc, as tx on with no speed at all; a
# speed that changes under tx on and leaves it too short is counted and
# logged. show gives the quanta's time at the speed in use.
xoff_cannot_lapse()
{
	local err j holder

	modprobe tun 2>/dev/null
	[ -e /dev/net/tun ] || { mkdir -p /dev/net && mknod /dev/net/tun c 10 200; }
	setup_ns X
	ip -n "$X" link add name x0 type veth peer name x1
	ip netns exec "$X" tc qdisc add dev x0 root flowctl
	# veth: 10 Gb/s by ethtool. 1953 quanta are 99.99 us there.
	err=$(fc "$X" set dev x0 tx on quanta 1953 2>&1)
	check_fail $? "tx on quanta 1953 at 10 Gb/s accepted"
	grep -q "lapse before its refresh" <<<"$err"
	check_err $? "the refusal does not say why: $err"
	check_eq "$(fc_get "$X" x0 '| "\(.tx) \(.quanta)"')" "false 65535" "x0 after the refusal"
	err=$(ip netns exec "$X" tc qdisc change dev x0 root flowctl tx on quanta 500 2>&1)
	check_fail $? "tc: tx on quanta 500 at 10 Gb/s accepted"
	grep -q "lapse before its refresh" <<<"$err"
	check_err $? "tc's refusal does not say why: $err"
	fc "$X" set dev x0 tx on quanta 1954
	check_err $? "tx on quanta 1954 at 10 Gb/s (100.04 us) refused"
	j=$(fc "$X" -j show dev x0)
	check_eq "$(jq -r '.[0] | "\(.quanta) \(.quanta_ns)"' <<<"$j")" "1954 100045" "quanta_ns at 10 Gb/s"
	fc "$X" show dev x0 | grep -Eq "quanta last 100(\.[0-9]+)? us at 10Gb/s"
	check_err $? "show's text gives no time for the quanta: $(fc "$X" show dev x0 | head -n 2 | tr "\n" " ")"
	# A dummy reports no speed: tx on needs one.
	ip -n "$X" link add name xd type dummy
	ip netns exec "$X" tc qdisc add dev xd root flowctl
	err=$(fc "$X" set dev xd tx on 2>&1)
	check_fail $? "tx on with no speed accepted"
	grep -q "needs a speed" <<<"$err"
	check_err $? "the no-speed refusal does not say why: $err"
	fc "$X" set dev xd tx on speed 100
	check_err $? "tx on speed 100 on a dummy refused"
	# A tap at 10 Mb/s (ethtool), 100 quanta (5.12 ms): then 10 Gb/s
	# under it, read at up: 5.12 us, counted and logged. A tap has
	# carrier while a process holds it (TUNSETIFF, IFF_TAP | IFF_NO_PI).
	ip -n "$X" tuntap add dev xt mode tap
	ip netns exec "$X" /usr/bin/python3 -c 'import fcntl, os, struct, time
f = os.open("/dev/net/tun", os.O_RDWR)
fcntl.ioctl(f, 0x400454ca, struct.pack("16sH", b"xt", 0x1002))
time.sleep(120)' &
	holder=$!
	ip netns exec "$X" ethtool -s xt speed 10 duplex full autoneg off
	ip -n "$X" link set xt up
	# The holder's python starts in seconds from a cold page cache (9p).
	for _ in $(seq 100); do
		[ "$(ip netns exec "$X" cat /sys/class/net/xt/carrier)" = 1 ] && break
		sleep 0.1
	done
	check_eq "$(ip netns exec "$X" cat /sys/class/net/xt/carrier)" 1 \
		"xt's carrier with a process holding it (precondition)"
	ip netns exec "$X" tc qdisc add dev xt root flowctl
	fc "$X" set dev xt tx on quanta 100
	check_err $? "tx on quanta 100 at 10 Mb/s refused"
	check_eq "$(fc_get "$X" xt .stats.tx_xoff_short)" 0 "xoff-short before the speed change"
	ip -n "$X" link set xt down
	ip netns exec "$X" ethtool -s xt speed 10000 duplex full autoneg off
	ip -n "$X" link set xt up
	check_eq "$(fc_get "$X" xt '| "\(.speed_mbps) \(.stats.tx_xoff_short)"')" "10000 1" \
		"speed and xoff-short after ethtool raised xt to 10 Gb/s"
	dmesg | tail -n 20 | grep -q "xt: flowctl: at 10000 Mb/s our XOFF of 100 quanta lasts under 100 us"
	check_err $? "no kernel log line for the short XOFF"
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	ip netns del "$X"
	log_test "an XOFF that would lapse before its refresh is refused (set, tc, no speed); a speed change under it is counted and logged"
}

run_tests
