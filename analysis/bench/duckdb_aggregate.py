"""DuckDB's time for the aggregates behind `hammer analyze`'s solvability and cost figures
(Figures 8 and 11 and the dataset overview), over the same Parquet files, for the side by
side measurement in science/notes/benchmarks-history.md ("Analysis at scale").

Usage: python duckdb_aggregate.py DATASET [THREADS] [--paired]

With --paired it computes instead the aggregates of the figures that pair games (Figure
14's per-cell share of solvable games solved by at least one try, Figure 13's per-game
mean over runs for each order on the games every order solved, the meta-solver's paired
means), for the side by side on `analysis/bench/paired_3m.toml`.

Prints one line of JSON: rows, seconds, and the peak RSS of this process (MiB).
"""

import json
import resource
import sys
import time

import duckdb


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--paired"]
    dataset = args[0]
    threads = int(args[1]) if len(args) > 1 else 2
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    files = f"read_parquet('{dataset}/experiment=*/n=*/*.parquet', hive_partitioning = true)"
    if "--paired" in sys.argv:
        paired(con, files)
        return
    started = time.perf_counter()
    overview = con.execute(
        f"""SELECT experiment, n, count(*) AS rows, count(DISTINCT config) AS configs,
                   count(DISTINCT game_index) AS games, sum(exhaustive::INT) AS exhaustive
            FROM {files} GROUP BY experiment, n ORDER BY experiment, n"""
    ).fetchall()
    # One exact result per game (first read), as Figure 8 counts it.
    fig08 = con.execute(
        f"""WITH facts AS (
                SELECT n, seed, game_index, any_value(min_stones) AS min_stones
                FROM {files}
                WHERE prefix = 0 AND budget = 0 AND exhaustive AND schedule_complete
                GROUP BY n, seed, game_index)
            SELECT n, count(*) AS games, sum((min_stones = 1)::INT) AS solvable
            FROM facts GROUP BY n ORDER BY n"""
    ).fetchall()
    fig11 = con.execute(
        f"""WITH std AS (
                SELECT n, seed, game_index, any_value(expansions) AS expansions,
                       any_value(min_stones) AS min_stones
                FROM {files}
                WHERE prefix = 0 AND budget = 0 AND exhaustive AND schedule = 'exact'
                      AND "order" = 'standard'
                GROUP BY n, seed, game_index)
            SELECT n, min_stones, count(*), avg(expansions), stddev_samp(expansions),
                   quantile_disc(expansions, 0.5), max(expansions)
            FROM std GROUP BY n, min_stones ORDER BY n, min_stones"""
    ).fetchall()
    seconds = time.perf_counter() - started
    rows = sum(r[2] for r in overview)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "rows": rows,
                "seconds": round(seconds, 3),
                "rows_per_second": round(rows / seconds),
                "peak_rss_mib": round(peak),
                "fig08": [list(r) for r in fig08],
            }
        )
    )


def paired(con, files: str) -> None:
    started = time.perf_counter()
    facts = f"""facts AS (
        SELECT n, seed, game_index, any_value(min_stones) AS min_stones FROM {files}
        WHERE prefix = 0 AND budget = 0 AND exhaustive AND schedule_complete
        GROUP BY n, seed, game_index)"""
    fig14 = con.execute(
        f"""WITH {facts},
            per_game AS (
                SELECT b.n, b."order", b.prefix, b.budget, b.seed, b.game_index,
                       max(b.solvable::INT) AS solved
                FROM {files} b JOIN facts f USING (n, seed, game_index)
                WHERE b.budget > 0 AND f.min_stones = 1
                GROUP BY ALL)
            SELECT n, "order", prefix, budget, count(*) AS games, sum(solved) AS solved
            FROM per_game GROUP BY ALL ORDER BY ALL"""
    ).fetchall()
    fig13 = con.execute(
        f"""WITH runs AS (
                SELECT n, "order", seed, game_index, avg(expansions) AS mean_exp,
                       min(expansions) AS min_exp
                FROM {files}
                WHERE schedule = 'exact' AND prefix = 0 AND budget = 0 AND exhaustive
                      AND solvable
                GROUP BY ALL),
            orders AS (SELECT n, count(DISTINCT "order") AS k FROM runs GROUP BY n),
            common AS (
                SELECT r.n, r.seed, r.game_index FROM runs r JOIN orders o USING (n)
                GROUP BY r.n, r.seed, r.game_index, o.k HAVING count(*) = o.k)
            SELECT r.n, r."order", count(*), avg(r.mean_exp), avg(r.min_exp)
            FROM runs r JOIN common c USING (n, seed, game_index)
            GROUP BY ALL ORDER BY ALL"""
    ).fetchall()
    meta = con.execute(
        f"""WITH m AS (
                SELECT n, "order", seed, game_index, avg(expansions) AS exp
                FROM {files} WHERE schedule = 'paper' AND prefix = 0 AND budget = 0
                GROUP BY ALL),
            s AS (
                SELECT n, seed, game_index, any_value(expansions) AS exp FROM {files}
                WHERE schedule = 'exact' AND "order" = 'standard' AND prefix = 0
                      AND budget = 0 AND exhaustive
                GROUP BY ALL)
            SELECT m.n, m."order", count(*), avg(m.exp), avg(s.exp)
            FROM m JOIN s USING (n, seed, game_index) GROUP BY ALL ORDER BY ALL"""
    ).fetchall()
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "seconds": round(seconds, 3),
                "peak_rss_mib": round(peak),
                "fig14_cells": len(fig14),
                "fig13": [list(r) for r in fig13],
                "meta": [list(r) for r in meta],
            }
        )
    )


if __name__ == "__main__":
    main()
