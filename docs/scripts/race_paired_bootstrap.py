"""The intervals of docs/frontier.md's "The first racer is the unsplit search".

    python3 docs/scripts/race_paired_bootstrap.py docs/scripts/race_paired_g10.txt \
        docs/scripts/race_paired_g13.txt

Each file is the output of `race_paired.sh` for one game (one line per trial: trial, the
unsplit search's expansions and minimum, then racer 1's expansions, minimum and
exhaustive, racer 1 capped at the unsplit search's expansions). A race of the two ends at
the lesser of the two searches' expansions (racer 0 is the unsplit search). This prints,
per game and over all the files, the ratio of the sums, race over unsplit, with a paired
bootstrap over the trials (over all files: trials resampled within each game). Seeded, so
it prints the same every time.
"""

import random
import sys

N = 20_000


def read(path):
    """The unsplit search's and the race's expansions per trial, and racer 1's wins."""
    whole, race, racer1_won = [], [], 0
    with open(path) as lines:
        for line in lines:
            _, w, _, r, _, r_exhaustive = line.split()
            w, r = int(w), int(r)
            won = r_exhaustive == "true" and r < w
            racer1_won += won
            whole.append(w)
            race.append(r if won else w)
    return whole, race, racer1_won


def interval(games, rng):
    """95% interval of sum(race) / sum(whole), trials resampled within each game."""
    ratios = []
    for _ in range(N):
        num = den = 0
        for whole, race, _ in games:
            for _ in whole:
                i = rng.randrange(len(whole))
                num += race[i]
                den += whole[i]
        ratios.append(num / den)
    ratios.sort()
    return ratios[int(0.025 * N)], ratios[int(0.975 * N)]


def report(label, games, rng):
    whole = sum(sum(g[0]) for g in games)
    race = sum(sum(g[1]) for g in games)
    trials = sum(len(g[0]) for g in games)
    won = sum(g[2] for g in games)
    low, high = interval(games, rng)
    print(f"{label}: {trials} trials, unsplit {whole:,} expansions, race of two {race:,} "
          f"(racer 1 first in {won}): {race / whole:.3f}x (paired bootstrap 95% "
          f"{low:.3f} to {high:.3f})")


def main():
    rng = random.Random(1)
    games = [read(path) for path in sys.argv[1:]]
    for path, game in zip(sys.argv[1:], games):
        report(path, [game], rng)
    if len(games) > 1:
        report("all", games, rng)


if __name__ == "__main__":
    main()
