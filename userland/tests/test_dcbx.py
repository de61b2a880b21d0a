#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""DCBX LLDPDUs (dcbx.c) judged by independent implementations.

usage: test_dcbx.py DCBXDUMP

- the LLDPDUs dcbx_build() makes equal, byte for byte, those scapy's LLDP
  layers build with the 802.1Qaz TLVs filled in by hand;
- LLDPDUs scapy builds parse with dcbx_parse() into the right fields, and
  malformed ones are refused for the right reason, and a malformed DCBX
  TLV costs only its own feature;
- tshark's LLDP dissector decodes our TLVs as the 802.1Qaz TLVs they claim
  to be: ETS Configuration, ETS Recommendation, PFC Configuration, APP,
  and CEE's DCBX TLV;
- tcpdump's LLDP printer (print-lldp.c), a second dissector, reads the same
  frames the same way, field by field.

Skips (exit 4) when scapy is missing.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

n = 0
failed = 0


def ok(cond, desc, detail=None):
    global n, failed
    n += 1
    print(f"{'ok' if cond else 'not ok'} {n} - {desc}")
    if not cond:
        failed += 1
        if detail is not None:
            print(f"# {detail}")
    return cond


print("TAP version 13")
print("# DCBX LLDPDUs vs scapy and tshark")
try:
    from scapy.layers.l2 import Ether
    from scapy.contrib.lldp import (LLDPDUChassisID, LLDPDUPortID, LLDPDUTimeToLive,
                                    LLDPDUGenericOrganisationSpecific as Org,
                                    LLDPDUEndOfLLDPDU, LLDPDUSystemName)
    from scapy.utils import wrpcap
except ImportError as e:
    print(f"1..0 # SKIP scapy not available ({e})")
    sys.exit(4)

DUMP = sys.argv[1]
SA = "02:00:00:00:00:0a"
SAB = bytes.fromhex(SA.replace(":", ""))
OUI = 0x0080c2


def ours(*args):
    r = subprocess.run([DUMP, "build", *args], capture_output=True, text=True)
    return bytes.fromhex(r.stdout.strip()) if r.returncode == 0 else None


def parse(frame):
    r = subprocess.run([DUMP, "parse", bytes(frame).hex()], capture_output=True, text=True)
    return json.loads(r.stdout)


def ets_bytes(prio_tc, bw, tsa):
    b = bytes((prio_tc[2 * i] << 4) | prio_tc[2 * i + 1] for i in range(4))
    return b + bytes(bw) + bytes(tsa)


def head(ttl=120, sa=SA):
    return (Ether(dst="01:80:c2:00:00:0e", src=sa) /
            LLDPDUChassisID(subtype=4, id=SAB) / LLDPDUPortID(subtype=5, id=b"eth0") /
            LLDPDUTimeToLive(ttl=ttl))


def pfc_tlv(willing, mbc, cap, enable):
    return Org(org_code=OUI, subtype=0x0b,
               data=bytes([(0x80 if willing else 0) | (0x40 if mbc else 0) | cap, enable]))


def etscfg_tlv(willing, cbs, maxtcs, prio_tc, bw, tsa):
    flags = (0x80 if willing else 0) | (0x40 if cbs else 0) | (maxtcs & 7)
    return Org(org_code=OUI, subtype=0x09, data=bytes([flags]) + ets_bytes(prio_tc, bw, tsa))


def etsrec_tlv(prio_tc, bw, tsa):
    return Org(org_code=OUI, subtype=0x0a, data=bytes([0]) + ets_bytes(prio_tc, bw, tsa))


def app_tlv(entries):
    """802.1Qaz D.2.12: a reserved octet, then priority(3) reserved(2)
    selector(3) and a 16-bit protocol per entry."""
    return Org(org_code=OUI, subtype=0x0c,
               data=bytes([0]) + b"".join(bytes([(p << 5) | s, proto >> 8, proto & 0xff])
                                          for p, s, proto in entries))


APP = [(3, 5, 26), (6, 5, 48), (4, 3, 4791), (5, 1, 0x8915)]
APP_ARG = "app=" + ",".join(f"{p}:{s}:{proto}" for p, s, proto in APP)


PTC = [1, 0, 2, 3, 4, 5, 6, 7]
BW = [30, 50, 20, 0, 0, 0, 0, 0]
TSA = [2, 2, 2, 0, 0, 0, 0, 0]
ETS_ARG = "10234567:" + ",".join(map(str, BW)) + ":" + ",".join(map(str, TSA))

# 1. Our frames equal scapy's, byte for byte.
cases = [
    (["pfc=1:0:8:0x18"], head() / pfc_tlv(1, 0, 8, 0x18) / LLDPDUEndOfLLDPDU()),
    (["pfc=0:1:4:0x08", "ttl=0"], head(ttl=0) / pfc_tlv(0, 1, 4, 0x08) / LLDPDUEndOfLLDPDU()),
    (["etscfg=1:0:0:" + ETS_ARG, "etsrec=" + ETS_ARG, "pfc=1:0:8:0x18"],
     head() / etscfg_tlv(1, 0, 0, PTC, BW, TSA) / etsrec_tlv(PTC, BW, TSA) /
     pfc_tlv(1, 0, 8, 0x18) / LLDPDUEndOfLLDPDU()),
    (["pfc=0:0:8:0x08", APP_ARG], head() / pfc_tlv(0, 0, 8, 0x08) / app_tlv(APP) / LLDPDUEndOfLLDPDU()),
    (["app="], head() / app_tlv([]) / LLDPDUEndOfLLDPDU()),
]
for args, sc in cases:
    got = ours(*args)
    ok(got == bytes(sc), f"build {' '.join(args)} == scapy", (got.hex() if got else got, bytes(sc).hex()))

# 2. scapy's frames parse into the right fields.
p = parse(head() / etscfg_tlv(1, 1, 3, PTC, BW, TSA) / etsrec_tlv(PTC, [0, 100, 0, 0, 0, 0, 0, 0],
          [0, 2, 0, 0, 0, 0, 0, 0]) / pfc_tlv(1, 1, 8, 0x28) / LLDPDUEndOfLLDPDU())
ok(p["result"] == 0 and p["ttl"] == 120 and p["chassis_subtype"] == 4 and p["chassis_len"] == 6 and
   p["port_subtype"] == 5 and p["port_len"] == 4, "parse: identity and TTL", p)
ok(p.get("pfc") == {"willing": 1, "mbc": 1, "cap": 8, "enable": 0x28}, "parse: PFC willing, MBC, cap, enable", p)
ok(p.get("ets_cfg") == {"willing": 1, "cbs": 1, "max_tcs": 3, "prio_tc": PTC, "tc_bw": BW, "tsa": TSA},
   "parse: ETS configuration", p)
ok(p.get("ets_rec") == {"prio_tc": PTC, "tc_bw": [0, 100, 0, 0, 0, 0, 0, 0], "tsa": [0, 2, 0, 0, 0, 0, 0, 0]},
   "parse: ETS recommendation", p)
p = parse(head() / LLDPDUSystemName(system_name=b"sw1") / Org(org_code=0x00120f, subtype=1, data=b"\x03\x6c\x00\x00\x10") /
          pfc_tlv(0, 0, 8, 0x08) / LLDPDUEndOfLLDPDU())
ok(p["result"] == 0 and p["unknown"] == 2 and p["pfc"]["enable"] == 8,
   "parse: other TLVs (system name, 802.3 MAC/PHY) are skipped and counted", p)
p = parse(head() / LLDPDUEndOfLLDPDU())
ok(p["result"] == 0 and "pfc" not in p and "ets_cfg" not in p, "parse: an LLDPDU without DCBX", p)

p = parse(head() / app_tlv(APP) / pfc_tlv(0, 0, 8, 0x08) / LLDPDUEndOfLLDPDU())
ok(p["result"] == 0 and p.get("app") == [list(e) for e in APP] and "pfc" in p,
   "parse: the APP table (DSCP, UDP port 4791, EtherType 0x8915 entries)", p)

# 3. Malformed LLDPDUs are refused for the right reason; a malformed DCBX
# TLV costs only its own feature (802.1Qaz), the LLDPDU's others are kept.
bad = [
    ("NOT_LLDP", bytes(Ether(dst="01:80:c2:00:00:0e", src=SA, type=0x0800) / (b"\x00" * 46))),
    ("BAD_ORDER", bytes(Ether(dst="01:80:c2:00:00:0e", src=SA) / LLDPDUPortID(subtype=5, id=b"eth0") /
                        LLDPDUChassisID(subtype=4, id=SAB) / LLDPDUTimeToLive(ttl=120) / LLDPDUEndOfLLDPDU())),
]
codes = {"NOT_LLDP": 1, "TRUNCATED": 2, "BAD_ORDER": 3, "BAD_LENGTH": 4, "NO_END": 5,
         "DUPLICATE": 6, "BAD_VALUE": 7}
for want, frame in bad:
    p = parse(frame)
    ok(p["result"] == codes[want], f"malformed: {want} ({p['reason']})", p)
GOOD_PFC = pfc_tlv(0, 0, 8, 8)
GOOD_ETS = etscfg_tlv(0, 0, 0, PTC, BW, TSA)
one_bad = [
    ("PFC Configuration", "BAD_LENGTH", Org(org_code=OUI, subtype=0x0b, data=b"\x88"), GOOD_ETS),
    ("ETS Configuration", "BAD_LENGTH", Org(org_code=OUI, subtype=0x09, data=b"\x00" * 20), GOOD_PFC),
    ("PFC Configuration", "DUPLICATE", pfc_tlv(1, 0, 8, 8) / pfc_tlv(1, 0, 8, 16), GOOD_ETS),
    ("ETS Configuration", "BAD_VALUE", etscfg_tlv(0, 0, 0, PTC, [30, 50, 10, 0, 0, 0, 0, 0], TSA), GOOD_PFC),
    ("ETS Configuration", "BAD_VALUE", etscfg_tlv(0, 0, 0, [9, 0, 0, 0, 0, 0, 0, 0], BW, TSA), GOOD_PFC),
    ("PFC Configuration", "BAD_VALUE", pfc_tlv(0, 0, 9, 8), GOOD_ETS),
    ("Application Priority", "BAD_LENGTH",
     Org(org_code=OUI, subtype=0x0c, data=bytes([0, 0x65, 0])), GOOD_PFC),
    ("Application Priority", "BAD_VALUE", app_tlv([(3, 5, 64)]), GOOD_PFC),
    ("Application Priority", "BAD_VALUE", app_tlv([(3, 0, 26)]), GOOD_PFC),
    ("Application Priority", "DUPLICATE", app_tlv([(3, 5, 26)]) / app_tlv([(4, 5, 26)]), GOOD_PFC),
]
for feature, want, tlv, other in one_bad:
    p = parse(bytes(head() / tlv / other / LLDPDUEndOfLLDPDU()))
    kept = "ets_cfg" if feature.startswith("PFC") else "pfc"
    gone = {"PFC": "pfc", "ETS": "ets_cfg", "App": "app"}[feature[:3]]
    ok(p["result"] == 0 and p["bad"] == {feature: codes[want]} and kept in p and gone not in p,
       f"one bad TLV: {feature} {want} is ignored, the LLDPDU's {kept} kept", p)
good = bytes(head() / pfc_tlv(1, 0, 8, 8) / LLDPDUEndOfLLDPDU())
p = parse(good[:14 + 2 + 7 + 2 + 5 + 2 + 1])
ok(p["result"] == codes["TRUNCATED"], f"malformed: a TTL TLV cut short ({p['reason']})", p)
p = parse(good[:14 + 9 + 7 + 4 + 8])
ok(p["result"] == codes["NO_END"], f"malformed: no End TLV ({p['reason']})", p)

# 4. tshark decodes our TLVs as the 802.1Qaz TLVs they claim to be.
tshark = shutil.which("tshark")
if not ok(tshark is not None, "tshark is installed"):
    print(f"1..{n}")
    sys.exit(1)
frame = ours("etscfg=1:1:3:" + ETS_ARG, "etsrec=10234567:0,100,0,0,0,0,0,0:0,2,0,0,0,0,0,0",
             "pfc=1:1:4:0x28")
with tempfile.TemporaryDirectory() as tmp:
    pcap = os.path.join(tmp, "dcbx.pcap")
    wrpcap(pcap, [Ether(frame)])
    r = subprocess.run([tshark, "-n", "-r", pcap, "-T", "json"], capture_output=True, text=True)
fields = []


def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (dict, list)):
                walk(v)
            elif k.startswith("lldp.ieee.802_1") or k.startswith("lldp.dcbx"):
                fields.append((k, v))
    elif isinstance(o, list):
        for v in o:
            walk(v)


walk(json.loads(r.stdout) if r.returncode == 0 else [])
# Split the decode at each 802.1 subtype: one list of fields per TLV.
tlvs = []
for k, v in fields:
    if k == "lldp.ieee.802_1.subtype":
        tlvs.append({"subtype": int(v, 16)})
    elif tlvs:
        tlvs[-1].setdefault(k, v)
ok([t["subtype"] for t in tlvs] == [9, 10, 11],
   "tshark: three 802.1 TLVs: ETS Configuration, ETS Recommendation, PFC Configuration",
   [t["subtype"] for t in tlvs])
if len(tlvs) == 3:
    cfg, rec, pfc = tlvs

    def vals(t, pre):
        return [int(t.get(f"{pre}{i}", "-1"), 0) for i in range(8)]

    ok(cfg.get("lldp.dcbx.ieee.willing") == "1" and cfg.get("lldp.dcbx.ieee.ets.cbs") == "1" and
       cfg.get("lldp.dcbx.ieee.ets.maxtcs") == "3", "tshark: ETS configuration willing, CBS, max TCs", cfg)
    ok(vals(cfg, "lldp.dcbx.feature.pg.pgid_prio") == PTC and vals(cfg, "lldp.dcbx.feature.pg.per") == BW and
       vals(cfg, "lldp.dcbx.ieee.ets.tsa") == TSA,
       "tshark: ETS configuration priority table, bandwidths, TSAs", cfg)
    ok(vals(rec, "lldp.dcbx.feature.pg.per") == [0, 100, 0, 0, 0, 0, 0, 0] and
       vals(rec, "lldp.dcbx.ieee.ets.tsa") == [0, 2, 0, 0, 0, 0, 0, 0],
       "tshark: ETS recommendation tables", rec)
    ok(pfc.get("lldp.dcbx.ieee.willing") == "1" and pfc.get("lldp.dcbx.ieee.pfc.mbc") == "1" and
       pfc.get("lldp.dcbx.ieee.pfc.numtcs") == "4" and
       vals(pfc, "lldp.dcbx.feature.pfc.prio") == [0, 0, 0, 1, 0, 1, 0, 0],
       "tshark: PFC willing, MBC, cap and enable (priorities 3 and 5)", pfc)

# tshark decodes our APP TLV entry by entry: priority, selector, protocol.
frame = ours("pfc=0:0:8:0x08", APP_ARG)
with tempfile.TemporaryDirectory() as tmp:
    pcap = os.path.join(tmp, "app.pcap")
    wrpcap(pcap, [Ether(frame)])
    r = subprocess.run([tshark, "-n", "-r", pcap, "-T", "fields", "-E", "separator=;",
                        "-e", "lldp.dcbx.ieee.app.prio", "-e", "lldp.dcbx.iee.app.sf",
                        "-e", "lldp.dcbx.feature.app.proto"], capture_output=True, text=True)
cols = [c.split(",") for c in r.stdout.strip().split(";")] if r.returncode == 0 else []
got = [(int(p), int(s), int(x, 0)) for p, s, x in zip(*cols)] if len(cols) == 3 else []
ok(got == APP, "tshark: the APP TLV's entries (priority, selector, protocol)", (got, r.stdout, r.stderr[-300:]))

# CEE (DCBX 1.01): tshark's DCBX dissector decodes our CEE TLV's sub-TLVs
# (Control, Priority Groups, PFC, Application), bit orders included; and
# dcbx_parse reads back what dcbx_build wrote.
frame = ours("cee=7:5", "ceepg=ew:0001300f:40,0,0,60,0,0,0,0", "ceepfc=ewx:0x28",
             "ceeapp=e:1:4791:0x08,0:0x8915:0x20")
with tempfile.TemporaryDirectory() as tmp:
    pcap = os.path.join(tmp, "cee.pcap")
    wrpcap(pcap, [Ether(frame)])
    f = ["lldp.dcbx.proto", "lldp.dcbx.type", "lldp.dcbx.control.seq", "lldp.dcbx.control.ack",
         "lldp.dcbx.feature.enabled", "lldp.dcbx.feature.willing", "lldp.dcbx.feature.error"]
    f += [f"lldp.dcbx.feature.pg.pgid_prio{i}" for i in range(8)]
    f += [f"lldp.dcbx.feature.pg.per{i}" for i in range(8)]
    f += [f"lldp.dcbx.feature.pfc.prio{i}" for i in range(8)]
    f += ["lldp.dcbx.feature.app.proto", "lldp.dcbx.feature.app.sf", "lldp.dcbx.feature.app.oui",
          "lldp.dcbx.feature.app.prio"]
    args = [tshark, "-n", "-r", pcap, "-T", "fields", "-E", "separator=;"]
    for x in f:
        args += ["-e", x]
    r = subprocess.run(args, capture_output=True, text=True)
got = dict(zip(f, r.stdout.strip().split(";"))) if r.returncode == 0 else {}
ok(got.get("lldp.dcbx.proto") == "0x02" and got.get("lldp.dcbx.type") == "1,2,3,4" and
   got.get("lldp.dcbx.control.seq") == "7" and got.get("lldp.dcbx.control.ack") == "5",
   "tshark: a CEE TLV (subtype 2): Control, PG, PFC, App sub-TLVs; SeqNo 7, AckNo 5", got)
ok(got.get("lldp.dcbx.feature.enabled") == "1,1,1" and got.get("lldp.dcbx.feature.willing") == "1,1,0" and
   got.get("lldp.dcbx.feature.error") == "0,1,0",
   "tshark: the CEE features' enable, willing and error bits", got)
ok([int(got.get(f"lldp.dcbx.feature.pg.pgid_prio{i}", "-1")) for i in range(8)] == [0, 0, 0, 1, 3, 0, 0, 15] and
   [int(got.get(f"lldp.dcbx.feature.pg.per{i}", "-1")) for i in range(8)] == [40, 0, 0, 60, 0, 0, 0, 0],
   "tshark: CEE priority groups (priority 0 in the high nibble; 15 strict) and their percents", got)
ok([int(got.get(f"lldp.dcbx.feature.pfc.prio{i}", "-1")) for i in range(8)] == [0, 0, 0, 1, 0, 1, 0, 0],
   "tshark: CEE PFC on priorities 3 and 5 (bit n = priority n)", got)
ok(got.get("lldp.dcbx.feature.app.proto") == "0x12b7,0x8915" and got.get("lldp.dcbx.feature.app.sf") == "1,0" and
   got.get("lldp.dcbx.feature.app.oui") == "0x001b21,0x001b21" and got.get("lldp.dcbx.feature.app.prio") == "3,5",
   "tshark: CEE application entries (UDP 4791 on 3, EtherType 0x8915 on 5)", got)
back = parse(frame)
ok(back.get("cee") == {"seq": 7, "ack": 5, "pg_flags": "ew", "pfc_flags": "ewx", "app_flags": "e",
                       "pgid": [0, 0, 0, 1, 3, 0, 0, 15], "pg_pct": [40, 0, 0, 60, 0, 0, 0, 0],
                       "pfc_enable": 40, "app": [[1, 4791, 8, "001b21"], [0, 35093, 32, "001b21"]]}
   and back.get("bad") == {},
   "dcbx_parse reads back the CEE TLV dcbx_build wrote", back)
# A CEE TLV without its Control sub-TLV says nothing; a PG sub-TLV cut short
# costs only itself.
i = frame.find(bytes.fromhex("001b2102"))
body = bytearray(frame)
ctrl = i + 4                       # the Control sub-TLV's header
body[ctrl] = (5 << 1)              # renamed: type 5 (not ours), so no Control
back = parse(bytes(body))
ok("cee" not in back and back.get("bad", {}).get("CEE DCBX") == 4 and back.get("result") == 0,
   "a CEE TLV without its Control sub-TLV is ignored, counted bad, the LLDPDU kept", back)
body = bytearray(frame)
pg = ctrl + 2 + 10                 # the PG sub-TLV's header: say 16 octets, not 17
body[pg + 1] = 16                  # the next sub-TLV then starts one octet early
back = parse(bytes(body))
ok(back.get("cee", {}).get("seq") == 7 and "pgid" not in back.get("cee", {}) and
   "CEE DCBX" in back.get("bad", {}),
   "a CEE PG sub-TLV of the wrong length costs only itself (Control read, bad counted)", back)
# A group's percent above 100 costs the PG sub-TLV alone.
body = bytearray(frame)
body[pg + 2 + 8] = 101             # PG 0's percent (the PG sub-TLV read above)
body[pg + 1] = 17
back = parse(bytes(body))
ok(back.get("cee", {}).get("seq") == 7 and "pgid" not in back.get("cee", {}) and
   back.get("cee", {}).get("pfc_enable") == 40 and back.get("bad", {}).get("CEE DCBX") == 7,
   "a CEE group's percent above 100 costs the PG sub-TLV alone (PFC read, bad counted)", back)
# tcpdump's LLDP printer, a dissector written apart from tshark's, reads the
# same frames. Two of its readings differ from the standards and are judged
# where they cannot mislead: it prints ETS's CBS bit as (octet >> 6) & 2 (so
# CBS 1 reads "CBS:2"), and it takes CEE's Application selector from the top
# two bits of the OUI's first octet, where lldpad (tlv_dcbx.c) and tshark
# read the bottom two (so a CEE entry's SF and OUI are judged by tshark and
# lldpad, its protocol and priority map here).
tcpdump = shutil.which("tcpdump") or ("/usr/bin/tcpdump" if os.access("/usr/bin/tcpdump", os.X_OK) else None)


def tcpdump_text(frame):
    with tempfile.TemporaryDirectory() as tmp:
        pcap = os.path.join(tmp, "f.pcap")
        wrpcap(pcap, [Ether(frame)])
        r = subprocess.run([tcpdump, "-nn", "-vv", "-r", pcap], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else ""


def row(text, label):
    """The numbers of the first table row after LABEL ("Value : 1 0 2 ...")."""
    m = re.search(re.escape(label) + r"[^\n]*\n[^\n]*\n\s*Value\s*:([ \d]+)", text)
    return [int(x) for x in m.group(1).split()] if m else None


if ok(tcpdump is not None, "tcpdump is installed"):
    t = tcpdump_text(ours("etscfg=1:1:3:" + ETS_ARG, "etsrec=10234567:0,100,0,0,0,0,0,0:0,2,0,0,0,0,0,0",
                          "pfc=1:1:4:0x28"))
    cfg, _, rest = t.partition("ETS Recommendation Subtype (10)")
    rec, _, pfc = rest.partition("Priority Flow Control Configuration Subtype (11)")
    ok("ETS Configuration Subtype (9)" in cfg and re.search(r"Willing:1, CBS:[1-9], RES:0, Max TCs:3", cfg) and
       row(cfg, "Priority Assignment Table") == PTC and row(cfg, "TC Bandwidth Table") == BW and
       row(cfg, "TSA Assignment Table") == TSA,
       "tcpdump: ETS Configuration: willing, CBS, max TCs, priority table, bandwidths, TSAs", t)
    ok(row(rec, "Priority Assignment Table") == PTC and row(rec, "TC Bandwidth Table") == [0, 100, 0, 0, 0, 0, 0, 0] and
       row(rec, "TSA Assignment Table") == [0, 2, 0, 0, 0, 0, 0, 0],
       "tcpdump: ETS Recommendation tables", rec)
    ok("Willing: 1, MBC: 1, RES: 0, PFC cap:4" in pfc and row(pfc, "PFC Enable") == [0, 0, 0, 1, 0, 1, 0, 0],
       "tcpdump: PFC willing, MBC, cap and enable (priorities 3 and 5)", pfc)
    t = tcpdump_text(ours("pfc=0:0:8:0x08", APP_ARG))
    got = [tuple(int(x) for x in m) for m in
           re.findall(r"Priority: (\d+), RES: 0, Sel: (\d+), Protocol ID: (\d+)", t)]
    ok("Application Priority Subtype (12)" in t and got == APP,
       "tcpdump: the APP TLV's entries (priority, selector, protocol)", t)
    t = tcpdump_text(ours("cee=7:5", "ceepg=ew:0001300f:40,0,0,60,0,0,0,0", "ceepfc=ewx:0x28",
                          "ceeapp=e:1:4791:0x08,0:0x8915:0x20"))
    ok("DCB Capability Exchange Protocol Rev 1.01 Subtype (2)" in t and
       re.search(r"Sequence Number: 7\s+Acknowledgement Number: 5", t),
       "tcpdump: a CEE TLV (Rev 1.01) whose Control says SeqNo 7, AckNo 5", t)
    flags = re.findall(r"Enable bit: (\d), Willing bit: (\d), Error Bit: (\d)", t)
    ok(flags == [("1", "1", "0"), ("1", "1", "1"), ("1", "0", "0")],
       "tcpdump: the CEE features' (PG, PFC, App) enable, willing and error bits", flags)
    ok([int(x) for x in re.findall(r"PgId_\d: (\d+)", t)] == [0, 0, 0, 1, 3, 0, 0, 15] and
       [int(x) for x in re.findall(r"Pg percentage\[\d\]: (\d+)", t)] == [40, 0, 0, 60, 0, 0, 0, 0],
       "tcpdump: CEE priority groups and their percents", t)
    ok([b == "Enabled" for b in re.findall(r"Priority Bit \d: (\w+)", t)] ==
       [False, False, False, True, False, True, False, False],
       "tcpdump: CEE PFC on priorities 3 and 5 (bit n = priority n)", t)
    ok(re.findall(r"Application Protocol ID: (0x[0-9a-f]+)", t) == ["0x12b7", "0x8915"] and
       re.findall(r"User Priority Map: (0x[0-9a-f]+)", t) == ["0x08", "0x20"],
       "tcpdump: CEE application entries' protocols (4791, 0x8915) and priority maps", t)
print(f"1..{n}")
print(f"# Totals: pass:{n - failed} fail:{failed} skip:0")
sys.exit(1 if failed else 0)
