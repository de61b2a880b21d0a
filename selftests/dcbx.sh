#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The DCBX agent (flowctl dcbx) on two flowctl ports joined by veth: a
# willing end adopts its unwilling partner's PFC and ETS configuration
# within one LLDP exchange, and gets its own back when the partner leaves
# (TTL 0) or goes silent (TTL runs out); two unwilling ends that differ
# both report a mismatch and change nothing; malformed LLDPDUs are counted
# and ignored, and a malformed DCBX TLV costs only its own feature; both
# willing, the lower MAC adopts (as lldpad); LLDPDUs without DCBX TLVs
# change nothing; another LLDP agent sending from the agent's port stops it;
# a change is advertised at once and a new neighbour gets 802.1AB's fast
# start, whatever the interval; the APP TLV carries the DSCP map (dcb app),
# which a willing end takes; a port that goes down does not make the
# agent spin; the agent works on a bridge port (a bridge never forwards
# LLDP).
#
#   +------ ns A ------+        +---------- ns B ----------+
#   | a0 flowctl       |========| b0 flowctl  (in br0 for   |
#   | mode pause       |  veth  | mode pfc pfc-prios 3,4   |
#   | dcbx willing on  |        | ets 0:40,3:60, unwilling |
#   +------------------+        +--------------------------+

ALL_TESTS="willing_adopts peer_reported shutdown_reverts ttl_expiry_reverts mismatch_reported malformed_counted bad_tlv_costs_itself app_adopted cee_adopts cee_auto cee_mismatch lldpd_partner lldpd_carries both_willing no_dcbx_tlvs other_agent_stops prompt_and_fast link_down bridge_port"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc tcpdump tshark bc dcb
# "Not before the TTL" compares the agent's clock with a sleep: on the
# debug kernel the partner's last LLDPDU can be seconds older than its kill.
RETRY_TIMING=1
TIMING_CASES="ttl_expiry_reverts prompt_and_fast"
# The agent's protocol alone: its requests to the kernel (configuration,
# partner) are the ones willing_adopts, peer_reported and app_adopted judge.
USERLAND_CASES="mismatch_reported malformed_counted bad_tlv_costs_itself cee_adopts cee_auto
	cee_mismatch lldpd_partner lldpd_carries both_willing prompt_and_fast"

TMP=$(mktemp -d)
AGENTS=()

setup()
{
	cleanup_ns
	setup_ns A B
	# Ifindexes apart: the kernel's DCB APP table is keyed by ifindex
	# alone, across namespaces (app_adopted), and the two ends of a pair
	# made in two new namespaces would both be 2.
	ip link add name a0 index 4001 netns "$A" type veth peer name b0 index 4002 netns "$B" ||
		return 1
	ip -n "$A" link set a0 up
	ip -n "$B" link set b0 up
	ip -n "$A" link set a0 address 02:00:00:00:dc:01
	ip -n "$B" link set b0 address 02:00:00:00:dc:02
	ip netns exec "$A" tc qdisc add dev a0 root flowctl || return 1
	ip netns exec "$B" tc qdisc add dev b0 root flowctl || return 1
	fc "$A" set dev a0 mode pause || return 1
	fc "$B" set dev b0 mode pfc pfc-prios 3,4 prio-tc numeric ets 0:40,3:60 || return 1
}

# agent NS DEV FILE ARGS...: flowctl -j dcbx in the background, events in FILE
agent()
{
	local ns=$1 dev=$2 file=$3

	shift 3
	ip netns exec "$ns" flowctl -j dcbx dev "$dev" interval 1 "$@" >"$file" 2>&1 &
	AGENTS+=($!)
}

stop_agents()
{
	local pid

	for pid in "${AGENTS[@]}"; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	AGENTS=()
}

# a0_view: mode, pfc_prios, prio_tc and tc_bw of a0 (or DEV in NS)
view()
{
	fc "$1" -j show dev "$2" | jq -c '.[0] | [.mode, .pfc_prios, .prio_tc, .tc_bw]'
}

# wait_for SECONDS CMD...: CMD succeeds within SECONDS
wait_for()
{
	local end=$((SECONDS + $1))

	shift
	while [ $SECONDS -le $end ]; do
		"$@" && return 0
		sleep 0.2
	done
	return 1
}

same_as_b0() { [ "$(view "$A" a0)" = "$(view "$B" b0)" ]; }
a0_is_own() { [ "$(view "$A" a0)" = "$1" ]; }
has_event() { grep -q "\"event\":\"$2\"" "$1"; }
last_state_is() { grep '"event":"state"' "$1" | tail -1 | grep -q "\"pfc\":\"$2\""; }
# malformed_count FILE: the agent's rx_malformed counter in its last line
malformed_is() { [ "$(tail -1 "$1" | jq '.counters.rx_malformed')" = "$2" ]; }

willing_adopts()
{
	local t0 t1

	setup || { check_err 1 "setup failed"; log_test "willing adopts"; return; }
	agent "$B" b0 "$TMP/b.ev" willing off
	t0=$SECONDS
	agent "$A" a0 "$TMP/a.ev" willing on
	wait_for 30 same_as_b0
	check_err $? "a0 did not adopt b0's configuration: a0 $(view "$A" a0), b0 $(view "$B" b0)"
	t1=$SECONDS
	log_info "a0 adopted b0's $(view "$B" b0) in about $((t1 - t0)) s"
	has_event "$TMP/a.ev" adopted
	check_err $? "no adopted event from a0's agent"
	# a0 now advertises what it uses (b0's): b0 sees agreement.
	wait_for 4 last_state_is "$TMP/b.ev" agree
	check_err $? "b0's agent does not see the ends agree: $(tail -1 "$TMP/b.ev")"
	stop_agents
	log_test "a willing end adopts its unwilling partner's PFC and ETS within an exchange"
}

# The peer in DCB netlink: what the kernel's dcbnl_ieee_fill builds from
# the port's ieee_peer_getpfc/getets and peer APP operations (iproute2's
# dcb shows no peer: selftests/tools/dcbpeer.py sends the RTM_GETDCB).
peer_a() { ip netns exec "$A" /usr/bin/python3 "$TOP/selftests/tools/dcbpeer.py" a0; }
peer_a_is() { [ "$(peer_a | jq -c "$1")" = "$2" ]; }
ynl_a()
{
	ip netns exec "$A" /usr/bin/python3 "$TOP/build/ksrc/tools/net/ynl/cli.py" \
		--spec "$TOP/Documentation/netlink/specs/flowctl.yaml" \
		--schema "$TOP/build/ksrc/Documentation/netlink/genetlink-legacy.yaml" "$@" 2>&1
}

peer_reported()
{
	local none='{"pfc":null,"ets":null,"app":null}' cfg out apps i

	setup || { check_err 1 "setup failed"; log_test "peer"; return; }
	check_eq "$(peer_a | jq -c .)" "$none" "a0's peer before any agent"
	ip netns exec "$B" dcb app add dev b0 dscp-prio 26:3
	check_err $? "dcb app add on b0"
	# b0 at interval 5 (TTL 20 s): its goodbye, not its TTL, must clear a0's peer.
	agent "$B" b0 "$TMP/b.ev" willing off interval 5
	agent "$A" a0 "$TMP/a.ev" willing off
	wait_for 30 peer_a_is .pfc.pfc_en 24
	check_err $? "a0's peer PFC: $(peer_a)"
	check_eq "$(peer_a | jq -c '.pfc | [.pfc_cap, .mbc]')" "[8,0]" "peer pfc_cap, mbc"
	check_eq "$(peer_a | jq -c '.ets | [.prio_tc, .tc_tx_bw, .tc_tsa, .willing]')" \
		"[[0,1,2,3,4,5,6,7],[40,0,0,60,0,0,0,0],[2,0,0,2,0,0,0,0],0]" \
		"peer ETS (b0: prio-tc numeric, ets 0:40,3:60)"
	check_eq "$(peer_a | jq -c '.ets | [.reco_prio_tc, .tc_reco_bw]')" \
		"[[0,1,2,3,4,5,6,7],[40,0,0,60,0,0,0,0]]" "peer ETS recommendation"
	check_eq "$(peer_a | jq -c .app)" '[{"selector":5,"priority":3,"protocol":26}]' \
		"peer APP (b0: dcb app dscp-prio 26:3)"
	check_eq "$(fc "$A" -j show dev a0 | jq -c '.[0].dcbx_partner | [.mac, .pfc.prios, .ets.tc_bw, .app[0].protocol]')" \
		'["02:00:00:00:dc:02",[3,4],[40,0,0,60,0,0,0,0],26]' "flowctl show's dcbx_partner"
	out=$(fc "$A" show dev a0 | grep 'dcbx partner')
	log_info "${out# }"
	check_contains "$out" "dcbx partner 02:00:00:00:dc:02: pfc-prios 3,4 prio-tc 0,1,2,3,4,5,6,7 ets 0:40,3:60" \
		"flowctl show's text"
	# Unwilling, a0 keeps its own: the peer is what the other end uses.
	check_eq "$(ip netns exec "$A" dcb -j pfc show dev a0 | jq -c '[.prio_pfc | to_entries[] | select(.value) | .key]')" \
		"[]" "a0's own PFC beside its peer's"
	# b0 leaves (TTL 0): no peer, well before the 15 s or more left of its TTL.
	kill "${AGENTS[0]}"
	wait "${AGENTS[0]}" 2>/dev/null
	wait_for 10 peer_a_is . "$none"
	check_err $? "a0's peer after b0's agent left: $(peer_a)"
	# a0's agent killed without a word: the kernel keeps b0 for its TTL
	# (20 s at interval 5, at least 15 s of it left), no longer.
	agent "$B" b0 "$TMP/b2.ev" willing off interval 5
	wait_for 30 peer_a_is .pfc.pfc_en 24
	check_err $? "a0's peer with b0 back"
	kill -KILL "${AGENTS[1]}"
	wait "${AGENTS[1]}" 2>/dev/null
	peer_a_is .pfc.pfc_en 24
	check_err $? "a0's peer went with its agent, before the TTL"
	wait_for 25 peer_a_is . "$none"
	check_err $? "a0's peer outlived b0's TTL: $(peer_a)"
	stop_agents
	ip netns exec "$B" dcb app del dev b0 dscp-prio 26:3

	if [ -e "$TOP/build/ksrc/tools/net/ynl/cli.py" ]; then
		# Refused with nothing changed: with the configuration, without a TTL,
		# an ETS TLV without its shares, 33 APP entries.
		cfg=$(fc "$A" -j show dev a0 | jq -c '.[0] | del(.stats, .prio)')
		out=$(ynl_a --do dev-set --json '{"ifname": "a0", "mode": "pfc", "peer": {"ttl": 100, "pfc-en": 8, "pfc-cap": 8}}')
		check_fail $? "peer with the configuration accepted"
		check_contains "$out" "the partner is set alone" "the refusal's words"
		out=$(ynl_a --do dev-set --json '{"ifname": "a0", "peer": {"pfc-en": 8, "pfc-cap": 8}}')
		check_fail $? "peer without a TTL accepted"
		check_contains "$out" "comes with its TTL" "the refusal's words"
		out=$(ynl_a --do dev-set --json '{"ifname": "a0", "peer": {"ttl": 100, "ets-prio-tc": 0}}')
		check_fail $? "peer ETS without shares accepted"
		out=$(ynl_a --do dev-set --json '{"ifname": "a0", "peer": {"ttl": 100, "ets-prio-tc": 0, "ets-tc-bw": "6400000000000000", "ets-tc-tsa": "0300000000000000"}}')
		check_fail $? "peer ETS with TSA 3 accepted"
		check_contains "$out" "a TSA is strict" "the refusal's words"
		apps=; for i in $(seq 0 32); do apps+=$(printf '05%02x%02x00' $((i % 8)) "$i"); done
		out=$(ynl_a --do dev-set --json "{\"ifname\": \"a0\", \"peer\": {\"ttl\": 100, \"app\": \"$apps\"}}")
		check_fail $? "33 peer APP entries accepted"
		check_eq "$(fc "$A" -j show dev a0 | jq -c '.[0] | del(.stats, .prio)')" "$cfg" \
			"a0 after the refused peers"
		check_eq "$(peer_a | jq -c .)" "$none" "a0's peer after the refused peers"
		# 32 entries, the most kept, fit a full show beside everything else.
		out=$(ynl_a --do dev-set --json "{\"ifname\": \"a0\", \"peer\": {\"ttl\": 100, \"pfc-en\": 8, \"pfc-cap\": 8, \"ets-prio-tc\": 0, \"ets-tc-bw\": \"6400000000000000\", \"ets-tc-tsa\": \"0200000000000000\", \"reco-prio-tc\": 0, \"reco-tc-bw\": \"6400000000000000\", \"reco-tc-tsa\": \"0200000000000000\", \"app\": \"${apps:0:256}\"}}")
		check_err $? "a peer with 32 APP entries: $out"
		check_eq "$(fc "$A" -j -s show dev a0 | jq '.[0].dcbx_partner.app | length')" 32 \
			"APP entries in flowctl -s show"
		check_eq "$(peer_a | jq '.app | length')" 32 "APP entries in DCB netlink's peer"
		out=$(ynl_a --do dev-set --json '{"ifname": "a0", "peer": {}}')
		check_err $? "an empty peer (none): $out"
		check_eq "$(peer_a | jq -c .)" "$none" "a0's peer after an empty one"
	else
		log_info "ynl not extracted (make check does it): the refusals were not sent"
	fi
	log_test "DCB netlink reports the partner the agent hears (peer PFC, ETS, APP), for its TTL"
}

# cap NS DEV FILE: capture DEV's outgoing LLDPDUs into FILE (background)
cap()
{
	ip netns exec "$1" tcpdump -i "$2" -nn -U -w "$3" "ether proto 0x88cc and ether src $(mac_of "$1" "$2")" \
		2>/dev/null &
	AGENTS+=($!)
	sleep 1
}

# tshark_last FILE FIELD...: the fields of the last frame in FILE
tshark_last()
{
	local f=$1

	shift
	tshark -n -r "$f" -T fields -E separator=';' $(printf -- '-e %s ' "$@") 2>/dev/null | tail -1
}

a0_is() { [ "$(view "$A" a0)" = "$1" ]; }
last_event_has() { tail -1 "$1" | grep -q "$2"; }

cee_adopts()
{
	local want='["pfc",[3,4],[0,7,7,3,7,7,7,7],[40,0,0,60,0,0,0,0]]' f own

	setup || { check_err 1 "setup failed"; log_test "CEE adopts"; return; }
	own=$(view "$A" a0)
	cap "$A" a0 "$TMP/a.pcap"
	agent "$B" b0 "$TMP/b.ev" willing off mode cee
	agent "$A" a0 "$TMP/a.ev" willing on mode cee
	# b0's strict classes (all but 0 and 3) are CEE's group 15, which a0
	# makes its highest unused class, strict.
	wait_for 30 a0_is "$want"
	check_err $? "a0 did not take b0's CEE PFC and groups: $(view "$A" a0)"
	wait_for 10 last_state_is "$TMP/b.ev" agree
	check_err $? "b0 does not see a0 agree: $(tail -1 "$TMP/b.ev")"
	check_eq "$(peer_a | jq -c '[.pfc.pfc_en, .ets.prio_tc, .ets.tc_tx_bw]')" \
		"[24,[0,7,7,3,7,7,7,7],[40,0,0,60,0,0,0,0]]" "a0's peer from b0's CEE TLV"
	sleep 2
	f=$(tshark_last "$TMP/a.pcap" lldp.dcbx.proto lldp.dcbx.type lldp.dcbx.feature.willing \
		lldp.dcbx.feature.pfc.prio3 lldp.dcbx.feature.pfc.prio4 lldp.dcbx.feature.pg.pgid_prio3 \
		lldp.dcbx.feature.pg.pgid_prio1 lldp.dcbx.feature.pg.per3 lldp.ieee.802_1.subtype)
	check_eq "$f" "0x02;1,2,3,4;1,1,0;1;1;3;15;60;" \
		"tshark on a0's last LLDPDU: CEE (Control, PG, PFC, App), willing, PFC 3 and 4, groups, no 802.1Qaz TLV"
	check_eq "$(grep -c '"dcbx":"cee"' "$TMP/a.ev")" "$(wc -l <"$TMP/a.ev")" "a0's events all say dcbx cee"
	stop_agents
	wait_for 10 a0_is "$own"
	check_err $? "a0 kept b0's configuration after the agents stopped: $(view "$A" a0)"
	log_test "CEE: a willing end takes an unwilling partner's PFC and priority groups (tshark reads the TLV)"
}

cee_auto()
{
	local f

	setup || { check_err 1 "setup failed"; log_test "CEE auto"; return; }
	cap "$A" a0 "$TMP/a.pcap"
	agent "$B" b0 "$TMP/b.ev" willing off mode cee
	agent "$A" a0 "$TMP/a.ev" willing on
	wait_for 30 has_event "$TMP/a.ev" version
	check_err $? "a0 (mode auto) did not turn to CEE for a CEE-only partner: $(tail -2 "$TMP/a.ev")"
	wait_for 30 a0_is '["pfc",[3,4],[0,7,7,3,7,7,7,7],[40,0,0,60,0,0,0,0]]'
	check_err $? "a0 did not adopt in CEE: $(view "$A" a0)"
	wait_for 10 last_state_is "$TMP/b.ev" agree
	check_err $? "b0 (mode cee) does not see a0 agree: $(tail -1 "$TMP/b.ev")"
	kill "${AGENTS[1]}"
	wait "${AGENTS[1]}" 2>/dev/null
	wait_for 10 has_event "$TMP/a.ev" partner-gone
	check_err $? "a0 did not see b0 go"
	# With the partner gone, mode auto speaks IEEE again.
	sleep 3
	last_event_has "$TMP/a.ev" '"dcbx":"ieee"'
	check_err $? "a0 did not go back to IEEE after its CEE partner left: $(tail -1 "$TMP/a.ev")"
	f=$(tshark_last "$TMP/a.pcap" lldp.dcbx.proto lldp.ieee.802_1.subtype)
	check_eq "${f%%;*}" "" "a0's last LLDPDU after the partner left carries no CEE TLV"
	case ${f#*;} in *0x0b*) ;; *) check_err 1 "a0's last LLDPDU has no PFC TLV (802.1 subtype 0x0b): $f" ;; esac
	stop_agents
	log_test "CEE: mode auto answers a CEE-only partner in CEE, and speaks IEEE again once it leaves"
}

cee_mismatch()
{
	local f

	setup || { check_err 1 "setup failed"; log_test "CEE mismatch"; return; }
	fc "$A" set dev a0 mode pfc pfc-prios 5 || check_err 1 "a0 set"
	cap "$A" a0 "$TMP/a.pcap"
	agent "$B" b0 "$TMP/b.ev" willing on mode cee
	agent "$A" a0 "$TMP/a.ev" willing on mode cee
	wait_for 30 has_event "$TMP/a.ev" mismatch
	check_err $? "a0: no mismatch with both ends willing and different: $(tail -1 "$TMP/a.ev")"
	wait_for 10 has_event "$TMP/b.ev" mismatch
	check_err $? "b0: no mismatch: $(tail -1 "$TMP/b.ev")"
	check_eq "$(fc "$A" -j show dev a0 | jq -c '.[0].pfc_prios')" "[5]" "a0's PFC (no MAC tie-break in CEE)"
	check_eq "$(fc "$B" -j show dev b0 | jq -c '.[0].pfc_prios')" "[3,4]" "b0's PFC"
	sleep 2
	f=$(tshark_last "$TMP/a.pcap" lldp.dcbx.feature.error)
	check_eq "$f" "0,1,0" "tshark: a0's PFC feature carries the Error bit (PG and App do not)"
	stop_agents
	log_test "CEE: equal willing bits that differ adopt nothing and set the PFC Error bit"
}

# Debian's lldpd as the partner: its custom-tlv sends 802.1Qaz's PFC TLV
# (priority 3, not willing), which the willing agent on a0 adopts; lldpd
# lists a0 as its one neighbour with the agent's PFC TLV (what a0 now uses,
# willing). Then lldpd on a0 itself: the agent refuses to start beside it.
# lldpd_or_skip NS DEV SIDE CASE: lldpd on DEV, its socket and log
# $TMP/lldpd-SIDE.sock and .log; status 1 once CASE is logged skipped (no
# lldpd in the cache).
lldpd_or_skip()
{
	local rc

	lldpd_start "$1" "$2" "$TMP/lldpd-$3.sock" "$TMP/lldpd-$3.log"
	rc=$?
	if [ $rc = 4 ]; then
		log_skip "$4" "lldpd (scripts/deps.sh unpacks it into the cache)"
		return 1
	fi
	check_err $rc "lldpd did not start on $2: $(cat "$TMP/lldpd-$3.log")"
	return 0
}

lldpd_partner()
{
	local out rc

	setup || { check_err 1 "setup failed"; log_test "lldpd as partner"; return; }
	lldpd_or_skip "$B" b0 b "lldpd as the partner" || return
	# PFC TLV: willing 0, MBC 0, cap 8; enable 0x08 (priority 3). An
	# LLDPDU a second: lldpd sends a new TLV at its next interval.
	lldpcli_ns "$B" "$TMP/lldpd-b.sock" configure lldp tx-interval 1
	lldpcli_ns "$B" "$TMP/lldpd-b.sock" configure lldp custom-tlv oui 00,80,c2 subtype 11 oui-info 08,08
	check_err $? "lldpcli custom-tlv"
	agent "$A" a0 "$TMP/a.ev" willing on
	wait_for 30 a0_pfc_is '["pfc",[3]]'
	check_err $? "a0 did not adopt lldpd's PFC TLV: $(fc "$A" -j show dev a0 | jq -c '.[0] | [.mode, .pfc_prios]')"
	sleep 2
	out=$(lldpcli_ns "$B" "$TMP/lldpd-b.sock" -f keyvalue show neighbors details)
	check_eq "$(grep -c '^lldp\.b0\.rid=' <<<"$out")" 1 "lldpd's neighbours on b0"
	# a0's PFC TLV as lldpd read it: willing, cap 8, priority 3.
	grep -qx 'lldp.b0.unknown-tlvs.unknown-tlv=88,08' <<<"$out"
	check_err $? "lldpd did not list a0's PFC TLV (willing, cap 8, priority 3): $(grep unknown <<<"$out" | head -8)"
	stop_agents
	lldpd_start "$A" a0 "$TMP/lldpd-a.sock" "$TMP/lldpd-a.log"
	check_err $? "lldpd did not start on a0"
	out=$(ip netns exec "$A" timeout 10 flowctl dcbx dev a0 2>&1)
	rc=$?
	check_eq "$rc" 1 "flowctl dcbx's exit status beside lldpd"
	check_contains "$out" "lldpd" "the refusal names lldpd"
	stop_bg
	log_test "lldpd as the partner: the agent adopts its PFC TLV, lldpd sees one neighbour; beside lldpd the agent refuses"
}
a0_pfc_is() { [ "$(fc "$A" -j show dev a0 | jq -c '.[0] | [.mode, .pfc_prios]')" = "$1" ]; }
b0_pfc_is() { [ "$(fc "$B" -j show dev b0 | jq -c '.[0] | [.mode, .pfc_prios]')" = "$1" ]; }

# from_a0 PCAP FIELDS...: one line per LLDPDU a0 sent, FIELDS ';'-separated.
from_a0()
{
	local f=$1

	shift
	tshark -n -r "$f" -Y "eth.src == 02:00:00:00:dc:01" -T fields -E separator=';' \
		$(printf -- '-e %s ' "$@") 2>/dev/null
}

# lldpd on a0, and the agent with other-agents lldpd: lldpd sends the DCBX
# TLVs beside its own, b0 sees one neighbour and takes a0's PFC, a change
# goes out at once (not at lldpd's 30 s), and the TLVs leave with the agent.
# lldpd_signal NS SIG: SIG to NS's lldpd processes (it renames itself:
# "lldpd: monitor.", "lldpd: connected to a0.")
lldpd_signal()
{
	local p

	for p in $(ip netns pids "$1"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = lldpd ] && kill -"$2" "$p"
	done
}

lldpd_carries()
{
	local tcpd pid n subs out

	setup || { check_err 1 "setup failed"; log_test "through lldpd"; return; }
	lldpd_or_skip "$A" a0 a "DCBX through lldpd" || return
	# Without lldpd, other-agents lldpd has nothing to hand its TLVs to.
	out=$(ip netns exec "$B" timeout 10 flowctl dcbx dev b0 other-agents lldpd 2>&1)
	check_eq "$?" 1 "flowctl dcbx other-agents lldpd's exit status without lldpd"
	check_contains "$out" "no lldpd runs" "the refusal says why"
	fc "$A" set dev a0 mode pfc pfc-prios 3,5
	ip netns exec "$B" tcpdump -i b0 -U -w "$TMP/b0.pcap" ether proto 0x88cc 2>/dev/null &
	tcpd=$!
	sleep 1
	ip netns exec "$A" env PATH="$LLDPD_DIR/usr/sbin:$PATH" \
		LD_LIBRARY_PATH="$LLDPD_DIR/usr/lib/x86_64-linux-gnu" \
		flowctl -j dcbx dev a0 interval 2 other-agents lldpd lldpd-socket "$TMP/lldpd-a.sock" \
		>"$TMP/a.ev" 2>&1 &
	pid=$!
	agent "$B" b0 "$TMP/b.ev" willing on
	wait_for 20 b0_pfc_is '["pfc",[3,5]]'
	check_err $? "b0 did not take a0's PFC through lldpd: $(fc "$B" -j show dev b0 | jq -c '.[0] | [.mode, .pfc_prios]'); a0: $(tail -2 "$TMP/a.ev")"
	# lldpd sends a changed TLV at once; its interval is 30 s.
	fc "$A" set dev a0 pfc-prios 4
	wait_for 5 b0_pfc_is '["pfc",[4]]'
	check_err $? "b0 did not see a0's change within 5 s: $(fc "$B" -j show dev b0 | jq -c '.[0] | [.mode, .pfc_prios]')"
	has_event "$TMP/b.ev" multiple-partners
	check_fail $? "b0's agent heard two neighbours on its port"
	# A stopped lldpd answers no lldpcli: the agent gives up on it after
	# 5 s (an lldpd-error says so), lives on, and tries again an interval
	# later; a new agent refuses to start.
	lldpd_signal "$A" STOP
	fc "$A" set dev a0 pfc-prios 2
	wait_for 10 grep -q '"event":"lldpd-error".*did not answer' "$TMP/a.ev"
	check_err $? "no lldpd-error from a0's agent while lldpd was stopped: $(tail -2 "$TMP/a.ev")"
	out=$(ip netns exec "$A" env PATH="$LLDPD_DIR/usr/sbin:$PATH" \
		LD_LIBRARY_PATH="$LLDPD_DIR/usr/lib/x86_64-linux-gnu" timeout 20 \
		flowctl dcbx dev a0 other-agents lldpd lldpd-socket "$TMP/lldpd-a.sock" 2>&1)
	check_eq "$?" 1 "a new agent's exit status beside a stopped lldpd"
	check_contains "$out" "did not answer" "its refusal says why"
	kill -0 "$pid"
	check_err $? "a0's agent died while lldpd was stopped"
	lldpd_signal "$A" CONT
	wait_for 15 b0_pfc_is '["pfc",[2]]'
	check_err $? "b0 did not see a0's change once lldpd resumed: $(fc "$B" -j show dev b0 | jq -c '.[0] | [.mode, .pfc_prios]'); a0: $(tail -2 "$TMP/a.ev")"
	kill "$pid"
	wait "$pid"
	check_eq "$?" 0 "the agent's exit status on SIGTERM"
	sleep 2
	kill $tcpd
	wait $tcpd 2>/dev/null
	# One neighbour: every LLDPDU from a0 has lldpd's chassis and port.
	n=$(from_a0 "$TMP/b0.pcap" lldp.chassis.id.mac lldp.port.id.mac lldp.port.id | sort -u | wc -l)
	check_eq "$n" 1 "distinct (chassis, port) in a0's LLDPDUs (one neighbour)"
	# lldpd's System Name beside 802.1Qaz's PFC (subtype 11), then, once
	# the agent left, lldpd's LLDPDUs without it.
	# (tshark prints the subtypes in hex: PFC is 0x0b.)
	subs=$(from_a0 "$TMP/b0.pcap" lldp.tlv.system.name lldp.ieee.802_1.subtype)
	grep -q '^[^;]\+;.*0x0b' <<<"$subs"
	check_err $? "no LLDPDU from a0 with lldpd's System Name and a PFC TLV: $(sort -u <<<"$subs" | head -4)"
	tail -1 <<<"$subs" | grep -q '0x0b'
	check_fail $? "a0's last LLDPDU, after the agent stopped, still has the PFC TLV: $(tail -1 <<<"$subs")"
	stop_agents
	stop_bg
	log_test "other-agents lldpd: lldpd sends the DCBX TLVs, b0 sees one neighbour and takes them, at once on a change; a stopped lldpd stalls nothing; gone with the agent"
}

shutdown_reverts()
{
	local own

	setup || { check_err 1 "setup failed"; log_test "shutdown reverts"; return; }
	own=$(view "$A" a0)
	agent "$B" b0 "$TMP/b.ev" willing off
	agent "$A" a0 "$TMP/a.ev" willing on
	wait_for 30 same_as_b0
	check_err $? "a0 never adopted (precondition)"
	kill "${AGENTS[0]}"
	wait "${AGENTS[0]}" 2>/dev/null
	wait_for 2 a0_is_own "$own"
	check_err $? "a0 kept b0's configuration after b0's agent left: $(view "$A" a0)"
	grep -q 'sent TTL 0' "$TMP/a.ev"
	check_err $? "a0's agent did not see the shutdown LLDPDU"
	stop_agents
	log_test "a partner that leaves (TTL 0) gives the willing end its own configuration back"
}

ttl_expiry_reverts()
{
	local own

	setup || { check_err 1 "setup failed"; log_test "TTL expiry reverts"; return; }
	own=$(view "$A" a0)
	agent "$B" b0 "$TMP/b.ev" willing off interval 2
	agent "$A" a0 "$TMP/a.ev" willing on
	wait_for 30 same_as_b0
	check_err $? "a0 never adopted (precondition)"
	# Silence b0 without a goodbye: its TTL (8 s) must run out first.
	kill -KILL "${AGENTS[0]}"
	wait "${AGENTS[0]}" 2>/dev/null
	sleep 2
	same_as_b0
	check_err $? "a0 reverted before b0's TTL ran out"
	wait_for 12 a0_is_own "$own"
	check_err $? "a0 kept b0's configuration after b0's TTL ran out: $(view "$A" a0)"
	grep -q 'TTL ran out' "$TMP/a.ev"
	check_err $? "no partner-gone event for the TTL"
	stop_agents
	log_test "a partner gone silent: the willing end reverts when its TTL runs out, not before"
}

mismatch_reported()
{
	local a b

	setup || { check_err 1 "setup failed"; log_test "mismatch"; return; }
	a=$(view "$A" a0)
	b=$(view "$B" b0)
	agent "$B" b0 "$TMP/b.ev" willing off
	agent "$A" a0 "$TMP/a.ev" willing off
	wait_for 15 has_event "$TMP/a.ev" mismatch
	check_err $? "a0's agent reported no mismatch"
	wait_for 3 has_event "$TMP/b.ev" mismatch
	check_err $? "b0's agent reported no mismatch"
	check_eq "$(view "$A" a0)" "$a" "a0's configuration (unwilling)"
	check_eq "$(view "$B" b0)" "$b" "b0's configuration (unwilling)"
	check_eq "$(grep '"event":"mismatch"' "$TMP/a.ev" | tail -1 | jq '.counters.mismatches')" 1 \
		"a0's mismatch count"
	stop_agents
	log_test "two unwilling ends that differ: both report a mismatch, neither changes"
}

malformed_counted()
{
	local own mac_b bad

	setup || { check_err 1 "setup failed"; log_test "malformed"; return; }
	own=$(view "$A" a0)
	agent "$A" a0 "$TMP/a.ev" willing on
	sleep 1
	mac_b=$(mac_of "$B" b0)
	# Chassis ID, Port ID, TTL 120, then a TLV of 496 octets in a frame
	# that has not that many (802.1AB: the LLDPDU is discarded), built here
	# byte by byte.
	bad="0180c200000e${mac_b//:/}88cc"
	bad+="020704${mac_b//:/}"		# Chassis ID: MAC
	bad+="04050565746830"			# Port ID: "eth0"
	bad+="06020078"				# TTL 120
	bad+="fff00080c20b0808"			# type 127, length 496: runs past the end
	ip netns exec "$B" "$FCTEST" raw b0 "$bad" count 3 interval-us 1000
	wait_for 4 malformed_is "$TMP/a.ev" 3
	check_err $? "a0's agent did not count 3 malformed LLDPDUs: $(tail -1 "$TMP/a.ev")"
	check_eq "$(view "$A" a0)" "$own" "a0's configuration after malformed LLDPDUs"
	stop_agents
	log_test "malformed LLDPDUs are counted and ignored"
}

both_willing()
{
	setup || { check_err 1 "setup failed"; log_test "both willing"; return; }
	agent "$B" b0 "$TMP/b.ev" willing on
	agent "$A" a0 "$TMP/a.ev" willing on
	# a0's MAC (..:dc:01) is the lower: a0 takes b0's PFC, b0 keeps its own.
	wait_for 15 has_event "$TMP/a.ev" adopted
	check_err $? "a0 (the lower MAC) did not adopt"
	check_eq "$(view "$A" a0 | jq -c '.[0:2]')" '["pfc",[3,4]]' "a0's PFC after adopting"
	sleep 2
	check_eq "$(view "$B" b0 | jq -c '.[0:2]')" '["pfc",[3,4]]' "b0's PFC (the higher MAC keeps its own)"
	grep -q '"pfc":"adopted"' "$TMP/b.ev"
	check_fail $? "b0 (the higher MAC) adopted a0's PFC too"
	stop_agents
	log_test "both ends willing: the lower MAC adopts the other's PFC (as lldpad), the higher keeps its own"
}

# One malformed ETS TLV beside a good PFC TLV: PFC is adopted, the bad TLV
# is counted and named (802.1Qaz treats each feature's TLV on its own).
bad_tlv_costs_itself()
{
	local mac_b f

	setup || { check_err 1 "setup failed"; log_test "one bad TLV"; return; }
	agent "$A" a0 "$TMP/a.ev" willing on
	sleep 1
	mac_b=$(mac_of "$B" b0)
	f="0180c200000e${mac_b//:/}88cc020704${mac_b//:/}0405056574683006020078"
	f+="fe140080c209$(printf '00%.0s' $(seq 16))"	# ETS Configuration, 20 octets (25)
	f+="fe060080c20b0808"			# PFC: not willing, cap 8, priority 3
	f+="0000"
	ip netns exec "$B" "$FCTEST" raw b0 "$f" count 3 interval-us 300000
	wait_for 6 a0_is_pfc3
	check_err $? "a0 did not adopt the good PFC TLV: $(view "$A" a0); $(tail -1 "$TMP/a.ev")"
	grep '"event":"bad-tlv"' "$TMP/a.ev" | grep -q "ETS Configuration: a TLV's length is wrong for its type"
	check_err $? "no bad-tlv event naming the ETS Configuration TLV: $(grep bad-tlv "$TMP/a.ev" | head -1)"
	check_eq "$(grep -c '"event":"bad-tlv"' "$TMP/a.ev")" 1 "bad-tlv events (named once, while it stays bad)"
	[ "$(tail -1 "$TMP/a.ev" | jq '.counters.rx_bad_tlvs')" -ge 1 ] &&
		[ "$(tail -1 "$TMP/a.ev" | jq '.counters.rx_malformed')" = 0 ]
	check_err $? "counters: $(tail -1 "$TMP/a.ev" | jq -c .counters)"
	stop_agents
	log_test "a malformed ETS TLV costs only itself: the LLDPDU's PFC TLV is adopted"
}
a0_is_pfc3() { [ "$(view "$A" a0 | jq -c '.[0:2]')" = '["pfc",[3]]' ]; }

# b0's APP table (dcb app add dscp-prio 26:3, 46:5) travels in its APP TLV:
# willing a0 takes it (flowctl's map and the kernel's APP table, as dcb app
# show reads it), and has its own (empty) back when b0 leaves.
app_adopted()
{
	setup || { check_err 1 "setup failed"; log_test "APP TLV"; return; }
	ip netns exec "$B" dcb app add dev b0 dscp-prio 26:3 46:5
	check_err $? "dcb app add on b0"
	agent "$B" b0 "$TMP/b.ev" willing off
	agent "$A" a0 "$TMP/a.ev" willing on
	wait_for 15 a0_map_is '[[26,3],[46,5]]'
	check_err $? "a0 did not take b0's DSCP map: $(fc "$A" -j show dev a0 | jq -c '.[0].dscp_prio')"
	check_eq "$(ip netns exec "$A" dcb -j app show dev a0 | jq -c '.dscp_prio')" '[[26,3],[46,5]]' \
		"dcb app show dev a0 after the adoption"
	wait_for 4 last_app_is "$TMP/b.ev" agree
	check_err $? "b0's agent does not see the APP tables agree: $(tail -1 "$TMP/b.ev")"
	stop_agents
	wait_for 5 a0_map_is '[]'
	check_err $? "a0's map after b0 left: $(fc "$A" -j show dev a0 | jq -c '.[0].dscp_prio')"
	ip netns exec "$B" dcb app del dev b0 dscp-prio 26:3 46:5
	log_test "the APP TLV: a willing end takes its partner's DSCP map (dcb app), and gives it back"
}
a0_map_is() { [ "$(fc "$A" -j show dev a0 | jq -c '.[0].dscp_prio // []')" = "$1" ]; }
last_app_is() { [ "$(tail -1 "$1" | jq -r .app)" = "$2" ]; }

no_dcbx_tlvs()
{
	local mac_b plain

	setup || { check_err 1 "setup failed"; log_test "LLDPDUs without DCBX"; return; }
	# The frames below leave from b0: its agent is told to let them be.
	agent "$B" b0 "$TMP/b.ev" willing off other-agents ignore
	agent "$A" a0 "$TMP/a.ev" willing on
	wait_for 30 same_as_b0
	check_err $? "a0 never adopted (precondition)"
	# What lldpd would send from the same port: no DCBX TLV at all.
	mac_b=$(mac_of "$B" b0)
	plain="0180c200000e${mac_b//:/}88cc020704${mac_b//:/}04050565746830060200780000"
	ip netns exec "$B" "$FCTEST" raw b0 "$plain" count 5 interval-us 100000
	sleep 1
	same_as_b0
	check_err $? "a0 left b0's configuration after LLDPDUs without DCBX TLVs"
	has_event "$TMP/a.ev" reverted
	check_fail $? "a0 reverted (and flapped) on LLDPDUs without DCBX TLVs"
	stop_agents
	log_test "LLDPDUs without DCBX TLVs (another LLDP agent) change nothing"
}

# Another agent's LLDPDU leaving from b0 (lldpd's, say): b0's agent says so,
# sends TTL 0 and exits 1, and a0 gets its own configuration back.
other_agent_stops()
{
	local mac_b plain pid rc

	setup || { check_err 1 "setup failed"; log_test "another agent"; return; }
	ip netns exec "$B" flowctl -j dcbx dev b0 willing off interval 1 >"$TMP/b.ev" 2>"$TMP/b.err" &
	pid=$!
	agent "$A" a0 "$TMP/a.ev" willing on
	wait_for 30 same_as_b0
	check_err $? "a0 never adopted (precondition)"
	mac_b=$(mac_of "$B" b0)
	plain="0180c200000e${mac_b//:/}88cc020704${mac_b//:/}04050565746830060200780000"
	ip netns exec "$B" "$FCTEST" raw b0 "$plain" count 1
	wait_for 5 sh -c "! kill -0 $pid 2>/dev/null"
	check_err $? "b0's agent still runs beside another LLDP agent on b0"
	kill "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	check_eq "$rc" 1 "b0's agent's exit status"
	has_event "$TMP/b.ev" other-agent
	check_err $? "no other-agent event: $(tail -1 "$TMP/b.ev")"
	grep -q "another LLDP agent sends on b0" "$TMP/b.err"
	check_err $? "b0's agent did not say why it stopped: $(cat "$TMP/b.err")"
	wait_for 5 has_event "$TMP/a.ev" reverted
	check_err $? "a0 did not get its own back (b0's TTL 0): $(tail -1 "$TMP/a.ev")"
	stop_agents
	log_test "another LLDP agent on the port: the agent stops (TTL 0) and says why"
}

# Both ends at interval 30: a0's adoption reaches b0 within about a second
# (somethingChangedLocal), a0 meets b0 with 802.1AB's fast start
# (txFastInit 4 LLDPDUs a second apart), not one LLDPDU per 30 s, and a
# later set on b0 reaches a0 within seconds.
prompt_and_fast()
{
	local mac_a n ta tb d

	setup || { check_err 1 "setup failed"; log_test "prompt and fast"; return; }
	mac_a=$(mac_of "$A" a0)
	ip netns exec "$B" tcpdump -i b0 -nn -l -e "ether proto 0x88cc and ether src $mac_a" \
		>"$TMP/wire" 2>/dev/null &
	AGENTS+=($!)
	sleep 1
	agent "$B" b0 "$TMP/b.ev" willing off interval 30
	agent "$A" a0 "$TMP/a.ev" willing on interval 30
	wait_for 10 last_state_is "$TMP/b.ev" agree
	check_err $? "b0 did not see a0 agree within 10 s (interval 30): $(tail -1 "$TMP/b.ev")"
	ta=$(grep '"event":"adopted"' "$TMP/a.ev" | head -1 | jq -r .time)
	tb=$(grep '"event":"state"' "$TMP/b.ev" | grep '"pfc":"agree"' | head -1 | jq -r .time)
	if [ -n "$ta" ] && [ -n "$tb" ]; then
		d=$(echo "$(date -d "$tb" +%s.%N) - $(date -d "$ta" +%s.%N)" | bc)
		log_info "a0 adopted at $ta; b0 saw agreement $d s later"
		[ "$(echo "$d < 1.5" | bc)" = 1 ]
		check_err $? "b0 saw a0's adoption $d s after it (not at once)"
	else
		check_err 1 "no adopted event on a0 or agree on b0"
	fi
	sleep 5
	n=$(grep -c "LLDP" "$TMP/wire")
	log_info "LLDPDUs from a0 on the wire in its first ~7 s: $n"
	[ "$n" -ge 5 ]
	check_err $? "a0 sent $n LLDPDUs in ~7 s at interval 30: no fast start (start, 4 fast, the change)"
	# The fast start is over: a set on b0 reaches a0 at once, not at b0's
	# next interval.
	fc "$B" set dev b0 pfc-prios 3
	wait_for 5 a0_is_pfc3
	check_err $? "a0 did not follow b0's set within 5 s (interval 30): $(view "$A" a0)"
	stop_agents
	log_test "802.1AB transmission: a change at once, fast start for a new neighbour (interval 30)"
}

# cpu_ticks PID: user + system time of PID, in clock ticks
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

link_down()
{
	local pid t0 t1

	setup || { check_err 1 "setup failed"; log_test "link down"; return; }
	agent "$A" a0 "$TMP/a.ev" willing on
	pid=${AGENTS[0]}
	sleep 1
	ip -n "$A" link set a0 down
	t0=$(cpu_ticks "$pid")
	sleep 2
	t1=$(cpu_ticks "$pid")
	ip -n "$A" link set a0 up
	log_info "agent CPU while a0 was down for 2 s: $((t1 - t0)) ticks"
	[ $((t1 - t0)) -le 20 ]
	check_err $? "the agent used $((t1 - t0)) ticks of CPU in 2 s while a0 was down (spinning)"
	kill -0 "$pid" 2>/dev/null
	check_err $? "the agent died when a0 went down"
	stop_agents
	log_test "a port that goes down does not make the agent spin"
}

bridge_port()
{
	setup || { check_err 1 "setup failed"; log_test "bridge port"; return; }
	fc "$A" set dev a0 mode pfc pfc-prios 5
	ip -n "$B" link add name br0 type bridge
	ip -n "$B" link set b0 master br0
	ip -n "$B" link set br0 up
	agent "$B" b0 "$TMP/b.ev" willing on
	agent "$A" a0 "$TMP/a.ev" willing off
	wait_for 30 same_as_b0
	check_err $? "b0 (a bridge port) did not adopt a0's: a0 $(view "$A" a0), b0 $(view "$B" b0)"
	check_eq "$(view "$B" b0 | jq -c '.[1]')" "[5]" "b0's pfc_prios after adopting a0's"
	stop_agents
	log_test "the agent works on a bridge port as on a host port"
}

cleanup()
{
	stop_agents
	stop_bg
	cleanup_ns
	rm -rf "$TMP"
}

run_tests
