#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Groups 1 and 2: what flowctl costs per packet.
#
# Forwarding: the kernel's pktgen sends UDP frames of 64 and 1518 bytes on
# the wire (pkt_size 60 and 1514, FCS not counted) from one or two threads,
# each on its own veth, into a bridge; the bridge forwards them all out of
# s2, whose root qdisc is the one measured; r0 counts what arrives.
#
#   +---- init ns ----+      +---------------- ns S ----------------+      +- ns R -+
#   | pktgen thread 0 |      |                                      |      |        |
#   |  g0 ============|======| s0 --+                               |      |        |
#   | pktgen thread 1 | veth |      +- br0 -- s2 (QDISC under test) |======| r0     |
#   |  g1 ============|======| s1 --+                               | veth | counts |
#   +-----------------+      +--------------------------------------+      +--------+
#
# The destination MAC is a static FDB entry on s2 and nobody's address, so
# r0 drops each frame at once (PACKET_OTHERHOST) and the receiver costs
# little. The figure is frames delivered to r0 per second of pktgen's run.
# flowctl runs as it would in a switch: rx on, tx off, nothing paused.
#
# Ingress: pktgen's netif_receive mode injects 64-byte frames straight into
# the receive path of i0: with the flowctl module not loaded, loaded with no
# flowctl qdisc anywhere (it holds no static key then), and with flowctl on
# i0 (its netdev ingress hook and EtherType test on every frame, and the
# ingress static keys it holds).
#
# Each configuration runs ROUNDS times (3; 1 with BENCH_QUICK), the qdiscs
# interleaved within each round, and the best round is kept: on a shared
# host interference only ever slows a run down. Every round is in the JSON.
#
# Usage: bench/forwarding.sh OUT.json
set -u
BENCH_GROUP=forwarding
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
OUT=${1:?usage: forwarding.sh OUT.json}
need_cmd jq ip tc bridge flowctl nft
need_module pktgen
need_module veth
need_module sch_prio
need_module sch_ets
need_module flowctl

if [ "$BENCH_QUICK" = 1 ]; then
	RUN_S=1 ROUNDS=1
else
	RUN_S=1 ROUNDS=3
fi
# The last two: ETS with the same shares (30/50/20 as DRR quanta of 128 B
# a percent), Linux's ets and flowctl's (tc options through q_flowctl.so);
# the traffic (priority 0: flowctl's class 1) is in an ETS class of each.
# pfifo takes the root lock like prio and flowctl but, like pfifo_fast,
# lets an skb bypass the queue when it is empty: the two split what the
# lock costs from what enqueue and dequeue cost. "flowctl tx on" is flowctl
# on s2 and on both ingress ports s0 and s1, all with tx on: every frame is
# charged to the port it came in on (the ingress ports' receive hook runs
# too), as in a lossless switch.
QDISCS=("pfifo_fast" "pfifo" "prio" "ets bands 8" "flowctl" "flowctl tx on"
	"ets bands 3 quanta 3840 6400 2560" "flowctl ets 0:30,1:50,2:20")
SIZES="60 1514"

setup_ns S R
ip link add name g0 type veth peer name s0 netns "$S" || fail "veth"
ip link add name g1 type veth peer name s1 netns "$S" || fail "veth"
ip -n "$S" link add name s2 type veth peer name r0 netns "$R" || fail "veth"
ip -n "$S" link add name br0 type bridge || fail "bridge"
for d in s0 s1 s2; do
	ip -n "$S" link set dev "$d" master br0
	ip -n "$S" link set dev "$d" up
done
ip -n "$S" link set dev br0 up
ip -n "$R" link set dev r0 up
ip link set dev g0 up
ip link set dev g1 up
ip netns exec "$S" bridge fdb add "$DST_MAC" dev s2 master static || fail "bridge fdb"

# pg_senders SIZE SENDERS: one pktgen device per sender, each on its own
# thread (CPU) and veth.
pg_senders()
{
	pg_reset
	PG_DEVS=(g0)
	pg_device 0 g0 "$1"
	if [ "$2" = 2 ]; then
		PG_DEVS+=(g1)
		pg_device 1 g1 "$1"
	fi
}

# ingress_ports on|off: flowctl with tx on at s0 and s1, or their noqueue.
ingress_ports()
{
	local d

	for d in s0 s1; do
		if [ "$1" = on ]; then
			tc -n "$S" qdisc replace dev "$d" root flowctl tx on ||
				fail "tc qdisc replace dev $d root flowctl tx on"
		else
			tc -n "$S" qdisc del dev "$d" root 2>/dev/null
		fi
	done
}

# forward QDISC: sets FWD_PPS to the frames delivered to r0 per second.
forward()
{
	local q=$1 before after

	if [ "$q" = "flowctl tx on" ]; then
		ingress_ports on
	else
		ingress_ports off
	fi
	# shellcheck disable=SC2086 # the qdisc and its options are words
	tc -n "$S" qdisc replace dev s2 root $q || fail "tc qdisc replace dev s2 root $q"
	before=$(<"$R_STATS")
	pg_run "$RUN_S"
	nap 0.1
	after=$(<"$R_STATS")
	FWD_PPS=$(((after - before) * 1000000 / PG_US))
}

# profile QDISC OUT: the kernel's top symbols (perf, cpu-clock samples of
# CPU 0, where pktgen's thread sends and every frame is forwarded and
# received) while QDISC forwards 64-byte frames from one sender, as
# "percent<TAB>module<TAB>symbol" lines, the first "total<TAB>flowctl"
# with the share of all samples in flowctl.ko. Under -icount the samples
# fall every so many instructions: the profile is of CPU work.
profile()
{
	local q=$1 data=$BENCH_TMP/perf.data p own

	forward "$q"
	echo start >"$PG/pgctrl" &
	p=$!
	perf record -N -q -C 0 -e cpu-clock -o "$data" -- sleep 1 >/dev/null 2>&1
	echo stop >"$PG/pgctrl"
	wait $p
	own=$(perf report -i "$data" --stdio -q --sort dso 2>/dev/null |
		awk '$2 == "[flowctl]" { sub(/%/, "", $1); print $1 }')
	{
		printf '%s\tflowctl\ttotal\n' "${own:-0}"
		perf report -i "$data" --stdio -q --sort dso,sym --percent-limit 0.05 2>/dev/null |
			awk '$1 ~ /%$/ { pct = $1; sub(/%/, "", pct); mod = $2; gsub(/[][]/, "", mod);
				sym = $4; for (i = 5; i <= NF; i++) sym = sym " " $i;
				printf "%s\t%s\t%s\n", pct, mod, sym }' | head -80
	} >"$2"
}

# r0's counter, read without a fork through a descriptor's path in R.
ip netns exec "$R" sleep 100000 &
R_PID=$!
R_STATS=/proc/$R_PID/root/sys/class/net/r0/statistics/rx_packets
# ip netns exec mounts the namespace's sysfs when it starts: wait for it.
for ((i = 0; i < 100; i++)); do
	[ -r "$R_STATS" ] && break
	nap 0.1
done
[ -r "$R_STATS" ] || fail "cannot read r0's counters through $R_STATS"
declare -A PPS
for size in $SIZES; do
	for n in 1 2; do
		progress "forwarding $((size + 4)) B, $n sender(s): ${#QDISCS[@]} qdiscs x $ROUNDS rounds of ${RUN_S} s"
		pg_senders "$size" "$n"
		for ((round = 1; round <= ROUNDS; round++)); do
			for q in "${QDISCS[@]}"; do
				forward "$q"
				PPS[$q/$size/$n]+="$FWD_PPS "
			done
		done
	done
done

# Readers: flowctl on s2 forwards 64-byte frames from two senders while an
# unprivileged user (nobody) reads in a loop in S, one reader at a time,
# interleaved within each round: none; "ip -s link show dev s2", the peer
# (rtnetlink under RTNL, no qdisc lock); and flowctl's two readers,
# "tc -s class show dev s2" and "flowctl -j show dev s2", which read the
# counters without the qdisc root lock. What a reader costs beyond the peer
# is what it takes from the data path; the reads it made are kept too.
READERS=("none" "ip -s link show dev s2" "tc -s class show dev s2" "flowctl -j show dev s2")
declare -A RD_PPS RD_READS
# reader CMD: start CMD in a loop as nobody in S; READER_PID, READER_LOG.
reader()
{
	READER_LOG=$BENCH_TMP/reader.log
	: >"$READER_LOG"
	chmod 666 "$READER_LOG"
	# shellcheck disable=SC2016 # expanded by the reader's shell
	ip netns exec "$S" setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		bash -c 'while :; do $1 >/dev/null 2>&1 || exit 1; echo >>"$2"; done' \
		reader "$1" "$READER_LOG" &
	READER_PID=$!
}
progress "readers: flowctl on s2, 64 B, 2 senders, an unprivileged reader loop: ${#READERS[@]} readers x $ROUNDS rounds of ${RUN_S} s"
pg_senders 60 2
for ((round = 1; round <= ROUNDS; round++)); do
	for r in "${READERS[@]}"; do
		READER_PID=
		[ "$r" = none ] || reader "$r"
		forward flowctl
		if [ -n "$READER_PID" ]; then
			kill "$READER_PID" 2>/dev/null
			wait "$READER_PID" 2>/dev/null
			[ -s "$READER_LOG" ] || fail "the reader '$r' (as nobody) read nothing: does it run unprivileged?"
			RD_READS[$r]+="$(($(wc -l <"$READER_LOG") * 1000000 / PG_US)) "
		else
			RD_READS[$r]+="0 "
		fi
		RD_PPS[$r]+="$FWD_PPS "
	done
done
for r in "${READERS[@]}"; do
	# shellcheck disable=SC2086
	printf '%s\t%s\t%s\t%s\n' "$r" "$(best ${RD_PPS[$r]})" "${RD_PPS[$r]% }" "$(best ${RD_READS[$r]})"
done >"$BENCH_TMP/readers"

# Where the time goes, for the locked peer, pfifo_fast and flowctl.
PROFILED=("pfifo_fast" "prio" "flowctl" "flowctl tx on")
# scripts/bench asks for them in the -icount VM only (FLOWCTL_BENCH_PROFILE).
if [ "${FLOWCTL_BENCH_PROFILE:-0}" = 1 ] && command -v perf >/dev/null 2>&1; then
	progress "profiles: ${PROFILED[*]} (perf, 1 s each)"
	pg_senders 60 1
	for q in "${PROFILED[@]}"; do
		profile "$q" "$BENCH_TMP/prof-${q// /_}"
	done
fi
ingress_ports off
kill $R_PID 2>/dev/null

{
	for size in $SIZES; do
		for n in 1 2; do
			for q in "${QDISCS[@]}"; do
				# shellcheck disable=SC2086
				printf '%s\t%s\t%s\t%s\t%s\n' "$q" $((size + 4)) "$n" \
					"$(best ${PPS[$q/$size/$n]})" "${PPS[$q/$size/$n]% }"
			done
		done
	done
} >"$BENCH_TMP/fwd"

# Ingress: i0 receives what pktgen injects, in five states: the flowctl
# module not loaded; loaded with no flowctl qdisc anywhere (once it has
# let the ingress static keys go); netfilter's own peers, an nftables
# netdev ingress chain on i0 with no rule (the hook alone: the static keys,
# the hook walk, one indirect call) and with one rule doing flowctl's test
# ("ether type 0x8808 drop"); and flowctl on i0 (rx on). The peers say
# what any netdev ingress hook costs, which is where flowctl must sit to see
# MAC Control frames before a bridge does.
KEYS=/sys/module/flowctl/parameters/ingress_keys_held
tc -n "$S" qdisc del dev s2 root 2>/dev/null
ip link add name i0 type veth peer name i1 || fail "veth"
ip link set dev i0 up
ip link set dev i1 up
declare -A RX
for ((round = 1; round <= ROUNDS; round++)); do
	progress "ingress round $round/$ROUNDS: module not loaded, loaded, nft hook, nft rule, flowctl on i0"
	for state in unloaded without nft_hook nft_rule with; do
		case $state in
		unloaded)
			tc qdisc del dev i0 root 2>/dev/null
			modprobe -r flowctl || fail "cannot unload flowctl (a qdisc left?)"
			;;
		without)
			need_module flowctl
			for ((i = 0; i < 100; i++)); do
				[ "$(<"$KEYS")" = N ] && break
				nap 0.1
			done
			[ "$(<"$KEYS")" = N ] || fail "flowctl still holds the ingress keys with no qdisc"
			;;
		nft_hook)
			nft -f - <<-'NFT' || fail "nft: cannot add an ingress chain on i0"
			table netdev fcpeer {
				chain fcin {
					type filter hook ingress device "i0" priority 0; policy accept;
				}
			}
			NFT
			;;
		nft_rule)
			nft add rule netdev fcpeer fcin ether type 0x8808 drop ||
				fail "nft: cannot add the EtherType rule"
			;;
		with)
			nft delete table netdev fcpeer || fail "nft: cannot delete the table"
			tc qdisc replace dev i0 root flowctl || fail "cannot attach flowctl to i0"
			;;
		esac
		pg_reset
		PG_DEVS=(i0)
		pg_device 0 i0 60 netif_receive
		pg_run "$RUN_S"
		RX[$state]+="$((PG_SENT * 1000000 / PG_US)) "
	done
done
tc qdisc del dev i0 root 2>/dev/null
pg_reset

# The profiles as JSON.
for q in "${PROFILED[@]}"; do
	f=$BENCH_TMP/prof-${q// /_}
	[ -s "$f" ] || continue
	jq -R -s --arg q "$q" '[split("\n")[] | select(length > 0) | split("\t")] as $l |
		{ qdisc: $q, frame_bytes: 64, senders: 1, cpu: 0,
		  flowctl_percent: ($l[0][0] | tonumber),
		  symbols: [$l[1:][] | { percent: (.[0] | tonumber), module: .[1], symbol: .[2] }] }' "$f"
done | jq -s . >"$BENCH_TMP/profiles.json" || fail "could not read the profiles"

# shellcheck disable=SC2086
jq -R -s --argjson rounds "$ROUNDS" --arg run_s "$RUN_S" \
	--argjson rx_unloaded "$(best ${RX[unloaded]})" \
	--argjson rx_without "$(best ${RX[without]})" \
	--argjson rx_with "$(best ${RX[with]})" \
	--argjson rx_nft_hook "$(best ${RX[nft_hook]})" \
	--argjson rx_nft_rule "$(best ${RX[nft_rule]})" \
	--arg rx_nft_hook_all "${RX[nft_hook]% }" --arg rx_nft_rule_all "${RX[nft_rule]% }" \
	--arg rx_unloaded_all "${RX[unloaded]% }" \
	--arg rx_without_all "${RX[without]% }" --arg rx_with_all "${RX[with]% }" \
	--slurpfile profiles "$BENCH_TMP/profiles.json" \
	--rawfile readers "$BENCH_TMP/readers" '
	# n / d to three places; null without a d.
	def r3($n; $d): if $d > 0 then ($n / $d * 1000 | round) / 1000 else null end;
	[split("\n")[] | select(length > 0) | split("\t") |
	 { qdisc: .[0], frame_bytes: (.[1] | tonumber), senders: (.[2] | tonumber),
	   pps: (.[3] | tonumber), rounds_pps: (.[4] | split(" ") | map(tonumber)) }] as $r |
	{
	  forwarding: {
	    rounds: $rounds, run_s: ($run_s | tonumber),
	    cases: [$r[] | . as $c |
	      ($r[] | select(.qdisc == "pfifo_fast" and .frame_bytes == $c.frame_bytes and
	                     .senders == $c.senders) | .pps) as $base |
	      ($r[] | select(.qdisc == "prio" and .frame_bytes == $c.frame_bytes and
	                     .senders == $c.senders) | .pps) as $prio |
	      $c + { ratio_to_pfifo_fast: r3($c.pps; $base), ratio_to_prio: r3($c.pps; $prio) }],
	    profiles: $profiles[0]
	  },
	  readers: ([$readers | split("\n")[] | select(length > 0) | split("\t") |
	    { reader: .[0], pps: (.[1] | tonumber),
	      rounds_pps: (.[2] | split(" ") | map(tonumber)),
	      reads_per_s: (.[3] | tonumber) }] as $rd |
	    { qdisc: "flowctl", frame_bytes: 64, senders: 2, user: "nobody",
	      rounds: $rounds, run_s: ($run_s | tonumber),
	      cases: [$rd[] | . + { ratio_to_none: r3(.pps; ($rd[] | select(.reader == "none") | .pps)) }] }),
	  ingress: {
	    rounds: $rounds, run_s: ($run_s | tonumber), frame_bytes: 64,
	    pps_module_unloaded: $rx_unloaded,
	    pps_without_flowctl: $rx_without, pps_with_flowctl: $rx_with,
	    rounds_pps_unloaded: ($rx_unloaded_all | split(" ") | map(tonumber)),
	    rounds_pps_without: ($rx_without_all | split(" ") | map(tonumber)),
	    rounds_pps_with: ($rx_with_all | split(" ") | map(tonumber)),
	    pps_nft_hook: $rx_nft_hook, pps_nft_rule: $rx_nft_rule,
	    rounds_pps_nft_hook: ($rx_nft_hook_all | split(" ") | map(tonumber)),
	    rounds_pps_nft_rule: ($rx_nft_rule_all | split(" ") | map(tonumber)),
	    ratio: r3($rx_with; $rx_without),
	    nft_hook_ratio: r3($rx_nft_hook; $rx_without),
	    nft_rule_ratio: r3($rx_nft_rule; $rx_without),
	    ratio_to_nft_rule: r3($rx_with; $rx_nft_rule),
	    loaded_ratio: r3($rx_without; $rx_unloaded)
	  }
	}' "$BENCH_TMP/fwd" >"$OUT" || fail "could not build the JSON"
progress "done: ingress $(jq -c '.ingress | {pps_module_unloaded, pps_without_flowctl, pps_nft_hook, pps_nft_rule, pps_with_flowctl}' "$OUT")"
