#!/bin/bash
# Expansions to a one-stone finish of a solvable 7x7 game (seed 2013) under the random
# order with luby:256, for trials (run seeds) 0 to N-1: searched whole, and parts 0/2 and
# 1/2 each alone (`hammer solve --part`). Deterministic. docs/frontier.md, "A race of two
# parts", uses game 1234 and 40 trials.
#
#   docs/scripts/split_time_to_finish.sh HAMMER GAME N
#
# Prints one line per trial: the trial, then "expansions min_stones" whole, part 0/2 and
# part 1/2, separated by |.
set -euo pipefail
hammer=$1 game=$2 n=$3
for t in $(seq 0 $((n - 1))); do
    line="$t"
    for p in "" "--part 0/2" "--part 1/2"; do
        # shellcheck disable=SC2086 # $p is an option and its value, or nothing
        e=$("$hammer" solve --random --n 7 --seed 2013 --index "$game" --trial "$t" \
            --order random --schedule luby:256 $p --json |
            python3 -c "import json, sys; v = json.load(sys.stdin); print(v['expansions'], v['min_stones'])")
        line="$line|$e"
    done
    echo "$line"
done
