#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The docs' blocks marked <!-- doc-test: vm --> (README.md,
# Documentation/*.md) run here, each in a namespace whose eth0 is a veth
# with flowctl attached (scripts/doc-test --vm); the host runs the rest of
# the doc test (make check's "docs" step).

ALL_TESTS="vm_blocks"
source "$(dirname "$0")/lib.sh"
require_cmd ethtool dcb python3

vm_blocks()
{
	local out

	out=$(python3 "$TOP/scripts/doc-test" --vm 2>&1)
	check_err $? "$(grep -A15 '^not ok' <<<"$out" | head -n 20)"
	grep -c '^ok' <<<"$out" | grep -qv '^0$'
	check_err $? "no block marked vm was found"
	log_info "$(grep -c '^ok' <<<"$out") blocks: $(grep '^ok' <<<"$out" | sed 's/^ok [0-9]* - //' | tr '\n' ';')"
	log_test "every block the docs mark vm runs in the VM"
}

run_tests
