//! The answer checker: what must hold of every path a grid planner returns.

use std::fmt::Display;

use taut_grid::{Answer, Grid, LENGTH_TOLERANCE, Point, Status, lengths_agree, path_length};

/// How closely [`check_answer_within`] compares lengths: `a` and `b` agree when `a == b` (two
/// infinities included) or `|a − b| <= tolerance`, which for [`LENGTH_TOLERANCE`] is
/// [`lengths_agree`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerances {
    /// Between the reported length and the length [`path_length`] measures on the waypoints.
    pub measured: f64,
    /// Between the reported length and the expected one.
    pub expected: f64,
}

impl Tolerances {
    /// [`LENGTH_TOLERANCE`] for both comparisons: what [`check_answer`] uses.
    pub const LENGTH: Tolerances = Tolerances::both(LENGTH_TOLERANCE);

    /// The same `tolerance` for both comparisons: `0.0` for exact equality, `1e-9` where two
    /// planners compute their lengths from exact waypoints.
    pub const fn both(tolerance: f64) -> Tolerances {
        Tolerances {
            measured: tolerance,
            expected: tolerance,
        }
    }

    fn agree(tolerance: f64, a: f64, b: f64) -> bool {
        if tolerance == LENGTH_TOLERANCE {
            lengths_agree(a, b)
        } else {
            a == b || (a - b).abs() <= tolerance
        }
    }
}

/// Checks a found path from `start` to `goal`, within [`LENGTH_TOLERANCE`]:
/// [`check_answer_within`]`(grid, start, goal, answer, expected, Tolerances::LENGTH)`.
///
/// # Errors
/// What is wrong, naming the query (see [`check_answer_within`]).
pub fn check_answer(
    grid: &Grid,
    start: Point,
    goal: Point,
    answer: &Answer,
    expected: Option<f64>,
) -> Result<(), String> {
    check_answer_within(grid, start, goal, answer, expected, Tolerances::LENGTH)
}

/// Checks a found path from `start` to `goal`:
/// - its waypoints are a legal path from `start` to `goal` by [`Grid::check_path`] (the exact
///   cell walk of DESIGN.md §1);
/// - the reported `answer.length` is the polyline length [`path_length`] of the waypoints,
///   within `tolerances.measured`;
/// - when `expected` is given, the reported length equals it within `tolerances.expected`.
///
/// # Errors
/// The first of these that fails, as a message starting with `"{start} -> {goal}: "` and
/// showing the waypoints.
pub fn check_answer_within(
    grid: &Grid,
    start: Point,
    goal: Point,
    answer: &Answer,
    expected: Option<f64>,
    tolerances: Tolerances,
) -> Result<(), String> {
    let path = &answer.waypoints;
    if let Err(v) = grid.check_path(start, goal, path) {
        return Err(format!("{start} -> {goal}: illegal path {path:?}: {v}"));
    }
    let measured = path_length(path);
    if !Tolerances::agree(tolerances.measured, answer.length, measured) {
        return Err(format!(
            "{start} -> {goal}: reports length {} but its path {path:?} measures {measured}",
            answer.length
        ));
    }
    if let Some(expected) = expected
        && !Tolerances::agree(tolerances.expected, answer.length, expected)
    {
        return Err(format!(
            "{start} -> {goal}: length {} expected {expected} (path {path:?})",
            answer.length
        ));
    }
    Ok(())
}

/// Checks a planner's outcome on one query of the reference optima of `data/grid/optimal`,
/// whose `len_gppc` is `optimum`:
/// - where `optimum` is −1 (an endpoint cell is blocked) the planner must refuse the query
///   with an error, and it must refuse no other query;
/// - the query must not be unreachable (the reference data has no unreachable query);
/// - a found path must pass [`check_answer_within`] with `Some(optimum)`.
///
/// # Errors
/// What is wrong, as a message starting with `"{start} -> {goal}: "`.
pub fn check_reference_answer<E: Display>(
    grid: &Grid,
    start: Point,
    goal: Point,
    outcome: &Result<Status, E>,
    answer: &Answer,
    optimum: f64,
    tolerances: Tolerances,
) -> Result<(), String> {
    let blocked = optimum == -1.0;
    match outcome {
        Err(_) if blocked => Ok(()),
        Err(e) => Err(format!("{start} -> {goal}: rejected a valid query: {e}")),
        Ok(_) if blocked => Err(format!("{start} -> {goal}: accepted a blocked endpoint")),
        Ok(Status::Unreachable) => Err(format!(
            "{start} -> {goal}: unreachable, expected {optimum}"
        )),
        Ok(Status::Found) => {
            check_answer_within(grid, start, goal, answer, Some(optimum), tolerances)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(path: &[Point], length: f64) -> Answer {
        Answer {
            waypoints: path.to_vec(),
            length,
            ..Answer::default()
        }
    }

    #[test]
    fn every_rule_is_checked_and_named() {
        let g = Grid::from_ascii(&["....", ".@@.", "...."]).unwrap();
        let (s, t) = (Point::new(0, 0), Point::new(4, 3));
        let around = [s, Point::new(3, 1), t];
        let len = path_length(&around);
        assert_eq!(
            check_answer(&g, s, t, &answer(&around, len), Some(len)),
            Ok(())
        );
        // Within the tolerance, and not beyond it.
        let a = answer(&around, len + 0.5e-6);
        assert_eq!(check_answer(&g, s, t, &a, Some(len - 0.4e-6)), Ok(()));
        let e = check_answer(&g, s, t, &a, Some(len + 2e-6)).unwrap_err();
        assert!(e.starts_with("(0, 0) -> (4, 3): length"), "{e}");
        let e = check_answer(&g, s, t, &answer(&around, len + 2e-6), None).unwrap_err();
        assert!(e.contains("measures"), "{e}");
        // Stricter tolerances.
        let e = check_answer_within(&g, s, t, &a, None, Tolerances::both(1e-9)).unwrap_err();
        assert!(e.contains("measures"), "{e}");
        let exact = Tolerances::both(0.0);
        assert_eq!(
            check_answer_within(&g, s, t, &answer(&around, len), Some(len), exact),
            Ok(())
        );
        // Illegal: straight through the obstacle, or not ending at the goal.
        let e = check_answer(&g, s, t, &answer(&[s, t], 5.0), None).unwrap_err();
        assert!(e.contains("illegal path"), "{e}");
        assert!(check_answer(&g, s, Point::new(4, 0), &answer(&around, len), None).is_err());
        assert!(check_answer(&g, s, t, &answer(&[], f64::INFINITY), None).is_err());
    }

    #[test]
    fn reference_outcomes() {
        let g = Grid::from_ascii(&["....", ".@@.", "...."]).unwrap();
        let (s, t) = (Point::new(0, 0), Point::new(4, 3));
        let around = [s, Point::new(3, 1), t];
        let len = path_length(&around);
        let a = answer(&around, len);
        let check = |outcome: Result<Status, &str>, optimum: f64| {
            check_reference_answer(&g, s, t, &outcome, &a, optimum, Tolerances::LENGTH)
        };
        assert_eq!(check(Ok(Status::Found), len), Ok(()));
        assert_eq!(check(Err("blocked"), -1.0), Ok(()));
        assert!(
            check(Err("blocked"), len)
                .unwrap_err()
                .contains("rejected a valid query")
        );
        assert!(
            check(Ok(Status::Found), -1.0)
                .unwrap_err()
                .contains("accepted a blocked")
        );
        assert!(
            check(Ok(Status::Unreachable), len)
                .unwrap_err()
                .contains("unreachable")
        );
        assert!(
            check(Ok(Status::Found), len + 1.0)
                .unwrap_err()
                .contains("expected")
        );
    }
}
