//! One grid shared by several threads, one search context per thread: every thread gets
//! exactly the answers of a single-threaded run. The types involved are checked at compile time
//! to be shareable (`Grid: Send + Sync`) and movable between threads (`SearchContext: Send`).

use taut_anya::{AnyaPlanner, Options, SearchContext};
use taut_grid::{Answer, FreeSet, Grid, MapFile, Scenario};
use taut_testdata::fixtures;

const fn shared<T: Send + Sync>() {}
const fn movable<T: Send>() {}
const _: () = {
    shared::<Grid>();
    shared::<Options>();
    movable::<SearchContext>();
    movable::<AnyaPlanner<'static>>();
};

#[test]
fn threads_sharing_one_grid_agree_with_one_thread() {
    let dir = fixtures().join("maps");
    let grid = Grid::from_map(
        &MapFile::read(dir.join("arena.map")).unwrap(),
        &FreeSet::default(),
    );
    let scen = Scenario::read(dir.join("arena.map.scen")).unwrap();
    let solve = |order: &mut dyn Iterator<Item = usize>| {
        let mut ctx = SearchContext::new();
        let mut out = Answer::default();
        let mut answers = vec![None; scen.entries.len()];
        for i in order {
            let e = &scen.entries[i];
            ctx.search(&grid, e.start, e.goal, &Options::default(), &mut out)
                .unwrap();
            answers[i] = Some(out.clone());
        }
        answers
    };
    let n = scen.entries.len();
    assert_eq!(
        n % 7,
        4,
        "the orders below are permutations because gcd(7, n) = 1"
    );
    let reference = solve(&mut (0..n));
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let solve = &solve;
                // Each thread runs the queries in its own order, so contexts are warm in
                // different states.
                s.spawn(move || solve(&mut (0..n).map(|i| (i * 7 + t * 13) % n)))
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), reference);
        }
    });
}
