#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# "scripts/lab shell": a command relay into a VM with the lab topology up.
# scripts/vm-run gives the guest no terminal (stdin is /dev/null, output
# goes through virtio serial ports into files), so this is not a tty: each
# line typed here (with readline editing and history) is written to
# RESULTS/relay/cmd.N on the results share; the guest runs it with bash -c
# and its output comes back through vm-run's stdout. Ctrl-C stops the
# running command (SIGINT to its process group in the guest); "exit" or
# Ctrl-D ends the session and powers the VM off. Programs that want a
# terminal (top, less, editors) do not work; flowctl watch, tc, ip, iperf3
# and tcpdump -c N do.
#   shell-relay.sh RESULTS RATE VM-RUN-OPTIONS...
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
results=$1 rate=$2
shift 2
relay=$results/relay
rm -rf "$relay"
mkdir -p "$relay"

# Its own session: a Ctrl-C typed here must not reach vm-run, which would
# kill the VM.
setsid "$TOP/scripts/vm-run" "$@" -- "$TOP/scripts/demo/experiments.sh" --shell \
	"$results" --rate "$rate" &
vm=$!

stop()
{
	: >"$relay/exit"
	wait $vm
	exit $?
}

while [ ! -e "$relay/ready" ]; do
	kill -0 $vm 2>/dev/null || { wait $vm; exit $?; }
	sleep 0.2
done
cat <<TXT
lab shell: the topology of Documentation/demo.md is up, PAUSE on, s1 at $rate Mb/s.
  namespaces hostA (a0 198.18.0.1), switch (s0, s1, s2, br0),
  hostB (b0 198.18.0.2), hostC (c0 198.18.0.3); iperf3 servers are not started.
  Try:
    ip netns exec hostB iperf3 -s -1 -D
    ip netns exec hostA iperf3 -c 198.18.0.2 -P 8 -t 10 -S 0x60 -w 256K &
    flowctl -n switch watch dev s0 interval 1 count 8
    tc -n switch -s qdisc show dev s1;  flowctl -n hostA -s show
    flowctl -n switch set dev s0 tx off     (flow control off)
  Not a terminal: no Ctrl-Z, no full-screen programs. Ctrl-C stops the
  running command; exit or Ctrl-D leaves and powers the VM off.
TXT

n=1
running=0
trap '[ $running = 1 ] && : >"$relay/intr"' INT
HISTFILE=${XDG_CACHE_HOME:-$HOME/.cache}/flowctl/lab_history
mkdir -p "$(dirname "$HISTFILE")" 2>/dev/null
history -r "$HISTFILE" 2>/dev/null
while true; do
	kill -0 $vm 2>/dev/null || { echo "lab shell: the VM is gone"; wait $vm; exit $?; }
	if ! IFS= read -r -e -p "lab# " line; then
		echo
		stop
	fi
	[ -n "${line// /}" ] || continue
	history -s "$line"
	history -a "$HISTFILE" 2>/dev/null
	case $line in
	exit | logout | quit) stop ;;
	esac
	printf '%s\n' "$line" >"$relay/.cmd"
	mv "$relay/.cmd" "$relay/cmd.$n"
	running=1
	while [ ! -e "$relay/done.$n" ]; do
		kill -0 $vm 2>/dev/null || break
		sleep 0.1
	done
	running=0
	# vm-run copies the guest's output every 0.2 s: let it catch up.
	sleep 0.5
	rc=$(cat "$relay/done.$n" 2>/dev/null)
	[ "${rc:-0}" = 0 ] || echo "[exit status $rc]"
	n=$((n + 1))
done
