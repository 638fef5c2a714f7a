//! One `Eps` (mesh and CPD) shared by 8 threads, each with its own context, answers exactly
//! as one thread does; and the shared types are `Send + Sync`.

use crate::common::arena_eps;
use taut_cpd::graph::{Corners, Graph};
use taut_cpd::{Cpd, EpsContext, Stop};
use taut_mesh::{Ambiguity, MeshAnswer};
use taut_testdata::{assert_send_sync, assert_threads_agree};

const _: () = {
    assert_send_sync::<taut_cpd::Eps>();
    assert_send_sync::<Cpd>();
    assert_send_sync::<Graph>();
    assert_send_sync::<Corners>();
};

#[test]
fn eight_threads_answer_as_one() {
    let (eps, queries) = arena_eps();
    assert_threads_agree(
        8,
        &queries,
        || (EpsContext::new(), MeshAnswer::default()),
        |(ctx, a), &(s, t)| {
            ctx.search(&eps, s, t, Stop::Optimal, Ambiguity::Towards(1.0, 1.0), a)
                .unwrap();
            (a.length, a.waypoints.clone())
        },
    );
}
