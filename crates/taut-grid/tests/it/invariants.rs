//! Compile-time architecture invariants of the grid layer (see `docs/architecture.md`).

use taut_grid::{Answer, FreeSet, Grid, GridError, MapFile, QueryError, Scenario};

fn shared_across_threads<T: Send + Sync>() {}

#[test]
fn immutable_data_is_send_and_sync() {
    // Built once, shared by every thread that searches it.
    shared_across_threads::<Grid>();
    shared_across_threads::<MapFile>();
    shared_across_threads::<Scenario>();
    shared_across_threads::<FreeSet>();
    // Results and errors travel between threads too.
    shared_across_threads::<Answer>();
    shared_across_threads::<GridError>();
    shared_across_threads::<QueryError>();
}

#[test]
fn the_segment_examples_of_architecture_md_hold() {
    use taut_grid::Point;
    let g = Grid::from_ascii(&[".@.", "@.."]).unwrap();
    let (a, p, e) = (Point::new(0, 0), Point::new(1, 1), Point::new(2, 1));
    let (b, c, d) = (Point::new(2, 2), Point::new(0, 2), Point::new(1, 2));
    assert!(g.is_double_corner(p));
    assert!(g.segment_is_legal(a, p));
    assert!(!g.segment_is_legal(a, b));
    assert!(g.segment_is_legal(p, e));
    assert!(!g.segment_is_legal(c, d));
    // An endpoint on the double corner may leave into its own (south-east) cell only.
    assert!(g.endpoint_allows(p, b));
    assert!(!g.endpoint_allows(p, a));
}
