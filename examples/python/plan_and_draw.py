"""Plan on a grid map with Anya (any-angle, optimal) and A* (8-connected), and draw the map and
both paths into a PNG with matplotlib.

    pip install ./crates/taut-py matplotlib
    python examples/python/plan_and_draw.py [MAP] [SX SY GX GY] [-o OUT.png]

Defaults: the Dragon Age map shipped in fixtures/maps/arena.map, from (1, 3) to (45, 40).
"""

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import taut  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map", nargs="?", default=REPO / "fixtures" / "maps" / "arena.map")
    ap.add_argument("ends", nargs="*", type=int, default=[1, 3, 45, 40], metavar="N")
    ap.add_argument("-o", "--out", default="plan.png")
    args = ap.parse_args()
    if len(args.ends) != 4:
        ap.error("give the start and goal as SX SY GX GY")
    start, goal = tuple(args.ends[:2]), tuple(args.ends[2:])

    grid = taut.Grid.from_map(args.map)
    anya = grid.path(start, goal, "anya")
    astar = grid.path(start, goal, "astar")
    print(f"anya  {anya.status} length {anya.length:.4f} ({len(anya.waypoints)} waypoints)")
    print(f"astar {astar.status} length {astar.length:.4f} ({len(astar.waypoints)} waypoints)")

    fig, ax = plt.subplots(figsize=(7, 7 * grid.height / grid.width))
    # Cell (x, y) spans x..x+1, y..y+1; paths run between cell corners.
    ax.imshow(~grid.to_numpy(), cmap="Greys", extent=(0, grid.width, grid.height, 0), vmin=0, vmax=1.6)
    for result, colour, name in ((astar, "tab:orange", "A* (8-connected)"), (anya, "tab:blue", "Anya (any-angle, optimal)")):
        if result.status == "ok":
            w = result.waypoints
            ax.plot(w[:, 0], w[:, 1], color=colour, lw=2, marker="o", ms=3,
                    label=f"{name}: {result.length:.2f}")
    ax.plot(*start, "o", color="tab:green", ms=8)
    ax.plot(*goal, "o", color="tab:red", ms=8)
    ax.set_title(f"{Path(args.map).name}: {start} → {goal}")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
