#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A Linux bridge of flowctl ports is a lossless switch: the port facing a
# fast sender sends PAUSE when the bytes it let in pile up behind a slower
# egress (the seed's 10G-in, 1G-out experiment, scaled to what TCG runs).
#
#   +-- ns H --+        +-------------- ns S --------------+       +-- ns R --+
#   | a0       |========| s0 (tx)      br0      s1 (rate R) |=======| b0       |
#   | flowctl  |  veth  | flowctl              flowctl      |  veth |          |
#   | rate 10R |        +-----------------------------------+       +----------+
#   +----------+
#
# Priorities play no part (mode pause). Both ends of the fast link use speed
# 1000 for quanta: 65535 quanta then last 33.5 ms and the refresh runs every
# 16.8 ms, which TCG's timers keep; at veth's 10G (1.7 ms refresh) they do
# not. a0 is shaped to 10 x R as a real 10x-faster link would be, so the
# kernel's backlog queue between a veth pair does not act as a wire of
# unbounded length.
#
# Every lossless claim stands next to its baseline: the same offered load
# with tx off must drop at s1, or the lab proves nothing.

ALL_TESTS="baseline_drops pause_lossless frames_well_formed tcp_streams mismatched_ends
	   churn_under_congestion derived_threshold_values derived_thresholds"
BASE_BPS=0
source "$(dirname "$0")/lib.sh"
require_cmd jq tc ethtool
# Rates measured under TCG: such a case that fails runs once more (lib.sh).
# The wire format, the threshold arithmetic and the charge-leak check never
# do.
RETRY_TIMING=1
TIMING_CASES="baseline_drops pause_lossless tcp_streams mismatched_ends derived_thresholds"

RATE_MBIT=20
PKTS=3000
SIZE=1400
WIRE=$((SIZE + 8 + 20 + 14 + 24))	# UDP, IPv4, Ethernet, preamble/FCS/gap

setup_prepare()
{
	setup_ns H S R
	veth_pair "$H" a0 "$S" s0
	veth_pair "$S" s1 "$R" b0
	ip -n "$S" link add name br0 type bridge
	ip -n "$S" link set s0 master br0
	ip -n "$S" link set s1 master br0
	ip -n "$S" link set br0 up
	ip -n "$H" addr add 198.18.0.1/24 dev a0
	ip -n "$R" addr add 198.18.0.2/24 dev b0
	ip -n "$H" neigh add 198.18.0.2 lladdr "$(mac_of "$R" b0)" dev a0 nud permanent
	ip netns exec "$H" tc qdisc add dev a0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s0 root flowctl || return 1
	ip netns exec "$S" tc qdisc add dev s1 root flowctl || return 1
	fc "$S" set dev s1 rate ${RATE_MBIT}mbit || return 1
	fc "$H" set dev a0 speed 1000 rate $((10 * RATE_MBIT))mbit || return 1
	# The thresholds of a link whose partner reacts late: here the reaction
	# is software under TCG, which a loaded host can stall for several ms
	# (at a0's 200 Mb/s, 1 ms is 25 KB). 500 KB of headroom above XOFF is
	# 20 ms of a0's rate; 150 KB of hysteresis keeps s1's link busy.
	fc "$S" set dev s0 speed 1000 xoff 500k xon 350k || return 1
}

# offer [N]: N datagrams (default PKTS) as fast as H can into s1's emulated
# link; sets DROPS (at s1),
# GOT (datagrams at R), WIRE_BPS (R's receive rate on the wire) and the
# pause counters of s0 and a0.
offer()
{
	local d0 d1 s n=${1:-$PKTS}

	fc "$S" stats reset dev s0
	fc "$S" stats reset dev s1
	fc "$H" stats reset dev a0
	d0=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	ip netns exec "$R" "$FCTEST" recv 9000 2 >"$TMP/r" &
	local rp=$!
	while ! grep -q ready "$TMP/r"; do sleep 0.05; done
	timeout 120 ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 0 "$n" size $SIZE \
		>/dev/null
	wait $rp
	d1=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	DROPS=$((d1 - d0))
	GOT=$(awk '/^packets/ {print $2}' "$TMP/r")
	local span
	span=$(awk '/^packets/ {print $6}' "$TMP/r")
	WIRE_BPS=$(( GOT * WIRE * 8 * 1000000 / (span > 0 ? span : 1) ))
	s=$(fc "$S" -j -s show dev s0)
	S0_TX_PAUSE=$(echo "$s" | jq '.[0].stats.tx_pause')
	S0_TX_XON=$(echo "$s" | jq '.[0].stats.tx_xon')
	S0_IGNORED=$(echo "$s" | jq '.[0].stats.partner_ignored')
	S0_CHARGE=$(echo "$s" | jq '[.[0].prio[].charge_bytes] | add')
	A0_RX_PAUSE=$(fc_get "$H" a0 .stats.rx_pause)
	log_info "drops at s1 $DROPS, received $GOT/$n at ${WIRE_BPS} b/s on the wire;" \
		"s0 sent PAUSE $S0_TX_PAUSE XON $S0_TX_XON, a0 received PAUSE $A0_RX_PAUSE;" \
		"partner ignored $S0_IGNORED"
}

baseline_drops()
{
	fc "$S" set dev s0 tx off
	offer
	[ "$DROPS" -gt 0 ]
	check_err $? "no drops at s1 with tx off: the lab does not congest, so it proves nothing"
	check_eq "$S0_TX_PAUSE" 0 "PAUSE sent with tx off"
	# Only a baseline that congested is one to compare with.
	BASE_BPS=0
	[ "$DROPS" -gt 0 ] && BASE_BPS=$WIRE_BPS
	log_test "baseline: tx off, an overload of 10x the emulated rate drops at s1"
}

pause_lossless()
{
	fc "$S" set dev s0 tx on mode pause
	offer
	check_eq "$DROPS" 0 "drops at s1 with PAUSE"
	check_eq "$GOT" $PKTS "datagrams received"
	[ "$S0_TX_PAUSE" -gt 0 ]
	check_err $? "s0 sent no PAUSE"
	check_eq "$A0_RX_PAUSE" "$S0_TX_PAUSE" "PAUSE received by a0 vs sent by s0"
	# ethtool -I -a reads the PAUSE frames s0 sent, XOFF and XON, from
	# flowctl's counters (its door: Documentation/dcb.md).
	check_eq "$(ip netns exec "$S" ethtool -I -a s0 | awk '/tx_pause_frames:/ { print $2 }')" \
		$((S0_TX_PAUSE + S0_TX_XON)) "ethtool -I -a on s0: tx_pause_frames"
	check_eq "$S0_IGNORED" 0 "partner-ignored with both ends on"
	check_eq "$S0_CHARGE" 0 "charge to s0 once the queues drained"
	# Under-run from XON hysteresis would leave s1's link idle: compare
	# with the always-backlogged baseline of this same VM run (TCG timer
	# latency keeps the shaper itself somewhat below its nominal rate).
	# No baseline (it failed, or was filtered out) is no comparison.
	[ "$BASE_BPS" -gt 0 ]
	check_err $? "no baseline rate to compare with: baseline_drops did not measure a congested link"
	[ "$WIRE_BPS" -ge $((BASE_BPS * 95 / 100)) ]
	check_err $? "s1's link ran at $WIRE_BPS b/s with PAUSE, under 95% of the baseline's $BASE_BPS b/s"
	# Hysteresis: each XOFF->XON cycle moves at least xoff - xon bytes.
	local cycles_max=$(( PKTS * WIRE / (150 * 1024) + 2 ))
	check_range "$S0_TX_XON" 1 $cycles_max "XON frames (no flapping)"
	log_test "PAUSE: zero drops, the bottleneck stays busy, counts match"
}

mismatched_ends()
{
	fc "$S" set dev s0 tx on mode pause
	fc "$H" set dev a0 rx off
	offer
	[ "$DROPS" -gt 0 ]
	check_err $? "no drops with a partner that ignores PAUSE"
	[ "$S0_IGNORED" -gt 0 ]
	check_err $? "partner-ignored did not climb"
	# s1 drops only once its band is full, i.e. past the headroom of an
	# XOFF in force: those frames count too, dropped or not.
	[ "$S0_IGNORED" -ge $((DROPS * 9 / 10)) ]
	check_err $? "partner-ignored $S0_IGNORED, under 90% of the $DROPS frames dropped at s1"
	fc "$H" set dev a0 rx on
	log_test "one end sends PAUSE, the other ignores it: drops, partner-ignored climbs"
}

# The derived thresholds against 802.3 31B.3.7's allowance table and the
# formula of Documentation/sending.md, computed here (not read back from the
# module): headroom = allowance * 64 + 2 * 66616 + min(speed * 500 us,
# 512 KiB); xoff = limit - headroom (0 when the limit is smaller); xon =
# xoff - 2 * 66616 (xoff / 2 when xoff is smaller than that).
derived_threshold_values()
{
	local speed limit q sw head xoff xon s got tx0

	# The thresholds do not depend on tx; tx on refuses speeds at which
	# no quanta outlast the XOFF's refresh (above 335 Gb/s).
	tx0=$(fc_get "$S" s0 .tx)
	fc "$S" set dev s0 tx off

	# The speeds of the standard's table (REFERENCE.md), each its own row.
	for speed in 100 1000 10000 25000 40000 50000 100000 200000 400000; do
		case $speed in
		100) q=1 ;; 1000) q=2 ;; 10000) q=67 ;; 25000) q=80 ;;
		40000) q=118 ;; 50000) q=147 ;; 100000) q=394 ;; 200000) q=453 ;;
		*) q=905 ;;
		esac
		sw=$((speed * 1000000 / 8 * 500 / 1000000))
		[ $sw -gt 524288 ] && sw=524288
		head=$((q * 64 + 2 * 66616 + sw))
		for limit in 1048576 262144 100000; do
			xoff=0
			[ $limit -gt $head ] && xoff=$((limit - head))
			if [ $xoff -gt $((2 * 66616)) ]; then
				xon=$((xoff - 2 * 66616))
			else
				xon=$((xoff / 2))
			fi
			fc "$S" set dev s0 speed $speed limit $limit xoff 0 xon 0
			check_err $? "cannot set speed $speed limit $limit with derived thresholds"
			s=$(fc "$S" -j show dev s0)
			got=$(echo "$s" | jq -r '.[0] | "\(.headroom_bytes) \(.xoff_bytes) \(.xon_bytes)"')
			check_eq "$got" "$head $xoff $xon" \
				"speed $speed, limit $limit: headroom xoff xon"
		done
	done
	# BIG TCP: a device that allows 192 KB GSO packets has 192 KB ones in
	# flight (196608 + 135 segments' overhead on the wire: 199848 bytes).
	ip -n "$S" link set dev s0 gso_max_size 196608
	check_err $? "cannot set s0's gso_max_size to 196608"
	fc "$S" set dev s0 speed 1000 limit 1m xoff 0 xon 0
	head=$((2 * 64 + 2 * 199848 + 62500))
	xoff=$((1048576 - head))
	got=$(fc "$S" -j show dev s0 | jq -r '.[0] | "\(.headroom_bytes) \(.xoff_bytes) \(.xon_bytes)"')
	check_eq "$got" "$head $xoff $((xoff - 2 * 199848))" \
		"gso_max_size 196608, speed 1000, limit 1048576: headroom xoff xon"
	ip -n "$S" link set dev s0 gso_max_size 65536
	fc "$S" set dev s0 speed 1000 limit 1m xoff 500k xon 350k
	[ "$tx0" = true ] && fc "$S" set dev s0 tx on
	log_test "derived headroom, XOFF and XON follow 802.3's allowance table and the formula"
}

# Out of the box: no xoff/xon given, s0 derives them from its band limit and
# speed (Documentation/sending.md). Their headroom (196 KB at 1 Gb/s) is
# 39 ms of a sender at 2x the emulated rate, more than a software partner
# under TCG needs to react; at 10x it would be 8 ms, which TCG does not keep.
# Next to its baseline: the same 2x overload with tx off drops.
derived_thresholds()
{
	local s limit head xoff xon

	fc "$H" set dev a0 rate $((2 * RATE_MBIT))mbit
	fc "$S" set dev s0 tx off xoff 0 xon 0
	check_err $? "setting derived thresholds failed"
	s=$(fc "$S" -j -s show dev s0)
	limit=$(echo "$s" | jq '.[0].limit_bytes')
	head=$(echo "$s" | jq '.[0].headroom_bytes')
	xoff=$(echo "$s" | jq '.[0].xoff_bytes')
	xon=$(echo "$s" | jq '.[0].xon_bytes')
	log_info "derived at speed 1000: limit $limit headroom $head xoff $xoff xon $xon"
	offer
	[ "$DROPS" -gt 0 ]
	check_err $? "no drops at s1 at 2x with tx off: the lab does not congest"
	fc "$S" set dev s0 tx on mode pause
	offer
	check_eq "$DROPS" 0 "drops at s1 with PAUSE and derived thresholds"
	check_eq "$GOT" $PKTS "datagrams received"
	[ "$S0_TX_PAUSE" -gt 0 ]
	check_err $? "s0 sent no PAUSE"
	check_eq "$S0_IGNORED" 0 "partner-ignored with both ends on"
	# Every XOFF s0 sent, refreshes too, arrived and was honored as one.
	check_eq "$A0_RX_PAUSE" "$S0_TX_PAUSE" "a0's rx_pause against s0's tx_pause"
	fc "$H" set dev a0 rate $((10 * RATE_MBIT))mbit
	fc "$S" set dev s0 xoff 500k xon 350k
	log_test "derived thresholds: 2x overload, drops with tx off, none with PAUSE; the partner heard every XOFF"
}

# The PAUSE frames s0 sends, as an independent decoder reads them on a0.
# Not a matter of rates: 150 datagrams (220 KB) into a 1 Mb/s link with
# XOFF at 30 KB queue on any kernel, however slow, so s0 sends XOFF, and
# XON once they drain.
frames_well_formed()
{
	local pcap=$TMP/a0.pcap cap fields mac_s0 own=$TMP/s0.pcap owncap

	if ! command -v tshark >/dev/null; then
		log_skip "frames decoded by tshark" "no tshark"
		return
	fi
	mac_s0=$(mac_of "$S" s0)
	fc "$S" set dev s0 tx on mode pause xoff 30k xon 15k
	fc "$S" set dev s1 rate 1mbit
	capture "$H" a0 "$pcap" 'ether proto 0x8808'
	check_err $? "tcpdump did not start on a0"
	cap=$CAP_PID
	# And on s0 itself: a tap on the sending port sees what flowctl sent.
	capture "$S" s0 "$own" 'ether proto 0x8808'
	check_err $? "tcpdump did not start on s0"
	owncap=$CAP_PID
	offer 150
	fc "$S" set dev s1 rate ${RATE_MBIT}mbit
	fc "$S" set dev s0 xoff 500k xon 350k
	kill $cap $owncap
	wait $cap $owncap 2>/dev/null
	tcpdump -r "$own" -nn -e 2>/dev/null | grep -q " $mac_s0 > 01:80:c2:00:00:01, .*Opcode Pause"
	check_err $? "tcpdump on s0 did not see the PAUSE frames s0 sent: $(tcpdump -r "$own" -nn -e 2>/dev/null | head -n 3)"
	fields=$(tshark -r "$pcap" -T fields -E separator=, -e frame.len -e eth.dst \
		-e eth.src -e macc.opcode -e macc.pause_time 2>/dev/null | sort | uniq -c)
	log_info "$(echo "$fields" | tr '\n' ' ')"
	[ "$(echo "$fields" | wc -l)" -le 2 ]
	check_err $? "frames of more than two kinds (XOFF and XON): $fields"
	echo "$fields" | grep -q " 60,01:80:c2:00:00:01,$mac_s0,0x0001,65535$"
	check_err $? "no 60-byte XOFF (PAUSE 65535 from s0)"
	echo "$fields" | grep -q " 60,01:80:c2:00:00:01,$mac_s0,0x0001,0$"
	check_err $? "no 60-byte XON (PAUSE 0 from s0)"
	# tshark shows no padding field: read the bytes after pause_time.
	/usr/bin/python3 - "$pcap" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
off, bad, n = 24, 0, 0
while off + 16 <= len(d):
    incl = struct.unpack_from("<IIII", d, off)[2]
    frame = d[off + 16:off + 16 + incl]
    off += 16 + incl
    n += 1
    bad += any(frame[18:60])
sys.exit(1 if bad or not n else 0)
PY
	check_err $? "padding of a sent frame is not zero"
	log_test "XOFF and XON frames are well formed (tshark)"
}

# TCP with several streams, as the seed's iperf3 -P 8 lab (fewer under TCG).
tcp_streams()
{
	local d0 d1 retr drops

	if ! command -v iperf3 >/dev/null; then
		log_skip "TCP streams" "no iperf3"
		return
	fi
	for mode in off on; do
		fc "$S" set dev s0 tx $mode mode pause
		d0=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
		ip netns exec "$R" iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
		local sp=$!
		sleep 0.5
		retr=$(ip netns exec "$H" timeout 60 iperf3 -c 198.18.0.2 -p 5201 -t 6 -P 4 -J |
		       jq '.end.sum_sent.retransmits')
		wait $sp 2>/dev/null
		d1=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
		drops=$((d1 - d0))
		log_info "TCP x4, tx $mode: drops at s1 $drops, retransmits $retr," \
			"s0 sent PAUSE $(fc_get "$S" s0 .stats.tx_pause)"
		if [ $mode = off ]; then
			[ "$drops" -gt 0 ]
			check_err $? "TCP x4 did not drop at s1 with tx off: no baseline"
		else
			check_eq "$drops" 0 "drops at s1, TCP x4 with PAUSE"
		fi
	done
	log_test "TCP with four streams: drops with tx off, none with PAUSE"
}

# Ports come and go while their bytes wait in another port's queue: the
# charge must neither leak nor underflow nor land on the wrong port.
churn_under_congestion()
{
	local i charge

	fc "$S" set dev s0 tx on mode pause
	ip netns exec "$R" "$FCTEST" recv 9000 2 >/dev/null &
	local rp=$!
	ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 0 1000000 size $SIZE >/dev/null &
	local sp=$!
	sleep 1
	for i in 1 2 3 4; do
		# s0 leaves while its bytes wait in s1, and comes back.
		ip netns exec "$S" tc qdisc del dev s0 root
		sleep 0.2
		ip netns exec "$S" tc qdisc add dev s0 root flowctl
		fc "$S" set dev s0 speed 1000 xoff 500k xon 350k tx on
		sleep 0.3
		ip -n "$S" link set s1 down
		ip -n "$S" link set s1 up
		sleep 0.2
		rmmod flowctl 2>/dev/null
		check_fail $? "rmmod succeeded with qdiscs attached"
		ip netns exec "$S" tc qdisc replace dev s1 root flowctl
		fc "$S" set dev s1 rate ${RATE_MBIT}mbit
		sleep 0.3
	done
	kill $sp
	wait $sp 2>/dev/null
	wait $rp
	sleep 1
	charge=$(fc "$S" -j -s show dev s0 | jq '[.[0].prio[].charge_bytes] | add')
	check_eq "$charge" 0 "s0's charge once the queues drained"
	check_eq "$(fc_get "$S" s1 '.prio | map(.backlog_bytes) | add')" 0 "s1 backlog"
	check_eq "$(fc_get "$S" s0 .prio[0].xoff_active)" false "s0 XOFF after draining"
	log_test "detach/attach, link down/up, replace, rmmod during congestion: charge back to 0"
}

TMP=$(mktemp -d)
cleanup()
{
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed
run_tests
