//! Benchmark suites: what a `benchmarks/suites/NAME.toml` file says and how its paths resolve.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::big::GenerateSpec;
use crate::error::BenchError;
use taut::registry::PlannerSpec;

/// A suite as written in its TOML file. Paths may start with `{data}` (the data root, the
/// layout `cargo xtask fetch-maps` writes); other relative paths are relative to the suite file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SuiteFile {
    description: String,
    maps: String,
    scenarios: String,
    #[serde(default)]
    only: Vec<String>,
    reference: Option<String>,
    #[serde(default = "default_reference_column")]
    reference_column: String,
    planners: Vec<String>,
    #[serde(default = "one")]
    sample: usize,
    #[serde(default)]
    groups: BTreeMap<String, String>,
    meshes: Option<String>,
    cpds: Option<String>,
    hubs: Option<String>,
    generate: Option<GenerateSpec>,
}

fn default_reference_column() -> String {
    "len_gppc".into()
}

fn one() -> usize {
    1
}

/// A suite with its paths resolved: the maps, scenario files, reference optima and planners
/// one benchmark run covers.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The name (the file stem).
    pub name: String,
    /// One line on what the suite is.
    pub description: String,
    /// Directory of the `.map` files.
    pub maps: PathBuf,
    /// Directory of the `.scen` files.
    pub scenarios: PathBuf,
    /// Map names (without `.map`) to keep; empty: every scenario file of `scenarios`.
    pub only: Vec<String>,
    /// CSV of reference any-angle optima (columns `map`, `idx`, `sx`, `sy`, `gx`, `gy` and
    /// `reference_column`), when the suite has one.
    pub reference: Option<PathBuf>,
    /// The column of `reference` holding the optimum (−1: an endpoint is blocked).
    pub reference_column: String,
    /// The planners with their options (`anya:no-cul-de-sac`, see [`PlannerSpec`]), in the
    /// order reports list them.
    pub planners: Vec<PlannerSpec>,
    /// Run every `sample`-th query of each scenario file (1: all).
    pub sample: usize,
    /// Extra summary rows: name → map-name prefix (e.g. `random10` → `random512-10-`).
    pub groups: BTreeMap<String, String>,
    /// Directory of given navigation meshes, `NAME-merged.mesh` (or `NAME.mesh`) per map, for
    /// `polyanya:reference`.
    pub meshes: Option<PathBuf>,
    /// Directory of CPD files, `NAME.cpd` per map (`cargo xtask preprocess --cpd` writes
    /// them), for End Point Search; a missing or stale file is built in memory instead.
    pub cpds: Option<PathBuf>,
    /// Directory of hub label indexes, `NAME.hub` per map (`cargo xtask preprocess --hub`
    /// writes them), for `hub`; a missing or stale file is built in memory instead.
    pub hubs: Option<PathBuf>,
    /// The maps are made by the big-map generator ([`crate::big`]): `maps` (and `scenarios`,
    /// the same directory) must hold these, written by [`crate::big::ensure`] before a run.
    /// `only` then defaults to exactly these maps.
    pub generate: Option<GenerateSpec>,
}

impl Suite {
    /// Reads a suite file, resolving `{data}` to `data_root`.
    ///
    /// # Errors
    /// [`BenchError::Suite`] when the file cannot be read, is not valid TOML of the expected
    /// shape, names an unknown planner or has `sample = 0`.
    pub fn read(path: &Path, data_root: &Path) -> Result<Suite, BenchError> {
        let bad = |msg: String| BenchError::Suite {
            path: path.to_owned(),
            msg,
        };
        let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
        let file: SuiteFile = toml::from_str(&text).map_err(|e| bad(e.message().to_owned()))?;
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| bad("the file name is not UTF-8".into()))?
            .to_owned();
        let base = path.parent().unwrap_or(Path::new("."));
        let resolve = |p: &str| -> PathBuf {
            match p.strip_prefix("{data}") {
                Some(rest) => data_root.join(rest.trim_start_matches('/')),
                None => base.join(p),
            }
        };
        let planners = file
            .planners
            .iter()
            .map(|p| p.parse::<PlannerSpec>().map_err(|e| bad(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        if planners.is_empty() {
            return Err(bad("`planners` is empty".into()));
        }
        if file.sample == 0 {
            return Err(bad("`sample` must be at least 1".into()));
        }
        let mut only = file.only;
        if let Some(g) = &file.generate {
            if file.maps != file.scenarios {
                return Err(bad(
                    "a generated suite keeps maps and scenarios in one directory: `maps` and `scenarios` must be equal".into(),
                ));
            }
            if g.sides.is_empty() || g.kinds.is_empty() || g.seeds.is_empty() || g.queries == 0 {
                return Err(bad(
                    "`generate` needs at least one side, kind, seed and query".into(),
                ));
            }
            if only.is_empty() {
                only = g.specs().iter().map(|s| s.name()).collect();
            }
        }
        Ok(Suite {
            name,
            description: file.description,
            maps: resolve(&file.maps),
            scenarios: resolve(&file.scenarios),
            only,
            reference: file.reference.as_deref().map(resolve),
            reference_column: file.reference_column,
            planners,
            sample: file.sample,
            groups: file.groups,
            meshes: file.meshes.as_deref().map(resolve),
            cpds: file.cpds.as_deref().map(resolve),
            hubs: file.hubs.as_deref().map(resolve),
            generate: file.generate,
        })
    }

    /// The given mesh of `map` in the suite's `meshes` directory (`NAME-merged.mesh`, else
    /// `NAME.mesh`), if the suite has one.
    pub fn mesh_of(&self, map: &str) -> Option<PathBuf> {
        let dir = self.meshes.as_ref()?;
        let merged = dir.join(format!("{map}-merged.mesh"));
        if merged.is_file() {
            return Some(merged);
        }
        Some(dir.join(format!("{map}.mesh")))
    }

    /// The CPD file of `map` in the suite's `cpds` directory (`NAME.cpd`), if the suite has one.
    pub fn cpd_of(&self, map: &str) -> Option<PathBuf> {
        Some(self.cpds.as_ref()?.join(format!("{map}.cpd")))
    }

    /// The hub index of `map` in the suite's `hubs` directory (`NAME.hub`), if the suite has
    /// one.
    pub fn hub_of(&self, map: &str) -> Option<PathBuf> {
        Some(self.hubs.as_ref()?.join(format!("{map}.hub")))
    }

    /// Whether the suite's map and scenario directories exist (false before the data is
    /// fetched); for a generated suite, whether every map and scenario file is there (false
    /// before [`Suite::generate_missing`]).
    pub fn has_data(&self) -> bool {
        if let Some(g) = &self.generate {
            return g.specs().iter().all(|s| {
                let (map, scen, _) = crate::big::files_of(&self.maps, &s.name());
                map.is_file() && scen.is_file()
            });
        }
        self.maps.is_dir() && self.scenarios.is_dir()
    }

    /// For a generated suite, writes its maps that are missing or stale ([`crate::big::ensure`])
    /// and returns how many it wrote; 0 for any other suite.
    ///
    /// # Errors
    /// As [`crate::big::ensure`].
    pub fn generate_missing(&self, progress: bool) -> Result<usize, BenchError> {
        let Some(g) = &self.generate else {
            return Ok(0);
        };
        let done = crate::big::ensure(&g.specs(), &self.maps, false, progress)?;
        Ok(done.iter().filter(|d| d.written).count())
    }

    /// The scenario files of the suite, sorted by name, as (map name without `.map`, path).
    ///
    /// # Errors
    /// [`BenchError::Data`] when the scenario directory cannot be read, or when a map named in
    /// `only` has no scenario file.
    pub fn scenario_files(&self) -> Result<Vec<(String, PathBuf)>, BenchError> {
        let missing = |msg: String| BenchError::Data {
            path: self.scenarios.clone(),
            msg,
        };
        let entries = std::fs::read_dir(&self.scenarios).map_err(|e| missing(e.to_string()))?;
        let mut files = Vec::new();
        for entry in entries {
            let path = entry.map_err(|e| missing(e.to_string()))?.path();
            let Some(file) = path.file_name().and_then(|f| f.to_str()) else {
                continue;
            };
            if let Some(map) = file.strip_suffix(".map.scen")
                && (self.only.is_empty() || self.only.iter().any(|m| m == map))
            {
                files.push((map.to_owned(), path.clone()));
            }
        }
        files.sort();
        for m in &self.only {
            if !files.iter().any(|(name, _)| name == m) {
                return Err(missing(format!("no scenario file {m}.map.scen")));
            }
        }
        if files.is_empty() {
            return Err(missing("no .map.scen files".into()));
        }
        Ok(files)
    }

    /// The summary rows a map counts in besides the suite's own: the groups whose prefix it has.
    pub fn groups_of<'a>(&'a self, map: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.groups
            .iter()
            .filter(move |(_, prefix)| map.starts_with(prefix.as_str()))
            .map(|(name, _)| name.as_str())
    }
}

/// The suite files of a directory (`*.toml`), sorted by name.
///
/// # Errors
/// [`BenchError::Data`] when the directory cannot be read.
pub fn suite_files(dir: &Path) -> Result<Vec<PathBuf>, BenchError> {
    let err = |e: std::io::Error| BenchError::Data {
        path: dir.to_owned(),
        msg: e.to_string(),
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let path = entry.map_err(err)?.path();
        if path.extension().is_some_and(|e| e == "toml") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}
