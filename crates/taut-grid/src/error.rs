//! Typed errors of the grid layer.

use std::path::PathBuf;

use taut_geom::Point;

/// Where a parse error happened: the file (or `<input>` for in-memory text) and 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file read, if any.
    pub path: Option<PathBuf>,
    /// 1-based line number (0 when the error concerns the whole file, such as an empty one).
    pub line: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{}:{}", p.display(), self.line),
            None => write!(f, "<input>:{}", self.line),
        }
    }
}

/// What is wrong with a `.map` or `.scen` file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The file has no content.
    #[error("empty file")]
    Empty,
    /// The file is not valid UTF-8 text where text is required.
    #[error("not valid text (UTF-8)")]
    NotText,
    /// A header line is missing or says something else.
    #[error("wrong header: expected {expected}, found {found:?}")]
    BadHeader {
        /// What the line should have been.
        expected: &'static str,
        /// What it was.
        found: String,
    },
    /// A header number is not a positive integer in range (plain decimal digits).
    #[error("bad {field} {found:?}: expected an integer from 1 to {max}")]
    BadDimension {
        /// `height` or `width`.
        field: &'static str,
        /// The text found.
        found: String,
        /// Largest accepted value.
        max: u32,
    },
    /// The file ends (or a blank line interrupts the grid) before all declared rows were read.
    /// The error's line is where the first missing row was expected.
    #[error("truncated: expected {expected} map rows, found {found}")]
    Truncated {
        /// Rows declared by the header.
        expected: u32,
        /// Rows present.
        found: u32,
    },
    /// A map row is longer or shorter than the declared width.
    #[error("row has {found} characters, header says width {expected}")]
    RowWidth {
        /// Declared width.
        expected: u32,
        /// Characters found.
        found: usize,
    },
    /// More non-empty rows than the declared height.
    #[error("more map rows than the declared height {expected}")]
    TooManyRows {
        /// Declared height.
        expected: u32,
    },
    /// A character outside the MovingAI alphabet.
    #[error("unknown terrain character {ch:?} at column {column}")]
    UnknownTerrain {
        /// The character: decoded when the row is UTF-8 at that point, else U+FFFD.
        ch: char,
        /// 0-based column, in bytes.
        column: usize,
    },
    /// A scenario line does not have 9 fields.
    #[error("expected 9 fields, found {found}")]
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// A scenario field is not a number of the right kind.
    #[error("field {field} is not {expected}: {found:?}")]
    BadField {
        /// Field name (`bucket`, `start_x`, ...).
        field: &'static str,
        /// What it should be.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// A coordinate lies outside the width and height the line itself declares.
    #[error("{field} = {value} is out of range 0..{limit}")]
    CoordinateOutOfRange {
        /// Field name.
        field: &'static str,
        /// The value.
        value: u32,
        /// The exclusive limit (the declared width or height).
        limit: u32,
    },
}

/// An error reading a map or scenario.
#[derive(Debug, thiserror::Error)]
pub enum GridError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The content is malformed.
    #[error("{location}: {kind}")]
    Parse {
        /// File and line.
        location: Location,
        /// What is wrong.
        kind: ParseErrorKind,
    },
}

impl GridError {
    /// The parse error kind, if this is a parse error.
    pub fn kind(&self) -> Option<&ParseErrorKind> {
        match self {
            GridError::Parse { kind, .. } => Some(kind),
            GridError::Io { .. } => None,
        }
    }

    /// The 1-based line of a parse error.
    pub fn line(&self) -> Option<usize> {
        match self {
            GridError::Parse { location, .. } => Some(location.line),
            GridError::Io { .. } => None,
        }
    }

    pub(crate) fn with_path(self, path: &std::path::Path) -> Self {
        match self {
            GridError::Parse { location, kind } => GridError::Parse {
                location: Location {
                    path: Some(path.to_path_buf()),
                    line: location.line,
                },
                kind,
            },
            other => other,
        }
    }
}

/// Reads a whole file, naming it in the error.
pub(crate) fn read_file(path: &std::path::Path) -> Result<Vec<u8>, GridError> {
    std::fs::read(path).map_err(|source| GridError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes a whole file, naming it in the error.
pub(crate) fn write_file(path: &std::path::Path, text: &str) -> Result<(), GridError> {
    std::fs::write(path, text).map_err(|source| GridError::Io {
        path: path.to_path_buf(),
        source,
    })
}

pub(crate) fn parse_err(line: usize, kind: ParseErrorKind) -> GridError {
    GridError::Parse {
        location: Location { path: None, line },
        kind,
    }
}

/// Which end of a query an error concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// The start.
    Start,
    /// The goal.
    Goal,
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}

/// A query that cannot be answered because an endpoint is not a valid position.
///
/// This is an input error, distinct from "no path exists" (see [`crate::Status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    /// The endpoint lies outside the map (`0 <= x < width`, `0 <= y < height`).
    #[error("{which} {point} is off the map ({width}x{height})")]
    OffMap {
        /// Start or goal.
        which: Endpoint,
        /// The point given.
        point: Point,
        /// Map width.
        width: u32,
        /// Map height.
        height: u32,
    },
    /// The endpoint's cell (the cell whose top-left corner the point is) is blocked.
    #[error("{which} {point} is on a blocked cell")]
    Blocked {
        /// Start or goal.
        which: Endpoint,
        /// The point given.
        point: Point,
    },
    /// The map has more search nodes than the planner's node indices can address.
    #[error("the map has {nodes} search nodes, more than {planner} supports ({limit})")]
    MapTooLarge {
        /// The planner's name.
        planner: &'static str,
        /// Search nodes the map needs.
        nodes: u64,
        /// The planner's limit.
        limit: u64,
    },
}

/// An edit of a grid's cells that cannot be made ([`crate::Grid::set_rect`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The rectangle is empty or reaches off the map.
    #[error("{rect} is not on the {width}x{height} map")]
    OffMap {
        /// The rectangle asked for.
        rect: crate::CellRect,
        /// The map's width.
        width: i32,
        /// The map's height.
        height: i32,
    },
}
