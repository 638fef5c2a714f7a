#!/usr/bin/env python3
"""taut beside searoute, in one Python process: km and time per route on the same port pairs.

Run by `taut-bench searoute --python PY` (docs/bench.md, "Beside searoute"), with a Python
that has both packages: `pip install searoute==1.6.0 ./crates/taut-py` in a scratch virtual
environment (searoute comes from PyPI; nothing of it is in this repository).

    PY searoute_sbs.py --map earth_0.25deg_nav.map --shared port_pairs.csv \
        --random 200 --seed 7 --repeat 3 > routes.csv

The pairs: every row of the shared `port_pairs.csv` (UN/LOCODE and coordinates), then
`--random` pairs of distinct ports drawn with `--seed` from taut's port list
(`taut.sphere.port`'s list: the ports both tools know by code). Each pair is routed once to
warm up and then `--repeat` times by each tool, alternating, and each time is the minimum
over the repeats (wall clock, `time.perf_counter_ns`, around the one call):

- taut: `Raster.route(start, goal)` on the raster, ice gates closed (the default);
- searoute: `searoute.searoute([lon, lat], [lon, lat], units="km", return_passages=True)`
  with its defaults (the Northwest Passage restricted).

A pair one tool cannot route is written with an empty km and the reason in `note` (searoute
warns and returns a route of length 0 when its restrictions leave no path). searoute's route
starts and ends at the nodes of its network nearest the ports, and its length leaves out the
way from each port to its node: `searoute_snap_km` is the sum of those two great-circle
distances, as `taut_snap_km` is the sum of taut's two snaps to the nearest sea cell.
"""

import argparse
import csv
import math
import random
import sys
import time
import warnings

import searoute
import taut
from taut.sphere import Raster


def km(a, b):
    """Great-circle km between (lon, lat) points, on the sphere of radius 6371 km."""
    (lo1, la1), (lo2, la2) = [(math.radians(p[0]), math.radians(p[1])) for p in (a, b)]
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(h)))


def timed(f, repeat):
    best, out = None, None
    for _ in range(repeat):
        t = time.perf_counter_ns()
        out = f()
        dt = (time.perf_counter_ns() - t) / 1e3
        best = dt if best is None else min(best, dt)
    return out, best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--map", required=True)
    ap.add_argument("--shared", help="port_pairs.csv of the shared data")
    ap.add_argument("--random", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ports", help="ports.tsv (taut's list), for the random pairs")
    a = ap.parse_args()

    pairs = []
    if a.shared:
        for r in csv.DictReader(open(a.shared, encoding="utf-8")):
            pairs.append(("shared", r["from"], r["to"]))
    codes = []
    if a.ports:
        for line in open(a.ports, encoding="utf-8"):
            if line.startswith("#") or line.startswith("locode\t"):
                continue
            codes.append(line.split("\t")[0])
    rng = random.Random(a.seed)
    while len(codes) > 1 and sum(p[0] == "random" for p in pairs) < a.random:
        s, g = rng.sample(codes, 2)
        pairs.append(("random", s, g))

    raster = Raster.from_map(a.map)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["set", "from", "to", "from_lat", "from_lon", "to_lat", "to_lon",
                "taut_status", "taut_km", "taut_snap_km", "taut_us", "taut_passages",
                "searoute_km", "searoute_snap_km", "searoute_us", "searoute_passages", "note"])
    for kind, s, g in pairs:
        ps, pg = taut.sphere.port(s), taut.sphere.port(g)
        note = []
        try:
            raster.route(s, g)
            r, t_us = timed(lambda: raster.route(s, g), a.repeat)
            t = (r.status, f"{r.km:.3f}" if r.status == "ok" else "",
                 f"{sum(r.snap_km):.3f}", f"{t_us:.1f}", ";".join(r.passages))
        except ValueError as e:
            t = ("invalid", "", "", "", "")
            note.append(f"taut: {e}")
        try:
            o, d = [ps["lon"], ps["lat"]], [pg["lon"], pg["lat"]]
            with warnings.catch_warnings(record=True) as said:
                warnings.simplefilter("always")
                searoute.searoute(o, d, units="km", return_passages=True)
                f, s_us = timed(
                    lambda: searoute.searoute(o, d, units="km", return_passages=True), a.repeat)
            line = f["geometry"]["coordinates"]
            length = f["properties"]["length"]
            if length == 0 and km(o, d) > 1:
                sr = ("", "", "", "")
                note.append("searoute: no path" + "".join(f" ({w.message})" for w in said[:1]))
            else:
                snap = km(o, line[0]) + km(d, line[-1])
                sr = (f"{length:.3f}", f"{snap:.3f}", f"{s_us:.1f}",
                      ";".join(f["properties"].get("traversed_passages", [])))
        except Exception as e:  # noqa: BLE001 - searoute raises whatever its graph code does
            sr = ("", "", "", "")
            note.append(f"searoute: {type(e).__name__}: {e}")
        w.writerow([kind, s, g, ps["lat"], ps["lon"], pg["lat"], pg["lon"], *t, *sr,
                    " | ".join(note)])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
