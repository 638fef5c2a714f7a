//! The mesh model, its "mesh 2" reader and writer, and point location, tested from outside.
//!
//! - Shared data (skipped with a `SKIPPED` line when absent, a failure under
//!   `TAUT_REQUIRE_DATA=1`): every reference, test and suite mesh loads and round-trips
//!   through `format_mesh` / `parse_mesh`; the reference meshes have the counts their headers
//!   announce; a merged mesh covers exactly the free cells of its grid map (same area as the
//!   unmerged mesh, every free cell centre on the mesh and every blocked one off it).
//! - Bad input: every malformed or invalid file gets its own typed error, with the line of
//!   the offending token for reading errors and the path for files.
//! - Properties on random meshes (triangulated grids with obstacles, grids merged into rows
//!   of rectangles with straight vertices, fans and wheels of triangles), scaled and
//!   translated by integers or floats: they round-trip exactly, and `locate` agrees with a
//!   brute-force classification over all polygons, edges and vertices.
//! - Point location and `endpoint_polygons` on hand-made meshes and `bad-ambig.mesh`:
//!   interior, edges between polygons and on the border, vertices with no gap, one gap
//!   (corners) and several (ambiguous).

use std::path::{Path, PathBuf};
use std::time::Instant;

use proptest::prelude::*;
use smallvec::SmallVec;
use taut_grid::{FreeSet, Grid, MapFile};
use taut_mesh::geom::orient_sign;
use taut_mesh::{
    Ambiguity, Location, Mesh, MeshError, MeshPoint, NO_POLY, ParseErrorKind, format_mesh,
    parse_mesh, read_mesh, write_mesh,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn pt(x: f64, y: f64) -> MeshPoint {
    MeshPoint::new(x, y)
}

/// The `.mesh` files directly in `dir`, sorted.
fn mesh_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mesh"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no .mesh files in {}", dir.display());
    v
}

const SUITES: [&str; 4] = ["dao", "da2", "sc1", "bgmaps"];

/// The 373 merged meshes of the benchmark suites (dao, da2, sc1, bgmaps).
fn suite_meshes(data: &Path) -> Vec<PathBuf> {
    SUITES
        .iter()
        .flat_map(|s| mesh_files(&data.join("suites/merged-mesh").join(s)))
        .collect()
}

/// The polygons around vertex `v`, without gaps, sorted.
fn polys_around(mesh: &Mesh, v: u32) -> Vec<u32> {
    let mut l: Vec<u32> = mesh
        .vertex_polygons(v)
        .iter()
        .filter(|&&q| q != NO_POLY)
        .map(|&q| q as u32)
        .collect();
    l.sort_unstable();
    l
}

fn endpoint(mesh: &Mesh, p: MeshPoint, ambiguity: Ambiguity) -> (bool, Vec<u32>) {
    let mut out = SmallVec::new();
    let ok = mesh.endpoint_polygons(mesh.locate(p), ambiguity, &mut out);
    let mut v = out.to_vec();
    v.sort_unstable();
    (ok, v)
}

// ---------------------------------------------------------------------------------------------
// Shared data
// ---------------------------------------------------------------------------------------------

#[test]
fn every_shared_mesh_loads_and_round_trips() {
    let Some(data) = taut_testdata::shared_data("every shared mesh loads and round-trips") else {
        return;
    };
    let mut files = mesh_files(&data.join("mesh/reference"));
    files.extend(mesh_files(&data.join("mesh/test-meshes")));
    let suites = suite_meshes(&data);
    assert_eq!(suites.len(), 373);
    files.extend(suites);
    assert_eq!(files.len(), 384);
    let errors: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let m = match read_mesh(f) {
                Ok(m) => m,
                Err(e) => return Some(e.to_string()),
            };
            let text = format_mesh(&m);
            match parse_mesh(&text) {
                Ok(back) if back == m && format_mesh(&back) == text => None,
                Ok(_) => Some(format!("{}: differs after a round trip", f.display())),
                Err(e) => Some(format!("{}: reading it back: {e}", f.display())),
            }
        })
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    eprintln!("{} meshes load and round-trip", files.len());
}

/// The figure for the report: reading and validating the 373 suite meshes on one thread.
#[test]
fn loading_the_suite_meshes_is_timed() {
    let Some(data) = taut_testdata::shared_data("suite mesh loading time") else {
        return;
    };
    let files = suite_meshes(&data);
    let mut bytes = 0;
    let (mut vertices, mut polygons) = (0, 0);
    let t = Instant::now();
    for f in &files {
        bytes += std::fs::metadata(f).unwrap().len();
        let m = read_mesh(f).unwrap();
        vertices += m.vertex_count();
        polygons += m.polygon_count();
    }
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "loaded {} suite meshes ({:.1} MB, {vertices} vertices, {polygons} polygons) in {secs:.2} s \
         ({:.0} MB/s, one thread{})",
        files.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / secs,
        if cfg!(debug_assertions) {
            ", debug build"
        } else {
            ""
        }
    );
}

/// The counts of a file's header line(s): `mesh 2 V P`.
fn header_counts(path: &Path) -> (usize, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let t: Vec<&str> = text.split_ascii_whitespace().take(4).collect();
    (t[2].parse().unwrap(), t[3].parse().unwrap())
}

#[test]
fn reference_meshes_have_the_counts_of_their_headers() {
    let Some(data) = taut_testdata::shared_data("reference mesh counts") else {
        return;
    };
    let dir = data.join("mesh/reference");
    let expected = [
        ("arena.mesh", 112, 120),
        ("arena-merged.mesh", 112, 55),
        ("aurora.mesh", 34707, 34816),
        ("aurora-merged.mesh", 34707, 19244),
    ];
    for (name, v, p) in expected {
        let path = dir.join(name);
        assert_eq!(header_counts(&path), (v, p), "{name}");
        let m = read_mesh(&path).unwrap();
        assert_eq!((m.vertex_count(), m.polygon_count()), (v, p), "{name}");
        assert!(m.is_integer(), "{name}");
    }
    for f in mesh_files(&data.join("mesh/test-meshes")) {
        let m = read_mesh(&f).unwrap();
        let counts = (m.vertex_count(), m.polygon_count());
        assert_eq!(counts, header_counts(&f), "{}", f.display());
    }
}

/// Checks that `mesh` covers exactly the free cells of `grid`: the same area, every free
/// cell centre on the mesh and every blocked one off it. (A centre may lie on an edge or a
/// vertex: the meshes cut cells diagonally.) Returns the number of points located and the
/// time it took.
fn check_covers_free_cells(mesh: &Mesh, grid: &Grid, what: &str) -> (u64, f64) {
    let free = grid.free_cells();
    assert_eq!(mesh.area(), free as f64, "{what}: area against free cells");
    let t = Instant::now();
    let mut bad = Vec::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let c = pt(f64::from(x) + 0.5, f64::from(y) + 0.5);
            let loc = mesh.locate(c);
            let ok = if grid.is_free(x, y) {
                loc != Location::OffMesh
            } else {
                loc == Location::OffMesh
            };
            if !ok && bad.len() < 10 {
                bad.push(format!(
                    "cell ({x}, {y}) free={}: {loc:?}",
                    grid.is_free(x, y)
                ));
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    assert!(bad.is_empty(), "{what}: {bad:#?}");
    (u64::from(grid.width() as u32) * grid.height() as u64, secs)
}

#[test]
fn reference_meshes_cover_exactly_the_free_cells_of_their_maps() {
    let Some(data) = taut_testdata::shared_data("reference meshes cover their maps") else {
        return;
    };
    let dir = data.join("mesh/reference");
    for map in ["arena", "aurora"] {
        let grid = Grid::from_map(
            &MapFile::read(dir.join(format!("{map}.map"))).unwrap(),
            &FreeSet::default(),
        );
        let plain = read_mesh(&dir.join(format!("{map}.mesh"))).unwrap();
        let merged = read_mesh(&dir.join(format!("{map}-merged.mesh"))).unwrap();
        assert_eq!(plain.area(), merged.area(), "{map}: same free space");
        for (m, name) in [(&plain, "plain"), (&merged, "merged")] {
            let (n, secs) = check_covers_free_cells(m, &grid, &format!("{map} {name}"));
            eprintln!(
                "{map} {name} ({} polygons): located {n} cell centres in {:.1} ms ({:.0} ns each)",
                m.polygon_count(),
                secs * 1e3,
                secs * 1e9 / n as f64
            );
        }
    }
}

/// Every suite mesh against its map: the area is the free cell count and every cell centre
/// is located on or off the mesh as its cell is free or blocked. On all cores (the sc1
/// meshes are large).
#[test]
fn suite_meshes_cover_exactly_the_free_cells_of_their_maps() {
    use rayon::prelude::*;
    let Some(data) = taut_testdata::shared_data("suite meshes cover their maps") else {
        return;
    };
    let pairs: Vec<(PathBuf, PathBuf)> = SUITES
        .iter()
        .flat_map(|s| {
            let data = &data;
            mesh_files(&data.join("suites/merged-mesh").join(s))
                .into_iter()
                .map(move |m| {
                    let name = m.file_name().unwrap().to_string_lossy().into_owned();
                    let map = name.strip_suffix("-merged.mesh").unwrap().to_owned() + ".map";
                    (m, data.join("suites/grid").join(s).join(map))
                })
        })
        .collect();
    let t = Instant::now();
    let located: u64 = pairs
        .par_iter()
        .map(|(mesh, map)| {
            let grid = Grid::from_map(&MapFile::read(map).unwrap(), &FreeSet::default());
            let m = read_mesh(mesh).unwrap();
            check_covers_free_cells(&m, &grid, &mesh.display().to_string()).0
        })
        .sum();
    eprintln!(
        "{} suite meshes cover their maps: {located} cell centres, {:.1} s in all",
        pairs.len(),
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn the_ambiguous_test_mesh_refuses_or_picks_a_side() {
    let Some(data) = taut_testdata::shared_data("bad-ambig.mesh") else {
        return;
    };
    let m = read_mesh(&data.join("mesh/test-meshes/bad-ambig.mesh")).unwrap();
    // Vertex 5 is (1, 1): the squares [0,1]x[1,2] (polygon 0) and [1,2]x[0,1] (polygon 3)
    // touch there; [0,1]x[0,1] and [1,2]x[1,2] are obstacles.
    assert_eq!(m.point(5), pt(1.0, 1.0));
    assert!(m.is_ambiguous(5) && m.is_corner(5));
    // The file lists vertex 5 as `-1 0 -1 3`; the mesh keeps the list derived from the
    // polygons: two groups of one polygon, each followed by a gap.
    let l = m.vertex_polygons(5);
    assert_eq!(l.len(), 4);
    assert_eq!(l.iter().filter(|&&q| q == NO_POLY).count(), 2);
    assert_eq!(polys_around(&m, 5), [0, 3]);
    let p = pt(1.0, 1.0);
    assert_eq!(m.locate(p), Location::Vertex(5));
    assert_eq!(endpoint(&m, p, Ambiguity::Refuse), (false, vec![]));
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(-1.0, 1.0)),
        (true, vec![0])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, -1.0)),
        (true, vec![3])
    );
    // (1, 1) points into the obstacle [1,2]x[1,2]: no polygon in that direction.
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, 1.0)),
        (false, vec![])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(-1.0, -1.0)),
        (false, vec![])
    );
    // Along an obstacle side: the polygon that has that side.
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(0.0, 1.0)),
        (true, vec![0])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, 0.0)),
        (true, vec![3])
    );
    // The scenario's other points are inside the two squares.
    assert_eq!(m.locate(pt(0.99, 1.01)), Location::Interior(0));
    assert_eq!(m.locate(pt(1.01, 0.99)), Location::Interior(3));
}

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

/// The unit square split along its diagonal (0,0)-(1,1) into two triangles, one record a line:
/// line 3 has the counts, lines 4-7 the vertices, lines 8-9 the polygons.
const SQUARE: &str = "mesh
2
4 2
0 0 3 0 1 -1
1 0 2 0 -1
1 1 3 1 0 -1
0 1 2 1 -1
3 0 1 2 1 -1 -1
3 0 2 3 -1 0 -1
";

/// `SQUARE` with line `n` (1-based) replaced.
fn edit(n: usize, new: &str) -> String {
    edit_text(SQUARE, n, new)
}

fn edit_text(text: &str, n: usize, new: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    assert!(n >= 1 && n <= lines.len());
    lines[n - 1] = new;
    lines.join("\n") + "\n"
}

fn err(text: &str) -> MeshError {
    match parse_mesh(text) {
        Ok(m) => panic!("accepted {text:?} as {m:?}"),
        Err(e) => e,
    }
}

/// The line and kind of a reading error.
fn parse_err(text: &str) -> (usize, ParseErrorKind) {
    match err(text) {
        MeshError::Parse { line, kind } => (line, kind),
        e => panic!("{text:?}: expected a reading error, got {e:?}"),
    }
}

fn bad_number(expected: &'static str, found: &str) -> ParseErrorKind {
    ParseErrorKind::BadNumber {
        expected,
        found: found.to_owned(),
    }
}

#[test]
fn the_base_text_is_valid() {
    let m = parse_mesh(SQUARE).unwrap();
    assert_eq!((m.vertex_count(), m.polygon_count()), (4, 2));
    assert_eq!(m.area(), 1.0);
    // Internal adjacency: edge i runs from vertex i to vertex i + 1.
    assert_eq!(m.poly_vertices(0), [0, 1, 2]);
    assert_eq!(m.poly_adjacent(0), [-1, -1, 1]);
    assert_eq!(m.poly_adjacent(1), [0, -1, -1]);
    assert_eq!(m.poly_twins(0)[2], 0);
    assert_eq!(m.poly_twins(1)[0], 2);
    // Writing it gives the same records (the vertex lists here are already as derived).
    let squashed: Vec<&str> = SQUARE.split_ascii_whitespace().collect();
    let written = format_mesh(&m);
    assert_eq!(
        written.split_ascii_whitespace().collect::<Vec<_>>(),
        squashed
    );
    // Any whitespace separates tokens.
    let one_line = squashed.join(" \t ");
    assert_eq!(parse_mesh(&one_line).unwrap(), m);
    assert_eq!(parse_mesh(&SQUARE.replace('\n', "\r\n")).unwrap(), m);
}

#[test]
fn a_missing_or_wrong_header_is_refused() {
    assert_eq!(parse_err(""), (1, ParseErrorKind::BadHeader(String::new())));
    assert_eq!(
        parse_err("  \n \n"),
        (1, ParseErrorKind::BadHeader(String::new()))
    );
    assert_eq!(
        parse_err("mesh"),
        (1, ParseErrorKind::BadHeader("mesh".into()))
    );
    assert_eq!(
        parse_err(&SQUARE.replacen("mesh", "mush", 1)),
        (1, ParseErrorKind::BadHeader("mush 2".into()))
    );
    assert_eq!(
        parse_err(&edit(2, "3")),
        (1, ParseErrorKind::BadHeader("mesh 3".into()))
    );
    assert_eq!(
        parse_err(&format!("\n\n{}", edit(1, "MESH"))),
        (3, ParseErrorKind::BadHeader("MESH 2".into()))
    );
    assert_eq!(
        parse_err("type octile\nheight 3\n"),
        (1, ParseErrorKind::BadHeader("type octile".into()))
    );
}

#[test]
fn a_truncated_file_names_what_is_missing_and_where() {
    let upto = |n: usize| SQUARE.lines().take(n).collect::<Vec<_>>().join("\n");
    assert_eq!(
        parse_err(&upto(2)),
        (2, ParseErrorKind::Truncated("vertex count"))
    );
    assert_eq!(
        parse_err("mesh 2 4"),
        (1, ParseErrorKind::Truncated("polygon count"))
    );
    // In the vertices: after a whole vertex, and inside one.
    assert_eq!(
        parse_err(&upto(5)),
        (5, ParseErrorKind::Truncated("x coordinate"))
    );
    assert_eq!(
        parse_err(&(upto(5) + "\n1")),
        (6, ParseErrorKind::Truncated("y coordinate"))
    );
    assert_eq!(
        parse_err(&(upto(5) + "\n1 1 3 1")),
        (6, ParseErrorKind::Truncated("polygon index"))
    );
    // In the polygons.
    assert_eq!(
        parse_err(&upto(8)),
        (
            8,
            ParseErrorKind::Truncated("number of vertices of a polygon")
        )
    );
    // The end of a file that ends with a line break is on the line after it.
    assert_eq!(
        parse_err(&(upto(8) + "\n")),
        (
            9,
            ParseErrorKind::Truncated("number of vertices of a polygon")
        )
    );
    assert_eq!(
        parse_err(&(upto(8) + "\n3 0 2")),
        (9, ParseErrorKind::Truncated("vertex index"))
    );
    assert_eq!(
        parse_err(&(upto(8) + "\n3 0 2 3 -1 0")),
        (9, ParseErrorKind::Truncated("polygon index"))
    );
}

#[test]
fn a_token_that_is_not_the_expected_number_is_named_with_its_line() {
    assert_eq!(
        parse_err(&edit(3, "four 2")),
        (3, bad_number("vertex count", "four"))
    );
    assert_eq!(
        parse_err(&edit(3, "4 2.0")),
        (3, bad_number("polygon count", "2.0"))
    );
    assert_eq!(
        parse_err(&edit(5, "1 zero 2 0 -1")),
        (5, bad_number("y coordinate", "zero"))
    );
    assert_eq!(
        parse_err(&edit(5, "1 0 2.5 0 -1")),
        (5, bad_number("number of polygons around a vertex", "2.5"))
    );
    assert_eq!(
        parse_err(&edit(5, "1 0 2 0 one")),
        (5, bad_number("polygon index", "one"))
    );
    assert_eq!(
        parse_err(&edit(9, "3 0 2 x -1 0 -1")),
        (9, bad_number("vertex index", "x"))
    );
    assert_eq!(
        parse_err(&edit(9, "3 0 2 3 -1 0 0x1")),
        (9, bad_number("polygon index", "0x1"))
    );
    assert_eq!(
        parse_err(&edit(9, "three 0 2 3 -1 0 -1")),
        (9, bad_number("number of vertices of a polygon", "three"))
    );
    // A vertex index is not negative; a polygon index fits in 32 bits.
    assert_eq!(
        parse_err(&edit(9, "3 0 -2 3 -1 0 -1")),
        (9, bad_number("vertex index", "-2"))
    );
    assert_eq!(
        parse_err(&edit(9, "3 0 2 3 -1 0 4294967295")),
        (9, bad_number("polygon index", "4294967295"))
    );
    // A long token is cut in the message.
    let long = "9".repeat(100) + "x";
    let (line, kind) = parse_err(&edit(4, &format!("{long} 0 3 0 1 -1")));
    assert_eq!(line, 4);
    assert!(
        matches!(&kind, ParseErrorKind::BadNumber { expected: "x coordinate", found } if found.len() == 40),
        "{kind:?}"
    );
}

#[test]
fn negative_and_huge_counts_are_refused_without_allocating() {
    assert_eq!(
        parse_err(&edit(3, "-4 2")),
        (3, bad_number("vertex count", "-4"))
    );
    assert_eq!(
        parse_err(&edit(3, "4 -2")),
        (3, bad_number("polygon count", "-2"))
    );
    assert_eq!(
        parse_err(&edit(9, "-3 0 2 3 -1 0 -1")),
        (9, bad_number("number of vertices of a polygon", "-3"))
    );
    assert_eq!(
        parse_err(&edit(5, "1 0 -2 0 -1")),
        (5, bad_number("number of polygons around a vertex", "-2"))
    );
    // Counts no text of this length could hold, including past u64, on the line of the
    // count itself (the header's counts are on their own line here).
    let huge = [
        (3, "4000000000 2", "vertex count", "4000000000"),
        (3, "4 4000000000", "polygon count", "4000000000"),
        (
            3,
            "99999999999999999999999 2",
            "vertex count",
            "99999999999999999999999",
        ),
        (
            5,
            "1 0 4000000000 0 -1",
            "number of polygons around a vertex",
            "4000000000",
        ),
        (
            9,
            "4000000000 0 2 3 -1 0 -1",
            "number of vertices of a polygon",
            "4000000000",
        ),
    ];
    for (line, text, expected, found) in huge {
        let text = edit(line, text);
        let mut result = None;
        let info = allocation_counter::measure(|| result = Some(parse_mesh(&text)));
        let e = result.unwrap().unwrap_err();
        assert_eq!(
            e,
            MeshError::Parse {
                line,
                kind: bad_number(expected, found)
            },
            "{text:?}"
        );
        assert!(info.bytes_max < 1 << 16, "{text:?}: {info:?}");
    }
    // A wrong count the text could hold is read as far as it goes: with 5 vertices, the
    // first four tokens of line 8 make a fifth vertex (3, 0) in polygon 2, and the rest
    // starts a polygon of one vertex, -1.
    assert_eq!(
        parse_err(&edit(3, "5 2")),
        (8, bad_number("vertex index", "-1"))
    );
    // Too few: the vertices' tokens are read as polygons.
    assert!(parse_mesh(&edit(3, "3 2")).is_err());
}

#[test]
fn text_after_the_last_polygon_is_refused() {
    assert_eq!(
        parse_err(&format!("{SQUARE}\n0\n")),
        (11, ParseErrorKind::TrailingData("0".into()))
    );
    assert_eq!(
        parse_err(&format!("{SQUARE}mesh 2")),
        (10, ParseErrorKind::TrailingData("mesh".into()))
    );
    // Trailing whitespace is fine.
    assert!(parse_mesh(&format!("{SQUARE}\n \t\n\n")).is_ok());
}

#[test]
fn indices_out_of_range_are_dangling() {
    let dangling =
        |owner: &str, what: &'static str, index: i64, count: usize| MeshError::Dangling {
            owner: owner.into(),
            what,
            index,
            count,
        };
    assert_eq!(
        err(&edit(9, "3 0 2 4 -1 0 -1")),
        dangling("polygon 1", "vertex", 4, 4)
    );
    assert_eq!(
        err(&edit(9, "3 0 2 3 -1 2 -1")),
        dangling("polygon 1", "polygon", 2, 2)
    );
    assert_eq!(
        err(&edit(8, "3 0 1 2 1 -2 -1")),
        dangling("polygon 0", "polygon", -2, 2)
    );
    assert_eq!(
        err(&edit(7, "0 1 2 7 -1")),
        dangling("vertex 3", "polygon", 7, 2)
    );
    assert_eq!(
        err(&edit(7, "0 1 2 1 -5")),
        dangling("vertex 3", "polygon", -5, 2)
    );
}

#[test]
fn coordinates_must_be_finite() {
    // Also beyond 1e150 in magnitude, where the orientation tests would overflow.
    for bad in [
        "nan", "NaN", "inf", "-inf", "infinity", "1e400", "1e200", "-2e150",
    ] {
        assert_eq!(
            err(&edit(6, &format!("1 {bad} 3 1 0 -1"))),
            MeshError::NotFinite { vertex: 2 },
            "{bad}"
        );
    }
    // Other float spellings Rust reads are fine.
    let m = parse_mesh(&edit(6, "1.0e0 +1 3 1 0 -1")).unwrap();
    assert_eq!(m.point(2), pt(1.0, 1.0));
    let big = edit(5, "1e150 0 2 0 -1");
    let big = edit_text(&big, 6, "1e150 1e150 3 1 0 -1");
    let big = edit_text(&big, 7, "0 1e150 2 1 -1");
    let m = parse_mesh(&big).unwrap();
    assert_eq!(m.point(2), pt(1e150, 1e150));
}

#[test]
fn degenerate_polygons_are_refused() {
    let degenerate = |polygon, reason| MeshError::Degenerate { polygon, reason };
    // Two vertices: the file is consistent otherwise (a 2-gon 0-1 next to nothing).
    let two = "mesh 2 2 1  0 0 1 0  1 0 1 0  2 0 1 -1 -1";
    assert_eq!(err(two), degenerate(0, "fewer than three vertices"));
    assert_eq!(
        err(&edit(9, "0")),
        degenerate(1, "fewer than three vertices")
    );
    assert_eq!(
        err(&edit(9, "4 0 2 3 0 -1 0 -1 -1")),
        degenerate(1, "a vertex appears twice")
    );
    assert_eq!(
        err(&edit(9, "4 0 2 3 2 -1 0 -1 -1")),
        degenerate(1, "a vertex appears twice")
    );
    // Vertex 3 moved onto vertex 0: polygon 1 has an edge of length zero.
    assert_eq!(
        err(&edit(7, "0 0 2 1 -1")),
        degenerate(1, "two of its vertices are at the same point")
    );
}

#[test]
fn polygons_must_be_convex_and_counter_clockwise() {
    // Polygon 1 listed clockwise (0 3 2, neighbours shifted to match).
    assert!(matches!(
        err(&edit(9, "3 0 3 2 0 -1 -1")),
        MeshError::NotConvex { polygon: 1, .. }
    ));
    // Three collinear vertices: no area.
    let flat = "mesh 2 3 1  0 0 1 0  1 0 1 0  2 0 1 0  3 0 1 2 -1 -1 -1";
    assert!(matches!(err(flat), MeshError::NotConvex { polygon: 0, .. }));
    // A dart: counter-clockwise, positive area, reflex at vertex 1.
    let dart = "mesh 2 4 1  0 0 1 0  2 1 1 0  4 0 1 0  2 4 1 0  4 0 1 2 3 -1 -1 -1 -1";
    assert_eq!(
        err(dart),
        MeshError::NotConvex {
            polygon: 0,
            vertex: 1
        }
    );
    // A pentagram: every turn is to the left (locally convex), but it winds twice.
    let star = [(0, 10), (-10, 3), (-6, -8), (6, -8), (10, 3)];
    let mut text = String::from("mesh 2 5 1\n");
    for (x, y) in star {
        text += &format!("{x} {y} 2 0 -1\n");
    }
    text += "5 0 2 4 1 3 -1 -1 -1 -1 -1\n";
    assert!(matches!(
        err(&text),
        MeshError::NotConvex { polygon: 0, .. }
    ));
    // The same five points in pentagon order are fine.
    let pentagon = text.replace("5 0 2 4 1 3", "5 0 1 2 3 4");
    assert_eq!(parse_mesh(&pentagon).unwrap().polygon_count(), 1);
    // Mesh::new checks the same.
    let points: Vec<MeshPoint> = star
        .iter()
        .map(|&(x, y)| pt(f64::from(x), f64::from(y)))
        .collect();
    assert!(matches!(
        Mesh::new(points.clone(), &[vec![0, 2, 4, 1, 3]]),
        Err(MeshError::NotConvex { .. })
    ));
    assert!(matches!(
        Mesh::new(points, &[vec![4, 3, 2, 1, 0]]),
        Err(MeshError::NotConvex { .. })
    ));
}

/// Three triangles: the unit square split along (0,0)-(1,1) as in `SQUARE` (polygons 0 and
/// 1), and polygon 2 = (1,0) (2,0) (1,1) right of it, across the edge 1-2.
const THREE: &str = "mesh
2
5 3
0 0 3 0 1 -1
1 0 3 2 0 -1
1 1 4 1 0 2 -1
0 1 2 1 -1
2 0 2 2 -1
3 0 1 2 1 -1 2
3 0 2 3 -1 0 -1
3 1 4 2 0 -1 -1
";

#[test]
fn adjacency_must_be_symmetric() {
    let m = parse_mesh(THREE).unwrap();
    assert_eq!(m.poly_adjacent(0), [-1, 2, 1]);
    let adjacency = |text: &str| match err(text) {
        MeshError::Adjacency { polygon, reason } => (polygon, reason),
        e => panic!("{text}: {e:?}"),
    };
    // Polygon 0 says 1 across the diagonal; polygon 1 says -1.
    let (p, reason) = adjacency(&edit_text(THREE, 10, "3 0 2 3 -1 -1 -1"));
    assert_eq!(p, 1, "{reason}");
    // Polygon 1 says 2 across the diagonal, which polygon 0 has.
    let (p, reason) = adjacency(&edit_text(THREE, 10, "3 0 2 3 -1 2 -1"));
    assert_eq!(p, 1, "{reason}");
    // Polygon 0 says -1 across the edge 1-2, which polygon 2 shares.
    let (p, reason) = adjacency(&edit_text(THREE, 9, "3 0 1 2 1 -1 -1"));
    assert_eq!(p, 0, "{reason}");
    // Polygon 0 names 2 across its bottom edge, which 2 does not have.
    let (p, reason) = adjacency(&edit_text(THREE, 9, "3 0 1 2 1 2 2"));
    assert_eq!(p, 0, "{reason}");
    assert!(reason.contains("does not have that edge"), "{reason}");
    // A polygon is not its own neighbour.
    let (p, reason) = adjacency(&edit_text(THREE, 11, "3 1 4 2 0 -1 2"));
    assert_eq!(p, 2, "{reason}");
}

#[test]
fn an_edge_claimed_twice_in_the_same_direction_is_refused() {
    // Two triangles on the same side of the edge 0 -> 1 (they overlap).
    let points = vec![pt(0.0, 0.0), pt(2.0, 0.0), pt(1.0, 1.0), pt(1.0, 2.0)];
    let e = Mesh::new(points, &[vec![0, 1, 2], vec![0, 1, 3]]).unwrap_err();
    assert!(
        matches!(&e, MeshError::Adjacency { polygon: 1, reason } if reason.contains("two polygons")),
        "{e:?}"
    );
    let text = "mesh 2 4 2
        0 0 2 0 1   2 0 2 0 1   1 1 1 0   1 2 1 1
        3 0 1 2 -1 -1 -1   3 0 1 3 -1 -1 -1";
    assert!(matches!(
        err(text),
        MeshError::Adjacency { polygon: 1, reason } if reason.contains("two polygons")
    ));
}

#[test]
fn vertex_lists_must_name_the_polygons_and_gaps_around_them() {
    let wrong = |line, new: &str, vertex| match err(&edit(line, new)) {
        MeshError::VertexPolygons { vertex: v, .. } => assert_eq!(v, vertex, "{new}"),
        e => panic!("{new}: {e:?}"),
    };
    // Vertex 0 is in polygons 0 and 1, with one gap.
    wrong(4, "0 0 2 0 -1", 0); // a polygon missing
    wrong(4, "0 0 3 0 0 -1", 0); // a polygon twice
    wrong(5, "1 0 2 1 -1", 1); // the wrong polygon
    wrong(4, "0 0 2 0 1", 0); // no gap
    wrong(4, "0 0 4 0 -1 1 -1", 0); // two gaps
    wrong(4, "0 0 0", 0); // nothing
    // Order and rotation are not compared (files list some vertices clockwise), nor how a
    // gap is spelled (one -1 or several in a row).
    for ok in ["0 0 3 1 0 -1", "0 0 3 -1 0 1", "0 0 4 0 1 -1 -1"] {
        let m = parse_mesh(&edit(4, ok)).unwrap();
        assert_eq!(m, parse_mesh(SQUARE).unwrap(), "{ok}");
        assert_eq!(m.vertex_polygons(0), [0, 1, -1]);
    }
    // A vertex no polygon uses has an empty list.
    let extra = SQUARE
        .replacen("4 2", "5 2", 1)
        .replacen("0 1 2 1 -1", "0 1 2 1 -1\n5 5 0", 1);
    let m = parse_mesh(&extra).unwrap();
    assert!(m.vertex_polygons(4).is_empty());
    assert_eq!(
        parse_mesh(&format_mesh(&m)).unwrap(),
        m,
        "an unused vertex round-trips"
    );
    assert!(matches!(
        err(&extra.replace("5 5 0", "5 5 1 -1")),
        MeshError::VertexPolygons { vertex: 4, .. }
    ));
}

#[test]
fn a_mesh_without_polygons_is_refused() {
    assert!(matches!(err("mesh 2 0 0"), MeshError::Size(_)));
    assert!(matches!(
        err("mesh 2 3 0  0 0 0  1 0 0  0 1 0"),
        MeshError::Size(_)
    ));
    assert!(matches!(
        Mesh::new(vec![pt(0.0, 0.0)], &[]),
        Err(MeshError::Size(_))
    ));
}

#[test]
fn files_name_their_path_and_the_line() {
    let dir = std::env::temp_dir().join(format!("taut-mesh-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.mesh");
    match read_mesh(&missing) {
        Err(MeshError::Io { path, message }) => {
            assert_eq!(path, missing);
            assert!(!message.is_empty());
        }
        r => panic!("{r:?}"),
    }
    let shown = read_mesh(&missing).unwrap_err().to_string();
    assert!(shown.contains("missing.mesh"), "{shown}");

    let bad = dir.join("bad.mesh");
    std::fs::write(&bad, edit(6, "1 one 3 1 0 -1")).unwrap();
    let e = read_mesh(&bad).unwrap_err();
    match &e {
        MeshError::InFile { path, source } => {
            assert_eq!(path, &bad);
            assert_eq!(
                **source,
                MeshError::Parse {
                    line: 6,
                    kind: bad_number("y coordinate", "one")
                }
            );
        }
        e => panic!("{e:?}"),
    }
    let shown = e.to_string();
    assert!(
        shown.contains("bad.mesh") && shown.contains("line 6") && shown.contains("\"one\""),
        "{shown}"
    );
    // A validation error in a file names the file too.
    std::fs::write(&bad, edit(9, "3 0 3 2 0 -1 -1")).unwrap();
    assert!(matches!(
        read_mesh(&bad),
        Err(MeshError::InFile { source, .. }) if matches!(*source, MeshError::NotConvex { .. })
    ));
    // Written and read back.
    let good = dir.join("good.mesh");
    let m = parse_mesh(THREE).unwrap();
    write_mesh(&m, &good).unwrap();
    assert_eq!(read_mesh(&good).unwrap(), m);
    let e = write_mesh(&m, &dir.join("no/such/dir.mesh")).unwrap_err();
    assert!(matches!(e, MeshError::Io { .. }), "{e:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Point location against brute force
// ---------------------------------------------------------------------------------------------

/// Whether `p`, known to be on the line through `a` and `b`, lies on the closed segment.
fn within(a: MeshPoint, b: MeshPoint, p: MeshPoint) -> bool {
    a.x.min(b.x) <= p.x && p.x <= a.x.max(b.x) && a.y.min(b.y) <= p.y && p.y <= a.y.max(b.y)
}

/// Where `p` is, by testing every polygon: a vertex (of some polygon) it equals, or the
/// polygons whose closed area holds it, each with the edge it lies on (None: strictly
/// inside).
#[derive(Debug, PartialEq)]
enum Brute {
    Vertex(u32),
    In(Vec<(u32, Option<usize>)>),
}

fn brute(mesh: &Mesh, p: MeshPoint) -> Brute {
    for q in 0..mesh.polygon_count() as u32 {
        if let Some(&v) = mesh.poly_vertices(q).iter().find(|&&v| mesh.point(v) == p) {
            return Brute::Vertex(v);
        }
    }
    let mut inside = Vec::new();
    'polys: for q in 0..mesh.polygon_count() as u32 {
        let vs = mesh.poly_vertices(q);
        let n = vs.len();
        let mut on = Vec::new();
        for i in 0..n {
            let (a, b) = (mesh.point(vs[i]), mesh.point(vs[(i + 1) % n]));
            match orient_sign(a, b, p) {
                -1 => continue 'polys,
                0 if within(a, b, p) => on.push(i),
                _ => {}
            }
        }
        assert!(on.len() <= 1, "{p:?} on edges {on:?} of polygon {q}");
        inside.push((q, on.first().copied()));
    }
    Brute::In(inside)
}

/// Checks `locate(p)` and `endpoint_polygons` against [`brute`]; returns the location.
fn check_location(mesh: &Mesh, p: MeshPoint) -> Location {
    let loc = mesh.locate(p);
    let expected = brute(mesh, p);
    let mut out = SmallVec::new();
    let ok = mesh.endpoint_polygons(loc, Ambiguity::Refuse, &mut out);
    let mut got: Vec<u32> = out.to_vec();
    got.sort_unstable();
    match (loc, &expected) {
        (Location::Vertex(v), Brute::Vertex(w)) => {
            assert_eq!(v, *w, "{p:?}");
            if mesh.is_ambiguous(v) {
                assert!(!ok && got.is_empty(), "{p:?}: refused");
            } else {
                assert!(ok, "{p:?}");
                assert_eq!(got, polys_around(mesh, v), "{p:?}");
            }
            check_towards(mesh, v);
        }
        (Location::Interior(q), Brute::In(inside)) => {
            assert_eq!(inside, &[(q, None)], "{p:?}: {loc:?}");
            assert!(ok && got == [q], "{p:?}");
        }
        (Location::Edge { poly, edge, across }, Brute::In(inside)) => {
            let edge = usize::from(edge);
            assert!(
                inside.contains(&(poly, Some(edge))),
                "{p:?}: {loc:?}, {inside:?}"
            );
            let adj = mesh.poly_adjacent(poly)[edge];
            assert_eq!(
                across,
                (adj != NO_POLY).then_some(adj as u32),
                "{p:?}: {loc:?}"
            );
            let mut expected: Vec<u32> = inside.iter().map(|e| e.0).collect();
            expected.sort_unstable();
            let mut both: Vec<u32> = [poly].into_iter().chain(across).collect();
            both.sort_unstable();
            assert_eq!(expected, both, "{p:?}: {loc:?}, {inside:?}");
            assert!(inside.iter().all(|e| e.1.is_some()), "{p:?}: {inside:?}");
            assert!(ok && got == both, "{p:?}");
        }
        (Location::OffMesh, Brute::In(inside)) => {
            assert!(inside.is_empty(), "{p:?}: {inside:?}");
            assert!(!ok && got.is_empty());
        }
        _ => panic!("{p:?}: located {loc:?}, brute force says {expected:?}"),
    }
    loc
}

/// On vertex `v`, `Ambiguity::Towards(d)` gives the whole group of polygons (a run between
/// gaps of the vertex's list) whose corner at `v` contains the direction `d`, or nothing
/// when `d` points into an obstacle; on a vertex that is not ambiguous, every polygon.
fn check_towards(mesh: &Mesh, v: u32) {
    let c = mesh.point(v);
    let list = mesh.vertex_polygons(v);
    // Directions: along and between the edges leaving v, and the diagonals.
    let mut dirs: Vec<(f64, f64)> = vec![(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
    for &q in list.iter().filter(|&&q| q != NO_POLY) {
        let vs = mesh.poly_vertices(q as u32);
        let i = vs.iter().position(|&w| w == v).unwrap();
        let next = mesh.point(vs[(i + 1) % vs.len()]);
        let prev = mesh.point(vs[(i + vs.len() - 1) % vs.len()]);
        dirs.push((next.x - c.x, next.y - c.y));
        dirs.push(((next.x + prev.x) / 2.0 - c.x, (next.y + prev.y) / 2.0 - c.y));
    }
    for (dx, dy) in dirs {
        let mut out = SmallVec::new();
        let ok = mesh.endpoint_polygons(Location::Vertex(v), Ambiguity::Towards(dx, dy), &mut out);
        let mut got: Vec<u32> = out.to_vec();
        got.sort_unstable();
        if !mesh.is_ambiguous(v) {
            assert!(ok && got == polys_around(mesh, v), "vertex {v}");
            continue;
        }
        let d = pt(c.x + dx, c.y + dy);
        let holds = |q: u32| {
            let vs = mesh.poly_vertices(q);
            let i = vs.iter().position(|&w| w == v).unwrap();
            let next = mesh.point(vs[(i + 1) % vs.len()]);
            let prev = mesh.point(vs[(i + vs.len() - 1) % vs.len()]);
            orient_sign(prev, c, d) >= 0 && orient_sign(c, next, d) >= 0
        };
        // The runs of the list between gaps.
        let n = list.len();
        let start = list.iter().position(|&q| q == NO_POLY).unwrap();
        let mut groups: Vec<Vec<u32>> = Vec::new();
        for k in 1..=n {
            match list[(start + k) % n] {
                NO_POLY => {}
                q if list[(start + k - 1) % n] == NO_POLY => groups.push(vec![q as u32]),
                q => groups.last_mut().unwrap().push(q as u32),
            }
        }
        let matching: Vec<Vec<u32>> = groups
            .into_iter()
            .filter(|g| g.iter().any(|&q| holds(q)))
            .map(|mut g| {
                g.sort_unstable();
                g
            })
            .collect();
        match matching.as_slice() {
            [] => assert!(!ok && got.is_empty(), "vertex {v} towards ({dx}, {dy})"),
            [g] => assert!(ok && got == *g, "vertex {v} towards ({dx}, {dy}): {got:?}"),
            // A direction along an obstacle side between two groups: either.
            gs => assert!(ok && gs.contains(&got), "vertex {v} towards ({dx}, {dy})"),
        }
    }
}

/// The points to locate on a mesh: every vertex, points on every edge, a point inside every
/// polygon, and `extra` points given as fractions of the bounding box (so some are outside).
fn probe_points(mesh: &Mesh, extra: &[(f64, f64)]) -> Vec<MeshPoint> {
    let mut ps: Vec<MeshPoint> = mesh.points().to_vec();
    for q in 0..mesh.polygon_count() as u32 {
        let vs = mesh.poly_vertices(q);
        let n = vs.len();
        let (mut sx, mut sy) = (0.0, 0.0);
        for i in 0..n {
            let (a, b) = (mesh.point(vs[i]), mesh.point(vs[(i + 1) % n]));
            for t in [0.5, 0.25] {
                ps.push(pt(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t));
            }
            sx += a.x;
            sy += a.y;
        }
        ps.push(pt(sx / n as f64, sy / n as f64));
    }
    let (lo, hi) = mesh.bounds();
    for &(u, v) in extra {
        ps.push(pt(lo.x + (hi.x - lo.x) * u, lo.y + (hi.y - lo.y) * v));
    }
    ps
}

/// Lattice point (x, y) mapped into the plane: `o + s * (x, y)`, with positive scales (so
/// counter-clockwise stays counter-clockwise).
#[derive(Debug, Clone, Copy)]
struct Affine {
    ox: f64,
    oy: f64,
    sx: f64,
    sy: f64,
}

impl Affine {
    fn at(&self, x: i32, y: i32) -> MeshPoint {
        pt(
            self.ox + self.sx * f64::from(x),
            self.oy + self.sy * f64::from(y),
        )
    }
}

fn affine() -> impl Strategy<Value = Affine> {
    prop_oneof![
        Just(Affine {
            ox: 0.0,
            oy: 0.0,
            sx: 1.0,
            sy: 1.0
        }),
        (-1000..1000i32, -1000..1000i32, 1..20i32, 1..20i32).prop_map(|(ox, oy, sx, sy)| {
            Affine {
                ox: f64::from(ox),
                oy: f64::from(oy),
                sx: f64::from(sx),
                sy: f64::from(sy),
            }
        }),
        (-1e3..1e3f64, -1e3..1e3f64, 0.01..100.0f64, 0.01..100.0f64)
            .prop_map(|(ox, oy, sx, sy)| Affine { ox, oy, sx, sy }),
    ]
}

/// A `w` x `h` grid (cells listed row by row) mapped by `f`: cell kind 0 is an obstacle, 1
/// and 2 split the square along one diagonal or the other, 3 keeps it whole.
fn grid_mesh(w: i32, h: i32, kinds: &[u8], f: Affine) -> (Vec<MeshPoint>, Vec<Vec<u32>>) {
    let id = |x: i32, y: i32| (y * (w + 1) + x) as u32;
    let points = (0..=h)
        .flat_map(|y| (0..=w).map(move |x| (x, y)))
        .map(|(x, y)| f.at(x, y))
        .collect();
    let mut polys = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let (a, b, c, d) = (id(x, y), id(x + 1, y), id(x + 1, y + 1), id(x, y + 1));
            match kinds[(y * w + x) as usize] {
                0 => {}
                1 => polys.extend([vec![a, b, c], vec![a, c, d]]),
                2 => polys.extend([vec![a, b, d], vec![b, c, d]]),
                _ => polys.push(vec![a, b, c, d]),
            }
        }
    }
    (points, polys)
}

/// Rows of free cells merged into rectangles (a new one starts where `cut` says), each
/// listing every lattice point of its long sides: polygons with straight vertices, and
/// T-junctions between rows.
fn rows_mesh(
    w: i32,
    h: i32,
    free: &[bool],
    cut: &[bool],
    f: Affine,
) -> (Vec<MeshPoint>, Vec<Vec<u32>>) {
    let id = |x: i32, y: i32| (y * (w + 1) + x) as u32;
    let points = (0..=h)
        .flat_map(|y| (0..=w).map(move |x| (x, y)))
        .map(|(x, y)| f.at(x, y))
        .collect();
    let mut polys = Vec::new();
    for y in 0..h {
        let mut x = 0;
        while x < w {
            if !free[(y * w + x) as usize] {
                x += 1;
                continue;
            }
            let x0 = x;
            x += 1;
            while x < w && free[(y * w + x) as usize] && !cut[(y * w + x) as usize] {
                x += 1;
            }
            let mut p: Vec<u32> = (x0..=x).map(|i| id(i, y)).collect();
            p.extend((x0..=x).rev().map(|i| id(i, y + 1)));
            polys.push(p);
        }
    }
    (points, polys)
}

/// Triangles on `k` points of a circle (angles in whole degrees, increasing): a fan from the
/// first point (a triangulated convex polygon), or a wheel around the centre (vertex 0) with
/// the triangles `keep` says (an angle of 180 degrees or more is never a triangle).
fn circle_mesh(
    degrees: &[u16],
    centre: (f64, f64),
    r: f64,
    wheel: bool,
    keep: &[bool],
) -> (Vec<MeshPoint>, Vec<Vec<u32>>) {
    let mut points = vec![pt(centre.0, centre.1)];
    for &d in degrees {
        let t = f64::from(d).to_radians();
        points.push(pt(centre.0 + r * t.cos(), centre.1 + r * t.sin()));
    }
    let k = degrees.len() as u32;
    let mut polys = Vec::new();
    if wheel {
        for i in 0..k {
            let j = (i + 1) % k;
            let gap = (i32::from(degrees[j as usize]) - i32::from(degrees[i as usize]) + 360) % 360;
            if (1..180).contains(&gap) && keep[i as usize] {
                polys.push(vec![0, i + 1, j + 1]);
            }
        }
    } else {
        for i in 2..k {
            polys.push(vec![1, i, i + 1]);
        }
    }
    (points, polys)
}

/// A random mesh: its points and counter-clockwise polygons (at least one).
fn random_mesh() -> impl Strategy<Value = (Vec<MeshPoint>, Vec<Vec<u32>>)> {
    let grid = (1..=6i32, 1..=6i32, affine()).prop_flat_map(|(w, h, f)| {
        proptest::collection::vec(
            prop_oneof![1 => Just(0u8), 2 => Just(1), 2 => Just(2), 1 => Just(3)],
            (w * h) as usize,
        )
        .prop_map(move |mut kinds| {
            if kinds.iter().all(|&k| k == 0) {
                kinds[0] = 1;
            }
            grid_mesh(w, h, &kinds, f)
        })
    });
    let rows = (1..=6i32, 1..=5i32, affine()).prop_flat_map(|(w, h, f)| {
        let n = (w * h) as usize;
        (
            proptest::collection::vec(proptest::bool::weighted(0.8), n),
            proptest::collection::vec(proptest::bool::weighted(0.3), n),
        )
            .prop_map(move |(mut free, cut)| {
                free[0] = true;
                rows_mesh(w, h, &free, &cut, f)
            })
    });
    let circle = (
        proptest::collection::btree_set(0..360u16, 3..=12),
        (-1e3..1e3f64, -1e3..1e3f64),
        1.0..1e3f64,
        any::<bool>(),
        proptest::collection::vec(proptest::bool::weighted(0.7), 12),
    )
        .prop_map(|(degrees, centre, r, wheel, mut keep)| {
            let degrees: Vec<u16> = degrees.into_iter().collect();
            let (mut points, mut polys) = circle_mesh(&degrees, centre, r, wheel, &keep);
            if polys.is_empty() {
                // Only angles of 180 degrees or more, or nothing kept: use a fan.
                keep.fill(true);
                (points, polys) = circle_mesh(&degrees, centre, r, false, &keep);
            }
            (points, polys)
        });
    prop_oneof![grid, rows, circle]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_meshes_round_trip_exactly((points, polys) in random_mesh()) {
        let m = Mesh::new(points, &polys).unwrap();
        let text = format_mesh(&m);
        let back = parse_mesh(&text).unwrap();
        prop_assert_eq!(&back, &m);
        prop_assert_eq!(format_mesh(&back), text.clone());
        // The same file with every vertex list written clockwise (as some reference files
        // have them) reads as the same mesh.
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        for line in &mut lines[3..3 + m.vertex_count()] {
            let t: Vec<&str> = line.split(' ').collect();
            let mut l: Vec<&str> = t[3..].to_vec();
            l.reverse();
            *line = [&t[..3], &l[..]].concat().join(" ");
        }
        prop_assert_eq!(parse_mesh(&lines.join("\n")).unwrap(), m);
    }

    #[test]
    fn locate_agrees_with_brute_force(
        (points, polys) in random_mesh(),
        extra in proptest::collection::vec((-0.1..1.1f64, -0.1..1.1f64), 20),
    ) {
        let m = Mesh::new(points, &polys).unwrap();
        for p in probe_points(&m, &extra) {
            check_location(&m, p);
        }
        // Vertices (of polygons) are found as vertices, edge midpoints of integer meshes as
        // edges.
        for q in 0..m.polygon_count() as u32 {
            let vs = m.poly_vertices(q);
            for (i, &v) in vs.iter().enumerate() {
                prop_assert_eq!(m.locate(m.point(v)), Location::Vertex(v));
                let (a, b) = (m.point(v), m.point(vs[(i + 1) % vs.len()]));
                let mid = pt((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
                if m.is_integer() {
                    let loc = m.locate(mid);
                    prop_assert!(matches!(loc, Location::Edge { .. }), "{:?}: {:?}", mid, loc);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Point location and endpoint polygons on hand-made meshes
// ---------------------------------------------------------------------------------------------

#[test]
fn points_inside_on_edges_and_off_the_square() {
    let m = parse_mesh(SQUARE).unwrap();
    let at = |x, y| check_location(&m, pt(x, y));
    assert_eq!(at(0.75, 0.25), Location::Interior(0));
    assert_eq!(at(0.25, 0.75), Location::Interior(1));
    // On the diagonal, shared by both triangles.
    match at(0.5, 0.5) {
        Location::Edge {
            poly: 0,
            edge: 2,
            across: Some(1),
        }
        | Location::Edge {
            poly: 1,
            edge: 0,
            across: Some(0),
        } => {}
        loc => panic!("{loc:?}"),
    }
    // On the border: one polygon, nothing across.
    assert_eq!(
        at(0.5, 0.0),
        Location::Edge {
            poly: 0,
            edge: 0,
            across: None
        }
    );
    assert_eq!(
        at(0.0, 0.3),
        Location::Edge {
            poly: 1,
            edge: 2,
            across: None
        }
    );
    // Vertices: (0,0) and (1,1) are in both triangles, (1,0) and (0,1) in one. Each is a
    // corner (the outside is a gap) but none is ambiguous.
    assert_eq!(at(0.0, 0.0), Location::Vertex(0));
    assert_eq!(at(1.0, 0.0), Location::Vertex(1));
    assert!(m.is_corner(0) && !m.is_ambiguous(0));
    assert_eq!(
        endpoint(&m, pt(0.0, 0.0), Ambiguity::Refuse),
        (true, vec![0, 1])
    );
    assert_eq!(
        endpoint(&m, pt(1.0, 1.0), Ambiguity::Refuse),
        (true, vec![0, 1])
    );
    assert_eq!(
        endpoint(&m, pt(1.0, 0.0), Ambiguity::Refuse),
        (true, vec![0])
    );
    assert_eq!(
        endpoint(&m, pt(0.0, 1.0), Ambiguity::Towards(1.0, 1.0)),
        (true, vec![1])
    );
    // Off the mesh, including points that are not finite.
    for (x, y) in [
        (2.0, 0.5),
        (-1e-300, 0.5),
        (0.5, 1.0 + 1e-15),
        (f64::NAN, 0.5),
        (0.5, f64::INFINITY),
        (f64::NEG_INFINITY, f64::NEG_INFINITY),
    ] {
        assert_eq!(m.locate(pt(x, y)), Location::OffMesh, "({x}, {y})");
        assert_eq!(endpoint(&m, pt(x, y), Ambiguity::Refuse), (false, vec![]));
    }
    // Very close to the diagonal on either side: exact predicates decide.
    let e = 2f64.powi(-52);
    assert_eq!(at(0.5 + e, 0.5), Location::Interior(0));
    assert_eq!(at(0.5, 0.5 + e), Location::Interior(1));
}

#[test]
fn a_vertex_inside_the_mesh_belongs_to_every_polygon_around_it() {
    // The square [0,2]^2 as four triangles around its centre (vertex 4).
    let points = vec![
        pt(0.0, 0.0),
        pt(2.0, 0.0),
        pt(2.0, 2.0),
        pt(0.0, 2.0),
        pt(1.0, 1.0),
    ];
    let m = Mesh::new(
        points,
        &[vec![0, 1, 4], vec![1, 2, 4], vec![2, 3, 4], vec![3, 0, 4]],
    )
    .unwrap();
    assert!(!m.is_corner(4) && !m.is_ambiguous(4));
    assert_eq!(m.vertex_polygons(4).len(), 4);
    assert!(!m.vertex_polygons(4).contains(&NO_POLY));
    assert_eq!(check_location(&m, pt(1.0, 1.0)), Location::Vertex(4));
    for a in [Ambiguity::Refuse, Ambiguity::Towards(1.0, 1.0)] {
        assert_eq!(endpoint(&m, pt(1.0, 1.0), a), (true, vec![0, 1, 2, 3]));
    }
    // The list is counter-clockwise: 0 (below), 1 (right), 2 (above), 3 (left), rotated.
    let l = m.vertex_polygons(4);
    let i = l.iter().position(|&q| q == 0).unwrap();
    let rotated: Vec<i32> = (0..4).map(|k| l[(i + k) % 4]).collect();
    assert_eq!(rotated, [0, 1, 2, 3]);
    for p in probe_points(&m, &[(0.3, 0.9), (0.5, 0.25)]) {
        check_location(&m, p);
    }
}

#[test]
fn an_ambiguous_vertex_is_refused_or_resolved_by_direction() {
    // A 2 x 2 grid whose free cells [0,1]^2 and [1,2]^2 touch only at (1, 1): each split into
    // two triangles along the diagonal through (1, 1). As on a grid map, Towards(1, 1) picks
    // the cell whose top-left corner (in y-down map terms) the point is.
    let kinds = [1, 0, 0, 1];
    let f = Affine {
        ox: 0.0,
        oy: 0.0,
        sx: 1.0,
        sy: 1.0,
    };
    let (points, polys) = grid_mesh(2, 2, &kinds, f);
    let m = Mesh::new(points, &polys).unwrap();
    // Polygons 0 and 1 are the cell [0,1]^2, 2 and 3 the cell [1,2]^2; vertex 4 is (1, 1).
    assert_eq!(m.point(4), pt(1.0, 1.0));
    assert!(m.is_ambiguous(4));
    let p = pt(1.0, 1.0);
    assert_eq!(check_location(&m, p), Location::Vertex(4));
    assert_eq!(endpoint(&m, p, Ambiguity::Refuse), (false, vec![]));
    assert_eq!(endpoint(&m, p, Ambiguity::default()), (false, vec![]));
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, 1.0)),
        (true, vec![2, 3])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(0.1, 5.0)),
        (true, vec![2, 3])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(-1.0, -1.0)),
        (true, vec![0, 1])
    );
    // Into an obstacle: nothing.
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, -1.0)),
        (false, vec![])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(-1.0, 1.0)),
        (false, vec![])
    );
    // Along an obstacle side: the group on that side.
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(1.0, 0.0)),
        (true, vec![2, 3])
    );
    assert_eq!(
        endpoint(&m, p, Ambiguity::Towards(0.0, -1.0)),
        (true, vec![0, 1])
    );
    // The other vertices are not ambiguous; the points near (1, 1) are inside.
    for v in 0..m.vertex_count() as u32 {
        assert_eq!(m.is_ambiguous(v), v == 4, "{v}");
    }
    assert_eq!(
        endpoint(&m, pt(1.01, 1.02), Ambiguity::Refuse),
        (true, vec![3])
    );
    assert_eq!(
        endpoint(&m, pt(0.99, 0.98), Ambiguity::Refuse),
        (true, vec![0])
    );
    assert_eq!(
        endpoint(&m, pt(1.01, 0.99), Ambiguity::Refuse),
        (false, vec![])
    );

    // Three groups: a wheel of six triangles around the origin with every other one missing.
    let degrees = [0, 60, 120, 180, 240, 300];
    let keep = [true, false, true, false, true, false];
    let (points, polys) = circle_mesh(&degrees, (0.0, 0.0), 10.0, true, &keep);
    let m = Mesh::new(points, &polys).unwrap();
    assert!(m.is_ambiguous(0));
    assert_eq!(
        m.vertex_polygons(0)
            .iter()
            .filter(|&&q| q == NO_POLY)
            .count(),
        3
    );
    let o = pt(0.0, 0.0);
    assert_eq!(check_location(&m, o), Location::Vertex(0));
    let towards = |deg: f64| {
        let t = deg.to_radians();
        endpoint(&m, o, Ambiguity::Towards(t.cos(), t.sin()))
    };
    assert_eq!(towards(30.0), (true, vec![0]));
    assert_eq!(towards(150.0), (true, vec![1]));
    assert_eq!(towards(270.0), (true, vec![2]));
    assert_eq!(towards(90.0), (false, vec![]));
    assert_eq!(endpoint(&m, o, Ambiguity::Refuse), (false, vec![]));
}

#[test]
fn points_on_a_side_with_straight_vertices_find_the_right_neighbour() {
    // The rectangle [0,2]x[0,1] lists (1,1) on its top side (a straight vertex, as merged
    // meshes have), with the squares [0,1]x[1,2] and [1,2]x[1,2] above it.
    let points = vec![
        pt(0.0, 0.0), // 0
        pt(2.0, 0.0), // 1
        pt(2.0, 1.0), // 2
        pt(1.0, 1.0), // 3
        pt(0.0, 1.0), // 4
        pt(2.0, 2.0), // 5
        pt(1.0, 2.0), // 6
        pt(0.0, 2.0), // 7
    ];
    let polys = [vec![0, 1, 2, 3, 4], vec![4, 3, 6, 7], vec![3, 2, 5, 6]];
    let m = Mesh::new(points, &polys).unwrap();
    assert_eq!(m.poly_adjacent(0), [-1, -1, 2, 1, -1]);
    // Under the left square, the edge 3 -> 4 of the rectangle; under the right one, 2 -> 3.
    for (x, left) in [(0.5, true), (0.25, true), (1.5, false), (1.75, false)] {
        let loc = check_location(&m, pt(x, 1.0));
        let Location::Edge { poly, across, .. } = loc else {
            panic!("({x}, 1): {loc:?}");
        };
        let mut pair = [poly, across.unwrap()];
        pair.sort_unstable();
        assert_eq!(
            pair,
            if left { [0, 1] } else { [0, 2] },
            "({x}, 1): {loc:?}"
        );
        let expected = if left { vec![0, 1] } else { vec![0, 2] };
        assert_eq!(
            endpoint(&m, pt(x, 1.0), Ambiguity::Refuse),
            (true, expected)
        );
    }
    // The straight vertex itself is in all three polygons.
    assert_eq!(check_location(&m, pt(1.0, 1.0)), Location::Vertex(3));
    assert_eq!(
        endpoint(&m, pt(1.0, 1.0), Ambiguity::Refuse),
        (true, vec![0, 1, 2])
    );
    for p in probe_points(&m, &[(0.5, 0.5), (0.9, 0.4)]) {
        check_location(&m, p);
    }
}

#[test]
fn locating_points_on_the_large_reference_mesh_is_timed() {
    let Some(data) = taut_testdata::shared_data("locate timing") else {
        return;
    };
    let m = read_mesh(&data.join("mesh/reference/aurora-merged.mesh")).unwrap();
    let (lo, hi) = m.bounds();
    // A deterministic scatter of points over the bounding box (a Weyl sequence).
    let n = 1_000_000;
    let (a1, a2) = (0.754_877_666_246_692_7, 0.569_840_290_998_053_2);
    let t = Instant::now();
    let mut found = 0u32;
    for i in 0..n {
        let (u, v) = ((f64::from(i) * a1).fract(), (f64::from(i) * a2).fract());
        let p = pt(lo.x + (hi.x - lo.x) * u, lo.y + (hi.y - lo.y) * v);
        found += u32::from(m.locate(p) != Location::OffMesh);
    }
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "aurora-merged ({} polygons): {n} random points located in {:.0} ms ({:.0} ns each), \
         {found} on the mesh",
        m.polygon_count(),
        secs * 1e3,
        secs * 1e9 / f64::from(n)
    );
    assert!(found > 0);
}
