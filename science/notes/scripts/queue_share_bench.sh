#!/usr/bin/env bash
# A standing coordinator's scheduling, measured live with the real binary on loopback
# and four workers of one thread each:
#  1. fair share: sweeps "one" and "three" (weights 1 and 3, equal priority) submitted
#     together, run for SECONDS, then stopped (leased units finish); each sweep's share
#     of the worker-seconds is the sum of its rows' wall_ns (one game at a time per
#     thread, so a game's wall time is a worker-second spent on that sweep);
#  2. priority: while a long sweep keeps the workers busy, five high-priority sweeps are
#     submitted one after another; for each, the time from its submission to its first
#     lease (the coordinator's debug log), against the long sweep's median unit time.
# The `usage` half-life is set far beyond the run so that shares are of raw
# worker-seconds. Usage: queue_share_bench.sh HAMMER_BINARY WORKDIR [SECONDS]
# PYTHON must name a Python with pyarrow (default python3).
set -euo pipefail
hammer=$1
work=$2
seconds=${3:-90}
python=${PYTHON:-python3}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
port=$((20000 + RANDOM % 20000))
url=http://127.0.0.1:$port

sweep() { # name seed size games unit_games
    printf 'name = "%s"\nseed = %s\n\n[[experiment]]\nname = "e"\nsizes = [%s]\ngames = %s\nunit_games = %s\n' "$@"
}
start() { # root
    HAMMER_LOG=hammer_coordinator=debug "$hammer" coordinator --out "$1" \
        --listen 127.0.0.1:$port --half-life-secs 1000000000 > "$1.log" 2>&1 &
    coord=$!
    until "$hammer" sweeps --coordinator $url > /dev/null 2>&1; do sleep 0.1; done
    workers=()
    for i in 1 2 3 4; do
        "$hammer" worker --coordinator $url --threads 1 > "$1-worker$i.log" 2>&1 &
        workers+=($!)
    done
}
finish() { kill "$@" 2>/dev/null || true; wait "$@" 2>/dev/null || true; }
# Waits until sweep $1 is neither running nor stopping.
settled() { while "$hammer" sweeps --coordinator $url | grep -qE "^$1 +(running|stopping) "; do sleep 0.5; done; }

echo "== 1. fair share, weights 1 and 3, four worker threads, ${seconds} s"
start fair
sweep one 1 6 100000 50 > one.toml
sweep three 2 6 100000 50 > three.toml
"$hammer" submit one.toml --weight 1 --coordinator $url > /dev/null
"$hammer" submit three.toml --weight 3 --coordinator $url > /dev/null
sleep "$seconds"
"$hammer" stop one --coordinator $url > /dev/null
"$hammer" stop three --coordinator $url > /dev/null
settled one; settled three
"$hammer" sweeps --coordinator $url
finish "${workers[@]}" $coord
"$python" - fair <<'PY'
import sys, pathlib, pyarrow.dataset as ds
root = pathlib.Path(sys.argv[1])
seconds, units = {}, {}
for name in ("one", "three"):
    t = ds.dataset(root / name, format="parquet", partitioning="hive").to_table(columns=["wall_ns"])
    seconds[name] = sum(t.column("wall_ns").to_pylist()) / 1e9
    units[name] = len(list((root / name).rglob("*.parquet")))
total = sum(seconds.values())
for name in seconds:
    print(f"{name}: {seconds[name]:.1f} worker-s in {units[name]} units, share {100 * seconds[name] / total:.1f}%")
PY

echo "== 2. priority: first lease of a high-priority sweep while a long one runs"
start prio
sweep long 3 6 100000 50 > long.toml
"$hammer" submit long.toml --coordinator $url > /dev/null
sleep 15
for i in 1 2 3 4 5; do
    sweep "high$i" "$((10 + i))" 5 20 20 > high$i.toml
    "$hammer" submit high$i.toml --priority 5 --coordinator $url > /dev/null
    "$hammer" wait "high$i" --coordinator $url > /dev/null 2>&1
    sleep 3
done
"$hammer" stop long --coordinator $url > /dev/null
settled long
finish "${workers[@]}" $coord
"$python" - prio.log prio <<'PY'
import re, sys, datetime, statistics, pathlib, pyarrow.parquet as pq
stamp = lambda l: datetime.datetime.fromisoformat(l.split()[0].rstrip('Z'))
sub, first, names = {}, {}, {}
for line in open(sys.argv[1]):
    line = re.sub(r'\x1b\[[0-9;]*m', '', line)
    m = re.search(r'sweep submitted.*sweep=(\S+) seq=(\d+)', line)
    if m: sub[m.group(2)] = stamp(line); names[m.group(2)] = m.group(1)
    m = re.search(r'leased.*lease=(\d+)\.', line)
    if m and m.group(1) not in first: first[m.group(1)] = stamp(line)
# A unit of the long sweep, solved by one thread: the sum of its games' wall times.
unit_s = sorted(sum(pq.read_table(p, columns=["wall_ns"]).column("wall_ns").to_pylist()) / 1e9
                for p in (pathlib.Path(sys.argv[2]) / "long").rglob("*.parquet"))
median_unit = statistics.median(unit_s)
waits = [(first[s] - sub[s]).total_seconds() for s in sub if names[s].startswith("high")]
print(f"long sweep: {len(unit_s)} units, median unit {median_unit:.2f} s (max {unit_s[-1]:.2f})")
print("submit -> first lease of each high-priority sweep: " + ", ".join(f"{w:.2f} s" for w in waits))
print(f"worst {max(waits):.2f} s = {max(waits) / median_unit:.2f} of a median unit")
PY
