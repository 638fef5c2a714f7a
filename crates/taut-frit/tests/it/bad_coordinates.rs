//! The simulator's entry points (`run`, `Crowd::add`, `check_problem`) given endpoints off the
//! map (also at `i32::MIN`/`i32::MAX`) or on blocked cells: a typed `FritError` naming the
//! endpoint for every algorithm, never a panic and never a run that ends "unsolvable".

use taut_frit::batch::Crowd;
use taut_frit::{AgentAlgo, FritError, RunParams, Scratch, Status, World, check_problem, run};
use taut_grid::{FreeSet, Grid, MapFile};
use taut_testdata::fixtures;

/// `fixtures/maps/small.map`: 8 x 6, cell (1, 1) `@` and (6, 1) `T` blocked, (7, 2) free but
/// walled in.
fn small() -> Grid {
    let map = MapFile::read(fixtures().join("maps/small.map")).unwrap();
    Grid::from_map(&map, &FreeSet::default())
}

fn invalid() -> Vec<((i32, i32), &'static str)> {
    let mut v = vec![((1, 1), "Blocked"), ((6, 1), "Blocked")];
    for p in [
        (-1, 0),
        (0, -1),
        (8, 0),
        (0, 6),
        (i32::MIN, 0),
        (0, i32::MIN),
        (i32::MAX, i32::MAX),
        (i32::MIN, i32::MAX),
    ] {
        v.push((p, "OffMap"));
    }
    v
}

fn is(e: &FritError, want: &str, which: &str, at: (i32, i32)) -> bool {
    match e {
        FritError::OffMap { which: w, x, y, .. } => {
            want == "OffMap" && *w == which && (*x, *y) == at
        }
        FritError::Blocked { which: w, x, y } => want == "Blocked" && *w == which && (*x, *y) == at,
    }
}

#[test]
fn invalid_endpoints_are_errors_for_every_entry_point_and_algorithm() {
    let grid = small();
    let world = World::new(&grid);
    let mut scratch = Scratch::default();
    let free = (0, 0);
    for (p, want) in invalid() {
        for (s, t, which) in [(p, free, "start"), (free, p, "goal")] {
            let e = check_problem(&world, s, t).unwrap_err();
            assert!(
                is(&e, want, which, p),
                "check_problem {s:?} -> {t:?}: {e:?}"
            );
            for algo in AgentAlgo::ALL {
                let mut agent = algo.agent();
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run(
                        &world,
                        agent.as_mut(),
                        s,
                        t,
                        &RunParams::new(4),
                        &mut scratch,
                    )
                }))
                .unwrap_or_else(|_| panic!("{} {s:?} -> {t:?} panicked", algo.name()));
                match r {
                    Err(e) if is(&e, want, which, p) => {}
                    r => panic!("{} {s:?} -> {t:?}: {:?}", algo.name(), r.map(|o| o.status)),
                }
                let mut crowd = Crowd::new(&world);
                match crowd.add(algo, s, t, 4, 0) {
                    Err(e) if is(&e, want, which, p) => {}
                    r => panic!("crowd {} {s:?} -> {t:?}: {r:?}", algo.name()),
                }
                assert!(crowd.is_empty());
            }
        }
    }
    // A valid but walled-in goal is a valid problem that is unsolvable.
    for algo in AgentAlgo::ALL {
        let mut agent = algo.agent();
        let o = run(
            &world,
            agent.as_mut(),
            free,
            (7, 2),
            &RunParams::new(4),
            &mut scratch,
        );
        assert!(
            matches!(o.map(|o| o.status), Ok(Status::Unsolvable)),
            "{}",
            algo.name()
        );
    }
}
