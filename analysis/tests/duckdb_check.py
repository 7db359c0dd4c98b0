"""Independent recomputation of the analysis figures with DuckDB SQL.

Usage: python duckdb_check.py DATASET  ->  one JSON object on stdout with a list of rows per
figure. The Rust test `figures.rs` compares these with the tables of `hammer analyze`.
Written from docs/analysis.md, not from the Rust code, so that a misreading of the rows in
either shows up as a mismatch.
"""

import json
import sys

import duckdb

DIR = sys.argv[1]
con = duckdb.connect()
con.sql(
    f"""
    CREATE VIEW r AS SELECT * FROM read_parquet('{DIR}/**/*.parquet', hive_partitioning = true,
        hive_types = {{'experiment': VARCHAR, 'n': INTEGER}})
    """
)
# Schedules that always end exact (the test data uses exact, paper and plain budgets).
con.sql(
    """
    CREATE VIEW facts AS
    SELECT n, seed, game_index, min(min_stones) AS min_stones
    FROM r
    WHERE prefix = 0 AND budget = 0 AND exhaustive AND schedule IN ('exact', 'paper')
    GROUP BY ALL
    """
)
con.sql(
    """
    CREATE VIEW exact_std AS
    SELECT n, seed, game_index, any_value(expansions) AS expansions, any_value(min_stones) AS min_stones
    FROM r
    WHERE prefix = 0 AND budget = 0 AND exhaustive AND schedule = 'exact' AND "order" = 'standard'
    GROUP BY ALL
    """
)


def rows(sql):
    rel = con.sql(sql)
    cols = rel.columns
    return [dict(zip(cols, row)) for row in rel.fetchall()]


out = {}
out["fig08"] = rows(
    """
    SELECT n, count(*) AS games, count(*) FILTER (WHERE min_stones = 1) AS solvable
    FROM facts GROUP BY n ORDER BY n
    """
)
out["fig05"] = rows(
    """
    SELECT n, min_stones, count(*) AS games FROM facts WHERE min_stones > 1
    GROUP BY ALL ORDER BY ALL
    """
)
out["fig07"] = rows(
    """
    WITH starts AS (
        SELECT DISTINCT r.n, r.seed, r.game_index, r.prefix, r.trial, r.solvable
        FROM r JOIN facts f USING (n, seed, game_index)
        WHERE r.prefix >= 1 AND r.budget = 0 AND f.min_stones = 1
          AND (r.exhaustive OR r.solvable) AND r.schedule IN ('exact', 'paper')
    )
    SELECT n, prefix AS moves, count(*) AS starts, count(*) FILTER (WHERE solvable) AS still_solvable
    FROM starts GROUP BY ALL ORDER BY ALL
    """
)
out["fig11"] = rows(
    """
    SELECT n, min_stones, count(*) AS games, avg(expansions) AS mean_expansions
    FROM exact_std GROUP BY ALL ORDER BY ALL
    """
)
out["fig14"] = rows(
    """
    WITH g AS (
        SELECT r.n, r.prefix AS depth, r.budget, r.seed, r.game_index,
               count(*) AS tries, count(*) FILTER (WHERE r.solvable) AS s,
               sum(r.expansions) AS e
        FROM r JOIN facts f USING (n, seed, game_index)
        WHERE r.budget > 0 AND f.min_stones = 1
        GROUP BY ALL
    ), x AS (
        SELECT g.*, x.expansions AS exact_expansions FROM g LEFT JOIN exact_std x USING (n, seed, game_index)
    )
    SELECT n, depth, budget, count(*) AS games,
           count(*) FILTER (WHERE s > 0) AS solved_games,
           avg(e / s) FILTER (WHERE s > 0) AS expected_to_success,
           avg(CASE WHEN s > 0 THEN e / s ELSE exact_expansions END) AS expected_overall
    FROM x GROUP BY ALL ORDER BY ALL
    """
)
out["meta"] = rows(
    """
    WITH m AS (
        SELECT n, seed, game_index, "order", avg(expansions) AS paper
        FROM r WHERE schedule = 'paper' AND prefix = 0 AND budget = 0 GROUP BY ALL
    )
    SELECT n, "order", count(*) AS games, avg(paper) AS mean_paper, avg(x.expansions) AS mean_exact,
           1 - sum(paper) / sum(x.expansions) AS reduction
    FROM m JOIN exact_std x USING (n, seed, game_index) GROUP BY ALL ORDER BY ALL
    """
)
print(json.dumps(out, default=float))
