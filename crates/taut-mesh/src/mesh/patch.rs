//! Patching a mesh: some polygons out, new ones in, with only what changed checked and derived
//! again. A local repair after a grid edit ([`crate::build::repair_mesh`]) replaces a few dozen
//! polygons of tens of thousands; [`Mesh::new`] on the whole result re-validated every polygon,
//! hashed every edge and re-derived every vertex's polygon list, ten times the local work.

use hashbrown::HashMap;

use super::{
    COORDINATE_LIMIT, ListScratch, Mesh, MeshError, MeshPoint, NO_POLY, check_shape, vertex_list,
};

impl Mesh {
    /// This mesh without the polygons marked in `removed` (one flag per polygon) and with the
    /// `added` polygons appended, their vertex indices counting this mesh's vertices first and
    /// then `new_points`. Vertices that no polygon uses any more are dropped; kept polygons and
    /// vertices keep their order. The result equals [`Mesh::new`] of the same vertices and
    /// polygons (the tests check it field by field), but only the added polygons are checked
    /// and only the vertices of added or removed polygons get their polygon lists derived
    /// again.
    ///
    /// # Errors
    /// [`MeshError`] as [`Mesh::new`] for an added polygon that is degenerate, not convex, names
    /// a missing vertex or claims an edge another polygon has; [`MeshError::Size`] when
    /// `removed` does not have one flag per polygon or nothing is left.
    pub fn patched(
        &self,
        removed: &[bool],
        new_points: &[MeshPoint],
        added: &[Vec<u32>],
    ) -> Result<Mesh, MeshError> {
        let np_old = self.polygon_count();
        if removed.len() != np_old {
            return Err(MeshError::Size(format!(
                "{} removal flags for {np_old} polygons",
                removed.len()
            )));
        }
        let nv_old = self.points.len();
        let nv_all = nv_old + new_points.len();
        for (i, p) in new_points.iter().enumerate() {
            if !(p.x.abs() <= COORDINATE_LIMIT && p.y.abs() <= COORDINATE_LIMIT) {
                return Err(MeshError::NotFinite { vertex: nv_old + i });
            }
        }
        // New polygon numbers: kept ones in order, then the added ones.
        let mut poly_id = vec![NO_POLY; np_old];
        let mut kept = 0usize;
        for (p, id) in poly_id.iter_mut().enumerate() {
            if !removed[p] {
                *id = kept as i32;
                kept += 1;
            }
        }
        let np = kept + added.len();
        if np == 0 {
            return Err(MeshError::Size("the mesh has no polygon".into()));
        }
        if nv_all >= i32::MAX as usize - 4 || np >= i32::MAX as usize {
            return Err(MeshError::Size(format!(
                "{nv_all} vertices and {np} polygons exceed 32-bit indices"
            )));
        }
        let mut all: Vec<MeshPoint> = Vec::with_capacity(nv_all);
        all.extend_from_slice(&self.points);
        all.extend_from_slice(new_points);
        for (j, vs) in added.iter().enumerate() {
            let p = kept + j;
            if vs.len() < 3 {
                return Err(MeshError::Degenerate {
                    polygon: p,
                    reason: "fewer than three vertices",
                });
            }
            if vs.len() > u16::MAX as usize {
                return Err(MeshError::Degenerate {
                    polygon: p,
                    reason: "more than 65535 vertices",
                });
            }
            if let Some(&v) = vs.iter().find(|&&v| v as usize >= nv_all) {
                return Err(MeshError::Dangling {
                    owner: format!("polygon {p}"),
                    what: "vertex",
                    index: i64::from(v),
                    count: nv_all,
                });
            }
            check_shape(&all, p, vs)?;
        }
        // Vertices still used, and those whose surroundings changed.
        let mut used = vec![false; nv_all];
        let mut touched = vec![false; nv_all];
        for (p, &gone) in removed.iter().enumerate() {
            let mark = if gone { &mut touched } else { &mut used };
            for &v in self.poly_vertices(p as u32) {
                mark[v as usize] = true;
            }
        }
        for vs in added {
            for &v in vs {
                used[v as usize] = true;
                touched[v as usize] = true;
            }
        }
        let mut vid = vec![u32::MAX; nv_all];
        let mut points = Vec::with_capacity(nv_all);
        for v in 0..nv_all {
            if used[v] {
                vid[v] = points.len() as u32;
                points.push(all[v]);
            }
        }
        drop(all);
        // The directed edges of the added polygons, and of the kept polygons between two
        // touched vertices (the only kept edges an added polygon can share): (a, b) in old
        // numbering -> (new polygon, position in it).
        let added_slots: usize = added.iter().map(Vec::len).sum();
        let mut added_edges: HashMap<(u32, u32), (u32, u16)> = HashMap::with_capacity(added_slots);
        for (j, vs) in added.iter().enumerate() {
            let n = vs.len();
            for i in 0..n {
                let e = (vs[i], vs[(i + 1) % n]);
                if added_edges
                    .insert(e, ((kept + j) as u32, i as u16))
                    .is_some()
                {
                    return Err(two_polygons(kept + j, e));
                }
            }
        }
        let mut kept_near: HashMap<(u32, u32), (u32, u16)> = HashMap::new();
        // The arrays, kept polygons first.
        let total = self.poly_verts.len() + added_slots;
        let mut poly_off = Vec::with_capacity(np + 1);
        let mut poly_verts = Vec::with_capacity(total);
        let mut poly_adj = Vec::with_capacity(total);
        let mut poly_twin = Vec::with_capacity(total);
        poly_off.push(0u32);
        for p in (0..np_old).filter(|&p| !removed[p]) {
            let (s, e) = (self.poly_off[p] as usize, self.poly_off[p + 1] as usize);
            let n = e - s;
            let new_p = poly_id[p] as usize;
            for i in 0..n {
                let (a, b) = (self.poly_verts[s + i], self.poly_verts[s + (i + 1) % n]);
                poly_verts.push(vid[a as usize]);
                let q = self.poly_adj[s + i];
                let near = touched[a as usize] && touched[b as usize];
                if near {
                    if added_edges.contains_key(&(a, b)) {
                        return Err(two_polygons(new_p, (a, b)));
                    }
                    kept_near.insert((a, b), (new_p as u32, i as u16));
                }
                if q != NO_POLY && !removed[q as usize] {
                    if near && added_edges.contains_key(&(b, a)) {
                        // The kept neighbour has this edge too.
                        return Err(two_polygons(poly_id[q as usize] as usize, (b, a)));
                    }
                    poly_adj.push(poly_id[q as usize]);
                    poly_twin.push(self.poly_twin[s + i]);
                } else {
                    let (r, k) = across(near.then(|| added_edges.get(&(b, a))).flatten());
                    poly_adj.push(r);
                    poly_twin.push(k);
                }
            }
            poly_off.push(poly_verts.len() as u32);
        }
        for vs in added {
            let n = vs.len();
            for i in 0..n {
                let (a, b) = (vs[i], vs[(i + 1) % n]);
                poly_verts.push(vid[a as usize]);
                let (r, k) = across(added_edges.get(&(b, a)).or_else(|| kept_near.get(&(b, a))));
                poly_adj.push(r);
                poly_twin.push(k);
            }
            poly_off.push(poly_verts.len() as u32);
        }
        // The added polygons holding each vertex, by vertex (old numbering).
        let mut holders: Vec<(u32, u32)> = Vec::with_capacity(added_slots);
        for (j, vs) in added.iter().enumerate() {
            holders.extend(vs.iter().map(|&v| (v, (kept + j) as u32)));
        }
        holders.sort_unstable();
        // Vertex polygon lists: untouched vertices keep theirs (renumbered: the order of kept
        // polygons is kept, so the lists are what a derivation would give); touched ones are
        // derived again from the polygons now round them.
        let mut vert_off = Vec::with_capacity(points.len() + 1);
        let mut vert_polys = Vec::with_capacity(self.vert_polys.len() + added_slots);
        vert_off.push(0u32);
        let mut entries: Vec<(u32, i32, i32)> = Vec::new();
        let mut scratch = ListScratch::default();
        for v in (0..nv_all).filter(|&v| used[v]) {
            let old = if v < nv_old {
                &self.vert_polys[self.vert_off[v] as usize..self.vert_off[v + 1] as usize]
            } else {
                &[][..]
            };
            if !touched[v] {
                vert_polys.extend(old.iter().map(|&q| {
                    if q == NO_POLY {
                        NO_POLY
                    } else {
                        poly_id[q as usize]
                    }
                }));
            } else {
                entries.clear();
                let from = holders.partition_point(|h| (h.0 as usize) < v);
                let mine = holders[from..].iter().take_while(|h| h.0 as usize == v);
                let nv = vid[v];
                let polys = old
                    .iter()
                    .filter(|&&q| q != NO_POLY && !removed[q as usize])
                    .map(|&q| poly_id[q as usize] as u32)
                    .chain(mine.map(|h| h.1));
                for p in polys {
                    let (s, e) = (
                        poly_off[p as usize] as usize,
                        poly_off[p as usize + 1] as usize,
                    );
                    let n = e - s;
                    let i = poly_verts[s..e]
                        .iter()
                        .position(|&w| w == nv)
                        .expect("the polygon holds the vertex");
                    entries.push((p, poly_adj[s + (i + n - 1) % n], poly_adj[s + i]));
                }
                entries.sort_unstable_by_key(|e| e.0);
                vertex_list(
                    &points,
                    &poly_off,
                    &poly_verts,
                    nv as usize,
                    &entries,
                    &mut scratch,
                    &mut vert_polys,
                );
            }
            vert_off.push(vert_polys.len() as u32);
        }
        Ok(Mesh::assemble(
            points, vert_off, vert_polys, poly_off, poly_verts, poly_adj, poly_twin,
        ))
    }
}

/// The neighbour and twin of an edge from the polygon found across it, or an obstacle side.
fn across(found: Option<&(u32, u16)>) -> (i32, u16) {
    found.map_or((NO_POLY, u16::MAX), |&(r, k)| (r as i32, k))
}

fn two_polygons(polygon: usize, e: (u32, u32)) -> MeshError {
    MeshError::Adjacency {
        polygon,
        reason: format!("the edge {} -> {} belongs to two polygons", e.0, e.1),
    }
}

#[cfg(test)]
mod tests {
    use taut_grid::Grid;

    use super::*;
    use crate::build::mesh_from_grid;

    fn polygons(m: &Mesh) -> Vec<Vec<u32>> {
        (0..m.polygon_count() as u32)
            .map(|p| m.poly_vertices(p).to_vec())
            .collect()
    }

    fn grid(seed: u64) -> Grid {
        let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        Grid::from_fn(14, 11, |_, _| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            !s.is_multiple_of(4)
        })
    }

    #[test]
    fn removing_and_adding_back_equals_a_whole_build() {
        for seed in 0..40 {
            let mesh = mesh_from_grid(&grid(seed)).unwrap();
            let np = mesh.polygon_count();
            let all = polygons(&mesh);
            // Every third polygon out and back in at the end; then out for good.
            let removed: Vec<bool> = (0..np)
                .map(|p| (p + seed as usize).is_multiple_of(3))
                .collect();
            let back: Vec<Vec<u32>> = (0..np)
                .filter(|&p| removed[p])
                .map(|p| all[p].clone())
                .collect();
            let patched = mesh.patched(&removed, &[], &back).unwrap();
            let mut order: Vec<Vec<u32>> = (0..np)
                .filter(|&p| !removed[p])
                .map(|p| all[p].clone())
                .collect();
            order.extend(back);
            let whole = Mesh::new(mesh.points().to_vec(), &order).unwrap();
            assert!(patched == whole, "seed {seed}: re-added");
            if removed.iter().all(|&r| r) {
                continue;
            }
            let holes = mesh.patched(&removed, &[], &[]).unwrap();
            assert!(holes == Mesh::new(holes.points().to_vec(), &polygons(&holes)).unwrap());
            assert!(holes.vertex_count() <= mesh.vertex_count());
        }
    }

    #[test]
    fn new_points_and_bad_patches() {
        let mesh = mesh_from_grid(&Grid::from_ascii(&["...", "...", "..."]).unwrap()).unwrap();
        let np = mesh.polygon_count();
        let nv = mesh.vertex_count() as u32;
        assert!(matches!(
            mesh.patched(&vec![false; np + 1], &[], &[]),
            Err(MeshError::Size(_))
        ));
        assert!(matches!(
            mesh.patched(&vec![true; np], &[], &[]),
            Err(MeshError::Size(_))
        ));
        // A triangle beside the map, on two new points and a corner: added, adjacent to nothing.
        let corner = (0..nv)
            .find(|&v| mesh.point(v) == MeshPoint::new(3.0, 0.0))
            .unwrap();
        let extra = [MeshPoint::new(4.0, 0.0), MeshPoint::new(4.0, 1.0)];
        let tri = vec![corner, nv, nv + 1];
        let keep = vec![false; np];
        let patched = mesh.patched(&keep, &extra, &[tri]).unwrap();
        assert_eq!(patched.polygon_count(), np + 1);
        assert_eq!(patched.area(), mesh.area() + 0.5);
        assert!(patched == Mesh::new(patched.points().to_vec(), &polygons(&patched)).unwrap());
        // Clockwise, a missing vertex, an edge claimed twice.
        let cw = vec![corner, nv + 1, nv];
        assert!(matches!(
            mesh.patched(&keep, &extra, &[cw]),
            Err(MeshError::NotConvex { .. })
        ));
        assert!(matches!(
            mesh.patched(&keep, &extra, &[vec![corner, nv, nv + 5]]),
            Err(MeshError::Dangling { .. })
        ));
        let twice = mesh.polygon_count() as u32 - 1;
        let copy = mesh.poly_vertices(twice).to_vec();
        assert!(matches!(
            mesh.patched(&keep, &[], &[copy]),
            Err(MeshError::Adjacency { .. })
        ));
    }
}
