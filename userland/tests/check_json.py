#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the JSON that flowctl prints: keys, types and values.

usage: check_json.py OUTDIR FLOWCTL

OUTDIR holds what test_json wrote (show.json, show-pretty.json, stats.json,
empty.json, events.jsonl) for synthetic kernel replies, and test_doctor
(doctor.json, doctor-nomodule.json) for synthetic facts; FLOWCTL is the
binary, run for the commands that need no kernel module (quanta, doctor).
"""
import json
import os
import re
import subprocess
import sys

n = 0
failed = 0


def ok(cond, desc, detail=None):
    global n, failed
    n += 1
    if not cond:
        failed += 1
        print(f"not ok {n} - {desc}")
        if detail is not None:
            print(f"# {detail}")
    else:
        print(f"ok {n} - {desc}")
    return cond


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


TOP_TYPES = {
    "ifname": str, "ifindex": int, "mode": str, "rx": bool, "tx": bool,
    "pfc_prios": list, "trust": str, "speed_mbps": int,
    "speed_config_mbps": int, "speed_source": str, "rate_bps": int,
    "limit_bytes": int, "xoff_bytes": int, "xon_bytes": int, "quanta": int,
    "quanta_ns": int, "headroom_bytes": int, "prio_tc": list, "tc_bw": list, "stats": dict, "prio": list,
    "wd_detect_ms": int, "wd_restore_ms": int, "wd_action": str, "tx_storm_ms": int,
    "partner_mac": str, "address": str, "nic": dict,
    "tunnel_wire": bool, "round_trip_bits": int, "dscp_prio": list, "doors": dict,
    "dcbx_partner": dict, "queues": list,
}
STATS_KEYS = ["rx_pause", "rx_xon", "rx_pfc", "tx_pause", "tx_xon", "tx_pfc",
              "rx_ignored", "rx_malformed", "rx_unsupported", "partner_ignored",
              "events_suppressed", "tx_storm_warning", "tx_storm_error", "tx_xoff_short"]
PRIO_TYPES = {
    "prio": int, "paused": bool, "pause_left_ns": int, "pause_elapsed_ns": int,
    "paused_ns_total": int,
    "pause_episodes": int, "rx_pfc": int, "rx_pfc_xon": int, "tx_pfc": int,
    "tx_pfc_xon": int, "tx_packets": int, "tx_bytes": int,
    "backlog_bytes": int, "backlog_packets": int, "drops": int,
    "charge_bytes": int, "xoff_bytes": int, "xon_bytes": int,
    "xoff_active": bool, "partner_ignored": int,
    "wd_state": str, "wd_storms": int, "wd_restored": int, "wd_tx_drop": int,
    "wd_rx_drop": int, "wd_tx_forward": int, "wd_stormed_ns_total": int,
}
PRIO_COUNTERS = {"prio", "paused_ns_total", "pause_episodes", "rx_pfc",
                 "rx_pfc_xon", "tx_pfc", "tx_pfc_xon", "tx_packets",
                 "tx_bytes", "drops", "partner_ignored", "wd_state", "wd_storms",
                 "wd_restored", "wd_tx_drop", "wd_rx_drop", "wd_tx_forward",
                 "wd_stormed_ns_total"}


def type_ok(v, t):
    if t is int:
        return is_int(v)
    return isinstance(v, t)


def load(path):
    with open(path) as f:
        return json.load(f)


RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def is_rfc3339(v):
    return isinstance(v, str) and RFC3339.match(v) is not None


def check_show(out):
    show = load(os.path.join(out, "show.json"))
    ok(isinstance(show, list) and len(show) == 2, "show: an array of 2 ports")
    sparse, full = show[0], show[1]
    ok(full["ifname"] == "veth0" and sparse["ifname"] == "eth1",
       "show: ports ordered by ifindex")

    ok(set(full) == set(TOP_TYPES), "show: the full port has exactly the documented keys",
       sorted(set(full) ^ set(TOP_TYPES)))
    bad = [k for k, t in TOP_TYPES.items() if k in full and not type_ok(full[k], t)]
    ok(not bad, "show: every top-level key has its type", bad)
    ok(full["mode"] in ("pause", "pfc", "off") and full["mode"] == "pfc", "show: mode is pfc")
    ok(full["rx"] is True and full["tx"] is False, "show: rx/tx are booleans")
    ok(full["pfc_prios"] == [3, 4], "show: pfc_prios is [3, 4]")
    ok(full["trust"] in ("pcp", "dscp"), "show: trust is pcp or dscp")
    ok(full["speed_source"] in ("none", "config", "rate", "ethtool"),
       "show: speed_source is one of the four")
    ok(full["speed_mbps"] == 100 and full["speed_config_mbps"] == 100,
       "show: speed_mbps (in use) and speed_config_mbps")
    ok(full["quanta"] == 65535 and full["rate_bps"] == 0 and full["limit_bytes"] == 1000000,
       "show: quanta, rate_bps, limit_bytes values")

    st = full["stats"]
    ok(set(st) == set(STATS_KEYS), "show: stats has exactly the 11 counters",
       sorted(set(st) ^ set(STATS_KEYS)))
    ok(all(is_int(v) for v in st.values()), "show: stats are integers")
    ok(st["rx_pause"] == 12 and st["tx_pfc"] == 5 and st["partner_ignored"] == 4,
       "show: stats values")

    pr = full["prio"]
    ok(isinstance(pr, list) and len(pr) == 8, "show: prio has 8 entries")
    ok([p["prio"] for p in pr] == list(range(8)), "show: prio ordered 0..7")
    ok(all(set(p) == set(PRIO_TYPES) for p in pr),
       "show: each prio has exactly the documented keys",
       [sorted(set(p) ^ set(PRIO_TYPES)) for p in pr][:1])
    bad = [(p["prio"], k) for p in pr for k, t in PRIO_TYPES.items()
           if k in p and not type_ok(p[k], t)]
    ok(not bad, "show: every prio key has its type", bad[:5])
    ok(pr[3]["paused"] is True and pr[3]["pause_left_ns"] == 12345678 and
       pr[3]["pause_elapsed_ns"] == 2000000,
       "show: prio 3 paused with time left and the time so far")
    ok(full["partner_mac"] == "02:00:5e:10:20:fe", "show: partner_mac, six bytes in order",
       full.get("partner_mac"))
    ok(full["nic"] == {"pause": {"autoneg": True, "rx": True, "tx": True, "rx_frames": 7,
                                 "tx_frames": 9}, "rx_all": True, "pfc_cap": 8, "pfc_en": [3, 4],
                       "pfc_requests": [0, 0, 0, 10, 0, 0, 0, 0],
                       "pfc_indications": [0, 0, 0, 0, 2, 0, 0, 0]}
       and "nic" not in sparse,
       "show: nic, the driver's own flow control (only where it was read)", full.get("nic"))
    ok(full["address"] == "02:00:5e:10:20:a1" and "address" not in sparse,
       "show: address, the port's own MAC, six bytes in order (absent when unknown)",
       full.get("address"))
    ok(full["wd_detect_ms"] == 200 and full["wd_action"] == "drop" and full["tx_storm_ms"] == 500,
       "show: the watchdog's and the storm guard's settings")
    ok(full["dscp_prio"] == [[26, 3], [48, 6]] and full["round_trip_bits"] == 4096
       and full["doors"] == {"ethtool_pause": False, "dcb": False}
       and full["tunnel_wire"] is False,
       "show: the APP table's DSCP entries as [dscp, prio] pairs, round-trip, doors",
       [full.get(k) for k in ("dscp_prio", "round_trip_bits", "doors")])
    ok(full["queues"] == [
        {"index": 0, "handle": "8001:", "tx_packets": 100, "tx_bytes": 6400,
         "backlog_bytes": 0, "backlog_packets": 0, "drops": 7},
        {"index": 1, "handle": "8002:", "tx_packets": 101, "tx_bytes": 6401,
         "backlog_bytes": 1500, "backlog_packets": 1, "drops": 8}]
       and "queues" not in sparse,
       "show: queues, each TX queue's flowctl (show -d)", full.get("queues"))
    ok(full["tc_bw"] == [30, 0, 0, 50, 0, 20, 0, 0], "show: tc_bw, the ETS share of each class",
       full.get("tc_bw"))
    ok(full["headroom_bytes"] == 20000 and full["prio_tc"] == [1, 0, 2, 3, 4, 5, 6, 7],
       "show: headroom_bytes and prio_tc (traffic class of each priority)", full.get("prio_tc"))
    ok(pr[4]["xoff_active"] is True and pr[0]["xoff_active"] is False,
       "show: prio 4 xoff_active")
    ok(pr[3]["tx_bytes"] == 2**63 + 5, "show: 64-bit counters survive")
    ok(pr[7]["paused_ns_total"] == 7 * 10**9, "show: paused_ns_total")

    ok(set(sparse) == {"ifname", "ifindex", "mode", "speed_mbps", "speed_source",
                       "stats", "prio"},
       "show: a sparse port has only what the kernel sent, plus stats and prio",
       sorted(sparse))
    ok(sparse["stats"] == {} and sparse["prio"] == [],
       "show: stats and prio always present in JSON")

    pretty = load(os.path.join(out, "show-pretty.json"))
    ok(pretty == show, "show -p: pretty JSON is the same document")
    ok(load(os.path.join(out, "empty.json")) == [], "show: no ports is []")


BRIEF_TYPES = {"ifname": str, "ifindex": int, "mode": str, "rx": bool, "tx": bool,
               "pfc_prios": list, "speed_mbps": int, "paused_prios": list,
               "xoff_prios": list, "stormed_prios": list, "backlog_bytes": int,
               "backlog_packets": int}


def check_brief(out):
    b = load(os.path.join(out, "show-brief.json"))
    ok(isinstance(b, list) and [p.get("ifname") for p in b] == ["veth0", "eth1", "veth2"],
       "show -br: an array of the 3 ports")
    full, sparse, brief = b
    ok(set(brief) == set(BRIEF_TYPES), "show -br: a brief reply's port has exactly the documented keys",
       sorted(set(brief) ^ set(BRIEF_TYPES)))
    bad = [k for k, t in BRIEF_TYPES.items() if k in brief and not type_ok(brief[k], t)]
    ok(not bad, "show -br: every key has its type", bad)
    ok(brief["paused_prios"] == list(range(8)) and brief["xoff_prios"] == [2, 5] and
       brief["stormed_prios"] == [6] and brief["backlog_bytes"] == 3000 and
       brief["backlog_packets"] == 2 and brief["mode"] == "pause",
       "show -br: the masks as lists of priorities, the queue", brief)
    ok(set(full) == set(BRIEF_TYPES) and full["paused_prios"] == [3] and
       full["xoff_prios"] == [4] and full["stormed_prios"] == [3] and
       full["backlog_bytes"] == 42000,
       "show -br: a full reply's port, the same keys worked out from its priorities", full)
    ok(set(sparse) == {"ifname", "ifindex", "mode", "speed_mbps"},
       "show -br: a sparse port has only what it knows", sorted(sparse))


def check_stats(out):
    stats = load(os.path.join(out, "stats.json"))
    full = stats[1]
    ok(set(full) == {"ifname", "ifindex", "stats", "prio", "nic"},
       "stats: identity, stats, prio and the driver's own (nic) only", sorted(full))
    ok(all(set(p) == PRIO_COUNTERS for p in full["prio"]),
       "stats: prio entries carry the counters only",
       [sorted(set(p) ^ PRIO_COUNTERS) for p in full["prio"]][:1])


def check_events(out):
    with open(os.path.join(out, "events.jsonl")) as f:
        lines = f.read().splitlines()
    ok(len(lines) == 2, "monitor -j: one line per event")
    evs = [json.loads(line) for line in lines]
    start, end = evs
    ok(start["type"] == "pause-start" and start["dir"] == "rx" and start["prio"] == 3,
       "monitor -j: pause-start rx prio 3")
    ok(start["quanta"] == 65535 and start["time_ns"] == 335539200 and
       start["timestamp_ns"] == 1234567890123,
       "monitor -j: quanta, time_ns, timestamp_ns")
    ok(start["ifname"] == "veth0" and start["ifindex"] == 7, "monitor -j: ifname, ifindex")
    ok(all(is_rfc3339(e["time"]) for e in evs), "monitor -j: RFC 3339 wall time",
       [e["time"] for e in evs])
    ok(end["type"] == "pause-end" and "prio" not in end,
       "monitor -j: link-level pause-end has no prio")

    with open(os.path.join(out, "entries.jsonl")) as f:
        evs = [json.loads(line) for line in f.read().splitlines()]
    ok([e["type"] for e in evs] == ["suppressed", "pause-end", "pause-start", "pause-start"],
       "monitor -j: suppressed first, then one object per entry", [e.get("type") for e in evs])
    ok(evs[0]["events"] == 40 and evs[0]["ifname"] == "veth0" and evs[0]["dir"] == "rx",
       "monitor -j: suppressed count with device and direction")
    ok([e.get("prio") for e in evs[1:]] == [2, 3, 5] and
       all(e["ifindex"] == 7 and e["timestamp_ns"] == 1234567890123 for e in evs),
       "monitor -j: entries keep the header's ifindex and stamp")
    ok(evs[2]["quanta"] == 65535 and evs[2]["time_ns"] == 335539200,
       "monitor -j: an entry's quanta and time")


SAMPLE_KEYS = {"time", "elapsed_ns", "rx_pause", "rx_pause_per_s", "rx_xon", "rx_xon_per_s",
               "tx_pause", "tx_pause_per_s", "tx_xon", "tx_xon_per_s", "prio"}
SAMPLE_PRIO_KEYS = {"prio", "rx_pfc", "rx_pfc_per_s", "tx_pfc", "tx_pfc_per_s", "paused_ns"}


def check_watch(out):
    w = load(os.path.join(out, "watch.json"))
    ok(isinstance(w, dict) and set(w) == {"ifname", "interval_ns", "count", "samples",
                                          "rule", "verdicts"},
       "watch -j: one object with ifname, interval_ns, count, samples, rule, verdicts",
       sorted(w) if isinstance(w, dict) else w)
    ok(w["interval_ns"] == 10**7 and w["count"] == 6 and len(w["samples"]) == 6,
       "watch -j: 6 samples at 10 ms")
    s = w["samples"]
    ok(all(set(x) == SAMPLE_KEYS for x in s), "watch -j: every sample has the documented keys",
       [sorted(set(x) ^ SAMPLE_KEYS) for x in s][:1])
    ok(all(is_int(x["elapsed_ns"]) and x["elapsed_ns"] > 0 and
           isinstance(x["rx_pause_per_s"], (int, float)) for x in s),
       "watch -j: elapsed_ns and rates are numbers")
    ok(all(len(x["prio"]) == 8 and all(set(p) == SAMPLE_PRIO_KEYS for p in x["prio"]) for x in s),
       "watch -j: 8 priorities per sample with their keys")
    ok([x["rx_pause"] for x in s] == [5] * 6 and [x["rx_xon"] for x in s] == [0, 0, 0, 3, 0, 0],
       "watch -j: deltas, a counter reset counted from zero")
    ok([x["prio"][3]["paused_ns"] for x in s] == [4000000] * 6, "watch -j: paused_ns per interval")
    v = {(x["counter"], x.get("prio")): x for x in w["verdicts"]}
    ok(set(v) == {("rx_pause", None), ("rx_xon", None), ("tx_pause", None), ("rx_pfc", 3),
                  ("tx_pfc", 5)}, "watch -j: a verdict for each counter that grew", sorted(map(str, v)))
    ok(v[("rx_pause", None)]["verdict"] == "steady" and v[("rx_pfc", 3)]["verdict"] == "steady" and
       v[("tx_pause", None)]["verdict"] == "bursty" and v[("tx_pfc", 5)]["verdict"] == "bursty",
       "watch -j: steady and bursty verdicts")
    x = v[("tx_pfc", 5)]
    ok(x["dir"] == "tx" and x["grew_intervals"] == 2 and x["intervals"] == 6 and
       isinstance(x["meaning"], str), "watch -j: verdict fields")
    ok("80%" in w["rule"], "watch -j: the rule is stated")
    ok(all(is_rfc3339(x["time"]) for x in s), "watch -j: RFC 3339 sample times",
       s[0]["time"])


def check_sample(out):
    with open(os.path.join(out, "sample.jsonl")) as f:
        lines = f.read().splitlines()
    j = json.loads(lines[0])
    ok(len(lines) == 1 and set(j) == {"time_ns", "mono_ns", "ports"},
       "sample: one line with time_ns, mono_ns and ports", sorted(j))
    ok(j["time_ns"] == 1764748800123456789 and j["mono_ns"] == 1234567890123,
       "sample: the two clocks, integers in ns")
    ok(j["ports"] == load(os.path.join(out, "show.json")),
       "sample: ports is what show -j -s prints")


def check_dcbx(out):
    with open(os.path.join(out, "dcbx.jsonl")) as f:
        lines = f.read().splitlines()
    j = json.loads(lines[0])
    ok(len(lines) == 2 and json.loads(lines[1])["event"] == "partner-gone" and
       "partner" not in json.loads(lines[1]), "dcbx -j: one JSON object per line", lines)
    ok(j["event"] == "adopted" and j["pfc"] == "adopted" and
       j["ets"] == "mismatch" and j["partner"] == "02:00:00:00:00:0b" and
       j["partner_pfc_enable"] == 0x18 and is_rfc3339(j["time"]),
       "dcbx -j: event, states, partner, RFC 3339 time", j)
    ok(j["counters"] == {"tx": 3, "rx": 2, "rx_malformed": 1, "rx_bad_tlvs": 2, "mismatches": 1,
                         "adoptions": 1},
       "dcbx -j: counters", j.get("counters"))


def check_send(out):
    j = load(os.path.join(out, "send.json"))
    want = {"sent", "frame", "pfc", "ifname", "length", "da", "opcode", "ethertype",
            "enable", "dropped"}
    ok(set(j) == want, "send -j: sent, frame, pfc, ifname, length, the bent fields, dropped",
       sorted(set(j) ^ want))
    ok(j["sent"] == 5 and j["frame"] == "pfc" and j["dropped"] == 1 and
       j["pfc"] == [{"prio": 3, "quanta": 100}, {"prio": 4, "quanta": 0}] and
       j["opcode"] == 0x0102 and j["ethertype"] == 0x8808 and j["enable"] == 0x18,
       "send -j: values", j)


DOCTOR_KEYS = {"interval_ns", "elapsed_ns", "ports", "findings", "errors", "warnings", "infos"}
DOCTOR_PORT_TYPES = {
    "ifname": str, "qdisc": bool, "mode": str, "rx": bool, "tx": bool, "pfc_prios": list,
    "speed_mbps": int, "speed_source": str, "link_speed_mbps": int, "link_duplex": str,
    "link_autoneg": bool, "mac_pause_autoneg": bool, "mac_pause_rx": bool, "mac_pause_tx": bool,
    "mac_rx_pause_frames": int, "mac_tx_pause_frames": int, "rx_all": bool, "rx_all_fixed": bool,
    "nic_pfc_enable": list, "dcbx_lld_managed": bool, "unsupported": list,
    "tx_queues": int, "flowctl_queues": int,
}
DOCTOR_FINDING_TYPES = {"id": str, "severity": str, "ifname": str, "meaning": str,
                        "measured": str, "fix": str}
DOCTOR_IDS = {"no-module", "no-ports", "no-qdisc", "hw-pause-on", "hw-pause-unsupported",
              "mac-consumes-pause", "rx-all-off", "nic-pfc", "nic-dcbx-firmware", "half-duplex",
              "speed-mismatch", "no-speed", "partner-ignored", "rx-ignored", "pause-storm",
              "malformed", "paused-by-partner", "pausing-partner", "root-on-multiqueue",
              "not-read"}


def doctor_shape(d, what):
    """The keys and types of one doctor -j document; the problems found."""
    bad = []
    if not isinstance(d, dict) or not set(d) <= DOCTOR_KEYS or \
            not {"interval_ns", "ports", "findings", "errors", "warnings", "infos"} <= set(d):
        return [f"{what}: top level {sorted(d) if isinstance(d, dict) else d}"]
    for p in d["ports"]:
        bad += [f"{what}: port key {k}" for k in p
                if k not in DOCTOR_PORT_TYPES or not type_ok(p[k], DOCTOR_PORT_TYPES[k])]
        if "ifname" not in p or "unsupported" not in p:
            bad.append(f"{what}: port without ifname or unsupported")
    sev = {"error": 2, "warning": 1, "info": 0}
    for f in d["findings"]:
        bad += [f"{what}: finding key {k}" for k in f
                if k not in DOCTOR_FINDING_TYPES or not type_ok(f[k], DOCTOR_FINDING_TYPES[k])]
        if f.get("id") not in DOCTOR_IDS or f.get("severity") not in sev or \
                not {"id", "severity", "meaning", "measured"} <= set(f):
            bad.append(f"{what}: finding {f}")
    order = [sev.get(f.get("severity"), -1) for f in d["findings"]]
    if order != sorted(order, reverse=True):
        bad.append(f"{what}: findings not errors first")
    counts = [sum(1 for f in d["findings"] if f.get("severity") == k)
              for k in ("error", "warning", "info")]
    if counts != [d["errors"], d["warnings"], d["infos"]]:
        bad.append(f"{what}: counts {counts}")
    return bad


def check_doctor(out):
    d = load(os.path.join(out, "doctor.json"))
    ok(not doctor_shape(d, "doctor.json"), "doctor -j: the documented keys, with their types",
       doctor_shape(d, "doctor.json"))
    ok(set(d) == DOCTOR_KEYS, "doctor -j: every top-level key when measured", sorted(d))
    ok(set(d["ports"][0]) == set(DOCTOR_PORT_TYPES),
       "doctor -j: a port with a qdisc and a driver that answers has every port key",
       sorted(set(d["ports"][0]) ^ set(DOCTOR_PORT_TYPES)))
    ok(d["ports"][1] == {"ifname": "dummy0", "qdisc": False, "unsupported": [
        "ETHTOOL_MSG_LINKMODES_GET", "ETHTOOL_MSG_PAUSE_GET", "DCB_CMD_IEEE_GET",
        "DCB_CMD_GDCBX"]}, "doctor -j: a port without qdisc, what the driver has none of",
       d["ports"][1])
    f = {x["id"]: x for x in d["findings"]}
    ok(f["partner-ignored"]["severity"] == "error" and f["partner-ignored"]["ifname"] == "veth0"
       and "partner_ignored +100" in f["partner-ignored"]["measured"],
       "doctor -j: partner-ignored, its device and numbers", f.get("partner-ignored"))
    ok("fix" not in f["hw-pause-unsupported"] and f["no-qdisc"]["fix"] ==
       "tc qdisc add dev dummy0 root flowctl", "doctor -j: fix absent or a command")
    ok(d["ports"][0]["nic_pfc_enable"] == [3] and d["ports"][0]["mac_rx_pause_frames"] == 9,
       "doctor -j: nic_pfc_enable, the MAC's counter growth")
    n = load(os.path.join(out, "doctor-nomodule.json"))
    ok(n["ports"] == [] and [x["id"] for x in n["findings"]] == ["no-module"] and
       "ifname" not in n["findings"][0] and "elapsed_ns" not in n,
       "doctor -j without the module nor dev: no-module of the namespace", n)


def check_doctor_run(flowctl):
    """doctor -j on this host: whatever it finds, the shape holds."""
    docs = []
    for args in (["-j", "doctor", "interval", "0.01"],
                 ["-p", "doctor", "dev", "lo", "interval", "0.01"]):
        rc, out, err = run(flowctl, *args)
        try:
            d = json.loads(out)
        except ValueError:
            d = None
        ok(rc in (0, 3) and d is not None and not doctor_shape(d, " ".join(args)) and
           (rc == 3) == bool(d["errors"] or d["warnings"]),
           f"flowctl {' '.join(args)}: exit {rc}, the documented shape",
           (doctor_shape(d, "run") if d is not None else out) or err)
        if d is not None:
            docs.append(d)
    if docs and any(f["id"] == "no-module" for f in docs[0]["findings"]):
        ok(docs[0]["findings"][0]["id"] == "no-module" and docs[0]["ports"] == [],
           "doctor -j without the module: no-module, no port")
    return docs


def run(flowctl, *args):
    p = subprocess.run([flowctl, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check_quanta(flowctl):
    rc, out, _ = run(flowctl, "-j", "quanta", "1000", "speed", "1G")
    j = json.loads(out) if rc == 0 else {}
    ok(rc == 0 and j.get("quanta") == 1000 and j.get("speed_mbps") == 1000 and
       j.get("time_ps") == 512000000, "quanta -j: 1000 quanta at 1G = 512000000 ps", out)
    docs = [j]
    rc, out, _ = run(flowctl, "-j", "quanta", "65535", "speed", "100M")
    j = json.loads(out) if rc == 0 else {}
    ok(j.get("time_ps") == 335539200000, "quanta -j: 65535 at 100M = 335539200000 ps", out)
    rc, out, _ = run(flowctl, "-j", "quanta", "1")
    j = json.loads(out) if rc == 0 else []
    ok(isinstance(j, list) and len(j) == 12 and j[-1]["speed_mbps"] == 400000 and
       j[-1]["time_ps"] == 1280, "quanta -j: a 12-speed table, 1 quantum at 400G = 1280 ps", out)
    docs.append(j)
    rc, out, _ = run(flowctl, "-j", "quanta", "1ms", "speed", "1G")
    j = json.loads(out) if rc == 0 else {}
    ok(j.get("fits") is True and j.get("quanta") == 1954 and j.get("quanta_time_ps") == 1000448000
       and j.get("time_ns") == 1000000, "quanta -j: 1 ms at 1G = 1954 quanta", out)
    docs.append(j)
    rc, out, _ = run(flowctl, "-j", "quanta", "1s", "speed", "1G")
    j = json.loads(out) if rc == 0 else {}
    ok(j.get("fits") is False and j.get("quanta") is None and
       j.get("max_time_ps") == 33553920000, "quanta -j: 1 s at 1G does not fit", out)
    docs.append(j)
    rc, out, _ = run(flowctl, "-p", "quanta", "10ms")
    j = json.loads(out) if rc == 0 else []
    ok(len(j) == 12 and j[0]["quanta"] == 196 and j[3]["fits"] is True and
       j[4]["fits"] is False,
       "quanta -p: a time over the table, pretty", out[:200])
    docs.append(j)
    return docs


def keys_of(doc, acc, where=""):
    """Every key of a JSON document, and each _ns/_ps key's value type."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            acc.setdefault(k, set()).add(type(v).__name__)
            keys_of(v, acc)
    elif isinstance(doc, list):
        for v in doc:
            keys_of(v, acc)


def man_json_words(path):
    """The bold words of flowctl(8)'s JSON OUTPUT section."""
    words = set()
    inside = False
    with open(path) as f:
        for line in f:
            if line.startswith(".SH"):
                inside = line.strip() == ".SH JSON OUTPUT"
                continue
            if not inside or not line.startswith((".B ", ".BR ", ".RB ")):
                continue
            args = re.findall(r'"[^"]*"|\S+', line.split(None, 1)[1])
            bold = (args if line.startswith(".B ") else
                    args[0::2] if line.startswith(".BR ") else args[1::2])
            for a in bold:
                if re.fullmatch(r"[a-z][a-z0-9_]*", a):
                    words.add(a)
    return words


# Bold words of the JSON section that are commands, not keys.
MAN_COMMANDS = {"show", "stats", "watch", "monitor", "send", "quanta", "sample", "top",
                "level", "dcbx", "doctor", "watchdog", "waitfor"}


def check_man(out, run_docs, man):
    docs = [load(os.path.join(out, n)) for n in ("show.json", "show-brief.json",
                                                 "stats.json", "watch.json",
                                                 "send.json", "doctor.json",
                                                 "doctor-nomodule.json", "watchdog.json",
                                                 "waitfor.json", "waitfor-hosts.json")]
    for n in ("events.jsonl", "entries.jsonl", "sample.jsonl", "dcbx.jsonl"):
        with open(os.path.join(out, n)) as f:
            docs += [json.loads(line) for line in f.read().splitlines() if line]
    docs += run_docs
    acc = {}
    for d in docs:
        keys_of(d, acc)
    printed = set(acc)
    words = man_json_words(man)
    ok(not printed - words, "man page: every key -j prints is in flowctl(8)'s JSON OUTPUT",
       sorted(printed - words))
    ok(not words - MAN_COMMANDS - printed,
       "man page: every key flowctl(8)'s JSON OUTPUT names is printed",
       sorted(words - MAN_COMMANDS - printed))
    bad = {k: sorted(t) for k, t in acc.items()
           if (k.endswith("_ns") or k.endswith("_ps") or k.endswith("_ns_total"))
           and t - {"int"}}
    ok(not bad, "every duration key (_ns, _ps, _ns_total) is an integer", bad)


def main():
    out, flowctl = sys.argv[1], sys.argv[2]
    print("TAP version 13")
    print("# flowctl JSON shape (python3 json)")
    for check in (check_show, check_brief, check_stats, check_events, check_watch, check_sample,
                  check_send, check_dcbx, check_doctor):
        try:
            check(out)
        except (KeyError, IndexError, ValueError, OSError, TypeError) as e:
            ok(False, f"{check.__name__}: {type(e).__name__}: {e}")
    run_docs = []
    try:
        run_docs = check_quanta(flowctl)
    except (KeyError, IndexError, ValueError, OSError, TypeError) as e:
        ok(False, f"check_quanta: {type(e).__name__}: {e}")
    try:
        run_docs += check_doctor_run(flowctl)
    except (KeyError, IndexError, ValueError, OSError, TypeError) as e:
        ok(False, f"check_doctor_run: {type(e).__name__}: {e}")
    man = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                       "Documentation", "flowctl.8")
    try:
        check_man(out, run_docs, man)
    except (KeyError, IndexError, ValueError, OSError, TypeError) as e:
        ok(False, f"check_man: {type(e).__name__}: {e}")
    print(f"1..{n}")
    print(f"# Totals: pass:{n - failed} fail:{failed} skip:0")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
