#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A PFC storm in a two-level fabric (Documentation/watchdog.md, the storm
# lab): R, a stuck receiver, keeps priority 3 paused for ever. Without the
# watchdog the pause spreads hop by hop back to the sender, and H1's flow to
# H3, a healthy host, stops with it (it shares priority 3 and the paths).
# With the watchdog on L2's port facing R, the storm stays there: the
# fabric's queues run, H3 gets its traffic.
#
#   H1 ==h0/l1h== L1 ==l1s/sl1== S ==sl2/l2s== L2 ==l2r/r0== R (PFC p3 for ever)
#                                               \==l2h/h3== H3
#
# Routers, 10 Mb/s wires, PFC on priority 3 (DSCP 24) on every port; each
# router port that takes traffic in pauses its partner (tx on). The fabric
# is scripts/demo/fabric.sh's fab_storm (make demo -e storm runs it too).

ALL_TESTS="storm_spreads storm_contained"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc
RETRY_TIMING=1
TIMING_CASES="storm_spreads storm_contained"

TMP=$(mktemp -d)

# shellcheck source=scripts/demo/fabric.sh
source "$TOP/scripts/demo/fabric.sh"

setup_prepare()
{
	setup_ns H1 L1 S L2 R H3
	fab_storm "$H1" "$L1" "$S" "$L2" "$R" "$H3" || return 1
	MAC_R=$(fab_mac "$R" r0)
	ip netns exec "$H3" "$FCTEST" recv 7000 100 >/dev/null &
	ip netns exec "$R" "$FCTEST" recv 7000 100 >/dev/null &
}

cleanup_case()
{
	stop_bg
	ip netns exec "$R" "$FCTEST" raw r0 "$(pfc_hex "$MAC_R" 0x08 0 0 0 0)" >/dev/null
	fc "$L2" set dev l2r watchdog off >/dev/null
	sleep 2
}

# HOPS: the egress ports on the way from H1 to R, nearest the storm first.
HOPS=("L2 l2r" "S sl2" "L1 l1s" "H1 h0")

# paused_ns: priority 3's paused_ns_total of each hop and the monotonic
# time it was read at, "PAUSED:NOW" space-separated (each read takes a
# while under TCG: every hop gets its own interval).
paused_ns()
{
	local h ns dev out=

	for h in "${HOPS[@]}"; do
		read -r ns dev <<<"$h"
		out+="$(fc_get "${!ns}" "$dev" '.prio[3].paused_ns_total'):$(now_ns) "
	done
	echo "${out% }"
}

now_ns() { date +%s%N; }

# h3_got: priority-3 packets L2 sent to H3, and when: "PACKETS:NOW".
h3_got() { echo "$(fc_get "$L2" l2h '.prio[3].tx_packets'):$(now_ns)"; }

# storm_run: R pauses priority 3 for ever (every 100 ms, 65535 quanta);
# H1 sends 4 Mb/s to R and 4 Mb/s to H3 on priority 3. Measures 3 s once
# the storm has had 3 s to spread: sets SHARE (percent of the time each
# hop was paused) and GOT (packets H3 got in the 3 s).
storm_run()
{
	local p0 p1 g0 g1 i a b

	ip netns exec "$R" "$FCTEST" raw r0 "$(pfc_hex "$MAC_R" 0x08 0 0 0 65535)" \
		count 100000 interval-us 100000 >/dev/null &
	BG+=($!)
	ip netns exec "$H1" "$FCTEST" send 198.18.2.1 7000 2000 100000 tos 0x60 size 1000 \
		>/dev/null 2>&1 &
	BG+=($!)
	ip netns exec "$H1" "$FCTEST" send 198.18.3.1 7000 2000 100000 tos 0x60 size 1000 \
		>/dev/null 2>&1 &
	BG+=($!)
	sleep 3
	p0=$(paused_ns)
	g0=$(h3_got)
	sleep 3
	p1=$(paused_ns)
	g1=$(h3_got)
	read -r -a a <<<"$p0"
	read -r -a b <<<"$p1"
	SHARE=
	for i in 0 1 2 3; do
		SHARE+="$(((${b[i]%:*} - ${a[i]%:*}) * 100 / (${b[i]#*:} - ${a[i]#*:}))) "
	done
	SHARE=${SHARE% }
	GOT=$((${g1%:*} - ${g0%:*}))
	# H1 offers H3 500 packets a second.
	OFFERED=$(((${g1#*:} - ${g0#*:}) / 2000000))
}

# table: the per-hop view, in the log.
table()
{
	local i

	log_info "$1: percent of the time each egress port on the way to R was paused on priority 3"
	for i in 0 1 2 3; do
		read -r -a s <<<"$SHARE"
		log_info "  hop $((i + 1)): ${HOPS[i]/ //}  ${s[i]}%"
	done
	log_info "  H3 got $GOT packets of priority 3; H1 offered about $OFFERED in that time"
}

storm_spreads()
{
	local s

	storm_run
	table "no watchdog"
	read -r -a s <<<"$SHARE"
	for i in 0 1 2 3; do
		[ "${s[i]}" -ge 80 ]
		check_err $? "hop $((i + 1)) (${HOPS[i]}) was paused ${s[i]}% of the time: the storm did not spread there"
	done
	[ "$GOT" -lt 100 ]
	check_err $? "H3 got $GOT packets: the storm did not stop the healthy flow"
	cleanup_case
	log_test "without the watchdog a stuck receiver's storm spreads hop by hop to the sender"
}

storm_contained()
{
	local s

	fc "$L2" watchdog dev l2r detection 200 action drop
	check_err $? "flowctl watchdog dev l2r detection 200 action drop"
	storm_run
	table "watchdog on L2's port facing R"
	read -r -a s <<<"$SHARE"
	check_eq "$(fc_get "$L2" l2r '.prio[3].wd_state')" stormed "L2's port facing R"
	for i in 1 2 3; do
		[ "${s[i]}" -le 20 ]
		check_err $? "hop $((i + 1)) (${HOPS[i]}) was paused ${s[i]}% of the time with the storm contained"
	done
	[ "$GOT" -ge $((OFFERED * 6 / 10)) ]
	check_err $? "H3 got $GOT packets of about $OFFERED offered with the storm contained"
	cleanup_case
	log_test "the watchdog keeps the storm at the first switch: the fabric and the healthy flow run"
}

setup_prepare || setup_failed
run_tests
