//! `taut mesh build` and `taut mesh stats`: outputs, files, errors and exit codes.

use std::path::{Path, PathBuf};

use crate::common::{fails, ok, taut};

const STATS_HEADER: &str =
    "map,width,height,free_cells,vertices,triangles,polygons,ms,reference_polygons";

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A temporary directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("taut-mesh-test-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Parses `vertices V polygons P triangles T ms X`.
fn parse_build_line(out: &str) -> (usize, usize, usize, f64) {
    assert_eq!(out.lines().count(), 1, "{out:?}");
    let f: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(f.len(), 8, "{out:?}");
    assert_eq!(
        [f[0], f[2], f[4], f[6]],
        ["vertices", "polygons", "triangles", "ms"]
    );
    assert_eq!(
        f[7].split_once('.').map(|(_, d)| d.len()),
        Some(3),
        "{out:?}"
    );
    (
        f[1].parse().unwrap(),
        f[3].parse().unwrap(),
        f[5].parse().unwrap(),
        f[7].parse().unwrap(),
    )
}

#[test]
fn build_from_a_grid_map() {
    let dir = Scratch::new("grid");
    let out = dir.path("arena.mesh");
    let line = ok(&[
        "mesh",
        "build",
        "--map",
        &fixture("maps/arena.map"),
        "-o",
        &out,
    ]);
    let (v, p, t, ms) = parse_build_line(&line);
    // The reference Polyanya mesh of arena has 112 vertices and 120 triangles.
    assert_eq!((v, t), (112, 120));
    assert!(ms >= 0.0);
    let mesh = taut::mesh::read_mesh(Path::new(&out)).unwrap();
    assert_eq!((mesh.vertex_count(), mesh.polygon_count()), (v, p));
    assert!(p < t);
    assert_eq!(mesh.area(), 2054.0);
    // Unmerged: the triangles.
    let line = ok(&[
        "mesh",
        "build",
        "--map",
        &fixture("maps/arena.map"),
        "-o",
        &out,
        "--no-merge",
    ]);
    let (_, p, t, _) = parse_build_line(&line);
    assert_eq!((p, t), (120, 120));
    // Another free set: with `S` and `G` blocked, small.map has two fewer free cells.
    let map = fixture("maps/small.map");
    ok(&["mesh", "build", "--map", &map, "-o", &out]);
    let all = taut::mesh::read_mesh(Path::new(&out)).unwrap().area();
    ok(&["mesh", "build", "--map", &map, "-o", &out, "--free", "."]);
    let dots = taut::mesh::read_mesh(Path::new(&out)).unwrap().area();
    assert_eq!(all - dots, 2.0);
}

#[test]
fn build_from_a_polygon_map() {
    let dir = Scratch::new("polygons");
    let input = dir.path("room.txt");
    std::fs::write(
        &input,
        "# a room with a pillar and two boxes touching at a corner\npolygons 1\n\
         outer 4 0 0 100 0 100 60 0 60\nobstacle 4 10 10 20 10 20 20 10 20\n\
         obstacle 3 50 30 60 30 60 40\nobstacle 3 60 40 70 40 70 50\n",
    )
    .unwrap();
    let out = dir.path("room.mesh");
    let (v, p, t, _) = parse_build_line(&ok(&["mesh", "build", "--polygons", &input, "-o", &out]));
    assert_eq!(v, 4 + 4 + 3 + 2);
    let mesh = taut::mesh::read_mesh(Path::new(&out)).unwrap();
    assert_eq!(mesh.polygon_count(), p);
    assert!(p <= t);
    assert_eq!(mesh.area(), 6000.0 - 100.0 - 50.0 - 50.0);
    let at = taut::mesh::MeshPoint::new(60.0, 40.0);
    let taut::mesh::Location::Vertex(corner) = mesh.locate(at) else {
        panic!("the touching corner is not a vertex");
    };
    assert!(mesh.is_ambiguous(corner));
}

#[test]
fn build_errors() {
    let dir = Scratch::new("errors");
    let out = dir.path("out.mesh");
    // Unreadable inputs name the file.
    let missing = dir.path("missing.map");
    let err = fails(&["mesh", "build", "--map", &missing, "-o", &out], 1);
    assert!(err.contains("missing.map"), "{err}");
    let err = fails(
        &[
            "mesh",
            "build",
            "--map",
            &fixture("bad/map_unknown_char.map"),
            "-o",
            &out,
        ],
        1,
    );
    assert!(err.contains("map_unknown_char.map"), "{err}");
    // A map without a free cell.
    let blocked = dir.path("blocked.map");
    std::fs::write(&blocked, "type octile\nheight 2\nwidth 3\nmap\n@@@\nTTT\n").unwrap();
    let err = fails(&["mesh", "build", "--map", &blocked, "-o", &out], 1);
    assert!(
        err.contains("blocked.map") && err.contains("no free space"),
        "{err}"
    );
    // A malformed polygon map: file and line.
    let bad = dir.path("bad.txt");
    std::fs::write(&bad, "polygons 1\n# fine\nouter 3 0 0 1 0\n").unwrap();
    let err = fails(&["mesh", "build", "--polygons", &bad, "-o", &out], 1);
    assert!(err.contains("bad.txt: line 3: "), "{err}");
    // Crossing polygons: the file and both polygons.
    std::fs::write(
        &bad,
        "polygons 1\nouter 4 0 0 10 0 10 10 0 10\nobstacle 3 5 5 12 5 5 7\n",
    )
    .unwrap();
    let err = fails(&["mesh", "build", "--polygons", &bad, "-o", &out], 1);
    assert!(
        err.contains("bad.txt: the outer polygon and obstacle 0 cross"),
        "{err}"
    );
    // An unwritable output.
    let nowhere = dir.path("no/such/dir/out.mesh");
    let err = fails(
        &[
            "mesh",
            "build",
            "--map",
            &fixture("maps/small.map"),
            "-o",
            &nowhere,
        ],
        1,
    );
    assert!(err.contains("out.mesh"), "{err}");
    // Usage errors.
    let map = fixture("maps/small.map");
    fails(&["mesh", "build", "-o", &out], 2);
    fails(
        &[
            "mesh",
            "build",
            "--map",
            &map,
            "--polygons",
            &bad,
            "-o",
            &out,
        ],
        2,
    );
    fails(&["mesh", "build", "--map", &map], 2);
    fails(
        &["mesh", "build", "--map", &map, "-o", &out, "--free", "x"],
        2,
    );
    fails(&["mesh"], 2);
    fails(&["mesh", "stats"], 2);
}

/// A directory of maps: arena (with a reference), small (without one), and a file that is
/// not a map.
fn stats_dirs(dir: &Scratch) -> (String, String) {
    let maps = dir.0.join("maps");
    let reference = dir.0.join("reference");
    std::fs::create_dir_all(&maps).unwrap();
    std::fs::create_dir_all(&reference).unwrap();
    for name in ["arena.map", "small.map"] {
        std::fs::copy(fixture(&format!("maps/{name}")), maps.join(name)).unwrap();
    }
    std::fs::write(maps.join("notes.txt"), "not a map").unwrap();
    std::fs::write(reference.join("arena-merged.mesh"), "mesh\n2\n112 55\n").unwrap();
    (
        maps.to_string_lossy().into_owned(),
        reference.to_string_lossy().into_owned(),
    )
}

#[test]
fn stats_over_a_directory() {
    let dir = Scratch::new("stats");
    let (maps, reference) = stats_dirs(&dir);
    let text = ok(&["mesh", "stats", "--maps", &maps, "--reference", &reference]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0], STATS_HEADER);
    let arena: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(&arena[..6], ["arena", "49", "49", "2054", "112", "120"]);
    assert_eq!(arena[8], "55");
    let polygons: usize = arena[6].parse().unwrap();
    let small: Vec<&str> = lines[2].split(',').collect();
    assert_eq!(&small[..4], ["small", "8", "6", "35"]);
    assert_eq!(small[8], "", "no reference for small");
    let summary = lines[3];
    assert!(
        summary.starts_with(&format!("# {maps}: maps 2, build ms total ")),
        "{summary}"
    );
    let ratio = polygons as f64 / 55.0;
    assert!(
        summary.ends_with(&format!("reference polygons 55 (1 maps), ratio {ratio:.4}")),
        "{summary}"
    );
    // -o: the CSV goes to the file, the summary to stdout.
    let csv = dir.path("stats.csv");
    let text = ok(&["mesh", "stats", "--maps", &maps, "-o", &csv]);
    assert_eq!(text.lines().count(), 1);
    assert!(
        text.starts_with("# ") && !text.contains("reference"),
        "{text}"
    );
    let written = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(written.lines().count(), 3);
    assert!(written.starts_with(STATS_HEADER));

    // The old --out still writes the file, with one warning.
    let o = taut(&["mesh", "stats", "--maps", &maps, "--out", &csv]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success() && err.contains("--out is now -o/--output"),
        "{err}"
    );
    // The same rows but for the build time (column 8).
    let untimed = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.remove(7);
                f.join(",")
            })
            .collect()
    };
    assert_eq!(
        untimed(&std::fs::read_to_string(&csv).unwrap()),
        untimed(&written)
    );

    // --format json: the same figures, keys as the csv's columns.
    let json = ok(&[
        "mesh",
        "stats",
        "--maps",
        &maps,
        "--reference",
        &reference,
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = v["maps"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "{json}");
    assert_eq!(
        (rows[0]["map"].as_str(), rows[0]["polygons"].as_u64()),
        (Some("arena"), Some(polygons as u64))
    );
    assert_eq!(rows[0]["reference_polygons"], 55);
    assert!(rows[1]["reference_polygons"].is_null(), "{json}");
    assert_eq!(v["summary"]["maps"], 2);
    assert_eq!(
        v["summary"]["ratio"].as_f64(),
        Some(format!("{ratio:.4}").parse().unwrap())
    );
}

#[test]
fn stats_errors() {
    let dir = Scratch::new("stats-errors");
    let (maps, reference) = stats_dirs(&dir);
    let bad = Path::new(&reference).join("arena-merged.mesh");
    std::fs::write(&bad, "mesh\n3\n").unwrap();
    let err = fails(
        &["mesh", "stats", "--maps", &maps, "--reference", &reference],
        1,
    );
    assert!(
        err.contains("arena-merged.mesh: expected the header"),
        "{err}"
    );
    let err = fails(&["mesh", "stats", "--maps", &dir.path("nowhere")], 1);
    assert!(
        err.contains("cannot list") && err.contains("nowhere"),
        "{err}"
    );
}

/// On the shared data: the reference polygon count of arena comes from the real file.
#[test]
fn stats_against_the_shared_reference() {
    let Some(data) = taut_testdata::shared_data("stats_against_the_shared_reference") else {
        return;
    };
    let dir = Scratch::new("stats-shared");
    let maps = dir.0.join("maps");
    std::fs::create_dir_all(&maps).unwrap();
    std::fs::copy(
        data.join("mesh/reference/arena.map"),
        maps.join("arena.map"),
    )
    .unwrap();
    let reference = data.join("mesh/reference");
    let text = ok(&[
        "mesh",
        "stats",
        "--maps",
        &maps.to_string_lossy(),
        "--reference",
        &reference.to_string_lossy(),
    ]);
    let row: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row[0], "arena");
    assert_eq!(row[8], "55");
}
