"""taut: exact shortest paths from Python.

Optimal any-angle paths on grid maps (Anya, Theta*, A*, the visibility graph, hub labels),
Euclidean shortest paths on navigation meshes (Polyanya, End Point Search) and great-circle sea
routes on the sphere (``taut.sphere``), computed by taut's Rust planners.

>>> import numpy as np, taut
>>> grid = taut.Grid(np.ones((4, 6), dtype=bool))
>>> round(grid.path((0, 0), (5, 3)).length, 6)
5.830952

Queries name a planner of :data:`ALGOS` (the command line's names, read off taut's table of
planners); the default, ``"auto"``, is the fastest exact one for what the grid holds: hub labels
with a hub index, End Point Search with a CPD, else Polyanya on the grid's mesh or Anya.

Classes: :class:`Grid` (maps, single and batch queries, scenarios), :class:`PathResult`,
:class:`Scenario`, :class:`Mesh`, :class:`Cpd`, :class:`Hub`; errors are ``ValueError`` (bad queries),
``OSError`` (files that cannot be read), :class:`FormatError` (malformed files) and
:class:`LimitReached` (a search stopped by ``max_expansions=`` or ``timeout_ms=``).
"""

from ._taut import (
    ALGOS,
    Cpd,
    FormatError,
    Grid,
    Hub,
    LimitReached,
    Mesh,
    PathResult,
    Scenario,
    __version__,
)
from . import sphere

# ALGOS: the planners ``Grid.path`` takes (``auto`` first), from the compiled module.

STATUS = {0: "found", 1: "unreachable", 2: "invalid", 3: "limit"}
"""The codes of the ``status`` arrays of ``Grid.paths`` and ``Grid.run_scenario``."""

__all__ = [
    "ALGOS",
    "STATUS",
    "Cpd",
    "FormatError",
    "Grid",
    "Hub",
    "LimitReached",
    "Mesh",
    "PathResult",
    "Scenario",
    "sphere",
    "__version__",
]
