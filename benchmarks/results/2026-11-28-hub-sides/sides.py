#!/usr/bin/env python3
"""Summarise sides.sh: per map and region side, index MB, and mean / median µs of every query
once and of --repeat 5, each round; wrong answers against len_gppc (1e-6 relative)."""
import csv, glob, os, statistics as st, sys
D = os.environ.get("DATA", "/work/shared/data"); O = os.environ.get("O", "/tmp/hubsides")
sides = os.environ.get("SIDES", "1 2 4 8 16 32").split()
maps = sys.argv[1:]
truth = {}
for r in csv.DictReader(open(f"{D}/grid/optimal/scen.csv")):
    if r["map"] in maps and r["len_gppc"] not in ("", "-1"):
        truth.setdefault(r["map"], {})[int(r["idx"])] = float(r["len_gppc"])
def load(f):
    return {int(r["index"]): (float(r["length"]), float(r["time_us"]))
            for r in csv.DictReader(open(f)) if r.get("status", "ok") == "ok"} if os.path.exists(f) else {}
rounds = sorted({f.rsplit(".", 2)[1] for f in glob.glob(f"{O}/*.once.*.csv")})
print("| map | side | MB | once: mean / median µs per round | repeat 5: mean / median µs per round | wrong |")
print("|---|---|---|---|---|---|")
for m in maps:
    for g in sides:
        hub = f"{O}/{m}.g{g}.hub"
        if not os.path.exists(hub):
            continue
        cols, wrong = [], 0
        for mode in ("once", "rep5"):
            runs = [load(f"{O}/{m}.g{g}.{mode}.{r}.csv") for r in rounds]
            cols.append(" · ".join(f"{st.mean(t[1] for t in d.values()):.2f} / {st.median(t[1] for t in d.values()):.2f}" for d in runs if d))
            wrong += sum(1 for d in runs for i, want in truth[m].items()
                         if i not in d or abs(d[i][0] - want) > 1e-6 * max(1, want))
        print(f"| {m} | {g} | {os.path.getsize(hub) / 1e6:.2f} | {cols[0]} | {cols[1]} | {wrong} |")
