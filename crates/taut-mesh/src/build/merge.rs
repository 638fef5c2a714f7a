//! Greedy merging of adjacent convex polygons into larger convex polygons.
//!
//! Two convex polygons A and B sharing the edge `u v` (A goes `u -> v`, B goes `v -> u`)
//! have a convex union exactly when the union turns left or goes straight at `u` and at `v`:
//! at `u` from A's vertex before `u` to B's vertex after `u`, at `v` from B's vertex before `v`
//! to A's vertex after `v`. Every other angle is an angle of A or B. A straight angle is kept as
//! a vertex: a neighbouring polygon may have a corner there, and removing it would break the
//! shared edges the mesh format needs.
//!
//! A heap holds candidate merges keyed by the area of the union, *largest first*: open areas
//! become single large polygons before small pieces can fragment them. This is chosen for
//! the search, not for the polygon count. Merging the smallest unions first leaves 15-30 %
//! fewer polygons, but the search on those meshes expands about twice as many nodes and takes
//! about 1.7 times as long: on Aurora's 2,990 queries, 4,859 expansions and 1,270 µs per query
//! against 2,339 and 742 µs (the reference merged mesh: 2,361 expansions, 602 µs).
//! `docs/mesh-build.md` has the figures. Every polygon carries
//! a version number, bumped when it grows; a candidate remembers the versions it was computed
//! for, so a stale candidate is recognised and dropped when it comes off the heap (a merged
//! polygon pushes fresh candidates for all its edges).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use smallvec::SmallVec;

use super::triangulate::NONE;
use crate::geom::MeshPoint;
use crate::geom::orient_sign;

/// Inline room for the vertices of most polygons: merged polygons rarely exceed it.
type Ring = SmallVec<[u32; 6]>;

struct Poly {
    verts: Ring,
    /// `adj[i]`: the polygon across the edge from `verts[i]` to `verts[i + 1]`, or [`NONE`].
    adj: Ring,
    /// Twice the area.
    area2: f64,
    version: u32,
    alive: bool,
}

struct Candidate {
    /// Twice the area of the union.
    key: f64,
    a: u32,
    b: u32,
    /// The shared edge's first vertex in A's order.
    u: u32,
    va: u32,
    vb: u32,
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        // A max-heap popping the smallest key, i.e. (keys are negated areas) the largest
        // union; ties go to the lower polygon indices, so the result is reproducible.
        other
            .key
            .total_cmp(&self.key)
            .then_with(|| other.a.cmp(&self.a))
            .then_with(|| other.b.cmp(&self.b))
            .then_with(|| other.u.cmp(&self.u))
    }
}

/// Merges the counter-clockwise triangles (with their neighbours, [`NONE`] for none) into
/// convex polygons, each listed counter-clockwise.
pub(super) fn merge(
    points: &[MeshPoint],
    triangles: &[[u32; 3]],
    neighbours: &[[u32; 3]],
) -> Vec<Vec<u32>> {
    let mut polys: Vec<Poly> = triangles
        .iter()
        .zip(neighbours)
        .map(|(t, n)| Poly {
            verts: Ring::from_slice(t),
            adj: Ring::from_slice(n),
            area2: twice_area(points, t),
            version: 0,
            alive: true,
        })
        .collect();
    // The first candidates, one per shared edge, are most of all candidates: sorting them
    // once and keeping only the later ones in a heap is much kinder to the cache than one
    // big heap.
    let mut initial = Vec::with_capacity(triangles.len() * 3 / 2);
    for a in 0..polys.len() {
        for i in 0..3 {
            let b = polys[a].adj[i];
            if b != NONE && (a as u32) < b {
                initial.extend(candidate(points, &polys, a as u32, i));
            }
        }
    }
    initial.sort_unstable_by(|x, y| y.cmp(x));
    let mut initial = initial.into_iter().peekable();
    let mut heap = BinaryHeap::new();
    loop {
        let from_heap = match (heap.peek(), initial.peek()) {
            (None, None) => break,
            (Some(h), Some(i)) => h > i,
            (h, _) => h.is_some(),
        };
        let Some(c) = (if from_heap {
            heap.pop()
        } else {
            initial.next()
        }) else {
            break;
        };
        let (a, b) = (c.a as usize, c.b as usize);
        if !polys[a].alive
            || !polys[b].alive
            || polys[a].version != c.va
            || polys[b].version != c.vb
        {
            continue;
        }
        let Some(i) = polys[a].verts.iter().position(|&w| w == c.u) else {
            continue;
        };
        let v = polys[a].verts[(i + 1) % polys[a].verts.len()];
        let Some(j) = polys[b].verts.iter().position(|&w| w == v) else {
            continue;
        };
        join(&mut polys, a, i, b, j);
        for k in 0..polys[a].verts.len() {
            heap.extend(candidate(points, &polys, a as u32, k));
        }
    }
    polys
        .into_iter()
        .filter(|p| p.alive)
        .map(|p| p.verts.into_vec())
        .collect()
}

/// The candidate merge of polygon `a` with its neighbour across its edge `i`, if the union is
/// convex.
fn candidate(points: &[MeshPoint], polys: &[Poly], a: u32, i: usize) -> Option<Candidate> {
    let pa = &polys[a as usize];
    let b = pa.adj[i];
    if b == NONE {
        return None;
    }
    let pb = &polys[b as usize];
    let (na, nb) = (pa.verts.len(), pb.verts.len());
    let u = pa.verts[i];
    let v = pa.verts[(i + 1) % na];
    let j = pb.verts.iter().position(|&w| w == v)?;
    debug_assert_eq!(pb.verts[(j + 1) % nb], u);
    let p = |w: u32| points[w as usize];
    let at_u = orient_sign(
        p(pa.verts[(i + na - 1) % na]),
        p(u),
        p(pb.verts[(j + 2) % nb]),
    );
    let at_v = orient_sign(
        p(pb.verts[(j + nb - 1) % nb]),
        p(v),
        p(pa.verts[(i + 2) % na]),
    );
    if at_u < 0 || at_v < 0 {
        return None;
    }
    Some(Candidate {
        // Negated: the heap pops the greatest key, and the largest union must come first.
        key: -(pa.area2 + pb.area2),
        a,
        b,
        u,
        va: pa.version,
        vb: pb.version,
    })
}

/// Replaces polygon `a` by its union with `b` across A's edge `i` (B's edge `j`), and points
/// B's other neighbours at `a`.
fn join(polys: &mut [Poly], a: usize, i: usize, b: usize, j: usize) {
    let pb_verts = std::mem::take(&mut polys[b].verts);
    let pb_adj = std::mem::take(&mut polys[b].adj);
    polys[b].alive = false;
    let b_area2 = polys[b].area2;
    let nb = pb_verts.len();
    let pa = &mut polys[a];
    let na = pa.verts.len();
    let mut verts = Ring::with_capacity(na + nb - 2);
    let mut adj = Ring::with_capacity(na + nb - 2);
    // A from v round to u (edges v -> ... -> u), then B strictly between u and v.
    for k in 1..=na {
        let idx = (i + k) % na;
        verts.push(pa.verts[idx]);
        adj.push(pa.adj[idx]);
    }
    // The last pushed adjacency is A's shared edge u -> v: replace it by B's edge after u.
    adj.pop();
    adj.push(pb_adj[(j + 1) % nb]);
    for k in 2..nb {
        let idx = (j + k) % nb;
        verts.push(pb_verts[idx]);
        adj.push(pb_adj[idx]);
    }
    pa.verts = verts;
    pa.adj = adj;
    pa.area2 += b_area2;
    pa.version += 1;
    // B's other neighbours now border A.
    for k in 0..nb {
        let c = pb_adj[k];
        if c == NONE || k == j {
            continue;
        }
        let from = pb_verts[(k + 1) % nb];
        let pc = &mut polys[c as usize];
        if let Some(m) = pc.verts.iter().position(|&w| w == from)
            && pc.adj[m] == b as u32
        {
            pc.adj[m] = a as u32;
        }
    }
}

fn twice_area(points: &[MeshPoint], t: &[u32; 3]) -> f64 {
    let [a, b, c] = t.map(|v| points[v as usize]);
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_triangles_make_a_square() {
        let points =
            [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| MeshPoint::new(x, y));
        let tris = [[0, 1, 2], [0, 2, 3]];
        let adj = [[NONE, NONE, 1], [0, NONE, NONE]];
        let polys = merge(&points, &tris, &adj);
        assert_eq!(polys.len(), 1);
        let mut vs = polys[0].clone();
        let start = vs.iter().position(|&v| v == 0).unwrap();
        vs.rotate_left(start);
        assert_eq!(vs, vec![0, 1, 2, 3]);
    }

    #[test]
    fn a_reflex_union_is_not_made() {
        // Two triangles whose union is a non-convex quadrilateral (a dart).
        let points =
            [(0.0, 0.0), (2.0, 1.0), (0.0, 2.0), (1.0, 1.0)].map(|(x, y)| MeshPoint::new(x, y));
        // Triangles 0-1-3 and 3-1-2 share 1-3; the union 0,1,2,3 is reflex at 3.
        let tris = [[0, 1, 3], [3, 1, 2]];
        let adj = [[NONE, 1, NONE], [0, NONE, NONE]];
        assert_eq!(merge(&points, &tris, &adj).len(), 2);
    }
}
