"""taut: exact shortest paths from Python.

Optimal any-angle paths on grid maps (Anya, Theta*, A*, the visibility graph, hub labels),
Euclidean shortest paths on navigation meshes (Polyanya, End Point Search) and great-circle sea
routes on the sphere (``taut.sphere``), computed by taut's Rust planners.

>>> import numpy as np, taut
>>> grid = taut.Grid(np.ones((4, 6), dtype=bool))
>>> round(grid.path((0, 0), (5, 3)).length, 6)
5.830952

Classes: :class:`Grid` (maps, single and batch queries, scenarios), :class:`PathResult`,
:class:`Scenario`, :class:`Mesh`, :class:`Cpd`, :class:`Hub`; errors are ``ValueError`` (bad queries),
``OSError`` (files that cannot be read) and :class:`FormatError` (malformed files).
"""

from ._taut import (
    Cpd,
    FormatError,
    Grid,
    Hub,
    Mesh,
    PathResult,
    Scenario,
    __version__,
)
from . import sphere

ALGOS = ("astar", "theta", "lazy-theta", "vg", "anya", "polyanya", "eps", "hub")
"""The planners ``Grid.path`` takes, as the command line names them."""

STATUS = {0: "found", 1: "unreachable", 2: "invalid"}
"""The codes of the ``status`` arrays of ``Grid.paths`` and ``Grid.run_scenario``."""

__all__ = [
    "ALGOS",
    "STATUS",
    "Cpd",
    "FormatError",
    "Grid",
    "Hub",
    "Mesh",
    "PathResult",
    "Scenario",
    "sphere",
    "__version__",
]
