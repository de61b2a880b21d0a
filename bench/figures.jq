# SPDX-License-Identifier: GPL-2.0
# The figures of one kernel's run (bench/run's JSON) as an ordered list of
# { group, key, label, value, unit }: peers sit next to what they compare
# with. bench/report prints them; bench/compare joins two runs by key.

def us: if . == null then null elif fabs >= 1000000 then (. / 1000 | round)
  else (. / 100 | round) / 10 end;
def ms: if . == null then null else (. / 100000 | round) / 10 end;
def pct: if . == null then null else (. * 1000 | round) / 10 end;

# Group 9's figures of one device (bench/mq.sh's .mq): $g names the group,
# $k prefixes the keys.
def mqfigs($g; $k):
    (.cases[] |
      { group: $g, key: "\($k)/\(.qdisc)/pps", label: "\(.qdisc): frames/s", value: .pps, unit: "/s" },
      { group: $g, key: "\($k)/\(.qdisc)/ratio", label: "\(.qdisc): against mq + pfifo_fast",
        value: .ratio_to_mq_pfifo_fast, unit: "x" }),
    (.pause.gaps[] |
      { group: $g, key: "\($k)/gap/\(.form)/\(.queue)",
        label: "\(.form), queue \(.queue): gap for 102.4 ms of PAUSE (median)",
        value: (.median_us / 1000 | . * 100 | round / 100), unit: "ms" },
      (select(.stop_median_us != null) |
      { group: $g, key: "\($k)/stop/\(.form)/\(.queue)",
        label: "\(.form), queue \(.queue): stop after the PAUSE (median)",
        value: .stop_median_us, unit: "us" }));

# The cost figures (groups 1 and 2) of a run: $g1/$g2 name the groups, $k
# prefixes the keys, $u is the unit of a rate.
def costs($g1; $g2; $k; $u):
    (.forwarding.cases // [] | group_by([.frame_bytes, .senders])[] |
      (.[0] | "\(.frame_bytes) B, \(.senders) sender\(if .senders > 1 then "s" else "" end)") as $case |
      ((.[] |
        { group: $g1, key: "\($k)fwd/\(.frame_bytes)/\(.senders)/\(.qdisc)",
          label: "\($case): \(.qdisc)", value: .pps, unit: $u }),
       (.[] | select(.qdisc != "pfifo_fast") |
        { group: $g1, key: "\($k)fwd/\(.frame_bytes)/\(.senders)/\(.qdisc)/ratio",
          label: "\($case): \(.qdisc) / pfifo_fast", value: .ratio_to_pfifo_fast, unit: "x" }),
       (.[] | select(.qdisc | startswith("flowctl")) | select(.ratio_to_prio) |
        { group: $g1, key: "\($k)fwd/\(.frame_bytes)/\(.senders)/\(.qdisc)/prio",
          label: "\($case): \(.qdisc) / prio", value: .ratio_to_prio, unit: "x" }))),
    # flowctl's own symbols by name (fctl_*): perf does not always map a
    # module's samples to its module.
    (.forwarding.profiles // [] | .[] | .qdisc as $q |
      ([.symbols[] | select(.symbol | test("^_*fctl_")) | .percent] | add // 0) as $own |
      { group: $g1, key: "\($k)profile/\($q)/flowctl",
        label: "64 B, 1 sender, CPU 0: \($q): samples in fctl_* symbols", value: (($own * 100 | round) / 100), unit: "%" },
      (.symbols | map(select(.symbol | test("^_*fctl_"))) | .[0:4][] |
        { group: $g1, key: "\($k)profile/\($q)/\(.symbol)",
          label: "64 B, 1 sender, CPU 0: \($q): \(.symbol)", value: .percent, unit: "%" })),
    # Unprivileged readers next to the same port with none.
    (.readers // empty | .cases[] |
      { group: $g1, key: "\($k)readers/\(.reader)",
        label: "flowctl, 64 B x2, nobody reads: \(.reader)", value: .pps, unit: $u },
      (select(.reader != "none") |
        { group: $g1, key: "\($k)readers/\(.reader)/ratio",
          label: "flowctl, 64 B x2: \(.reader) / none", value: .ratio_to_none, unit: "x" },
        { group: $g1, key: "\($k)readers/\(.reader)/reads",
          label: "flowctl, 64 B x2: \(.reader): reads", value: .reads_per_s, unit: "/s" })),
    (.ingress // empty | select(.pps_with_flowctl) |
      (select(.pps_module_unloaded) |
        { group: $g2, key: "\($k)ingress/unloaded",
          label: "module not loaded", value: .pps_module_unloaded, unit: $u },
        { group: $g2, key: "\($k)ingress/loaded_ratio",
          label: "module loaded, no qdisc / not loaded", value: .loaded_ratio, unit: "x" }),
      { group: $g2, key: "\($k)ingress/without",
        label: "module loaded, no qdisc on i0", value: .pps_without_flowctl, unit: $u },
      (select(.pps_nft_hook) |
        { group: $g2, key: "\($k)ingress/nft_hook",
          label: "nftables ingress chain on i0, no rule", value: .pps_nft_hook, unit: $u },
        { group: $g2, key: "\($k)ingress/nft_rule",
          label: "nftables ingress chain, ether type 0x8808 drop", value: .pps_nft_rule, unit: $u }),
      { group: $g2, key: "\($k)ingress/with",
        label: "with flowctl", value: .pps_with_flowctl, unit: $u },
      (select(.pps_nft_hook) |
        { group: $g2, key: "\($k)ingress/nft_hook_ratio",
          label: "nftables chain, no rule / no qdisc", value: .nft_hook_ratio, unit: "x" },
        { group: $g2, key: "\($k)ingress/nft_rule_ratio",
          label: "nftables chain, EtherType rule / no qdisc", value: .nft_rule_ratio, unit: "x" }),
      { group: $g2, key: "\($k)ingress/ratio",
        label: "flowctl on i0 / no qdisc", value: .ratio, unit: "x" },
      (select(.ratio_to_nft_rule) |
        { group: $g2, key: "\($k)ingress/ratio_to_nft_rule",
          label: "flowctl on i0 / nftables EtherType rule", value: .ratio_to_nft_rule, unit: "x" }));

def figures:
  [
    costs("1 forwarding (pktgen through a bridge, out of the measured qdisc)";
          "2 ingress (pktgen netif_receive, 64 B)"; ""; "pps"),
    # The same under -icount (vm-run --icount): guest time counts
    # instructions, so a rate is frames per 10^9 instructions: CPU work.
    (.icount // empty |
      costs("1i forwarding, icount: frames per 10^9 guest instructions";
            "2i ingress, icount: frames per 10^9 guest instructions"; "icount/"; "/Ginsn")),
    (.pause_accuracy // empty | select(.times) | (.speed_mbps // 100) as $s0 |
      (.times[] | (.speed_mbps // $s0) as $s |
        { group: "3 pause accuracy (gap at the partner - requested)",
          key: "pause/\($s)/\(.quanta)/median",
          label: "\(.requested_ns | us) us (\(.quanta) quanta at \($s) Mb/s): median error (\(.samples))",
          value: (.median_error_ns | us), unit: "us" },
        (select(.median_error_share) |
          { group: "3 pause accuracy (gap at the partner - requested)",
            key: "pause/\($s)/\(.quanta)/median_share",
            label: "\(.requested_ns | us) us: median error / requested",
            value: (.median_error_share | pct), unit: "%" }),
        { group: "3 pause accuracy (gap at the partner - requested)",
          key: "pause/\($s)/\(.quanta)/worst",
          label: "\(.requested_ns | us) us: worst error",
          value: (.worst_error_ns | us), unit: "us" },
        (select(.worst_error_share) |
          { group: "3 pause accuracy (gap at the partner - requested)",
            key: "pause/\($s)/\(.quanta)/worst_share",
            label: "\(.requested_ns | us) us: worst error / requested",
            value: (.worst_error_share | pct), unit: "%" })),
      (.timer_peer // [] | .[] |
        { group: "3 pause accuracy (gap at the partner - requested)",
          key: "pause/timer/\(.requested_ns)/median",
          label: "peer, the VM timer: \(.requested_ns | us) us sleep, median lateness",
          value: (.median_late_ns | us), unit: "us" },
        { group: "3 pause accuracy (gap at the partner - requested)",
          key: "pause/timer/\(.requested_ns)/worst",
          label: "peer, the VM timer: \(.requested_ns | us) us sleep, worst lateness",
          value: (.worst_late_ns | us), unit: "us" }),
      { group: "3 pause accuracy (gap at the partner - requested)", key: "pause/spacing",
        label: "resolution: median datagram spacing", value: (.datagram_spacing_ns | us), unit: "us" }),
    (.reaction // empty | select(.frames) |
      { group: "4 reaction", key: "reaction/leaked",
        label: "datagrams out after the gate closed (\(.frames) PAUSE)", value: .leaked_packets, unit: "pkts" },
      { group: "4 reaction", key: "reaction/gate/median",
        label: "frame arrival -> gate closed: median", value: (.arrival_to_gate_ns.median | us), unit: "us" },
      { group: "4 reaction", key: "reaction/gate/worst",
        label: "frame arrival -> gate closed: worst", value: (.arrival_to_gate_ns.worst | us), unit: "us" },
      (.xon_arrival_to_gate_open_ns // empty | select(.median) |
        { group: "4 reaction", key: "reaction/xon/median",
          label: "XON arrival -> gate open: median (\(.matched) XON)", value: (.median | us), unit: "us" },
        { group: "4 reaction", key: "reaction/xon/worst",
          label: "XON arrival -> gate open: worst", value: (.worst | us), unit: "us" })),
    (.nic // empty | to_entries[] | .key as $m | .value |
      { group: "8 drivers (100 Mb/s; veth beside them)", key: "nic/\($m)/leaked",
        label: "\($m): datagrams after the gate closed (\(.frames) PAUSE)",
        value: .leaked_packets, unit: "pkts" },
      { group: "8 drivers (100 Mb/s; veth beside them)", key: "nic/\($m)/gate/median",
        label: "\($m): frame leaving the partner -> gate closed: median", value: (.arrival_to_gate_ns.median | us), unit: "us" },
      (.times[] |
        { group: "8 drivers (100 Mb/s; veth beside them)", key: "nic/\($m)/\(.requested_ns)/median",
          label: "\($m): \(.requested_ns | us) us pause: median error (\(.samples))", value: (.median_error_ns | us), unit: "us" },
        { group: "8 drivers (100 Mb/s; veth beside them)", key: "nic/\($m)/\(.requested_ns)/longest",
          label: "\($m): \(.requested_ns | us) us pause: longest silence - pause, median", value: (.median_longest_gap_error_ns | us), unit: "us" })),
    (.lossless // empty | select(.runs) |
      (.runs[] | . as $r |
        { group: "5 lossless (bottleneck 20 Mb/s; tx off is the peer)",
          key: "lossless/\(.overload)/\(.tx)/drops",
          label: "\(.overload)x, tx \(.tx): drops", value: .drops, unit: "pkts" },
        { group: "5 lossless (bottleneck 20 Mb/s; tx off is the peer)",
          key: "lossless/\(.overload)/\(.tx)/utilization",
          label: "\(.overload)x, tx \(.tx): bottleneck utilization", value: (.utilization | pct), unit: "%" },
        (select(.tx == "on") |
        { group: "5 lossless (bottleneck 20 Mb/s; tx off is the peer)",
          key: "lossless/\(.overload)/peak",
          label: "\(.overload)x, tx on: peak charge above XOFF (sampled)", value: .peak_above_xoff_bytes, unit: "B" })),
      { group: "5 lossless (bottleneck 20 Mb/s; tx off is the peer)", key: "lossless/headroom",
        label: "headroom by the formula (speed 1000)", value: .headroom_formula_bytes, unit: "B" }),
    (.scale // empty | select(.runs) | .runs as $runs |
      ($runs | map(.ports) | unique | .[]) as $n |
      ($runs[] | select(.ports == $n)) |
        { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/\(.ports)/\(.qdisc)/memory",
          label: "\(.ports) ports, \(.qdisc): memory per port", value: .memory_per_port_bytes, unit: "B" },
        { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/\(.ports)/\(.qdisc)/slab",
          label: "\(.ports) ports, \(.qdisc): slab per port", value: .slab_per_port_bytes, unit: "B" },
        { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/\(.ports)/\(.qdisc)/dump",
          label: "\(.ports) ports, \(.qdisc): full netlink dump (\(if .qdisc == "flowctl" then "DEV_GET" else "RTM_GETQDISC" end))",
          value: (.dump_us / 1000 | . * 100 | round / 100), unit: "ms" },
        (select(.dump_bytes) |
          { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/\(.ports)/\(.qdisc)/dump_bytes",
            label: "\(.ports) ports, \(.qdisc): bytes that dump carried", value: .dump_bytes, unit: "B" }),
        (select(.dump_brief_us) |
          { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/\(.ports)/\(.qdisc)/dump_brief",
            label: "\(.ports) ports, \(.qdisc): brief netlink dump (DEV_GET brief, flowctl -br show)",
            value: (.dump_brief_us / 1000 | . * 100 | round / 100), unit: "ms" },
          { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/\(.ports)/\(.qdisc)/dump_brief_bytes",
            label: "\(.ports) ports, \(.qdisc): bytes the brief dump carried", value: .dump_brief_bytes, unit: "B" }),
        { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/\(.ports)/\(.qdisc)/pause",
          label: "\(.ports) ports, \(.qdisc): PAUSE frames absorbed", value: .pause_frames_per_s, unit: "/s" }),
    (.scale // empty | select(.teardown) | .teardown[] |
      { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/teardown/\(.ports)/\(.qdisc)/attach",
        label: "\(.ports) ports, \(.qdisc): attach all (one tc batch)", value: (.attach_ns | ms), unit: "ms" },
      { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/teardown/\(.ports)/\(.qdisc)/detach",
        label: "\(.ports) ports, \(.qdisc): delete all (one tc batch)", value: (.detach_ns | ms), unit: "ms" },
      { group: "6 scale (per port; pfifo_fast is the peer)", key: "scale/teardown/\(.ports)/\(.qdisc)/netns",
        label: "\(.ports) ports, \(.qdisc): delete their namespace", value: (.netns_del_ns | ms), unit: "ms" }),
    (.storm // empty | select(.runs) | .runs[] |
      (if .listener then "listener" else "no listener" end) as $l |
      (if .listener then "with" else "without" end) as $k |
      { group: "7 event storm (PFC toggling 8 priorities; no listener is the peer)",
        key: "storm/\($k)/fps", label: "\($l): PFC frames absorbed", value: .frames_per_s, unit: "/s" },
      { group: "7 event storm (PFC toggling 8 priorities; no listener is the peer)",
        key: "storm/\($k)/cpu", label: "\($l): VM CPU busy (softirq \(.softirq_pct)%)", value: .cpu_busy_pct, unit: "%" },
      { group: "7 event storm (PFC toggling 8 priorities; no listener is the peer)",
        key: "storm/\($k)/slab", label: "\($l): slab peak rise", value: .slab_peak_rise_kb, unit: "KiB" },
      (select(.listener) |
      { group: "7 event storm (PFC toggling 8 priorities; no listener is the peer)",
        key: "storm/rmem", label: "listener: receive queue peak", value: .listener_rmem_peak_bytes, unit: "B" },
      { group: "7 event storm (PFC toggling 8 priorities; no listener is the peer)",
        key: "storm/messages", label: "listener: messages (\(.events_reported) events) for \(.frames_absorbed) frames",
        value: .messages, unit: "msgs" },
      { group: "7 event storm (PFC toggling 8 priorities; no listener is the peer)",
        key: "storm/suppressed", label: "listener: events suppressed", value: .events_suppressed, unit: "events" })),
    (.mq // empty | select(.cases) |
      mqfigs("9 multiqueue (2 TX queues, 2 CPUs, 64 B; mq + pfifo_fast is the peer)"; "mq")),
    (.nic_mq // empty | to_entries[] | .key as $m | .value | select(.cases) |
      mqfigs("9 multiqueue on \($m) (\(.queues) TX queues, 2 CPUs, 64 B; mq + pfifo_fast is the peer)"; "mq/\($m)"))
  ];
