#!/usr/bin/env python3
"""Per-suite timings of the baseline planners, measured with `taut scen` on the 2018 MovingAI
scenario files of ../shared/data/grid (single-threaded, one planner at a time).

Usage: [SAMPLE=k] [RAW_DIR=dir] python3 benchmarks/baselines-2018.py [DATA_DIR] > results.md
(SAMPLE=k runs every k-th query of each file, which keeps every bucket; RAW_DIR keeps the csv
output of every run.)
Needs a release build: cargo build --release -p taut-cli

This is a stop-gap until the taut-bench crate (`cargo xtask bench`) lands; it prints a Markdown
table with the machine, the commit and the date.
"""
import csv, datetime, io, os, platform, subprocess, sys, tempfile
from statistics import mean, median

SUITES = {
    "dao": "arena arena2 brc202d den011d den312d den520d hrt201n lak303d orz702d orz900d ost000a ost000t ost100d",
    "sc1": "AcrosstheCape ArcticStation Aurora BigGameHunters Enigma Inferno JungleSiege Ramparts TheFrozenSea WheelofWar",
    "bg512": "AR0011SR AR0012SR AR0041SR AR0205SR AR0306SR AR0400SR AR0602SR AR0700SR",
    "da2": "ca_cave ht_chantry lt_0_lowtown w_woundedcoast",
    "street": "Berlin_0_256 Boston_0_512 Paris_0_512",
    "wc3": "battleground blastedlands duskwood",
    "rooms": "8room_000 32room_000",
    "mazes": "maze512-1-0 maze512-4-0",
    "random": "random512-10-0 random512-15-0 random512-20-0 random512-25-0 random512-30-0 random512-35-0 random512-40-0 random512-40-1",
}
ALGOS = ["astar", "theta", "lazy-theta"]

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "data")
taut = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target")), "release", "taut")


SAMPLE = int(os.environ.get("SAMPLE", "1"))
tmp = tempfile.mkdtemp(prefix="taut-bench-")


def scen_file(m):
    scen = os.path.join(data, "grid", "scen", m + ".map.scen")
    if not os.path.exists(scen) or SAMPLE == 1:
        return scen
    lines = open(scen).read().splitlines()
    sampled = os.path.join(tmp, m + ".map.scen")
    with open(sampled, "w") as f:
        f.write("\n".join([lines[0]] + [l for i, l in enumerate(lines[1:]) if l.strip() and i % SAMPLE == 0]) + "\n")
    return sampled


def run(algo, m):
    scen = scen_file(m)
    if not os.path.exists(scen):
        return None
    out = subprocess.run([taut, "scen", "--map", os.path.join(data, "grid", "maps", m + ".map"),
                          "--scen", scen, "--algo", algo], check=True, capture_output=True, text=True).stdout
    raw = os.environ.get("RAW_DIR")
    if raw:
        os.makedirs(raw, exist_ok=True)
        with open(os.path.join(raw, f"{m}.{algo}.csv"), "w") as f:
            f.write(out)
    return {int(r["index"]): r for r in csv.DictReader(io.StringIO(out))}


def cpu():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
print(f"# Baselines on the 2018 scenarios\n\nmachine: {cpu()}, {os.cpu_count()} cores; commit {commit}; "
      f"date {datetime.date.today()}; every {SAMPLE}th query of each file\n")
print("| suite | queries | A* mean µs | A* median µs | Theta* mean µs | Lazy Theta* mean µs | A* expanded | Theta* expanded | Lazy Theta* expanded | Theta* length vs A* | Lazy Theta* length vs A* |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for suite, maps in SUITES.items():
    rows = {a: [] for a in ALGOS}
    for m in maps.split():
        res = {a: run(a, m) for a in ALGOS}
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
