#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The flowctl binary from the outside: help at every level, version, exit
# codes, unknown words, quanta output. Needs no kernel module; where a
# command does need it, either answer (module loaded or not) is accepted.
#
# usage: test_cli.sh FLOWCTL

FLOWCTL=${1:?usage: $0 FLOWCTL}
n=0
failed=0
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

ok() {	# ok CONDITION-EXIT-CODE DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		sed 's/^/# stdout: /' "$out" | head -5
		sed 's/^/# stderr: /' "$err" | head -5
	fi
}

run() {	# run ARGS...: sets rc, fills $out and $err
	"$FLOWCTL" "$@" >"$out" 2>"$err"
	rc=$?
}

# expect RC WHERE PATTERN DESCRIPTION -- ARGS...
expect() {
	local want=$1 where=$2 pattern=$3 desc=$4
	shift 5
	run "$@"
	[ "$rc" -eq "$want" ] && grep -q -e "$pattern" "$where"
	ok $? "$desc (exit $want)"
}

echo "TAP version 13"
echo "# flowctl command line"

expect 0 "$out" '^flowctl 0\.' "-V prints the version" -- -V
expect 0 "$out" '^COMMAND := ' "help prints the grammar" -- help
expect 0 "$out" 'Exit status: 0 success, 1' "help documents exit codes" -- help
expect 0 "$out" 'the partner is congested and paused us' "help says what rx means" -- help
expect 2 "$err" '^Usage: flowctl' "no command: usage" --
expect 2 "$err" '^What is "frob"?' "an unknown command" -- frob
expect 2 "$err" 'Expected show, set, stats, watch, sample, monitor, send, metrics, quanta, dcbx, doctor, watchdog, waitfor or help\.' "an unknown command: the commands" -- frob
expect 2 "$err" '^Try "flowctl help"\.$' "an unknown command: the help command" -- frob
run frob
! grep -q 'COMMAND := ' "$err"
ok $? "an unknown command is not followed by the whole usage"
expect 2 "$err" 'Error: "s" is ambiguous: did you mean show, set, stats, sample or send?' \
	"an ambiguous prefix: the candidates" -- s
expect 2 "$err" 'did you mean set or send?' "se: set or send" -- se dev x
expect 2 "$err" 'What is "shwo"? Did you mean show?' "a typo: the word meant" -- shwo
expect 2 "$err" 'Did you mean monitor?' "a typo in a longer word" -- montior
expect 0 "$out" '^Usage: flowctl set dev DEV' "help set: set's help" -- help set
expect 0 "$out" '^Usage: flowctl.* monitor' "help mon: a prefix of the command" -- help mon
expect 0 "$out" '^Usage: flowctl set dev DEV' "set --help" -- set --help
expect 0 "$out" '^Usage: flowctl.* stats' "st -h: a prefix and -h" -- st -h
expect 0 "$out" '^Usage: flowctl.* quanta' "qu help" -- qu help
expect 2 "$err" 'did you mean set or send?' "help se: ambiguous" -- help se
expect 0 "$out" '512 bit times' "q 1 sp 1G: prefixes of command and keyword" -- q 1 sp 1G
expect 2 "$err" 'Error: mode needs a value: pause, pfc or off' "set: a keyword without its value says which" -- set dev x mode
expect 2 "$err" 'Error: interval needs a value: seconds' "watch: interval without its value" -- watch interval
expect 2 "$err" 'Try "flowctl send help"' "send: an unknown word names send's help" -- send dev x frob 1
expect 2 "$err" 'What is "frob"? Expected dev, reset or help' "stats: the words it takes" -- stats frob
expect 2 "$err" 'Option "-x" is unknown' "an unknown option" -- -x show
expect 2 "$err" 'needs a network namespace' "-n without a name" -- -n

for cmd in show set stats watch sample monitor send quanta dcbx doctor watchdog waitfor; do
	expect 0 "$out" "^Usage: flowctl.* $cmd" "$cmd help" -- "$cmd" help
done
expect 0 "$out" 'reset dev DEV' "stats help shows reset" -- stats help
expect 0 "$out" 'stats reset dev DEV' "stats reset help" -- stats reset help
expect 0 "$out" 'steady = grew in at least 80%' "watch help states the verdict rule" -- watch help
expect 0 "$out" 'TESTING-AIDS' "send help lists the testing aids" -- send help

expect 2 "$err" 'What is "frob"?' "show: unknown word" -- show frob
expect 2 "$err" 'dev needs a value: a device name' "show: dev without a name" -- show dev
expect 2 "$err" 'What is "frob"?' "set: unknown word" -- set dev eth0 frob on
expect 2 "$err" 'set needs dev DEV' "set: no dev" -- set mode pfc
expect 2 "$err" 'quanta "70000" is out of range' "set: quanta bound" -- set dev eth0 quanta 70000
expect 2 "$err" 'prio "9" is out of range' "set: prio bound" -- set dev eth0 prio 9 xoff 1 xon 1
expect 2 "$err" 'nothing to set' "set: nothing to set" -- set dev eth0
expect 2 "$err" 'stats reset needs dev DEV' "stats reset: no dev" -- stats reset
expect 2 "$err" 'watch needs dev DEV' "watch: no dev" -- watch
expect 2 "$err" 'interval "0.001" is out of range' "watch: interval bound" -- watch dev eth0 interval 0.001
expect 2 "$err" 'invalid count "x"' "watch: bad count" -- watch dev eth0 count x
expect 2 "$err" 'interval "0.001" is out of range' "sample: interval bound" -- sample interval 0.001
expect 2 "$err" 'What is "frob"?' "sample: unknown word" -- sample frob
expect 2 "$err" 'What is "frob"?' "monitor: unknown word" -- monitor frob
expect 2 "$err" 'nothing to send' "send: nothing to send" -- send dev eth0
expect 2 "$err" 'send needs dev DEV' "send: no dev" -- send pause 1

expect 0 "$out" '^1000 quanta at 1Gb/s = 512 us' "quanta 1000 speed 1G" -- quanta 1000 speed 1G
expect 0 "$out" '^1000 quanta at 10Gb/s = 51.2 us' "quanta 1000 speed 10G" -- quanta 1000 speed 10G
expect 0 "$out" '^65535 quanta at 100Mb/s = 335.5392 ms' "quanta 65535 speed 100M" -- quanta 65535 speed 100M
expect 0 "$out" '^1 ms at 1Gb/s = 1954 quanta (1.000448 ms)' "quanta 1ms speed 1G" -- quanta 1ms speed 1G
expect 0 "$out" 'cannot be expressed in one frame' "quanta 1s speed 1G cannot be expressed" -- quanta 1s speed 1G
expect 0 "$out" '^  400Gb/s   1.28 us' "quanta 1000: the table reaches 400G" -- quanta 1000
expect 0 "$out" '^  1Gb/s     1954' "quanta 1ms: the table" -- quanta 1ms
expect 0 "$out" '^  1Gb/s     2' "quanta 1000ns at 1G: rounded up to 2" -- quanta 1000ns
expect 2 "$err" 'quanta "65536" is out of range' "quanta: 65536 refused" -- quanta 65536
expect 2 "$err" 'invalid time "1h"' "quanta: unknown unit" -- quanta 1h
expect 2 "$err" 'What is "fast"?' "quanta: a word" -- quanta fast
expect 2 "$err" 'What is "at"?' "quanta: unknown keyword" -- quanta 1 at 1G
expect 2 "$err" 'invalid speed "1Q"' "quanta: bad speed" -- quanta 1 speed 1Q
expect 2 "$err" 'Command line is not complete' "quanta: nothing" -- quanta
expect 2 "$err" "Error: dcbx needs dev DEV" "dcbx: no dev" -- dcbx willing on
expect 2 "$err" 'invalid willing "maybe"' "dcbx: willing on or off" -- dcbx dev x willing maybe
expect 2 "$err" 'interval "0.5" is out of range' "dcbx: interval at least 1 s" -- dcbx dev x interval 0.5
expect 0 "$out" '^Usage: flowctl.* doctor' "help doctor" -- help doctor
expect 0 "$out" '^Usage: flowctl.* doctor' "doctor --help" -- doctor --help
expect 0 "$out" 'Exit status: 0 nothing of severity error or warning' "do help: a prefix; doctor's exit status" -- do help
expect 2 "$err" 'did you mean dcbx or doctor?' "d: dcbx or doctor" -- d
expect 2 "$err" 'What is "frob"? Expected dev, interval or help\.' "doctor: the words it takes" -- doctor frob
expect 0 "$out" '^Usage: flowctl.* watchdog' "help watchdog" -- help watchdog
expect 2 "$err" 'did you mean watch or watchdog?' "wat: watch or watchdog" -- wat
expect 2 "$err" 'What is "frob"? Expected dev, on, off, detection, restoration, action or help\.' "watchdog: the words it takes" -- watchdog frob
expect 2 "$err" 'watchdog settings need dev DEV' "watchdog: settings need a port" -- watchdog on
expect 2 "$err" 'not a namespace name' "waitfor: a path is not a namespace name" -- waitfor netns a/b
expect 2 "$err" 'What is "frob"? Expected netns, file or help\.' "waitfor: the words it takes" -- waitfor frob
expect 2 "$err" 'file needs a value: a file of flowctl -j show' "waitfor: file needs a value" -- waitfor file
expect 2 "$err" 'What is "count"?' "doctor: no count" -- doctor count 3
expect 2 "$err" 'Try "flowctl doctor help"' "doctor: an unknown word names doctor's help" -- doctor frob
expect 2 "$err" 'interval "0.001" is out of range' "doctor: interval bound" -- doctor interval 0.001
expect 2 "$err" 'invalid interval "soon"' "doctor: a bad interval" -- doctor interval soon
expect 2 "$err" 'dev needs a value: a device name' "doctor: dev without a name" -- doctor dev
expect 1 "$err" '^no such device flowctl-none$' "doctor: a missing device" -- doctor dev flowctl-none
# doctor: without the module it says so and exits 3; with it, 0 or 3.
run doctor int 0.01
if grep -q 'no-module' "$out"; then
	[ "$rc" -eq 3 ] && grep -q '^error    no-module: ' "$out" && grep -q '^         fix: modprobe flowctl$' "$out"
	ok $? "doctor without the module: no-module, modprobe, exit 3"
else
	[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]
	ok $? "doctor with the module: exit 0 or 3"
fi
run doctor dev lo interval 0.01
! grep -q measuring "$out"
ok $? "doctor: progress goes to stderr, not stdout"

# waitfor over other machines' flowctl -j show: a ring of three switches,
# each Si's cw port paused on priority 3 by S(i+1)'s ccw port, which holds
# XOFF while its bytes wait in S(i+1)'s cw.
wf=$(mktemp -d)
trap 'rm -f "$out" "$err"; rm -rf "$wf"' EXIT
for i in 1 2 3; do
	nx=$((i % 3 + 1))
	# shellcheck disable=SC2016 # the $ of $3 is jq's, not ours
	printf '[{"ifname":"cw","ifindex":2,"address":"02:00:00:00:01:0%d","partner_mac":"02:00:00:00:02:0%d",
	  "prio":[{"prio":3,"paused":true,"xoff_active":false,"backlog_bytes":%d000}]},
	 {"ifname":"ccw","ifindex":3,"address":"02:00:00:00:02:0%d",
	  "prio":[{"prio":3,"paused":false,"xoff_active":%s,"backlog_bytes":0}]}]\n' \
		"$i" "$nx" "$i" "$i" true >"$wf/S$i.json"
done
expect 3 "$out" '^  S1/cw (1000 bytes queued) is paused by S2/ccw, whose bytes wait in S2/cw$' \
	"waitfor file: three hosts' show -j, one cycle, named by host" -- \
	waitfor file "$wf/S1.json" file "$wf/S2.json" file "$wf/S3.json"
expect 3 "$out" '"hosts":3,"cycles":\[{"prio":3,"ports":\[{"host":"S1","ifname":"cw"' \
	"waitfor file -j: hosts, and ports by host" -- \
	-j waitfor file "$wf/S1.json" file "$wf/S2.json" file "$wf/S3.json"
mkdir "$wf/free"
sed 's/"xoff_active":true/"xoff_active":false/' "$wf/S2.json" >"$wf/free/S2.json"
expect 0 "$out" '^no wait-for cycle among 6 flowctl ports in 0 namespaces and 3 hosts$' \
	"waitfor file: one host out of XOFF, no cycle" -- \
	waitfor file "$wf/S1.json" file "$wf/free/S2.json" file "$wf/S3.json"
# A fourth host reusing S2 ccw's MAC: S1 cw's partner is not guessed.
printf '[{"ifname":"x0","address":"02:00:00:00:02:02","prio":[{"prio":3,"xoff_active":true}]}]\n' >"$wf/X.json"
expect 0 "$err" "S1/cw: its partner's address 02:00:00:00:02:02 is on 2 ports; not followed" \
	"waitfor file: a MAC on two hosts is reported, not guessed" -- \
	waitfor file "$wf/X.json" file "$wf/S1.json" file "$wf/S2.json" file "$wf/S3.json"
expect 2 "$err" 'would be host "S1", the name of a namespace given too' \
	"waitfor file: a host named as a namespace given" -- waitfor netns S1 file "$wf/S1.json"
expect 2 "$err" 'both be host "S1": give each host' "waitfor file: two files one host name" -- \
	waitfor file "$wf/S1.json" file "$wf/free/../S1.json"
expect 1 "$err" "waitfor: cannot read $wf/none.json: No such file" "waitfor file: a file that is not there" -- \
	waitfor file "$wf/none.json"
printf '[{"ifname":"cw"}]\n' >"$wf/old.json"
expect 1 "$err" 'old.json: port 0 (cw) has no "address" (its own MAC): the device has none, or an older flowctl' \
	"waitfor file: a port without its address" -- waitfor file "$wf/S1.json" file "$wf/old.json"
[ ! -s "$out" ]
ok $? "waitfor file: nothing reported when a file is refused"
printf '[{"ifname":"cw",' >"$wf/cut.json"
expect 1 "$err" 'cut.json: line 1 column 16: ' "waitfor file: cut JSON, where" -- waitfor file "$wf/cut.json"

# show and stats: either the module answers, or we are told it is not loaded.
run show
if [ "$rc" -eq 1 ]; then
	grep -q '^flowctl module not loaded (modprobe flowctl)$' "$err"
	ok $? "show without the module: not loaded, exit 1"
else
	[ "$rc" -eq 0 ]
	ok $? "show with the module: exit 0"
fi
run -j show
if [ "$rc" -eq 0 ]; then
	"${PYTHON:-python3}" -c 'import json,sys; assert isinstance(json.load(open(sys.argv[1])), list)' "$out"
	ok $? "show -j with the module: a JSON array"
else
	[ "$rc" -eq 1 ] && grep -q 'module not loaded' "$err"
	ok $? "show -j without the module: exit 1"
fi
expect 1 "$err" 'Cannot open network namespace "flowctl-no-such-ns"' \
	"-n with a missing namespace" -- -n flowctl-no-such-ns show

echo "1..$n"
echo "# Totals: pass:$((n - failed)) fail:$failed skip:0"
[ "$failed" -eq 0 ]
