//! The compact grid: one bit per cell, padded with a ring of blocked cells.

use taut_geom::Point;

use crate::error::{EditError, Endpoint, QueryError};
use crate::map::{MAX_SIDE, MapFile};
use crate::terrain::FreeSet;

/// Bit masks of the four cells around a lattice point (see [`Grid::point_cells`]).
pub mod quad {
    /// The cell north-west of the point: `(x - 1, y - 1)`.
    pub const NW: u8 = 1;
    /// The cell north-east of the point: `(x, y - 1)`.
    pub const NE: u8 = 2;
    /// The cell south-west of the point: `(x - 1, y)`.
    pub const SW: u8 = 4;
    /// The cell south-east of the point: `(x, y)`, the cell whose top-left corner it is.
    pub const SE: u8 = 8;

    use taut_geom::Point;

    /// Whether a free-cell mask is that of a double corner (exactly two diagonally opposite
    /// cells free).
    #[inline(always)]
    pub fn is_double_corner(mask: u8) -> bool {
        mask == NW | SE || mask == NE | SW
    }

    /// Whether a free-cell mask is that of a convex corner: exactly three of the four cells
    /// free. (A table lookup: the portable x86-64 target has no popcount instruction, and
    /// `count_ones` there is a dozen instructions on the searches' hottest path.)
    #[inline(always)]
    pub fn is_convex_corner(mask: u8) -> bool {
        // Bits 7 (0111), 11 (1011), 13 (1101) and 14 (1110).
        const THREE_FREE: u16 = 1 << 7 | 1 << 11 | 1 << 13 | 1 << 14;
        mask < 16 && (THREE_FREE >> mask) & 1 != 0
    }

    /// For a double corner with free-cell `mask`, the free quadrant (one of the bits above)
    /// on whose side the direction `d` from the point lies; 0 if `d` points into a blocked
    /// quadrant. Axis directions belong to the one free quadrant they border. A path through a
    /// double corner must arrive and leave on the same side.
    #[inline]
    pub fn double_corner_side(mask: u8, d: Point) -> u8 {
        let (e, w, s, n) = (d.x >= 0, d.x <= 0, d.y >= 0, d.y <= 0);
        if mask == NW | SE {
            if w && n {
                NW
            } else if e && s {
                SE
            } else {
                0
            }
        } else if e && n {
            NE
        } else if w && s {
            SW
        } else {
            0
        }
    }
}

/// A bit-packed traversability grid.
///
/// Cell `(x, y)` is the unit square `[x, x+1] × [y, y+1]`; x grows east, y south. A ring of
/// blocked cells surrounds the map, so cell look-ups for `-1 <= x <= width` and
/// `-1 <= y <= height` need no border checks: the map border behaves as blocked cells, which is
/// the convention of `docs/conventions.md#free-and-blocked-terrain`. The grid is `Send + Sync`
/// and meant to be shared by threads.
///
/// A grid can be edited ([`Grid::set_blocked`], [`Grid::set_rect`]) by whoever holds it
/// mutably; planners hold their grid behind an `Arc`, so an edit made through
/// [`std::sync::Arc::make_mut`] lands in a copy and never under a running search. Each edit
/// that changes a cell bumps [`Grid::version`], by which caches built from the grid (a
/// planner's index, a mesh) notice that they are stale. Two grids are equal when their cells
/// are, whatever their versions.
#[derive(Clone)]
pub struct Grid {
    width: i32,
    height: i32,
    /// 64-bit words per padded row.
    stride: usize,
    /// Padded rows `-1..=height`, each `stride` words; bit set = free.
    bits: Vec<u64>,
    free_cells: u64,
    /// Edits that changed at least one cell since the grid was built.
    version: u64,
}

impl PartialEq for Grid {
    fn eq(&self, other: &Self) -> bool {
        self.width == other.width && self.height == other.height && self.bits == other.bits
    }
}

impl Eq for Grid {}

/// A rectangle of cells, `x0..x0 + width` by `y0..y0 + height`, for [`Grid::set_rect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CellRect {
    /// West column.
    pub x0: i32,
    /// North row.
    pub y0: i32,
    /// Columns (at least 1).
    pub width: i32,
    /// Rows (at least 1).
    pub height: i32,
}

impl CellRect {
    /// The rectangle of one cell.
    pub fn cell(x: i32, y: i32) -> Self {
        CellRect {
            x0: x,
            y0: y,
            width: 1,
            height: 1,
        }
    }

    /// The rectangle from `(x0, y0)` with the given sides.
    pub fn new(x0: i32, y0: i32, width: i32, height: i32) -> Self {
        CellRect {
            x0,
            y0,
            width,
            height,
        }
    }

    /// The smallest rectangle holding both.
    pub fn union(self, other: CellRect) -> CellRect {
        let x0 = self.x0.min(other.x0);
        let y0 = self.y0.min(other.y0);
        let x1 = (self.x0 + self.width).max(other.x0 + other.width);
        let y1 = (self.y0 + self.height).max(other.y0 + other.height);
        CellRect::new(x0, y0, x1 - x0, y1 - y0)
    }

    /// Whether cell `(x, y)` is inside.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x0 && y >= self.y0 && x < self.x0 + self.width && y < self.y0 + self.height
    }
}

impl std::fmt::Display for CellRect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cells ({}, {}) to ({}, {})",
            self.x0,
            self.y0,
            self.x0 + self.width - 1,
            self.y0 + self.height - 1
        )
    }
}

impl std::fmt::Debug for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Grid({}x{}, {} free)",
            self.width, self.height, self.free_cells
        )
    }
}

impl Grid {
    /// An all-blocked grid of the given size (sides from 1 to [`MAX_SIDE`]).
    fn blocked(width: u32, height: u32) -> Self {
        assert!((1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height));
        let stride = (width as usize + 2).div_ceil(64);
        Grid {
            width: width as i32,
            height: height as i32,
            stride,
            bits: vec![0; stride * (height as usize + 2)],
            free_cells: 0,
            version: 0,
        }
    }

    /// The grid of a MovingAI `.map` file, with the benchmarks' free terrain (`.`, `G`, `S`):
    /// `Grid::from_map(&MapFile::read(path)?, &FreeSet::default())`.
    ///
    /// # Errors
    /// [`crate::GridError`] when the file cannot be read or is not a valid map.
    pub fn read(path: impl AsRef<std::path::Path>) -> Result<Self, crate::GridError> {
        Ok(Self::from_map(&MapFile::read(path)?, &FreeSet::default()))
    }

    /// Builds the grid of a map under a free-terrain set.
    pub fn from_map(map: &MapFile, free: &FreeSet) -> Self {
        let (w, h) = (map.width(), map.height());
        let mut g = Grid::blocked(w, h);
        for (i, row) in map.tiles().chunks(w as usize).enumerate() {
            for (x, &c) in row.iter().enumerate() {
                if free.is_free(c) {
                    g.set_free(x as i32, i as i32);
                }
            }
        }
        g
    }

    /// Builds a grid from a predicate `free(x, y)`.
    ///
    /// # Panics
    /// If a side is 0 or above [`MAX_SIDE`].
    pub fn from_fn(width: u32, height: u32, mut free: impl FnMut(u32, u32) -> bool) -> Self {
        let mut g = Grid::blocked(width, height);
        for y in 0..height {
            for x in 0..width {
                if free(x, y) {
                    g.set_free(x as i32, y as i32);
                }
            }
        }
        g
    }

    /// Parses rows of `.` (free) and any other character (blocked): a helper for tests and
    /// examples. Returns `None` for no rows or rows of unequal length.
    pub fn from_ascii(rows: &[&str]) -> Option<Self> {
        let w = rows.first()?.len();
        if w == 0 || rows.iter().any(|r| r.len() != w) {
            return None;
        }
        Some(Grid::from_fn(w as u32, rows.len() as u32, |x, y| {
            rows[y as usize].as_bytes()[x as usize] == b'.'
        }))
    }

    /// The grid as text, one row per line, `.` free and `@` blocked: the inverse of
    /// [`Grid::from_ascii`], for failure messages that a test can paste back.
    ///
    /// ```
    /// # use taut_grid::Grid;
    /// let g = Grid::from_ascii(&["..@", "@.."]).unwrap();
    /// assert_eq!(g.to_ascii(), "..@\n@..\n");
    /// ```
    pub fn to_ascii(&self) -> String {
        let mut s = String::with_capacity(((self.width() + 1) * self.height()) as usize);
        for y in 0..self.height() {
            for x in 0..self.width() {
                s.push(if self.is_free(x, y) { '.' } else { '@' });
            }
            s.push('\n');
        }
        s
    }

    fn set_free(&mut self, x: i32, y: i32) {
        let (w, b) = self.bit(x, y);
        if self.bits[w] & b == 0 {
            self.free_cells += 1;
        }
        self.bits[w] |= b;
    }

    /// Makes cell `(x, y)` blocked (`true`) or free (`false`). Returns whether the cell
    /// changed; [`Grid::version`] grows by one when it did.
    ///
    /// ```
    /// # use taut_grid::Grid;
    /// let mut g = Grid::from_ascii(&["...", "..."]).unwrap();
    /// assert_eq!(g.set_blocked(1, 0, true), Ok(true));
    /// assert_eq!(g.to_ascii(), ".@.\n...\n");
    /// assert_eq!(g.version(), 1);
    /// assert_eq!(g.set_blocked(1, 0, true), Ok(false)); // already blocked: no new version
    /// assert!(g.set_blocked(3, 0, false).is_err()); // off the map
    /// ```
    ///
    /// # Errors
    /// [`EditError::OffMap`] when the cell is not on the map (the ring around it stays
    /// blocked); the grid is unchanged.
    pub fn set_blocked(&mut self, x: i32, y: i32, blocked: bool) -> Result<bool, EditError> {
        self.set_rect(CellRect::cell(x, y), blocked).map(|n| n > 0)
    }

    /// Makes every cell of `rect` blocked (`true`) or free (`false`). Returns how many cells
    /// changed; [`Grid::version`] grows by one when any did.
    ///
    /// # Errors
    /// [`EditError::OffMap`] when the rectangle is empty or not wholly on the map; the grid is
    /// unchanged.
    pub fn set_rect(&mut self, rect: CellRect, blocked: bool) -> Result<u64, EditError> {
        if rect.width < 1
            || rect.height < 1
            || rect.x0 < 0
            || rect.y0 < 0
            || rect.x0 > self.width - rect.width
            || rect.y0 > self.height - rect.height
        {
            return Err(EditError::OffMap {
                rect,
                width: self.width,
                height: self.height,
            });
        }
        let mut changed = 0;
        for y in rect.y0..rect.y0 + rect.height {
            for x in rect.x0..rect.x0 + rect.width {
                let (w, b) = self.bit(x, y);
                let free = self.bits[w] & b != 0;
                if free == blocked {
                    changed += 1;
                    self.bits[w] ^= b;
                }
            }
        }
        if changed > 0 {
            if blocked {
                self.free_cells -= changed;
            } else {
                self.free_cells += changed;
            }
            self.version += 1;
        }
        Ok(changed)
    }

    /// The smallest rectangle holding every cell whose state differs between this grid and
    /// `other` (two versions of one map), or `None` when none does or the sizes differ.
    ///
    /// ```
    /// use taut_grid::{CellRect, Grid};
    /// let a = Grid::from_ascii(&["....", "....", "...."]).unwrap();
    /// let mut b = a.clone();
    /// b.set_blocked(1, 0, true).unwrap();
    /// b.set_blocked(2, 2, true).unwrap();
    /// assert_eq!(a.changed_rect(&b), Some(CellRect::new(1, 0, 2, 3)));
    /// assert_eq!(a.changed_rect(&a), None);
    /// ```
    pub fn changed_rect(&self, other: &Grid) -> Option<CellRect> {
        if self.width != other.width || self.height != other.height {
            return None;
        }
        let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        for (r, (a, b)) in self
            .bits
            .chunks_exact(self.stride)
            .zip(other.bits.chunks_exact(self.stride))
            .enumerate()
        {
            for (i, (&wa, &wb)) in a.iter().zip(b).enumerate() {
                let d = wa ^ wb;
                if d == 0 {
                    continue;
                }
                // Padded column `i * 64 + bit` is cell column `i * 64 + bit - 1`.
                let lo = (i * 64 + d.trailing_zeros() as usize) as i32 - 1;
                let hi = (i * 64 + 63 - d.leading_zeros() as usize) as i32 - 1;
                let y = r as i32 - 1;
                x0 = x0.min(lo);
                x1 = x1.max(hi);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
        (x0 <= x1).then(|| CellRect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1))
    }

    /// How many edits ([`Grid::set_blocked`], [`Grid::set_rect`]) have changed the grid's
    /// cells since it was built: 0 for a grid just read or made. A cache built from a grid
    /// records the version it saw.
    #[inline]
    pub fn version(&self) -> u64 {
        self.version
    }

    #[inline(always)]
    fn bit(&self, x: i32, y: i32) -> (usize, u64) {
        let col = (x + 1) as usize;
        let row = (y + 1) as usize;
        (row * self.stride + col / 64, 1u64 << (col % 64))
    }

    /// Map width in cells.
    #[inline]
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Map height in cells.
    #[inline]
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Number of free cells.
    pub fn free_cells(&self) -> u64 {
        self.free_cells
    }

    /// Heap bytes used by the cell bits.
    pub fn heap_bytes(&self) -> usize {
        self.bits.len() * 8
    }

    /// Whether cell `(x, y)` is on the map and free. Any coordinates are accepted.
    #[inline]
    pub fn is_free(&self, x: i32, y: i32) -> bool {
        if x < -1 || y < -1 || x > self.width || y > self.height {
            return false;
        }
        self.is_free_padded(x, y)
    }

    /// Whether cell `(x, y)` is free, for `-1 <= x <= width`, `-1 <= y <= height` (the padded
    /// range, where the ring is blocked). Hot paths use this: no border check.
    #[inline(always)]
    pub fn is_free_padded(&self, x: i32, y: i32) -> bool {
        debug_assert!(x >= -1 && y >= -1 && x <= self.width && y <= self.height);
        let (w, b) = self.bit(x, y);
        self.bits[w] & b != 0
    }

    /// Whether every cell `x0..=x1` of row `y` is free (true when `x0 > x1`), for cells of the
    /// padded range (`-1 <= x0`, `x1 <= width`, `-1 <= y <= height`). Reads the row's bits a
    /// word at a time ([`Grid::first_blocked`]): the cost grows with `(x1 - x0) / 64`, not with
    /// the free run around it.
    #[inline(always)]
    pub fn all_free(&self, y: i32, x0: i32, x1: i32) -> bool {
        self.first_blocked(y, x0, x1).is_none()
    }

    /// The first blocked cell among `x0..=x1` of row `y`, scanning east; `None` when all are
    /// free (or `x0 > x1`). Same range rules and cost as [`Grid::all_free`].
    #[inline(always)]
    pub fn first_blocked(&self, y: i32, x0: i32, x1: i32) -> Option<i32> {
        debug_assert!(x0 >= -1 && x1 <= self.width && y >= -1 && y <= self.height);
        if x0 > x1 {
            return None;
        }
        let base = (y + 1) as usize * self.stride;
        let (c0, c1) = ((x0 + 1) as usize, (x1 + 1) as usize);
        let (mut w, w1) = (c0 / 64, c1 / 64);
        let mut blocked = !self.bits[base + w] & (!0u64 << (c0 % 64));
        loop {
            if w == w1 {
                blocked &= !0u64 >> (63 - c1 % 64);
            }
            if blocked != 0 {
                return Some((w * 64 + blocked.trailing_zeros() as usize) as i32 - 1);
            }
            if w == w1 {
                return None;
            }
            w += 1;
            blocked = !self.bits[base + w];
        }
    }

    /// The last blocked cell among `x0..=x1` of row `y`, scanning west from `x1`; `None` when
    /// all are free (or `x0 > x1`). Same range rules and cost as [`Grid::all_free`].
    #[inline(always)]
    pub fn last_blocked(&self, y: i32, x0: i32, x1: i32) -> Option<i32> {
        debug_assert!(x0 >= -1 && x1 <= self.width && y >= -1 && y <= self.height);
        if x0 > x1 {
            return None;
        }
        let base = (y + 1) as usize * self.stride;
        let (c0, c1) = ((x0 + 1) as usize, (x1 + 1) as usize);
        let (w0, mut w) = (c0 / 64, c1 / 64);
        let mut blocked = !self.bits[base + w] & (!0u64 >> (63 - c1 % 64));
        loop {
            if w == w0 {
                blocked &= !0u64 << (c0 % 64);
            }
            if blocked != 0 {
                return Some((w * 64 + 63 - blocked.leading_zeros() as usize) as i32 - 1);
            }
            if w == w0 {
                return None;
            }
            w -= 1;
            blocked = !self.bits[base + w];
        }
    }

    /// Whether the lattice point is within the map's closed rectangle `[0, W] × [0, H]`.
    #[inline]
    pub fn contains_point(&self, p: Point) -> bool {
        p.x >= 0 && p.y >= 0 && p.x <= self.width && p.y <= self.height
    }

    /// The free cells around a lattice point as a mask of [`quad`] bits (0 off the map).
    #[inline]
    pub fn point_cells(&self, p: Point) -> u8 {
        if !self.contains_point(p) {
            return 0;
        }
        self.point_cells_padded(p)
    }

    /// [`Grid::point_cells`] without the range check, for points of the map's closed rectangle
    /// `[0, W] × [0, H]` (whose four cells all lie in the padded range). Hot paths use this.
    #[inline(always)]
    pub fn point_cells_padded(&self, p: Point) -> u8 {
        debug_assert!(self.contains_point(p));
        // Cells x-1 and x sit in adjacent columns (x and x + 1): read each row's pair at once.
        let (col, row) = (p.x as usize, p.y as usize);
        let above = self.cell_pair(row, col);
        let below = self.cell_pair(row + 1, col);
        above | below << 2
    }

    /// The free bits of padded columns `col` and `col + 1` of padded row `row`, as bits 0 and 1.
    #[inline(always)]
    fn cell_pair(&self, row: usize, col: usize) -> u8 {
        let i = row * self.stride + col / 64;
        let b = col % 64;
        if b < 63 {
            ((self.bits[i] >> b) & 3) as u8
        } else {
            ((self.bits[i] >> 63) | (self.bits[i + 1] & 1) << 1) as u8
        }
    }

    /// Whether a path may touch the point at all (some adjacent cell is free).
    #[inline]
    pub fn is_traversable_point(&self, p: Point) -> bool {
        self.point_cells(p) != 0
    }

    /// Whether the point is a convex corner: exactly one of its four cells is blocked. Shortest
    /// any-angle paths turn only at such points.
    #[inline]
    pub fn is_corner(&self, p: Point) -> bool {
        quad::is_convex_corner(self.point_cells(p))
    }

    /// Whether the point is a double corner: exactly two diagonally opposite cells are blocked.
    /// A path may touch it but never pass through it from one free side to the other.
    #[inline]
    pub fn is_double_corner(&self, p: Point) -> bool {
        quad::is_double_corner(self.point_cells(p))
    }

    /// The free run of cells around the free cell `(x, y)` in cell row `y`: returns `(lo, hi)`
    /// such that cells `lo..hi` of the row are free and cells `lo - 1` and `hi` are blocked
    /// (as lattice x coordinates: the run spans `[lo, hi]`). Works a 64-bit word at a time
    /// ([`Grid::last_blocked`], [`Grid::first_blocked`]).
    ///
    /// Requires `-1 <= y <= height` (the padded range) and cell `(x, y)` free.
    pub fn free_run(&self, x: i32, y: i32) -> (i32, i32) {
        debug_assert!(self.is_free_padded(x, y), "free_run from a blocked cell");
        // The blocked ring (cells -1 and `width`) bounds both scans.
        let lo = self.last_blocked(y, -1, x - 1).unwrap_or(-1) + 1;
        let hi = self
            .first_blocked(y, x + 1, self.width)
            .unwrap_or(self.width);
        (lo, hi)
    }

    /// The padded bit rows and their length in words: cell row `y` (`-1..=height`) is the
    /// `stride` words from `(y + 1) · stride`, and cell `x` (`-1..=width`) its bit `x + 1`
    /// (set = free; the ring and the bits past it are blocked). For planners that build their
    /// own tables from the map a word at a time.
    pub fn padded_rows(&self) -> (&[u64], usize) {
        (&self.bits, self.stride)
    }

    /// Bits marking where the cells of padded row `r` change: bit `j` of word `i` is set when
    /// cell columns `64 i + j` and `64 i + j + 1` differ.
    #[inline(always)]
    fn change_word(&self, r: usize, i: usize) -> u64 {
        let row = &self.bits[r * self.stride..(r + 1) * self.stride];
        let next = row.get(i + 1).copied().unwrap_or(0);
        row[i] ^ ((row[i] >> 1) | (next << 63))
    }

    /// The first lattice x greater than `x` on the horizontal grid line `y` where the cells
    /// above or below the line change between free and blocked (between cells `X - 1` and `X`):
    /// every corner, double corner or end of a free stretch of the line is such a point.
    /// Returns a value above `width` when there is none. Requires `0 <= y <= height` and
    /// `-1 <= x`.
    pub fn next_change(&self, x: i32, y: i32) -> i32 {
        debug_assert!((0..=self.height).contains(&y) && x >= -1);
        // Change between cells X-1 and X is the bit of column X (cell columns are x + 1).
        let start = (x + 1) as usize;
        let (ra, rb) = (y as usize, y as usize + 1);
        let mut i = start / 64;
        if i >= self.stride {
            return self.width + 1;
        }
        let mut m = (self.change_word(ra, i) | self.change_word(rb, i)) & (!0u64 << (start % 64));
        while m == 0 {
            i += 1;
            if i >= self.stride {
                return self.width + 1;
            }
            m = self.change_word(ra, i) | self.change_word(rb, i);
        }
        let c = (i * 64) as i32 + m.trailing_zeros() as i32;
        c.min(self.width + 1)
    }

    /// The last lattice x smaller than `x` on the grid line `y` where the cells above or below
    /// change (see [`Grid::next_change`]); a negative value when there is none. Requires
    /// `0 <= y <= height` and `x <= width + 1`.
    pub fn prev_change(&self, x: i32, y: i32) -> i32 {
        debug_assert!((0..=self.height).contains(&y) && x <= self.width + 1);
        if x <= 0 {
            return -1;
        }
        let end = (x - 1) as usize; // last candidate column
        let (ra, rb) = (y as usize, y as usize + 1);
        let mut i = end / 64;
        let keep = if end % 64 == 63 {
            !0u64
        } else {
            (1u64 << (end % 64 + 1)) - 1
        };
        let mut m = (self.change_word(ra, i) | self.change_word(rb, i)) & keep;
        while m == 0 {
            if i == 0 {
                return -1;
            }
            i -= 1;
            m = self.change_word(ra, i) | self.change_word(rb, i);
        }
        (i * 64) as i32 + 63 - m.leading_zeros() as i32
    }

    /// Checks that a point is a valid query endpoint: on the map (`0 <= x < W`, `0 <= y < H`)
    /// with its cell (the one whose top-left corner it is) free.
    pub fn check_endpoint(&self, which: Endpoint, p: Point) -> Result<(), QueryError> {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return Err(QueryError::OffMap {
                which,
                point: p,
                width: self.width as u32,
                height: self.height as u32,
            });
        }
        if !self.is_free_padded(p.x, p.y) {
            return Err(QueryError::Blocked { which, point: p });
        }
        Ok(())
    }

    /// Checks both endpoints of a query (start first).
    pub fn check_query(&self, start: Point, goal: Point) -> Result<(), QueryError> {
        self.check_endpoint(Endpoint::Start, start)?;
        self.check_endpoint(Endpoint::Goal, goal)
    }
}
