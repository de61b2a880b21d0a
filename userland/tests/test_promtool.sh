#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# flowctl metrics judged by Prometheus' own promtool: the exposition that
# test_metrics wrote for synthetic ports passes "promtool check metrics"
# (format and naming lint), and a copy broken on purpose does not (the
# judge can fail). promtool comes from scripts/deps.sh (Debian's
# prometheus package, unpacked into the cache); without it: exit 4.
#
# usage: test_promtool.sh OUTDIR   (after test_metrics OUTDIR)
out=${1:?usage: $0 OUTDIR}
pt=${FLOWCTL_PROMTOOL:-$(command -v promtool)}
[ -n "$pt" ] || pt=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/flowctl/promtool/usr/bin/promtool
echo "TAP version 13"
if [ ! -x "$pt" ]; then
	echo "1..0 # SKIP promtool not found (scripts/deps.sh fetches it)"
	exit 4
fi
echo "1..3"
n=0 fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
[ -s "$out/metrics.prom" ]
ok $? "test_metrics wrote $out/metrics.prom"
msg=$("$pt" check metrics <"$out/metrics.prom" 2>&1)
rc=$?
[ -z "$msg" ] || echo "# promtool: $msg"
ok $rc "promtool check metrics accepts flowctl metrics"
# A counter without _total and a sample that is not a number.
{
	cat "$out/metrics.prom"
	printf '# HELP flowctl_broken A counter named wrong.\n# TYPE flowctl_broken counter\n'
	printf 'flowctl_broken{dev="x"} 1\n'
} >"$out/broken.prom"
"$pt" check metrics <"$out/broken.prom" >/dev/null 2>&1
[ $? -ne 0 ]
ok $? "promtool refuses a counter without _total (the judge can fail)"
exit $fail
