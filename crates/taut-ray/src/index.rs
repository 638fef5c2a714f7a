//! The per-map index a ray-scanning planner builds once: the convex corners with a dense
//! numbering (a bit per lattice point and a rank per word, no hash map), and the map's
//! transpose, whose rows are the map's columns (vertical rays and walks read it a word at a
//! time, as horizontal ones read the map).

use std::time::{Duration, Instant};

use taut_grid::{Grid, Point, quad};

use crate::bits::Bits;
use crate::runs::Runs;

/// The convex corners of a map and its transpose.
#[derive(Debug, Clone)]
pub struct RayIndex {
    /// Lattice columns, `width + 1`.
    cols: usize,
    /// Bit per lattice point (row-major): set on a convex corner.
    bits: Vec<u64>,
    /// Convex corners before each word of `bits`.
    rank: Vec<u32>,
    /// The corners, in order of their number.
    points: Vec<Point>,
    /// The map transposed: cell (x, y) of the map is cell (y, x) here.
    transposed: Grid,
    /// The map's and the transpose's cells as running-position bit strings (rays).
    cells: Bits,
    tcells: Bits,
    /// Where the cells beside each grid line change (boundary walks).
    runs: Runs,
    build_time: Duration,
}

impl RayIndex {
    /// Builds the index of `grid` in O(width · height).
    pub fn new(grid: &Grid) -> Self {
        let began = Instant::now();
        let (w, h) = (grid.width(), grid.height());
        let cols = w as usize + 1;
        let n = cols * (h as usize + 1);
        let mut bits = vec![0u64; n.div_ceil(64)];
        let mut points = Vec::new();
        for y in 0..=h {
            for x in 0..=w {
                let p = Point::new(x, y);
                if quad::is_convex_corner(grid.point_cells_padded(p)) {
                    let i = y as usize * cols + x as usize;
                    bits[i / 64] |= 1 << (i % 64);
                    points.push(p);
                }
            }
        }
        let mut rank = Vec::with_capacity(bits.len());
        let mut acc = 0u32;
        for &b in &bits {
            rank.push(acc);
            acc += b.count_ones();
        }
        let transposed = Grid::from_fn(h as u32, w as u32, |x, y| grid.is_free(y as i32, x as i32));
        let (cells, tcells) = (Bits::new(grid), Bits::new(&transposed));
        let runs = Runs::new(grid, &transposed);
        RayIndex {
            cols,
            bits,
            rank,
            points,
            transposed,
            cells,
            tcells,
            runs,
            build_time: began.elapsed(),
        }
    }

    /// The number of convex corners.
    pub fn corners(&self) -> usize {
        self.points.len()
    }

    /// The number of the convex corner at `p`, if `p` is one.
    #[inline(always)]
    pub fn corner_id(&self, p: Point) -> Option<u32> {
        let i = p.y as usize * self.cols + p.x as usize;
        let (w, b) = (i / 64, i % 64);
        let word = self.bits[w];
        if word >> b & 1 == 0 {
            return None;
        }
        Some(self.rank[w] + (word & ((1u64 << b) - 1)).count_ones())
    }

    /// The corner numbered `id`.
    #[inline(always)]
    pub fn point(&self, id: u32) -> Point {
        self.points[id as usize]
    }

    /// The map transposed.
    #[inline(always)]
    pub fn transposed(&self) -> &Grid {
        &self.transposed
    }

    /// The map's cells and the transpose's, for rays.
    #[inline(always)]
    pub(crate) fn cells(&self) -> (&Bits, &Bits) {
        (&self.cells, &self.tcells)
    }

    /// The change bits of the grid lines, for boundary walks.
    #[inline(always)]
    pub(crate) fn runs(&self) -> &Runs {
        &self.runs
    }

    /// How long the index took to build.
    pub fn build_time(&self) -> Duration {
        self.build_time
    }

    /// Heap bytes held by the index.
    pub fn heap_bytes(&self) -> usize {
        self.bits.capacity() * 8
            + self.rank.capacity() * 4
            + self.points.capacity() * std::mem::size_of::<Point>()
            + self.transposed.heap_bytes()
            + self.cells.heap_bytes()
            + self.tcells.heap_bytes()
            + self.runs.heap_bytes()
    }
}
