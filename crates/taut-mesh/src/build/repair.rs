//! Local repair of a grid's mesh after some cells changed ([`repair_mesh`]).
//!
//! The mesh of the old grid is kept except near the change. Let `P` be the lattice points whose
//! four cells include a changed one (the closed box round the changed cells): only there can a
//! point's vertex status or a unit boundary edge change, so every obstacle side of either grid
//! that is not a side of the other passes through `P`. Every polygon whose bounding box meets
//! `P` grown by one unit is *removed*; the others are *kept* unchanged. The region `Q` to
//! re-mesh is the closure of the removed polygons and the changed cells. Its boundary is made
//! of edges shared with kept polygons (the *seams*) and of obstacle sides of the new grid, all
//! of them whole: a side that changed lies in `Q`, and an unchanged side bounding `Q` is a side
//! of a removed polygon.
//!
//! The window `B` is `Q`'s bounding box. The builder's constrained Delaunay triangulation runs
//! over the new grid's vertices in `B` with the new obstacle sides that lie wholly in `B` and
//! the seams as constraints (the seams' ends are old vertices outside `P`, hence vertices of the
//! new grid; no vertex lies inside a seam). A triangle belongs to `Q`'s free space when the
//! cell of its centroid is free in the new grid and the centroid is not in a kept polygon (a
//! point location in the old mesh, exact). Those triangles are merged as in a full build and
//! join the kept polygons ([`Mesh::patched`]: only the new polygons are validated, and only the
//! vertices round the change get their polygon lists derived again); the result must cover
//! exactly the new grid's free cells.
//!
//! The repaired mesh is not the mesh a full build makes (its triangulation differs inside
//! `Q`, and `Q`'s polygons are not merged with kept ones), but it is a mesh of the same free
//! space with the same obstacle vertices, so every shortest path has the same length.

use std::time::{Duration, Instant};

use spade::Triangulation;
use taut_grid::{CellRect, Grid};

use super::{BuildError, trace, triangulate};
use crate::geom::MeshPoint;
use crate::mesh::{Location, Mesh, NO_POLY};

/// What a repair changed and how long it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RepairStats {
    /// Polygons of the old mesh that were removed and re-meshed.
    pub removed: usize,
    /// Polygons made in their place.
    pub added: usize,
    /// The lattice window that was re-triangulated, `[x0, y0, x1, y1]` (inclusive).
    pub window: [i32; 4],
    /// Triangles of the window's triangulation, obstacles and kept polygons included.
    pub cdt_triangles: usize,
    /// Finding the removed polygons, tracing and triangulating the window, merging.
    pub local_time: Duration,
    /// Patching the mesh: validating the new polygons, renumbering, deriving the lists of the
    /// vertices round the change, the locator.
    pub mesh_time: Duration,
}

impl RepairStats {
    /// The time of both steps together.
    pub fn total_time(&self) -> Duration {
        self.local_time + self.mesh_time
    }
}

/// Repairs `old`, the mesh [`super::mesh_from_grid`] (or an earlier repair) made of a grid that
/// differs from `grid` only inside `changed`, into a mesh of `grid`'s free space: the polygons
/// round the change are re-triangulated and re-merged, the rest are kept. Paths on the result
/// have the lengths they have on a full build of `grid` (a differential test checks this with
/// Polyanya); `docs/mesh-build.md` says why.
///
/// A wrong `old` (a mesh of another grid, read from a file, or a change outside `changed`) is
/// caught when it shows: a seam that ends off the new grid's vertices, or a mesh whose area is
/// not the number of free cells, is a [`BuildError::RepairMismatch`], and a full build is the
/// remedy.
///
/// # Errors
/// [`BuildError::NoFreeSpace`] when `grid` has no free cell, [`BuildError::RepairMismatch`] as
/// above, and the builder's errors.
///
/// # Example
/// ```
/// use taut_grid::{CellRect, Grid};
/// use taut_mesh::build::{mesh_from_grid, repair_mesh};
///
/// let mut grid = Grid::from_ascii(&["......", "......", "......", "......"]).unwrap();
/// let old = mesh_from_grid(&grid).unwrap();
/// let changed = CellRect::new(2, 1, 2, 2);
/// grid.set_rect(changed, true).unwrap();
/// let (mesh, stats) = repair_mesh(&old, &grid, changed).unwrap();
/// assert_eq!(mesh.area(), 20.0);
/// assert!(stats.removed > 0);
/// ```
pub fn repair_mesh(
    old: &Mesh,
    grid: &Grid,
    changed: CellRect,
) -> Result<(Mesh, RepairStats), BuildError> {
    if grid.free_cells() == 0 {
        return Err(BuildError::NoFreeSpace);
    }
    let mismatch = |reason: String| BuildError::RepairMismatch(reason);
    if !old.is_integer() {
        return Err(mismatch("the mesh has points off the lattice".into()));
    }
    let t = Instant::now();
    let (w, h) = (grid.width(), grid.height());
    // P grown by one unit, clamped to the map.
    let touch = [
        (changed.x0 - 1).max(0),
        (changed.y0 - 1).max(0),
        (changed.x0 + changed.width + 1).min(w),
        (changed.y0 + changed.height + 1).min(h),
    ];
    let np = old.polygon_count();
    let mut removed = vec![false; np];
    let mut window = [
        changed.x0.max(0),
        changed.y0.max(0),
        (changed.x0 + changed.width).min(w),
        (changed.y0 + changed.height).min(h),
    ];
    let mut removed_count = 0;
    for p in 0..np as u32 {
        let b = lattice_box(old, old.poly_vertices(p));
        if b[0] <= touch[2] && touch[0] <= b[2] && b[1] <= touch[3] && touch[1] <= b[3] {
            removed[p as usize] = true;
            removed_count += 1;
            window = [
                window[0].min(b[0]),
                window[1].min(b[1]),
                window[2].max(b[2]),
                window[3].max(b[3]),
            ];
        }
    }
    window = [
        window[0].max(0),
        window[1].max(0),
        window[2].min(w),
        window[3].min(h),
    ];
    let traced = trace::trace_window(grid, window);
    // The traced vertex at each lattice point of the window.
    let [x0, y0, x1, y1] = window;
    let side = (x1 - x0 + 1) as usize;
    let mut at = vec![u32::MAX; side * (y1 - y0 + 1) as usize];
    let slot = |p: MeshPoint| (p.y as i32 - y0) as usize * side + (p.x as i32 - x0) as usize;
    for (i, &p) in traced.points.iter().enumerate() {
        at[slot(p)] = i as u32;
    }
    let mut segments = traced.segments;
    for p in 0..np as u32 {
        if !removed[p as usize] {
            continue;
        }
        let vs = old.poly_vertices(p);
        for (i, &q) in old.poly_adjacent(p).iter().enumerate() {
            if q == NO_POLY || removed[q as usize] {
                continue;
            }
            let ends = [vs[i], vs[(i + 1) % vs.len()]].map(|v| {
                let pt = old.point(v);
                at[slot(pt)]
            });
            if ends.contains(&u32::MAX) {
                return Err(mismatch(format!(
                    "the seam {} - {} does not end at vertices of the grid",
                    old.point(vs[i]),
                    old.point(vs[(i + 1) % vs.len()])
                )));
            }
            segments.push(ends.map(|e| e as usize));
        }
    }
    let tri = triangulate::triangulate(&traced.points, segments, |cdt| {
        let mut free = vec![false; cdt.num_all_faces()];
        for face in cdt.inner_faces() {
            let [a, b, c] = face.positions();
            let (sx, sy) = ((a.x + b.x + c.x) as i64, (a.y + b.y + c.y) as i64);
            if !grid.is_free(sx.div_euclid(3) as i32, sy.div_euclid(3) as i32) {
                continue;
            }
            let centroid = MeshPoint::new(sx as f64 / 3.0, sy as f64 / 3.0);
            free[face.fix().index()] = !in_kept(old, &removed, centroid);
        }
        Ok(free)
    })?;
    let cdt_triangles = tri.all_triangles;
    let local = super::merge::merge(&traced.points, &tri.triangles, &tri.neighbours);
    let local_time = t.elapsed();

    let t = Instant::now();
    // Old vertices keep their numbers; the window's new ones follow.
    let nv_old = old.vertex_count();
    let mut new_points: Vec<MeshPoint> = Vec::new();
    let mut old_at = vec![u32::MAX; at.len()];
    for (v, &p) in old.points().iter().enumerate() {
        if (x0..=x1).contains(&(p.x as i32)) && (y0..=y1).contains(&(p.y as i32)) {
            old_at[slot(p)] = v as u32;
        }
    }
    let mut number = vec![u32::MAX; traced.points.len()];
    let added: Vec<Vec<u32>> = local
        .iter()
        .map(|poly| {
            poly.iter()
                .map(|&v| {
                    let v = v as usize;
                    if number[v] == u32::MAX {
                        let p = traced.points[v];
                        number[v] = match old_at[slot(p)] {
                            u32::MAX => {
                                new_points.push(p);
                                (nv_old + new_points.len() - 1) as u32
                            }
                            o => o,
                        };
                    }
                    number[v]
                })
                .collect()
        })
        .collect();
    // Kept polygons and vertices keep their order and the window's new ones follow, close
    // together in memory as they are on the map (reordering the whole mesh along the Hilbert
    // curve cost more than the local work); only the new polygons and the vertices round the
    // change are checked and derived again.
    let mesh = old.patched(&removed, &new_points, &added)?;
    let (area, cells) = (mesh.area(), grid.free_cells() as f64);
    if (area - cells).abs() > 0.25 {
        return Err(mismatch(format!(
            "the repaired mesh covers {area} cells, the grid has {cells} free"
        )));
    }
    Ok((
        mesh,
        RepairStats {
            removed: removed_count,
            added: added.len(),
            window,
            cdt_triangles,
            local_time,
            mesh_time: t.elapsed(),
        },
    ))
}

/// The lattice bounding box `[x0, y0, x1, y1]` of a polygon of an integer mesh.
fn lattice_box(mesh: &Mesh, vs: &[u32]) -> [i32; 4] {
    let mut b = [i32::MAX, i32::MAX, i32::MIN, i32::MIN];
    for &v in vs {
        let p = mesh.point(v);
        let (x, y) = (p.x as i32, p.y as i32);
        b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
    }
    b
}

/// Whether `p` lies in a kept polygon of `old` (closed: on its boundary counts).
fn in_kept(old: &Mesh, removed: &[bool], p: MeshPoint) -> bool {
    let kept = |q: u32| !removed[q as usize];
    match old.locate(p) {
        Location::OffMesh => false,
        Location::Interior(q) => kept(q),
        Location::Edge { poly, across, .. } => kept(poly) || across.is_some_and(kept),
        Location::Vertex(v) => old
            .vertex_polygons(v)
            .iter()
            .any(|&q| q != NO_POLY && kept(q as u32)),
    }
}
