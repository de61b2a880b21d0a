# SPDX-License-Identifier: GPL-2.0
"""flowctl on Mininet links: PAUSE/PFC in software on both ends of a link.

    from flowctl.mininet import FlowctlLink
    net = Mininet(topo, switch=LinuxBridge, controller=None, link=FlowctlLink)
    net.addLink(h1, s1, mode='pfc', pfc_prios='3', rate='100mbit', speed=100,
                params2={'tx': 'on', 'prio': {3: ('64k', '32k')}})

Each end gets flowctl as its root qdisc with the settings given, in one
"tc qdisc replace dev X root flowctl WORDS" where tc has flowctl's plugin,
else "tc qdisc replace" and then "flowctl set" (the words are the same);
keyword arguments apply to both ends, params1/params2 to one. A setting that flowctl
refuses raises FlowctlError with flowctl's own message, so a topology never
runs with a port that is not what it asked for.

Settings (the words of "flowctl set", with _ for -):
    mode ('pause', 'pfc', 'off'), rx and tx ('on', 'off'), pfc_prios ('3,4'),
    trust ('pcp', 'dscp'), speed (Mb/s or 'auto'), rate ('100mbit', 'off'),
    limit, xoff, xon (bytes, '64k'), quanta, prio_tc, ets,
    watchdog (ms or 'off'), wd_restoration, wd_action, tx_storm (ms or
    'off'), round_trip (bits),
    prio: {PRIO: (XOFF, XON), ...}

mn --custom: this file defines links = {'flowctl': FlowctlLink}, and the
examples next to it define topologies (python/flowctl/examples). Mininet's
Linux bridge switch (--switch lxbr) needs no Open vSwitch.
"""

import shlex

from mininet.link import Intf, Link
from mininet.log import info

__all__ = ['FlowctlError', 'FlowctlIntf', 'FlowctlLink', 'set_words']

# The settings flowctl set takes, in the order they are sent.
SETTINGS = ('mode', 'rx', 'tx', 'pfc_prios', 'trust', 'speed', 'rate', 'limit',
            'xoff', 'xon', 'quanta', 'prio_tc', 'ets', 'watchdog',
            'wd_restoration', 'wd_action', 'tx_storm', 'round_trip')


class FlowctlError(Exception):
    """flowctl or tc refused what a link asked for."""


def set_words(settings):
    """The words of "flowctl set" for a dict of settings; ValueError for
    a key flowctl does not take (a misspelled setting is not ignored)."""
    words = []
    unknown = sorted(set(settings) - set(SETTINGS) - {'prio'})
    if unknown:
        raise ValueError('not a flowctl setting: %s (settings: %s, prio)'
                         % (', '.join(unknown), ', '.join(SETTINGS)))
    for key in SETTINGS:
        if settings.get(key) is not None:
            words += [key.replace('_', '-'), str(settings[key])]
    for prio, (xoff, xon) in sorted((settings.get('prio') or {}).items()):
        words += ['prio', str(prio), 'xoff', str(xoff), 'xon', str(xon)]
    return words


class FlowctlIntf(Intf):
    """A link end with flowctl as its root qdisc."""

    # What Mininet's own Intf.config takes; every other keyword must be a
    # flowctl setting (a misspelled one, or TCLink's bw and delay, which
    # this class does not do, raise ValueError rather than vanish).
    INTF_PARAMS = ('mac', 'ip', 'ifconfig', 'up')

    def config(self, **params):
        flowctl = {k: params.pop(k) for k in list(params)
                   if k not in self.INTF_PARAMS}
        set_words(flowctl)	# ValueError before anything is done
        result = Intf.config(self, **params)
        self.flowctl = flowctl
        words = set_words(flowctl)
        # One tc command where tc has flowctl's plugin (q_flowctl.so);
        # without it tc takes no options: attach, then flowctl set.
        tc = ['tc', 'qdisc', 'replace', 'dev', self.name, 'root', 'flowctl']
        out, err, code = self._try(tc + words)
        if code != 0 and words and 'is unparsable' in (err or out):
            self._run(tc)
            self._run(['flowctl', 'set', 'dev', self.name] + words)
        elif code != 0:
            self._fail(tc + words, out, err, code)
        if words:
            info('(flowctl %s: %s) ' % (self.name, ' '.join(words)))
        result['flowctl'] = words
        return result

    def _try(self, argv):
        return self.node.pexec(' '.join(shlex.quote(a) for a in argv))

    def _fail(self, argv, out, err, code):
        raise FlowctlError('%s on %s: %s (exit %d)'
                           % (' '.join(shlex.quote(a) for a in argv), self.node.name,
                              (err or out).strip(), code))

    def _run(self, argv):
        out, err, code = self._try(argv)
        if code != 0:
            self._fail(argv, out, err, code)
        return out

    def flowctl_json(self):
        """flowctl -j -s show dev of this end, parsed."""
        import json
        return json.loads(self._run(['flowctl', '-j', '-s', 'show', 'dev', self.name]))[0]


class FlowctlLink(Link):
    """A veth link with flowctl on both ends (settings as FlowctlIntf)."""

    def __init__(self, node1, node2, **params):
        # Mininet.addLink passes its own intf class: ours replaces it.
        params['intf'] = FlowctlIntf
        Link.__init__(self, node1, node2, **params)


links = {'flowctl': FlowctlLink}
