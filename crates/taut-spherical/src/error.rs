//! Typed errors of the spherical planner.

use thiserror::Error;

/// What went wrong with a spherical map or query.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SphereError {
    /// The map file could not be read or parsed.
    #[error("cannot read map {path}: {message}")]
    Map {
        /// The file.
        path: String,
        /// The reader's message.
        message: String,
    },
    /// The map is too small to be a sphere (at least 4 columns and 2 rows).
    #[error("a sphere map needs at least 4 columns and 2 rows, got {width}x{height}")]
    TooSmall {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// The map has more cells than a 32-bit cell index can number.
    #[error("a sphere map can have at most 4294967295 cells, got {width}x{height}")]
    TooLarge {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// A coordinate is not a finite latitude in [-90, 90] and longitude.
    #[error("{which} ({lat}, {lon}) is not a valid latitude/longitude")]
    BadCoordinate {
        /// "start" or "goal".
        which: &'static str,
        /// Latitude given.
        lat: f64,
        /// Longitude given.
        lon: f64,
    },
    /// The point lies inside a blocked cell.
    #[error("{which} ({lat}, {lon}) is on land / a blocked cell")]
    Blocked {
        /// "start" or "goal".
        which: &'static str,
        /// Latitude given.
        lat: f64,
        /// Longitude given.
        lon: f64,
    },
    /// The point is a pole, or a grid vertex where blocked cells touch diagonally, where the
    /// planner cannot tell which side is meant.
    #[error(
        "{which} ({lat}, {lon}) is a pole or a vertex between diagonal blocked cells; move it into a cell"
    )]
    Ambiguous {
        /// "start" or "goal".
        which: &'static str,
        /// Latitude given.
        lat: f64,
        /// Longitude given.
        lon: f64,
    },
}
