# SPDX-License-Identifier: GPL-2.0
# What both halves of a twovm lab share (guest.sh, roce.sh): sourced after
# they set role, dir and NAME. Finds the wire: wmodel, wmac, wside, wif.

say() { echo "$NAME-$role: $*"; }
die() {
	say "$*"
	echo "$*" >"$dir/$role.failed"
	exit 1
}

# waitfile FILE SECONDS: until FILE exists; dies when either half failed.
waitfile()
{
	local i

	for ((i = 0; i < $2 * 10; i++)); do
		[ -e "$1" ] && return 0
		[ -e "$dir/a.failed" ] || [ -e "$dir/b.failed" ] && die "the other half failed: $(cat "$dir"/*.failed)"
		sleep 0.1
	done
	die "no $1 after $2 s"
}

# The first wire (twovm gives one).
read -r wmodel wmac wside <<<"$(echo "${FLOWCTL_WIRES:-}" | awk '{print $1}' | awk -F, '{print $1, $2, $3}')"
[ -n "${wmac:-}" ] || die "no wire (vm-run --wire)"
wif=
for f in /sys/class/net/*/address; do
	[ "$(cat "$f")" = "$wmac" ] && wif=$(basename "$(dirname "$f")")
done
[ -n "$wif" ] || die "no interface has the wire's address $wmac: is the $wmodel driver in this kernel?"
uname -r >"$dir/$role.kernel"
