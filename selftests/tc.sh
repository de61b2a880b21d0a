#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's own tc drives flowctl: options at add, change and replace (parsed
# by q_flowctl.so, checked in the kernel by the validator "flowctl set"
# uses), shown in tc's text and JSON, the state in force and the counters
# in "tc -s" (the qdisc's xstats), refusals through tc's error path with the
# kernel's words, and a tc without the plugin.
#
#   +-- ns A --+        +-- ns B --+
#   | a0       |========| b0       |
#   | flowctl  |  veth  | sends    |
#   +----------+        +----------+

ALL_TESTS="add_with_options watchdog_options change_and_replace refused show_stats
	   watchdog_xstats classes output_goes_back_in no_plugin"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc

PLUGIN_DIR=$TOP/userland/tc

# tcp NS ARGS...: tc with flowctl's plugin
tcp()
{
	local ns=$1

	shift
	TC_LIB_DIR=$PLUGIN_DIR ip netns exec "$ns" tc "$@"
}

topology()
{
	cleanup_ns
	setup_ns A B
	veth_pair "$A" a0 "$B" b0
	[ -f "$PLUGIN_DIR/q_flowctl.so" ] || { echo "no $PLUGIN_DIR/q_flowctl.so"; return 1; }
}

# opts NS DEV: the qdisc's options as tc -j prints them
opts()
{
	tcp "$1" -j qdisc show dev "$2" | jq -c '.[] | select(.kind == "flowctl") | .options'
}

add_with_options()
{
	local o s

	topology || { check_err 1 "setup failed"; log_test "tc qdisc add with options"; return; }
	tcp "$A" qdisc add dev a0 root flowctl mode pfc pfc-prios 3,4 trust dscp \
		speed 100 xoff 64k xon 32k prio 3 xoff 20k xon 10k quanta 1000 prio-tc numeric
	check_err $? "tc qdisc add with options failed"
	s=$(fc "$A" -j show dev a0)
	check_eq "$(echo "$s" | jq -c '.[0] | [.mode, .pfc_prios, .trust, .speed_config_mbps, .xoff_bytes, .xon_bytes, .quanta, .prio_tc]')" \
		'["pfc",[3,4],"dscp",100,65536,32768,1000,[0,1,2,3,4,5,6,7]]' \
		"flowctl show after tc qdisc add"
	check_eq "$(echo "$s" | jq -c '.[0].prio[3] | [.xoff_bytes, .xon_bytes]')" '[20480,10240]' \
		"priority 3's thresholds after tc qdisc add"
	o=$(opts "$A" a0)
	log_info "tc -j: $o"
	check_eq "$(echo "$o" | jq -c '[.mode, .rx, .tx, .pfc_prios, .trust, .speed_config_mbps, .rate_bps, .xoff_bytes, .xon_bytes, .quanta, .prio_tc, .prio]')" \
		'["pfc",true,false,[3,4],"dscp",100,0,65536,32768,1000,[0,1,2,3,4,5,6,7],[{"prio":3,"xoff_bytes":20480,"xon_bytes":10240}]]' \
		"tc -j qdisc show: the options as set"
	# 1000 quanta of 512 bit times at 100 Mb/s: 5.12 ms.
	check_eq "$(echo "$o" | jq -c .quanta_ns)" 5120000 "tc -j: the quanta's time at the speed in use"
	tcp "$A" -s qdisc show dev a0 | grep -q "in force: speed 100Mb/s (config) quanta last 5.12 ms "
	check_err $? "tc -s does not say how long the quanta last: $(tcp "$A" -s qdisc show dev a0 | grep 'in force')"
	s=$(tcp "$A" -d qdisc show dev a0)
	log_info "tc -d: $s"
	echo "$s" | grep -q "flowctl 8[0-9a-f]*: root .*mode pfc rx on tx off pfc-prios 3,4 trust dscp speed 100Mbit rate off .* xoff 64Kb xon 32Kb quanta 1000 prio-tc 0,1,2,3,4,5,6,7 ets off prio 3 xoff 20Kb xon 10Kb"
	check_err $? "tc qdisc show does not print the options in tc's grammar"
	# What show prints is what add takes: the same options on b0.
	s=$(tcp "$A" -d qdisc show dev a0 |
		sed -n 's/^qdisc flowctl [0-9a-f]*: root \(refcnt [0-9]* \)\{0,1\}//p')
	# shellcheck disable=SC2086 # the words of the options
	tcp "$B" qdisc add dev b0 root flowctl $s
	check_err $? "tc qdisc add with the options tc qdisc show printed: $s"
	check_eq "$(opts "$B" b0)" "$o" "b0's options, from a0's tc qdisc show"
	log_test "tc qdisc add with options: set as flowctl set sets them, shown in text and JSON"
}

# The watchdog's and the storm guard's words, through tc and back.
watchdog_options()
{
	local o s

	topology || { check_err 1 "setup failed"; log_test "tc: the watchdog's options"; return; }
	tcp "$A" qdisc add dev a0 root flowctl mode pfc pfc-prios 3 speed 100 \
		watchdog 300 wd-restoration 1000 wd-action alert tx-storm 500
	check_err $? "tc qdisc add with the watchdog's options failed"
	o=$(opts "$A" a0)
	check_eq "$(jq -c '[.wd_detect_ms, .wd_restore_ms, .wd_action, .tx_storm_ms]' <<<"$o")" \
		'[300,1000,"alert",500]' "tc -j qdisc show: the watchdog and the guard"
	check_eq "$(fc "$A" -j watchdog dev a0 | jq -c '.[0] | [.detection_ms, .restoration_ms, .action]')" \
		'[300,1000,"alert"]' "flowctl watchdog after tc qdisc add"
	s=$(tcp "$A" -d qdisc show dev a0 |
		sed -n 's/^qdisc flowctl [0-9a-f]*: root \(refcnt [0-9]* \)\{0,1\}//p')
	grep -q 'watchdog 300ms wd-restoration 1s wd-action alert tx-storm 500ms' <<<"$s"
	check_err $? "tc qdisc show's text: $s"
	# shellcheck disable=SC2086 # the words of the options
	tcp "$B" qdisc add dev b0 root flowctl $s
	check_err $? "tc qdisc add with what tc qdisc show printed: $s"
	check_eq "$(opts "$B" b0)" "$o" "b0's options, from a0's tc qdisc show"
	tcp "$A" qdisc change dev a0 root flowctl watchdog off tx-storm off
	check_eq "$(opts "$A" a0 | jq -c '[.wd_detect_ms, .tx_storm_ms]')" '[0,0]' "after change watchdog off tx-storm off"
	tcp "$A" -d qdisc show dev a0 | grep -q 'watchdog\|tx-storm'
	check_fail $? "tc qdisc show names the watchdog or the guard once off"
	log_test "tc: the watchdog's and the storm guard's options, set, shown and fed back"
}

change_and_replace()
{
	local before after

	topology || { check_err 1 "setup failed"; log_test "tc qdisc change"; return; }
	tcp "$A" qdisc add dev a0 root flowctl mode pfc pfc-prios 3 speed 100
	check_err $? "tc qdisc add failed"
	fc "$A" set dev a0 rate 100mbit
	before=$(opts "$A" a0)
	tcp "$A" qdisc change dev a0 root flowctl quanta 2000 tx on
	check_err $? "tc qdisc change failed"
	after=$(opts "$A" a0)
	check_eq "$(echo "$after" | jq -c '[.quanta, .quanta_ns, .tx]')" '[2000,10240000,true]' "the changed options"
	check_eq "$(echo "$after" | jq -c 'del(.quanta, .quanta_ns, .tx)')" "$(echo "$before" | jq -c 'del(.quanta, .quanta_ns, .tx)')" \
		"what change did not name (mode, pfc-prios, speed, and the rate flowctl set gave)"
	# replace of a flowctl by a flowctl is a change: the port stays.
	tcp "$A" qdisc replace dev a0 root flowctl mode pause
	check_err $? "tc qdisc replace failed"
	check_eq "$(opts "$A" a0 | jq -c '[.mode, .quanta, .rate_bps]')" '["pause",2000,100000000]' \
		"after replace: mode changed, the rest kept"
	log_test "tc qdisc change and replace set only what is given"
}

# refused_by_kernel WHAT WORDS...: tc qdisc change refused with WHAT said, options unchanged
refused_by_kernel()
{
	local what=$1 before msg

	shift
	before=$(opts "$A" a0)
	msg=$(tcp "$A" qdisc change dev a0 root flowctl "$@" 2>&1)
	check_fail $? "tc qdisc change $* succeeded"
	echo "$msg" | grep -qF "$what"
	check_err $? "tc qdisc change $*: said '$msg', not '$what'"
	check_eq "$(opts "$A" a0)" "$before" "options after a refused change ($*)"
	log_info "tc qdisc change $*: $msg"
}

refused()
{
	local msg fmsg

	topology || { check_err 1 "setup failed"; log_test "tc refusals"; return; }
	tcp "$A" qdisc add dev a0 root flowctl
	check_err $? "tc qdisc add failed"
	# The kernel's validator: the same words flowctl set gets.
	refused_by_kernel "xoff leaves no headroom" xoff 1000k
	fmsg=$(fc "$A" set dev a0 xoff 1000k 2>&1)
	msg=$(tcp "$A" qdisc change dev a0 root flowctl xoff 1000k 2>&1)
	echo "$msg" | grep -qF "$(echo "$fmsg" | sed -n 's/^Error: \([^(]*\).*/\1/p' | sed 's/ *$//')"
	check_err $? "tc and flowctl set word the refusal differently: '$msg' vs '$fmsg'"
	refused_by_kernel "xon must be below xoff" xoff 64k xon 64k
	refused_by_kernel "speed below Ethernet's 10 Mb/s" speed 5
	# The plugin's parser: tc's error path, nothing sent.
	refused_by_kernel 'invalid mode "bogus"' mode bogus
	refused_by_kernel 'did you mean xoff or xon?' x 1
	# A refused add attaches nothing.
	msg=$(tcp "$B" qdisc add dev b0 root flowctl xoff 64k xon 64k 2>&1)
	check_fail $? "tc qdisc add with xon = xoff succeeded"
	tcp "$B" qdisc show dev b0 | grep -q flowctl
	check_fail $? "a refused tc qdisc add left a flowctl on b0"
	log_test "refused options: tc's error path with the kernel's words, nothing changed"
}

show_stats()
{
	local j x mac_b

	topology || { check_err 1 "setup failed"; log_test "tc -s xstats"; return; }
	tcp "$A" qdisc add dev a0 root flowctl mode pause speed 100
	check_err $? "tc qdisc add failed"
	mac_b=$(mac_of "$B" b0)
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$mac_b" 65535)" count 3 interval-us 1000
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$mac_b" 0)" count 1 interval-us 1000
	sleep 0.2
	j=$(tcp "$A" -j -s qdisc show dev a0 | jq -c '.[] | select(.kind == "flowctl")')
	log_info "tc -j -s: $j"
	x=$(echo "$j" | jq -c '[.speed_mbps, .speed_source, .rx_pause, .rx_xon, .tx_pause]')
	check_eq "$x" '[100,"config",3,1,0]' "tc -j -s: speed in force and the PAUSE counters"
	check_eq "$(echo "$j" | jq '.rx_pause')" "$(fc_get "$A" a0 .stats.rx_pause)" \
		"tc's rx_pause and flowctl's"
	check_eq "$(echo "$j" | jq '.headroom_bytes')" "$(fc_get "$A" a0 .headroom_bytes)" \
		"tc's headroom and flowctl's"
	tcp "$A" -s qdisc show dev a0 | grep -q "in force: speed 100Mb/s (config) quanta last [0-9.]* ms headroom"
	check_err $? "tc -s qdisc show does not say what is in force"
	tcp "$A" -s qdisc show dev a0 | grep -q "rx pause 3 xon 1 pfc 0"
	check_err $? "tc -s qdisc show does not show the counters"
	log_test "tc -s and tc -j -s show the state in force and flowctl's counters"
}

# The watchdog in tc -s: priority 3 stormed by B's PFC (65535 quanta, 335 ms
# at speed 100, every 100 ms) while a0 holds packets on it; tc's figures
# against flowctl's.
watchdog_xstats()
{
	local j t f mac_b sp i

	topology || { check_err 1 "setup failed"; log_test "tc -s: the watchdog"; return; }
	tcp "$A" qdisc add dev a0 root flowctl mode pfc pfc-prios 3 speed 100 \
		watchdog 200 wd-action drop
	check_err $? "tc qdisc add failed"
	ip -n "$A" addr add 198.18.0.1/24 dev a0
	ip -n "$A" neigh add 198.18.0.2 lladdr "$(mac_of "$B" b0)" dev a0 nud permanent
	mac_b=$(mac_of "$B" b0)
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$mac_b" 0x08 0 0 0 65535)" \
		count 200 interval-us 100000 &
	sp=$!
	for ((i = 0; i < 40; i++)); do
		[ "$(fc_get "$A" a0 .prio[3].paused)" = true ] && break
		sleep 0.1
	done
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 9000 0 20 prio 3 size 500 >/dev/null
	for ((i = 0; i < 40; i++)); do
		[ "$(fc_get "$A" a0 .prio[3].wd_state)" = stormed ] && break
		sleep 0.1
	done
	# Read while the storm lasts (it ends with the sender: the watchdog
	# restores 400 ms later).
	j=$(tcp "$A" -j -s qdisc show dev a0 | jq -c '.[] | select(.kind == "flowctl")')
	t=$(tcp "$A" -s qdisc show dev a0)
	f=$(fc "$A" -j -s show dev a0)
	kill "$sp" 2>/dev/null
	wait "$sp" 2>/dev/null
	log_info "tc -j -s: $(jq -c '{wd_stormed_prios, tx_storm_warning, tx_storm_error, p3: .prio[3]}' <<<"$j")"
	check_eq "$(jq -c '.wd_stormed_prios' <<<"$j")" '[3]' "tc -j -s: the priorities stormed"
	# One naming across the doors: flowctl's keys, tx and rx apart.
	check_eq "$(jq -c '.prio[3] | [.wd_storms, .wd_tx_drop, .wd_rx_drop, has("wd_drops")]' <<<"$j")" \
		"$(jq -c '.[0].prio[3] | [.wd_storms, .wd_tx_drop, .wd_rx_drop, false]' <<<"$f")" \
		"tc's watchdog storms and drops (priority 3) and flowctl's"
	check_eq "$(jq '.prio[3].wd_storms' <<<"$j")" 1 "storms of priority 3 in tc -j -s"
	[ "$(jq '.prio[3].wd_tx_drop + .prio[3].wd_rx_drop' <<<"$j")" -ge 1 ]
	check_err $? "tc -j -s: the watchdog dropped nothing of priority 3's 20 queued packets"
	check_eq "$(jq -c '[.tx_storm_warning, .tx_storm_error]' <<<"$j")" '[0,0]' \
		"tc -j -s: the pause-storm guard's events"
	grep -q "stormed (watchdog): 3" <<<"$t"
	check_err $? "tc -s qdisc show does not name the stormed priority"
	log_test "tc -s and tc -j -s show the watchdog's stormed priorities and counters"
}

classes()
{
	local txt n4 b4 n1 h1 msg

	topology || { check_err 1 "setup failed"; log_test "bands as tc classes"; return; }
	tcp "$A" qdisc add dev a0 root flowctl mode pfc
	check_err $? "tc qdisc add failed"
	ip -n "$A" addr add 198.18.0.1/24 dev a0
	ip -n "$A" neigh add 198.18.0.2 lladdr "$(mac_of "$B" b0)" dev a0 nud permanent
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 9000 0 40 prio 3 size 500 >/dev/null
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 9000 0 7 prio 0 size 200 >/dev/null
	# Debian 12's tc (6.1) prints classes as text only (JSON came in 6.2):
	#   class flowctl 8001:4 root
	#    Sent 21000 bytes 40 pkt (dropped 0, overlimits 0 requeues 0)
	txt=$(tcp "$A" -s class show dev a0 |
		awk '/^class flowctl/ { h = $3 } /^ *Sent / && h { print h, $2, $4; h = "" }')
	log_info "tc -s class show: $(echo "$txt" | tr '\n' ';')"
	check_eq "$(echo "$txt" | grep -c .)" 8 "classes listed"
	read -r _ b4 n4 <<<"$(echo "$txt" | grep ':4 ')"
	read -r h1 _ n1 <<<"$(echo "$txt" | grep ':1 ')"
	check_eq "$n4" "$(fc_get "$A" a0 .prio[3].tx_packets)" "class :4's packets and priority 3's tx_packets"
	check_eq "$b4" "$(fc_get "$A" a0 .prio[3].tx_bytes)" "class :4's bytes and priority 3's tx_bytes"
	[ "${n4:-0}" -ge 40 ] && [ "${n1:-0}" -ge 7 ]
	check_err $? "class :4 sent ${n4:-?} (want >= 40), class :1 sent ${n1:-?} (want >= 7)"
	msg=$(tcp "$A" qdisc add dev a0 parent "$h1" pfifo 2>&1)
	check_fail $? "a qdisc was grafted under flowctl's class $h1"
	echo "$msg" | grep -q "flowctl's bands take no child qdisc"
	check_err $? "grafting under $h1: '$msg'"
	log_test "the bands as tc classes: tc -s class show gives each priority's counters"
}

# cfg NS DEV: the configuration as flowctl -j show gives it (set's keys)
cfg()
{
	fc "$1" -j show dev "$2" | jq -c '.[0] | [.mode, .rx, .tx, .pfc_prios, .trust,
		.speed_config_mbps, .rate_bps, .limit_bytes, .xoff_bytes, .xon_bytes, .quanta,
		.prio_tc, .tc_bw, .wd_detect_ms, .wd_restore_ms, .wd_action, .tx_storm_ms,
		.round_trip_bits, ([.prio[] | [.xoff_bytes, .xon_bytes]])]'
}

# What show and tc -d print, every setting given, goes back in unchanged:
# flowctl set takes show's first line, tc qdisc change takes tc -d's options.
output_goes_back_in()
{
	local want line o j

	topology || { check_err 1 "setup failed"; log_test "output goes back in"; return; }
	tcp "$A" qdisc add dev a0 root flowctl
	fc "$A" set dev a0 mode pfc rx on tx on pfc-prios 3,4 trust dscp speed 10G \
		rate 1gbit limit 2m xoff 256k xon 128k quanta 30000 prio-tc numeric \
		ets 0:20,3:50,4:30 watchdog 300ms wd-restoration 1s wd-action forward \
		tx-storm 500ms round-trip 4096
	check_err $? "flowctl set with every setting"
	want=$(cfg "$A" a0)
	line=$(fc "$A" show dev a0 | head -n 1 | sed 's/^a0: //')
	log_info "show: $line"
	tcp "$A" qdisc replace dev a0 root pfifo_fast
	tcp "$A" qdisc add dev a0 root flowctl
	# shellcheck disable=SC2086 # the words of the line
	fc "$A" set dev a0 $line
	check_err $? "flowctl set refused show's first line: $line"
	check_eq "$(cfg "$A" a0)" "$want" "the configuration after set of show's line"
	o=$(tcp "$A" -d qdisc show dev a0 |
		sed -n 's/^qdisc flowctl [0-9a-f]*: root \(refcnt [0-9]* \)\{0,1\}//p')
	log_info "tc -d: $o"
	# In tc's own units, as tbf prints "rate 1Mbit burst 32Kb".
	grep -q "speed 10Gbit rate 1Gbit limit 2Mb xoff 256Kb xon 128Kb .*watchdog 300ms wd-restoration 1s wd-action forward tx-storm 500ms " <<<"$o"
	check_err $? "tc -d does not print sizes, rates and times in tc's units: $o"
	fc "$A" set dev a0 mode pause rx off tx off pfc-prios none trust pcp speed auto \
		rate off limit 1m xoff 0 xon 0 quanta 65535 prio-tc 8021q ets off \
		watchdog off tx-storm off round-trip 0
	check_err $? "flowctl set back to other values"
	[ "$(cfg "$A" a0)" != "$want" ]
	check_err $? "the reset changed nothing: the change below would prove nothing"
	# shellcheck disable=SC2086 # the words of the options
	tcp "$A" qdisc change dev a0 root flowctl $o
	check_err $? "tc qdisc change refused tc -d's options: $o"
	check_eq "$(cfg "$A" a0)" "$want" "the configuration after tc qdisc change with tc -d's options"
	# And flowctl -j show's output, counters and all, through set's json.
	j=$(mktemp)
	fc "$A" -j -s show dev a0 >"$j"
	fc "$A" set dev a0 mode pause rx off tx off pfc-prios none trust pcp speed auto \
		rate off limit 1m xoff 0 xon 0 quanta 65535 prio-tc 8021q ets off \
		watchdog off tx-storm off round-trip 0
	[ "$(cfg "$A" a0)" != "$want" ]
	check_err $? "the second reset changed nothing"
	fc "$A" set dev a0 json - <"$j"
	check_err $? "flowctl set dev a0 json refused show -j's output: $(head -c 300 "$j")"
	check_eq "$(cfg "$A" a0)" "$want" "the configuration after set json of show -j's output"
	rm -f "$j"
	log_test "show's first line, tc -d's options and show -j's object go back in: set, tc qdisc change and set json take them unchanged"
}

no_plugin()
{
	local out

	topology || { check_err 1 "setup failed"; log_test "tc without the plugin"; return; }
	TC_LIB_DIR=/nonexistent ip netns exec "$A" tc qdisc add dev a0 root flowctl
	check_err $? "tc qdisc add ... flowctl (no options) failed without the plugin"
	check_eq "$(fc_get "$A" a0 .mode)" pause "the mode of a port added without the plugin"
	out=$(TC_LIB_DIR=/nonexistent ip netns exec "$A" tc qdisc add dev a0 root flowctl mode pfc 2>&1)
	check_fail $? "options without the plugin were accepted"
	log_info "options without the plugin: $out"
	TC_LIB_DIR=/nonexistent ip netns exec "$A" tc qdisc show dev a0 | grep -q "qdisc flowctl"
	check_err $? "tc qdisc show without the plugin does not list the qdisc"
	log_test "without q_flowctl.so: a plain add works, options are refused by tc, show lists it"
}

run_tests
