//! One `Eps` (mesh and CPD) shared by 8 threads, each with its own context, answers exactly
//! as one thread does; and the shared types are `Send + Sync`.

mod common;

use common::arena_eps;
use taut_cpd::{Corners, Cpd, Eps, EpsContext, Graph, Stop};
use taut_mesh::{Ambiguity, MeshAnswer, MeshPoint};

const fn send_sync<T: Send + Sync>() {}
const _: () = {
    send_sync::<Eps>();
    send_sync::<Cpd>();
    send_sync::<Graph>();
    send_sync::<Corners>();
};

#[test]
fn eight_threads_answer_as_one() {
    let (eps, queries) = arena_eps();
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
