#!/usr/bin/env python3
"""Per-game rows of two datasets' Martello runs of the same games, as the CSV of
`hammer bench --per-game` (config, game, expansions, score, exact, ns), for
science/notes/scripts/paired_ratio.py.

usage: learned_7x7_paired.py BASE_DATASET TEST_DATASET [--exact-both] [--cap N]

Every exact or capped row of TEST_DATASET and the row of BASE_DATASET with the same size,
sweep seed, game index and trial (the same board and run seed, so the same game); the
config is `order/schedule`. A capped game counts its expansions up to the cap, a lower
bound on its cost. With --exact-both only games exact under both are kept. With --cap N
every row is read as a run capped at N expansions would have made it: a row that took N
or more is capped, at N (a cap only stops the same search, so a row exact below N is the
row of the capped run); a TEST_DATASET with several configurations gives each its pairs
with the base, whose rows are written once. `ns` is each
row's wall time, measured in whatever run made the row: compare it only between rows of
one run. Needs duckdb (.ci/requirements.lock).
"""
import argparse
import csv
import glob
import os
import sys

import duckdb


def rows(dataset):
    files = os.path.join(dataset, "**", "*.parquet").replace("'", "''")
    return (
        f"select n, seed, trial, game_index, \"order\" || '/' || schedule as config, "
        f"expansions, min_stones, exhaustive, wall_ns "
        f"from read_parquet('{files}', hive_partitioning = true) "
        f"where puzzle = 'martello'"
    )


def positive(text):
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(f"wants a positive number of expansions, not {text!r}")
    return int(text)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        usage="learned_7x7_paired.py BASE_DATASET TEST_DATASET [--exact-both] [--cap N]",
    )
    parser.add_argument("base")
    parser.add_argument("test")
    parser.add_argument("--exact-both", action="store_true")
    parser.add_argument("--cap", type=positive)
    opts = parser.parse_args()
    cap, args = opts.cap, [opts.base, opts.test]
    base, test = args
    for dataset in args:
        if not glob.glob(os.path.join(dataset, "**", "*.parquet"), recursive=True):
            sys.exit(f"{dataset}: no Parquet files (not a hammer dataset directory?)")
    exact_both = opts.exact_both
    if cap is None:
        capped = "select * from {}"
    else:
        capped = (f"select * replace (least(expansions, {cap}) as expansions, "
                  f"exhaustive and expansions < {cap} as exhaustive) from {{}}")
    query = f"""
        with b as ({capped.format(f"({rows(base)})")}),
             t as ({capped.format(f"({rows(test)})")})
        select t.game_index, b.config, b.expansions, b.min_stones, b.exhaustive, b.wall_ns,
               t.config, t.expansions, t.min_stones, t.exhaustive, t.wall_ns
        from t join b using (n, seed, trial, game_index)
        {"where b.exhaustive and t.exhaustive" if exact_both else ""}
        order by t.game_index, t.config
    """
    out = csv.writer(sys.stdout)
    out.writerow(["config", "game", "expansions", "score", "exact", "ns"])
    written = set()
    for game, *sides in duckdb.sql(query).fetchall():
        for config, expansions, score, exact, ns in (sides[:5], sides[5:]):
            if (config, game) not in written:
                written.add((config, game))
                out.writerow([config, game, expansions, score, int(exact), ns])


if __name__ == "__main__":
    main()
