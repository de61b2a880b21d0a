#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Print, as JSON, the DCB peer information the kernel reports for DEV.

    dcbpeer.py DEV

One RTM_GETDCB DCB_CMD_IEEE_GET request, as lldpad and the ConnectX tools
send it; the reply is built by the kernel's own net/dcb/dcbnl.c
(dcbnl_ieee_fill) from the device's dcbnl_rtnl_ops. iproute2's dcb shows no
peer, so the tests read DCB_ATTR_IEEE_PEER_PFC, _PEER_ETS and _PEER_APP
here: {"pfc": {...} | null, "ets": {...} | null, "app": [...] | null}.
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


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: dcbpeer.py DEV")
    dev = sys.argv[1].encode() + b"\0"
    ifname = struct.pack("=HH", 4 + len(dev), DCB_ATTR_IFNAME) + dev
    ifname += b"\0" * (-len(ifname) % 4)
    body = struct.pack("=BBH", AF_UNSPEC, DCB_CMD_IEEE_GET, 0) + ifname
    msg = struct.pack("=IHHII", 16 + len(body), RTM_GETDCB, NLM_F_REQUEST, 1,
                      0) + body
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
    s.send(msg)
    reply = s.recv(65536)
    length, typ = struct.unpack_from("=IH", reply, 0)
    if typ == NLMSG_ERROR:
        err = struct.unpack_from("=i", reply, 16)[0]
        sys.exit("RTM_GETDCB: %s" % os.strerror(-err))
    out = {"pfc": None, "ets": None, "app": None}
    for t, p in attrs(reply[20:length]):
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
    print(json.dumps(out))


if __name__ == "__main__":
    main()
