#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs nl_policy (C, kselftest_harness.h) against a flowctl port in a
# namespace of its own.
#
#   +------ ns P ------+
#   | p0 (flowctl) -- veth -- p1
#   +------------------+

source "$(dirname "$0")/lib.sh"

[ -x "$SELFTESTS_DIR/nl_policy" ] ||
	skip_script "nl_policy not built (kselftest_harness.h missing: scripts/ksrc extracts it)"
setup_ns P
ip -n "$P" link add name p0 type veth peer name p1
ip netns exec "$P" tc qdisc add dev p0 root flowctl || exit 1
FC_DEV=p0 FC_DEV2=p1 ip netns exec "$P" "$SELFTESTS_DIR/nl_policy"
