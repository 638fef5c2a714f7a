#!/usr/bin/env python3
"""Anya against A* per suite, and the effect of Anya's pruning rules and root-history storage,
measured with `taut scen` on the 2018 MovingAI scenario files of ../shared/data/grid.

Usage: [SAMPLE=k] [RAW_DIR=dir] python3 benchmarks/anya-2018.py [DATA_DIR] > results.md
(SAMPLE=k runs every k-th query of each file, which keeps every bucket; RAW_DIR keeps the csv
output of every run as MAP.VARIANT.csv.)
Needs a release build: cargo build --release -p taut-cli

Runs are single-threaded, one process at a time, and interleaved: every variant runs on a map
before the next map starts (in an order rotated from map to map), so that a change in machine
load hits all variants alike. Every Anya length is checked against `len_gppc` of
optimal/scen.csv to 1e-6 as the runs come in; the script stops with exit status 1 on the first
map with a mismatch. A stop-gap until the taut-bench crate (`cargo xtask bench`) lands.
"""
import csv, os, re, sys, time
from statistics import mean, median

from _common import DATA, SUITES, check_binary, header_line, run

# (key, column label, `taut scen` arguments). The first Anya variant is the default.
VARIANTS = [
    ("astar", "A*", ["--algo", "astar"]),
    ("anya", "default", ["--algo", "anya"]),
    ("no-cds", "no cul-de-sac", ["--algo", "anya", "--no-cul-de-sac"]),
    ("no-int", "no intermediate", ["--algo", "anya", "--no-intermediate"]),
    ("no-both", "neither", ["--algo", "anya", "--no-cul-de-sac", "--no-intermediate"]),
    ("hash", "hash history", ["--algo", "anya", "--root-history", "hash"]),
]
ANYA = [k for k, _, a in VARIANTS if "anya" in a]
PRUNING = ["anya", "no-cds", "no-int", "no-both"]
LABEL = {k: l for k, l, _ in VARIANTS}
TOL = 1e-6


def row_names(suite, m):
    """The table rows a map counts in: its suite, and for random maps also randomNN (density)."""
    names = [suite]
    d = re.match(r"random\d+-(\d+)-", m)
    if suite == "random" and d:
        names.append(f"random{d.group(1)}")
    return names


def load_reference():
    path = os.path.join(DATA, "grid", "optimal", "scen.csv")
    if not os.path.exists(path):
        sys.exit(f"no reference optima at {path}")
    return {(r["map"], int(r["idx"])): r for r in csv.DictReader(open(path))}


def fail(msg, lines):
    print(f"\n*** anya-2018.py: {msg} ***", file=sys.stderr)
    for line in lines[:30]:
        print("  " + line, file=sys.stderr)
    if len(lines) > 30:
        print(f"  ... and {len(lines) - 30} more", file=sys.stderr)
    sys.exit(1)


def pct(new, old):
    return f"{100 * (new / old - 1):+.1f} %" if old else "–"


def ratio(a, b):
    return f"{a / b:.2f}" if b else "–"


def main():
    check_binary()
    ref = load_reference()
    t0, load0 = time.time(), os.getloadavg()
    # Table rows in order: each suite, with the random densities after "random".
    rows = {}
    for suite, maps in SUITES.items():
        for m in maps.split():
            for name in row_names(suite, m):
                rows.setdefault(name, [])
    checked = unchecked = astar_checked = astar_mismatch = hash_exp_diff = same_point = 0
    skipped_maps = []
    n_map = 0
    for suite, maps in SUITES.items():
        for m in maps.split():
            order = VARIANTS[n_map % len(VARIANTS):] + VARIANTS[:n_map % len(VARIANTS)]
            res = {}
            for key, _, args in order:
                res[key] = run(m, args, key)
                if res[key] is None:
                    break
                print(f"{m}: {key} done ({time.time() - t0:.0f} s)", file=sys.stderr)
            if res[order[0][0]] is None:
                skipped_maps.append(m)
                continue
            n_map += 1
            bad = []
            for idx, ra in sorted(res["astar"].items()):
                q = ref.get((m, idx))
                if q is None:
                    fail(f"{m} query {idx} is not in optimal/scen.csv", [])
                for key in res:
                    r = res[key][idx]
                    if (r["start_x"], r["start_y"], r["goal_x"], r["goal_y"]) != (q["sx"], q["sy"], q["gx"], q["gy"]):
                        fail(f"{m} query {idx}: endpoints differ from optimal/scen.csv", [str(r), str(q)])
                # A*: octile optimum (reported, not fatal).
                if ra["status"] == "ok":
                    astar_checked += 1
                    if abs(float(ra["length"]) - float(q["octile_len"])) > TOL:
                        astar_mismatch += 1
                want = q["len_gppc"]
                for key in ANYA:
                    r = res[key][idx]
                    if want == "":
                        unchecked += 1
                        continue
                    checked += 1
                    w = float(want)
                    if w < 0:
                        ok = r["status"] == "invalid"
                    else:
                        ok = r["status"] == "ok" and abs(float(r["length"]) - w) <= TOL
                    if not ok:
                        bad.append(f"{m} idx {idx} ({q['sx']},{q['sy']})->({q['gx']},{q['gy']}) {LABEL[key]}: "
                                   f"{r['status']} {r['length']}, len_gppc {want}")
                if res["anya"][idx]["expanded"] != res["hash"][idx]["expanded"]:
                    hash_exp_diff += 1
                if ra["status"] != "ok":
                    continue
                if (q["sx"], q["sy"]) == (q["gx"], q["gy"]):
                    same_point += 1
                    continue
                rec = {k: (float(res[k][idx]["time_us"]), int(res[k][idx]["expanded"]),
                           int(res[k][idx]["generated"])) for k in res}
                je = q["anya_java_expanded"]
                rec["java"] = int(je) if je not in ("", "-1") else None
                for name in row_names(suite, m):
                    rows[name].append(rec)
            if bad:
                fail(f"{len(bad)} Anya lengths on {m} differ from len_gppc by more than {TOL}", bad)
    elapsed, load1 = time.time() - t0, os.getloadavg()

    out = []
    p = out.append
    p("# Anya on the 2018 scenarios\n")
    p(header_line() + "\n")
    p(f"Length check: {checked} Anya lengths ({len(ANYA)} variants) compared with `len_gppc` of "
      f"optimal/scen.csv to {TOL:g}: **0 mismatches**" + (f" ({unchecked} without a reference)" if unchecked else "")
      + f"; A* against the octile optimum: {astar_mismatch} mismatches in {astar_checked}.\n")
    p(f"Run: {elapsed:.0f} s wall; load average {load0[0]:.2f} at the start, {load1[0]:.2f} at the end"
      + (f"; maps without a scenario file: {', '.join(skipped_maps)}" if skipped_maps else "") + ".\n")

    p("## 1. Anya against A*\n")
    p("| suite | queries | A* mean µs | A* median µs | Anya mean µs | Anya median µs | time speedup (means) "
      "| time speedup (median per query) | A* mean expanded | Anya mean expanded | expansion speedup "
      "| Java Anya mean expanded | Anya / Java expanded | Anya faster than A* |")
    p("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, rs in rows.items():
        if not rs:
            continue
        ta = [r["astar"][0] for r in rs]
        ty = [r["anya"][0] for r in rs]
        ea = mean(r["astar"][1] for r in rs)
        ey = mean(r["anya"][1] for r in rs)
        per_query = median(a / max(y, 1e-3) for a, y in zip(ta, ty))
        java = [r for r in rs if r["java"] is not None]
        jy = mean(r["anya"][1] for r in java) if java else 0
        jj = mean(r["java"] for r in java) if java else 0
        jcol = f"{jj:.0f}" + ("" if len(java) == len(rs) else f" ({len(java)} q.)")
        faster = sum(y < a for a, y in zip(ta, ty)) / len(rs)
        p(f"| {name} | {len(rs)} | {mean(ta):.1f} | {median(ta):.1f} | {mean(ty):.1f} | {median(ty):.1f} "
          f"| {ratio(mean(ta), mean(ty))} | {per_query:.2f} | {ea:.0f} | {ey:.0f} | {ratio(ea, ey)} "
          f"| {jcol} | {ratio(jy, jj)} | {100 * faster:.1f} % |")
    p("")

    for title, col in (("2a. Pruning rules: mean µs per query", 0), ("2b. Pruning rules: mean expanded nodes", 1),
                       ("2c. Pruning rules: mean generated nodes", 2)):
        p(f"## {title} (change against default Anya)\n")
        p("| suite | " + " | ".join(LABEL[k] for k in PRUNING) + " |")
        p("|---|" + "---|" * len(PRUNING))
        for name, rs in rows.items():
            if not rs:
                continue
            m = {k: mean(r[k][col] for r in rs) for k in PRUNING}
            fmt = "{:.1f}" if col == 0 else "{:.0f}"
            cells = [fmt.format(m["anya"])] + [f"{fmt.format(m[k])} ({pct(m[k], m['anya'])})" for k in PRUNING[1:]]
            p(f"| {name} | " + " | ".join(cells) + " |")
        p("")

    p("## 3. Root history: flat array against hash table\n")
    p("| suite | flat mean µs | hash mean µs | hash vs flat (means) | hash / flat (median per query) |")
    p("|---|---|---|---|---|")
    for name, rs in rows.items():
        if not rs:
            continue
        tf = mean(r["anya"][0] for r in rs)
        th = mean(r["hash"][0] for r in rs)
        med = median(r["hash"][0] / max(r["anya"][0], 1e-3) for r in rs)
        p(f"| {name} | {tf:.1f} | {th:.1f} | {pct(th, tf)} | {med:.2f} |")
    p("")

    p(f"""Notes:
- Times are the `time_us` column of `taut scen` (the planner alone, one query, excluding map
  loading), single-threaded, one process at a time, each process starting with an untimed
  warm-up query (the map's last sampled query). Every variant ran on a map before the next
  map started, the order of the variants rotated from map to map.
- "Anya" is the default (both pruning rules, flat root history). Means and medians are over
  the queries A* solved whose start and goal differ ({same_point} start == goal queries
  excluded); `randomNN` rows split `random` by obstacle density.
- Time speedup (median per query): the median over queries of A* µs / Anya µs. Expansion
  speedup: A* mean expanded / Anya mean expanded. Anya faster than A*: the fraction of queries
  with a smaller Anya time.
- Java Anya mean expanded: `anya_java_expanded` of optimal/scen.csv (the reference Java Anya of
  the 2016 paper, its own counter) over the same queries.
- Flat and hash root histories expanded different node counts on {hash_exp_diff} queries (0 expected:
  the storage must not change the search).""")
    print("\n".join(out))


main()
