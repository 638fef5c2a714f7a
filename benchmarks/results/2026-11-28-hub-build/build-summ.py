#!/usr/bin/env python3
"""Summarise build-sbs.sh: per map and EHL setting, EHL's index MB, build seconds (visibility
graph, conversion, hub labels and the grid step) and peak MB beside taut hub build --budget
(EHL's size): the region side it chose, MB, seconds, peak MB."""
import os, re, sys
O = os.environ.get("O", "/tmp/hubbuild")
print("| map | setting | EHL MB | EHL build s | EHL peak MB | taut side | taut MB | taut build s | taut peak MB |")
print("|---|---|---|---|---|---|---|---|---|")
for m in sys.argv[1:]:
    prep = open(f"{O}/{m}.ehl.txt").read()
    secs = {k: float(v) for k, v in re.findall(r"^(\w+): ([0-9.]+) s wall", prep, re.M)}
    rss = {k: int(v) / 1e3 for k, v in re.findall(r"^(\w+): .*?([0-9]+) KB maxrss", prep, re.M)}
    base = secs["vis"] + secs["conv"] + secs["hl"]
    base_rss = max(rss["vis"], rss["conv"], rss["hl"])
    for g in ("16", "64"):
        t = open(f"{O}/{m}.taut{g}.txt").read()
        budget = int(re.search(r"^budget (\d+)", t, re.M).group(1)) / 1e6
        wall = float(re.search(r"taut: ([0-9.]+) s wall", t).group(1))
        peak = int(re.search(r"([0-9]+) KB maxrss", t).group(1)) / 1e3
        side = re.search(r"regions of (\d+) x", t)
        side = side.group(1) if side else ("1" if "point entries" in t else "refused")
        hub = f"{O}/{m}.b{g}.hub"
        size = os.path.getsize(hub) / 1e6 if os.path.exists(hub) and side != "refused" else float("nan")
        print(f"| {m} | EHL-{g} | {budget:.1f} | {base + secs['grid' + g]:.2f} | {max(base_rss, rss['grid' + g]):.0f} | {side} | {size:.1f} | {wall:.2f} | {peak:.0f} |")
