//! Where the cells beside each grid line change, as bit strings, so a boundary walk finds the
//! length of its next straight run with one word look-up and a bit count.
//!
//! On the horizontal line `y`, bit `x` is set when the pair of cells beside the line just
//! west of the lattice point `(x, y)` differs from the pair just east of it (cells off the map
//! count as blocked); the vertical lines have the same, one per lattice column. A walk at a
//! vertex going east runs to the next set bit, going west to the previous one.

use taut_grid::{Grid, Point};

/// The change bits of every horizontal and vertical grid line of a map.
#[derive(Debug, Clone)]
pub(crate) struct Runs {
    width: i32,
    height: i32,
    /// Words per horizontal line (`width + 1` bits) and per vertical one (`height + 1`).
    hw: usize,
    vw: usize,
    horizontal: Vec<u64>,
    vertical: Vec<u64>,
}

impl Runs {
    /// The change bits of `grid`, whose transpose is `transposed` (its rows are the map's
    /// columns, so the vertical lines are read the same way as the horizontal ones).
    pub fn new(grid: &Grid, transposed: &Grid) -> Self {
        let (w, h) = (grid.width(), grid.height());
        let (hw, vw) = ((w as usize + 1).div_ceil(64), (h as usize + 1).div_ceil(64));
        let horizontal = line_changes(grid, hw);
        let vertical = line_changes(transposed, vw);
        Runs {
            width: w,
            height: h,
            hw,
            vw,
            horizontal,
            vertical,
        }
    }

    /// How far a walk at `v` heading `h` (east, south, west, north) goes straight before the
    /// cells beside its line change, at least 1 and never off the map's lattice.
    #[inline(always)]
    pub fn run(&self, v: Point, h: usize) -> i32 {
        let (x, y) = (v.x, v.y);
        match h {
            0 => next_set(&self.horizontal, y as usize * self.hw, x + 1, self.width) - x,
            2 => x - prev_set(&self.horizontal, y as usize * self.hw, x - 1),
            1 => next_set(&self.vertical, x as usize * self.vw, y + 1, self.height) - y,
            _ => y - prev_set(&self.vertical, x as usize * self.vw, y - 1),
        }
        .max(1)
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        (self.horizontal.capacity() + self.vertical.capacity()) * 8
    }
}

/// The change bits of the horizontal grid lines `0..=height` of `grid`, `words` per line: bit
/// `x` of line `y` is set when cell `x - 1` differs from cell `x` in row `y - 1` or in row `y`,
/// a word at a time from the padded rows.
fn line_changes(grid: &Grid, words: usize) -> Vec<u64> {
    let (rows, stride) = grid.padded_rows();
    // Bit x of a row's change word: padded columns x and x + 1 (cells x - 1 and x) differ.
    let change = |r: usize, i: usize| {
        let row = &rows[r * stride..(r + 1) * stride];
        let next = row.get(i + 1).copied().unwrap_or(0);
        row[i] ^ ((row[i] >> 1) | (next << 63))
    };
    let lines = grid.height() as usize + 1;
    let mut out = vec![0u64; words * lines];
    for y in 0..lines {
        for i in 0..words {
            // Line y lies between padded rows y (cells y - 1) and y + 1 (cells y).
            out[y * words + i] = change(y, i) | change(y + 1, i);
        }
    }
    out
}

/// The first set bit at or after `from` of the line starting at word `base`, capped at `cap`
/// (the line's last bit); `cap` when `from > cap`.
#[inline(always)]
fn next_set(words: &[u64], base: usize, from: i32, cap: i32) -> i32 {
    if from >= cap {
        return cap;
    }
    let f = from as usize;
    let mut i = f / 64;
    let mut m = words[base + i] & (!0u64 << (f % 64));
    let last = cap as usize / 64;
    while m == 0 {
        i += 1;
        if i > last {
            return cap;
        }
        m = words[base + i];
    }
    ((i * 64) as i32 + m.trailing_zeros() as i32).min(cap)
}

/// The last set bit at or before `from` of the line starting at word `base`; 0 when there is
/// none or `from <= 0`.
#[inline(always)]
fn prev_set(words: &[u64], base: usize, from: i32) -> i32 {
    if from <= 0 {
        return 0;
    }
    let f = from as usize;
    let mut i = f / 64;
    let keep = if f % 64 == 63 {
        !0u64
    } else {
        (1u64 << (f % 64 + 1)) - 1
    };
    let mut m = words[base + i] & keep;
    while m == 0 {
        if i == 0 {
            return 0;
        }
        i -= 1;
        m = words[base + i];
    }
    (i * 64) as i32 + 63 - m.leading_zeros() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::run_length;

    #[test]
    fn runs_equal_the_word_scans_of_the_grid() {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        for (w, h, density) in [
            (5, 7, 30),
            (70, 3, 10),
            (3, 130, 20),
            (129, 65, 45),
            (1, 1, 0),
        ] {
            let grid = Grid::from_fn(w, h, |_, _| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s % 100) as u32 >= density
            });
            let transposed = Grid::from_fn(h, w, |x, y| grid.is_free(y as i32, x as i32));
            let runs = Runs::new(&grid, &transposed);
            for y in 0..=h as i32 {
                for x in 0..=w as i32 {
                    for hd in 0..4 {
                        let p = Point::new(x, y);
                        let off = match hd {
                            0 => x == w as i32,
                            1 => y == h as i32,
                            2 => x == 0,
                            _ => y == 0,
                        };
                        if off {
                            continue;
                        }
                        assert_eq!(
                            runs.run(p, hd),
                            run_length(&grid, &transposed, p, hd),
                            "{w}x{h} at {p:?} heading {hd}"
                        );
                    }
                }
            }
        }
    }
}
