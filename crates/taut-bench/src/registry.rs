//! Every grid planner of the workspace by command-line name, and the factory that builds them.
//!
//! Algorithm crates know nothing of each other; this is the one place that lists them all.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use taut_anya::{AnyaPlanner, Options};
use taut_grid::{Grid, Planner};
use taut_polyanya::{Mesh, PolyanyaPlanner};

/// A planner by its command-line name: a baseline of `taut-baselines`, Anya or Polyanya.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algo {
    /// `astar`, `theta`, `lazy-theta`, `vg` (see [`taut_baselines::Algo`]).
    Baseline(taut_baselines::Algo),
    /// `anya`: Anya (optimal any-angle lengths, online).
    Anya,
    /// `polyanya`: Polyanya on a navigation mesh of the map (optimal, online).
    Polyanya,
}

impl Algo {
    /// Every planner.
    pub const ALL: [Algo; 6] = {
        let b = taut_baselines::Algo::ALL;
        [
            Algo::Baseline(b[0]),
            Algo::Baseline(b[1]),
            Algo::Baseline(b[2]),
            Algo::Baseline(b[3]),
            Algo::Anya,
            Algo::Polyanya,
        ]
    };

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Baseline(b) => b.name(),
            Algo::Anya => "anya",
            Algo::Polyanya => "polyanya",
        }
    }
}

/// What a planner promises about its lengths, which decides what the bench checks them against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Guarantee {
    /// The shortest 8-connected path: equal to a scenario file's octile column.
    OctileOptimal,
    /// The shortest any-angle path: equal to the reference optimum, never above the octile one.
    AnyAngleOptimal,
    /// A legal any-angle path, not necessarily shortest: never below the optimum.
    AnyAngleFeasible,
}

impl Algo {
    /// What this planner's lengths promise.
    pub fn guarantee(self) -> Guarantee {
        use taut_baselines::Algo as B;
        match self {
            Algo::Baseline(B::AStar) => Guarantee::OctileOptimal,
            Algo::Baseline(B::Theta | B::LazyTheta) => Guarantee::AnyAngleFeasible,
            Algo::Baseline(B::Vg) | Algo::Anya | Algo::Polyanya => Guarantee::AnyAngleOptimal,
        }
    }
}

impl std::fmt::Display for Algo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown planner name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm {0:?} (expected one of: astar, theta, lazy-theta, vg, anya, polyanya)")]
pub struct UnknownAlgo(pub String);

impl std::str::FromStr for Algo {
    type Err = UnknownAlgo;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "anya" => return Ok(Algo::Anya),
            "polyanya" => return Ok(Algo::Polyanya),
            _ => {}
        }
        s.parse()
            .map(Algo::Baseline)
            .map_err(|_| UnknownAlgo(s.to_owned()))
    }
}

/// Which mesh Polyanya searches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MeshChoice {
    /// The mesh taut builds from the grid (`taut_polyanya::mesh_from_grid`).
    #[default]
    Built,
    /// A mesh given from outside: the CLI's `--mesh FILE`, or the bench suite's `meshes`
    /// directory (`NAME-merged.mesh`, as the reference Polyanya tools name them).
    Given,
}

/// Options that only some planners read (the others ignore them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tuning {
    /// Anya's pruning and root-history options.
    pub anya: Options,
    /// Polyanya's pruning options (the ambiguity rule is always the grid's).
    pub polyanya: taut_polyanya::Options,
    /// The mesh Polyanya searches.
    pub mesh: MeshChoice,
}

/// The meshes of one map that mesh planners may need, prepared by the caller (built or read
/// once per map, shared by every planner and thread).
#[derive(Debug, Clone, Default)]
pub struct MapMeshes {
    /// taut's mesh of the grid.
    pub built: Option<Arc<Mesh>>,
    /// A mesh given from outside, and where it came from.
    pub given: Option<(Arc<Mesh>, PathBuf)>,
}

/// A mesh a planner needs could not be had.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MeshSetupError {
    /// Building the mesh of the grid failed.
    #[error("building the mesh of the map failed: {0}")]
    Build(String),
    /// Reading the given mesh failed.
    #[error("{0}")]
    Read(#[from] taut_polyanya::MeshError),
    /// The given mesh does not cover the map's free space.
    #[error(
        "{} is not a mesh of this map: it covers an area of {area} within {lo:?}..{hi:?}, the map has {free} free cells within (0, 0)..({width}, {height})",
        path.display()
    )]
    Mismatch {
        /// The mesh file.
        path: PathBuf,
        /// The mesh's area.
        area: f64,
        /// Its bounding box.
        lo: (f64, f64),
        /// Its bounding box.
        hi: (f64, f64),
        /// The map's free cells.
        free: u64,
        /// Map width.
        width: i32,
        /// Map height.
        height: i32,
    },
    /// The planner wants a given mesh but none was named.
    #[error("polyanya needs a mesh file here (--mesh FILE, or a `meshes` directory in the suite)")]
    NoneGiven,
}

impl MapMeshes {
    /// Prepares what the planners `wanted` (pairs of planner and options) need: builds the
    /// grid's mesh if one wants [`MeshChoice::Built`], reads `given` if one wants
    /// [`MeshChoice::Given`]. Returns the meshes and the seconds spent building.
    ///
    /// # Errors
    /// [`MeshSetupError`] when a needed mesh cannot be built or read.
    pub fn prepare<'a>(
        grid: &Grid,
        wanted: impl IntoIterator<Item = (Algo, &'a Tuning)>,
        given: Option<&Path>,
    ) -> Result<(MapMeshes, f64), MeshSetupError> {
        let mut meshes = MapMeshes::default();
        let mut build_secs = 0.0;
        for (algo, tuning) in wanted {
            if algo != Algo::Polyanya {
                continue;
            }
            match tuning.mesh {
                MeshChoice::Built if meshes.built.is_none() => {
                    let t = std::time::Instant::now();
                    let mesh = taut_polyanya::mesh_from_grid(grid)
                        .map_err(|e| MeshSetupError::Build(e.to_string()))?;
                    build_secs = t.elapsed().as_secs_f64();
                    meshes.built = Some(Arc::new(mesh));
                }
                MeshChoice::Given if meshes.given.is_none() => {
                    let path = given.ok_or(MeshSetupError::NoneGiven)?;
                    let mesh = taut_polyanya::read_mesh(path)?;
                    check_covers(&mesh, grid, path)?;
                    meshes.given = Some((Arc::new(mesh), path.to_owned()));
                }
                _ => {}
            }
        }
        Ok((meshes, build_secs))
    }

    /// The mesh `tuning` selects, if prepared.
    pub fn get(&self, tuning: &Tuning) -> Option<&Arc<Mesh>> {
        match tuning.mesh {
            MeshChoice::Built => self.built.as_ref(),
            MeshChoice::Given => self.given.as_ref().map(|g| &g.0),
        }
    }
}

/// Checks that a given mesh is one of `grid`'s free space: inside the map and of the same area
/// (a mesh of another map, or of another free-terrain set, would answer wrongly).
fn check_covers(mesh: &Mesh, grid: &Grid, path: &Path) -> Result<(), MeshSetupError> {
    let (lo, hi) = mesh.bounds();
    let area = mesh.area();
    let free = grid.free_cells();
    let inside = lo.x >= 0.0
        && lo.y >= 0.0
        && hi.x <= f64::from(grid.width())
        && hi.y <= f64::from(grid.height());
    if inside && (area - free as f64).abs() <= 1e-6 * (1.0 + free as f64) {
        return Ok(());
    }
    Err(MeshSetupError::Mismatch {
        path: path.to_owned(),
        area,
        lo: (lo.x, lo.y),
        hi: (hi.x, hi.y),
        free,
        width: grid.width(),
        height: grid.height(),
    })
}

/// Builds a planner for `grid`. The planner owns its search context; build one per thread.
/// Mesh planners take their mesh from `meshes` ([`MapMeshes::prepare`]).
///
/// # Errors
/// [`MeshSetupError::NoneGiven`] when Polyanya's mesh was not prepared.
pub fn make_planner<'g>(
    algo: Algo,
    grid: &'g Grid,
    tuning: &Tuning,
    meshes: &MapMeshes,
) -> Result<Box<dyn Planner + Send + 'g>, MeshSetupError> {
    Ok(match algo {
        Algo::Baseline(b) => taut_baselines::make_planner(b, grid),
        Algo::Anya => Box::new(AnyaPlanner::with_options(grid, tuning.anya)),
        Algo::Polyanya => {
            let mesh = meshes.get(tuning).ok_or(MeshSetupError::NoneGiven)?;
            Box::new(PolyanyaPlanner::with_options(
                grid,
                mesh.clone(),
                tuning.polyanya,
            ))
        }
    })
}

/// A planner with its options, as the bench names it: `NAME` or `NAME:OPT+OPT`. Anya takes
/// `no-cul-de-sac`, `no-intermediate` (turn a pruning rule off) and `hash` / `flat` (where the
/// root history lives), e.g. `anya:no-cul-de-sac+no-intermediate`; Polyanya takes
/// `no-cul-de-sac`, `no-intermediate` and `reference` (search the suite's reference mesh
/// instead of taut's mesh of the grid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannerSpec {
    /// The planner.
    pub algo: Algo,
    /// Its options.
    pub tuning: Tuning,
    /// The name as written (options in the order given), used in reports.
    pub label: String,
}

impl PlannerSpec {
    /// The planner with default options.
    pub fn plain(algo: Algo) -> Self {
        PlannerSpec {
            algo,
            tuning: Tuning::default(),
            label: algo.name().to_owned(),
        }
    }
}

impl std::fmt::Display for PlannerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label)
    }
}

/// A planner name or option the bench does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPlannerSpec {
    /// The planner name is unknown.
    #[error(transparent)]
    Algo(#[from] UnknownAlgo),
    /// The option is unknown or does not apply to this planner.
    #[error(
        "{planner} has no option {option:?} (anya takes: no-cul-de-sac, no-intermediate, hash, flat; polyanya: no-cul-de-sac, no-intermediate, reference; other planners take none)"
    )]
    Option {
        /// The planner.
        planner: String,
        /// The option.
        option: String,
    },
}

impl std::str::FromStr for PlannerSpec {
    type Err = BadPlannerSpec;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, opts) = s.split_once(':').unwrap_or((s, ""));
        let algo: Algo = name.parse()?;
        let mut tuning = Tuning::default();
        for opt in opts.split('+').filter(|o| !o.is_empty()) {
            let a = &mut tuning.anya;
            let p = &mut tuning.polyanya;
            match (algo, opt) {
                (Algo::Anya, "no-cul-de-sac") => a.cul_de_sac = false,
                (Algo::Anya, "no-intermediate") => a.intermediate = false,
                (Algo::Anya, "hash") => a.history = taut_anya::RootHistory::Hash,
                (Algo::Anya, "flat") => a.history = taut_anya::RootHistory::Flat,
                (Algo::Polyanya, "no-cul-de-sac") => p.cul_de_sac = false,
                (Algo::Polyanya, "no-intermediate") => p.intermediate = false,
                (Algo::Polyanya, "reference") => tuning.mesh = MeshChoice::Given,
                _ => {
                    return Err(BadPlannerSpec::Option {
                        planner: name.to_owned(),
                        option: opt.to_owned(),
                    });
                }
            }
        }
        Ok(PlannerSpec {
            algo,
            tuning,
            label: s.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planner_specs_parse_with_their_options() {
        let s: PlannerSpec = "anya:no-cul-de-sac+hash".parse().unwrap();
        assert_eq!(s.algo, Algo::Anya);
        assert!(!s.tuning.anya.cul_de_sac && s.tuning.anya.intermediate);
        assert_eq!(s.tuning.anya.history, taut_anya::RootHistory::Hash);
        assert_eq!(s.to_string(), "anya:no-cul-de-sac+hash");
        assert_eq!(
            "astar".parse::<PlannerSpec>().unwrap(),
            PlannerSpec::plain(Algo::Baseline(taut_baselines::Algo::AStar))
        );
        let e = "astar:hash".parse::<PlannerSpec>().unwrap_err();
        assert!(
            e.to_string().contains("astar has no option \"hash\""),
            "{e}"
        );
        let e = "anya:fast".parse::<PlannerSpec>().unwrap_err();
        assert!(e.to_string().contains("no option \"fast\""), "{e}");
        assert!("dijkstra".parse::<PlannerSpec>().is_err());
        let s: PlannerSpec = "polyanya:reference+no-intermediate".parse().unwrap();
        assert_eq!(s.algo, Algo::Polyanya);
        assert_eq!(s.tuning.mesh, MeshChoice::Given);
        assert!(!s.tuning.polyanya.intermediate && s.tuning.polyanya.cul_de_sac);
        assert!("polyanya:hash".parse::<PlannerSpec>().is_err());
    }
}
