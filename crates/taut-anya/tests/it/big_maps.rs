//! Anya on maps large enough to overflow narrow integers: a map taller than 46,341 rows
//! (row distances whose product exceeds `i32::MAX` in the f-value), and a map of more than
//! 2^32 lattice points (the key of the hashed root history).

use taut_anya::{Options, RootHistory, SearchContext};
use taut_grid::{Answer, Grid, MAX_SIDE, Point, Status};
use taut_testdata::check_answer;

/// Runs one query with `history` and checks status, legality, and the length `expected`.
fn check(g: &Grid, s: Point, t: Point, history: RootHistory, expected: f64) {
    let mut ctx = SearchContext::new();
    let mut a = Answer::default();
    let o = Options {
        history,
        ..Options::default()
    };
    let st = ctx.search(g, s, t, &o, &mut a).unwrap();
    assert_eq!(st, Status::Found, "{history:?}");
    if let Err(e) = check_answer(g, s, t, &a, Some(expected)) {
        panic!("{history:?}: {e}");
    }
}

/// A 3-wide map 100,001 rows tall with a wall down the middle column that stops one row short
/// of the bottom: from (0, 0) to (2, 0) the path goes down 100,000 rows and back up. On the
/// way down the root (0, 0) and the goal are 10^5 rows from the node's row on the same side;
/// the f-value's same-side test multiplied the two row distances in `i32` (an overflow panic
/// in debug builds, a wrong f-value in release).
#[test]
fn u_turn_on_a_map_100k_rows_tall() {
    let h = 100_001u32;
    let g = Grid::from_fn(3, h, |x, y| x != 1 || y == h - 1);
    // (0,0) -> (1,100000) -> (2,100000) -> (2,0).
    let expected = (1.0f64 + 1e10).sqrt() + 1.0 + 100_000.0;
    for history in [RootHistory::Flat, RootHistory::Hash] {
        check(&g, Point::new(0, 0), Point::new(2, 0), history, expected);
    }
}

/// A map of `MAX_SIDE` × 4101 cells (more than 2^32 lattice points, 0.5 GiB of cell bits):
/// a corridor from the start S = (1044481, 0) down to the corner P = (1044481, 3), west along
/// row 3 to the corner (2, 4), down column 1 to the corner Q = (2, 4100) and east to the goal
/// (7, 4100). The lattice indices `y * (W + 1) + x` of P and Q differ by exactly 2^32, so a
/// root history keyed by the index truncated to `u32` takes Q for P, already reached with
/// g = 3, and prunes the only way to the goal. (The flat history would need 68 GB here: the
/// hashed one is the only choice for such maps.)
///
/// Ignored by default (about 0.5 GiB and some seconds to build the grid); run with
/// `cargo test --release -p taut-anya --test it big_maps:: -- --ignored`.
#[test]
#[ignore = "0.5 GiB map; run explicitly in release mode"]
fn hashed_root_history_on_more_than_2_pow_32_points() {
    let w = MAX_SIDE;
    let stride = u64::from(w) + 1;
    let (px, py) = (1_044_481u32, 3u32);
    let (qx, qy) = (2u32, 4100u32);
    assert_eq!(
        (u64::from(qy) * stride + u64::from(qx)) - (u64::from(py) * stride + u64::from(px)),
        1 << 32
    );
    let g = Grid::from_fn(w, qy + 1, |x, y| {
        (x == px && y <= py)
            || (y == py && (qx - 1..=px).contains(&x))
            || (x == qx - 1 && (py..=qy).contains(&y))
            || (y == qy && (qx - 1..=qx + 5).contains(&x))
    });
    let (s, t) = (
        Point::new(px as i32, 0),
        Point::new(qx as i32 + 5, qy as i32),
    );
    // S -> P -> (2, 4) -> Q -> goal.
    let expected = 3.0 + (f64::from(px - qx).powi(2) + 1.0).sqrt() + f64::from(qy - 4) + 5.0;
    check(&g, s, t, RootHistory::Hash, expected);
}
