#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Proof that the debug lane catches what it is for: boots the debug kernel
# once per planted bug (selftests/debug/planted/planted.c) and checks that
# scripts/vm-run fails the run with the checker's report.  Runs on the host:
#
#   selftests/debug/planted.sh [SERIES [BUG...]]   (make check-debug-selftest)
#
#   none       the control: the module loads, the run passes
#   uaf        KASAN use-after-free report; the VM panics (panic_on_warn), 125
#   lockorder  lockdep "possible circular locking dependency"
#   leak       kmemleak "unreferenced object" with planted_leak in its trace
# Prints KTAP and "N passed, N failed".
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
series=${1:-${FLOWCTL_DEBUG_SERIES:-6.1}}
[ $# -eq 0 ] || shift
only=" $* "

echo "TAP version 13"
if ! make -s -C "$HERE/planted" SERIES="$series" >/dev/null; then
	echo "Bail out! the planted module does not build against the $series debug kernel"
	exit 1
fi
ko=$(make -s -C "$HERE/planted" SERIES="$series" print-ko)
work=$(mktemp -d "${TMPDIR:-/tmp}/planted.XXXXXX")
trap 'rm -rf "$work"' EXIT

# BUG|RC|PATTERN...: vm-run must exit with RC (a regex) and print every
# PATTERN (ERE).
cases=(
	"none|0|planted: bug=none"
	"uaf|12[25]|KASAN: [a-z-]*use-after-free|planted_uaf"
	"lockorder|122|possible circular locking dependency detected|planted_lockorder"
	"leak|122|unreferenced object|planted_leak"
)
if [ "$only" != "  " ]; then
	sel=()
	for c in "${cases[@]}"; do
		case $only in *" ${c%%|*} "*) sel+=("$c") ;; esac
	done
	cases=("${sel[@]}")
fi
echo "1..${#cases[@]}"
n=0 passed=0 failed=0
for c in "${cases[@]}"; do
	IFS='|' read -r -a f <<<"$c"
	bug=${f[0]} want=${f[1]}
	n=$((n + 1))
	start=$SECONDS
	rc=0
	# shellcheck disable=SC2016 # expanded in the guest
	"$TOP/scripts/vm-run" --kernel "debug-$series" --timeout 900 --mem 2048 \
		-- sh -c 'insmod "$1" bug="$2" && dmesg | grep "planted:"' sh "$ko" "$bug" \
		>"$work/$bug.out" 2>&1 </dev/null || rc=$?
	why=
	[[ $rc =~ ^($want)$ ]] || why="vm-run exited $rc, expected $want"
	for p in "${f[@]:2}"; do
		[ -n "$why" ] || grep -qE -- "$p" "$work/$bug.out" || why="no '$p' in vm-run's output"
	done
	if [ -z "$why" ]; then
		echo "ok $n - planted $bug: vm-run exit $rc # $((SECONDS - start))s"
		passed=$((passed + 1))
	else
		echo "not ok $n - planted $bug: $why"
		sed 's/^/#   /' "$work/$bug.out" | tail -n 60
		failed=$((failed + 1))
	fi
	# What the checker said, for the record.
	grep -m1 -E "${f[2]}" "$work/$bug.out" | sed 's/^ */# /' || true
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
