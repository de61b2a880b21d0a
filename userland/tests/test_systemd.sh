#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The systemd units (systemd/) judged by systemd itself: "systemd-analyze
# verify" of each (an instance of the templates) passes with @SBINDIR@
# pointing at the built CLI, and a copy broken on purpose (an unknown key)
# does not. scripts/deb-check judges them again as installed. Without
# systemd-analyze: exit 4.
#
# usage: test_systemd.sh USERLAND-DIR
dir=$(cd "${1:?usage: $0 USERLAND-DIR}" && pwd)
echo "TAP version 13"
if ! command -v systemd-analyze >/dev/null; then
	echo "1..0 # SKIP systemd-analyze not found"
	exit 4
fi
echo "1..8"
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# unit SRC DST: SRC as installed, the CLI where it was built.
unit() {
	sed "s|@SBINDIR@|$dir|g" "$dir/systemd/$1" >"$tmp/$2"
}
for u in flowctl@lo.service flowctl-dcbx@lo.service flowctl-metrics.service flowctl-metrics.timer; do
	unit "${u/@lo/@}" "$u"
done
for u in flowctl@lo.service flowctl-dcbx@lo.service flowctl-metrics.service flowctl-metrics.timer; do
	msg=$(cd "$tmp" && systemd-analyze verify --man=no "./$u" 2>&1 |
		grep -v -e "Failed to load.*/etc/flowctl" -e "ConditionPathExists" \
			-e "ConditionPathIsDirectory")
	[ -z "$msg" ]
	ok $? "systemd-analyze verify accepts $u"
	[ -z "$msg" ] || printf '%s\n' "$msg" | sed 's/^/# /'
done
sed 's/^Type=oneshot/Type=oneshot\nFrobnicate=yes/' "$dir/systemd/flowctl@.service" >"$tmp/flowctl@lo.service"
msg=$(cd "$tmp" && systemd-analyze verify --man=no ./flowctl@lo.service 2>&1)
printf '%s\n' "$msg" | grep -q "Unknown key 'Frobnicate'"
ok $? "a broken copy is refused (the judge can fail)"
grep -q '^ExecStart=/sbin/tc qdisc replace dev %I root flowctl $FLOWCTL_OPTIONS$' \
	"$dir/systemd/flowctl@.service"
ok $? "ExecStart replaces the root qdisc with flowctl and the options of /etc/flowctl/%I.conf"
grep -q '^ExecStop=-/sbin/tc qdisc del dev %I root$' "$dir/systemd/flowctl@.service"
ok $? "ExecStop's failure (the device gone) does not fail the stop"
grep -q '^Restart=on-failure$' "$dir/systemd/flowctl-dcbx@.service"
ok $? "the DCBX agent restarts on failure"
exit $fail
