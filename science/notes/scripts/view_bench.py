#!/usr/bin/env python3
"""hammer view's speed: browse filters on a large dataset, and hints on 6x6 positions.

Usage: science/notes/scripts/view_bench.py [--rows 3000000] [--hammer target/release/hammer]

Makes (once) a `hammer bench-ingest` dataset of ROWS rows, starts `hammer view` on it,
waits for the index, then times each browse query 7 times over HTTP (client wall time,
median and max, plus the server's own `took_ms`). Then it asks for the hints of the
start positions of the first 20 seeded 6x6 games of seed 2013. Prints Markdown tables for
docs/benchmarks.md. Standard library only.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

QUERIES = [
    ("every row, first page", ""),
    ("expansions in a range", "exp_min=5000&exp_max=5100"),
    ("sorted by expansions, descending", "sort=expansions&desc=true"),
    ("range and sort, page 100", "exp_min=9000&sort=expansions&desc=true&page=100"),
    ("no match (solvable=false)", "solvable=false"),
    ("sorted by game index, 500 rows", "sort=game_index&desc=true&per=500"),
    ("sorted by experiment", "sort=experiment&page=2000"),
    ("sorted by expansions, the last page (a full sort)", "sort=expansions&page=59999"),
]


def get(base, path):
    started = time.perf_counter()
    with urllib.request.urlopen(base + path, timeout=120) as r:
        body = json.load(r)
    return body, time.perf_counter() - started


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=3_000_000)
    ap.add_argument("--hammer", default="target/release/hammer")
    ap.add_argument("--work", default="/tmp/hammer-view-bench")
    ap.add_argument("--port", type=int, default=7181)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    data = os.path.join(args.work, f"data-{args.rows}")
    if not os.path.isdir(data):
        subprocess.run([args.hammer, "bench-ingest", "--games", str(args.rows), "--out", data], check=True)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(data) for f in fs)
    view = subprocess.Popen([args.hammer, "view", data, "--listen", f"127.0.0.1:{args.port}"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = f"http://127.0.0.1:{args.port}"
    try:
        view.stdout.readline()
        started = time.perf_counter()
        while True:
            meta, _ = get(base, "/api/meta")
            if meta["state"] == "ready":
                break
            if meta["state"] == "failed":
                sys.exit(meta["error"])
            time.sleep(0.05)
        ready = time.perf_counter() - started
        print(f"dataset: {meta['rows']:,} rows in {meta['parts']} parts, {size / 2**20:.1f} MiB of Parquet")
        print(f"index: loaded in {meta['load_seconds']:.2f} s (ready seen after {ready:.2f} s), "
              f"{meta['index_bytes'] / 2**20:.1f} MiB of row columns, server RSS {rss_mib(view.pid):.0f} MiB")
        print()
        print("| query | matches | client median (max) of 7, ms | server took_ms, median |")
        print("|---|---|---|---|")
        for name, q in QUERIES:
            client, server = [], []
            for _ in range(7):
                body, took = get(base, "/api/games?" + q)
                client.append(took * 1e3)
                server.append(body["took_ms"])
            print(f"| {name} (`{q or '-'}`) | {body['total']:,} | {statistics.median(client):.0f} ({max(client):.0f}) "
                  f"| {statistics.median(server):.0f} |")
        print()
        print(f"server RSS after the queries: {rss_mib(view.pid):.0f} MiB")
        print()
        hints = []
        for index in range(20):
            out = subprocess.run([args.hammer, "solve", "--random", "--n", "6", "--seed", "2013",
                                  "--index", str(index), "--json", "--schedule", "1x1"],
                                 capture_output=True, text=True, check=True)
            board = json.loads(out.stdout)["board"]
            body, took = get(base, "/api/hints?" + urllib.parse.urlencode({"state": board}))
            exact = sum(1 for h in body["hints"] if h["exact"])
            hints.append((took * 1e3, len(body["hints"]), exact, sum(h["expansions"] for h in body["hints"])))
        times = sorted(h[0] for h in hints)
        print("hints of the start positions of 6x6 games 0..19 of seed 2013 "
              f"(budget {body['budget']:,} expansions a move):")
        print(f"- moves per position: {statistics.median(h[1] for h in hints)} median; "
              f"exact hints: {sum(h[2] for h in hints)} of {sum(h[1] for h in hints)}")
        print(f"- wall ms per position: median {statistics.median(times):.0f}, "
              f"max {times[-1]:.0f}; expansions per position: median "
              f"{statistics.median(h[3] for h in hints):,.0f}, max {max(h[3] for h in hints):,}")
    finally:
        view.terminate()
        view.wait()


if __name__ == "__main__":
    main()
