#!/bin/bash
# Side by side on one dataset, one after another: `hammer analyze` with two binaries (main's
# and this branch's, at ~/.cache/hammer/hammer-main-release and hammer-new-release), then
# DuckDB's aggregate (duckdb_aggregate.py), then whether every CSV of the two reports is
# byte-identical. Used for science/notes/benchmarks-history.md ("Analysis at scale").
#
# Usage: side_by_side.sh DATASET [PYTHON] [--paired]
# (--paired: DuckDB computes the paired figures' aggregates instead, for
# analysis/bench/paired_3m.toml's dataset)
set -u
d=$1
python=${2:-$HOME/.cache/hammer/venv/bin/python}
duckdb_mode=${3:-}
here=$(dirname "$0")
uptime
for b in main new; do
  rm -rf "r-$b"
  /usr/bin/time -v "$HOME/.cache/hammer/hammer-$b-release" analyze "$d" --out "r-$b" > "a-$b.log" 2>&1
  echo "$b: $(grep -E 'Elapsed' "a-$b.log" | awk '{print $NF}') wall," \
    "$(grep -E 'Maximum resident' "a-$b.log" | awk '{print $NF}') KiB peak," \
    "$(grep -E 'Percent of CPU' "a-$b.log" | awk '{print $NF}') CPU," \
    "$(grep -E 'User time' "a-$b.log" | awk '{print $NF}') + $(grep -E 'System time' "a-$b.log" | awk '{print $NF}') s user + sys"
  grep -E '^read ' "a-$b.log"
done
"$python" "$here/duckdb_aggregate.py" "$d" 2 $duckdb_mode
for f in r-main/*.csv; do cmp -s "$f" "r-new/$(basename "$f")" || echo "DIFF $f"; done
uptime
