# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The lab's fabric runs (make demo -e deadlock, -e storm), sourced by
# scripts/demo/experiments.sh inside the VM. The fabrics are
# scripts/demo/fabric.sh's; the traffic is selftests/tools/fctest's UDP
# sender (it keeps its rate and never blocks on a paused port; its receiver
# is a sink: what reached each host is the counters of the router port
# facing it), the storm "flowctl send". Each run writes OUT/runs/NN-EXPERIMENT-MODE/:
#
#   meta.env              experiment, mode, times (CLOCK_REALTIME ns)
#   samples-NS.jsonl      "flowctl sample" of each router (and H1) every interval
#   show-NS.json          "flowctl -j -s show" at the end
#   waitfor.txt, waitfor.json, waitfor.rc   "flowctl waitfor" at the end (deadlock)
#   watchdog-NS.json      "flowctl -j watchdog" at the end (mode watchdog)
#
# deadlock: the ring of fab_ring; each host sends 8.5 Mb/s on priority 3 to
# the host two hops clockwise for DURATION s (4 at least), then stops; the run watches
# the ring for FABRIC_WATCH s more. Mode off: no watchdog; mode watchdog:
# the watchdog (detection 200 ms, action drop) on every inter-switch port.
#
# storm: the fabric of fab_storm; H1 sends 4 Mb/s on priority 3 to R and
# 4 Mb/s to H3; from FABRIC_STORM_AT s on, R's port sends PFC on priority 3
# (65535 quanta) every 100 ms for DURATION s (6 at least), to the end: a
# stuck receiver. Mode off: no watchdog; mode watchdog: the watchdog on L2's port
# facing R.

# shellcheck source=scripts/demo/fabric.sh
source "$HERE/fabric.sh"

FCTEST=$HERE/../../selftests/tools/fctest
FABRIC_WATCH=${FABRIC_WATCH:-4}
FABRIC_STORM_AT=${FABRIC_STORM_AT:-2}

# fabric_ns PREFIX EXPERIMENT: the run's namespaces, in FAB_NS (routers
# first).
fabric_ns()
{
	local n

	FAB_NS=()
	if [ "$2" = deadlock ]; then
		for n in S1 S2 S3 H1 H2 H3; do FAB_NS+=("${1}dl-$n"); done
	else
		for n in L2 S L1 H1 R H3; do FAB_NS+=("${1}st-$n"); done
	fi
}

fabric_down()
{
	local ns

	for ns in "${FAB_NS[@]}"; do
		[ -e "/run/netns/$ns" ] || continue
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	return 0
}

fabric_up()
{
	local ns

	for ns in "${FAB_NS[@]}"; do
		ip netns add "$ns" && ip -n "$ns" link set dev lo up || return 1
	done
}

# fabric_sample DIR NS...: a "flowctl sample" per namespace, PIDs in FAB_PIDS.
fabric_sample()
{
	local dir=$1 ns

	shift
	for ns in "$@"; do
		flowctl -n "$ns" sample interval "$INTERVAL" >"$dir/samples-${ns##*-}.jsonl" &
		FAB_PIDS+=($!)
	done
}

fabric_stop()
{
	[ ${#FAB_PIDS[@]} -gt 0 ] || return 0
	kill "${FAB_PIDS[@]}" 2>/dev/null
	wait "${FAB_PIDS[@]}" 2>/dev/null
	FAB_PIDS=()
}

# run_fabric N EXPERIMENT MODE
run_fabric()
{
	local n=$1 exp=$2 mode=$3 dir prefix t_start t_stop t_end t_storm='' i ns
	local dur=$DURATION start=$SECONDS
	local -a senders=() recvs=()

	[ -x "$FCTEST" ] || die "$FCTEST not built (make -C selftests)"
	dir=$OUT/runs/$(printf '%02d' "$n")-$exp-$mode
	mkdir -p "$dir"
	prefix=
	[ "$KEEP" = 1 ] && prefix=$(printf 'r%02d-' "$n")
	fabric_ns "$prefix" "$exp"
	fabric_down
	fabric_up || die "cannot add the namespaces"
	FAB_PIDS=()
	if [ "$exp" = deadlock ]; then
		local -a S=("" "${FAB_NS[@]:0:3}") H=("" "${FAB_NS[@]:3:3}")

		fab_ring "${FAB_NS[@]}" || die "cannot build the ring"
		if [ "$mode" = watchdog ]; then
			for i in 1 2 3; do
				flowctl -n "${S[i]}" watchdog dev cw detection 200 action drop >/dev/null ||
					die "cannot turn the watchdog on"
			done
		fi
		for i in 1 2 3; do
			ip netns exec "${H[i]}" "$FCTEST" recv 7000 3600 >/dev/null &
			recvs+=($!)
		done
		fabric_sample "$dir" "${S[@]:1}"
		sleep 0.5
		t_start=$(now_ns)
		for i in 1 2 3; do
			ip netns exec "${H[i]}" "$FCTEST" send "198.18.$(fab_next "$(fab_next "$i")").1" \
				7000 1000 10000000 tos 0x60 size 1000 >/dev/null 2>&1 &
			senders+=($!)
		done
		# Under 4 s the queues may not have filled the ring yet.
		[ "$dur" -ge 4 ] || dur=4
		sleep "$dur"
		kill "${senders[@]}" 2>/dev/null
		wait "${senders[@]}" 2>/dev/null
		t_stop=$(now_ns)
		sleep "$FABRIC_WATCH"
		t_end=$(now_ns)
		# The wait-for graph as the run ends: a cycle while deadlocked.
		local -a wf=()
		for ns in "${FAB_NS[@]}"; do wf+=(netns "$ns"); done
		flowctl waitfor "${wf[@]}" >"$dir/waitfor.txt" 2>&1
		echo $? >"$dir/waitfor.rc"
		flowctl -j waitfor "${wf[@]}" >"$dir/waitfor.json" 2>/dev/null
		fabric_stop
		for ns in "${S[@]:1}"; do
			flowctl -n "$ns" -j -s show >"$dir/show-${ns##*-}.json"
			flowctl -n "$ns" -j watchdog >"$dir/watchdog-${ns##*-}.json"
		done
	else
		local h1=${FAB_NS[3]} r=${FAB_NS[4]} h3=${FAB_NS[5]} l2=${FAB_NS[0]}

		fab_storm "$h1" "${FAB_NS[2]}" "${FAB_NS[1]}" "$l2" "$r" "$h3" ||
			die "cannot build the storm fabric"
		if [ "$mode" = watchdog ]; then
			flowctl -n "$l2" watchdog dev l2r detection 200 action drop >/dev/null ||
				die "cannot turn the watchdog on"
		fi
		for ns in "$r" "$h3"; do
			ip netns exec "$ns" "$FCTEST" recv 7000 3600 >/dev/null &
			recvs+=($!)
		done
		fabric_sample "$dir" "$l2" "${FAB_NS[1]}" "${FAB_NS[2]}" "$h1"
		sleep 0.5
		t_start=$(now_ns)
		for i in 2 3; do
			ip netns exec "$h1" "$FCTEST" send "198.18.$i.1" 7000 2000 10000000 \
				tos 0x60 size 1000 >/dev/null 2>&1 &
			senders+=($!)
		done
		sleep "$FABRIC_STORM_AT"
		t_storm=$(now_ns)
		flowctl -n "$r" send dev r0 pfc 3:65535 count 1000000 interval 100000 >/dev/null &
		senders+=($!)
		# The storm spreads in a few seconds: 6 s of it at least.
		[ "$dur" -ge 6 ] || dur=6
		sleep "$dur"
		dur=$((dur + FABRIC_STORM_AT))
		t_stop=$(now_ns)
		kill "${senders[@]}" 2>/dev/null
		wait "${senders[@]}" 2>/dev/null
		t_end=$t_stop
		fabric_stop
		for ns in "$l2" "${FAB_NS[1]}" "${FAB_NS[2]}" "$h1"; do
			flowctl -n "$ns" -j -s show >"$dir/show-${ns##*-}.json"
		done
		flowctl -n "$l2" -j watchdog >"$dir/watchdog-L2.json"
	fi
	kill "${recvs[@]}" 2>/dev/null
	wait "${recvs[@]}" 2>/dev/null
	cat >"$dir/meta.env" <<EOF
EXPERIMENT=$exp
MODE=$mode
LABEL="$(fabric_label "$exp" "$mode")"
DURATION=$dur
WATCH=$FABRIC_WATCH
INTERVAL=$INTERVAL
T_START_NS=$t_start
T_STOP_NS=$t_stop
T_STORM_NS=$t_storm
T_END_NS=$t_end
KERNEL=$(uname -r)
NETNS_PREFIX=$prefix
EOF
	[ "$KEEP" = 1 ] || fabric_down
	OVERHEAD=$(((OVERHEAD + SECONDS - start - DURATION + 1) / 2))
	[ "$OVERHEAD" -ge 1 ] || OVERHEAD=1
}
