//! Polygon maps: the text format, the checks, and which triangles are free.
//!
//! # The text format (version 1)
//! ```text
//! # A room with a pillar and two boxes touching at a corner.
//! polygons 1
//! outer    4   0 0   100 0   100 60   0 60
//! obstacle 4  10 10   20 10   20 20  10 20
//! obstacle 3  50 30   60 30   60 40
//! obstacle 3  60 40   70 40   70 50
//! ```
//! - `#` starts a comment that runs to the end of the line; blank lines are ignored.
//! - The first record is the header `polygons 1` (format version 1).
//! - Then one record per line: `outer n x1 y1 … xn yn` exactly once, and any number of
//!   `obstacle n x1 y1 … xn yn`, with `n >= 3` and exactly `2n` finite numbers after it.
//! - Vertices may be listed in either orientation. Obstacles are numbered from 0 in file order
//!   in error messages.

use std::collections::HashMap;
use std::path::Path;

use super::triangulate::Cdt;
use super::{BuildError, PolygonId, PolygonMap, in_file};
use crate::geom::MeshPoint;
use crate::geom::orient_sign;
use spade::Triangulation;

/// What is wrong with a line of a polygon-map text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolygonParseError {
    /// The text holds no record at all.
    #[error("the text is empty: expected the header `polygons 1`")]
    Empty,
    /// The first record is not `polygons <version>`.
    #[error("expected the header `polygons 1`, found {0:?}")]
    BadHeader(String),
    /// The header names a version this reader does not know.
    #[error("unsupported format version {0:?}: this reader knows version 1")]
    UnsupportedVersion(String),
    /// A record starts with a word other than `outer` or `obstacle`.
    #[error("unknown record {0:?}: expected `outer` or `obstacle`")]
    UnknownRecord(String),
    /// A token is not a number of the expected kind.
    #[error("expected {expected}, found {found:?}")]
    BadNumber {
        /// What was expected.
        expected: &'static str,
        /// The token found.
        found: String,
    },
    /// The vertex count is below 3.
    #[error("a polygon needs at least 3 vertices, the count is {0}")]
    TooFewVertices(usize),
    /// The number of coordinates does not match the vertex count.
    #[error("the count announces {declared} vertices ({} numbers) but {found} numbers follow", 2 * declared)]
    WrongCount {
        /// The vertex count given.
        declared: usize,
        /// How many numbers follow it.
        found: usize,
    },
    /// A second `outer` record.
    #[error("a second `outer` polygon (the first is on line {first})")]
    SecondOuter {
        /// The line of the first one.
        first: usize,
    },
    /// No `outer` record.
    #[error("no `outer` polygon")]
    MissingOuter,
}

fn parse_error(line: usize, kind: PolygonParseError) -> BuildError {
    BuildError::Parse { line, kind }
}

fn excerpt(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Parses a polygon map in the text format of this module (see `docs/mesh-build.md`).
///
/// ```
/// use taut_mesh::build::{PolygonParseError, parse_polygon_map};
/// let map = parse_polygon_map("polygons 1\nouter 3 0 0 4 0 0 4 # a triangle\n").unwrap();
/// assert_eq!(map.outer.len(), 3);
/// assert!(map.obstacles.is_empty());
/// let err = parse_polygon_map("polygons 1\nouter 3 0 0 4 0\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 2: the count announces 3 vertices (6 numbers) but 4 numbers follow");
/// ```
///
/// # Errors
/// [`BuildError::Parse`] with the 1-based line and a [`PolygonParseError`].
pub fn parse_polygon_map(text: &str) -> Result<PolygonMap, BuildError> {
    let mut header = false;
    let mut outer: Option<(Vec<MeshPoint>, usize)> = None;
    let mut obstacles = Vec::new();
    let mut last_line = 1;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last_line = line;
        let content = raw.split('#').next().unwrap_or("");
        let mut toks = content.split_ascii_whitespace();
        let Some(first) = toks.next() else {
            continue;
        };
        if !header {
            if first != "polygons" {
                return Err(parse_error(
                    line,
                    PolygonParseError::BadHeader(excerpt(content.trim())),
                ));
            }
            match (toks.next(), toks.next()) {
                (Some("1"), None) => header = true,
                (Some(v), None) => {
                    return Err(parse_error(
                        line,
                        PolygonParseError::UnsupportedVersion(excerpt(v)),
                    ));
                }
                _ => {
                    return Err(parse_error(
                        line,
                        PolygonParseError::BadHeader(excerpt(content.trim())),
                    ));
                }
            }
            continue;
        }
        let is_outer = match first {
            "outer" => true,
            "obstacle" => false,
            other => {
                return Err(parse_error(
                    line,
                    PolygonParseError::UnknownRecord(excerpt(other)),
                ));
            }
        };
        let count = toks.next().unwrap_or("");
        let n: usize = count.parse().map_err(|_| {
            parse_error(
                line,
                PolygonParseError::BadNumber {
                    expected: "a vertex count",
                    found: excerpt(count),
                },
            )
        })?;
        if n < 3 {
            return Err(parse_error(line, PolygonParseError::TooFewVertices(n)));
        }
        let numbers: Vec<&str> = toks.collect();
        if n.checked_mul(2) != Some(numbers.len()) {
            return Err(parse_error(
                line,
                PolygonParseError::WrongCount {
                    declared: n,
                    found: numbers.len(),
                },
            ));
        }
        let mut coords = Vec::with_capacity(numbers.len());
        for tok in numbers {
            match tok.parse::<f64>() {
                Ok(c) if c.is_finite() => coords.push(c),
                _ => {
                    return Err(parse_error(
                        line,
                        PolygonParseError::BadNumber {
                            expected: "a finite coordinate",
                            found: excerpt(tok),
                        },
                    ));
                }
            }
        }
        let polygon: Vec<MeshPoint> = coords
            .chunks_exact(2)
            .map(|c| MeshPoint::new(c[0], c[1]))
            .collect();
        if is_outer {
            if let Some((_, first)) = outer {
                return Err(parse_error(line, PolygonParseError::SecondOuter { first }));
            }
            outer = Some((polygon, line));
        } else {
            obstacles.push(polygon);
        }
    }
    if !header {
        return Err(parse_error(last_line, PolygonParseError::Empty));
    }
    let Some((outer, _)) = outer else {
        return Err(parse_error(last_line, PolygonParseError::MissingOuter));
    };
    Ok(PolygonMap { outer, obstacles })
}

/// Reads a polygon-map file ([`parse_polygon_map`]).
///
/// # Errors
/// [`BuildError::Io`] when the file cannot be read, otherwise [`BuildError::InFile`] wrapping
/// the error of [`parse_polygon_map`].
pub fn read_polygon_map(path: impl AsRef<Path>) -> Result<PolygonMap, BuildError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| BuildError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    parse_polygon_map(&text).map_err(|e| in_file(path, e))
}

/// A polygon map checked and turned into triangulation input.
pub(super) struct Prepared {
    /// Distinct vertices, in order of first appearance.
    pub points: Vec<MeshPoint>,
    /// Every polygon side, as vertex indices.
    pub segments: Vec<[usize; 2]>,
    /// The polygon owning each side, keyed by the side directed counter-clockwise around it
    /// (the polygon is on its left): 0 for the outer polygon, `k + 1` for obstacle `k`.
    pub owners: HashMap<(u32, u32), u32>,
}

/// One polygon of a map, numbered 0 (outer) or `k + 1` (obstacle `k`).
fn polygon_id(p: usize) -> PolygonId {
    if p == 0 {
        PolygonId::Outer
    } else {
        PolygonId::Obstacle(p - 1)
    }
}

/// Checks a polygon map (shapes, crossings) and indexes its vertices and sides.
pub(super) fn prepare(map: &PolygonMap) -> Result<Prepared, BuildError> {
    let polys: Vec<&[MeshPoint]> = std::iter::once(map.outer.as_slice())
        .chain(map.obstacles.iter().map(Vec::as_slice))
        .collect();
    for (p, poly) in polys.iter().enumerate() {
        let polygon = polygon_id(p);
        if poly.len() < 3 {
            return Err(BuildError::Degenerate {
                polygon,
                reason: "fewer than three vertices",
            });
        }
        if poly.iter().any(|q| !q.x.is_finite() || !q.y.is_finite()) {
            return Err(BuildError::NotFinite { polygon });
        }
        let n = poly.len();
        if (0..n).any(|i| poly[i] == poly[(i + 1) % n]) {
            return Err(BuildError::Degenerate {
                polygon,
                reason: "a vertex repeats the one before it",
            });
        }
    }
    check_crossings(&polys)?;
    // Orientation, from the lowest (then leftmost) vertex, which is a strictly convex corner
    // of a simple polygon.
    let mut oriented: Vec<Vec<MeshPoint>> = Vec::with_capacity(polys.len());
    for (p, poly) in polys.iter().enumerate() {
        let n = poly.len();
        let k = (0..n)
            .min_by(|&i, &j| {
                (poly[i].y, poly[i].x)
                    .partial_cmp(&(poly[j].y, poly[j].x))
                    .expect("finite coordinates")
            })
            .unwrap_or(0);
        let s = orient_sign(poly[(k + n - 1) % n], poly[k], poly[(k + 1) % n]);
        let mut v = poly.to_vec();
        match s {
            1 => {}
            -1 => v.reverse(),
            _ => {
                return Err(BuildError::Degenerate {
                    polygon: polygon_id(p),
                    reason: "zero area",
                });
            }
        }
        oriented.push(v);
    }
    let key = |q: MeshPoint| ((q.x + 0.0).to_bits(), (q.y + 0.0).to_bits());
    let mut index: HashMap<(u64, u64), u32> = HashMap::new();
    let mut points = Vec::new();
    let mut segments = Vec::new();
    let mut owners = HashMap::new();
    for (p, poly) in oriented.iter().enumerate() {
        let ids: Vec<u32> = poly
            .iter()
            .map(|&q| {
                *index.entry(key(q)).or_insert_with(|| {
                    points.push(q);
                    (points.len() - 1) as u32
                })
            })
            .collect();
        let n = ids.len();
        for i in 0..n {
            let (a, b) = (ids[i], ids[(i + 1) % n]);
            segments.push([a as usize, b as usize]);
            owners.insert((a, b), p as u32);
        }
    }
    Ok(Prepared {
        points,
        segments,
        owners,
    })
}

/// One polygon side, for the crossing checks.
#[derive(Clone, Copy)]
struct Side {
    poly: usize,
    index: usize,
    len: usize,
    a: MeshPoint,
    b: MeshPoint,
}

/// How two segments meet.
enum Contact {
    /// Not at all.
    None,
    /// At an endpoint of both, and nowhere else.
    SharedEndpoint,
    /// Anywhere else (a crossing, a touch inside a side, or an overlap), near this point.
    Bad(MeshPoint),
}

fn contact(a: MeshPoint, b: MeshPoint, c: MeshPoint, d: MeshPoint) -> Contact {
    let o1 = orient_sign(a, b, c);
    let o2 = orient_sign(a, b, d);
    let o3 = orient_sign(c, d, a);
    let o4 = orient_sign(c, d, b);
    if o1 * o2 > 0 || o3 * o4 > 0 {
        return Contact::None;
    }
    if o1 == 0 && o2 == 0 {
        // Collinear: compare the spans along the line (lexicographic order is monotone on it).
        let lex = |p: MeshPoint, q: MeshPoint| {
            (p.x, p.y)
                .partial_cmp(&(q.x, q.y))
                .expect("finite coordinates")
        };
        let span = |p: MeshPoint, q: MeshPoint| {
            if lex(p, q).is_le() { (p, q) } else { (q, p) }
        };
        let (lo1, hi1) = span(a, b);
        let (lo2, hi2) = span(c, d);
        let lo = if lex(lo1, lo2).is_ge() { lo1 } else { lo2 };
        let hi = if lex(hi1, hi2).is_le() { hi1 } else { hi2 };
        return match lex(lo, hi) {
            std::cmp::Ordering::Greater => Contact::None,
            std::cmp::Ordering::Less => Contact::Bad(lo),
            std::cmp::Ordering::Equal => {
                if (lo == a || lo == b) && (lo == c || lo == d) {
                    Contact::SharedEndpoint
                } else {
                    Contact::Bad(lo)
                }
            }
        };
    }
    // They meet at exactly one point.
    if a == c || a == d || b == c || b == d {
        return Contact::SharedEndpoint;
    }
    let at = if o1 == 0 {
        c
    } else if o2 == 0 {
        d
    } else if o3 == 0 {
        a
    } else if o4 == 0 {
        b
    } else {
        // A proper crossing: the point, approximately (for the message only).
        let t = orient_f(c, d, a) / (orient_f(c, d, a) - orient_f(c, d, b));
        MeshPoint::new(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y))
    };
    Contact::Bad(at)
}

fn orient_f(a: MeshPoint, b: MeshPoint, c: MeshPoint) -> f64 {
    crate::geom::orient(a, b, c)
}

/// Checks every pair of sides that could meet (found with a bucket grid over the bounding
/// box): a polygon's consecutive sides may share their common vertex, different polygons may
/// share vertices, and nothing else may touch.
fn check_crossings(polys: &[&[MeshPoint]]) -> Result<(), BuildError> {
    let mut sides = Vec::new();
    for (p, poly) in polys.iter().enumerate() {
        let n = poly.len();
        for i in 0..n {
            sides.push(Side {
                poly: p,
                index: i,
                len: n,
                a: poly[i],
                b: poly[(i + 1) % n],
            });
        }
    }
    let (mut lo, mut hi) = (sides[0].a, sides[0].a);
    for s in &sides {
        lo.x = lo.x.min(s.a.x);
        lo.y = lo.y.min(s.a.y);
        hi.x = hi.x.max(s.a.x);
        hi.y = hi.y.max(s.a.y);
    }
    let cells = ((sides.len() as f64).sqrt().ceil() as usize).clamp(1, 1024);
    let (w, h) = (
        (hi.x - lo.x).max(f64::MIN_POSITIVE),
        (hi.y - lo.y).max(f64::MIN_POSITIVE),
    );
    let cell_of = |q: MeshPoint| {
        let cx = (((q.x - lo.x) / w * cells as f64) as usize).min(cells - 1);
        let cy = (((q.y - lo.y) / h * cells as f64) as usize).min(cells - 1);
        (cx, cy)
    };
    let bbox = |s: &Side| {
        (
            MeshPoint::new(s.a.x.min(s.b.x), s.a.y.min(s.b.y)),
            MeshPoint::new(s.a.x.max(s.b.x), s.a.y.max(s.b.y)),
        )
    };
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); cells * cells];
    for (k, s) in sides.iter().enumerate() {
        let (l, u) = bbox(s);
        let (x0, y0) = cell_of(l);
        let (x1, y1) = cell_of(u);
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                buckets[cy * cells + cx].push(k as u32);
            }
        }
    }
    for (b, bucket) in buckets.iter().enumerate() {
        for (m, &i) in bucket.iter().enumerate() {
            for &j in &bucket[m + 1..] {
                let (s, t) = (&sides[i as usize], &sides[j as usize]);
                let ((ls, us), (lt, ut)) = (bbox(s), bbox(t));
                if ls.x > ut.x || lt.x > us.x || ls.y > ut.y || lt.y > us.y {
                    continue;
                }
                // Test each pair once: in the bucket holding the low corner of the overlap of
                // their boxes.
                let (cx, cy) = cell_of(MeshPoint::new(ls.x.max(lt.x), ls.y.max(lt.y)));
                if cy * cells + cx != b {
                    continue;
                }
                check_pair(s, t)?;
            }
        }
    }
    Ok(())
}

fn check_pair(s: &Side, t: &Side) -> Result<(), BuildError> {
    let same = s.poly == t.poly;
    let consecutive =
        same && ((s.index + 1) % s.len == t.index || (t.index + 1) % t.len == s.index);
    match contact(s.a, s.b, t.a, t.b) {
        Contact::None => Ok(()),
        Contact::SharedEndpoint if !same || consecutive => Ok(()),
        Contact::SharedEndpoint => Err(BuildError::SelfIntersecting {
            polygon: polygon_id(s.poly),
            at: if s.a == t.a || s.a == t.b { s.a } else { s.b },
        }),
        Contact::Bad(at) if same => Err(BuildError::SelfIntersecting {
            polygon: polygon_id(s.poly),
            at,
        }),
        Contact::Bad(at) => {
            let (a, b) = if s.poly < t.poly {
                (s.poly, t.poly)
            } else {
                (t.poly, s.poly)
            };
            Err(BuildError::Crossing {
                a: polygon_id(a),
                b: polygon_id(b),
                at,
            })
        }
    }
}

/// The free flag of every face: a walk across the triangulation from the outside counts, for
/// each face, whether it is inside the outer polygon and inside how many obstacles (stepping
/// across a side into its polygon adds one, out of it subtracts one). Free faces are inside
/// the outer polygon and no obstacle; a face inside an obstacle but not the outer polygon, or
/// inside two obstacles, is an error.
pub(super) fn classify_by_depth(
    cdt: &Cdt,
    owners: &HashMap<(u32, u32), u32>,
    map: &PolygonMap,
) -> Result<Vec<bool>, BuildError> {
    #[derive(Clone, Copy, PartialEq)]
    struct Depth {
        outer: i32,
        obstacles: i32,
    }
    // Stepping from the left of `from -> to` to its right.
    let step = |mut d: Depth, from: usize, to: usize| {
        let (from, to) = (from as u32, to as u32);
        if let Some(&p) = owners.get(&(from, to)) {
            if p == 0 {
                d.outer -= 1
            } else {
                d.obstacles -= 1
            }
        } else if let Some(&p) = owners.get(&(to, from)) {
            if p == 0 {
                d.outer += 1
            } else {
                d.obstacles += 1
            }
        }
        d
    };
    let mut depth: Vec<Option<Depth>> = vec![None; cdt.num_all_faces()];
    let mut stack = Vec::new();
    let outside = Depth {
        outer: 0,
        obstacles: 0,
    };
    for face in cdt.inner_faces() {
        for e in face.adjacent_edges() {
            let r = e.rev();
            if r.face().is_outer() && depth[face.fix().index()].is_none() {
                let d = step(outside, r.from().fix().index(), r.to().fix().index());
                depth[face.fix().index()] = Some(d);
                stack.push(face.fix());
            }
        }
    }
    while let Some(f) = stack.pop() {
        let face = cdt.face(f);
        let d = depth[f.index()].expect("visited");
        for e in face.adjacent_edges() {
            let Some(g) = e.rev().face().as_inner() else {
                continue;
            };
            let dg = step(d, e.from().fix().index(), e.to().fix().index());
            match depth[g.fix().index()] {
                None => {
                    depth[g.fix().index()] = Some(dg);
                    stack.push(g.fix());
                }
                Some(old) if old != dg => {
                    return Err(BuildError::Triangulation(
                        "inconsistent inside/outside classification".into(),
                    ));
                }
                Some(_) => {}
            }
        }
    }
    let mut free = vec![false; cdt.num_all_faces()];
    for face in cdt.inner_faces() {
        let d = depth[face.fix().index()].unwrap_or(outside);
        if d.obstacles > 0 && (d.outer == 0 || d.obstacles >= 2) {
            let [a, b, c] = face.positions();
            let at = MeshPoint::new((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0);
            let inside: Vec<usize> = map
                .obstacles
                .iter()
                .enumerate()
                .filter(|(_, o)| winding(o, at) != 0)
                .map(|(k, _)| k)
                .collect();
            let first = inside.first().copied().unwrap_or(0);
            return Err(if d.outer == 0 {
                BuildError::OutsideOuter {
                    obstacle: first,
                    at,
                }
            } else {
                BuildError::ObstaclesOverlap {
                    a: first,
                    b: inside.get(1).copied().unwrap_or(first),
                    at,
                }
            });
        }
        free[face.fix().index()] = d.outer == 1 && d.obstacles == 0;
    }
    Ok(free)
}

/// The winding number of a polygon around a point (exact orientation tests).
fn winding(poly: &[MeshPoint], p: MeshPoint) -> i32 {
    let n = poly.len();
    let mut w = 0;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if a.y <= p.y {
            if b.y > p.y && orient_sign(a, b, p) > 0 {
                w += 1;
            }
        } else if b.y <= p.y && orient_sign(a, b, p) < 0 {
            w -= 1;
        }
    }
    w
}
