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

Classes: :class:`Grid` (maps, single and batch queries, scenarios, ``plot``), :class:`PathResult`,
:class:`Scenario`, :class:`Mesh`, :class:`Cpd`, :class:`Hub`; errors are ``ValueError`` (bad queries),
``OSError`` (files that cannot be read), :class:`FormatError` (malformed files),
:class:`LimitReached` (a search stopped by ``max_expansions=`` or ``timeout_ms=``) and
``TypeError`` (an unknown keyword). Batch statuses are :class:`Status` codes. ``Grid.plot`` and
``PathResult.plot`` draw with matplotlib (the ``plot`` extra).
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

import enum as _enum


class Status(_enum.IntEnum):
    """The codes of the ``status`` arrays of ``Grid.paths`` and ``Grid.run_scenario``.

    An ``IntEnum``: ``cols["status"] == taut.Status.OK`` selects the queries answered, and
    ``str(taut.Status(code))`` is the word ``PathResult.status`` and every command of the
    command line use (``ok``, ``unreachable``, ``invalid``, ``limit``).
    """

    OK = 0
    """A path was found."""
    FOUND = 0
    """The former name of :attr:`OK` (an alias: ``str(Status.FOUND) == "ok"``)."""
    UNREACHABLE = 1
    """The endpoints are valid but not connected (length ``inf``)."""
    INVALID = 2
    """An endpoint is off the map or on a blocked cell; no planner ran."""
    LIMIT = 3
    """``max_expansions=`` or ``timeout_ms=`` stopped the search first."""

    def __str__(self) -> str:
        return self.name.lower()


STATUS = {s.value: str(s) for s in Status}
"""``{code: word}`` of :class:`Status`, kept for code written before it."""

__all__ = [
    "ALGOS",
    "STATUS",
    "Status",
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
