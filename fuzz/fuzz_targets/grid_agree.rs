//! Every planner on one tiny grid: Anya, the visibility graph, Polyanya on the merged and the
//! triangle mesh, End Point Search (optimal and first solution), Theta*, Lazy Theta* and A*
//! must agree (`taut_hardening::Oracle`: same status or error, optimal lengths within 1e-9,
//! legal paths, nobody below the optimum).
//!
//! Input: byte 0 picks the map family (one of `taut_hardening::maps::Family` or, for the last
//! value, a raw bitmap taken from the bytes after the header), bytes 1 and 2 the width and
//! height (1 to 16), bytes 3..11 the seed of the map and of the queries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use taut::grid::Grid;
use taut_hardening::Oracle;
use taut_hardening::maps::{Family, generate, queries};

fuzz_target!(|data: &[u8]| {
    let Some((header, rest)) = data.split_at_checked(11) else {
        return;
    };
    let w = 1 + u32::from(header[1] % 16);
    let h = 1 + u32::from(header[2] % 16);
    let seed = u64::from_le_bytes(header[3..11].try_into().expect("8 bytes"));
    let family = usize::from(header[0]) % (Family::ALL.len() + 1);
    let grid = match Family::ALL.get(family) {
        Some(&f) => generate(f, w, h, seed),
        None => Grid::from_fn(w, h, |x, y| {
            let i = (y * w + x) as usize;
            rest.get(i / 8).is_none_or(|b| b >> (i % 8) & 1 == 0)
        }),
    };
    let mut oracle =
        Oracle::new(&grid).unwrap_or_else(|e| panic!("{e} on\n{}", taut_hardening::show(&grid)));
    for (s, t) in queries(&grid, 8, seed) {
        if let Err(e) = oracle.check(s, t) {
            panic!("{e} on\n{}", taut_hardening::show(&grid));
        }
    }
});
