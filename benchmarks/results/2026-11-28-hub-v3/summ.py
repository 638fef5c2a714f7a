#!/usr/bin/env python3
"""Summarise sbs.sh: per map and EHL setting, EHL's index MB, build s, peak MB, mean / median µs
(two runs) beside taut's index built at that size (--budget): the side it chose, MB, build s,
peak MB, mean / median µs, and wrong answers of both against len_gppc (1e-6 relative)."""
import csv, glob, os, re, statistics as st, sys
D = os.environ.get("DATA", "/work/shared/data"); O = os.environ.get("O", "/tmp/hubv3")
E = os.environ.get("EHL", "/work/anchors/ehl") + "/dataset"
maps = sys.argv[1:]
truth = {}
for r in csv.DictReader(open(f"{D}/grid/optimal/scen.csv")):
    if r["map"] in maps and r["len_gppc"] not in ("", "-1"):
        truth.setdefault(r["map"], {})[int(r["idx"])] = float(r["len_gppc"])
def load(f):
    rows = {}
    if os.path.exists(f):
        for r in csv.DictReader(open(f)):
            if r.get("status", "ok") == "ok":
                rows[int(r["index"])] = (float(r["length"]), float(r["time_us"]))
    return rows
def mb(p): return sum(os.path.getsize(x) for x in glob.glob(p)) / 1e6
def times(runs, common):
    return " · ".join(f"{st.mean(t):.2f} / {st.median(t):.2f}" for t in
                      ([d[i][1] for i in common] for d in runs))
def wrong(m, runs):
    return sum(1 for d in runs for i in truth[m] if i not in d or abs(d[i][0] - truth[m][i]) > 1e-6 * max(1, truth[m][i]))
print("| map | setting | EHL MB | EHL build s | EHL peak MB | EHL mean / median µs (run 1 · run 2) | taut side | taut MB | taut build s | taut peak MB | taut mean / median µs (run 1 · run 2) | wrong EHL / taut |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for m in maps:
    prep = open(f"{O}/{m}.ehl.txt").read()
    secs = {k: float(v) for k, v in re.findall(r"^(\w+): ([0-9.]+) s wall", prep, re.M)}
    rss = {k: int(v) / 1e3 for k, v in re.findall(r"^(\w+): .*?([0-9]+) KB maxrss", prep, re.M)}
    hl = mb(f"{E}/hub_label/dao/{m}.label") + mb(f"{E}/hub_label/dao/{m}.order")
    for g in os.environ.get("SETTINGS", "1 4 16 64").split():
        ehl_s = secs["vis"] + secs["conv"] + secs["hl"] + secs[f"grid{g}"]
        ehl_peak = max(rss["vis"], rss["conv"], rss["hl"], rss[f"grid{g}"])
        t = open(f"{O}/{m}.taut{g}.txt").read()
        wall = float(re.search(r"taut: ([0-9.]+) s wall", t).group(1))
        peak = int(re.search(r"([0-9]+) KB maxrss", t).group(1)) / 1e3
        side = re.search(r"regions of (\d+) x", t)
        side = side.group(1) if side else ("1" if "point entries" in t else "refused")
        ehl = [load(f"{O}/{m}.ehl{g}.{r}.csv") for r in (1, 2)]
        taut = [load(f"{O}/{m}.taut{g}.{r}.csv") for r in (1, 2)]
        if side == "refused":
            common = set.intersection(*(set(d) for d in ehl))
            tt, tmb, tw = "—", "—", "—"
        else:
            common = set.intersection(*(set(d) for d in ehl + taut))
            tt, tmb, tw = times(taut, common), f"{os.path.getsize(f'{O}/{m}.b{g}.hub') / 1e6:.2f}", wrong(m, taut)
        print(f"| {m} | EHL-{g} | {mb(f'{E}/ehl/dao/{m}.nt_*_{g}') + hl:.2f} | {ehl_s:.2f} | {ehl_peak:.0f} | "
              f"{times(ehl, common)} | {side} | {tmb} | {wall:.2f} | {peak:.0f} | {tt} | {wrong(m, ehl)} / {tw} |")
