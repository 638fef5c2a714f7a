//! A map's cells as one bit string, padded with a ring of blocked cells, addressed by a running
//! position: a step east or west is ±1, a step south or north is ± the padded row length, so a
//! ray walking cell by cell tests each cell with one shift and one load.

use taut_grid::Grid;

/// The free cells of a grid, row by row with a blocked ring (bit set = free).
#[derive(Debug, Clone)]
pub(crate) struct Bits {
    /// Bits per padded row (a multiple of 64).
    row: isize,
    words: Vec<u64>,
}

impl Bits {
    /// The cells of `grid`.
    pub fn new(grid: &Grid) -> Self {
        // The same layout as the grid's own padded rows: copy them.
        let (words, stride) = grid.padded_rows();
        let row = stride * 64;
        let words = words.to_vec();
        Bits {
            row: row as isize,
            words,
        }
    }

    /// The position of cell `(x, y)`, for `-1 <= x <= width`, `-1 <= y <= height`.
    #[inline(always)]
    pub fn pos(&self, x: i32, y: i32) -> isize {
        (y as isize + 1) * self.row + x as isize + 1
    }

    /// The step from a cell to the one `sy` rows below (`sy = ±1`).
    #[inline(always)]
    pub fn rows(&self, sy: i32) -> isize {
        sy as isize * self.row
    }

    /// Whether the cell at `pos` is free.
    #[inline(always)]
    pub fn free(&self, pos: isize) -> bool {
        let p = pos as usize;
        self.words[p >> 6] >> (p & 63) & 1 != 0
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.words.capacity() * 8
    }
}
