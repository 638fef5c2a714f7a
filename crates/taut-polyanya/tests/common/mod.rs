//! Shared test support: meshes of grids and the Anya oracle.
#![allow(dead_code)]

use std::sync::Arc;

use taut_anya::AnyaPlanner;
use taut_grid::{Answer, Grid, Planner, Point, Status};
use taut_mesh::{Mesh, MeshPoint};
use taut_polyanya::{Options, PolyanyaPlanner};

/// The simplest mesh of a grid's free space: one unit square per free cell. Independent of
/// the mesh builder, and full of collinear vertices and ambiguous double corners.
pub fn cell_mesh(g: &Grid) -> Option<Mesh> {
    let (w, h) = (g.width(), g.height());
    let id = |x: i32, y: i32| (y * (w + 1) + x) as u32;
    let points = (0..=h)
        .flat_map(|y| (0..=w).map(move |x| MeshPoint::new(f64::from(x), f64::from(y))))
        .collect();
    let mut polys = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if g.is_free(x, y) {
                polys.push(vec![id(x, y), id(x + 1, y), id(x + 1, y + 1), id(x, y + 1)]);
            }
        }
    }
    if polys.is_empty() {
        return None;
    }
    Some(Mesh::new(points, &polys).expect("cell mesh is valid"))
}

/// Lattice points whose south-east cell is free: the valid query points of a grid.
pub fn free_points(g: &Grid) -> Vec<Point> {
    let mut v = Vec::new();
    for y in 0..g.height() {
        for x in 0..g.width() {
            if g.is_free(x, y) {
                v.push(Point::new(x, y));
            }
        }
    }
    v
}

/// Every option combination of Polyanya.
pub fn all_options() -> Vec<Options> {
    let mut v = Vec::new();
    for cul_de_sac in [false, true] {
        for intermediate in [false, true] {
            v.push(Options {
                cul_de_sac,
                intermediate,
                ..Options::default()
            });
        }
    }
    v
}

/// Polyanya on `mesh` against Anya on `g` for every query: same status, lengths within
/// 1e-9, legal paths whose polyline length is the reported length.
pub fn check_against_anya(
    g: &Grid,
    mesh: &Arc<Mesh>,
    queries: &[(Point, Point)],
    options: &[Options],
) -> Result<(), String> {
    let mut anya = AnyaPlanner::new(g);
    let mut want = Answer::default();
    let mut got = Answer::default();
    let mut planners: Vec<_> = options
        .iter()
        .map(|o| PolyanyaPlanner::with_options(g, mesh.clone(), *o))
        .collect();
    for &(s, t) in queries {
        let a = anya.plan(s, t, &mut want).map_err(|e| e.to_string())?;
        for (p, o) in planners.iter_mut().zip(options) {
            let b = p
                .plan(s, t, &mut got)
                .map_err(|e| format!("{s:?}->{t:?}: {e}"))?;
            let what = format!("{s:?} -> {t:?} with {o:?}");
            if a != b {
                return Err(format!(
                    "{what}: anya {a:?} {:?}, polyanya {b:?} {:?}\n{}",
                    want.waypoints,
                    got.waypoints,
                    show(g)
                ));
            }
            if a == Status::Found {
                if (want.length - got.length).abs() > 1e-9 {
                    return Err(format!(
                        "{what}: anya {} {:?}, polyanya {} {:?}\n{}",
                        want.length,
                        want.waypoints,
                        got.length,
                        got.waypoints,
                        show(g)
                    ));
                }
                g.check_path(s, t, &got.waypoints).map_err(|e| {
                    format!("{what}: illegal {:?}: {e}\n{}", got.waypoints, show(g))
                })?;
                let poly: f64 = got
                    .waypoints
                    .windows(2)
                    .map(|w| f64::from(w[1].x - w[0].x).hypot(f64::from(w[1].y - w[0].y)))
                    .sum();
                if (poly - got.length).abs() > 1e-9 {
                    return Err(format!("{what}: polyline {poly} reported {}", got.length));
                }
            }
        }
    }
    Ok(())
}

/// The grid as text, for failure messages.
pub fn show(g: &Grid) -> String {
    let mut s = String::new();
    for y in 0..g.height() {
        for x in 0..g.width() {
            s.push(if g.is_free(x, y) { '.' } else { '@' });
        }
        s.push('\n');
    }
    s
}
