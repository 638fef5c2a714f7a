//! Evidence that taut's planners agree and hold up: a differential oracle that runs every
//! optimal grid planner on the same queries, and generators of adversarial grids.
//!
//! [`Oracle`] builds, for one grid, every planner of the facade's table
//! ([`taut::registry::PLANNERS`]) from one prepared [`Map`]: Anya, `auto`, the visibility
//! graph, Polyanya, End Point Search (optimal and first-solution), hub labels, Theta*, Lazy
//! Theta* and A*; and Polyanya on the unmerged triangulation too. [`Oracle::check`] answers one query with all of them and fails with a
//! [`Disagreement`] unless:
//!
//! - every planner returns the same status, or the same [`QueryError`] for an invalid query;
//! - the lengths of the planners whose [`Guarantee`] is `Optimal` agree within
//!   [`taut::grid::LENGTH_TOLERANCE`];
//! - no planner beats the optimum, and A*'s octile length is at least the any-angle optimum;
//! - every path is legal by [`Grid::check_path`] and measures its reported length.
//!
//! The fuzz target `grid_agree` (`fuzz/`) and the proptest suite `tests/it/differential.rs` both
//! drive this oracle; [`maps`] holds the adversarial map families they draw from.
//!
//! # Example
//! ```
//! use taut::grid::{Grid, Point};
//! use taut_hardening::Oracle;
//!
//! let grid = Grid::from_ascii(&["....", ".@@.", "...."]).unwrap();
//! let mut oracle = Oracle::new(&grid).unwrap();
//! // Along the top to (3, 1), then down the wall's east side to (3, 2).
//! let verdict = oracle.check(Point::new(0, 0), Point::new(3, 2)).unwrap();
//! assert!((verdict.optimum.unwrap() - (10f64.sqrt() + 1.0)).abs() < 1e-9);
//! ```

pub mod maps;

use std::sync::Arc;

use taut::Map;
use taut::grid::{Answer, Grid, Guarantee, Point, QueryError, Status, lengths_agree, path_length};
use taut::mesh::build::mesh_from_grid_with;
use taut::mesh::{BuildError, BuildOptions};
use taut::polyanya::PolyanyaPlanner;
use taut::registry::{Algo, BoxedPlanner, PLANNERS, PlannerSpec};

/// What the planners agreed on for one query.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The common outcome of every planner.
    pub outcome: Result<Status, QueryError>,
    /// The optimal any-angle length when a path exists.
    pub optimum: Option<f64>,
    /// How many planners answered (the mesh-based ones are absent on a grid without free space).
    pub planners: usize,
}

/// How the planners disagreed, named by planner and query.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{start} -> {goal}: {what}")]
pub struct Disagreement {
    /// The query's start.
    pub start: Point,
    /// The query's goal.
    pub goal: Point,
    /// What went wrong, naming the planners.
    pub what: String,
}

/// Every planner of the workspace, built for one grid, with reusable answers.
pub struct Oracle {
    grid: Arc<Grid>,
    /// The first is Anya, the reference of the comparison.
    planners: Vec<BoxedPlanner>,
    answers: Vec<Answer>,
    astar: BoxedPlanner,
    octile: Answer,
}

impl std::fmt::Debug for Oracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = self.planners.iter().map(|p| p.name()).collect();
        f.debug_struct("Oracle").field("planners", &names).finish()
    }
}

/// The planners of the table the oracle runs beyond each kind's defaults.
const VARIANTS: &[&str] = &["eps:first"];

impl Oracle {
    /// Builds every planner of the table for `grid` (meshes, the compressed path database,
    /// the hub index and all), and Polyanya on the unmerged triangulation. On a grid without
    /// free space there is no mesh, so only the grid planners take part (they must all refuse
    /// every query as blocked).
    ///
    /// # Errors
    /// A mesh, database or index that cannot be built for a grid with free space (a defect).
    pub fn new(grid: &Grid) -> Result<Self, String> {
        let map = Map::new(grid.clone());
        let grid = map.grid().clone();
        let no_space = grid.free_cells() == 0;
        let make = |spec: &PlannerSpec| -> Result<Option<BoxedPlanner>, String> {
            if no_space && spec.algo.needs_mesh() {
                return Ok(None);
            }
            map.planner(spec)
                .map(Some)
                .map_err(|e| format!("{}: {e}", spec.label))
        };
        let anya = PlannerSpec::plain(Algo::Anya);
        let mut specs = vec![anya.clone()];
        specs.extend(
            PLANNERS
                .iter()
                .filter(|k| {
                    k.algo != Algo::Anya
                        && k.algo != Algo::Baseline(taut::baselines::Baseline::AStar)
                })
                .map(|k| PlannerSpec::plain(k.algo)),
        );
        for v in VARIANTS {
            specs.push(v.parse().map_err(|e| format!("{v}: {e}"))?);
        }
        let mut planners = Vec::with_capacity(specs.len() + 1);
        for spec in &specs {
            planners.extend(make(spec)?);
        }
        match mesh_from_grid_with(&grid, &BuildOptions { merge: false }) {
            Ok((mesh, _)) => {
                planners.push(Box::new(PolyanyaPlanner::new(grid.clone(), Arc::new(mesh))))
            }
            Err(BuildError::NoFreeSpace) => {}
            Err(e) => return Err(format!("mesh (merge: false): {e}")),
        }
        let answers = vec![Answer::default(); planners.len()];
        let astar = make(&PlannerSpec::plain(Algo::Baseline(
            taut::baselines::Baseline::AStar,
        )))?
        .expect("A* needs no mesh");
        Ok(Oracle {
            grid,
            planners,
            astar,
            octile: Answer::default(),
            answers,
        })
    }

    /// The names of the planners taking part, in order (Anya first).
    pub fn planner_names(&self) -> Vec<&'static str> {
        self.planners.iter().map(|p| p.name()).collect()
    }

    /// Answers `start -> goal` with every planner and A*, and checks them against each other.
    ///
    /// # Errors
    /// The first [`Disagreement`] found.
    pub fn check(&mut self, start: Point, goal: Point) -> Result<Verdict, Disagreement> {
        let fail = |what: String| Disagreement { start, goal, what };
        let grid = &*self.grid;
        let mut outcomes = Vec::with_capacity(self.planners.len());
        for (planner, answer) in self.planners.iter_mut().zip(&mut self.answers) {
            outcomes.push(planner.plan(start, goal, answer));
        }
        let reference = outcomes[0];
        for (p, o) in self.planners.iter().zip(&outcomes) {
            if *o != reference {
                return Err(fail(format!(
                    "anya says {reference:?}, {} says {o:?}",
                    p.name()
                )));
            }
        }
        let octile = self.astar.plan(start, goal, &mut self.octile);
        if octile != reference {
            return Err(fail(format!(
                "anya says {reference:?}, astar says {octile:?}"
            )));
        }
        let octile = self.octile.length;
        if reference != Ok(Status::Found) {
            return Ok(Verdict {
                outcome: reference,
                optimum: None,
                planners: self.planners.len() + 1,
            });
        }
        let optimum = self.answers[0].length;
        for (p, a) in self.planners.iter().zip(&self.answers) {
            let name = p.name();
            let optimal = p.guarantee() == Guarantee::Optimal;
            if let Err(v) = grid.check_path(start, goal, &a.waypoints) {
                return Err(fail(format!("{name}: illegal path {:?}: {v}", a.waypoints)));
            }
            let measured = path_length(&a.waypoints);
            if !lengths_agree(measured, a.length) {
                return Err(fail(format!(
                    "{name}: reports {} but its path measures {measured}",
                    a.length
                )));
            }
            if optimal && !lengths_agree(a.length, optimum) {
                return Err(fail(format!(
                    "{name} finds {} but anya {optimum}: {:?} against {:?}",
                    a.length, a.waypoints, self.answers[0].waypoints
                )));
            }
            if !optimal && a.length < optimum && !lengths_agree(a.length, optimum) {
                return Err(fail(format!(
                    "{name} finds {} below the optimum {optimum}",
                    a.length
                )));
            }
        }
        if octile < optimum && !lengths_agree(octile, optimum) {
            return Err(fail(format!(
                "astar's octile length {octile} is below the any-angle optimum {optimum}"
            )));
        }
        Ok(Verdict {
            outcome: reference,
            optimum: Some(optimum),
            planners: self.planners.len() + 1,
        })
    }
}

/// The grid as text, one row per line, `.` free and `@` blocked: what a failure message
/// prints so the map can be pasted into [`Grid::from_ascii`].
pub fn show(grid: &Grid) -> String {
    grid.to_ascii()
}
