#!/usr/bin/env python3
"""Times one game four ways: the usual search, the owner search with 1 and 2 threads, and
a gang of K processes over gRPC on this machine's loopback (docs/frontier.md).

    python3 science/notes/scripts/gang_bench.py HAMMER N SEED INDEX [--runs R] [--gang K]

Prints one line per run and a summary: expansions, wall time, CPU time (user and system,
of every process the configuration ran), the largest table (states and MiB) against the
usual memo, and for the gang the states sent and bytes per state sent.
"""
import argparse
import json
import resource
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def solve(hammer, game, extra):
    out = subprocess.run([hammer, "solve", "--json", *game, *extra], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"hammer solve {' '.join([*game, *extra])} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def gang(hammer, game, k):
    peers = ",".join(f"127.0.0.1:{free_port()}" for _ in range(k))
    started = time.monotonic()
    procs = [
        subprocess.Popen(
            [hammer, "solve", "--json", *game, "--peers", peers, "--rank", str(r)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for r in range(k)
    ]
    outs = []
    for p in procs:
        stdout, stderr = p.communicate()
        if p.returncode != 0:
            sys.exit(f"a gang member failed: {stderr.strip()}")
        outs.append(json.loads(stdout))
    wall = time.monotonic() - started
    leader = outs[0]
    leader["wall_s"] = wall
    leader["bytes_all"] = sum(o["bytes_sent"] for o in outs)
    return leader


def cpu_of_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("hammer")
    ap.add_argument("n")
    ap.add_argument("seed")
    ap.add_argument("index")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--gang", type=int, default=2)
    a = ap.parse_args()
    game = ["--random", "--n", a.n, "--seed", a.seed, "--index", a.index]
    rows = {"usual": [], "owners 1": [], "owners 2": [], f"gang {a.gang}": []}
    for run in range(a.runs):
        for name in rows:
            cpu_before = cpu_of_children()
            if name == "usual":
                v = solve(a.hammer, game, [])
                v["wall_s"] = v["wall_ns"] / 1e9
            elif name.startswith("owners"):
                v = solve(a.hammer, game, ["--owners", name.split()[1]])
                v["wall_s"] = v["wall_ns"] / 1e9
            else:
                v = gang(a.hammer, game, a.gang)
            v["cpu_s"] = cpu_of_children() - cpu_before
            rows[name].append(v)
            table = max(v.get("table_states_per_owner") or [v["memo_states"]])
            table_mb = max(v.get("table_bytes_per_owner") or [v["memo_bytes"]]) / 2**20
            extra = ""
            if "bytes_all" in v:
                extra = f", sent {v['sent']:,} states, {v['bytes_all'] / max(v['sent'], 1):.1f} bytes/state"
            print(
                f"run {run} {name:>9}: score {v['score']}, expansions {v['expansions']:,}, "
                f"{v['wall_s']:.2f} s, CPU {v['cpu_s']:.2f} s, largest table {table:,} ({table_mb:.0f} MiB){extra}",
                flush=True,
            )
    usual = rows["usual"]
    for name, vs in rows.items():
        ratio_t = [v["wall_s"] / u["wall_s"] for v, u in zip(vs, usual)]
        ratio_c = [v["cpu_s"] / u["cpu_s"] for v, u in zip(vs, usual)]
        ratio_e = [v["expansions"] / u["expansions"] for v, u in zip(vs, usual)]
        print(f"{name:>9} vs usual: time {', '.join(f'{r:.2f}x' for r in ratio_t)}; "
              f"CPU {', '.join(f'{r:.2f}x' for r in ratio_c)}; "
              f"expansions {', '.join(f'{r:.2f}x' for r in ratio_e)}")


if __name__ == "__main__":
    main()
