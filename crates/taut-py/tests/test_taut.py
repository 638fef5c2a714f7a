"""Tests of the Python module `taut` (run with pytest after `pip install ./crates/taut-py`).

- Answers equal the command line's (`taut scen`, `taut route --format json`) on the fixtures.
- NumPy round trips; the batch equals the queries one by one, on 1 and 2 threads.
- The GIL is released while planning (a batch, a scenario, one long query): another Python
  thread makes progress meanwhile; threads sharing a grid get the one-by-one answers.
- Every error path raises the documented exception with the library's one-line message.
- With the shared reference data (`../shared/data`), a sample of the optimal lengths
  (`grid/optimal/scen.csv`) is matched; without it the test is skipped with the reason.
"""

import csv
import io
import json
import os
import subprocess
import sys
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


def test_points_and_arrays_of_any_integer_kind(arena):
    """Ends as tuples, lists or NumPy rows; batches as lists or arrays of any integer type
    and layout. Floats are refused (not truncated), as are arrays of the wrong shape."""
    expect = arena.path((1, 3), (45, 40)).length
    rows = np.array([[1, 3], [45, 40]])
    for start, goal in (([1, 3], [45, 40]), (rows[0], rows[1]), ((np.int32(1), np.uint8(3)), (45, 40))):
        assert arena.path(start, goal).length == expect
    starts, goals = np.tile(rows[:1], (3, 1)), np.tile(rows[1:], (3, 1))
    for s, g in (
        (starts.astype(np.int32), goals.astype(np.uint16)),
        (starts.tolist(), goals.tolist()),
        (np.asfortranarray(starts), goals[::-1]),
    ):
        assert list(arena.paths(s, g)["length"]) == [expect] * 3
    empty = arena.paths([], np.zeros((0, 2), dtype=np.int64))
    assert empty["length"].shape == (0,) and empty["status"].shape == (0,)
    with pytest.raises(TypeError, match=r"start must be a lattice point.*\(1\.0, 3\.0\)"):
        arena.path((1.0, 3.0), (45, 40))
    with pytest.raises(TypeError, match="goal must be a lattice point"):
        arena.path((1, 3), (45, 40, 0))
    with pytest.raises(TypeError, match="starts must hold integer lattice points.*float64"):
        arena.paths(starts.astype(float), goals)
    with pytest.raises(ValueError, match=r"goals must be an \(n, 2\) array.*\(2,\)"):
        arena.paths(starts[:1], goals[0])


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


def runs_beside_python(call):
    """Runs `call` in another thread and counts how often this thread ran meanwhile."""
    ticks = []
    done = threading.Event()

    def work():
        try:
            call()
        finally:
            done.set()

    worker = threading.Thread(target=work)
    t0 = time.perf_counter()
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    return len(ticks), time.perf_counter() - t0


def walled_grid():
    """A 1200 x 1200 open grid cut by a wall with one gap at the far end: A* from one side to
    the other expands most of the map (a long single query)."""
    a = np.ones((1200, 1200), dtype=bool)
    a[1:, 600] = False
    return taut.Grid(a)


@pytest.mark.parametrize("kind", ("batch", "scenario", "single"))
def test_the_gil_is_released_while_planning(arena, scen, tmp_path, kind):
    if kind == "batch":
        starts, goals = ends(scen.to_dict())
        starts, goals = np.tile(starts, (400, 1)), np.tile(goals, (400, 1))
        ticks, elapsed = runs_beside_python(
            lambda: arena.paths(starts, goals, "anya", threads=1)
        )
    elif kind == "scenario":
        lines = ARENA_SCEN.read_text().splitlines()
        many = tmp_path / "many.scen"
        many.write_text("\n".join(lines[:1] + lines[1:] * 300) + "\n")
        big = taut.Scenario.read(many)
        ticks, elapsed = runs_beside_python(lambda: arena.run_scenario(big, "anya"))
    else:
        grid = walled_grid()
        ticks, elapsed = runs_beside_python(lambda: grid.path((0, 1100), (1199, 1100), "astar"))
    # While the search ran (tens of milliseconds at least), this thread kept running: with
    # the GIL held by the search it would have run once or twice.
    assert elapsed > 0.02, f"{kind} too short to tell ({elapsed:.3f} s): make it bigger"
    assert ticks >= 5, (kind, ticks, elapsed)


@pytest.mark.parametrize("kind", ("batch-1-thread", "batch-2-threads", "scenario"))
def test_ctrl_c_stops_a_long_call(tmp_path, kind):
    """Ctrl-C (here `_thread.interrupt_main`, 0.2 s in) raises KeyboardInterrupt within a
    query's time, not after the whole call; the grid answers correctly afterwards."""
    import _thread

    grid = walled_grid()
    one = grid.path((0, 1100), (1199, 1100), "astar")
    t0 = time.perf_counter()
    grid.path((0, 1100), (1199, 1100), "astar")
    query = time.perf_counter() - t0
    n = max(8, int(3.0 / query))  # at least 3 s of queries on one thread
    starts, goals = np.tile([[0, 1100]], (n, 1)), np.tile([[1199, 1100]], (n, 1))
    if kind == "scenario":
        a = grid.to_numpy()
        (tmp_path / "walled.map").write_text(
            "type octile\nheight 1200\nwidth 1200\nmap\n"
            + "".join("".join("." if c else "@" for c in row) + "\n" for row in a)
        )
        line = f"0\twalled.map\t1200\t1200\t0\t1100\t1199\t1100\t{one.length:.8f}\n"
        (tmp_path / "walled.scen").write_text("version 1\n" + line * n)
        grid = taut.Grid.from_map(tmp_path / "walled.map")
        scen = taut.Scenario.read(tmp_path / "walled.scen")
        call = lambda: grid.run_scenario(scen, "astar")  # noqa: E731
    else:
        threads = 1 if kind == "batch-1-thread" else 2
        call = lambda: grid.paths(starts, goals, "astar", threads=threads)  # noqa: E731
    timer = threading.Timer(0.2, _thread.interrupt_main)
    t0 = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        call()
    elapsed = time.perf_counter() - t0
    timer.join()
    assert elapsed < 0.2 + 2 * query + 0.5, (kind, elapsed, query)
    assert grid.path((0, 1100), (1199, 1100), "astar").length == one.length


def test_a_small_batch_does_not_wait_for_another_threads_batch(arena):
    """Two Python threads' batches share no worker threads: a 2-query batch answers at once
    while another thread runs a batch of seconds on 2 threads."""
    grid = walled_grid()
    t0 = time.perf_counter()
    grid.path((0, 1100), (1199, 1100), "astar")
    query = time.perf_counter() - t0
    n = max(8, int(4.0 / query))
    long_batch = threading.Thread(
        target=grid.paths,
        args=(np.tile([[0, 1100]], (n, 1)), np.tile([[1199, 1100]], (n, 1)), "astar"),
        kwargs={"threads": 2},
    )
    long_batch.start()
    time.sleep(0.3)
    t0 = time.perf_counter()
    small = arena.paths([[1, 3], [19, 26]], [[45, 40], [19, 29]], threads=2)
    elapsed = time.perf_counter() - t0
    still_running = long_batch.is_alive()
    long_batch.join()
    assert elapsed < 0.5, f"the small batch took {elapsed:.2f} s"
    assert still_running, "the long batch ended first: make it longer"
    assert list(small["status"]) == [0, 0]


def test_threads_share_a_grid(arena, scen):
    """Batches and single queries from several Python threads at once on one grid (each takes
    its own warm planner) give the answers of the queries run one by one."""
    starts, goals = ends(scen.to_dict())
    expect = {
        algo: [arena.path(tuple(s), tuple(g), algo).length for s, g in zip(starts, goals)]
        for algo in ("anya", "polyanya")
    }
    got, errors = [], []

    def batches(algo, threads):
        try:
            for _ in range(20):
                got.append((algo, list(arena.paths(starts, goals, algo, threads=threads)["length"])))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    workers = [
        threading.Thread(target=batches, args=(algo, t))
        for algo in ("anya", "polyanya")
        for t in (1, 2)
    ]
    for w in workers:
        w.start()
    for _ in range(20):
        for algo in ("anya", "polyanya"):
            singles = [arena.path(tuple(s), tuple(g), algo).length for s, g in zip(starts, goals)]
            assert singles == expect[algo]
    for w in workers:
        w.join()
    assert not errors, errors
    assert len(got) == 80
    for algo, lengths in got:
        assert lengths == expect[algo], algo


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


def test_the_readme_example_runs(monkeypatch):
    """The Python example of README.md, run from the repository's root as a doctest."""
    import doctest
    import re

    readme = (REPO / "README.md").read_text()
    block = re.search(r"## From Python.*?```python\n(.*?)```", readme, re.S)
    assert block, "README.md has no Python example under '## From Python'"
    monkeypatch.chdir(REPO)
    test = doctest.DocTestParser().get_doctest(block.group(1), {}, "README.md", "README.md", 0)
    assert len(test.examples) >= 3
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def run_example(name, *args, cwd):
    return subprocess.run(
        [sys.executable, str(REPO / "examples" / "python" / name), *map(str, args)],
        cwd=cwd, capture_output=True, text=True, check=True,
    ).stdout


def test_the_drawing_example_runs(tmp_path):
    pytest.importorskip("matplotlib", reason="examples/python/plan_and_draw.py draws with it")
    out = run_example("plan_and_draw.py", "-o", tmp_path / "plan.png", cwd=tmp_path)
    assert "anya  found length 57.7027" in out, out
    png = (tmp_path / "plan.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_the_sea_route_example_runs(tmp_path):
    raster = require_shared("examples/python/sea_route.py") / "sphere" / "earth_0.5deg_nav.map"
    out = run_example("sea_route.py", raster, "-o", tmp_path / "r", cwd=tmp_path)
    routes = {}
    for name in ("open", "no-suez"):
        geo = json.loads((tmp_path / f"r-{name}.geojson").read_text())
        route = taut.sphere.Raster.from_map(raster).route(
            (18.9, 72.8), (51.9, 4.4), avoid=[] if name == "open" else ["suez"]
        )
        assert geo == route.geojson(), name
        routes[name] = route
    assert "suez" in routes["open"].passages and "suez" not in routes["no-suez"].passages
    assert routes["no-suez"].km > routes["open"].km + 5000, out


def test_the_stubs_match_the_module_and_type_the_examples():
    """mypy's stubtest finds every name, signature and class of the compiled module in the
    .pyi stubs and nothing more; the examples and the overhead script type-check against them."""
    pytest.importorskip("mypy", reason="mypy checks the stubs (pip install './crates/taut-py[test]')")
    for args in (
        ["-m", "mypy.stubtest", "taut"],
        ["-m", "mypy", "--no-incremental", "examples/python", "crates/taut-py/bench"],
    ):
        run = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True)
        assert run.returncode == 0, run.stdout + run.stderr


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
