//! The latitude/longitude grid: cells, grid lines, column runs, snapping.

use std::f64::consts::{FRAC_PI_2, PI};

use crate::trig;
use std::path::Path;

use taut_grid::{FreeSet, Grid, MapFile};

use crate::error::SphereError;
use crate::geo::{LatLon, V3, wrap_deg};

/// A maximal run of free cells in one column: rows `top..bottom` (row 0 touches the North
/// Pole), so the run spans latitudes from `lat_of_row_line(bottom)` up to
/// `lat_of_row_line(top)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The first free row (its northern boundary is row line `top`).
    pub top: u32,
    /// One past the last free row (its southern boundary is row line `bottom`).
    pub bottom: u32,
}

/// A map read as covering the whole sphere.
///
/// Convention (that of `../shared/data/sphere/README`): a `width × height` map, row `r` spans
/// latitudes `[90 - (r+1)·180/height, 90 - r·180/height]` (row 0 touches the North Pole),
/// column `c` spans longitudes `[-180 + c·360/width, -180 + (c+1)·360/width]`, and longitude
/// wraps (column `width` is column 0). Row line `i` is the parallel `90 - i·180/height`; meridian
/// `k` is the longitude `-180 + k·360/width`, for any integer `k` (taken modulo `width`).
///
/// A game map read this way becomes a sphere map with cells of `360/width` by `180/height`
/// degrees.
#[derive(Clone, Debug)]
pub struct SphereGrid {
    width: u32,
    height: u32,
    free: Vec<bool>,
    /// Runs of column c are `runs[run_start[c]..run_start[c + 1]]`, north first.
    run_start: Vec<u32>,
    runs: Vec<Run>,
    /// For each cell, the index (within its column) of its run, or u32::MAX if blocked.
    run_of: Vec<u32>,
    res_lat: f64,
    res_lon: f64,
    /// Free cells in the northern and southern polar rows.
    polar_free: [u32; 2],
    /// `(sin, cos)` of meridian `k`'s longitude, for `k` in `0..width`.
    meridian_sc: Vec<(f64, f64)>,
    /// `(sin, cos)` of row line `i`'s latitude, for `i` in `0..=height`.
    line_sc: Vec<(f64, f64)>,
    /// For row line `i`, in `0..=height`: a tangent of latitude below `.0` lies south of the
    /// line, and one above `.1` north of it, by the sweep's margin ([`line_clear`]).
    line_clear: Vec<(f64, f64)>,
    /// For each column, its longest run (the first of the longest; an empty run for a column
    /// with none): one entry per column, which a walk along columns reads in order.
    longest_run: Vec<Run>,
}

/// Beyond this tangent of latitude (89.9999994°) a point counts as at the pole.
pub(crate) const POLAR_TAN: f64 = 1e8;

/// How far inside a run a swept cone's free end must stay, and how far from the run's
/// boundary parallel a clipped end's ray must cross: far above the geometry's tolerances
/// (`ANGLE_EPS`), so that a column swept is one where the fan's decisions are not in doubt.
/// The direct case (`direct.rs`) keeps arcs clear of the grid lines by the same margin, through
/// [`SphereGrid::line_clear`], which is computed from it.
pub(crate) const SWEEP_MARGIN: f64 = 1e-9;

/// [`SWEEP_MARGIN`] as a margin on the tangent of a latitude near `t` (at least the margin in
/// latitude: `d tan = (1 + tan²) d lat`, doubled).
#[inline]
pub(crate) fn tan_margin(t: f64) -> f64 {
    2.0 * SWEEP_MARGIN * (1.0 + t * t)
}

impl SphereGrid {
    /// A grid of `width × height` cells with `free(row, col)`.
    ///
    /// # Errors
    /// [`SphereError::TooSmall`] below 4 columns or 2 rows, [`SphereError::TooLarge`] when
    /// the cells cannot be numbered in a `u32`.
    pub fn from_fn(
        width: u32,
        height: u32,
        mut free: impl FnMut(u32, u32) -> bool,
    ) -> Result<Self, SphereError> {
        if width < 4 || height < 2 {
            return Err(SphereError::TooSmall { width, height });
        }
        // Cells are numbered `row * width + col` in a u32.
        let Some(count) = width.checked_mul(height) else {
            return Err(SphereError::TooLarge { width, height });
        };
        let mut cells = vec![false; count as usize];
        for r in 0..height {
            for c in 0..width {
                cells[(r * width + c) as usize] = free(r, c);
            }
        }
        Ok(Self::build(width, height, cells))
    }

    fn build(width: u32, height: u32, free: Vec<bool>) -> Self {
        let mut run_start = Vec::with_capacity(width as usize + 1);
        let mut runs = Vec::new();
        let mut run_of = vec![u32::MAX; free.len()];
        for c in 0..width {
            run_start.push(runs.len() as u32);
            let first = runs.len();
            let mut r = 0;
            while r < height {
                if free[(r * width + c) as usize] {
                    let top = r;
                    while r < height && free[(r * width + c) as usize] {
                        run_of[(r * width + c) as usize] = (runs.len() - first) as u32;
                        r += 1;
                    }
                    runs.push(Run { top, bottom: r });
                } else {
                    r += 1;
                }
            }
        }
        run_start.push(runs.len() as u32);
        let row_free = |r: u32| {
            (0..width)
                .filter(|&c| free[(r * width + c) as usize])
                .count() as u32
        };
        let polar_free = [row_free(0), row_free(height - 1)];
        let mut grid = SphereGrid {
            width,
            height,
            free,
            run_start,
            runs,
            run_of,
            res_lat: PI / height as f64,
            res_lon: 2.0 * PI / width as f64,
            polar_free,
            meridian_sc: Vec::new(),
            line_sc: Vec::new(),
            line_clear: Vec::new(),
            longest_run: Vec::new(),
        };
        // The search's grid vertices and meridian crossings come from these tables, computed
        // once from the same angles as `meridian_lon` and `row_line_lat`.
        grid.meridian_sc = (0..width)
            .map(|k| trig::sin_cos(grid.meridian_lon(i64::from(k))))
            .collect();
        grid.line_sc = (0..=height)
            .map(|i| trig::sin_cos(grid.row_line_lat(i)))
            .collect();
        grid.line_clear = (0..=height)
            .map(|i| {
                if i == 0 {
                    (POLAR_TAN, f64::INFINITY)
                } else if i == height {
                    (f64::NEG_INFINITY, -POLAR_TAN)
                } else {
                    let l = grid.line_tan(i);
                    (l - tan_margin(l), l + tan_margin(l))
                }
            })
            .collect();
        grid.longest_run = (0..width as usize)
            .map(|c| {
                grid.runs_wrapped(c)
                    .iter()
                    .copied()
                    .reduce(|a, b| {
                        if b.bottom - b.top > a.bottom - a.top {
                            b
                        } else {
                            a
                        }
                    })
                    .unwrap_or(Run { top: 0, bottom: 0 })
            })
            .collect();
        grid
    }

    /// A grid from a traversability grid in the normal orientation (rows are latitude bands,
    /// north first; columns are longitude bands from 180°W).
    pub fn from_grid(grid: &Grid) -> Result<Self, SphereError> {
        Self::from_fn(grid.width() as u32, grid.height() as u32, |r, c| {
            grid.is_free(c as i32, r as i32)
        })
    }

    /// Reads a MovingAI `.map` in the normal orientation (`.` and the other passable
    /// MovingAI terrain are sea/free). With `transposed`, the file is read as the shared data's
    /// `*_T.map` layout (row i = longitude band i, column j = latitude band j).
    pub fn read_map(path: impl AsRef<Path>, transposed: bool) -> Result<Self, SphereError> {
        let path = path.as_ref();
        let map = MapFile::read(path).map_err(|e| SphereError::Map {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let grid = Grid::from_map(&map, &FreeSet::default());
        Self::from_grid_as(&grid, transposed)
    }

    /// [`Self::from_grid`], or with `transposed` the grid read in the shared data's `*_T.map`
    /// layout (grid row i = longitude band i, grid column j = latitude band j).
    pub fn from_grid_as(grid: &Grid, transposed: bool) -> Result<Self, SphereError> {
        if transposed {
            Self::from_fn(grid.height() as u32, grid.width() as u32, |r, c| {
                grid.is_free(r as i32, c as i32)
            })
        } else {
            Self::from_grid(grid)
        }
    }

    /// Number of columns (longitude bands).
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Number of rows (latitude bands).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Column width in radians of longitude.
    pub fn res_lon(&self) -> f64 {
        self.res_lon
    }

    /// Row height in radians of latitude.
    pub fn res_lat(&self) -> f64 {
        self.res_lat
    }

    /// Whether cell (`row`, `col`) is free; `col` is taken modulo the width, rows outside
    /// the map are blocked.
    #[inline]
    pub fn is_free(&self, row: i64, col: i64) -> bool {
        if row < 0 || row >= self.height as i64 {
            return false;
        }
        let c = col.rem_euclid(self.width as i64) as u32;
        self.free[(row as u32 * self.width + c) as usize]
    }

    /// Number of free cells.
    pub fn free_cells(&self) -> usize {
        self.free.iter().filter(|&&f| f).count()
    }

    /// Latitude (radians) of row line `i` (0 = North Pole, `height` = South Pole).
    #[inline]
    pub fn row_line_lat(&self, i: u32) -> f64 {
        if i == 0 {
            FRAC_PI_2
        } else if i == self.height {
            -FRAC_PI_2
        } else {
            FRAC_PI_2 - i as f64 * self.res_lat
        }
    }

    /// Longitude (radians, unwrapped) of meridian `k`.
    #[inline]
    pub fn meridian_lon(&self, k: i64) -> f64 {
        -PI + k as f64 * self.res_lon
    }

    /// The runs of column `col` (modulo the width), north first.
    #[inline]
    pub fn runs(&self, col: i64) -> &[Run] {
        self.runs_wrapped(col.rem_euclid(self.width as i64) as usize)
    }

    /// Free cells in the polar row of the North Pole (`north`) or the South Pole.
    #[inline]
    pub(crate) fn polar_free(&self, north: bool) -> u32 {
        self.polar_free[usize::from(!north)]
    }

    /// Walking along column `col` (modulo the width) from cell `row` northwards (`up`) or
    /// southwards: the row line where the column's cells stop being as free as cell `row`
    /// is. That is the free run's end when the cell is free, else the nearest end of a run in
    /// the walk's direction, else the pole line (0 or `height`).
    #[inline]
    pub(crate) fn next_change_line(&self, row: u32, col: i64, up: bool) -> u32 {
        let c = col.rem_euclid(self.width as i64) as u32;
        let runs = self.runs_wrapped(c as usize);
        let i = self.run_of[(row * self.width + c) as usize];
        if i != u32::MAX {
            let run = runs[i as usize];
            return if up { run.top } else { run.bottom };
        }
        if up {
            runs.iter()
                .rev()
                .find(|r| r.bottom <= row)
                .map_or(0, |r| r.bottom)
        } else {
            runs.iter()
                .find(|r| r.top > row)
                .map_or(self.height, |r| r.top)
        }
    }

    /// The run of column `col` containing free cell `row`, if the cell is free.
    #[inline]
    pub fn run_at(&self, row: u32, col: i64) -> Option<Run> {
        let c = col.rem_euclid(self.width as i64) as u32;
        let i = self.run_of[(row * self.width + c) as usize];
        (i != u32::MAX).then(|| self.runs(c as i64)[i as usize])
    }

    /// The cell (row, col) containing a point; points on a grid line belong to the cell
    /// south/east of it (the last row/column at the South Pole / wrap).
    pub fn cell_of(&self, p: LatLon) -> (u32, u32) {
        let row = ((90.0 - p.lat) / 180.0 * self.height as f64).floor();
        let row = row.clamp(0.0, self.height as f64 - 1.0) as u32;
        let col = ((wrap_deg(p.lon) + 180.0) / 360.0 * self.width as f64).floor();
        let col = (col as i64).rem_euclid(self.width as i64) as u32;
        (row, col)
    }

    /// The centre of cell (`row`, `col`), degrees.
    pub fn cell_centre(&self, row: u32, col: u32) -> LatLon {
        LatLon::new(
            90.0 - (row as f64 + 0.5) * 180.0 / self.height as f64,
            -180.0 + (col as f64 + 0.5) * 360.0 / self.width as f64,
        )
    }

    /// Whether the point lies in the closure of some free cell (so it can be a route's end).
    pub fn is_free_point(&self, p: LatLon) -> bool {
        self.free_cells_at(p)
            .iter()
            .any(|&(r, c)| self.is_free(r, c))
    }

    /// The cells whose closure contains `p` (1, 2 or 4 cells; at a pole, only the polar
    /// cells of the point's own column), as (row, col) with col in `0..width`.
    pub fn free_cells_at(&self, p: LatLon) -> Vec<(i64, i64)> {
        let (cells, n) = self.cells_at(p);
        cells[..n].to_vec()
    }

    /// [`Self::free_cells_at`] without allocating: the cells in order (north-west, north-east,
    /// south-west, south-east when there are four) and their number.
    pub(crate) fn cells_at(&self, p: LatLon) -> ([(i64, i64); 4], usize) {
        let y = (90.0 - p.lat) / 180.0 * self.height as f64;
        let x = (wrap_deg(p.lon) + 180.0) / 360.0 * self.width as f64;
        let (rows, nr) = line_or_cell(y);
        let (cols, nc) = line_or_cell(x);
        let mut out = [(0, 0); 4];
        let mut n = 0;
        for &r in &rows[..nr] {
            if r < 0 || r >= self.height as i64 {
                continue;
            }
            for &c in &cols[..nc] {
                out[n] = (r, c.rem_euclid(self.width as i64));
                n += 1;
            }
        }
        (out, n)
    }

    /// The free cell whose centre is nearest (great-circle distance) to `p`, searching
    /// outwards ring by ring; `None` if the map has no free cell. Ties go to the smaller
    /// (row, column). For many queries on one raster, [`crate::SnapIndex`] gives the same
    /// cells far faster.
    pub fn nearest_free_cell(&self, p: LatLon) -> Option<(u32, u32)> {
        let (r0, c0) = self.cell_of(p);
        if self.is_free(r0 as i64, c0 as i64) {
            return Some((r0, c0));
        }
        let target = p.to_vec();
        let mut best: Option<(f64, u32, u32)> = None;
        let max_ring = self.width.max(self.height) as i64;
        for ring in 1..=max_ring {
            // Once a candidate is known, stop when every cell not yet visited is surely
            // farther. After ring `ring - 1` every cell within `ring - 1` rows and columns has
            // been seen; once those columns go all the way round, the others lie at least
            // `ring - 1` rows of latitude away. (Stopping on the latitude alone, before the
            // columns wrap, missed nearer cells across a pole, where longitude costs little.)
            if let Some((d, _, _)) = best {
                let lat_gap = (ring - 1) as f64 * self.res_lat;
                let lon_cols_all = 2 * (ring - 1) + 1 >= self.width as i64;
                if lon_cols_all && lat_gap > d * (1.0 + 1e-12) + 1e-15 {
                    break;
                }
            }
            let mut visit = |r: i64, c: i64| {
                if r < 0 || r >= self.height as i64 || !self.is_free(r, c) {
                    return;
                }
                let cc = c.rem_euclid(self.width as i64) as u32;
                let d = self.cell_centre(r as u32, cc).to_vec().angle(target);
                if best.is_none_or(|b| (d, r as u32, cc) < b) {
                    best = Some((d, r as u32, cc));
                }
            };
            let (r0, c0) = (r0 as i64, c0 as i64);
            let span = ring.min(self.width as i64 / 2);
            for dc in -span..=span {
                visit(r0 - ring, c0 + dc);
                visit(r0 + ring, c0 + dc);
            }
            if ring <= self.width as i64 / 2 {
                for dr in -ring + 1..ring {
                    visit(r0 + dr, c0 - ring);
                    visit(r0 + dr, c0 + ring);
                }
            }
            if ring > (self.height as i64) && ring > self.width as i64 / 2 {
                break;
            }
        }
        best.map(|(_, r, c)| (r, c))
    }

    /// `(sin, cos)` of the longitude of meridian `k` (any integer, taken modulo the width).
    #[inline]
    pub(crate) fn meridian_sin_cos(&self, k: i64) -> (f64, f64) {
        self.meridian_sin_cos_wrapped(k.rem_euclid(self.width as i64) as usize)
    }

    /// `(sin, cos)` of the latitude of row line `i`.
    #[inline]
    pub(crate) fn line_sin_cos(&self, i: u32) -> (f64, f64) {
        self.line_sc[i as usize]
    }

    /// The tangent of the latitude of row line `i` (not finite at the poles), from the table.
    #[inline]
    pub(crate) fn line_tan(&self, i: u32) -> f64 {
        let (s, c) = self.line_sin_cos(i);
        s / c
    }

    /// The tangents of latitude beyond which a point lies clearly south (`.0`: below it) or
    /// north (`.1`: above it) of row line `i`: by [`SWEEP_MARGIN`] in latitude
    /// ([`tan_margin`]). At the poles, whose tangents are not finite, a point is clear of the
    /// pole below [`POLAR_TAN`] in absolute value, and nothing lies beyond it.
    #[inline]
    pub(crate) fn line_clear(&self, i: u32) -> (f64, f64) {
        self.line_clear[i as usize]
    }

    /// The longest run of column `c` (in `0..width`), where most open-water paths cross it; an
    /// empty run (`top == bottom == 0`) for a column with no free cell.
    #[inline]
    pub(crate) fn longest_run_wrapped(&self, c: usize) -> Run {
        self.longest_run[c]
    }

    /// The runs of column `c`, for `c` in `0..width` (no reduction modulo the width).
    #[inline]
    pub(crate) fn runs_wrapped(&self, c: usize) -> &[Run] {
        &self.runs[self.run_start[c] as usize..self.run_start[c + 1] as usize]
    }

    /// `(sin, cos)` of the longitude of meridian `k`, for `k` in `0..width`.
    #[inline]
    pub(crate) fn meridian_sin_cos_wrapped(&self, k: usize) -> (f64, f64) {
        self.meridian_sc[k]
    }

    /// [`Self::vertex_vec`] from the tables: no trigonometric call.
    #[inline]
    pub(crate) fn vertex_unit(&self, i: u32, k: i64) -> V3 {
        let (sp, cp) = self.line_sin_cos(i);
        let (sl, cl) = self.meridian_sin_cos(k);
        V3 {
            x: cp * cl,
            y: cp * sl,
            z: sp,
        }
    }

    /// The unit vector of the point at row line `i` on meridian `k`.
    #[inline]
    pub fn vertex_vec(&self, i: u32, k: i64) -> V3 {
        V3::from_lat_lon(self.row_line_lat(i), self.meridian_lon(k))
    }
}

/// The indices of the cells whose closure contains coordinate `v` (cell units): one, or two
/// when `v` is on a line (within 1e-9 cell).
fn line_or_cell(v: f64) -> ([i64; 2], usize) {
    let r = v.round();
    if (v - r).abs() < 1e-9 {
        ([r as i64 - 1, r as i64], 2)
    } else {
        ([v.floor() as i64, 0], 1)
    }
}
