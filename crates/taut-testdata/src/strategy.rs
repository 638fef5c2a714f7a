//! `proptest` strategies for random grids and for queries on them.
//!
//! Each strategy draws its values in a fixed order (sizes, then density, then one coin per
//! cell), so that a seed saved in a proptest regression file (`tests/proptest-regressions/*.txt`
//! of a `tests/it/` binary, or `*.proptest-regressions` beside a lone test file) keeps replaying
//! the same map.

use std::ops::{Range, RangeInclusive};

use proptest::prelude::*;
use proptest::sample::Index;
use taut_grid::{Grid, Point};

/// Random grids of 1 to `max_side` cells a side with 0–60 % of their cells blocked:
/// [`random_grid_with`]`(1..=max_side, 0.0..0.6)`.
pub fn random_grid(max_side: u32) -> impl Strategy<Value = Grid> {
    random_grid_with(1..=max_side, 0.0..0.6)
}

/// Random grids: a width and a height drawn from `sides`, a density from `density`, then one
/// coin per cell, blocked with probability `density`.
///
/// `density` is any strategy for a probability, such as `0.0..0.5` or
/// `(0u32..=60).prop_map(|p| f64::from(p) / 100.0)` (whole percents, 0 and 60 included).
pub fn random_grid_with(
    sides: RangeInclusive<u32>,
    density: impl Strategy<Value = f64>,
) -> impl Strategy<Value = Grid> {
    (sides.clone(), sides, density).prop_flat_map(|(w, h, density)| {
        proptest::collection::vec(proptest::bool::weighted(density), (w * h) as usize)
            .prop_map(move |blocked| Grid::from_fn(w, h, |x, y| !blocked[(y * w + x) as usize]))
    })
}

/// Grids full of double corners: 2 to `max_side` cells a side, a checkerboard of 1×1 or 2×2
/// blocks (drawn), with 15 % of the blocked cells opened at random.
pub fn double_corner_grid(max_side: u32) -> impl Strategy<Value = Grid> {
    (2u32..=max_side, 2u32..=max_side, 1u32..=2).prop_flat_map(|(w, h, cell)| {
        proptest::collection::vec(proptest::bool::weighted(0.15), (w * h) as usize).prop_map(
            move |holes| {
                Grid::from_fn(w, h, |x, y| {
                    let checker = ((x / cell) + (y / cell)) % 2 == 0;
                    checker || holes[(y * w + x) as usize]
                })
            },
        )
    })
}

/// Queries drawn independently of the grid they will run on (so that the grid and the queries
/// shrink separately): pairs of indices into the grid's free points, resolved by
/// [`QueryPicks::on`].
#[derive(Debug, Clone)]
pub struct QueryPicks(pub Vec<(Index, Index)>);

impl QueryPicks {
    /// The queries on `grid`: start and goal of each pair are the free points (see
    /// [`free_points`](crate::free_points)) its indices pick. Empty when `grid` has no free
    /// cell.
    pub fn on(&self, grid: &Grid) -> Vec<(Point, Point)> {
        let free = crate::free_points(grid);
        if free.is_empty() {
            return Vec::new();
        }
        self.0
            .iter()
            .map(|(i, j)| (free[i.index(free.len())], free[j.index(free.len())]))
            .collect()
    }
}

/// `count` query picks (a number drawn from `count`), for [`QueryPicks::on`].
pub fn query_picks(count: Range<usize>) -> impl Strategy<Value = QueryPicks> {
    proptest::collection::vec((any::<Index>(), any::<Index>()), count).prop_map(QueryPicks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    #[test]
    fn strategies_draw_what_they_say() {
        let mut runner = TestRunner::deterministic();
        for _ in 0..50 {
            let g = random_grid(5).new_tree(&mut runner).unwrap().current();
            assert!((1..=5).contains(&g.width()) && (1..=5).contains(&g.height()));
            let g = double_corner_grid(6)
                .new_tree(&mut runner)
                .unwrap()
                .current();
            assert!((2..=6).contains(&g.width()) && (2..=6).contains(&g.height()));
            let picks = query_picks(1..4).new_tree(&mut runner).unwrap().current();
            let q = picks.on(&g);
            assert!((1..4).contains(&q.len()));
            assert!(
                q.iter()
                    .all(|&(s, t)| g.is_free(s.x, s.y) && g.is_free(t.x, t.y))
            );
        }
        let all_blocked = random_grid_with(3..=3, Just(1.0))
            .new_tree(&mut runner)
            .unwrap()
            .current();
        assert_eq!(all_blocked.free_cells(), 0);
        let picks = query_picks(1..4).new_tree(&mut runner).unwrap().current();
        assert!(picks.on(&all_blocked).is_empty());
    }
}
