//! Test support shared by the crates' tests and benches (a dev-dependency only).
//!
//! - **Data.** Where the reference data and the fixtures are ([`shared_data`], [`fixtures`],
//!   [`workspace_root`]), a reader for the reference optima of `data/grid/optimal/*.csv`
//!   ([`read_optimal_csv`], [`optimal_rows_by_map`]), the fixture maps with their scenarios
//!   ([`fixture_queries`]), and the catalogue manifests of `fixtures/bad`
//!   ([`manifest_entries`], [`assert_catalogue_complete`]).
//! - **Grids and meshes.** The valid query points of a grid ([`free_points`]), queries spread
//!   over them ([`spread_queries`]), the grid as text for failure messages ([`show`]), and the
//!   meshes of one square ([`cell_mesh`]) or two triangles ([`cell_triangle_mesh`]) per free
//!   cell, independent of taut's mesh builder; [`mesh_point`], [`mesh_queries`] and
//!   [`lattice_point`] convert between the grid's lattice and the plane of meshes.
//! - **Random grids** (`proptest`): [`random_grid`], [`random_grid_with`] (sizes and blocked
//!   density as parameters), [`double_corner_grid`], and queries on them ([`query_picks`],
//!   [`QueryPicks::on`]).
//! - **The answer checker.** [`check_answer`]: a found path is legal by
//!   [`Grid::check_path`](taut_grid::Grid::check_path), measures the length it reports, and
//!   has the expected length, all within [`taut_grid::LENGTH_TOLERANCE`];
//!   [`check_answer_within`] with stricter [`Tolerances`]; [`check_reference_answer`] for a
//!   query of the reference optima (blocked endpoints refused, and only they).
//! - **Damaged files** ([`damage`]): random edits of a framed binary file and its frame
//!   repaired around an edited body, for the readers' corruption tests.
//! - **The threads harness.** [`assert_threads_agree`]: one immutable map shared by N threads,
//!   each with its own state, answers exactly as one thread; [`assert_send_sync`] and
//!   [`assert_send`] check the types at compile time.
//!
//! Tests that need `../shared/data` call [`shared_data`]. When the data is absent (a user's
//! fresh clone) they print a clear `SKIPPED` line and return; when the environment variable
//! `TAUT_REQUIRE_DATA=1` is set (`.ci/run` sets it whenever `../shared/data` exists), a missing
//! data directory is a failure instead, so CI can never pass by skipping.
//!
//! taut-grid and taut-mesh use this crate as a dev-dependency while it depends on them: only
//! their integration tests (`tests/*.rs`) may use the grid and mesh helpers (in their unit
//! tests this crate's `Grid` is another type than the crate's own).
//!
//! # Example
//! ```
//! use taut_grid::{Answer, Grid, Point, path_length};
//! use taut_testdata::{assert_threads_agree, cell_mesh, check_answer, free_points};
//!
//! if let Some(data) = taut_testdata::shared_data("doc example") {
//!     assert!(data.join("grid").is_dir());
//! }
//! assert!(taut_testdata::fixtures().join("maps").is_dir());
//!
//! let grid = Grid::from_ascii(&["....", ".@@.", "...."]).unwrap();
//! assert_eq!(free_points(&grid).len(), 10);
//! assert_eq!(cell_mesh(&grid).unwrap().polygon_count(), 10);
//!
//! // A path a planner might return, checked: legal, honest about its length, optimal.
//! let (s, t) = (Point::new(0, 0), Point::new(4, 3));
//! let waypoints = vec![s, Point::new(3, 1), t];
//! let length = path_length(&waypoints);
//! let answer = Answer { waypoints, length, ..Answer::default() };
//! assert_eq!(check_answer(&grid, s, t, &answer, Some(10f64.sqrt() + 5f64.sqrt())), Ok(()));
//! // Straight through the obstacle: refused, naming the query.
//! let cut = Answer { waypoints: vec![s, t], length: 5.0, ..Answer::default() };
//! assert!(check_answer(&grid, s, t, &cut, None).unwrap_err().starts_with("(0, 0) -> (4, 3)"));
//!
//! // Four threads share the grid, each with its own state: the same answers as one thread.
//! let queries = [(s, t), (t, s), (s, s)];
//! let lengths = assert_threads_agree(4, &queries, Vec::new, |seen: &mut Vec<Point>, &(a, b)| {
//!     seen.push(a);
//!     (grid.segment_is_legal(a, b), a.dist(b))
//! });
//! assert_eq!(lengths[0], (false, 5.0));
//! ```

mod check;
pub mod damage;
mod grids;
mod strategy;
mod threads;

pub use check::{Tolerances, check_answer, check_answer_within, check_reference_answer};
pub use grids::{
    cell_mesh, cell_triangle_mesh, fixture_queries, free_points, lattice_point, mesh_point,
    mesh_queries, show, spread_queries,
};
pub use strategy::{QueryPicks, double_corner_grid, query_picks, random_grid, random_grid_with};
pub use threads::{assert_send, assert_send_sync, assert_threads_agree};

use std::path::{Path, PathBuf};

/// The workspace root (the directory holding the top-level `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

/// The `fixtures/` directory of the repository.
pub fn fixtures() -> PathBuf {
    workspace_root().join("fixtures")
}

/// The shared reference data directory: `$TAUT_DATA` if set, else `../shared/data` beside the
/// repository. `None` (after printing a `SKIPPED` line naming `test`) when it is absent.
///
/// # Panics
/// When the data is absent but `TAUT_REQUIRE_DATA=1`: CI must not skip silently.
pub fn shared_data(test: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os("TAUT_DATA") {
        Some(d) => PathBuf::from(d),
        None => workspace_root().join("../shared/data"),
    };
    if dir.join("grid").is_dir() {
        return Some(dir);
    }
    if std::env::var("TAUT_REQUIRE_DATA").as_deref() == Ok("1") {
        panic!(
            "{test}: reference data not found at {} but TAUT_REQUIRE_DATA=1",
            dir.display()
        );
    }
    eprintln!(
        "SKIPPED {test}: reference data not found at {} (set TAUT_DATA)",
        dir.display()
    );
    None
}

/// One row of `data/grid/optimal/scen.csv` or `scen-legacy.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct OptimalRow {
    /// Map name without `.map`.
    pub map: String,
    /// 0-based query index in the map's `.scen` file.
    pub idx: usize,
    /// Start x, start y, goal x, goal y.
    pub sx: i32,
    /// Start y.
    pub sy: i32,
    /// Goal x.
    pub gx: i32,
    /// Goal y.
    pub gy: i32,
    /// The octile column of the `.scen` file.
    pub octile: f64,
    /// The any-angle optimum under the rules of `docs/conventions.md` (`Some(-1.0)` for a
    /// blocked endpoint, `None` where the reference planner did not finish).
    pub len_gppc: Option<f64>,
    /// The reference Java Anya's optimum (−1 = no path).
    pub len_anya_java: Option<f64>,
    /// An endpoint lies on a double corner.
    pub endpoint_double_corner: bool,
    /// An endpoint cell is blocked.
    pub endpoint_blocked: bool,
    /// Nodes the reference Java Anya expanded on this query (`None` where not recorded).
    pub anya_java_expanded: Option<u64>,
}

/// Reads an optimal-lengths CSV (header `map,idx,bucket,sx,sy,gx,gy,octile_len,len_gppc,...`).
pub fn read_optimal_csv(path: &Path) -> Result<Vec<OptimalRow>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().ok_or("empty csv")?.split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("no column {name}"))
    };
    let c = [
        col("map")?,
        col("idx")?,
        col("sx")?,
        col("sy")?,
        col("gx")?,
        col("gy")?,
        col("octile_len")?,
        col("len_gppc")?,
        col("len_anya_java")?,
        col("endpoint_double_corner")?,
        col("endpoint_blocked")?,
        col("anya_java_expanded")?,
    ];
    let mut rows = Vec::new();
    for (n, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        let bad = |what: &str| format!("{}:{}: bad {what}", path.display(), n + 2);
        let get = |i: usize| f.get(c[i]).copied().unwrap_or("");
        let int = |i: usize, what: &str| get(i).parse::<i64>().map_err(|_| bad(what));
        let opt = |i: usize| -> Result<Option<f64>, String> {
            let s = get(i);
            if s.is_empty() {
                Ok(None)
            } else {
                s.parse().map(Some).map_err(|_| bad("length"))
            }
        };
        rows.push(OptimalRow {
            map: get(0).to_owned(),
            idx: int(1, "idx")? as usize,
            sx: int(2, "sx")? as i32,
            sy: int(3, "sy")? as i32,
            gx: int(4, "gx")? as i32,
            gy: int(5, "gy")? as i32,
            octile: get(6).parse().map_err(|_| bad("octile_len"))?,
            len_gppc: opt(7)?,
            len_anya_java: opt(8)?,
            endpoint_double_corner: get(9) == "1",
            endpoint_blocked: get(10) == "1",
            anya_java_expanded: get(11).parse().ok(),
        });
    }
    Ok(rows)
}

/// The reference rows of all 53 shared grids, by map: `grid/optimal/scen.csv`, plus the
/// `scen-legacy.csv` rows of the maps that have no 2018 scenario (maze512-1-0), so that every
/// map is covered.
pub fn optimal_rows_by_map(
    data: &Path,
) -> Result<std::collections::BTreeMap<String, Vec<OptimalRow>>, String> {
    let mut by_map: std::collections::BTreeMap<String, Vec<OptimalRow>> = Default::default();
    for r in read_optimal_csv(&data.join("grid/optimal/scen.csv"))? {
        by_map.entry(r.map.clone()).or_default().push(r);
    }
    let mut extra: std::collections::BTreeMap<String, Vec<OptimalRow>> = Default::default();
    for r in read_optimal_csv(&data.join("grid/optimal/scen-legacy.csv"))? {
        if !by_map.contains_key(&r.map) {
            extra.entry(r.map.clone()).or_default().push(r);
        }
    }
    by_map.extend(extra);
    Ok(by_map)
}

/// The entries of a catalogue manifest (`fixtures/bad/**/expected.txt`): for every line that
/// is not blank once its `#` comment is removed, its 1-based line number and its
/// white-space-separated fields.
///
/// # Panics
/// When the file cannot be read (test support: the manifest is part of the repository).
pub fn manifest_entries(path: &Path) -> Vec<(usize, Vec<String>)> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let line = raw.split('#').next().unwrap_or("").trim();
            (!line.is_empty())
                .then(|| (i + 1, line.split_whitespace().map(str::to_owned).collect()))
        })
        .collect()
}

/// Asserts that the files of the catalogue directory `dir` (not its subdirectories, its
/// `expected.txt` or its `README.md`) are exactly the names `listed` by its manifest: a file
/// without an expected outcome, or an outcome for a missing file, fails.
///
/// # Panics
/// When the two sets differ, naming the differences.
pub fn assert_catalogue_complete<'a>(dir: &Path, listed: impl IntoIterator<Item = &'a str>) {
    let listed: std::collections::BTreeSet<&str> = listed.into_iter().collect();
    let mut on_disk = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let entry = entry.expect("directory entry");
        if entry.file_type().expect("file type").is_dir() {
            continue;
        }
        let name = entry.file_name().into_string().expect("UTF-8 file name");
        if name != "expected.txt" && name != "README.md" {
            on_disk.insert(name);
        }
    }
    let unlisted: Vec<_> = on_disk
        .iter()
        .filter(|n| !listed.contains(n.as_str()))
        .collect();
    let missing: Vec<_> = listed.iter().filter(|n| !on_disk.contains(**n)).collect();
    assert!(
        unlisted.is_empty() && missing.is_empty(),
        "{}: files not in expected.txt: {unlisted:?}; listed but missing: {missing:?}",
        dir.display()
    );
}
