#!/usr/bin/env python3
"""Compares the datasets under two directories, row by row, timing columns aside.

    python3 docs/scripts/compare_datasets.py BEFORE AFTER

BEFORE and AFTER are directories holding hammer datasets (for example two runs of
`HAMMER_KEEP_EXAMPLES=DIR cargo test -p hammer --test examples`, one on the code before
a change and one after). Every Parquet part file is found by its path relative to the
directory; the two sides must hold the same part files, each with the same columns in
the same order and the same rows, every value equal except in the columns that measure
time or name the machine (`wall_ns`, `worker`, `hammer_version`). A value that names
its directory (a knowledge base's path in a learned order's `config`) is compared with
the directory's own path cut out. With `--reports`, the `*.report.json` files beside
the datasets (the analysis's JSON output) must be equal too, apart from keys that hold
timings.

Prints one line per difference and exits 1 when there is any, else prints the counts
and exits 0. Needs pyarrow (the tests' venv has it).
"""

import json
import sys
from pathlib import Path

import pyarrow.parquet as pq

TIMING = {"wall_ns", "worker", "hammer_version"}


def parts(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*.parquet"))}


def rooted(values: list, root: Path) -> list:
    """The values with `root`'s path replaced by a placeholder."""
    prefix = str(root.resolve())
    return [v.replace(prefix, "<ROOT>") if isinstance(v, str) else v for v in values]


def compare_part(rel: str, a: Path, b: Path, problems: list, roots: tuple) -> int:
    ta = pq.read_table(a, partitioning=None)
    tb = pq.read_table(b, partitioning=None)
    if ta.schema.names != tb.schema.names:
        problems.append(f"{rel}: columns differ: {ta.schema.names} against {tb.schema.names}")
        return 0
    for name in ta.schema.names:
        fa, fb = ta.schema.field(name), tb.schema.field(name)
        if fa.type != fb.type or fa.nullable != fb.nullable:
            problems.append(f"{rel}: column {name}: {fa} against {fb}")
    if ta.num_rows != tb.num_rows:
        problems.append(f"{rel}: {ta.num_rows} rows against {tb.num_rows}")
        return 0
    for name in ta.schema.names:
        if name in TIMING:
            continue
        ca = rooted(ta.column(name).to_pylist(), roots[0])
        cb = rooted(tb.column(name).to_pylist(), roots[1])
        if ca != cb:
            row = next(i for i, (x, y) in enumerate(zip(ca, cb)) if x != y)
            problems.append(f"{rel}: column {name}, row {row}: {ca[row]!r} against {cb[row]!r}")
    return ta.num_rows


def without_timings(value, root: Path):
    if isinstance(value, dict):
        return {
            k: without_timings(v, root)
            for k, v in value.items()
            if "seconds" not in k and not k.endswith("_ms")
        }
    if isinstance(value, list):
        return [without_timings(v, root) for v in value]
    if isinstance(value, str):
        return value.replace(str(root.resolve()), "<ROOT>")
    return value


def main(argv: list) -> int:
    args = [a for a in argv if not a.startswith("--")]
    flags = {a for a in argv if a.startswith("--")}
    unknown = flags - {"--reports"}
    if len(args) != 2 or unknown:
        print(__doc__.strip().splitlines()[2].strip() + " [--reports]", file=sys.stderr)
        if unknown:
            print(f"unknown option {sorted(unknown)[0]}", file=sys.stderr)
        return 2
    before, after = Path(args[0]), Path(args[1])
    for d in (before, after):
        if not d.is_dir():
            print(f"{d}: not a directory", file=sys.stderr)
            return 2
    pa, pb = parts(before), parts(after)
    problems = []
    for rel in sorted(pa.keys() - pb.keys()):
        problems.append(f"{rel}: only in {before}")
    for rel in sorted(pb.keys() - pa.keys()):
        problems.append(f"{rel}: only in {after}")
    rows = 0
    common = sorted(pa.keys() & pb.keys())
    for rel in common:
        rows += compare_part(rel, pa[rel], pb[rel], problems, (before, after))
    reports = 0
    if "--reports" in flags:
        for ra in sorted(before.glob("*.report.json")):
            rb = after / ra.name
            if not rb.exists():
                problems.append(f"{ra.name}: only in {before}")
                continue
            reports += 1
            ja = without_timings(json.loads(ra.read_text()), before)
            jb = without_timings(json.loads(rb.read_text()), after)
            if ja != jb:
                problems.append(f"{ra.name}: the reports differ")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} difference(s)")
        return 1
    print(f"identical: {len(common)} part files, {rows} rows" + (f", {reports} reports" if reports else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
