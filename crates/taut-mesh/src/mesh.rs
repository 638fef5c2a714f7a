//! The navigation mesh: vertices, convex polygons, adjacency and obstacle sides.
//!
//! Conventions (those of the "mesh 2" format, see `docs/polyanya.md`):
//! - polygons list their vertices counter-clockwise in the usual mathematical sense (positive
//!   signed area with x to the right and y up; on a grid map, where y grows downwards, they
//!   appear clockwise on screen);
//! - internally, edge `i` of a polygon runs from its vertex `i` to its vertex `i + 1` and
//!   [`Mesh::poly_adjacent`] gives the polygon across it, or [`NO_POLY`] for an obstacle or the
//!   outside (the file's `a_i` is shifted by one: it names the polygon across edge `i - 1`);
//! - each vertex lists the polygons around it counter-clockwise, with [`NO_POLY`] for every
//!   obstacle gap. A vertex with a gap is a *corner* (a path may turn there); one with two or
//!   more gaps is *ambiguous* (obstacles touch there, as at a grid's double corner).
//!
//! A [`Mesh`] is immutable once built, `Send + Sync`, and shared by any number of searches.

use hashbrown::HashMap;
use sha2::{Digest, Sha256};

use smallvec::SmallVec;

use crate::error::MeshError;

mod patch;
use crate::geom::{MeshPoint, orient, orient_sign, orient_sign_integer};

/// "No polygon": an obstacle or the outside of the mesh.
pub const NO_POLY: i32 = -1;

/// How far a polygon of a floating-point mesh may turn inwards at a vertex and still count as
/// convex: the cross product of its two edges may be negative by at most this fraction of the
/// product of their lengths (an angle of about 1e-9 rad). Meshes whose coordinates are rounded
/// from irrational values (rotated copies) have "straight" vertices that bend by one rounding
/// error; integer meshes never need it. The search itself decides with exact predicates on the
/// stored coordinates.
pub const CONVEXITY_TOLERANCE: f64 = 1e-9;

/// Largest coordinate magnitude of any mesh. The orientation predicates are exact only while
/// their products of coordinate differences stay finite: beyond about 4e153 they overflow to
/// infinity and a sign comes out wrong (a point inside a polygon found on its edge), so a mesh
/// with a larger coordinate is refused ([`MeshError::NotFinite`]).
pub const COORDINATE_LIMIT: f64 = 1e150;

/// Largest coordinate magnitude of an *integer* mesh: below it, an orientation determinant of
/// three integer points is exact in `f64` (differences below 2^25, products below 2^50).
pub const INTEGER_LIMIT: f64 = (1u64 << 24) as f64;

/// A validated navigation mesh. Build one with [`Mesh::new`] (from polygons, deriving
/// adjacency), [`Mesh::from_parts`] (from a file's records, checking them), or
/// [`crate::read_mesh`].
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    points: Vec<MeshPoint>,
    vert_off: Vec<u32>,
    vert_polys: Vec<i32>,
    vert_flags: Vec<u8>,
    poly_off: Vec<u32>,
    poly_verts: Vec<u32>,
    poly_adj: Vec<i32>,
    poly_twin: Vec<u16>,
    /// Per polygon: exactly one of its edges leads to another polygon (a cul-de-sac when
    /// entered by that edge).
    one_way: Vec<bool>,
    /// Polygon-major copy of what a search reads per expansion, indexed like `poly_verts`.
    corners: Vec<Corner>,
    integer: bool,
    min: MeshPoint,
    max: MeshPoint,
    locator: Locator,
}

const CORNER: u8 = 1;
const AMBIGUOUS: u8 = 2;

/// One vertex of a polygon together with the edge that leaves it: everything a search reads
/// about a polygon at an expansion, stored polygon by polygon so that expanding a node reads
/// one or two cache lines instead of the separate vertex, adjacency, twin and coordinate
/// arrays (on a mesh of 100,000 vertices those arrays are several megabytes, larger than the
/// L2 cache, and each expansion missed in each of them). See [`Mesh::poly_corners`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corner {
    /// The vertex's position.
    pub p: MeshPoint,
    /// The vertex id.
    pub v: u32,
    /// The polygon across the edge from this vertex to the next one, or [`NO_POLY`].
    pub adj: i32,
    /// That edge's index in the polygon across (`u16::MAX` for an obstacle side).
    pub twin: u16,
    flags: u8,
}

const ADJ_ONE_WAY: u8 = 4;

impl Corner {
    /// Whether an obstacle touches the vertex (a path may turn there): [`Mesh::is_corner`].
    #[inline(always)]
    pub fn is_corner(&self) -> bool {
        self.flags & CORNER != 0
    }

    /// Whether the polygon across the edge has exactly one neighbour (this polygon), so that
    /// entered by this edge it is a cul-de-sac: [`Mesh::is_one_way`] of [`Corner::adj`].
    #[inline(always)]
    pub fn leads_to_one_way(&self) -> bool {
        self.flags & ADJ_ONE_WAY != 0
    }
}

/// A polygon record as read from a file: vertices counter-clockwise and, for each edge `i`
/// (from vertex `i` to vertex `i + 1`), the polygon across it or [`NO_POLY`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PolygonRecord {
    /// Vertex indices, counter-clockwise.
    pub vertices: Vec<u32>,
    /// `adjacent[i]`: the polygon across the edge from `vertices[i]` to `vertices[i + 1]`.
    pub adjacent: Vec<i32>,
}

impl Mesh {
    /// Builds a mesh from vertices and counter-clockwise convex polygons, deriving the
    /// adjacency (polygons sharing an edge are neighbours; every other edge is an obstacle
    /// side) and the polygon list of every vertex.
    ///
    /// # Errors
    /// [`MeshError`] when a polygon is degenerate, not convex, not counter-clockwise, refers to
    /// a missing vertex, or an edge is claimed by more than two polygons.
    pub fn new(points: Vec<MeshPoint>, polygons: &[Vec<u32>]) -> Result<Mesh, MeshError> {
        let total: usize = polygons.iter().map(Vec::len).sum();
        let mut directed: HashMap<(u32, u32), usize> = HashMap::with_capacity(total);
        let mut slot = 0;
        for (p, vs) in polygons.iter().enumerate() {
            for i in 0..vs.len() {
                let e = (vs[i], vs[(i + 1) % vs.len()]);
                if directed.insert(e, slot).is_some() {
                    return Err(MeshError::Adjacency {
                        polygon: p,
                        reason: format!("the edge {} -> {} belongs to two polygons", e.0, e.1),
                    });
                }
                slot += 1;
            }
        }
        // The polygon of every slot, and the slot's position in it, for the twins.
        let mut owner = Vec::with_capacity(total);
        for (p, vs) in polygons.iter().enumerate() {
            owner.extend((0..vs.len()).map(|i| (p, i)));
        }
        let mut twins = Vec::with_capacity(total);
        let records: Vec<PolygonRecord> = polygons
            .iter()
            .map(|vs| PolygonRecord {
                vertices: vs.clone(),
                adjacent: (0..vs.len())
                    .map(|i| {
                        let rev = (vs[(i + 1) % vs.len()], vs[i]);
                        match directed.get(&rev) {
                            Some(&slot) => {
                                let (q, j) = owner[slot];
                                twins.push(u16::try_from(j).unwrap_or(u16::MAX));
                                q as i32
                            }
                            None => {
                                twins.push(u16::MAX);
                                NO_POLY
                            }
                        }
                    })
                    .collect(),
            })
            .collect();
        Self::build(points, None, Some(twins), records)
    }

    /// Builds a mesh from the records of a file, checking every one: indices in range, finite
    /// coordinates, convex counter-clockwise polygons, symmetric adjacency, and vertex polygon
    /// lists naming the polygons and obstacle gaps that the polygons imply. The mesh keeps the
    /// lists derived from the polygons (always counter-clockwise), so writing it back may
    /// reorder a file's lists.
    ///
    /// # Errors
    /// The first inconsistency found, as a [`MeshError`].
    pub fn from_parts(
        points: Vec<MeshPoint>,
        vertex_polygons: Vec<Vec<i32>>,
        polygons: Vec<PolygonRecord>,
    ) -> Result<Mesh, MeshError> {
        Self::build(points, Some(vertex_polygons), None, polygons)
    }

    fn build(
        points: Vec<MeshPoint>,
        listed: Option<Vec<Vec<i32>>>,
        derived_twins: Option<Vec<u16>>,
        polygons: Vec<PolygonRecord>,
    ) -> Result<Mesh, MeshError> {
        let nv = points.len();
        let np = polygons.len();
        if np == 0 {
            return Err(MeshError::Size("the mesh has no polygon".into()));
        }
        if nv >= i32::MAX as usize - 4 || np >= i32::MAX as usize {
            return Err(MeshError::Size(format!(
                "{nv} vertices and {np} polygons exceed 32-bit indices"
            )));
        }
        for (v, p) in points.iter().enumerate() {
            if !(p.x.abs() <= COORDINATE_LIMIT && p.y.abs() <= COORDINATE_LIMIT) {
                return Err(MeshError::NotFinite { vertex: v });
            }
        }
        // Polygons: indices, shape, orientation, convexity.
        let mut poly_off = Vec::with_capacity(np + 1);
        let mut poly_verts = Vec::new();
        let mut poly_adj = Vec::new();
        poly_off.push(0u32);
        for (p, rec) in polygons.iter().enumerate() {
            let n = rec.vertices.len();
            if n < 3 {
                return Err(MeshError::Degenerate {
                    polygon: p,
                    reason: "fewer than three vertices",
                });
            }
            if n > u16::MAX as usize {
                return Err(MeshError::Degenerate {
                    polygon: p,
                    reason: "more than 65535 vertices",
                });
            }
            if rec.adjacent.len() != n {
                return Err(MeshError::Adjacency {
                    polygon: p,
                    reason: format!("{} vertices but {} neighbours", n, rec.adjacent.len()),
                });
            }
            for &v in &rec.vertices {
                if v as usize >= nv {
                    return Err(MeshError::Dangling {
                        owner: format!("polygon {p}"),
                        what: "vertex",
                        index: i64::from(v),
                        count: nv,
                    });
                }
            }
            for &a in &rec.adjacent {
                if a < NO_POLY || a as i64 >= np as i64 {
                    return Err(MeshError::Dangling {
                        owner: format!("polygon {p}"),
                        what: "polygon",
                        index: i64::from(a),
                        count: np,
                    });
                }
                if a == p as i32 {
                    return Err(MeshError::Adjacency {
                        polygon: p,
                        reason: "it is its own neighbour".into(),
                    });
                }
            }
            check_shape(&points, p, &rec.vertices)?;
            poly_verts.extend_from_slice(&rec.vertices);
            poly_adj.extend_from_slice(&rec.adjacent);
            poly_off.push(poly_verts.len() as u32);
        }
        // Adjacency: symmetric, and an obstacle side is not claimed from the other side. Twins
        // derived from the polygons themselves (Mesh::new) are symmetric by construction.
        let poly_twin = match derived_twins {
            Some(twins) => twins,
            None => Self::check_adjacency(&poly_off, &poly_verts, &poly_adj)?,
        };
        // Vertex polygon lists, derived; compared with the listed ones when given.
        let (vert_off, vert_polys) =
            derive_vertex_polygons(&points, &poly_off, &poly_verts, &poly_adj);
        let derived = |v: usize| &vert_polys[vert_off[v] as usize..vert_off[v + 1] as usize];
        if let Some(listed) = listed {
            if listed.len() != nv {
                return Err(MeshError::Size(format!(
                    "{} vertex polygon lists for {nv} vertices",
                    listed.len()
                )));
            }
            for (v, l) in listed.iter().enumerate() {
                for &q in l {
                    if q < NO_POLY || q as i64 >= np as i64 {
                        return Err(MeshError::Dangling {
                            owner: format!("vertex {v}"),
                            what: "polygon",
                            index: i64::from(q),
                            count: np,
                        });
                    }
                }
                if !same_polygons_and_gaps(l, derived(v)) {
                    return Err(MeshError::VertexPolygons {
                        vertex: v,
                        listed: l.clone(),
                        derived: derived(v).to_vec(),
                    });
                }
            }
        }
        Ok(Self::assemble(
            points, vert_off, vert_polys, poly_off, poly_verts, poly_adj, poly_twin,
        ))
    }

    /// The mesh of checked arrays: vertex flags, bounds, the locator and the corner records
    /// are derived here.
    #[allow(clippy::too_many_arguments)]
    fn assemble(
        points: Vec<MeshPoint>,
        vert_off: Vec<u32>,
        vert_polys: Vec<i32>,
        poly_off: Vec<u32>,
        poly_verts: Vec<u32>,
        poly_adj: Vec<i32>,
        poly_twin: Vec<u16>,
    ) -> Mesh {
        let nv = points.len();
        let derived = |v: usize| &vert_polys[vert_off[v] as usize..vert_off[v + 1] as usize];
        let vert_flags: Vec<u8> = (0..nv)
            .map(|v| match gap_count(derived(v)) {
                0 => 0,
                1 => CORNER,
                _ => CORNER | AMBIGUOUS,
            })
            .collect();
        let mut min = MeshPoint::new(f64::INFINITY, f64::INFINITY);
        let mut max = MeshPoint::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &v in &poly_verts {
            let p = points[v as usize];
            min.x = min.x.min(p.x);
            min.y = min.y.min(p.y);
            max.x = max.x.max(p.x);
            max.y = max.y.max(p.y);
        }
        let integer = points
            .iter()
            .all(|p| is_small_integer(p.x) && is_small_integer(p.y));
        let locator = Locator::build(&points, &poly_off, &poly_verts, min, max);
        let one_way = poly_off
            .windows(2)
            .map(|w| {
                poly_adj[w[0] as usize..w[1] as usize]
                    .iter()
                    .filter(|&&q| q != NO_POLY)
                    .count()
                    == 1
            })
            .collect::<Vec<bool>>();
        let corners = (0..poly_verts.len())
            .map(|i| {
                let (v, adj) = (poly_verts[i], poly_adj[i]);
                let mut flags = vert_flags[v as usize] & CORNER;
                if adj != NO_POLY && one_way[adj as usize] {
                    flags |= ADJ_ONE_WAY;
                }
                Corner {
                    p: points[v as usize],
                    v,
                    adj,
                    twin: poly_twin[i],
                    flags,
                }
            })
            .collect();
        Mesh {
            points,
            vert_off,
            vert_polys,
            vert_flags,
            poly_off,
            poly_verts,
            poly_adj,
            poly_twin,
            one_way,
            corners,
            integer,
            min,
            max,
            locator,
        }
    }

    /// Checks that the adjacency of file records is symmetric and that no obstacle side is
    /// claimed from the other side; returns the twin of every edge slot.
    fn check_adjacency(
        poly_off: &[u32],
        poly_verts: &[u32],
        poly_adj: &[i32],
    ) -> Result<Vec<u16>, MeshError> {
        let np = poly_off.len() - 1;
        let mut directed: HashMap<(u32, u32), usize> = HashMap::with_capacity(poly_verts.len());
        for p in 0..np {
            let (s, e) = (poly_off[p] as usize, poly_off[p + 1] as usize);
            let n = e - s;
            for i in 0..n {
                let key = (poly_verts[s + i], poly_verts[s + (i + 1) % n]);
                if directed.insert(key, s + i).is_some() {
                    return Err(MeshError::Adjacency {
                        polygon: p,
                        reason: format!("the edge {} -> {} belongs to two polygons", key.0, key.1),
                    });
                }
            }
        }
        let mut poly_twin = vec![u16::MAX; poly_verts.len()];
        for p in 0..np {
            let (s, e) = (poly_off[p] as usize, poly_off[p + 1] as usize);
            let n = e - s;
            for i in 0..n {
                let (a, b) = (poly_verts[s + i], poly_verts[s + (i + 1) % n]);
                let across = poly_adj[s + i];
                match directed.get(&(b, a)) {
                    Some(&slot) => {
                        let q = poly_off.partition_point(|&o| o as usize <= slot) - 1;
                        if across != q as i32 {
                            return Err(MeshError::Adjacency {
                                polygon: p,
                                reason: format!(
                                    "the edge {a} -> {b} is shared with polygon {q}, but the neighbour given is {across}"
                                ),
                            });
                        }
                        poly_twin[s + i] = (slot - poly_off[q] as usize) as u16;
                    }
                    None if across != NO_POLY => {
                        return Err(MeshError::Adjacency {
                            polygon: p,
                            reason: format!(
                                "the edge {a} -> {b} names polygon {across} as its neighbour, which does not have that edge"
                            ),
                        });
                    }
                    None => {}
                }
            }
        }
        Ok(poly_twin)
    }

    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.points.len()
    }

    /// Number of polygons.
    #[inline]
    pub fn polygon_count(&self) -> usize {
        self.poly_off.len() - 1
    }

    /// Every vertex's position.
    #[inline]
    pub fn points(&self) -> &[MeshPoint] {
        &self.points
    }

    /// The position of vertex `v`.
    #[inline]
    pub fn point(&self, v: u32) -> MeshPoint {
        self.points[v as usize]
    }

    /// The polygons around vertex `v`, counter-clockwise, [`NO_POLY`] for obstacle gaps.
    #[inline]
    pub fn vertex_polygons(&self, v: u32) -> &[i32] {
        &self.vert_polys[self.vert_off[v as usize] as usize..self.vert_off[v as usize + 1] as usize]
    }

    /// Whether an obstacle touches vertex `v` (a path may turn there).
    #[inline]
    pub fn is_corner(&self, v: u32) -> bool {
        self.vert_flags[v as usize] & CORNER != 0
    }

    /// Whether obstacles separate the polygons around `v` into several groups.
    #[inline]
    pub fn is_ambiguous(&self, v: u32) -> bool {
        self.vert_flags[v as usize] & AMBIGUOUS != 0
    }

    /// The vertices of polygon `p`, counter-clockwise.
    #[inline]
    pub fn poly_vertices(&self, p: u32) -> &[u32] {
        &self.poly_verts[self.poly_off[p as usize] as usize..self.poly_off[p as usize + 1] as usize]
    }

    /// For each edge `i` of polygon `p` (vertex `i` to vertex `i + 1`), the polygon across it
    /// or [`NO_POLY`].
    #[inline]
    pub fn poly_adjacent(&self, p: u32) -> &[i32] {
        &self.poly_adj[self.poly_off[p as usize] as usize..self.poly_off[p as usize + 1] as usize]
    }

    /// Whether exactly one edge of polygon `p` leads to another polygon: entered by that edge,
    /// `p` is a cul-de-sac (one read, for pruning in the searches).
    #[inline]
    pub fn is_one_way(&self, p: u32) -> bool {
        self.one_way[p as usize]
    }

    /// The corners of polygon `p`, counter-clockwise: for each vertex `i`, its id and position
    /// and the edge from it to vertex `i + 1` (the polygon across, the twin edge), in one
    /// record. The same facts as [`Mesh::poly_vertices`], [`Mesh::poly_adjacent`],
    /// [`Mesh::poly_twins`], [`Mesh::point`], [`Mesh::is_corner`] and [`Mesh::is_one_way`],
    /// laid out for the searches' inner loops.
    #[inline]
    pub fn poly_corners(&self, p: u32) -> &[Corner] {
        &self.corners[self.poly_off[p as usize] as usize..self.poly_off[p as usize + 1] as usize]
    }

    /// For each edge `i` of polygon `p` with a neighbour, that edge's index in the neighbour's
    /// own numbering (`u16::MAX` for obstacle sides).
    #[inline]
    pub fn poly_twins(&self, p: u32) -> &[u16] {
        &self.poly_twin[self.poly_off[p as usize] as usize..self.poly_off[p as usize + 1] as usize]
    }

    /// Whether every coordinate is an integer of magnitude at most [`INTEGER_LIMIT`], so that
    /// orientation tests among vertices and integer points are exact in plain `f64`.
    #[inline]
    pub fn is_integer(&self) -> bool {
        self.integer
    }

    /// The bounding box `(min, max)` of the polygons.
    #[inline]
    pub fn bounds(&self) -> (MeshPoint, MeshPoint) {
        (self.min, self.max)
    }

    /// Total area of the polygons.
    pub fn area(&self) -> f64 {
        (0..self.polygon_count() as u32)
            .map(|p| polygon_area(&self.points, self.poly_vertices(p)))
            .sum()
    }

    /// Where `p` lies on the mesh.
    pub fn locate(&self, p: MeshPoint) -> Location {
        if !(p.x.is_finite() && p.y.is_finite())
            || p.x < self.min.x
            || p.y < self.min.y
            || p.x > self.max.x
            || p.y > self.max.y
        {
            return Location::OffMesh;
        }
        // Exact either way: plain `f64` when every coordinate is a small integer (grid meshes
        // and lattice points, which often lie on an edge's line, where the adaptive predicate
        // takes its slow path), the adaptive predicate otherwise.
        let sign = if self.integer && is_small_integer(p.x) && is_small_integer(p.y) {
            orient_sign_integer
        } else {
            orient_sign
        };
        for &q in self.locator.candidates(p) {
            let vs = self.poly_vertices(q);
            let n = vs.len();
            let mut zero_edge = None;
            let mut inside = true;
            for i in 0..n {
                let a = self.points[vs[i] as usize];
                let b = self.points[vs[(i + 1) % n] as usize];
                match sign(a, b, p) {
                    s if s < 0 => {
                        inside = false;
                        break;
                    }
                    // On the line through the edge. With straight vertices (a side made of
                    // several collinear edges, as in merged meshes) the point is on the line
                    // of each of them but on the segment of only one.
                    0 if zero_edge.is_none() && on_segment(a, b, p) => zero_edge = Some(i),
                    _ => {}
                }
            }
            if !inside {
                continue;
            }
            if let Some(&v) = vs.iter().find(|&&v| self.points[v as usize] == p) {
                return Location::Vertex(v);
            }
            return match zero_edge {
                None => Location::Interior(q),
                Some(i) => {
                    let across = self.poly_adjacent(q)[i];
                    Location::Edge {
                        poly: q,
                        edge: i as u16,
                        across: (across != NO_POLY).then_some(across as u32),
                    }
                }
            };
        }
        Location::OffMesh
    }

    /// The polygons a path may leave `p` through (or arrive at `p` through), written into
    /// `out`: the polygon containing it, both polygons of an edge it lies on, or the polygons
    /// around a vertex, restricted by `ambiguity` when obstacles separate them.
    ///
    /// Returns false when `p` is off the mesh, or an ambiguous vertex that `ambiguity`
    /// refuses; `out` is then empty.
    pub fn endpoint_polygons(
        &self,
        loc: Location,
        ambiguity: Ambiguity,
        out: &mut SmallVec<[u32; 8]>,
    ) -> bool {
        out.clear();
        match loc {
            Location::OffMesh => return false,
            Location::Interior(q) => out.push(q),
            Location::Edge { poly, across, .. } => {
                out.push(poly);
                out.extend(across);
            }
            Location::Vertex(v) => {
                let around = self.vertex_polygons(v);
                if !self.is_ambiguous(v) {
                    out.extend(around.iter().filter(|&&q| q != NO_POLY).map(|&q| q as u32));
                } else {
                    let Ambiguity::Towards(dx, dy) = ambiguity else {
                        return false;
                    };
                    let Some(first) = self.polygon_towards(v, dx, dy) else {
                        return false;
                    };
                    // The whole group (run between gaps) containing `first`.
                    let n = around.len();
                    let at = around.iter().position(|&q| q == first as i32).unwrap_or(0);
                    out.push(first);
                    for step in [1usize, n - 1] {
                        let mut i = (at + step) % n;
                        while around[i] != NO_POLY && i != at {
                            if !out.contains(&(around[i] as u32)) {
                                out.push(around[i] as u32);
                            }
                            i = (i + step) % n;
                        }
                    }
                }
            }
        }
        !out.is_empty()
    }

    /// The polygon around vertex `v` whose corner at `v` contains the direction `(dx, dy)`.
    fn polygon_towards(&self, v: u32, dx: f64, dy: f64) -> Option<u32> {
        let c = self.points[v as usize];
        let d = MeshPoint::new(c.x + dx, c.y + dy);
        // No direction (zero, or lost in rounding) or no number: every corner would "contain"
        // it, as every orientation against `d` is zero.
        if d == c || !(d.x.is_finite() && d.y.is_finite()) {
            return None;
        }
        self.vertex_polygons(v)
            .iter()
            .filter(|&&q| q != NO_POLY)
            .map(|&q| q as u32)
            .find(|&q| {
                let vs = self.poly_vertices(q);
                let n = vs.len();
                let Some(i) = vs.iter().position(|&w| w == v) else {
                    return false;
                };
                let prev = self.points[vs[(i + n - 1) % n] as usize];
                let next = self.points[vs[(i + 1) % n] as usize];
                orient_sign(prev, c, d) >= 0 && orient_sign(c, next, d) >= 0
            })
    }
}

/// Which polygons a query point on an *ambiguous* vertex (obstacles touching there) belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Ambiguity {
    /// Refuse the point ([`crate::MeshQueryError::Ambiguous`]). The reference Polyanya reports
    /// no path for such points.
    #[default]
    Refuse,
    /// The group of polygons containing the direction `(dx, dy)` from the vertex. Grid maps
    /// use `(1, 1)`: a lattice point belongs to the cell whose top-left corner it is. A
    /// direction into an obstacle, a zero direction (or one too small to move the vertex)
    /// and a non-finite one select nothing, and the point is refused.
    Towards(f64, f64),
}

/// `Towards` holds `f64`s, but a direction that is not a real number is refused where it is
/// used ([`Mesh::endpoint_polygons`]), so equality is an equivalence on the values that matter
/// and search options holding it (`taut_polyanya::Options`) can be compared.
impl Eq for Ambiguity {}

/// Where a point lies on a mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// Outside every polygon (off the mesh or inside an obstacle).
    OffMesh,
    /// Strictly inside this polygon.
    Interior(u32),
    /// On edge `edge` of polygon `poly` (not at a vertex), with the polygon across if any.
    Edge {
        /// A polygon containing the point.
        poly: u32,
        /// The edge of `poly` the point lies on.
        edge: u16,
        /// The polygon on the other side, if the edge is not an obstacle side.
        across: Option<u32>,
    },
    /// Exactly on this vertex.
    Vertex(u32),
}

/// Whether `p`, known to lie on the line through `a` and `b`, lies on the closed segment
/// between them (exact: coordinates are only compared).
fn on_segment(a: MeshPoint, b: MeshPoint, p: MeshPoint) -> bool {
    a.x.min(b.x) <= p.x && p.x <= a.x.max(b.x) && a.y.min(b.y) <= p.y && p.y <= a.y.max(b.y)
}

/// Whether `c` is an integer of magnitude at most [`INTEGER_LIMIT`] (exact orientation tests
/// in plain `f64`).
pub fn is_small_integer(c: f64) -> bool {
    c.fract() == 0.0 && c.abs() <= INTEGER_LIMIT
}

/// The signed area of a polygon (positive when counter-clockwise).
pub(crate) fn polygon_area(points: &[MeshPoint], vs: &[u32]) -> f64 {
    let n = vs.len();
    let mut s = 0.0;
    for i in 0..n {
        let a = points[vs[i] as usize];
        let b = points[vs[(i + 1) % n] as usize];
        s += a.x * b.y - b.x * a.y;
    }
    s / 2.0
}

/// Checks one polygon's shape: no vertex twice, no two vertices at one point, convex and
/// counter-clockwise (its indices are in range).
fn check_shape(points: &[MeshPoint], p: usize, vertices: &[u32]) -> Result<(), MeshError> {
    let mut sorted: SmallVec<[u32; 16]> = vertices.iter().copied().collect();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(MeshError::Degenerate {
            polygon: p,
            reason: "a vertex appears twice",
        });
    }
    let mut at: SmallVec<[MeshPoint; 16]> = vertices.iter().map(|&v| points[v as usize]).collect();
    at.sort_unstable_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    if at.windows(2).any(|w| w[0] == w[1]) {
        return Err(MeshError::Degenerate {
            polygon: p,
            reason: "two of its vertices are at the same point",
        });
    }
    check_convex(points, p, vertices)
}

fn check_convex(points: &[MeshPoint], p: usize, vs: &[u32]) -> Result<(), MeshError> {
    let n = vs.len();
    if polygon_area(points, vs) <= 0.0 {
        return Err(MeshError::NotConvex {
            polygon: p,
            vertex: vs[0],
        });
    }
    for i in 0..n {
        let a = points[vs[(i + n - 1) % n] as usize];
        let b = points[vs[i] as usize];
        let c = points[vs[(i + 1) % n] as usize];
        let o = orient(a, b, c);
        if o < 0.0 {
            let scale = a.dist(b) * b.dist(c);
            if o < -CONVEXITY_TOLERANCE * scale {
                return Err(MeshError::NotConvex {
                    polygon: p,
                    vertex: vs[i],
                });
            }
        }
    }
    // A convex polygon winds once: the edge directions turn through 2π in total. Checking the
    // local turns is not enough for a star-shaped "pentagram", so count the turns of the
    // direction angle.
    let mut total = 0.0;
    for i in 0..n {
        let a = points[vs[(i + n - 1) % n] as usize];
        let b = points[vs[i] as usize];
        let c = points[vs[(i + 1) % n] as usize];
        // The turn from one edge to the next, in (-π, π]: one atan2 of the cross and dot
        // products (a reversal counts as +π, as the difference of the two directions would).
        let (ux, uy, vx, vy) = (b.x - a.x, b.y - a.y, c.x - b.x, c.y - b.y);
        let (cross, dot) = (ux * vy - uy * vx, ux * vx + uy * vy);
        total += if cross == 0.0 && dot < 0.0 {
            std::f64::consts::PI
        } else {
            cross.atan2(dot)
        };
    }
    if (total - 2.0 * std::f64::consts::PI).abs() > 1e-6 {
        return Err(MeshError::NotConvex {
            polygon: p,
            vertex: vs[0],
        });
    }
    Ok(())
}

/// The counter-clockwise polygon list of every vertex, with a gap (-1) wherever an obstacle
/// separates consecutive polygons. Groups of a vertex with several gaps are ordered by angle.
fn derive_vertex_polygons(
    points: &[MeshPoint],
    poly_off: &[u32],
    poly_verts: &[u32],
    poly_adj: &[i32],
) -> (Vec<u32>, Vec<i32>) {
    let nv = points.len();
    // For each (vertex, polygon): the next polygon counter-clockwise around the vertex (across
    // the polygon's edge arriving at the vertex) and the previous one (across the leaving edge).
    // Flat, grouped by vertex (counting sort): one allocation, not one per vertex.
    let mut start = vec![0u32; nv + 1];
    for &v in poly_verts {
        start[v as usize + 1] += 1;
    }
    for v in 0..nv {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut around = vec![(0u32, NO_POLY, NO_POLY); poly_verts.len()];
    for p in 0..poly_off.len() - 1 {
        let (s, e) = (poly_off[p] as usize, poly_off[p + 1] as usize);
        let n = e - s;
        for i in 0..n {
            let v = poly_verts[s + i] as usize;
            let next_ccw = poly_adj[s + (i + n - 1) % n];
            let prev_ccw = poly_adj[s + i];
            around[fill[v] as usize] = (p as u32, next_ccw, prev_ccw);
            fill[v] += 1;
        }
    }
    let mut off = Vec::with_capacity(nv + 1);
    let mut flat = Vec::with_capacity(poly_verts.len() + nv);
    off.push(0u32);
    let mut scratch = ListScratch::default();
    for v in 0..nv {
        let entries = &around[start[v] as usize..start[v + 1] as usize];
        vertex_list(
            points,
            poly_off,
            poly_verts,
            v,
            entries,
            &mut scratch,
            &mut flat,
        );
        off.push(flat.len() as u32);
    }
    (off, flat)
}

/// Reusable buffers of [`vertex_list`].
#[derive(Default)]
struct ListScratch {
    starts: Vec<(u32, i32, i32)>,
    groups: Vec<(f64, usize, usize)>,
    chain: Vec<i32>,
}

/// Appends to `flat` the counter-clockwise polygon list of vertex `v`, from `entries`: for
/// each polygon holding `v`, in increasing order of polygon, (polygon, the polygon across its
/// edge arriving at `v`, the polygon across its edge leaving `v`).
fn vertex_list(
    points: &[MeshPoint],
    poly_off: &[u32],
    poly_verts: &[u32],
    v: usize,
    entries: &[(u32, i32, i32)],
    scratch: &mut ListScratch,
    flat: &mut Vec<i32>,
) {
    if entries.is_empty() {
        return;
    }
    // Entries are in order of polygon, so finding a neighbour is a binary search. A linear
    // scan made a vertex in k polygons cost k^2: a fan of 60,000 triangles around one vertex
    // took 18 s to check.
    let find = |q: i32| {
        u32::try_from(q)
            .ok()
            .and_then(|q| entries.binary_search_by_key(&q, |e| e.0).ok())
            .map(|i| &entries[i])
    };
    let ListScratch {
        starts,
        groups,
        chain,
    } = scratch;
    starts.clear();
    starts.extend(
        entries
            .iter()
            .filter(|e| e.2 == NO_POLY || find(e.2).is_none())
            .copied(),
    );
    if starts.is_empty() {
        // One full cycle, no gap.
        let first = flat.len();
        let mut cur = entries[0];
        loop {
            flat.push(cur.0 as i32);
            match find(cur.1) {
                Some(&n) if n.0 != entries[0].0 && flat.len() - first <= entries.len() => cur = n,
                _ => break,
            }
        }
        return;
    }
    let c = points[v];
    groups.clear();
    chain.clear();
    for &start in starts.iter() {
        let first = chain.len();
        let mut cur = start;
        loop {
            chain.push(cur.0 as i32);
            match find(cur.1) {
                Some(&n) if chain.len() - first <= entries.len() => cur = n,
                _ => break,
            }
        }
        // Angle of the group's first polygon's leaving edge, to order groups.
        let vs = &poly_verts
            [poly_off[start.0 as usize] as usize..poly_off[start.0 as usize + 1] as usize];
        let i = vs.iter().position(|&w| w as usize == v).unwrap_or(0);
        let next = points[vs[(i + 1) % vs.len()] as usize];
        groups.push(((next.y - c.y).atan2(next.x - c.x), first, chain.len()));
    }
    if groups.len() > 1 {
        groups.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    for &(_, a, b) in groups.iter() {
        flat.extend_from_slice(&chain[a..b]);
        flat.push(NO_POLY);
    }
}

/// Whether two vertex lists name the same polygons and the same number of obstacle gaps.
/// The order is not compared: files in the wild (the reference test meshes among them) list
/// some vertices' polygons clockwise, and the search uses the order derived from the polygons.
fn same_polygons_and_gaps(a: &[i32], b: &[i32]) -> bool {
    let polys = |l: &[i32]| {
        let mut v: Vec<i32> = l.iter().copied().filter(|&q| q != NO_POLY).collect();
        v.sort_unstable();
        v
    };
    polys(a) == polys(b) && gap_count(a) == gap_count(b)
}

fn gap_count(l: &[i32]) -> usize {
    let n = l.len();
    (0..n)
        .filter(|&i| l[i] == NO_POLY && l[(i + 1) % n] != NO_POLY)
        .count()
        .max(usize::from(l.iter().all(|&q| q == NO_POLY) && n > 0))
}

/// A uniform bucket grid over the mesh's bounding box: each bucket lists the polygons whose
/// bounding boxes meet it, so locating a point tests a handful of polygons.
#[derive(Debug, Clone, PartialEq)]
struct Locator {
    origin: MeshPoint,
    cell: f64,
    cols: usize,
    rows: usize,
    off: Vec<u32>,
    polys: Vec<u32>,
}

impl Locator {
    fn build(
        points: &[MeshPoint],
        poly_off: &[u32],
        poly_verts: &[u32],
        min: MeshPoint,
        max: MeshPoint,
    ) -> Locator {
        let np = poly_off.len() - 1;
        let w = (max.x - min.x).max(1e-9);
        let h = (max.y - min.y).max(1e-9);
        let cell = ((w * h) / np.max(1) as f64).sqrt().max(1e-9);
        // Clamped as floats: a cast saturates, and one more than usize::MAX overflows (found
        // by the `mesh` fuzz target on a mesh spanning 1e50 one way and 1 the other).
        let cols = (w / cell).floor().clamp(0.0, 4095.0) as usize + 1;
        let rows = (h / cell).floor().clamp(0.0, 4095.0) as usize + 1;
        let bbox = |p: usize| {
            let vs = &poly_verts[poly_off[p] as usize..poly_off[p + 1] as usize];
            let mut lo = MeshPoint::new(f64::INFINITY, f64::INFINITY);
            let mut hi = MeshPoint::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
            for &v in vs {
                let q = points[v as usize];
                lo.x = lo.x.min(q.x);
                lo.y = lo.y.min(q.y);
                hi.x = hi.x.max(q.x);
                hi.y = hi.y.max(q.y);
            }
            (lo, hi)
        };
        let boxes: Vec<(MeshPoint, MeshPoint)> = (0..np).map(bbox).collect();
        // Polygons whose boxes cover many buckets (overlapping polygons, which validation does
        // not look for, or long thin slivers) would be listed in every one: 20,000 copies of
        // one triangle asked for 400 million entries. Coarsen the buckets until the lists
        // hold at most a few entries per polygon; a 1 x 1 grid lists each polygon once.
        let budget = 16 * np as u64 + 1024;
        let (mut cols, mut rows, mut cell) = (cols, rows, cell);
        let spans = loop {
            let index =
                |c: f64, o: f64, n: usize| (((c - o) / cell).floor().max(0.0) as usize).min(n - 1);
            let spans: Vec<(usize, usize, usize, usize)> = boxes
                .iter()
                .map(|&(lo, hi)| {
                    (
                        index(lo.x, min.x, cols),
                        index(hi.x, min.x, cols),
                        index(lo.y, min.y, rows),
                        index(hi.y, min.y, rows),
                    )
                })
                .collect();
            let entries: u64 = spans
                .iter()
                .map(|s| ((s.1 - s.0 + 1) * (s.3 - s.2 + 1)) as u64)
                .sum();
            if entries <= budget || (cols == 1 && rows == 1) {
                break spans;
            }
            // Twice the cell side: the same box, a quarter of the buckets.
            cell *= 2.0;
            cols = ((w / cell).floor().clamp(0.0, 4095.0) as usize + 1).min(cols.div_ceil(2));
            rows = ((h / cell).floor().clamp(0.0, 4095.0) as usize + 1).min(rows.div_ceil(2));
        };
        let mut counts = vec![0u32; cols * rows + 1];
        for span in &spans {
            for r in span.2..=span.3 {
                for c in span.0..=span.1 {
                    counts[r * cols + c + 1] += 1;
                }
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut fill = counts.clone();
        let mut polys = vec![0u32; counts[cols * rows] as usize];
        for (p, span) in spans.into_iter().enumerate() {
            for r in span.2..=span.3 {
                for c in span.0..=span.1 {
                    let slot = &mut fill[r * cols + c];
                    polys[*slot as usize] = p as u32;
                    *slot += 1;
                }
            }
        }
        Locator {
            origin: min,
            cell,
            cols,
            rows,
            off: counts,
            polys,
        }
    }

    fn candidates(&self, p: MeshPoint) -> &[u32] {
        let c = (((p.x - self.origin.x) / self.cell).floor().max(0.0) as usize).min(self.cols - 1);
        let r = (((p.y - self.origin.y) / self.cell).floor().max(0.0) as usize).min(self.rows - 1);
        let b = r * self.cols + c;
        &self.polys[self.off[b] as usize..self.off[b + 1] as usize]
    }
}

/// SHA-256 of a canonical encoding of `mesh`, identifying the mesh a CPD or a hub index belongs to:
/// the ASCII tag `taut-mesh-v1`, the vertex count (u64 LE), each vertex's x and y as `f64`
/// bit patterns (u64 LE), the polygon count (u64 LE), and for each polygon its vertex count
/// (u64 LE), its vertex indices (u32 LE) and, for each edge, the polygon across it (i32 LE,
/// −1 for none).
pub fn mesh_hash(mesh: &Mesh) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"taut-mesh-v1");
    h.update((mesh.vertex_count() as u64).to_le_bytes());
    for p in mesh.points() {
        h.update(p.x.to_bits().to_le_bytes());
        h.update(p.y.to_bits().to_le_bytes());
    }
    h.update((mesh.polygon_count() as u64).to_le_bytes());
    for p in 0..mesh.polygon_count() as u32 {
        let vs = mesh.poly_vertices(p);
        h.update((vs.len() as u64).to_le_bytes());
        for &v in vs {
            h.update(v.to_le_bytes());
        }
        for &a in mesh.poly_adjacent(p) {
            h.update(a.to_le_bytes());
        }
    }
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square [0,s]^2 split along its diagonal: with s = 1e300 the orientation of
    /// (0.9s, 0.3s) against the diagonal overflows (inf - inf) and the point was located on
    /// the diagonal, in polygon 0 and across in 1 alike. Such coordinates are refused.
    #[test]
    fn coordinates_whose_products_overflow_are_refused() {
        let p = MeshPoint::new;
        let square = |s: f64| {
            let points = vec![p(0.0, 0.0), p(s, 0.0), p(s, s), p(0.0, s)];
            Mesh::new(points, &[vec![0, 1, 2], vec![0, 2, 3]])
        };
        for s in [1e300, -1e300, 1.1e150, f64::MAX] {
            let points = vec![p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0), p(s, 0.0)];
            let r = Mesh::new(points, &[vec![0, 1, 2]]);
            assert!(matches!(r, Err(MeshError::NotFinite { .. })), "{s}: {r:?}");
        }
        let m = square(1e150).unwrap();
        assert_eq!(m.locate(p(0.9e150, 0.3e150)), Location::Interior(0));
        assert_eq!(m.locate(p(0.3e150, 0.9e150)), Location::Interior(1));
        assert!(matches!(
            square(1e300),
            Err(MeshError::NotFinite { vertex: 1 })
        ));
    }

    /// Two vertices at the same point make an edge of length zero, which passed every check
    /// (its turns are "straight", the winding is still one turn).
    #[test]
    fn a_polygon_with_two_vertices_at_one_point_is_degenerate() {
        let p = MeshPoint::new;
        let points = vec![p(0.0, 0.0), p(1.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)];
        let r = Mesh::new(points.clone(), &[vec![0, 1, 2, 3]]);
        assert!(
            matches!(r, Err(MeshError::Degenerate { polygon: 0, .. })),
            "{r:?}"
        );
        // Two vertices at one point in different polygons are not looked for (the mesh is not
        // checked for global planarity): their sides are two walls, back to back.
        let points = vec![
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(0.0, 1.0),
            p(1.0, 0.0),
            p(1.0, 1.0),
        ];
        assert!(Mesh::new(points, &[vec![0, 1, 2], vec![3, 4, 2]]).is_ok());
    }

    /// Two unit squares touching at the ambiguous vertex (1, 1): a direction selects the
    /// square it points into. A zero or non-finite direction selected the first group.
    #[test]
    fn an_ambiguous_vertex_needs_a_real_direction() {
        let p = MeshPoint::new;
        let points = vec![
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(1.0, 1.0),
            p(2.0, 1.0),
            p(2.0, 2.0),
            p(1.0, 2.0),
            p(0.0, 1.0),
        ];
        let m = Mesh::new(points, &[vec![0, 1, 2, 6], vec![2, 3, 4, 5]]).unwrap();
        assert!(m.is_ambiguous(2));
        let mut out = SmallVec::new();
        let mut towards = |dx: f64, dy: f64| {
            let ok = m.endpoint_polygons(Location::Vertex(2), Ambiguity::Towards(dx, dy), &mut out);
            ok.then(|| out.to_vec())
        };
        assert_eq!(towards(1.0, 1.0), Some(vec![1]));
        assert_eq!(towards(-1.0, -1.0), Some(vec![0]));
        assert_eq!(towards(1.0, -1.0), None);
        for (dx, dy) in [
            (0.0, 0.0),
            (1e-300, 0.0),
            (f64::NAN, 1.0),
            (1.0, f64::INFINITY),
            (f64::NEG_INFINITY, 0.0),
        ] {
            assert_eq!(towards(dx, dy), None, "({dx}, {dy})");
        }
    }

    /// A side made of two collinear edges: the rectangle [0,2]x[0,1] lists (1,1) on its top,
    /// under the squares [0,1]x[1,2] (polygon 1) and [1,2]x[1,2] (polygon 2). A point on the
    /// top side is on the line of both top edges but on the segment of one.
    #[test]
    fn a_point_on_a_side_with_a_straight_vertex_is_on_the_right_edge() {
        let p = MeshPoint::new;
        let points = vec![
            p(0.0, 0.0),
            p(2.0, 0.0),
            p(2.0, 1.0),
            p(1.0, 1.0),
            p(0.0, 1.0),
            p(2.0, 2.0),
            p(1.0, 2.0),
            p(0.0, 2.0),
        ];
        let polys = [vec![0, 1, 2, 3, 4], vec![4, 3, 6, 7], vec![3, 2, 5, 6]];
        let m = Mesh::new(points, &polys).unwrap();
        for (x, edge, across) in [(0.5, 3, 1), (1.5, 2, 2)] {
            let loc = m.locate(p(x, 1.0));
            let expected = [
                Location::Edge {
                    poly: 0,
                    edge,
                    across: Some(across),
                },
                Location::Edge {
                    poly: across,
                    edge: 0,
                    across: Some(0),
                },
            ];
            assert!(expected.contains(&loc), "({x}, 1): {loc:?}");
        }
    }
}
