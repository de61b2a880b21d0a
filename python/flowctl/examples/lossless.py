# SPDX-License-Identifier: GPL-2.0
"""The seed's lossless switch for Mininet: a fast sender, a Linux bridge, a
slow receiver link. The bridge's port facing the sender sends PAUSE when
the bytes it let in pile up behind the slow link; the sender's port obeys.

    PYTHONPATH=python mn --custom python/flowctl/examples/lossless.py \\
        --topo lossless --switch lxbr --controller none --test pingall

Options: --topo lossless,fast=100,slow=10 (Mb/s).
"""

import inspect
import os
import sys

from mininet.topo import Topo

_here = os.path.dirname(os.path.abspath(inspect.currentframe().f_code.co_filename))
sys.path.insert(0, os.path.dirname(os.path.dirname(_here)))
from flowctl.mininet import FlowctlLink  # noqa: E402


class Lossless(Topo):
    """h1 ==fast== s1 --slow-- h2, PAUSE between h1 and s1."""

    def build(self, fast=100, slow=10):
        h1 = self.addHost('h1', ip='198.18.0.1/24')
        h2 = self.addHost('h2', ip='198.18.0.2/24')
        s1 = self.addSwitch('s1')
        self.addLink(h1, s1, cls=FlowctlLink, mode='pause', rx='on',
                     speed=fast, rate='%dmbit' % fast,
                     params2=dict(tx='on', xoff='64k', xon='32k'))
        self.addLink(s1, h2, cls=FlowctlLink, mode='pause', speed=slow,
                     rate='%dmbit' % slow)


topos = {'lossless': Lossless}
