#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Linux's own tools drive a flowctl port (Documentation/dcb.md): Debian's
# ethtool (pause settings and statistics) and iproute2's dcb (pfc, ets,
# app, dcbx) are the judges. Each mapping is set through the tool and read
# back through flowctl -j show, and the reverse; refusals change nothing;
# counters are compared exactly after a known number of frames. The doors
# open at attach and close at detach, and a replace, a move to another
# namespace, a device's removal and rmmod leave the device as its driver
# made it.
#
#   +-- ns A --+        +-- ns B --------+
#   | a0       |========| b0             |
#   | flowctl  |  veth  | raw PAUSE/PFC  |
#   +----------+        +----------------+
#
# lldpad (Debian's) negotiates over the same pair: one daemon per namespace,
# each with its own /dev/shm (its state file) and config file; B is the
# switch end (willing no, PFC on priority 3), A the host (willing yes).
# Then lldpad against flowctl's own agent, both ways, in 802.1Qaz and in
# CEE (lldpad 1.1.1, built by scripts/deps.sh). And a lossless run
# that lldpad's negotiation makes lossless (tx_lossless.sh's lab, PFC on
# priority 3, DSCP 26):
#
#   +-- ns H --+        +-------------- ns S --------------+       +-- ns R --+
#   | a0 lldpad|========| s0 lldpad    br0      s1 (20 Mb/s)|=======| b0       |
#   | willing  |  veth  | PFC 3, not willing                 |  veth |          |
#   +----------+        +-----------------------------------+       +----------+

ALL_TESTS="doors ethtool_pause ethtool_stats dcb_pfc dcb_pfc_counts dcb_ets
	   dcb_app dcb_apptrust dcb_dcbx dcb_cee lldpad_pair lldpad_to_agent agent_to_lldpad
	   lldpad_cee lldpad_lossless
	   lifetime"
source "$(dirname "$0")/lib.sh"
require_cmd jq tc ethtool dcb lldpad lldptool iperf3
# Debian 12's dcb (iproute2 6.1) leaves the kernel's ACKs in its socket, so
# a refused "dcb pfc set" or "dcb ets set" exits 0 there: refusals are
# judged with bookworm-backports' dcb, which scripts/deps.sh unpacks into
# the cache (iproute2 >= 6.2 reads them).
DCB_NEW=${FLOWCTL_DCB_NEW:-${XDG_CACHE_HOME:-/root/.cache}/flowctl/iproute2-bpo/sbin/dcb}
[ -x "$DCB_NEW" ] || skip_script "no $DCB_NEW (scripts/deps.sh fetches it)"
# Rates under TCG: the lossless run goes once more if it fails (lib.sh).
RETRY_TIMING=1
TIMING_CASES="lldpad_lossless"
# lldpad's exchange ending in lossless traffic: on make check's last kernel
# only. Each kernel still judges what it is made of: lldpad's requests to
# the doors (lldpad_pair, lldpad_to_agent, agent_to_lldpad) and the lossless
# data path (tx_lossless.sh).
USERLAND_CASES="lldpad_lossless"

topology()
{
	cleanup_ns
	setup_ns A B
	no_ipv6 "$A" "$B" || return 1
	veth_pair "$A" a0 "$B" b0 || return 1
	MAC_B=$(mac_of "$B" b0)
}

attach() { ip netns exec "$A" tc qdisc add dev a0 root flowctl "$@"; }
et() { ip netns exec "$A" ethtool "$@"; }
dcba() { ip netns exec "$A" dcb "$@"; }
dcbn() { ip netns exec "$A" "$DCB_NEW" "$@"; }
# dcbset ARGS...: a Debian dcb "pfc set" or "ets set" (a read, then a
# write): its exit status is not its result (the ACK it leaves behind can
# even make it say "Protocol error" after the write was done), so what it
# did is judged by the shows that follow.
dcbset() { dcba "$@" >/dev/null 2>&1; }
# pfc_on: the priorities dcb pfc show says are on
pfc_on() { dcba -j pfc show dev a0 | jq -c '[.prio_pfc | to_entries[] | select(.value) | .key]'; }

# pause_of: ethtool -a's "autoneg rx tx" for a0, or the error
pause_of()
{
	et -a a0 2>&1 | awk '/^Autonegotiate:/ { a = $2 } /^RX:/ { r = $2 }
		/^TX:/ { t = $2 } /rror|not supported/ { e = $0 }
		END { if (e != "") print e; else print a, r, t }'
}

# cfg: what flowctl says of a0's configuration
cfg()
{
	fc "$A" -j show dev a0 | jq -c ".[0] | $1"
}

# refused WHAT LOG CMD...: CMD fails, a0's configuration is unchanged and
# the kernel log says LOG (DCB and ethtool requests carry no error text).
refused()
{
	local what=$1 log=$2 before lines

	shift 2
	before=$(cfg 'del(.stats, .prio)')
	lines=$(dmesg | wc -l)
	"$@" >/dev/null 2>&1
	check_fail $? "$what: $* succeeded"
	check_eq "$(cfg 'del(.stats, .prio)')" "$before" "$what: the configuration after a refused request"
	dmesg | tail -n +$((lines + 1)) | grep -qF "$log"
	check_err $? "$what: no '$log' in the kernel log: $(dmesg | tail -3)"
}

doors()
{
	topology || { setup_failed; return; }
	check_eq "$(pause_of)" "netlink error: Operation not supported" "ethtool -a before flowctl"
	dcba pfc show dev a0 >/dev/null 2>&1
	check_fail $? "dcb pfc show answered before flowctl"
	attach
	check_err $? "tc qdisc add failed"
	check_eq "$(cfg .doors)" '{"ethtool_pause":true,"dcb":true}' "doors after attach"
	check_eq "$(pause_of)" "off on off" "ethtool -a: flowctl's defaults (mode pause rx on tx off)"
	check_eq "$(dcba -j pfc show dev a0 | jq -c '.pfc_cap')" 8 "dcb pfc show: pfc-cap"
	ip netns exec "$A" tc qdisc del dev a0 root
	dcba pfc show dev a0 >/dev/null 2>&1
	check_fail $? "dcb pfc show answered after detach"
	# A closed pause door: no pause, no change (dcb.md says why).
	check_eq "$(pause_of)" "off off off" "ethtool -a after detach"
	et -A a0 rx on >/dev/null 2>&1
	check_fail $? "ethtool -A answered after detach"
	attach
	check_eq "$(pause_of)" "off on off" "ethtool -a after attaching again"
	check_eq "$(cfg .doors)" '{"ethtool_pause":true,"dcb":true}' "doors after attaching again"
	log_test "doors: ethtool and dcb answer from attach to detach, and again"
}

ethtool_pause()
{
	topology || { setup_failed; return; }
	attach
	et -A a0 rx off tx on
	check_err $? "ethtool -A a0 rx off tx on failed"
	check_eq "$(cfg '[.mode, .rx, .tx]')" '["pause",false,true]' "flowctl after ethtool -A rx off tx on"
	fc "$A" set dev a0 rx on tx off
	check_eq "$(pause_of)" "off on off" "ethtool -a after flowctl set rx on tx off"
	refused "autoneg" "flowctl: ethtool: pause is not negotiated" et -A a0 autoneg on
	fc "$A" set dev a0 mode pfc pfc-prios 3
	check_eq "$(pause_of)" "off off off" "ethtool -a in mode pfc"
	refused "PAUSE while PFC is on" "flowctl: ethtool: PFC is on" et -A a0 rx on
	fc "$A" set dev a0 mode off
	et -A a0 rx on tx off
	check_err $? "ethtool -A a0 rx on in mode off failed"
	check_eq "$(cfg '[.mode, .rx, .tx]')" '["pause",true,false]' "flowctl after ethtool -A rx on in mode off"
	log_test "ethtool -a/-A: mode pause's rx and tx, both ways; autoneg and PAUSE under PFC refused"
}

# B sends 5 XOFF and 3 XON: ethtool -I -a counts the 8 (PAUSE frames, both
# kinds), as flowctl does.
ethtool_stats()
{
	local st i

	topology || { setup_failed; return; }
	attach
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 1)" count 5 >/dev/null
	ip netns exec "$B" "$FCTEST" raw b0 "$(pause_hex "$MAC_B" 0)" count 3 >/dev/null
	for ((i = 0; i < 40; i++)); do
		[ "$(fc_get "$A" a0 '| .stats.rx_pause + .stats.rx_xon')" = 8 ] && break
		sleep 0.05
	done
	st=$(et -I -a a0 | awk '/rx_pause_frames:/ { print $2 }')
	check_eq "$st" 8 "ethtool -I -a: rx_pause_frames"
	check_eq "$(fc_get "$A" a0 '| [.stats.rx_pause, .stats.rx_xon] | join(" ")')" "5 3" \
		"flowctl's rx_pause and rx_xon"
	# tx_pause_frames: tx_lossless.sh pause_lossless, where s0 sends some.
	log_test "ethtool -I -a: the PAUSE frames received, XOFF and XON, from flowctl's counters"
}

dcb_pfc()
{
	local h0

	topology || { setup_failed; return; }
	attach
	dcbset pfc set dev a0 prio-pfc 3:on 5:on
	check_eq "$(cfg '[.mode, .pfc_prios, .rx, .tx]')" '["pfc",[3,5],true,true]' \
		"flowctl after dcb pfc set prio-pfc 3:on 5:on"
	check_eq "$(pfc_on)" '[3,5]' "dcb pfc show: prio-pfc"
	fc "$A" set dev a0 pfc-prios 4
	check_eq "$(pfc_on)" '[4]' "dcb pfc show after flowctl set pfc-prios 4"
	h0=$(cfg .headroom_bytes)
	dcbset pfc set dev a0 delay 4096
	check_eq "$(cfg '[.round_trip_bits, .headroom_bytes - '"$h0"']')" '[4096,512]' \
		"round-trip and the headroom's growth after dcb pfc set delay 4096 (bits)"
	check_eq "$(dcba -j pfc show dev a0 | jq '.delay')" 4096 "dcb pfc show: delay"
	refused "macsec-bypass" "flowctl: dcb: no MACsec" dcbn pfc set dev a0 macsec-bypass on
	dcbset pfc set dev a0 prio-pfc all:off
	check_eq "$(cfg .mode)" '"off"' "flowctl after dcb pfc set prio-pfc all:off"
	fc "$A" set dev a0 mode pause
	dcbset pfc set dev a0 prio-pfc all:off
	check_eq "$(cfg .mode)" '"pause"' "mode pause kept by prio-pfc all:off"
	log_test "dcb pfc: prio-pfc is mode pfc, delay the round trip in the headroom, both ways"
}

# PFC frames from B: four name priority 3, one names 3 and 5 (an XON for
# 5): dcb -s counts indications per priority named.
dcb_pfc_counts()
{
	local i got

	topology || { setup_failed; return; }
	attach
	dcbset pfc set dev a0 prio-pfc 3:on
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x08 0 0 0 100)" count 4 >/dev/null
	ip netns exec "$B" "$FCTEST" raw b0 "$(pfc_hex "$MAC_B" 0x28 0 0 0 100 0 0)" >/dev/null
	for ((i = 0; i < 40; i++)); do
		[ "$(fc_get "$A" a0 .stats.rx_pfc)" = 5 ] && break
		sleep 0.05
	done
	got=$(dcba -s -j pfc show dev a0)
	check_eq "$(echo "$got" | jq -c '[.indications[3], .indications[5], .indications[0]]')" '[5,1,0]' \
		"dcb -s pfc show: indications of priorities 3, 5 and 0"
	# requests: lldpad_lossless, where s0 sends PFC.
	log_test "dcb -s pfc show: the PFC frames received per priority, from flowctl's counters"
}

dcb_ets()
{
	local e

	topology || { setup_failed; return; }
	attach
	dcbset ets set dev a0 prio-tc 0:0 1:1 2:2 3:3 4:4 5:5 6:6 7:7 tc-tsa all:strict 3:ets 4:ets \
		tc-bw all:0 3:60 4:40
	check_eq "$(cfg '[.prio_tc, .tc_bw]')" '[[0,1,2,3,4,5,6,7],[0,0,0,60,40,0,0,0]]' \
		"flowctl after dcb ets set"
	e=$(dcba -j ets show dev a0)
	check_eq "$(echo "$e" | jq -c '[.tc_tsa[3], .tc_tsa[0], .tc_bw[3], .tc_bw[4], .ets_cap]')" \
		'["ets","strict",60,40,8]' "dcb ets show"
	fc "$A" set dev a0 ets off prio-tc 8021q
	check_eq "$(dcba -j ets show dev a0 | jq -c '[(.tc_tsa | unique), .prio_tc[0], .prio_tc[1]]')" \
		'[["strict"],1,0]' "dcb ets show after flowctl set ets off prio-tc 8021q"
	refused "cbs" "flowctl: dcb: flowctl's classes are strict or ets" \
		dcbn ets set dev a0 tc-tsa 2:cbs
	refused "an ets class of 0%" "flowctl: dcb: an ets class needs a share" \
		dcbn ets set dev a0 tc-tsa 3:ets 4:ets tc-bw 3:0 4:100
	log_test "dcb ets: prio-tc and the strict and ets classes, both ways; cbs and a 0% ets class refused"
}

# count_prio P CMD...: how many packets priority P's band sent while CMD ran
count_prio()
{
	local p=$1 s0

	shift
	s0=$(fc_get "$A" a0 ".prio[$p].tx_packets")
	"$@" >/dev/null 2>&1
	echo $(($(fc_get "$A" a0 ".prio[$p].tx_packets") - s0))
}

dcb_app()
{
	local ping_ef ping_26

	topology || { setup_failed; return; }
	ip -n "$A" addr add 198.18.0.1/24 dev a0
	ip -n "$B" addr add 198.18.0.2/24 dev b0
	ip -n "$A" neigh add 198.18.0.2 lladdr "$MAC_B" dev a0 nud permanent
	attach trust dscp
	ping_ef=(ip netns exec "$A" ping -q -c 3 -i 0.2 -W 1 -Q 0xb8 198.18.0.2)
	ping_26=(ip netns exec "$A" ping -q -c 3 -i 0.2 -W 1 -Q 0x68 198.18.0.2)
	check_eq "$(count_prio 5 "${ping_ef[@]}")" 3 "DSCP 46 (EF) on priority 5 with no APP entry (46 >> 3)"
	dcba app add dev a0 dscp-prio 26:3
	check_err $? "dcb app add dscp-prio 26:3 failed"
	check_eq "$(cfg .dscp_prio)" '[[26,3]]' "flowctl after dcb app add dscp-prio 26:3"
	check_eq "$(dcba -j app show dev a0 | jq -c '.dscp_prio')" '[[26,3]]' "dcb app show"
	check_eq "$(count_prio 3 "${ping_26[@]}")" 3 "DSCP 26 on priority 3 by the APP table"
	check_eq "$(count_prio 0 "${ping_ef[@]}")" 3 "DSCP 46, not in the table, on priority 0"
	refused "EtherType entry" "flowctl: dcb: flowctl classifies by DSCP entries" \
		dcba app add dev a0 ethtype-prio 0x8906:3
	# The table is the device's: a replace by another flowctl keeps it.
	ip netns exec "$A" tc qdisc replace dev a0 root handle 2: flowctl trust dscp
	check_eq "$(cfg .dscp_prio)" '[[26,3]]' "flowctl's table after a replace with a new handle"
	check_eq "$(dcba -j app show dev a0 | jq -c '.dscp_prio')" '[[26,3]]' "dcb app show after the replace"
	dcba app del dev a0 dscp-prio 26:3
	check_err $? "dcb app del dscp-prio 26:3 failed"
	check_eq "$(cfg .dscp_prio)" '[]' "flowctl after dcb app del"
	check_eq "$(count_prio 5 "${ping_ef[@]}")" 3 "DSCP 46 on priority 5 again, the table empty"
	dcba app add dev a0 dscp-prio 10:1
	# Detached, the entries go with the door: none waits for the next.
	ip netns exec "$A" tc qdisc del dev a0 root
	attach
	check_eq "$(dcba -j app show dev a0 | jq -c '.dscp_prio // []')" '[]' \
		"dcb app show after detach and attach"
	check_eq "$(cfg .dscp_prio)" '[]' "flowctl's table after detach and attach"
	log_test "dcb app: DSCP entries are trust dscp's map, kept by a replace, gone at detach"
}

# APP trust exists from Linux 6.2 (6.12 here) and iproute2 6.2 (the
# backports' dcb): the orders flowctl classifies by.
dcb_apptrust()
{
	topology || setup_failed
	case $(uname -r) in
	6.1.*)
		# 6.1's DCB netlink has no APP trust: trust stays flowctl's.
		attach
		dcbn apptrust show dev a0 >/dev/null 2>&1
		check_fail $? "dcb apptrust show answered on 6.1"
		log_test "dcb apptrust: not in 6.1's DCB netlink"
		return
		;;
	esac
	attach
	check_eq "$(dcbn -j apptrust show dev a0 | jq -c '.order')" '["pcp"]' "dcb apptrust show: trust pcp"
	dcbn apptrust set dev a0 order pcp dscp
	check_err $? "dcb apptrust set order pcp dscp failed"
	check_eq "$(cfg .trust)" '"dscp"' "flowctl after dcb apptrust set order pcp dscp"
	fc "$A" set dev a0 trust pcp
	check_eq "$(dcbn -j apptrust show dev a0 | jq -c '.order')" '["pcp"]' "dcb apptrust show after flowctl set trust pcp"
	refused "order dscp pcp" "flowctl: dcb: apptrust: flowctl trusts a tagged frame's PCP first" \
		dcbn apptrust set dev a0 order dscp pcp
	log_test "dcb apptrust: order pcp is trust pcp, pcp dscp is trust dscp, both ways; dscp first refused"
}

dcb_dcbx()
{
	topology || { setup_failed; return; }
	attach
	check_eq "$(dcba -j dcbx show dev a0 | jq -c '[.host, .ieee, .cee // false, .lld_managed // false]')" \
		'[true,true,false,false]' "dcb dcbx show"
	dcba dcbx set dev a0 host cee
	check_err $? "dcb dcbx set host cee failed"
	check_eq "$(dcba -j dcbx show dev a0 | jq -c '[.host, .ieee // false, .cee]')" \
		'[true,false,true]' "dcb dcbx show after host cee"
	refused "two versions" "flowctl: dcb: dcbx: a flowctl port's DCBX is its host's agent's" \
		dcbn dcbx set dev a0 host ieee cee
	refused "lld-managed" "flowctl: dcb: dcbx: a flowctl port's DCBX is its host's agent's" \
		dcbn dcbx set dev a0 lld-managed ieee
	dcba dcbx set dev a0 host ieee
	check_err $? "dcb dcbx set host ieee failed"
	check_eq "$(dcba -j dcbx show dev a0 | jq -c '[.host, .ieee, .cee // false]')" \
		'[true,true,false]' "dcb dcbx show after host ieee"
	log_test "dcb dcbx: host ieee or host cee, one at a time; lld-managed refused"
}

# cee ARGS...: the CEE view DCB netlink gives of a0 (dcbpeer.py --cee)
cee() { ip netns exec "$A" /usr/bin/python3 "$TOP/selftests/tools/dcbpeer.py" --cee a0 | jq -c "$@"; }
# cee_do CMD...: lldpad's CEE requests to a0, the replies as "CMD=REPLY ..."
cee_do()
{
	ip netns exec "$A" /usr/bin/python3 "$TOP/selftests/tools/dcbpeer.py" --cee-do a0 "$@" |
		jq -r '"\(.cmd | sub("=.*"; ""))=\(.reply // .error | tojson)"' | tr '\n' ' ' | sed 's/ $//'
}

# lldpad's CEE groups for B's classes (lldp_dcbx_nl.c's set_pg_cfg):
# class 0 holds priorities 0-2 and 4-7 (0xf7), class 1 priority 3 (0x08),
# each its own group at 100 percent of it; groups 0 and 1 at 50 percent.
PG_50_50="0:247:0:100/1:8:0:100/2:0:0:0/3:0:0:0/4:0:0:0/5:0:0:0/6:0:0:0/7:0:0:0/50,50,0,0,0,0,0,0"

# DCB netlink's CEE commands (lldpad's CEE mode, built as lldpad builds
# them by selftests/tools/dcbpeer.py; parsed by the kernel's dcbnl, read
# back by its own CEE_GET): the getters say the configuration, the
# setters stage and setall applies, all or nothing.
dcb_cee()
{
	local before

	topology || { setup_failed; return; }
	attach mode pfc pfc-prios 3,4 prio-tc 0,0,0,1,0,0,0,0 ets 0:50,1:50
	check_eq "$(cee '[.pfc, .bwg_pct, .pg[1].up_map, .pg[0].up_map, .pg[2].strict, .dcbx]')" \
		'[[0,0,0,1,1,0,0,0],[50,50,0,0,0,0,0,0],8,247,2,9]' \
		"CEE_GET: pfc, group percents, class 1's and 0's priorities, class 2 strict, dcbx"
	ip netns exec "$A" tc qdisc del dev a0 root
	attach
	check_eq "$(cee '[.pfc, .bwg_pct, .pg[0].up_map, .pg[0].strict]')" \
		'[[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],2,2]' \
		"CEE_GET with the defaults (802.1Q's map: priority 1 in class 0)"
	# What lldpad asks of a port before it runs CEE on it.
	check_eq "$(cee_do gstate gcap gnumtcs sdcbx=5 gdcbx)" \
		'gstate=1 gcap={"pg":1,"pfc":1,"up2tc":0,"pg_tcs":128,"pfc_tcs":128,"gsp":0,"bcn":0,"dcbx":13} gnumtcs={"pg":8,"pfc":8} sdcbx=0 gdcbx=5' \
		"state, capabilities, classes, dcbx host cee"
	# Staged: nothing changes until setall.
	before=$(cfg 'del(.stats, .prio)')
	check_eq "$(cee_do pfc=00011000 pfcstate=1 pgtx=$PG_50_50 pgrx=$PG_50_50)" \
		'pfc=0 pfcstate=0 pgtx=0 pgrx=0' "PFC and groups staged"
	check_eq "$(cfg 'del(.stats, .prio)')" "$before" "the configuration before setall"
	check_eq "$(cee_do setall)" 'setall=2' "setall: changed, no link reset"
	check_eq "$(cfg '[.mode, .pfc_prios, .rx, .prio_tc, .tc_bw]')" \
		'["pfc",[3,4],true,[0,0,0,1,0,0,0,0],[50,50,0,0,0,0,0,0]]' "the configuration after setall"
	check_eq "$(cee_do setall)" 'setall=1' "setall with nothing staged: no change"
	# DCB_CMD_PGTX_GCFG and PFC_GCFG, lldpad's getters, say the same.
	check_eq "$(ip netns exec "$A" /usr/bin/python3 "$TOP/selftests/tools/dcbpeer.py" --cee-do a0 gpgtx gpfc |
		jq -c '.reply | if type == "object" then [.pg[1].up_map, .pg[0].up_map, .bwg_pct] else . end' | tr '\n' ' ')" \
		'[8,247,[50,50,0,0,0,0,0,0]] [0,0,0,1,1,0,0,0] ' "PGTX_GCFG and PFC_GCFG after setall"
	# What another door changes in between drops what was staged.
	check_eq "$(cee_do pfc=11111111)" 'pfc=0' "PFC on every priority staged"
	fc "$A" set dev a0 ets 0:60,1:40
	check_eq "$(cee_do setall)" 'setall=1' "setall after a flowctl set: nothing left staged"
	check_eq "$(cfg '[.pfc_prios, .tc_bw]')" '[[3,4],[60,40,0,0,0,0,0,0]]' "flowctl set kept"
	# A class whose group has 0 percent is ETS at the least share, not
	# strict (flowctl's share 0).
	check_eq "$(cee_do "pgtx=0:247:0:100/2:8:0:100/2:0:0:0/3:0:0:0/4:0:0:0/5:0:0:0/6:0:0:0/7:0:0:0/100,0,0,0,0,0,0,0" setall)" \
		'pgtx=0 setall=2' "class 1 in a group of 0 percent"
	check_eq "$(cfg '.tc_bw')" '[99,1,0,0,0,0,0,0]' "class 1 at the least ETS share"
	# A link strict class is strict; groups that do not sum to 100 are
	# scaled; PFC state off is PFC off.
	check_eq "$(cee_do "pgtx=0:247:0:100/1:8:2:100/2:0:0:0/3:0:0:0/4:0:0:0/5:0:0:0/6:0:0:0/7:0:0:0/30,30,0,0,0,0,0,0" \
		pfcstate=0 setall)" 'pgtx=0 pfcstate=0 setall=2' "strict class 1, groups of 30, PFC off"
	check_eq "$(cfg '[.mode, .prio_tc, .tc_bw]')" '["off",[0,0,0,1,0,0,0,0],[100,0,0,0,0,0,0,0]]' \
		"class 1 strict, class 0 scaled to 100, PFC off"
	# Refused, and nothing changed: DCB off, a PFC setting other than full
	# or off (the staged rest stays unapplied), a DCBX the port has not.
	before=$(cfg 'del(.stats, .prio)')
	refused_cee "sstate=0" 'sstate=1' "flowctl: dcb: a flowctl port's DCB is on while flowctl is attached"
	refused_cee "pfc=00020000" 'pfc=0' "flowctl: dcb: a priority's PFC is on both ways on a flowctl port"
	refused_cee "sdcbx=3" 'sdcbx=1' "flowctl: dcb: dcbx: a flowctl port's DCBX is its host's agent's"
	check_eq "$(cee_do setall)" 'setall=1' "setall after the refused setting"
	check_eq "$(cfg 'del(.stats, .prio)')" "$before" "the configuration after the refusals"
	log_test "DCB netlink's CEE commands (lldpad's): getters say the configuration, setall applies what was staged"
}

# refused_cee CMD REPLY LOG: lldpad's CMD gets REPLY and the kernel log LOG
refused_cee()
{
	local lines

	lines=$(dmesg | wc -l)
	check_eq "$(cee_do "$1")" "$2" "$1"
	dmesg | tail -n +$((lines + 1)) | grep -qF "$3"
	check_err $? "$1: no '$3' in the kernel log: $(dmesg | tail -2)"
}

LLDPAD_PIDS=()
LDIR=$(mktemp -d)

# start_lldpad NS: lldpad in NS, its log in $LDIR/NS.log, ready when
# lldptool reaches it. ip netns exec gives it a mount namespace of its
# own, where /dev/shm (lldpad.state) is made private.
start_lldpad()
{
	local i

	ip netns exec "$1" env PATH="${LLDPAD_SBIN:+$LLDPAD_SBIN:}$PATH" \
		sh -c 'mount -t tmpfs -o size=64k,mode=1777 lldpad-shm /dev/shm &&
		exec stdbuf -oL lldpad -p -t -V 6 -f "$0"' "$LDIR/$1.conf" >"$LDIR/$1.log" 2>&1 &
	LLDPAD_PIDS+=($!)
	for ((i = 0; i < 50; i++)); do
		lt "$1" -p >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	echo "lldpad in $1 did not answer: $(tail -3 "$LDIR/$1.log")"
	return 1
}

stop_lldpad()
{
	local p

	for p in "${LLDPAD_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${LLDPAD_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	LLDPAD_PIDS=()
	rm -f "$LDIR"/*.conf
}

# lt NS ARGS...: lldptool in NS; dt NS ARGS...: dcbtool (LLDPAD_SBIN's, if set)
lt() { local ns=$1; shift; ip netns exec "$ns" "${LLDPAD_SBIN:+$LLDPAD_SBIN/}lldptool" "$@"; }
dt() { local ns=$1; shift; ip netns exec "$ns" "${LLDPAD_SBIN:+$LLDPAD_SBIN/}dcbtool" "$@"; }

# The switch end: PFC on priority 3, not willing; ETS all strict (flowctl
# refuses no part of it, so the PFC in the same request lands).
lldpad_switch()
{
	lt "$B" -L -i b0 adminStatus=rxtx >/dev/null &&
	lt "$B" -T -i b0 -V ETS-CFG enableTx=yes willing=no up2tc=0:0,1:0,2:0,3:0,4:0,5:0,6:0,7:0 \
		tsa=0:strict,1:strict,2:strict,3:strict,4:strict,5:strict,6:strict,7:strict \
		tcbw=100,0,0,0,0,0,0,0 >/dev/null &&
	lt "$B" -T -i b0 -V PFC enableTx=yes willing=no enabled=3 >/dev/null
}

lldpad_host()
{
	lt "$A" -L -i a0 adminStatus=rxtx >/dev/null &&
	lt "$A" -T -i a0 -V PFC enableTx=yes willing=yes >/dev/null
}

# wait_pfc NS DEV PRIOS SECONDS: until flowctl on DEV runs mode pfc on PRIOS
wait_pfc()
{
	local i

	for ((i = 0; i < $4 * 5; i++)); do
		[ "$(fc "$1" -j show dev "$2" | jq -c '[.[0].mode, .[0].pfc_prios]')" = "[\"pfc\",$3]" ] &&
			return 0
		sleep 0.2
	done
	return 1
}

lldpad_pair()
{
	topology || setup_failed
	attach
	ip netns exec "$B" tc qdisc add dev b0 root flowctl
	# The doors open before lldpad looks at the ports.
	start_lldpad "$A" && start_lldpad "$B"
	check_err $? "lldpad did not start"
	lldpad_switch
	check_err $? "lldptool on the switch end failed"
	lldpad_host
	check_err $? "lldptool on the host end failed"
	wait_pfc "$A" a0 "[3]" 15
	check_err $? "the willing end's flowctl after lldpad: $(cfg '[.mode, .pfc_prios, .rx, .tx]'); lldptool -n: $(lt "$A" -t -n -i a0 -V PFC 2>&1 | tr '\n\t' '  ')"
	check_eq "$(pfc_on)" '[3]' "dcb pfc show on the willing end"
	wait_pfc "$B" b0 "[3]" 5
	check_err $? "the switch end's flowctl after lldpad: $(fc "$B" -j show dev b0 | jq -c '.[0] | [.mode, .pfc_prios]')"
	check_eq "$(cfg '[.rx, .tx]')" '[true,true]' "the willing end honors and sends PFC"
	lt "$A" -t -n -i a0 -V PFC | grep -q "PFC enabled: 3"
	check_err $? "lldpad on A did not hear B's PFC TLV"
	# flowctl doctor names who runs DCBX on the port.
	check_eq "$(fc "$A" -j doctor dev a0 interval 0.1 2>/dev/null |
		jq -r '.findings[] | select(.id == "dcbx-agent") | .measured')" \
		"an LLDP packet socket (0x88cc) bound to a0: lldpad (pid ${LLDPAD_PIDS[0]})" \
		"doctor's dcbx-agent on a0"
	stop_lldpad
	log_test "lldpad on both ends: the willing flowctl port takes the switch's PFC on priority 3 through DCB netlink"
}

# flowctl's agent advertises B's configuration; lldpad on A adopts it.
lldpad_to_agent()
{
	local agent

	topology || setup_failed
	attach
	ip netns exec "$B" tc qdisc add dev b0 root flowctl mode pfc pfc-prios 3
	fc "$B" -j dcbx dev b0 willing off interval 1 >"$LDIR/agent.ev" 2>&1 &
	agent=$!
	start_lldpad "$A"
	check_err $? "lldpad did not start"
	lldpad_host
	check_err $? "lldptool on A failed"
	wait_pfc "$A" a0 "[3]" 15
	check_err $? "A's flowctl after lldpad heard flowctl's agent: $(cfg '[.mode, .pfc_prios]')"
	kill "$agent" 2>/dev/null
	wait "$agent" 2>/dev/null
	# A second agent on lldpad's port: flowctl's refuses to start, saying
	# why; told to ignore lldpad, it runs, and doctor warns of two neighbours.
	fc "$A" dcbx dev a0 willing off interval 1 >"$LDIR/agent2.out" 2>&1
	check_eq "$?" 1 "flowctl dcbx beside lldpad: exit status"
	grep -q "lldpad (pid [0-9]*) runs in this network namespace" "$LDIR/agent2.out"
	check_err $? "flowctl dcbx beside lldpad did not name it: $(head -2 "$LDIR/agent2.out")"
	fc "$A" -j dcbx dev a0 willing off interval 1 other-agents ignore >"$LDIR/agent2.ev" 2>&1 &
	agent=$!
	sleep 0.5
	check_eq "$(fc "$A" -j doctor dev a0 interval 0.1 2>/dev/null |
		jq -r '.findings[] | select(.id == "dcbx-agents") | .severity')" warning \
		"doctor's dcbx-agents with lldpad and flowctl dcbx on a0"
	kill "$agent" 2>/dev/null
	wait "$agent" 2>/dev/null
	stop_lldpad
	log_test "lldpad (willing) takes PFC from flowctl's own DCBX agent; flowctl's agent will not start beside lldpad"
}

# lldpad advertises the switch's configuration; flowctl's agent on A adopts it.
agent_to_lldpad()
{
	local agent

	topology || setup_failed
	attach
	ip netns exec "$B" tc qdisc add dev b0 root flowctl
	start_lldpad "$B"
	check_err $? "lldpad did not start"
	lldpad_switch
	check_err $? "lldptool on B failed"
	fc "$A" -j dcbx dev a0 willing on interval 1 >"$LDIR/agent.ev" 2>&1 &
	agent=$!
	wait_pfc "$A" a0 "[3]" 15
	check_err $? "A's flowctl after its agent heard lldpad: $(cfg '[.mode, .pfc_prios]'); agent: $(tail -2 "$LDIR/agent.ev")"
	kill "$agent" 2>/dev/null
	wait "$agent" 2>/dev/null
	stop_lldpad
	log_test "flowctl's DCBX agent (willing) takes PFC from lldpad"
}

# lldpad in CEE mode: Debian 13's lldpad 1.1.1, which scripts/deps.sh builds
# into the cache (Debian 12's never sends a CEE TLV: Documentation/dcb.md).
LLDPAD_CEE=$(ls -d "${XDG_CACHE_HOME:-/root/.cache}"/flowctl/lldpad-*/sbin 2>/dev/null | tail -1)

# cee_field NS DEV CMD FIELD: dcbtool's CMD (go, gp) of DEV's PFC, FIELD's value
# (the caller sets LLDPAD_SBIN)
cee_field()
{
	dt "$1" "$3" "$2" pfc 2>&1 |
		awk -F'\t' -v f="$4" '$1 ~ "^" f ":" { $1 = ""; gsub(/[ \t]+/, ""); print; exit }'
}

# lldpad_cee_dump NS DEV: what lldpad says of DEV's PFC (for a failure)
lldpad_cee_dump()
{
	echo "gc: $(dt "$1" gc "$2" pfc 2>&1 | tr '\n\t' '  ')"
	echo "go: $(dt "$1" go "$2" pfc 2>&1 | tr '\n\t' '  ')"
	echo "gp: $(dt "$1" gp "$2" pfc 2>&1 | tr '\n\t' '  ')"
}

lldpad_cee()
{
	local agent cap own i LLDPAD_SBIN=$LLDPAD_CEE	# lt, dt, start_lldpad: lldpad 1.1.1's

	if [ -z "$LLDPAD_CEE" ]; then
		log_skip "lldpad in CEE mode" "lldpad 1.1.1 in the cache (scripts/deps.sh builds it)"
		return
	fi
	topology || { setup_failed; return; }
	attach
	own=$(cfg '[.mode, .pfc_prios]')
	ip netns exec "$B" tc qdisc add dev b0 root flowctl mode pfc pfc-prios 3
	# The host: lldpad on a0 in its default mode (IEEE, CEE once the
	# partner speaks only CEE), its CEE features willing as it ships them;
	# the switch: flowctl's agent in CEE, not willing, PFC on 3.
	ip netns exec "$A" tcpdump -i a0 -nn -U -w "$LDIR/cee.pcap" ether proto 0x88cc 2>/dev/null &
	cap=$!
	fc "$B" -j dcbx dev b0 willing off mode cee interval 1 >"$LDIR/agent.ev" 2>&1 &
	agent=$!
	start_lldpad "$A"
	check_err $? "lldpad $LLDPAD_CEE did not start"
	lt "$A" -L -i a0 adminStatus=rxtx >/dev/null
	wait_pfc "$A" a0 "[3]" 20
	check_err $? "a0 after lldpad (CEE) heard flowctl's agent: $(cfg '[.mode, .pfc_prios]'); $(lldpad_cee_dump "$A" a0)"
	check_contains "$(dcba dcbx show dev a0)" "host cee" "dcb dcbx show: lldpad runs CEE on a0"
	# lldpad's own word: its operational PFC and its peer's.
	check_eq "$(cee_field "$A" a0 go pfcup)" 00010000 "dcbtool go a0 pfc: pfcup"
	check_eq "$(cee_field "$A" a0 gp pfcup)" 00010000 "dcbtool gp a0 pfc: the peer's pfcup"
	# flowctl's agent hears lldpad: willing, it takes the agent's PFC. (A
	# CEE TLV carries the sender's own configuration, not what it runs:
	# lldpad's still says PFC on no priority, so the agent's state stays
	# partner-adopts.)
	check_eq "$(grep '"event":"state"' "$LDIR/agent.ev" | tail -1 | jq -c '[.pfc, .partner_willing]')" \
		'["partner-adopts",true]' "b0's agent on lldpad's CEE PFC"
	kill $cap $agent 2>/dev/null
	wait $cap $agent 2>/dev/null
	# tshark: lldpad's LLDPDUs from a0 carry CEE's DCBX TLV, whose AckNo
	# is the agent's SeqNo (1) and whose features (PG, PFC, App) are willing.
	check_eq "$(tshark -n -r "$LDIR/cee.pcap" -Y "eth.src == $(mac_of "$A" a0) && lldp.dcbx.proto" \
		-T fields -E separator=';' -e lldp.dcbx.proto -e lldp.dcbx.control.ack \
		-e lldp.dcbx.feature.willing 2>/dev/null | tail -1)" \
		"0x02;1;1,1,1" "tshark on lldpad's last CEE TLV from a0: subtype 2, AckNo 1, willing"
	stop_lldpad
	# The other way: lldpad as the switch (forced CEE, not willing, PFC on
	# 3) on b0; flowctl's agent in CEE, willing, on a0.
	ip netns exec "$A" tc qdisc del dev a0 root && attach &&
	ip netns exec "$B" tc qdisc del dev b0 root && ip netns exec "$B" tc qdisc add dev b0 root flowctl
	check_err $? "flowctl again on a0 and b0 failed"
	check_eq "$(cfg '[.mode, .pfc_prios]')" "$own" "a0 before the second exchange"
	printf 'dcbx : { version = "1.0"; dcbx_version = 6; };\n' >"$LDIR/$B.conf"
	start_lldpad "$B"
	check_err $? "lldpad $LLDPAD_CEE (forced CEE) did not start on B"
	lt "$B" -L -i b0 adminStatus=rxtx >/dev/null &&
	dt "$B" sc b0 dcb on >/dev/null &&
	dt "$B" sc b0 pfc e:1 a:1 w:0 pfcup:00010000 >/dev/null
	check_err $? "dcbtool on b0 failed"
	fc "$A" -j dcbx dev a0 willing on mode cee interval 1 >"$LDIR/agent.ev" 2>&1 &
	agent=$!
	wait_pfc "$A" a0 "[3]" 20
	check_err $? "a0's agent did not take lldpad's CEE PFC: $(cfg '[.mode, .pfc_prios]'); $(tail -2 "$LDIR/agent.ev")"
	# lldpad programs its own port once it deems it online (its dormant
	# delay, some seconds).
	wait_pfc "$B" b0 "[3]" 20
	check_err $? "lldpad did not set b0's own PFC through DCB netlink: $(fc "$B" -j show dev b0 | jq -c '.[0] | [.mode, .pfc_prios]'); $(lldpad_cee_dump "$B" b0)"
	# lldpad hears the agent, willing, and calls their exchange in sync
	# (the agent acknowledged its SeqNo).
	for ((i = 0; i < 25; i++)); do
		[ "$(cee_field "$B" b0 go Syncd)" = true ] && break
		sleep 0.2
	done
	check_eq "$(cee_field "$B" b0 go Syncd)/$(cee_field "$B" b0 go 'Oper Mode')" true/true \
		"dcbtool go b0 pfc: Syncd/Oper Mode"
	check_eq "$(cee_field "$B" b0 gp Willing)" true "dcbtool gp b0 pfc: the agent is willing"
	kill $agent 2>/dev/null
	wait $agent 2>/dev/null
	stop_lldpad
	log_test "lldpad in CEE mode (1.1.1): takes flowctl's CEE PFC through DCB netlink's CEE commands, and gives its own to flowctl's agent"
}

# offer_26 N: N UDP datagrams of DSCP 26 from H to R through S, as fast as
# a0's 200 Mb/s takes them into s1's 20 Mb/s; sets DROPS (at s1) and GOT.
offer_26()
{
	local d0 d1 rp

	d0=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	ip netns exec "$R" "$FCTEST" recv 9000 2 >"$LDIR/r" &
	rp=$!
	while ! grep -q ready "$LDIR/r"; do sleep 0.05; done
	timeout 120 ip netns exec "$H" "$FCTEST" send 198.18.0.2 9000 0 "$1" size 1400 \
		tos 0x68 >/dev/null
	wait $rp
	d1=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	DROPS=$((d1 - d0))
	GOT=$(awk '/^packets/ {print $2}' "$LDIR/r")
}

lldpad_lossless()
{
	local d0 d1 retr sp req

	cleanup_ns
	setup_ns H S R
	no_ipv6 "$H" "$S" "$R"
	veth_pair "$H" a0 "$S" s0
	veth_pair "$S" s1 "$R" b0
	ip -n "$S" link add name br0 type bridge
	ip -n "$S" link set s0 master br0
	ip -n "$S" link set s1 master br0
	ip -n "$S" link set br0 up
	ip -n "$H" addr add 198.18.0.1/24 dev a0
	ip -n "$R" addr add 198.18.0.2/24 dev b0
	ip -n "$H" neigh add 198.18.0.2 lladdr "$(mac_of "$R" b0)" dev a0 nud permanent
	ip -n "$R" neigh add 198.18.0.1 lladdr "$(mac_of "$H" a0)" dev b0 nud permanent
	# As tx_lossless.sh: a0 at 10x s1's rate, quanta timed at 1000 Mb/s,
	# s0's thresholds wide enough for software reacting under TCG.
	ip netns exec "$H" tc qdisc add dev a0 root flowctl speed 1000 rate 200mbit trust dscp &&
	ip netns exec "$S" tc qdisc add dev s0 root flowctl speed 1000 trust dscp \
		prio 3 xoff 500k xon 350k &&
	ip netns exec "$S" tc qdisc add dev s1 root flowctl rate 20mbit trust dscp
	check_err $? "attaching flowctl failed"
	# Baseline: no DCBX yet, so no PFC: the overload drops at s1.
	offer_26 3000
	log_info "baseline: drops at s1 $DROPS, received $GOT/3000"
	[ "$DROPS" -gt 0 ]
	check_err $? "no drops at s1 before lldpad negotiated PFC: the lab proves nothing"
	start_lldpad "$H" && start_lldpad "$S"
	check_err $? "lldpad did not start"
	lt "$S" -L -i s0 adminStatus=rxtx >/dev/null &&
	lt "$S" -T -i s0 -V ETS-CFG enableTx=yes willing=no up2tc=0:0,1:0,2:0,3:0,4:0,5:0,6:0,7:0 \
		tsa=0:strict,1:strict,2:strict,3:strict,4:strict,5:strict,6:strict,7:strict \
		tcbw=100,0,0,0,0,0,0,0 >/dev/null &&
	lt "$S" -T -i s0 -V PFC enableTx=yes willing=no enabled=3 >/dev/null
	check_err $? "lldptool on s0 failed"
	lt "$H" -L -i a0 adminStatus=rxtx >/dev/null &&
	lt "$H" -T -i a0 -V PFC enableTx=yes willing=yes >/dev/null
	check_err $? "lldptool on a0 failed"
	wait_pfc "$H" a0 "[3]" 15
	check_err $? "a0 did not take PFC on priority 3 from lldpad"
	wait_pfc "$S" s0 "[3]" 5
	check_err $? "s0 is not in mode pfc on priority 3 after lldpad"
	offer_26 3000
	log_info "after lldpad: drops at s1 $DROPS, received $GOT/3000; s0 sent PFC $(fc_get "$S" s0 .stats.tx_pfc), a0 received $(fc_get "$H" a0 .stats.rx_pfc)"
	check_eq "$DROPS" 0 "UDP drops at s1 once lldpad negotiated PFC on priority 3"
	check_eq "$GOT" 3000 "datagrams received"
	[ "$(fc_get "$H" a0 .prio[3].rx_pfc)" -gt 0 ]
	check_err $? "a0 received no PFC for priority 3"
	# dcb -s: what s0 sent per priority (requests) is flowctl's count.
	req=$(ip netns exec "$S" dcb -s -j pfc show dev s0 | jq '.requests[3]')
	check_eq "$req" "$(fc_get "$S" s0 '.prio[3] | .tx_pfc + .tx_pfc_xon')" \
		"dcb -s pfc show on s0: requests of priority 3"
	[ "${req:-0}" -gt 0 ]
	check_err $? "s0's requests for priority 3: $req"
	d0=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	ip netns exec "$R" iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
	sp=$!
	sleep 0.5
	retr=$(ip netns exec "$H" timeout 60 iperf3 -c 198.18.0.2 -p 5201 -t 5 -P 2 -S 0x68 -J |
	       jq '.end.sum_sent.retransmits')
	wait $sp 2>/dev/null
	d1=$(ip netns exec "$S" tc -j -s qdisc show dev s1 | jq '.[0].drops')
	log_info "TCP x2, DSCP 26: drops at s1 $((d1 - d0)), retransmits $retr"
	check_eq "$((d1 - d0))" 0 "TCP drops at s1 with the PFC lldpad negotiated"
	stop_lldpad
	log_test "lossless by lldpad: drops before DCBX, none (UDP and TCP at overload) once lldpad set PFC on priority 3"
}

lifetime()
{
	local i gone

	topology || { setup_failed; return; }
	setup_ns C
	attach
	dcbset pfc set dev a0 prio-pfc 3:on
	# A move to another namespace destroys the qdisc: doors closed there.
	ip -n "$A" link set a0 netns "$C"
	ip netns exec "$C" dcb pfc show dev a0 >/dev/null 2>&1
	check_fail $? "dcb pfc show answered in the new namespace without flowctl"
	check_eq "$(ip netns exec "$C" ethtool -a a0 2>&1 | awk '/^RX:/ { r = $2 } /^TX:/ { t = $2 } END { print r, t }')" \
		"off off" "ethtool -a in the new namespace: the closed door moved with the device"
	ip netns exec "$C" tc qdisc add dev a0 root flowctl
	check_eq "$(ip netns exec "$C" dcb -j pfc show dev a0 | jq -c '.pfc_cap')" 8 \
		"dcb pfc show after attaching in the new namespace"
	# Removed with flowctl attached; and a closed door's device removed.
	ip -n "$C" link del a0
	veth_pair "$A" x0 "$B" y0
	ip netns exec "$A" tc qdisc add dev x0 root flowctl
	ip netns exec "$A" tc qdisc del dev x0 root
	ip -n "$A" link del x0
	# ethtool -A while flowctl comes and goes: nothing may oops or warn.
	veth_pair "$A" a0 "$B" b0
	(for ((i = 0; i < 200; i++)); do
		ip netns exec "$A" ethtool -A a0 rx on tx off 2>/dev/null
		ip netns exec "$A" ethtool -A a0 rx off tx off 2>/dev/null
	done) &
	for ((i = 0; i < 50; i++)); do
		ip netns exec "$A" tc qdisc add dev a0 root flowctl 2>/dev/null
		ip netns exec "$A" tc qdisc del dev a0 root 2>/dev/null
	done
	wait
	# Unloaded, the module gives a device its driver's operations back.
	gone=1
	for ((i = 0; i < 20; i++)); do
		rmmod flowctl 2>/dev/null && { gone=0; break; }
		sleep 0.2
	done
	check_err $gone "rmmod flowctl failed: $(lsmod | grep '^flowctl')"
	check_eq "$(pause_of)" "netlink error: Operation not supported" "ethtool -a after rmmod"
	modprobe flowctl
	check_err $? "modprobe flowctl failed"
	log_test "lifetime: a move, a removal, ethtool racing attach and detach, rmmod: the driver's own again"
}

run_tests
