//! Sea routing as a service: a raster prepared once, then closed for a request, snapped, and
//! routed, with the passages each route uses.
//!
//! [`SeaMap`] holds a raster, its snapping index ([`SnapIndex`]) and its named passages
//! ([`Passages`]). [`SeaMap::new`] closes the ice gates (the Bering Strait, the Northwest
//! Passage, the Northern Sea Route, the Central Arctic Ocean: the rasters have no sea ice);
//! [`SeaMap::request`] gives the map one request sees, with passages avoided or allowed and
//! cells (keep-out areas, [`crate::area::Area`]) closed, and [`SeaMap::closing`] closes more;
//! nothing is written, and the raster is untouched. [`SeaMap::route`] moves ends on land to the nearest open sea cell, searches
//! and names the passages the route goes through. One map serves many threads; each thread
//! keeps its own [`SearchContext`].
//!
//! ```
//! use taut_spherical::{LatLon, SeaMap, SearchContext, SphereGrid};
//!
//! // 36 x 18 cells of 10 degrees: walls of land east of 0E and of 180W, from 80S to 80N.
//! let wall = |row: u32, col: u32| (col == 0 || col == 18) && row > 0 && row < 17;
//! let grid = SphereGrid::from_fn(36, 18, |row, col| !wall(row, col)).unwrap();
//! let sea = SeaMap::new(grid);
//! let mut ctx = SearchContext::new();
//! let r = sea.route(&mut ctx, LatLon::new(0.0, -15.0), LatLon::new(0.0, 15.0), true).unwrap();
//! assert!(r.found().is_some());
//! // Close the polar rows: the two halves no longer meet.
//! let cells: Vec<(u32, u32)> = (0..36).flat_map(|c| [(0, c), (17, c)]).collect();
//! let closed = sea.closing::<&str>(&[], &cells).unwrap();
//! let r = closed.route(&mut ctx, LatLon::new(0.0, -15.0), LatLon::new(0.0, 15.0), true).unwrap();
//! assert!(r.found().is_none());
//! ```

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use crate::error::SphereError;
use crate::geo::{EARTH_RADIUS_KM, LatLon};
use crate::grid::SphereGrid;
use crate::passage::{PassageError, Passages};
use crate::route::Route;
use crate::search::{SearchContext, SearchOutcome, SearchStats};
use crate::snap::SnapIndex;

/// A raster ready for requests: the grid as searched, its snapping index and its passages.
#[derive(Clone, Debug)]
pub struct SeaMap {
    /// The raster as given, nothing closed.
    raster: Arc<SphereGrid>,
    grid: SphereGrid,
    snap: SnapIndex,
    /// The connected waters and the main ocean's index, made when first needed.
    waters: OnceLock<Waters>,
    passages: Passages,
    closed_passages: Vec<String>,
    closed_cells: usize,
}

/// An end asked for inside a closed passage ([`SeaMap::closed_ends`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosedEnd<'a> {
    /// `start` or `goal`.
    pub which: &'static str,
    /// The closed passage it was in.
    pub passage: &'a str,
    /// How far it moved to open water, km.
    pub km: f64,
    /// Whether the passage is closed by default (an ice gate, opened by allowing it) rather
    /// than avoided.
    pub by_default: bool,
}

/// A route's end after snapping.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapped {
    /// The point searched from or to.
    pub point: LatLon,
    /// The point as given, when snapping moved it.
    pub given: Option<LatLon>,
    /// How far it was moved, km (0 when it was not).
    pub km: f64,
}

/// The answer to one request.
#[derive(Clone, Debug, PartialEq)]
pub struct SeaRoute {
    /// The start, snapped.
    pub from: Snapped,
    /// The goal, snapped.
    pub to: Snapped,
    /// Found or unreachable.
    pub outcome: SearchOutcome,
    /// The route (no legs unless found).
    pub route: Route,
    /// The search's counters.
    pub stats: SearchStats,
    /// Wall-clock microseconds of the search alone.
    pub time_us: f64,
    /// The passages the route goes through, by name (see [`Passages::used_by`]).
    pub passages: Vec<String>,
}

impl SeaRoute {
    /// The route, when one was found.
    pub fn found(&self) -> Option<&Route> {
        (self.outcome == SearchOutcome::Found).then_some(&self.route)
    }
}

/// Why a request could not be answered.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SeaError {
    /// An end lies on land (or in a closed cell) and snapping was not allowed.
    #[error("{which} {lat},{lon} is on land or in a closed cell (snapping is off)")]
    OnLand {
        /// `start` or `goal`.
        which: &'static str,
        /// Latitude given.
        lat: f64,
        /// Longitude given.
        lon: f64,
    },
    /// An end lies on land and the map has no open sea cell to move it to.
    #[error("{which} {lat},{lon} is on land and the map has no open sea cell")]
    NoSea {
        /// `start` or `goal`.
        which: &'static str,
        /// Latitude given.
        lat: f64,
        /// Longitude given.
        lon: f64,
    },
    /// The planner refused an end.
    #[error(transparent)]
    Sphere(#[from] SphereError),
}

impl SeaMap {
    /// The map of `grid`, with the passages of its size ([`Passages::for_grid`]) and the ice
    /// gates closed ([`Passages::closed_by_default`]): what a ship can sail most of the year.
    pub fn new(grid: SphereGrid) -> Self {
        let passages = Passages::for_grid(&grid);
        let none: [&str; 0] = [];
        let closed = passages
            .resolve(&none, &none)
            .expect("the default closure names only passages of the raster");
        Self::assemble(Arc::new(grid), passages, closed, &[])
            .expect("the default closure names only passages of the raster")
    }

    /// The map of `grid` with its passages and nothing closed, the ice gates included: the
    /// raster as given.
    pub fn open(grid: SphereGrid) -> Self {
        let passages = Passages::for_grid(&grid);
        Self::with_passages(grid, passages)
    }

    /// The map of `grid` with the given passages and nothing closed.
    pub fn with_passages(grid: SphereGrid, passages: Passages) -> Self {
        Self::assemble(Arc::new(grid), passages, Vec::new(), &[])
            .expect("closing nothing cannot fail")
    }

    /// The map of `raster` with the passages `closed` (names of `passages`) and the cells
    /// `cells` closed: one closure, one snapping index.
    fn assemble(
        raster: Arc<SphereGrid>,
        passages: Passages,
        closed: Vec<String>,
        cells: &[(u32, u32)],
    ) -> Result<SeaMap, PassageError> {
        let mut all = passages.cells_of(&closed)?;
        all.extend_from_slice(cells);
        let grid = if all.is_empty() {
            (*raster).clone()
        } else {
            raster.with_closed(&all)
        };
        Ok(Self::searching(raster, grid, passages, closed, cells.len()))
    }

    /// The map of `raster` that searches `grid`, with these closures recorded.
    fn searching(
        raster: Arc<SphereGrid>,
        grid: SphereGrid,
        passages: Passages,
        closed_passages: Vec<String>,
        closed_cells: usize,
    ) -> SeaMap {
        SeaMap {
            snap: SnapIndex::new(&grid),
            waters: OnceLock::new(),
            raster,
            grid,
            passages,
            closed_passages,
            closed_cells,
        }
    }

    /// The map one request sees, made from the raster as given (whatever this map closed):
    /// the passages [`Passages::resolve`] gives for `avoid` and `allow` closed (the ice gates
    /// unless allowed, `arctic` naming them all), and the cells `cells` (row, col).
    ///
    /// # Errors
    /// An unknown passage name ([`PassageError::Unknown`], listing the known ones), or one
    /// both avoided and allowed.
    pub fn request<S: AsRef<str>>(
        &self,
        avoid: &[S],
        allow: &[S],
        cells: &[(u32, u32)],
    ) -> Result<SeaMap, PassageError> {
        let closed = self.passages.resolve(avoid, allow)?;
        Self::assemble(
            Arc::clone(&self.raster),
            self.passages.clone(),
            closed,
            cells,
        )
    }

    /// The grid as searched (closures applied).
    pub fn grid(&self) -> &SphereGrid {
        &self.grid
    }

    /// The grid as searched, taken out of the map.
    pub fn into_grid(self) -> SphereGrid {
        self.grid
    }

    /// The raster's named passages (closed ones included).
    pub fn passages(&self) -> &Passages {
        &self.passages
    }

    /// The passages closed on this map (the ice gates not allowed, those avoided), by name.
    pub fn closed_passages(&self) -> &[String] {
        &self.closed_passages
    }

    /// The closed passage that holds `p` (its cell; for an ice gate, any cell whose centre
    /// lies in the gate's boxes, land included), if any. An end there moves out of it to the
    /// nearest open water, often far: callers say so, naming what to allow.
    pub fn closed_passage_at(&self, p: LatLon) -> Option<&str> {
        let (r, c) = self.raster.cell_of(p);
        let centre = self.raster.cell_centre(r, c);
        self.closed_passages
            .iter()
            .map(String::as_str)
            .find(|&name| {
                self.passages
                    .ice_gates()
                    .iter()
                    .any(|g| g.name == name && g.covers(centre))
                    || self.passages.get(name).is_ok_and(|q| q.contains(r, c))
            })
    }

    /// The ends of `route` (answered on this map) that were asked for inside a closed
    /// passage and moved out of it to open water, often far: callers say so, with what to
    /// allow.
    pub fn closed_ends(&self, route: &SeaRoute) -> Vec<ClosedEnd<'_>> {
        [("start", &route.from), ("goal", &route.to)]
            .into_iter()
            .filter_map(|(which, end)| {
                let passage = self.closed_passage_at(end.given?)?;
                Some(ClosedEnd {
                    which,
                    passage,
                    km: end.km,
                    by_default: self.passages.closed_by_default().contains(&passage),
                })
            })
            .collect()
    }

    /// How many cells were given to [`Self::closing`] besides the passages'.
    pub fn closed_cells(&self) -> usize {
        self.closed_cells
    }

    /// This map with the passages `names` and the cells `cells` (row, col) closed, for a
    /// request. With nothing to close it is a copy.
    ///
    /// # Errors
    /// An unknown passage name ([`PassageError::Unknown`], listing the known ones).
    pub fn closing<S: AsRef<str>>(
        &self,
        names: &[S],
        cells: &[(u32, u32)],
    ) -> Result<SeaMap, PassageError> {
        let mut all = self.passages.cells_of(names)?;
        if names.is_empty() && cells.is_empty() {
            return Ok(self.clone());
        }
        all.extend_from_slice(cells);
        let grid = self.grid.with_closed(&all);
        let mut closed_passages = self.closed_passages.clone();
        for n in names {
            let name = &self.passages.get(n.as_ref())?.name;
            if !closed_passages.contains(name) {
                closed_passages.push(name.clone());
            }
        }
        Ok(Self::searching(
            Arc::clone(&self.raster),
            grid,
            self.passages.clone(),
            closed_passages,
            self.closed_cells + cells.len(),
        ))
    }

    /// `p` if it lies in (the closure of) an open cell, else the centre of the nearest open
    /// cell ([`SnapIndex`]); `None` when the map has no open cell. ([`Self::route`] may then
    /// move an end further, to the main ocean.)
    pub fn snap(&self, p: LatLon) -> Option<Snapped> {
        if self.grid.is_free_point(p) {
            return Some(Snapped {
                point: p,
                given: None,
                km: 0.0,
            });
        }
        let (row, col) = self.snap.nearest(&self.grid, p)?;
        let point = self.grid.cell_centre(row, col);
        Some(Snapped {
            point,
            given: Some(p),
            km: p.distance_rad(point) * EARTH_RADIUS_KM,
        })
    }

    /// The shortest route from `from` to `to` (each moved to the sea first when `snap`), and
    /// the passages it uses.
    ///
    /// An end on land moves to the nearest open cell ([`Self::snap`]). If the two ends then
    /// lie in waters that do not connect, an end that was moved and is not in the largest
    /// connected water (the main ocean) moves to the nearest cell of the main ocean instead:
    /// the nearest sea cell to a port is sometimes a lagoon or a lake (Houston's, on the 0.25°
    /// raster). An end given at sea is never moved.
    ///
    /// # Errors
    /// An end on land with `snap` false, a map without sea, or an end the planner refuses
    /// (not a valid coordinate; a pole; a vertex between diagonal land cells).
    pub fn route(
        &self,
        ctx: &mut SearchContext,
        from: LatLon,
        to: LatLon,
        snap: bool,
    ) -> Result<SeaRoute, SeaError> {
        let end = |which: &'static str, p: LatLon| -> Result<Snapped, SeaError> {
            if !p.lat.is_finite() || !p.lon.is_finite() || p.lat.abs() > 90.0 {
                return Err(SphereError::BadCoordinate {
                    which,
                    lat: p.lat,
                    lon: p.lon,
                }
                .into());
            }
            if !snap && !self.grid.is_free_point(p) {
                return Err(SeaError::OnLand {
                    which,
                    lat: p.lat,
                    lon: p.lon,
                });
            }
            self.snap(p).ok_or(SeaError::NoSea {
                which,
                lat: p.lat,
                lon: p.lon,
            })
        };
        let (mut from, mut to) = (end("start", from)?, end("goal", to)?);
        // Whether the ends are known to lie in waters that do not meet (then no search can
        // join them, and none is run).
        let mut apart = false;
        if from.given.is_some() || to.given.is_some() {
            let waters = self.waters();
            let (a, b) = (
                waters.of(&self.grid, from.point),
                waters.of(&self.grid, to.point),
            );
            if a != b {
                for end in [&mut from, &mut to] {
                    if let Some(given) = end.given
                        && waters.of(&self.grid, end.point) != Some(waters.main)
                        && let Some((r, c)) = waters.ocean.nearest(&self.grid, given)
                    {
                        let point = self.grid.cell_centre(r, c);
                        *end = Snapped {
                            point,
                            given: Some(given),
                            km: given.distance_rad(point) * EARTH_RADIUS_KM,
                        };
                    }
                }
                // Only for ends inside a cell: one on a cell's side or corner is left to the
                // search, which refuses the points it cannot place.
                let inside = |p: LatLon| self.grid.free_cells_at(p).len() == 1;
                apart = inside(from.point)
                    && inside(to.point)
                    && waters.of(&self.grid, from.point) != waters.of(&self.grid, to.point);
            }
        }
        let mut route = Route::default();
        let t0 = Instant::now();
        let outcome = if apart {
            ctx.reset_stats();
            SearchOutcome::Unreachable
        } else {
            ctx.search(&self.grid, from.point, to.point, &mut route)?
        };
        let time_us = (t0.elapsed().as_secs_f64() * 1e9).round() / 1e3;
        let passages = if outcome == SearchOutcome::Found {
            self.passages
                .used_by(&self.grid, &route, from.point, to.point)
                .into_iter()
                .map(str::to_owned)
                .collect()
        } else {
            route = Route::default();
            Vec::new()
        };
        Ok(SeaRoute {
            from,
            to,
            outcome,
            route,
            stats: ctx.stats(),
            time_us,
            passages,
        })
    }
}

/// The connected waters of a grid: a component id per open cell (4-connected across cell
/// sides, longitude wrapping; the open cells of a polar row also meet at their pole), the
/// largest component (the main ocean) and a [`SnapIndex`] of its cells.
#[derive(Clone, Debug)]
struct Waters {
    comp: Vec<u32>,
    main: u32,
    ocean: SnapIndex,
}

impl Waters {
    fn new(grid: &SphereGrid) -> Self {
        const NONE: u32 = u32::MAX;
        let (w, h) = (grid.width(), grid.height());
        let open = |r: u32, c: u32| grid.is_free(i64::from(r), i64::from(c));
        let mut comp = vec![NONE; w as usize * h as usize];
        let mut sizes: Vec<u32> = Vec::new();
        let mut stack = Vec::new();
        for start in 0..comp.len() {
            let (r0, c0) = ((start / w as usize) as u32, (start % w as usize) as u32);
            if comp[start] != NONE || !open(r0, c0) {
                continue;
            }
            let id = sizes.len() as u32;
            let mut size = 0u32;
            comp[start] = id;
            stack.push((r0, c0));
            while let Some((r, c)) = stack.pop() {
                size += 1;
                let mut visit = |r: u32, c: u32| {
                    let at = r as usize * w as usize + c as usize;
                    if comp[at] == NONE && open(r, c) {
                        comp[at] = id;
                        stack.push((r, c));
                    }
                };
                visit(r, (c + 1) % w);
                visit(r, (c + w - 1) % w);
                if r > 0 {
                    visit(r - 1, c);
                }
                if r + 1 < h {
                    visit(r + 1, c);
                }
                if r == 0 || r + 1 == h {
                    for k in 0..w {
                        visit(r, k);
                    }
                }
            }
            sizes.push(size);
        }
        let main = (0..sizes.len() as u32)
            .max_by_key(|&i| (sizes[i as usize], std::cmp::Reverse(i)))
            .unwrap_or(NONE);
        let ocean = SnapIndex::of(grid, |r, c| {
            comp[r as usize * w as usize + c as usize] == main
        });
        Waters { comp, main, ocean }
    }

    /// The water of an open cell whose closure contains `p`.
    fn of(&self, grid: &SphereGrid, p: LatLon) -> Option<u32> {
        grid.free_cells_at(p)
            .into_iter()
            .find(|&(r, c)| grid.is_free(r, c))
            .map(|(r, c)| self.comp[r as usize * grid.width() as usize + c as usize])
    }
}

impl SeaMap {
    fn waters(&self) -> &Waters {
        self.waters.get_or_init(|| Waters::new(&self.grid))
    }
}
