# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The fabric runs' figures (make demo -e deadlock, -e storm), sourced by
# scripts/demo/report.sh: fabric_series and fabric_summary write a run's
# series-*.tsv and summary.env from what scripts/demo/fabric-runs.sh
# recorded (flowctl sample every interval, flowctl -j -s show at the end,
# flowctl waitfor); scripts/demo/tables.sh prints the tables and
# fabric_plot draws the figures. Every figure is a counter the module kept.

# shellcheck source=scripts/demo/fabric.sh
source "$(dirname "${BASH_SOURCE[0]}")/fabric.sh"

# fabric_port_series SAMPLES T0 PORT: "t tx_mbps backlog_kib paused
# paused_pct" of priority 3 of PORT, one row per sample (t in s from T0).
fabric_port_series()
{
	jq -r --argjson t0 "$2" --arg port "$3" '
		. as $s | .ports[] | select(.ifname == $port) | .prio[3] |
		[($s.time_ns - $t0) / 1e9, .tx_bytes, .backlog_bytes,
		 (if .paused then 1 else 0 end), .paused_ns_total] | @tsv' "$1" |
	awk -F'\t' 'BEGIN { OFS = "\t"; print "# t tx_mbps backlog_kib paused paused_pct" }
		NR > 1 && $1 > pt {
			dt = $1 - pt
			pp = ($5 - pp5) * 100 / (dt * 1e9)
			print $1, ($2 - pb) * 8 / dt / 1e6, $3 / 1024, $4, (pp > 100 ? 100 : pp)
		}
		{ pt = $1; pb = $2; pp5 = $5 }'
}

fabric_series()
{
	local d=$1 i

	# shellcheck source=/dev/null
	. "$d/meta.env"
	if [ "$EXPERIMENT" = deadlock ]; then
		for i in 1 2 3; do
			fabric_port_series "$d/samples-S$i.jsonl" "$T_START_NS" cw >"$d/series-S$i-cw.tsv"
		done
	else
		fabric_port_series "$d/samples-L2.jsonl" "$T_START_NS" l2r >"$d/series-L2-l2r.tsv"
		fabric_port_series "$d/samples-L2.jsonl" "$T_START_NS" l2h >"$d/series-L2-l2h.tsv"
		fabric_port_series "$d/samples-S.jsonl" "$T_START_NS" sl2 >"$d/series-S-sl2.tsv"
		fabric_port_series "$d/samples-L1.jsonl" "$T_START_NS" l1s >"$d/series-L1-l1s.tsv"
		fabric_port_series "$d/samples-H1.jsonl" "$T_START_NS" h0 >"$d/series-H1-h0.tsv"
	fi
}

# fabric_at SAMPLES PORT JQ FROM_NS TO_NS: JQ (of priority 3 of PORT) at
# the last sample at or before TO_NS less at the last at or before FROM_NS
# (the first sample if none), and the seconds between them: "DELTA SECONDS".
fabric_at()
{
	jq -r -s --arg port "$2" --argjson from "$4" --argjson to "$5" "
		[.[] | {t: .time_ns, v: (.ports[] | select(.ifname == \$port) | .prio[3] | $3)}] as \$x |
		(([\$x[] | select(.t <= \$from)] | last) // \$x[0]) as \$a |
		(([\$x[] | select(.t <= \$to)] | last) // \$x[0]) as \$b |
		\"\(\$b.v - \$a.v) \((\$b.t - \$a.t) / 1e9)\"" "$1"
}

fabric_summary()
{
	local d=$1 i s t mid v sec

	# shellcheck source=/dev/null
	. "$d/meta.env"
	{
		echo "EXPERIMENT=$EXPERIMENT"
		echo "MODE=$MODE"
		if [ "$EXPERIMENT" = deadlock ]; then
			for i in 1 2 3; do
				s=$d/samples-S$i.jsonl
				read -r v _ < <(fabric_at "$s" cw .tx_packets 0 "$T_STOP_NS")
				echo "L${i}_SENT_TRAFFIC=$v"
				read -r v _ < <(fabric_at "$s" cw .tx_packets $((T_STOP_NS + 1000000000)) "$T_END_NS")
				echo "L${i}_SENT_AFTER=$v"
				jq -r --arg i "$i" '
					(.[] | select(.ifname == "cw") | .prio[3]) as $c |
					(.[] | select(.ifname == "hp") | .prio[3]) as $h |
					"L\($i)_BACKLOG=\($c.backlog_bytes)",
					"L\($i)_PAUSED=\(if $c.paused then "yes" else "no" end)",
					"L\($i)_DROPS=\($c.drops)",
					"L\($i)_STORMS=\($c.wd_storms // 0)",
					"L\($i)_WD_DROPS=\($c.wd_tx_drop // 0)",
					"H\($i)_GOT=\($h.tx_packets)"' "$d/show-S$i.json"
			done
			t=$(cat "$d/waitfor.rc" 2>/dev/null)
			case $t in
			3) echo "WAITFOR=cycle" ;;
			0) echo "WAITFOR=none" ;;
			*) echo "WAITFOR=error" ;;
			esac
			echo "WAITFOR_PORTS=$(jq -r '[.cycles[0].ports[]? | "\(.netns | sub(".*-"; ""))/\(.ifname)"] | join(",") | if . == "" then "-" else . end' \
				"$d/waitfor.json" 2>/dev/null)"
		else
			# The storm's second half: it had time to spread.
			mid=$(((T_STORM_NS + T_STOP_NS) / 2))
			for t in "L2 l2r" "S sl2" "L1 l1s" "H1 h0"; do
				read -r s i <<<"$t"
				read -r v sec < <(fabric_at "$d/samples-$s.jsonl" "$i" .paused_ns_total "$mid" "$T_STOP_NS")
				echo "PAUSED_${s}_PCT=$(awk -v v="$v" -v s="$sec" 'BEGIN { p = s > 0 ? v / s / 1e7 : 0; printf "%d", (p > 100 ? 100 : p) }')"
			done
			for t in "H3 l2h" "R l2r"; do
				read -r s i <<<"$t"
				read -r v sec < <(fabric_at "$d/samples-L2.jsonl" "$i" .tx_bytes \
					$((T_START_NS + 500000000)) "$T_STORM_NS")
				echo "${s}_MBPS_BEFORE=$(awk -v v="$v" -v s="$sec" 'BEGIN { printf "%.2f", (s > 0 ? v * 8 / s / 1e6 : 0) }')"
				read -r v sec < <(fabric_at "$d/samples-L2.jsonl" "$i" .tx_bytes "$mid" "$T_STOP_NS")
				echo "${s}_MBPS_STORM=$(awk -v v="$v" -v s="$sec" 'BEGIN { printf "%.2f", (s > 0 ? v * 8 / s / 1e6 : 0) }')"
			done
			# The state while the storm still ran (it restores once
			# it ends): the last sample before the stop.
			jq -r -s --argjson to "$T_STOP_NS" '
				[.[] | select(.time_ns <= $to)] | last | .ports[] |
				select(.ifname == "l2r") | "WD_STATE=\(.prio[3].wd_state // "-")"' \
				"$d/samples-L2.jsonl"
			jq -r '(.[] | select(.ifname == "l2r") | .prio[3]) as $p |
				"R_PFC_RX=\($p.rx_pfc)",
				"WD_STORMS=\($p.wd_storms // 0)",
				"WD_DROPS=\(($p.wd_tx_drop // 0) + ($p.wd_rx_drop // 0))"' "$d/show-L2.json"
		fi
	} >"$d/summary.env"
}

fabric_mode_title()
{
	case $1 in
	off) echo "no watchdog" ;;
	*) echo "the PFC watchdog on" ;;
	esac
}

# fabric_plot OUT EXPERIMENT: OUT/EXPERIMENT.png and .svg, a column per run.
#   deadlock: each inter-switch link's priority-3 rate, then its queue,
#             the hosts' stop marked;
#   storm:    the share of each sample priority 3 was paused at each hop
#             from the storm back to the sender, then the rates L2 sent to
#             H3 (healthy) and to R (stormed), the storm's start marked.
fabric_plot()
{
	local out=$1 exp=$2 d gp ncol col xmax ymax
	local -a dirs=()

	for d in "$out"/runs/*-"$exp"-*/; do
		[ -e "$d/summary.env" ] && dirs+=("${d%/}")
	done
	ncol=${#dirs[@]}
	[ "$ncol" -gt 0 ] || return 0
	xmax=$(for d in "${dirs[@]}"; do cat "$d"/series-*.tsv; done |
		awk '!/^#/ && $1 > m { m = $1 } END { printf "%d", m + 1 }')
	gp=$out/$exp.gp
	{
		echo "# gnuplot script written by scripts/demo/fabric-report.sh; term and out are set by it"
		echo "set terminal @term size $((ncol * 560)),620 font ',10'"
		echo "set output out"
		echo "set multiplot layout 2,$ncol columnsfirst"
		echo "set grid lc rgb '#dddddd'"
		echo "set key top right font ',8' samplen 2"
		echo "set xrange [0:$xmax]"
		echo "set lmargin 10; set rmargin 3"
		col=0
		for d in "${dirs[@]}"; do
			col=$((col + 1))
			# shellcheck source=/dev/null
			. "$d/meta.env"
			if [ "$exp" = deadlock ]; then
				local stop=$(((T_STOP_NS - T_START_NS) / 1000000))
				ymax=$(cat "$d"/series-S*-cw.tsv | awk '!/^#/ && $3 > m { m = $3 } END { printf "%d", m * 1.3 + 8 }')
				echo "set title 'PFC deadlock, ring of three: $(fabric_mode_title "$MODE")' font ',11'"
				echo "set arrow 1 from $stop / 1000.0, graph 0 to $stop / 1000.0, graph 1 nohead dt 2 lc rgb '#555555'"
				echo "set label 1 'hosts stop' at $stop / 1000.0, graph 0.95 offset 0.5,0 font ',8'"
				echo "set ylabel 'Mb/s, priority 3'; set yrange [0:14]; unset xlabel"
				printf "plot '%s' u 1:2 w l lw 2 t 'S1 cw', '%s' u 1:2 w l lw 2 t 'S2 cw', '%s' u 1:2 w l lw 2 t 'S3 cw'\n" \
					"$d/series-S1-cw.tsv" "$d/series-S2-cw.tsv" "$d/series-S3-cw.tsv"
				echo "unset title; set ylabel 'queue (KiB)'; set yrange [0:$ymax]; set xlabel 's'"
				printf "plot '%s' u 1:3 w l lw 2 t 'S1 cw', '%s' u 1:3 w l lw 2 t 'S2 cw', '%s' u 1:3 w l lw 2 t 'S3 cw'\n" \
					"$d/series-S1-cw.tsv" "$d/series-S2-cw.tsv" "$d/series-S3-cw.tsv"
			else
				local storm=$(((T_STORM_NS - T_START_NS) / 1000000))
				echo "set title 'PFC storm, two-level fabric: $(fabric_mode_title "$MODE")' font ',11'"
				echo "set arrow 1 from $storm / 1000.0, graph 0 to $storm / 1000.0, graph 1 nohead dt 2 lc rgb '#555555'"
				echo "set label 1 'storm' at $storm / 1000.0, graph 0.95 offset 0.5,0 font ',8'"
				echo "set ylabel '% paused, priority 3'; set yrange [0:135]; unset xlabel"
				printf "plot '%s' u 1:5 w steps lw 2 t 'L2 l2r (to R)', '%s' u 1:5 w steps lw 2 t 'S sl2', " \
					"$d/series-L2-l2r.tsv" "$d/series-S-sl2.tsv"
				printf "'%s' u 1:5 w steps lw 2 t 'L1 l1s', '%s' u 1:5 w steps lw 2 t 'H1 h0 (sender)'\n" \
					"$d/series-L1-l1s.tsv" "$d/series-H1-h0.tsv"
				echo "unset title; set ylabel 'Mb/s, priority 3'; set yrange [0:8]; set xlabel 's'"
				printf "plot '%s' u 1:2 w l lw 2 lc rgb '#27ae60' t 'L2 to H3 (healthy)', '%s' u 1:2 w l lw 2 lc rgb '#c0392b' t 'L2 to R (stormed)'\n" \
					"$d/series-L2-l2h.tsv" "$d/series-L2-l2r.tsv"
			fi
			echo "unset arrow 1; unset label 1"
		done
		echo "unset multiplot"
	} >"$gp"
	if ! gnuplot -e "term='pngcairo'; out='$out/$exp.png'; load '$gp';
			term='svg'; out='$out/$exp.svg'; load '$gp'" 2>"$out/$exp.gnuplot.log"; then
		echo "plot: gnuplot failed for $exp:" >&2
		cat "$out/$exp.gnuplot.log" >&2
		return 1
	fi
	echo "plot: $out/$exp.png, $out/$exp.svg"
}
