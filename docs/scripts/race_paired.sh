#!/bin/bash
# A race of two against the unsplit search, seed by seed, in expansions (deterministic):
# docs/frontier.md, "The first racer is the unsplit search". For trials FIRST to LAST of
# one game (seed 2013, random order with luby:256, 4 GiB of memo), it searches the game
# unsplit (which is racer 0 of a race, `hammer solve --part 0/2 --race`, expansion for
# expansion) and then racer 1 alone, capped at the unsplit search's expansions: the race
# of the two ends at the lesser, save for what they tell each other.
#
#   docs/scripts/race_paired.sh HAMMER N GAME FIRST LAST [JOBS]
#
# Runs JOBS trials at a time (default 2) and prints, sorted by trial, one line per trial:
# "trial whole_expansions whole_min racer1_expansions racer1_min racer1_exhaustive".
set -euo pipefail
export hammer=$1 n=$2 game=$3
first=$4 last=$5 jobs=${6:-2}

one() {
    local t=$1 common whole racer
    common=(solve --random --n "$n" --seed 2013 --index "$game" --trial "$t"
        --order random --schedule luby:256 --max-memo-mb 4096 --json)
    fields='import json, sys; v = json.load(sys.stdin); print(v["expansions"], v["min_stones"], str(v["exhaustive"]).lower())'
    whole=$("$hammer" "${common[@]}" | python3 -c "$fields")
    racer=$("$hammer" "${common[@]}" --part 1/2 --race --max-expansions "${whole%% *}" |
        python3 -c "$fields")
    echo "$t ${whole% *} $racer"
}
export -f one
seq "$first" "$last" | xargs -P "$jobs" -I{} bash -c 'one {}' | sort -n
