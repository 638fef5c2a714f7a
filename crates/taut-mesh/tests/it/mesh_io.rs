//! The mesh model's "mesh 2" reader and writer on the shared data, tested from outside
//! (skipped with a `SKIPPED` line when absent, a failure under `TAUT_REQUIRE_DATA=1`): every
//! reference, test and suite mesh loads and round-trips through `format_mesh` / `parse_mesh`;
//! the reference meshes have the counts their headers announce; a merged mesh covers exactly
//! the free cells of its grid map (same area as the unmerged mesh, every free cell centre on
//! the mesh and every blocked one off it).
//!
//! Malformed text is `mesh_errors`' concern; point location and random meshes are `locate`'s.

use std::path::{Path, PathBuf};
use std::time::Instant;

use taut_grid::{FreeSet, Grid, MapFile};
use taut_mesh::{Location, Mesh, MeshPoint, format_mesh, parse_mesh, read_mesh};

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
