#!/bin/bash
# Wall time of one sweep on a fresh coordinator with WORKERS local workers of one thread
# each: the figure of docs/frontier.md's "One game across workers".
#
#   docs/scripts/split_wall.sh HAMMER SWEEP WORKERS DIR
#
# Prints "WORKERS workers: S s", the time from starting the workers to the coordinator's
# exit once the sweep is complete, and leaves the dataset in DIR/out.
set -euo pipefail
hammer=$1 sweep=$2 workers=$3 dir=$4
rm -rf "$dir" && mkdir -p "$dir"
port=$((20000 + RANDOM % 20000))
"$hammer" coordinator --sweep "$sweep" --out "$dir/out" --state "$dir/state" \
    --listen "127.0.0.1:$port" --linger-secs 0 > "$dir/coordinator.log" 2>&1 &
coordinator=$!
sleep 0.5
start=$(date +%s.%N)
pids=()
for w in $(seq 1 "$workers"); do
    "$hammer" worker --coordinator "http://127.0.0.1:$port" --threads 1 --name "w$w" \
        > "$dir/w$w.log" 2>&1 &
    pids+=($!)
done
wait "$coordinator"
end=$(date +%s.%N)
# Workers busy with a part nobody needs any more learn of the end at their next call.
kill "${pids[@]}" 2> /dev/null || true
wait
awk -v s="$start" -v e="$end" -v w="$workers" 'BEGIN { printf "%d workers: %.1f s\n", w, e - s }'
