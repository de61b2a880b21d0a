#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Self-test of scripts/vm-run.  Runs on the host (it boots the VMs itself):
#
#   selftests/harness/run.sh [--kernel RELEASE]
#
# Checks exit statuses, the command's output and environment, that kernel
# reports (a WARNING that panics, a report only in dmesg) fail the run, and
# the timeout.  Prints KTAP; exits 0 only if every test passes.
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
VMRUN=$TOP/scripts/vm-run
TIMEOUT=20

kspec=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel)
		[ $# -ge 2 ] || { echo "usage: $0 [--kernel RELEASE]" >&2; exit 2; }
		kspec=$2
		shift 2
		;;
	--kernel=*)
		kspec=${1#*=}
		shift
		;;
	-h | --help)
		echo "usage: $0 [--kernel RELEASE]"
		exit 0
		;;
	*)
		echo "usage: $0 [--kernel RELEASE]" >&2
		exit 2
		;;
	esac
done

echo "TAP version 13"
echo "1..11"

if ! rel=$("$TOP/scripts/kver" ${kspec:+"$kspec"} 2>&1); then
	echo "Bail out! $rel"
	exit 1
fi
kargs=(--kernel "$rel")
echo "# kernel $rel"

work=$(mktemp -d "${TMPDIR:-/tmp}/vm-run-selftest.XXXXXX")
tpid=
# shellcheck disable=SC2317 # run by trap
cleanup() {
	[ -z "$tpid" ] || kill "$tpid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# vm NAME ARGS...: runs vm-run, its stdout in $work/NAME.out, stderr in
# $work/NAME.err, exit status in $work/NAME.rc.
vm() {
	local name=$1
	shift
	local rc=0
	"$VMRUN" "${kargs[@]}" "$@" >"$work/$name.out" 2>"$work/$name.err" </dev/null || rc=$?
	echo $rc >"$work/$name.rc"
}

# vm_booting NAME ARGS...: vm for a case whose guest must boot and run its
# command.  TCG on this kind of host now and then stalls a guest for good
# (about one boot in a few hundred), or aborts qemu itself (vm-run: "the
# emulator crashed", exit 123); such a case is run once more, and the first
# run's words are reported, so a vm-run that fails every time still fails.
vm_booting() {
	vm_again "123 124" "$@"
}

# vm_again CODES NAME ARGS...: vm, run once more if it ended with one of the
# exit statuses CODES for a reason retry_reason accepts.
vm_again() {
	local codes=" $1 " name=$2 why
	shift
	vm "$@"
	case $codes in *" $(cat "$work/$name.rc") "*) ;; *) return 0 ;; esac
	why=$(retry_reason "$name") || return 0
	{
		echo "# $name: $why; its console's last lines:"
		console_tail "$name" | sed 's/^/#   /'
		echo "# $name: run once more"
	} >>"$work/retries"
	sed -n 's|^vm-run: console log: \(.*\)/console\.log$|\1|p' "$work/$name.err" |
		while read -r d; do
			case $d in */vm-run.*) rm -rf "$d" ;; esac
		done
	vm "$@"
}

# retry_reason NAME: why the run is worth one more, or fails if it is not.
retry_reason() {
	case $(cat "$work/$1.rc") in
	124) echo "vm-run timed out" ;;
	123) grep -q '^vm-run: the emulator crashed' "$work/$1.err" &&
		grep -m1 -A1 '^vm-run: the emulator crashed' "$work/$1.err" | tail -n1 | sed 's/^ *//' ;;
	*) return 1 ;;
	esac
}

# console_tail NAME: the last lines of the console log vm-run kept.
console_tail() {
	local d
	d=$(sed -n 's|^vm-run: console log: \(.*\)/console\.log$|\1|p' "$work/$1.err" | tail -n1)
	if [ -n "$d" ] && [ -f "$d/console.log" ]; then
		tail -n 15 "$d/console.log"
	else
		echo "(no console log kept)"
	fi
}

n=0
failed=0
# result NAME DESC CHECK...: runs the check, prints the KTAP line, and on
# failure the reason and what vm-run printed.
result() {
	local name=$1 desc=$2
	shift 2
	n=$((n + 1))
	local why
	if why=$("$@" 2>&1); then
		echo "ok $n - $desc"
		# What vm-run kept of a run that was meant to fail.
		sed -n 's|^vm-run: console log: \(.*\)/console\.log$|\1|p' "$work/$name.err" 2>/dev/null |
			while read -r d; do
				case $d in */vm-run.*) rm -rf "$d" ;; esac
			done
		return
	fi
	failed=$((failed + 1))
	echo "not ok $n - $desc"
	printf '%s\n' "$why" | sed 's/^/# /'
	if [ -e "$work/$name.rc" ]; then
		echo "# vm-run exit status $(cat "$work/$name.rc"); its stdout:"
		sed 's/^/#   /' "$work/$name.out"
		echo "# its stderr:"
		sed 's/^/#   /' "$work/$name.err"
		echo "# the console's last lines:"
		console_tail "$name" | sed 's/^/#   /'
	fi
}

rc_is() { # NAME WANT
	local got
	got=$(cat "$work/$1.rc")
	[ "$got" = "$2" ] || { echo "exit status $got, want $2"; return 1; }
}

has() { # NAME out|err TEXT
	grep -qF -- "$3" "$work/$1.$2" || { echo "std$2 lacks: $3"; return 1; }
}

# The timeout case sleeps most of its time, so it runs alongside the others.
# Its expected end is the timeout, so only an emulator crash reruns it.
vm_again 123 timeout --timeout "$TIMEOUT" -- sleep 1000 &
tpid=$!

# The warn module, built for the release.
warn_ko=
if make -s -C "$HERE/warn_mod" KVER="$rel" >"$work/warn_mod.log" 2>&1; then
	warn_ko=$(make -s -C "$HERE/warn_mod" print-ko KVER="$rel")
fi

vm_booting true -- true
check_true() { rc_is true 0; }
result true "true exits 0" check_true

vm_booting false -- false
check_false() { rc_is false 1 && has false err "command failed with exit status 1"; }
result false "false exits 1, reported as a failure" check_false

vm_booting exit7 -- sh -c 'exit 7'
check_exit7() { rc_is exit7 7; }
result exit7 "sh -c 'exit 7' exits 7" check_exit7

# Arguments, working directory, stdout and stderr, the environment, the
# results share, and that modprobe finds flowctl.ko by name and alias
# (without loading it: that is the flowctl selftests' business).
mkdir -p "$work/cwd dir" "$work/res"
cat >"$work/io.sh" <<'EOF'
printf '[%s]\n' "$@"
pwd
echo "to stderr" >&2
echo "FOO=$FLOWCTL_SELFTEST_FOO"
case ":$PATH:" in *":$TOP/userland:"*) echo "path ok" ;; esac
[ -f "$FLOWCTL_KO" ] && echo "ko ok"
read -r line </dev/stdin || echo "stdin empty"
echo data >"$FLOWCTL_RESULTS/file" && echo "results ok"
touch /usr/vm-run-selftest 2>/dev/null || echo "root read-only"
echo tmp >"$(mktemp -u /tmp/vm-run-selftest.XXXXXX)" && echo "tmp writable"
modprobe -R sch_flowctl
modprobe -R net-sch-flowctl
[ "$(modinfo -F filename flowctl)" = "$FLOWCTL_KO" ] && echo "modinfo ok"
EOF
# shellcheck disable=SC2016 # a literal $(id), to check the quoting
(cd "$work/cwd dir" && FLOWCTL_SELFTEST_FOO="it's \$x" \
	vm_booting io --results "$work/res" -- env TOP="$TOP" sh "$work/io.sh" "a b" "it's" '$(id)' '')
check_io() {
	local want
	want=$(printf '%s\n' "[a b]" "[it's]" "[\$(id)]" "[]" "$work/cwd dir" \
		"FOO=it's \$x" "path ok" "ko ok" "stdin empty" "results ok" "root read-only" \
		"tmp writable" flowctl flowctl "modinfo ok")
	rc_is io 0 || return 1
	diff -u <(printf '%s\n' "$want") "$work/io.out" || return 1
	has io err "to stderr" || return 1
	[ "$(cat "$work/res/file" 2>/dev/null)" = data ] || { echo "results/file missing"; return 1; }
}
result io "arguments, cwd, stdout/stderr, environment, shares, module indexes" check_io

# NIC pairs on real drivers (--nic): FLOWCTL_NICS names each pair, each
# MAC has an interface, on the model's driver; a model it does not know is
# refused before any boot.
cat >"$work/nics.sh" <<'EOF'
echo "NICS=$FLOWCTL_NICS"
for p in $FLOWCTL_NICS; do
	m=${p%%,*}
	for mac in $(echo "${p#*,}" | tr , ' '); do
		f=$(grep -lx "$mac" /sys/class/net/*/address)
		d=$(basename "$(readlink -f "$(dirname "$f")/device/driver")")
		echo "$m $mac $d"
	done
done
EOF
vm_booting nics --nic e1000e --nic virtio -- sh "$work/nics.sh"
vm badnic --nic e1000 -- true
check_nics() {
	local want
	want=$(printf '%s\n' "NICS=e1000e,52:54:00:fc:00:00,52:54:00:fc:00:01 virtio,52:54:00:fc:01:00,52:54:00:fc:01:01" \
		"e1000e 52:54:00:fc:00:00 e1000e" "e1000e 52:54:00:fc:00:01 e1000e" \
		"virtio 52:54:00:fc:01:00 virtio_net" "virtio 52:54:00:fc:01:01 virtio_net")
	rc_is nics 0 || return 1
	diff -u <(printf '%s\n' "$want") "$work/nics.out" || return 1
	rc_is badnic 121 && has badnic err '--nic: "e1000" is not virtio, e1000e or igb'
}
result nics "--nic: NIC pairs on their drivers, named in FLOWCTL_NICS; an unknown model refused" check_nics

if [ -n "$warn_ko" ]; then
	vm warn -- insmod "$warn_ko"
	vm report -- insmod "$warn_ko" report=1
fi
check_warn() {
	[ -n "$warn_ko" ] || { cat "$work/warn_mod.log"; return 1; }
	rc_is warn 125 && has warn err "WARNING:" && has warn err "warn_mod" &&
		has warn err "Kernel panic"
}
result warn "a WARNING (panic_on_warn) fails the run with its trace" check_warn
check_report() {
	[ -n "$warn_ko" ] || { cat "$work/warn_mod.log"; return 1; }
	rc_is report 122 && has report err "BUG: warn_mod" &&
		has report err "although the command exited with status 0"
}
result report "a report only in dmesg fails the run" check_report

# The emulator failing (selftests/harness/fake-qemu): each must end in
# seconds with exit status 123, never at the --timeout of 120 s.
FAKE=$HERE/fake-qemu
SLOW=120
FAKE_QEMU=kvm-error VM_RUN_QEMU=$FAKE VM_RUN_ACCEL=kvm vm kvmerr --timeout $SLOW -- true
check_kvmerr() {
	rc_is kvmerr 123 && has kvmerr err "the emulator failed" &&
		has kvmerr err "KVM internal error" && has kvmerr err "first lines of qemu's log"
}
result kvmerr "qemu's KVM internal error stops the VM at once, with qemu's words" check_kvmerr

FAKE_QEMU=silent VM_RUN_QEMU=$FAKE VM_RUN_ACCEL=tcg VM_RUN_BOOT_TIMEOUT=5 \
	vm silent --timeout $SLOW -- true
check_silent() {
	rc_is silent 123 && has silent err "wrote nothing to its console within 5 s" &&
		has silent err "first lines of the console log"
}
result silent "a guest that prints nothing is stopped at the boot bound" check_silent

# A /dev/kvm that is there, readable and writable, but cannot run a guest:
# with no override vm-run must probe, choose TCG, say why, and run.
touch "$work/kvm"
ls "${XDG_CACHE_HOME:-$HOME/.cache}"/flowctl/accel-* 2>/dev/null | sort >"$work/accel.before"
FAKE_QEMU=broken-kvm VM_RUN_QEMU=$FAKE VM_RUN_KVM_DEV=$work/kvm \
	vm_booting badkvm --timeout $SLOW -- sh -c 'echo ran'
ls "${XDG_CACHE_HOME:-$HOME/.cache}"/flowctl/accel-* 2>/dev/null | sort |
	comm -13 "$work/accel.before" - | xargs -r rm -f
check_badkvm() {
	rc_is badkvm 0 && has badkvm out ran &&
		has badkvm err "$work/kvm present but KVM cannot run a guest here (qemu: KVM internal error" &&
		has badkvm err "; using TCG"
}
result badkvm "an unusable /dev/kvm: probed, TCG chosen with the reason, the command runs" check_badkvm

wait "$tpid"
tpid=
check_timeout() { rc_is timeout 124 && has timeout err "timed out after $TIMEOUT s"; }
result timeout "a hung VM is killed by --timeout" check_timeout

[ ! -s "$work/retries" ] || cat "$work/retries"
retried=$(grep -c ': run once more$' "$work/retries" 2>/dev/null) || retried=0
echo "# $((n - failed)) of $n passed; $retried run(s) timed out or lost to an emulator crash and were run once more"
[ $failed -eq 0 ]
