//! Query sampling for the spherical comparison: a seeded generator, the lattice-point ↔
//! latitude/longitude mapping, which lattice points both planners accept, and the largest
//! connected sea of an Earth raster.

use std::collections::VecDeque;

use taut::geom::Point;
use taut::grid::Grid;
use taut::spherical::{LatLon, SphereGrid};

pub use crate::rng::SplitMix64;

/// The generator's seed for one benchmark and map: the run's seed mixed with FNV-1a hashes of
/// the names, so that a map draws the same queries whichever other maps run, and the first k
/// of n queries are the k queries of a shorter run.
pub fn seed_for(seed: u64, bench: &str, map: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bench.bytes().chain([0xff]).chain(map.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut mix = SplitMix64::new(seed ^ h);
    mix.next_u64()
}

/// The latitude/longitude (degrees) of lattice point `p` of a `width × height` map read as the
/// whole sphere (paper eq. 6, `SphereGrid`'s convention): longitude −180 + 360·x/W, latitude
/// 90 − 180·y/H.
pub fn lattice_to_latlon(width: u32, height: u32, p: Point) -> LatLon {
    LatLon::new(
        90.0 - 180.0 * f64::from(p.y) / f64::from(height),
        -180.0 + 360.0 * f64::from(p.x) / f64::from(width),
    )
}

/// Whether lattice point `p` of `grid` is a double corner on the sphere: two diagonally
/// opposite cells around it blocked, the other two free, with longitude wrapping (so a point
/// of column 0 sees column W − 1 to its west).
pub fn sphere_double_corner(sgrid: &SphereGrid, p: Point) -> bool {
    let (r, c) = (i64::from(p.y), i64::from(p.x));
    let nw = sgrid.is_free(r - 1, c - 1);
    let ne = sgrid.is_free(r - 1, c);
    let sw = sgrid.is_free(r, c - 1);
    let se = sgrid.is_free(r, c);
    (nw && se && !ne && !sw) || (ne && sw && !nw && !se)
}

/// Whether both planners accept lattice point `p` as an endpoint: Anya does
/// (`Grid::check_endpoint`: on the map, its south-east cell free), it is not on row line 0
/// (the North Pole, where every point of the row is one point of the sphere), and it is not a
/// double corner on the sphere (where Spherical Anya cannot tell which side is meant).
pub fn endpoint_ok(grid: &Grid, sgrid: &SphereGrid, p: Point) -> bool {
    grid.check_endpoint(taut::grid::Endpoint::Start, p).is_ok()
        && p.y > 0
        && !sphere_double_corner(sgrid, p)
}

/// The lattice points a game-map query may use: the top-left corner of every free cell that
/// [`endpoint_ok`] accepts, in row-major order. Also returns the number of free cells.
pub fn candidate_points(grid: &Grid, sgrid: &SphereGrid) -> (Vec<Point>, usize) {
    let mut out = Vec::new();
    let mut free = 0;
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            if grid.is_free(x, y) {
                free += 1;
                let p = Point::new(x, y);
                if endpoint_ok(grid, sgrid, p) {
                    out.push(p);
                }
            }
        }
    }
    (out, free)
}

/// `n` pairs drawn uniformly with replacement from `points`; a goal equal to its start is
/// drawn again (both planners answer such a query with an empty route, whose length ratio is
/// 0/0). Empty when there are fewer than two points.
pub fn sample_pairs<T: Copy + PartialEq>(
    points: &[T],
    n: usize,
    rng: &mut SplitMix64,
) -> Vec<(T, T)> {
    if points.len() < 2 {
        return Vec::new();
    }
    (0..n)
        .map(|_| {
            let s = points[rng.below(points.len())];
            loop {
                let g = points[rng.below(points.len())];
                if g != s {
                    return (s, g);
                }
            }
        })
        .collect()
}

/// The lattice point nearest (great-circle distance) to `p` that [`endpoint_ok`] accepts,
/// among the corners of the cells within `radius` cells of the cell containing `p` (longitude
/// wrapping; lattice x is kept in `0..W`, the columns Anya's grid has). Ties go to the first
/// found, scanning rows then columns from the north-west. `None` if there is none.
pub fn nearest_lattice(grid: &Grid, sgrid: &SphereGrid, p: LatLon, radius: u32) -> Option<Point> {
    let (row, col) = sgrid.cell_of(p);
    let (w, h) = (sgrid.width() as i64, sgrid.height() as i64);
    let target = p.to_vec();
    let mut best: Option<(f64, Point)> = None;
    let r = i64::from(radius);
    for y in (row as i64 - r).max(0)..=(row as i64 + 1 + r).min(h) {
        for dx in -r..=1 + r {
            let x = (col as i64 + dx).rem_euclid(w);
            let q = Point::new(x as i32, y as i32);
            if !endpoint_ok(grid, sgrid, q) {
                continue;
            }
            let d = lattice_to_latlon(sgrid.width(), sgrid.height(), q)
                .to_vec()
                .angle(target);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, q));
            }
        }
    }
    best.map(|(_, q)| q)
}

/// The cells (row, col) of the largest 4-connected set of free cells of `sgrid`, longitude
/// wrapping (cells that share only a corner, or only the pole, are not connected), in
/// row-major order.
pub fn largest_component(sgrid: &SphereGrid) -> Vec<(u32, u32)> {
    let (w, h) = (sgrid.width() as usize, sgrid.height() as usize);
    let mut label = vec![u32::MAX; w * h];
    let mut best = (0usize, u32::MAX);
    let mut queue = VecDeque::new();
    let mut next = 0u32;
    for start in 0..w * h {
        if label[start] != u32::MAX || !sgrid.is_free((start / w) as i64, (start % w) as i64) {
            continue;
        }
        let id = next;
        next += 1;
        label[start] = id;
        queue.push_back(start);
        let mut size = 0usize;
        while let Some(i) = queue.pop_front() {
            size += 1;
            let (r, c) = ((i / w) as i64, (i % w) as i64);
            for (nr, nc) in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
                if !sgrid.is_free(nr, nc) {
                    continue;
                }
                let j = nr as usize * w + nc.rem_euclid(w as i64) as usize;
                if label[j] == u32::MAX {
                    label[j] = id;
                    queue.push_back(j);
                }
            }
        }
        if size > best.0 {
            best = (size, id);
        }
    }
    (0..w * h)
        .filter(|&i| label[i] == best.1)
        .map(|i| ((i / w) as u32, (i % w) as u32))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_splitmix64() {
        // Reference outputs of SplitMix64 seeded with 0 (as in the xoshiro authors' code).
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut g = SplitMix64::new(7);
        assert!((0..1000).all(|_| g.below(3) < 3));
        assert_ne!(seed_for(1, "a", "bc"), seed_for(1, "ab", "c"));
    }

    #[test]
    fn lattice_points_map_linearly() {
        let p = lattice_to_latlon(360, 180, Point::new(180, 90));
        assert_eq!((p.lat, p.lon), (0.0, 0.0));
        let p = lattice_to_latlon(4, 2, Point::new(0, 0));
        assert_eq!((p.lat, p.lon), (90.0, -180.0));
        let p = lattice_to_latlon(8, 4, Point::new(2, 3));
        assert_eq!((p.lat, p.lon), (-45.0, -90.0));
    }

    #[test]
    fn endpoints_both_planners_accept() {
        // Row 0 is the pole; (2, 2) is a double corner whose south-east cell is free.
        let grid = Grid::from_ascii(&[
            "......", //
            "..@...", //
            ".@....", //
            "......", //
        ])
        .unwrap();
        let sgrid = SphereGrid::from_grid(&grid).unwrap();
        assert!(!endpoint_ok(&grid, &sgrid, Point::new(3, 0)), "pole");
        assert!(
            grid.check_endpoint(taut::grid::Endpoint::Start, Point::new(2, 2))
                .is_ok()
        );
        assert!(
            !endpoint_ok(&grid, &sgrid, Point::new(2, 2)),
            "double corner"
        );
        assert!(endpoint_ok(&grid, &sgrid, Point::new(3, 2)));
        assert!(
            !endpoint_ok(&grid, &sgrid, Point::new(6, 2)),
            "off Anya's map"
        );
        let (cands, free) = candidate_points(&grid, &sgrid);
        assert_eq!(free, 22);
        // Every free cell but the six of row 0 and the double corner's.
        assert_eq!(cands.len(), 22 - 6 - 1);
        // With the wrap, (0, 2) is a double corner on the sphere (cells (3, 1) and (0, 2)
        // free, (0, 1) and (3, 2) blocked) though not on the plane, where column -1 is
        // outside the map.
        let wrap = Grid::from_ascii(&["....", "@...", "...@", "...."]).unwrap();
        let ws = SphereGrid::from_grid(&wrap).unwrap();
        assert!(!wrap.is_double_corner(Point::new(0, 2)));
        assert!(sphere_double_corner(&ws, Point::new(0, 2)));
        assert!(!endpoint_ok(&wrap, &ws, Point::new(0, 2)));
        assert!(endpoint_ok(&wrap, &ws, Point::new(1, 2)));
    }

    #[test]
    fn pairs_are_distinct_and_reproducible() {
        let pts: Vec<u32> = (0..5).collect();
        let a = sample_pairs(&pts, 50, &mut SplitMix64::new(3));
        let b = sample_pairs(&pts, 50, &mut SplitMix64::new(3));
        assert_eq!(a, b);
        assert!(a.iter().all(|(s, g)| s != g));
        assert!(sample_pairs(&[1u32], 5, &mut SplitMix64::new(3)).is_empty());
        // A shorter run draws a prefix of a longer one.
        let c = sample_pairs(&pts, 20, &mut SplitMix64::new(3));
        assert_eq!(c[..], a[..20]);
    }

    #[test]
    fn nearest_lattice_point_and_largest_component() {
        // 8 x 4 map; a wall of blocked cells at columns 3 and 6 splits the sea into a
        // 2-column and a 4-column part joined across the wrap.
        let grid = Grid::from_ascii(&["...@..@.", "...@..@.", "...@..@.", "...@..@."]).unwrap();
        let sgrid = SphereGrid::from_grid(&grid).unwrap();
        let big = largest_component(&sgrid);
        // Columns 7, 0, 1, 2 (wrapping) by 4 rows.
        assert_eq!(big.len(), 16);
        assert!(big.contains(&(0, 7)) && big.contains(&(3, 0)) && !big.contains(&(0, 4)));
        // The centre of cell (1, 1) (lat 22.5, lon -112.5): its nearest corners are the
        // northern ones, (1, 1) and (2, 1), at the same distance up to rounding.
        let c = sgrid.cell_centre(1, 1);
        let q = nearest_lattice(&grid, &sgrid, c, 1).unwrap();
        assert!(q == Point::new(1, 1) || q == Point::new(2, 1), "{q:?}");
        // In the southern hemisphere the southern corners are nearer.
        let c = sgrid.cell_centre(2, 1);
        let q = nearest_lattice(&grid, &sgrid, c, 1).unwrap();
        assert!(q == Point::new(1, 3) || q == Point::new(2, 3), "{q:?}");
        // A point in the blocked column 3 goes to the nearest corner whose south-east cell is
        // free: x = 3 (longitude -45) has its south-east cells in column 3, so x = 4
        // (longitude 0) on the equator.
        let q = nearest_lattice(&grid, &sgrid, LatLon::new(10.0, -10.0), 1);
        assert_eq!(q, Some(Point::new(4, 2)));
    }
}
