//! Directions out of a corner, sorted, so that the build reads only what keeps a path taut:
//! the label entries a point needs from a corner it sees
//! ([`TurnOrder`](crate::turn_order::TurnOrder)), and the edges a
//! Dijkstra search relaxes at a corner ([`Adjacency`]).
//!
//! A point `p` that reaches hub `h` through corner `c` goes `p → c → n → … → h`, `n` the
//! next corner of `c`'s entry for `h`. When that path is not taut at `c` (it does not bend
//! round `c`'s obstacle), a strictly shorter path joins `p` to `n`, so the entry does not
//! give `d(p, h)`. The entry a query needs is never such an entry: the first corner `c_s` of
//! a shortest path from `p` reaches the path's top hub `h*` along that same path, which is
//! taut at `c_s`, or the whole path could be shortened. So the entry can be left out: the
//! values left are still real paths' lengths, and `d(p, h*)` is still among them.
//!
//! For `p` arriving at `c` along `γ = c − p`, with `c`'s obstacle wedge running
//! counter-clockwise from `f1` to `f0`, the taut directions out of `c` are one closed arc:
//! from `f0` counter-clockwise to `γ` when the wedge lies clockwise of `γ`, from `γ` to `f1`
//! when it lies counter-clockwise (`Corners::taut`: the wedge lies inside the angle the path
//! makes at `c`), and the straight continuation alone when `γ` runs along an obstacle edge
//! past `c`. The entries of each corner, sorted by the angle of `n − c`, give that arc by two
//! binary searches. Counted on den520d and orz900d, the old loop read 22 and 27 times more
//! entries with a next corner than the arcs hold (2026-11-28).
//!
//! Exact on integer coordinates (grid meshes), with integer angles. On a mesh with other
//! coordinates everything is read, as before.

use std::cmp::Ordering;
use std::ops::Range;

use taut_mesh::corner_graph::Graph;
use taut_mesh::corners::NO_CORNER;
use taut_mesh::{MeshPoint, is_small_integer};

/// An integer direction `q − p` between two points of a mesh whose coordinates are small
/// integers (at most 2^24 in magnitude, `Mesh::is_integer`): both parts fit an `i32`, and
/// the cross and dot products of two of them an `i64`, exactly. Half the memory of `i64`
/// pairs, and no `i128` products in the binary searches.
pub(crate) type Dir = (i32, i32);

/// Counter-clockwise order of nonzero integer vectors by angle from the positive x axis;
/// vectors of the same direction are equal.
fn angle_cmp(a: Dir, b: Dir) -> Ordering {
    let half = |(x, y): Dir| y < 0 || (y == 0 && x < 0);
    half(a).cmp(&half(b)).then_with(|| 0.cmp(&cross(a, b)))
}

fn cross(a: Dir, b: Dir) -> i64 {
    i64::from(a.0) * i64::from(b.1) - i64::from(a.1) * i64::from(b.0)
}

/// Directions without a length (`(0, 0)`) first, then by angle.
fn by_direction(a: Dir, b: Dir) -> Ordering {
    let (za, zb) = (a == (0, 0), b == (0, 0));
    zb.cmp(&za).then_with(|| {
        if za || zb {
            Ordering::Equal
        } else {
            angle_cmp(a, b)
        }
    })
}

/// Sorts one node's row by [`by_direction`], ties by `tie`, and returns how many of its
/// items have no direction (they come first). Both tables below keep their rows so.
pub(crate) fn sort_row<T>(row: &mut [(Dir, T)], tie: impl Fn(&T, &T) -> Ordering) -> usize {
    row.sort_by(|a, b| by_direction(a.0, b.0).then_with(|| tie(&a.1, &b.1)));
    row.iter().take_while(|r| r.0 == (0, 0)).count()
}

/// Of `dir`, directions out of a corner at `at` with obstacle wedge `wedge` (`[f0, f1]`)
/// sorted by [`angle_cmp`], the index ranges (at most two: the arc may wrap past angle 0)
/// of those that keep taut a path arriving along `gamma`; `None` when every direction must
/// be taken (`gamma` zero, or no side found: not met on grid corners, whose wedge is
/// narrower than 180°).
///
/// `bounds` is [`edge_bounds`] of the same corner and `dir`: one end of the arc is always an
/// obstacle edge, so only the other end is searched for, from `hint` when there is one
/// ([`partition_near`]: the end found last for the same corner, which a neighbouring point
/// mostly shares).
pub(crate) fn taut_arc(
    at: MeshPoint,
    [f0, f1]: [MeshPoint; 2],
    [after_e0, past_e1]: [u32; 2],
    gamma: Dir,
    dir: &[Dir],
    hint: Option<&mut u32>,
) -> Option<[Range<usize>; 2]> {
    if gamma == (0, 0) {
        return None;
    }
    let (e0, e1) = (diff(f0, at), diff(f1, at));
    // `γ` along an edge's own direction (the path runs along that obstacle edge past `at`)
    // leaves only the straight continuation: the arc from that edge to `γ` is that one
    // direction.
    let along = |e: Dir| {
        cross(gamma, e) == 0
            && i64::from(gamma.0) * i64::from(e.0) + i64::from(gamma.1) * i64::from(e.1) > 0
    };
    let search = |pred: &dyn Fn(Dir) -> bool| match hint {
        Some(h) => partition_near(dir, h, pred),
        None => dir.partition_point(|&d| pred(d)),
    };
    let (from, to, lo, hi) = if cross(gamma, e0) < 0 || along(e0) {
        let hi = search(&|d| angle_cmp(d, gamma) != Ordering::Greater);
        (e0, gamma, after_e0 as usize, hi)
    } else if cross(gamma, e1) > 0 || along(e1) {
        let lo = search(&|d| angle_cmp(d, gamma) == Ordering::Less);
        (gamma, e1, lo, past_e1 as usize)
    } else {
        return None;
    };
    Some(if angle_cmp(from, to) != Ordering::Greater {
        [lo..hi.max(lo), 0..0]
    } else {
        [lo..dir.len(), 0..hi]
    })
}

/// Steps [`partition_near`] walks from its hint before it searches by halves.
const NEAR: usize = 4;

/// `dir.partition_point(pred)` (`pred` true on a prefix of `dir`), looked for first within
/// [`NEAR`] steps of `*hint`, which then holds the answer.
fn partition_near(dir: &[Dir], hint: &mut u32, pred: &dyn Fn(Dir) -> bool) -> usize {
    let n = dir.len();
    let mut i = (*hint as usize).min(n);
    let p = if i < n && pred(dir[i]) {
        // The answer lies after `i`.
        let end = (i + 1 + NEAR).min(n);
        i += 1;
        while i < end && pred(dir[i]) {
            i += 1;
        }
        if i < end || end == n {
            i
        } else {
            end + dir[end..].partition_point(|&d| pred(d))
        }
    } else {
        // The answer is `i` or before it.
        let stop = i.saturating_sub(NEAR);
        while i > stop && !pred(dir[i - 1]) {
            i -= 1;
        }
        if i > stop || i == 0 {
            i
        } else {
            dir[..i].partition_point(|&d| pred(d))
        }
    };
    *hint = p as u32;
    p
}

/// Of `dir`, sorted by [`angle_cmp`], the index of the first direction not before the
/// obstacle edge `f0 − at` and of the first past the edge `f1 − at`: the ends of
/// [`taut_arc`]'s arcs that do not depend on the point, found once per corner.
pub(crate) fn edge_bounds(at: MeshPoint, [f0, f1]: [MeshPoint; 2], dir: &[Dir]) -> [u32; 2] {
    let (e0, e1) = (diff(f0, at), diff(f1, at));
    [
        dir.partition_point(|&d| angle_cmp(d, e0) == Ordering::Less) as u32,
        dir.partition_point(|&d| angle_cmp(d, e1) != Ordering::Greater) as u32,
    ]
}

/// `q − p` in integers (both integer-valued).
pub(crate) fn diff(q: MeshPoint, p: MeshPoint) -> Dir {
    ((q.x - p.x) as i32, (q.y - p.y) as i32)
}

/// A graph's neighbour lists for Dijkstra searches that relax only the edges that keep the
/// path taut (the core's pruned searches and the order's sampled trees). An edge `v → u`
/// that does not keep the path from `v`'s parent taut at `v` is never on a shortest path
/// through `v` at `v`'s distance: a strictly shorter path reaches `u` (the module's
/// argument), whichever shortest path reached `v`. So the distances are those of plain
/// Dijkstra; only ties between parents may fall otherwise.
///
/// Each node's neighbours at its own position come first, then the others by direction,
/// with their edge lengths. Without the graph's wedges ([`Graph::turns`]) or with
/// coordinates that are not integers, the graph's own lists, every edge relaxed.
#[derive(Debug)]
pub(crate) struct Adjacency {
    off: Vec<u32>,
    mid: Vec<u32>,
    /// The neighbours, node by node.
    pub nbr: Vec<u32>,
    /// The length of each edge of `nbr`.
    pub w: Vec<f64>,
    dir: Vec<Dir>,
    points: Vec<MeshPoint>,
    wedges: Vec<[MeshPoint; 2]>,
    /// Per node, [`edge_bounds`] of its directions (those after `mid`).
    bounds: Vec<[u32; 2]>,
}

impl Adjacency {
    pub fn new(graph: &Graph) -> Adjacency {
        let (off, nbr) = graph.csr();
        let w = graph.edge_weights();
        let n = graph.node_count();
        // The same test as `Mesh::is_integer`'s, on the points the arcs read.
        let integral = |p: &MeshPoint| is_small_integer(p.x) && is_small_integer(p.y);
        let wedges = graph.turns().filter(|wedges| {
            graph.points().iter().all(integral) && wedges.iter().flatten().all(integral)
        });
        let Some(wedges) = wedges else {
            return Adjacency {
                off: off.to_vec(),
                mid: off[..n].to_vec(),
                nbr: nbr.to_vec(),
                w,
                dir: Vec::new(),
                points: Vec::new(),
                wedges: Vec::new(),
                bounds: Vec::new(),
            };
        };
        let mut out = Adjacency {
            off: off.to_vec(),
            mid: Vec::with_capacity(n),
            nbr: Vec::with_capacity(nbr.len()),
            w: Vec::with_capacity(nbr.len()),
            dir: Vec::with_capacity(nbr.len()),
            points: graph.points().to_vec(),
            wedges: wedges.to_vec(),
            bounds: Vec::with_capacity(n),
        };
        let mut row: Vec<(Dir, (u32, f64))> = Vec::new();
        for v in 0..n {
            let (a, b) = (off[v] as usize, off[v + 1] as usize);
            let at = graph.point(v as u32);
            row.clear();
            row.extend((a..b).map(|k| (diff(graph.point(nbr[k]), at), (nbr[k], w[k]))));
            let fixed = sort_row(&mut row, |x, y| x.0.cmp(&y.0));
            out.mid.push((a + fixed) as u32);
            out.dir.extend(row.iter().map(|r| r.0));
            let bounds = edge_bounds(
                at,
                out.wedges[v],
                &out.dir[out.dir.len() - (b - a - fixed)..],
            );
            out.bounds.push(bounds);
            out.nbr.extend(row.iter().map(|r| r.1.0));
            out.w.extend(row.iter().map(|r| r.1.1));
        }
        out
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.off.len() - 1
    }

    /// Number of neighbours of `v`.
    pub fn degree(&self, v: u32) -> usize {
        (self.off[v as usize + 1] - self.off[v as usize]) as usize
    }

    /// The positions in [`Adjacency::nbr`] of the edges a search relaxes at `v`, reached
    /// from `from` ([`NO_CORNER`] at the search's root: every edge).
    #[inline]
    pub fn runs(&self, v: u32, from: u32) -> [Range<usize>; 3] {
        let (a, b) = (
            self.off[v as usize] as usize,
            self.off[v as usize + 1] as usize,
        );
        if self.dir.is_empty() || from == NO_CORNER {
            return [a..b, 0..0, 0..0];
        }
        let m = self.mid[v as usize] as usize;
        let at = self.points[v as usize];
        let gamma = diff(at, self.points[from as usize]);
        let (wedge, bounds) = (self.wedges[v as usize], self.bounds[v as usize]);
        match taut_arc(at, wedge, bounds, gamma, &self.dir[m..b], None) {
            Some([r, s]) => [a..m, m + r.start..m + r.end, m + s.start..m + s.end],
            None => [a..b, 0..0, 0..0],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taut_mesh::corners::Corners;

    /// The arc is the taut test: for every corner of a grid with blocks, double corners and
    /// a wall, every lattice point that can see it and turn there, and every direction out
    /// of it (up to 4 cells each way, sorted as the build sorts them), `taut_arc` gives an
    /// arc, and a direction is in it exactly when `Corners::taut` holds.
    #[test]
    fn the_arc_is_the_taut_test() {
        use taut_grid::Grid;
        let grid = Grid::from_fn(12, 12, |x, y| {
            !((3..5).contains(&x) && (3..6).contains(&y)
                || (x, y) == (7, 7)
                || (x, y) == (8, 8)
                || (x == 9 && (2..6).contains(&y)))
        });
        let mesh = taut_mesh::mesh_from_grid(&grid).unwrap();
        let corners = Corners::of(&mesh);
        assert!(corners.len() >= 8);
        let mut dirs: Vec<Dir> = (-4i32..=4)
            .flat_map(|dy| (-4i32..=4).map(move |dx| (dx, dy)))
            .filter(|&d| d != (0, 0))
            .collect();
        dirs.sort_by(|&a, &b| by_direction(a, b));
        let (mut given, mut along_edges) = (0, 0);
        for c in 0..corners.len() as u32 {
            let pc = corners.point(c);
            let [f0, f1] = corners.wedge_points()[c as usize];
            // Directions into the obstacle: no point there sees `c`, and no next corner
            // lies there.
            let into_obstacle = |d: Dir| cross(diff(f1, pc), d) > 0 && cross(d, diff(f0, pc)) > 0;
            for py in 0..=12 {
                for px in 0..=12 {
                    let p = MeshPoint::new(f64::from(px), f64::from(py));
                    if p == pc || !corners.can_turn(c, p) || into_obstacle(diff(p, pc)) {
                        continue;
                    }
                    let gamma = diff(pc, p);
                    if cross(gamma, diff(f0, pc)) == 0 || cross(gamma, diff(f1, pc)) == 0 {
                        along_edges += 1;
                    }
                    let bounds = edge_bounds(pc, [f0, f1], &dirs);
                    let [r, s] = taut_arc(pc, [f0, f1], bounds, gamma, &dirs, None)
                        .unwrap_or_else(|| panic!("no arc: corner {c}, from {p:?}"));
                    // From any hint, the same arc.
                    for start in [0, 1, 7, 40, 79, 80, 200] {
                        let mut h = start;
                        let near = taut_arc(pc, [f0, f1], bounds, gamma, &dirs, Some(&mut h));
                        assert_eq!(near, Some([r.clone(), s.clone()]), "hint {start}");
                    }
                    given += 1;
                    for (k, &d) in dirs.iter().enumerate() {
                        if into_obstacle(d) {
                            continue;
                        }
                        let q = MeshPoint::new(pc.x + d.0 as f64, pc.y + d.1 as f64);
                        assert_eq!(
                            r.contains(&k) || s.contains(&k),
                            corners.taut(c, p, q),
                            "corner {c} at {pc:?}, from {p:?}, towards {d:?}"
                        );
                    }
                }
            }
        }
        assert!(given > 100 && along_edges > 10, "{given} {along_edges}");
    }

    proptest::proptest! {
        /// From any hint, [`partition_near`] finds what a search by halves finds, and leaves
        /// it as the hint; the directions (a sorted circle with repeats) are cut at every
        /// place, near the hint and far from it.
        #[test]
        fn a_search_from_a_hint_finds_the_partition_point(
            raw in proptest::collection::vec((-6i32..=6, -6i32..=6), 0..40),
            cut in (-6i32..=6, -6i32..=6),
            hint in 0u32..50,
            strict in proptest::bool::ANY,
        ) {
            let mut dir: Vec<Dir> = raw.into_iter().filter(|&d| d != (0, 0)).collect();
            dir.sort_by(|&a, &b| angle_cmp(a, b));
            let cut = if cut == (0, 0) { (1, 0) } else { cut };
            let pred = |d: Dir| {
                let o = angle_cmp(d, cut);
                if strict { o == Ordering::Less } else { o != Ordering::Greater }
            };
            let want = dir.partition_point(|&d| pred(d));
            let mut h = hint;
            proptest::prop_assert_eq!(partition_near(&dir, &mut h, &pred), want);
            proptest::prop_assert_eq!(h as usize, want);
        }
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
