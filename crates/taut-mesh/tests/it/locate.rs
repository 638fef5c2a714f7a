//! Point location, and the mesh model on random meshes, tested from outside.
//!
//! - Properties on random meshes (triangulated grids with obstacles, grids merged into rows
//!   of rectangles with straight vertices, fans and wheels of triangles), scaled and
//!   translated by integers or floats: they round-trip exactly, and `locate` agrees with a
//!   brute-force classification over all polygons, edges and vertices.
//! - Point location and `endpoint_polygons` on hand-made meshes and `bad-ambig.mesh` (shared
//!   data, skipped when absent): interior, edges between polygons and on the border, vertices
//!   with no gap, one gap (corners) and several (ambiguous).

use std::time::Instant;

use proptest::prelude::*;
use smallvec::SmallVec;
use taut_mesh::geom::orient_sign;
use taut_mesh::{
    Ambiguity, Location, Mesh, MeshPoint, NO_POLY, format_mesh, parse_mesh, read_mesh,
};

use crate::mesh_errors::SQUARE;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn pt(x: f64, y: f64) -> MeshPoint {
    MeshPoint::new(x, y)
}

/// The polygons around vertex `v`, without gaps, sorted.
fn polys_around(mesh: &Mesh, v: u32) -> Vec<u32> {
    let mut l: Vec<u32> = mesh
        .vertex_polygons(v)
        .iter()
        .filter(|&&q| q != NO_POLY)
        .map(|&q| q as u32)
        .collect();
    l.sort_unstable();
    l
}

fn endpoint(mesh: &Mesh, p: MeshPoint, ambiguity: Ambiguity) -> (bool, Vec<u32>) {
    let mut out = SmallVec::new();
    let ok = mesh.endpoint_polygons(mesh.locate(p), ambiguity, &mut out);
    let mut v = out.to_vec();
    v.sort_unstable();
    (ok, v)
}

// ---------------------------------------------------------------------------------------------
// Point location against brute force
// ---------------------------------------------------------------------------------------------

/// Whether `p`, known to be on the line through `a` and `b`, lies on the closed segment.
fn within(a: MeshPoint, b: MeshPoint, p: MeshPoint) -> bool {
    a.x.min(b.x) <= p.x && p.x <= a.x.max(b.x) && a.y.min(b.y) <= p.y && p.y <= a.y.max(b.y)
}

/// Where `p` is, by testing every polygon: a vertex (of some polygon) it equals, or the
/// polygons whose closed area holds it, each with the edge it lies on (None: strictly
/// inside).
#[derive(Debug, PartialEq)]
enum Brute {
    Vertex(u32),
    In(Vec<(u32, Option<usize>)>),
}

fn brute(mesh: &Mesh, p: MeshPoint) -> Brute {
    for q in 0..mesh.polygon_count() as u32 {
        if let Some(&v) = mesh.poly_vertices(q).iter().find(|&&v| mesh.point(v) == p) {
            return Brute::Vertex(v);
        }
    }
    let mut inside = Vec::new();
    'polys: for q in 0..mesh.polygon_count() as u32 {
        let vs = mesh.poly_vertices(q);
        let n = vs.len();
        let mut on = Vec::new();
        for i in 0..n {
            let (a, b) = (mesh.point(vs[i]), mesh.point(vs[(i + 1) % n]));
            match orient_sign(a, b, p) {
                -1 => continue 'polys,
                0 if within(a, b, p) => on.push(i),
                _ => {}
            }
        }
        assert!(on.len() <= 1, "{p:?} on edges {on:?} of polygon {q}");
        inside.push((q, on.first().copied()));
    }
    Brute::In(inside)
}

/// Checks `locate(p)` and `endpoint_polygons` against [`brute`]; returns the location.
fn check_location(mesh: &Mesh, p: MeshPoint) -> Location {
    let loc = mesh.locate(p);
    let expected = brute(mesh, p);
    let mut out = SmallVec::new();
    let ok = mesh.endpoint_polygons(loc, Ambiguity::Refuse, &mut out);
    let mut got: Vec<u32> = out.to_vec();
    got.sort_unstable();
    match (loc, &expected) {
        (Location::Vertex(v), Brute::Vertex(w)) => {
            assert_eq!(v, *w, "{p:?}");
            if mesh.is_ambiguous(v) {
                assert!(!ok && got.is_empty(), "{p:?}: refused");
            } else {
                assert!(ok, "{p:?}");
                assert_eq!(got, polys_around(mesh, v), "{p:?}");
            }
            check_towards(mesh, v);
        }
        (Location::Interior(q), Brute::In(inside)) => {
            assert_eq!(inside, &[(q, None)], "{p:?}: {loc:?}");
            assert!(ok && got == [q], "{p:?}");
        }
        (Location::Edge { poly, edge, across }, Brute::In(inside)) => {
            let edge = usize::from(edge);
            assert!(
                inside.contains(&(poly, Some(edge))),
                "{p:?}: {loc:?}, {inside:?}"
            );
            let adj = mesh.poly_adjacent(poly)[edge];
            assert_eq!(
                across,
                (adj != NO_POLY).then_some(adj as u32),
                "{p:?}: {loc:?}"
            );
            let mut expected: Vec<u32> = inside.iter().map(|e| e.0).collect();
            expected.sort_unstable();
            let mut both: Vec<u32> = [poly].into_iter().chain(across).collect();
            both.sort_unstable();
            assert_eq!(expected, both, "{p:?}: {loc:?}, {inside:?}");
            assert!(inside.iter().all(|e| e.1.is_some()), "{p:?}: {inside:?}");
            assert!(ok && got == both, "{p:?}");
        }
        (Location::OffMesh, Brute::In(inside)) => {
            assert!(inside.is_empty(), "{p:?}: {inside:?}");
            assert!(!ok && got.is_empty());
        }
        _ => panic!("{p:?}: located {loc:?}, brute force says {expected:?}"),
    }
    loc
}

/// On vertex `v`, `Ambiguity::Towards(d)` gives the whole group of polygons (a run between
/// gaps of the vertex's list) whose corner at `v` contains the direction `d`, or nothing
/// when `d` points into an obstacle; on a vertex that is not ambiguous, every polygon.
fn check_towards(mesh: &Mesh, v: u32) {
    let c = mesh.point(v);
    let list = mesh.vertex_polygons(v);
    // Directions: along and between the edges leaving v, and the diagonals.
    let mut dirs: Vec<(f64, f64)> = vec![(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
    for &q in list.iter().filter(|&&q| q != NO_POLY) {
        let vs = mesh.poly_vertices(q as u32);
        let i = vs.iter().position(|&w| w == v).unwrap();
        let next = mesh.point(vs[(i + 1) % vs.len()]);
        let prev = mesh.point(vs[(i + vs.len() - 1) % vs.len()]);
        dirs.push((next.x - c.x, next.y - c.y));
        dirs.push(((next.x + prev.x) / 2.0 - c.x, (next.y + prev.y) / 2.0 - c.y));
    }
    for (dx, dy) in dirs {
        let mut out = SmallVec::new();
        let ok = mesh.endpoint_polygons(Location::Vertex(v), Ambiguity::Towards(dx, dy), &mut out);
        let mut got: Vec<u32> = out.to_vec();
        got.sort_unstable();
        if !mesh.is_ambiguous(v) {
            assert!(ok && got == polys_around(mesh, v), "vertex {v}");
            continue;
        }
        let d = pt(c.x + dx, c.y + dy);
        let holds = |q: u32| {
            let vs = mesh.poly_vertices(q);
            let i = vs.iter().position(|&w| w == v).unwrap();
            let next = mesh.point(vs[(i + 1) % vs.len()]);
            let prev = mesh.point(vs[(i + vs.len() - 1) % vs.len()]);
            orient_sign(prev, c, d) >= 0 && orient_sign(c, next, d) >= 0
        };
        // The runs of the list between gaps.
        let n = list.len();
        let start = list.iter().position(|&q| q == NO_POLY).unwrap();
        let mut groups: Vec<Vec<u32>> = Vec::new();
        for k in 1..=n {
            match list[(start + k) % n] {
                NO_POLY => {}
                q if list[(start + k - 1) % n] == NO_POLY => groups.push(vec![q as u32]),
                q => groups.last_mut().unwrap().push(q as u32),
            }
        }
        let matching: Vec<Vec<u32>> = groups
            .into_iter()
            .filter(|g| g.iter().any(|&q| holds(q)))
            .map(|mut g| {
                g.sort_unstable();
                g
            })
            .collect();
        match matching.as_slice() {
            [] => assert!(!ok && got.is_empty(), "vertex {v} towards ({dx}, {dy})"),
            [g] => assert!(ok && got == *g, "vertex {v} towards ({dx}, {dy}): {got:?}"),
            // A direction along an obstacle side between two groups: either.
            gs => assert!(ok && gs.contains(&got), "vertex {v} towards ({dx}, {dy})"),
        }
    }
}

/// The points to locate on a mesh: every vertex, points on every edge, a point inside every
/// polygon, and `extra` points given as fractions of the bounding box (so some are outside).
fn probe_points(mesh: &Mesh, extra: &[(f64, f64)]) -> Vec<MeshPoint> {
    let mut ps: Vec<MeshPoint> = mesh.points().to_vec();
    for q in 0..mesh.polygon_count() as u32 {
        let vs = mesh.poly_vertices(q);
        let n = vs.len();
        let (mut sx, mut sy) = (0.0, 0.0);
        for i in 0..n {
            let (a, b) = (mesh.point(vs[i]), mesh.point(vs[(i + 1) % n]));
            for t in [0.5, 0.25] {
                ps.push(pt(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t));
            }
            sx += a.x;
            sy += a.y;
        }
        ps.push(pt(sx / n as f64, sy / n as f64));
    }
    let (lo, hi) = mesh.bounds();
    for &(u, v) in extra {
        ps.push(pt(lo.x + (hi.x - lo.x) * u, lo.y + (hi.y - lo.y) * v));
    }
    ps
}

/// Lattice point (x, y) mapped into the plane: `o + s * (x, y)`, with positive scales (so
/// counter-clockwise stays counter-clockwise).
#[derive(Debug, Clone, Copy)]
struct Affine {
    ox: f64,
    oy: f64,
    sx: f64,
    sy: f64,
}

impl Affine {
    fn at(&self, x: i32, y: i32) -> MeshPoint {
        pt(
            self.ox + self.sx * f64::from(x),
            self.oy + self.sy * f64::from(y),
        )
    }
}

fn affine() -> impl Strategy<Value = Affine> {
    prop_oneof![
        Just(Affine {
            ox: 0.0,
            oy: 0.0,
            sx: 1.0,
            sy: 1.0
        }),
        (-1000..1000i32, -1000..1000i32, 1..20i32, 1..20i32).prop_map(|(ox, oy, sx, sy)| {
            Affine {
                ox: f64::from(ox),
                oy: f64::from(oy),
                sx: f64::from(sx),
                sy: f64::from(sy),
            }
        }),
        (-1e3..1e3f64, -1e3..1e3f64, 0.01..100.0f64, 0.01..100.0f64)
            .prop_map(|(ox, oy, sx, sy)| Affine { ox, oy, sx, sy }),
    ]
}

/// A `w` x `h` grid (cells listed row by row) mapped by `f`: cell kind 0 is an obstacle, 1
/// and 2 split the square along one diagonal or the other, 3 keeps it whole.
fn grid_mesh(w: i32, h: i32, kinds: &[u8], f: Affine) -> (Vec<MeshPoint>, Vec<Vec<u32>>) {
    let id = |x: i32, y: i32| (y * (w + 1) + x) as u32;
    let points = (0..=h)
        .flat_map(|y| (0..=w).map(move |x| (x, y)))
        .map(|(x, y)| f.at(x, y))
        .collect();
    let mut polys = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let (a, b, c, d) = (id(x, y), id(x + 1, y), id(x + 1, y + 1), id(x, y + 1));
            match kinds[(y * w + x) as usize] {
                0 => {}
                1 => polys.extend([vec![a, b, c], vec![a, c, d]]),
                2 => polys.extend([vec![a, b, d], vec![b, c, d]]),
                _ => polys.push(vec![a, b, c, d]),
            }
        }
    }
    (points, polys)
}

/// Rows of free cells merged into rectangles (a new one starts where `cut` says), each
/// listing every lattice point of its long sides: polygons with straight vertices, and
/// T-junctions between rows.
fn rows_mesh(
    w: i32,
    h: i32,
    free: &[bool],
    cut: &[bool],
    f: Affine,
) -> (Vec<MeshPoint>, Vec<Vec<u32>>) {
    let id = |x: i32, y: i32| (y * (w + 1) + x) as u32;
    let points = (0..=h)
        .flat_map(|y| (0..=w).map(move |x| (x, y)))
        .map(|(x, y)| f.at(x, y))
        .collect();
    let mut polys = Vec::new();
    for y in 0..h {
        let mut x = 0;
        while x < w {
            if !free[(y * w + x) as usize] {
                x += 1;
                continue;
            }
            let x0 = x;
            x += 1;
            while x < w && free[(y * w + x) as usize] && !cut[(y * w + x) as usize] {
                x += 1;
            }
            let mut p: Vec<u32> = (x0..=x).map(|i| id(i, y)).collect();
            p.extend((x0..=x).rev().map(|i| id(i, y + 1)));
            polys.push(p);
        }
    }
    (points, polys)
}

/// Triangles on `k` points of a circle (angles in whole degrees, increasing): a fan from the
/// first point (a triangulated convex polygon), or a wheel around the centre (vertex 0) with
/// the triangles `keep` says (an angle of 180 degrees or more is never a triangle).
fn circle_mesh(
    degrees: &[u16],
    centre: (f64, f64),
    r: f64,
    wheel: bool,
    keep: &[bool],
) -> (Vec<MeshPoint>, Vec<Vec<u32>>) {
    let mut points = vec![pt(centre.0, centre.1)];
    for &d in degrees {
        let t = f64::from(d).to_radians();
        points.push(pt(centre.0 + r * t.cos(), centre.1 + r * t.sin()));
    }
    let k = degrees.len() as u32;
    let mut polys = Vec::new();
    if wheel {
        for i in 0..k {
            let j = (i + 1) % k;
            let gap = (i32::from(degrees[j as usize]) - i32::from(degrees[i as usize]) + 360) % 360;
            if (1..180).contains(&gap) && keep[i as usize] {
                polys.push(vec![0, i + 1, j + 1]);
            }
        }
    } else {
        for i in 2..k {
            polys.push(vec![1, i, i + 1]);
        }
    }
    (points, polys)
}

/// A random mesh: its points and counter-clockwise polygons (at least one).
fn random_mesh() -> impl Strategy<Value = (Vec<MeshPoint>, Vec<Vec<u32>>)> {
    let grid = (1..=6i32, 1..=6i32, affine()).prop_flat_map(|(w, h, f)| {
        proptest::collection::vec(
            prop_oneof![1 => Just(0u8), 2 => Just(1), 2 => Just(2), 1 => Just(3)],
            (w * h) as usize,
        )
        .prop_map(move |mut kinds| {
            if kinds.iter().all(|&k| k == 0) {
                kinds[0] = 1;
            }
            grid_mesh(w, h, &kinds, f)
        })
    });
    let rows = (1..=6i32, 1..=5i32, affine()).prop_flat_map(|(w, h, f)| {
        let n = (w * h) as usize;
        (
            proptest::collection::vec(proptest::bool::weighted(0.8), n),
            proptest::collection::vec(proptest::bool::weighted(0.3), n),
        )
            .prop_map(move |(mut free, cut)| {
                free[0] = true;
                rows_mesh(w, h, &free, &cut, f)
            })
    });
    let circle = (
        proptest::collection::btree_set(0..360u16, 3..=12),
        (-1e3..1e3f64, -1e3..1e3f64),
        1.0..1e3f64,
        any::<bool>(),
        proptest::collection::vec(proptest::bool::weighted(0.7), 12),
    )
        .prop_map(|(degrees, centre, r, wheel, mut keep)| {
            let degrees: Vec<u16> = degrees.into_iter().collect();
            let (mut points, mut polys) = circle_mesh(&degrees, centre, r, wheel, &keep);
            if polys.is_empty() {
                // Only angles of 180 degrees or more, or nothing kept: use a fan.
                keep.fill(true);
                (points, polys) = circle_mesh(&degrees, centre, r, false, &keep);
            }
            (points, polys)
        });
    prop_oneof![grid, rows, circle]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_meshes_round_trip_exactly((points, polys) in random_mesh()) {
        let m = Mesh::new(points, &polys).unwrap();
        let text = format_mesh(&m);
        let back = parse_mesh(&text).unwrap();
        prop_assert_eq!(&back, &m);
        prop_assert_eq!(format_mesh(&back), text.clone());
        // The same file with every vertex list written clockwise (as some reference files
        // have them) reads as the same mesh.
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        for line in &mut lines[3..3 + m.vertex_count()] {
            let t: Vec<&str> = line.split(' ').collect();
            let mut l: Vec<&str> = t[3..].to_vec();
            l.reverse();
            *line = [&t[..3], &l[..]].concat().join(" ");
        }
        prop_assert_eq!(parse_mesh(&lines.join("\n")).unwrap(), m);
    }

    #[test]
    fn locate_agrees_with_brute_force(
        (points, polys) in random_mesh(),
        extra in proptest::collection::vec((-0.1..1.1f64, -0.1..1.1f64), 20),
    ) {
        let m = Mesh::new(points, &polys).unwrap();
        for p in probe_points(&m, &extra) {
            check_location(&m, p);
        }
        // Vertices (of polygons) are found as vertices, edge midpoints of integer meshes as
        // edges.
        for q in 0..m.polygon_count() as u32 {
            let vs = m.poly_vertices(q);
            for (i, &v) in vs.iter().enumerate() {
                prop_assert_eq!(m.locate(m.point(v)), Location::Vertex(v));
                let (a, b) = (m.point(v), m.point(vs[(i + 1) % vs.len()]));
                let mid = pt((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
                if m.is_integer() {
                    let loc = m.locate(mid);
                    prop_assert!(matches!(loc, Location::Edge { .. }), "{:?}: {:?}", mid, loc);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Point location and endpoint polygons on hand-made meshes
// ---------------------------------------------------------------------------------------------

#[test]
fn points_inside_on_edges_and_off_the_square() {
    let m = parse_mesh(SQUARE).unwrap();
    let at = |x, y| check_location(&m, pt(x, y));
    assert_eq!(at(0.75, 0.25), Location::Interior(0));
    assert_eq!(at(0.25, 0.75), Location::Interior(1));
    // On the diagonal, shared by both triangles.
    match at(0.5, 0.5) {
        Location::Edge {
            poly: 0,
            edge: 2,
            across: Some(1),
        }
        | Location::Edge {
            poly: 1,
            edge: 0,
            across: Some(0),
        } => {}
        loc => panic!("{loc:?}"),
    }
    // On the border: one polygon, nothing across.
    assert_eq!(
        at(0.5, 0.0),
        Location::Edge {
            poly: 0,
            edge: 0,
            across: None
        }
    );
    assert_eq!(
        at(0.0, 0.3),
        Location::Edge {
            poly: 1,
            edge: 2,
            across: None
        }
    );
    // Vertices: (0,0) and (1,1) are in both triangles, (1,0) and (0,1) in one. Each is a
    // corner (the outside is a gap) but none is ambiguous.
    assert_eq!(at(0.0, 0.0), Location::Vertex(0));
    assert_eq!(at(1.0, 0.0), Location::Vertex(1));
    assert!(m.is_corner(0) && !m.is_ambiguous(0));
    assert_eq!(
        endpoint(&m, pt(0.0, 0.0), Ambiguity::Refuse),
        (true, vec![0, 1])
    );
    assert_eq!(
        endpoint(&m, pt(1.0, 1.0), Ambiguity::Refuse),
        (true, vec![0, 1])
    );
    assert_eq!(
        endpoint(&m, pt(1.0, 0.0), Ambiguity::Refuse),
        (true, vec![0])
    );
    assert_eq!(
        endpoint(&m, pt(0.0, 1.0), Ambiguity::Towards(1.0, 1.0)),
        (true, vec![1])
    );
    // Off the mesh, including points that are not finite.
    for (x, y) in [
        (2.0, 0.5),
        (-1e-300, 0.5),
        (0.5, 1.0 + 1e-15),
        (f64::NAN, 0.5),
        (0.5, f64::INFINITY),
        (f64::NEG_INFINITY, f64::NEG_INFINITY),
    ] {
        assert_eq!(m.locate(pt(x, y)), Location::OffMesh, "({x}, {y})");
        assert_eq!(endpoint(&m, pt(x, y), Ambiguity::Refuse), (false, vec![]));
    }
    // Very close to the diagonal on either side: exact predicates decide.
    let e = 2f64.powi(-52);
    assert_eq!(at(0.5 + e, 0.5), Location::Interior(0));
    assert_eq!(at(0.5, 0.5 + e), Location::Interior(1));
}

#[test]
fn a_vertex_inside_the_mesh_belongs_to_every_polygon_around_it() {
    // The square [0,2]^2 as four triangles around its centre (vertex 4).
    let points = vec![
        pt(0.0, 0.0),
        pt(2.0, 0.0),
        pt(2.0, 2.0),
        pt(0.0, 2.0),
        pt(1.0, 1.0),
    ];
    let m = Mesh::new(
        points,
        &[vec![0, 1, 4], vec![1, 2, 4], vec![2, 3, 4], vec![3, 0, 4]],
    )
    .unwrap();
    assert!(!m.is_corner(4) && !m.is_ambiguous(4));
    assert_eq!(m.vertex_polygons(4).len(), 4);
    assert!(!m.vertex_polygons(4).contains(&NO_POLY));
    assert_eq!(check_location(&m, pt(1.0, 1.0)), Location::Vertex(4));
    for a in [Ambiguity::Refuse, Ambiguity::Towards(1.0, 1.0)] {
        assert_eq!(endpoint(&m, pt(1.0, 1.0), a), (true, vec![0, 1, 2, 3]));
    }
    // The list is counter-clockwise: 0 (below), 1 (right), 2 (above), 3 (left), rotated.
    let l = m.vertex_polygons(4);
    let i = l.iter().position(|&q| q == 0).unwrap();
    let rotated: Vec<i32> = (0..4).map(|k| l[(i + k) % 4]).collect();
    assert_eq!(rotated, [0, 1, 2, 3]);
    for p in probe_points(&m, &[(0.3, 0.9), (0.5, 0.25)]) {
        check_location(&m, p);
    }
}

#[test]
fn an_ambiguous_vertex_is_refused_or_resolved_by_direction() {
    // A 2 x 2 grid whose free cells [0,1]^2 and [1,2]^2 touch only at (1, 1): each split into
    // two triangles along the diagonal through (1, 1). As on a grid map, Towards(1, 1) picks
    // the cell whose top-left corner (in y-down map terms) the point is.
    let kinds = [1, 0, 0, 1];
    let f = Affine {
        ox: 0.0,
        oy: 0.0,
        sx: 1.0,
        sy: 1.0,
    };
    let (points, polys) = grid_mesh(2, 2, &kinds, f);
    let m = Mesh::new(points, &polys).unwrap();
    // Polygons 0 and 1 are the cell [0,1]^2, 2 and 3 the cell [1,2]^2; vertex 4 is (1, 1).
    assert_eq!(m.point(4), pt(1.0, 1.0));
    assert!(m.is_ambiguous(4));
    let p = pt(1.0, 1.0);
    assert_eq!(check_location(&m, p), Location::Vertex(4));
    assert_eq!(endpoint(&m, p, Ambiguity::Refuse), (false, vec![]));
    assert_eq!(endpoint(&m, p, Ambiguity::default()), (false, vec![]));
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, 1.0)),
        (true, vec![2, 3])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(0.1, 5.0)),
        (true, vec![2, 3])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(-1.0, -1.0)),
        (true, vec![0, 1])
    );
    // Into an obstacle: nothing.
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, -1.0)),
        (false, vec![])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(-1.0, 1.0)),
        (false, vec![])
    );
    // Along an obstacle side: the group on that side.
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, 0.0)),
        (true, vec![2, 3])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(0.0, -1.0)),
        (true, vec![0, 1])
    );
    // The other vertices are not ambiguous; the points near (1, 1) are inside.
    for v in 0..m.vertex_count() as u32 {
        assert_eq!(m.is_ambiguous(v), v == 4, "{v}");
    }
    assert_eq!(
        endpoint(&m, pt(1.01, 1.02), Ambiguity::Refuse),
        (true, vec![3])
    );
    assert_eq!(
        endpoint(&m, pt(0.99, 0.98), Ambiguity::Refuse),
        (true, vec![0])
    );
    assert_eq!(
        endpoint(&m, pt(1.01, 0.99), Ambiguity::Refuse),
        (false, vec![])
    );

    // Three groups: a wheel of six triangles around the origin with every other one missing.
    let degrees = [0, 60, 120, 180, 240, 300];
    let keep = [true, false, true, false, true, false];
    let (points, polys) = circle_mesh(&degrees, (0.0, 0.0), 10.0, true, &keep);
    let m = Mesh::new(points, &polys).unwrap();
    assert!(m.is_ambiguous(0));
    assert_eq!(
        m.vertex_polygons(0)
            .iter()
            .filter(|&&q| q == NO_POLY)
            .count(),
        3
    );
    let o = pt(0.0, 0.0);
    assert_eq!(check_location(&m, o), Location::Vertex(0));
    let towards = |deg: f64| {
        let t = deg.to_radians();
        endpoint(&m, o, Ambiguity::Towards(t.cos(), t.sin()))
    };
    assert_eq!(towards(30.0), (true, vec![0]));
    assert_eq!(towards(150.0), (true, vec![1]));
    assert_eq!(towards(270.0), (true, vec![2]));
    assert_eq!(towards(90.0), (false, vec![]));
    assert_eq!(endpoint(&m, o, Ambiguity::Refuse), (false, vec![]));
}

#[test]
fn points_on_a_side_with_straight_vertices_find_the_right_neighbour() {
    // The rectangle [0,2]x[0,1] lists (1,1) on its top side (a straight vertex, as merged
    // meshes have), with the squares [0,1]x[1,2] and [1,2]x[1,2] above it.
    let points = vec![
        pt(0.0, 0.0), // 0
        pt(2.0, 0.0), // 1
        pt(2.0, 1.0), // 2
        pt(1.0, 1.0), // 3
        pt(0.0, 1.0), // 4
        pt(2.0, 2.0), // 5
        pt(1.0, 2.0), // 6
        pt(0.0, 2.0), // 7
    ];
    let polys = [vec![0, 1, 2, 3, 4], vec![4, 3, 6, 7], vec![3, 2, 5, 6]];
    let m = Mesh::new(points, &polys).unwrap();
    assert_eq!(m.poly_adjacent(0), [-1, -1, 2, 1, -1]);
    // Under the left square, the edge 3 -> 4 of the rectangle; under the right one, 2 -> 3.
    for (x, left) in [(0.5, true), (0.25, true), (1.5, false), (1.75, false)] {
        let loc = check_location(&m, pt(x, 1.0));
        let Location::Edge { poly, across, .. } = loc else {
            panic!("({x}, 1): {loc:?}");
        };
        let mut pair = [poly, across.unwrap()];
        pair.sort_unstable();
        assert_eq!(
            pair,
            if left { [0, 1] } else { [0, 2] },
            "({x}, 1): {loc:?}"
        );
        let expected = if left { vec![0, 1] } else { vec![0, 2] };
        assert_eq!(
            endpoint(&m, pt(x, 1.0), Ambiguity::Refuse),
            (true, expected)
        );
    }
    // The straight vertex itself is in all three polygons.
    assert_eq!(check_location(&m, pt(1.0, 1.0)), Location::Vertex(3));
    assert_eq!(
        endpoint(&m, pt(1.0, 1.0), Ambiguity::Refuse),
        (true, vec![0, 1, 2])
    );
    for p in probe_points(&m, &[(0.5, 0.5), (0.9, 0.4)]) {
        check_location(&m, p);
    }
}

#[test]
fn the_ambiguous_test_mesh_refuses_or_picks_a_side() {
    let Some(data) = taut_testdata::shared_data("bad-ambig.mesh") else {
        return;
    };
    let m = read_mesh(&data.join("mesh/test-meshes/bad-ambig.mesh")).unwrap();
    // Vertex 5 is (1, 1): the squares [0,1]x[1,2] (polygon 0) and [1,2]x[0,1] (polygon 3)
    // touch there; [0,1]x[0,1] and [1,2]x[1,2] are obstacles.
    assert_eq!(m.point(5), pt(1.0, 1.0));
    assert!(m.is_ambiguous(5) && m.is_corner(5));
    // The file lists vertex 5 as `-1 0 -1 3`; the mesh keeps the list derived from the
    // polygons: two groups of one polygon, each followed by a gap.
    let l = m.vertex_polygons(5);
    assert_eq!(l.len(), 4);
    assert_eq!(l.iter().filter(|&&q| q == NO_POLY).count(), 2);
    assert_eq!(polys_around(&m, 5), [0, 3]);
    let p = pt(1.0, 1.0);
    assert_eq!(m.locate(p), Location::Vertex(5));
    assert_eq!(endpoint(&m, p, Ambiguity::Refuse), (false, vec![]));
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(-1.0, 1.0)),
        (true, vec![0])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, -1.0)),
        (true, vec![3])
    );
    // (1, 1) points into the obstacle [1,2]x[1,2]: no polygon in that direction.
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, 1.0)),
        (false, vec![])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(-1.0, -1.0)),
        (false, vec![])
    );
    // Along an obstacle side: the polygon that has that side.
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(0.0, 1.0)),
        (true, vec![0])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, 0.0)),
        (true, vec![3])
    );
    // The scenario's other points are inside the two squares.
    assert_eq!(m.locate(pt(0.99, 1.01)), Location::Interior(0));
    assert_eq!(m.locate(pt(1.01, 0.99)), Location::Interior(3));
}

#[test]
fn locating_points_on_the_large_reference_mesh_is_timed() {
    let Some(data) = taut_testdata::shared_data("locate timing") else {
        return;
    };
    let m = read_mesh(&data.join("mesh/reference/aurora-merged.mesh")).unwrap();
    let (lo, hi) = m.bounds();
    // A deterministic scatter of points over the bounding box (a Weyl sequence).
    let n = 1_000_000;
    let (a1, a2) = (0.754_877_666_246_692_7, 0.569_840_290_998_053_2);
    let t = Instant::now();
    let mut found = 0u32;
    for i in 0..n {
        let (u, v) = ((f64::from(i) * a1).fract(), (f64::from(i) * a2).fract());
        let p = pt(lo.x + (hi.x - lo.x) * u, lo.y + (hi.y - lo.y) * v);
        found += u32::from(m.locate(p) != Location::OffMesh);
    }
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "aurora-merged ({} polygons): {n} random points located in {:.0} ms ({:.0} ns each), \
         {found} on the mesh",
        m.polygon_count(),
        secs * 1e3,
        secs * 1e9 / f64::from(n)
    );
    assert!(found > 0);
}
