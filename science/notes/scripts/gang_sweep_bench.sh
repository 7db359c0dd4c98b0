#!/usr/bin/env bash
# One sweep of hard games, timed as a whole: searched alone by one worker of one thread,
# then by gangs of K such workers (gang = K), on this machine.
#
#   bash science/notes/scripts/gang_sweep_bench.sh HAMMER K SIZE GAME [GAME...]
#
# HAMMER is the binary (target/release/hammer); every GAME is an index of seed 2013 at
# SIZE. Prints per run the wall time of the whole sweep (coordinator start to exit) and
# the coordinator's closing summary, a line per game with its expansions.
set -euo pipefail
hammer=$1 k=$2 size=$3
shift 3
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"' EXIT

sweep() { # $1: extra keys per experiment
    printf 'name = "gang-bench"\nseed = 2013\n'
    for game in "${games[@]}"; do
        printf '\n[[experiment]]\nname = "g%s"\nsizes = [%s]\nfirst_game = %s\ngames = 1\n%b' \
            "$game" "$size" "$game" "$1"
    done
}
games=("$@")

run() { # $1: name, $2: extra keys, $3: workers, $4: peer flag (yes/no)
    local name=$1 keys=$2 workers=$3 peers=$4
    local port=$((20000 + RANDOM % 20000))
    sweep "$keys" > "$dir/$name.toml"
    local start=$(date +%s.%N)
    "$hammer" coordinator --sweep "$dir/$name.toml" --out "$dir/$name" \
        --listen "127.0.0.1:$port" --linger-secs 1 > "$dir/$name.coord.log" 2>&1 &
    local coord=$!
    sleep 0.3
    local pids=()
    for i in $(seq "$workers"); do
        local flags=(--threads 1)
        if [[ $peers == yes ]]; then
            flags+=(--peer-listen "127.0.0.1:$((port + i))")
        fi
        "$hammer" worker --coordinator "http://127.0.0.1:$port" "${flags[@]}" \
            > "$dir/$name.w$i.log" 2>&1 &
        pids+=($!)
    done
    wait "${pids[@]}" "$coord"
    local end=$(date +%s.%N)
    printf '%-8s wall %.2f s\n' "$name" "$(echo "$end - $start" | bc)"
    # The coordinator's last summary: one line per game, with its mean expansions.
    tac "$dir/$name.coord.log" | awk '/^experiment/ {print; exit} {print}' | tac
}

run alone "" 1 no
run "gang$k" "gang = $k\n" "$k" yes
