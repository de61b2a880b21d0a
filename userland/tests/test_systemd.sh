#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The boot-time unit (systemd/flowctl@.service) judged by systemd itself:
# "systemd-analyze verify" of an instance passes, and a copy broken on
# purpose (an unknown key) does not. Without systemd-analyze: exit 4.
#
# usage: test_systemd.sh USERLAND-DIR
dir=${1:?usage: $0 USERLAND-DIR}
echo "TAP version 13"
if ! command -v systemd-analyze >/dev/null; then
	echo "1..0 # SKIP systemd-analyze not found"
	exit 4
fi
echo "1..3"
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$dir/systemd/flowctl@.service" "$tmp/flowctl@lo.service"
msg=$(cd "$tmp" && systemd-analyze verify --man=no ./flowctl@lo.service 2>&1 |
	grep -v -e "Failed to load.*/etc/flowctl" -e "ConditionPathExists")
[ -z "$msg" ]
ok $? "systemd-analyze verify accepts flowctl@lo.service"
[ -z "$msg" ] || printf '%s\n' "$msg" | sed 's/^/# /'
sed 's/^Type=oneshot/Type=oneshot\nFrobnicate=yes/' "$dir/systemd/flowctl@.service" >"$tmp/flowctl@lo.service"
msg=$(cd "$tmp" && systemd-analyze verify --man=no ./flowctl@lo.service 2>&1)
printf '%s\n' "$msg" | grep -q "Unknown key 'Frobnicate'"
ok $? "a broken copy is refused (the judge can fail)"
grep -q '^ExecStart=/sbin/tc qdisc replace dev %I root flowctl $FLOWCTL_OPTIONS$' \
	"$dir/systemd/flowctl@.service"
ok $? "ExecStart replaces the root qdisc with flowctl and the options of /etc/flowctl/%I.conf"
exit $fail
