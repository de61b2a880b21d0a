#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tables and plots from a lab results directory (scripts/demo/experiments.sh
# wrote OUT/runs/*): runs on the host or in the VM.
#
#   report.sh OUT      writes OUT/tables.txt (and prints it), per run
#                      summary.env, series.tsv, hostA.tsv, flows-*.tsv
#                      (the fabric runs: series-*.tsv, scripts/demo/
#                      fabric-report.sh), and the plots OUT/EXPERIMENT.png
#                      and .svg (gnuplot); RoCE (runs/roce, make demo -e
#                      roce): scripts/demo/roce-report.sh
#
# Every figure in a table is read from what the run recorded: the module's
# counters (flowctl -j -s show), tc's qdisc stats, iperf3's JSON and
# flowctl watch's verdicts. Nothing is computed from what a run should do.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${1:?usage: report.sh RESULTS_DIR}
[ -d "$OUT/runs" ] || { echo "report: no runs in $OUT" >&2; exit 1; }

# summary DIR: DIR/summary.env, one KEY=VALUE per table row. One jq over
# the run's records (jq starts slowly in an emulated VM).
summary()
{
	local d=$1 c=null

	[ -s "$d/iperf-C.json" ] && c=$d/iperf-C.json
	# shellcheck source=/dev/null
	. "$d/meta.env"
	{
		echo "EXPERIMENT=$EXPERIMENT"
		echo "MODE=$MODE"
		echo "A0_AT_START=${A0_AT_START:--}"
		[ -z "${DCBX_SECONDS:-}" ] || echo "DCBX_SECONDS=$DCBX_SECONDS"
		# shellcheck disable=SC2016 # jq's own variables
		jq -n -r --arg mode "$MODE" \
			--slurpfile sw "$d/show-switch.json" --slurpfile ha "$d/show-hostA.json" \
			--slurpfile tsw "$d/tc-switch.json" --slurpfile tha "$d/tc-hostA.json" \
			--slurpfile b "$d/iperf-B.json" --slurpfile bc "$d/iperf-B-client.json" \
			--slurpfile c "${c/#null//dev/null}" --slurpfile ws "$d/watch-s0.json" \
			--slurpfile wa "$d/watch-a0.json" '
			def port($f; $n): $f[0][] | select(.ifname == $n);
			def drops($f; $n): [$f[0][] | select(.dev == $n and .root == true) | .drops] | add // 0;
			def mbps: . / 1e6 * 100 | round / 100;
			def mb: . / 1e6 * 100 | round / 100;
			def verdict($w; $counter; $p):
				[$w[0].verdicts[] | select(.counter == $counter and (.prio // null) == $p)] |
				if length == 0 then "none"
				else .[0] | "\(.verdict) \(.grew_intervals)/\(.intervals)" end;
			port($sw; "s0") as $s0 | port($ha; "a0") as $a0 |
			# Goodput: what iperf3 servers received, per stream and in sum.
			($b[0].end.streams | map(.receiver.bits_per_second)) as $fl |
			"B_FLOWS=\($fl | length)",
			($fl | to_entries[] | "B_FLOW_\(.key + 1)=\(.value | mbps)"),
			"B_TOTAL=\($b[0].end.sum_received.bits_per_second | mbps)",
			"B_MBYTES=\($b[0].end.sum_received.bytes | mb)",
			"B_RETRANS=\($bc[0].end.sum_sent.retransmits // 0)",
			(if ($c | length) > 0 then
				"C_TOTAL=\($c[0].end.sum_received.bits_per_second | mbps)",
				"C_MBYTES=\($c[0].end.sum_received.bytes | mb)"
			 else empty end),
			"S1_DROPS=\(drops($tsw; "s1"))",
			"A0_DROPS=\(drops($tha; "a0"))",
			"S0_TX_PAUSE=\($s0.stats.tx_pause)",
			"S0_TX_XON=\($s0.stats.tx_xon)",
			# Sent per priority: tx_pfc counts XOFF frames, tx_pfc_xon XON;
			# received: rx_pfc counts every frame with the bit set,
			# rx_pfc_xon those with time 0 (Documentation/receive-path.md).
			"S0_TX_PFC3=\($s0.prio[3].tx_pfc)",
			"S0_TX_PFC3_XON=\($s0.prio[3].tx_pfc_xon)",
			"S0_RX=\($s0.stats | .rx_pause + .rx_xon + .rx_pfc)",
			"S0_IGNORED=\($s0.stats.partner_ignored)",
			"A0_RX_PAUSE=\($a0.stats.rx_pause)",
			"A0_RX_XON=\($a0.stats.rx_xon)",
			"A0_RX_PFC3=\($a0.prio[3] | .rx_pfc - .rx_pfc_xon)",
			"A0_RX_PFC3_XON=\($a0.prio[3].rx_pfc_xon)",
			"A0_TX=\($a0.stats | .tx_pause + .tx_xon + .tx_pfc)",
			"A0_RX_IGNORED=\($a0.stats.rx_ignored)",
			"A0_PAUSED3_MS=\($a0.prio[3].paused_ns_total / 1e6 | round)",
			"A0_PAUSED0_MS=\($a0.prio[0].paused_ns_total / 1e6 | round)",
			(if $s0.mode == "pfc" then
				"V_S0=\(verdict($ws; "tx_pfc"; 3))", "V_A0=\(verdict($wa; "rx_pfc"; 3))"
			 else
				"V_S0=\(verdict($ws; "tx_pause"; null))", "V_A0=\(verdict($wa; "rx_pause"; null))"
			 end)'
		# The largest charge of s0 among the samples (series.tsv, column 4).
		awk '!/^#/ && $4 > m { m = $4 } END { printf "S0_PEAK_KB=%d\n", m }' "$d/series.tsv"
	} >"$d/summary.env"
}

# series DIR: time series for the plots, t in seconds from the traffic start.
series()
{
	local d=$1 shift_s

	# shellcheck source=/dev/null
	. "$d/meta.env"
	# t, s1 and s2 egress bytes, s0 charge, s1 backlog, s1 drops, XOFF and
	# XON frames s0 sent (PAUSE, and PFC counted per priority: tx_pfc is
	# XOFF, tx_pfc_xon XON), all cumulative or instantaneous.
	jq -r --argjson t0 "$T_START_NS" '
		(.ports | map({key: .ifname, value: .}) | from_entries) as $p |
		def bytes($x): if $x then [$x.prio[].tx_bytes] | add else 0 end;
		[(.time_ns - $t0) / 1e9, bytes($p.s1), bytes($p.s2),
		 ([$p.s0.prio[].charge_bytes] | add), ([$p.s1.prio[].backlog_bytes] | add),
		 ([$p.s1.prio[].drops] | add),
		 $p.s0.stats.tx_pause + ([$p.s0.prio[].tx_pfc] | add),
		 $p.s0.stats.tx_xon + ([$p.s0.prio[].tx_pfc_xon] | add)] | @tsv' \
		"$d/samples-switch.jsonl" |
	awk -F'\t' 'BEGIN { OFS = "\t"; print "# t s1_mbps s2_mbps s0_charge_kb s1_backlog_kb s1_drops xoff_frames xon_frames" }
		NR > 1 && $1 > pt {
			dt = $1 - pt
			print $1, ($2 - p2) * 8 / dt / 1e6, ($3 - p3) * 8 / dt / 1e6,
			      $4 / 1024, $5 / 1024, $6 - p6, $7 - p7, $8 - p8
		}
		{ pt = $1; p2 = $2; p3 = $3; p6 = $6; p7 = $7; p8 = $8 }' >"$d/series.raw"
	# Time 0 is the start of the traffic: the sample before the first one
	# in which the switch forwarded more than 1 Mb/s (iperf3 takes a
	# while to start under TCG, longer on a busy host).
	shift_s=$(awk '!/^#/ && ($2 > 1 || $3 > 1) { printf "%.3f", prev; exit } !/^#/ { prev = $1 }' \
		"$d/series.raw")
	shift_s=${shift_s:-0}
	awk -v s="$shift_s" 'BEGIN { OFS = "\t" } /^#/ { print; next } { $1 = $1 - s; print }' \
		"$d/series.raw" >"$d/series.tsv"
	rm -f "$d/series.raw"
	# hostA: the share of each interval its priorities 0 and 3 were paused.
	jq -r --argjson t0 "$T_START_NS" --argjson shift "$shift_s" '
		. as $s | .ports[] | select(.ifname == "a0") |
		[($s.time_ns - $t0) / 1e9 - $shift, .prio[0].paused_ns_total, .prio[3].paused_ns_total] | @tsv' \
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

# shellcheck source=scripts/demo/fabric-report.sh
source "$HERE/fabric-report.sh"

for d in "$OUT"/runs/*/; do
	d=${d%/}
	[ -e "$d/meta.env" ] || continue
	case $(sed -n 's/^EXPERIMENT=//p' "$d/meta.env") in
	deadlock | storm)
		fabric_series "$d"
		fabric_summary "$d"
		;;
	*)
		series "$d"
		summary "$d"
		;;
	esac
done

"$HERE/tables.sh" "$OUT" | tee "$OUT/tables.txt"
rc=0
# make demo -e roce: scripts/twovm's two halves wrote runs/roce.
if [ -d "$OUT/runs/roce" ]; then
	"$HERE/roce-report.sh" "$OUT" | tee -a "$OUT/tables.txt"
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
fi
if command -v gnuplot >/dev/null; then
	"$HERE/plot.sh" "$OUT" || rc=1
	for e in deadlock storm; do
		fabric_plot "$OUT" $e || rc=1
	done
else
	echo "report: gnuplot not found (scripts/deps.sh installs gnuplot-nox): no plots" >&2
fi
exit $rc
