#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cross-check the frame codec against independent implementations.

usage: test_scapy.py FRAMEDUMP

- the frames "flowctl send" builds (via tests/framedump, same parser and
  builder) must equal, byte for byte, the frames scapy builds;
- frames scapy builds must parse with mc_parse into the right fields,
  and scapy's malformed frames must be refused for the right reason;
- tshark (Wireshark's packet-maccontrol dissector), if installed, must
  decode a pcap of our frames into the same opcode, pause_time, enable
  vector and per-class times.

Skips (exit 4, as kselftest does) when scapy is missing.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

n = 0
failed = 0
skipped = 0


def ok(cond, desc, detail=None):
    global n, failed
    n += 1
    if cond:
        print(f"ok {n} - {desc}")
    else:
        failed += 1
        print(f"not ok {n} - {desc}")
        if detail is not None:
            print(f"# {detail}")
    return cond


def skip(desc):
    """A check that cannot run: a failure unless FLOWCTL_ALLOW_SKIP=1."""
    global n, skipped, failed
    n += 1
    if os.environ.get("FLOWCTL_ALLOW_SKIP") == "1":
        skipped += 1
        print(f"ok {n} - {desc} # SKIP")
    else:
        failed += 1
        print(f"not ok {n} - {desc} (scripts/deps.sh installs it; FLOWCTL_ALLOW_SKIP=1 skips)")


def finish():
    print(f"1..{n}")
    print(f"# Totals: pass:{n - failed - skipped} fail:{failed} skip:{skipped}")
    sys.exit(1 if failed else 0)


print("TAP version 13")
print("# flowctl frames vs scapy and tshark")
try:
    from scapy.layers.l2 import Ether, Dot1Q
    from scapy.contrib.mac_control import (MACControlPause,
                                           MACControlClassBasedFlowControl,
                                           MACControlGate,
                                           ETHER_SPEED_MBIT_10,
                                           ETHER_SPEED_MBIT_100)
except ImportError as e:
    print(f"1..0 # SKIP scapy not available ({e}); Debian: apt-get install python3-scapy")
    sys.exit(4)

FRAMEDUMP = sys.argv[1]
SA = "02:00:00:00:00:0a"
GROUP = "01:80:c2:00:00:01"


def ours(*words, sa=SA):
    out = subprocess.run([FRAMEDUMP, "--sa", sa, *words], capture_output=True,
                         text=True, check=True).stdout.strip()
    return bytes.fromhex(out)


def parse(frame, own=None):
    args = [FRAMEDUMP, "--parse", frame.hex()]
    if own:
        args += ["--own", own]
    return json.loads(subprocess.run(args, capture_output=True, text=True,
                                     check=True).stdout)


def pfc_scapy(times, dst=GROUP, reserved=0, src=SA):
    kw = {"_reserved": reserved}
    for p, q in times.items():
        kw[f"c{p}_enabled"] = 1
        kw[f"c{p}_pause_time"] = q
    return bytes(Ether(dst=dst, src=src, type=0x8808) /
                 MACControlClassBasedFlowControl(**kw))


def pause_scapy(q, dst=GROUP, src=SA):
    return bytes(Ether(dst=dst, src=src, type=0x8808) / MACControlPause(pause_time=q))


# 1. What we build is what scapy builds.
for q in (0, 1, 0x00ff, 0x1234, 0xfffe, 0xffff):
    a, b = ours("pause", str(q)), pause_scapy(q)
    ok(a == b and len(a) == 60, f"build: pause {q} equals scapy's, 60 bytes",
       f"ours {a.hex()} scapy {b.hex()}")
ok(ours("xon") == pause_scapy(0), "build: xon equals scapy's PAUSE with time 0")
ok(ours("pause", "7", sa="00:11:22:33:44:55") == pause_scapy(7, src="00:11:22:33:44:55"),
   "build: the SA is the sending port's")

cases = [{3: 65535, 4: 100}, {0: 1}, {7: 0}, {p: 1000 * (p + 1) for p in range(8)},
         {1: 0xabcd, 6: 0x1234}]
for times in cases:
    arg = ",".join(f"{p}:{q}" for p, q in sorted(times.items()))
    a, b = ours("pfc", arg), pfc_scapy(times)
    ok(a == b and len(a) == 60, f"build: pfc {arg} equals scapy's", f"ours {a.hex()} scapy {b.hex()}")
ok(ours("pfc", "all:9") == pfc_scapy({p: 9 for p in range(8)}), "build: pfc all:9 equals scapy's")

rnd = random.Random(8023)
same = True
for _ in range(200):
    times = {p: rnd.randrange(65536) for p in range(8) if rnd.random() < 0.5} or {0: 5}
    arg = ",".join(f"{p}:{q}" for p, q in sorted(times.items()))
    if ours("pfc", arg) != pfc_scapy(times):
        same = False
        print(f"# differs: pfc {arg}")
        break
ok(same, "build: 200 random PFC frames equal scapy's")

ok(ours("pause", "5", "da", "02:00:00:00:00:0b") == pause_scapy(5, dst="02:00:00:00:00:0b"),
   "build (testing aid): da overrides the destination")
ok(ours("opcode", "2") == bytes(Ether(dst=GROUP, src=SA, type=0x8808) / MACControlGate(timestamp=0)),
   "build (testing aid): opcode 2 alone equals scapy's GATE with zero fields")
ok(ours("pfc", "3:1", "enable", "0x0108") == pfc_scapy({3: 1}, reserved=1),
   "build (testing aid): enable sets the whole vector, reserved octet too")
eth = ours("pause", "1", "ethertype", "0x0800")
ok(eth[12:14] == b"\x08\x00" and eth[14:] == pause_scapy(1)[14:],
   "build (testing aid): ethertype overrides 0x8808 only")
ok(len(ours("pause", "1", "length", "30")) == 30 and len(ours("pause", "1", "length", "64")) == 64,
   "build (testing aid): length truncates and pads")

# 2. What scapy builds, mc_parse reads right.
bad = []
for _ in range(200):
    q = rnd.randrange(65536)
    r = parse(pause_scapy(q))
    if r["result"] != "ok" or r["opcode"] != 1 or r["pause_time"] != q:
        bad.append((q, r))
ok(not bad, "parse: 200 scapy PAUSE frames give opcode 1 and their pause_time", bad[:2])
bad = []
for _ in range(200):
    times = {p: rnd.randrange(65536) for p in range(8) if rnd.random() < 0.5}
    r = parse(pfc_scapy(times))
    enable = sum(1 << p for p in times)
    want = [times.get(p, 0) for p in range(8)]
    if r["result"] != "ok" or r["opcode"] != 0x101 or r["enable"] != enable or r["time"] != want:
        bad.append((times, r))
ok(not bad, "parse: 200 scapy PFC frames give their enable vector and times", bad[:2])

r = parse(pfc_scapy({3: 1}, reserved=1))
ok(r["result"] == "ok" and r["enable"] == 0x08,
   "parse: scapy PFC with the reserved octet set: ignored, priority 3 enabled", r)
ok(parse(pfc_scapy({3: 1}, dst="02:00:00:00:00:0b"), own="02:00:00:00:00:0b")["result"] == "da",
   "parse: scapy PFC to a unicast address is refused (da)")
ok(parse(pause_scapy(9, dst="02:00:00:00:00:0b"), own="02:00:00:00:00:0b")["result"] == "ok",
   "parse: scapy PAUSE to our own address is accepted")
ok(parse(pause_scapy(9, dst="02:00:00:00:00:0b"))["result"] == "da",
   "parse: scapy PAUSE to another unicast address is refused (da)")
ok(parse(bytes(Ether(dst=GROUP, src=SA, type=0x8808) / MACControlGate()))["result"] == "opcode",
   "parse: scapy GATE (0x0002) is an unsupported opcode")
tagged = bytes(Ether(dst=GROUP, src=SA) / Dot1Q(vlan=5, type=0x8808) / MACControlPause(pause_time=1))
ok(parse(tagged)["result"] == "ethertype",
   "parse: a VLAN-tagged PAUSE is not MAC Control at offset 12 (ethertype)")
ok(parse(pause_scapy(1)[:17])["result"] == "short", "parse: a scapy PAUSE cut to 17 bytes is short")

# 3. scapy reads ours.
p = Ether(ours("pause", "4660"))
ok(p.haslayer(MACControlPause) and p[MACControlPause].pause_time == 4660 and p.dst == GROUP,
   "dissect: scapy reads our PAUSE")
p = Ether(ours("pfc", "2:77,5:88"))
c = p[MACControlClassBasedFlowControl] if p.haslayer(MACControlClassBasedFlowControl) else None
ok(c is not None and c.c2_enabled == 1 and c.c5_enabled == 1 and c.c0_enabled == 0 and
   c.c2_pause_time == 77 and c.c5_pause_time == 88, "dissect: scapy reads our PFC")
# scapy's own quanta conversion at 10M/100M agrees with ours (its 1G one
# multiplies by 2, so it is not used as a reference).
ok(abs(MACControlPause(pause_time=1000).get_pause_time(ETHER_SPEED_MBIT_10) - 0.0512) < 1e-12 and
   abs(MACControlPause(pause_time=1000).get_pause_time(ETHER_SPEED_MBIT_100) - 0.00512) < 1e-12,
   "scapy agrees: 1000 quanta = 51.2 ms at 10M, 5.12 ms at 100M")

# 4. tshark decodes a pcap of our frames.
tshark = shutil.which("tshark")
if not tshark:
    skip("tshark: not installed (Debian: apt-get install tshark)")
else:
    frames = [["pause", "65535"], ["xon"], ["pfc", "3:65535,4:100"], ["pfc", "all:1"],
              ["pause", "1", "opcode", "2"]]
    with tempfile.TemporaryDirectory() as d:
        pcap = os.path.join(d, "frames.pcap")
        args = [FRAMEDUMP, "--sa", SA, "--pcap", pcap]
        for i, f in enumerate(frames):
            args += (["--"] if i else []) + f
        subprocess.run(args, check=True)
        fields = ["eth.dst", "eth.type", "macc.opcode", "macc.pause_time", "macc.cbfc.enbv"] + \
                 [f"macc.cbfc.pause_time.c{i}" for i in range(8)]
        cmd = [tshark, "-n", "-r", pcap, "-T", "fields", "-E", "separator=|", "-E", "occurrence=f"]
        for fld in fields:
            cmd += ["-e", fld]
        res = subprocess.run(cmd, capture_output=True, text=True,
                             env=dict(os.environ, HOME=d))
        rows = [line.split("|") for line in res.stdout.splitlines()]
        ok(res.returncode == 0 and len(rows) == len(frames), "tshark: reads all frames of our pcap",
           res.stderr.strip()[:200])
        if len(rows) == len(frames):
            def num(s):
                return int(s, 0) if s else None

            r = rows[0]
            ok(r[0] == GROUP and num(r[1]) == 0x8808 and num(r[2]) == 1 and num(r[3]) == 65535,
               "tshark: pause 65535 -> DA, type 0x8808, opcode 1, pause_time 65535", r)
            r = rows[1]
            ok(num(r[2]) == 1 and num(r[3]) == 0, "tshark: xon -> opcode 1, pause_time 0", r)
            r = rows[2]
            want = [0, 0, 0, 65535, 100, 0, 0, 0]
            ok(num(r[2]) == 0x101 and num(r[4]) == 0x18 and [num(x) for x in r[5:13]] == want,
               "tshark: pfc 3:65535,4:100 -> opcode 0x0101, enbv 0x18, times", r)
            r = rows[3]
            ok(num(r[4]) == 0xff and [num(x) for x in r[5:13]] == [1] * 8,
               "tshark: pfc all:1 -> enbv 0xff, every class 1", r)
            r = rows[4]
            ok(num(r[2]) == 2 and not r[3], "tshark: opcode 2 is not read as a PAUSE", r)
finish()
