//! Helpers shared by this crate's test binaries.

use taut_grid::{FreeSet, Grid, MapFile, Point, Scenario};

/// The arena fixture (`fixtures/maps/arena.map`) and the 130 queries of its scenario file.
pub fn arena() -> (Grid, Vec<(Point, Point)>) {
    let maps = taut_testdata::fixtures().join("maps");
    let map = MapFile::read(maps.join("arena.map")).unwrap();
    let scen = Scenario::read(maps.join("arena.map.scen")).unwrap();
    let queries: Vec<_> = scen.entries.iter().map(|e| (e.start, e.goal)).collect();
    assert_eq!(queries.len(), 130);
    (Grid::from_map(&map, &FreeSet::default()), queries)
}
