"""Tests of the Python module `taut` (run with pytest after `pip install ./crates/taut-py`).

- Answers equal the command line's (`taut scen`, `taut route --format json`) on the fixtures.
- NumPy round trips; the batch equals the queries one by one, on 1 and 2 threads.
- The GIL is released during a batch: another Python thread makes progress meanwhile.
- Every error path raises the documented exception with the library's one-line message.
- With the shared reference data (`../shared/data`), a sample of the optimal lengths
  (`grid/optimal/scen.csv`) is matched; without it the test is skipped with the reason.
"""

import csv
import io
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import taut
from taut.sphere import Raster

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "fixtures"
ARENA = FIXTURES / "maps" / "arena.map"
ARENA_SCEN = FIXTURES / "maps" / "arena.map.scen"
SHARED = Path(os.environ.get("TAUT_DATA", REPO.parent / "shared" / "data"))
ANY_ANGLE = ("theta", "lazy-theta", "vg", "anya", "polyanya", "eps")
OPTIMAL = ("vg", "anya", "polyanya", "eps")


def cli():
    """The `taut` binary of this checkout (built by `cargo build --release -p taut-cli`)."""
    exe = Path(os.environ.get("TAUT_BIN", REPO / "target" / "release" / "taut"))
    if not exe.exists():
        pytest.skip(f"the taut binary is not built at {exe} (cargo build --release -p taut-cli)")
    return str(exe)


def require_shared(what):
    if not (SHARED / "grid").is_dir():
        if os.environ.get("TAUT_REQUIRE_DATA") == "1":
            pytest.fail(f"{what}: reference data not found at {SHARED} but TAUT_REQUIRE_DATA=1")
        pytest.skip(f"{what}: reference data not found at {SHARED} (set TAUT_DATA)")
    return SHARED


@pytest.fixture(scope="module")
def arena():
    return taut.Grid.from_map(ARENA)


@pytest.fixture(scope="module")
def scen():
    return taut.Scenario.read(ARENA_SCEN)


def ends(cols):
    return (np.stack([cols["sx"], cols["sy"]], axis=1), np.stack([cols["gx"], cols["gy"]], axis=1))


# --- answers equal the CLI's ------------------------------------------------------------------


@pytest.mark.parametrize("algo", ("astar",) + ANY_ANGLE)
def test_scenario_equals_the_cli(arena, scen, algo):
    out = subprocess.run(
        [cli(), "scen", "--map", str(ARENA), "--scen", str(ARENA_SCEN), "--algo", algo],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    cols = arena.run_scenario(scen, algo)
    assert len(rows) == len(scen) == len(cols["length"]) == 130
    for row, length, status in zip(rows, cols["length"], cols["status"]):
        assert row["status"] == "ok" and status == 0
        assert abs(float(row["length"]) - length) < 1e-7, (algo, row)
    # The optimal planners agree with each other (the CLI prints 8 decimals).
    if algo in OPTIMAL:
        anya = arena.run_scenario(scen, "anya")["length"]
        assert np.allclose(cols["length"], anya, rtol=0, atol=1e-9)


def test_sea_route_equals_the_cli():
    m = FIXTURES / "sphere" / "tiny_36x18.map"
    raster = Raster.from_map(m)
    r = raster.route((-5, -25), (45, 35))
    out = subprocess.run(
        [cli(), "route", "--map", str(m), "--from", "-5,-25", "--to", "45,35", "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    v = json.loads(out)
    assert r.status == "found" and v["status"] == "ok"
    assert abs(r.km - v["km"]) < 1e-9
    assert abs(r.snap_km[1] - v["snap_km_to"]) < 1e-9
    assert np.allclose(r.waypoints, np.array(v["waypoints"]))
    assert len(r.legs) == len(v["legs"]) and r.legs[0]["kind"] == v["legs"][0]["kind"]
    doc = r.geojson()
    assert doc["type"] == "FeatureCollection"
    route = [f for f in doc["features"] if f["properties"].get("name") == "route"][0]
    assert route["properties"]["passages"] == [] and abs(route["properties"]["km"] - r.km) < 1e-9


def test_sea_route_with_a_keep_out_area_goes_round_it():
    raster = Raster.from_map(FIXTURES / "sphere" / "empty_36x18.map")
    assert raster.passages() == []
    direct = raster.route((0, -30), (0, 30))
    walled = raster.route((0, -30), (0, 30), avoid_areas=[FIXTURES / "sphere" / "wall_0e.geojson"])
    assert abs(direct.km - 6671.696) < 1e-3
    assert walled.km > direct.km + 5000


# --- NumPy ------------------------------------------------------------------------------------


def test_numpy_round_trips(arena):
    cells = arena.to_numpy()
    assert cells.dtype == np.bool_ and cells.shape == (arena.height, arena.width) == (49, 49)
    again = taut.Grid(cells)
    assert np.array_equal(again.to_numpy(), cells)
    a = arena.path((1, 3), (45, 40))
    b = again.path((1, 3), (45, 40))
    assert a.length == b.length and np.array_equal(a.waypoints, b.waypoints)
    # Non-contiguous views and Fortran order are read correctly.
    t = taut.Grid(np.asfortranarray(cells))
    assert np.array_equal(t.to_numpy(), cells)
    assert np.array_equal(taut.Grid(cells[::2, ::3]).to_numpy(), cells[::2, ::3])


def test_a_path_result(arena):
    r = arena.path((1, 3), (45, 40), "anya")
    assert r.status == "found" and r.expanded > 0 and r.time_us >= 0
    assert r.waypoints.dtype == np.float64 and r.waypoints.shape[1] == 2
    assert tuple(r.waypoints[0]) == (1, 3) and tuple(r.waypoints[-1]) == (45, 40)
    steps = np.diff(r.waypoints, axis=0)
    assert abs(np.hypot(steps[:, 0], steps[:, 1]).sum() - r.length) < 1e-9
    assert "PathResult" in repr(r)


def test_unreachable():
    cells = np.ones((3, 5), dtype=bool)
    cells[:, 2] = False
    r = taut.Grid(cells).path((0, 0), (4, 1))
    assert r.status == "unreachable" and r.length == float("inf") and r.waypoints.shape == (0, 2)


# --- batches ----------------------------------------------------------------------------------


@pytest.mark.parametrize("algo", ("astar", "anya", "polyanya", "eps"))
def test_batch_equals_one_by_one(arena, scen, algo):
    starts, goals = ends(scen.to_dict())
    one = [arena.path(tuple(s), tuple(g), algo) for s, g in zip(starts, goals)]
    for threads in (1, 2):
        b = arena.paths(starts, goals, algo, threads=threads, return_paths=True)
        assert b["length"].dtype == np.float64 and b["status"].dtype == np.int8
        assert list(b["length"]) == [r.length for r in one]
        assert list(b["expanded"]) == [r.expanded for r in one]
        assert all(np.array_equal(p, r.waypoints) for p, r in zip(b["paths"], one))
        assert (b["status"] == 0).all()


def test_batch_marks_invalid_rows_and_goes_on(arena):
    starts = np.array([[1, 3], [0, 0], [1, 3], [-5, 2]])
    goals = np.array([[45, 40], [45, 40], [99, 99], [1, 3]])
    b = arena.paths(starts, goals)
    assert list(b["status"]) == [0, 2, 2, 2]
    assert np.isfinite(b["length"][0]) and np.isinf(b["length"][1:]).all()
    with pytest.raises(ValueError, match="same n"):
        arena.paths(starts, goals[:2])
    with pytest.raises(ValueError, match=r"\(n, 2\)"):
        arena.paths(np.zeros((3, 3), dtype=np.int64), np.zeros((3, 3), dtype=np.int64))


def test_the_gil_is_released_during_a_batch(arena, scen):
    starts, goals = ends(scen.to_dict())
    starts, goals = np.tile(starts, (400, 1)), np.tile(goals, (400, 1))
    ticks = []
    done = threading.Event()

    def batch():
        arena.paths(starts, goals, "anya", threads=1)
        done.set()

    worker = threading.Thread(target=batch)
    t0 = time.perf_counter()
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    elapsed = time.perf_counter() - t0
    # While the batch ran (tens of milliseconds at least), this thread kept running: with
    # the GIL held by the batch it would have run once or twice.
    assert elapsed > 0.02, f"batch too short to tell ({elapsed:.3f} s): make it bigger"
    assert len(ticks) >= 5, (len(ticks), elapsed)


# --- meshes and CPDs --------------------------------------------------------------------------


def test_mesh_and_cpd_files_round_trip(arena, tmp_path):
    mesh = arena.mesh()
    assert mesh.polygon_count > 0 and mesh.vertex_count > 0
    mesh.write(tmp_path / "arena.mesh")
    again = taut.Mesh.read(tmp_path / "arena.mesh")
    assert (again.polygon_count, again.vertex_count) == (mesh.polygon_count, mesh.vertex_count)
    cpd = taut.Cpd.build(mesh)
    cpd.save(tmp_path / "arena.cpd")
    loaded = taut.Cpd.load(tmp_path / "arena.cpd")
    assert loaded.nodes == cpd.nodes > 0
    want = arena.path((1, 3), (45, 40), "anya").length
    assert abs(arena.path((1, 3), (45, 40), "eps", cpd=loaded).length - want) < 1e-9
    first = arena.path((1, 3), (45, 40), "eps", cpd=loaded, stop="first").length
    bounded = arena.path((1, 3), (45, 40), "eps", cpd=loaded, quality=1.05).length
    assert want - 1e-9 <= bounded <= 1.05 * want + 1e-9 and first >= want - 1e-9


# --- errors -----------------------------------------------------------------------------------


def test_errors(arena, tmp_path):
    with pytest.raises(OSError, match="nonexistent"):
        taut.Grid.from_map(tmp_path / "nonexistent.map")
    bad = tmp_path / "bad.map"
    bad.write_text("type octile\nheight x\n")
    with pytest.raises(taut.FormatError, match="bad.map:2"):
        taut.Grid.from_map(bad)
    assert issubclass(taut.FormatError, ValueError)
    bad_scen = tmp_path / "bad.scen"
    bad_scen.write_text("version 1\n0 arena.map 49 49 1 1 two 2 2.0\n")
    with pytest.raises(taut.FormatError, match="bad.scen:2"):
        taut.Scenario.read(bad_scen)
    with pytest.raises(OSError):
        taut.Scenario.read(tmp_path / "none.scen")
    bad_mesh = tmp_path / "bad.mesh"
    bad_mesh.write_text("mesh\n2\nnonsense\n")
    with pytest.raises(taut.FormatError, match="bad.mesh"):
        taut.Mesh.read(bad_mesh)
    junk = tmp_path / "junk.cpd"
    junk.write_bytes(b"not a cpd at all")
    with pytest.raises(taut.FormatError, match="junk.cpd"):
        taut.Cpd.load(junk)
    with pytest.raises(OSError):
        taut.Cpd.load(tmp_path / "none.cpd")
    # Queries.
    with pytest.raises(ValueError, match="blocked"):
        arena.path((0, 0), (45, 40))
    with pytest.raises(ValueError, match="off the map"):
        arena.path((1, 3), (49, 3))
    with pytest.raises(ValueError, match="off any map"):
        arena.path((1, 3), (2**40, 3))
    with pytest.raises(ValueError, match="unknown"):
        arena.path((1, 3), (45, 40), "dijkstra")
    with pytest.raises(ValueError, match="unknown planner option bogus=True"):
        arena.path((1, 3), (45, 40), bogus=True)
    with pytest.raises(ValueError, match="no option"):
        arena.path((1, 3), (45, 40), "astar", cul_de_sac=False)
    with pytest.raises(ValueError, match="1 to"):
        taut.Grid(np.zeros((0, 4), dtype=bool))
    with pytest.raises(TypeError):
        taut.Grid(np.zeros((3, 4), dtype=np.int32))
    other = taut.Grid(np.ones((5, 5), dtype=bool))
    with pytest.raises(ValueError, match="is for a 49x49 map"):
        other.run_scenario(taut.Scenario.read(ARENA_SCEN))
    # A CPD of another mesh.
    cpd = taut.Cpd.build(other.mesh())
    with pytest.raises(taut.FormatError):
        arena.path((1, 3), (45, 40), "eps", cpd=cpd)
    # The sphere.
    raster = Raster.from_map(FIXTURES / "sphere" / "tiny_36x18.map")
    with pytest.raises(ValueError, match="unknown passage 'suez'"):
        raster.route((-5, -25), (45, 35), avoid=["suez"])
    with pytest.raises(ValueError, match="on land"):
        raster.route((-5, -25), (45, 35), snap=False)
    with pytest.raises(ValueError):
        raster.route((95, 0), (45, 35))
    empty = tmp_path / "empty.geojson"
    empty.write_text('{"type": "FeatureCollection", "features": []}')
    with pytest.raises(taut.FormatError, match="empty"):
        raster.route((-5, -25), (45, 35), avoid_areas=[empty])
    with pytest.raises(OSError):
        raster.route((-5, -25), (45, 35), avoid_areas=[tmp_path / "none.geojson"])
    with pytest.raises(OSError):
        Raster.from_map(tmp_path / "none.map")


def test_doc_examples_run():
    import doctest

    tried = 0
    for module in (taut, taut._taut, taut.sphere):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, module
        tried += result.attempted
    assert tried >= 6, tried


def test_help_is_useful():
    assert "lattice points" in taut.Grid.__doc__
    assert "GIL" in taut.Grid.paths.__doc__
    assert "avoid" in Raster.route.__doc__
    assert set(taut.ALGOS) == {"astar", "theta", "lazy-theta", "vg", "anya", "polyanya", "eps"}


# --- reference data ---------------------------------------------------------------------------


def test_reference_optima_sample():
    data = require_shared("reference optima")
    rows = list(csv.DictReader(open(data / "grid" / "optimal" / "scen.csv")))
    by_map = {}
    for row in rows:
        if row["len_gppc"] not in ("", "-1") and row["endpoint_blocked"] == "0":
            by_map.setdefault(row["map"], []).append(row)
    checked = 0
    for name in sorted(by_map)[::10]:
        grid = taut.Grid.from_map(data / "grid" / "maps" / f"{name}.map")
        sample = by_map[name][::25]
        starts = np.array([[int(r["sx"]), int(r["sy"])] for r in sample])
        goals = np.array([[int(r["gx"]), int(r["gy"])] for r in sample])
        got = grid.paths(starts, goals, "anya")["length"]
        want = np.array([float(r["len_gppc"]) for r in sample])
        assert np.allclose(got, want, rtol=0, atol=1e-6), name
        checked += len(sample)
    assert checked >= 100, checked
