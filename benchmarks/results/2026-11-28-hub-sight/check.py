"""Summarise check.sh: per map and scenario generation, the answers of hub (two budgets), EPS
and Polyanya that differ from the reference optimum (len_gppc, 1e-6 relative), and the
answers of hub that differ from EPS's or Polyanya's. usage: O=DIR check.py MAP..."""
import csv, os, sys

D = os.environ.get("DATA", "/work/shared/data")
O = os.environ.get("O", "/tmp/chk")

def rows(path):
    with open(path) as f:
        return {int(r["index"]): r for r in csv.DictReader(f)}

def same(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))

def length(r):
    return float(r["length"]) if r["status"] == "ok" else None

print("| map | scenarios | queries | wrong vs len_gppc: hub-64 / hub-1 / EPS / Polyanya | hub-64 ≠ EPS / Polyanya | hub-1 ≠ EPS / Polyanya |")
print("|---|---|---|---|---|---|")
for m in sys.argv[1:]:
    for gen, ref in (("scen", "scen.csv"), ("scen-legacy", "scen-legacy.csv")):
        opt = {}
        with open(f"{D}/grid/optimal/{ref}") as f:
            for r in csv.DictReader(f):
                if r["map"] == m:
                    opt[int(r["idx"])] = r["len_gppc"]
        runs = {k: rows(f"{O}/{m}.{gen}.{k}.csv") for k in ("hub64", "hub1", "eps", "polyanya")}
        n = len(runs["hub64"])
        assert all(len(v) == n for v in runs.values()) and n == len(opt), (m, gen, n, len(opt))
        wrong = {k: 0 for k in runs}
        for i, want in opt.items():
            for k, v in runs.items():
                got = length(v[i])
                if want in ("", None):
                    continue
                w = float(want)
                if (w < 0) != (got is None) or (got is not None and not same(got, w)):
                    wrong[k] += 1
        def differ(a, b):
            c = 0
            for i in runs[a]:
                x, y = length(runs[a][i]), length(runs[b][i])
                if (x is None) != (y is None) or (x is not None and not same(x, y)):
                    c += 1
            return c
        print(f"| {m} | {gen} | {n} | {wrong['hub64']} / {wrong['hub1']} / {wrong['eps']} / {wrong['polyanya']} | "
              f"{differ('hub64', 'eps')} / {differ('hub64', 'polyanya')} | {differ('hub1', 'eps')} / {differ('hub1', 'polyanya')} |")
