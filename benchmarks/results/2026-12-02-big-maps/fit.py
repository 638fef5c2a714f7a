#!/usr/bin/env python3
"""Reads the per-(map, program) CSVs of run.sh ($O, default /tmp/big-exp), writes
queries.csv (every query of every program), cost-vs-side.csv (one row per kind, side, planner and query set) and prints the Markdown
tables: mean / median / max ms and mean expansions per side, the length cross-check, and the
least-squares slope of log(mean time) against log(side) over 512..4096."""
import csv, math, os, sys

O = os.environ.get("O", "/tmp/big-exp")
KINDS = os.environ.get("KINDS", "walls traps").split()
SIDES = [int(s) for s in os.environ.get("SIDES", "512 1024 2048 4096").split()]
FIRST = int(os.environ.get("LIMIT4096", "10"))
PLANNERS = ["ray", "anya", "rayscan"]


def read(path):
    rows = {}
    for r in csv.DictReader(open(path)):
        i = int(r["index"])
        rows[i] = (float(r["time_us"]), float(r["expanded"]), float(r["length"]))
    return rows


def fit(xs, ys):
    lx = [math.log(x) for x in xs]; ly = [math.log(y) for y in ys]
    mx = sum(lx) / len(lx); my = sum(ly) / len(ly)
    b = sum((a - mx) * (c - my) for a, c in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)
    return b


out = csv.writer(open(os.path.join(os.path.dirname(__file__), "cost-vs-side.csv"), "w"))
out.writerow(["kind", "side", "planner", "queries", "mean_ms", "median_ms", "max_ms", "mean_expanded"])
mismatches = []
raw = csv.writer(open(os.path.join(os.path.dirname(__file__), "queries.csv"), "w"))
raw.writerow(["map", "planner", "index", "time_us", "expanded", "length"])
for k in KINDS:
    data = {}
    for n in SIDES:
        m = f"big-{k}-{n}-0"
        for p in PLANNERS:
            f = os.path.join(O, f"{m}.{p}.csv")
            if os.path.exists(f):
                data[(n, p)] = read(f)
                for i, (t, e, l) in sorted(data[(n, p)].items()):
                    raw.writerow([m, p, i, f"{t:.1f}", f"{e:.0f}", f"{l:.8f}"])
        # lengths: ray = anya within 1e-6; RayScan beside them
        ray, anya, rs = data.get((n, "ray"), {}), data.get((n, "anya"), {}), data.get((n, "rayscan"), {})
        worst = 0.0; worst_rs = 0.0
        for i in ray:
            if i in anya:
                d = abs(ray[i][2] - anya[i][2]); worst = max(worst, d)
                if d > 1e-6:
                    mismatches.append((m, i, "ray/anya", ray[i][2], anya[i][2]))
            if i in rs and rs[i][2] >= 0:
                d = abs(ray[i][2] - rs[i][2]); worst_rs = max(worst_rs, d)
                if d > 1e-6:
                    mismatches.append((m, i, "ray/rayscan", ray[i][2], rs[i][2]))
        print(f"lengths {m}: max |ray-anya| {worst:.2e} over {len(set(ray)&set(anya))}, "
              f"max |ray-rayscan| {worst_rs:.2e} over {len(set(ray)&set(rs))}")
    for qset in ["all", f"first{FIRST}"]:
        print(f"\n### {k}, queries: {qset}\n")
        print("| side | " + " | ".join(f"{p} mean / median / max ms (exp.)" for p in PLANNERS) + " |")
        print("|---|" + "---|" * len(PLANNERS))
        means = {p: [] for p in PLANNERS}
        for n in SIDES:
            cells = []
            for p in PLANNERS:
                d = data.get((n, p))
                if not d:
                    cells.append("—"); continue
                idx = sorted(d) if qset == "all" else [i for i in sorted(d) if i < FIRST]
                t = sorted(d[i][0] / 1000 for i in idx)
                e = sum(d[i][1] for i in idx) / len(idx)
                mean = sum(t) / len(t); med = t[len(t) // 2] if len(t) % 2 else (t[len(t)//2-1] + t[len(t)//2]) / 2
                means[p].append((n, mean))
                out.writerow([k, n, p, len(idx), f"{mean:.3f}", f"{med:.3f}", f"{t[-1]:.3f}", f"{e:.0f}"])
                cells.append(f"{mean:.2f} / {med:.2f} / {t[-1]:.2f} ({e:,.0f}) [{len(idx)}]")
            print(f"| {n} | " + " | ".join(cells) + " |")
        print("\nfitted exponent (slope of log mean time on log side, least squares):",
              ", ".join(f"{p} {fit([a for a,_ in v],[b for _,b in v]):.2f}" for p, v in means.items() if len(v) >= 2))
print("\nmismatches above 1e-6:", len(mismatches))
for x in mismatches[:20]:
    print("  ", x)
