#!/usr/bin/env python3
"""Per-game rows of two datasets' Martello runs of the same games, as the CSV of
`hammer bench --per-game` (config, game, expansions, score, exact, ns), for
docs/scripts/paired_ratio.py.

usage: learned_7x7_paired.py BASE_DATASET TEST_DATASET [--exact-both]

Every exact or capped row of TEST_DATASET and the row of BASE_DATASET with the same size,
sweep seed, game index and trial (the same board and run seed, so the same game); the
config is `order/schedule`. A capped game counts its expansions up to the cap, a lower
bound on its cost. With --exact-both only games exact under both are kept. `ns` is each
row's wall time, measured in whatever run made the row: compare it only between rows of
one run. Needs duckdb (.ci/requirements.lock).
"""
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


def main():
    options = [a for a in sys.argv[1:] if a.startswith("--")]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    unknown = [o for o in options if o != "--exact-both"]
    if unknown or len(args) != 2:
        sys.exit(f"unknown option {unknown[0]}\n{__doc__}" if unknown else __doc__)
    base, test = args
    for dataset in args:
        if not glob.glob(os.path.join(dataset, "**", "*.parquet"), recursive=True):
            sys.exit(f"{dataset}: no Parquet files (not a hammer dataset directory?)")
    exact_both = "--exact-both" in options
    query = f"""
        with b as ({rows(base)}), t as ({rows(test)})
        select t.game_index, b.config, b.expansions, b.min_stones, b.exhaustive, b.wall_ns,
               t.config, t.expansions, t.min_stones, t.exhaustive, t.wall_ns
        from t join b using (n, seed, trial, game_index)
        {"where b.exhaustive and t.exhaustive" if exact_both else ""}
        order by t.game_index
    """
    out = csv.writer(sys.stdout)
    out.writerow(["config", "game", "expansions", "score", "exact", "ns"])
    for game, *sides in duckdb.sql(query).fetchall():
        for config, expansions, score, exact, ns in (sides[:5], sides[5:]):
            out.writerow([config, game, expansions, score, int(exact), ns])


if __name__ == "__main__":
    main()
