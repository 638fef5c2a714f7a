"""Tests of the Python module `taut` (run with pytest after `pip install ./crates/taut-py`).

- Answers equal the command line's (`taut scen`, `taut route --format json`) on the fixtures.
- Hub labels (`taut.Hub`): full, regions and budgets equal the other optimal planners; files
  round-trip and interoperate with `taut hub build`; bad files and other maps are refused.
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
import signal
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
ANY_ANGLE = ("theta", "lazy-theta", "vg", "anya", "ray", "polyanya", "eps", "hub")
OPTIMAL = ("vg", "anya", "ray", "polyanya", "eps", "hub")


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
    return taut.Scenario.load(ARENA_SCEN)


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
    assert r.status == "ok" and v["status"] == "ok"
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
    assert r.status == "ok" and r.expanded > 0 and r.time_us >= 0
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


def test_the_default_planner_is_auto(scen):
    """With no planner named, `auto` answers, exactly: Anya on a grid that holds nothing yet;
    after a batch (which builds the mesh where Polyanya pays, as on the arena) Polyanya; with a
    hub index given or held, hub labels. Each answer is the one the planner named gives."""
    grid = taut.Grid.from_map(ARENA)
    s, g = (1, 3), (45, 40)

    def same(a, b):
        return a.length == b.length and a.expanded == b.expanded and np.array_equal(a.waypoints, b.waypoints)

    anya = grid.path(s, g, "anya")
    assert same(grid.path(s, g), anya) and same(grid.path(s, g, "auto"), anya)
    assert abs(anya.length - 57.7026852465268) < 1e-9
    starts, goals = ends(scen.to_dict())
    want = grid.run_scenario(scen, "anya")["length"]
    for cols in (
        grid.paths(starts, goals),
        grid.paths(starts, goals, "auto", threads=2),
        grid.run_scenario(scen),
        grid.run_scenario(scen, "auto"),
    ):
        assert (cols["status"] == 0).all()
        assert np.allclose(cols["length"], want, rtol=1e-9, atol=0)
    assert same(grid.path(s, g), grid.path(s, g, "polyanya"))
    hub = taut.Hub.build(grid, region=4)
    assert same(grid.path(s, g, hub=hub), grid.path(s, g, "hub", hub=hub))
    # The grid holds that index now: `auto` answers by it without hub= too.
    assert same(grid.path(s, g), grid.path(s, g, "hub", hub=hub))
    assert abs(grid.path(s, g).length - anya.length) < 1e-9
    assert np.allclose(grid.paths(starts, goals)["length"], want, rtol=1e-9, atol=0)
    # `auto` takes no options: they belong to the planner named.
    with pytest.raises(ValueError, match="auto has no option.*name the planner"):
        grid.path(s, g, cul_de_sac=False)
    assert abs(grid.path(s, g, "anya", cul_de_sac=False).length - anya.length) < 1e-9


def test_auto_stays_with_anya_on_clutter():
    """On a map of scattered blocked cells the mesh does not pay: a batch by `auto` builds none,
    and answers as Anya does (and with the optimum once another planner built the mesh)."""
    rng = np.random.default_rng(7)
    cells = rng.random((60, 60)) > 0.1
    grid = taut.Grid(cells)
    free = np.argwhere(cells[:-1, :-1])[:, ::-1]
    starts, goals = free[rng.integers(len(free), size=40)], free[rng.integers(len(free), size=40)]
    auto = grid.paths(starts, goals, return_paths=True)
    anya = grid.paths(starts, goals, "anya", return_paths=True)
    assert list(auto["length"]) == list(anya["length"])
    assert list(auto["expanded"]) == list(anya["expanded"])
    polyanya = grid.paths(starts, goals, "polyanya")
    assert np.allclose(polyanya["length"], anya["length"], rtol=1e-9, atol=0)
    # With the mesh built (for Polyanya), `auto` answers with the optimum still.
    again = grid.paths(starts, goals)
    assert np.allclose(again["length"], anya["length"], rtol=1e-9, atol=0)


# --- batches ----------------------------------------------------------------------------------


@pytest.mark.parametrize("algo", ("astar", "anya", "polyanya", "eps", "hub"))
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


# --- bounded queries --------------------------------------------------------------------------


@pytest.mark.parametrize("algo", [a for a in taut.ALGOS if a not in ("eps", "hub")])
def test_a_limit_raises_limit_reached_with_the_work_done(arena, scen, algo):
    starts, goals = ends(scen.to_dict())
    free = arena.paths(starts, goals, algo)
    hard = int(np.argmax(free["expanded"]))
    need = int(free["expanded"][hard])
    s, g = tuple(starts[hard]), tuple(goals[hard])
    if need < 2:
        pytest.skip(f"{algo} answers every arena query in under two expansions")
    with pytest.raises(taut.LimitReached) as info:
        arena.path(s, g, algo, max_expansions=need - 1)
    assert info.value.kind == "expansions"
    assert info.value.expanded == need - 1
    assert info.value.elapsed_ms >= 0
    # Exactly enough: the same answer as without a limit.
    assert arena.path(s, g, algo, max_expansions=need).length == free["length"][hard]
    # In a batch the limit is a status per row, with the work done; the rest is unchanged.
    b = arena.paths(starts, goals, algo, max_expansions=need - 1)
    stopped = free["expanded"] > need - 1
    assert (b["status"][stopped] == 3).all() and np.isinf(b["length"][stopped]).all()
    assert (b["expanded"][stopped] == need - 1).all()
    assert list(b["length"][~stopped]) == list(free["length"][~stopped])
    assert taut.STATUS[3] == "limit"
    r = arena.run_scenario(scen, algo, max_expansions=need - 1)
    assert list(r["status"]) == list(b["status"])


def test_a_zero_deadline_stops_long_searches_and_bad_limits_are_refused():
    grid = walled_grid()
    with pytest.raises(taut.LimitReached) as info:
        grid.path((0, 0), (1199, 0), "astar", timeout_ms=0)
    # The clock is first read after 8 expansions (Limit::FIRST_SLICE).
    assert info.value.kind == "timeout" and info.value.expanded == 8
    with pytest.raises(ValueError, match="timeout_ms"):
        grid.path((0, 0), (1199, 0), "astar", timeout_ms=-1)
    with pytest.raises(TypeError):
        grid.path((0, 0), (1199, 0), "astar", max_expansions="ten")


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
        big = taut.Scenario.load(many)
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
        scen = taut.Scenario.load(tmp_path / "walled.scen")
        call = lambda: grid.run_scenario(scen, "astar")  # noqa: E731
    else:
        threads = 1 if kind == "batch-1-thread" else 2
        call = lambda: grid.paths(starts, goals, "astar", threads=threads)  # noqa: E731
    # Python's own handler, whatever the run was started with: a process started with SIGINT
    # ignored (a background job of a non-interactive shell) turns `interrupt_main` into
    # nothing at all.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.2, _thread.interrupt_main)
        t0 = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            call()
        elapsed = time.perf_counter() - t0
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
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
    mesh.save(tmp_path / "arena.mesh")
    again = taut.Mesh.load(tmp_path / "arena.mesh")
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


# --- hub labels -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def arena_optima(arena, scen):
    """The arena scenario's lengths by the other optimal planners (which agree to 1e-9)."""
    got = {algo: arena.run_scenario(scen, algo)["length"] for algo in ("anya", "polyanya", "eps")}
    for algo in ("polyanya", "eps"):
        assert np.allclose(got[algo], got["anya"], rtol=1e-9, atol=0), algo
    return got


def hub_variants(arena):
    """The full index, regions of 4, and the finest index within a budget just below the full
    index's size (so the budget must pick regions)."""
    full = taut.Hub.build(arena)
    region = taut.Hub.build(arena, region=4)
    budget = full.size_bytes - 1
    fitted = taut.Hub.build(arena, budget=budget)
    assert fitted.region is not None and fitted.size_bytes <= budget < full.size_bytes
    return {"full": full, "region4": region, "budget": fitted}


def test_hub_equals_the_optimal_planners(arena, scen, arena_optima):
    for name, hub in hub_variants(arena).items():
        got = arena.run_scenario(scen, "hub", hub=hub)
        assert (got["status"] == 0).all(), name
        for algo, want in arena_optima.items():
            assert np.allclose(got["length"], want, rtol=1e-9, atol=0), (name, algo)
        starts, goals = ends(scen.to_dict())
        batch = arena.paths(starts, goals, "hub", hub=hub, threads=2, return_paths=True)
        assert list(batch["length"]) == list(got["length"]), name
        for s, g, length, path in zip(starts, goals, batch["length"], batch["paths"]):
            one = arena.path(tuple(s), tuple(g), "hub", hub=hub)
            assert one.length == length and np.array_equal(one.waypoints, path), name
            steps = np.diff(path, axis=0)
            assert abs(np.hypot(steps[:, 0], steps[:, 1]).sum() - length) < 1e-9, name
    # Without hub= the grid builds a full index once and keeps it; going back to it after a
    # given index answers as before.
    default = arena.run_scenario(scen, "hub")["length"]
    assert np.allclose(default, arena_optima["anya"], rtol=1e-9, atol=0)
    assert list(arena.run_scenario(scen, "hub")["length"]) == list(default)


def test_hub_properties_and_budgets(arena):
    full = taut.Hub.build(arena)
    assert (full.width, full.height) == (arena.width, arena.height)
    assert full.corners > 0 and full.region is None and full.path is None
    assert 0 < full.bytes <= full.size_bytes
    stats = full.stats()
    assert stats["corners"] == full.corners and stats["region"] == 1 and stats["bytes"] == full.bytes
    assert stats["points"] == int(arena.to_numpy().sum()) and stats["point_entries"] > 0
    region = taut.Hub.build(arena, region=4)
    assert region.region == 4 and region.stats()["point_entries"] == 0
    assert region.bytes < full.bytes
    assert repr(region).startswith("Hub(width=49, height=49, corners=") and "region=4" in repr(region)
    assert "region=None" in repr(full)
    # A budget as text; "none" and a generous one give the full index.
    roomy = taut.Hub.build(arena, budget=f"{full.size_bytes / 1e6 * 2:.3f}MB")
    assert roomy.region is None and roomy.stats() == stats
    assert taut.Hub.build(arena, budget="none").region is None
    assert taut.Hub.build(arena, budget=full.size_bytes).region is None
    # A budget the core labels alone pass is refused before they are finished; one with room
    # for them but no index names the smallest size.
    with pytest.raises(ValueError, match=r"^no hub index of this map fits 1000 bytes: its core labels alone passed \d+ bytes after \d+ of its \d+ corners$"):
        taut.Hub.build(arena, budget=1000)
    core = full.stats()["core_entries"] * 16
    with pytest.raises(ValueError, match=rf"^no hub index of this map fits {core} bytes: the smallest (built|estimated) takes \d+ bytes$"):
        taut.Hub.build(arena, budget=core)
    with pytest.raises(ValueError, match="not both"):
        taut.Hub.build(arena, region=4, budget="64MB")
    for side in (0, 65, -1, 2**40):
        with pytest.raises(ValueError, match="side must be from 1 to 64"):
            taut.Hub.build(arena, region=side)
    with pytest.raises(ValueError, match="budget"):
        taut.Hub.build(arena, budget="lots")
    with pytest.raises(ValueError, match="positive"):
        taut.Hub.build(arena, budget=-5)
    with pytest.raises(TypeError, match="budget must be a size"):
        taut.Hub.build(arena, budget=True)
    with pytest.raises(TypeError, match="budget must be a size"):
        taut.Hub.build(arena, budget=1.5)


def test_hub_files_round_trip(arena, scen, tmp_path):
    starts, goals = ends(scen.to_dict())
    for region in (None, 4):
        hub = taut.Hub.build(arena, region=region)
        f = tmp_path / f"arena-{region}.hub"
        hub.save(f)
        assert not (tmp_path / f"arena-{region}.hub.tmp").exists()
        loaded = taut.Hub.load(f)
        assert loaded.path == f and loaded.region == hub.region and loaded.corners == hub.corners
        assert loaded.size_bytes == hub.size_bytes >= f.stat().st_size > 0
        a = arena.paths(starts, goals, "hub", hub=hub, return_paths=True)
        b = arena.paths(starts, goals, "hub", hub=loaded, return_paths=True)
        assert list(a["length"]) == list(b["length"])
        assert all(np.array_equal(p, q) for p, q in zip(a["paths"], b["paths"]))
        # Saving over an existing file replaces it whole.
        loaded.save(f)
        assert taut.Hub.load(f).stats() == loaded.stats()


def test_hub_files_of_the_cli_answer_as_python(arena, scen, tmp_path):
    """An index written by `taut hub build` loads here and answers as the one built here; one
    written here answers `taut scen --hub` as in Python."""
    out = tmp_path / "cli.hub"
    subprocess.run(
        [cli(), "hub", "build", "--map", str(ARENA), "-o", str(out), "--region", "2"],
        check=True, capture_output=True, text=True,
    )
    cli_hub = taut.Hub.load(out)
    assert cli_hub.region == 2
    here = taut.Hub.build(arena, region=2)
    a = arena.run_scenario(scen, "hub", hub=cli_hub)["length"]
    assert list(a) == list(arena.run_scenario(scen, "hub", hub=here)["length"])
    mine = tmp_path / "py.hub"
    taut.Hub.build(arena).save(mine)
    rows = list(csv.DictReader(io.StringIO(subprocess.run(
        [cli(), "scen", "--map", str(ARENA), "--scen", str(ARENA_SCEN), "--algo", "hub", "--hub", str(mine)],
        check=True, capture_output=True, text=True,
    ).stdout)))
    py = arena.run_scenario(scen, "hub", hub=taut.Hub.load(mine))["length"]
    assert len(rows) == len(py) == 130
    for row, length in zip(rows, py):
        assert row["status"] == "ok" and abs(float(row["length"]) - length) < 1e-7, row


def test_bad_hub_files_are_refused(arena, tmp_path):
    good = tmp_path / "arena.hub"
    taut.Hub.build(arena).save(good)
    data = good.read_bytes()
    truncated = tmp_path / "truncated.hub"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(taut.FormatError, match=r"truncated\.hub: .*truncated"):
        taut.Hub.load(truncated)
    flipped = bytearray(data)
    flipped[len(flipped) // 2] ^= 1
    damaged = tmp_path / "damaged.hub"
    damaged.write_bytes(bytes(flipped))
    with pytest.raises(taut.FormatError, match=r"damaged\.hub: .*(checksum|corrupt)"):
        taut.Hub.load(damaged)
    with pytest.raises(taut.FormatError, match=r"arena\.map: not a taut hub index"):
        taut.Hub.load(ARENA)
    with pytest.raises(OSError, match="none.hub"):
        taut.Hub.load(tmp_path / "none.hub")
    with pytest.raises(OSError):
        taut.Hub.build(arena).save(tmp_path / "no-such-dir" / "x.hub")
    # Each message is one line.
    for bad in (truncated, damaged):
        with pytest.raises(taut.FormatError) as e:
            taut.Hub.load(bad)
        assert "\n" not in str(e.value)


def test_a_hub_of_another_map_is_refused(arena, scen, tmp_path):
    small = taut.Grid.from_map(FIXTURES / "maps" / "small.map")
    other = taut.Hub.build(small)
    starts, goals = ends(scen.to_dict())
    calls = (
        lambda: arena.path((1, 3), (45, 40), "hub", hub=other),
        lambda: arena.paths(starts, goals, "hub", hub=other),
        lambda: arena.run_scenario(scen, "hub", hub=other),
    )
    for call in calls:
        with pytest.raises(taut.FormatError, match=r"^hub: the hub index was built for another map .*8x6 map.*this grid is 49x49"):
            call()
    # The same size with other free cells, read from a file (named in the message).
    cells = arena.to_numpy().copy()
    cells[3, 1] = not cells[3, 1]
    f = tmp_path / "edited.hub"
    taut.Hub.build(taut.Grid(cells)).save(f)
    with pytest.raises(taut.FormatError, match=r"edited\.hub: the hub index was built for another map"):
        arena.path((1, 3), (45, 40), "hub", hub=taut.Hub.load(f))
    # The grid answers as before afterwards, with or without its own index.
    want = arena.path((1, 3), (45, 40), "anya").length
    assert abs(arena.path((1, 3), (45, 40), "hub").length - want) < 1e-9
    mine = taut.Hub.build(arena, region=8)
    assert abs(arena.path((1, 3), (45, 40), "hub", hub=mine).length - want) < 1e-9
    # hub= is ignored by the other planners (as cpd= is).
    assert arena.path((1, 3), (45, 40), "anya", hub=other).length == want


def test_a_hub_of_another_mesh_is_refused(arena, tmp_path):
    """An index built by `taut hub build --mesh` on the reference merged mesh of the same map
    is refused on the grid's own mesh."""
    mesh = require_shared("the arena reference mesh") / "mesh" / "reference" / "arena-merged.mesh"
    out = tmp_path / "merged.hub"
    subprocess.run(
        [cli(), "hub", "build", "--map", str(ARENA), "--mesh", str(mesh), "-o", str(out)],
        check=True, capture_output=True, text=True,
    )
    hub = taut.Hub.load(out)
    with pytest.raises(taut.FormatError, match=r"merged\.hub: the hub index was built from another mesh"):
        arena.path((1, 3), (45, 40), "hub", hub=hub)


def test_building_a_hub_releases_the_gil():
    grid = taut.Grid.from_map(ARENA)
    ticks, elapsed = runs_beside_python(lambda: [taut.Hub.build(grid) for _ in range(20)])
    assert elapsed > 0.02, f"too short to tell ({elapsed:.3f} s)"
    assert ticks >= 5, (ticks, elapsed)


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
        taut.Scenario.load(bad_scen)
    with pytest.raises(OSError):
        taut.Scenario.load(tmp_path / "none.scen")
    bad_mesh = tmp_path / "bad.mesh"
    bad_mesh.write_text("mesh\n2\nnonsense\n")
    with pytest.raises(taut.FormatError, match="bad.mesh"):
        taut.Mesh.load(bad_mesh)
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
    with pytest.raises(TypeError, match="unexpected keyword argument bogus=True"):
        arena.path((1, 3), (45, 40), bogus=True)
    with pytest.raises(ValueError, match="no option"):
        arena.path((1, 3), (45, 40), "astar", cul_de_sac=False)
    with pytest.raises(ValueError, match="1 to"):
        taut.Grid(np.zeros((0, 4), dtype=bool))
    with pytest.raises(TypeError):
        taut.Grid(np.zeros((3, 4), dtype=np.int32))
    other = taut.Grid(np.ones((5, 5), dtype=bool))
    with pytest.raises(ValueError, match="is for a 49x49 map"):
        other.run_scenario(taut.Scenario.load(ARENA_SCEN))
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


def test_the_getting_started_example_runs(monkeypatch):
    """The Python example of docs/getting-started.md, run from the repository's root as a
    doctest."""
    import doctest
    import re

    page = (REPO / "docs" / "getting-started.md").read_text()
    block = re.search(r"## From Python.*?```python\n(.*?)```", page, re.S)
    assert block, "docs/getting-started.md has no Python example under '## From Python'"
    monkeypatch.chdir(REPO)
    test = doctest.DocTestParser().get_doctest(
        block.group(1), {}, "getting-started.md", "docs/getting-started.md", 0
    )
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
    assert "anya  ok length 57.7027" in out, out
    png = (tmp_path / "plan.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_the_notebook_example_runs(tmp_path):
    pytest.importorskip("matplotlib", reason="examples/python/notebook.py draws with it")
    out = run_example("notebook.py", tmp_path / "nb.png", cwd=tmp_path)
    assert "found, mean length" in out and "status=\"ok\", length=57.70268" in out, out
    assert (tmp_path / "nb.png").read_bytes().startswith(b"\x89PNG")


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


def test_ports_by_code_ice_gates_and_eta():
    """Ports by UN/LOCODE, the ice gates closed unless allowed, and the time at sea, as the
    command line gives them (crates/taut-cli/tests/it/route_ports.rs)."""
    p = taut.sphere.port("cnsha")
    assert (p["code"], p["name"]) == ("CNSHA", "Shanghai") and abs(p["lat"] - 31.400091) < 1e-9
    with pytest.raises(ValueError, match=r"unknown port 'NLRTX'; did you mean NLRTM \(Rotterdam\)"):
        taut.sphere.port("NLRTX")
    tiny = Raster.from_map(FIXTURES / "sphere" / "tiny_36x18.map")
    r = tiny.route("NLRTM", "USNYC")
    assert r.status == "ok" and r.eta_hours(14) == r.nm / 14
    with pytest.raises(ValueError, match="speed_knots"):
        r.eta_hours(0)
    with pytest.raises(ValueError, match="unknown port"):
        tiny.route("XXXXX", "USNYC")
    # 10-degree cells are too coarse for ice gates.
    with pytest.raises(ValueError, match="unknown passage 'bering'"):
        tiny.route("NLRTM", "USNYC", allow=["bering"])

    earth = Raster.from_map(require_shared("ice gates") / "sphere" / "earth_0.5deg_nav.map")
    default = earth.route("CNSHA", "USNYC")
    assert default.passages == ["panama"], default.passages
    assert default.avoided == ["bering", "central-arctic", "northern-sea-route", "northwest-passage"]
    with pytest.warns(UserWarning, match=r"start is in northwest-passage, which is closed"):
        earth.route("CANVK", "LKGAL")
    nwp = earth.route("CNSHA", "USNYC", allow=["northwest-passage"])
    assert {"bering", "northwest-passage"} <= set(nwp.passages) and nwp.km < default.km - 3000
    out = subprocess.run(
        [cli(), "route", "--map", str(require_shared("ice gates") / "sphere" / "earth_0.5deg_nav.map"),
         "--from", "CNSHA", "--to", "USNYC", "--allow", "northwest-passage", "--format", "json"],
        check=True, capture_output=True, text=True,
    ).stdout
    assert abs(json.loads(out)["km"] - nwp.km) < 1e-9


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


def test_unknown_keywords_are_type_errors_and_bad_options_value_errors(arena):
    """An unknown keyword is a TypeError, as anywhere in Python; a keyword the planner does not
    take, or a planner that does not exist, is a ValueError naming what there is."""
    with pytest.raises(TypeError, match="unexpected keyword argument speed=2"):
        arena.path((1, 3), (45, 40), "anya", speed=2.0)
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        arena.paths(np.array([[1, 3]]), np.array([[45, 40]]), "anya", colour="red")
    with pytest.raises(TypeError, match="expected a bool, a str or a float"):
        arena.path((1, 3), (45, 40), "anya", cul_de_sac=[1])
    with pytest.raises(ValueError, match="no option"):
        arena.path((1, 3), (45, 40), "astar", cul_de_sac=False)
    with pytest.raises(ValueError, match="polyanya"):
        arena.path((1, 3), (45, 40), "dijkstra")


def test_statuses_are_an_int_enum(arena):
    assert [int(s) for s in taut.Status] == [0, 1, 2, 3]
    # One word set with the command line (docs/cli.md); FOUND is the former name of OK.
    assert [str(s) for s in taut.Status] == ["ok", "unreachable", "invalid", "limit"]
    assert taut.STATUS == {0: "ok", 1: "unreachable", 2: "invalid", 3: "limit"}
    assert taut.Status.FOUND is taut.Status.OK and str(taut.Status.FOUND) == "ok"
    cols = arena.paths(np.array([[1, 3], [0, 0]]), np.array([[45, 40], [45, 40]]))
    assert list(cols["status"]) == [taut.Status.OK, taut.Status.INVALID]
    assert str(taut.Status(cols["status"][0])) == arena.path((1, 3), (45, 40)).status


def test_everything_loads_and_saves_and_the_old_names_warn(arena, tmp_path):
    mesh = arena.mesh()
    mesh.save(tmp_path / "m.mesh")
    assert taut.Mesh.load(tmp_path / "m.mesh").polygon_count == mesh.polygon_count
    with pytest.warns(DeprecationWarning, match="Mesh.write is deprecated: use Mesh.save"):
        mesh.write(tmp_path / "w.mesh")
    with pytest.warns(DeprecationWarning, match="Mesh.read is deprecated: use Mesh.load"):
        assert taut.Mesh.read(tmp_path / "w.mesh").vertex_count == mesh.vertex_count
    with pytest.warns(DeprecationWarning, match="Scenario.read is deprecated"):
        assert len(taut.Scenario.read(ARENA_SCEN)) == len(taut.Scenario.load(ARENA_SCEN))
    for cls in (taut.Mesh, taut.Cpd, taut.Hub, taut.Scenario):
        assert callable(getattr(cls, "load")), cls
    for cls in (taut.Mesh, taut.Cpd, taut.Hub):
        assert callable(getattr(cls, "save")), cls


def test_grids_and_paths_plot(arena, tmp_path):
    matplotlib = pytest.importorskip("matplotlib", reason="plot() draws with matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = arena.path((1, 3), (45, 40), "anya")
    ax = arena.plot(path=result)
    lines = ax.get_lines()
    # The path, then the start and goal marks.
    assert len(lines) == 3
    xs, ys = lines[0].get_data()
    assert list(zip(xs, ys)) == [tuple(w) for w in result.waypoints]
    assert ax.yaxis_inverted() and ax.get_xlim() == (0.0, arena.width)
    assert len(ax.get_images()) == 1
    ax.figure.savefig(tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")
    fig, ax2 = plt.subplots()
    assert result.plot(ax2, color="red") is ax2
    assert ax2.get_lines()[0].get_color() == "red"
    walled = taut.Grid(np.array([[True, False, True]]))
    nothing = walled.path((0, 0), (2, 0))
    assert nothing.status == "unreachable" and nothing.plot(ax2) is ax2
    plt.close("all")


def test_help_is_useful():
    assert "lattice points" in taut.Grid.__doc__
    assert "GIL" in taut.Grid.paths.__doc__
    assert "avoid" in Raster.route.__doc__
    assert set(taut.ALGOS) == {"auto", "astar", "theta", "lazy-theta", "vg", "anya", "ray", "polyanya", "eps", "hub"}
    assert taut.ALGOS[0] == "auto" and len(set(taut.ALGOS)) == len(taut.ALGOS)
    assert "region" in taut.Hub.build.__doc__ and "atomically" in taut.Hub.save.__doc__
    assert "hub=" in taut.Grid.path.__doc__
    assert "TypeError for an unknown keyword" in taut.Grid.path.__doc__
    assert "matplotlib" in taut.Grid.plot.__doc__ and "matplotlib" in taut.PathResult.plot.__doc__


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


def test_reference_optima_by_hub_labels():
    """Hub labels (the points' own, and regions of 8) on every reference query of the maps of
    at most 160 x 160 cells: building their indexes takes a fraction of a second (a 512 x 512
    map's takes seconds to minutes)."""
    data = require_shared("reference optima")
    by_map = {}
    for row in csv.DictReader(open(data / "grid" / "optimal" / "scen.csv")):
        if row["len_gppc"] not in ("", "-1") and row["endpoint_blocked"] == "0":
            by_map.setdefault(row["map"], []).append(row)
    checked = 0
    for name in sorted(by_map):
        grid = taut.Grid.from_map(data / "grid" / "maps" / f"{name}.map")
        if grid.width * grid.height > 160 * 160:
            continue
        rows = by_map[name]
        starts = np.array([[int(r["sx"]), int(r["sy"])] for r in rows])
        goals = np.array([[int(r["gx"]), int(r["gy"])] for r in rows])
        want = np.array([float(r["len_gppc"]) for r in rows])
        for hub in (taut.Hub.build(grid), taut.Hub.build(grid, region=8)):
            got = grid.paths(starts, goals, "hub", hub=hub)["length"]
            assert np.allclose(got, want, rtol=0, atol=1e-6), (name, hub)
        checked += len(rows)
    assert checked >= 500, checked
