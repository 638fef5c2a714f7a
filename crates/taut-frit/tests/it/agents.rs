//! The simulator's guarantees and every agent on random maps (proptest): each reaches the
//! goal of every solvable problem, never beats the full-knowledge optimum, never expands more
//! than its lookahead in an episode, and every problem that is not solvable is reported so.

use proptest::prelude::*;
use taut_baselines::astar::AStar;
use taut_frit::agents::{Agent, Decision};
use taut_frit::{
    AgentAlgo, Border, Budget, FritConfig, FritError, GoalTest, IdealTree, LearnedH, MoveRule,
    Pointers, RunParams, Scratch, Status, Ties, View, World, run,
};
use taut_grid::{Answer, Grid, Point};

fn optimum(grid: &Grid, s: (i32, i32), g: (i32, i32)) -> Option<f64> {
    let mut a = AStar::new();
    let mut out = Answer::default();
    a.search(grid, Point::new(s.0, s.1), Point::new(g.0, g.1), &mut out)
        .ok()
        .filter(|_| out.length.is_finite())
        .map(|_| out.length)
}

fn random_grid() -> impl Strategy<Value = (Grid, (i32, i32), (i32, i32))> {
    (4u32..28, 4u32..28, 0u32..40).prop_flat_map(|(w, h, pct)| {
        let cells = (w * h) as usize;
        (
            proptest::collection::vec(0u32..100, cells),
            0..w as i32,
            0..h as i32,
            0..w as i32,
            0..h as i32,
        )
            .prop_map(move |(r, sx, sy, gx, gy)| {
                let grid = Grid::from_fn(w, h, |x, y| {
                    (x as i32, y as i32) == (sx, sy)
                        || (x as i32, y as i32) == (gx, gy)
                        || r[(y * w + x) as usize] >= pct
                });
                (grid, (sx, sy), (gx, gy))
            })
    })
}

/// A move rule and a FRIT configuration with every option drawn at random (Algorithm 4's
/// literal border rule only where corners may be cut: without corner cutting it forbids
/// every diagonal border move, and agents then circle until the move cap).
fn rule_and_config() -> impl Strategy<Value = (MoveRule, FritConfig)> {
    (
        any::<bool>(),
        any::<[bool; 7]>(),
        prop_oneof![Just(None), Just(Some(32u32)), (1u32..8).prop_map(Some)],
    )
        .prop_map(|(cut, b, release)| {
            let moves = if cut {
                MoveRule::CornerCut
            } else {
                MoveRule::NoCornerCut
            };
            let config = FritConfig {
                goal_test: if b[0] {
                    GoalTest::AllMinF
                } else {
                    GoalTest::Top
                },
                learned_h: if b[1] {
                    LearnedH::Reset
                } else {
                    LearnedH::Keep
                },
                pointers: if b[2] {
                    Pointers::Trajectory
                } else {
                    Pointers::KeepValid
                },
                border: if b[3] && cut {
                    Border::CommonNeighbour
                } else {
                    Border::AnyNeighbour
                },
                tree: if b[4] {
                    IdealTree::FirstInDelta
                } else {
                    IdealTree::DiagonalFirst
                },
                ties: if b[6] { Ties::LargerG } else { Ties::Insertion },
                release: if b[5] { release } else { Some(32) },
            };
            (moves, config)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn every_agent_reaches_every_solvable_goal(
        (grid, s, g) in random_grid(),
        k in 1u32..40,
        (moves, config) in rule_and_config(),
    ) {
        let world = World::with_moves(&grid, moves);
        let (sc, gc) = (world.cell(s.0, s.1).unwrap(), world.cell(g.0, g.1).unwrap());
        let opt = world.optimal_cost(sc, gc);
        // The world's optimum is A*'s without corner cutting, and never longer with it.
        let plain = optimum(&grid, s, g);
        match moves {
            MoveRule::NoCornerCut => prop_assert_eq!(opt.map(|x| (x * 1e9).round()), plain.map(|x| (x * 1e9).round())),
            MoveRule::CornerCut => if let Some(p) = plain {
                prop_assert!(opt.is_some_and(|o| o <= p + 1e-9));
            },
        }
        let mut scratch = Scratch::new();
        for algo in AgentAlgo::ALL {
            let mut agent = algo.agent_with(&config);
            let out = run(&world, agent.as_mut(), s, g, &RunParams::new(algo.effective_lookahead(k)), &mut scratch).unwrap();
            // Bug2 follows boundaries of obstacles joined at corners as one obstacle, so in a
            // world with corner cutting it cannot find a goal reachable only through such a
            // diagonal gap: it says the goal is unreachable (the simulator flags the claim) or
            // walks to the move cap.
            let gap_only = moves == MoveRule::CornerCut && plain.is_none();
            if algo == AgentAlgo::Bug2 && gap_only && matches!(out.status, Status::Failed(_) | Status::Cutoff) {
                continue;
            }
            match opt {
                Some(opt) => {
                    prop_assert_eq!(&out.status, &Status::Reached, "{} k={} {:?} {} on\n{}\n {:?}->{:?}", algo, k, moves, config, grid.to_ascii(), s, g);
                    prop_assert!(out.stats.cost >= opt - 1e-9, "{algo}: cost {} below optimum {opt}", out.stats.cost);
                }
                None => prop_assert_eq!(&out.status, &Status::Unsolvable),
            }
            if algo.uses_lookahead() {
                prop_assert!(out.stats.max_episode_expansions <= k);
            }
        }
    }
}

#[test]
fn frit_options_parse_print_and_refuse_bad_input() {
    // Every profile prints as the options that rebuild it.
    for config in [
        FritConfig::paper(),
        FritConfig::taut(),
        FritConfig::default(),
    ] {
        let mut again = FritConfig::taut();
        again.set_all(&config.to_string()).unwrap();
        assert_eq!(again, config, "{config}");
    }
    assert_eq!(FritConfig::default(), FritConfig::paper());
    let mut c = FritConfig::paper();
    c.set_all(" learned-h = keep , release=off,, tree=diagonal-first")
        .unwrap();
    assert_eq!(c.learned_h, LearnedH::Keep);
    assert_eq!(c.release, None);
    assert_eq!(c.tree, IdealTree::DiagonalFirst);
    c.set("release", "7").unwrap();
    assert_eq!(c.release, Some(7));
    let before = c;
    for (bad, says) in [
        ("release=0", "expected off | N"),
        ("release=-1", "expected off | N"),
        ("learned-h=forget", "reset | keep"),
        ("colour=walk", "unknown FRIT option"),
        ("learned-h", "not name=value"),
    ] {
        let e = c.set_all(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
    assert_eq!(c, before, "a refused option changes nothing");
    assert!(
        FritConfig::profile("fast")
            .unwrap_err()
            .contains("paper or taut")
    );
    assert_eq!("corner-cut".parse::<MoveRule>(), Ok(MoveRule::CornerCut));
    assert!("diagonal".parse::<MoveRule>().is_err());
}

#[test]
fn unsolvable_and_invalid_problems_are_reported_not_run() {
    let grid = Grid::from_ascii(&["..#..", "..#..", "..#.."]).unwrap();
    let world = World::new(&grid);
    let mut scratch = Scratch::new();
    for algo in AgentAlgo::ALL {
        let out = run(
            &world,
            algo.agent().as_mut(),
            (0, 0),
            (4, 2),
            &RunParams::new(8),
            &mut scratch,
        )
        .unwrap();
        assert_eq!(out.status, Status::Unsolvable, "{algo}");
        assert_eq!(out.stats.moves, 0);
        assert!(matches!(
            run(
                &world,
                algo.agent().as_mut(),
                (2, 0),
                (4, 2),
                &RunParams::new(8),
                &mut scratch
            ),
            Err(FritError::Blocked { which: "start", .. })
        ));
        assert!(matches!(
            run(
                &world,
                algo.agent().as_mut(),
                (0, 0),
                (5, 2),
                &RunParams::new(8),
                &mut scratch
            ),
            Err(FritError::OffMap { which: "goal", .. })
        ));
        let same = run(
            &world,
            algo.agent().as_mut(),
            (1, 1),
            (1, 1),
            &RunParams::new(8),
            &mut scratch,
        )
        .unwrap();
        assert_eq!((same.status, same.stats.moves), (Status::Reached, 0));
    }
}

/// An agent that breaks the rules, to show the simulator catches it.
struct Cheat(Decision);

impl Agent for Cheat {
    fn name(&self) -> &'static str {
        "cheat"
    }
    fn reset(&mut self, _: &View<'_>, _: u32) {}
    fn decide(
        &mut self,
        view: &View<'_>,
        pos: u32,
        budget: &mut Budget,
        scratch: &mut Scratch,
    ) -> Decision {
        // Try to expand more than allowed: the budget refuses.
        let mut succ = Default::default();
        let mut granted = 0;
        for _ in 0..10 {
            granted += u32::from(budget.expand(view, pos, &mut succ));
        }
        assert!(granted <= budget.expansions());
        let _ = scratch;
        self.0
    }
    fn heap_bytes(&self) -> usize {
        0
    }
}

#[test]
fn the_simulator_checks_moves_claims_and_budgets() {
    // A wall the cheat walks into, and a false claim of unsolvability.
    let grid = Grid::from_ascii(&[".#.", "...", "..."]).unwrap();
    let world = World::new(&grid);
    let mut scratch = Scratch::new();
    let into_wall = run(
        &world,
        &mut Cheat(Decision::Move(0)),
        (0, 0),
        (2, 0),
        &RunParams::new(3),
        &mut scratch,
    )
    .unwrap();
    assert!(
        matches!(into_wall.status, Status::Failed(ref m) if m.contains("illegally")),
        "{:?}",
        into_wall.status
    );
    // Cutting the corner of (1, 0) diagonally from (0, 0) to (1, 1) is illegal too.
    let corner = run(
        &world,
        &mut Cheat(Decision::Move(1)),
        (0, 0),
        (2, 0),
        &RunParams::new(3),
        &mut scratch,
    )
    .unwrap();
    assert!(matches!(corner.status, Status::Failed(_)));
    let lie = run(
        &world,
        &mut Cheat(Decision::Unsolvable),
        (0, 0),
        (2, 0),
        &RunParams::new(3),
        &mut scratch,
    )
    .unwrap();
    assert!(matches!(lie.status, Status::Failed(ref m) if m.contains("unsolvable")));
    // Ten expansions asked for, three granted, and the episode's count says three.
    assert_eq!(lie.stats.max_episode_expansions, 3);
    // Waiting forever ends at the decision cap.
    let wait = run(
        &world,
        &mut Cheat(Decision::Wait),
        (0, 0),
        (2, 0),
        &RunParams::new(1),
        &mut scratch,
    )
    .unwrap();
    assert_eq!(wait.status, Status::Cutoff);
}

#[test]
fn runs_are_deterministic() {
    let grid = Grid::from_fn(40, 30, |x, y| (x * 7 + y * 13) % 11 != 0 || y == 15);
    let world = World::new(&grid);
    let mut scratch = Scratch::new();
    for algo in AgentAlgo::ALL {
        let a = run(
            &world,
            algo.agent().as_mut(),
            (0, 15),
            (39, 29),
            &RunParams::new(algo.effective_lookahead(4)),
            &mut scratch,
        )
        .unwrap();
        let b = run(
            &world,
            algo.agent().as_mut(),
            (0, 15),
            (39, 29),
            &RunParams::new(algo.effective_lookahead(4)),
            &mut Scratch::new(),
        )
        .unwrap();
        assert_eq!(a.status, Status::Reached, "{algo}");
        assert_eq!(
            (a.stats.cost, a.stats.moves, a.stats.expansions),
            (b.stats.cost, b.stats.moves, b.stats.expansions),
            "{algo}"
        );
    }
}
