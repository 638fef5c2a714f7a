//! `plan_traced` records exactly the expanded nodes of A*, Theta*, Lazy Theta* and the
//! visibility graph: on the 130 arena queries the trace has `stats.expanded` events, the
//! answer equals the untraced one, the start comes first without a parent, and every other
//! node's parent was expanded before it (for A*, an 8-neighbour of a free cell).

use std::collections::HashSet;

use crate::common::arena;
use taut_baselines::{Baseline, baseline_planner};
use taut_grid::{Answer, TraceEvent};

#[test]
fn every_baseline_traces_its_expansions() {
    let (grid, queries) = arena();
    for algo in Baseline::ALL {
        let mut planner = baseline_planner(algo, &grid);
        let (mut plain, mut traced) = (Answer::default(), Answer::default());
        let mut trace = Vec::new();
        let mut total = 0;
        for &(s, t) in &queries {
            let st = planner.plan(s, t, &mut plain).unwrap();
            let st2 = planner.plan_traced(s, t, &mut traced, &mut trace).unwrap();
            assert_eq!((st, &plain), (st2, &traced), "{algo} {s} -> {t}");
            assert_eq!(
                trace.len() as u64,
                traced.stats.expanded,
                "{algo} {s} -> {t}"
            );
            total += trace.len();
            let mut seen = HashSet::new();
            for (i, ev) in trace.iter().enumerate() {
                let (at, parent) = match (algo, *ev) {
                    (Baseline::AStar, TraceEvent::Cell { at, parent }) => {
                        assert!(grid.is_free(at.x, at.y), "{algo} {s} -> {t}: {ev:?}");
                        if let Some(p) = parent {
                            let (dx, dy) = (at.x - p.x, at.y - p.y);
                            assert!(dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0));
                        }
                        // A* closes each cell once.
                        assert!(!seen.contains(&at), "{algo} {s} -> {t}: {at} twice");
                        (at, parent)
                    }
                    (Baseline::AStar, _) => panic!("{algo} recorded {ev:?}"),
                    (_, TraceEvent::Vertex { at, parent }) => {
                        assert!(grid.contains_point(at), "{algo} {s} -> {t}: {ev:?}");
                        (at, parent)
                    }
                    (_, _) => panic!("{algo} recorded {ev:?}"),
                };
                if i == 0 {
                    assert_eq!((at, parent), (s, None), "{algo} {s} -> {t}");
                } else {
                    let p = parent.unwrap_or_else(|| panic!("{algo} {s} -> {t}: {ev:?}"));
                    assert!(
                        seen.contains(&p),
                        "{algo} {s} -> {t}: parent of {ev:?} unseen"
                    );
                }
                seen.insert(at);
            }
        }
        // Every query expands at least its start (no query of the file has start == goal).
        assert!(
            total >= queries.len(),
            "{algo}: only {total} expansions traced"
        );
    }
}
