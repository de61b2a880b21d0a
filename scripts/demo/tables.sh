#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The lab's tables, one per experiment, from each run's summary.env
# (scripts/demo/report.sh writes them): a column per run, a row per figure.
# Directions are spelled out: "s0 sent" is the switch pausing hostA, "a0
# received" is hostA being paused.
#   tables.sh OUT
set -u
OUT=${1:?usage: tables.sh RESULTS_DIR}

# Every run's summary.env, read once (no process per cell: they are slow
# to start in an emulated VM).
declare -A V
for d in "$OUT"/runs/*/; do
	d=${d%/}
	[ -e "$d/summary.env" ] || continue
	while IFS='=' read -r k v; do
		V["$d|$k"]=$v
	done <"$d/summary.env"
done

declare -A HEAD=([off]="off" [pause]="PAUSE" [pfc]="PFC p3" [ends]="PAUSE, rx off"
	[manual]="by hand" [dcbx]="DCBX" [watchdog]="watchdog")

# row LABEL KEY DIR...
row()
{
	local label=$1 key=$2 d

	shift 2
	printf '%-58s' "$label"
	for d in "$@"; do
		printf '  %-14s' "${V["$d|$key"]:--}"
	done
	printf '\n'
}

table()
{
	local exp=$1 d n i
	local -a dirs=()

	for d in "$OUT"/runs/*-"$exp"-*/; do
		[ -e "$d/summary.env" ] && dirs+=("${d%/}")
	done
	[ ${#dirs[@]} -gt 0 ] || return 0
	# shellcheck source=/dev/null
	. "${dirs[0]}/meta.env"
	case $exp in
	deadlock | storm)
		fabric_table "$exp" "${dirs[@]}"
		return
		;;
	mismatch)
		echo "Experiment 1: rate mismatch"
		echo "hostA (a0, $SENDER_MBIT Mb/s) -> switch s0 | br0 | s1 ($RATE_MBIT Mb/s) -> hostB;" \
			"iperf3 -P $STREAMS, TCP, DSCP CS3 (priority 3), $DURATION s"
		;;
	hol)
		echo "Experiment 2: head-of-line blocking"
		echo "hostA -> switch: to hostB through s1 ($RATE_MBIT Mb/s, priority 3, congested)," \
			"to hostC through s2 (priority 0, uncongested); $DURATION s"
		;;
	ends)
		echo "Experiment 3: mismatched ends"
		echo "as experiment 1, but hostA ignores PAUSE (a0 rx off) while the switch sends it;" \
			"$DURATION s"
		;;
	dcbx)
		echo "Experiment 4: mismatched ends, then DCBX"
		echo "as experiment 1; the switch sends PFC for priority 3, hostA was set to honor" \
			"PAUSE only; with DCBX hostA (willing) adopts the switch's PFC; $DURATION s"
		;;
	esac
	echo "XOFF $XOFF, XON $XON at s0; kernel $KERNEL"
	printf '%-58s' ""
	for d in "${dirs[@]}"; do
		printf '  %-14s' "${HEAD[${V["$d|MODE"]}]}"
	done
	printf '\n'
	n=${V["${dirs[0]}|B_FLOWS"]:-0}
	if [ "$exp" = hol ]; then
		row "goodput hostA->hostB, priority 3 (Mb/s)" B_TOTAL "${dirs[@]}"
		for ((i = 1; i <= n; i++)); do
			row "  flow $i (Mb/s)" "B_FLOW_$i" "${dirs[@]}"
		done
		row "goodput hostA->hostC, priority 0, victim (Mb/s)" C_TOTAL "${dirs[@]}"
		row "data received by hostC (MB)" C_MBYTES "${dirs[@]}"
	else
		row "goodput hostA->hostB, total (Mb/s)" B_TOTAL "${dirs[@]}"
		for ((i = 1; i <= n; i++)); do
			row "  flow $i (Mb/s)" "B_FLOW_$i" "${dirs[@]}"
		done
	fi
	row "data received by hostB (MB)" B_MBYTES "${dirs[@]}"
	row "hostA's mode when the traffic started (a0)" A0_AT_START "${dirs[@]}"
	[ "$exp" = dcbx ] && row "seconds until hostA adopted (DCBX agents)" DCBX_SECONDS "${dirs[@]}"
	row "TCP retransmits to hostB" B_RETRANS "${dirs[@]}"
	row "drops at the switch (s1 egress, tc)" S1_DROPS "${dirs[@]}"
	row "drops at hostA's own queue (a0, tc)" A0_DROPS "${dirs[@]}"
	row "switch sent PAUSE XOFF (s0 tx: switch paused hostA)" S0_TX_PAUSE "${dirs[@]}"
	row "hostA received PAUSE XOFF (a0 rx: hostA was paused)" A0_RX_PAUSE "${dirs[@]}"
	row "switch sent PAUSE XON (s0 tx: switch resumed hostA)" S0_TX_XON "${dirs[@]}"
	row "hostA received PAUSE XON (a0 rx: hostA was resumed)" A0_RX_XON "${dirs[@]}"
	row "switch sent PFC XOFF, priority 3 (s0 tx)" S0_TX_PFC3 "${dirs[@]}"
	row "hostA received PFC XOFF, priority 3 (a0 rx)" A0_RX_PFC3 "${dirs[@]}"
	row "switch sent PFC XON, priority 3 (s0 tx)" S0_TX_PFC3_XON "${dirs[@]}"
	row "hostA received PFC XON, priority 3 (a0 rx)" A0_RX_PFC3_XON "${dirs[@]}"
	row "hostA sent PAUSE/PFC/XON (a0 tx: hostA paused switch)" A0_TX "${dirs[@]}"
	row "switch received PAUSE/PFC/XON (s0 rx)" S0_RX "${dirs[@]}"
	row "hostA ignored received frames (a0 rx_ignored)" A0_RX_IGNORED "${dirs[@]}"
	row "partner ignored (s0: hostA kept sending while paused)" S0_IGNORED "${dirs[@]}"
	row "hostA priority 3 paused (a0, ms)" A0_PAUSED3_MS "${dirs[@]}"
	row "hostA priority 0 paused (a0, ms)" A0_PAUSED0_MS "${dirs[@]}"
	row "peak charge at the switch (s0, KiB, sampled)" S0_PEAK_KB "${dirs[@]}"
	row "watch verdict, s0 sent (PAUSE; PFC p3 in PFC)" V_S0 "${dirs[@]}"
	row "watch verdict, a0 received (PAUSE; PFC p3)" V_A0 "${dirs[@]}"
	echo
}

# fabric_table EXPERIMENT DIR...: the deadlock and storm runs
# (scripts/demo/fabric-report.sh wrote their summary.env).
fabric_table()
{
	local exp=$1 i h

	shift
	if [ "$exp" = deadlock ]; then
		echo "Experiment 5: PFC deadlock"
		echo "three routers in a ring, each host sends 8.5 Mb/s on priority 3 to the host two hops" \
			"clockwise for $DURATION s, then stops; 10 Mb/s inter-switch links, XOFF 64k; watched" \
			"$WATCH s more"
	else
		echo "Experiment 6: PFC storm"
		echo "H1 -> L1 -> S -> L2 -> R and H3 (10 Mb/s wires, PFC on priority 3 everywhere);" \
			"H1 sends 4 Mb/s to R and 4 Mb/s to H3; R's port sends PFC p3 every 100 ms from" \
			"$(((T_STORM_NS - T_START_NS) / 1000000000)) s on"
	fi
	echo "kernel $KERNEL"
	printf '%-58s' ""
	for d in "$@"; do
		printf '  %-14s' "${HEAD[${V["$d|MODE"]}]}"
	done
	printf '\n'
	if [ "$exp" = deadlock ]; then
		for i in 1 2 3; do
			h=$((i % 3 + 1))
			row "S$i cw (to S$h): packets sent while the hosts sent" "L${i}_SENT_TRAFFIC" "$@"
			row "S$i cw: packets sent from 1 s after the hosts stopped" "L${i}_SENT_AFTER" "$@"
			row "S$i cw: bytes queued at the end" "L${i}_BACKLOG" "$@"
			row "S$i cw: paused at the end" "L${i}_PAUSED" "$@"
			row "S$i cw: drops (queue full)" "L${i}_DROPS" "$@"
			row "S$i cw: watchdog storms detected" "L${i}_STORMS" "$@"
			row "S$i cw: watchdog packets dropped" "L${i}_WD_DROPS" "$@"
		done
		for i in 1 2 3; do
			row "packets delivered to H$i" "H${i}_GOT" "$@"
		done
		row "flowctl waitfor at the end" WAITFOR "$@"
	else
		row "priority 3 paused in the storm's 2nd half: L2 l2r (%)" PAUSED_L2_PCT "$@"
		row "  S sl2, one hop back (%)" PAUSED_S_PCT "$@"
		row "  L1 l1s, two hops back (%)" PAUSED_L1_PCT "$@"
		row "  H1 h0, the sender (%)" PAUSED_H1_PCT "$@"
		row "L2 to H3 (healthy) before the storm (Mb/s)" H3_MBPS_BEFORE "$@"
		row "L2 to H3 (healthy) in the storm's 2nd half (Mb/s)" H3_MBPS_STORM "$@"
		row "L2 to R (stormed) before the storm (Mb/s)" R_MBPS_BEFORE "$@"
		row "L2 to R (stormed) in the storm's 2nd half (Mb/s)" R_MBPS_STORM "$@"
		row "PFC p3 frames L2 received from R" R_PFC_RX "$@"
		row "watchdog on l2r: state as the storm ended" WD_STATE "$@"
		row "watchdog on l2r: storms detected" WD_STORMS "$@"
		row "watchdog on l2r: packets dropped" WD_DROPS "$@"
	fi
	echo
}

for e in mismatch hol ends dcbx deadlock storm; do
	table $e
done | sed 's/ *$//'
