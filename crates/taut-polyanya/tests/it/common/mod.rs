//! Shared test support: Polyanya's option sets and the Anya oracle. (Cell meshes, free
//! points and the answer checker come from `taut_testdata`.)
#![allow(dead_code)]

use std::sync::Arc;

use taut_anya::AnyaPlanner;
use taut_grid::{Answer, Grid, Planner, Point, Status};
use taut_mesh::Mesh;
use taut_polyanya::{Options, PolyanyaPlanner};
use taut_testdata::{Tolerances, check_answer_within, show};

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
/// 1e-9, legal paths whose polyline length is the reported length (within 1e-9).
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
                check_answer_within(g, s, t, &got, Some(want.length), Tolerances::both(1e-9))
                    .map_err(|e| {
                        format!(
                            "{what}: polyanya {e}; anya {} {:?}\n{}",
                            want.length,
                            want.waypoints,
                            show(g)
                        )
                    })?;
            }
        }
    }
    Ok(())
}
