//! Snapping a point to the nearest free cell, through an index built once per raster.
//!
//! A route's end given on land is moved to the centre of the nearest sea cell. Scanning the
//! raster outwards from the point ([`SphereGrid::nearest_free_cell`]) costs tens of
//! milliseconds on a 1440 × 720 raster when the sea is far; [`SnapIndex`] answers the same
//! question in microseconds.
//!
//! # How
//! For every cell the index stores how many columns one must step east, and west, to reach a
//! free cell of the same row (wrapping round the sphere). On one row, the great-circle
//! distance from a point to a cell centre grows with their longitude difference (up to 180°),
//! so the nearest free centre of a row is the first free one east or the first free one west of
//! the point's column: two reads. Rows are visited outwards from the point's row, and the walk
//! stops at the first row whose latitude difference alone exceeds the best distance found: a
//! cell centre is never nearer than its latitude difference. A query costs O(1) per row visited,
//! and the rows visited are those within the nearest free cell's distance (a handful where land
//! meets sea; at most the raster's height).
//!
//! Ties (cells at exactly the same computed distance) go to the smaller (row, column), as in
//! [`SphereGrid::nearest_free_cell`], so both give the same cell.

use crate::geo::LatLon;
use crate::grid::SphereGrid;

/// No free cell in the row.
const NONE: u32 = u32::MAX;

/// The nearest-free-cell index of one [`SphereGrid`] (see the module documentation).
///
/// Built in O(cells) time; holds two `u32` per cell.
#[derive(Clone, Debug)]
pub struct SnapIndex {
    width: u32,
    height: u32,
    /// `east[r * width + c]`: the least `d >= 0` with cell (r, c + d) free, or [`NONE`].
    east: Vec<u32>,
    /// `west[r * width + c]`: the least `d >= 0` with cell (r, c - d) free, or [`NONE`].
    west: Vec<u32>,
}

impl SnapIndex {
    /// The index of `grid`'s free cells.
    pub fn new(grid: &SphereGrid) -> Self {
        Self::of(grid, |r, c| grid.is_free(i64::from(r), i64::from(c)))
    }

    /// The index of the cells of `grid` for which `open(row, col)` holds (a subset of the
    /// free cells, such as one connected sea).
    pub fn of(grid: &SphereGrid, open: impl Fn(u32, u32) -> bool) -> Self {
        let (w, h) = (grid.width(), grid.height());
        let n = w as usize * h as usize;
        let mut east = vec![NONE; n];
        let mut west = vec![NONE; n];
        for r in 0..h {
            let row = r as usize * w as usize;
            let free = |c: u32| open(r, c);
            let Some(first) = (0..w).find(|&c| free(c)) else {
                continue;
            };
            // Eastward distances: walk west from the first free column, twice round, so the
            // wrap is seen from every column.
            let mut d = 0u32;
            for step in 0..w {
                let c = (first + w - step) % w;
                d = if free(c) { 0 } else { d + 1 };
                east[row + c as usize] = d;
            }
            let mut d = 0u32;
            for step in 0..w {
                let c = (first + step) % w;
                d = if free(c) { 0 } else { d + 1 };
                west[row + c as usize] = d;
            }
        }
        SnapIndex {
            width: w,
            height: h,
            east,
            west,
        }
    }

    /// Whether the index was built for a grid of this size.
    pub fn fits(&self, grid: &SphereGrid) -> bool {
        self.width == grid.width() && self.height == grid.height()
    }

    /// The indexed cell of `grid` whose centre is nearest to `p` (great-circle distance), as
    /// (row, column); `None` if there is none. The cell containing `p` is returned when it is
    /// indexed. `grid` must be the grid the index was built from.
    ///
    /// # Panics
    /// If `grid`'s size differs from the index's ([`Self::fits`]).
    pub fn nearest(&self, grid: &SphereGrid, p: LatLon) -> Option<(u32, u32)> {
        assert!(self.fits(grid), "a SnapIndex used with another grid");
        let (r0, c0) = grid.cell_of(p);
        if self.east[r0 as usize * self.width as usize + c0 as usize] == 0 {
            return Some((r0, c0));
        }
        let target = p.to_vec();
        let lat = p.lat.to_radians();
        let res_lat = grid.res_lat();
        // (distance, row, column) of the best so far.
        let mut best: Option<(f64, u32, u32)> = None;
        let consider = |r: u32, c: u32, best: &mut Option<(f64, u32, u32)>| {
            let d = grid.cell_centre(r, c).to_vec().angle(target);
            if best.is_none_or(|b| (d, r, c) < b) {
                *best = Some((d, r, c));
            }
        };
        let w = self.width;
        let (mut up, mut down) = (Some(r0), Some(r0 + 1));
        loop {
            // The nearer of the two rows next in line (a row's centre is never nearer than its
            // latitude difference; the walk ends when both are beyond the best).
            let gap = |r: Option<u32>| {
                r.filter(|&r| r < self.height).map(|r| {
                    let centre = std::f64::consts::FRAC_PI_2 - (f64::from(r) + 0.5) * res_lat;
                    (centre - lat).abs()
                })
            };
            let (gu, gd) = (gap(up), gap(down));
            let (r, g) = match (gu, gd) {
                (None, None) => break,
                (Some(a), Some(b)) if b < a => (down, b),
                (Some(a), _) => (up, a),
                (None, Some(b)) => (down, b),
            };
            let r = r.expect("a row with a gap");
            // Equal distances still count (ties go to the smaller row and column).
            if best.is_some_and(|(d, _, _)| g > d * (1.0 + 1e-12) + 1e-15) {
                break;
            }
            if up == Some(r) {
                up = r.checked_sub(1);
            } else {
                down = Some(r + 1);
            }
            let row = r as usize * w as usize;
            if self.east[row] == NONE {
                continue;
            }
            // The first open column at or east of c0 and at or west of it, and the same from
            // its two neighbours: a point on the meridian between two columns is as near (up
            // to rounding) to both centres.
            for c in [c0, (c0 + 1) % w, (c0 + w - 1) % w] {
                let at = row + c as usize;
                consider(r, (c + self.east[at]) % w, &mut best);
                consider(r, (c + w - self.west[at]) % w, &mut best);
            }
        }
        best.map(|(_, r, c)| (r, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every free cell, nearest first by (distance, row, column).
    fn brute(grid: &SphereGrid, p: LatLon) -> Option<(u32, u32)> {
        let (r0, c0) = grid.cell_of(p);
        if grid.is_free(i64::from(r0), i64::from(c0)) {
            return Some((r0, c0));
        }
        let t = p.to_vec();
        let mut best: Option<(f64, u32, u32)> = None;
        for r in 0..grid.height() {
            for c in 0..grid.width() {
                if grid.is_free(i64::from(r), i64::from(c)) {
                    let d = grid.cell_centre(r, c).to_vec().angle(t);
                    if best.is_none_or(|b| (d, r, c) < b) {
                        best = Some((d, r, c));
                    }
                }
            }
        }
        best.map(|(_, r, c)| (r, c))
    }

    fn grid_from(w: u32, h: u32, cells: &[bool]) -> SphereGrid {
        SphereGrid::from_fn(w, h, |r, c| cells[(r * w + c) as usize]).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The index, the ring scan and every cell tried in turn give the same cell, for
        /// points anywhere and for points on grid lines (`lines`: half-cell steps from the
        /// North Pole and 180W, so row lines, meridians, vertices and cell centres).
        #[test]
        fn index_equals_scan_and_brute_force(
            w in 4u32..40,
            h in 2u32..24,
            density in 0.0f64..0.97,
            seed in any::<u64>(),
            anywhere in proptest::collection::vec((-89.9f64..89.9, -200.0f64..200.0), 1..8),
            lines in proptest::collection::vec((1u32..47, 0u32..80), 0..8),
        ) {
            let mut s = seed | 1;
            let cells: Vec<bool> = (0..w * h)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    (s % 10_000) as f64 / 10_000.0 >= density
                })
                .collect();
            let grid = grid_from(w, h, &cells);
            let index = SnapIndex::new(&grid);
            let on_lines = lines.iter().map(|&(i, k)| {
                let i = i.min(2 * h - 1);
                (90.0 - f64::from(i) * 90.0 / f64::from(h), -180.0 + f64::from(k) * 180.0 / f64::from(w))
            });
            for (lat, lon) in anywhere.iter().copied().chain(on_lines) {
                let p = LatLon::new(lat, lon);
                let want = brute(&grid, p);
                prop_assert_eq!(index.nearest(&grid, p), want, "index at {:?}", p);
                prop_assert_eq!(grid.nearest_free_cell(p), want, "scan at {:?}", p);
            }
        }
    }

    #[test]
    fn one_free_cell_across_the_antimeridian_and_none_at_all() {
        let (w, h) = (36, 18);
        let mut cells = vec![false; (w * h) as usize];
        cells[(9 * w + 35) as usize] = true; // just west of 180°
        let grid = grid_from(w, h, &cells);
        let index = SnapIndex::new(&grid);
        assert_eq!(
            index.nearest(&grid, LatLon::new(-5.0, -175.0)),
            Some((9, 35))
        );
        assert_eq!(index.nearest(&grid, LatLon::new(80.0, 10.0)), Some((9, 35)));
        let none = grid_from(w, h, &vec![false; (w * h) as usize]);
        assert_eq!(
            SnapIndex::new(&none).nearest(&none, LatLon::new(0.0, 0.0)),
            None
        );
    }
}
