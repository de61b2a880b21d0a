#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The PFC watchdog (Documentation/watchdog.md): a priority its partner keeps
# paused while its band holds packets and sends none is stormed after the
# detection time; the action decides what then; with no PFC for the
# restoration time it is restored. Each storm case runs next to its
# baseline: the same storm with the watchdog off stays paused.
#
#   +-------- ns A --------+        +---- ns B -----+
#   | fctest send prio 3   |        | fctest recv   |
#   | a0 flowctl mode pfc  |========| b0            |
#   |  speed 10, watchdog  |  veth  | PFC prio 3    |
#   +----------------------+        +---------------+

ALL_TESTS="baseline_stays_paused storm_drop storm_forward storm_alert draining_not_stormed
	   starved_not_stormed choppy_storm watchdog_cli on_during_storm pause_mode_storms_as_one
	   drop_spares_control"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc
# Detection and restoration are times: a VM stalled by its host can
# stretch them. Those cases run again on failure.
RETRY_TIMING=1
TIMING_CASES="storm_drop storm_forward storm_alert draining_not_stormed choppy_storm
	      on_during_storm starved_not_stormed pause_mode_storms_as_one drop_spares_control"

TMP=$(mktemp -d)
SENDER=
STORM=
MONITOR=

setup_prepare()
{
	setup_ns A B
	no_ipv6 "$A" "$B" || return 1
	veth_pair "$A" a0 "$B" b0
	ip -n "$A" addr add 198.18.0.1/24 dev a0
	ip -n "$B" addr add 198.18.0.2/24 dev b0
	MAC_B=$(mac_of "$B" b0)
	ip -n "$A" neigh add 198.18.0.2 lladdr "$MAC_B" dev a0 nud permanent
	ip netns exec "$A" tc qdisc add dev a0 root flowctl || return 1
	# A 10 Mb/s wire: the band drains at the line rate, not at once.
	fc "$A" set dev a0 mode pfc pfc-prios 3 speed 10 rate 10mbit || return 1
	ip netns exec "$B" "$FCTEST" recv 7000 100 >/dev/null &
}

cleanup_case()
{
	[ -n "$STORM" ] && kill "$STORM" 2>/dev/null
	[ -n "$SENDER" ] && kill "$SENDER" 2>/dev/null
	[ -n "$MONITOR" ] && kill "$MONITOR" 2>/dev/null
	wait "$STORM" "$SENDER" "$MONITOR" 2>/dev/null
	STORM= SENDER= MONITOR=
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 0)" >/dev/null
	fc "$A" set dev a0 watchdog off >/dev/null
	fc "$A" stats reset dev a0 >/dev/null
}

# storm INTERVAL_US: B sends PFC XOFF for priority 3 (65535 quanta, 3.4 s
# at 10 Mb/s) every INTERVAL_US; A sends at priority 3, so the band fills.
storm()
{
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 7000 1000 100000 prio 3 >/dev/null &
	SENDER=$!
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 65535)" \
		count 100000 interval-us "$1" >/dev/null &
	STORM=$!
}

# wait_state STATE SECONDS: until priority 3's watchdog state is STATE.
wait_state()
{
	local i

	for ((i = 0; i < $2 * 20; i++)); do
		[ "$(fc_get "$A" a0 '.prio[3].wd_state')" = "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

baseline_stays_paused()
{
	local s0 i

	storm 200000
	for ((i = 0; i < 40; i++)); do
		[ "$(fc_get "$A" a0 '.prio[3].paused')" = true ] && break
		sleep 0.05
	done
	s0=$(fc_get "$A" a0 '.prio[3].tx_packets')
	sleep 1.5
	check_eq "$(fc_get "$A" a0 '.prio[3].paused')" true "priority 3 paused by the storm"
	check_eq "$(fc_get "$A" a0 '.prio[3].wd_state')" operational "state with the watchdog off"
	check_eq "$(fc_get "$A" a0 '.prio[3].wd_storms')" 0 "storms with the watchdog off"
	check_eq "$(fc_get "$A" a0 '.prio[3].tx_packets')" "$s0" \
		"packets priority 3 sent in 1.5 s of storm, no watchdog"
	cleanup_case
	log_test "baseline: a storm holds priority 3 for as long as it lasts (no watchdog)"
}

# wait_monitor FILE: until the monitor writing FILE has joined the group.
wait_monitor()
{
	local i

	for ((i = 0; i < 200; i++)); do
		grep -q Monitoring "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# event_ns FILE TYPE: the kernel's stamp (ns) of the first TYPE event for
# priority 3 in a text monitor's FILE, or nothing.
event_ns()
{
	awk -v t="$2" '$0 ~ (" " t " prio 3( |$)") {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\.[0-9]+\]$/) {
				gsub(/[][.]/, "", $i); print $i; exit
			}
	}' "$1"
}

storm_drop()
{
	local mon p0 s0 d

	mon=$TMP/monitor
	ip netns exec "$A" flowctl monitor dev a0 >"$mon" 2>&1 &
	MONITOR=$!
	wait_monitor "$mon"
	check_err $? "flowctl monitor did not start: $(tail -n 2 "$mon")"
	fc "$A" watchdog dev a0 detection 200 action drop
	check_err $? "flowctl watchdog dev a0 detection 200 action drop"
	storm 200000
	wait_state stormed 5
	check_err $? "priority 3 not stormed within 5 s (detection 200 ms)"
	sleep 0.2
	p0=$(event_ns "$mon" pause-start)
	s0=$(event_ns "$mon" storm-start)
	if [ -n "$p0" ] && [ -n "$s0" ]; then
		d=$(((s0 - p0) / 1000000))
		log_info "stormed $d ms after the first PFC closed the gate (detection 200 ms, refresh 200 ms)"
		# Each message is stamped when it is built, a little after its
		# event (some ms under TCG): 10 ms of slack below.
		check_range "$d" 190 400 "ms from the pause's start to storm-start"
	else
		check_err 1 "the monitor saw no pause-start ($p0) or storm-start ($s0): $(tail -n 3 "$mon")"
	fi
	check_eq "$(fc_get "$A" a0 '.prio[3].paused')" false "priority 3's gate once stormed (drop)"
	check_eq "$(fc_get "$A" a0 '.prio[3].wd_storms')" 1 "storms detected"
	sleep 0.5
	d=$(fc_get "$A" a0 '.prio[3].wd_tx_drop')
	[ "$d" -gt 0 ]
	check_err $? "no packet dropped while stormed under drop (wd_tx_drop $d)"
	check_eq "$(fc_get "$A" a0 '.prio[3].backlog_packets')" 0 "priority 3's backlog under drop"
	# The storm stops: restored after 2 x 200 ms without PFC.
	kill "$STORM"; wait "$STORM" 2>/dev/null; STORM=
	wait_state operational 5
	check_err $? "priority 3 not restored within 5 s of the last PFC (restoration 400 ms)"
	check_eq "$(fc_get "$A" a0 '.prio[3].wd_restored')" 1 "storms restored"
	grep -Eq ' storm-end prio 3 after [0-9.]+ m?s$' "$mon"
	check_err $? "the monitor saw no storm-end: $(tail -n 3 "$mon")"
	cleanup_case
	log_test "drop: a storm is detected within detection + one refresh, the queue dropped, and restored after it"
}

# flowctl watchdog shows what the kernel holds, in text, JSON and metrics.
watchdog_cli()
{
	local j mon

	fc "$A" watchdog dev a0 detection 300 restoration 1000 action alert
	check_err $? "flowctl watchdog dev a0 detection 300 restoration 1000 action alert"
	fc "$A" watchdog dev a0 | grep -q '^a0: watchdog 300 ms, restoration 1000 ms, action alert$'
	check_err $? "flowctl watchdog's text: $(fc "$A" watchdog dev a0 | head -n 1)"
	storm 200000
	wait_state stormed 5
	check_err $? "priority 3 not stormed within 5 s (detection 300 ms)"
	j=$(fc "$A" -j watchdog dev a0)
	check_eq "$(jq -r '.[0] | [.on, .detection_ms, .restoration_ms, .restoration_auto, .action] | join(" ")' <<<"$j")" \
		"true 300 1000 false alert" "flowctl -j watchdog: the configuration"
	check_eq "$(jq -r '.[0].prios[3] | [.prio, .state, .storms] | join(" ")' <<<"$j")" \
		"3 stormed 1" "flowctl -j watchdog: priority 3"
	check_eq "$(jq -r '.[0].prios | length' <<<"$j")" 8 "flowctl -j watchdog: all eight priorities"
	fc "$A" watchdog dev a0 | grep -Eq '^  3 +stormed +1 '
	check_err $? "flowctl watchdog's text does not show priority 3 stormed: $(fc "$A" watchdog dev a0)"
	fc "$A" metrics dev a0 | grep -qx 'flowctl_watchdog_stormed{device="a0",prio="3"} 1'
	check_err $? "metrics: flowctl_watchdog_stormed of priority 3 is not 1"
	fc "$A" metrics dev a0 | grep -qx 'flowctl_watchdog_detection_seconds{device="a0"} 0.300'
	check_err $? "metrics: flowctl_watchdog_detection_seconds"
	# A bad word changes nothing.
	fc "$A" watchdog dev a0 detection 50 2>/dev/null
	check_eq $? 2 "exit status of detection 50"
	check_eq "$(fc "$A" -j watchdog dev a0 | jq -r '.[0].detection_ms')" 300 "detection after a refused value"
	mon=$TMP/monitor-off
	ip netns exec "$A" flowctl monitor dev a0 >"$mon" 2>&1 &
	MONITOR=$!
	wait_monitor "$mon"
	fc "$A" watchdog dev a0 off
	check_eq "$(fc "$A" -j watchdog dev a0 | jq -r '.[0].on, .[0].prios[3].state' | paste -sd ' ')" \
		"false operational" "off: the watchdog, and the stormed priority restored"
	sleep 0.3
	grep -Eq ' storm-end prio 3 after ' "$mon"
	check_err $? "no storm-end event when the watchdog was turned off: $(tail -n 3 "$mon")"
	cleanup_case
	log_test "flowctl watchdog sets and shows the watchdog (text, JSON, metrics)"
}

# Mode pause: one gate holds all eight priorities, so they storm as one,
# reported once as the link.
pause_mode_storms_as_one()
{
	local mon

	fc "$A" set dev a0 mode pause watchdog 200 wd-action alert
	mon=$TMP/monitor-pause
	ip netns exec "$A" flowctl monitor dev a0 >"$mon" 2>&1 &
	MONITOR=$!
	wait_monitor "$mon"
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 7000 1000 100000 prio 3 >/dev/null &
	SENDER=$!
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 65535)" \
		count 100000 interval-us 200000 >/dev/null &
	STORM=$!
	wait_state stormed 5
	check_err $? "priority 3 not stormed under PAUSE within 5 s"
	sleep 0.2
	check_eq "$(fc_get "$A" a0 ' | [.prio[].wd_state] | unique | join(",")')" stormed \
		"the eight priorities' states under a link-level storm"
	check_eq "$(grep -c ' storm-start link' "$mon")" 1 "storm-start events, reported as the link"
	check_eq "$(grep -c ' storm-start prio' "$mon")" 0 "storm-start events per priority"
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)" >/dev/null
	fc "$A" set dev a0 mode pfc >/dev/null
	cleanup_case
	log_test "mode pause: the eight priorities storm as one, reported once as the link"
}

# lacp_partner NS BOND: the system MAC the bond's one slave last heard
# from its LACP partner (00:00:00:00:00:00 once the partner timed out).
lacp_partner()
{
	ip netns exec "$1" cat "/proc/net/bonding/$2" |
		awk '/details partner lacp pdu:/ { p = 1 }
		     p && /system mac address:/ { print $NF; exit }'
}

# lacp_heard NS SLAVE: "yes" while the bond's port SLAVE hears its partner's
# LACPDUs (actor not expired, 0x80; partner in sync, 0x08); the MAC above
# outlives the partner by a second timeout, this does not.
lacp_heard()
{
	ip -n "$1" -d -j link show "$2" | jq -r '.[0].linkinfo.info_slave_data |
		if (.ad_actor_oper_port_state / 128 | floor) % 2 == 0 and
		   (.ad_partner_oper_port_state / 8 | floor) % 2 == 1
		then "yes" else "no: actor \(.ad_actor_oper_port_state), partner \(.ad_partner_oper_port_state)" end'
}

# drop takes a storm's data, never the link's own control traffic: an
# 802.3ad bond (LACPDUs every second, a partner unheard for 3 s is lost)
# whose slave is stormed in mode pause, all eight priorities under drop,
# hears its partner at both ends, the DCBX agents at both ends keep theirs
# (LLDPDUs every second, a TTL of 4 s), and ARP still resolves across it,
# while data is dropped both ways (wd_rx_drop, wd_tx_drop).
drop_spares_control()
{
	local i mac_l mac_m ok al am

	setup_ns L M
	ip link add name l0 netns "$L" type veth peer name m0 netns "$M"
	ip -n "$L" link add name bl type bond mode 802.3ad lacp_rate fast miimon 100
	ip -n "$M" link add name bm type bond mode 802.3ad lacp_rate fast miimon 100
	ip -n "$L" link set l0 master bl
	ip -n "$M" link set m0 master bm
	ip -n "$L" link set bl up
	ip -n "$M" link set bm up
	ip -n "$L" addr add 198.18.7.1/24 dev bl
	ip -n "$M" addr add 198.18.7.2/24 dev bm
	mac_l=$(mac_of "$L" bl)
	mac_m=$(mac_of "$M" bm)
	ip -n "$L" neigh add 198.18.7.2 lladdr "$mac_m" dev bl nud permanent
	ip netns exec "$L" tc qdisc add dev l0 root flowctl
	check_err $? "cannot attach flowctl to the bond's slave l0"
	fc "$L" set dev l0 mode pause speed 10 rate 10mbit watchdog 200 wd-action drop
	check_err $? "flowctl set dev l0 mode pause ... watchdog 200 wd-action drop"
	# DCBX's partner: flowctl on m0 too, the same PAUSE settings.
	ip netns exec "$M" tc qdisc add dev m0 root flowctl
	fc "$M" set dev m0 mode pause speed 10
	ip netns exec "$L" flowctl -j dcbx dev l0 interval 1 willing off >"$TMP/dl.ev" 2>&1 &
	al=$!
	ip netns exec "$M" flowctl -j dcbx dev m0 interval 1 willing off >"$TMP/dm.ev" 2>&1 &
	am=$!
	for ((i = 0; i < 100; i++)); do
		[ "$(lacp_partner "$L" bl)" = "$mac_m" ] &&
			[ "$(lacp_partner "$M" bm)" = "$mac_l" ] && break
		sleep 0.1
	done
	check_eq "$(lacp_partner "$L" bl) $(lacp_partner "$M" bm)" "$mac_m $mac_l" \
		"LACP partners before the storm"
	for ((i = 0; i < 100; i++)); do
		grep -q '"event":"partner"' "$TMP/dl.ev" && break
		sleep 0.1
	done
	check_eq "$(grep -c '"event":"partner"' "$TMP/dl.ev")" 1 "l0's DCBX agent found its partner before the storm"
	ip netns exec "$L" "$FCTEST" send 198.18.7.2 7000 1000 100000 >/dev/null &
	SENDER=$!
	ip netns exec "$M" "$FCTEST" raw m0 "$(pause_hex "$(mac_of "$M" m0)" 65535)" \
		count 100000 interval-us 200000 >/dev/null &
	STORM=$!
	for ((i = 0; i < 100; i++)); do
		[ "$(fc_get "$L" l0 ' | [.prio[].wd_state] | unique | join(",")')" = stormed ] && break
		sleep 0.05
	done
	check_eq "$(fc_get "$L" l0 ' | [.prio[].wd_state] | unique | join(",")')" stormed \
		"l0's eight priorities stormed under a PAUSE storm"
	# M's data to L: M resolves L by ARP through the storm, then its
	# datagrams are dropped at l0's ingress.
	ip netns exec "$M" "$FCTEST" send 198.18.7.1 7000 10000 400 >/dev/null &
	# Over a second past LACP's fast timeout (3 s).
	sleep 4.5
	check_eq "$(lacp_partner "$L" bl)" "$mac_m" "l0's LACP partner after 4.5 s of storm under drop"
	check_eq "$(lacp_partner "$M" bm)" "$mac_l" "m0's LACP partner after 4.5 s of storm under drop"
	check_eq "$(lacp_heard "$L" l0)" yes "l0 hears m0's LACPDUs after 4.5 s of storm under drop"
	check_eq "$(lacp_heard "$M" m0)" yes "m0 hears l0's LACPDUs after 4.5 s of storm under drop"
	check_eq "$(grep -c '"event":"partner-gone"' "$TMP/dm.ev")" 0 \
		"m0's DCBX agent lost its partner during the storm: $(grep partner-gone "$TMP/dm.ev")"
	check_eq "$(grep -c '"event":"partner-gone"' "$TMP/dl.ev")" 0 \
		"l0's DCBX agent lost its partner during the storm: $(grep partner-gone "$TMP/dl.ev")"
	ok=$(ip -n "$M" neigh show 198.18.7.1 dev bm | grep -c "lladdr $mac_l")
	check_eq "$ok" 1 "M resolved L by ARP across the stormed port"
	check_eq "$(fc_get "$L" l0 ' | [.prio[].wd_state] | unique | join(",")')" stormed \
		"l0 still stormed when the partners were read"
	[ "$(fc_get "$L" l0 '.prio[0].wd_rx_drop')" -gt 0 ]
	check_err $? "M's datagrams not dropped at l0 (wd_rx_drop $(fc_get "$L" l0 '.prio[0].wd_rx_drop'))"
	[ "$(fc_get "$L" l0 '.prio[0].wd_tx_drop')" -gt 0 ]
	check_err $? "L's datagrams not dropped at l0 (wd_tx_drop $(fc_get "$L" l0 '.prio[0].wd_tx_drop'))"
	kill "$STORM" "$SENDER" "$al" "$am" 2>/dev/null
	wait "$STORM" "$SENDER" "$al" "$am" 2>/dev/null
	STORM= SENDER=
	ip netns del "$L"
	ip netns del "$M"
	log_test "drop spares the link's control traffic: a stormed bond slave keeps its LACP and DCBX partners, ARP resolves, data is dropped"
}

# Turned on while a storm already holds the gate: the refreshes close it no
# more, so the window starts when the watchdog does.
on_during_storm()
{
	local i

	storm 200000
	for ((i = 0; i < 40; i++)); do
		[ "$(fc_get "$A" a0 '.prio[3].paused')" = true ] && break
		sleep 0.05
	done
	sleep 0.5
	fc "$A" watchdog dev a0 detection 200 action alert
	wait_state stormed 5
	check_err $? "a storm in force when the watchdog came on was not detected"
	cleanup_case
	log_test "a watchdog turned on during a storm detects it"
}

storm_forward()
{
	local s0 s1

	fc "$A" set dev a0 watchdog 200 wd-action forward
	storm 200000
	wait_state stormed 5
	check_err $? "priority 3 not stormed within 5 s"
	s0=$(fc_get "$A" a0 '.prio[3].tx_packets')
	sleep 0.5
	s1=$(fc_get "$A" a0 '.prio[3].tx_packets')
	[ "$s1" -gt "$s0" ]
	check_err $? "priority 3 sent nothing while stormed under forward ($s0 -> $s1)"
	check_eq "$(fc_get "$A" a0 '.prio[3].paused')" false "gate under forward"
	check_eq "$(fc_get "$A" a0 '.prio[3].wd_tx_drop')" 0 "dropped under forward"
	[ "$(fc_get "$A" a0 '.prio[3].wd_tx_forward')" -gt 0 ]
	check_err $? "wd_tx_forward did not count the packets sent while stormed"
	cleanup_case
	log_test "forward: a stormed priority ignores the partner and keeps sending"
}

storm_alert()
{
	fc "$A" set dev a0 watchdog 200 wd-action alert
	storm 200000
	wait_state stormed 5
	check_err $? "priority 3 not stormed within 5 s"
	check_eq "$(fc_get "$A" a0 '.prio[3].paused')" true "gate under alert (honored still)"
	check_eq "$(fc_get "$A" a0 '.prio[3].wd_tx_drop')" 0 "dropped under alert"
	cleanup_case
	log_test "alert: a storm is reported, the partner still honored"
}

# PFC of 30 ms (586 quanta at 10 Mb/s) every 100 ms: paused a third of the
# time, the band drains in between. Never a storm.
draining_not_stormed()
{
	fc "$A" set dev a0 watchdog 200 wd-action drop
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 7000 1000 100000 prio 3 >/dev/null &
	SENDER=$!
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 586)" \
		count 30 interval-us 100000 >/dev/null
	check_eq "$(fc_get "$A" a0 '.prio[3].wd_storms')" 0 "storms of a queue that drains between pauses"
	[ "$(fc_get "$A" a0 '.prio[3].pause_episodes')" -ge 20 ]
	check_err $? "the pauses did not arrive (episodes $(fc_get "$A" a0 '.prio[3].pause_episodes'))"
	cleanup_case
	log_test "a queue paused a third of the time but draining is not stormed"
}

# Priority 5 floods the wire: strict priority starves priority 3, whose
# band holds packets and sends almost none. PFC of 30 ms every 100 ms on
# priority 3: its gate is closed a third of the time. Starved, but not
# held by the partner: never a storm.
starved_not_stormed()
{
	local flood b

	fc "$A" set dev a0 watchdog 200 wd-action drop
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 7000 100 1000000 prio 5 size 1400 >/dev/null &
	flood=$!
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 7000 2000 100000 prio 3 >/dev/null &
	SENDER=$!
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 586)" \
		count 30 interval-us 100000 >/dev/null
	b=$(fc_get "$A" a0 '.prio[3].backlog_packets')
	check_eq "$(fc_get "$A" a0 '.prio[3].wd_storms')" 0 "storms of a band starved by priority 5"
	[ "$b" -gt 0 ]
	check_err $? "priority 3 was not starved (backlog $b): the case proves nothing"
	[ "$(fc_get "$A" a0 '.prio[3].pause_episodes')" -ge 20 ]
	check_err $? "the pauses did not arrive"
	kill "$flood"; wait "$flood" 2>/dev/null
	cleanup_case
	log_test "a band starved by a higher priority is not stormed"
}

# PFC of 97 ms (1894 quanta at 10 Mb/s) every 100 ms: 3 ms gaps in which
# the wire sends about 3.7 KB, while the sender offers far more. The band
# never runs empty: a storm, though a few packets leave in each gap.
choppy_storm()
{
	local s0 s1

	fc "$A" set dev a0 watchdog 300 wd-action alert
	ip netns exec "$A" "$FCTEST" send 198.18.0.2 7000 200 100000 prio 3 size 1000 >/dev/null &
	SENDER=$!
	s0=$(fc_get "$A" a0 '.prio[3].tx_packets')
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 1894)" \
		count 40 interval-us 100000 >/dev/null &
	STORM=$!
	wait_state stormed 5
	check_err $? "a storm with 3% gaps not detected"
	s1=$(fc_get "$A" a0 '.prio[3].tx_packets')
	log_info "priority 3 sent $((s1 - s0)) packets in the gaps before it was stormed"
	cleanup_case
	log_test "a storm whose refreshes leave short gaps is still a storm"
}

setup_prepare || setup_failed
run_tests
