#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's fabric experiments (make demo -e deadlock, -e storm) in a
# short mode: the deadlock ring and the storm fabric, each without and with
# the PFC watchdog, then the report. The tables must say what the kernel
# counted: each figure is compared with an independent read of the run's
# namespaces, which the lab leaves up (--keep), and with flowctl waitfor
# run again; each pair of runs must show the contrast it is there for
# (the baseline without the watchdog deadlocks or spreads the storm); the
# plots must be written.

# shellcheck disable=SC2034 # read by run_tests in lib.sh
ALL_TESTS="lab_runs deadlock_table_matches storm_table_matches deadlock_contrast
	   storm_contrast"
# shellcheck disable=SC1091 # lib.sh, next to this script
source "$(dirname "$0")/lib.sh"
require_cmd jq tc gnuplot iperf3 ss
# Whether the ring deadlocks and how far the storm spreads depend on when
# queues fill under TCG (deadlock.sh, storm_fabric.sh): the contrasts are
# timing cases, and their second run runs the experiment's two runs again.
# The tables' agreement with the counters never is.
RETRY_TIMING=1
TIMING_CASES="deadlock_contrast storm_contrast"

LAB=$TOP/scripts/demo
RUNS=deadlock:off,deadlock:watchdog,storm:off,storm:watchdog
NRUNS=4
LAB_RC=1

TMP=$(mktemp -d)
OUT=${FLOWCTL_RESULTS:+$FLOWCTL_RESULTS/demo_fabric}
OUT=${OUT:-$TMP/lab}
rm -rf "$OUT"

cleanup()
{
	local ns

	for ns in $(ip netns list | awk '$1 ~ /^r0[0-9]-(dl|st)-/ { print $1 }'); do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$TMP"
}

# The tables, parsed once: CELL[EXPERIMENT|HEAD|LABEL], as demo.sh does
# (scripts/demo/tables-parse.sh).
# shellcheck source=scripts/demo/tables-parse.sh
source "$TOP/scripts/demo/tables-parse.sh"
parse_tables() { lab_parse_tables "${1:-$OUT/tables.txt}"; }

# again EXPERIMENT: on a timing case's second run, the experiment's two
# runs again (into their own directory), and their table.
again()
{
	local dir=$TMP/again-$1

	[ "$AFTER_RETRY" = 1 ] || return 0
	rm -rf "$dir"
	"$LAB/experiments.sh" "$dir" --runs "$1:off,$1:watchdog" --duration 4 \
		>"$TMP/again.log" 2>&1 &&
		"$LAB/report.sh" "$dir" >>"$TMP/again.log" 2>&1
	check_err $? "$1 again: $(tail -3 "$TMP/again.log" | tr '\n' ' ')"
	parse_tables "$dir/tables.txt"
}

# cell EXPERIMENT MODE LABEL
cell()
{
	local h=off

	[ "$2" = watchdog ] && h=watchdog
	printf '%s' "${CELL["$1|$h|$3"]:-}"
}

# run_of EXPERIMENT MODE: the run's directory name (NN-EXPERIMENT-MODE).
run_of()
{
	find "$OUT/runs" -maxdepth 1 -name "*-$1-$2" -printf '%f\n' | head -n 1
}

# prefix_of EXPERIMENT MODE: the namespaces' prefix the lab kept.
prefix_of()
{
	sed -n 's/^NETNS_PREFIX=//p' "$OUT/runs/$(run_of "$1" "$2")/meta.env"
}

lab_runs()
{
	local f

	"$LAB/experiments.sh" "$OUT" --runs "$RUNS" --duration 4 --keep \
		>"$TMP/lab.log" 2>&1
	LAB_RC=$?
	check_err "$LAB_RC" "experiments.sh exited $LAB_RC: $(tail -3 "$TMP/lab.log" | tr '\n' ' ')"
	if [ "$LAB_RC" -eq 0 ]; then
		"$LAB/report.sh" "$OUT" >"$TMP/report.log" 2>&1
		check_err $? "report.sh failed: $(tail -3 "$TMP/report.log" | tr '\n' ' ')"
		parse_tables
	fi
	[ "$(find "$OUT/runs" -name meta.env | wc -l)" -eq $NRUNS ]
	check_err $? "expected $NRUNS runs in $OUT/runs"
	grep -q "^lab: \[$NRUNS/$NRUNS\]" "$TMP/lab.log"
	check_err $? "no progress line for the last run"
	for f in deadlock.png deadlock.svg storm.png storm.svg; do
		[ -s "$OUT/$f" ]
		check_err $? "no plot $f"
	done
	log_info "$(grep -E '^lab: [0-9]+ runs in' "$TMP/lab.log")"
	log_test "the lab runs the deadlock and storm experiments and writes tables and plots"
}

# The deadlock table against the kept ring, read live: per link the bytes
# queued, paused, drops and the watchdog's counters; per host what its
# router delivered; flowctl waitfor's verdict.
deadlock_table_matches()
{
	local mode p i h live rc want checked=0

	if [ "$LAB_RC" -ne 0 ]; then
		log_skip "the deadlock table reports the module's counters" "the lab did not run"
		return
	fi
	for mode in off watchdog; do
		p=$(prefix_of deadlock $mode)
		for i in 1 2 3; do
			h=$((i % 3 + 1))
			live=$(flowctl -n "${p}dl-S$i" -j -s show | jq -r '
				(.[] | select(.ifname == "cw") | .prio[3]) as $c |
				(.[] | select(.ifname == "hp") | .prio[3]) as $h |
				[$c.backlog_bytes, (if $c.paused then "yes" else "no" end), $c.drops,
				 $c.wd_storms, $c.wd_tx_drop, $h.tx_packets] | join(" ")')
			want="$(cell deadlock $mode "S$i cw: bytes queued at the end")"
			want+=" $(cell deadlock $mode "S$i cw: paused at the end")"
			want+=" $(cell deadlock $mode "S$i cw: drops (queue full)")"
			want+=" $(cell deadlock $mode "S$i cw: watchdog storms detected")"
			want+=" $(cell deadlock $mode "S$i cw: watchdog packets dropped")"
			want+=" $(cell deadlock $mode "packets delivered to H$i")"
			# With the watchdog the ring keeps draining and restoring
			# after the run's last read: only the counters that no
			# longer move are compared.
			if [ $mode = off ]; then
				check_eq "$want" "$live" "$mode: S$i cw (queued paused drops storms wd-drops) and hp's delivered, table vs live"
			else
				check_eq "$(cut -d' ' -f3-6 <<<"$want")" "$(cut -d' ' -f3-6 <<<"$live")" \
					"$mode: S$i cw (drops storms wd-drops) and hp's delivered, table vs live"
			fi
			checked=$((checked + 1))
			[[ "$(cell deadlock $mode "S$i cw (to S$h): packets sent while the hosts sent")" =~ ^[0-9]+$ ]]
			check_err $? "$mode: no packets-sent figure for S$i cw"
			[[ "$(cell deadlock $mode "S$i cw: packets sent from 1 s after the hosts stopped")" =~ ^[0-9]+$ ]]
			check_err $? "$mode: no packets-sent-after figure for S$i cw"
		done
		# shellcheck disable=SC2046 # one word each
		flowctl waitfor $(printf 'netns %sdl-%s ' "$p" S1 "$p" S2 "$p" S3 "$p" H1 "$p" H2 "$p" H3) \
			>/dev/null 2>&1
		rc=$?
		want=none
		[ $rc = 3 ] && want=cycle
		[ $mode = off ] && check_eq "$(cell deadlock $mode "flowctl waitfor at the end")" "$want" \
			"$mode: waitfor's verdict, table vs run again"
	done
	check_eq "$checked" 6 "links compared"
	log_test "the deadlock table reports the module's counters and waitfor's verdict"
}

storm_table_matches()
{
	local mode p live want

	if [ "$LAB_RC" -ne 0 ]; then
		log_skip "the storm table reports the module's counters" "the lab did not run"
		return
	fi
	for mode in off watchdog; do
		p=$(prefix_of storm $mode)
		live=$(flowctl -n "${p}st-L2" -j -s show dev l2r |
			jq -r '.[0].prio[3] | [.rx_pfc, .wd_storms, (.wd_tx_drop + .wd_rx_drop)] | join(" ")')
		want="$(cell storm $mode "PFC p3 frames L2 received from R")"
		want+=" $(cell storm $mode "watchdog on l2r: storms detected")"
		want+=" $(cell storm $mode "watchdog on l2r: packets dropped")"
		check_eq "$want" "$live" "$mode: l2r's PFC frames received, storms, watchdog drops: table vs live"
		[ "$(echo "$live" | cut -d' ' -f1)" -gt 10 ]
		check_err $? "$mode: L2 received $(echo "$live" | cut -d' ' -f1) PFC frames: R did not storm"
	done
	log_test "the storm table reports the module's counters"
}

# Without the watchdog the ring is deadlocked when the run ends; with it,
# not: the watchdog broke it, and nothing was lost to a full queue.
deadlock_contrast()
{
	local i v h

	if [ "$LAB_RC" -ne 0 ]; then
		log_skip "deadlock: the baseline deadlocks, the watchdog breaks it" "the lab did not run"
		return
	fi
	again deadlock
	check_eq "$(cell deadlock off "flowctl waitfor at the end")" cycle "no watchdog: waitfor"
	check_eq "$(cell deadlock watchdog "flowctl waitfor at the end")" none "watchdog: waitfor"
	for i in 1 2 3; do
		check_eq "$(cell deadlock off "S$i cw: packets sent from 1 s after the hosts stopped")" 0 \
			"no watchdog: S$i cw sent after the hosts stopped"
		v=$(cell deadlock off "S$i cw: bytes queued at the end")
		[[ "$v" =~ ^[0-9]+$ ]] && [ "$v" -gt 0 ]
		check_err $? "no watchdog: S$i cw's queue holds '$v' bytes: no deadlock"
		check_eq "$(cell deadlock watchdog "S$i cw: bytes queued at the end")" 0 \
			"watchdog: S$i cw's queue at the end"
		check_eq "$(cell deadlock off "S$i cw: drops (queue full)")" 0 "no watchdog: S$i cw drops"
		check_eq "$(cell deadlock watchdog "S$i cw: drops (queue full)")" 0 "watchdog: S$i cw drops"
	done
	v=0
	for i in 1 2 3; do
		h=$(cell deadlock watchdog "S$i cw: watchdog storms detected")
		[[ "$h" =~ ^[0-9]+$ ]] && v=$((v + h))
	done
	[ "$v" -ge 1 ]
	check_err $? "watchdog: no storm detected on any link"
	log_test "deadlock: without the watchdog the ring stays deadlocked; with it, it drains"
}

# Without the watchdog the storm spreads back to the sender and the
# healthy host starves; with it, it stays at L2 and H3 gets its traffic.
storm_contrast()
{
	local v h

	if [ "$LAB_RC" -ne 0 ]; then
		log_skip "storm: the baseline spreads, the watchdog contains it" "the lab did not run"
		return
	fi
	again storm
	for h in "  S sl2, one hop back (%)" "  L1 l1s, two hops back (%)" "  H1 h0, the sender (%)"; do
		v=$(cell storm off "$h")
		[[ "$v" =~ ^[0-9]+$ ]] && [ "$v" -ge 50 ]
		check_err $? "no watchdog: ${h#  } paused only '$v'%: the storm did not spread"
		v=$(cell storm watchdog "$h")
		[[ "$v" =~ ^[0-9]+$ ]] && [ "$v" -lt 50 ]
		check_err $? "watchdog: ${h#  } paused '$v'%: the storm spread"
	done
	v=$(cell storm off "L2 to H3 (healthy) in the storm's 2nd half (Mb/s)")
	[[ "$v" =~ ^[0-9.]+$ ]] && awk -v v="$v" 'BEGIN { exit !(v < 1) }'
	check_err $? "no watchdog: H3 got '$v' Mb/s in the storm (expected starved, under 1)"
	v=$(cell storm watchdog "L2 to H3 (healthy) in the storm's 2nd half (Mb/s)")
	[[ "$v" =~ ^[0-9.]+$ ]] && awk -v v="$v" 'BEGIN { exit !(v >= 3) }'
	check_err $? "watchdog: H3 got '$v' Mb/s in the storm (of 4 offered: expected 3 or more)"
	v=$(cell storm off "L2 to H3 (healthy) before the storm (Mb/s)")
	[[ "$v" =~ ^[0-9.]+$ ]] && awk -v v="$v" 'BEGIN { exit !(v >= 3) }'
	check_err $? "no watchdog: H3 got '$v' Mb/s before the storm (of 4 offered: expected 3 or more)"
	check_eq "$(cell storm watchdog "watchdog on l2r: state as the storm ended")" stormed "watchdog: l2r's state"
	log_test "storm: without the watchdog it spreads to the sender; with it H3 keeps its rate"
}

run_tests
