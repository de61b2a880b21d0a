# SPDX-License-Identifier: GPL-2.0
# Shared helpers for flowctl selftests, in the style of the kernel's
# tools/testing/selftests/net/lib.sh: ALL_TESTS, setup_prepare, cleanup on
# trap EXIT, check_err with a message, log_test printing KTAP lines.

ksft_skip=4
SELFTESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$SELFTESTS_DIR/.." && pwd)
FCTEST=$SELFTESTS_DIR/tools/fctest
PATH=$TOP/userland:$PATH

# tc reads flowctl's options through q_flowctl.so (userland/tc): without it
# tc prints "[Unknown qdisc, optlen=N]" into its JSON. A directory of
# tc's own plugins plus ours, as an installed system has them.
fc_tc_lib()
{
	local d=${TMPDIR:-/tmp}/flowctl-tc-lib.$$ f

	mkdir -p "$d" || return
	for f in /usr/lib/*-linux-gnu/tc/* /usr/lib/tc/*; do
		[ -e "$f" ] && ln -sf "$f" "$d/"
	done
	ln -sf "$TOP/userland/tc/q_flowctl.so" "$d/q_flowctl.so"
	echo "$d"
}
if [ -z "${TC_LIB_DIR:-}" ] && [ -f "$TOP/userland/tc/q_flowctl.so" ]; then
	TC_LIB_DIR=$(fc_tc_lib)
	export TC_LIB_DIR
fi

RET=0
RETMSG=
TESTS_RUN=0
TESTS_FAILED=0
TESTS_SKIPPED=0
TESTS_LANE_SKIPPED=0
NS_LIST=()

# check_err ERR MSG: fail the current test with MSG when ERR is not 0.
check_err()
{
	local err=$1 msg=$2

	if [ "$RET" -eq 0 ] && [ "$err" -ne 0 ]; then
		RET=$err
		RETMSG=$msg
	fi
}

# check_fail ERR MSG: fail the current test with MSG when ERR is 0.
check_fail()
{
	local err=$1 msg=$2

	if [ "$RET" -eq 0 ] && [ "$err" -eq 0 ]; then
		RET=1
		RETMSG=$msg
	fi
}

# check_eq ACTUAL EXPECTED WHAT
check_eq()
{
	[ "$1" = "$2" ]
	check_err $? "$3: got '$1', expected '$2'"
}

# check_contains TEXT PART WHAT: PART occurs in TEXT
check_contains()
{
	case $1 in
	*"$2"*) ;;
	*) check_err 1 "$3: '$2' not in '$1'" ;;
	esac
}

# check_range VALUE MIN MAX WHAT (integers)
check_range()
{
	[ "$1" -ge "$2" ] 2>/dev/null && [ "$1" -le "$3" ] 2>/dev/null
	check_err $? "$4: got $1, expected $2..$3"
}

# A test script that measures time under TCG sets RETRY_TIMING=1 and names
# those cases in TIMING_CASES: such a case that fails is run once more (the
# host can stop the whole VM for hundreds of milliseconds); the first
# failure is logged, the second one counts, and a pass on the second run is
# marked "# after a retry" (selftests/run counts them). Every other case
# (exact counters, wire format, arithmetic, leaks) runs once.
RETRY_TIMING=0
RETRYING=0
RETRY_WANTED=0
AFTER_RETRY=0
TIMING_CASES=
USERLAND_CASES=
CASE=
TESTS_RETRIED=0

# The debug lane (make check-debug, FLOWCTL_DEBUG_LANE=1) judges what the
# kernel's checkers say, not rates: KASAN and lockdep under TCG forward a
# few Mb/s, a tenth of what the labs need to congest.  There a case named in
# TIMING_CASES runs its traffic all the same, but a failure is reported as a
# SKIP that gives the reason; make check on the stock kernels judges the
# behaviour. No other case is ever skipped this way.
DEBUG_LANE=${FLOWCTL_DEBUG_LANE:-0}

# A case or script that cannot run for want of a tool or a file fails,
# naming what is missing: scripts/deps.sh installs every one of them.
# FLOWCTL_ALLOW_SKIP=1 (a machine without them, by choice) makes it a SKIP.
ALLOW_SKIP=${FLOWCTL_ALLOW_SKIP:-0}

is_timing_case()
{
	case " $(echo $TIMING_CASES) " in *" $CASE "*) return 0 ;; esac
	return 1
}

log_test()
{
	local name=$1

	if [ "$RET" -ne 0 ] && [ "$RETRYING" -eq 1 ]; then
		echo "# $name: failed once, running it again: $RETMSG"
		RETRY_WANTED=1
		RET=0
		RETMSG=
		return
	fi
	if [ "$RET" -ne 0 ] && [ "$DEBUG_LANE" = 1 ] && is_timing_case; then
		TESTS_RUN=$((TESTS_RUN + 1))
		TESTS_SKIPPED=$((TESTS_SKIPPED + 1))
		TESTS_LANE_SKIPPED=$((TESTS_LANE_SKIPPED + 1))
		echo "ok $TESTS_RUN - $name # SKIP rate/timing not judged on the debug kernel: $RETMSG"
		RET=0
		RETMSG=
		return
	fi
	TESTS_RUN=$((TESTS_RUN + 1))
	if [ "$RET" -ne 0 ]; then
		TESTS_FAILED=$((TESTS_FAILED + 1))
		echo "not ok $TESTS_RUN - $name"
		echo "#   $RETMSG"
	elif [ "$AFTER_RETRY" -eq 1 ]; then
		TESTS_RETRIED=$((TESTS_RETRIED + 1))
		echo "ok $TESTS_RUN - $name # after a retry"
	else
		echo "ok $TESTS_RUN - $name"
	fi
	RET=0
	RETMSG=
}

# log_skip NAME WHAT: the case cannot run because WHAT is missing.
log_skip()
{
	TESTS_RUN=$((TESTS_RUN + 1))
	if [ "$ALLOW_SKIP" = 1 ]; then
		TESTS_SKIPPED=$((TESTS_SKIPPED + 1))
		echo "ok $TESTS_RUN - $1 # SKIP $2"
		return
	fi
	TESTS_FAILED=$((TESTS_FAILED + 1))
	echo "not ok $TESTS_RUN - $1"
	echo "#   cannot run: $2 (scripts/deps.sh installs it; FLOWCTL_ALLOW_SKIP=1 skips instead)"
}

# setup_failed: setup_prepare failed; the script fails with one case.
setup_failed()
{
	echo "TAP version 13"
	echo "1..1"
	echo "not ok 1 - setup (the lab could not be built; its commands' errors are above)"
	exit 1
}

# skip_script WHAT: the whole script cannot run (same rule as log_skip).
skip_script()
{
	echo "TAP version 13"
	if [ "$ALLOW_SKIP" = 1 ]; then
		echo "1..0 # SKIP $1"
		exit $ksft_skip
	fi
	echo "1..1"
	echo "not ok 1 - prerequisites"
	echo "#   cannot run: $1 (scripts/deps.sh installs it; FLOWCTL_ALLOW_SKIP=1 skips instead)"
	exit 1
}

log_info()
{
	echo "# $*"
}

# Each test script: require root and the module, print the plan, run.
run_tests()
{
	local t

	# FLOWCTL_CASES="a b": only the named cases of ALL_TESTS (scripts/sabotage
	# runs the cases that judge one claim).
	# A name the script does not have is an error, not an empty run.
	if [ -n "${FLOWCTL_CASES:-}" ]; then
		for t in $FLOWCTL_CASES; do
			case " $(echo $ALL_TESTS) " in *" $t "*) ;; *)
				echo "TAP version 13"
				echo "1..1"
				echo "not ok 1 - FLOWCTL_CASES names $t, which $(basename "$0") does not have"
				echo "#   its cases: $(echo $ALL_TESTS)"
				exit 1 ;;
			esac
		done
		# In the script's order: a baseline still runs first.
		local keep=
		for t in $ALL_TESTS; do
			case " $(echo $FLOWCTL_CASES) " in *" $t "*) keep+=" $t" ;; esac
		done
		ALL_TESTS=$keep
	fi
	echo "TAP version 13"
	echo "1..$(echo $ALL_TESTS | wc -w)"
	for t in $ALL_TESTS; do
		CASE=$t
		# USERLAND_CASES: cases that judge only userland's decisions (the
		# DCBX agent's protocol), whose kernel requests other cases judge
		# on every kernel. make check runs them on its last kernel only
		# (FLOWCTL_USERLAND_ONCE=1 on the others).
		if [ "${FLOWCTL_USERLAND_ONCE:-0}" = 1 ] &&
		   case " $(echo $USERLAND_CASES) " in *" $t "*) true ;; *) false ;; esac; then
			TESTS_RUN=$((TESTS_RUN + 1))
			TESTS_SKIPPED=$((TESTS_SKIPPED + 1))
			echo "ok $TESTS_RUN - $t # SKIP userland only: judged on make check's last kernel"
			continue
		fi
		# A second run only for a case that measures time or rates.
		RETRYING=0
		AFTER_RETRY=0
		[ "$RETRY_TIMING" -eq 1 ] && is_timing_case && RETRYING=1
		# No second run on the debug lane: its result is not judged.
		[ "$DEBUG_LANE" = 1 ] && is_timing_case && RETRYING=0
		RETRY_WANTED=0
		$t
		if [ "$RETRY_WANTED" -eq 1 ]; then
			RETRYING=0
			AFTER_RETRY=1
			$t
		fi
	done
	if [ "$TESTS_FAILED" -ne 0 ]; then
		exit 1
	fi
	# A script whose every case was a debug-lane timing skip ran all the
	# same (its traffic, the kernel's checks): it did not fail to run.
	if [ "$TESTS_SKIPPED" -eq "$TESTS_RUN" ] && [ "$TESTS_RUN" -gt 0 ] &&
	   [ "$TESTS_LANE_SKIPPED" -lt "$TESTS_RUN" ]; then
		exit $ksft_skip
	fi
	exit 0
}

require_cmd()
{
	local c

	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip_script "$c not found"
	done
}

# capture NS DEV PCAP FILTER: tcpdump on DEV into PCAP, in the background
# (its pid in CAP_PID), returning once the capture is open: tcpdump says
# "listening on" when its socket is bound. 1 if it never does.
capture()
{
	local i

	ip netns exec "$1" tcpdump -Z root -i "$2" -nn -w "$3" -U "$4" 2>"$3.err" &
	CAP_PID=$!
	for ((i = 0; i < 100; i++)); do
		grep -q 'listening on' "$3.err" 2>/dev/null && return 0
		kill -0 "$CAP_PID" 2>/dev/null || break
		sleep 0.05
	done
	echo "# tcpdump on $2: $(cat "$3.err" 2>/dev/null)"
	return 1
}

# setup_ns VAR...: create a namespace per name, with lo up; the VAR holds
# its unique name.
setup_ns()
{
	local var ns

	for var in "$@"; do
		ns="fc-$var-$$"
		ip netns add "$ns" || return 1
		ip -n "$ns" link set lo up
		NS_LIST+=("$ns")
		eval "$var=$ns"
	done
}

# no_ipv6 NS...: no IPv6 on the links made in NS from now on. A new link's
# DAD, MLD reports and router solicitations go out seconds after it comes
# up, into band 0 of a port whose exact counts a test reads. Only for such
# senders: in the bridge labs that chatter is what teaches the bridge where
# the silent receivers are (without it, their traffic floods every port).
no_ipv6()
{
	local ns

	for ns in "$@"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 || return 1
	done
}

cleanup_ns()
{
	local ns

	for ns in "${NS_LIST[@]}"; do
		ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	NS_LIST=()
}

# veth_pair NS1 DEV1 NS2 DEV2: link two namespaces, both ends up.
veth_pair()
{
	ip link add name "$2" netns "$1" type veth peer name "$4" netns "$3" || return 1
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

# stop_bg: kill and reap the processes a script's bg() started (their
# PIDs in BG; each script's bg decides where their output goes).
BG=()
stop_bg()
{
	local p

	for p in "${BG[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${BG[@]}"; do
		wait "$p" 2>/dev/null
	done
	BG=()
}

# fc NS ARGS...: the CLI inside a namespace.
fc()
{
	local ns=$1

	shift
	ip netns exec "$ns" flowctl "$@"
}

# fc_get NS DEV JQ: one value from "flowctl -j -s show dev DEV".
fc_get()
{
	fc "$1" -j -s show dev "$2" | jq -r ".[0]$3"
}

# mac_of NS DEV
mac_of()
{
	ip -n "$1" -j link show dev "$2" | jq -r '.[0].address'
}

# lldpd_start NS DEV SOCK LOG: Debian's lldpd, from scripts/deps.sh's cache,
# on DEV in NS, its control socket SOCK (lldpcli -u SOCK), in the
# background (stop_bg ends it). Its privilege separation wants a
# _lldpd user, which this machine need not have: a private passwd and
# group in a mount namespace of its own give it one. Status 4 without
# the cache.
LLDPD_DIR=
lldpd_start()
{
	local ns=$1 dev=$2 sock=$3 log=$4 h d

	for h in /root /home/*; do
		[ -x "$h/.cache/flowctl/lldpd/usr/sbin/lldpd" ] && LLDPD_DIR=$h/.cache/flowctl/lldpd
	done
	[ -n "$LLDPD_DIR" ] || return 4
	d=$(mktemp -d)
	cp /etc/passwd /etc/group "$d/"
	echo "_lldpd:x:64999:64999:lldpd:/nonexistent:/usr/sbin/nologin" >>"$d/passwd"
	echo "_lldpd:x:64999:" >>"$d/group"
	ip netns exec "$ns" unshare -m sh -c "mount --bind $d/passwd /etc/passwd &&
		mount --bind $d/group /etc/group && mkdir -p /run/lldpd &&
		LD_LIBRARY_PATH=$LLDPD_DIR/usr/lib/x86_64-linux-gnu exec $LLDPD_DIR/usr/sbin/lldpd -d -u $sock -I $dev" \
		>"$log" 2>&1 &
	BG+=($!)	# stop_bg ends it (its monitor takes its child)
	# Paused until lldpcli resumes it (it runs its own lldpcli for that).
	for _ in $(seq 50); do
		lldpcli_ns "$ns" "$sock" resume >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}

# lldpcli_ns NS SOCK ARGS...: the cache's lldpcli on lldpd's socket in NS
lldpcli_ns()
{
	local ns=$1 sock=$2

	shift 2
	ip netns exec "$ns" env LD_LIBRARY_PATH="$LLDPD_DIR/usr/lib/x86_64-linux-gnu" \
		"$LLDPD_DIR/usr/sbin/lldpcli" -u "$sock" "$@"
}

# nic_of MAC: the interface (in this namespace) with that address, as
# vm-run's --nic and --wire name a NIC; status 1 when none has it.
nic_of()
{
	local f

	for f in /sys/class/net/*/address; do
		[ "$(cat "$f")" = "$1" ] && { basename "$(dirname "$f")"; return 0; }
	done
	return 1
}

# PAUSE/PFC frames as hex, built here so a test does not depend on the code
# it tests for its input: pause_hex SA QUANTA [DA]
pause_hex()
{
	local sa=${1//:/} q=$2 da=${3:-0180c2000001}

	printf '%s%s8808%04x%04x' "${da//:/}" "$sa" 1 "$q"
	printf '%0*d' $(((60 - 18) * 2)) 0
}

# pfc_hex SA ENABLE T0 T1 ... T7
pfc_hex()
{
	local sa=${1//:/} en=$2 i

	shift 2
	printf '0180c2000001%s8808%04x%04x' "$sa" 0x0101 "$en"
	for i in 0 1 2 3 4 5 6 7; do
		printf '%04x' "${1:-0}"
		shift || true
	done
	printf '%0*d' $(((60 - 34) * 2)) 0
}

# Frames built by scapy (an independent implementation); prints hex.
scapy_pause_hex()
{
	/usr/bin/python3 - "$@" <<'PY'
import sys
from scapy.all import Ether, raw
from scapy.contrib.mac_control import MACControlPause
sa, q = sys.argv[1], int(sys.argv[2])
f = Ether(src=sa, dst="01:80:c2:00:00:01") / MACControlPause(pause_time=q)
print(raw(f).ljust(60, b"\0").hex())
PY
}

scapy_pfc_hex()
{
	/usr/bin/python3 - "$@" <<'PY'
import sys
from scapy.all import Ether, raw
from scapy.contrib.mac_control import MACControlClassBasedFlowControl
sa = sys.argv[1]
times = [int(x) for x in sys.argv[2:10]]
kw = {}
for i, t in enumerate(times):
    if t >= 0:
        kw["c%d_enabled" % i] = 1
        kw["c%d_pause_time" % i] = t
f = Ether(src=sa, dst="01:80:c2:00:00:01") / MACControlClassBasedFlowControl(**kw)
print(raw(f).ljust(60, b"\0").hex())
PY
}

# Gaps in streams (rx_pause.sh, mq.sh): namespaces $A and $B, 198.18.0.2
# on B's b0, $TMP, and INTERVAL_US, the send interval.
#
# stream MS "PORT:PRIO ..." SEQ_ARGS...: run one UDP stream per PORT:PRIO
# from A to B, play the frame sequence from B 100 ms after every stream is
# seen flowing, keep streaming MS milliseconds after the last frame went
# out, and leave each stream's largest gap (us) in GAP[PORT], the gap that
# the first frame opened in GAP_AT[PORT] (below), and the frames' real send
# offsets (us) in SENT[]. Under TCG a process can start hundreds of
# milliseconds late, so the streams run until told to stop.
#
# GAP_AT is the longest gap of at least 2 ms that was still open 2 ms after
# the first frame left B and whose first datagram reached B between 25 ms
# before and 20 ms after it (wall clock: the datagrams' receive timestamps
# against seq's send time): the last datagram before the gate closed
# arrived then, give or take a 500 us interval and the reaction, or earlier
# when a VM stall of the sender ran into the pause (then the gap is longer,
# and check_gap allows 25 ms more). 0 if there is none: a gap elsewhere in
# the stream (a VM stall) is not taken for the pause. GAP_AT_START is how
# far (us) the gap began after the frame (negative: before it).
FRAME_EARLY_US=25000
FRAME_LATE_US=20000
FRAME_OPEN_US=2000
declare -A GAP GAP_AT GAP_AT_START
SENT=()
SENT_WALL=()
stream()
{
	local ms=$1 flows=$2 f port prio pids=() rpids=()

	shift 2
	GAP=()
	GAP_AT=()
	SENT=()
	SENT_WALL=()
	for f in $flows; do
		port=${f%%:*}
		rm -f "$TMP/r.$port"
		ip netns exec "$B" "$FCTEST" recv "$port" 1 min-gap-us 2000 >"$TMP/r.$port" &
		rpids+=($!)
	done
	for f in $flows; do
		port=${f%%:*}
		while ! grep -q ready "$TMP/r.$port" 2>/dev/null; do sleep 0.05; done
	done
	for f in $flows; do
		port=${f%%:*}
		prio=${f##*:}
		ip netns exec "$A" "$FCTEST" send 198.18.0.2 "$port" $INTERVAL_US \
			100000 prio "$prio" >/dev/null &
		pids+=($!)
	done
	for f in $flows; do
		port=${f%%:*}
		while ! grep -q first "$TMP/r.$port" 2>/dev/null; do sleep 0.02; done
	done
	if [ $# -gt 0 ]; then
		local d0=$((100000 + $1))

		shift
		ip netns exec "$B" "$FCTEST" seq b0 $d0 "$@" >"$TMP/seq"
		mapfile -t SENT < <(awk '{print $3}' "$TMP/seq")
		mapfile -t SENT_WALL < <(awk '{print $4}' "$TMP/seq")
	fi
	sleep "$(echo "scale=3; $ms / 1000" | bc)"
	kill "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	wait "${rpids[@]}"
	for f in $flows; do
		port=${f%%:*}
		GAP[$port]=$(awk '/max_gap_us/ {print $4}' "$TMP/r.$port")
		GAP_AT[$port]=0
		GAP_AT_START[$port]=0
		if [ ${#SENT_WALL[@]} -gt 0 ]; then
			read -r "GAP_AT[$port]" "GAP_AT_START[$port]" < <(awk \
				-v sent="${SENT_WALL[0]}" -v early=$FRAME_EARLY_US \
				-v late=$FRAME_LATE_US -v open=$FRAME_OPEN_US '
				$1 == "gap" && $2 >= sent - early && $2 <= sent + late &&
				$2 + $3 >= sent + open && $3 > m { m = $3; at = $2 - sent }
				END { print m + 0, at + 0 }' "$TMP/r.$port")
		fi
		log_info "flow $f: $(tail -n 1 "$TMP/r.$port"); gap at the first frame" \
			"${GAP_AT[$port]}us, beginning ${GAP_AT_START[$port]}us after it"
	done
}

# check_gap GAP_US EXPECTED_US WHAT
check_gap()
{
	log_info "$3: gap ${1}us, expected ${2}us"
	check_range "$1" $(($2 - 1500)) $(($2 + 25000)) "$3 gap (us)"
}

cleanup()
{
	cleanup_ns
}

fc_tc_lib_rm()
{
	case ${TC_LIB_DIR:-} in
	*/flowctl-tc-lib.$$) rm -rf "$TC_LIB_DIR" ;;
	esac
}

trap 'cleanup; fc_tc_lib_rm' EXIT
