//! The hub index of a grid map: core labels on the corners, and a label for every lattice
//! point a query may start or end at.

use rayon::prelude::*;
use taut_grid::{Grid, MAX_SIDE, Point};
use taut_mesh::corner_graph::Graph;
use taut_mesh::corners::Corners;
use taut_mesh::{Location, Mesh, MeshPoint, mesh_hash};

use crate::HubError;
use crate::core::{CoreEntry, CoreLabels};
use crate::error::check_offsets;
use crate::point::{PointEntry, Scratch};
use crate::region::{MAX_REGION, RegionArrays, RegionScratch, Regions, RowLabels, region_label};
use crate::turn_order::TurnOrder;

/// Sizes of an index, for reports and budgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HubStats {
    /// Convex corners (nodes of the core).
    pub corners: usize,
    /// Edges of the co-visible corner graph (0 for an index read from a file).
    pub edges: usize,
    /// Entries of the corners' labels.
    pub core_entries: usize,
    /// Lattice points with a label (those whose cell is free).
    pub points: usize,
    /// Entries of the points' labels (0 in an index of regions).
    pub point_entries: usize,
    /// Side of the regions sharing labels (1: every point has its own).
    pub region: u32,
    /// Hubs of the regions' labels, summed over regions.
    pub region_hubs: usize,
    /// Vias of those hubs.
    pub region_vias: usize,
    /// Heap bytes held by the index.
    pub bytes: usize,
}

/// Hub labels for one grid map (see the crate documentation). Immutable, `Send + Sync`:
/// share it between threads behind an `Arc`, one [`crate::HubPlanner`] per thread.
#[derive(Debug, Clone)]
pub struct HubIndex {
    mesh_hash: [u8; 32],
    width: i32,
    height: i32,
    /// The grid's free cells, one bit each, row-major: a planner checks its grid against it.
    free: Vec<u64>,
    corner_points: Vec<Point>,
    /// Edges of the co-visible graph (0 when read from a file, which does not keep the graph).
    edges: usize,
    core: CoreLabels,
    /// For each cell `y * width + x`, its point's entries are `off[i]..off[i + 1]`.
    off: Vec<u32>,
    entries: Vec<PointEntry>,
    /// Labels shared by regions of cells instead of the points' own (`off` and `entries` are
    /// then empty).
    regions: Option<Regions>,
}

/// An index's parts, borrowed ([`HubIndex::parts`]): what an index file stores, which
/// `file.rs` frames, versions and checksums. The core's and the regions' arrays are theirs
/// to give ([`CoreLabels::parts`], [`Regions::arrays`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct IndexParts<'a> {
    /// The hash of the mesh the index was built from.
    pub(crate) mesh_hash: &'a [u8; 32],
    /// The map's width and height in cells.
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// Edges of the co-visible graph.
    pub(crate) edges: usize,
    /// The free cells, one bit each, row-major.
    pub(crate) free: &'a [u64],
    /// The lattice point of each corner.
    pub(crate) corner_points: &'a [Point],
    pub(crate) core: &'a CoreLabels,
    /// The points' own labels: cell `i`'s entries are `entries[off[i]..off[i + 1]]` (both
    /// empty with regions).
    pub(crate) off: &'a [u32],
    pub(crate) entries: &'a [PointEntry],
    pub(crate) regions: Option<&'a Regions>,
}

/// What [`HubIndex::from_parts`] assembles an index from: the arrays of a file, owned, in
/// the layout of [`IndexParts`].
#[derive(Debug, Default)]
pub(crate) struct IndexArrays {
    pub(crate) mesh_hash: [u8; 32],
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// The region side: 1 for the points' own labels (`off` and `entries`), more for labels
    /// shared by regions (`regions`).
    pub(crate) region: u32,
    pub(crate) edges: usize,
    pub(crate) free: Vec<u64>,
    pub(crate) corner_points: Vec<Point>,
    /// The core's corner of each rank, label offsets and entries ([`CoreLabels::parts`]).
    pub(crate) order: Vec<u32>,
    pub(crate) core_off: Vec<u32>,
    pub(crate) core_entries: Vec<CoreEntry>,
    pub(crate) off: Vec<u32>,
    pub(crate) entries: Vec<PointEntry>,
    pub(crate) regions: RegionArrays,
}

/// The region sides [`HubIndex::build_within`] chooses among, finest first.
const BUDGET_SIDES: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// The position in [`BUDGET_SIDES`] of the side [`HubIndex::build_within`] estimates first:
/// regions of 4.
const START_SIDE: usize = 2;
/// Points whose labels an estimate computes per region side (about).
const SAMPLE_POINTS: u32 = 4096;
/// Regions an estimate samples at least (per unit of its scale).
const MIN_SAMPLE_REGIONS: u64 = 24;
/// Regions the first, eighth-size look of [`HubIndex::build_within`] samples at least.
const QUICK_REGIONS: u64 = 8;
/// How far above the budget that first look must put a side to rule it out.
const QUICK_OVER: f64 = 1.5;

/// What every region side shares: the corners, the graph's size and the core labels.
struct Base {
    corners: Corners,
    edges: usize,
    core: CoreLabels,
    /// The core's entries by direction, for the build only.
    turns: TurnOrder,
}

impl Base {
    /// The base of `grid` over `mesh`; with a `budget`, [`HubError::CoreOverBudget`] as soon
    /// as the core labels pass it (every index holds them).
    fn new(grid: &Grid, mesh: &Mesh, budget: Option<u64>) -> Result<Base, HubError> {
        check_mesh(grid, mesh)?;
        let corners = Corners::of(mesh);
        let graph = Graph::build(mesh, &corners)?;
        let entry = std::mem::size_of::<CoreEntry>() as u64;
        let max = budget.map_or(usize::MAX, |b| {
            usize::try_from(b / entry).unwrap_or(usize::MAX)
        });
        let core = CoreLabels::build_limited(&graph, max).map_err(|(searched, entries)| {
            HubError::CoreOverBudget {
                budget: budget.unwrap_or(u64::MAX),
                reached: entries as u64 * entry,
                searched,
                corners: graph.node_count(),
            }
        })?;
        let turns = TurnOrder::new(mesh, &corners, &core);
        Ok(Base {
            corners,
            edges: graph.edge_count(),
            core,
            turns,
        })
    }

    /// The estimated size in bytes of the index of region side `g` (1: point labels): the
    /// parts every side has, plus the labels of a sample of the regions that have a free cell
    /// (about `scale` × [`SAMPLE_POINTS`] points, at least `scale` × [`MIN_SAMPLE_REGIONS`]
    /// regions) scaled to all of those (`docs/hub.md`, "A budget"), with the share of those
    /// regions sampled.
    fn estimate(
        &self,
        grid: &Grid,
        mesh: &Mesh,
        g: u32,
        scale: u32,
    ) -> Result<(u64, f64), HubError> {
        let scale = u64::from(scale);
        self.estimate_with(
            grid,
            mesh,
            g,
            scale * u64::from(SAMPLE_POINTS),
            scale * MIN_SAMPLE_REGIONS,
            &mut Sampled::default(),
        )
    }

    /// [`Base::estimate`] from a sample of about `points` points in at least `min_regions`
    /// regions. `done` holds the regions of side `g` sampled before, in the sample's order
    /// (every sample of a side is a prefix of one random order): they are not labelled again,
    /// and the new ones are added, with their labels when `g > 1` (the build of that side
    /// copies them). A larger sample than asked for is used whole.
    fn estimate_with(
        &self,
        grid: &Grid,
        mesh: &Mesh,
        g: u32,
        points: u64,
        min_regions: u64,
        done: &mut Sampled,
    ) -> Result<(u64, f64), HubError> {
        let (w, h) = (grid.width() as u64, grid.height() as u64);
        let cells = w * h;
        let fixed = self.core.heap_bytes() as u64
            + cells.div_ceil(64) * 8
            + self.corners.len() as u64 * 8
            + 256;
        let g64 = u64::from(g);
        let (across, down) = (w.div_ceil(g64), h.div_ceil(g64));
        let regions = across * down;
        let mut free = vec![false; regions as usize];
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                if grid.is_free(x, y) {
                    free[(y as u64 / g64 * across + x as u64 / g64) as usize] = true;
                }
            }
        }
        let occupied: Vec<u64> = (0..regions).filter(|&r| free[r as usize]).collect();
        let len = occupied.len() as u64;
        let want = (points / (g64 * g64))
            .max(min_regions)
            .min(len)
            .max(done.bytes.len() as u64);
        // A random sample without replacement, the same on every run: the occupied regions
        // ordered by a hash of their number. Every k-th region instead is locked to the map's
        // rows and columns (a stride dividing the width samples the same few columns).
        let mut sample = occupied;
        sample.sort_by_cached_key(|&r| splitmix64(r ^ u64::from(g) << 40));
        sample.truncate(want as usize);
        let more = sample[done.bytes.len()..]
            .par_iter()
            .map_init(
                || {
                    (
                        Scratch::default(),
                        RegionScratch::default(),
                        RowLabels::default(),
                    )
                },
                |(s, rs, row), &r| {
                    let (rx, ry) = ((r % across) as u32, (r / across) as u32);
                    row.clear();
                    region_label(
                        grid,
                        mesh,
                        &self.corners,
                        &self.core,
                        &self.turns,
                        g,
                        rx,
                        ry,
                        None,
                        s,
                        rs,
                        row,
                    )?;
                    Ok(if g == 1 {
                        (
                            row.vias.len() as u64 * std::mem::size_of::<PointEntry>() as u64,
                            None,
                        )
                    } else {
                        // Less the offsets' leading zeros and the region's own offsets,
                        // counted below for every region.
                        let bytes = row.bytes(g) - 8;
                        let mut label = std::mem::take(row);
                        label.shrink_to_fit();
                        (bytes, Some((r, label)))
                    })
                },
            )
            .collect::<Result<Vec<_>, HubError>>()?;
        for (bytes, label) in more {
            done.bytes.push(bytes);
            done.labels.extend(label);
        }
        let bytes: u64 = done.bytes.iter().sum();
        let offsets = if g == 1 {
            (cells + 1) * 4
        } else {
            (regions + 1) * 8
        };
        let share = sample.len() as f64 / len.max(1) as f64;
        Ok((
            fixed + offsets + bytes * len / sample.len().max(1) as u64,
            share,
        ))
    }
}

/// The regions of one side an estimate has sampled: their bytes in the sample's order, and
/// (regions of 2 or more cells a side) their labels, which the build of that side copies
/// instead of labelling them again.
#[derive(Default)]
struct Sampled {
    bytes: Vec<u64>,
    labels: Vec<(u64, RowLabels)>,
}

/// SplitMix64's output function: a well-mixed 64-bit hash of `x`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl HubIndex {
    /// Builds the index of `grid` over `mesh`, a mesh of its free space (taut's own,
    /// `taut_mesh::mesh_from_grid`, or a reference merged mesh). The points' labels are built
    /// in parallel on the current rayon pool; the result does not depend on the number of
    /// threads.
    ///
    /// # Errors
    /// [`HubError::MeshMismatch`] when the mesh is not a mesh of the grid's free space (it
    /// covers the centre of a blocked cell, or not that of a free one),
    /// [`HubError::Graph`] and [`HubError::TooLarge`] when the graph or the labels do not fit
    /// their 32-bit offsets.
    pub fn build(grid: &Grid, mesh: &Mesh) -> Result<HubIndex, HubError> {
        Self::build_with_regions(grid, mesh, 1)
    }

    /// [`HubIndex::build`] with labels shared by regions of `g × g` cells (`g` from 1, the
    /// points' own labels, to [`MAX_REGION`]): a smaller index, slower queries
    /// (`docs/hub.md`, Regions).
    ///
    /// # Errors
    /// As [`HubIndex::build`]; [`HubError::RegionSize`] when `g` is 0 or above
    /// [`MAX_REGION`].
    pub fn build_with_regions(grid: &Grid, mesh: &Mesh, g: u32) -> Result<HubIndex, HubError> {
        if g == 0 || g > MAX_REGION {
            return Err(HubError::RegionSize(g));
        }
        let base = Base::new(grid, mesh, None)?;
        Self::assemble(
            grid,
            mesh,
            &base.corners,
            &base.turns,
            base.edges,
            base.core,
            g,
            &[],
            None,
        )
    }

    /// The finest index of `grid` over `mesh` whose size in memory and on disk is at most
    /// `budget` bytes: the points' own labels when they fit, else labels shared by regions
    /// of 2, 4, 8, 16 or 32 cells a side. The core labels are built first; the size of each
    /// region side is then estimated from a random sample of its regions (about 4,096 points
    /// and at least 24 regions; four times as many when the first estimate lies between 90 %
    /// and 105 % of the budget and that is less than a quarter of the regions), and sides
    /// estimated above 105 % of the budget are not built. An eighth of that sample (at least
    /// 8 regions) is looked at first, and a side it puts above 150 % of the budget is ruled
    /// out without the rest; each larger sample extends the one before.
    ///
    /// Sizes fall from the finest side to the coarsest on every map measured, so the finest
    /// side that fits is found from regions of 4, one side at a time towards it: two
    /// estimates when it is 4 or 8 (EHL-16's and EHL-64's sizes on the dao maps), three for
    /// 1, 2 or 16, four for 32. A budget met by regions of 16 or finer never pays for the
    /// estimate of regions of 32, the dearest (a quarter of orz900d's points).
    ///
    /// # Errors
    /// As [`HubIndex::build`]; [`HubError::CoreOverBudget`] as soon as the core labels pass
    /// the budget (they are in every index); [`HubError::BudgetTooSmall`] when no region side
    /// fits (with the smallest size estimated or built).
    pub fn build_within(grid: &Grid, mesh: &Mesh, budget: u64) -> Result<HubIndex, HubError> {
        let mut base = Base::new(grid, mesh, Some(budget))?;
        let mut estimates = [None::<u64>; BUDGET_SIDES.len()];
        // Per side, the regions sampled so far (bytes, labels): each look extends the last.
        let mut sampled: [Sampled; BUDGET_SIDES.len()] = Default::default();
        let over = |e: u64, times: f64| e as f64 > budget as f64 * times;
        let fits = |base: &Base,
                    estimates: &mut [Option<u64>],
                    sampled: &mut [Sampled],
                    i: usize|
         -> Result<bool, HubError> {
            let estimate = match estimates[i] {
                Some(e) => e,
                None => {
                    let g = BUDGET_SIDES[i];
                    let done = &mut sampled[i];
                    let points = u64::from(SAMPLE_POINTS);
                    // A first look at an eighth of the sample: a side it puts above 1.5 times
                    // the budget is not looked at again (neighbouring sides differ 1.7 to 2.9
                    // times in size on the dao maps; docs/hub.md, "A budget").
                    let (quick, _) =
                        base.estimate_with(grid, mesh, g, points / 8, QUICK_REGIONS, done)?;
                    let mut e = quick;
                    if !over(quick, QUICK_OVER) {
                        let share;
                        (e, share) =
                            base.estimate_with(grid, mesh, g, points, MIN_SAMPLE_REGIONS, done)?;
                        // Close to the budget the sample's error (up to 8 % on the dao maps)
                        // decides: look again with four times the sample rather than build
                        // a side that misses, unless that sample is a quarter of the regions
                        // or more (a map of 28,000 points: building costs little more).
                        if over(e, 0.9) && !over(e, 1.05) && share * 4.0 < 0.25 {
                            e = base
                                .estimate_with(
                                    grid,
                                    mesh,
                                    g,
                                    4 * points,
                                    4 * MIN_SAMPLE_REGIONS,
                                    done,
                                )?
                                .0;
                        }
                    }
                    estimates[i] = Some(e);
                    e
                }
            };
            Ok(!over(estimate, 1.05))
        };
        // The finest side that fits (`len`: none), from regions of 4 one side at a time.
        let mut lo = START_SIDE;
        if fits(&base, &mut estimates, &mut sampled, lo)? {
            while lo > 0 && fits(&base, &mut estimates, &mut sampled, lo - 1)? {
                lo -= 1;
            }
        } else {
            lo += 1;
            while lo < BUDGET_SIDES.len() && !fits(&base, &mut estimates, &mut sampled, lo)? {
                lo += 1;
            }
        }
        // Build it; what is built is measured, and a side whose estimate fell short gives way
        // to the next coarser one that is estimated to fit. The core labels move into the
        // index and back out of one that misses: never two copies.
        let mut built = None::<u64>;
        for (i, &g) in BUDGET_SIDES.iter().enumerate().skip(lo) {
            if !fits(&base, &mut estimates, &mut sampled, i)? {
                continue;
            }
            // The corners' views (`sight.rs`) are used when they take at most half the
            // index's estimated size: the build holds the regions twice when it assembles
            // them, so its peak stays about where it was (docs/hub.md).
            let room = estimates[i].map(|e| e / 2);
            let core = std::mem::take(&mut base.core);
            let mut pre = std::mem::take(&mut sampled[i].labels);
            pre.sort_unstable_by_key(|&(r, _)| r);
            let index = Self::assemble(
                grid,
                mesh,
                &base.corners,
                &base.turns,
                base.edges,
                core,
                g,
                &pre,
                room,
            )?;
            drop(pre);
            let size = index.size_bytes();
            if size <= budget {
                return Ok(index);
            }
            base.core = index.core;
            built = Some(built.map_or(size, |b| b.min(size)));
        }
        let estimated = estimates
            .iter()
            .flatten()
            .copied()
            .min()
            .unwrap_or(u64::MAX);
        Err(HubError::BudgetTooSmall {
            budget,
            smallest: built.unwrap_or(estimated),
            built: built.is_some(),
        })
    }

    /// The estimated size (in memory and on disk, as [`HubIndex::size_bytes`]) of the index of
    /// each region side of `sides` (1: point labels), as [`HubIndex::build_within`] estimates
    /// before choosing what to build: the core labels are built once, then each side's
    /// regions are sampled. Cheaper than building: seconds where a build takes minutes.
    ///
    /// # Errors
    /// As [`HubIndex::build`]; [`HubError::RegionSize`] for a side of 0 or above
    /// [`MAX_REGION`].
    pub fn estimate_sizes(grid: &Grid, mesh: &Mesh, sides: &[u32]) -> Result<Vec<u64>, HubError> {
        if let Some(&g) = sides.iter().find(|&&g| g == 0 || g > MAX_REGION) {
            return Err(HubError::RegionSize(g));
        }
        let base = Base::new(grid, mesh, None)?;
        sides
            .iter()
            .map(|&g| base.estimate(grid, mesh, g, 1).map(|(e, _)| e))
            .collect()
    }

    /// The index of side `g` on `core`, the labels of `corners` (whose graph has `edges`),
    /// with the labels of the regions in `pre` (by region number) copied, not built; the
    /// corners' views take at most `room` bytes ([`Regions::build`]).
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        grid: &Grid,
        mesh: &Mesh,
        corners: &Corners,
        turns: &TurnOrder,
        edges: usize,
        core: CoreLabels,
        g: u32,
        pre: &[(u64, RowLabels)],
        room: Option<u64>,
    ) -> Result<HubIndex, HubError> {
        let (w, h) = (grid.width(), grid.height());
        let regions = if g > 1 {
            Some(Regions::build(
                grid, mesh, corners, &core, turns, g, pre, room,
            )?)
        } else {
            None
        };
        let rows: Vec<Vec<(u32, PointEntry)>> = (0..if g > 1 { 0 } else { h })
            .into_par_iter()
            .map_init(Scratch::default, |s, y| {
                let mut row = Vec::new();
                for x in 0..w {
                    if grid.is_free(x, y) {
                        s.point_label(
                            mesh,
                            corners,
                            &core,
                            turns,
                            Point::new(x, y),
                            x as u32,
                            &mut row,
                        )?;
                    }
                }
                Ok(row)
            })
            .collect::<Result<_, HubError>>()?;
        let cells = w as usize * h as usize;
        let total: usize = rows.iter().map(Vec::len).sum();
        if total > u32::MAX as usize {
            return Err(HubError::TooLarge);
        }
        let mut off = Vec::with_capacity(cells + 1);
        let mut entries = Vec::with_capacity(total);
        off.push(0u32);
        for row in &rows {
            let mut it = row.iter().peekable();
            for x in 0..w as u32 {
                while let Some(&&(_, e)) = it.peek().filter(|(px, _)| *px == x) {
                    entries.push(e);
                    it.next();
                }
                off.push(entries.len() as u32);
            }
        }
        let mut free = vec![0u64; cells.div_ceil(64)];
        for y in 0..h {
            for x in 0..w {
                if grid.is_free(x, y) {
                    let i = y as usize * w as usize + x as usize;
                    free[i / 64] |= 1 << (i % 64);
                }
            }
        }
        let corner_points = corners
            .points()
            .iter()
            .map(|p| Point::new(p.x as i32, p.y as i32))
            .collect();
        Ok(HubIndex {
            mesh_hash: mesh_hash(mesh),
            width: w,
            height: h,
            free,
            corner_points,
            edges,
            core,
            off: if g > 1 { Vec::new() } else { off },
            entries,
            regions,
        })
    }

    /// The index of the arrays `a` (a file's), checked: `Ok` only when every query can rely
    /// on it ([`HubIndex::check`]). `alongside` runs on the index's parts while the checks
    /// run, in parallel on the rayon pool (a reader hashes the arrays' bytes), and its result
    /// comes back whatever the checks found.
    pub(crate) fn from_parts<T: Send>(
        a: IndexArrays,
        alongside: impl FnOnce(IndexParts<'_>) -> T + Send,
    ) -> (T, Result<HubIndex, HubError>) {
        let regions = (a.region > 1).then(|| Regions::from_stored(a.region, a.width, a.regions));
        let index = HubIndex {
            mesh_hash: a.mesh_hash,
            width: a.width as i32,
            height: a.height as i32,
            free: a.free,
            corner_points: a.corner_points,
            edges: a.edges,
            core: CoreLabels::from_stored(a.order, a.core_off, a.core_entries),
            off: a.off,
            entries: a.entries,
            regions,
        };
        let (out, checked) = rayon::join(|| alongside(index.parts()), || index.check());
        (out, checked.map(|()| index))
    }

    /// The index's parts, as an index file stores them.
    pub(crate) fn parts(&self) -> IndexParts<'_> {
        IndexParts {
            mesh_hash: &self.mesh_hash,
            width: self.width as u32,
            height: self.height as u32,
            edges: self.edges,
            free: &self.free,
            corner_points: &self.corner_points,
            core: &self.core,
            off: &self.off,
            entries: &self.entries,
            regions: self.regions.as_ref(),
        }
    }

    /// Checks everything the queries rely on, so that a file whose checksum holds but whose
    /// content was not written by taut (or by a faulty taut) is refused rather than answered
    /// wrongly or with a panic: the arrays' sizes, the corner order, the free cells, the
    /// corners on the map, the core labels, then the points' labels or the regions'.
    /// Corners, points and regions are checked in parallel: each check reads only what its
    /// own label points to.
    fn check(&self) -> Result<(), HubError> {
        let (w, h) = (self.width, self.height);
        if !(1..=MAX_SIDE as i32).contains(&w) || !(1..=MAX_SIDE as i32).contains(&h) {
            return Err(HubError::corrupt(format!("impossible map size {w} × {h}")));
        }
        let cells = w as usize * h as usize;
        let core = &self.core;
        if self.free.len() != cells.div_ceil(64) || self.corner_points.len() != core.len() {
            return Err(HubError::corrupt("arrays of other sizes than the map's"));
        }
        core.check_order()?;
        if !cells.is_multiple_of(64) && self.free[cells / 64] >> (cells % 64) != 0 {
            return Err(HubError::corrupt("free-cell bits past the last cell"));
        }
        if let Some(p) = self
            .corner_points
            .iter()
            .find(|p| p.x < 0 || p.y < 0 || p.x > w || p.y > h)
        {
            return Err(HubError::corrupt(format!("corner {p} off the map")));
        }
        core.check_labels()?;
        if let Some(r) = &self.regions {
            if !(self.off.is_empty() && self.entries.is_empty()) {
                return Err(HubError::corrupt("point labels beside the regions'"));
            }
            return r.check(h as u32, core);
        }
        if self.off.len() != cells + 1 {
            return Err(HubError::corrupt("point label offsets"));
        }
        check_offsets(&self.off, self.entries.len(), "point")?;
        let n = core.len();
        (0..cells).into_par_iter().try_for_each(|i| {
            let range = self.off[i] as usize..self.off[i + 1] as usize;
            let free = self.free[i / 64] >> (i % 64) & 1 == 1;
            if !free && !range.is_empty() {
                return Err(HubError::corrupt(format!("blocked cell {i} has a label")));
            }
            let mut last = None;
            for e in &self.entries[range] {
                let good = (e.hub as usize) < n
                    && last.is_none_or(|l| l < e.hub)
                    && e.dist.is_finite()
                    && e.dist >= 0.0
                    && (e.entry as usize) < core.entry_count()
                    && core.entry_at(e.entry).hub == e.hub;
                if !good {
                    return Err(HubError::corrupt(format!(
                        "cell {i}: label entry inconsistent"
                    )));
                }
                last = Some(e.hub);
            }
            Ok(())
        })
    }

    /// The side of the regions sharing labels (1: every point has its own label).
    pub fn region_size(&self) -> u32 {
        self.regions.as_ref().map_or(1, Regions::side)
    }

    /// The labels shared by regions, if the points do not have their own.
    #[inline]
    pub(crate) fn regions(&self) -> Option<&Regions> {
        self.regions.as_ref()
    }

    /// Whether `grid` is the grid this index was built for (same size, same free cells).
    pub fn matches(&self, grid: &Grid) -> bool {
        if grid.width() != self.width || grid.height() != self.height {
            return false;
        }
        (0..self.height).all(|y| (0..self.width).all(|x| grid.is_free(x, y) == self.is_free(x, y)))
    }

    /// The label of lattice point `p` (empty when its cell is blocked or off the map, and in an
    /// index of regions), by increasing hub rank.
    #[inline]
    pub fn point_label(&self, p: Point) -> &[PointEntry] {
        if self.off.is_empty() || p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return &[];
        }
        let i = p.y as usize * self.width as usize + p.x as usize;
        &self.entries[self.off[i] as usize..self.off[i + 1] as usize]
    }

    /// The hash of the mesh the index was built from (`taut_mesh::mesh_hash`).
    pub fn mesh_hash(&self) -> &[u8; 32] {
        &self.mesh_hash
    }

    /// Checks that the index was built from `mesh`.
    ///
    /// # Errors
    /// [`HubError::StaleMesh`] when it was built from another mesh.
    pub fn check_mesh(&self, mesh: &Mesh) -> Result<(), HubError> {
        if mesh_hash(mesh) == self.mesh_hash {
            Ok(())
        } else {
            Err(HubError::StaleMesh)
        }
    }

    /// Whether cell `(x, y)` is free on the grid the index was built for (false off the map).
    pub fn is_free(&self, x: i32, y: i32) -> bool {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return false;
        }
        let i = y as usize * self.width as usize + x as usize;
        self.free[i / 64] >> (i % 64) & 1 == 1
    }

    /// The width and height of the grid the index answers.
    pub fn size(&self) -> (i32, i32) {
        (self.width, self.height)
    }

    /// The core labels.
    pub fn core(&self) -> &CoreLabels {
        &self.core
    }

    /// The lattice point of corner `c`.
    #[inline]
    pub fn corner_point(&self, c: u32) -> Point {
        self.corner_points[c as usize]
    }

    /// Sizes of the index.
    pub fn stats(&self) -> HubStats {
        HubStats {
            corners: self.core.len(),
            edges: self.edges,
            core_entries: self.core.entry_count(),
            points: self.free.iter().map(|w| w.count_ones() as usize).sum(),
            point_entries: self.entries.len(),
            region: self.region_size(),
            region_hubs: self.regions.as_ref().map_or(0, Regions::hub_count),
            region_vias: self.regions.as_ref().map_or(0, Regions::via_count),
            bytes: self.heap_bytes(),
        }
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.core.heap_bytes()
            + self.free.len() * 8
            + self.corner_points.len() * std::mem::size_of::<Point>()
            + self.off.len() * 4
            + self.entries.len() * std::mem::size_of::<PointEntry>()
            + self.regions.as_ref().map_or(0, Regions::heap_bytes)
    }
}

/// Whether `mesh` covers exactly the free cells of `grid`, by their centres.
fn check_mesh(grid: &Grid, mesh: &Mesh) -> Result<(), HubError> {
    (0..grid.height()).into_par_iter().try_for_each(|y| {
        for x in 0..grid.width() {
            let centre = MeshPoint::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
            let covered = !matches!(mesh.locate(centre), Location::OffMesh);
            if covered != grid.is_free(x, y) {
                return Err(HubError::MeshMismatch { x, y });
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 240 × 240 map blocked but for rooms of 36 × 36 cells on a 60-cell lattice, joined by
    /// corridors 2 cells wide, with a 2 × 2 pillar in each room, and walls down every 16th
    /// column: a third free, the rest solid, as on ost100d, and a stride of 16 cells finds
    /// only walls.
    fn mostly_blocked() -> Grid {
        let n = 240;
        let mut free = vec![false; n * n];
        let mut open = |x0: usize, y0: usize, w: usize, h: usize| {
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    free[y * n + x] = true;
                }
            }
        };
        for ry in 0..4 {
            for rx in 0..4 {
                let (x0, y0) = (rx * 60 + 12, ry * 60 + 12);
                open(x0, y0, 36, 36);
                if rx < 3 {
                    open(x0 + 36, y0 + 17, 24, 2);
                }
                if ry < 3 {
                    open(x0 + 17, y0 + 36, 2, 24);
                }
            }
        }
        for ry in 0..4 {
            for rx in 0..4 {
                let (x0, y0) = (rx * 60 + 12 + 9 + 3 * rx, ry * 60 + 12 + 11 + 2 * ry);
                for y in y0..y0 + 2 {
                    for x in x0..x0 + 2 {
                        free[y * n + x] = false;
                    }
                }
            }
        }
        Grid::from_fn(n as u32, n as u32, |x, y| {
            x % 16 != 0 && free[y as usize * n + x as usize]
        })
    }

    #[test]
    fn the_size_estimate_is_close_on_a_map_mostly_blocked() {
        let grid = mostly_blocked();
        let mesh = taut_mesh::mesh_from_grid(&grid).unwrap();
        let base = Base::new(&grid, &mesh, None).unwrap();
        for g in [1, 2, 4, 8, 16, 32] {
            let index = HubIndex::assemble(
                &grid,
                &mesh,
                &base.corners,
                &base.turns,
                base.edges,
                base.core.clone(),
                g,
                &[],
                None,
            )
            .unwrap();
            let actual = index.size_bytes() as f64;
            // The first look samples 24 regions at coarse sides, of about 150 here, most of
            // the size since the core shrank (2026-11-28): a quarter off at g = 16. The
            // budget looks again with four times the sample when the first look is close.
            let scales: &[u32] = if g <= 8 { &[1, 4] } else { &[4] };
            for &scale in scales {
                let estimate = base.estimate(&grid, &mesh, g, scale).unwrap().0 as f64;
                assert!(
                    (estimate - actual).abs() <= 0.1 * actual,
                    "regions of {g}, sample × {scale}: estimated {estimate} bytes, built {actual}"
                );
            }
            // The budget's first look, an eighth of the sample, rules a side out above 1.5
            // times the budget: a side that fits must never look that large.
            let points = u64::from(SAMPLE_POINTS) / 8;
            let quick = base
                .estimate_with(
                    &grid,
                    &mesh,
                    g,
                    points,
                    QUICK_REGIONS,
                    &mut Sampled::default(),
                )
                .unwrap()
                .0 as f64;
            assert!(
                quick < QUICK_OVER * actual,
                "regions of {g}, first look: estimated {quick} bytes, built {actual}"
            );
        }
    }

    /// The regions built from the corners' views (`sight.rs`) are those built by a search
    /// from each point, byte for byte (`room` 0 forbids the views).
    fn both_ways_build_the_same(grid: &Grid, mesh: &Mesh, sides: &[u32]) {
        let base = Base::new(grid, mesh, None).unwrap();
        for &g in sides {
            let build = |room| {
                let index = HubIndex::assemble(
                    grid,
                    mesh,
                    &base.corners,
                    &base.turns,
                    base.edges,
                    base.core.clone(),
                    g,
                    &[],
                    room,
                )
                .unwrap();
                crate::encode_hub(&index)
            };
            assert!(build(None) == build(Some(0)), "regions of {g}");
        }
    }

    #[test]
    fn regions_from_the_corners_views_are_those_from_each_point() {
        let grid = mostly_blocked();
        let mesh = taut_mesh::mesh_from_grid(&grid).unwrap();
        both_ways_build_the_same(&grid, &mesh, &[2, 3, 8, 16]);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
        #[test]
        fn regions_from_the_corners_views_are_those_from_each_point_on_random_grids(
            grid in taut_testdata::double_corner_grid(20),
            g in 2u32..7,
        ) {
            if let Some(mesh) = crate::sight::tests::mesh_of_random(&grid) {
                both_ways_build_the_same(&grid, &mesh, &[g]);
            }
        }
    }

    /// On ost100d's merged mesh (reference data), at regions of 8 (EHL-64's size).
    #[test]
    fn regions_from_the_corners_views_are_those_from_each_point_on_ost100d() {
        let Some(data) = taut_testdata::shared_data(
            "regions_from_the_corners_views_are_those_from_each_point_on_ost100d",
        ) else {
            return;
        };
        let (grid, mesh) = crate::sight::tests::dao_map(&data, "ost100d");
        both_ways_build_the_same(&grid, &mesh, &[8]);
    }
}
