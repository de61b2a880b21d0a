#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run every host-side test of the CLI and the frame codec; each prints its
# own TAP, this prints one line per suite and the totals. Exit 0 only if
# no suite failed (a suite that exits 4 is skipped, as in kselftest).
#
# usage: run.sh USERLAND-DIR    (make -C userland test)

dir=${1:?usage: $0 USERLAND-DIR}
cd "$dir" || exit 1
PYTHON=${PYTHON:-python3}
outdir=tests/out
rm -rf "$outdir"
mkdir -p "$outdir"

suites=(
	"parse|tests/test_parse"
	"quanta|tests/test_quanta"
	"codec|tests/test_codec"
	"verdict|tests/test_verdict"
	"netlink|tests/test_netlink"
	"output|tests/test_json $outdir"
	"watch|tests/test_watch $outdir"
	"metrics|tests/test_metrics $outdir"
	"promtool|bash tests/test_promtool.sh $outdir"
	"doctor|tests/test_doctor $outdir"
	"json|$PYTHON tests/check_json.py $outdir ./flowctl"
	"scapy+tshark|$PYTHON tests/test_scapy.py tests/framedump"
	"dcbx|$PYTHON tests/test_dcbx.py tests/dcbxdump"
	"dcbx state|tests/test_dcbx"
	"cli|env PYTHON=$PYTHON bash tests/test_cli.sh ./flowctl"
	"completion|bash tests/test_completion.sh ./flowctl"
	"synopsis|$PYTHON tests/test_synopsis.py ./flowctl ../Documentation/flowctl.8"
	"systemd|bash tests/test_systemd.sh ."
	"tc plugin|bash tests/test_tc_plugin.sh ."
	"doctor on veth|env PYTHON=$PYTHON bash tests/test_doctor.sh ."
)

echo "TAP version 13"
echo "1..${#suites[@]}"
i=0
fail=0
skip=0
tests=0
bad=0
for s in "${suites[@]}"; do
	name=${s%%|*}
	cmd=${s#*|}
	i=$((i + 1))
	log=$outdir/$name.log
	# shellcheck disable=SC2086
	$cmd >"$log" 2>&1
	rc=$?
	t=$(grep -cE '^(not )?ok [0-9]+' "$log")
	f=$(grep -cE '^not ok [0-9]+' "$log")
	tests=$((tests + t))
	bad=$((bad + f))
	sed 's/^/    /' "$log"
	# A suite that cannot run (a tool scripts/deps.sh installs is
	# missing) fails, unless FLOWCTL_ALLOW_SKIP=1.
	if [ "$rc" -eq 4 ] && [ "${FLOWCTL_ALLOW_SKIP:-0}" = 1 ]; then
		skip=$((skip + 1))
		echo "ok $i - $name # SKIP"
	elif [ "$rc" -eq 0 ] && [ "$f" -eq 0 ] && [ "$t" -gt 0 ]; then
		echo "ok $i - $name ($t tests)"
	else
		fail=$((fail + 1))
		echo "not ok $i - $name (exit $rc, $f of $t failed)"
	fi
done
echo "# Totals: suites ${#suites[@]}, failed $fail, skipped $skip; tests $tests, failed $bad"
[ "$fail" -eq 0 ]
