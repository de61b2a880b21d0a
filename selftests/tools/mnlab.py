#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Drive flowctl.mininet for selftests/mininet.sh; prints one JSON object.

  mnlab.py attach   the lossless topology: what flowctl reports on each
                    end of each link, and pingall's loss
  mnlab.py refuse   a setting flowctl refuses, and one it does not know
"""
import json
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'python'))

from mininet.log import setLogLevel  # noqa: E402
from mininet.net import Mininet  # noqa: E402
from mininet.nodelib import LinuxBridge  # noqa: E402
from mininet.topo import Topo  # noqa: E402

from flowctl.mininet import FlowctlError, FlowctlLink  # noqa: E402
sys.path.insert(0, os.path.join(TOP, 'python', 'flowctl', 'examples'))
from lossless import Lossless  # noqa: E402


def port(intf):
    j = intf.flowctl_json()
    return {k: j.get(k) for k in ('ifname', 'mode', 'rx', 'tx', 'rate_bps',
                                  'speed_mbps', 'xoff_bytes', 'xon_bytes')}


def attach():
    net = Mininet(topo=Lossless(), switch=LinuxBridge, controller=None)
    net.start()
    try:
        out = {}
        for link in net.links:
            for intf in (link.intf1, link.intf2):
                out[intf.name] = port(intf)
        out['loss'] = net.pingAll()
    finally:
        net.stop()
    return out


class Bad(Topo):
    def build(self, **settings):
        self.addLink(self.addHost('h1', ip='198.18.0.1/24'),
                     self.addHost('h2', ip='198.18.0.2/24'),
                     cls=FlowctlLink, **settings)


def refuse():
    out = {}
    for name, settings in (('refused', dict(limit='64k', xoff='1m', xon='32k')),
                           ('unknown', dict(mdoe='pfc'))):
        net = Mininet(topo=Bad(**settings), controller=None, build=False)
        try:
            net.build()
            out[name] = 'accepted'
        except FlowctlError as e:
            out[name] = 'FlowctlError: %s' % e
        except ValueError as e:
            out[name] = 'ValueError: %s' % e
        finally:
            net.stop()
    return out


if __name__ == '__main__':
    setLogLevel('warning')
    print(json.dumps({'attach': attach, 'refuse': refuse}[sys.argv[1]]()))
