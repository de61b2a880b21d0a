#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# flowctl as the Debian packages install it, driven only through the
# installed paths: the module DKMS built, tc's plugin where tc looks for
# it, the CLI in /usr/sbin, the Mininet module in dist-packages.
# scripts/deb-check installs the packages into an overlay of the host's /
# and keeps what they changed in FLOWCTL_INSTALLED (make check does both);
# here that directory is laid over the VM's view of / and every command
# runs chrooted there, with Debian's PATH and no TC_LIB_DIR.
#
#   +-------- ns a --------+      +-------- ns b --------+
#   |  x0 (flowctl root)   |======|  y0                  |
#   +----------------------+ veth +----------------------+

ALL_TESTS="dkms_module tc_json tc_newer doctor_plugin metrics_unit mn_custom"
source "$(dirname "$0")/lib.sh"

ROOT=/run/flowctl-installed
# The newer tc (bookworm-backports' iproute2, unpacked by scripts/deps.sh).
TC_NEW=${FLOWCTL_TC_NEW:-${XDG_CACHE_HOME:-/root/.cache}/flowctl/iproute2-bpo/sbin/tc}

# inroot CMD...: CMD in the installed root (in the caller's netns).
inroot()
{
	chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 "$@"
}

setup_prepare()
{
	[ -n "${FLOWCTL_INSTALLED:-}" ] && [ -d "$FLOWCTL_INSTALLED/usr" ] ||
		skip_script "no installed packages: FLOWCTL_INSTALLED names none (scripts/deb-check --keep DIR makes it; make check does)"
	mkdir -p "$ROOT" /run/flowctl-installed.rw
	mount -t tmpfs tmpfs /run/flowctl-installed.rw &&
		mkdir /run/flowctl-installed.rw/upper /run/flowctl-installed.rw/work &&
		mount -t overlay overlay -o "lowerdir=$FLOWCTL_INSTALLED:/,upperdir=/run/flowctl-installed.rw/upper,workdir=/run/flowctl-installed.rw/work" "$ROOT" &&
		mount --rbind /proc "$ROOT/proc" &&
		mount --rbind /sys "$ROOT/sys" &&
		mount --rbind /dev "$ROOT/dev" &&
		mount -t tmpfs tmpfs "$ROOT/tmp" &&
		mount -t tmpfs tmpfs "$ROOT/run" || setup_failed
	setup_ns A B
	veth_pair "$A" x0 "$B" y0
}

cleanup_installed()
{
	ip netns exec "$A" tc qdisc del dev x0 root 2>/dev/null
	mn -c >/dev/null 2>&1
	# The tree's module back for the scripts that come after.
	if [ "$(cat /sys/module/flowctl/srcversion 2>/dev/null)" != \
	     "$(modinfo -F srcversion "$FLOWCTL_KO" 2>/dev/null)" ]; then
		modprobe -r flowctl 2>/dev/null
		modprobe flowctl
	fi
	umount -R "$ROOT" 2>/dev/null
	umount /run/flowctl-installed.rw 2>/dev/null
}

dkms_module()
{
	local ko want have

	modprobe -r flowctl 2>/dev/null
	ko=$(inroot modinfo -n flowctl)
	check_err $? "modinfo -n flowctl in the installed root"
	case $ko in
	/lib/modules/"$(uname -r)"/updates/dkms/flowctl.ko*) ;;
	*) check_err 1 "modprobe would load $ko, not DKMS's updates/dkms/flowctl.ko" ;;
	esac
	inroot modprobe flowctl
	check_err $? "modprobe flowctl in the installed root"
	want=$(inroot modinfo -F srcversion flowctl)
	have=$(cat /sys/module/flowctl/srcversion 2>/dev/null)
	[ -n "$want" ] && [ "$want" = "$have" ]
	check_err $? "the loaded module's srcversion $have is not DKMS's ($want)"
	[ "$(cat /sys/module/flowctl/version)" = "$(cat "$TOP/VERSION")" ]
	check_err $? "the loaded module is version $(cat /sys/module/flowctl/version)"
	log_info "loaded $ko (srcversion $have)"
	log_test "modprobe flowctl finds the module DKMS built for $(uname -r)"
}

tc_json()
{
	local out

	ip netns exec "$A" chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		tc qdisc add dev x0 root flowctl mode pfc pfc-prios 3 trust dscp
	check_err $? "tc qdisc add ... flowctl mode pfc pfc-prios 3 trust dscp"
	ip netns exec "$A" chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		tc qdisc change dev x0 root flowctl pfc-prios 3,4
	check_err $? "tc qdisc change ... pfc-prios 3,4"
	out=$(ip netns exec "$A" chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		tc -j -s -d qdisc show dev x0)
	python3 -m json.tool <<<"$out" >/dev/null
	check_err $? "tc -j -s -d qdisc show is not JSON: $out"
	jq -e '.[0].kind == "flowctl" and .[0].options.mode == "pfc" and
		.[0].options.trust == "dscp"' <<<"$out" >/dev/null
	check_err $? "the options read back: $(jq -c '.[0].options' <<<"$out" 2>&1 | head -c 300)"
	out=$(ip netns exec "$A" chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		flowctl -j show dev x0)
	jq -e '.[0].mode == "pfc" and .[0].pfc_prios == [3, 4]' <<<"$out" >/dev/null
	check_err $? "flowctl -j show from /usr/sbin: $(head -c 300 <<<"$out")"
	# Without the plugin tc prints text into the JSON: why both ship together.
	out=$(ip netns exec "$A" env TC_LIB_DIR=/nonexistent tc -j qdisc show dev x0)
	! python3 -m json.tool <<<"$out" >/dev/null 2>&1
	check_err $? "without q_flowctl.so tc's JSON was valid: the doctor's no-tc-plugin would be wrong"
	log_test "tc from the installed root: options parsed and printed, tc -j -s -d is JSON (and is not without the plugin)"
}

tc_newer()
{
	local a b

	if [ ! -x "$TC_NEW" ]; then
		log_skip "no newer tc at $TC_NEW (scripts/deps.sh unpacks bookworm-backports' iproute2)"
		return
	fi
	ip netns exec "$A" tc qdisc replace dev x0 root flowctl mode pfc pfc-prios 3 quanta 1000 >/dev/null 2>&1
	a=$(ip netns exec "$A" chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		tc -j -s -d qdisc show dev x0 | jq -c '.[0].options')
	b=$(ip netns exec "$A" env TC_LIB_DIR="$ROOT/usr/lib/x86_64-linux-gnu/tc" \
		"$TC_NEW" -j -s -d qdisc show dev x0 | jq -c '.[0].options')
	[ -n "$a" ] && [ "$a" != null ] && [ "$a" = "$b" ]
	check_err $? "tc $("$TC_NEW" -V | head -n 1) prints other options than tc 6.1: $b vs $a"
	ip netns exec "$A" env TC_LIB_DIR="$ROOT/usr/lib/x86_64-linux-gnu/tc" \
		"$TC_NEW" qdisc change dev x0 root flowctl pfc-prios 5
	check_err $? "$("$TC_NEW" -V | head -n 1): tc qdisc change ... pfc-prios 5"
	[ "$(fc_get "$A" x0 '.pfc_prios | tostring')" = "[5]" ]
	check_err $? "the newer tc's change did not reach the kernel"
	log_info "$("$TC_NEW" -V | head -n 1): options $b"
	log_test "the installed q_flowctl.so in bookworm-backports' tc 6.15: the same JSON, and a change that lands"
}

doctor_plugin()
{
	local out

	out=$(ip netns exec "$A" chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		flowctl -j doctor interval 0.1)
	jq -e '[.findings[].id] | index("no-tc-plugin") == null' <<<"$out" >/dev/null
	check_err $? "no-tc-plugin with q_flowctl.so installed: $(head -c 300 <<<"$out")"
	out=$(ip netns exec "$A" chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		TC_LIB_DIR=/nonexistent flowctl -j doctor interval 0.1)
	jq -e '.findings[] | select(.id == "no-tc-plugin") | .severity == "warning" and
		(.measured | contains("/nonexistent"))' <<<"$out" >/dev/null
	check_err $? "no-tc-plugin missing where tc finds no plugin: $(head -c 300 <<<"$out")"
	log_test "flowctl doctor: no-tc-plugin where tc cannot find q_flowctl.so, and only there"
}

# The metrics unit's own command (ExecStart, $$ as systemd passes it to the
# shell), run with TEXTFILE_DIR elsewhere: one complete file, promtool-clean,
# and no temporary file left.
metrics_unit()
{
	local cmd promtool

	cmd=$(sed -n 's/^ExecStart=//p' "$ROOT/lib/systemd/system/flowctl-metrics.service" | sed 's/\$\$/$/g')
	[ -n "$cmd" ]
	check_err $? "no ExecStart in the installed flowctl-metrics.service"
	mkdir -p "$ROOT/tmp/textfile"
	ip netns exec "$A" chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		TEXTFILE_DIR=/tmp/textfile sh -c "exec $cmd"
	check_err $? "the unit's command failed: $cmd"
	[ "$(ls -A "$ROOT/tmp/textfile")" = flowctl.prom ]
	check_err $? "the textfile directory holds $(ls -A "$ROOT/tmp/textfile" | tr '\n' ' ')"
	[ "$(stat -c %a "$ROOT/tmp/textfile/flowctl.prom")" = 644 ]
	check_err $? "flowctl.prom is mode $(stat -c %a "$ROOT/tmp/textfile/flowctl.prom")"
	grep -q '^flowctl_port_info{device="x0"' "$ROOT/tmp/textfile/flowctl.prom"
	check_err $? "flowctl.prom does not describe x0"
	promtool=$(command -v promtool || echo "${XDG_CACHE_HOME:-/root/.cache}/flowctl/promtool/usr/bin/promtool")
	if [ -x "$promtool" ]; then
		"$promtool" check metrics <"$ROOT/tmp/textfile/flowctl.prom" >/dev/null 2>&1
		check_err $? "promtool check metrics: $("$promtool" check metrics <"$ROOT/tmp/textfile/flowctl.prom" 2>&1 | head -n 3)"
	fi
	log_test "flowctl-metrics.service's command writes flowctl.prom whole, mode 644, promtool-clean"
}

mn_custom()
{
	local out

	# The module DKMS built (dkms_module), whichever cases ran before.
	grep -q '^flowctl ' /proc/modules || inroot modprobe flowctl
	# Mininet runs each node's commands through setns(), which leaves a
	# chroot: here the installed /usr is laid over the VM's own instead,
	# in a mount namespace of this case.
	out=$(unshare -m sh -c 'mount -t overlay overlay -o "lowerdir=$1/usr:/usr" /usr &&
		cd / && exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		timeout 300 mn --custom /usr/share/doc/python3-flowctl/examples/lossless.py \
		--topo lossless --switch lxbr --controller none --test pingall' sh \
		"$FLOWCTL_INSTALLED" 2>&1)
	check_err $? "mn --custom lossless.py --test pingall: $(tail -n 5 <<<"$out")"
	grep -q "Results: 0% dropped" <<<"$out"
	check_err $? "pingall: $(grep -E 'Results|Error|Exception' <<<"$out" | head -n 3)"
	grep -q "flowctl h1-eth0: mode pause" <<<"$out"
	check_err $? "the installed flowctl.mininet did not configure h1-eth0"
	unshare -m sh -c 'mount -t overlay overlay -o "lowerdir=$1/usr:/usr" /usr &&
		cd / && exec env -i PATH=/usr/bin python3 -c "import flowctl.mininet as m; assert m.__file__ == \"/usr/lib/python3/dist-packages/flowctl/mininet.py\""' \
		sh "$FLOWCTL_INSTALLED"
	check_err $? "flowctl.mininet is not the installed one"
	log_test "mn --custom with the installed example: flowctl links from dist-packages, pingall"
}

trap 'cleanup_installed; cleanup; fc_tc_lib_rm' EXIT
setup_prepare
run_tests
