//! Navigation meshes: the layer every mesh planner of taut stands on.
//!
//! A navigation mesh covers the free space of a map with convex polygons. This crate holds
//! everything about meshes that is not one particular search, so that Polyanya
//! (`taut-polyanya`) and End Point Search (`taut-cpd`) are siblings on it:
//!
//! - [`Mesh`]: an immutable, validated mesh (`Send + Sync`), read and written in the
//!   "mesh 2" text format ([`read_mesh`], [`parse_mesh`], [`write_mesh`], [`format_mesh`];
//!   `docs/formats.md`), and [`Mesh::locate`] to find where a point lies.
//! - [`build`]: meshes built from grid maps ([`mesh_from_grid`]) or polygon maps
//!   ([`mesh_from_polygons`]): a constrained Delaunay triangulation of the free space, merged
//!   into convex polygons (`docs/mesh-build.md`).
//! - [`VisibilitySearch`]: what a point sees, as a resumable observable-only expansion (the
//!   co-visible graph of a CPD and the two searches of End Point Search run it).
//! - [`interval`]: the interval primitives every mesh search shares (interval ends on exact
//!   lines, orientation kernels, the one loop that projects a node's cone across a polygon).
//! - [`grid`]: the one adapter from grid queries to mesh searches, with the grid's
//!   south-east endpoint rule ([`grid::SOUTH_EAST`]).
//! - [`read_mesh_scenario`]: query files that name meshes and may use fractional coordinates.
//!
//! Every geometric decision is an orientation test on the stored `f64` coordinates, made
//! exactly (Shewchuk's adaptive predicates via the `robust` crate; plain `f64` arithmetic,
//! which is then exact, on integer meshes). `docs/polyanya.md` states the conventions.
//!
//! # Example
//! ```
//! use taut_grid::Grid;
//! use taut_mesh::{Location, MeshPoint, mesh_from_grid, parse_mesh};
//!
//! // Two triangles forming the unit square, sharing the diagonal 0-2.
//! let mesh = parse_mesh(
//!     "mesh 2  4 2
//!      0 0 3 0 1 -1   1 0 2 0 -1   1 1 3 1 0 -1   0 1 2 1 -1
//!      3 0 1 2 1 -1 -1   3 0 2 3 -1 0 -1",
//! )
//! .unwrap();
//! assert_eq!(mesh.polygon_count(), 2);
//! assert!(matches!(mesh.locate(MeshPoint::new(0.9, 0.2)), Location::Interior(0)));
//! assert!(matches!(mesh.locate(MeshPoint::new(2.0, 0.5)), Location::OffMesh));
//!
//! // The mesh of a grid's free space, in the grid's lattice coordinates.
//! let grid = Grid::from_ascii(&["...", ".@.", "..."]).unwrap();
//! let mesh = mesh_from_grid(&grid).unwrap();
//! assert_eq!(mesh.area(), 8.0);
//! assert!(matches!(mesh.locate(MeshPoint::new(1.5, 1.5)), Location::OffMesh));
//! ```

pub mod build;
pub mod corner_graph;
pub mod corners;
mod error;
pub mod geom;
pub mod grid;
pub mod interval;
mod io;
mod mesh;
mod scen;
mod visibility;

pub use build::{
    BuildError, BuildOptions, BuildStats, PolygonMap, RepairStats, mesh_from_grid,
    mesh_from_polygons, repair_mesh,
};
pub use error::{End, MeshError, MeshQueryError, ParseErrorKind};
pub use geom::MeshPoint;
pub use interval::MeshAnswer;
pub use io::{format_mesh, parse_mesh, read_mesh, write_mesh};
pub use mesh::{
    Ambiguity, CONVEXITY_TOLERANCE, COORDINATE_LIMIT, Corner, INTEGER_LIMIT, Location, Mesh,
    NO_POLY, PolygonRecord, is_small_integer, mesh_hash,
};
pub use scen::{
    MeshQuery, MeshScenarioError, is_mesh_scenario, parse_mesh_scenario, read_mesh_scenario,
};
pub use visibility::{VisibilitySearch, Visible};
