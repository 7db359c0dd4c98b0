#!/usr/bin/env bash
# A real sweep through `hammer coordinator` and two `hammer worker --threads 1`, into a
# local directory and into an S3-compatible store (workers writing the parts), alternated.
# Prints one line a run: where, wall seconds.
#
#     science/notes/scripts/store_vs_local.sh HAMMER SWEEP ROUNDS
#
# Needs a store at $AWS_ENDPOINT_URL with the bucket `lab` and its credentials in the
# environment (for example `weed mini` as docs/distributed.md starts it).
set -euo pipefail
hammer="$1" sweep="$2" rounds="${3:-2}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
port=7391
one() {
    local out="$1" state="$2"
    local start end
    start=$(date +%s.%N)
    "$hammer" coordinator --sweep "$sweep" --out "$out" --state "$state" \
        --listen "127.0.0.1:$port" --linger-secs 1 > "$work/coordinator.log" 2>&1 &
    local coordinator=$!
    sleep 0.3
    for w in 1 2; do
        "$hammer" worker --coordinator "http://127.0.0.1:$port" --threads 1 \
            > "$work/worker-$w.log" 2>&1 &
    done
    wait "$coordinator"
    wait
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
for round in $(seq "$rounds"); do
    tag="$(date +%s)-$round"
    echo "local $(one "$work/local-$tag" "$work/local-state-$tag")"
    echo "s3 $(one "s3://lab/store-vs-local/$tag" "$work/s3-state-$tag")"
done
