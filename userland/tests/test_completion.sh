#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion (completion/flowctl) driven as bash would drive it,
# with a stand-in flowctl on PATH for the port names; and kept in step
# with the CLI: its commands are those "flowctl help" lists, its set,
# send and doctor keywords those their help texts name.
#
# usage: test_completion.sh FLOWCTL
real=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/flowctl" <<'FAKE'
#!/bin/sh
# Stand-in: the ports of the default namespace, or of ns1 with -n ns1.
if [ "$1" = -n ]; then
	echo '[{"ifindex":9,"ifname":"x0"}]'
else
	echo '[{"ifindex":3,"ifname":"a0","mode":"pause"},{"ifindex":4,"ifname":"b0"}]'
fi
FAKE
chmod +x "$tmp/flowctl"
PATH=$tmp:$PATH
# shellcheck source=../completion/flowctl
source "$here/completion/flowctl"

n=0 fail=0
echo "TAP version 13"
# comp LINE: what completing the last word of LINE offers (a trailing
# space: a new, empty word).
comp()
{
	read -r -a COMP_WORDS <<<"$1"
	[[ $1 == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_flowctl
	echo " ${COMPREPLY[*]} "
}
# check LINE WANT... [-- UNWANTED...]
check()
{
	local line=$1 got w bad=""
	shift
	got=$(comp "$line")
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		[[ $got == *" $1 "* ]] || bad+=" missing $1"
		shift
	done
	[ "${1:-}" = -- ] && shift
	for w in "$@"; do
		[[ $got == *" $w "* ]] && bad+=" unwanted $w"
	done
	n=$((n + 1))
	if [ -z "$bad" ]; then
		echo "ok $n - '$line' offers:$got"
	else
		echo "not ok $n - '$line' offers:$got($bad)"
		fail=1
	fi
}

check "flowctl " show set stats watch sample monitor send metrics quanta dcbx doctor help
check "flowctl me" metrics -- monitor show
check "flowctl -" -j -p -s -br -n -V -h
check "flowctl -s show dev " a0 b0
check "flowctl -n ns1 show dev " x0 -- a0
check "flowctl set dev a0 mode " pause pfc off
check "flowctl set dev a0 mode pfc " rx tx pfc-prios trust prio -- mode dev
check "flowctl set dev a0 prio 3 xoff 64k " xon prio -- dev
check "flowctl set dev a0 trust " pcp dscp
check "flowctl set dev a0 j" json
check "flowctl help " set show quanta -- help dev
check "flowctl help s" set show stats sample send -- help quanta
check "flowctl set dev a0 prio-tc " 8021q numeric
check "flowctl stats " dev reset help
check "flowctl stats reset " dev -- reset
check "flowctl send dev " lo
check "flowctl send dev lo " pause xon pfc count interval
check "flowctl quanta 1000 " speed
check "flowctl do" doctor -- dcbx
check "flowctl doctor " dev interval help
check "flowctl doctor dev " lo
check "flowctl doctor dev lo " interval -- dev count
check "flowctl doctor dev lo interval 1 " -- dev interval

# In step with the CLI.
n=$((n + 1))
cmds=$("$real" help | sed -n '/^COMMAND :=/,/}/p' | tr -d '{}|' | sed 's/COMMAND :=//' | xargs -n1 | sort | xargs)
mine=$(comp "flowctl " | xargs -n1 | sort | xargs)
if [ "$cmds" = "$mine" ]; then
	echo "ok $n - the commands are those flowctl help lists: $cmds"
else
	echo "not ok $n - flowctl help: '$cmds'; completion: '$mine'"
	fail=1
fi
check "flowctl waitfor " netns file help
check "flowctl waitfor netns x file y " netns file
check "flowctl waitfor file $here/completion/flow" "$here/completion/flowctl"
for c in set send doctor waitfor; do
	n=$((n + 1))
	# Every keyword the completion offers after "dev X" appears in the help.
	kw=$(comp "flowctl $c dev lo " | xargs -n1 | grep -v '^help$')
	help=$("$real" "$c" help 2>&1)
	bad=
	for w in $kw; do
		grep -qE "(^|[^a-z-])$w([^a-z-]|$)" <<<"$help" || bad+=" $w"
	done
	if [ -z "$bad" ]; then
		echo "ok $n - every $c keyword offered is in flowctl $c help"
	else
		echo "not ok $n - offered for $c but not in its help:$bad"
		fail=1
	fi
done
echo "1..$n"
exit $fail
