//! Changing worlds: after every edit of a [`World`] (single cells, rectangles, cells on the map's
//! edge, the start or goal cell, walls that cut the goal off), every online planner of the
//! table, kept across the edits, answers exactly as a fresh planner on a fresh grid read from
//! the edited cells: the same status or typed error, the same length bit for bit.

use std::sync::Mutex;

use taut::grid::{Answer, CellRect, Grid, Guarantee, PathModel, Point, QueryError, Status};
use taut::registry::{PLANNERS, PlannerSpec};
use taut::{Map, World};
use taut_hardening::maps::{Family, SplitMix, generate, queries};

/// The names of the table's planners that answer without preprocessing beyond a mesh.
fn online_names() -> Vec<&'static str> {
    PLANNERS
        .iter()
        .filter(|k| k.needs.is_online())
        .map(|k| k.name)
        .collect()
}

fn spec(name: &str) -> PlannerSpec {
    name.parse().expect("a table name parses")
}

/// A grid with the same cells as `grid` and nothing else carried over (version 0).
fn fresh(grid: &Grid) -> Grid {
    let text = grid.to_ascii();
    let rows: Vec<&str> = text.lines().collect();
    let g = Grid::from_ascii(&rows).expect("to_ascii reads back");
    assert_eq!(g.version(), 0);
    g
}

/// What a query gave, comparable: status and length bits, or the error's text.
fn outcome(r: Result<Status, taut::Error>, a: &Answer) -> Result<(Status, u64), String> {
    match r {
        Ok(s) => Ok((s, a.length.to_bits())),
        Err(e) => Err(e.to_string()),
    }
}

/// A fresh planner `name` on `grid`, or `None` when it cannot be made there (a mesh planner
/// on a grid with no free cell).
fn fresh_answer(
    grid: &Grid,
    name: &str,
    (s, t): (Point, Point),
) -> Option<Result<(Status, u64), String>> {
    let map = Map::new(fresh(grid));
    let mut p = match map.planner(&spec(name)) {
        Ok(p) => p,
        Err(_) if grid.free_cells() == 0 => return None,
        Err(e) => panic!("{name}: {e}"),
    };
    let mut a = Answer::default();
    let r = p.plan(s, t, &mut a).map_err(taut::Error::from);
    Some(outcome(r, &a))
}

/// One random edit: a cell (often on the edge, sometimes a query's start or goal cell), or a
/// rectangle up to 5 × 5, blocked or freed.
fn random_edit(world: &World, rng: &mut SplitMix, ends: &[(Point, Point)]) -> String {
    let g = world.map();
    let (w, h) = (g.grid().width(), g.grid().height());
    let block = rng.chance(60);
    match rng.below(4) {
        0 => {
            // An edge cell.
            let (x, y) = match rng.below(4) {
                0 => (0, rng.below(h as u64) as i32),
                1 => (w - 1, rng.below(h as u64) as i32),
                2 => (rng.below(w as u64) as i32, 0),
                _ => (rng.below(w as u64) as i32, h - 1),
            };
            world.set_blocked(x, y, block).expect("on the map");
            format!("cell ({x}, {y}) blocked={block}")
        }
        1 if !ends.is_empty() => {
            // A query's start or goal cell (the cell south-east of the point).
            let (s, t) = ends[rng.below(ends.len() as u64) as usize];
            let p = if rng.chance(50) { s } else { t };
            // (The hardening queries include points off the map: clamp.)
            let (x, y) = (p.x.clamp(0, w - 1), p.y.clamp(0, h - 1));
            world.set_blocked(x, y, true).expect("on the map");
            format!("endpoint cell ({x}, {y}) blocked")
        }
        2 => {
            let (x, y) = (rng.below(w as u64) as i32, rng.below(h as u64) as i32);
            world.set_blocked(x, y, block).expect("on the map");
            format!("cell ({x}, {y}) blocked={block}")
        }
        _ => {
            let rw = 1 + rng.below(5) as i32;
            let rh = 1 + rng.below(5) as i32;
            let x0 = rng.below((w - rw + 1).max(1) as u64) as i32;
            let y0 = rng.below((h - rh + 1).max(1) as u64) as i32;
            let r = CellRect::new(x0, y0, rw.min(w), rh.min(h));
            world.set_rect(r, block).expect("on the map");
            format!("rect {r} blocked={block}")
        }
    }
}

#[test]
fn after_every_edit_kept_planners_answer_as_fresh_ones() {
    let names = online_names();
    assert!(names.len() >= 7, "{names:?}");
    let mut checked = 0usize;
    let mut errors = 0usize;
    let mut unreachable = 0usize;
    let mut found = 0usize;
    for (i, family) in Family::ALL.iter().enumerate() {
        let seed = 0x3d17 + i as u64;
        let grid = generate(*family, 22, 16, seed);
        let qs = queries(&grid, 6, seed);
        if qs.is_empty() {
            continue;
        }
        let world = World::new(grid);
        let mut planners: Vec<_> = names
            .iter()
            .filter_map(|n| world.planner(&spec(n)).ok().map(|p| (*n, p)))
            .collect();
        let mut rng = SplitMix::new(seed);
        let mut a = Answer::default();
        for step in 0..30 {
            let edit = random_edit(&world, &mut rng, &qs);
            let current = world.map();
            for (name, p) in &mut planners {
                for &q in &qs {
                    let got = outcome(p.plan(q.0, q.1, &mut a), &a);
                    assert_eq!(p.version(), current.grid().version());
                    let Some(want) = fresh_answer(current.grid(), name, q) else {
                        continue;
                    };
                    assert_eq!(
                        got, want,
                        "{name} on {family:?} after edit {step} ({edit}), query {q:?}"
                    );
                    checked += 1;
                    match got {
                        Err(_) => errors += 1,
                        Ok((Status::Unreachable, _)) => unreachable += 1,
                        Ok(_) => found += 1,
                    }
                }
            }
        }
    }
    eprintln!(
        "changing worlds: {checked} answers after edits equal fresh planners' ({found} found, {unreachable} unreachable, {errors} typed errors)"
    );
    assert!(found > 2000, "{found}");
    assert!(checked > 5000, "{checked}");
    assert!(errors > 0 && unreachable > 0, "{errors} {unreachable}");
}

#[test]
fn blocked_endpoints_walls_and_doors_give_typed_outcomes() {
    let rows = [
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
    ];
    let world = World::new(Grid::from_ascii(&rows).unwrap());
    let (s, t) = (Point::new(1, 2), Point::new(9, 3));
    let mut a = Answer::default();
    for name in online_names() {
        let mut p = world.planner(&spec(name)).unwrap();
        // The start's cell (south-east of the point) blocked: a typed error, for every planner.
        world.set_blocked(1, 2, true).unwrap();
        match p.plan(s, t, &mut a) {
            Err(taut::Error::Query(QueryError::Blocked { .. })) => {}
            other => panic!("{name}: start cell blocked gave {other:?}"),
        }
        world.set_blocked(1, 2, false).unwrap();
        // The goal's cell, on the map's east edge, blocked.
        world.set_blocked(9, 3, true).unwrap();
        assert!(
            matches!(
                p.plan(s, t, &mut a),
                Err(taut::Error::Query(QueryError::Blocked { .. }))
            ),
            "{name}"
        );
        world.set_blocked(9, 3, false).unwrap();
        // A wall from top to bottom cuts the goal off.
        world.set_rect(CellRect::new(5, 0, 1, 6), true).unwrap();
        assert_eq!(p.plan(s, t, &mut a).unwrap(), Status::Unreachable, "{name}");
        assert!(a.waypoints.is_empty() && a.length.is_infinite(), "{name}");
        // A door in it on the map's edge (the bottom row): found again, through the door.
        world.set_blocked(5, 5, false).unwrap();
        assert_eq!(p.plan(s, t, &mut a).unwrap(), Status::Found, "{name}");
        world.map().grid().check_path(s, t, &a.waypoints).unwrap();
        let through = a.length;
        assert!(through > 8.1, "{name}: {through}");
        // Wall gone: the straight line again.
        world.set_rect(CellRect::new(5, 0, 1, 6), false).unwrap();
        p.plan(s, t, &mut a).unwrap();
        if p.planner().guarantee() == Guarantee::Optimal
            && p.planner().path_model() == PathModel::AnyAngle
        {
            assert!(
                (a.length - 65f64.sqrt()).abs() < 1e-9,
                "{name}: {}",
                a.length
            );
        } else {
            assert!(a.length >= 65f64.sqrt() - 1e-9, "{name}: {}", a.length);
        }
        // Edits off the map are refused, and change nothing.
        let v = world.version();
        assert!(world.set_blocked(10, 0, true).is_err());
        assert!(world.set_rect(CellRect::new(8, 4, 3, 1), true).is_err());
        assert_eq!(world.version(), v);
    }
}

#[test]
fn snapshots_do_not_change_under_a_planner_and_no_op_edits_keep_the_version() {
    let world = World::new(generate(Family::Random, 16, 12, 5));
    let before = world.map();
    let v = world.version();
    let (x, y) = (3, 4);
    let was_free = before.grid().is_free(x, y);
    // Setting a cell to what it is: no new version, the same map (and what it built).
    world.set_blocked(x, y, !was_free).unwrap();
    assert_eq!(world.version(), v);
    assert!(std::sync::Arc::ptr_eq(&before, &world.map()));
    world.set_blocked(x, y, was_free).unwrap();
    assert_eq!(world.version(), v + 1);
    // The old snapshot still has the old cell (copy on write).
    assert_eq!(before.grid().is_free(x, y), was_free);
    assert_eq!(world.map().grid().is_free(x, y), !was_free);
    // Several edits in one closure: one new version per changed cell, one new map.
    let changed = world.edit(|g| {
        let a = g.set_blocked(0, 0, true).unwrap();
        let b = g.set_blocked(15, 11, true).unwrap();
        u64::from(a) + u64::from(b)
    });
    assert_eq!(world.version(), v + 1 + changed);
}

#[test]
fn threads_plan_while_another_edits() {
    let grid = generate(Family::Rooms, 40, 30, 11);
    let qs = queries(&grid, 8, 11);
    assert!(!qs.is_empty());
    let world = World::new(grid);
    let seen = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for name in ["anya", "ray", "polyanya", "theta"] {
            let (world, qs, seen) = (&world, &qs, &seen);
            scope.spawn(move || {
                let mut p = world.planner(&spec(name)).unwrap();
                let mut a = Answer::default();
                for round in 0..40 {
                    let q = qs[round % qs.len()];
                    let got = outcome(p.plan(q.0, q.1, &mut a), &a);
                    // The answer belongs to the snapshot the planner used.
                    let want = fresh_answer(p.map().grid(), name, q).expect("free cells");
                    assert_eq!(got, want, "{name} round {round}");
                    *seen.lock().unwrap() += 1;
                }
            });
        }
        let world = &world;
        scope.spawn(move || {
            let mut rng = SplitMix::new(99);
            for _ in 0..200 {
                let (x, y) = (rng.below(40) as i32, rng.below(30) as i32);
                world.set_blocked(x, y, rng.chance(50)).unwrap();
            }
        });
    });
    assert_eq!(*seen.lock().unwrap(), 160);
}

#[test]
fn a_cpd_or_hub_file_of_the_old_map_is_refused_after_an_edit() {
    use taut::Source;
    use taut::registry::MeshChoice;
    let grid = generate(Family::Rooms, 24, 18, 8);
    let qs = queries(&grid, 20, 8);
    let q = *qs
        .iter()
        .find(|&&(s, t)| grid.check_query(s, t).is_ok() && s != t)
        .expect("a valid query");
    let dir = std::env::temp_dir().join(format!("taut-world-stale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cpd_file, hub_file) = (dir.join("m.cpd"), dir.join("m.hub"));
    {
        let map = Map::new(grid.clone());
        let eps = map.cpd(MeshChoice::Built).unwrap().eps;
        taut::cpd::write_cpd(&cpd_file, eps.cpd()).unwrap();
        let hub = map.hub(MeshChoice::Built).unwrap().index;
        taut::hub::write_hub(&hub_file, &hub).unwrap();
    }
    let world = World::from_map(
        Map::new(grid.clone())
            .with_cpd(Source::File(cpd_file.clone()))
            .with_hub(Source::File(hub_file.clone())),
    );
    let mut a = Answer::default();
    for name in ["eps", "hub"] {
        let mut p = world.planner(&spec(name)).unwrap();
        // The files fit the map they were built for.
        assert_eq!(p.plan(q.0, q.1, &mut a).unwrap(), Status::Found, "{name}");
        let v = world.version();
        // Block a free cell away from the query's ends: a new map, whose mesh differs.
        let (x, y) = (0..24)
            .flat_map(|x| (0..18).map(move |y| (x, y)))
            .find(|&(x, y)| {
                world.map().grid().is_free(x, y)
                    && (x, y) != (q.0.x, q.0.y)
                    && (x, y) != (q.1.x, q.1.y)
            })
            .unwrap();
        world.set_blocked(x, y, true).unwrap();
        assert_eq!(world.version(), v + 1);
        match p.plan(q.0, q.1, &mut a) {
            Err(taut::Error::Setup(e)) => {
                let text = e.to_string();
                assert!(
                    text.contains(".cpd") || text.contains(".hub"),
                    "{name}: {text}"
                );
            }
            other => panic!("{name}: a file of the old map gave {other:?}"),
        }
        // The planner stays on its old map, and a fresh one cannot be had either.
        assert_eq!(p.version(), v);
        assert!(world.planner(&spec(name)).is_err(), "{name}");
        world.set_blocked(x, y, false).unwrap();
    }
    std::fs::remove_dir_all(&dir).ok();
}
