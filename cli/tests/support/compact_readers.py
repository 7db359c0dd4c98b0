"""Digest of every row of a hammer dataset as pyarrow, polars and DuckDB read it (and
deltalake through the Delta log, with --delta), for comparing a dataset before and after
`hammer compact`.

Usage: python compact_readers.py DATASET_DIR [--delta]

Prints one JSON object per reader: {"reader": ..., "rows": ..., "digest": ...}. The digest
is the SHA-256 of the rows (each as the JSON list of its values by column name), sorted, so
it does not depend on how the rows are cut into files or ordered, only on what they are.
"""

import hashlib
import json
import sys


def digest(columns, rows):
    order = sorted(range(len(columns)), key=lambda i: columns[i])
    lines = sorted(json.dumps([str(row[i]) for i in order]) for row in rows)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def table_digest(reader, table):
    rows = list(zip(*(table.column(c).to_pylist() for c in table.column_names)))
    return {"reader": reader, "rows": len(rows), "digest": digest(table.column_names, rows)}


def main():
    root = sys.argv[1]
    out = []
    import pyarrow.dataset as ds

    out.append(table_digest("pyarrow", ds.dataset(root, format="parquet", partitioning="hive").to_table()))
    import polars as pl

    df = pl.scan_parquet(f"{root}/**/*.parquet", hive_partitioning=True).collect()
    out.append({"reader": "polars", "rows": df.height, "digest": digest(df.columns, df.rows())})
    import duckdb

    con = duckdb.connect()
    rel = con.sql(f"SELECT * FROM read_parquet('{root}/**/*.parquet', hive_partitioning = true)")
    rows = rel.fetchall()
    out.append({"reader": "duckdb", "rows": len(rows), "digest": digest(rel.columns, rows)})
    if "--delta" in sys.argv:
        from deltalake import DeltaTable

        out.append(table_digest("deltalake", DeltaTable(root).to_pyarrow_table()))
    for line in out:
        print(json.dumps(line))


main()
