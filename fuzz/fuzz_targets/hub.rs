//! Hub index reader: any bytes give a checked index or a typed error, never a panic or an
//! allocation sized by an unchecked count. A decoded index re-encodes to the same bytes, and
//! answers queries between the free points of its own map without panicking, each found
//! path running from start to goal.
//!
//! A checksum guards every file, so random bytes almost never reach the structural checks.
//! The first input byte therefore picks the mode: even, the rest of the input is a whole file;
//! odd, it is a body that the target frames with a correct prefix and XXH3-128, as a file
//! damaged before its checksum was written would be.
#![no_main]

use std::sync::Arc;

#[path = "common/framing.rs"]
mod framing;

use framing::framed;
use libfuzzer_sys::fuzz_target;
use taut::grid::{Answer, Grid, Planner, Point, Status};
use taut::hub::{FORMAT_VERSION, HUB_MAGIC, HubPlanner, checksum, decode_hub, encode_hub};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode % 2 == 0 {
        rest.to_vec()
    } else {
        framed(&HUB_MAGIC, FORMAT_VERSION, rest, checksum)
    };
    let Ok(index) = decode_hub(&bytes) else {
        return;
    };
    assert_eq!(
        encode_hub(&index),
        bytes,
        "a decoded index re-encodes to its bytes"
    );
    let (w, h) = index.size();
    if w > 64 || h > 64 {
        return;
    }
    let grid = Grid::from_fn(w as u32, h as u32, |x, y| index.is_free(x as i32, y as i32));
    let free: Vec<Point> = (0..h)
        .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
        .filter(|p| grid.is_free(p.x, p.y))
        .take(10)
        .collect();
    let mut planner = HubPlanner::new(&grid, Arc::new(index)).expect("the index's own grid");
    let mut answer = Answer::default();
    for &s in &free {
        for &t in &free {
            if planner.plan(s, t, &mut answer) == Ok(Status::Found) {
                assert_eq!(answer.waypoints.first(), Some(&s));
                assert_eq!(answer.waypoints.last(), Some(&t));
            }
        }
    }
});
