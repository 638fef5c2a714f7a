//! End Point Search against Anya (an independent optimal planner) on random grids: equal
//! lengths for every query, legal paths, and an anytime sequence that only improves.

use std::sync::Arc;

use proptest::prelude::*;
use taut_anya::AnyaPlanner;
use taut_cpd::graph::{Corners, Graph};
use taut_cpd::{BuildParams, Cpd, Eps, EpsContext, EpsPlanner, NoProgress, Stop, mesh_hash};
use taut_grid::{Answer, Grid, Planner, Point, Status};
use taut_mesh::{Ambiguity, Mesh, mesh_from_grid};
use taut_testdata::{
    Tolerances, cell_mesh, check_answer_within, double_corner_grid, free_points, lattice_point,
    mesh_point, random_grid,
};

fn eps_of(mesh: Mesh) -> Arc<Eps> {
    let corners = Corners::of(&mesh);
    let graph = Graph::build(&mesh, &corners).expect("graph");
    let cpd = Cpd::from_graph(
        graph,
        mesh_hash(&mesh),
        &BuildParams::default(),
        &NoProgress,
    );
    Arc::new(Eps::new(Arc::new(mesh), Arc::new(cpd)).expect("eps"))
}

fn check(g: &Grid, eps: &Arc<Eps>, stride: usize) -> Result<(), TestCaseError> {
    let pts = free_points(g);
    let mut anya = AnyaPlanner::new(g);
    let mut planner = EpsPlanner::new(g, eps.clone(), Stop::Optimal);
    let mut ctx = EpsContext::new();
    let (mut want, mut got) = (Answer::default(), Answer::default());
    let mut path = Vec::new();
    let mut k = 0usize;
    for &s in &pts {
        for &t in &pts {
            k += 1;
            if !k.is_multiple_of(stride) {
                continue;
            }
            let a = anya.plan(s, t, &mut want).expect("anya");
            let b = planner.plan(s, t, &mut got).expect("eps");
            prop_assert_eq!(a, b, "{:?}->{:?}", s, t);
            if a != Status::Found {
                continue;
            }
            // Legal, measuring its length, and Anya's length (to 1e-9).
            if let Err(e) =
                check_answer_within(g, s, t, &got, Some(want.length), Tolerances::both(1e-9))
            {
                prop_assert!(false, "eps {}; anya {:?}", e, want.waypoints);
            }
            // Anytime: strictly improving legal paths, the last one optimal.
            ctx.start(
                eps,
                mesh_point(s),
                mesh_point(t),
                Ambiguity::Towards(1.0, 1.0),
            )
            .expect("start");
            let mut last = f64::INFINITY;
            let mut n = 0;
            while let Some(sol) = ctx.next_solution(eps) {
                n += 1;
                ctx.best_path(eps, &mut path);
                let lp: Vec<Point> = path.iter().map(|&p| lattice_point(p)).collect();
                prop_assert!(g.check_path(s, t, &lp).is_ok(), "anytime path {:?}", lp);
                let len: f64 = path.windows(2).map(|w| w[0].dist(w[1])).sum();
                prop_assert!((len - sol.length).abs() <= 1e-9);
                prop_assert!(sol.lower_bound <= sol.length + 1e-12);
                prop_assert!(
                    sol.lower_bound <= want.length + 1e-9,
                    "bound {} > optimum {}",
                    sol.lower_bound,
                    want.length
                );
                if sol.optimal {
                    prop_assert!((sol.length - want.length).abs() <= 1e-9);
                    prop_assert!(sol.length <= last);
                } else {
                    prop_assert!(
                        sol.length < last,
                        "not improving: {} then {}",
                        last,
                        sol.length
                    );
                }
                last = sol.length;
            }
            prop_assert!(n >= 1);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn eps_on_merged_meshes_equals_anya(g in random_grid(12)) {
        if let Ok(mesh) = mesh_from_grid(&g) {
            check(&g, &eps_of(mesh), 3)?;
        }
    }

    #[test]
    fn eps_on_cell_meshes_equals_anya(g in random_grid(10)) {
        if let Some(mesh) = cell_mesh(&g) {
            check(&g, &eps_of(mesh), 3)?;
        }
    }

    #[test]
    fn eps_with_double_corners_equals_anya(g in double_corner_grid(14)) {
        if let Ok(mesh) = mesh_from_grid(&g) {
            check(&g, &eps_of(mesh), 5)?;
        }
    }
}
