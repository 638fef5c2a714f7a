//! Unit tests of the grid model, line of sight and legality rules.

use proptest::prelude::*;
use taut_geom::{Point, Rational};

use crate::{Grid, PathViolation, quad};

fn p(x: i32, y: i32) -> Point {
    Point::new(x, y)
}

/// Independent, brute-force segment legality: checks every cell, unit edge and lattice point
/// of the bounding box against the three rules with exact rational clipping.
fn brute_legal(g: &Grid, a: Point, b: Point) -> bool {
    if !g.contains_point(a) || !g.contains_point(b) {
        return false;
    }
    if a == b {
        return g.is_traversable_point(a);
    }
    let (x0, x1) = (a.x.min(b.x) - 1, a.x.max(b.x) + 1);
    let (y0, y1) = (a.y.min(b.y) - 1, a.y.max(b.y) + 1);
    let (dx, dy) = (i64::from(b.x - a.x), i64::from(b.y - a.y));
    // Rule 1: interior of blocked cells. Find the open t-interval where x(t) in (cx, cx+1)
    // and y(t) in (cy, cy+1), intersected with [0, 1].
    let open_range = |p0: i64, d: i64, lo: i64, hi: i64| -> Option<(Rational, Rational)> {
        // lo < p0 + t d < hi
        if d == 0 {
            return (lo < p0 && p0 < hi)
                .then(|| (Rational::from_integer(-1000), Rational::from_integer(1000)));
        }
        let t1 = Rational::new(lo - p0, d);
        let t2 = Rational::new(hi - p0, d);
        Some(if t1 < t2 { (t1, t2) } else { (t2, t1) })
    };
    for cx in x0..=x1 {
        for cy in y0..=y1 {
            if cx < -1 || cy < -1 || cx > g.width() || cy > g.height() || g.is_free_padded(cx, cy) {
                continue;
            }
            let (Some((l1, u1)), Some((l2, u2))) = (
                open_range(i64::from(a.x), dx, i64::from(cx), i64::from(cx) + 1),
                open_range(i64::from(a.y), dy, i64::from(cy), i64::from(cy) + 1),
            ) else {
                continue;
            };
            let l = l1.max(l2);
            let u = u1.min(u2);
            if l < u && l < Rational::from_integer(1) && u > Rational::from_integer(0) {
                return false;
            }
        }
    }
    // Rule 2: an edge covered by the segment with both cells blocked.
    if dy == 0 {
        for x in a.x.min(b.x)..a.x.max(b.x) {
            if !g.is_free(x, a.y - 1) && !g.is_free(x, a.y) {
                return false;
            }
        }
    }
    if dx == 0 {
        for y in a.y.min(b.y)..a.y.max(b.y) {
            if !g.is_free(a.x - 1, y) && !g.is_free(a.x, y) {
                return false;
            }
        }
    }
    // Rule 3: lattice points strictly inside the segment that are double corners.
    for x in x0..=x1 {
        for y in y0..=y1 {
            let q = p(x, y);
            if q == a || q == b {
                continue;
            }
            let (ex, ey) = (i64::from(x - a.x), i64::from(y - a.y));
            let collinear = ex * dy == ey * dx;
            let between = ex * dx + ey * dy > 0 && ex * dx + ey * dy < dx * dx + dy * dy;
            if collinear && between && g.is_double_corner(q) {
                return false;
            }
        }
    }
    true
}

fn arb_grid(max: u32) -> impl Strategy<Value = Grid> {
    (1..=max, 1..=max, 0.0..0.6f64, any::<u64>()).prop_map(|(w, h, density, seed)| {
        let mut s = seed | 1;
        Grid::from_fn(w, h, |_, _| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % 1000) as f64 / 1000.0 >= density
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn segment_legality_matches_brute_force(g in arb_grid(12), pts in proptest::collection::vec((0..=13i32, 0..=13i32), 16)) {
        for w in pts.windows(2) {
            let (a, b) = (p(w[0].0, w[0].1), p(w[1].0, w[1].1));
            prop_assert_eq!(g.segment_is_legal(a, b), brute_legal(&g, a, b), "{:?} {} -> {}", g, a, b);
            prop_assert_eq!(g.segment_is_legal(a, b), g.segment_is_legal(b, a));
            prop_assert_eq!(g.line_of_sight(a, b), g.segment_is_legal(a, b), "{:?} {} -> {}", g, a, b);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// The incremental line of sight on larger grids, long and steep segments included.
    #[test]
    fn line_of_sight_matches_segment_legality(g in arb_grid(40), pts in proptest::collection::vec((0..=41i32, 0..=41i32), 64)) {
        for w in pts.windows(2) {
            let (a, b) = (p(w[0].0, w[0].1), p(w[1].0, w[1].1));
            prop_assert_eq!(g.line_of_sight(a, b), g.segment_is_legal(a, b), "{} -> {}", a, b);
            prop_assert_eq!(g.line_of_sight(b, a), g.segment_is_legal(a, b), "{} -> {}", b, a);
        }
    }
}

#[test]
fn padding_blocks_the_border() {
    let g = Grid::from_ascii(&["..", ".."]).unwrap();
    // Along the top border: off-map cells above, free cells below: legal.
    assert!(g.segment_is_legal(p(0, 0), p(2, 0)));
    // Entirely outside the map.
    assert!(!g.segment_is_legal(p(0, 0), p(3, 0)));
    assert!(!g.is_free(-1, 0) && !g.is_free(2, 0) && !g.is_free(0, -1) && !g.is_free(0, 2));
    assert!(!g.is_free(-5, 100));
    assert_eq!(g.point_cells(p(0, 0)), quad::SE);
    assert_eq!(
        g.point_cells(p(1, 1)),
        quad::NW | quad::NE | quad::SW | quad::SE
    );
}

#[test]
fn edge_between_two_blocked_cells_is_illegal() {
    let g = Grid::from_ascii(&["...", "@@.", "@@.", "..."]).unwrap();
    // x = 1 between the two blocked columns: illegal; x = 2 borders free cells: legal.
    assert!(!g.segment_is_legal(p(1, 1), p(1, 3)));
    assert!(g.segment_is_legal(p(2, 1), p(2, 3)));
    // Along the left border next to blocked cells: the border counts as blocked.
    assert!(!g.segment_is_legal(p(0, 1), p(0, 3)));
    assert!(g.segment_is_legal(p(0, 0), p(0, 1)));
}

#[test]
fn double_corner_rules() {
    // Blocked cells (1,0) and (0,1) touch diagonally at (1,1).
    let g = Grid::from_ascii(&[".@.", "@..", "..."]).unwrap();
    let dc = p(1, 1);
    assert!(g.is_double_corner(dc));
    assert!(!g.is_corner(dc));
    // Passing straight through it in any direction is illegal.
    assert!(!g.segment_is_legal(p(0, 0), p(2, 2)));
    assert!(!g.segment_is_legal(p(1, 0), p(1, 2)) || !g.is_free(1, 0));
    assert!(!g.segment_is_legal(p(0, 1), p(3, 1)));
    // Touching it from one side is fine.
    assert!(g.segment_is_legal(p(3, 3), dc));
    assert!(
        g.check_path(p(3, 3), p(2, 3), &[p(3, 3), dc, p(2, 3)])
            .is_ok()
    );
    // Turning there from the north-west side to the south-east side is not.
    assert!(g.segment_is_legal(p(0, 0), dc));
    assert_eq!(
        g.check_path(p(0, 0), p(2, 2), &[p(0, 0), dc, p(2, 2)]),
        Err(PathViolation::CrossesDoubleCorner { index: 1, at: dc })
    );
    assert!(!g.turn_allowed(p(0, 0), dc, p(2, 2)));
    assert!(g.turn_allowed(p(3, 2), dc, p(2, 3)));
}

#[test]
fn endpoint_on_double_corner_uses_its_own_cell() {
    let g = Grid::from_ascii(&[".@..", "@...", "...."]).unwrap();
    let s = p(1, 1); // its cell (1,1) is free; the north-west cell (0,0) is free too
    assert!(g.is_double_corner(s));
    assert!(g.check_query(s, p(0, 0)).is_ok());
    // Leaving through the north-west quadrant: the segment is legal but the rule forbids it.
    assert!(g.segment_is_legal(s, p(0, 0)));
    assert_eq!(
        g.check_path(s, p(0, 0), &[s, p(0, 0)]),
        Err(PathViolation::EndpointQuadrant { at: s })
    );
    assert!(!g.endpoint_allows(s, p(0, 0)));
    assert!(g.endpoint_allows(s, p(3, 2)));
    assert!(g.endpoint_allows(s, p(2, 1)));
    assert!(g.check_path(s, p(3, 3), &[s, p(3, 3)]).is_ok());
    // As a goal: arriving from the south-east is fine, from the north-west is not.
    assert!(g.check_path(p(3, 3), s, &[p(3, 3), s]).is_ok());
    assert_eq!(
        g.check_path(p(0, 0), s, &[p(0, 0), s]),
        Err(PathViolation::EndpointQuadrant { at: s })
    );
}

#[test]
fn check_path_reports_shape_errors() {
    let g = Grid::from_ascii(&["...", "...", "..."]).unwrap();
    assert_eq!(
        g.check_path(p(0, 0), p(1, 1), &[]),
        Err(PathViolation::Empty)
    );
    assert_eq!(
        g.check_path(p(0, 0), p(1, 1), &[p(1, 0), p(1, 1)]),
        Err(PathViolation::WrongStart {
            start: p(0, 0),
            found: p(1, 0)
        })
    );
    assert_eq!(
        g.check_path(p(0, 0), p(1, 1), &[p(0, 0), p(2, 1)]),
        Err(PathViolation::WrongGoal {
            goal: p(1, 1),
            found: p(2, 1)
        })
    );
    assert_eq!(
        g.check_path(p(0, 0), p(1, 1), &[p(0, 0), p(0, 0), p(1, 1)]),
        Err(PathViolation::Repeated {
            index: 0,
            at: p(0, 0)
        })
    );
    assert!(g.check_path(p(1, 1), p(1, 1), &[p(1, 1)]).is_ok());
    assert_eq!(
        g.check_path(p(0, 0), p(4, 0), &[p(0, 0), p(4, 0)]),
        Err(PathViolation::Blocked {
            index: 0,
            from: p(0, 0),
            to: p(4, 0)
        })
    );
}

#[test]
fn query_validation() {
    use crate::{Endpoint, QueryError};
    let g = Grid::from_ascii(&[".@", ".."]).unwrap();
    assert!(g.check_query(p(0, 0), p(1, 1)).is_ok());
    assert_eq!(
        g.check_query(p(1, 0), p(0, 0)),
        Err(QueryError::Blocked {
            which: Endpoint::Start,
            point: p(1, 0)
        })
    );
    assert!(matches!(
        g.check_query(p(0, 0), p(2, 0)),
        Err(QueryError::OffMap {
            which: Endpoint::Goal,
            ..
        })
    ));
    assert!(matches!(
        g.check_query(p(-1, 0), p(0, 0)),
        Err(QueryError::OffMap { .. })
    ));
}

fn brute_run(g: &Grid, x: i32, y: i32) -> (i32, i32) {
    let (mut lo, mut hi) = (x, x + 1);
    while g.is_free_padded(lo - 1, y) {
        lo -= 1;
    }
    while g.is_free_padded(hi, y) {
        hi += 1;
    }
    (lo, hi)
}

fn brute_change(g: &Grid, x: i32, y: i32) -> bool {
    g.is_free_padded(x - 1, y - 1) != g.is_free_padded(x, y - 1)
        || g.is_free_padded(x - 1, y) != g.is_free_padded(x, y)
}

proptest! {
    #[test]
    fn row_scans_match_brute_force(w in 1u32..200, h in 1u32..6, seed in any::<u64>(), density in 0u32..100) {
        let mut s = seed | 1;
        let g = Grid::from_fn(w, h, |_, _| {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            (s % 100) as u32 >= density
        });
        let (w, h) = (w as i32, h as i32);
        for y in -1..=h {
            for x in -1..=w {
                if g.is_free_padded(x, y) {
                    prop_assert_eq!(g.free_run(x, y), brute_run(&g, x, y), "run at {},{}", x, y);
                }
            }
        }
        for y in -1..=h {
            for x0 in -1..=w {
                // Every range from x0 (long ones up to 150 cells, across word boundaries).
                for x1 in (x0 - 1)..=w.min(x0 + 150) {
                    let brute = (x0..=x1).all(|x| g.is_free_padded(x, y));
                    prop_assert_eq!(g.all_free(y, x0, x1), brute, "all_free {} {}..={}", y, x0, x1);
                    let first = (x0..=x1).find(|&x| !g.is_free_padded(x, y));
                    prop_assert_eq!(g.first_blocked(y, x0, x1), first, "first_blocked {} {}..={}", y, x0, x1);
                    let last = (x0..=x1).rev().find(|&x| !g.is_free_padded(x, y));
                    prop_assert_eq!(g.last_blocked(y, x0, x1), last, "last_blocked {} {}..={}", y, x0, x1);
                }
            }
        }
        for y in 0..=h {
            for x in -1..=w + 1 {
                let next = (x + 1..=w).find(|&c| brute_change(&g, c, y)).unwrap_or(w + 1);
                prop_assert_eq!(g.next_change(x, y), next, "next from {},{}", x, y);
                let prev = (0..x.min(w + 1)).rev().find(|&c| brute_change(&g, c, y)).unwrap_or(-1);
                prop_assert_eq!(g.prev_change(x, y), prev, "prev from {},{}", x, y);
            }
        }
    }
}

#[test]
fn point_cells_match_single_cell_lookups_across_word_boundaries() {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let g = Grid::from_fn(200, 5, |_, _| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        !s.is_multiple_of(3)
    });
    for y in 0..=5 {
        for x in 0..=200 {
            let mut m = 0;
            for (bit, (dx, dy)) in [
                (quad::NW, (-1, -1)),
                (quad::NE, (0, -1)),
                (quad::SW, (-1, 0)),
                (quad::SE, (0, 0)),
            ] {
                if g.is_free_padded(x + dx, y + dy) {
                    m |= bit;
                }
            }
            assert_eq!(g.point_cells_padded(Point::new(x, y)), m, "({x}, {y})");
        }
    }
}

#[test]
fn length_style_tolerance_is_one_unit_of_the_last_written_digit_at_least_1e_4() {
    use crate::LengthStyle;
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(LengthStyle::Fixed(8).tolerance(123.0), 1e-4 + 1e-9));
    assert!(close(LengthStyle::Fixed(2).tolerance(5.0), 0.01 + 1e-9));
    // 401.764 has three decimals under six significant digits; 3.41421 has five.
    assert!(close(
        LengthStyle::Significant(6).tolerance(401.764),
        0.001 + 1e-9
    ));
    assert!(close(
        LengthStyle::Significant(6).tolerance(3.41421),
        1e-4 + 1e-9
    ));
    // The 2018 arena file's value, which accumulates a rounded √2, is within tolerance.
    let exact = 43.112698372208094;
    assert!((exact - 43.11269836f64).abs() <= LengthStyle::Fixed(8).tolerance(43.11269836));
    // Truncated values are within tolerance of what they stand for.
    for style in [
        LengthStyle::Fixed(2),
        LengthStyle::Fixed(8),
        LengthStyle::Significant(6),
    ] {
        for v in [0.0, 1.0, 1.5, 37.8994949, 512.7071067, 1234.5678901] {
            let written: f64 = style.format(v).parse().unwrap();
            assert!(
                (written - v).abs() <= style.tolerance(written),
                "{style:?} {v} {written}"
            );
        }
    }
}

#[test]
fn convex_corner_masks_are_those_with_three_free_cells() {
    for mask in 0u8..=255 {
        let want = mask < 16 && mask.count_ones() == 3;
        assert_eq!(quad::is_convex_corner(mask), want, "mask {mask:04b}");
    }
}

#[test]
fn edits_change_cells_counts_and_versions_and_refuse_off_map_rectangles() {
    use crate::{CellRect, EditError};
    let mut g = Grid::from_ascii(&["....", "....", "...."]).unwrap();
    assert_eq!(g.set_rect(CellRect::new(1, 0, 2, 2), true), Ok(4));
    assert_eq!(g.to_ascii(), ".@@.\n.@@.\n....\n");
    assert_eq!((g.free_cells(), g.version()), (8, 1));
    // Freeing a rectangle that is half blocked changes only the blocked half.
    assert_eq!(g.set_rect(CellRect::new(2, 1, 2, 2), false), Ok(1));
    assert_eq!(g.to_ascii(), ".@@.\n.@..\n....\n");
    assert_eq!((g.free_cells(), g.version()), (9, 2));
    // Nothing changes: no new version.
    assert_eq!(g.set_rect(CellRect::new(0, 2, 4, 1), false), Ok(0));
    assert_eq!(g.version(), 2);
    // The row and column lookups see the edit (the padded ring is untouched).
    assert_eq!(g.first_blocked(0, 0, 3), Some(1));
    assert!(!g.is_free(-1, 0) && !g.is_free(4, 2));
    for bad in [
        CellRect::new(-1, 0, 1, 1),
        CellRect::new(3, 0, 2, 1),
        CellRect::new(0, 2, 1, 2),
        CellRect::new(0, 0, 0, 1),
    ] {
        let err = g.set_rect(bad, true).unwrap_err();
        assert!(matches!(
            err,
            EditError::OffMap {
                width: 4,
                height: 3,
                ..
            }
        ));
        assert!(err.to_string().contains("4x3"), "{err}");
    }
    assert_eq!(g.version(), 2);
    // Equality is by cells, not versions.
    let same = Grid::from_ascii(&[".@@.", ".@..", "...."]).unwrap();
    assert_eq!(g, same);
}
