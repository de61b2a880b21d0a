#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Print, as JSON, the DCB peer information the kernel reports for DEV.

    dcbpeer.py DEV
    dcbpeer.py --cee DEV
    dcbpeer.py --cee-do DEV CMD...

One RTM_GETDCB DCB_CMD_IEEE_GET request, as lldpad and the ConnectX tools
send it; the reply is built by the kernel's own net/dcb/dcbnl.c
(dcbnl_ieee_fill) from the device's dcbnl_rtnl_ops. iproute2's dcb shows no
peer, so the tests read DCB_ATTR_IEEE_PEER_PFC, _PEER_ETS and _PEER_APP
here: {"pfc": {...} | null, "ets": {...} | null, "app": [...] | null}.
With --cee, one DCB_CMD_CEE_GET (lldpad's CEE view, dcbnl_cee_fill): the
device's CEE transmit groups and PFC as its getters report them, and its
DCBX mode: {"pg": [{"tc": N, "pgid": N, "up_map": N, "strict": N,
"bw_pct": N}, ...], "bwg_pct": [8], "pfc": [8 settings], "dcbx": N}.

With --cee-do, the CEE requests lldpad's lldp_dcbx_nl.c sends, built as it
builds them, one per CMD, each answered on a line of JSON ({"cmd": CMD,
"reply": N or {...}} or {"cmd": CMD, "error": "..."}):
    gstate, sstate=N, gdcbx, sdcbx=N, gcap, gnumtcs, gpgtx, gpfc,
    pfc=BBBBBBBB (priority 0's setting first), pfcstate=N,
    pgtx=TC/TC/.../BWG and pgrx=... where TC is PGID:UPMAP:STRICT:PCT for
    classes 0..7 and BWG the eight groups' percents, comma-separated,
    setall.
Exit 1 when the kernel refuses the request (the message on stderr).
"""
import json
import os
import socket
import struct
import sys

RTM_GETDCB = 78
AF_UNSPEC = 0
DCB_CMD_IEEE_GET = 21
DCB_CMD_CEE_GET = 26
DCB_ATTR_DCBX = 14
DCB_ATTR_CEE = 16
DCB_ATTR_CEE_TX_PG = 4
DCB_ATTR_CEE_PFC = 6
DCB_PG_ATTR_TC_0 = 1
DCB_PG_ATTR_BW_ID_0 = 11
DCB_PG_ATTR_TC_ALL = 10
DCB_PG_ATTR_BW_ID_ALL = 20
TC_PARAMS = {1: "pgid", 2: "up_map", 3: "strict", 4: "bw_pct"}
RTM_SETDCB = 79
NLA_F_NESTED = 0  # lldpad marks no nest (dcbnl parses them as deprecated)
DCB_ATTR_STATE = 2
DCB_ATTR_PFC_STATE = 3
DCB_ATTR_PFC_CFG = 4
DCB_ATTR_PG_CFG = 6
DCB_ATTR_SET_ALL = 7
DCB_ATTR_CAP = 9
DCB_ATTR_NUMTCS = 10
CAPS = {2: "pg", 3: "pfc", 4: "up2tc", 5: "pg_tcs", 6: "pfc_tcs", 7: "gsp",
        8: "bcn", 9: "dcbx"}
NUMTCS = {2: "pg", 3: "pfc"}
# command: (DCB_CMD_*, RTM_*, the attribute that answers)
CEE_CMDS = {
    "gstate": (1, RTM_GETDCB, DCB_ATTR_STATE),
    "sstate": (2, RTM_SETDCB, DCB_ATTR_STATE),
    "pgtx": (4, RTM_SETDCB, DCB_ATTR_PG_CFG),
    "pgrx": (6, RTM_SETDCB, DCB_ATTR_PG_CFG),
    "pfc": (8, RTM_SETDCB, DCB_ATTR_PFC_CFG),
    "setall": (9, RTM_SETDCB, DCB_ATTR_SET_ALL),
    "gcap": (11, RTM_GETDCB, DCB_ATTR_CAP),
    "gnumtcs": (12, RTM_GETDCB, DCB_ATTR_NUMTCS),
    "pfcstate": (15, RTM_SETDCB, DCB_ATTR_PFC_STATE),
    "gdcbx": (22, RTM_GETDCB, DCB_ATTR_DCBX),
    "gpgtx": (3, RTM_GETDCB, DCB_ATTR_PG_CFG),
    "gpfc": (7, RTM_GETDCB, DCB_ATTR_PFC_CFG),
    "sdcbx": (23, RTM_SETDCB, DCB_ATTR_DCBX),
}
DCB_ATTR_IFNAME = 1
DCB_ATTR_IEEE = 13
DCB_ATTR_IEEE_PEER_ETS = 4
DCB_ATTR_IEEE_PEER_PFC = 5
DCB_ATTR_IEEE_PEER_APP = 6
DCB_ATTR_IEEE_APP = 1
NLM_F_REQUEST = 1
NLMSG_ERROR = 2


def attrs(buf):
    """(type, payload) of each netlink attribute in buf."""
    off = 0
    while off + 4 <= len(buf):
        length, typ = struct.unpack_from("=HH", buf, off)
        if length < 4:
            break
        yield typ & 0x3FFF, buf[off + 4:off + length]
        off += (length + 3) & ~3


def pfc(b):
    # struct ieee_pfc: pfc_cap, pfc_en, mbc, (pad), delay, requests[8], indications[8]
    cap, en, mbc, delay = struct.unpack_from("=BBBxH", b, 0)
    return {"pfc_cap": cap, "pfc_en": en, "mbc": mbc, "delay": delay}


def ets(b):
    # struct ieee_ets: willing, ets_cap, cbs, then seven u8[8] arrays
    willing, cap, cbs = b[0], b[1], b[2]
    arr = [list(b[3 + 8 * i:11 + 8 * i]) for i in range(7)]
    return {"willing": willing, "ets_cap": cap, "cbs": cbs,
            "tc_tx_bw": arr[0], "tc_rx_bw": arr[1], "tc_tsa": arr[2],
            "prio_tc": arr[3], "tc_reco_bw": arr[4], "tc_reco_tsa": arr[5],
            "reco_prio_tc": arr[6]}


def attr(typ, payload):
    """One netlink attribute, padded."""
    a = struct.pack("=HH", 4 + len(payload), typ) + payload
    return a + b"\0" * (-len(a) % 4)


def u8(typ, v):
    return attr(typ, struct.pack("=B", v))


def send(dev, cmd, rtm=RTM_GETDCB, payload=b""):
    """The attributes of the kernel's reply, or the error it gave."""
    body = struct.pack("=BBH", AF_UNSPEC, cmd, 0) + attr(
        DCB_ATTR_IFNAME, dev.encode() + b"\0") + payload
    msg = struct.pack("=IHHII", 16 + len(body), rtm, NLM_F_REQUEST, 1,
                      0) + body
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    s.send(msg)
    reply = s.recv(65536)
    s.close()
    length, typ = struct.unpack_from("=IH", reply, 0)
    if typ == NLMSG_ERROR:
        err = struct.unpack_from("=i", reply, 16)[0]
        return None, os.strerror(-err)
    return list(attrs(reply[20:length])), None


def request(dev, cmd):
    """The attributes of the kernel's reply to RTM_GETDCB cmd for dev."""
    got, err = send(dev, cmd)
    if err:
        sys.exit("RTM_GETDCB: %s" % err)
    return got


def cee_payload(name, arg):
    """The attributes lldpad puts after DCB_ATTR_IFNAME for a command."""
    if name in ("sstate", "sdcbx"):
        return u8(DCB_ATTR_STATE if name == "sstate" else DCB_ATTR_DCBX,
                  int(arg))
    if name == "pfcstate":
        return u8(DCB_ATTR_PFC_STATE, int(arg))
    if name == "pfc":
        return attr(DCB_ATTR_PFC_CFG | NLA_F_NESTED,
                    b"".join(u8(1 + i, int(c)) for i, c in enumerate(arg)))
    if name in ("pgtx", "pgrx"):
        parts = arg.split("/")
        nest = b""
        for i, tc in enumerate(parts[:8]):
            nest += attr((DCB_PG_ATTR_TC_0 + i) | NLA_F_NESTED, b"".join(
                u8(1 + j, int(v)) for j, v in enumerate(tc.split(":"))))
        for i, v in enumerate(parts[8].split(",")):
            nest += u8(DCB_PG_ATTR_BW_ID_0 + i, int(v))
        return attr(DCB_ATTR_PG_CFG | NLA_F_NESTED, nest)
    if name == "setall":
        return u8(DCB_ATTR_SET_ALL, 1)
    if name == "gcap":
        return attr(DCB_ATTR_CAP | NLA_F_NESTED, attr(1, b""))
    if name == "gnumtcs":
        return attr(DCB_ATTR_NUMTCS | NLA_F_NESTED, attr(1, b""))
    if name == "gpgtx":  # every class (TC_ALL: PARAM_ALL), every group
        return attr(DCB_ATTR_PG_CFG | NLA_F_NESTED,
                    attr(DCB_PG_ATTR_TC_ALL | NLA_F_NESTED, attr(5, b"")) +
                    attr(DCB_PG_ATTR_BW_ID_ALL, b""))
    if name == "gpfc":  # every priority (PFC_UP_ATTR_ALL)
        return attr(DCB_ATTR_PFC_CFG | NLA_F_NESTED, attr(9, b""))
    return b""


def cee_do(dev, cmds):
    for c in cmds:
        name, _, arg = c.partition("=")
        if name not in CEE_CMDS:
            sys.exit("dcbpeer.py: no CEE command %s" % name)
        cmd, rtm, answer = CEE_CMDS[name]
        got, err = send(dev, cmd, rtm, cee_payload(name, arg))
        if err:
            print(json.dumps({"cmd": c, "error": err}))
            continue
        reply = None
        for t, p in got:
            if t != answer:
                continue
            if name == "gcap":
                reply = {CAPS[a]: v[0] for a, v in attrs(p) if a in CAPS}
            elif name == "gnumtcs":
                reply = {NUMTCS[a]: v[0] for a, v in attrs(p) if a in NUMTCS}
            elif name == "gpgtx":
                reply = pg_groups(p)
            elif name == "gpfc":
                reply = [v[0] for a, v in sorted(attrs(p)) if 1 <= a <= 8]
            else:
                reply = p[0]
        print(json.dumps({"cmd": c, "reply": reply}))


def peer(dev):
    out = {"pfc": None, "ets": None, "app": None}
    for t, p in request(dev, DCB_CMD_IEEE_GET):
        if t != DCB_ATTR_IEEE:
            continue
        for it, ip in attrs(p):
            if it == DCB_ATTR_IEEE_PEER_PFC:
                out["pfc"] = pfc(ip)
            elif it == DCB_ATTR_IEEE_PEER_ETS:
                out["ets"] = ets(ip)
            elif it == DCB_ATTR_IEEE_PEER_APP:
                out["app"] = [
                    dict(zip(("selector", "priority", "protocol"),
                             struct.unpack("=BBH", ap)))
                    for at, ap in attrs(ip) if at == DCB_ATTR_IEEE_APP]
    return out


def pg_groups(p):
    """A DCB PG nest: each class's parameters, each group's percent."""
    out = {"pg": [], "bwg_pct": [None] * 8}
    for gt, gp in attrs(p):
        if DCB_PG_ATTR_TC_0 <= gt < DCB_PG_ATTR_TC_0 + 8:
            tc = {"tc": gt - DCB_PG_ATTR_TC_0}
            tc.update((TC_PARAMS[a], v[0]) for a, v in attrs(gp)
                      if a in TC_PARAMS)
            out["pg"].append(tc)
        elif DCB_PG_ATTR_BW_ID_0 <= gt < DCB_PG_ATTR_BW_ID_0 + 8:
            out["bwg_pct"][gt - DCB_PG_ATTR_BW_ID_0] = gp[0]
    return out


def cee(dev):
    out = {"pg": None, "bwg_pct": None, "pfc": None, "dcbx": None}
    for t, p in request(dev, DCB_CMD_CEE_GET):
        if t == DCB_ATTR_DCBX:
            out["dcbx"] = p[0]
        if t != DCB_ATTR_CEE:
            continue
        for it, ip in attrs(p):
            if it == DCB_ATTR_CEE_TX_PG:
                g = pg_groups(ip)
                out["pg"], out["bwg_pct"] = g["pg"], g["bwg_pct"]
            elif it == DCB_ATTR_CEE_PFC:
                out["pfc"] = [None] * 8
                for pt, pp in attrs(ip):
                    if 1 <= pt <= 8:
                        out["pfc"][pt - 1] = pp[0]
    return out


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--cee":
        print(json.dumps(cee(args[1])))
    elif len(args) >= 3 and args[0] == "--cee-do":
        cee_do(args[1], args[2:])
    elif len(args) == 1:
        print(json.dumps(peer(args[0])))
    else:
        sys.exit("usage: dcbpeer.py [--cee] DEV | --cee-do DEV CMD...")


if __name__ == "__main__":
    main()
