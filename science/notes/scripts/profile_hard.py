#!/usr/bin/env python3
"""Profile the search on the hard Martello games of the frontier runs (docs/search.md).

    python3 science/notes/scripts/profile_hard.py --hammer target/release/hammer \\
        --set deep7 --set unsolvable8 --set open8:20 --jobs 2 --out profile.jsonl

Sets of games, read from the committed datasets:
  deep7         the unsolvable 7x7 games of science/frontier7 that end with 2 to 5 stones
                (the deep proofs)
  unsolvable8   the unsolvable 8x8 games of science/frontier8 (exact in any rung)
  open8:K       K of the 8x8 games still open after every rung of the frontier's own
                configuration (the first K by index),
                searched up to --cap expansions

Each game is searched again by `hammer solve --random --profile --json` under the frontier's
configuration (sweep seed 2013, random/luby:256, the memo limit of the rung that settled
it: 1,024 MiB for 7x7 and the 10-million 8x8 rung, 2,048 for the 100-million rungs, 4,096
for the billion), so that an exact game takes the expansions its dataset row records; the
script checks that it does. Open games are searched under 2,048 MiB. It writes
each game's JSON to --out (one line each; a rerun skips the games already there, so an
interrupted profile resumes) and prints Markdown tables: per set, per stone count, and
per game. Needs pyarrow (the project's .ci/requirements.lock).

--compare BASE.jsonl prints, per set, the games' expansions and times against those of the
same games in BASE (paired, with 95% bootstrap intervals of the ratio of totals). Run the
two profiles side by side (one job each) so that both see the same machine, such as two
builds:

    python3 science/notes/scripts/profile_hard.py --hammer OLD --set deep7 --max-recorded 4000000 \
        --jobs 1 --out base.jsonl &
    python3 science/notes/scripts/profile_hard.py --hammer NEW --set deep7 --max-recorded 4000000 \
        --jobs 1 --out new.jsonl --compare base.jsonl

The frozen-stone bound's variant (`--strong-bound`, science/profile/strong-bound/) is
gone with the bound: its numbers in the notes came from an older build, and the option
last existed at commit 05eea36 (where this script is docs/scripts/profile_hard.py).
"""

import argparse
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pyarrow.dataset as ds

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
SEED = 2013
ORDER, SCHEDULE = "random", "luby:256"
# The memo limit of each rung of the frontier runs (science/frontier7.toml,
# science/frontier8.toml, science/frontier8_more*.toml): a game is searched again under
# its own rung's limit, since a smaller memo forgets states and changes the expansions.
MEMO_MB = {"cap1e7": 1024, "cap1e8": 2048, "cap1e8w": 2048, "cap1e9w": 4096}
DEEP7_MEMO_MB = 1024
OPEN8_MEMO_MB = 2048


def rows(path):
    """The dataset's rows as dicts, with the columns the sets need."""
    cols = ["experiment", "game_index", "score", "exhaustive", "expansions", "lower_bound", "n"]
    table = ds.dataset(path, format="parquet", partitioning="hive").to_table(columns=cols)
    return table.to_pylist()


def games_of(spec, cap):
    """(set name, [(n, index, dataset expansions or None, cap, memo MiB)]) for a --set
    argument."""
    name, _, count = spec.partition(":")
    if name == "deep7":
        rs = rows(os.path.join(ROOT, "science", "frontier7"))
        picked = [r for r in rs if r["exhaustive"] and 2 <= r["score"] <= 5]
        return name, [(7, r["game_index"], r["expansions"], None, DEEP7_MEMO_MB, r["score"])
                      for r in sorted(picked, key=key)]
    # The rungs of the frontier's own configuration (random/luby:256) only: a game another
    # order settled (rung cap1e8learned) is still open to this configuration.
    rs = [r for r in rows(os.path.join(ROOT, "science", "frontier8"))
          if r["experiment"] in MEMO_MB]
    # A game exact in two rungs is searched as the unsplit rung searched it: rung cap1e8
    # split each game in two parts, whose expansions add up differently.
    rs.sort(key=lambda r: r["experiment"] != "cap1e8")
    exact = {r["game_index"]: r for r in rs if r["exhaustive"]}
    if name == "unsolvable8":
        picked = [r for r in exact.values() if r["score"] >= 2]
        return name, [(8, r["game_index"], r["expansions"], None, MEMO_MB[r["experiment"]],
                       r["score"])
                      for r in sorted(picked, key=key)]
    if name == "open8":
        open_games = sorted({r["game_index"] for r in rs} - set(exact))
        k = int(count) if count else len(open_games)
        return name, [(8, i, None, cap, OPEN8_MEMO_MB, None) for i in open_games[:k]]
    sys.exit(f"--set {spec}: unknown set (deep7, unsolvable8, open8:K)")


def key(r):
    return r["game_index"]


def solve(hammer, n, index, cap, memo_mb):
    cmd = [hammer, "solve", "--random", "--n", str(n), "--index", str(index), "--seed", str(SEED),
           "--order", ORDER, "--schedule", SCHEDULE, "--max-memo-mb", str(memo_mb),
           "--profile", "--json"]
    if cap:
        cmd += ["--max-expansions", str(cap)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def read_done(path):
    """The games already in `path`. A last line without its newline is what a killed run
    left half-written: it is cut off, so that the run resumes from the games before it."""
    done = {}
    if not os.path.exists(path):
        return done
    with open(path, "rb") as f:
        data = f.read()
    complete = data[:data.rfind(b"\n") + 1]
    if len(complete) < len(data):
        print(f"{path}: dropping a half-written last line", file=sys.stderr)
        with open(path, "r+b") as f:
            f.truncate(len(complete))
    for number, line in enumerate(complete.decode().splitlines(), 1):
        try:
            r = json.loads(line)
        except json.JSONDecodeError as e:
            sys.exit(f"{path}, line {number}: not a JSON object ({e})")
        done[(r["set"], r["n"], r["index"])] = r
    return done


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hammer", default="hammer", help="the hammer binary (a release build)")
    ap.add_argument("--set", action="append", required=True, dest="sets")
    ap.add_argument("--cap", type=int, default=100_000_000, help="expansions of an open game")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", required=True, help="JSON lines, one per game (resumable)")
    ap.add_argument("--per-game", action="store_true", help="also print a row per game")
    ap.add_argument("--bands", help="group stone counts into bands with these lower ends, "
                    "such as 40,30,25,20,15,10,0")
    ap.add_argument("--split-at", type=int, help="report the games whose minimum is above "
                    "this many stones (stuck boards) as a set of their own, SET-above-K")
    ap.add_argument("--max-recorded", type=int,
                    help="only the games whose dataset row took at most this many expansions")
    ap.add_argument("--compare", help="a profile of the same games to compare with (paired)")
    args = ap.parse_args()

    done = read_done(args.out)
    todo = []
    wanted = set()
    for spec in args.sets:
        name, games = games_of(spec, args.cap)
        if args.max_recorded is not None:
            games = [g for g in games if g[2] is not None and g[2] <= args.max_recorded]
        wanted.update((name, g[0], g[1]) for g in games)
        todo += [(name, g) for g in games if (name, g[0], g[1]) not in done]

    def run(item):
        name, (n, index, recorded, cap, memo_mb, score) = item
        v = solve(args.hammer, n, index, cap, memo_mb)
        if v["exhaustive"] and score is not None and v["score"] != score:
            sys.exit(f"{name} game {index}: minimum {v['score']}, the dataset says {score}")
        return {"set": name, "n": n, "index": index, "recorded": recorded, "score": score,
                "cap": cap, "result": v}

    with open(args.out, "a") as out, ThreadPoolExecutor(args.jobs) as pool:
        for r in pool.map(run, todo):
            out.write(json.dumps(r) + "\n")
            out.flush()
            done[(r["set"], r["n"], r["index"])] = r
            print(f"{r['set']} n={r['n']} game {r['index']}: {r['result']['expansions']} expansions",
                  file=sys.stderr)
    names = {s.partition(":")[0] for s in args.sets}
    bands = [int(b) for b in args.bands.split(",")] if args.bands else None
    results = [dict(r) for r in done.values() if (r["set"], r["n"], r["index"]) in wanted]
    unsplit = [dict(r) for r in results]
    if args.split_at is not None:
        for r in results:
            if r["result"]["score"] > args.split_at:
                r["set"] = f"{r['set']}-above-{args.split_at}"
    report(results, args.per_game, bands)
    if args.compare:
        compare(unsplit, args.compare)


def compare(results, base_path):
    """Per set: total expansions and search time against the same games of `base_path`,
    as ratios of totals with 95% bootstrap intervals over games."""
    with open(base_path) as f:
        base = {(r["set"], r["n"], r["index"]): r["result"] for r in map(json.loads, f)}
    print("\n| set | games | expansions | against base | 95% | time (s) | against base | 95% | "
          "same minimum |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in sorted({r["set"] for r in results}):
        pairs = [(r["result"], base[(r["set"], r["n"], r["index"])]) for r in results
                 if r["set"] == s and (r["set"], r["n"], r["index"]) in base]
        if not pairs:
            continue
        same = sum(a["score"] == b["score"] for a, b in pairs)
        cells = []
        for key in ("expansions", "wall_ns"):
            xs = [(a[key], b[key]) for a, b in pairs]
            ratio = sum(x for x, _ in xs) / sum(y for _, y in xs)
            rng = random.Random(2013)
            boots = sorted(
                sum(x for x, _ in sample) / sum(y for _, y in sample)
                for sample in ([rng.choice(xs) for _ in xs] for _ in range(2000)))
            total = sum(x for x, _ in xs) / (1e9 if key == "wall_ns" else 1)
            cells.append(f"{total:,.0f} | {ratio:.2f}x | {boots[50]:.2f} to {boots[1949]:.2f}"
                         if key == "expansions" else
                         f"{total:,.1f} | {ratio:.2f}x | {boots[50]:.2f} to {boots[1949]:.2f}")
        print(f"| {s} | {len(pairs)} | {cells[0]} | {cells[1]} | {same}/{len(pairs)} |")


def report(results, with_games, bands=None):
    sets = sorted({r["set"] for r in results})
    print("| set | games | exact | expansions (total) | median | max | memo evictions | replays match |")
    print("|---|---|---|---|---|---|---|---|")
    for s in sets:
        rs = [r for r in results if r["set"] == s]
        ex = sorted(r["result"]["expansions"] for r in rs)
        exact = sum(r["result"]["exhaustive"] for r in rs)
        ev = sum(r["result"]["profile"]["memo_evictions"] for r in rs)
        checked = [r for r in rs if r["recorded"] is not None]
        match = sum(r["result"]["expansions"] == r["recorded"] for r in checked)
        print(f"| {s} | {len(rs)} | {exact} | {sum(ex):,} | {ex[len(ex) // 2]:,} | {ex[-1]:,} | "
              f"{ev:,} | {match}/{len(checked)} |")
    for s in sets:
        levels(s, [r for r in results if r["set"] == s], bands)
    for s in sets if with_games else []:
        per_game(s, [r for r in results if r["set"] == s])


def levels(name, rs, bands):
    """Per stone count (or per band of stone counts: `bands` are their lower ends),
    summed over the set's games."""
    sums = {}
    for r in rs:
        for lv in r["result"]["profile"]["levels"]:
            band = lv["score"]
            if bands:
                band = max([b for b in bands if b <= band] or [0])
            acc = sums.setdefault(band, dict.fromkeys(lv, 0))
            for k, v in lv.items():
                acc[k] += v if k != "score" else v * lv["expanded"]
    total = sum(a["expanded"] for a in sums.values()) or 1
    what = "band of stones left" if bands else "stones left"
    print(f"\n**{name}**, per {what} (summed over {len(rs)} games):\n")
    print("| stones | expanded | share | mean bound | successors per expansion | "
          "pruned | of which by components alone | memo hits |")
    print("|---|---|---|---|---|---|---|---|")
    tops = sorted(sums, reverse=True)
    for i, low in enumerate(tops):
        a = sums[low]
        e = max(a["expanded"], 1)
        c = max(a["children"], 1)
        p = max(a["pruned"], 1)
        label = f"{low}" if not bands else f"{low}-{tops[i - 1] - 1 if i else 'start'}"
        print(f"| {label} | {a['expanded']:,} | {a['expanded'] / total:.1%} | "
              f"{a['bound_sum'] / e:.2f} | {a['children'] / e:.2f} | "
              f"{a['pruned'] / c:.1%} | {a['pruned_base'] / p:.1%} | {a['memo_hits'] / c:.1%} |")


def per_game(name, rs):
    print(f"\n**{name}**, per game:\n")
    print("| game | min stones | start bound | exact | expansions | pruned by zones only | "
          "memo hits per expansion | memo evictions |")
    print("|---|---|---|---|---|---|---|---|")
    for r in sorted(rs, key=lambda r: r["index"]):
        v = r["result"]
        p = v["profile"]
        pruned = sum(lv["pruned"] for lv in p["levels"])
        base = sum(lv["pruned_base"] for lv in p["levels"])
        hits = sum(lv["memo_hits"] for lv in p["levels"])
        zones = (pruned - base) / max(pruned, 1)
        print(f"| {r['index']} | {v['score']} | {p['start_bound']} | {v['exhaustive']} | "
              f"{v['expansions']:,} | {zones:.1%} | {hits / max(v['expansions'], 1):.2f} | "
              f"{p['memo_evictions']:,} |")


if __name__ == "__main__":
    main()
