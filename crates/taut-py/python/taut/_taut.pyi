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
    """The answer to one query."""

    @property
    def length(self) -> float: ...
    @property
    def status(self) -> str: ...
    @property
    def expanded(self) -> int: ...
    @property
    def generated(self) -> int: ...
    @property
    def time_us(self) -> float: ...
    @property
    def waypoints(self) -> npt.NDArray[np.float64]: ...

@final
class Scenario:
    """A MovingAI scenario (``.scen``)."""

    @staticmethod
    def read(path: _Path) -> Scenario: ...
    def __len__(self) -> int: ...
    @property
    def map(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, npt.NDArray[Any]]: ...

@final
class Mesh:
    """A navigation mesh ("mesh 2" files)."""

    @staticmethod
    def read(path: _Path) -> Mesh: ...
    @staticmethod
    def from_grid(grid: Grid) -> Mesh: ...
    def write(self, path: _Path) -> None: ...
    @property
    def vertex_count(self) -> int: ...
    @property
    def polygon_count(self) -> int: ...

@final
class Cpd:
    """A compressed path database of a mesh, for End Point Search."""

    @staticmethod
    def build(mesh: Mesh) -> Cpd: ...
    @staticmethod
    def load(path: _Path) -> Cpd: ...
    def save(self, path: _Path) -> None: ...
    @property
    def nodes(self) -> int: ...

@final
class Hub:
    """Hub labels of one grid map, for exact answers in microseconds (``algo="hub"``)."""

    @staticmethod
    def build(
        grid: Grid, *, region: Optional[int] = None, budget: Union[int, str, None] = None
    ) -> Hub: ...
    @staticmethod
    def load(path: _Path) -> Hub: ...
    def save(self, path: _Path) -> None: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def corners(self) -> int: ...
    @property
    def region(self) -> Optional[int]: ...
    @property
    def bytes(self) -> int: ...
    @property
    def size_bytes(self) -> int: ...
    @property
    def path(self) -> Optional[Path]: ...
    def stats(self) -> Dict[str, int]: ...

@final
class Grid:
    """A grid map: ``Grid(array)`` from a 2-D boolean array (True = free), or ``Grid.from_map``."""

    def __new__(cls, array: npt.NDArray[np.bool_]) -> Grid: ...
    @staticmethod
    def from_map(path: _Path, free: str = ".GS") -> Grid: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    def to_numpy(self) -> npt.NDArray[np.bool_]: ...
    def mesh(self) -> Mesh: ...
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
    ) -> PathResult: ...
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
    ) -> Dict[str, Any]: ...
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
    ) -> Dict[str, npt.NDArray[Any]]: ...

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
    @property
    def expanded(self) -> int: ...
    @property
    def time_us(self) -> float: ...
    def geojson(self) -> Dict[str, Any]: ...

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
        start: _LatLon,
        goal: _LatLon,
        *,
        avoid: Sequence[str] = ...,
        avoid_areas: Sequence[_Path] = ...,
        snap: bool = True,
    ) -> SeaRoute: ...
