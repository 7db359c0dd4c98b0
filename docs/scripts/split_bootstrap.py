"""The intervals of docs/frontier.md's "A race of two parts".

    python3 docs/scripts/split_bootstrap.py docs/scripts/split_time_to_finish_1234.txt

The wall times are the rows' `wall_ns` of the `split_wall.sh` runs in that section's
tables (six seeds a side, whole on one worker and raced on two); the file is the output
of `split_time_to_finish.sh HAMMER 1234 40`. Seeded, so it prints the same every time.
"""

import itertools
import random
import statistics
import sys

WHOLE = {
    10: [125.2, 211.2, 431.9, 87.3, 62.9, 212.8],
    13: [20.3, 93.9, 15.5, 10.4, 21.4, 66.7],
}
RACE = {
    10: [89.4, 186.2, 37.8, 61.3, 211.4, 22.1],
    13: [74.5, 34.6, 26.8, 85.7, 5.7, 75.0],
}
N = 20_000


def interval(ratios):
    ratios.sort()
    return ratios[int(0.025 * N)], ratios[int(0.975 * N)]


def unpaired(whole, race, rng):
    """Ratio of sums, each side resampled on its own (the race is not paired)."""
    out = []
    for _ in range(N):
        w = [rng.choice(whole) for _ in whole]
        r = [rng.choice(race) for _ in race]
        out.append(sum(r) / sum(w))
    return interval(out)


def paired(num, den, rng):
    """Ratio of sums over trials resampled together."""
    out = []
    for _ in range(N):
        idx = [rng.randrange(len(den)) for _ in den]
        out.append(sum(num[i] for i in idx) / sum(den[i] for i in idx))
    return interval(out)


def lesser_of_two(values):
    pairs = list(itertools.combinations(values, 2))
    return statistics.mean(min(p) for p in pairs) / statistics.mean(values)


def main():
    rng = random.Random(1)
    for game in (10, 13):
        w, r = WHOLE[game], RACE[game]
        low, high = unpaired(w, r, rng)
        print(f"game {game}: race/whole {sum(r) / sum(w):.2f}x (95% {low:.2f} to {high:.2f}); "
              f"lesser of two whole searches predicts {lesser_of_two(w):.2f}x")
    rows = [line.strip().split("|") for line in open(sys.argv[1])]
    whole = [int(r[1].split()[0]) for r in rows]
    parts = [(int(r[2].split()[0]), int(r[3].split()[0])) for r in rows]
    lesser = [min(p) for p in parts]
    mean_part = [(a + b) / 2 for a, b in parts]
    low, high = paired(mean_part, whole, rng)
    print(f"7x7 game 1234, {len(rows)} seeds: a part alone {sum(mean_part) / sum(whole):.2f}x "
          f"(95% {low:.2f} to {high:.2f})")
    low, high = paired(lesser, whole, rng)
    print(f"  lesser of two parts {sum(lesser) / sum(whole):.2f}x (95% {low:.2f} to {high:.2f}); "
          f"lesser of two whole searches {lesser_of_two(whole):.2f}x")


if __name__ == "__main__":
    main()
