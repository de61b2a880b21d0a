# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared helpers for the benchmarks (bench/*.sh), run inside the VM. The
# namespace, veth and frame helpers come from the selftests' lib.sh; what is
# here is about measuring and reporting. A benchmark never judges a figure:
# it fails only when a tool is missing or a measurement could not be taken.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../selftests/lib.sh
source "$BENCH_DIR/../selftests/lib.sh"
# shellcheck disable=SC2034 # for the scripts that source this
FCBENCH=$BENCH_DIR/tools/fcbench
BENCH_QUICK=${BENCH_QUICK:-0}
BENCH_TMP=$(mktemp -d)

# progress MSG: a line on stderr while the benchmark runs.
progress()
{
	printf 'bench: [%s] %s\n' "${BENCH_GROUP:-?}" "$*" >&2
}

# fail MSG: the measurement could not be taken.
fail()
{
	printf 'bench: [%s] FAILED: %s\n' "${BENCH_GROUP:-?}" "$*" >&2
	exit 1
}

# need_cmd CMD...: fail unless each command exists.
need_cmd()
{
	local c

	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || fail "$c not found (scripts/deps.sh installs it)"
	done
}

need_file()
{
	[ -x "$1" ] || fail "$1 missing: build it on the host (make -C $2)"
}

# need_module NAME: load a kernel module or fail.
need_module()
{
	modprobe "$1" 2>/dev/null || fail "cannot load the kernel module $1"
}

now_ns()
{
	date +%s%N
}

# nap SECONDS: sleep without a fork (a fork and exec cost tens to hundreds
# of milliseconds under TCG on a busy host): a read that times out on a
# pipe nobody writes to.
exec {NAP_FD}<> <(:)
nap()
{
	read -r -t "$1" -u "$NAP_FD" _ || true
}

# wait_for FILE WORD: until FILE contains WORD (no fork), at most 30 s.
wait_for()
{
	local i

	for ((i = 0; i < 600; i++)); do
		[ -r "$1" ] && [[ $(<"$1") == *"$2"* ]] && return 0
		nap 0.05
	done
	return 1
}

# start_monitor NS DEV SPEED OUT: "flowctl -j monitor dev DEV" in NS into
# OUT (its stderr into OUT.err), its pid in MONITOR_PID, once it listens.
# It subscribes some time after it starts (a second or more under TCG):
# the port's speed is set again, a config event, until one shows up.
start_monitor()
{
	local i

	ip netns exec "$1" flowctl -j monitor dev "$2" >"$4" 2>"$4.err" &
	MONITOR_PID=$!
	for ((i = 0; i < 100; i++)); do
		fc "$1" set dev "$2" speed "$3"
		nap 0.1
		grep -q '"config"' "$4" && return 0
	done
	fail "flowctl monitor shows no events"
}

# is_uint V: V is a non-negative integer.
is_uint()
{
	[[ $1 =~ ^[0-9]+$ ]]
}

# median V...: the median of integers (the mean of the middle two for an
# even count).
median()
{
	printf '%s\n' "$@" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

# dev_stat NS DEV COUNTER: /sys/class/net/DEV/statistics/COUNTER in NS.
dev_stat()
{
	ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"
}

# best V...: the largest of integers.
best()
{
	printf '%s\n' "$@" | sort -n | tail -n 1
}

# fc NS ARGS...: the CLI in a namespace, one exec fewer than ip netns exec.
fc()
{
	local ns=$1

	shift
	flowctl -n "$ns" "$@"
}

# pktgen (forwarding.sh, mq.sh): its devices to run are in PG_DEVS.
PG=/proc/net/pktgen

# pgset FILE CMD: one pktgen command; fail on anything but OK. Shell
# builtins only: a fork costs tens of milliseconds under TCG.
pgset()
{
	local line r=

	echo "$2" >"$PG/$1" 2>/dev/null || fail "pktgen refused '$2' on $1"
	while read -r line; do
		case $line in
		Result:*)
			r=$line
			break
			;;
		esac
	done <"$PG/$1"
	case $r in
	*OK*) ;;
	*) fail "pktgen $1 '$2': $r" ;;
	esac
}

# pg_device THREAD DEV SIZE [MODE]: UDP to 198.18.1.2 and DST_MAC, nobody's
# address: the peer drops each frame at once (PACKET_OTHERHOST).
DST_MAC=02:00:5e:00:00:01
pg_device()
{
	local d=$2

	pgset "kpktgend_$1" "add_device $d"
	pgset "$d" "xmit_mode ${4:-start_xmit}"
	pgset "$d" "count 0"
	pgset "$d" "clone_skb 0"
	pgset "$d" "pkt_size $3"
	pgset "$d" "delay 0"
	pgset "$d" "dst 198.18.1.2"
	pgset "$d" "dst_mac $DST_MAC"
	pgset "$d" "udp_dst_min 9"
	pgset "$d" "udp_dst_max 9"
}

pg_reset()
{
	pgset kpktgend_0 rem_device_all
	pgset kpktgend_1 rem_device_all
}

# pg_run SECONDS: run every configured device; sets PG_US to the longest
# device run time (us) and PG_SENT to the frames sent, from pktgen's result.
pg_run()
{
	local p d r us sent

	echo start >"$PG/pgctrl" &
	p=$!
	nap "$1"
	echo stop >"$PG/pgctrl"
	wait $p
	PG_US=0 PG_SENT=0
	for d in "${PG_DEVS[@]}"; do
		r=
		while read -r line; do
			case $line in
			"Result: OK:"*)
				r=$line
				break
				;;
			esac
		done <"$PG/$d"
		# Result: OK: 2264113(c2246123+d17990) usec, 231008 (60byte,0frags)
		read -r _ _ us _ sent _ <<<"$r"
		us=${us%%(*}
		if ! is_uint "$us" || ! is_uint "$sent"; then
			fail "cannot read pktgen's result on $d: '$r'"
		fi
		[ "$us" -gt "$PG_US" ] && PG_US=$us
		PG_SENT=$((PG_SENT + sent))
	done
	[ "$PG_US" -gt 0 ] || fail "pktgen did not run"
}

# nic_ends MODEL: the two interfaces of vm-run's MODEL NIC pair (--nic
# MODEL, $FLOWCTL_NICS) as NIC_IF0 and NIC_IF1; fails the bench if none.
nic_ends()
{
	local p m mac0 mac1

	NIC_IF0='' NIC_IF1=''
	for p in ${FLOWCTL_NICS:-}; do
		IFS=, read -r m mac0 mac1 <<<"$p"
		[ "$m" = "$1" ] || continue
		NIC_IF0=$(nic_of "$mac0") && NIC_IF1=$(nic_of "$mac1") && return 0
	done
	fail "no $1 NIC pair in this VM (vm-run --nic $1)"
}

bench_cleanup()
{
	cleanup_ns
	if [ -n "${BENCH_KEEP:-}" ]; then
		mkdir -p "$BENCH_KEEP" && cp -r "$BENCH_TMP/." "$BENCH_KEEP/"
	fi
	rm -rf "$BENCH_TMP"
}
trap bench_cleanup EXIT
