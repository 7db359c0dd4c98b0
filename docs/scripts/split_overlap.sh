#!/bin/bash
# Expansions of the exact standard-order search of twelve unsolvable 7x7 games of seed
# 2013, whole and by part (`hammer solve --part I/K`): the table of docs/frontier.md's
# "Why subtrees do not divide a game". Deterministic: expansions do not depend on the
# machine.
#
#   docs/scripts/split_overlap.sh HAMMER
#
# Prints one line per game: the game, then "expansions min_stones exhaustive" for the
# whole search and parts 0/2, 1/2, 0/4, 1/4, 2/4 and 3/4, separated by |.
set -euo pipefail
hammer=$1
for g in 254 1172 1528 1653 3256 3484 4996 5371 5482 5534 5771 5779; do
    line="$g"
    for p in "" "--part 0/2" "--part 1/2" "--part 0/4" "--part 1/4" "--part 2/4" "--part 3/4"; do
        # shellcheck disable=SC2086 # $p is an option and its value, or nothing
        e=$("$hammer" solve --random --n 7 --seed 2013 --index "$g" $p --json |
            python3 -c "import json, sys; v = json.load(sys.stdin); print(v['expansions'], v['min_stones'], v['exhaustive'])")
        line="$line|$e"
    done
    echo "$line"
done
