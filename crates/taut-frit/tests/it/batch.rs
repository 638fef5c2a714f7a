//! The batch API: a frame never spends more than its budget, starved agents wait and still
//! arrive, and the outcome does not depend on the number of threads.

use taut_frit::batch::{Crowd, FrameBudget, Share};
use taut_frit::{AgentAlgo, Status, World};
use taut_grid::Grid;

fn map() -> Grid {
    // Pillars and walls with gaps, 60 x 40.
    Grid::from_fn(60, 40, |x, y| {
        let wall = x % 15 == 7 && y % 20 != 3;
        let pillar = x % 6 == 3 && y % 6 == 3;
        !(wall || pillar)
    })
}

fn crowd<'w>(world: &'w World<'w>, n: usize) -> Crowd<'w> {
    let mut c = Crowd::new(world);
    for i in 0..n {
        // FRIT(BFS) is not real-time: a starved share can never finish its search.
        let real_time = [
            AgentAlgo::Lrta,
            AgentAlgo::Rtaa,
            AgentAlgo::DaRtaa,
            AgentAlgo::FritRt,
            AgentAlgo::PFritRt,
            AgentAlgo::Bug2,
        ];
        let algo = real_time[i % real_time.len()];
        let s = ((i * 7 % 60) as i32, (i * 3 % 40) as i32);
        let g = ((59 - i * 11 % 60) as i32, (39 - i * 5 % 40) as i32);
        let free = |p: (i32, i32)| world.grid().is_free(p.0, p.1);
        if !free(s) || !free(g) {
            continue;
        }
        c.add(algo, s, g, 1 + (i % 16) as u32, (i % 3) as i32)
            .unwrap();
    }
    c
}

/// Runs frames until every agent is done; returns every agent's (status, cost, moves).
fn finish(c: &mut Crowd<'_>, budget: u64, share: Share) -> (Vec<(Status, f64, u64)>, usize) {
    let mut frames = 0;
    while c.active() > 0 {
        let r = c.frame(FrameBudget::Expansions(budget), share);
        assert!(
            r.expansions <= budget,
            "frame spent {} of {budget}",
            r.expansions
        );
        frames += 1;
        assert!(frames < 2_000_000, "crowd did not finish");
    }
    let out = (0..c.len())
        .map(|i| {
            let s = c.stats(i).unwrap();
            (c.status(i).unwrap().clone(), s.cost, s.moves)
        })
        .collect();
    (out, frames)
}

#[test]
fn starved_agents_wait_and_still_arrive() {
    let grid = map();
    let world = World::new(&grid);
    for share in [Share::RoundRobin, Share::Priority] {
        let mut c = crowd(&world, 40);
        assert!(c.len() >= 30);
        // Far fewer expansions than agents: most agents wait in most frames.
        let (out, frames) = finish(&mut c, 7, share);
        for (i, (status, _, _)) in out.iter().enumerate() {
            assert!(
                matches!(status, Status::Reached | Status::Unsolvable),
                "agent {i}: {status:?}"
            );
        }
        assert!(out.iter().filter(|o| o.0 == Status::Reached).count() > 20);
        assert!(frames > 10);
    }
}

#[test]
fn the_outcome_does_not_depend_on_threads() {
    let grid = map();
    let world = World::new(&grid);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut c = crowd(&world, 48);
            finish(&mut c, 60, Share::RoundRobin).0
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(4));
}

#[test]
fn a_lone_agent_in_a_crowd_moves_as_it_would_alone() {
    let grid = map();
    let world = World::new(&grid);
    let mut c = Crowd::new(&world);
    c.add(AgentAlgo::PFritRt, (0, 0), (59, 39), 8, 0).unwrap();
    let (out, _) = finish(&mut c, 8, Share::RoundRobin);
    let alone = taut_frit::run(
        &world,
        AgentAlgo::PFritRt.agent().as_mut(),
        (0, 0),
        (59, 39),
        &taut_frit::RunParams::new(8),
        &mut taut_frit::Scratch::new(),
    )
    .unwrap();
    assert_eq!(out[0].0, Status::Reached);
    assert_eq!((out[0].1, out[0].2), (alone.stats.cost, alone.stats.moves));
    assert!(
        c.add(AgentAlgo::Rtaa, (7, 0), (0, 0), 4, 0).is_err(),
        "(7, 0) is a wall cell"
    );
}
