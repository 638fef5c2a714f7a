//! `auto`'s rule: which exact planner answers fastest on a map, from what has been built for it,
//! and whether building the mesh for many queries pays, from one measure of the grid.
//!
//! With a hub index, hub labels; with a CPD, End Point Search; with the map's mesh, Polyanya;
//! on a large map of scattered small obstacles, ray scanning; else Anya (`docs/planners.md`
//! has the measurements). Asked to prepare for many queries
//! ([`crate::Map::prepare`] with `auto`), the map builds its mesh unless the grid is clutter:
//! scattered blocked cells, every speck an obstacle the mesh must triangulate around, where
//! the mesh takes 0.75 s on average to build on a 512² map (against 4-63 ms on average on the
//! game, maze, room and street suites) for a gain of a few milliseconds a query. The measure is the number of
//! obstacles (8-connected groups of blocked cells) per thousand free cells.

use taut_grid::Grid;

/// Obstacles per thousand free cells above which `auto` does not build the mesh for many
/// queries. The 53 maps of the shared `grid/maps` have at most 3.0 but for `8room_000` (12.3)
/// and the random maps (31.8-90.5): `docs/planners.md`.
pub const CLUTTER_THRESHOLD: f64 = 20.0;

/// Ray scanning is `auto`'s online planner on maps with at least this many free cells whose
/// clutter lies in [`RAY_CLUTTER`]: open fields strewn with small obstacles, where one ray
/// crosses what Anya and Polyanya cross interval by interval (2.0× to 3.2× faster than Anya and
/// 1.5× to 2.1× faster than Polyanya on generated 512² to 2048² maps of 0.3 % speckle and long
/// walls). On the game maps (clutter at most 0.8) Anya is faster; on the random maps (31.8 and
/// more) much faster. `docs/planners.md` has the figures.
pub const RAY_MIN_FREE: u64 = 200_000;

/// The clutter band of [`RAY_MIN_FREE`].
pub const RAY_CLUTTER: std::ops::RangeInclusive<f64> = 1.0..=8.0;

/// What `auto` reads of a grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapKind {
    /// Free cells.
    pub free: u64,
    /// Obstacles: 8-connected groups of blocked cells (the map's outside is not one).
    pub obstacles: u64,
}

impl MapKind {
    /// Obstacles per thousand free cells.
    pub fn clutter(&self) -> f64 {
        self.obstacles as f64 * 1000.0 / self.free.max(1) as f64
    }

    /// Whether building the map's mesh for many queries pays (the map is not clutter, and ray
    /// scanning, which needs no mesh, is not the faster online planner).
    pub fn mesh_pays(&self) -> bool {
        self.clutter() <= CLUTTER_THRESHOLD && !self.ray_pays()
    }

    /// Whether ray scanning is the fastest exact online planner here ([`RAY_MIN_FREE`]).
    pub fn ray_pays(&self) -> bool {
        self.free >= RAY_MIN_FREE && RAY_CLUTTER.contains(&self.clutter())
    }
}

/// Measures `grid` (one pass over its cells, and a flood fill of the blocked ones).
pub fn classify(grid: &Grid) -> MapKind {
    let (w, h) = (grid.width(), grid.height());
    let (wu, hu) = (w.max(0) as usize, h.max(0) as usize);
    let mut seen = vec![false; wu * hu];
    let mut stack: Vec<(i32, i32)> = Vec::new();
    let mut obstacles = 0;
    for y in 0..h {
        for x in 0..w {
            let i = y as usize * wu + x as usize;
            if seen[i] || grid.is_free(x, y) {
                continue;
            }
            obstacles += 1;
            seen[i] = true;
            stack.push((x, y));
            while let Some((cx, cy)) = stack.pop() {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let (nx, ny) = (cx + dx, cy + dy);
                        if nx < 0 || ny < 0 || nx >= w || ny >= h {
                            continue;
                        }
                        let j = ny as usize * wu + nx as usize;
                        if !seen[j] && !grid.is_free(nx, ny) {
                            seen[j] = true;
                            stack.push((nx, ny));
                        }
                    }
                }
            }
        }
    }
    MapKind {
        free: grid.free_cells(),
        obstacles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obstacles_are_counted_by_8_connected_groups() {
        let g = Grid::from_ascii(&["@...@", ".@...", "....@", "@@..@"]).unwrap();
        // {(0,0),(1,1)} diagonal, {(4,0)}, {(4,2),(4,3)}, {(0,3),(1,3)}.
        let k = classify(&g);
        assert_eq!(k.obstacles, 4);
        assert_eq!(k.free, 13);
        let open = classify(&Grid::from_ascii(&["....", "...."]).unwrap());
        assert_eq!(open.obstacles, 0);
        assert!(open.mesh_pays() && !open.ray_pays());
        // A large field of scattered specks: ray scanning, and no mesh.
        let speckled = MapKind {
            free: 1_000_000,
            obstacles: 3_000,
        };
        assert!(speckled.ray_pays() && !speckled.mesh_pays());
        // The same density on a small map, or a game map's few large obstacles: not ray.
        assert!(
            !MapKind {
                free: 40_000,
                obstacles: 120
            }
            .ray_pays()
        );
        assert!(
            !MapKind {
                free: 1_000_000,
                obstacles: 200
            }
            .ray_pays()
        );
    }
}
