#!/bin/bash
# The English centre game counted four ways on this machine, one thread per process:
# hammer count alone, hammer count as a gang of two processes (tonic streams on
# loopback), and science/notes/scripts/timely-count as one process and as two
# (timely-dataflow's TCP mesh on loopback). Each run under /usr/bin/time: wall, user CPU, peak resident.
#
#     cargo build --release -p hammer
#     (cd science/notes/scripts/timely-count && cargo build --release)
#     bash science/notes/scripts/timely_vs_tonic.sh target/release/hammer \
#         science/notes/scripts/timely-count/target/release/timely-count [--symmetry] [ROUNDS]
#
# ROUNDS (default 1) repeats the four runs in turn, so that the pairs share the
# machine's state. Prints one line per run: what, wall, user, peak resident, classes,
# positions, entries sent.
set -euo pipefail
hammer=${1:?usage: timely_vs_tonic.sh HAMMER TIMELY_COUNT [--symmetry] [ROUNDS]}
timely=${2:?usage: timely_vs_tonic.sh HAMMER TIMELY_COUNT [--symmetry] [ROUNDS]}
shift 2
symmetry=()
if [[ ${1:-} == --symmetry ]]; then
    symmetry=(--symmetry)
    shift
fi
rounds=${1:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
timed() { # NAME COMMAND...: runs COMMAND with its output in $work/NAME.out
    local name=$1
    shift
    /usr/bin/time -f "%e %U %M" -o "$work/$name.time" "$@" > "$work/$name.out"
}
report() { # WHAT NAME...: one line for the processes NAME... run together
    python3 - "$work" "$@" <<'PY'
import json, sys
work, what, names = sys.argv[1], sys.argv[2], sys.argv[3:]
wall = user = rss = 0.0
classes = states = sent = 0
for name in names:
    w, u, m = open(f"{work}/{name}.time").read().split()
    wall, user, rss = max(wall, float(w)), user + float(u), max(rss, int(m) / 1e6)
    # timely prints its connection attempts on stdout too; the counts are the JSON lines.
    for line in filter(lambda l: l.startswith("{"), open(f"{work}/{name}.out")):
        d = json.loads(line)
        classes += d["classes"]
        states += d["states"]
        sent += d.get("sent") or 0
print(f"{what:<18} wall {wall:7.1f} s  user {user:7.1f} s  peak {rss:5.2f} GB  "
      f"classes {classes:,}  positions {states:,}  sent {sent:,}")
PY
}
count=("$hammer" count --puzzle peg --index 16 --json "${symmetry[@]}")
for round in $(seq "$rounds"); do
    echo "round $round"
    timed hammer1 "${count[@]}"
    # A gang member reports the whole gang's counts: take member 0's.
    peers="127.0.0.1:$(free_port),127.0.0.1:$(free_port)"
    timed hammer2a "${count[@]}" --peers "$peers" --rank 0 &
    timed hammer2b "${count[@]}" --peers "$peers" --rank 1 &
    wait
    python3 - "$work/hammer2b.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
json.dump({"classes": 0, "states": 0, "sent": d["sent"]}, open(sys.argv[1], "w"))
PY
    timed timely1 "$timely" "${symmetry[@]}" -w 1
    printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$(free_port)" "$(free_port)" > "$work/hosts"
    timed timely2a "$timely" "${symmetry[@]}" -w 1 -n 2 -p 0 -h "$work/hosts" &
    timed timely2b "$timely" "${symmetry[@]}" -w 1 -n 2 -p 1 -h "$work/hosts" &
    wait
    report "hammer alone" hammer1
    report "hammer, 2 (tonic)" hammer2a hammer2b
    report "timely, 1" timely1
    report "timely, 2" timely2a timely2b
done
