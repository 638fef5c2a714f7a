//! Navigation meshes and Polyanya: optimal, online Euclidean shortest paths on meshes.
//!
//! A navigation mesh covers the free space of a map with convex polygons. Polyanya (Cui,
//! Harabor and Grastien, IJCAI 2017) generalises Anya to such meshes: it searches *intervals*
//! of polygon edges, each seen from a *root* (the last turning point of the paths the node
//! stands for), and returns a shortest path among all paths that stay inside the mesh.
//!
//! - [`Mesh`]: an immutable, validated mesh (`Send + Sync`), read and written in the
//!   "mesh 2" text format by [`read_mesh`], [`parse_mesh`], [`write_mesh`], [`format_mesh`].
//! - [`Mesh::locate`] finds where a point lies (inside a polygon, on an edge, on a vertex).
//! - [`build`]: meshes built from grid maps ([`mesh_from_grid`]) or polygon maps
//!   ([`mesh_from_polygons`]): a constrained Delaunay triangulation of the free space, merged
//!   into convex polygons (`docs/mesh-build.md`).
//!
//! Every geometric decision is an orientation test on the stored `f64` coordinates, made
//! exactly (Shewchuk's adaptive predicates via the `robust` crate; plain `f64` arithmetic,
//! which is then exact, on integer meshes). `docs/polyanya.md` states the conventions.
//!
//! # Example
//! ```
//! use taut_polyanya::{parse_mesh, Location, MeshPoint};
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
//! ```

pub mod build;
mod error;
mod geom;
mod io;
mod mesh;
mod planner;
mod search;
mod visibility;

pub use build::{
    BuildError, BuildOptions, BuildStats, PolygonId, PolygonMap, mesh_from_grid,
    mesh_from_grid_with, mesh_from_grid_with_stats, mesh_from_polygons, mesh_from_polygons_with,
    mesh_from_polygons_with_stats, parse_polygon_map, read_polygon_map,
};
pub use error::{End, MeshError, MeshQueryError, ParseErrorKind};
pub use geom::{orient, orient_sign};
pub use io::{format_mesh, parse_mesh, read_mesh, write_mesh};
pub use mesh::{
    Ambiguity, CONVEXITY_TOLERANCE, COORDINATE_LIMIT, INTEGER_LIMIT, Location, Mesh, MeshPoint,
    NO_POLY, PolygonRecord,
};
pub use planner::{PolyanyaPlanner, grid_answer};
pub use search::{MeshAnswer, Options, SearchContext};
pub use visibility::{VisibilitySearch, Visible};
