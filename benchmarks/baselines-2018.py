#!/usr/bin/env python3
"""Per-suite timings of the baseline planners, measured with `taut scen` on the 2018 MovingAI
scenario files of ../shared/data/grid (single-threaded, one planner at a time).

Usage: [SAMPLE=k] [RAW_DIR=dir] python3 benchmarks/baselines-2018.py [DATA_DIR] > results.md
(SAMPLE=k runs every k-th query of each file, which keeps every bucket; RAW_DIR keeps the csv
output of every run.) Each `taut scen` run starts with an untimed warm-up query.
Needs a release build: cargo build --release -p taut-cli

This is a stop-gap until the taut-bench crate (`cargo xtask bench`) lands; it prints a Markdown
table with the machine, the commit and the date.
"""
from statistics import mean, median

from _common import SUITES, check_binary, header_line, run

ALGOS = ["astar", "theta", "lazy-theta"]

check_binary()
print(f"# Baselines on the 2018 scenarios\n\n{header_line()}\n")
print("| suite | queries | A* mean µs | A* median µs | Theta* mean µs | Lazy Theta* mean µs | A* expanded | Theta* expanded | Lazy Theta* expanded | Theta* length vs A* | Lazy Theta* length vs A* |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for suite, maps in SUITES.items():
    rows = {a: [] for a in ALGOS}
    for m in maps.split():
        res = {a: run(m, ["--algo", a], a) for a in ALGOS}
        if res["astar"] is None:
            continue
        for i, ra in res["astar"].items():
            if ra["status"] != "ok" or float(ra["length"]) == 0:
                continue
            for a in ALGOS:
                rows[a].append(res[a][i])
    if not rows["astar"]:
        continue
    t = {a: [float(r["time_us"]) for r in rows[a]] for a in ALGOS}
    e = {a: mean(int(r["expanded"]) for r in rows[a]) for a in ALGOS}
    imp = {a: 100 * (1 - mean(float(r["length"]) / float(q["length"]) for r, q in zip(rows[a], rows["astar"]))) for a in ALGOS}
    print(f"| {suite} | {len(rows['astar'])} | {mean(t['astar']):.1f} | {median(t['astar']):.1f} | "
          f"{mean(t['theta']):.1f} | {mean(t['lazy-theta']):.1f} | {e['astar']:.0f} | {e['theta']:.0f} | "
          f"{e['lazy-theta']:.0f} | -{imp['theta']:.2f} % | -{imp['lazy-theta']:.2f} % |")
print("\nLength columns: mean over queries of (1 - planner length / A* octile length), as a reduction.")
