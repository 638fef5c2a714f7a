"""What calling taut from Python costs, against the same queries from Rust.

    python crates/taut-py/bench/overhead.py [--rounds 200] [--taut target/release/taut]
        [--data ../shared/data] [--out FILE.md]

Part 1, the Python overhead per query: the 130 queries of ``fixtures/maps/arena.map.scen``,
each planner warm. "Rust" is ``taut scen --repeat`` (the CLI: a Rust loop over one warm
planner, the scenario run over and over): each query's median search time over the rounds,
summed over the queries. Each Python figure is wall time per query of one way of calling,
median over rounds:

- ``Grid.path`` in a Python loop (one call per query, a ``PathResult`` each);
- ``Grid.run_scenario`` (one call, the loop in Rust);
- ``Grid.paths`` on 1 and on 2 threads (one call, a batch).

The overhead is the Python figure minus the Rust one. The Rust figure times only the searches,
so the overhead also holds the loop, the timer and building the results.

Part 2, the batch speedup on every core: ``Grid.paths`` on 1 thread against 2 threads (and more
if the machine has them), on whole scenarios of bigger maps from ``../shared/data/grid`` when it
is there (skipped with a message otherwise), and on the arena scenario.

Run it on a quiet machine: the figures are ratios measured in one run.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import taut

ROOT = Path(__file__).resolve().parents[3]
ARENA = ROOT / "fixtures" / "maps" / "arena.map"
ARENA_SCEN = ROOT / "fixtures" / "maps" / "arena.map.scen"
ALGOS = ("anya", "polyanya", "theta", "astar")
BIG_MAPS = ("AcrosstheCape", "orz900d")


def queries(scen: taut.Scenario) -> tuple[np.ndarray, np.ndarray]:
    d = scen.to_dict()
    starts = np.stack([d["sx"], d["sy"]], axis=1).astype(np.int64)
    goals = np.stack([d["gx"], d["gy"]], axis=1).astype(np.int64)
    return starts, goals


def median_us(f, rounds: int, per: int) -> float:
    """Median wall time of ``f()`` over ``rounds`` calls, in microseconds per ``per`` queries."""
    f()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6 / per


def rust_us(taut_bin: Path, algo: str, rounds: int) -> float:
    """``taut scen --repeat``: one process, one warm planner; each query's median search time
    over the rounds, summed over the queries, per query."""
    out = subprocess.run(
        [str(taut_bin), "scen", "--scen", str(ARENA_SCEN), "--map", str(ARENA),
         "--algo", algo, "--repeat", str(rounds)],
        check=True, capture_output=True, text=True,
    ).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    return sum(float(r["time_us"]) for r in rows) / len(rows)


def part1(taut_bin: Path, rounds: int) -> list[str]:
    grid = taut.Grid.from_map(ARENA)
    scen = taut.Scenario.load(ARENA_SCEN)
    starts, goals = queries(scen)
    pairs = [((int(a), int(b)), (int(c), int(d))) for (a, b), (c, d) in zip(starts, goals)]
    n = len(pairs)
    lines = [
        f"Part 1: the {n} queries of fixtures/maps/arena.map.scen, microseconds per query "
        f"(median of {rounds} rounds; overhead = Python - Rust)",
        "",
        "| planner | Rust (`taut scen --repeat`) | `Grid.path` loop | overhead | `run_scenario` | overhead "
        "| `paths`, 1 thread | overhead | `paths`, 2 threads |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for algo in ALGOS:
        rust = rust_us(taut_bin, algo, rounds)

        def loop() -> None:
            for s, g in pairs:
                grid.path(s, g, algo)

        one = median_us(loop, rounds, n)
        scenario = median_us(lambda: grid.run_scenario(scen, algo), rounds, n)
        batch1 = median_us(lambda: grid.paths(starts, goals, algo, threads=1), rounds, n)
        batch2 = median_us(lambda: grid.paths(starts, goals, algo, threads=2), rounds, n)
        lines.append(
            f"| {algo} | {rust:.2f} | {one:.2f} | {one - rust:+.2f} | {scenario:.2f} "
            f"| {scenario - rust:+.2f} | {batch1:.2f} | {batch1 - rust:+.2f} | {batch2:.2f} |"
        )
        print(lines[-1], flush=True)
    return lines


def part2(data: Path, rounds: int) -> list[str]:
    cores = os.cpu_count() or 1
    threads = sorted({1, 2, cores})
    lines = [
        "",
        f"Part 2: `Grid.paths` on whole scenarios, ms per batch (median of {rounds} rounds), "
        f"{cores} cores",
        "",
        "| map | planner | queries | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}"
                                                   for t in threads)
        + " | speedup, 2 threads |",
        "|---|---|---|" + "---|" * len(threads) + "---|",
    ]
    maps = [(ARENA, ARENA_SCEN)]
    grid_dir = data / "grid"
    if grid_dir.is_dir():
        maps += [(grid_dir / "maps" / f"{m}.map", grid_dir / "scen" / f"{m}.map.scen")
                 for m in BIG_MAPS]
    else:
        print(f"SKIPPED: {grid_dir} is absent, part 2 runs on the arena only", file=sys.stderr)
    for map_path, scen_path in maps:
        grid = taut.Grid.from_map(map_path)
        starts, goals = queries(taut.Scenario.load(scen_path))
        n = len(starts)
        for algo in ("anya", "polyanya"):
            ms = {}
            for t in threads:
                reps = rounds if n < 1000 else max(rounds // 40, 3)
                ms[t] = median_us(
                    lambda: grid.paths(starts, goals, algo, threads=t), reps, 1000
                )
            lines.append(
                f"| {map_path.stem} | {algo} | {n} | "
                + " | ".join(f"{ms[t]:.2f}" for t in threads)
                + f" | {ms[1] / ms[2]:.2f} |"
            )
            print(lines[-1], flush=True)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--taut", type=Path, default=ROOT / "target" / "release" / "taut",
                    help="the taut binary (cargo build --release -p taut-cli)")
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--out", type=Path, help="also write the tables to this Markdown file")
    args = ap.parse_args()
    if not args.taut.is_file():
        sys.exit(f"error: no taut binary at {args.taut} (cargo build --release -p taut-cli)")
    head = [
        f"taut {taut.__version__}, Python {platform.python_version()}, "
        f"NumPy {np.__version__}, {platform.machine()}, {os.cpu_count()} cores",
        "",
    ]
    lines = head + part1(args.taut, args.rounds) + part2(args.data, args.rounds)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
