#!/usr/bin/env python3
"""The house's size: lines of Rust in every tracked `.rs` file outside a `tests/` folder,
split into the code and the inline unit tests (from a file's first `#[cfg(test)]` at the
start of a line to its end), by crate; the longest files and functions; and, with
--since REV, the same totals at REV beside today's.

    python3 docs/scripts/line_counts.py [--since REV] [--top N]

It reads git's copy of each file (the committed tree at REV, the working tree today), so
it counts what a clone holds. Function lengths are found by matching braces, outside
strings and comments, from each `fn` line: a count for reading, not a parser.
"""

import argparse
import re
import subprocess
import sys
from collections import Counter

FN = re.compile(r"^\s*(pub(\([a-z:]+\))?\s+)?((const|async|unsafe|extern \"C\")\s+)*fn\s+(\w+)")


def git(*args):
    out = subprocess.run(["git", *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"git {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout


def counted(path):
    return path.endswith(".rs") and not path.startswith("tests/") and "/tests/" not in path


def files_at(rev):
    """(path, text) of every counted file: git's tree at `rev`, or the working tree."""
    if rev is None:
        paths = [p for p in git("ls-files").split("\n") if counted(p)]
        return [(p, open(p, encoding="utf-8").read()) for p in paths]
    paths = [p for p in git("ls-tree", "-r", "--name-only", rev).split("\n") if counted(p)]
    return [(p, git("show", f"{rev}:{p}")) for p in paths]


def split_tests(text):
    """(code lines, inline test lines) of one file."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for i, line in enumerate(lines):
        if line.startswith("#[cfg(test)]"):
            return i, len(lines) - i
    return len(lines), 0


def functions(path, text):
    """(lines, path, line, name) of each function, by brace matching."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        depth, opened = 0, False
        for j in range(i, len(lines)):
            s = re.sub(r'"(\\.|[^"\\])*"', "", lines[j])
            s = re.sub(r"'(\\.|[^'\\])'", "", s)
            s = s.split("//")[0]
            depth += s.count("{") - s.count("}")
            opened = opened or "{" in s
            if (opened and depth <= 0) or (not opened and ";" in s):
                break
        out.append((j - i + 1, path, i + 1, m.group(5)))
    return out


def crate_of(path):
    return path.split("/")[0] if "/" in path else "."


def totals(files):
    code, tests, by_crate = 0, 0, Counter()
    for path, text in files:
        c, t = split_tests(text)
        code += c
        tests += t
        by_crate[crate_of(path)] += c + t
    return code, tests, by_crate


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--since", metavar="REV", help="also count at this revision")
    ap.add_argument("--top", type=int, default=5, help="longest files and functions to list")
    args = ap.parse_args()
    files = files_at(None)
    code, tests, by_crate = totals(files)
    print(f"today: {code + tests} lines ({code} code, {tests} inline tests) in {len(files)} files")
    if args.since:
        old = files_at(args.since)
        ocode, otests, old_crates = totals(old)
        print(f"{args.since}: {ocode + otests} lines ({ocode} code, {otests} inline tests)")
        print(f"change: {code + tests - ocode - otests:+d} ({code - ocode:+d} code, {tests - otests:+d} tests)")
    print("\nby crate (code and inline tests):")
    for crate, n in by_crate.most_common():
        change = f" ({n - old_crates.get(crate, 0):+d})" if args.since else ""
        print(f"  {n:6d} {crate}{change}")
    print(f"\nlongest files:")
    for n, path in sorted(((t.count("\n"), p) for p, t in files), reverse=True)[: args.top]:
        print(f"  {n:6d} {path}")
    fns = sorted((f for p, t in files for f in functions(p, t)), reverse=True)
    print(f"\nlongest functions:")
    for n, path, line, name in fns[: args.top]:
        print(f"  {n:6d} {path}:{line} {name}")


if __name__ == "__main__":
    main()
