#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The lab's runs, inside the VM as root (scripts/lab starts it there through
# scripts/vm-run). Each run builds the topology of scripts/demo/topology.sh
# afresh, so every counter starts at zero, drives it with iperf3 for a fixed
# time while flowctl samples the switch and hostA, then records what the
# module, tc and iperf3 counted into OUT/runs/NN-EXPERIMENT-MODE/:
#
#   meta.env              what ran: experiment, mode, rate, duration, times
#   samples-switch.jsonl  "flowctl sample" of s0, s1 (and s2) every interval
#   samples-hostA.jsonl   the same for a0
#   watch-s0.json, watch-a0.json   "flowctl -j watch" over the traffic
#   iperf-B.json, iperf-C.json     iperf3 servers' JSON (receiver side)
#   iperf-B-client.json, iperf-C-client.json
#   show-switch.json, show-hostA.json   "flowctl -j -s show" once drained
#   dcbx-s0.jsonl, dcbx-a0.jsonl   "flowctl -j dcbx" events (mode dcbx)
#   tc-switch.json, tc-hostA.json       "tc -j -s qdisc show"
#
#   experiments.sh OUT [--experiments LIST | --runs LIST] [--rate MBIT] [--duration S]
#                      [--streams N] [--interval S] [--xoff B] [--xon B] [--keep]
#   experiments.sh --shell OUT [--rate MBIT]
#
# --keep leaves each run's namespaces up (named rNN-hostA, ...) so that a
# test can read their counters afterwards. --shell builds one topology
# (hostA, switch, hostB, hostC; PAUSE on) and serves the command relay of
# "scripts/lab shell".
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/demo/topology.sh
source "$HERE/topology.sh"
# shellcheck source=scripts/demo/fabric-runs.sh
source "$HERE/fabric-runs.sh"

EXPERIMENTS=mismatch,hol,ends,dcbx,deadlock,storm
RUN_LIST=
RATE=20
DURATION=10
STREAMS=8
WINDOW=256K
INTERVAL=0.1
KEEP=0
SHELL_MODE=0
OUT=

die() { echo "lab: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case $1 in
	--experiments) EXPERIMENTS=$2; shift 2 ;;
	--runs) RUN_LIST=$2; shift 2 ;;
	--rate) RATE=$2; shift 2 ;;
	--duration) DURATION=$2; shift 2 ;;
	--streams) STREAMS=$2; shift 2 ;;
	--interval) INTERVAL=$2; shift 2 ;;
	--xoff) LAB_XOFF=$2; shift 2 ;;
	--xon) LAB_XON=$2; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--shell) SHELL_MODE=1; shift ;;
	-*) die "unknown option $1" ;;
	*) OUT=$1; shift ;;
	esac
done
[ -n "$OUT" ] || die "no output directory"
mkdir -p "$OUT/runs" || die "cannot write to $OUT"
for c in flowctl iperf3 jq tc ss; do
	command -v $c >/dev/null || die "$c not found (scripts/deps.sh installs it)"
done

# The runs, in order: EXPERIMENT MODE. --runs names them one by one
# (mismatch:pause,hol:pfc,ends), --experiments by the experiment.
RUNS=()
for r in ${RUN_LIST//,/ }; do
	case $r in
	mismatch:off | mismatch:pause | mismatch:pfc | hol:off | hol:pause | hol:pfc)
		RUNS+=("${r%:*} ${r#*:}") ;;
	ends | ends:*) RUNS+=("ends ends") ;;
	dcbx:manual | dcbx:dcbx) RUNS+=("dcbx ${r#*:}") ;;
	deadlock:off | deadlock:watchdog | storm:off | storm:watchdog)
		RUNS+=("${r%:*} ${r#*:}") ;;
	*) die "unknown run $r (EXPERIMENT:MODE, MODE off, pause or pfc; ends; dcbx:manual or dcbx:dcbx; deadlock:off, deadlock:watchdog, storm:off or storm:watchdog)" ;;
	esac
done
[ -n "$RUN_LIST" ] && EXPERIMENTS=
for e in ${EXPERIMENTS//,/ }; do
	case $e in
	mismatch) RUNS+=("mismatch off" "mismatch pause" "mismatch pfc") ;;
	hol) RUNS+=("hol off" "hol pause" "hol pfc") ;;
	ends) RUNS+=("ends ends") ;;
	dcbx) RUNS+=("dcbx manual" "dcbx dcbx") ;;
	deadlock) RUNS+=("deadlock off" "deadlock watchdog") ;;
	storm) RUNS+=("storm off" "storm watchdog") ;;
	*) die "unknown experiment $e (mismatch, hol, ends, dcbx, deadlock, storm)" ;;
	esac
done

# Seconds of setup, drain and recording per run besides the traffic,
# measured as the runs go (the first guess is what TCG took on 2 cores).
OVERHEAD=12
T0=$SECONDS

fmt_left()
{
	printf '%d:%02d' $(($1 / 60)) $(($1 % 60))
}

progress()
{
	local i=$1 what=$2 left

	left=$(((${#RUNS[@]} - i + 1) * (DURATION + OVERHEAD)))
	printf 'lab: [%d/%d] %s (about %s left)\n' "$i" "${#RUNS[@]}" "$what" "$(fmt_left $left)"
}

now_ns()
{
	local t=$EPOCHREALTIME

	echo "${t%.*}${t#*.}000"
}

# wait_listen NS PORT: until a TCP listener is there (5 s at most).
wait_listen()
{
	local i

	for i in $(seq 50); do
		[ -n "$(ip netns exec "$1" ss -Hltn "sport = :$2")" ] && return 0
		sleep 0.1
	done
	return 1
}

# wait_adopted: until a0 runs in mode pfc (the DCBX agent applied the
# switch's configuration); prints the seconds it took. 1 after 30 s.
wait_adopted()
{
	local i

	for i in $(seq 300); do
		if [ "$(flowctl -n "$NS_A" -j show dev a0 | jq -r '.[0].mode')" = pfc ]; then
			echo $(((i + 9) / 10))
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# drained: s1 (and s2) and a0 hold nothing any more (5 s at most).
wait_drained()
{
	local i q

	for i in $(seq 50); do
		q=$( { flowctl -n "$NS_S" -j show; flowctl -n "$NS_A" -j show; } |
			jq -s '[.[][].prio[].backlog_bytes] | add')
		[ "$q" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

label_of()
{
	case $1/$2 in
	mismatch/off) echo "rate mismatch, flow control off" ;;
	mismatch/pause) echo "rate mismatch, PAUSE" ;;
	mismatch/pfc) echo "rate mismatch, PFC on priority 3" ;;
	hol/off) echo "head-of-line blocking, flow control off" ;;
	hol/pause) echo "head-of-line blocking, PAUSE" ;;
	hol/pfc) echo "head-of-line blocking, PFC on priority 3" ;;
	ends/ends) echo "mismatched ends: the switch sends PAUSE, hostA has rx off" ;;
	dcbx/manual) echo "mismatched ends by hand: the switch sends PFC p3, hostA honors PAUSE only" ;;
	dcbx/dcbx) echo "the same ends with DCBX: hostA, willing, adopts the switch's PFC" ;;
	esac
}

# run_one N EXPERIMENT MODE
run_one()
{
	local n=$1 exp=$2 mode=$3 dir prefix with_c=0 streams=$STREAMS count
	local ps pa pw0 pwa pb pc cb cc t_start t_end start=$SECONDS
	local pds='' pda='' dcbx_s='' a0_at_start

	dir=$OUT/runs/$(printf '%02d' "$n")-$exp-$mode
	mkdir -p "$dir"
	prefix=
	[ "$KEEP" = 1 ] && prefix=$(printf 'r%02d-' "$n")
	[ "$exp" = hol ] && with_c=1
	lab_down "$prefix"
	lab_up "$prefix" "$RATE" "$with_c" || die "cannot build the topology"
	lab_mode "$prefix" "$mode" || die "cannot set mode $mode"
	if [ "$mode" = dcbx ]; then
		# The switch is unwilling (its configuration is the fabric's);
		# hostA is willing. Traffic starts once hostA adopted.
		flowctl -n "$NS_S" -j dcbx dev s0 interval 1 >"$dir/dcbx-s0.jsonl" 2>>"$dir/dcbx.err" &
		pds=$!
		flowctl -n "$NS_A" -j dcbx dev a0 willing on interval 1 >"$dir/dcbx-a0.jsonl" 2>>"$dir/dcbx.err" &
		pda=$!
		dcbx_s=$(wait_adopted) || die "hostA did not adopt the switch's PFC configuration in 30 s"
	fi
	a0_at_start=$(flowctl -n "$NS_A" -j show dev a0 |
		jq -r '.[0] | if .mode == "pfc" then "pfc:" + (.pfc_prios | map(tostring) | join(",")) else .mode end')

	flowctl -n "$NS_S" sample interval "$INTERVAL" >"$dir/samples-switch.jsonl" &
	ps=$!
	flowctl -n "$NS_A" sample interval "$INTERVAL" >"$dir/samples-hostA.jsonl" &
	pa=$!
	ip netns exec "$NS_B" iperf3 -s -1 -p 5201 -i 0.1 -J >"$dir/iperf-B.json" 2>/dev/null &
	pb=$!
	pc=
	if [ "$with_c" = 1 ]; then
		ip netns exec "$NS_C" iperf3 -s -1 -p 5202 -i 0.1 -J >"$dir/iperf-C.json" 2>/dev/null &
		pc=$!
		wait_listen "$NS_C" 5202 || die "iperf3 server on hostC did not start"
	fi
	wait_listen "$NS_B" 5201 || die "iperf3 server on hostB did not start"

	# watch covers the traffic but its last half second: its verdict looks
	# at the last intervals, which must not be the drain.
	count=$((DURATION * 2 - 1))
	[ "$count" -ge 1 ] || count=1
	flowctl -n "$NS_S" -j watch dev s0 interval 0.5 count "$count" >"$dir/watch-s0.json" &
	pw0=$!
	flowctl -n "$NS_A" -j watch dev a0 interval 0.5 count "$count" >"$dir/watch-a0.json" &
	pwa=$!
	t_start=$(now_ns)
	# TOS 0x60 is DSCP CS3: priority 3 at a0 and s0 (trust dscp). The
	# window bounds what each stream has in flight: enough to overflow s1
	# without flow control, and what waits at hostA while it is paused
	# rather than megabytes of socket buffer that would drain for many
	# seconds after the run.
	ip netns exec "$NS_A" timeout $((DURATION + 60)) iperf3 -c 198.18.0.2 -p 5201 \
		-P "$streams" -t "$DURATION" -S 0x60 -w "$WINDOW" -J >"$dir/iperf-B-client.json" 2>/dev/null &
	cb=$!
	cc=
	if [ "$with_c" = 1 ]; then
		# The victim: best effort (priority 0) to the uncongested hostC.
		ip netns exec "$NS_A" timeout $((DURATION + 60)) iperf3 -c 198.18.0.3 -p 5202 \
			-P 1 -t "$DURATION" -J >"$dir/iperf-C-client.json" 2>/dev/null &
		cc=$!
	fi
	wait $cb $cc
	t_end=$(now_ns)
	wait $pb $pc
	wait $pw0 $pwa
	wait_drained || echo "lab: queues still not empty 5 s after the traffic" >&2
	sleep "$INTERVAL"
	kill $ps $pa
	wait $ps $pa

	flowctl -n "$NS_S" -j -s show >"$dir/show-switch.json"
	flowctl -n "$NS_A" -j -s show >"$dir/show-hostA.json"
	tc -n "$NS_S" -j -s qdisc show >"$dir/tc-switch.json"
	tc -n "$NS_A" -j -s qdisc show >"$dir/tc-hostA.json"
	if [ -n "$pda" ]; then
		# hostA's agent first: it gives hostA its own configuration
		# back as it stops. Stopped together, the switch's shutdown
		# LLDPDU (TTL 0) could revert hostA before, and hide whether
		# stopping does.
		kill $pda
		wait $pda
		kill $pds
		wait $pds
	fi
	cat >"$dir/meta.env" <<EOF
EXPERIMENT=$exp
MODE=$mode
LABEL="$(label_of "$exp" "$mode")"
RATE_MBIT=$RATE
SENDER_MBIT=$((10 * RATE))
DURATION=$DURATION
STREAMS=$streams
INTERVAL=$INTERVAL
XOFF=$LAB_XOFF
XON=$LAB_XON
T_START_NS=$t_start
T_END_NS=$t_end
KERNEL=$(uname -r)
NETNS_PREFIX=$prefix
A0_AT_START=$a0_at_start
DCBX_SECONDS=$dcbx_s
EOF
	[ "$KEEP" = 1 ] || lab_down "$prefix"
	# What this run cost besides its traffic, for the next estimates.
	OVERHEAD=$(((OVERHEAD + SECONDS - start - DURATION + 1) / 2))
	[ "$OVERHEAD" -ge 1 ] || OVERHEAD=1
}

# The shell relay: "scripts/lab shell" writes each command line the user
# types to OUT/relay/cmd.N; this loop runs it with bash -c (each line in a
# fresh shell), its output on our stdout (which vm-run streams), and writes
# OUT/relay/done.N with the status. OUT/relay/intr asks to stop the running
# command; OUT/relay/exit ends the session.
relay()
{
	local r=$OUT/relay n=1 rc

	mkdir -p "$r"
	lab_down ""
	lab_up "" "$RATE" 1 || die "cannot build the topology"
	lab_mode "" pause || die "cannot set PAUSE"
	: >"$r/ready"
	while [ ! -e "$r/exit" ]; do
		if [ ! -e "$r/cmd.$n" ]; then
			sleep 0.2
			continue
		fi
		rm -f "$r/intr"
		setsid bash -c "$(cat "$r/cmd.$n")" </dev/null 2>&1 &
		local pid=$!
		while kill -0 $pid 2>/dev/null; do
			if [ -e "$r/intr" ]; then
				kill -INT -- -$pid 2>/dev/null
				sleep 0.5
				kill -TERM -- -$pid 2>/dev/null
				rm -f "$r/intr"
			fi
			sleep 0.1
		done
		wait $pid
		rc=$?
		echo "$rc" >"$r/done.$n"
		n=$((n + 1))
	done
	lab_down ""
}

if [ "$SHELL_MODE" = 1 ]; then
	relay
	exit 0
fi

i=0
for r in "${RUNS[@]}"; do
	i=$((i + 1))
	# shellcheck disable=SC2086 # "EXPERIMENT MODE"
	set -- $r
	case $1 in
	deadlock)
		what="$(fabric_label "$1" "$2"): 8.5 Mb/s from each host for $((DURATION > 4 ? DURATION : 4)) s, then $FABRIC_WATCH s watched" ;;
	storm)
		what="$(fabric_label "$1" "$2"): 2 x 4 Mb/s for $((FABRIC_STORM_AT + (DURATION > 6 ? DURATION : 6))) s, the storm from ${FABRIC_STORM_AT} s" ;;
	hol) what="$(label_of "$1" "$2"): iperf3 -P $STREAMS to hostB, -P 1 to hostC for $DURATION s" ;;
	*) what="$(label_of "$1" "$2"): iperf3 -P $STREAMS for $DURATION s" ;;
	esac
	progress $i "$what"
	case $1 in
	deadlock | storm) run_fabric $i "$1" "$2" ;;
	*) run_one $i "$1" "$2" ;;
	esac
done
echo "lab: ${#RUNS[@]} runs in $((SECONDS - T0)) s"
