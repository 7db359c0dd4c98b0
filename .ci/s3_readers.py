"""Read a hammer dataset from an S3-compatible store and compare it with a local copy.

Usage: python s3_readers.py s3://BUCKET/PREFIX LOCAL_DIR [--delta]

The endpoint and credentials come from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID and
AWS_SECRET_ACCESS_KEY, as for any S3 client. pyarrow (`S3FileSystem`) and polars (an
`s3://` path with storage options) each read the store's copy; each must give the same
rows as pyarrow's read of the local copy, timing columns aside. Prints one JSON line per
reader, and exits 1 when any reader fails or differs. With `--delta`, the prefix's Delta
log is read too, as a versioned table: by `deltalake` (delta-rs) and `polars.read_delta`.

DuckDB is not among them: its `httpfs` extension cannot be downloaded here, and PyPI's
`duckdb-extension-httpfs` ships it only for DuckDB 1.x, older than the DuckDB the other
tests pin.
"""

import json
import os
import sys
from urllib.parse import urlparse

# Columns that differ between two runs of one sweep: when and where a game ran.
TIMING = {"wall_ns", "worker", "hammer_version"}


def key_rows(table):
    """The rows as sorted tuples of the columns that two runs share."""
    columns = sorted(c for c in table.column_names if c not in TIMING)
    table = table.select(columns)
    rows = zip(*(table.column(c).to_pylist() for c in columns))
    return columns, sorted(tuple(str(v) for v in row) for row in rows)


def read_local(root):
    import pyarrow.dataset as ds

    return ds.dataset(root, format="parquet", partitioning="hive").to_table()


def read_pyarrow(url, endpoint):
    import pyarrow.dataset as ds
    from pyarrow import fs

    parsed = urlparse(endpoint)
    s3 = fs.S3FileSystem(
        endpoint_override=parsed.netloc,
        scheme=parsed.scheme,
        access_key=os.environ["AWS_ACCESS_KEY_ID"],
        secret_key=os.environ["AWS_SECRET_ACCESS_KEY"],
        region=os.environ.get("AWS_REGION", "us-east-1"),
    )
    path = url.removeprefix("s3://")
    return ds.dataset(path, filesystem=s3, format="parquet", partitioning="hive").to_table()


def read_polars(url, endpoint):
    import polars as pl

    options = {
        "aws_endpoint_url": endpoint,
        "aws_access_key_id": os.environ["AWS_ACCESS_KEY_ID"],
        "aws_secret_access_key": os.environ["AWS_SECRET_ACCESS_KEY"],
        "aws_region": os.environ.get("AWS_REGION", "us-east-1"),
        "aws_allow_http": "true",
    }
    frame = pl.scan_parquet(
        url.rstrip("/") + "/**/*.parquet", hive_partitioning=True, storage_options=options
    ).collect()
    return frame.to_arrow()


def delta_options(endpoint):
    return {
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": os.environ["AWS_ACCESS_KEY_ID"],
        "AWS_SECRET_ACCESS_KEY": os.environ["AWS_SECRET_ACCESS_KEY"],
        "AWS_REGION": os.environ.get("AWS_REGION", "us-east-1"),
        "AWS_ALLOW_HTTP": "true",
        "AWS_S3_ALLOW_UNSAFE_RENAME": "true",
    }


def read_deltalake(url, endpoint):
    from deltalake import DeltaTable

    return DeltaTable(url, storage_options=delta_options(endpoint)).to_pyarrow_table()


def read_polars_delta(url, endpoint):
    import polars as pl

    return pl.read_delta(url, storage_options=delta_options(endpoint)).to_arrow()


def main(argv):
    url, local = argv[1], argv[2]
    endpoint = os.environ["AWS_ENDPOINT_URL"]
    want_columns, want = key_rows(read_local(local))
    failed = False
    readers = [("pyarrow", read_pyarrow), ("polars", read_polars)]
    if "--delta" in argv[3:]:
        readers += [("deltalake", read_deltalake), ("polars-delta", read_polars_delta)]
    for name, read in readers:
        try:
            columns, rows = key_rows(read(url, endpoint))
            same = columns == want_columns and rows == want
            print(json.dumps({"reader": name, "rows": len(rows), "same": same}))
            failed |= not same
        except Exception as e:  # noqa: BLE001 - every reader is tried, then the run fails
            print(json.dumps({"reader": name, "error": f"{type(e).__name__}: {e}"}))
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
