#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The generic netlink family and the CLI: set/show round trips, refused
# sets change nothing, dumps that span several messages, survive a device
# list changed between their parts and stay inside a namespace,
# permissions, events and their bound under a storm, frames from "flowctl
# send" decoded by tshark, and the YNL spec driven by the kernel's own ynl
# tool.
#
#   +------------ ns A ------------+      +------------ ns B ------------+
#   | a0 flowctl                   |======| b0 (tshark capture)          |
#   | m0..m39 + n0..n39 flowctl    | veth |                              |
#   +------------------------------+      +------------------------------+
#   +------------ ns C ------------+      +------------ ns D ------------+
#   | c0, c1 flowctl (other ns)    |      | x0..x7 + y0..y7 flowctl      |
#   +------------------------------+      +------------------------------+

ALL_TESTS="defaults set_roundtrip refused_unchanged dump_many dump_brief dump_churn
	   dump_replace dump_netns perms events event_storm events_lost watch_verdicts send_tshark
	   ynl_dump_set metrics_promtool"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc setpriv
MONITOR_PID=
RMEM_SAVED=

TMP=$(mktemp -d)

setup_prepare()
{
	setup_ns A B C D
	veth_pair "$A" a0 "$B" b0
	ip netns exec "$A" tc qdisc add dev a0 root flowctl || return 1
	MAC_B=$(mac_of "$B" b0)
}

defaults()
{
	local s

	s=$(fc "$A" -j -s show dev a0)
	check_eq "$(echo "$s" | jq -r '.[0].mode')" pause "default mode"
	check_eq "$(echo "$s" | jq -r '.[0].rx')" true "default rx"
	check_eq "$(echo "$s" | jq -r '.[0].tx')" false "default tx"
	check_eq "$(echo "$s" | jq -r '.[0].trust')" pcp "default trust"
	check_eq "$(echo "$s" | jq -r '.[0].speed_mbps')" 10000 "speed from veth's ethtool"
	check_eq "$(echo "$s" | jq -r '.[0].speed_source')" ethtool "speed source"
	check_eq "$(echo "$s" | jq -r '.[0].prio | length')" 8 "prio entries"
	check_eq "$(echo "$s" | jq -r '.[0].ifindex')" \
		"$(ip -n "$A" -j link show dev a0 | jq '.[0].ifindex')" "ifindex"
	log_test "attach with no options gives the documented defaults"
}

set_roundtrip()
{
	local s

	fc "$A" set dev a0 mode pfc rx off pfc-prios 3,4,6 trust dscp speed 1000 \
		limit 500000 xoff 200000 xon 100000 prio 3 xoff 60000 xon 30000 \
		prio 6 xoff 90000 xon 10000 quanta 1234
	check_err $? "set failed"
	s=$(fc "$A" -j -s show dev a0)
	check_eq "$(echo "$s" | jq -r '.[0].mode')" pfc mode
	check_eq "$(echo "$s" | jq -r '.[0].rx')" false rx
	check_eq "$(echo "$s" | jq -c '.[0].pfc_prios')" "[3,4,6]" pfc_prios
	check_eq "$(echo "$s" | jq -r '.[0].trust')" dscp trust
	check_eq "$(echo "$s" | jq -r '.[0].speed_mbps')" 1000 speed_mbps
	check_eq "$(echo "$s" | jq -r '.[0].speed_source')" config speed_source
	check_eq "$(echo "$s" | jq -r '.[0].limit_bytes')" 500000 limit
	check_eq "$(echo "$s" | jq -r '.[0].xoff_bytes')" 200000 xoff
	check_eq "$(echo "$s" | jq -r '.[0].xon_bytes')" 100000 xon
	check_eq "$(echo "$s" | jq -r '.[0].quanta')" 1234 quanta
	check_eq "$(echo "$s" | jq -r '.[0].prio[3].xoff_bytes')" 60000 "prio 3 xoff"
	check_eq "$(echo "$s" | jq -r '.[0].prio[3].xon_bytes')" 30000 "prio 3 xon"
	check_eq "$(echo "$s" | jq -r '.[0].prio[6].xoff_bytes')" 90000 "prio 6 xoff"
	check_eq "$(echo "$s" | jq -r '.[0].prio[6].xon_bytes')" 10000 "prio 6 xon"
	# Back to derived thresholds: at veth's 10 Gb/s the headroom is larger.
	fc "$A" set dev a0 speed auto pfc-prios none rx on mode off limit 1m \
		xoff 0 xon 0 prio 3 xoff 0 xon 0 prio 6 xoff 0 xon 0
	check_err $? "set back to speed auto and derived thresholds failed"
	s=$(fc "$A" -j show dev a0)
	check_eq "$(echo "$s" | jq -r '.[0].speed_source')" ethtool "speed auto"
	check_eq "$(echo "$s" | jq -c '.[0].pfc_prios')" "[]" "pfc-prios none"
	check_eq "$(echo "$s" | jq -r '.[0].mode')" off "mode off"
	fc "$A" set dev a0 pfc-prios all mode pause
	check_eq "$(fc_get "$A" a0 '.pfc_prios | length')" 8 "pfc-prios all"
	log_test "set and show round-trip every field"
}

# refused WHAT ARGS...: the set fails with a message and changes nothing.
refused()
{
	local what=$1 before after msg

	shift
	before=$(fc "$A" -j show dev a0 | jq -c '.[0] | del(.stats, .prio)')
	msg=$(fc "$A" set dev a0 "$@" 2>&1)
	check_fail $? "$what: set $* succeeded"
	[ -n "$msg" ]
	check_err $? "$what: refused without a message"
	log_info "$what: $msg"
	after=$(fc "$A" -j show dev a0 | jq -c '.[0] | del(.stats, .prio)')
	check_eq "$after" "$before" "$what: config after a refused set"
}

refused_unchanged()
{
	fc "$A" set dev a0 mode pause limit 1000000 xoff 0 xon 0
	refused "xon above xoff" mode pfc xoff 5000 xon 6000
	refused "xoff above limit" mode pfc limit 10000 xoff 20000 xon 1000
	refused "speed below 10 Mb/s" mode pfc speed 5
	refused "speed above 800G" mode pfc speed 900000
	refused "limit too small" mode pfc limit 100
	refused "priority 8" mode pfc prio 8 xoff 100 xon 10
	refused "quanta 65536" mode pfc quanta 65536
	refused "quanta 0" mode pfc quanta 0
	refused "xoff 4294967295 (xoff + headroom wrapped u32)" mode pfc xoff 4294967295 xon 1
	refused "xon past the largest limit" mode pfc xon 4294967295
	refused "a priority's xoff past the largest limit" mode pfc prio 3 xoff 4294967295 xon 1
	refused "unknown word" mode pfc frobnicate
	refused "bad mode" mode lossless
	log_test "refused sets report why and change nothing"
}

dump_many()
{
	local i n names

	for i in $(seq 0 39); do
		ip -n "$A" link add name m$i type veth peer name n$i
		ip netns exec "$A" tc qdisc add dev m$i root flowctl
		ip netns exec "$A" tc qdisc add dev n$i root flowctl
	done
	n=$(fc "$A" -j show | jq length)
	check_eq "$n" 81 "ports in the dump (a0 + 80)"
	names=$(fc "$A" -j show | jq -r '.[].ifname' | sort | uniq | wc -l)
	check_eq "$names" 81 "distinct names in the dump"
	log_test "dump of 81 ports spans several messages, each port once"
}

# dump_brief: "flowctl -br show" (FLOWCTL_A_DEV_BRIEF) lists the same 81
# ports with the same settings as the full dump; a port the partner pauses
# says so in both; the brief dump carries under a tenth of the full one's
# bytes; -br with -s is a usage error. Needs dump_many's ports.
dump_brief()
{
	local full brief line diff a0 bf bb

	fc "$A" set dev m0 mode pfc pfc-prios 3,4 tx on
	fc "$A" set dev a0 speed 10
	# 65535 quanta at 10 Mb/s: a0 is paused for 3.36 s. A full dump of
	# 81 ports and its jq under TCG can outlast that: each reading gets
	# a fresh PAUSE just before it.
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
	brief=$(fc "$A" -j -br show)
	line=$(fc "$A" -br show dev a0)
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
	full=$(fc "$A" -j show)
	check_eq "$(echo "$brief" | jq length)" 81 "ports in the brief dump"
	check_eq "$(echo "$full" | jq length)" 81 "ports in the full dump"
	# Files, not arguments: the full dump of 81 ports is 230 KB.
	echo "$full" >"$TMP/full.json"
	echo "$brief" >"$TMP/brief.json"
	diff=$(jq -n -c --slurpfile f "$TMP/full.json" --slurpfile b "$TMP/brief.json" \
		'[$f[0], $b[0]] | map(map({ifname, ifindex, mode, rx, tx, pfc_prios, speed_mbps}))
		 | (.[0] - .[1]) + (.[1] - .[0]) | map(.ifname)')
	check_eq "$diff" "[]" "ports whose settings differ between the brief and the full dump"
	a0=$(echo "$brief" | jq -c '.[] | select(.ifname == "a0")')
	check_eq "$(echo "$a0" | jq -c .paused_prios)" "[0,1,2,3,4,5,6,7]" \
		"a0 paused by a PAUSE frame: all eight, brief"
	check_eq "$(echo "$full" | jq -c '[.[] | select(.ifname == "a0") | .prio[] | select(.paused) | .prio]')" \
		"[0,1,2,3,4,5,6,7]" "a0 paused by a PAUSE frame: all eight, full"
	check_eq "$(echo "$a0" | jq -c '[.xoff_prios, .stormed_prios, .backlog_packets]')" "[[],[],0]" \
		"a0 holds no XOFF, nothing stormed, nothing queued"
	check_eq "$(echo "$brief" | jq -c '.[] | select(.ifname == "m0") | [.mode, .pfc_prios, .tx]')" \
		'["pfc",[3,4],true]' "m0's settings, brief"
	check_eq "$(echo "$brief" | jq -c '.[0] | has("prio") or has("stats")')" false \
		"no priorities and no counters in brief"
	check_eq "$(fc "$A" -br show | wc -l)" 81 "a line a port in text"
	echo "$line" | grep -q "^a0 .* paused 0-7 "
	check_err $? "the text line of a0 does not say paused 0-7: $line"
	fc "$A" -br -s show >/dev/null 2>&1
	check_eq $? 2 "exit status of -br with -s"
	bf=$(ip netns exec "$A" "$SELFTESTS_DIR/tools/fcdump" | awk '$1 == "bytes" { print $2 }')
	bb=$(ip netns exec "$A" "$SELFTESTS_DIR/tools/fcdump" brief | awk '$1 == "bytes" { print $2 }')
	log_info "81 ports: the full dump $bf bytes, the brief one $bb"
	[ -n "$bf" ] && [ -n "$bb" ] && [ $((bb * 10)) -lt "$bf" ]
	check_err $? "the brief dump ($bb bytes) is not under a tenth of the full one ($bf)"
	# XON ends the pause: the next cases start with a0's gates open.
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)"
	check_eq "$(fc "$A" -j -br show dev a0 | jq -c '.[0].paused_prios')" "[]" \
		"a0 paused after an XON, brief"
	fc "$A" set dev a0 speed auto
	fc "$A" set dev m0 mode pause pfc-prios all tx off
	log_test "flowctl -br show: a brief dump of 81 ports, the same settings and state"
}

# dump_churn: a dump paused after its first parts while a port it already
# reported is deleted (with its veth peer) and a new one is added. Resumed
# by a count of devices, the next part would skip a port; by ifindex, each
# port that existed throughout appears exactly once, in ifindex order.
dump_churn()
{
	local out=$TMP/churn i pid gone before

	for i in $(seq 0 7); do
		ip -n "$D" link add name x$i type veth peer name y$i
		ip netns exec "$D" tc qdisc add dev x$i root flowctl
		ip netns exec "$D" tc qdisc add dev y$i root flowctl
	done
	# The flowctl ports (a kernel may add its own devices, such as sit0).
	before=$(ip -n "$D" -j link show | jq -r '.[] | .ifname | select(test("^[xy][0-9]+$"))' | sort)
	rm -f "$TMP/go"
	mkfifo "$TMP/go"
	ip netns exec "$D" "$SELFTESTS_DIR/tools/fcdump" pause-after 1 <"$TMP/go" >"$out" &
	pid=$!
	exec 7>"$TMP/go"
	for _ in $(seq 100); do
		grep -q '^paused\|^ended' "$out" && break
		sleep 0.05
	done
	check_eq "$(grep -c '^paused' "$out")" 1 "the dump paused between parts (it needs three)"
	# The first port it reported goes, with its peer; a new pair comes.
	gone=$(awk '$1 == "dev" { print $3; exit }' "$out")
	ip -n "$D" link del "$gone"
	ip -n "$D" link add name z0 type veth peer name z1
	ip netns exec "$D" tc qdisc add dev z0 root flowctl
	echo go >&7
	exec 7>&-
	wait $pid
	check_err $? "fcdump failed: $(cat "$out")"
	log_info "paused after $(sed -n 's/^paused after \([0-9]*\).*/\1/p' "$out") of $(echo "$before" | wc -l) ports; deleted $gone and its peer"
	local stable missing dup order
	stable=$(comm -23 <(echo "$before") <(ip -n "$D" -j link show | jq -r '.[] | .ifname' | sort | comm -13 - <(echo "$before")))
	missing=$(comm -23 <(echo "$stable") <(awk '$1 == "dev" { print $3 }' "$out" | sort))
	check_eq "$missing" "" "ports present throughout but missing from the dump"
	dup=$(awk '$1 == "dev" { print $2 }' "$out" | sort | uniq -d | tr '\n' ' ')
	check_eq "$dup" "" "ifindexes reported twice"
	order=$(awk '$1 == "dev" { print $2 }' "$out" | sort -n -c 2>&1)
	check_eq "$order" "" "dump in ifindex order"
	log_test "a dump survives ports deleted and added between its parts"
}

# dump_replace: the dump finds ports in an index of its own, which must
# follow the device's root qdisc: a replace by a new flowctl (another
# handle: tc creates it, grafts it, then destroys the old one) lists the
# new one once, in the full and the brief dump; a replace by another kind,
# a refused attach and a delete list none.
dump_replace()
{
	local def

	r0_limits() { fc "$D" -j show | jq -c '[.[] | select(.ifname == "r0") | .limit_bytes]'; }
	r0_brief() { fc "$D" -j -br show | jq -c '[.[] | select(.ifname == "r0") | .ifname]'; }
	ip -n "$D" link add name r0 type veth peer name r1
	ip netns exec "$D" tc qdisc add dev r0 root handle 1: flowctl
	def=$(fc_get "$D" r0 .limit_bytes)
	fc "$D" set dev r0 limit 300000
	check_eq "$(r0_limits)" "[300000]" "r0 in the dump after set"
	ip netns exec "$D" tc qdisc replace dev r0 root handle 2: flowctl
	check_err $? "replace by a flowctl with another handle"
	check_eq "$(ip netns exec "$D" tc -j qdisc show dev r0 | jq -r '.[0].handle')" "2:" \
		"the root's handle after the replace"
	check_eq "$(r0_limits)" "[$def]" "r0 in the dump after the replace (the new qdisc, once)"
	check_eq "$(r0_brief)" '["r0"]' "r0 in the brief dump after the replace"
	fc "$D" set dev r0 limit 400000
	check_eq "$(r0_limits)" "[400000]" "a set reaches the port the dump lists"
	ip netns exec "$D" tc qdisc replace dev r0 root pfifo_fast
	check_eq "$(r0_limits)$(r0_brief)" "[][]" "r0 in the dumps under pfifo_fast"
	# The kernel refuses it (tc's flowctl plugin sends the options).
	TC_LIB_DIR=$TOP/userland/tc ip netns exec "$D" tc qdisc replace dev r0 root \
		handle 3: flowctl xoff 1000 xon 2000 >/dev/null 2>&1
	check_fail $? "an attach with xon above xoff succeeded"
	check_eq "$(r0_limits)$(r0_brief)" "[][]" "r0 in the dumps after a refused attach"
	ip netns exec "$D" tc qdisc replace dev r0 root flowctl
	check_eq "$(r0_limits)" "[$def]" "r0 in the dump after a new attach"
	ip netns exec "$D" tc qdisc del dev r0 root
	check_eq "$(r0_limits)$(r0_brief)" "[][]" "r0 in the dumps after a delete"
	ip -n "$D" link del r0
	log_test "the dump lists what is the root: replace, refused attach, delete"
}

dump_netns()
{
	ip -n "$C" link add name c0 type veth peer name c1
	ip netns exec "$C" tc qdisc add dev c0 root flowctl
	ip netns exec "$C" tc qdisc add dev c1 root flowctl
	check_eq "$(fc "$C" -j show | jq -c '[.[].ifname] | sort')" '["c0","c1"]' \
		"ports seen from ns C"
	fc "$C" show dev a0 >/dev/null 2>&1
	check_fail $? "ns C can see a0 of ns A"
	fc "$C" set dev a0 mode off >/dev/null 2>&1
	check_fail $? "ns C can set a0 of ns A"
	check_eq "$(fc_get "$A" a0 .mode)" pause "a0 mode after ns C tried"
	log_test "each namespace sees and changes only its own ports"
}

perms()
{
	# As root, dropping a capability from the bounding and inheritable
	# sets removes it from what the exec'd CLI gets.
	local unpriv="setpriv --inh-caps=-net_admin --bounding-set=-net_admin"
	local msg rc

	msg=$(ip netns exec "$A" $unpriv flowctl -j show dev a0 2>&1)
	check_err $? "get without CAP_NET_ADMIN failed: $msg"
	msg=$(ip netns exec "$A" $unpriv flowctl set dev a0 mode off 2>&1)
	check_fail $? "set without CAP_NET_ADMIN succeeded"
	echo "$msg" | grep -qi "permission"
	check_err $? "unprivileged set: message does not say permission: $msg"
	check_eq "$(fc_get "$A" a0 .mode)" pause "mode after an unprivileged set"
	msg=$(ip netns exec "$A" $unpriv flowctl stats reset dev a0 2>&1)
	check_fail $? "stats reset without CAP_NET_ADMIN succeeded"
	# The events group names partners' MACs: joining it needs the
	# capability (a monitor that joined waits for an event: timeout's 124).
	msg=$(ip netns exec "$A" $unpriv timeout 5 flowctl monitor dev a0 count 1 2>&1)
	rc=$?
	check_eq "$rc $msg" "1 permission denied: monitor needs CAP_NET_ADMIN" \
		"flowctl monitor without CAP_NET_ADMIN: exit status and words"
	log_test "get is open to all; set, reset and the events group need CAP_NET_ADMIN"
}

# pause-end's time_ns is how long the gate was closed: a pause that runs
# out was closed for exactly its time (the gate opens at that instant; the
# gap a receiver sees is rx_pause.sh's); one ended early by XON, for the
# time from its frame to the XON, which the test brackets with its clock.
events()
{
	local out=$TMP/events t0 t1 t2 t3

	fc "$A" set dev a0 mode pause speed 10
	fc "$A" -j monitor dev a0 count 5 >"$out" &
	local mp=$!
	sleep 1
	fc "$A" set dev a0 quanta 100
	# 2000 quanta at 10 Mb/s: 102.4 ms, then it ends by itself.
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 2000)"
	sleep 0.5
	# 65535 quanta (3.36 s), ended by XON about 0.3 s later.
	t0=$(date +%s%N)
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)"
	t1=$(date +%s%N)
	sleep 0.3
	t2=$(date +%s%N)
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)"
	t3=$(date +%s%N)
	for _ in $(seq 1 50); do
		kill -0 $mp 2>/dev/null || break
		sleep 0.1
	done
	kill $mp 2>/dev/null
	wait $mp 2>/dev/null
	log_info "$(cat "$out")"
	check_eq "$(jq -s 'length' "$out")" 5 "events received"
	check_eq "$(jq -rs '.[0].type' "$out")" config "first event"
	check_eq "$(jq -rs '.[1].type' "$out")" pause-start "second event"
	check_eq "$(jq -rs '.[1].quanta' "$out")" 2000 "pause-start quanta"
	check_eq "$(jq -rs '.[1].dir' "$out")" rx "pause-start direction"
	check_eq "$(jq -rs '.[2].type' "$out")" pause-end "third event"
	check_range "$(jq -rs '.[2].time_ns' "$out")" 102400000 102400000 \
		"pause-end length (ns) of a pause that ran out"
	check_eq "$(jq -rs '.[3].type' "$out")" pause-start "fourth event"
	check_eq "$(jq -rs '.[3].quanta' "$out")" 65535 "second pause-start quanta"
	check_eq "$(jq -rs '.[4].type' "$out")" pause-end "fifth event"
	check_range "$(jq -rs '.[4].time_ns' "$out")" $((t2 - t1)) $((t3 - t0)) \
		"pause-end length (ns) of a pause ended by XON, against the test's clock"
	fc "$A" set dev a0 speed 100
	log_test "events: config change, pause start and end"
}

# event_storm: a partner toggling PFC on all eight priorities as fast as
# it can, with a listener. Each frame moves eight gates: 16 events a pair
# of frames. The port sends one message per frame at most and 1000 per
# second at most (bursts of 64); every event is either in a message or
# counted in events_suppressed, and the monitor says how many it missed.
event_storm()
{
	local out=$TMP/storm pairs=${FLOWCTL_STORM_PAIRS:-3000} mp t0 t1 s
	local xoff xon entries sup msgs frames bound

	fc "$A" stats reset dev a0
	fc "$A" set dev a0 mode pfc pfc-prios 0,1,2,3,4,5,6,7 speed 100 rx on
	fc "$A" -j monitor dev a0 >"$out" 2>"$out.err" &
	mp=$!
	sleep 1
	xoff=$(pfc_hex "$MAC_B" 0xff 65535 65535 65535 65535 65535 65535 65535 65535)
	xon=$(pfc_hex "$MAC_B" 0xff 0 0 0 0 0 0 0 0)
	t0=$(date +%s%N)
	ip netns exec "$B" "$FCTEST" raw b0 "$xoff,$xon" count $((2 * pairs)) interval-us 20
	t1=$(date +%s%N)
	sleep 1
	kill $mp 2>/dev/null
	wait $mp 2>/dev/null
	s=$(fc "$A" -j -s show dev a0)
	frames=$(echo "$s" | jq '.[0].stats.rx_pfc')
	sup=$(echo "$s" | jq '.[0].stats.events_suppressed')
	entries=$(jq -s '[.[] | select(.type == "pause-start" or .type == "pause-end")] | length' "$out")
	msgs=$(jq -s '[.[] | select(.type != "suppressed") | .timestamp_ns] | unique | length' "$out")
	bound=$((64 + (t1 - t0 + 1999999999) / 1000000))
	log_info "$frames frames in $(((t1 - t0) / 1000000)) ms: $msgs messages ($entries events) reported, $sup suppressed; bound $bound messages"
	check_eq "$frames" $((2 * pairs)) "PFC frames that reached a0"
	check_eq "$(cat "$out.err")" "" "the monitor's warnings"
	check_eq "$((entries + sup))" $((16 * pairs)) "events reported + suppressed"
	[ "$msgs" -le "$bound" ] && [ "$msgs" -le "$frames" ]
	check_err $? "$msgs messages: more than one per frame or past 1000/s + 64"
	# What the monitor was told: the suppressed counts that came with
	# later messages (those after the last message stay in the counter).
	local told
	told=$(jq -s '[.[] | select(.type == "suppressed") | .events] | add // 0' "$out")
	[ "$told" -le "$sup" ]
	check_err $? "the monitor was told of $told suppressed events, more than the $sup counted"
	# More frames than the bound allows messages: some events must have
	# been held back, and the monitor told. A kernel slower than the bound
	# (the debug kernel takes some 300 frames/s) cannot reach it.
	if [ "$frames" -gt "$bound" ]; then
		[ "$sup" -gt 0 ] && [ "$told" -gt 0 ]
		check_err $? "$frames frames past a bound of $bound messages, but $sup suppressed, $told told"
	else
		log_info "$frames frames within the bound of $bound messages: suppression not reached"
	fi
	fc "$A" set dev a0 mode pause speed 100
	log_test "an event storm: one message per frame at most, 1000/s, the rest counted"
}

# The monitor's warning when the kernel dropped events for it. Asked for
# rcvbuf 4096 it gets no more than rmem_max, set to 4096 here; stopped
# while PFC frames toggle eight priorities, its buffer overflows. It must
# say so on stderr and go on.
events_lost()
{
	local out=$TMP/lost rmem mp xoff xon alive=0 n0 i

	rmem=$(sysctl -n net.core.rmem_max)
	RMEM_SAVED=$rmem
	sysctl -qw net.core.rmem_max=4096
	fc "$A" set dev a0 mode pfc pfc-prios all speed 100 rx on
	# A buffer within rmem_max (4096): a stopped monitor overflows it.
	ip netns exec "$A" flowctl -j monitor dev a0 rcvbuf 4096 >"$out" 2>"$out.err" &
	mp=$!
	MONITOR_PID=$mp
	# The monitor is listening once it prints a config event (on the debug
	# kernel it can take longer than a second to get there).
	for i in $(seq 100); do
		fc "$A" set dev a0 quanta $((60000 + i))
		[ -s "$out" ] && break
		sleep 0.1
	done
	[ -s "$out" ]
	check_err $? "the monitor never printed the config event (precondition)"
	kill -STOP $mp
	xoff=$(pfc_hex "$MAC_B" 0xff 65535 65535 65535 65535 65535 65535 65535 65535)
	xon=$(pfc_hex "$MAC_B" 0xff 0 0 0 0 0 0 0 0)
	ip netns exec "$B" "$FCTEST" raw b0 "$xoff,$xon" count 400 interval-us 100
	sleep 0.5
	n0=$(wc -l <"$out")
	kill -CONT $mp
	# It goes on: what comes after the overflow is printed too.
	for i in $(seq 100); do
		grep -q 'Warning: events lost' "$out.err" && [ "$(wc -l <"$out")" -gt "$n0" ] && break
		ip netns exec "$B" "$FCTEST" raw b0 "$xoff,$xon" count 1 >/dev/null
		sleep 0.1
	done
	kill -0 $mp 2>/dev/null && alive=1
	kill $mp 2>/dev/null
	wait $mp 2>/dev/null
	sysctl -qw net.core.rmem_max="$rmem"
	RMEM_SAVED= MONITOR_PID=
	log_info "monitor stderr: $(tr '\n' ' ' <"$out.err"); $(wc -l <"$out") events printed"
	grep -q 'Warning: events lost' "$out.err"
	check_err $? "no warning from a monitor whose buffer overflowed"
	check_eq "$alive" 1 "the monitor still running after the overflow"
	[ "$(wc -l <"$out")" -gt "$n0" ]
	check_err $? "the monitor printed nothing after the overflow ($n0 lines before)"
	fc "$A" set dev a0 mode pause quanta 65535
	log_test "the monitor warns that events were lost, and goes on"
}

# watch_verdicts: PAUSE frames through every interval read "steady"; one
# burst at the start and nothing after reads "bursty".
watch_verdicts()
{
	local out=$TMP/watch v

	fc "$A" set dev a0 mode pause speed 100
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 10)" \
		count 60 interval-us 50000 &
	local inj=$!
	fc "$A" -j watch dev a0 interval 0.5 count 5 >"$out"
	wait $inj
	v=$(jq -r '.[0].verdicts[] | select(.counter == "rx_pause") | .verdict' "$out" 2>/dev/null ||
	    jq -r '.verdicts[] | select(.counter == "rx_pause") | .verdict' "$out")
	check_eq "$v" steady "rx_pause verdict with PAUSE in every interval"
	# The burst lands in the third of six 1 s intervals: late enough that
	# watch has taken its first sample even on a slow VM.
	fc "$A" -j watch dev a0 interval 1 count 6 >"$out" &
	local w=$!
	sleep 2.5
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 10)" count 20
	wait $w
	v=$(jq -r '.[0].verdicts[] | select(.counter == "rx_pause") | .verdict' "$out" 2>/dev/null ||
	    jq -r '.verdicts[] | select(.counter == "rx_pause") | .verdict' "$out")
	check_eq "$v" bursty "rx_pause verdict with one burst at the start"
	log_test "watch tells steady from bursty growth"
}

send_tshark()
{
	local pcap=$TMP/send.pcap cap fields

	if ! command -v tshark >/dev/null; then
		log_skip "flowctl send decoded by tshark" "no tshark"
		return
	fi
	capture "$B" b0 "$pcap" 'ether proto 0x8808'
	check_err $? "tcpdump did not start on b0"
	cap=$CAP_PID
	fc "$A" send dev a0 pause 1234 >/dev/null
	check_err $? "send pause"
	fc "$A" send dev a0 xon >/dev/null
	check_err $? "send xon"
	fc "$A" send dev a0 pfc 3:100,5:65535 >/dev/null
	check_err $? "send pfc"
	fc "$A" send dev a0 pause 7 count 3 interval 1000 >/dev/null
	check_err $? "send pause count 3"
	sleep 1
	kill $cap
	wait $cap 2>/dev/null
	fields=$(tshark -r "$pcap" -T fields -E separator=, -e frame.len -e eth.dst \
		-e macc.opcode -e macc.pause_time -e macc.cbfc.enbv \
		-e macc.cbfc.pause_time.c3 -e macc.cbfc.pause_time.c5 2>/dev/null)
	log_info "$(echo "$fields" | tr '\n' ' ')"
	check_eq "$(echo "$fields" | wc -l)" 6 "frames captured"
	check_eq "$(echo "$fields" | sed -n 1p)" "60,01:80:c2:00:00:01,0x0001,1234,,," "PAUSE 1234"
	check_eq "$(echo "$fields" | sed -n 2p)" "60,01:80:c2:00:00:01,0x0001,0,,," "XON"
	check_eq "$(echo "$fields" | sed -n 3p | cut -d, -f1-3,5-)" \
		"60,01:80:c2:00:00:01,0x0101,0x0028,100,65535" "PFC 3:100,5:65535"
	check_eq "$(echo "$fields" | sed -n 6p)" "60,01:80:c2:00:00:01,0x0001,7,,," "PAUSE 7 (third of three)"
	log_test "flowctl send: frames decoded by tshark"
}

ynl_dump_set()
{
	local ynl=${FLOWCTL_YNL:-$TOP/build/ksrc/tools/net/ynl/cli.py}
	local spec=$TOP/Documentation/netlink/specs/flowctl.yaml out
	local schema=$TOP/build/ksrc/Documentation/netlink/genetlink-legacy.yaml

	if [ ! -e "$ynl" ]; then
		log_skip "YNL spec driven by ynl" "ynl not extracted (make check does it)"
		return
	fi
	out=$(ip netns exec "$A" /usr/bin/python3 "$ynl" --spec "$spec" --schema "$schema" --dump dev-get \
		--output-json 2>&1)
	check_err $? "ynl dump failed: $out"
	check_eq "$(echo "$out" | jq 'length')" 81 "ports in the ynl dump"
	out=$(ip netns exec "$A" /usr/bin/python3 "$ynl" --spec "$spec" --schema "$schema" --dump dev-get \
		--json '{"brief": true}' --output-json 2>&1)
	check_err $? "ynl brief dump failed: $out"
	check_eq "$(echo "$out" | jq '[.[] | select(has("paused") and has("backlog-bytes")
		and (has("prio") or has("stats") | not))] | length')" 81 \
		"ports in ynl's brief dump with the port's state and no counters"
	out=$(ip netns exec "$A" /usr/bin/python3 "$ynl" --spec "$spec" --schema "$schema" --do dev-set \
		--json '{"ifname": "a0", "mode": "pfc", "pfc-prios": 24, "speed": 25000}' 2>&1)
	check_err $? "ynl set failed: $out"
	check_eq "$(fc_get "$A" a0 .mode)" pfc "mode after the ynl set"
	check_eq "$(fc "$A" -j show dev a0 | jq -c '.[0].pfc_prios')" "[3,4]" "pfc_prios after the ynl set"
	out=$(ip netns exec "$A" /usr/bin/python3 "$ynl" --spec "$spec" --schema "$schema" --do dev-get \
		--json '{"ifname": "a0"}' --output-json 2>&1)
	check_eq "$(echo "$out" | jq -r '.mode')" pfc "ynl get mode"
	check_eq "$(echo "$out" | jq -r '.speed')" 25000 "ynl get speed"
	check_eq "$(echo "$out" | jq -r '.prio | length')" 8 "ynl get prio nests"
	log_test "ynl drives the YAML spec: dump, brief dump, set, get"
}

# promtool: FLOWCTL_PROMTOOL, one on PATH, or the one scripts/deps.sh
# unpacked into a cache on the host (shared read-only with the VM).
promtool_path()
{
	local h

	[ -n "${FLOWCTL_PROMTOOL:-}" ] && { echo "$FLOWCTL_PROMTOOL"; return; }
	command -v promtool && return
	for h in /root /home/*; do
		[ -x "$h/.cache/flowctl/promtool/usr/bin/promtool" ] &&
			{ echo "$h/.cache/flowctl/promtool/usr/bin/promtool"; return; }
	done
}

# flowctl metrics on a live port: promtool accepts the exposition, and
# its samples are the counters show reports (5 PFC frames for priority 3,
# which stays paused).
metrics_promtool()
{
	local pt m s

	pt=$(promtool_path)
	if [ -z "$pt" ]; then
		log_skip "flowctl metrics judged by promtool" "promtool (scripts/deps.sh fetches it)"
		return
	fi
	# 65535 quanta at 10 Mb/s: 3.4 s, time enough to look.
	fc "$A" set dev a0 mode pfc pfc-prios 3 speed 10 rx on
	fc "$A" stats reset dev a0
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 65535)" count 5
	m=$(fc "$A" metrics)
	check_err $? "flowctl metrics failed"
	s=$(fc "$A" -j -s show dev a0)
	echo "$m" | "$pt" check metrics
	check_err $? "promtool check metrics refused flowctl metrics"
	echo "$m" | grep -qx 'flowctl_pfc_frames_total{device="a0",dir="rx"} 5'
	check_err $? "flowctl_pfc_frames_total rx is not 5"
	echo "$m" | grep -qx 'flowctl_prio_pfc_frames_total{device="a0",prio="3",dir="rx"} 5'
	check_err $? "priority 3's PFC frames received is not 5"
	echo "$m" | grep -qx 'flowctl_paused{device="a0",prio="3"} 1'
	check_err $? "priority 3 not paused in the metrics"
	echo "$m" | grep -qx 'flowctl_paused{device="a0",prio="0"} 0'
	check_err $? "priority 0 paused in the metrics"
	check_eq "$(echo "$m" | grep -c '^flowctl_drops_total{device="a0",')" 8 "priorities with a drops sample"
	check_eq "$(echo "$m" | sed -n 's/^flowctl_ignored_frames_total{device="a0",dir="rx"} //p')" \
		"$(echo "$s" | jq '.[0].stats.rx_ignored')" "rx_ignored: metrics vs show"
	echo "$m" | grep -q 'flowctl_port_info{device="a0",mode="pfc",rx="on",'
	check_err $? "flowctl_port_info does not carry mode pfc, rx on"
	fc "$A" metrics dev nosuch0 >/dev/null 2>&1
	check_eq $? 1 "flowctl metrics dev nosuch0: exit status"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 0)"
	fc "$A" set dev a0 mode pause speed auto
	log_test "flowctl metrics: promtool accepts it, its samples are the port's counters"
}

cleanup()
{
	# events_lost interrupted: its monitor stopped, rmem_max lowered.
	[ -z "$MONITOR_PID" ] || kill -CONT "$MONITOR_PID" 2>/dev/null
	[ -z "$RMEM_SAVED" ] || sysctl -qw net.core.rmem_max="$RMEM_SAVED"
	cleanup_ns
	rm -rf "$TMP"
}

setup_prepare || setup_failed
run_tests
