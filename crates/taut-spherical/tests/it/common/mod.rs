//! Helpers shared by the test modules of taut-spherical (`tests/it/`; not every module uses
//! every helper).
//!
//! - [`brute_force`]: a reference shortest route on a small [`SphereGrid`], built from the
//!   legality checker alone (no search code): a visibility graph over the grid vertices that
//!   touch a blocked cell, points sampled along the obstacle edges that are parallels, the
//!   start and the goal, with great-circle edges the checker accepts and parallel edges along
//!   the obstacle edges. Its length is an upper bound on the optimum (its route is legal), and
//!   tends to it as the sampling step shrinks.
//!
//!   Only edges whose *poleward* cell is blocked are sampled: a great circle lies equatorward
//!   of a parallel it touches (it touches at its vertex), so a shortest route meets the inside
//!   of an edge only when it hugs an obstacle on the poleward side; samples on the other edges
//!   (and on the equator, itself a great circle) could never be used, and would square the
//!   graph's cost for nothing. The start's and goal's longitudes are added to the samples of
//!   the edges in their columns, so an endpoint always sees the obstacle edge of its own cell
//!   along a meridian (otherwise an endpoint just below a long poleward edge could see no node
//!   at all: every arc to a sample would bulge through the edge). A double corner is two nodes, one per free side, and a
//!   great-circle or parallel edge joins the node of the side it leaves the vertex on, so no
//!   route of the graph crosses a double corner at a turn.
//! - [`random_query`]: a proptest strategy for small random sphere grids with a free start
//!   and goal anywhere inside free cells.
//! - [`shared_sphere_data`]: the `sphere/` directory of the shared data, skipped loudly when
//!   absent (the pattern of `taut_testdata::shared_data`).
#![allow(dead_code)]

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::path::PathBuf;

use proptest::prelude::*;
use taut_spherical::check::{MAX_GREAT_ARC, check_leg};
use taut_spherical::geo::V3;
use taut_spherical::{LatLon, Leg, Route, SphereGrid};

/// `PROPTEST_CASES` if set, else `default`.
pub fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    ProptestConfig::with_cases(n)
}

/// `../shared/data/sphere` (or `$TAUT_DATA/sphere`): `None` after a loud `SKIPPED` line when
/// the shared data is absent, a panic when it is absent under `TAUT_REQUIRE_DATA=1`.
pub fn shared_sphere_data(test: &str) -> Option<PathBuf> {
    let dir = taut_testdata::shared_data(test)?.join("sphere");
    assert!(
        dir.is_dir(),
        "{test}: the shared data has no sphere/ directory at {}",
        dir.display()
    );
    Some(dir)
}

/// The grid as rows of `.` and `@` (north first), for failure messages.
pub fn show(g: &SphereGrid) -> String {
    let mut s = String::new();
    for r in 0..g.height() {
        for c in 0..g.width() {
            s.push(if g.is_free(r.into(), c.into()) {
                '.'
            } else {
                '@'
            });
        }
        s.push('\n');
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Brute force.

/// One node of the brute-force graph.
#[derive(Clone, Copy, Debug)]
struct Node {
    p: LatLon,
    v: V3,
    /// For a double corner (one node per free side): whether its north-west and south-east
    /// cells are the blocked ones, and which free side this node is (true = the north-east
    /// side when NW/SE are blocked, the north-west side otherwise).
    side: Option<(bool, bool)>,
}

/// Row line `i`'s latitude and meridian `k`'s longitude (degrees, `k` unwrapped).
fn vertex_deg(g: &SphereGrid, i: u32, k: i64) -> (f64, f64) {
    (
        90.0 - f64::from(i) * 180.0 / f64::from(g.height()),
        -180.0 + k as f64 * 360.0 / f64::from(g.width()),
    )
}

/// The four cells around vertex (i, k): NW, NE, SW, SE free?
fn quad(g: &SphereGrid, i: u32, k: i64) -> [bool; 4] {
    let i = i64::from(i);
    [
        g.is_free(i - 1, k - 1),
        g.is_free(i - 1, k),
        g.is_free(i, k - 1),
        g.is_free(i, k),
    ]
}

/// `Some(nw_se_blocked)` when vertex (i, k) is a double corner.
fn double_corner(g: &SphereGrid, i: u32, k: i64) -> Option<bool> {
    match quad(g, i, k) {
        [false, true, true, false] => Some(true),
        [true, false, false, true] => Some(false),
        _ => None,
    }
}

/// The free side of double corner `v` (lat/lon degrees) that the direction towards `p` lies
/// on; see [`Node::side`]. Axis directions belong to the free side they border.
fn side_towards(v: LatLon, nw_se_blocked: bool, p: V3) -> bool {
    let (phi, lambda) = (v.lat.to_radians(), v.lon.to_radians());
    let east = V3 {
        x: -lambda.sin(),
        y: lambda.cos(),
        z: 0.0,
    };
    let north = V3 {
        x: -phi.sin() * lambda.cos(),
        y: -phi.sin() * lambda.sin(),
        z: phi.cos(),
    };
    let (de, dn) = (p.dot(east), p.dot(north));
    if nw_se_blocked {
        de + dn > 0.0
    } else {
        dn - de > 0.0
    }
}

/// Whether a great-circle edge may leave (or enter) node `n` towards point `p`.
fn side_allows(n: &Node, p: V3) -> bool {
    match n.side {
        None => true,
        Some((kind, side)) => side_towards(n.p, kind, p) == side,
    }
}

/// A cheap sound pre-filter: false when some sample of the arc lies well inside a blocked
/// cell (so the checker would reject it too); true otherwise.
fn coarse_ok(g: &SphereGrid, a: V3, b: V3, step_rad: f64) -> bool {
    let theta = a.angle(b);
    let n = (theta / step_rad).ceil().max(1.0) as usize;
    let s = theta.sin();
    if s < 1e-9 {
        return true;
    }
    let (h, w) = (f64::from(g.height()), f64::from(g.width()));
    for j in 1..n {
        let t = theta * j as f64 / n as f64;
        let p = a.scale(((theta - t).sin()) / s).plus(b.scale(t.sin() / s));
        let (lat, lon) = (p.lat().to_degrees(), p.lon().to_degrees());
        let y = (90.0 - lat) / 180.0 * h;
        let x = (lon + 180.0) / 360.0 * w;
        // Well inside a cell: 1e-6 cell units from every line.
        let (fy, fx) = (y - y.floor(), x - x.floor());
        if fy > 1e-6 && fy < 1.0 - 1e-6 && fx > 1e-6 && fx < 1.0 - 1e-6 {
            let (r, c) = (y.floor() as i64, x.floor() as i64);
            // Near the poles a column is narrow: only trust rows away from them.
            if r > 0 && r + 1 < g.height() as i64 && !g.is_free(r, c) {
                return false;
            }
        }
    }
    true
}

#[derive(Clone, Copy, PartialEq)]
struct Item(f64, usize);
impl Eq for Item {}
impl Ord for Item {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// The brute-force reference: the shortest route from `from` to `to` in the graph described in
/// the module documentation, with obstacle-edge samples at most `step_deg` degrees of
/// longitude apart; `None` if the graph does not connect them. The route is legal by
/// construction (every edge passed the checker, and turns at double corners stay on one
/// side), so its length is an upper bound on the optimum.
pub fn brute_force(g: &SphereGrid, from: LatLon, to: LatLon, step_deg: f64) -> Option<Route> {
    if from.to_vec().angle(to.to_vec()) == 0.0 {
        return Some(Route::default());
    }
    let (h, w) = (g.height(), i64::from(g.width()));
    let mut nodes: Vec<Node> = Vec::new();
    let node = |p: LatLon, side| Node {
        p,
        v: p.to_vec(),
        side,
    };
    nodes.push(node(from, None));
    nodes.push(node(to, None));
    // Vertices touching a blocked cell: vertex_id[(i, k)] = first node (two for a double
    // corner: [NE or NW side, SW or SE side]).
    let mut vertex_id = vec![usize::MAX; (h as usize + 1) * w as usize];
    for i in 1..h {
        for k in 0..w {
            if quad(g, i, k).iter().all(|&f| f) {
                continue;
            }
            let (lat, lon) = vertex_deg(g, i, k);
            let p = LatLon::new(lat, lon);
            vertex_id[i as usize * w as usize + k as usize] = nodes.len();
            match double_corner(g, i, k) {
                Some(kind) => {
                    nodes.push(node(p, Some((kind, true))));
                    nodes.push(node(p, Some((kind, false))));
                }
                None => nodes.push(node(p, None)),
            }
        }
    }
    // A pole touching both free and blocked polar cells is a vertex where routes may turn.
    for (row, lat) in [(0i64, 90.0), (i64::from(h) - 1, -90.0)] {
        let free = (0..w).filter(|&c| g.is_free(row, c)).count() as i64;
        if free > 0 && free < w {
            nodes.push(node(LatLon::new(lat, 0.0), None));
        }
    }
    // The node of vertex (i, k) to use when leaving it in direction (de, dn).
    let vertex_node = |nodes: &[Node], i: u32, k: i64, east: bool| -> usize {
        let id = vertex_id[i as usize * w as usize + k.rem_euclid(w) as usize];
        match nodes[id].side {
            None => id,
            Some((kind, _)) => {
                let (de, dn) = (if east { 1.0 } else { -1.0 }, 0.0);
                let side = if kind { de + dn > 0.0 } else { dn - de > 0.0 };
                if side { id } else { id + 1 }
            }
        }
    };
    // Obstacle edges along row lines, sampled; parallel edges between consecutive points.
    let mut par_edges: Vec<(usize, usize, Leg)> = Vec::new();
    let res_deg = 360.0 / w as f64;
    let pieces = (res_deg / step_deg).ceil().max(1.0) as usize;
    for i in 1..h {
        for c in 0..w {
            let above = g.is_free(i64::from(i) - 1, c);
            let below = g.is_free(i64::from(i), c);
            let (lat, lon0) = vertex_deg(g, i, c);
            // Blocked on the poleward side only (see `brute_force`'s documentation).
            let poleward_free = if lat > 0.0 { above } else { below };
            if above == below || lat == 0.0 || poleward_free {
                continue;
            }
            // Regular samples, plus the start's and the goal's longitudes when they fall in
            // this column, so that the meridian arc from an endpoint straight to the obstacle
            // edge of its cell (always legal) is in the graph.
            let mut lons: Vec<f64> = (1..pieces)
                .map(|j| lon0 + res_deg * j as f64 / pieces as f64)
                .collect();
            for p in [from, to] {
                let lon = lon0 + (p.lon - lon0).rem_euclid(360.0);
                if lon > lon0 && lon < lon0 + res_deg && !lons.contains(&lon) {
                    lons.push(lon);
                }
            }
            lons.sort_by(f64::total_cmp);
            lons.push(lon0 + res_deg);
            let mut prev = vertex_node(&nodes, i, c, true);
            let mut prev_lon = lon0;
            for (j, &lon) in lons.iter().enumerate() {
                let id = if j + 1 == lons.len() {
                    vertex_node(&nodes, i, c + 1, false)
                } else {
                    nodes.push(node(LatLon::new(lat, lon), None));
                    nodes.len() - 1
                };
                let leg = Leg::Parallel {
                    lat,
                    from_lon: prev_lon,
                    to_lon: lon,
                };
                assert!(check_leg(g, &leg, 0).is_ok(), "obstacle edge rejected");
                par_edges.push((prev, id, leg));
                prev = id;
                prev_lon = lon;
            }
        }
    }
    // Adjacency: (neighbour, length, leg from this node to the neighbour).
    let n = nodes.len();
    let mut adj: Vec<Vec<(usize, f64, Leg)>> = vec![Vec::new(); n];
    for (a, b, leg) in par_edges {
        let Leg::Parallel {
            lat,
            from_lon,
            to_lon,
        } = leg
        else {
            unreachable!()
        };
        let len = leg.radians();
        adj[a].push((b, len, leg));
        let back = Leg::Parallel {
            lat,
            from_lon: to_lon,
            to_lon: from_lon,
        };
        adj[b].push((a, len, back));
    }
    let coarse = (180.0 / f64::from(h)).min(res_deg).to_radians() / 8.0;
    for a in 0..n {
        for b in a + 1..n {
            let (na, nb) = (&nodes[a], &nodes[b]);
            let len = na.v.angle(nb.v);
            if len == 0.0 || len > MAX_GREAT_ARC {
                continue;
            }
            if !side_allows(na, nb.v) || !side_allows(nb, na.v) {
                continue;
            }
            if !coarse_ok(g, na.v, nb.v, coarse) {
                continue;
            }
            let leg = Leg::Great {
                from: na.p,
                to: nb.p,
            };
            if check_leg(g, &leg, 0).is_ok() {
                adj[a].push((b, len, leg));
                adj[b].push((
                    a,
                    len,
                    Leg::Great {
                        from: nb.p,
                        to: na.p,
                    },
                ));
            }
        }
    }
    // Dijkstra from node 0 to node 1.
    let mut dist = vec![f64::INFINITY; n];
    let mut parent: Vec<Option<(usize, Leg)>> = vec![None; n];
    let mut heap = BinaryHeap::new();
    dist[0] = 0.0;
    heap.push(Item(0.0, 0));
    while let Some(Item(d, u)) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        if u == 1 {
            break;
        }
        for &(v, len, leg) in &adj[u] {
            let nd = d + len;
            if nd < dist[v] {
                dist[v] = nd;
                parent[v] = Some((u, leg));
                heap.push(Item(nd, v));
            }
        }
    }
    if dist[1].is_infinite() {
        return None;
    }
    let mut legs = Vec::new();
    let mut at = 1;
    while let Some((p, leg)) = parent[at] {
        legs.push(leg);
        at = p;
    }
    legs.reverse();
    let radians = legs.iter().map(Leg::radians).sum();
    Some(Route { legs, radians })
}

// ---------------------------------------------------------------------------------------------
// Random grids.

/// A random query on a random small sphere grid.
#[derive(Clone, Debug)]
pub struct Query {
    /// The grid.
    pub grid: SphereGrid,
    /// Start, strictly inside a free cell.
    pub from: LatLon,
    /// Goal, strictly inside a free cell.
    pub to: LatLon,
}

/// A point at fractions (`fy`, `fx`) of free cell (`r`, `c`), from its north-west corner.
fn point_in_cell(g: &SphereGrid, r: u32, c: u32, fy: f64, fx: f64) -> LatLon {
    LatLon::new(
        90.0 - (f64::from(r) + fy) * 180.0 / f64::from(g.height()),
        -180.0 + (f64::from(c) + fx) * 360.0 / f64::from(g.width()),
    )
}

/// Small random sphere grids (width 8–24, height 6–12, 0–35 % of cells blocked) with a start
/// and a goal in free cells, anywhere inside them (not only at their centres).
pub fn random_query() -> impl Strategy<Value = Query> {
    (8u32..=24, 6u32..=12, 0.0f64..0.35)
        .prop_flat_map(|(w, h, density)| {
            (
                Just((w, h)),
                proptest::collection::vec(proptest::bool::weighted(density), (w * h) as usize),
                any::<prop::sample::Index>(),
                any::<prop::sample::Index>(),
                (0.02f64..0.98, 0.02f64..0.98, 0.02f64..0.98, 0.02f64..0.98),
            )
        })
        .prop_map(|((w, h), blocked, i, j, (fy0, fx0, fy1, fx1))| {
            let mut blocked = blocked;
            if blocked.iter().all(|&b| b) {
                blocked[0] = false;
            }
            let grid = SphereGrid::from_fn(w, h, |r, c| !blocked[(r * w + c) as usize]).unwrap();
            let free: Vec<(u32, u32)> = (0..h)
                .flat_map(|r| (0..w).map(move |c| (r, c)))
                .filter(|&(r, c)| !blocked[(r * w + c) as usize])
                .collect();
            let (rs, cs) = free[i.index(free.len())];
            let (rg, cg) = free[j.index(free.len())];
            let from = point_in_cell(&grid, rs, cs, fy0, fx0);
            let to = point_in_cell(&grid, rg, cg, fy1, fx1);
            Query { grid, from, to }
        })
}

/// Whether `from` and `to` (each strictly inside a free cell) are connected: their cells are in
/// one 4-connected component of free cells, longitude wrapping. This is exactly reachability
/// under the rules: crossing a shared edge is allowed, crossing at a vertex alone needs a third
/// free cell there (two diagonal cells alone make a double corner), and a pole joins all the
/// free cells of its polar row (it is a vertex they share; `docs/spherical.md`).
pub fn connected(g: &SphereGrid, from: LatLon, to: LatLon) -> bool {
    let (h, w) = (i64::from(g.height()), i64::from(g.width()));
    let (s, t) = (g.cell_of(from), g.cell_of(to));
    let (s, t) = (
        (i64::from(s.0), i64::from(s.1)),
        (i64::from(t.0), i64::from(t.1)),
    );
    let mut seen = vec![false; (h * w) as usize];
    let mut stack = vec![s];
    seen[(s.0 * w + s.1) as usize] = true;
    while let Some((r, c)) = stack.pop() {
        if (r, c) == t {
            return true;
        }
        let polar = if r == 0 || r == h - 1 { w } else { 0 };
        let around = (0..polar).map(|k| (r, k));
        for (nr, nc) in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            .into_iter()
            .chain(around)
        {
            let nc = nc.rem_euclid(w);
            if nr >= 0 && nr < h && g.is_free(nr, nc) && !seen[(nr * w + nc) as usize] {
                seen[(nr * w + nc) as usize] = true;
                stack.push((nr, nc));
            }
        }
    }
    false
}
