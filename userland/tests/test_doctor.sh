#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# flowctl doctor on the host, in a network namespace of its own (unshare
# -n): the facts it reads from real drivers, as ethtool(8) reads them. A
# veth reports 10000 Mb/s full duplex and has no MAC flow control
# (ETHTOOL_MSG_PAUSE_GET: EOPNOTSUPP) nor dcbnl; a tap reports the speed
# and duplex ethtool gave it, so a half-duplex link can be made. The
# host's kernel has no flowctl module: doctor says no-module and exits 3
# (with the module loaded it says no-qdisc instead). selftests/doctor.sh
# judges the counter rules against the module, in the VM.
# Without unshare -n (root): exit 4.
#
# usage: test_doctor.sh USERLAND-DIR
dir=$(cd "${1:?usage: $0 USERLAND-DIR}" && pwd)
PYTHON=${PYTHON:-python3}
echo "TAP version 13"
if ! unshare -n true 2>/dev/null; then
	echo "1..0 # SKIP needs unshare -n (root)"
	exit 4
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
		sed 's/^/# out: /' "$tmp/out" 2>/dev/null | head -20
		sed 's/^/# err: /' "$tmp/err" 2>/dev/null | head -5
	fi
}
# What the module's absence or presence makes of a device without a qdisc.
if [ -d /sys/module/flowctl ]; then
	first=no-qdisc
else
	first=no-module
fi

# ns SCRIPT: run SCRIPT (bash) in a fresh network namespace, with
# FLOWCTL the binary; its stdout, stderr and exit status in $tmp.
ns() {
	FLOWCTL=$dir/flowctl unshare -n bash -c "$1" >"$tmp/out" 2>"$tmp/err"
	echo $? >"$tmp/rc"
}
rc() { cat "$tmp/rc"; }
# json PYTHON-EXPRESSION: true when it holds for the JSON in $tmp/out (d)
json() {
	"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$tmp/out" "$1" 2>>"$tmp/err"
}
veth='ip link add va type veth peer name vb && ip link set va up && ip link set vb up'

ns "$veth && \$FLOWCTL doctor dev va interval 0.2"
[ "$(rc)" -eq 3 ] &&
	grep -q "^va: " "$tmp/out" &&
	grep -q "^  link 10Gb/s, full duplex, autoneg off; TX queues 1; MAC pause unsupported; rx-all off (fixed); NIC PFC unsupported; DCBX unsupported$" "$tmp/out" &&
	grep -q "^  error    $first: " "$tmp/out" &&
	grep -q "^  info     hw-pause-unsupported: " "$tmp/out" &&
	grep -q "^           read: ETHTOOL_MSG_PAUSE_GET: Operation not supported$" "$tmp/out" &&
	! grep -q "half-duplex\|hw-pause-on\|rx-all-off\|nic-pfc\|nic-dcbx" "$tmp/out"
ok $? "veth, text: $first (exit 3); 10 Gb/s full duplex, no MAC pause, no DCB"

ns "$veth && \$FLOWCTL -j doctor dev va interval 0.2"
[ "$(rc)" -eq 3 ] && [ ! -s "$tmp/err" ] && json '
len(d["ports"]) == 1 and d["interval_ns"] == 200000000 and
d["ports"][0]["ifname"] == "va" and d["ports"][0]["link_speed_mbps"] == 10000 and
d["ports"][0]["link_duplex"] == "full" and d["ports"][0]["link_autoneg"] is False and
d["ports"][0]["unsupported"] == ["ETHTOOL_MSG_PAUSE_GET", "DCB_CMD_IEEE_GET", "DCB_CMD_GDCBX"] and
not any(k.startswith("mac_pause") for k in d["ports"][0]) and
d["ports"][0]["rx_all"] is False and d["ports"][0]["rx_all_fixed"] is True'
ok $? "veth, -j: the link, PAUSE_GET and dcbnl unsupported, rx-all fixed; nothing on stderr"

json '
[(f["id"], f["severity"], f["ifname"]) for f in d["findings"]] ==
[("'$first'", "error", "va"), ("hw-pause-unsupported", "info", "va")] and
d["errors"] == 1 and d["warnings"] == 0 and d["infos"] == 1 and
all(set(f) >= {"id", "severity", "ifname", "meaning", "measured"} for f in d["findings"]) and
"fix" not in d["findings"][1]'
ok $? "veth, -j: the findings, errors first; no fix where none is needed"

if [ "$first" = no-module ]; then
	ns "$veth && \$FLOWCTL -p doctor interval 0.2"
	[ "$(rc)" -eq 3 ] && json '
d["ports"] == [] and [(f["id"], "ifname" in f) for f in d["findings"]] == [("no-module", False)] and
d["findings"][0]["fix"] == "modprobe flowctl"'
	ok $? "no dev, no module: no-module of the namespace, no port, exit 3"
else
	ns "$veth && \$FLOWCTL -j doctor interval 0.2"
	[ "$(rc)" -eq 3 ] && json '[f["id"] for f in d["findings"]] == ["no-ports"]'
	ok $? "no dev, no flowctl port: no-ports, exit 3"
fi

# A tap reports what ethtool set: half duplex at 100 Mb/s.
# shellcheck disable=SC2016 # $FLOWCTL is the namespace's shell's
ns 'ip tuntap add dev t0 mode tap || exit 99
ethtool -s t0 speed 100 duplex half autoneg off || exit 98
$FLOWCTL doctor dev t0 interval 0.01'
case $(rc) in
98 | 99)
	n=$((n + 1))
	echo "ok $n - tap at half duplex # SKIP cannot make a tap or set its duplex: $(head -1 "$tmp/err")"
	;;
*)
	[ "$(rc)" -eq 3 ] &&
		grep -q "^  link 100Mb/s, half duplex, autoneg off; " "$tmp/out" &&
		grep -q "^  error    half-duplex: " "$tmp/out" &&
		grep -q "^           read: ETHTOOL_MSG_LINKMODES_GET: 100Mb/s half duplex, autoneg off$" "$tmp/out" &&
		grep -q "^           fix: ethtool -s t0 speed 100 duplex full autoneg off$" "$tmp/out"
	ok $? "tap at 100 Mb/s half duplex: half-duplex, with the ethtool command"
	;;
esac

ns "$veth && \$FLOWCTL doctor dev vz"
[ "$(rc)" -eq 1 ] && grep -q "^no such device vz$" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "a device that does not exist: exit 1, nothing on stdout"

echo "1..$n"
exit $fail
