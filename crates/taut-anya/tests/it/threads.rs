//! One grid shared by several threads, one search context per thread: every thread gets
//! exactly the answers of a single-threaded run. The types involved are checked at compile time
//! to be shareable (`Grid: Send + Sync`) and movable between threads (`SearchContext: Send`).

use taut_anya::{AnyaPlanner, Options, SearchContext};
use taut_grid::{Answer, Grid};
use taut_testdata::{assert_send, assert_send_sync, assert_threads_agree, fixture_queries};

const _: () = {
    assert_send_sync::<Grid>();
    assert_send_sync::<Options>();
    assert_send::<SearchContext>();
    assert_send::<AnyaPlanner<std::sync::Arc<taut_grid::Grid>>>();
};

#[test]
fn threads_sharing_one_grid_agree_with_one_thread() {
    let (grid, queries) = fixture_queries("arena");
    // Each thread runs the queries in its own order, so contexts are warm in different states;
    // the answers (waypoints, length and statistics) must not depend on it.
    assert_threads_agree(
        4,
        &queries,
        || (SearchContext::new(), Answer::default()),
        |(ctx, out), &(s, t)| {
            ctx.search(&grid, s, t, &Options::default(), out).unwrap();
            out.clone()
        },
    );
}
