#!/usr/bin/env python3
"""Summarize run3.sh: EHL-4 beside taut's full index and regions of 2 (index MB, build s, peak MB, mean / median µs, wrong)."""
import csv, sys, os, re, statistics as st, glob
D = "/work/shared/data"; O = "/tmp/hubsbs/out3"; E = "/work/anchors/ehl/dataset"
maps = sys.argv[1:]
truth = {}
for r in csv.DictReader(open(f"{D}/grid/optimal/scen.csv")):
    if r["map"] in maps and r["len_gppc"] not in ("", "-1"):
        truth.setdefault(r["map"], {})[int(r["idx"])] = float(r["len_gppc"])
def load(f):
    rows = {}
    for r in csv.DictReader(open(f)):
        if r.get("status", "ok") != "ok": continue
        rows[int(r["index"])] = (float(r["length"]), float(r["time_us"]))
    return rows
def mb(p): return sum(os.path.getsize(x) for x in glob.glob(p)) / 1e6
print("| map | setting | index MB | build s | peak build MB | mean / median µs, run 1 | run 2 | wrong |")
print("|---|---|---|---|---|---|---|---|")
for m in maps:
    prep = open(f"{O}/{m}.ehl-prep4.txt").read()
    secs = {k: float(v) for k, v in re.findall(r"^(\w+): ([0-9.]+) s wall", prep, re.M)}
    rss = max(int(v) for v in re.findall(r"([0-9]+) KB maxrss", prep)) / 1e3
    hl = mb(f"{E}/hub_label/dao/{m}.label") + mb(f"{E}/hub_label/dao/{m}.order")
    settings = [("EHL-4", mb(f"{E}/ehl/dao/{m}.nt_*_4") + hl, sum(secs.values()), rss, f"{O}/{m}.ehl4")]
    for g in (1, 2):
        b = open(f"{O}/{m}.r{g}.build.txt").read()
        settings.append((f"taut {g}", os.path.getsize(f"{O}/{m}.r{g}.hub") / 1e6, float(re.search(r"([0-9.]+) s wall", b).group(1)), int(re.search(r"([0-9]+) KB maxrss", b).group(1)) / 1e3, f"{O}/{m}.r{g}"))
    data = {n: [load(f"{p}.{r}.csv") for r in ("1", "2")] for n, _, _, _, p in settings}
    common = set.intersection(*(set(d) for v in data.values() for d in v))
    for n, size, bs, peak, _ in settings:
        cells = []
        for d in data[n]:
            t = [d[i][1] for i in common]
            cells.append(f"{st.mean(t):.2f} / {st.median(t):.2f}")
        w = sum(1 for d in data[n] for i, (L, _) in d.items() if i in truth[m] and abs(L - truth[m][i]) > 1e-6 * max(1, truth[m][i]))
        miss = sum(1 for d in data[n] for i in truth[m] if i not in d)
        print(f"| {m} | {n} | {size:.1f} | {bs:.2f} | {peak:.0f} | {cells[0]} | {cells[1]} | {w} wrong, {miss} unanswered |")
