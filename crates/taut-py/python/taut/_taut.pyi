"""Type stubs of taut's compiled module (``taut._taut``)."""

from os import PathLike
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt

__version__: str
ALGOS: Tuple[str, ...]
"""The planners ``Grid.path`` takes (``auto`` first), as the command line names them."""
__all__ = [
    "ALGOS",
    "Cpd",
    "FormatError",
    "Grid",
    "Hub",
    "LimitReached",
    "Mesh",
    "PathResult",
    "Raster",
    "Scenario",
    "SeaRoute",
    "__version__",
    "port",
]
_Path = Union[str, "PathLike[str]"]
# A lattice point (x, y): a tuple, a list or a NumPy array of two integers.
_Point = Union[Tuple[int, int], Sequence[int], npt.NDArray[np.integer[Any]]]
# (n, 2) lattice points: a NumPy array of any integer type, or a list of pairs.
_Points = Union[npt.NDArray[np.integer[Any]], Sequence[Sequence[int]]]
_LatLon = Tuple[float, float]

class FormatError(ValueError):
    """A file is malformed (map, scenario, mesh, CPD, hub index, GeoJSON area), or a CPD or hub
    index is of another map or mesh; the message names it."""

class LimitReached(RuntimeError):
    """A search stopped by its limit (``max_expansions=`` or ``timeout_ms=``) before it ended."""

    kind: str
    """``"expansions"`` or ``"timeout"``."""
    expanded: int
    """The expansions done."""
    elapsed_ms: float
    """The time spent."""

@final
class PathResult:
    """The answer to one query (``Grid.path``).

    Attributes
    ----------
    length : float
        The path's length (Euclidean; octile for ``astar``); ``inf`` when unreachable.
    status : str
        ``"ok"`` or ``"unreachable"`` (the words of :class:`taut.Status`).
    expanded, generated : int
        Nodes the search expanded and generated.
    time_us : float
        Microseconds the search took.
    waypoints : numpy.ndarray
        ``(n, 2)`` float array of ``(x, y)`` lattice points, start and goal included; empty
        when unreachable.
    """

    @property
    def length(self) -> float:
        """The path's length; ``inf`` when unreachable."""
    @property
    def status(self) -> str:
        """``"ok"`` or ``"unreachable"``."""
    @property
    def expanded(self) -> int:
        """Nodes the search expanded."""
    @property
    def generated(self) -> int:
        """Nodes the search generated."""
    @property
    def time_us(self) -> float:
        """Microseconds the search took."""
    @property
    def waypoints(self) -> npt.NDArray[np.float64]:
        """``(n, 2)`` float array of ``(x, y)``, start and goal included (empty when
        unreachable)."""
    def plot(self, ax: Optional[Any] = None, **style: Any) -> Any:
        """Draw the path with matplotlib (``pip install "taut[plot]"``).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; new axes when omitted.
        **style
            Passed to ``Axes.plot`` (default: a teal line 2 points wide).

        Returns
        -------
        matplotlib.axes.Axes
            The axes, y inverted (y runs south, as on the map). ``Grid.plot(path=...)`` draws
            the map under the path.
        """

@final
class Scenario:
    """A MovingAI scenario (``.scen``): queries with their 8-connected optimum."""

    @staticmethod
    def load(path: _Path) -> Scenario:
        """Read a ``.scen`` file.

        Raises
        ------
        OSError
            The file cannot be read.
        taut.FormatError
            The file is malformed (the message names the line).
        """
    @staticmethod
    def read(path: _Path) -> Scenario:
        """Deprecated: use :meth:`Scenario.load` (warns ``DeprecationWarning``)."""
    def __len__(self) -> int: ...
    @property
    def map(self) -> Optional[str]:
        """The map file name of the first query (``"arena.map"``), or None when empty."""
    def to_dict(self) -> Dict[str, npt.NDArray[Any]]:
        """The queries as columns: ``index``, ``sx``, ``sy``, ``gx``, ``gy``, ``octile``."""

@final
class Mesh:
    """A navigation mesh of convex polygons ("mesh 2" files), what Polyanya and End Point
    Search search."""

    @staticmethod
    def load(path: _Path) -> Mesh:
        """Read a "mesh 2" file; every record is checked.

        Raises
        ------
        OSError
            The file cannot be read.
        taut.FormatError
            The file is not a valid mesh (the message names what and where).
        """
    @staticmethod
    def read(path: _Path) -> Mesh:
        """Deprecated: use :meth:`Mesh.load` (warns ``DeprecationWarning``)."""
    @staticmethod
    def from_grid(grid: Grid) -> Mesh:
        """The mesh taut builds from a grid (the one ``grid.mesh()`` keeps)."""
    def save(self, path: _Path) -> None:
        """Write the mesh as a "mesh 2" file. Raises OSError when it cannot be written."""
    def write(self, path: _Path) -> None:
        """Deprecated: use :meth:`Mesh.save` (warns ``DeprecationWarning``)."""
    @property
    def vertex_count(self) -> int:
        """Number of vertices."""
    @property
    def polygon_count(self) -> int:
        """Number of polygons."""

@final
class Cpd:
    """A compressed path database of a mesh, for End Point Search (``algo="eps"``)."""

    @staticmethod
    def build(mesh: Mesh) -> Cpd:
        """Build the CPD of ``mesh`` on every core, with the GIL released."""
    @staticmethod
    def load(path: _Path) -> Cpd:
        """Read a CPD file (``taut cpd build``, :meth:`Cpd.save`).

        Raises
        ------
        OSError
            The file cannot be read.
        taut.FormatError
            The file is truncated, damaged or of another format version.
        """
    def save(self, path: _Path) -> None:
        """Write the CPD to a file, atomically (a reader never sees half a file)."""
    @property
    def nodes(self) -> int:
        """Corners (nodes) of its graph."""

@final
class Hub:
    """Hub labels of one grid map, for exact answers in microseconds (``algo="hub"``)."""

    @staticmethod
    def build(
        grid: Grid, *, region: Optional[int] = None, budget: Union[int, str, None] = None
    ) -> Hub:
        """Build the hub index of ``grid`` on its mesh, on every core, GIL released.

        Parameters
        ----------
        grid : Grid
            The map.
        region : int, optional
            Share labels among regions of ``region`` x ``region`` cells (1 to 64): a smaller
            index, slower queries, still exact. Default: every lattice point its own label.
        budget : int or str, optional
            Build the finest index whose size in memory and on disk fits: bytes as an int, or
            a size such as ``"64MB"``, ``"2GB"``, ``"1.5GiB"``. Not with ``region``.

        Raises
        ------
        ValueError
            Both ``region`` and ``budget``, a side out of range, or a budget no index fits
            (the message names the smallest size).
        TypeError
            A budget that is not a size.
        """
    @staticmethod
    def load(path: _Path) -> Hub:
        """Read a hub index file (``taut hub build``, :meth:`Hub.save`); every byte is checked.

        Raises
        ------
        OSError
            The file cannot be read.
        taut.FormatError
            It is not a whole hub index of this format version.
        """
    def save(self, path: _Path) -> None:
        """Write the index, atomically (into ``path.tmp``, then renamed)."""
    @property
    def width(self) -> int:
        """Columns of the map the index answers."""
    @property
    def height(self) -> int:
        """Rows of the map the index answers."""
    @property
    def corners(self) -> int:
        """Convex corners of the map's mesh (the hubs)."""
    @property
    def region(self) -> Optional[int]:
        """The side of the regions sharing labels, or None when every point has its own."""
    @property
    def bytes(self) -> int:
        """Bytes the index holds in memory."""
    @property
    def size_bytes(self) -> int:
        """The size a budget counts: the larger of ``bytes`` and its file's length."""
    @property
    def path(self) -> Optional[Path]:
        """The file it was read from, or None when built here."""
    def stats(self) -> Dict[str, int]:
        """Its sizes: ``corners``, ``edges``, ``core_entries``, ``points``,
        ``point_entries``, ``region``, ``region_hubs``, ``region_vias``, ``bytes``."""

@final
class Grid:
    """A grid map: ``Grid(array)`` from a 2-D boolean array (True = free; rows are y, columns
    x), or :meth:`Grid.from_map`.

    Cell ``(x, y)`` is the unit square from ``(x, y)`` to ``(x + 1, y + 1)``, x east, y south.
    Queries are between lattice points: ``(x, y)`` is the top-left corner of cell ``(x, y)``,
    valid when that cell is on the map and free. The grid keeps warm planners, its mesh, CPD
    and hub index between calls.
    """

    def __new__(cls, array: npt.NDArray[np.bool_]) -> Grid: ...
    @staticmethod
    def from_map(path: _Path, free: str = ".GS") -> Grid:
        """Read a MovingAI ``.map`` file.

        Parameters
        ----------
        path : str or os.PathLike
            The file.
        free : str, default ".GS"
            The terrain characters that are free; every other one is blocked.

        Raises
        ------
        OSError
            The file cannot be read.
        taut.FormatError
            The file is malformed (the message names the line).
        """
    @property
    def width(self) -> int:
        """Columns."""
    @property
    def height(self) -> int:
        """Rows."""
    def to_numpy(self) -> npt.NDArray[np.bool_]:
        """The cells as a ``(height, width)`` boolean array, True for free."""
    def mesh(self) -> Mesh:
        """The grid's navigation mesh (built on first use, then kept)."""
    def plot(self, ax: Optional[Any] = None, path: Optional[PathResult] = None) -> Any:
        """Draw the map with matplotlib (``pip install "taut[plot]"``).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Where to draw; new axes when omitted.
        path : PathResult, optional
            A path to draw over the map.

        Returns
        -------
        matplotlib.axes.Axes
            The axes: free cells light, blocked cells dark, in map units (y south).
        """
    def path(
        self,
        start: _Point,
        goal: _Point,
        algo: str = "auto",
        *,
        cpd: Optional[Cpd] = None,
        hub: Optional[Hub] = None,
        max_expansions: Optional[int] = None,
        timeout_ms: Optional[float] = None,
        cul_de_sac: bool = True,
        intermediate: bool = True,
        history: Optional[str] = None,
        stop: Optional[str] = None,
        quality: Optional[float] = None,
    ) -> PathResult:
        """The shortest path from ``start`` to ``goal``.

        Parameters
        ----------
        start, goal : pair of int
            Lattice points ``(x, y)``: tuples, lists or NumPy arrays of two integers.
        algo : str, default "auto"
            A planner of :data:`taut.ALGOS`: ``auto`` (the fastest exact planner for what the
            grid holds), ``astar``, ``theta``, ``lazy-theta``, ``vg``, ``anya``, ``ray``,
            ``polyanya``, ``eps``, ``hub``.
        cpd : Cpd, optional
            A CPD of ``grid.mesh()`` for ``eps`` (else one is built in memory and kept).
        hub : Hub, optional
            A hub index of this grid for ``hub`` (else one is built in memory and kept).
        max_expansions : int, optional
            Stop the search after this many expansions (``eps`` and ``hub`` ignore it).
        timeout_ms : float, optional
            Stop the search after this many milliseconds.
        cul_de_sac : bool, default True
            Anya and Polyanya: ``False`` turns the cul-de-sac pruning off.
        intermediate : bool, default True
            Anya and Polyanya: ``False`` turns the intermediate pruning off.
        history : {"auto", "hash", "flat"}, optional
            Anya's root history.
        stop : {"optimal", "first"}, optional
            End Point Search: stop at the proven optimum (default) or at the first path.
        quality : float, optional
            End Point Search: stop at a path within this factor (``>= 1``) of the optimum.

        Returns
        -------
        PathResult
            Its ``length`` is ``inf`` and ``status`` ``"unreachable"`` when no path exists.

        Raises
        ------
        ValueError
            An endpoint off the map or on a blocked cell, an unknown planner, or an option
            the planner does not take.
        TypeError
            An unknown keyword, or an end that is not two integers.
        taut.FormatError
            A CPD or hub index of another map or mesh.
        taut.LimitReached
            ``max_expansions`` or ``timeout_ms`` stopped the search (its ``kind``,
            ``expanded`` and ``elapsed_ms`` say why and what was done).

        Examples
        --------
        >>> import numpy as np, taut
        >>> grid = taut.Grid(np.ones((4, 6), dtype=bool))
        >>> round(grid.path((0, 0), (5, 3)).length, 6)
        5.830952
        """
    def paths(
        self,
        starts: _Points,
        goals: _Points,
        algo: str = "auto",
        *,
        threads: Optional[int] = None,
        return_paths: bool = False,
        cpd: Optional[Cpd] = None,
        hub: Optional[Hub] = None,
        max_expansions: Optional[int] = None,
        timeout_ms: Optional[float] = None,
        cul_de_sac: bool = True,
        intermediate: bool = True,
        history: Optional[str] = None,
        stop: Optional[str] = None,
        quality: Optional[float] = None,
    ) -> Dict[str, Any]:
        """Many queries at once, on every core, with the GIL released.

        Parameters
        ----------
        starts, goals : array_like
            ``(n, 2)`` integer arrays (or lists of pairs) of lattice points ``(x, y)``.
        algo : str, default "auto"
            As for :meth:`Grid.path`; with ``auto`` the grid first builds its mesh when
            Polyanya pays on this map.
        threads : int, optional
            Threads to use (default: every core), the calling thread among them.
        return_paths : bool, default False
            Also return the waypoints of every query.
        cpd, hub, max_expansions, timeout_ms
            As for :meth:`Grid.path`; a limit bounds each query on its own.
        cul_de_sac : bool, default True
            Anya and Polyanya: ``False`` turns the cul-de-sac pruning off.
        intermediate : bool, default True
            Anya and Polyanya: ``False`` turns the intermediate pruning off.
        history : {"auto", "hash", "flat"}, optional
            Anya's root history.
        stop : {"optimal", "first"}, optional
            End Point Search: stop at the proven optimum (default) or at the first path.
        quality : float, optional
            End Point Search: stop at a path within this factor (``>= 1``) of the optimum.

        Returns
        -------
        dict
            ``length`` (float, ``inf`` unless found), ``status`` (int8 :class:`taut.Status`
            codes), ``expanded`` (uint64; for ``LIMIT`` the work done), and with
            ``return_paths=True`` ``paths``: a list of ``(k, 2)`` float arrays.

        Raises
        ------
        ValueError
            Arrays that are not ``(n, 2)`` or not of the same ``n``, an unknown planner.
        TypeError
            An unknown keyword, or float arrays.
        KeyboardInterrupt
            Ctrl-C stops the batch.
        """
    def run_scenario(
        self,
        scen: Scenario,
        algo: str = "auto",
        *,
        cpd: Optional[Cpd] = None,
        hub: Optional[Hub] = None,
        max_expansions: Optional[int] = None,
        timeout_ms: Optional[float] = None,
        cul_de_sac: bool = True,
        intermediate: bool = True,
        history: Optional[str] = None,
        stop: Optional[str] = None,
        quality: Optional[float] = None,
    ) -> Dict[str, npt.NDArray[Any]]:
        """Run every query of a scenario on this grid, one by one on a warm planner.

        Parameters
        ----------
        scen : Scenario
            The queries (:meth:`Scenario.load`).
        algo, cpd, hub, max_expansions, timeout_ms
            As for :meth:`Grid.paths`.
        cul_de_sac : bool, default True
            Anya and Polyanya: ``False`` turns the cul-de-sac pruning off.
        intermediate : bool, default True
            Anya and Polyanya: ``False`` turns the intermediate pruning off.
        history : {"auto", "hash", "flat"}, optional
            Anya's root history.
        stop : {"optimal", "first"}, optional
            End Point Search: stop at the proven optimum (default) or at the first path.
        quality : float, optional
            End Point Search: stop at a path within this factor (``>= 1``) of the optimum.

        Returns
        -------
        dict of numpy.ndarray
            Columns ready for ``pandas.DataFrame``: ``index``, ``sx``, ``sy``, ``gx``,
            ``gy``, ``octile`` (the scenario's 8-connected optimum), ``length``, ``status``
            (:class:`taut.Status` codes), ``expanded``, ``time_us``.

        Raises
        ------
        ValueError
            The scenario is for a map of another size.
        """

@final
class SeaRoute:
    """A sea route found by ``Raster.route``."""

    @property
    def status(self) -> str: ...
    @property
    def km(self) -> float: ...
    @property
    def nm(self) -> float: ...
    @property
    def ends(self) -> Tuple[_LatLon, _LatLon]: ...
    @property
    def snap_km(self) -> Tuple[float, float]: ...
    @property
    def waypoints(self) -> npt.NDArray[np.float64]: ...
    @property
    def legs(self) -> List[Dict[str, Any]]: ...
    @property
    def passages(self) -> List[str]: ...
    @property
    def avoided(self) -> List[str]: ...
    def eta_hours(self, speed_knots: float) -> float:
        """Hours at sea at ``speed_knots`` (nautical miles per hour); ``inf`` when
        unreachable. Raises ValueError unless the speed is positive and finite."""
    @property
    def expanded(self) -> int: ...
    @property
    def time_us(self) -> float: ...
    def geojson(self) -> Dict[str, Any]: ...

def port(code: str) -> Dict[str, Any]:
    """The port of a UN/LOCODE.

    Parameters
    ----------
    code : str
        Two letters of the country and three of the place (``"CNSHA"``); case does not
        matter.

    Returns
    -------
    dict
        ``code``, ``name``, ``lat``, ``lon`` (degrees).

    Raises
    ------
    ValueError
        The code is not in the list (3,923 ports from the searoute package's list); the
        message suggests close codes.
    """

@final
class Raster:
    """A sea/land raster covering the sphere."""

    @staticmethod
    def from_map(path: _Path, transposed: bool = False) -> Raster: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    def passages(self) -> List[str]: ...
    def route(
        self,
        start: Union[_LatLon, str],
        goal: Union[_LatLon, str],
        *,
        avoid: Sequence[str] = ...,
        avoid_areas: Sequence[_Path] = ...,
        allow: Sequence[str] = ...,
        snap: bool = True,
    ) -> SeaRoute:
        """The shortest sea route from ``start`` to ``goal``.

        Parameters
        ----------
        start, goal : tuple of float, or str
            ``(lat, lon)`` in degrees, north and east positive, or a port's UN/LOCODE
            (``"CNSHA"``, see ``taut.sphere.port``). An end on land moves to the nearest sea
            cell.
        avoid : sequence of str
            Named passages to close for this request (``["suez", "panama"]``).
        avoid_areas : sequence of path
            GeoJSON files whose polygons' cells are closed for this request.
        allow : sequence of str
            Ice gates to open (``"bering"``, ``"northwest-passage"``,
            ``"northern-sea-route"``, ``"central-arctic"``, or ``"arctic"`` for all): they are
            closed by default, since the rasters have no sea ice.
        snap : bool
            Move an end on land to the sea (else a ValueError).

        Returns
        -------
        SeaRoute
            ``status`` ``"ok"`` or ``"unreachable"``, ``km``, ``passages`` used, ...

        Raises
        ------
        ValueError
            An unknown passage or port, a bad coordinate, an end on land with ``snap=False``.

        Warns
        -----
        UserWarning
            An end lies in a closed passage (a port in the Canadian archipelago with the
            Northwest Passage closed): it moved out of it, and ``snap_km`` says how far.
        """
