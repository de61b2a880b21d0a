#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tables and plots from a lab results directory (scripts/demo/experiments.sh
# wrote OUT/runs/*): runs on the host or in the VM.
#
#   report.sh OUT      writes OUT/tables.txt (and prints it), per run
#                      summary.env, series.tsv, hostA.tsv, flows-*.tsv, and
#                      the plots OUT/EXPERIMENT.png and .svg (gnuplot)
#
# Every figure in a table is read from what the run recorded: the module's
# counters (flowctl -j -s show), tc's qdisc stats, iperf3's JSON and
# flowctl watch's verdicts. Nothing is computed from what a run should do.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: report.sh RESULTS_DIR}
[ -d "$OUT/runs" ] || { echo "report: no runs in $OUT" >&2; exit 1; }

# jq over a port of a show file: port FILE IFNAME EXPR
port()
{
	jq -r --arg d "$2" ".[] | select(.ifname == \$d) | $3" "$1"
}

qdisc_drops()
{
	jq -r --arg d "$2" '[.[] | select(.dev == $d and .root == true) | .drops] | add // 0' "$1"
}

# The verdict of one counter in a watch file: "steady 9/9", or "none".
verdict()
{
	jq -r --arg c "$2" --argjson p "${3:-null}" '
		[.verdicts[] | select(.counter == $c and (.prio // null) == $p)] |
		if length == 0 then "none"
		else .[0] | "\(.verdict) \(.grew_intervals)/\(.intervals)" end' "$1"
}

mbps()
{
	awk -v b="$1" 'BEGIN { printf "%.2f", b / 1e6 }'
}

# summary DIR: DIR/summary.env, one KEY=VALUE per table row.
summary()
{
	local d=$1 sw=$1/show-switch.json ha=$1/show-hostA.json f i n
	local -a flows

	# shellcheck source=/dev/null
	. "$d/meta.env"
	{
		echo "EXPERIMENT=$EXPERIMENT"
		echo "MODE=$MODE"
		# Goodput: what iperf3's servers received, per stream and in sum.
		f=$d/iperf-B.json
		mapfile -t flows < <(jq -r '.end.streams[].receiver.bits_per_second' "$f")
		n=${#flows[@]}
		echo "B_FLOWS=$n"
		for i in $(seq "$n"); do
			echo "B_FLOW_$i=$(mbps "${flows[$((i - 1))]}")"
		done
		echo "B_TOTAL=$(mbps "$(jq -r '.end.sum_received.bits_per_second' "$f")")"
		echo "B_MBYTES=$(jq -r '.end.sum_received.bytes / 1e6 | . * 100 | round / 100' "$f")"
		echo "B_RETRANS=$(jq -r '.end.sum_sent.retransmits // 0' "$d/iperf-B-client.json")"
		if [ -s "$d/iperf-C.json" ]; then
			f=$d/iperf-C.json
			echo "C_TOTAL=$(mbps "$(jq -r '.end.sum_received.bits_per_second' "$f")")"
			echo "C_MBYTES=$(jq -r '.end.sum_received.bytes / 1e6 | . * 100 | round / 100' "$f")"
		fi
		echo "S1_DROPS=$(qdisc_drops "$d/tc-switch.json" s1)"
		echo "A0_DROPS=$(qdisc_drops "$d/tc-hostA.json" a0)"
		echo "S0_TX_PAUSE=$(port "$sw" s0 .stats.tx_pause)"
		echo "S0_TX_XON=$(port "$sw" s0 .stats.tx_xon)"
		echo "S0_TX_PFC=$(port "$sw" s0 .stats.tx_pfc)"
		# Sent per priority: tx_pfc counts XOFF frames, tx_pfc_xon XON ones;
		# received per priority: rx_pfc counts every frame with the bit set,
		# rx_pfc_xon those with time 0 (Documentation/receive-path.md).
		echo "S0_TX_PFC3=$(port "$sw" s0 .prio[3].tx_pfc)"
		echo "S0_TX_PFC3_XON=$(port "$sw" s0 .prio[3].tx_pfc_xon)"
		echo "S0_RX=$(port "$sw" s0 '.stats.rx_pause + .stats.rx_xon + .stats.rx_pfc')"
		echo "S0_IGNORED=$(port "$sw" s0 .stats.partner_ignored)"
		echo "A0_RX_PAUSE=$(port "$ha" a0 .stats.rx_pause)"
		echo "A0_RX_XON=$(port "$ha" a0 .stats.rx_xon)"
		echo "A0_RX_PFC=$(port "$ha" a0 .stats.rx_pfc)"
		echo "A0_RX_PFC3=$(port "$ha" a0 '.prio[3].rx_pfc - .prio[3].rx_pfc_xon')"
		echo "A0_RX_PFC3_XON=$(port "$ha" a0 .prio[3].rx_pfc_xon)"
		echo "A0_TX=$(port "$ha" a0 '.stats.tx_pause + .stats.tx_xon + .stats.tx_pfc')"
		echo "A0_RX_IGNORED=$(port "$ha" a0 .stats.rx_ignored)"
		echo "A0_PAUSED3_MS=$(port "$ha" a0 '.prio[3].paused_ns_total / 1e6 | round')"
		echo "A0_PAUSED0_MS=$(port "$ha" a0 '.prio[0].paused_ns_total / 1e6 | round')"
		echo "S0_PEAK_KB=$(jq -r '.ports[] | select(.ifname == "s0") |
			[.prio[].charge_bytes] | add' "$d/samples-switch.jsonl" |
			sort -n | tail -1 | awk '{ printf "%d", $1 / 1024 }')"
		if [ "$MODE" = pfc ]; then
			echo "V_S0=$(verdict "$d/watch-s0.json" tx_pfc 3)"
			echo "V_A0=$(verdict "$d/watch-a0.json" rx_pfc 3)"
		else
			echo "V_S0=$(verdict "$d/watch-s0.json" tx_pause)"
			echo "V_A0=$(verdict "$d/watch-a0.json" rx_pause)"
		fi
	} >"$d/summary.env"
}

# series DIR: time series for the plots, t in seconds from the traffic start.
series()
{
	local d=$1

	# shellcheck source=/dev/null
	. "$d/meta.env"
	# t, s1 and s2 egress bytes, s0 charge, s1 backlog, s1 drops, XOFF and
	# XON frames s0 sent (PAUSE or PFC), all cumulative or instantaneous.
	jq -r --argjson t0 "$T_START_NS" '
		(.ports | map({key: .ifname, value: .}) | from_entries) as $p |
		def bytes($x): if $x then [$x.prio[].tx_bytes] | add else 0 end;
		[(.time_ns - $t0) / 1e9, bytes($p.s1), bytes($p.s2),
		 ([$p.s0.prio[].charge_bytes] | add), ([$p.s1.prio[].backlog_bytes] | add),
		 ([$p.s1.prio[].drops] | add),
		 $p.s0.stats.tx_pause + ([$p.s0.prio[].tx_pfc] | add) - ([$p.s0.prio[].tx_pfc_xon] | add),
		 $p.s0.stats.tx_xon + ([$p.s0.prio[].tx_pfc_xon] | add)] | @tsv' \
		"$d/samples-switch.jsonl" |
	awk -F'\t' 'BEGIN { OFS = "\t"; print "# t s1_mbps s2_mbps s0_charge_kb s1_backlog_kb s1_drops xoff_frames xon_frames" }
		NR > 1 && $1 > pt {
			dt = $1 - pt
			print $1, ($2 - p2) * 8 / dt / 1e6, ($3 - p3) * 8 / dt / 1e6,
			      $4 / 1024, $5 / 1024, $6 - p6, $7 - p7, $8 - p8
		}
		{ pt = $1; p2 = $2; p3 = $3; p6 = $6; p7 = $7; p8 = $8 }' >"$d/series.tsv"
	# hostA: the share of each interval its priorities 0 and 3 were paused.
	jq -r --argjson t0 "$T_START_NS" '
		. as $s | .ports[] | select(.ifname == "a0") |
		[($s.time_ns - $t0) / 1e9, .prio[0].paused_ns_total, .prio[3].paused_ns_total] | @tsv' \
		"$d/samples-hostA.jsonl" |
	awk -F'\t' 'BEGIN { OFS = "\t"; print "# t prio0_paused_pct prio3_paused_pct" }
		NR > 1 && $1 > pt {
			dt = ($1 - pt) * 1e9
			a = ($2 - p0) * 100 / dt; b = ($3 - p3) * 100 / dt
			print $1, (a > 100 ? 100 : a), (b > 100 ? 100 : b)
		}
		{ pt = $1; p0 = $2; p3 = $3 }' >"$d/hostA.tsv"
	# iperf3's receivers, per stream, every 0.1 s. Its times count from
	# its own test start, after the connections are set up: they are put
	# on the switch's clock at the first sample where the egress towards
	# that receiver carried traffic (1 Mb/s), less one interval.
	local h col off
	for h in B C; do
		[ -s "$d/iperf-$h.json" ] || continue
		col=2
		[ $h = C ] && col=3
		off=$(awk -v c=$col '!/^#/ && $c > 1 { printf "%.3f", $1 - 0.1; exit }' "$d/series.tsv")
		jq -r --argjson off "${off:-0}" '
			.intervals[] | [.sum.end + $off] + [.streams[].bits_per_second / 1e6] | @tsv' \
			"$d/iperf-$h.json" >"$d/flows-$h.tsv"
	done
}

for d in "$OUT"/runs/*/; do
	d=${d%/}
	[ -e "$d/meta.env" ] || continue
	summary "$d"
	series "$d"
done

"$HERE/tables.sh" "$OUT" | tee "$OUT/tables.txt"
if command -v gnuplot >/dev/null; then
	"$HERE/plot.sh" "$OUT"
else
	echo "report: gnuplot not found (scripts/deps.sh installs gnuplot-nox): no plots" >&2
fi
