"""Read a hammer result dataset with pyarrow, polars, DuckDB and pandas.

Usage: python python_readers.py DATASET_DIR

Prints one JSON object per reader on its own line:
  {"reader": ..., "rows": ..., "columns": [sorted names], "sum_expansions": ...,
   "n_values": [sorted distinct n], "experiments": [sorted distinct experiment],
   "types": {"experiment": ..., "n": ...}, "puzzles": {puzzle: rows}}
A reader that fails prints {"reader": ..., "error": "..."} instead, and the script exits 1
after trying all readers, so one run shows every incompatibility at once.

The calls are the plain, default ones a person would type (no explicit schema), because the
point is that the dataset reads "as it is" in each tool. The hammer-dataset crate's test
runs this script and compares the four summaries with what it wrote.
"""

import json
import sys
import traceback
from pathlib import Path


def counts(values):
    out = {}
    for v in values:
        out[str(v)] = out.get(str(v), 0) + 1
    return out


def summary(reader, columns, rows, sum_expansions, n_values, experiments, types, puzzles):
    return {
        "reader": reader,
        "rows": int(rows),
        "columns": sorted(str(c) for c in columns),
        "sum_expansions": int(sum_expansions),
        "n_values": sorted({int(v) for v in n_values}),
        "experiments": sorted({str(v) for v in experiments}),
        # How this reader typed the partition columns; informative only, since the
        # readers infer different types from the directory names.
        "types": {k: str(v) for k, v in types.items()},
        # Rows per puzzle family: every family's rows read as they are in one table.
        "puzzles": counts(puzzles),
    }


def read_pyarrow(root):
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    table = ds.dataset(root, format="parquet", partitioning="hive").to_table()
    return summary(
        "pyarrow",
        table.column_names,
        table.num_rows,
        pc.sum(table["expansions"]).as_py() or 0,
        table["n"].to_pylist(),
        table["experiment"].to_pylist(),
        {c: table.schema.field(c).type for c in ("experiment", "n")},
        table["puzzle"].to_pylist(),
    )


def read_polars(root):
    import polars as pl

    df = pl.scan_parquet(f"{root}/**/*.parquet", hive_partitioning=True).collect()
    return summary(
        "polars",
        df.columns,
        df.height,
        df["expansions"].sum() or 0,
        df["n"].to_list(),
        df["experiment"].to_list(),
        {c: df.schema[c] for c in ("experiment", "n")},
        df["puzzle"].to_list(),
    )


def read_duckdb(root):
    import duckdb

    con = duckdb.connect()
    rel = con.sql(
        f"SELECT * FROM read_parquet('{root}/**/*.parquet', hive_partitioning = true)"
    )
    columns = rel.columns
    [(rows, sum_expansions)] = con.sql(
        "SELECT count(*), coalesce(sum(expansions), 0) FROM rel"
    ).fetchall()
    n_values = [r[0] for r in con.sql("SELECT DISTINCT n FROM rel").fetchall()]
    experiments = [
        r[0] for r in con.sql("SELECT DISTINCT experiment FROM rel").fetchall()
    ]
    types = dict(zip(rel.columns, rel.types))
    types = {c: types[c] for c in ("experiment", "n")}
    puzzles = [r[0] for r in con.sql("SELECT puzzle FROM rel").fetchall()]
    return summary(
        "duckdb", columns, rows, sum_expansions, n_values, experiments, types, puzzles
    )


def read_pandas(root):
    import pandas as pd

    df = pd.read_parquet(root)
    return summary(
        "pandas",
        df.columns,
        len(df),
        df["expansions"].sum(),
        df["n"].astype("int64").tolist(),
        df["experiment"].astype(str).tolist(),
        {c: df[c].dtype for c in ("experiment", "n")},
        df["puzzle"].astype(str).tolist(),
    )


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = Path(sys.argv[1]).resolve().as_posix()
    ok = True
    for reader in (read_pyarrow, read_polars, read_duckdb, read_pandas):
        name = reader.__name__.removeprefix("read_")
        try:
            result = reader(root)
        except Exception as exc:  # report every reader, not just the first failure
            ok = False
            traceback.print_exc()
            result = {"reader": name, "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(result), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
