#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Group 6: flowctl on many ports of one VM, next to pfifo_fast on the same
# ports (the peer figures).
#
#   +------------- ns P --------------+      +------- ns Q -------+
#   | p0 .. p4095: the qdisc measured |======| q0 .. q4095        |
#   |                                 | veth | q0: PAUSE frames   |
#   +---------------------------------+      +--------------------+
#
# With 1, 64, 512 and 4096 ports carrying the qdisc:
# - memory per port: the growth of the kernel's memory (MemTotal - MemFree
#   - Buffers - Cached, after dropping the page cache, once it settles) from
#   before the qdiscs were attached, divided by the ports; and the Slab part
#   of it. With one port both are within the noise of the VM;
# - a full dump: the time of one netlink dump of every port over an open
#   socket (flowctl's DEV_GET dump, what "flowctl show" asks for; for
#   pfifo_fast RTM_GETQDISC, what "tc qdisc show" asks for), the median of
#   five, without process start;
# - PAUSE absorption: q0 sends 64-byte PAUSE frames (65535 quanta) as fast
#   as one AF_PACKET socket can; the figure is frames per second arriving at
#   p0 (its veth rx counter), and the share flowctl counted as PAUSE. With
#   pfifo_fast the kernel drops the same frames unhandled.
# - with the most ports, twice each alternating (the better of two):
#   attaching the qdisc to all in one tc batch and deleting it from all;
#   and, on as many fresh pairs in a namespace of their own (twice each up
#   to 512 ports, once beyond), deleting the namespace with the qdisc
#   attached (until the kernel has destroyed its devices).
#
# Usage: bench/scale.sh OUT.json
set -u
BENCH_GROUP=scale
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
OUT=${1:?usage: scale.sh OUT.json}
need_cmd jq ip tc flowctl timeout
need_file "$FCTEST" selftests
need_file "$FCBENCH" bench

# FLOWCTL_BENCH_PORTS: the port counts, ascending (the last also for the
# teardown).
if [ "$BENCH_QUICK" = 1 ]; then
	COUNTS=${FLOWCTL_BENCH_PORTS:-1 64} FLOOD_S=1
else
	COUNTS=${FLOWCTL_BENCH_PORTS:-1 64 512 4096} FLOOD_S=2
fi
MAX=${COUNTS##* }

# ip -batch opens the peer's namespace for every "link add ... netns Q"
# line and keeps it open until it exits: 4096 pairs need 4096 descriptors.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

setup_ns P Q
# No IPv6 on the pairs: each up link's DAD, MLD and router solicitations
# reach the peer, whose route lookup walks one fe80::/64 route per device
# (thousands here), and the VM's time goes there, not to the dumps.
no_ipv6 "$P" "$Q" || fail "cannot turn IPv6 off"
progress "creating $MAX veth pairs"
for ((i = 0; i < MAX; i++)); do
	echo "link add name p$i type veth peer name q$i netns $Q"
done >"$BENCH_TMP/add"
ip -n "$P" -batch "$BENCH_TMP/add" || fail "cannot create $MAX veth pairs"
for ((i = 0; i < MAX; i++)); do echo "link set dev p$i up"; done >"$BENCH_TMP/upp"
for ((i = 0; i < MAX; i++)); do echo "link set dev q$i up"; done >"$BENCH_TMP/upq"
ip -n "$P" -batch "$BENCH_TMP/upp" || fail "cannot bring the ports up"
ip -n "$Q" -batch "$BENCH_TMP/upq" || fail "cannot bring the peers up"
PAUSE_HEX=$(pause_hex "$(mac_of "$Q" q0)" 65535)
# p0's counter without a fork: through a process that lives in P.
ip netns exec "$P" sleep 100000 &
P_PID=$!
P0_RX=/proc/$P_PID/root/sys/class/net/p0/statistics/rx_packets
# ip netns exec mounts the namespace's sysfs when it starts: wait for it.
for ((i = 0; i < 100; i++)); do
	[ -r "$P0_RX" ] && break
	nap 0.1
done
[ -r "$P0_RX" ] || fail "cannot read p0's counters through $P0_RX"

# kmem: prints "USED SLAB" in bytes once the page cache is dropped.
kmem()
{
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '/^(MemTotal|MemFree|Buffers|Cached|Slab):/ { v[$1] = $2 * 1024 }
	     END { print v["MemTotal:"] - v["MemFree:"] - v["Buffers:"] - v["Cached:"], v["Slab:"] }' \
		/proc/meminfo
}

# kmem_settled: kmem once two readings 0.5 s apart differ by less than
# 256 KiB (deleted qdiscs are freed after RCU grace periods), at most 10 s.
kmem_settled()
{
	local a b i

	a=$(kmem)
	for ((i = 0; i < 20; i++)); do
		nap 0.5
		b=$(kmem)
		[ $((${a% *} - ${b% *})) -lt 262144 ] && [ $((${b% *} - ${a% *})) -lt 262144 ] && break
		a=$b
	done
	echo "$b"
}

# dump WHAT: sets DUMP_US to the median time of five full netlink dumps
# (WHAT flowctl: DEV_GET; flowctl-brief: DEV_GET brief, what "flowctl -br
# show" asks; tc: RTM_GETQDISC for the peer), DUMP_MSGS and DUMP_BYTES to
# the messages and bytes one carried.
dump()
{
	local out w1 w2

	out=$(ip netns exec "$P" "$FCBENCH" dump "$1" 5) ||
		fail "the netlink dump failed"
	read -r w1 DUMP_MSGS w2 DUMP_US w3 DUMP_BYTES <<<"$out"
	if [ "$w1" != messages ] || [ "$w2" != median_us ] || [ "$w3" != bytes ] ||
		! is_uint "$DUMP_US" || ! is_uint "$DUMP_BYTES"; then
		fail "cannot read the dump's time: $out"
	fi
}

# absorb QDISC: sets ABS_FPS (frames/s arriving at p0) and ABS_COUNTED
# (the share flowctl counted as PAUSE, or null).
absorb()
{
	local c0 c1 t0 t1 r0 r1 pid rx0=0 rx1=0

	[ "$1" = flowctl ] && rx0=$(fc_get "$P" p0 .stats.rx_pause)
	r0=$(<"$P0_RX")
	ip netns exec "$Q" "$FCTEST" raw q0 "$PAUSE_HEX" count 4000000000 &
	pid=$!
	nap 0.3
	c0=$(<"$P0_RX")
	t0=$(now_ns)
	nap "$FLOOD_S"
	c1=$(<"$P0_RX")
	t1=$(now_ns)
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	nap 0.2
	r1=$(<"$P0_RX")
	[ "$c1" -gt "$c0" ] || fail "no PAUSE frame reached p0"
	ABS_FPS=$(((c1 - c0) * 1000000000 / (t1 - t0)))
	ABS_COUNTED=null
	if [ "$1" = flowctl ]; then
		rx1=$(fc_get "$P" p0 .stats.rx_pause)
		ABS_COUNTED=$(jq -n "(($rx1 - $rx0) / ($r1 - $r0) * 1000 | round) / 1000")
	fi
}

: >"$BENCH_TMP/rows"
for q in flowctl pfifo_fast; do
	read -r base_used base_slab < <(kmem_settled)
	prev=0
	for n in $COUNTS; do
		progress "$q on $n port(s)"
		for ((i = prev; i < n; i++)); do echo "qdisc add dev p$i root $q"; done >"$BENCH_TMP/tc"
		tc -n "$P" -batch "$BENCH_TMP/tc" || fail "cannot attach $q to p$prev..p$((n - 1))"
		prev=$n
		read -r used slab < <(kmem_settled)
		brief_us=null brief_bytes=null
		if [ "$q" = flowctl ]; then
			dump flowctl-brief
			brief_us=$DUMP_US brief_bytes=$DUMP_BYTES
			dump flowctl
		else
			dump tc
		fi
		absorb "$q"
		jq -n -c --arg q "$q" --argjson n "$n" --argjson used $((used - base_used)) \
			--argjson slab $((slab - base_slab)) --argjson dump "$DUMP_US" \
			--argjson dump_msgs "$DUMP_MSGS" --argjson dump_bytes "$DUMP_BYTES" \
			--argjson brief "$brief_us" --argjson brief_bytes "$brief_bytes" \
			--argjson fps "$ABS_FPS" --argjson counted "$ABS_COUNTED" '
			{ qdisc: $q, ports: $n,
			  memory_per_port_bytes: ($used / $n | round),
			  slab_per_port_bytes: ($slab / $n | round),
			  dump_us: $dump, dump_messages: $dump_msgs, dump_bytes: $dump_bytes,
			  dump_brief_us: $brief, dump_brief_bytes: $brief_bytes,
			  pause_frames_per_s: $fps,
			  pause_counted_share: $counted }' >>"$BENCH_TMP/rows"
		tail -n 1 "$BENCH_TMP/rows" | sed 's/^/bench: [scale]   /' >&2
	done
	for ((i = 0; i < MAX; i++)); do echo "qdisc del dev p$i root"; done >"$BENCH_TMP/tc"
	tc -n "$P" -batch "$BENCH_TMP/tc" 2>/dev/null
done

# churn QDISC N: the times of attaching QDISC to p0..p(N-1) in one tc
# batch and of deleting it from all of them.
churn()
{
	local q=$1 n=$2 t0 t1 ta td i

	for ((i = 0; i < n; i++)); do echo "qdisc add dev p$i root $q"; done >"$BENCH_TMP/tq"
	for ((i = 0; i < n; i++)); do echo "qdisc del dev p$i root"; done >"$BENCH_TMP/tdel"
	t0=$(now_ns)
	tc -n "$P" -batch "$BENCH_TMP/tq" || fail "cannot attach $q to $n ports"
	t1=$(now_ns)
	ta=$((t1 - t0))
	t0=$(now_ns)
	tc -n "$P" -batch "$BENCH_TMP/tdel" || fail "cannot delete $q from $n ports"
	t1=$(now_ns)
	td=$((t1 - t0))
	jq -n -c --arg q "$q" --argjson n "$n" --argjson ta "$ta" --argjson td "$td" '
		{ qdisc: $q, ports: $n, attach_ns: $ta, detach_ns: $td }' >>"$BENCH_TMP/churn"
	tail -n 1 "$BENCH_TMP/churn" | sed 's/^/bench: [scale]   /' >&2
}

# teardown QDISC N: N fresh veth pairs t0.. in a namespace of their own
# (peers u0.. in Q), QDISC on each; the time of deleting the namespace:
# from "ip netns del" until the last peer is gone from Q (the kernel
# destroys the namespace's devices, and with them the qdiscs and the
# peers, in one batch on a workqueue).
teardown()
{
	local q=$1 n=$2 T=fc-T-$1-$$ t0 t1 tn i

	ip netns add "$T" || fail "cannot create a namespace"
	for ((i = 0; i < n; i++)); do
		echo "link add name t$i type veth peer name u$i netns $Q"
	done >"$BENCH_TMP/tadd"
	ip -n "$T" -batch "$BENCH_TMP/tadd" || fail "cannot create $n veth pairs"
	for ((i = 0; i < n; i++)); do echo "link set dev t$i up"; done >"$BENCH_TMP/tup"
	ip -n "$T" -batch "$BENCH_TMP/tup" || fail "cannot bring t0..t$((n - 1)) up"
	for ((i = 0; i < n; i++)); do echo "qdisc add dev t$i root $q"; done >"$BENCH_TMP/tq"
	tc -n "$T" -batch "$BENCH_TMP/tq" || fail "cannot attach $q to $n ports"
	[ -e "$Q_NET/u$((n - 1))" ] || fail "cannot see u$((n - 1)) through $Q_NET"
	t0=$(now_ns)
	ip netns del "$T" || fail "cannot delete the namespace"
	for ((i = 0; i < 6000; i++)); do
		[ -e "$Q_NET/u0" ] || [ -e "$Q_NET/u$((n - 1))" ] || break
		nap 0.02
	done
	t1=$(now_ns)
	[ "$i" -lt 6000 ] || fail "the namespace's $n veth pairs still exist after 120 s"
	tn=$((t1 - t0))
	jq -n -c --arg q "$q" --argjson n "$n" --argjson tn "$tn" '
		{ qdisc: $q, ports: $n, netns_del_ns: $tn }' >>"$BENCH_TMP/teardown"
	tail -n 1 "$BENCH_TMP/teardown" | sed 's/^/bench: [scale]   /' >&2
}

kill $P_PID 2>/dev/null
ip netns exec "$Q" sleep 100000 &
Q_PID=$!
Q_NET=/proc/$Q_PID/root/sys/class/net
for ((i = 0; i < 100; i++)); do
	[ -e "$Q_NET/q0" ] && break
	nap 0.1
done
: >"$BENCH_TMP/churn"
: >"$BENCH_TMP/teardown"
# Attach and detach on P's ports, twice each, alternating (the better of
# two); the namespace teardown on fresh pairs, twice each up to 512 ports,
# once each beyond (creating the pairs is what takes the time).
for q in flowctl pfifo_fast flowctl pfifo_fast; do
	progress "$q: attach and detach of $MAX ports"
	churn "$q" "$MAX"
done
TD_QDISCS="flowctl pfifo_fast flowctl pfifo_fast"
[ "$MAX" -gt 512 ] && TD_QDISCS="flowctl pfifo_fast"
for q in $TD_QDISCS; do
	progress "$q: deleting a namespace holding $MAX ports"
	teardown "$q" "$MAX"
done
kill $Q_PID 2>/dev/null
jq -s --slurpfile t "$BENCH_TMP/teardown" --slurpfile c "$BENCH_TMP/churn" '
	{ scale: { runs: .,
		   teardown: ($c | group_by([.qdisc, .ports]) | map(
			. as $g | { qdisc: .[0].qdisc, ports: .[0].ports,
			  attach_ns: (map(.attach_ns) | min),
			  detach_ns: (map(.detach_ns) | min),
			  netns_del_ns: ([$t[] | select(.qdisc == $g[0].qdisc and .ports == $g[0].ports) |
					  .netns_del_ns] | min) })) } }' \
	"$BENCH_TMP/rows" >"$OUT" || fail "could not build the JSON"
progress "done"
