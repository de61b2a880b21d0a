# SPDX-License-Identifier: GPL-2.0
# What both halves of a twovm lab share (guest.sh, roce.sh): sourced after
# they set role, dir and NAME. Finds the wires: wifs; wmodel, wmac, wif.

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

# The wires, in vm-run's order: wifs (interfaces); wif, wmodel and wmac of
# the first (the lossless lab has one, the roce lab two).
wifs=()
for w in ${FLOWCTL_WIRES:-}; do
	IFS=, read -r wmodel_k wmac_k _ <<<"$w"
	wif_k=
	for f in /sys/class/net/*/address; do
		[ "$(cat "$f")" = "$wmac_k" ] && wif_k=$(basename "$(dirname "$f")")
	done
	[ -n "$wif_k" ] || die "no interface has the wire's address $wmac_k: is the $wmodel_k driver in this kernel?"
	wifs+=("$wif_k")
	[ ${#wifs[@]} -gt 1 ] || { wmodel=$wmodel_k wmac=$wmac_k wif=$wif_k; }
done
[ ${#wifs[@]} -gt 0 ] || die "no wire (vm-run --wire)"
uname -r >"$dir/$role.kernel"
