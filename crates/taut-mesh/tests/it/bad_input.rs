//! The malformed-mesh corpus of `fixtures/bad/mesh/`: every file is read with `read_mesh`, and
//! the outcome must match `fixtures/bad/mesh/expected.txt` exactly (the error variant and where
//! it is, or `ok`). The manifest format is described in `fixtures/bad/README.md`. Then meshes
//! too large to commit, generated here, which a hostile file could use to exhaust memory or
//! time.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use taut_mesh::{MeshError, ParseErrorKind, format_mesh, parse_mesh, read_mesh};

fn corpus() -> PathBuf {
    taut_testdata::fixtures().join("bad").join("mesh")
}

/// One manifest line: the outcome (`ok`, or the variant name) and where the error is
/// (`line=N`, `polygon=N`, `vertex=N`, or `-`).
#[derive(Debug)]
struct Expectation {
    outcome: String,
    place: String,
}

fn manifest() -> BTreeMap<String, Expectation> {
    let path = corpus().join("expected.txt");
    let mut out = BTreeMap::new();
    for (at, fields) in taut_testdata::manifest_entries(&path) {
        let t: Vec<&str> = fields.iter().map(String::as_str).collect();
        assert_eq!(t.len(), 3, "expected.txt:{}: need `file outcome place`", at);
        assert_eq!(
            t[1] == "ok",
            t[2] == "-",
            "expected.txt:{}: `ok` takes place `-`, an error takes one",
            at
        );
        let prev = out.insert(
            t[0].to_owned(),
            Expectation {
                outcome: t[1].to_owned(),
                place: t[2].to_owned(),
            },
        );
        assert!(prev.is_none(), "expected.txt lists {} twice", t[0]);
    }
    out
}

/// The variant name and place of an error (inside `InFile`), as written in the manifest.
fn describe(e: &MeshError) -> (&'static str, String) {
    match e {
        MeshError::Parse { line, kind } => (
            match kind {
                ParseErrorKind::BadHeader(_) => "BadHeader",
                ParseErrorKind::Truncated(_) => "Truncated",
                ParseErrorKind::BadNumber { .. } => "BadNumber",
                ParseErrorKind::TrailingData(_) => "TrailingData",
                ParseErrorKind::NotText => "NotText",
            },
            format!("line={line}"),
        ),
        MeshError::Dangling { owner, .. } => ("Dangling", owner.replace(' ', "=")),
        MeshError::NotFinite { vertex } => ("NotFinite", format!("vertex={vertex}")),
        MeshError::Degenerate { polygon, .. } => ("Degenerate", format!("polygon={polygon}")),
        MeshError::NotConvex { polygon, .. } => ("NotConvex", format!("polygon={polygon}")),
        MeshError::Adjacency { polygon, .. } => ("Adjacency", format!("polygon={polygon}")),
        MeshError::VertexPolygons { vertex, .. } => ("VertexPolygons", format!("vertex={vertex}")),
        MeshError::Size(_) => ("Size", "file".into()),
        MeshError::Io { .. } => ("Io", "file".into()),
        MeshError::InFile { .. } => ("InFile", "file".into()),
    }
}

#[test]
fn every_corpus_file_is_listed_and_nothing_listed_is_missing() {
    let listed = manifest();
    taut_testdata::assert_catalogue_complete(&corpus(), listed.keys().map(String::as_str));
}

#[test]
fn every_corpus_file_gives_its_expected_outcome() {
    let mut failures = Vec::new();
    for (name, exp) in manifest() {
        let path = corpus().join(&name);
        let started = Instant::now();
        let got = std::panic::catch_unwind(|| read_mesh(&path));
        let took = started.elapsed();
        // Every file here is tiny: a slow read means a declared count was trusted.
        if took > Duration::from_secs(1) {
            failures.push(format!("{name}: took {took:?}"));
        }
        let Ok(got) = got else {
            failures.push(format!("{name}: the reader panicked"));
            continue;
        };
        match (exp.outcome.as_str(), got) {
            ("ok", Ok(mesh)) => {
                let again = parse_mesh(&format_mesh(&mesh));
                if again.as_ref() != Ok(&mesh) {
                    failures.push(format!("{name}: does not survive format_mesh: {again:?}"));
                }
            }
            ("ok", Err(e)) => failures.push(format!("{name}: expected ok, got {e}")),
            (want, Ok(_)) => failures.push(format!("{name}: expected {want}, but it loaded")),
            (want, Err(e)) => {
                let shown = e.to_string();
                let prefix = format!("{}: ", path.display());
                if !shown.starts_with(&prefix) || shown.contains('\n') {
                    failures.push(format!(
                        "{name}: message does not start with the path: {shown}"
                    ));
                }
                let MeshError::InFile { path: p, source } = &e else {
                    failures.push(format!("{name}: not wrapped in InFile: {e:?}"));
                    continue;
                };
                assert_eq!(p, &path);
                let (variant, place) = describe(source);
                if (variant, place.as_str()) != (want, exp.place.as_str()) {
                    failures.push(format!(
                        "{name}: expected {want} {}, got {variant} {place}: {shown}",
                        exp.place
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let path = corpus().join("no such file.mesh");
    let e = read_mesh(&path).unwrap_err();
    assert!(
        matches!(&e, MeshError::Io { path: p, .. } if p == &path),
        "{e:?}"
    );
    assert!(e.to_string().starts_with(&format!("{}: ", path.display())));
    // A directory is not a mesh either.
    let e = read_mesh(&corpus()).unwrap_err();
    assert!(matches!(e, MeshError::Io { .. }), "{e:?}");
}

/// `copies` triangles over the same three points, each with its own three vertices: every edge
/// is an obstacle side, so the file is locally valid (the mesh is not checked for planarity).
fn overlapping_triangles(copies: usize) -> String {
    let mut s = format!("mesh 2\n{} {copies}\n", 3 * copies);
    for p in 0..copies {
        for (x, y) in [(0, 0), (1000, 0), (0, 1000)] {
            let _ = writeln!(s, "{x} {y} 2 {p} -1");
        }
    }
    for p in 0..copies {
        let v = 3 * p;
        let _ = writeln!(s, "3 {} {} {} -1 -1 -1", v, v + 1, v + 2);
    }
    s
}

/// A fan of `n` triangles around the vertex (0, 0): thin slices of a disc of radius 1e6, each
/// the neighbour of the next, the first and last separated by an obstacle gap.
fn fan(n: usize) -> String {
    let r = 1e6;
    let at = |k: usize| {
        let a = std::f64::consts::PI * k as f64 / n as f64;
        (r * a.cos(), r * a.sin())
    };
    let mut s = format!("mesh 2\n{} {n}\n", n + 2);
    let _ = write!(s, "0 0 {}", n + 1);
    for p in 0..n {
        let _ = write!(s, " {p}");
    }
    s.push_str(" -1\n");
    for k in 0..=n {
        let (x, y) = at(k);
        let around: Vec<i64> = if k == 0 {
            vec![0, -1]
        } else if k == n {
            vec![(n - 1) as i64, -1]
        } else {
            vec![k as i64, (k - 1) as i64, -1]
        };
        let _ = write!(s, "{x} {y} {}", around.len());
        for q in around {
            let _ = write!(s, " {q}");
        }
        s.push('\n');
    }
    for p in 0..n {
        // Vertex 0 is the centre; rim point k is vertex k + 1.
        let (a, b) = (p + 1, p + 2);
        let before = if p == 0 { -1 } else { p as i64 - 1 };
        let after = if p + 1 == n { -1 } else { p as i64 + 1 };
        // File order: a1 across (last -> first) = (b -> 0), a2 across (0 -> a), a3 across (a -> b).
        let _ = writeln!(s, "3 0 {a} {b} {after} {before} -1");
    }
    s
}

/// Overlapping polygons made the point locator's buckets list every polygon in nearly every
/// bucket: 20,000 copies of one triangle asked for 400 million bucket entries (1.6 GB).
#[test]
fn overlapping_polygons_do_not_blow_up_the_point_locator() {
    let text = overlapping_triangles(20_000);
    let started = Instant::now();
    let mut mesh = None;
    let info = allocation_counter::measure(|| mesh = Some(parse_mesh(&text)));
    let mesh = mesh.unwrap().expect("locally valid");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    // The text is 0.9 MB; the mesh takes a few MB. It was 1.6 GB.
    assert!(info.bytes_max < 64 << 20, "peak {} bytes", info.bytes_max);
    assert_eq!(mesh.polygon_count(), 20_000);
    assert!(matches!(
        mesh.locate(taut_mesh::MeshPoint::new(1.0, 1.0)),
        taut_mesh::Location::Interior(_)
    ));
}

/// A vertex shared by many polygons: deriving its polygon list looked each neighbour up in a
/// linear scan (quadratic in the polygons around one vertex).
#[test]
fn a_vertex_in_many_polygons_is_checked_quickly() {
    let text = fan(60_000);
    let started = Instant::now();
    let mesh = parse_mesh(&text).expect("a valid fan");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(mesh.vertex_polygons(0).len(), 60_001);
    assert!(mesh.is_corner(0) && !mesh.is_ambiguous(0));
}

/// Non-UTF-8 text given as `&str` is impossible; but `read_mesh` on a path that is a mesh
/// followed by a non-UTF-8 byte on line 12 names line 12.
#[test]
fn not_text_names_the_line_of_the_first_bad_byte() {
    let dir = std::env::temp_dir().join(format!("taut-bad-mesh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: &Path = &dir.join("late.mesh");
    let mut bytes = std::fs::read(corpus().join("ok_square.mesh")).unwrap();
    bytes.extend_from_slice(b"\n\n\xc3\x28");
    std::fs::write(path, &bytes).unwrap();
    let e = read_mesh(path).unwrap_err();
    let _ = std::fs::remove_dir_all(&dir);
    match e {
        MeshError::InFile { source, .. } => assert!(
            matches!(
                *source,
                MeshError::Parse {
                    line: 12,
                    kind: ParseErrorKind::NotText
                }
            ),
            "{source:?}"
        ),
        e => panic!("{e:?}"),
    }
}
