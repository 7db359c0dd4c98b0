#!/usr/bin/env python3
"""Compares a rung of science/frontier8 with the rung whose unknown games it searched again
(docs/search.md, "The open 8x8 games under the learned order").

    python3 science/notes/scripts/frontier8_rungs.py [--rung cap1e8learned] [--base cap1e8w]

Prints, over the games of RUNG: how many it settled, among the games still open after
every rung of the frontier's own configuration (random/luby:256) and among those the
billion rung settled since; how its best score compares with BASE's; and the games it
settled, with their expansions and minimum. Needs duckdb (.ci/requirements.lock).
"""
import argparse
import os

import duckdb

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
RANDOM_RUNGS = ("cap1e7", "cap1e8", "cap1e8w", "cap1e9w")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rung", default="cap1e8learned")
    ap.add_argument("--base", default="cap1e8w")
    ap.add_argument("--dataset", default=os.path.join(ROOT, "science", "frontier8"))
    args = ap.parse_args()
    if not os.path.isdir(args.dataset):
        raise SystemExit(f"{args.dataset}: no such dataset directory")
    con = duckdb.connect()
    glob = os.path.join(args.dataset, "**", "*.parquet").replace("'", "''")
    con.execute(f"create view r as select * from read_parquet('{glob}', hive_partitioning = true)")
    settled_before = {
        g for (g,) in con.execute(
            "select distinct game_index from r where exhaustive and experiment in "
            f"({', '.join('?' for _ in RANDOM_RUNGS)})",
            list(RANDOM_RUNGS),
        ).fetchall()
    }
    rows = con.execute(
        """select l.game_index, l.exhaustive, l.expansions, l.score, w.score
           from r l join r w using (game_index)
           where l.experiment = ? and w.experiment = ?
           order by l.game_index""",
        [args.rung, args.base],
    ).fetchall()
    if not rows:
        raise SystemExit(f"{args.dataset}: no games of rung {args.rung} joined with {args.base}")
    open_rows = [x for x in rows if x[0] not in settled_before]
    since = [x for x in rows if x[0] in settled_before]
    print(f"rung {args.rung}: {len(rows)} games searched, joined with {args.base}")
    for name, part in (("open after every random rung", open_rows), ("settled since by a random rung", since)):
        settled = sum(1 for x in part if x[1])
        print(f"  {name}: {len(part)} games, {settled} settled")
    better = sum(1 for x in rows if x[3] < x[4])
    worse = sum(1 for x in rows if x[3] > x[4])
    print(f"  best score against {args.base}: {better} better, {worse} worse, "
          f"{len(rows) - better - worse} the same")
    print("| game | expansions | minimum | open before |")
    print("|---|---|---|---|")
    for g, exact, expansions, score, _ in rows:
        if exact:
            print(f"| {g} | {expansions:,} | {score} | {'yes' if g not in settled_before else 'no'} |")


if __name__ == "__main__":
    main()
