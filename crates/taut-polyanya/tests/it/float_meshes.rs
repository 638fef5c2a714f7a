//! Floating-point meshes: a grid's cell mesh scaled by a factor that is not a power of two and
//! shifted by a fraction, so that its coordinates are rounded and points that were collinear
//! may no longer be exactly so. Polyanya decides with exact predicates on the stored
//! coordinates; its lengths must equal the scaled Anya lengths to a relative 1e-9, and its
//! paths must stay inside the mesh (checked by mapping the waypoints back and walking them on
//! the grid).

use proptest::prelude::*;
use taut_anya::AnyaPlanner;
use taut_grid::{Answer, Grid, Planner, Point, Status};
use taut_mesh::{Ambiguity, Mesh, MeshAnswer, MeshPoint};
use taut_polyanya::{Options, SearchContext};
use taut_testdata::{cell_mesh, random_grid_with, spread_queries};

fn transformed(mesh: &Mesh, scale: f64, dx: f64, dy: f64) -> Mesh {
    let points = mesh
        .points()
        .iter()
        .map(|p| MeshPoint::new(p.x * scale + dx, p.y * scale + dy))
        .collect();
    let polys: Vec<Vec<u32>> = (0..mesh.polygon_count() as u32)
        .map(|p| mesh.poly_vertices(p).to_vec())
        .collect();
    Mesh::new(points, &polys).expect("a scaled cell mesh is valid")
}

fn check(g: &Grid, scale: f64, dx: f64, dy: f64) -> Result<(), TestCaseError> {
    let Some(cells) = cell_mesh(g) else {
        return Ok(());
    };
    let mesh = transformed(&cells, scale, dx, dy);
    prop_assert!(!mesh.is_integer());
    let mut anya = AnyaPlanner::new(g);
    let mut want = Answer::default();
    let mut ctx = SearchContext::new();
    let mut got = MeshAnswer::default();
    let options = Options {
        ambiguity: Ambiguity::Towards(1.0, 1.0),
        ..Options::default()
    };
    let map = |p: Point| MeshPoint::new(f64::from(p.x) * scale + dx, f64::from(p.y) * scale + dy);
    for (s, t) in spread_queries(g, 8) {
        let a = anya.plan(s, t, &mut want).unwrap();
        let b = ctx
            .search(&mesh, map(s), map(t), &options, &mut got)
            .map_err(|e| TestCaseError::fail(format!("{s:?}->{t:?}: {e}")))?;
        prop_assert_eq!(a, b, "{:?} -> {:?}", s, t);
        if a != Status::Found {
            continue;
        }
        let want_len = want.length * scale;
        prop_assert!(
            (got.length - want_len).abs() <= 1e-9 * (1.0 + want_len),
            "{:?} -> {:?}: {} vs {} ({:?})",
            s,
            t,
            got.length,
            want_len,
            got.waypoints
        );
        // Turning points are vertices: map them back to lattice points and walk the path.
        let back: Vec<Point> = got
            .waypoints
            .iter()
            .map(|p| {
                Point::new(
                    ((p.x - dx) / scale).round() as i32,
                    ((p.y - dy) / scale).round() as i32,
                )
            })
            .collect();
        g.check_path(s, t, &back)
            .map_err(|e| TestCaseError::fail(format!("{s:?}->{t:?}: {back:?}: {e}")))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn scaled_and_shifted_meshes_give_the_scaled_lengths(
        g in random_grid_with(1..=14, 0.0..0.5),
        scale in 0.013f64..7.9,
        dx in -50.0f64..50.0,
        dy in -50.0f64..50.0,
    ) {
        check(&g, scale, dx, dy)?;
    }
}
