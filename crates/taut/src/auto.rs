//! `auto`'s rule: which exact planner answers fastest on a map, from what has been built for it
//! and one measure of the grid.
//!
//! With a hub index, hub labels; with a CPD, End Point Search (each is the fastest exact tier
//! where it exists: `docs/planners.md`). Otherwise Polyanya on the map's mesh, or Anya, by the
//! grid's clutter: Polyanya is faster on game, street, room and maze maps, Anya on maps of
//! scattered blocked cells, where every speck is an obstacle whose corners the mesh must
//! triangulate around. The measure is the number of obstacles (8-connected groups of blocked
//! cells inside the map) per thousand free cells; the threshold is measured
//! (`docs/planners.md` has the figures).

use taut_grid::Grid;

/// Obstacles per thousand free cells above which Anya answers faster than Polyanya on a
/// map's mesh (measured on every shared map: `docs/planners.md`).
pub const CLUTTER_THRESHOLD: f64 = 20.0;

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

    /// Whether Polyanya on the map's mesh answers faster than Anya (the mesh is then worth
    /// building for many queries).
    pub fn mesh_pays(&self) -> bool {
        self.clutter() <= CLUTTER_THRESHOLD
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
        assert!(open.mesh_pays());
    }
}
