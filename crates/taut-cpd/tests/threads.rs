//! One `Eps` (mesh and CPD) shared by 8 threads, each with its own context, answers exactly
//! as one thread does; and the shared types are `Send + Sync`.

use std::sync::Arc;

use taut_cpd::{BuildParams, Corners, Cpd, Eps, EpsContext, Graph, NoProgress, Stop, mesh_hash};
use taut_grid::{FreeSet, Grid, MapFile, Scenario};
use taut_polyanya::{Ambiguity, MeshAnswer, MeshPoint, mesh_from_grid};
use taut_testdata::fixtures;

const fn send_sync<T: Send + Sync>() {}
const _: () = {
    send_sync::<Eps>();
    send_sync::<Cpd>();
    send_sync::<Graph>();
    send_sync::<Corners>();
};

#[test]
fn eight_threads_answer_as_one() {
    let grid = Grid::from_map(
        &MapFile::read(fixtures().join("maps/arena.map")).unwrap(),
        &FreeSet::default(),
    );
    let mesh = Arc::new(mesh_from_grid(&grid).unwrap());
    let corners = Corners::of(&mesh);
    let graph = Graph::build(&mesh, &corners).unwrap();
    let cpd = Cpd::from_graph(
        graph,
        mesh_hash(&mesh),
        &BuildParams::default(),
        &NoProgress,
    );
    let eps = Arc::new(Eps::new(mesh, Arc::new(cpd)).unwrap());
    let scen = Scenario::read(fixtures().join("maps/arena.map.scen")).unwrap();
    let p = |q: taut_grid::Point| MeshPoint::new(f64::from(q.x), f64::from(q.y));
    let queries: Vec<_> = scen
        .entries
        .iter()
        .map(|e| (p(e.start), p(e.goal)))
        .collect();
    let solve = |eps: &Eps| -> Vec<(f64, Vec<MeshPoint>)> {
        let mut ctx = EpsContext::new();
        let mut a = MeshAnswer::default();
        queries
            .iter()
            .map(|&(s, t)| {
                ctx.search(
                    eps,
                    s,
                    t,
                    Stop::Optimal,
                    Ambiguity::Towards(1.0, 1.0),
                    &mut a,
                )
                .unwrap();
                (a.length, a.waypoints.clone())
            })
            .collect()
    };
    let one = solve(&eps);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let eps = eps.clone();
                scope.spawn(move || solve(&eps))
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), one);
        }
    });
}
