//! A map that changes between queries: a versioned handle over [`Map`] snapshots.
//!
//! [`World`] holds the current [`Map`] behind an `Arc`. An edit copies the grid (the old
//! snapshot, and every planner holding it, keeps the old cells), applies the change and
//! publishes a new map whose version is the grid's ([`Grid::version`]). Nothing is ever changed under a planner's
//! feet: a [`WorldPlanner`] keeps the snapshot its planner was made from and, before each
//! query, moves to the current one when the version has changed, rebuilding what it cached
//! (the planner's context and index, the CPD or hub index; the built mesh is repaired round the
//! changed cells, [`taut_mesh::build::repair_mesh`]). Preprocessed data read from
//! a file ([`Source::File`]) belongs to the old map and is refused as stale by the new one
//! ([`SetupError`]), as for any map it does not fit.

use std::sync::{Arc, PoisonError, RwLock};

use taut_grid::{
    Answer, CellRect, EditError, Grid, Limit, PlanError, Point, Stats, Status, Stepper,
};

use crate::map::Map;
use crate::registry::{BoxedPlanner, PlannerSpec};
use crate::setup::SetupError;

/// A grid that changes between queries, shared by every thread (`Sync`): edits publish a new
/// version, planners made by [`World::planner`] catch up before their next query.
///
/// ```
/// use taut::{Grid, Point, Status, World};
/// use taut::grid::CellRect;
///
/// let world = World::new(Grid::from_ascii(&[".....", ".....", "....."]).unwrap());
/// let mut planner = world.planner(&"anya".parse().unwrap()).unwrap();
/// let mut answer = taut::Answer::default();
/// let (s, g) = (Point::new(0, 1), Point::new(4, 1));
/// planner.plan(s, g, &mut answer).unwrap();
/// assert_eq!(answer.length, 4.0);
/// // A wall from top to bottom: the goal is cut off.
/// world.set_rect(CellRect::new(2, 0, 1, 3), true).unwrap();
/// assert_eq!(planner.plan(s, g, &mut answer).unwrap(), Status::Unreachable);
/// // Open a door in it.
/// world.set_blocked(2, 1, false).unwrap();
/// planner.plan(s, g, &mut answer).unwrap();
/// assert_eq!(answer.length, 4.0);
/// assert_eq!(planner.version(), world.version());
/// ```
#[derive(Debug)]
pub struct World {
    current: RwLock<Arc<Map>>,
}

impl World {
    /// A world whose first version is `grid`.
    pub fn new(grid: impl Into<Arc<Grid>>) -> World {
        World::from_map(Map::new(grid))
    }

    /// A world whose first version is `map` (its mesh file and CPD and hub sources are kept
    /// for later versions, where they are checked against the new map as for any map).
    pub fn from_map(map: Map) -> World {
        World {
            current: RwLock::new(Arc::new(map)),
        }
    }

    /// The current map (a snapshot: later edits do not change it).
    pub fn map(&self) -> Arc<Map> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// The current version: [`Grid::version`] of the current map's grid, which grows by one
    /// for every edit that changes a cell.
    pub fn version(&self) -> u64 {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .grid()
            .version()
    }

    /// Applies `edit` to the grid and publishes the result as the new current map when a
    /// cell changed (else the current map, and what it built, stays). Several edits in one
    /// closure make one new map. Returns what `edit` returned.
    pub fn edit<R>(&self, edit: impl FnOnce(&mut Grid) -> R) -> R {
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        let before = current.grid().version();
        let mut grid = Arc::clone(current.grid());
        // The current map holds this grid too, so this copies it: planners holding the old
        // snapshot keep their cells.
        let result = edit(Arc::make_mut(&mut grid));
        if grid.version() != before {
            let changed = current.grid().changed_rect(&grid);
            *current = Arc::new(current.successor(grid, changed));
        }
        result
    }

    /// Blocks (or frees) cell `(x, y)`; returns whether it changed.
    ///
    /// # Errors
    /// [`EditError::OffMap`] when the cell is off the map (nothing changes).
    pub fn set_blocked(&self, x: i32, y: i32, blocked: bool) -> Result<bool, EditError> {
        self.edit(|g| g.set_blocked(x, y, blocked))
    }

    /// Blocks (or frees) every cell of `rect`; returns how many changed.
    ///
    /// # Errors
    /// [`EditError::OffMap`] when part of `rect` is off the map (nothing changes).
    pub fn set_rect(&self, rect: CellRect, blocked: bool) -> Result<u64, EditError> {
        self.edit(|g| g.set_rect(rect, blocked))
    }

    /// A planner that follows this world's versions.
    ///
    /// # Errors
    /// [`SetupError`] when what the planner needs cannot be had for the current map.
    pub fn planner(&self, spec: &PlannerSpec) -> Result<WorldPlanner<'_>, SetupError> {
        let map = self.map();
        let planner = map.planner(spec)?;
        Ok(WorldPlanner {
            world: self,
            spec: spec.clone(),
            map,
            planner,
        })
    }
}

/// A planner of a [`World`]: before each query it checks the world's version and, when it has
/// changed, rebuilds its planner for the current map (a fresh context; the old snapshot is
/// dropped). `Send` when the world is shared across threads by reference (scoped threads).
pub struct WorldPlanner<'w> {
    world: &'w World,
    spec: PlannerSpec,
    map: Arc<Map>,
    planner: BoxedPlanner,
}

impl std::fmt::Debug for WorldPlanner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldPlanner")
            .field("spec", &self.spec)
            .field("version", &self.version())
            .finish_non_exhaustive()
    }
}

impl WorldPlanner<'_> {
    /// The version of the map this planner answers on now.
    pub fn version(&self) -> u64 {
        self.map.grid().version()
    }

    /// The map this planner answers on now.
    pub fn map(&self) -> &Arc<Map> {
        &self.map
    }

    /// Moves to the world's current map when it has changed; returns whether it did.
    ///
    /// # Errors
    /// [`SetupError`] when what the planner needs cannot be had for the new map (a CPD or hub
    /// file of the old map is refused as stale); the planner then stays on its old map.
    pub fn refresh(&mut self) -> Result<bool, SetupError> {
        let current = self.world.map();
        if Arc::ptr_eq(&current, &self.map) {
            return Ok(false);
        }
        self.planner = current.planner(&self.spec)?;
        self.map = current;
        Ok(true)
    }

    /// The shortest path on the world's current map (after [`WorldPlanner::refresh`]).
    ///
    /// # Errors
    /// [`crate::Error::Setup`] when the planner cannot be rebuilt for the new map,
    /// [`crate::Error::Query`] for an endpoint off the map or blocked in it.
    pub fn plan(
        &mut self,
        start: Point,
        goal: Point,
        out: &mut Answer,
    ) -> Result<Status, crate::Error> {
        self.refresh()?;
        Ok(self.planner.plan(start, goal, out)?)
    }

    /// As [`WorldPlanner::plan`], within `limit` ([`taut_grid::Planner::plan_within`]).
    ///
    /// # Errors
    /// As [`WorldPlanner::plan`], and [`crate::Error::Limit`] when `limit` stops the search.
    pub fn plan_within(
        &mut self,
        start: Point,
        goal: Point,
        limit: Limit,
        out: &mut Answer,
    ) -> Result<Status, crate::Error> {
        self.refresh()?;
        match self.planner.plan_within(start, goal, limit, out) {
            Ok(s) => Ok(s),
            Err(PlanError::Query(e)) => Err(e.into()),
            Err(PlanError::Limit(l)) => Err(crate::Error::Limit(l)),
        }
    }

    /// Begins a stepped query on the world's current map (after a refresh); drive it with
    /// [`WorldPlanner::stepper`]. A query in progress finishes on the version it began on.
    /// `Ok(false)` when the planner does not step (it answers in one call).
    ///
    /// # Errors
    /// As [`WorldPlanner::plan`].
    pub fn begin(&mut self, start: Point, goal: Point) -> Result<bool, crate::Error> {
        self.refresh()?;
        match self.planner.stepper() {
            Some(s) => {
                s.begin(start, goal)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The current planner's stepping interface, when it has one.
    pub fn stepper(&mut self) -> Option<&mut dyn Stepper> {
        self.planner.stepper()
    }

    /// The current planner (of the map [`WorldPlanner::map`]).
    pub fn planner(&mut self) -> &mut BoxedPlanner {
        &mut self.planner
    }

    /// The statistics of the current planner's stepped query, if any.
    pub fn stats(&mut self) -> Option<Stats> {
        self.planner.stepper().map(|s| s.stats())
    }
}
