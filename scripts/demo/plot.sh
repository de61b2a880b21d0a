#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The lab's plots: one figure per experiment, a column per run, four rows
# on one time axis (seconds from the start of the traffic):
#   1. throughput: switch egress towards each receiver every sample, and
#      iperf3's streams (thin lines) as their receivers counted them;
#   2. the switch's queue: bytes charged to s0 (what XOFF/XON compare) and
#      s1's backlog, with XOFF, XON and s1's limit; drops at s1 as spikes;
#   3. XOFF and XON frames the switch sent (PAUSE or PFC) per sample;
#   4. the share of each sample hostA's priority 3 and priority 0 were paused.
# Writes OUT/EXPERIMENT.png, OUT/EXPERIMENT.svg and the gnuplot script
# OUT/EXPERIMENT.gp, reading what scripts/demo/report.sh extracted.
#   plot.sh OUT
set -u
OUT=${1:?usage: plot.sh RESULTS_DIR}

kib()
{
	# "500k" -> 500, "1m" -> 1024, "512000" -> 500
	case $1 in
	*k | *K) echo "${1%?}" ;;
	*m | *M) echo $((${1%?} * 1024)) ;;
	*) echo $(($1 / 1024)) ;;
	esac
}

title_of()
{
	case $1 in
	off) echo "flow control off" ;;
	pause) echo "PAUSE" ;;
	pfc) echo "PFC, priority 3" ;;
	ends) echo "switch sends PAUSE, hostA rx off" ;;
	manual) echo "switch sends PFC p3, hostA honors PAUSE (by hand)" ;;
	dcbx) echo "the same ends, DCBX: hostA adopts PFC p3" ;;
	esac
}

plot_experiment()
{
	local exp=$1 d gp ncol i col ymax fmax dmax xmax limit_kib nflows
	local -a dirs=()

	for d in "$OUT"/runs/*-"$exp"-*/; do
		[ -s "$d/series.tsv" ] && dirs+=("${d%/}")
	done
	ncol=${#dirs[@]}
	[ "$ncol" -gt 0 ] || return 0
	# shellcheck source=/dev/null
	. "${dirs[0]}/meta.env"
	limit_kib=$(jq -r '.[] | select(.ifname == "s1") | .limit_bytes / 1024 | floor' \
		"${dirs[0]}/show-switch.json")
	# The longest run: its last sample that carried traffic, plus a second.
	xmax=$(cat "${dirs[@]/%//series.tsv}" | awk '!/^#/ && ($2 > 1 || $3 > 1) && $1 > m { m = $1 }
		END { printf "%d", m + 1.5 }')
	# Shared y ranges, so that the columns compare at a glance.
	ymax=$(cat "${dirs[@]/%//series.tsv}" | awk '!/^#/ { for (i = 2; i <= 3; i++) if ($i > m) m = $i }
		END { printf "%d", m * 1.35 + 1 }')
	dmax=$(cat "${dirs[@]/%//series.tsv}" | awk '!/^#/ && $6 > m { m = $6 } END { printf "%d", m * 1.35 + 1 }')
	fmax=$(cat "${dirs[@]/%//series.tsv}" | awk '!/^#/ { for (i = 7; i <= 8; i++) if ($i > m) m = $i }
		END { printf "%d", m * 1.35 + 1 }')
	gp=$OUT/$exp.gp
	{
		echo "# gnuplot script written by scripts/demo/plot.sh; term and out are set by it"
		echo "set terminal @term size $((ncol * 520)),1000 font ',10'"
		echo "set output out"
		echo "set multiplot layout 4,$ncol columnsfirst"
		echo "set grid lc rgb '#dddddd'"
		echo "set key top left horizontal maxrows 2 font ',8' samplen 2"
		echo "set xrange [-1:$xmax]"
		echo "set lmargin 10; set rmargin 9"
		col=0
		for d in "${dirs[@]}"; do
			col=$((col + 1))
			# shellcheck source=/dev/null
			. "$d/meta.env"
			nflows=0
			[ -s "$d/flows-B.tsv" ] && nflows=$(awk '{ print NF - 1; exit }' "$d/flows-B.tsv")
			# 1: throughput
			echo "set title '$(title_of "$MODE")' font ',12'"
			echo "unset y2tics; set ytics auto; set y2range [*:*]"
			echo "set ylabel 'Mb/s'; set yrange [0:$ymax]; unset xlabel"
			printf "plot "
			if [ "$EXPERIMENT" = hol ]; then
				printf "'%s' u 1:2 w l lw 2 lc rgb '#c0392b' t 'to hostB, prio 3 (s1)', " "$d/series.tsv"
				printf "'%s' u 1:3 w l lw 2 lc rgb '#2471a3' t 'to hostC, prio 0 (s2)'\n" "$d/series.tsv"
			else
				for i in $(seq "$nflows"); do
					printf "'%s' u 1:%d w l lw 0.6 lc rgb '#a0a0a0' notitle, " "$d/flows-B.tsv" $((i + 1))
				done
				printf "'%s' u 1:2 w l lw 2 lc rgb '#c0392b' t 'to hostB (s1 egress)'" "$d/series.tsv"
				[ "$nflows" -gt 0 ] && printf ", NaN w l lw 0.6 lc rgb '#a0a0a0' t 'iperf3 streams'"
				printf "\n"
			fi
			# 2: queue
			echo "unset title"
			echo "set ylabel 'KiB'; set yrange [0:$((limit_kib * 140 / 100))]"
			echo "set y2label 'drops'; set y2tics; set y2range [0:$dmax]"
			printf "plot %s t 'XOFF', %s t 'XON', %s t 's1 limit', " \
				"$(kib "$XOFF") w l dt 2 lc rgb '#e67e22'" \
				"$(kib "$XON") w l dt 2 lc rgb '#27ae60'" \
				"$limit_kib w l dt 3 lc rgb '#000000'"
			printf "'%s' u 1:4 w l lw 2 lc rgb '#8e44ad' t 'charged to s0', " "$d/series.tsv"
			printf "'%s' u 1:5 w l lw 1 lc rgb '#16a085' t 's1 backlog', " "$d/series.tsv"
			printf "'%s' u 1:(\$6 > 0 ? \$6 : NaN) axes x1y2 w impulses lw 2 lc rgb '#e74c3c' t 'drops at s1'\n" "$d/series.tsv"
			echo "unset y2tics; unset y2label"
			# 3: frames
			echo "set ylabel 'frames/sample'; set yrange [0:$fmax]"
			printf "plot '%s' u 1:7 w impulses lw 2 lc rgb '#d35400' t 'XOFF sent by s0', " "$d/series.tsv"
			printf "'%s' u (\$1 + 0.02):8 w impulses lw 2 lc rgb '#27ae60' t 'XON sent by s0'\n" "$d/series.tsv"
			# 4: hostA paused
			echo "set ylabel '% paused'; set yrange [0:135]; set xlabel 's'"
			# Priority 0 as a shaded area under priority 3's line: with
			# PAUSE both show, with PFC only the line.
			printf "plot '%s' u 1:2 w fillsteps fs solid 0.35 noborder lc rgb '#2471a3' t 'hostA prio 0 paused', " "$d/hostA.tsv"
			printf "'%s' u 1:3 w steps lw 2 lc rgb '#c0392b' t 'hostA prio 3 paused'\n" "$d/hostA.tsv"
		done
		echo "unset multiplot"
	} >"$gp"
	# One gnuplot for both (it is slow to start in an emulated VM).
	if ! gnuplot -e "term='pngcairo'; out='$OUT/$exp.png'; load '$gp';
			term='svg'; out='$OUT/$exp.svg'; load '$gp'" 2>"$OUT/$exp.gnuplot.log"; then
		echo "plot: gnuplot failed for $exp:" >&2
		cat "$OUT/$exp.gnuplot.log" >&2
		return 1
	fi
	echo "plot: $OUT/$exp.png, $OUT/$exp.svg"
}

rc=0
for e in mismatch hol ends dcbx; do
	plot_experiment $e || rc=1
done
exit $rc
