#!/usr/bin/env python3
"""The layers of one game's search, for designing a search of one game across workers.

    hammer solve --random --n 7 --index 5399 --seed 2013 --order standard --schedule exact \\
        --profile --json > game.json
    python3 science/notes/scripts/layers.py game.json [more.json ...]

Under `standard/exact` with no memo limit every state is expanded once, so a profile's
`expanded` per score is the number of distinct states of that layer (stones left) the
search needs. For each game it prints S (distinct states expanded), f (the widest layer's
share of S), b (successors per expansion), the share of successors that are duplicates
(memo hits) or pruned by the bound, and the successors a worker would send to others if
each state had one owner among W workers (the share (1 - 1/W) of those neither pruned nor
found in its own memo first; an upper bound, since a sender may also drop its own
duplicates). With --table, the per-layer counts too.
"""

import json
import sys


def main():
    paths = [a for a in sys.argv[1:] if not a.startswith("--")]
    table = "--table" in sys.argv
    print("| game | min | S (distinct states) | widest layer (stones, states, f) | b | duplicates | pruned | sent per state, W = 2 | W = 4 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        with open(path) as f:
            v = json.load(f)
        levels = v["profile"]["levels"]
        s = sum(lv["expanded"] for lv in levels)
        children = sum(lv["children"] for lv in levels)
        dup = sum(lv["memo_hits"] for lv in levels)
        pruned = sum(lv["pruned"] for lv in levels)
        wide = max(levels, key=lambda lv: lv["expanded"])
        live = children - pruned
        sent = [live * (1 - 1 / w) / s for w in (2, 4)]
        name = v["board"][:20] + "..."
        print(f"| {name} | {v['score']} | {s:,} | {wide['score']}, {wide['expanded']:,}, "
              f"{wide['expanded'] / s:.3f} | {children / s:.2f} | {dup / children:.1%} | "
              f"{pruned / children:.1%} | {sent[0]:.2f} | {sent[1]:.2f} |")
        if table:
            print("\n| stones | states | successors | duplicates | pruned |")
            print("|---|---|---|---|---|")
            for lv in sorted(levels, key=lambda lv: -lv["score"]):
                print(f"| {lv['score']} | {lv['expanded']:,} | {lv['children']:,} | "
                      f"{lv['memo_hits']:,} | {lv['pruned']:,} |")
            print()


if __name__ == "__main__":
    main()
