//! Typed errors: reading a mesh file, validating a mesh, building one, and bad queries.

use std::path::PathBuf;

use crate::geom::MeshPoint;

/// What is wrong with a token of a "mesh 2" file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The file does not start with `mesh 2`.
    #[error("expected the header `mesh 2`, found {0:?}")]
    BadHeader(String),
    /// The file ended before the counts announced in the header were read.
    #[error("the file ends early: expected {0}")]
    Truncated(&'static str),
    /// A token is not a number of the expected kind.
    #[error("expected {expected}, found {found:?}")]
    BadNumber {
        /// What was expected (`vertex count`, `x coordinate`, ...).
        expected: &'static str,
        /// The token found.
        found: String,
    },
    /// Tokens follow the last polygon.
    #[error("unexpected text after the last polygon: {0:?}")]
    TrailingData(String),
    /// The file is not UTF-8 text (the error names the line of the first invalid byte).
    #[error("the file is not text: it has a byte that is not UTF-8")]
    NotText,
}

/// A mesh that cannot be read, or is not a valid navigation mesh.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// A token of the text could not be read.
    #[error("line {line}: {kind}")]
    Parse {
        /// 1-based line of the offending token (or of the end of the file).
        line: usize,
        /// What is wrong.
        kind: ParseErrorKind,
    },
    /// A vertex or polygon index is out of range.
    #[error("{owner} refers to {what} {index}, but there are only {count}")]
    Dangling {
        /// Which record holds the index (`vertex 3`, `polygon 7`).
        owner: String,
        /// `vertex` or `polygon`.
        what: &'static str,
        /// The index found.
        index: i64,
        /// How many exist.
        count: usize,
    },
    /// A coordinate is NaN, infinite, or larger in magnitude than 1e150 (beyond which the
    /// exact orientation tests would overflow).
    #[error(
        "vertex {vertex} has a coordinate that is not a finite number of magnitude at most 1e150"
    )]
    NotFinite {
        /// The vertex.
        vertex: usize,
    },
    /// A polygon has fewer than three vertices or repeats one.
    #[error("polygon {polygon} is degenerate: {reason}")]
    Degenerate {
        /// The polygon.
        polygon: usize,
        /// Why.
        reason: &'static str,
    },
    /// A polygon is not convex or not counter-clockwise.
    #[error("polygon {polygon} is not convex and counter-clockwise at its vertex {vertex}")]
    NotConvex {
        /// The polygon.
        polygon: usize,
        /// The vertex (mesh index) where it turns the wrong way.
        vertex: u32,
    },
    /// The adjacency of two polygons does not agree.
    #[error("polygon {polygon}: {reason}")]
    Adjacency {
        /// The polygon whose edge is inconsistent.
        polygon: usize,
        /// What disagrees.
        reason: String,
    },
    /// A vertex's list of surrounding polygons disagrees with the polygons.
    #[error(
        "vertex {vertex}: its polygon list {listed:?} does not match the polygons around it {derived:?}"
    )]
    VertexPolygons {
        /// The vertex.
        vertex: usize,
        /// The list in the file.
        listed: Vec<i32>,
        /// The list derived from the polygons (one rotation of it).
        derived: Vec<i32>,
    },
    /// The mesh has no polygon or too many elements for 32-bit indices.
    #[error("{0}")]
    Size(String),
    /// Reading or writing a file failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// An error in a named file.
    #[error("{path}: {source}")]
    InFile {
        /// The file.
        path: PathBuf,
        /// The error.
        source: Box<MeshError>,
    },
}

/// Which end of a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// The start.
    Start,
    /// The goal.
    Goal,
}

impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            End::Start => "start",
            End::Goal => "goal",
        })
    }
}

/// A query the mesh cannot answer because an endpoint is not a valid point of it.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum MeshQueryError {
    /// The point is not finite or lies in no polygon (outside the mesh or inside an obstacle).
    #[error("{which} ({}, {}) is not on the mesh", point.x, point.y)]
    OffMesh {
        /// Start or goal.
        which: End,
        /// The point.
        point: MeshPoint,
    },
    /// The point is a vertex where obstacles separate the polygons around it into several
    /// groups, so it is unclear which free region it belongs to (and [`crate::Ambiguity`]
    /// says to refuse such points).
    #[error(
        "{which} ({}, {}) is an ambiguous vertex: obstacles touch there and separate the polygons around it",
        point.x,
        point.y
    )]
    Ambiguous {
        /// Start or goal.
        which: End,
        /// The point.
        point: MeshPoint,
    },
}
