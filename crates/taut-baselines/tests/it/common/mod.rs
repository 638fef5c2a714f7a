//! Helpers shared by this crate's test binaries.

use taut_grid::{Grid, Point};

/// The arena fixture (`fixtures/maps/arena.map`) and the 130 queries of its scenario file.
pub fn arena() -> (Grid, Vec<(Point, Point)>) {
    let (grid, queries) = taut_testdata::fixture_queries("arena");
    assert_eq!(queries.len(), 130);
    (grid, queries)
}
