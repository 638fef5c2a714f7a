//! Bad input to the "mesh 2" reader, tested from outside: every malformed or invalid file gets
//! its own typed error, with the line of the offending token for reading errors and the path
//! for files.

use taut_mesh::{
    Mesh, MeshError, MeshPoint, ParseErrorKind, format_mesh, parse_mesh, read_mesh, write_mesh,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn pt(x: f64, y: f64) -> MeshPoint {
    MeshPoint::new(x, y)
}

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

/// The unit square split along its diagonal (0,0)-(1,1) into two triangles, one record a line:
/// line 3 has the counts, lines 4-7 the vertices, lines 8-9 the polygons.
pub(crate) const SQUARE: &str = "mesh
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
