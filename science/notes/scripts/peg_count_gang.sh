#!/bin/bash
# The English centre game counted by one process, then by a gang of two processes on
# this machine (loopback gRPC), each with /usr/bin/time: wall, user CPU, peak resident.
#
#     bash science/notes/scripts/peg_count_gang.sh target/release/hammer [--symmetry]
#
# Prints each run's times, and per run: classes, positions, entries owned, the most
# entries held at once, entries sent, bytes sent, seconds.
set -euo pipefail
hammer=${1:?usage: peg_count_gang.sh HAMMER [--symmetry]}
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count=("$hammer" count --puzzle peg --index 16 --json "$@")
/usr/bin/time -f "alone: wall %e s, user %U s, max resident %M KB" \
    "${count[@]}" > "$work/alone.json" 2> "$work/alone.time"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
peers="127.0.0.1:$(free_port),127.0.0.1:$(free_port)"
for rank in 0 1; do
    /usr/bin/time -f "member $rank: wall %e s, user %U s, max resident %M KB" \
        "${count[@]}" --peers "$peers" --rank "$rank" > "$work/m$rank.json" 2> "$work/m$rank.time" &
done
wait
grep -h "wall" "$work/alone.time" "$work/m0.time" "$work/m1.time"
for run in alone m0 m1; do
    python3 - "$work/$run.json" "$run" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[2], *(d[k] for k in ("classes", "states", "entries", "peak_entries", "sent", "bytes_sent")), round(d["seconds"], 1))
PY
done
