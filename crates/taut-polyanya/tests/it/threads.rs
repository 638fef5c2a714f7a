//! One mesh shared by several threads, one search context per thread: every thread gets
//! exactly the answers of a single-threaded run. The types are checked at compile time to be
//! shareable (`Mesh: Send + Sync`) and movable (`SearchContext: Send`).

use taut_mesh::{Ambiguity, Mesh, MeshAnswer, read_mesh};
use taut_polyanya::{Options, PolyanyaPlanner, SearchContext};
use taut_testdata::{
    assert_send, assert_send_sync, assert_threads_agree, fixture_queries, fixtures, mesh_queries,
};

const _: () = {
    assert_send_sync::<Mesh>();
    assert_send_sync::<Options>();
    assert_send::<SearchContext>();
    assert_send::<PolyanyaPlanner<std::sync::Arc<taut_grid::Grid>>>();
};

#[test]
fn threads_sharing_one_mesh_agree_with_one_thread() {
    let mesh = read_mesh(&fixtures().join("meshes/arena-merged.mesh")).unwrap();
    let queries = mesh_queries(&fixture_queries("arena").1);
    let o = Options {
        ambiguity: Ambiguity::Towards(1.0, 1.0),
        ..Options::default()
    };
    // Each thread runs the queries in its own order, so contexts are warm in different states.
    assert_threads_agree(
        4,
        &queries,
        || (SearchContext::new(), MeshAnswer::default()),
        |(ctx, out), &(s, t)| {
            ctx.search(&mesh, s, t, &o, out).unwrap();
            out.clone()
        },
    );
}
