# %% [markdown]
# # taut in a notebook
#
# Cells in the `# %%` format (Jupyter, VS Code and PyCharm run them one by one; `python
# examples/python/notebook.py` runs them all and saves the figure). Needs
# `pip install "./crates/taut-py[plot]"`.

# %%
import sys
from pathlib import Path

import numpy as np

import taut

REPO = Path(__file__).resolve().parents[2] if "__file__" in globals() else Path.cwd()
grid = taut.Grid.from_map(REPO / "fixtures" / "maps" / "arena.map")
print(grid.width, grid.height, taut.ALGOS)

# %% One exact any-angle path, and the same query 8-connected.
anya = grid.path((1, 3), (45, 40), "anya")
astar = grid.path((1, 3), (45, 40), "astar")
print(anya, astar, sep="\n")

# %% Many queries at once, on every core: statuses are `taut.Status` codes.
rng = np.random.default_rng(1)
free = np.argwhere(grid.to_numpy())[:, ::-1]  # (x, y) of free cells
starts = free[rng.integers(len(free), size=1000)]
goals = free[rng.integers(len(free), size=1000)]
cols = grid.paths(starts, goals)
found = cols["status"] == taut.Status.OK
print(f"{found.sum()} of {len(found)} found, mean length {cols['length'][found].mean():.2f}")

# %% The map with both paths.
import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")  # run as a script: draw into a file
import matplotlib.pyplot as plt  # noqa: E402

ax = grid.plot(path=anya)
astar.plot(ax, color="#d95f02", linewidth=1)
ax.set_title(f"Anya {anya.length:.2f} (teal), A* {astar.length:.2f} (orange)")
out = sys.argv[1] if len(sys.argv) > 1 and "ipykernel" not in sys.modules else "notebook.png"
ax.figure.savefig(out, dpi=120)
print("wrote", out)
