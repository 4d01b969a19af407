#!/usr/bin/env python3
"""The CLI examples in README.md, data/published/README.md and docs/*.md are what rooflab prints.

Every fenced block whose first line is `$ rooflab ...` (or `$ cd DIR && rooflab ...`) is run
from the repository root (DIR relative to it) with $ROOFLAB as `rooflab`. Each line the block
shows after the command must begin a line of the command's output (stdout and stderr together,
trailing blanks ignored); a line that is only `…` (or `…` and a parenthesis saying what), or an empty line, stands for lines left out,
a trailing ` …` for the rest of that line and a leading `… ` for its start. A model change that moves a printed figure fails
here, naming the file and line, until the example is regenerated."""
import glob
import os
import shlex
import subprocess
import sys

ROOT = os.environ['ROOT']
ROOFLAB = os.path.abspath(os.environ['ROOFLAB'])


def blocks(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i].startswith('```'):
            j = i + 1
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            body = lines[i + 1:j]
            if body and body[0].startswith('$ ') and 'rooflab ' in body[0]:
                yield i + 2, body[0][2:], [(i + 3 + k, l) for k, l in enumerate(body[1:])]
            i = j + 1
        else:
            i += 1


def run(command):
    cwd = ROOT
    if command.startswith('cd '):
        d, command = command[3:].split(' && ', 1)
        cwd = os.path.join(ROOT, d)
    argv = shlex.split(command)
    if argv[0] != 'rooflab':
        return None
    expanded = []  # the shell's globbing (`*.json`), in its sorted order
    for a in argv[1:]:
        hits = sorted(glob.glob(os.path.join(cwd, a))) if any(c in a for c in '*?[') else []
        expanded += [os.path.relpath(h, cwd) for h in hits] or [a]
    argv = argv[:1] + expanded
    p = subprocess.run([ROOFLAB] + argv[1:], cwd=cwd, capture_output=True, text=True, timeout=120)
    return [l.rstrip() for l in (p.stdout + p.stderr).split('\n')]


def main():
    docs = ([os.path.join(ROOT, 'README.md'), os.path.join(ROOT, 'data', 'published', 'README.md')] +
            sorted(glob.glob(os.path.join(ROOT, 'docs', '*.md'))))
    checked, failures = 0, []
    for path in docs:
        rel = os.path.relpath(path, ROOT)
        for line_no, command, shown in blocks(path):
            out = run(command)
            if out is None:
                continue
            checked += 1
            for n, text in shown:
                want = text.rstrip()
                if want in ('', '…') or (want.startswith('…') and want[1:].lstrip().startswith('(')):
                    continue  # lines left out (`…  (what they are)`)
                inner = want.startswith('… ')  # the start of the line left out: it is inside one
                if inner:
                    want = want[2:]
                if want.endswith(' …'):
                    want = want[:-2].rstrip()
                if not any((want in o) if inner else o.startswith(want) for o in out):
                    near = max(out, key=lambda o: len(os.path.commonprefix([o, want])))
                    failures.append('%s:%d: `%s` does not print\n    %s\n  closest line it prints:\n    %s'
                                    % (rel, n, command, want, near))
    for f in failures:
        print(f)
    if checked < 5:
        print('only %d examples found: the scan is broken' % checked)
        return 1
    print('%d examples checked, %d lines that differ' % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
