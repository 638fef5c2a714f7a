"""Route a ship with and without the Suez Canal, and write both routes as GeoJSON.

    pip install ./crates/taut-py
    python examples/python/sea_route.py [RASTER] [-o OUT_PREFIX]

RASTER is a sea/land raster such as the shared data's sphere/earth_0.25deg_nav.map (default:
../shared/data/sphere/earth_0.5deg_nav.map beside the repository). Writes OUT_PREFIX-open.geojson
and OUT_PREFIX-no-suez.geojson (geojson.io and GIS tools read them).
"""

import argparse
import json
from pathlib import Path

from taut.sphere import Raster

REPO = Path(__file__).resolve().parents[2]
MUMBAI, ROTTERDAM = (18.9, 72.8), (51.9, 4.4)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raster", nargs="?", default=REPO.parent / "shared" / "data" / "sphere" / "earth_0.5deg_nav.map")
    ap.add_argument("-o", "--out", default="mumbai-rotterdam")
    args = ap.parse_args()

    earth = Raster.from_map(args.raster)
    print(f"{Path(args.raster).name}: {earth.width}x{earth.height}, passages: {', '.join(earth.passages())}")
    for name, avoid in (("open", []), ("no-suez", ["suez"])):
        r = earth.route(MUMBAI, ROTTERDAM, avoid=avoid)
        print(f"{name:8} {r.status} {r.km:9.1f} km  via {', '.join(r.passages) or '-'}"
              f"  ({len(r.legs)} legs, {r.time_us / 1000:.1f} ms)")
        path = f"{args.out}-{name}.geojson"
        with open(path, "w") as f:
            json.dump(r.geojson(), f)
        print(f"         wrote {path}")


if __name__ == "__main__":
    main()
