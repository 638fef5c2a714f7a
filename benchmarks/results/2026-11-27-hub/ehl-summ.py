#!/usr/bin/env python3
"""Summarize run.sh: build table and query table (mean/median µs over the queries every program answered,
wrong answers vs len_gppc, |L - ref| > 1e-6 * max(1, ref))."""
import csv, sys, os, re, statistics as st, glob
D = "/work/shared/data"; O = "/tmp/hubsbs/out"; E = "/work/anchors/ehl/dataset"
maps = sys.argv[1:]
sizes = ["1", "16", "64"]
truth = {}
for r in csv.DictReader(open(f"{D}/grid/optimal/scen.csv")):
    if r["map"] in maps and r["len_gppc"] not in ("", "-1"):
        truth.setdefault(r["map"], {})[int(r["idx"])] = float(r["len_gppc"])
def load(f):
    rows = {}
    if not os.path.exists(f): return rows
    for r in csv.DictReader(open(f)):
        if r.get("status", "ok") != "ok": continue
        rows[int(r["index"])] = (float(r["length"]), float(r["time_us"]))
    return rows
def mb(p):
    return sum(os.path.getsize(x) for x in glob.glob(p)) / 1e6
print("## Preprocessing (2 threads)\n")
print("| map | EHL vis graph + hub labels s | " + " | ".join(f"EHL-{g} grid labels s" for g in sizes) + " | EHL peak RSS MB | " + " | ".join(f"EHL-{g} index MB" for g in sizes) + " | taut hub build s | taut peak RSS MB | taut hub file MB |")
print("|---|" + "---|" * (2 * len(sizes) + 5))
for m in maps:
    prep = open(f"{O}/{m}.ehl-prep.txt").read()
    secs = {k: float(v) for k, v in re.findall(r"^(\w+): ([0-9.]+) s wall", prep, re.M)}
    rss = max(int(x) for x in re.findall(r"([0-9]+) KB maxrss", prep)) / 1e3
    base = secs.get("vis", 0) + secs.get("conv", 0) + secs.get("hl", 0)
    hl = mb(f"{E}/hub_label/dao/{m}.label") + mb(f"{E}/hub_label/dao/{m}.order")
    idx = [mb(f"{E}/ehl/dao/{m}.nt_*_{g}") + hl for g in sizes]
    tb = open(f"{O}/{m}.taut-build.txt").read()
    ts = float(re.search(r"taut hub build: ([0-9.]+) s wall", tb).group(1)); trss = int(re.search(r"([0-9]+) KB maxrss", tb).group(1)) / 1e3
    print(f"| {m} | {base:.1f} | " + " | ".join(f"{secs.get('grid'+g, float('nan')):.1f}" for g in sizes) + f" | {rss:.0f} | " + " | ".join(f"{x:.1f}" for x in idx) + f" | {ts:.2f} | {trss:.0f} | {os.path.getsize(f'{O}/{m}.hub')/1e6:.1f} |")
print("\n## Queries (2018 scenarios; µs per query, path included)\n")
progs = [f"ehl{g}" for g in sizes] + ["hub", "hubw"]
names = {f"ehl{g}": f"EHL-{g}" for g in sizes} | {"hub": "taut hub (one pass)", "hubw": "taut hub (median of 2 passes)"}
print("| map | run | n | " + " | ".join(f"{names[p]} mean / median" for p in progs) + " | EHL-1 median / hub median | wrong (per program) |")
print("|---|---|---|" + "---|" * (len(progs) + 2))
for m in maps:
    for run in ("1", "2"):
        data = {p: load(f"{O}/{m}.{p}.{run}.csv") for p in progs}
        if not all(data.values()): continue
        common = set.intersection(*(set(d) for d in data.values()))
        cells = []; med = {}
        for p in progs:
            t = [data[p][i][1] for i in common]
            med[p] = st.median(t)
            cells.append(f"{st.mean(t):.2f} / {med[p]:.2f}")
        wrong = []
        for p in progs:
            w = sum(1 for i, (L, _) in data[p].items() if i in truth.get(m, {}) and abs(L - truth[m][i]) > 1e-6 * max(1, truth[m][i]))
            missing = sum(1 for i in truth.get(m, {}) if i not in data[p])
            if w or missing: wrong.append(f"{names[p]}: {w} wrong, {missing} unanswered")
        print(f"| {m} | {run} | {len(common)} | " + " | ".join(cells) + f" | {med['ehl1']/med['hub']:.2f} | {'; '.join(wrong) or '0'} |")
