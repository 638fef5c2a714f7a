//! Scripted changing worlds ([`taut::script`]): agents re-plan after timed edits. On random maps
//! and random scripts (single cells, rectangles, the map's edge, the agents' start and goal
//! cells, walls that cut goals off and open again), for Anya, ray and Polyanya (whose mesh is
//! repaired between versions):
//! - every path an agent takes after a re-plan is, from the corner it re-planned from, exactly
//!   as long as a fresh planner's on a fresh grid read from the edited cells;
//! - a path kept after cells were freed is no longer than the fresh optimum plus the walk to
//!   the corner;
//! - no edit ever walls an agent in, no planned segment crosses a blocked cell (the
//!   simulation checks, and would return `Defect`), and every agent ends reached, or waiting
//!   with no path to its goal on the final map (checked by a fresh planner), or cut off by the
//!   step limit.

use taut::grid::{Answer, CellRect, Grid, Point, Status};
use taut::registry::PlannerSpec;
use taut::script::{AgentStatus, Event, Options, Script, ScriptError, Simulation, TimedEdit};
use taut::{Map, World};
use taut_hardening::maps::{Family, SplitMix, generate};

fn fresh(grid: &Grid) -> Grid {
    let text = grid.to_ascii();
    let rows: Vec<&str> = text.lines().collect();
    Grid::from_ascii(&rows).expect("to_ascii reads back")
}

/// The exact length from `from` to `goal` on a fresh copy of `grid`, by a fresh planner.
fn fresh_length(grid: &Grid, spec: &PlannerSpec, from: Point, goal: Point) -> Option<f64> {
    let map = Map::new(fresh(grid));
    let mut p = map.planner(spec).expect("planner");
    let mut a = Answer::default();
    match p.plan(from, goal, &mut a) {
        Ok(Status::Found) => Some(a.length),
        Ok(Status::Unreachable) | Err(_) => None,
    }
}

/// The free cells whose closure holds `p`.
fn free_cells_at(grid: &Grid, p: (f64, f64)) -> Vec<Point> {
    let axis = |v: f64| {
        let f = v.floor() as i32;
        if v == v.floor() {
            vec![f - 1, f]
        } else {
            vec![f]
        }
    };
    let mut out = Vec::new();
    for y in axis(p.1) {
        for x in axis(p.0) {
            if x >= 0 && y >= 0 && x < grid.width() && y < grid.height() && grid.is_free(x, y) {
                out.push(Point::new(x, y));
            }
        }
    }
    out
}

fn free_corners(grid: &Grid) -> Vec<Point> {
    let mut v = Vec::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            if grid.is_free(x, y) {
                v.push(Point::new(x, y));
            }
        }
    }
    v
}

/// A random script: 1-4 agents between free cells, 1-10 edits over the first 40 steps, some
/// on the map's edge and some on the agents' own start and goal cells.
fn random_script(grid: &Grid, rng: &mut SplitMix) -> Option<Script> {
    let free = free_corners(grid);
    if free.len() < 2 {
        return None;
    }
    let pick = |rng: &mut SplitMix| free[rng.below(free.len() as u64) as usize];
    let mut script = Script::default();
    for i in 0..1 + rng.below(4) {
        script.agents.push(taut::script::AgentSpec {
            name: format!("a{i}"),
            start: pick(rng),
            goal: pick(rng),
        });
    }
    let (w, h) = (grid.width(), grid.height());
    for line in 0..1 + rng.below(10) as usize {
        let (x0, y0) = match rng.below(4) {
            0 => {
                let a = &script.agents[rng.below(script.agents.len() as u64) as usize];
                let p = if rng.below(2) == 0 { a.start } else { a.goal };
                (p.x, p.y)
            }
            1 => (0, rng.below(h as u64) as i32),
            _ => (rng.below(w as u64) as i32, rng.below(h as u64) as i32),
        };
        let width = (1 + rng.below(4) as i32).min(w - x0);
        let height = (1 + rng.below(4) as i32).min(h - y0);
        script.edits.push(TimedEdit {
            step: rng.below(40) as u32,
            blocked: rng.below(3) != 0,
            rect: CellRect {
                x0,
                y0,
                width,
                height,
            },
            line: line + 1,
        });
    }
    Some(script)
}

/// Runs `script` step by step, checking every plan against a fresh planner. Returns how many
/// plans were checked and how many mesh repairs were seen.
fn run_checked(grid: &Grid, script: &Script, spec: &PlannerSpec, what: &str) -> (usize, usize) {
    let world = World::new(fresh(grid));
    let options = Options {
        speed: 0.75,
        max_steps: 400,
    };
    let mut sim = Simulation::new(&world, script, spec, options).expect("script fits the map");
    let (mut checked, mut repairs) = (0, 0);
    // The plans just made (after `new`, or after `replan` and before `walk`).
    let mut check_plans = |sim: &mut Simulation<'_>| {
        let map = world.map();
        for e in sim.take_events() {
            match e {
                Event::Plan {
                    agent,
                    from,
                    outcome,
                    adopted,
                    ..
                } => {
                    let a = &sim.agents()[agent];
                    let pos = a.position();
                    let walk = (pos.0 - f64::from(from.x)).hypot(pos.1 - f64::from(from.y));
                    let want = fresh_length(map.grid(), spec, from, a.goal);
                    match (outcome, want) {
                        (Ok(len), Some(w)) => {
                            let tol = 1e-9 * w.max(1.0);
                            assert!(
                                (len - walk - w).abs() <= tol,
                                "{what}: {len} vs {w} + {walk}"
                            );
                            if adopted {
                                assert!((a.remaining() - len).abs() <= tol, "{what}: adopted");
                            } else {
                                assert!(a.remaining() <= len + tol, "{what}: kept a longer path");
                            }
                            checked += 1;
                        }
                        (Err(_), None) => checked += 1,
                        (got, want) => panic!("{what}: plan {got:?}, fresh {want:?}"),
                    }
                }
                Event::Mesh { repaired, .. } => repairs += usize::from(repaired.is_some()),
                Event::Edit { .. } | Event::Deferred { .. } | Event::Reached { .. } => {}
            }
        }
    };
    check_plans(&mut sim);
    while !sim.finished() {
        sim.apply_edits();
        match sim.replan() {
            Ok(()) => {}
            Err(e @ ScriptError::Defect { .. }) => panic!("{what}: {e}"),
            Err(e) => panic!("{what}: {e}"),
        }
        check_plans(&mut sim);
        // No agent is walled in: each stands in a free cell.
        let map = world.map();
        for a in sim.agents().iter().filter(|a| !a.is_reached()) {
            assert!(
                !free_cells_at(map.grid(), a.position()).is_empty(),
                "{what}: {} walled in at {:?}",
                a.name,
                a.position()
            );
        }
        sim.walk();
    }
    // Every agent ends reached, cut off by the limit, or waiting without a path.
    let map = world.map();
    for a in sim.agents() {
        match a.status {
            AgentStatus::Reached(_) => {
                let p = a.position();
                assert_eq!(p, (f64::from(a.goal.x), f64::from(a.goal.y)), "{what}");
            }
            AgentStatus::Waiting(_) if sim.step_number() < 400 => {
                let any = free_cells_at(map.grid(), a.position())
                    .into_iter()
                    .any(|c| fresh_length(map.grid(), spec, c, a.goal).is_some());
                assert!(!any, "{what}: {} waits though a path exists", a.name);
            }
            _ => {}
        }
    }
    (checked, repairs)
}

#[test]
fn agents_replan_exactly_on_random_scripts() {
    let families = [
        Family::Random,
        Family::Rooms,
        Family::Corridors,
        Family::DiagonalWalls,
        Family::AllFree,
    ];
    let mut total = 0;
    let mut repairs = 0;
    for name in ["anya", "ray", "polyanya"] {
        let spec: PlannerSpec = name.parse().unwrap();
        for family in families {
            for seed in 0..24u64 {
                let grid = generate(family, 20, 16, seed * 7 + 1);
                let mut rng = SplitMix::new(seed ^ 0xd00d);
                let Some(script) = random_script(&grid, &mut rng) else {
                    continue;
                };
                let what = format!("{name} {family:?} seed {seed}");
                let (c, r) = run_checked(&grid, &script, &spec, &what);
                total += c;
                repairs += r;
            }
        }
    }
    assert!(total > 1200, "only {total} plans checked");
    assert!(repairs > 80, "only {repairs} mesh repairs seen");
}

#[test]
fn a_door_waits_for_the_agent_standing_in_it() {
    // A corridor two cells wide; the agent walks east along its north side, half a cell a step;
    // the door (column 4) is due at step 9, when the agent stands at 4.5,0 inside it, and must
    // wait until the agent is out (at 5,0, step 10).
    let grid = Grid::from_ascii(&["..........", "..........", "@@@@@@@@@@"]).unwrap();
    let script = Script::parse("agent a 0,0 9,0\nat 9 block 4,0 4,1\n").unwrap();
    let world = World::new(grid);
    let spec: PlannerSpec = "anya".parse().unwrap();
    let options = Options {
        speed: 0.5,
        ..Options::default()
    };
    let mut sim = Simulation::new(&world, &script, &spec, options).unwrap();
    let mut deferred_at = None;
    let mut applied_at = None;
    while !sim.finished() {
        sim.advance().unwrap();
        for e in sim.take_events() {
            match e {
                Event::Deferred { step, .. } => deferred_at = Some(step),
                Event::Edit { step, changed, .. } => {
                    applied_at = Some(step);
                    assert_eq!(changed, 2);
                }
                _ => {}
            }
        }
    }
    assert_eq!(
        deferred_at,
        Some(9),
        "the agent stands in column 4 at step 9"
    );
    assert_eq!(
        applied_at,
        Some(10),
        "the door closes once the agent is past it"
    );
    assert!(sim.agents()[0].is_reached());
    assert!((sim.agents()[0].travelled - 9.0).abs() < 1e-12);
}

#[test]
fn a_cut_off_goal_makes_the_agent_wait_until_a_door_opens() {
    let grid = Grid::from_ascii(&["....", "....", "....", "....", "...."]).unwrap();
    let script = Script::parse(
        "agent a 0,0 0,4\nat 1 block 0,2 3,2\nat 10 free 3,2\nat 12 block 0,4\nat 14 free 0,4\n",
    )
    .unwrap();
    let world = World::new(grid);
    let spec: PlannerSpec = "ray".parse().unwrap();
    let mut sim = Simulation::new(&world, &script, &spec, Options::default()).unwrap();
    let mut waits = Vec::new();
    while !sim.finished() {
        sim.advance().unwrap();
        if let AgentStatus::Waiting(w) = sim.agents()[0].status {
            waits.push((sim.step_number(), w));
        }
    }
    use taut::script::Waiting::{GoalBlocked, Unreachable};
    assert_eq!(waits.first(), Some(&(2, Unreachable)));
    assert!(
        waits
            .iter()
            .all(|&(s, w)| (s < 11 && w == Unreachable) || (s >= 13 && w == GoalBlocked))
    );
    assert!(waits.iter().any(|&(_, w)| w == GoalBlocked));
    let a = &sim.agents()[0];
    assert!(a.is_reached());
    // Out through the door at the right-hand end, back to the goal.
    assert!(a.travelled > 4.0 + 4.0);
}

#[test]
fn malformed_scripts_name_their_line() {
    let cases = [
        ("agent a 0,0\n", 1, "expected"),
        ("agent a 0,0 1,x\n", 1, "lattice point"),
        ("agent a 0,0 1,1\nat x block 0,0\n", 2, "step number"),
        ("agent a 0,0 1,1\nat 3 paint 0,0\n", 2, "block"),
        ("agent a 0,0 1,1\nat 3 block 2,2 1,1\n", 2, "south-east"),
        ("agent a 0,0 1,1\nagent a 1,1 0,0\n", 2, "second agent"),
        ("map a.map\nmap b.map\nagent a 0,0 1,1\n", 2, "second `map`"),
    ];
    for (text, line, words) in cases {
        match Script::parse(text) {
            Err(ScriptError::Syntax { line: l, reason }) => {
                assert_eq!(l, line, "{text:?}");
                assert!(reason.contains(words), "{text:?}: {reason}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    assert!(matches!(
        Script::parse("# nothing\n"),
        Err(ScriptError::NoAgents)
    ));
    // Off the map and blocked endpoints, edits off the map: typed errors before anything runs.
    let grid = Grid::from_ascii(&["...", ".@.", "..."]).unwrap();
    let world = World::new(grid);
    let spec: PlannerSpec = "anya".parse().unwrap();
    let run = |text: &str| {
        Simulation::new(
            &world,
            &Script::parse(text).unwrap(),
            &spec,
            Options::default(),
        )
        .map(|_| ())
    };
    assert!(matches!(
        run("agent a 1,1 0,0\n"),
        Err(ScriptError::Endpoint { .. })
    ));
    assert!(matches!(
        run("agent a 0,0 5,0\n"),
        Err(ScriptError::Endpoint { .. })
    ));
    for speed in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let options = Options {
            speed,
            ..Options::default()
        };
        let script = Script::parse("agent a 0,0 2,2\n").unwrap();
        assert!(matches!(
            Simulation::new(&world, &script, &spec, options),
            Err(ScriptError::Speed(_))
        ));
    }
    match run("agent a 0,0 2,2\nat 1 block 2,2 3,3\n") {
        Err(ScriptError::EditOffMap { line: 2, .. }) => {}
        other => panic!("{other:?}"),
    }
}
