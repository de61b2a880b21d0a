#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Group 5: a bridge of flowctl ports as a lossless switch, at an offered
# load of 2, 4 and 10 times its bottleneck, with PAUSE (s0 tx on) and
# without (tx off, the peer figure from the same run).
#
#   +-- ns H --+        +-------------- ns S --------------+       +-- ns R --+
#   | a0       |========| s0 (tx)      br0      s1 (rate R) |=======| b0       |
#   | flowctl  |  veth  | flowctl              flowctl      |  veth | fctest   |
#   | rate k*R |        | speed 1000, thresholds derived   |       |  recv    |
#   +----------+        +-----------------------------------+       +----------+
#
# H sends UDP as fast as its socket lets it; a0's shaper makes that k * R on
# the wire, as a k-times-faster link would. s0's XOFF/XON are not set: they
# come from the documented formula (Documentation/sending.md) at 1000 Mb/s.
# Drops are s1's tail drops; utilization is R's receive rate on the wire
# over R. The module keeps no peak of the charge, so a sampler (fcbench
# charge) reads s0's charge_bytes over generic netlink every millisecond
# while the load runs; the peak charge above XOFF is the largest sample minus
# XOFF, a lower bound of the true peak.
#
# Usage: bench/lossless.sh OUT.json
set -u
BENCH_GROUP=lossless
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
OUT=${1:?usage: lossless.sh OUT.json}
need_cmd jq ip tc flowctl
need_file "$FCTEST" selftests
need_file "$FCBENCH" bench

RATE_MBIT=20
SIZE=1400
WIRE=$((SIZE + 8 + 20 + 14 + 24))	# UDP, IPv4, Ethernet, preamble/FCS/gap
PKTS=$([ "$BENCH_QUICK" = 1 ] && echo 1500 || echo 3000)
OVERLOADS="2 4 10"

setup_ns H S R
veth_pair "$H" a0 "$S" s0 || fail "veth"
veth_pair "$S" s1 "$R" b0 || fail "veth"
ip -n "$S" link add name br0 type bridge || fail "bridge"
ip -n "$S" link set dev s0 master br0
ip -n "$S" link set dev s1 master br0
ip -n "$S" link set dev br0 up
ip -n "$H" addr add 198.18.0.1/24 dev a0
ip -n "$R" addr add 198.18.0.2/24 dev b0
ip -n "$H" neigh add 198.18.0.2 lladdr "$(mac_of "$R" b0)" dev a0 nud permanent
for p in "$H a0" "$S s0" "$S s1"; do
	# shellcheck disable=SC2086
	ip netns exec ${p% *} tc qdisc add dev ${p#* } root flowctl ||
		fail "cannot attach flowctl to ${p#* }"
done
fc "$S" set dev s1 rate ${RATE_MBIT}mbit || fail "flowctl set s1 rate"
fc "$S" set dev s0 speed 1000 || fail "flowctl set s0 speed"
XOFF=$(fc_get "$S" s0 .xoff_bytes)
XON=$(fc_get "$S" s0 .xon_bytes)
HEADROOM=$(fc_get "$S" s0 .headroom_bytes)
LIMIT=$(fc_get "$S" s1 .limit_bytes)
for v in "$XOFF" "$XON" "$HEADROOM" "$LIMIT"; do
	is_uint "$v" || fail "flowctl show gives no xoff/xon/headroom/limit"
done

# s1_drops: s1's tail drops, from tc's text output without a fork of jq.
s1_drops()
{
	local out

	out=$(tc -n "$S" -s qdisc show dev s1) || fail "tc -s qdisc show dev s1"
	[[ $out =~ dropped\ ([0-9]+) ]] || fail "no drop counter for s1: $out"
	echo "${BASH_REMATCH[1]}"
}

# offer K TX: one run; prints a JSON object.
offer()
{
	local k=$1 tx=$2 d0 d1 got span s flag n_samples peak span_s

	fc "$H" set dev a0 speed 1000 rate $((k * RATE_MBIT))mbit || fail "flowctl set a0 rate"
	fc "$S" set dev s0 tx "$tx" || fail "flowctl set s0 tx $tx"
	fc "$S" stats reset dev s0
	d0=$(s1_drops)
	rm -f "$BENCH_TMP/r"
	ip netns exec "$R" "$FCTEST" recv 9000 1 >"$BENCH_TMP/r" &
	local rp=$!
	wait_for "$BENCH_TMP/r" ready || fail "fctest recv did not start"
	flag=$BENCH_TMP/sampling
	: >"$flag"
	ip netns exec "$S" "$FCBENCH" charge s0 1000 "$flag" >"$BENCH_TMP/samples" &
	local sp=$!
	local t0 t1
	t0=$(now_ns)
	timeout 120 ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 0 "$PKTS" size $SIZE \
		>/dev/null || fail "the sender failed or timed out"
	wait $rp
	t1=$(now_ns)
	rm -f "$flag"
	wait $sp
	d1=$(s1_drops)
	got="" span=""
	while read -r w a _ _ _ b _; do
		[ "$w" = packets ] && got=$a span=$b
	done <"$BENCH_TMP/r"
	if ! is_uint "$got" || ! is_uint "$span" || [ "$span" -eq 0 ]; then
		fail "no traffic reached R at ${k}x, tx $tx"
	fi
	read -r _ n_samples _ peak _ span_s <"$BENCH_TMP/samples"
	if ! is_uint "$n_samples" || ! is_uint "$peak"; then
		fail "the charge sampler failed"
	fi
	s=$(fc "$S" -j -s show dev s0)
	jq -n -c --argjson k "$k" --arg tx "$tx" --argjson drops $((d1 - d0)) \
		--argjson got "$got" --argjson pkts "$PKTS" --argjson span_us "$span" \
		--argjson wire $WIRE --argjson rate $((RATE_MBIT * 1000000)) \
		--argjson xoff "$XOFF" --argjson n_samples "$n_samples" \
		--argjson peak "$peak" --argjson span_s_us "$span_s" \
		--argjson run_ms $(((t1 - t0) / 1000000)) --argjson s "$s" '
		($got * $wire * 8 * 1000000 / $span_us) as $bps |
		{ overload: $k, tx: $tx, offered_bps: ($k * $rate), datagrams_sent: $pkts,
		  datagrams_received: $got, drops: $drops,
		  bottleneck_bps: ($bps | floor),
		  utilization: (($bps / $rate * 1000 | round) / 1000),
		  tx_pause: $s[0].stats.tx_pause, tx_xon: $s[0].stats.tx_xon,
		  partner_ignored: $s[0].stats.partner_ignored,
		  run_ms: $run_ms,
		  charge_samples: $n_samples,
		  charge_sample_interval_us: (if $n_samples > 0 then ($span_s_us / $n_samples | floor) else null end),
		  peak_charge_bytes: $peak,
		  peak_above_xoff_bytes: ([$peak - $xoff, 0] | max) }'
}

: >"$BENCH_TMP/runs"
for k in $OVERLOADS; do
	for tx in on off; do
		progress "overload ${k}x, s0 tx $tx: $PKTS datagrams of $SIZE B into ${RATE_MBIT} Mb/s"
		offer "$k" "$tx" >>"$BENCH_TMP/runs" || exit 1
		tail -n 1 "$BENCH_TMP/runs" | jq -c '{drops, utilization, peak_above_xoff_bytes}' |
			sed 's/^/bench: [lossless]   /' >&2
	done
done
jq -s --argjson xoff "$XOFF" --argjson xon "$XON" --argjson headroom "$HEADROOM" \
	--argjson limit "$LIMIT" --argjson rate $((RATE_MBIT * 1000000)) '
	{ lossless: { bottleneck_bps: $rate, speed_mbps: 1000, xoff_bytes: $xoff,
	    xon_bytes: $xon, headroom_formula_bytes: $headroom, band_limit_bytes: $limit,
	    runs: . } }' "$BENCH_TMP/runs" >"$OUT" || fail "could not build the JSON"
progress "done"
