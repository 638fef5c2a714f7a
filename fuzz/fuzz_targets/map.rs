//! `.map` reader: any bytes give a map or a typed error, never a panic; a map that parses
//! writes back to text that parses to the same map, and converts to a grid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use taut::grid::{FreeSet, Grid, MapFile};

fuzz_target!(|data: &[u8]| {
    let Ok(map) = MapFile::parse(data) else {
        return;
    };
    let again = MapFile::parse(map.to_text().as_bytes()).expect("to_text output must parse");
    assert_eq!(map, again, "to_text must round-trip");
    let grid = Grid::from_map(&map, &FreeSet::default());
    assert_eq!(
        (i64::from(grid.width()), i64::from(grid.height())),
        (i64::from(map.width()), i64::from(map.height()))
    );
});
