# SPDX-License-Identifier: GPL-2.0
"""A PFC deadlock lab for Mininet: three routers in a ring, each with a host.

Each host sends to the host two hops clockwise on priority 3 (DSCP 24);
every inter-router link carries two such flows at 10 Mb/s. With flowctl's
PFC on every port, the three inter-router queues fill and pause each other:
a cyclic buffer dependency that stays, full and silent, after the hosts
stop. --topo pfcring,watchdog=200 turns the PFC watchdog on at each
router's clockwise port, which breaks the cycle (Documentation/watchdog.md).

    PYTHONPATH=python mn --custom python/flowctl/examples/pfcring.py \\
        --topo pfcring --controller none --test pingall

Addresses (198.18.0.0/15, the benchmarking range): host i 198.18.i.1,
router i 198.18.i.254 on its host's link; ring link i (router i's cw port
to router i+1's ccw port) 198.19.i.1 and 198.19.i.2.
"""

import inspect
import os
import sys

from mininet.node import Node
from mininet.topo import Topo

# Found when imported, and when mn --custom execs this file.
_here = os.path.dirname(os.path.abspath(inspect.currentframe().f_code.co_filename))
sys.path.insert(0, os.path.dirname(os.path.dirname(_here)))
from flowctl.mininet import FlowctlLink  # noqa: E402

PFC = dict(mode='pfc', pfc_prios='3', trust='dscp', rx='on')
HEADROOM = {3: ('64k', '32k')}


class Router(Node):
    """A node that forwards IPv4, with static routes."""

    def config(self, routes=(), **params):
        result = Node.config(self, **params)
        self.cmd('sysctl -qw net.ipv4.ip_forward=1')
        for route in routes:
            self.cmd('ip route add ' + route)
        return result


def nxt(i):
    return i % 3 + 1


class PfcRing(Topo):
    """Three routers in a ring; host i sends to host i+2, clockwise."""

    def build(self, watchdog=None, wd_action='drop'):
        for i in (1, 2, 3):
            # Everything not on its own links is clockwise.
            routes = ['198.18.0.0/15 via 198.19.%d.2' % i]
            self.addNode('r%d' % i, cls=Router, ip='198.18.%d.254/24' % i,
                         routes=routes)
            self.addHost('h%d' % i, ip='198.18.%d.1/24' % i,
                         defaultRoute='via 198.18.%d.254' % i)
        for i in (1, 2, 3):
            # Host links at 20 Mb/s; the router pauses its host.
            self.addLink('h%d' % i, 'r%d' % i, cls=FlowctlLink,
                         intfName1='h%d-eth0' % i, intfName2='r%d-hp' % i,
                         speed=100, rate='20mbit', **PFC,
                         params2=dict(ip='198.18.%d.254/24' % i, tx='on',
                                      prio=HEADROOM))
        for i in (1, 2, 3):
            # Ring link i, 10 Mb/s: router i's cw port to router i+1's ccw.
            cw = dict(ip='198.19.%d.1/24' % i)
            if watchdog:
                cw.update(watchdog=watchdog, wd_action=wd_action)
            self.addLink('r%d' % i, 'r%d' % nxt(i), cls=FlowctlLink,
                         intfName1='r%d-cw' % i, intfName2='r%d-ccw' % nxt(i),
                         speed=10, rate='10mbit', **PFC, params1=cw,
                         params2=dict(ip='198.19.%d.2/24' % i, tx='on',
                                      prio=HEADROOM))


topos = {'pfcring': PfcRing}
