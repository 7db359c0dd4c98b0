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
timings and the `reading` section (what reading the dataset took).

With `--root=PATH`, PATH is the directory cut out of the values on both sides: run the
two sides in the same directory one after the other (moving the first away), so that
the values that hold a path, and the intervals seeded by labels that hold one, agree.

A change that adds a family adds its columns to every dataset's schema (null in every
other family's rows) and may add example sweeps: `--added=PREFIX` accepts columns of
AFTER whose names start with PREFIX when every value of them is null, and
`--new=NAME` accepts the part files and report of AFTER's example NAME (a path starting
with NAME), which BEFORE cannot have. Each is said in the summary line.

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


def drop_added(table, prefixes: list, rel: str, problems: list):
    """`table` without the added columns, each of which must be all null."""
    for name in table.schema.names:
        if any(name.startswith(p) for p in prefixes):
            if table.column(name).null_count != table.num_rows:
                problems.append(f"{rel}: added column {name} holds values")
            table = table.drop_columns([name])
    return table


def compare_part(rel: str, a: Path, b: Path, problems: list, roots: tuple, added: list) -> int:
    ta = pq.read_table(a, partitioning=None)
    tb = drop_added(pq.read_table(b, partitioning=None), added, rel, problems)
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


def timing_name(name) -> bool:
    return isinstance(name, str) and ("seconds" in name or name.endswith("_ms"))


def without_timings(value, root: Path):
    if isinstance(value, dict) and isinstance(value.get("columns"), list) and "rows" in value:
        # A table: its timing columns go too.
        keep = [i for i, c in enumerate(value["columns"]) if not timing_name(c)]
        value = dict(value)
        value["columns"] = [value["columns"][i] for i in keep]
        value["rows"] = [[r[i] for i in keep] for r in value["rows"]]
    if isinstance(value, dict):
        return {
            k: without_timings(v, root)
            for k, v in value.items()
            if "seconds" not in k and not k.endswith("_ms") and k != "reading"
        }
    if isinstance(value, list):
        return [without_timings(v, root) for v in value]
    if isinstance(value, str):
        return value.replace(str(root.resolve()), "<ROOT>")
    return value


def main(argv: list) -> int:
    args = [a for a in argv if not a.startswith("--")]
    flags = {a for a in argv if a.startswith("--")}
    added = [f.split("=", 1)[1] for f in flags if f.startswith("--added=")]
    new = [f.split("=", 1)[1] for f in flags if f.startswith("--new=")]
    root = [Path(f.split("=", 1)[1]) for f in flags if f.startswith("--root=")]
    unknown = {f for f in flags if f != "--reports" and not f.startswith(("--added=", "--new=", "--root="))}
    if len(args) != 2 or unknown:
        usage = " [--reports] [--added=PREFIX] [--new=NAME] [--root=PATH]"
        print(__doc__.strip().splitlines()[2].strip() + usage, file=sys.stderr)
        if unknown:
            print(f"unknown option {sorted(unknown)[0]}", file=sys.stderr)
        return 2
    before, after = Path(args[0]), Path(args[1])
    for d in (before, after):
        if not d.is_dir():
            print(f"{d}: not a directory", file=sys.stderr)
            return 2
    roots = (root[0], root[0]) if root else (before, after)
    pa, pb = parts(before), parts(after)
    skipped = [rel for rel in pb if rel.startswith(tuple(new))] if new else []
    for rel in skipped:
        del pb[rel]
    problems = []
    for rel in sorted(pa.keys() - pb.keys()):
        problems.append(f"{rel}: only in {before}")
    for rel in sorted(pb.keys() - pa.keys()):
        problems.append(f"{rel}: only in {after}")
    rows = 0
    common = sorted(pa.keys() & pb.keys())
    for rel in common:
        rows += compare_part(rel, pa[rel], pb[rel], problems, roots, added)
    reports = 0
    if "--reports" in flags:
        for ra in sorted(before.glob("*.report.json")):
            rb = after / ra.name
            if not rb.exists():
                problems.append(f"{ra.name}: only in {before}")
                continue
            reports += 1
            ja = without_timings(json.loads(ra.read_text()), roots[0])
            jb = without_timings(json.loads(rb.read_text()), roots[1])
            if ja != jb:
                problems.append(f"{ra.name}: the reports differ")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} difference(s)")
        return 1
    extra = ""
    if added:
        extra += f"; columns {', '.join(p + '*' for p in added)} added, null in every row"
    if skipped:
        extra += f"; {len(skipped)} part files of the new {', '.join(new)} not compared"
    print(f"identical: {len(common)} part files, {rows} rows" + (f", {reports} reports" if reports else "") + extra)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
