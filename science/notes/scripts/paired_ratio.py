#!/usr/bin/env python3
"""Paired comparison of `hammer bench --per-game` CSV files (standard library only).

usage: paired_ratio.py BASELINE FILE.csv [FILE.csv ...]

For every configuration, over the games every file has for it and for BASELINE: the
mean and median expansions, and the ratio of mean expansions to BASELINE's on the same
games with a 95% paired bootstrap interval (2,000 resamples of the games, seed 14).
"""
import csv
import random
import statistics
import sys


def load(paths):
    runs = {}
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                runs.setdefault(row["config"], {})[int(row["game"])] = (
                    int(row["expansions"]),
                    int(row["ns"]),
                )
    return runs


def main():
    baseline, paths = sys.argv[1], sys.argv[2:]
    runs = load(paths)
    base = runs[baseline]
    rng = random.Random(14)
    print("| config | games | mean expansions | median | ratio of means to " + baseline + " [95% CI] | ratio of CPU time |")
    print("|---|---|---|---|---|---|")
    for name, games in runs.items():
        keys = sorted(set(games) & set(base))
        x = [games[k][0] for k in keys]
        b = [base[k][0] for k in keys]
        ratio = sum(x) / sum(b)
        boots = []
        for _ in range(2000):
            idx = [rng.randrange(len(keys)) for _ in keys]
            boots.append(sum(x[i] for i in idx) / sum(b[i] for i in idx))
        boots.sort()
        lo, hi = boots[49], boots[1949]
        t = sum(games[k][1] for k in keys) / sum(base[k][1] for k in keys)
        print(f"| {name} | {len(keys)} | {statistics.mean(x):,.0f} | {statistics.median(x):,.0f} | {ratio:.3f} [{lo:.3f}, {hi:.3f}] | {t:.2f} |")


if __name__ == "__main__":
    main()
