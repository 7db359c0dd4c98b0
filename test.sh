#!/usr/bin/env bash
# The whole test suite: Rust unit, property, conformance and end-to-end tests, with
# Python's pyarrow, polars, DuckDB and pandas reading real datasets.
#
# Python packages go into a virtual environment (default ~/.cache/hammer/venv, or
# $HAMMER_VENV), made here on first use. Build output goes to $CARGO_TARGET_DIR
# (default ~/.cache/hammer/target) so that fresh clones reuse earlier builds.
set -euo pipefail
cd "$(dirname "$0")"

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/hammer/target}"
venv="${HAMMER_VENV:-$HOME/.cache/hammer/venv}"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "== making the Python environment in $venv"
    python3 -m venv "$venv"
fi
# The pinned versions of .ci/requirements.lock; installed again whenever the lock changes.
lock_sum=$(sha256sum .ci/requirements.lock | cut -d' ' -f1)
if [[ "$(cat "$venv/.hammer-lock" 2>/dev/null)" != "$lock_sum" ]]; then
    echo "== installing Python packages (.ci/requirements.lock)"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r .ci/requirements.lock
    echo "$lock_sum" > "$venv/.hammer-lock"
fi
export HAMMER_PYTHON="$venv/bin/python"
export HAMMER_REQUIRE_PYTHON=1

# Which engine tests (Compose, Slurm, browsers...) run here and which skip, and why:
# a skipped one still reports `ok` below.
bash .ci/engines.sh

echo "== cargo test --workspace"
cargo test --workspace --no-fail-fast "$@"
