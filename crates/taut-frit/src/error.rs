//! Typed errors of the simulator's inputs.

use thiserror::Error;

/// Why a problem cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FritError {
    /// An endpoint lies off the map.
    #[error("{which} ({x}, {y}) is off the {width}x{height} map")]
    OffMap {
        /// `start` or `goal`.
        which: &'static str,
        /// Cell x.
        x: i32,
        /// Cell y.
        y: i32,
        /// Map width.
        width: i32,
        /// Map height.
        height: i32,
    },
    /// An endpoint is a blocked cell.
    #[error("{which} ({x}, {y}) is a blocked cell")]
    Blocked {
        /// `start` or `goal`.
        which: &'static str,
        /// Cell x.
        x: i32,
        /// Cell y.
        y: i32,
    },
}
