#!/usr/bin/env python3
"""Summarize run2.sh: taut hub with regions (4..64) beside EHL-1/16/64; index sizes, builds, query times
(mean / median µs over the queries every program answered), wrong answers vs len_gppc."""
import csv, sys, os, re, statistics as st, glob
D = "/work/shared/data"; O = "/tmp/hubsbs/out2"; O1 = "/tmp/hubsbs/out"; E = "/work/anchors/ehl/dataset"
maps = sys.argv[1:]
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
def mb(p): return sum(os.path.getsize(x) for x in glob.glob(p)) / 1e6
print("| map | setting | index MB | build s | peak build MB | mean / median µs, run 1 | run 2 | wrong |")
print("|---|---|---|---|---|---|---|---|")
for m in maps:
    prep = open(f"{O1}/{m}.ehl-prep.txt").read()
    secs = {k: float(v) for k, v in re.findall(r"^(\w+): ([0-9.]+) s wall", prep, re.M)}
    rss = {k: int(v) / 1e3 for k, v in re.findall(r"^(\w+): .*?([0-9]+) KB maxrss", prep, re.M)}
    base = secs["vis"] + secs["conv"] + secs["hl"]; base_rss = max(rss["vis"], rss["conv"], rss["hl"])
    hl = mb(f"{E}/hub_label/dao/{m}.label") + mb(f"{E}/hub_label/dao/{m}.order")
    settings = []
    for e in ("1", "16", "64"):
        settings.append((f"EHL-{e}", mb(f"{E}/ehl/dao/{m}.nt_*_{e}") + hl, base + secs[f"grid{e}"], max(base_rss, rss[f"grid{e}"]), f"{O}/{m}.ehl{e}"))
    tb = open(f"{O1}/{m}.taut-build.txt").read()
    settings.append(("taut 1", os.path.getsize(f"{O1}/{m}.hub") / 1e6, float(re.search(r"([0-9.]+) s wall", tb).group(1)), int(re.search(r"([0-9]+) KB maxrss", tb).group(1)) / 1e3, f"{O1}/{m}.hub"))
    for g in (4, 8, 16, 32, 64):
        b = open(f"{O}/{m}.r{g}.build.txt").read()
        settings.append((f"taut {g}", os.path.getsize(f"{O}/{m}.r{g}.hub") / 1e6, float(re.search(r"([0-9.]+) s wall", b).group(1)), int(re.search(r"([0-9]+) KB maxrss", b).group(1)) / 1e3, f"{O}/{m}.r{g}"))
    data = {name: [load(f"{pfx}.{run}.csv") for run in ("1", "2")] for name, _, _, _, pfx in settings}
    common = set.intersection(*(set(d) for runs in data.values() for d in runs if d))
    for name, size, bs, peak, pfx in settings:
        cells = []
        for d in data[name]:
            if not d: cells.append("–"); continue
            t = [d[i][1] for i in common]
            cells.append(f"{st.mean(t):.2f} / {st.median(t):.2f}")
        w = sum(1 for d in data[name] for i, (L, _) in d.items() if i in truth[m] and abs(L - truth[m][i]) > 1e-6 * max(1, truth[m][i]))
        miss = sum(1 for d in data[name] if d for i in truth[m] if i not in d)
        print(f"| {m} | {name} | {size:.1f} | {bs:.2f} | {peak:.0f} | {cells[0]} | {cells[1]} | {w} wrong, {miss} unanswered |")
