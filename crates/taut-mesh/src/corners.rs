//! Convex corners of a mesh: the vertices a shortest path can turn at.
//!
//! Around a mesh vertex touched by obstacles, the polygons form *sectors*: maximal runs of
//! polygons between obstacle gaps in the vertex's counter-clockwise polygon list. A taut path
//! turns at a vertex only inside one sector, wrapping round the obstacle beside it, and only
//! when that sector's free angle exceeds 180° (a *convex* corner of the obstacles). Every
//! other vertex is a *dead end* in the paper's sense: no shortest path turns there (interior
//! vertices, concave obstacle vertices, straight boundary vertices, and the two quarter-plane
//! sectors of a grid's double corner).
//!
//! A corner is a (vertex, sector) pair, so a vertex where two obstacles touch and one sector
//! is wider than 180° gets its own node for that sector: a path may not pass from one sector
//! to the other through the vertex. Corners are numbered by vertex, then sector, so the list
//! is a pure function of the mesh (the CPD file does not store it).

use crate::geom::{orient_sign, orient_sign_integer};
use crate::{Mesh, MeshPoint, NO_POLY};

/// No corner (a dead-end vertex or sector).
pub const NO_CORNER: u32 = u32::MAX;

/// The convex corners of a mesh and the lookup from (vertex, polygon) to corner.
#[derive(Debug, Clone, PartialEq)]
pub struct Corners {
    /// Mesh vertex of each corner.
    vertex: Vec<u32>,
    /// Position of each corner.
    points: Vec<MeshPoint>,
    /// For each corner, the vertices at the far ends of the two obstacle edges bounding its
    /// sector: free space runs counter-clockwise from the direction of `wedge[c][0]` to the
    /// direction of `wedge[c][1]`; the obstacle lies between `wedge[c][1]` and `wedge[c][0]`.
    wedge: Vec<[u32; 2]>,
    /// Positions of the `wedge` vertices.
    wedge_pts: Vec<[MeshPoint; 2]>,
    /// For each corner, the positions (start, length) of its sector's polygons in the vertex's
    /// polygon list (cyclic).
    run: Vec<(u16, u16)>,
    /// First corner of each mesh vertex, or [`NO_CORNER`]; a vertex's corners are consecutive.
    first: Vec<u32>,
    /// For each corner, the two polygons of its sector beside its obstacle edges, when they
    /// are cul-de-sacs (one neighbour): the polygon, and the directions (far vertices) its
    /// angle at the corner sweeps counter-clockwise from and to. See [`Corners::pocketed`].
    pockets: Vec<[Pocket; 2]>,
}

/// A cul-de-sac polygon beside one of a corner's obstacle edges (or none: `poly` is
/// `u32::MAX`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Pocket {
    poly: u32,
    from: MeshPoint,
    to: MeshPoint,
}

impl Pocket {
    const NONE: Pocket = Pocket {
        poly: u32::MAX,
        from: MeshPoint { x: 0.0, y: 0.0 },
        to: MeshPoint { x: 0.0, y: 0.0 },
    };
}

impl Corners {
    /// Finds the convex corners of `mesh`.
    pub fn of(mesh: &Mesh) -> Corners {
        let nv = mesh.vertex_count();
        let mut c = Corners {
            vertex: Vec::new(),
            points: Vec::new(),
            wedge: Vec::new(),
            wedge_pts: Vec::new(),
            run: Vec::new(),
            first: vec![NO_CORNER; nv],
            pockets: Vec::new(),
        };
        for v in 0..nv as u32 {
            if !mesh.is_corner(v) {
                continue;
            }
            let around = mesh.vertex_polygons(v);
            let n = around.len();
            let Some(gap) = around.iter().position(|&q| q == NO_POLY) else {
                continue;
            };
            // Walk the cyclic list once, starting just after a gap.
            let mut i = 0;
            while i < n {
                let at = (gap + 1 + i) % n;
                if around[at] == NO_POLY {
                    i += 1;
                    continue;
                }
                let mut len = 0;
                while around[(at + len) % n] != NO_POLY {
                    len += 1;
                }
                let p_first = around[at] as u32;
                let p_last = around[(at + len - 1) % n] as u32;
                let a = neighbour(mesh, p_first, v, true);
                let b = neighbour(mesh, p_last, v, false);
                if wider_than_half_turn(mesh.point(v), mesh.point(a), mesh.point(b)) {
                    if c.first[v as usize] == NO_CORNER {
                        c.first[v as usize] = c.vertex.len() as u32;
                    }
                    c.vertex.push(v);
                    c.points.push(mesh.point(v));
                    c.wedge.push([a, b]);
                    c.wedge_pts.push([mesh.point(a), mesh.point(b)]);
                    c.run.push((at as u16, len as u16));
                    // A polygon's angle at v sweeps counter-clockwise from its next vertex to
                    // its previous one.
                    let pocket = |p: u32| {
                        if len >= 2 && mesh.is_one_way(p) {
                            Pocket {
                                poly: p,
                                from: mesh.point(neighbour(mesh, p, v, true)),
                                to: mesh.point(neighbour(mesh, p, v, false)),
                            }
                        } else {
                            Pocket::NONE
                        }
                    };
                    c.pockets.push([pocket(p_first), pocket(p_last)]);
                }
                i += len;
            }
        }
        c
    }

    /// Number of corners.
    #[inline]
    pub fn len(&self) -> usize {
        self.vertex.len()
    }

    /// Whether the mesh has no convex corner (a convex free space, say).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.vertex.is_empty()
    }

    /// The mesh vertex of corner `c`.
    #[inline]
    pub fn vertex(&self, c: u32) -> u32 {
        self.vertex[c as usize]
    }

    /// The position of corner `c`.
    #[inline]
    pub fn point(&self, c: u32) -> MeshPoint {
        self.points[c as usize]
    }

    /// Positions of all corners.
    #[inline]
    pub fn points(&self) -> &[MeshPoint] {
        &self.points
    }

    /// The far ends of the two obstacle edges at corner `c` (see the field's documentation).
    #[inline]
    pub fn wedge(&self, c: u32) -> [u32; 2] {
        self.wedge[c as usize]
    }

    /// The polygons of corner `c`'s sector, as positions in its vertex's polygon list.
    pub fn sector_polygons<'m>(&self, mesh: &'m Mesh, c: u32) -> impl Iterator<Item = u32> + 'm {
        let around = mesh.vertex_polygons(self.vertex[c as usize]);
        let (at, len) = self.run[c as usize];
        let n = around.len();
        (0..len as usize).map(move |k| around[(at as usize + k) % n] as u32)
    }

    /// The corner at vertex `v` whose sector contains polygon `poly` (a polygon around `v`),
    /// or [`NO_CORNER`] when that sector is a dead end.
    #[inline]
    pub fn at(&self, mesh: &Mesh, v: u32, poly: u32) -> u32 {
        let first = self.first[v as usize];
        if first == NO_CORNER || !mesh.is_ambiguous(v) {
            return first;
        }
        let around = mesh.vertex_polygons(v);
        let n = around.len();
        let mut c = first;
        while (c as usize) < self.vertex.len() && self.vertex[c as usize] == v {
            let (at, len) = self.run[c as usize];
            if (0..len as usize).any(|k| around[(at as usize + k) % n] == poly as i32) {
                return c;
            }
            c += 1;
        }
        NO_CORNER
    }

    /// Whether vertex `v` has at least one corner.
    #[inline]
    pub fn has_corner(&self, v: u32) -> bool {
        self.first[v as usize] != NO_CORNER
    }

    /// Whether a path arriving at corner `c` straight from `from` can turn there: the ray
    /// `from -> c`, continued past `c`, does not run into the interior of the obstacle wedge.
    /// (If it does, every path bending at `c` either way can be shortened next to `c`: the
    /// paper's *non-turn* vertices.) A ray along an obstacle edge can turn (by zero), so
    /// collinear chains of corners are kept.
    #[inline]
    pub fn can_turn(&self, c: u32, from: MeshPoint) -> bool {
        let v = self.points[c as usize];
        if from == v {
            return true;
        }
        let beyond = MeshPoint::new(2.0 * v.x - from.x, 2.0 * v.y - from.y);
        let [f0, f1] = self.wedge_pts[c as usize];
        // The obstacle wedge runs counter-clockwise from f1 to f0 (narrower than 180°).
        !(orient_sign(v, f1, beyond) > 0 && orient_sign(v, beyond, f0) > 0)
    }

    /// Whether every taut continuation of a path arriving at corner `c` straight from `from`
    /// runs into a cul-de-sac polygon beside the corner's obstacle that `holds_end` (the
    /// other end of the query) does not hold: then no shortest path to that end turns at `c`.
    ///
    /// Why: such a path bends round the obstacle, leaving `c` between the obstacle edge on
    /// the bend side and the ray `from -> c` continued. When that continued ray runs strictly
    /// inside the angle at `c` of the polygon beside that obstacle edge, every such direction
    /// enters that polygon (or runs along its obstacle edge). If it is a cul-de-sac, its one
    /// open edge is its other edge at `c` (its edge along the obstacle is closed, and it is
    /// not the corner's whole sector, which is wider than 180°), so a segment leaving `c`
    /// into it ends on its closed boundary, whose vertices off the open edge are not corners
    /// (the polygon is their whole sector, narrower than 180°). Nothing there but the other
    /// end could continue the path.
    #[inline]
    pub fn pocketed(&self, c: u32, from: MeshPoint, holds_end: impl Fn(u32) -> bool) -> bool {
        let v = self.points[c as usize];
        if from == v {
            return false;
        }
        // The continued ray points away from `from`: its side of a line through `v` is the
        // opposite of `from`'s (exact, no point beyond `v` is constructed).
        self.pockets[c as usize].iter().any(|p| {
            p.poly != u32::MAX
                && orient_sign(v, p.from, from) < 0
                && orient_sign(v, from, p.to) < 0
                && !holds_end(p.poly)
        })
    }

    /// Whether the path `a -> c -> b` is taut at corner `c`: it runs straight through, or it
    /// bends round the obstacle, whose wedge then lies inside the angle `a c b` smaller than
    /// 180° (closed: an obstacle edge along either segment still counts). A path that is not
    /// taut at `c` is strictly longer than some other path with the same ends.
    #[inline]
    pub fn taut(&self, c: u32, a: MeshPoint, b: MeshPoint) -> bool {
        taut_at(self.points[c as usize], self.wedge_pts[c as usize], a, b)
    }

    /// [`Corners::taut`] in plain `f64` arithmetic, for a mesh whose coordinates are small
    /// integers ([`Mesh::is_integer`]) and points `a`, `b` that are too
    /// ([`crate::is_small_integer`]): the orientation determinants are then exact, and
    /// several times cheaper than the adaptive predicates.
    #[inline]
    pub fn taut_integer(&self, c: u32, a: MeshPoint, b: MeshPoint) -> bool {
        taut_with(
            orient_sign_integer,
            self.points[c as usize],
            self.wedge_pts[c as usize],
            a,
            b,
        )
    }

    /// For each corner, the far ends of its two obstacle edges (see [`Corners::wedge`]), as
    /// points (what the taut test needs).
    pub fn wedge_points(&self) -> &[[MeshPoint; 2]] {
        &self.wedge_pts
    }
}

/// [`Corners::taut`] for a corner at `v` whose obstacle edges end at `wedge`.
#[inline]
pub fn taut_at(v: MeshPoint, wedge: [MeshPoint; 2], a: MeshPoint, b: MeshPoint) -> bool {
    taut_with(orient_sign, v, wedge, a, b)
}

/// [`taut_at`] with the orientation predicate `orient_sign`.
#[inline(always)]
fn taut_with(
    orient_sign: impl Fn(MeshPoint, MeshPoint, MeshPoint) -> i32,
    v: MeshPoint,
    wedge: [MeshPoint; 2],
    a: MeshPoint,
    b: MeshPoint,
) -> bool {
    if a == v || b == v {
        return true;
    }
    let (lo, hi) = match orient_sign(v, a, b) {
        0 => {
            // Straight through is taut; going back the way it came is not.
            return (a.x - v.x) * (b.x - v.x) + (a.y - v.y) * (b.y - v.y) < 0.0;
        }
        // The angle smaller than 180° runs counter-clockwise from lo to hi.
        s if s > 0 => (a, b),
        _ => (b, a),
    };
    let inside = |d: MeshPoint| orient_sign(v, lo, d) >= 0 && orient_sign(v, d, hi) >= 0;
    let [f0, f1] = wedge;
    inside(f0) && inside(f1)
}

/// The neighbour of `v` in polygon `p`: the next vertex (counter-clockwise) when `next`, else
/// the previous one.
fn neighbour(mesh: &Mesh, p: u32, v: u32, next: bool) -> u32 {
    let vs = mesh.poly_vertices(p);
    let n = vs.len();
    let i = vs.iter().position(|&w| w == v).unwrap_or(0);
    if next {
        vs[(i + 1) % n]
    } else {
        vs[(i + n - 1) % n]
    }
}

/// Whether the counter-clockwise sweep from direction `v -> a` to direction `v -> b` is wider
/// than a half turn.
fn wider_than_half_turn(v: MeshPoint, a: MeshPoint, b: MeshPoint) -> bool {
    match orient_sign(v, a, b) {
        s if s < 0 => true,
        0 => {
            // Same direction: a full turn (a zero-width spike of obstacle); opposite: exactly
            // a half turn, not wider.
            (a.x - v.x) * (b.x - v.x) + (a.y - v.y) * (b.y - v.y) > 0.0
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block with a one-cell notch open upwards: the notch's polygon is a cul-de-sac beside
    /// the corners at its mouth.
    #[test]
    fn a_corner_beside_a_notch_is_pocketed_only_from_where_its_turns_lead_into_it() {
        let grid = taut_grid::Grid::from_ascii(&[
            "........", "........", "..@.@@..", "..@@@@..", "..@@@@..", "........",
        ])
        .unwrap();
        let mesh = crate::mesh_from_grid(&grid).unwrap();
        let corners = Corners::of(&mesh);
        let at = |x: f64, y: f64| {
            (0..corners.len() as u32)
                .find(|&c| corners.point(c) == MeshPoint::new(x, y))
                .unwrap()
        };
        // The mouth's left corner (3, 2), seen from the upper left: the ray continued runs
        // down into the notch, and so does every turn round the block's cell (2, 2).
        let (mouth, far) = (at(3.0, 2.0), MeshPoint::new(0.0, 0.0));
        assert!(corners.can_turn(mouth, far));
        assert!(corners.pocketed(mouth, far, |_| false));
        // Not when the other end is in the notch, nor seen from straight above (the ray runs
        // along the notch's wall), nor from the right (turns lead up and left, into the open).
        assert!(!corners.pocketed(mouth, far, |_| true));
        assert!(!corners.pocketed(mouth, MeshPoint::new(3.0, 0.0), |_| false));
        assert!(!corners.pocketed(mouth, MeshPoint::new(8.0, 1.0), |_| false));
        // The block's outer corners have no cul-de-sac beside them.
        let outer = at(2.0, 2.0);
        for from in [(0.0, 0.0), (8.0, 0.0), (0.0, 6.0), (1.0, 1.0)] {
            assert!(!corners.pocketed(outer, MeshPoint::new(from.0, from.1), |_| false));
        }
        for c in 0..corners.len() as u32 {
            assert!(!corners.pocketed(c, corners.point(c), |_| false));
        }
    }
}
