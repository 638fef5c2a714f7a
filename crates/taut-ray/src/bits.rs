//! A map's cells as one bit string, padded with a ring of blocked cells, addressed by a running
//! position: a step east or west is ±1, a step south or north is ± the padded row length, so a
//! ray walking cell by cell tests each cell with one shift and one load. Beside the bits, each
//! position holds its cell's *clearance* (the Chebyshev distance to the nearest blocked cell,
//! saturating at 255), so a ray in open space can jump over the square of free cells round it.

use taut_grid::Grid;

/// The free cells of a grid, row by row with a blocked ring (bit set = free).
#[derive(Debug, Clone)]
pub(crate) struct Bits {
    /// Bits per padded row (a multiple of 64).
    row: isize,
    words: Vec<u64>,
    /// Per position: 0 on a blocked cell, else the Chebyshev distance to the nearest blocked
    /// cell (the ring counts as blocked), at most 255: every cell within `clear - 1` of it is
    /// free.
    clear: Vec<u8>,
}

impl Bits {
    /// The cells of `grid`.
    pub fn new(grid: &Grid) -> Self {
        let h = grid.height();
        // The same layout as the grid's own padded rows: copy them.
        let (words, stride) = grid.padded_rows();
        let row = stride * 64;
        let words = words.to_vec();
        let clear = clearance(&words, row, h as usize + 2);
        Bits {
            row: row as isize,
            words,
            clear,
        }
    }

    /// The clearance of the cell at `pos` (see the field).
    #[inline(always)]
    pub fn clear(&self, pos: isize) -> u8 {
        self.clear[pos as usize]
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
        self.words.capacity() * 8 + self.clear.capacity()
    }
}

/// The Chebyshev distance of every position to the nearest blocked one, saturating at 255, by
/// two chamfer passes (with unit weights on all eight neighbours the passes are exact for this
/// metric). Positions off the bit string's edge count as blocked.
fn clearance(words: &[u64], row: usize, rows: usize) -> Vec<u8> {
    let mut d: Vec<u8> = (0..row * rows)
        .map(|p| {
            if words[p >> 6] >> (p & 63) & 1 != 0 {
                255
            } else {
                0
            }
        })
        .collect();
    // Forward: from the row above and the cell to the west; backward: from the row below and
    // the cell to the east. Row by row through slices, so the inner loops need no bounds tests.
    for y in 1..rows.saturating_sub(1) {
        let (above, rest) = d.split_at_mut(y * row);
        let (up, cur) = (&above[(y - 1) * row..], &mut rest[..row]);
        for x in 1..row - 1 {
            if cur[x] != 0 {
                let m = up[x - 1].min(up[x]).min(up[x + 1]).min(cur[x - 1]);
                cur[x] = cur[x].min(m.saturating_add(1));
            }
        }
    }
    for y in (1..rows.saturating_sub(1)).rev() {
        let (upto, below) = d.split_at_mut((y + 1) * row);
        let (cur, down) = (&mut upto[y * row..], &below[..row]);
        for x in (1..row - 1).rev() {
            if cur[x] != 0 {
                let m = down[x - 1].min(down[x]).min(down[x + 1]).min(cur[x + 1]);
                cur[x] = cur[x].min(m.saturating_add(1));
            }
        }
    }
    d
}
