//! Each corner's label entries ordered by the direction in which their paths leave it, so
//! that a point's label reads only the entries whose paths are taut at the corner.
//!
//! A point `p` that reaches hub `h` through corner `c` goes `p → c → n → … → h`, `n` the
//! next corner of `c`'s entry for `h`. When that path is not taut at `c` (it does not bend
//! round `c`'s obstacle), a strictly shorter path joins `p` to `n`, so the entry never gives
//! `d(p, h)` and, through the first corner of a shortest path, neither does any other
//! entry it could replace: the first corner `c_s` of a shortest `p`–`h*` path reaches `h*`
//! through a shortest path that is taut at `c_s`, or the whole path could be shortened. So
//! the entry can be left out. What is left out only raises values that are already not
//! exact: every value is still a real path's length, and the value the query needs is
//! still there.
//!
//! For `p` arriving at `c` along `γ = c − p`, with `c`'s obstacle wedge running
//! counter-clockwise from `f1` to `f0`, the taut directions out of `c` are one closed arc:
//! from `f0` counter-clockwise to `γ` when the wedge lies clockwise of `γ`, from `γ` to `f1`
//! when it lies counter-clockwise (`Corners::taut`: the wedge lies inside the angle the path
//! makes at `c`). The entries of each corner, sorted by the angle of `n − c`, give that arc
//! by two binary searches. On the dao maps a point's visible corners' labels hold 20-27
//! times more entries than their taut arcs (2026-11-28).
//!
//! Exact on integer coordinates (grid meshes). On a mesh with other coordinates, or where
//! `γ` runs along an obstacle edge, the whole label is read, as before.

use std::cmp::Ordering;

use taut_mesh::corners::Corners;
use taut_mesh::{Mesh, MeshPoint};

use crate::core::CoreLabels;

/// One label entry of a corner, in the order of its path's first direction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Turn {
    /// `d(c, h)`.
    pub dist: f64,
    /// The hub's rank.
    pub hub: u32,
    /// The entry's index among the core's entries.
    pub entry: u32,
}

/// The corners' label entries by direction (see the module's documentation).
#[derive(Debug, Default)]
pub(crate) struct TurnOrder {
    /// Corner `c`'s entries are `turns[off[c]..off[c + 1]]`: first, up to `mid[c]`, those
    /// read from every point (its own entry, and entries whose next corner stands where `c`
    /// does: the two corners of a double corner), then the others by direction. Empty when
    /// the mesh's coordinates are not integers.
    off: Vec<u32>,
    mid: Vec<u32>,
    dir: Vec<(i64, i64)>,
    turns: Vec<Turn>,
}

/// Counter-clockwise order of nonzero integer vectors by angle from the positive x axis;
/// vectors of the same direction are equal.
fn angle_cmp(a: (i64, i64), b: (i64, i64)) -> Ordering {
    let half = |(x, y): (i64, i64)| y < 0 || (y == 0 && x < 0);
    half(a).cmp(&half(b)).then_with(|| {
        let cross = i128::from(a.0) * i128::from(b.1) - i128::from(a.1) * i128::from(b.0);
        0.cmp(&cross)
    })
}

fn cross(a: (i64, i64), b: (i64, i64)) -> i128 {
    i128::from(a.0) * i128::from(b.1) - i128::from(a.1) * i128::from(b.0)
}

/// `q − p` in integers (both integer-valued).
fn diff(q: MeshPoint, p: MeshPoint) -> (i64, i64) {
    ((q.x - p.x) as i64, (q.y - p.y) as i64)
}

impl TurnOrder {
    /// The order of `core`'s labels over `corners` of `mesh` (empty when the mesh's
    /// coordinates are not integers).
    pub fn new(mesh: &Mesh, corners: &Corners, core: &CoreLabels) -> TurnOrder {
        if !mesh.is_integer() {
            return TurnOrder::default();
        }
        let n = core.len();
        let mut off = Vec::with_capacity(n + 1);
        let mut mid = Vec::with_capacity(n);
        let mut dir = Vec::with_capacity(core.entry_count());
        let mut turns = Vec::with_capacity(core.entry_count());
        off.push(0u32);
        let mut row: Vec<((i64, i64), Turn)> = Vec::new();
        for c in 0..n as u32 {
            let pc = corners.point(c);
            let start = core.label_start(c);
            row.clear();
            for (k, e) in core.label(c).iter().enumerate() {
                let turn = Turn {
                    dist: e.dist,
                    hub: e.hub,
                    entry: start + k as u32,
                };
                let d = e
                    .next_entry()
                    .map_or((0, 0), |j| diff(corners.point(core.corner_of(j)), pc));
                row.push((d, turn));
            }
            // The entries without a direction first, then by angle.
            row.sort_by(|a, b| {
                let (za, zb) = (a.0 == (0, 0), b.0 == (0, 0));
                zb.cmp(&za)
                    .then_with(|| {
                        if za || zb {
                            Ordering::Equal
                        } else {
                            angle_cmp(a.0, b.0)
                        }
                    })
                    .then(a.1.hub.cmp(&b.1.hub))
            });
            let fixed = row.iter().take_while(|r| r.0 == (0, 0)).count();
            mid.push((turns.len() + fixed) as u32);
            dir.extend(row.iter().map(|r| r.0));
            turns.extend(row.iter().map(|r| r.1));
            off.push(turns.len() as u32);
        }
        TurnOrder {
            off,
            mid,
            dir,
            turns,
        }
    }

    /// Whether the order was built (integer coordinates).
    pub fn is_built(&self) -> bool {
        !self.off.is_empty()
    }

    /// The entries of corner `c` that a point `p` arriving from it must read: those without
    /// a direction and those whose paths are taut at `c`, as up to three runs; `None` when
    /// every entry must be read (`p` at `c`, `γ` along an obstacle edge, or the order not
    /// built).
    pub fn taut_runs(&self, corners: &Corners, c: u32, p: MeshPoint) -> Option<[&[Turn]; 3]> {
        if !self.is_built() {
            return None;
        }
        let pc = corners.point(c);
        let gamma = diff(pc, p);
        if gamma == (0, 0) {
            return None;
        }
        let [f0, f1] = corners.wedge_points()[c as usize];
        let (from, to) = if cross(gamma, diff(f0, pc)) < 0 {
            (diff(f0, pc), gamma)
        } else if cross(gamma, diff(f1, pc)) > 0 {
            (gamma, diff(f1, pc))
        } else {
            return None;
        };
        let (a, m, b) = (
            self.off[c as usize] as usize,
            self.mid[c as usize] as usize,
            self.off[c as usize + 1] as usize,
        );
        let fixed = &self.turns[a..m];
        let (dir, turns) = (&self.dir[m..b], &self.turns[m..b]);
        let lo = dir.partition_point(|&d| angle_cmp(d, from) == Ordering::Less);
        let hi = dir.partition_point(|&d| angle_cmp(d, to) != Ordering::Greater);
        Some(if angle_cmp(from, to) != Ordering::Greater {
            [fixed, &turns[lo..hi.max(lo)], &[]]
        } else {
            [fixed, &turns[lo..], &turns[..hi]]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arc is the taut test: for a corner of every shape a grid gives, every lattice
    /// point it sees and can turn at, and every direction out of it, a direction is in the
    /// arc exactly when `Corners::taut` holds (where an arc is given at all).
    #[test]
    fn the_arc_is_the_taut_test() {
        use taut_grid::Grid;
        // Blocks, a diagonal touch (double corners) and a wall, on a 12 × 12 map.
        let grid = Grid::from_fn(12, 12, |x, y| {
            !((3..5).contains(&x) && (3..6).contains(&y)
                || (x, y) == (7, 7)
                || (x, y) == (8, 8)
                || (x == 9 && (2..6).contains(&y)))
        });
        let mesh = taut_mesh::mesh_from_grid(&grid).unwrap();
        let corners = Corners::of(&mesh);
        assert!(corners.len() >= 8);
        let mut given = 0;
        for c in 0..corners.len() as u32 {
            let pc = corners.point(c);
            for py in 0..=12 {
                for px in 0..=12 {
                    let p = MeshPoint::new(f64::from(px), f64::from(py));
                    if p == pc || !corners.can_turn(c, p) {
                        continue;
                    }
                    let gamma = diff(pc, p);
                    let [f0, f1] = corners.wedge_points()[c as usize];
                    // Directions into the obstacle: no point there sees `c`, and no next
                    // corner lies there.
                    let into_obstacle =
                        |d: (i64, i64)| cross(diff(f1, pc), d) > 0 && cross(d, diff(f0, pc)) > 0;
                    if into_obstacle(diff(p, pc)) {
                        continue;
                    }
                    let arc = if cross(gamma, diff(f0, pc)) < 0 {
                        Some((diff(f0, pc), gamma))
                    } else if cross(gamma, diff(f1, pc)) > 0 {
                        Some((gamma, diff(f1, pc)))
                    } else {
                        None
                    };
                    let Some((from, to)) = arc else { continue };
                    given += 1;
                    for dy in -4i64..=4 {
                        for dx in -4i64..=4 {
                            if (dx, dy) == (0, 0) {
                                continue;
                            }
                            let d = (dx, dy);
                            let inside = if angle_cmp(from, to) != Ordering::Greater {
                                angle_cmp(d, from) != Ordering::Less
                                    && angle_cmp(d, to) != Ordering::Greater
                            } else {
                                angle_cmp(d, from) != Ordering::Less
                                    || angle_cmp(d, to) != Ordering::Greater
                            };
                            let q = MeshPoint::new(pc.x + dx as f64, pc.y + dy as f64);
                            if into_obstacle(d) {
                                continue;
                            }
                            assert_eq!(
                                inside,
                                corners.taut(c, p, q),
                                "corner {c} at {pc:?}, from {p:?}, towards {d:?}"
                            );
                        }
                    }
                }
            }
        }
        assert!(given > 100, "{given}");
    }

    #[test]
    fn angles_go_counter_clockwise() {
        let v = [
            (1, 0),
            (2, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        for w in v.windows(2) {
            assert_eq!(angle_cmp(w[0], w[1]), Ordering::Less, "{w:?}");
        }
        assert_eq!(angle_cmp((2, 2), (1, 1)), Ordering::Equal);
    }
}
