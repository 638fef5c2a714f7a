//! The mesh builders: invariants on random and hand-made grids, polygon maps and their
//! errors, and every map of the shared reference data.

use proptest::prelude::*;
use taut_grid::{Grid, Point, quad};
use taut_mesh::build::{
    PolygonId, PolygonParseError, mesh_from_grid_with, mesh_from_grid_with_stats,
    mesh_from_polygons_with_stats, parse_polygon_map,
};
use taut_mesh::{
    BuildError, BuildOptions, Location, Mesh, MeshPoint, NO_POLY, PolygonMap, format_mesh,
    mesh_from_grid, mesh_from_polygons, parse_mesh,
};
use taut_testdata::random_grid_with;

/// Whether a lattice point is a vertex of the free-space boundary (the tracing rule).
fn is_boundary_vertex(m: u8) -> bool {
    match m.count_ones() {
        1 | 3 => true,
        2 => quad::is_double_corner(m),
        _ => false,
    }
}

/// The polygon-major corner records say what the separate per-polygon and per-vertex arrays
/// say.
fn check_corner_records(mesh: &Mesh) {
    for p in 0..mesh.polygon_count() as u32 {
        let (cs, vs) = (mesh.poly_corners(p), mesh.poly_vertices(p));
        assert_eq!(cs.len(), vs.len(), "polygon {p}: corner count");
        for (i, c) in cs.iter().enumerate() {
            assert_eq!(c.v, vs[i], "polygon {p} corner {i}: vertex");
            assert_eq!(c.p, mesh.point(vs[i]), "polygon {p} corner {i}: position");
            assert_eq!(
                c.adj,
                mesh.poly_adjacent(p)[i],
                "polygon {p} corner {i}: across"
            );
            assert_eq!(
                c.twin,
                mesh.poly_twins(p)[i],
                "polygon {p} corner {i}: twin"
            );
            assert_eq!(c.is_corner(), mesh.is_corner(c.v), "polygon {p} corner {i}");
            assert_eq!(
                c.leads_to_one_way(),
                c.adj != NO_POLY && mesh.is_one_way(c.adj as u32),
                "polygon {p} corner {i}: one-way flag"
            );
        }
    }
}

/// Everything a grid mesh must satisfy. Cell centres are located for one cell in `stride`,
/// in a diagonal pattern that meets every row and column (every cell with stride 1, which
/// also checks a file round trip); the other checks cover every vertex and side.
fn check_grid_mesh(grid: &Grid, mesh: &Mesh, stride: usize) {
    let (w, h) = (grid.width(), grid.height());
    // Area: exactly the free cells (polygon areas of integer points are exact in f64).
    assert_eq!(mesh.area(), grid.free_cells() as f64, "area");
    assert!(mesh.is_integer());
    // Vertices: exactly the lattice points where the boundary turns.
    let mut corners = 0;
    for y in 0..=h {
        for x in 0..=w {
            let m = grid.point_cells(Point::new(x, y));
            if is_boundary_vertex(m) {
                corners += 1;
                let at = MeshPoint::new(f64::from(x), f64::from(y));
                let Location::Vertex(v) = mesh.locate(at) else {
                    panic!("lattice point ({x}, {y}) with cells {m:#06b} is not a vertex");
                };
                assert_eq!(
                    mesh.is_ambiguous(v),
                    quad::is_double_corner(m),
                    "ambiguity of ({x}, {y})"
                );
                assert!(mesh.is_corner(v), "({x}, {y}) is not a corner");
            }
        }
    }
    assert_eq!(corners, mesh.vertex_count(), "vertex count");
    check_corner_records(mesh);
    // Obstacle sides lie on the free-space boundary: free on the left (inside), blocked on
    // the right, for every unit step.
    for p in 0..mesh.polygon_count() as u32 {
        let vs = mesh.poly_vertices(p);
        let adj = mesh.poly_adjacent(p);
        for i in 0..vs.len() {
            if adj[i] != NO_POLY {
                continue;
            }
            let a = mesh.point(vs[i]);
            let b = mesh.point(vs[(i + 1) % vs.len()]);
            let sign = |d: f64| (d > 0.0) as i32 - (d < 0.0) as i32;
            let (dx, dy) = (sign(b.x - a.x), sign(b.y - a.y));
            assert!(
                dx == 0 || dy == 0,
                "obstacle side {a} - {b} is not axis-aligned"
            );
            let steps = (b.x - a.x).abs().max((b.y - a.y).abs()) as i32;
            let (ax, ay) = (a.x as i32, a.y as i32);
            for k in 0..steps {
                let (x, y) = (ax + k * dx, ay + k * dy);
                // The cell on the left of the unit step from (x, y) (mathematical orientation)
                // and the one on the right.
                let (left, right) = match (dx, dy) {
                    (1, 0) => ((x, y), (x, y - 1)),
                    (-1, 0) => ((x - 1, y - 1), (x - 1, y)),
                    (0, 1) => ((x - 1, y), (x, y)),
                    _ => ((x, y - 1), (x - 1, y - 1)),
                };
                assert!(
                    grid.is_free(left.0, left.1),
                    "side {a} - {b}: inside not free"
                );
                assert!(
                    !grid.is_free(right.0, right.1),
                    "side {a} - {b}: outside free"
                );
            }
        }
    }
    for y in 0..h {
        for x in 0..w {
            if ((x + 3 * y) as usize).is_multiple_of(stride) {
                let c = MeshPoint::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
                let loc = mesh.locate(c);
                if grid.is_free(x, y) {
                    assert_ne!(loc, Location::OffMesh, "free cell ({x}, {y})");
                } else {
                    assert_eq!(loc, Location::OffMesh, "blocked cell ({x}, {y})");
                }
            }
        }
    }
    if stride == 1 {
        // The mesh survives a round trip through the file format.
        assert_eq!(&parse_mesh(&format_mesh(mesh)).unwrap(), mesh);
    }
}

fn build_and_check(grid: &Grid) {
    if grid.free_cells() == 0 {
        assert_eq!(mesh_from_grid(grid).unwrap_err(), BuildError::NoFreeSpace);
        return;
    }
    let (mesh, stats) = mesh_from_grid_with_stats(grid).unwrap();
    check_grid_mesh(grid, &mesh, 1);
    assert_eq!(stats.vertices, mesh.vertex_count());
    assert_eq!(stats.polygons, mesh.polygon_count());
    assert!(stats.polygons <= stats.triangles);
    assert!(stats.triangles <= stats.cdt_triangles);
    // Unmerged: the free triangles themselves, with the same vertices.
    let (tri, tri_stats) = mesh_from_grid_with(grid, &BuildOptions { merge: false }).unwrap();
    check_grid_mesh(grid, &tri, 1);
    assert_eq!(tri.polygon_count(), stats.triangles);
    assert_eq!(tri_stats.triangles, stats.triangles);
    assert_eq!(tri.points(), mesh.points());
    assert!((0..tri.polygon_count() as u32).all(|p| tri.poly_vertices(p).len() == 3));
}

/// Random grids up to 24 × 24 with 0–60 % of their cells blocked (whole percents).
fn random_grid() -> impl Strategy<Value = Grid> {
    random_grid_with(1..=24, (0u32..=60).prop_map(|p| f64::from(p) / 100.0))
}

/// Checkerboards (every interior lattice point a double corner), with a few cells flipped.
fn checkerboard() -> impl Strategy<Value = Grid> {
    (1u32..=24, 1u32..=24, 0u32..=1, 0u32..=10).prop_flat_map(|(w, h, phase, flips)| {
        proptest::collection::vec(
            proptest::bool::weighted(f64::from(flips) / 100.0),
            (w * h) as usize,
        )
        .prop_map(move |flip| {
            Grid::from_fn(w, h, |x, y| {
                ((x + y + phase) % 2 == 0) != flip[(y * w + x) as usize]
            })
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_grids_mesh_exactly_their_free_space(grid in random_grid()) {
        build_and_check(&grid);
    }

    #[test]
    fn checkerboards_keep_every_double_corner(grid in checkerboard()) {
        build_and_check(&grid);
    }
}

#[test]
fn no_free_cell_is_an_error() {
    for rows in [&["@"][..], &["@@@", "@@@"][..]] {
        let grid = Grid::from_ascii(rows).unwrap();
        assert_eq!(mesh_from_grid(&grid).unwrap_err(), BuildError::NoFreeSpace);
    }
}

#[test]
fn single_free_cell_is_one_square() {
    for rows in [&["."][..], &["@@@", "@.@", "@@@"][..]] {
        let grid = Grid::from_ascii(rows).unwrap();
        let mesh = mesh_from_grid(&grid).unwrap();
        assert_eq!((mesh.vertex_count(), mesh.polygon_count()), (4, 1));
        assert_eq!(mesh.poly_vertices(0).len(), 4);
        assert_eq!(mesh.poly_adjacent(0), &[NO_POLY; 4]);
        check_grid_mesh(&grid, &mesh, 1);
    }
}

#[test]
fn open_rectangle_is_one_polygon() {
    let grid = Grid::from_ascii(&["......", "......", "......"]).unwrap();
    let mesh = mesh_from_grid(&grid).unwrap();
    assert_eq!((mesh.vertex_count(), mesh.polygon_count()), (4, 1));
    assert_eq!(mesh.area(), 18.0);
}

#[test]
fn u_shape() {
    let grid = Grid::from_ascii(&[".@.", ".@.", "..."]).unwrap();
    let (mesh, stats) = mesh_from_grid_with_stats(&grid).unwrap();
    check_grid_mesh(&grid, &mesh, 1);
    // Corners: the outer rectangle's 4 and the notch's 4.
    assert_eq!(mesh.vertex_count(), 8);
    assert_eq!(stats.ambiguous_vertices, 0);
    // The notch is reflex at (1, 2) and (2, 2): no single convex polygon, but three suffice.
    assert!(
        (2..=3).contains(&mesh.polygon_count()),
        "{}",
        mesh.polygon_count()
    );
    assert_eq!(mesh.locate(MeshPoint::new(1.5, 1.0)), Location::OffMesh);
}

#[test]
fn double_corner_is_one_ambiguous_vertex() {
    let grid = Grid::from_ascii(&[".@", "@."]).unwrap();
    let (mesh, stats) = mesh_from_grid_with_stats(&grid).unwrap();
    check_grid_mesh(&grid, &mesh, 1);
    assert_eq!((mesh.vertex_count(), mesh.polygon_count()), (7, 2));
    assert_eq!(stats.ambiguous_vertices, 1);
    let Location::Vertex(v) = mesh.locate(MeshPoint::new(1.0, 1.0)) else {
        panic!("the double corner is not a vertex");
    };
    assert!(mesh.is_ambiguous(v));
    let around = mesh.vertex_polygons(v);
    assert_eq!(around.iter().filter(|&&q| q == NO_POLY).count(), 2);
    assert_eq!(around.iter().filter(|&&q| q != NO_POLY).count(), 2);
    // The two free cells share no edge.
    assert!((0..2).all(|p| mesh.poly_adjacent(p).iter().all(|&q| q == NO_POLY)));
    // The other diagonal: blocked cells at the top-left and bottom-right.
    let grid = Grid::from_ascii(&["@.", ".@"]).unwrap();
    build_and_check(&grid);
}

#[test]
fn polygons_are_counter_clockwise_in_lattice_coordinates() {
    // The reference meshes' convention: positive shoelace area with y growing south.
    let grid = Grid::from_ascii(&["...", ".@.", "..."]).unwrap();
    let mesh = mesh_from_grid(&grid).unwrap();
    for p in 0..mesh.polygon_count() as u32 {
        let vs = mesh.poly_vertices(p);
        let n = vs.len();
        let area2: f64 = (0..n)
            .map(|i| {
                let (a, b) = (mesh.point(vs[i]), mesh.point(vs[(i + 1) % n]));
                a.x * b.y - b.x * a.y
            })
            .sum();
        assert!(area2 > 0.0);
    }
    assert_eq!(mesh.area(), 8.0);
}

// ---------------------------------------------------------------------------------------------
// Polygon maps.

fn pts(c: &[f64]) -> Vec<MeshPoint> {
    c.chunks(2).map(|p| MeshPoint::new(p[0], p[1])).collect()
}

fn square(x: f64, y: f64, s: f64) -> Vec<MeshPoint> {
    pts(&[x, y, x + s, y, x + s, y + s, x, y + s])
}

#[test]
fn polygon_map_with_holes() {
    let map = PolygonMap {
        outer: square(0.0, 0.0, 10.0),
        obstacles: vec![square(2.0, 2.0, 2.0), pts(&[6.0, 6.0, 8.0, 6.0, 7.0, 8.5])],
    };
    let (mesh, stats) = mesh_from_polygons_with_stats(&map).unwrap();
    assert_eq!(mesh.area(), 100.0 - 4.0 - 2.5);
    assert_eq!(stats.vertices, 11);
    assert_eq!(stats.ambiguous_vertices, 0);
    assert_eq!(mesh.locate(MeshPoint::new(3.0, 3.0)), Location::OffMesh);
    assert_eq!(mesh.locate(MeshPoint::new(7.0, 7.0)), Location::OffMesh);
    assert_eq!(mesh.locate(MeshPoint::new(11.0, 7.0)), Location::OffMesh);
    assert_ne!(mesh.locate(MeshPoint::new(1.3, 7.1)), Location::OffMesh);
}

#[test]
fn polygon_map_orientation_does_not_matter() {
    let mut map = PolygonMap {
        outer: square(0.0, 0.0, 10.0),
        obstacles: vec![square(2.0, 2.0, 2.0)],
    };
    let a = mesh_from_polygons(&map).unwrap();
    map.outer.reverse();
    map.obstacles[0].reverse();
    let b = mesh_from_polygons(&map).unwrap();
    assert_eq!(a.area(), b.area());
    assert_eq!(a.polygon_count(), b.polygon_count());
}

#[test]
fn obstacles_touching_at_a_vertex_make_an_ambiguous_vertex() {
    // Two squares touching diagonally at (4, 4), and a triangle touching the outer polygon
    // at its corner (10, 10), splitting the free angle there in two.
    let map = PolygonMap {
        outer: square(0.0, 0.0, 10.0),
        obstacles: vec![
            square(2.0, 2.0, 2.0),
            square(4.0, 4.0, 2.0),
            pts(&[8.0, 9.0, 10.0, 10.0, 9.0, 8.0]),
        ],
    };
    let (mesh, stats) = mesh_from_polygons_with_stats(&map).unwrap();
    assert_eq!(mesh.area(), 100.0 - 8.0 - 1.5);
    assert_eq!(stats.ambiguous_vertices, 2);
    for corner in [(4.0, 4.0), (10.0, 10.0)] {
        let Location::Vertex(v) = mesh.locate(MeshPoint::new(corner.0, corner.1)) else {
            panic!("{corner:?} is not a vertex");
        };
        assert!(mesh.is_ambiguous(v), "{corner:?}");
    }
}

#[test]
fn polygon_map_with_fractional_coordinates() {
    let map = PolygonMap {
        outer: pts(&[0.0, 0.0, 3.5, 0.25, 3.0, 2.75, 0.5, 3.0]),
        obstacles: vec![pts(&[1.0, 1.0, 1.5, 1.1, 1.2, 1.7])],
    };
    let mesh = mesh_from_polygons(&map).unwrap();
    assert!(!mesh.is_integer());
    assert_eq!(mesh.locate(MeshPoint::new(1.25, 1.25)), Location::OffMesh);
    assert!(mesh.area() > 8.0 && mesh.area() < 9.0);
}

#[test]
fn polygon_map_errors() {
    let outer = square(0.0, 0.0, 10.0);
    let with = |obstacles: Vec<Vec<MeshPoint>>| PolygonMap {
        outer: outer.clone(),
        obstacles,
    };
    let err = |map: &PolygonMap| mesh_from_polygons(map).unwrap_err();
    // A bow tie.
    let bow = PolygonMap {
        outer: pts(&[0.0, 0.0, 10.0, 10.0, 10.0, 0.0, 0.0, 10.0]),
        obstacles: vec![],
    };
    assert!(matches!(
        err(&bow),
        BuildError::SelfIntersecting {
            polygon: PolygonId::Outer,
            ..
        }
    ));
    // A polygon touching itself at a repeated vertex.
    let pinched = with(vec![pts(&[
        2.0, 2.0, 4.0, 2.0, 3.0, 3.0, 4.0, 4.0, 2.0, 4.0, 3.0, 3.0,
    ])]);
    assert!(matches!(
        err(&pinched),
        BuildError::SelfIntersecting {
            polygon: PolygonId::Obstacle(0),
            ..
        }
    ));
    // A spike folding back on itself.
    let spike = with(vec![pts(&[
        2.0, 2.0, 4.0, 2.0, 6.0, 2.0, 5.0, 2.0, 3.0, 4.0,
    ])]);
    assert!(matches!(err(&spike), BuildError::SelfIntersecting { .. }));
    // Crossing obstacles.
    let crossing = with(vec![square(2.0, 2.0, 3.0), square(4.0, 4.0, 3.0)]);
    assert!(matches!(
        err(&crossing),
        BuildError::Crossing {
            a: PolygonId::Obstacle(0),
            b: PolygonId::Obstacle(1),
            ..
        }
    ));
    // Obstacles sharing a whole side.
    let sharing = with(vec![square(2.0, 2.0, 2.0), square(4.0, 2.0, 2.0)]);
    assert!(matches!(err(&sharing), BuildError::Crossing { .. }));
    // A vertex inside another polygon's side.
    let t_touch = with(vec![
        square(2.0, 2.0, 2.0),
        pts(&[4.0, 3.0, 6.0, 2.0, 6.0, 4.0]),
    ]);
    assert!(matches!(err(&t_touch), BuildError::Crossing { .. }));
    // An obstacle crossing the outer boundary, and one wholly outside.
    let through = with(vec![square(8.0, 8.0, 4.0)]);
    assert!(matches!(
        err(&through),
        BuildError::Crossing {
            a: PolygonId::Outer,
            b: PolygonId::Obstacle(0),
            ..
        }
    ));
    let outside = with(vec![square(2.0, 2.0, 1.0), square(20.0, 20.0, 1.0)]);
    assert!(matches!(
        err(&outside),
        BuildError::OutsideOuter { obstacle: 1, .. }
    ));
    // Outside, touching the outer polygon at a vertex.
    let outside_touching = with(vec![square(10.0, 10.0, 1.0)]);
    assert!(matches!(
        err(&outside_touching),
        BuildError::OutsideOuter { obstacle: 0, .. }
    ));
    // Nested obstacles.
    let nested = with(vec![square(1.0, 1.0, 6.0), square(2.0, 2.0, 1.0)]);
    assert!(matches!(
        err(&nested),
        BuildError::ObstaclesOverlap { a: 0, b: 1, .. }
    ));
    // Degenerate and non-finite polygons.
    let two = with(vec![pts(&[1.0, 1.0, 2.0, 2.0])]);
    assert!(matches!(err(&two), BuildError::Degenerate { .. }));
    let repeat = with(vec![pts(&[1.0, 1.0, 2.0, 1.0, 2.0, 1.0, 1.0, 2.0])]);
    assert!(matches!(err(&repeat), BuildError::Degenerate { .. }));
    let flat = with(vec![pts(&[1.0, 1.0, 2.0, 1.0, 3.0, 1.0])]);
    assert!(matches!(err(&flat), BuildError::SelfIntersecting { .. }));
    let nan = with(vec![pts(&[1.0, 1.0, f64::NAN, 1.0, 1.0, 2.0])]);
    assert!(matches!(err(&nan), BuildError::NotFinite { .. }));
    // Errors read as one line naming the polygons.
    let line = err(&crossing).to_string();
    assert!(
        line.starts_with("obstacle 0 and obstacle 1 cross or touch near (")
            && line.ends_with(") (polygons may only share vertices)"),
        "{line}"
    );
}

#[test]
fn polygon_map_text() {
    let text = "# a room\n\npolygons 1\nouter 4  0 0  10 0  10 10  0 10  # the walls\n\
                obstacle 3 2 2 4 2 3 4\r\nobstacle 4 6 6 8 6 8 8 6 8\n";
    let map = parse_polygon_map(text).unwrap();
    assert_eq!(map.outer, square(0.0, 0.0, 10.0));
    assert_eq!(map.obstacles.len(), 2);
    assert_eq!(map.obstacles[0], pts(&[2.0, 2.0, 4.0, 2.0, 3.0, 4.0]));
    let mesh = mesh_from_polygons(&map).unwrap();
    assert_eq!(mesh.area(), 100.0 - 2.0 - 4.0);
}

#[test]
fn polygon_map_parse_errors() {
    use PolygonParseError as K;
    let cases: &[(&str, usize, K)] = &[
        ("", 1, K::Empty),
        ("# nothing\n\n", 2, K::Empty),
        (
            "outer 3 0 0 1 0 0 1\n",
            1,
            K::BadHeader("outer 3 0 0 1 0 0 1".into()),
        ),
        ("polygons\n", 1, K::BadHeader("polygons".into())),
        ("polygons 1 2\n", 1, K::BadHeader("polygons 1 2".into())),
        ("polygons 2\n", 1, K::UnsupportedVersion("2".into())),
        ("polygons 1\n", 1, K::MissingOuter),
        ("polygons 1\nobstacle 3 0 0 1 0 0 1\n", 2, K::MissingOuter),
        (
            "polygons 1\nhole 3 0 0 1 0 0 1\n",
            2,
            K::UnknownRecord("hole".into()),
        ),
        (
            "polygons 1\nouter x 0 0\n",
            2,
            K::BadNumber {
                expected: "a vertex count",
                found: "x".into(),
            },
        ),
        (
            "polygons 1\nouter\n",
            2,
            K::BadNumber {
                expected: "a vertex count",
                found: String::new(),
            },
        ),
        ("polygons 1\nouter 2 0 0 1 1\n", 2, K::TooFewVertices(2)),
        (
            "polygons 1\n\nouter 3 0 0 1 0 0\n",
            3,
            K::WrongCount {
                declared: 3,
                found: 5,
            },
        ),
        (
            "polygons 1\nouter 3 0 0 1 0 0 1 5\n",
            2,
            K::WrongCount {
                declared: 3,
                found: 7,
            },
        ),
        (
            "polygons 1\nouter 3 0 0 1 0 0 nan\n",
            2,
            K::BadNumber {
                expected: "a finite coordinate",
                found: "nan".into(),
            },
        ),
        (
            "polygons 1\nouter 3 0 0 inf 0 0 1\n",
            2,
            K::BadNumber {
                expected: "a finite coordinate",
                found: "inf".into(),
            },
        ),
        (
            "polygons 1\nouter 3 0 0 1 0 0 1\nouter 3 0 0 1 0 0 1\n",
            3,
            K::SecondOuter { first: 2 },
        ),
    ];
    for (text, line, kind) in cases {
        let err = parse_polygon_map(text).unwrap_err();
        assert_eq!(
            err,
            BuildError::Parse {
                line: *line,
                kind: kind.clone()
            },
            "{text:?}"
        );
        assert!(
            err.to_string().starts_with(&format!("line {line}: ")),
            "{err}"
        );
    }
    // A file: errors name it.
    let dir = std::env::temp_dir().join(format!("taut-polygon-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    std::fs::write(&path, "polygons 1\nouter 3 0 0 1 0\n").unwrap();
    let err = taut_mesh::build::read_polygon_map(&path).unwrap_err();
    assert!(err.to_string().contains("bad.txt: line 2: "), "{err}");
    let missing = taut_mesh::build::read_polygon_map(dir.join("missing.txt")).unwrap_err();
    assert!(matches!(missing, BuildError::Io { .. }));
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Shared reference data.

fn load_grid(path: &std::path::Path) -> Grid {
    let map = taut_grid::MapFile::read(path).unwrap();
    Grid::from_map(&map, &taut_grid::FreeSet::from_chars(b".GS"))
}

/// Every map of `grid/maps` builds, and the invariants hold (every cell centre located on the
/// small maps, a sample on the large ones; the boundary, vertex, ambiguity and area checks
/// on all).
#[test]
fn shared_maps_build() {
    use rayon::prelude::*;
    let Some(data) = taut_testdata::shared_data("shared_maps_build") else {
        return;
    };
    let mut maps: Vec<_> = std::fs::read_dir(data.join("grid/maps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "map"))
        .collect();
    maps.sort();
    assert_eq!(maps.len(), 53);
    maps.par_iter().for_each(|path| {
        let grid = load_grid(path);
        let mesh = mesh_from_grid(&grid).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Every cell of the small maps, one in 7 of the large ones.
        let cells = grid.width() as usize * grid.height() as usize;
        check_grid_mesh(&grid, &mesh, if cells <= 65_536 { 1 } else { 7 });
    });
}

/// On the reference maps our vertices are exactly those of the reference Polyanya meshes, and
/// the free triangles as many as the reference triangulation's.
#[test]
fn same_vertices_and_triangles_as_the_reference() {
    let Some(data) = taut_testdata::shared_data("same_vertices_as_the_reference") else {
        return;
    };
    let dir = data.join("mesh/reference");
    for name in ["arena", "aurora"] {
        let grid = load_grid(&dir.join(format!("{name}.map")));
        let (mesh, stats) = mesh_from_grid_with_stats(&grid).unwrap();
        let reference = taut_mesh::read_mesh(&dir.join(format!("{name}.mesh"))).unwrap();
        let merged = taut_mesh::read_mesh(&dir.join(format!("{name}-merged.mesh"))).unwrap();
        let sorted = |m: &Mesh| {
            let mut v: Vec<(i64, i64)> = m
                .points()
                .iter()
                .map(|p| (p.x as i64, p.y as i64))
                .collect();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&mesh), sorted(&reference), "{name}");
        assert_eq!(stats.triangles, reference.polygon_count(), "{name}");
        assert_eq!(mesh.area(), reference.area(), "{name}");
        assert!(mesh.polygon_count() <= merged.polygon_count(), "{name}");
        let ambiguous = |m: &Mesh| {
            (0..m.vertex_count() as u32)
                .filter(|&v| m.is_ambiguous(v))
                .count()
        };
        assert_eq!(ambiguous(&mesh), ambiguous(&reference), "{name}");
    }
}
