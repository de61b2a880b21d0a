#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzzing: random MAC Control frames at a flowctl port and random
# requests to the netlink family, with the configuration changing, the
# qdisc replaced and a monitor listening. On the debug kernel (make
# check-debug) any KASAN, lockdep, UBSAN or kmemleak report fails the run;
# on every kernel the port's counters must match, frame for frame, what
# tools/fcfuzz predicts from the frames it built, and a refused request
# must change nothing.
#
#   +------------- ns A --------------+      +----------- ns B -----------+
#   | a0 flowctl, flowctl monitor,    |======| b0 fcfuzz frames/blast     |
#   |    flowctl set loop             | veth |    (AF_PACKET, sendmmsg)   |
#   | a1 flowctl                      |======| b1                         |
#   | fcfuzz nl (root and nobody)     |      |                            |
#   +---------------------------------+      +----------------------------+
#
# Sizes (the defaults are make check's bounded run; scripts/check-debug
# sets the long one):
#   FLOWCTL_FUZZ_FRAMES=20000   frames over the exact rounds
#   FLOWCTL_FUZZ_ROUNDS=4       rounds, each on a freshly attached qdisc
#   FLOWCTL_FUZZ_NLMSGS=3000    netlink requests
#   FLOWCTL_FUZZ_REPLACES=40    qdisc changes under a flood of frames
#   FLOWCTL_FUZZ_SEED=N         replay a run (printed at the start)
#
# Each round attaches a new qdisc (counters 0), sets a random
# configuration and sends half its frames under it (rx_ignored predicted
# exactly), then the other half while a loop changes mode, rx, pfc-prios
# and speed (rx_ignored only bounded: which configuration a frame met is
# a race). Frames go in bursts that the port must have counted before the
# next (fcfuzz), so none can overflow the receive backlog; b0's tx_dropped,
# where veth counts a frame its peer refused, must stay put.

ALL_TESTS="frames_exact frames_replace netlink_random"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc ip

FCFUZZ=$SELFTESTS_DIR/tools/fcfuzz
FRAMES=${FLOWCTL_FUZZ_FRAMES:-20000}
ROUNDS=${FLOWCTL_FUZZ_ROUNDS:-4}
NLMSGS=${FLOWCTL_FUZZ_NLMSGS:-3000}
REPLACES=${FLOWCTL_FUZZ_REPLACES:-40}
SEED=${FLOWCTL_FUZZ_SEED:-$(($(date +%s) % 1000000))}
TMP=$(mktemp -d)

[ -x "$FCFUZZ" ] || skip_script "tools/fcfuzz not built (make -C selftests on the host)"

setup_prepare()
{
	setup_ns A B
	no_ipv6 "$A" "$B"
	veth_pair "$A" a0 "$B" b0 || return 1
	veth_pair "$A" a1 "$B" b1 || return 1
	# 1518-byte frames: b0 may send 4 bytes above a0's MTU, which a0
	# takes (veth accepts MTU + header + one VLAN tag).
	ip -n "$B" link set b0 mtu 1504 || return 1
	ip netns exec "$A" tc qdisc add dev a0 root flowctl || return 1
	ip netns exec "$A" tc qdisc add dev a1 root flowctl || return 1
}

# bg CMD...: run CMD in the background, killed by stop_bg or at exit.
bg()
{
	"$@" &
	BG+=($!)
}


# rand_cfg: random "mode ... rx ... pfc-prios ... speed ..." from $RANDOM.
rand_cfg()
{
	local modes=(pause pfc off) speeds=(auto 10 100 1000 10000 40000)
	local prios=(all none 3 "0,7" 1-6 "0,2,4,6" 5)

	echo "mode ${modes[RANDOM % 3]} rx $( ((RANDOM % 4)) && echo on || echo off)" \
	     "pfc-prios ${prios[RANDOM % 7]} speed ${speeds[RANDOM % 6]}"
}

# set_loop DEV [any]: change DEV's configuration until killed; stops at the
# first failed set unless "any" (DEV may have no flowctl at the moment).
set_loop()
{
	while :; do
		# shellcheck disable=SC2046 # words on purpose
		fc "$A" set dev "$1" $(rand_cfg) >/dev/null 2>&1 ||
			[ "$2" = any ] || return 1
		sleep 0.0$((RANDOM % 5))
	done
}

# show_loop DEV: read DEV's state until killed (a reader beside the writer).
show_loop()
{
	while :; do
		fc "$A" -j -s show dev "$1" >/dev/null 2>&1
		sleep 0.05
	done
}

# wait_monitor FILE: until the monitor writing FILE has joined the group.
wait_monitor()
{
	local i

	for i in $(seq 200); do
		grep -q Monitoring "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# fresh_qdisc R: a new flowctl on a0, by delete and add or by replacing
# another qdisc, so that its counters start at 0.
fresh_qdisc()
{
	if [ $(($1 % 2)) -eq 0 ]; then
		ip netns exec "$A" tc qdisc del dev a0 root &&
		ip netns exec "$A" tc qdisc add dev a0 root flowctl
	else
		ip netns exec "$A" tc qdisc replace dev a0 root pfifo_fast &&
		ip netns exec "$A" tc qdisc replace dev a0 root flowctl
	fi
}

# fuzz_frames SEED COUNT fixed|any: fcfuzz from b0 at a0; its report goes
# to the log, indented; returns its status.
fuzz_frames()
{
	local out=$TMP/frames.out rc

	ip netns exec "$B" "$FCFUZZ" frames b0 "/run/netns/$A" a0 "$@" >"$out" 2>&1
	rc=$?
	sed 's/^/#   /' "$out"
	FUZZ_LAST=$(tail -n 1 "$out")
	return $rc
}

frames_exact()
{
	local r per half s0 t0 rc sent=0 mon nmon=0 v

	per=$((FRAMES / ROUNDS))
	half=$((per / 2))
	t0=$SECONDS
	log_info "frames: seed $SEED, $ROUNDS rounds of $per frames (replay: FLOWCTL_FUZZ_SEED=$SEED)"
	for r in $(seq 1 "$ROUNDS"); do
		s0=$((SEED * 1000 + r))
		RANDOM=$s0
		fresh_qdisc "$r"
		check_err $? "round $r: attaching a fresh flowctl failed"
		[ "$RET" -eq 0 ] || break
		for v in rx_pause rx_xon rx_pfc rx_ignored rx_malformed rx_unsupported; do
			check_eq "$(fc_get "$A" a0 ".stats.$v")" 0 \
				"round $r: $v of a freshly attached qdisc"
		done
		mon=$TMP/monitor.$r
		bg ip netns exec "$A" flowctl monitor dev a0 >"$mon" 2>&1
		wait_monitor "$mon"
		check_err $? "round $r: flowctl monitor did not start: $(tail -n 2 "$mon")"
		# shellcheck disable=SC2046 # words on purpose
		fc "$A" set dev a0 $(rand_cfg) >/dev/null
		check_err $? "round $r: flowctl set failed"
		log_info "round $r: $(fc "$A" show dev a0 | head -n 1)"
		fuzz_frames "$s0" "$half" fixed
		check_err $? "round $r, fixed configuration (seed $s0): $FUZZ_LAST"
		bg set_loop a0
		bg show_loop a0
		fuzz_frames $((s0 + 500)) $((per - half)) any
		check_err $? "round $r, changing configuration (seed $((s0 + 500))): $FUZZ_LAST"
		sleep 0.2
		kill -0 "${BG[0]}" 2>/dev/null
		check_err $? "round $r: flowctl monitor died: $(tail -n 2 "$mon")"
		kill -0 "${BG[1]}" 2>/dev/null
		check_err $? "round $r: the set loop stopped (flowctl set failed)"
		stop_bg
		nmon=$((nmon + $(grep -c . "$mon")))
		sent=$((sent + per))
		[ "$RET" -eq 0 ] || break
	done
	log_info "frames: $sent in $((SECONDS - t0)) s, $nmon lines from flowctl monitor"
	[ "$RET" -ne 0 ] || [ "$nmon" -gt 0 ]
	check_err $? "flowctl monitor printed nothing in $ROUNDS rounds"
	log_test "$sent random frames: every counter exactly as predicted (seed $SEED)"
}

# blast_loop SEED: fcfuzz blast from b0, 2000 frames at a time, until
# killed; each run's report is appended to $TMP/blast.
blast_loop()
{
	local s=$1

	while :; do
		ip netns exec "$B" "$FCFUZZ" blast b0 "$s" 2000 >>"$TMP/blast" 2>&1 ||
			return 1
		s=$((s + 1))
	done
}

# Frames while the qdisc is replaced, deleted and added back under them:
# no counts to compare (each new qdisc starts at 0), but no report of the
# kernel's checkers, and the port counts exactly again afterwards.
frames_replace()
{
	local i t0=$SECONDS n

	: >"$TMP/blast"
	bg ip netns exec "$A" flowctl monitor dev a0 >"$TMP/monitor.r" 2>&1
	bg blast_loop $((SEED * 1000 + 900))
	bg set_loop a0 any
	for i in $(seq 1 "$REPLACES"); do
		# From flowctl: fq_codel, flowctl again, none, flowctl.
		case $((i % 4)) in
		1) ip netns exec "$A" tc qdisc replace dev a0 root fq_codel ;;
		2) ip netns exec "$A" tc qdisc replace dev a0 root flowctl ;;
		3) ip netns exec "$A" tc qdisc del dev a0 root ;;
		0) ip netns exec "$A" tc qdisc add dev a0 root flowctl ;;
		esac
		check_err $? "qdisc change $i ($((i % 4))) failed"
		sleep 0.0$((RANDOM % 10))
	done
	kill -0 "${BG[1]}" 2>/dev/null
	check_err $? "fcfuzz blast failed: $(tail -n 3 "$TMP/blast")"
	stop_bg
	n=$(awk '/^ok .* frames sent/ { n += $2 } END { print n + 0 }' "$TMP/blast")
	log_info "$n frames (whole runs of 2000) over $REPLACES qdisc changes in $((SECONDS - t0)) s"
	[ "$n" -gt 0 ]
	check_err $? "no blast run finished during the qdisc changes"
	fresh_qdisc 1
	check_err $? "attaching flowctl after the replacements failed"
	fc "$A" set dev a0 mode pause rx on >/dev/null
	fuzz_frames $((SEED * 1000 + 998)) 1000 fixed
	check_err $? "after the replacements (seed $((SEED * 1000 + 998))): $FUZZ_LAST"
	log_test "frames while the qdisc is replaced $REPLACES times, then exact counts"
}

netlink_random()
{
	local out=$TMP/nl.out mon=$TMP/monitor.nl rc t0=$SECONDS sets n m

	bg ip netns exec "$A" flowctl monitor >"$mon" 2>&1
	wait_monitor "$mon"
	check_err $? "flowctl monitor did not start: $(tail -n 2 "$mon")"
	ip netns exec "$A" "$FCFUZZ" nl "$SEED" "$NLMSGS" a0 a1 >"$out" 2>&1
	rc=$?
	sed 's/^/#   /' "$out"
	check_err $rc "seed $SEED: $(tail -n 1 "$out")"
	# Every accepted dev-set is one config event, to a listener that
	# joined before the first request. Wait for the last to arrive.
	sets=$(sed -n 's/.* dev-set \([0-9]*\)\/[0-9]* .*/\1/p' "$out")
	n=-1
	for m in $(seq 20); do
		m=$(grep -cw config "$mon")
		[ "$m" = "$n" ] && break
		n=$m
		sleep 0.25
	done
	kill -0 "${BG[0]}" 2>/dev/null
	check_err $? "flowctl monitor died: $(tail -n 2 "$mon")"
	stop_bg
	if grep -q "events lost" "$mon"; then
		log_info "the monitor lost events (receive buffer overflow): config events not compared"
	elif [ -n "$sets" ]; then
		check_eq "$n" "$sets" "config events seen by flowctl monitor vs dev-sets accepted"
	fi
	log_info "monitor: $n config events, $sets dev-sets accepted"
	# The ports still work as ports.
	fc "$A" -j -s show dev a0 >/dev/null && fc "$A" -j -s show dev a1 >/dev/null
	check_err $? "flowctl show fails after the fuzzing"
	log_info "$NLMSGS requests in $((SECONDS - t0)) s"
	log_test "$NLMSGS random netlink requests, as root and as nobody (seed $SEED)"
}

cleanup()
{
	stop_bg
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed
run_tests
