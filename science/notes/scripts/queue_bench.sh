#!/usr/bin/env bash
# A standing coordinator's costs, measured with the real binary on loopback:
#  1. latency from `hammer submit` returning to the sweep's first lease on an idle
#     cluster (one worker waiting), 20 submissions, from the coordinator's log;
#  2. 100 sweeps of 100 games through one standing cluster against one sweep of 10,000
#     games (the seeds' games differ; same sizes and solver), wall time from the
#     worker's start (the sweeps already queued) to the last completion: the one sweep
#     both through a standing cluster and with `hammer run`;
#  3. 1,000 small sweeps submitted at once with no worker: the coordinator's RSS
#     before and after, and how long `hammer sweeps` takes then.
# Usage: queue_bench.sh HAMMER_BINARY WORKDIR
set -euo pipefail
hammer=$1
work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"
port=$((20000 + RANDOM % 20000))
url=http://127.0.0.1:$port

sweep() { # name seed games
    printf 'name = "%s"\nseed = %s\n\n[[experiment]]\nname = "e"\nsizes = [5]\ngames = %s\nunit_games = 100\n' "$1" "$2" "$3"
}
start_coordinator() { # root
    HAMMER_LOG=hammer_coordinator=debug "$hammer" coordinator --out "$1" --listen 127.0.0.1:$port \
        > "$1.log" 2>&1 &
    coord=$!
    until "$hammer" sweeps --coordinator $url > /dev/null 2>&1; do sleep 0.1; done
}
stop() { kill "$@" 2>/dev/null || true; wait "$@" 2>/dev/null || true; }

echo "== 1. latency, submit to first lease"
start_coordinator lat
"$hammer" worker --coordinator $url --threads 1 > lat-worker.log 2>&1 &
worker=$!
sleep 2
for i in $(seq 1 20); do
    sweep "lat$i" "$i" 100 > lat$i.toml
    "$hammer" submit lat$i.toml --coordinator $url > /dev/null
    "$hammer" wait lat$i --coordinator $url > /dev/null 2>&1
done
stop $worker $coord
python3 - lat.log <<'PY'
import re, sys, datetime, statistics
sub, first = {}, {}
stamp = lambda l: datetime.datetime.fromisoformat(l.split()[0].rstrip('Z').replace('Z', ''))
for line in open(sys.argv[1]):
    line = re.sub(r'\x1b\[[0-9;]*m', '', line)
    m = re.search(r'sweep submitted.*sweep=(\S+) seq=(\d+)', line)
    if m: sub[m.group(2)] = stamp(line)
    m = re.search(r'leased.*lease=(\d+)\.', line)
    if m and m.group(1) not in first: first[m.group(1)] = stamp(line)
ms = sorted((first[s] - sub[s]).total_seconds() * 1e3 for s in sub if s in first)
print(f"submissions {len(ms)}; submit -> first lease: median {statistics.median(ms):.1f} ms, min {ms[0]:.1f}, max {ms[-1]:.1f}")
PY

echo "== 2. 100 sweeps of 100 games against one sweep of 10,000"
# The sweeps are queued before the worker starts, so the clock runs from the worker's
# start to the queue's last completion: the cluster's work, not the clients' start-up.
complete() { # how many sweeps `hammer sweeps` lists as complete
    "$hammer" sweeps --coordinator $url | grep -c ' complete ' || true
}
through_cluster() { # root count files...
    local root=$1 count=$2; shift 2
    start_coordinator "$root"
    for f in "$@"; do "$hammer" submit "$f" --coordinator $url > /dev/null; done
    local t0=$(date +%s.%N)
    "$hammer" worker --coordinator $url --threads 2 > "$root-worker.log" 2>&1 &
    worker=$!
    until [[ $(complete) -ge $count ]]; do sleep 0.01; done
    local t1=$(date +%s.%N)
    stop $worker $coord
    python3 -c "print($t1 - $t0)"
}
for i in $(seq 1 100); do sweep "m$i" "$i" 100 > m$i.toml; done
sweep one 7 10000 > one.toml
many=$(through_cluster many 100 m*.toml)
single=$(through_cluster single 1 one.toml)
t2=$(date +%s.%N)
"$hammer" run one.toml --out one --threads 2 > /dev/null 2>&1
t3=$(date +%s.%N)
python3 -c "a=$many; c=$single; b=$t3-$t2; print(f'100 sweeps x 100 games: {a:.2f} s; one sweep of 10,000 through the cluster: {c:.2f} s (ratio {a/c:.2f}); with hammer run: {b:.2f} s (ratio {a/b:.2f})')"

echo "== 3. 1,000 sweeps queued at once, no worker"
start_coordinator thousand
# Waits for the submitting clients, not for the coordinator.
wait_clients() { for job in $(jobs -p); do [[ $job == "$coord" ]] || wait "$job" || true; done; }
rss() { awk '/VmRSS/ {print $2}' /proc/$coord/status; }
before=$(rss)
for i in $(seq 1 1000); do sweep "t$i" "$i" 100 > t$i.toml; done
t0=$(date +%s.%N)
for i in $(seq 1 1000); do "$hammer" submit t$i.toml --coordinator $url > /dev/null &
    if (( i % 50 == 0 )); then wait_clients; fi
done
wait_clients
t1=$(date +%s.%N)
after=$(rss)
t2=$(date +%s.%N)
lines=$("$hammer" sweeps --coordinator $url | grep -c ' queued ')
t3=$(date +%s.%N)
stop $coord
python3 -c "print(f'1,000 submissions in {$t1-$t0:.1f} s; queued: $lines; RSS {$before/1024:.1f} MiB -> {$after/1024:.1f} MiB, {($after-$before)/1000:.1f} KiB a sweep; hammer sweeps answered in {$t3-$t2:.2f} s')"
