#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The RoCE experiment's table and plot (make demo -e roce), from what the two
# halves of scripts/twovm --lab roce recorded in OUT/runs/roce: perftest's
# reports, rxe's hw counters before and after each phase, the switch's and
# the hosts' flowctl counters. Nothing is computed from what a phase should
# do.
#
#   roce-report.sh OUT     prints the table; writes OUT/roce.tsv and, with
#                          gnuplot, OUT/roce.png and .svg
set -u
OUT=${1:?usage: roce-report.sh RESULTS_DIR}
R=$OUT/runs/roce
[ -d "$R" ] || { echo "roce-report: no $R" >&2; exit 1; }

PHASES="lossy pause pfc incast-lossy incast-pfc"

# bw FILE: ib_write_bw's average in Mb/s, or "-".
bw() {
	awk '$1 == 65536 && NF >= 5 { v = $4 * 1000 } END { if (v == "") print "-"; else printf "%.2f\n", v }' \
		"$1" 2>/dev/null || echo -
}

# lat PHASE: "typical 99% 99.9%" in ms, or "- - -".
lat() {
	awk '$1 == 64 && NF >= 9 { t = $5; p = $8; q = $9 }
	     $1 == "exit" && $2 != 0 { t = "" }
	     END { if (t == "") print "- - -"; else printf "%.1f %.1f %.1f\n", t / 1000, p / 1000, q / 1000 }' \
		"$R/$1.lat.txt" 2>/dev/null || echo "- - -"
}

# errs PHASE: rxe's counters of loss that grew, both ends.
errs() {
	jq -rn --slurpfile a0 "$R/$1.before.a.counters.json" --slurpfile a1 "$R/$1.after.a.counters.json" \
		--slurpfile b0 "$R/$1.before.b.counters.json" --slurpfile b1 "$R/$1.after.b.counters.json" \
		'def d($x; $y): [("out_of_seq_request", "duplicate_request", "rcvd_seq_err",
		     "completer_retry_err", "retry_exceeded_err") | (($y[0][.] // 0) - ($x[0][.] // 0))] | add;
		 d($a0; $a1) + d($b0; $b1)' 2>/dev/null || echo -
}

{
	printf '# phase\tgoodput_mbps\tsecond_sender_mbps\ts1_drops\trxe_loss_counters\tpause_sent\tpfc3_xoff_sent\tlat_typical_ms\tlat_p99_ms\tlat_p999_ms\n'
	for p in $PHASES; do
		[ -e "$R/$p.b.json" ] || continue
		read -r lt l99 l999 <<<"$(lat "$p")"
		b2=-
		[ -e "$R/$p.client2.txt" ] && b2=$(bw "$R/$p.client2.txt")
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$(bw "$R/$p.client.txt")" "$b2" \
			"$(jq -r .drops "$R/$p.b.json")" "$(errs "$p")" \
			"$(jq -r '.tx_pause + (.s2_tx_pause // 0)' "$R/$p.b.json")" \
			"$(jq -r '.tx_pfc[3] + ((.s2_tx_pfc // [0,0,0,0])[3])' "$R/$p.b.json")" \
			"$lt" "$l99" "$l999"
	done
} >"$OUT/roce.tsv"

echo
echo "RoCE v2 (Soft-RoCE) through the flowctl switch, bottleneck 3 Mb/s, DSCP 26 = priority 3"
echo "(scripts/twovm --lab roce: host A in one VM, the switch and host B in another)"
column -t -s $'\t' "$OUT/roce.tsv" | sed 's/^# /  /'
echo "  goodput: ib_write_bw's average, Mb/s; rxe_loss_counters: out_of_seq_request,"
echo "  duplicate_request, rcvd_seq_err, completer_retry_err and retry_exceeded_err that"
echo "  grew at both ends; pause_sent: s0's PAUSE frames (XON too); pfc3_xoff_sent: PFC"
echo "  frames of s0 and s2 that paused priority 3 (their XONs not counted);"
echo "  lat: ib_send_lat (64 B, the same priority) while the bulk transfer runs, ms."

command -v gnuplot >/dev/null || exit 0
gp=$OUT/roce.gp
cat >"$gp" <<EOF
# gnuplot script written by scripts/demo/roce-report.sh; term and out are set by it
set terminal @term size 1200,420 font ',10' noenhanced
set output out
set multiplot layout 1,3 title 'RoCE v2 through a flowctl switch (Soft-RoCE, 3 Mb/s bottleneck)'
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set grid ytics lc rgb '#dddddd'
set xtics rotate by -30 font ',9'
set key top left font ',8' opaque
set title 'RDMA goodput (ib_write_bw)'
set yrange [0:*]
set ylabel 'Mb/s'
plot '$OUT/roce.tsv' u (strcol(2) eq "-" ? 0 : \$2):xtic(1) lc rgb '#2471a3' t 'sender 1', \
     '' u (strcol(3) eq "-" ? 0 : \$3) lc rgb '#7fb3d5' t 'sender 2 (incast)'
set title 'loss: s1 drops and rxe loss counters'
set yrange [0:*]
set ylabel 'count'
set style histogram clustered
plot '$OUT/roce.tsv' u 4:xtic(1) lc rgb '#c0392b' t 's1 drops', '' u 5 lc rgb '#e59866' t 'rxe loss counters'
set title 'latency under load (ib_send_lat, 64 B)'
set yrange [0:*]
set ylabel 'ms'
plot '$OUT/roce.tsv' u (strcol(8) eq "-" ? 0 : \$8):xtic(1) lc rgb '#27ae60' t 'typical', \
     '' u (strcol(9) eq "-" ? 0 : \$9) lc rgb '#1e8449' t '99%', '' u (strcol(10) eq "-" ? 0 : \$10) lc rgb '#145a32' t '99.9%'
unset multiplot
EOF
gnuplot -e "term='pngcairo'; out='$OUT/roce.png'; load '$gp';
	term='svg'; out='$OUT/roce.svg'; load '$gp'" 2>"$OUT/roce.gnuplot.log" ||
	{ echo "roce-report: gnuplot failed: $OUT/roce.gnuplot.log" >&2; exit 1; }
