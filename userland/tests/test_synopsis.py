# SPDX-License-Identifier: GPL-2.0
"""flowctl(8)'s SYNOPSIS and the CLI's own help say the same words: for each
command "flowctl help" lists, the keywords of "flowctl CMD help"'s usage
lines are those of the man page's synopsis lines for CMD, and the reverse;
the command lists are the same too. Keywords are the lower-case words and
the options (-j, -s ...); placeholders in capitals are not compared.

usage: test_synopsis.py FLOWCTL MANPAGE
"""
import os
import re
import subprocess
import sys

WORD = re.compile(r"^(-[a-z]+|[a-z][a-z0-9-]*)$")


def words(text):
    out = set()
    for tok in re.split(r"[\s\[\]{}|,.:()]+", text):
        tok = tok.strip()
        if WORD.match(tok) and tok not in ("flowctl", "help"):
            out.add(tok)
    return out


def usage_lines(text):
    """The usage block of a help text: the Usage: line and the indented
    lines after it that start with flowctl or continue a line."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.startswith("Usage:"):
            out.append(line[len("Usage:"):])
            for cont in lines[i + 1:]:
                if not cont.startswith(" "):
                    break
                if cont.strip().startswith("flowctl") or cont.startswith("       " + " " * 8):
                    out.append(cont)
                else:
                    break
            break
    return [l for l in out if not re.match(r"\s*flowctl( \S+)? help$", l.strip())]


def command_of(line):
    """The command a synopsis/usage line is of: the first word after
    flowctl and its bracketed options."""
    rest = line.strip()
    assert rest.startswith("flowctl"), rest
    rest = re.sub(r"^flowctl\s*", "", rest)
    while rest.startswith("["):
        depth = 0
        for i, c in enumerate(rest):
            depth += c == "["
            depth -= c == "]"
            if depth == 0:
                rest = rest[i + 1:].lstrip()
                break
    return rest.split()[0] if rest else ""


def man_synopsis(manpage):
    env = dict(os.environ, MANWIDTH="400", MAN_KEEP_FORMATTING="", LANG="C.UTF-8")
    text = subprocess.run(["man", "-l", manpage], capture_output=True, text=True,
                          env=env, check=True).stdout
    text = re.sub(r".\x08", "", text).replace("\u2010", "-").replace("\u2212", "-")
    syn = text.split("\nSYNOPSIS\n", 1)[1].split("\nDESCRIPTION\n", 1)[0]
    per = {}
    cur = None
    for line in syn.splitlines():
        s = line.strip()
        if not s:
            continue
        if s.startswith("flowctl "):
            cmd = command_of(s)
            if cmd in ("COMMAND", "help", "") or cmd.isupper():
                cur = None
                continue
            cur = cmd
            per.setdefault(cur, set()).update(words(s[len("flowctl"):]))
        elif re.match(r"^[A-Z][A-Z-]* :=", s):
            if s.startswith("COMMAND :="):
                per["__commands__"] = words(s.split(":=", 1)[1])
            cur = None
        elif cur:
            per[cur].update(words(s))
    return per


def main():
    flowctl, manpage = sys.argv[1], sys.argv[2]
    top = subprocess.run([flowctl, "help"], capture_output=True, text=True).stdout + \
        subprocess.run([flowctl, "help"], capture_output=True, text=True).stderr
    m = re.search(r"COMMAND := \{([^}]*)\}", top, re.S)
    commands = words(m.group(1)) if m else set()
    man = man_synopsis(manpage)
    tests = []
    tests.append((commands == man.get("__commands__", set()) and bool(commands),
                  "the command lists agree: flowctl help %s, man %s" % (
                      sorted(commands ^ man.get("__commands__", set())) or "same", "")))
    for cmd in sorted(commands):
        r = subprocess.run([flowctl, cmd, "help"], capture_output=True, text=True)
        help_text = r.stdout + r.stderr
        usage = usage_lines(help_text)
        have = set()
        for line in usage:
            have |= words(line.replace("flowctl", " ", 1) if "flowctl" in line else line)
        want = man.get(cmd, set())
        only_help = sorted(have - want)
        only_man = sorted(want - have)
        ok = bool(usage) and bool(want) and not only_help and not only_man
        detail = ""
        if only_help:
            detail += " only in '%s help': %s" % (cmd, " ".join(only_help))
        if only_man:
            detail += " only in flowctl.8: %s" % " ".join(only_man)
        if not usage:
            detail += " no usage lines in '%s help'" % cmd
        if not want:
            detail += " no synopsis line in flowctl.8"
        tests.append((ok, "%s: help and SYNOPSIS name the same keywords%s" % (
            cmd, (";" + detail) if detail else " (%d)" % len(have))))
    print("TAP version 13")
    print("1..%d" % len(tests))
    fail = 0
    for i, (ok, msg) in enumerate(tests, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, msg))
        fail |= not ok
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
