#!/usr/bin/env python3
"""The deep 7x7 proofs searched alone and by a gang of processes (docs/frontier.md).

    python3 science/notes/scripts/gang_deep7.py HAMMER --out FILE.jsonl [--gang K] [--jobs J] [--limit N]

For each game of `science/profile/deep7.jsonl` (the unsolvable 7x7 games of
science/frontier7 that end with 2 to 5 stones), runs the usual search (`hammer solve
--json --random --n 7 --seed 2013 --index I`, one thread, no memo limit; J games at a
time), then, one game at a time, a gang of K processes on loopback (`--peers ... --rank
R`). It keeps one JSON line per game in FILE (a rerun resumes) and prints the totals:
expansions of the gang against the usual search's, overall and per game, and whether
every minimum agrees.

`hammer solve --json` writes `solution` (and `prefix_moves`) as a string of
space-separated moves, as in the dataset row; builds up to commit 05eea36 wrote lists.
Usual searches resumed from a file such a build wrote are turned into today's form, so
that FILE holds one form.
"""
import argparse
import concurrent.futures
import json
import os

from gang_bench import gang, solve

HERE = os.path.dirname(os.path.abspath(__file__))
DEEP7 = os.path.join(HERE, "..", "..", "..", "science", "profile", "deep7.jsonl")


def as_today(result):
    """`result` with the move lists of an older build's JSON joined into strings."""
    for key in ("solution", "prefix_moves"):
        if isinstance(result.get(key), list):
            result[key] = " ".join(result[key])
    return result


def summary(rows):
    alone = sum(r["usual"]["expansions"] for r in rows)
    together = sum(r["gang"]["expansions"] for r in rows)
    same = sum(r["usual"]["min_stones"] == r["gang"]["min_stones"] for r in rows)
    ratios = sorted(r["gang"]["expansions"] / r["usual"]["expansions"] for r in rows)
    print(f"games: {len(rows)}; same minimum: {same}/{len(rows)}")
    print(f"expansions: usual {alone:,}, gang {together:,}, gang/usual {together / alone:.3f}")
    if ratios:
        mid = ratios[len(ratios) // 2]
        print(f"per game gang/usual: min {ratios[0]:.3f}, median {mid:.3f}, max {ratios[-1]:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hammer")
    ap.add_argument("--out", required=True)
    ap.add_argument("--gang", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2, help="usual searches at a time")
    ap.add_argument("--limit", type=int, default=None, help="only the first N games")
    a = ap.parse_args()
    with open(DEEP7) as f:
        games = [json.loads(line)["index"] for line in f if line.strip()]
    games = games[: a.limit]
    done = {}
    if os.path.exists(a.out):
        with open(a.out) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    done[row["index"]] = row
    todo = [i for i in games if i not in done]
    game = lambda i: ["--random", "--n", "7", "--seed", "2013", "--index", str(i)]
    keep = ("min_stones", "expansions", "memo_bytes", "wall_ns", "solution")
    # The usual searches are kept apart too, so that a rerun resumes either phase.
    alone_file = a.out + ".alone"
    alone = {}
    if os.path.exists(alone_file):
        with open(alone_file) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    alone[row["index"]] = as_today(row["usual"])
    missing = [i for i in todo if i not in alone]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool, open(alone_file, "a") as out:
        for index, u in zip(missing, pool.map(lambda i: solve(a.hammer, game(i), []), missing)):
            alone[index] = {key: u.get(key) for key in keep}
            out.write(json.dumps({"index": index, "usual": alone[index]}) + "\n")
            out.flush()
            print(f"game {index}: alone {u['expansions']:,}", flush=True)
    with open(a.out, "a") as out:
        for index in todo:
            u = alone[index]
            g = gang(a.hammer, game(index), a.gang)
            row = {"index": index, "gang_size": a.gang, "usual": u, "gang": g}
            out.write(json.dumps(row) + "\n")
            out.flush()
            done[index] = row
            ratio = g["expansions"] / u["expansions"]
            print(f"game {index}: min {u['min_stones']} / {g['min_stones']}, "
                  f"expansions {u['expansions']:,} / {g['expansions']:,} ({ratio:.3f})",
                  flush=True)
    summary([done[i] for i in games if i in done])


if __name__ == "__main__":
    main()
