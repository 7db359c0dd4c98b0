"""DuckDB's time for the aggregates behind `hammer analyze`'s solvability and cost figures
(Figures 8 and 11 and the dataset overview), over the same Parquet files, for the side by
side measurement in docs/benchmarks.md ("Analysis at scale").

Usage: python duckdb_aggregate.py DATASET [THREADS]

Prints one line of JSON: rows, seconds, and the peak RSS of this process (MiB).
"""

import json
import resource
import sys
import time

import duckdb


def main() -> None:
    dataset = sys.argv[1]
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    files = f"read_parquet('{dataset}/experiment=*/n=*/*.parquet', hive_partitioning = true)"
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


if __name__ == "__main__":
    main()
