//! The table of planner kinds: every grid planner of the workspace by name, with its options,
//! its promise, what it needs built and how to build it.
//!
//! Algorithm crates know nothing of each other; [`PLANNERS`] is the one place that lists them
//! all. Parsing a planner name ([`Algo`]'s `FromStr`), the list of every planner
//! ([`Algo::all`]), the help text of the command line, every error message that lists options,
//! the docs table ([`markdown_table`]) and the differential tests' set of optimal planners
//! ([`optimal`]) are all read off this table. A planner is built from a prepared map
//! ([`crate::Map::planner`]), which builds what the planner needs once and shares it.
//!
//! ```
//! use taut::{Grid, Map, Point};
//! use taut::registry::PlannerSpec;
//!
//! let map = Map::new(Grid::from_ascii(&["....", ".@@.", "...."]).unwrap());
//! let spec: PlannerSpec = "polyanya:no-cul-de-sac".parse().unwrap();
//! // The mesh is built on first use and shared by every planner and thread of the map.
//! let mut planner = map.planner(&spec).unwrap();
//! let mut answer = taut::Answer::default();
//! planner.plan(Point::new(0, 1), Point::new(3, 2), &mut answer).unwrap();
//! // Under the block: (0, 1) -> (1, 2) -> (3, 2).
//! assert!((answer.length - (2.0 + 2f64.sqrt())).abs() < taut::LENGTH_TOLERANCE);
//! assert_eq!(planner.guarantee(), taut::Guarantee::Optimal);
//! ```

#[cfg(feature = "cpd")]
use taut_cpd::Stop;
#[cfg(feature = "cpd")]
use taut_grid::Factor;
use taut_grid::Planner;

use std::sync::Arc;

use taut_grid::Grid;
use taut_mesh::Mesh;

use crate::setup::SetupError;

/// What a planner kind's builder may ask of a prepared map ([`crate::Map`] is the one
/// implementation): the grid, and each thing built once and shared.
pub trait Sources {
    /// The grid.
    fn grid(&self) -> &Arc<Grid>;
    /// The mesh `choice` selects, built or read on first use.
    ///
    /// # Errors
    /// When it cannot be built or read, or is not a mesh of the map.
    fn mesh(&self, choice: MeshChoice) -> Result<Arc<Mesh>, SetupError>;
    /// End Point Search's mesh and CPD, built or read on first use. Feature `cpd`.
    ///
    /// # Errors
    /// When the CPD cannot be built or read, or belongs to another mesh.
    #[cfg(feature = "cpd")]
    fn eps(&self, choice: MeshChoice) -> Result<Arc<taut_cpd::Eps>, SetupError>;
    /// The hub index, built or read on first use. Feature `hub`.
    ///
    /// # Errors
    /// When the index cannot be built or read, or belongs to another map or mesh.
    #[cfg(feature = "hub")]
    fn hub_index(&self, choice: MeshChoice) -> Result<Arc<taut_hub::HubIndex>, SetupError>;
    /// The planner `auto` answers with now.
    fn auto_algo(&self) -> Algo;
}

/// A planner that owns what it uses (the grid in an `Arc`, its mesh, CPD or index shared):
/// `'static` and `Send`, one per thread.
pub type BoxedPlanner = Box<dyn Planner + Send + 'static>;

/// A planner by its name in [`PLANNERS`]. Not exhaustive: features add planners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Algo {
    /// `auto`: the fastest exact any-angle planner for the map and what has been built for it
    /// ([`crate::Map::auto_algo`]).
    Auto,
    /// `astar`, `theta`, `lazy-theta`, `vg` (see [`taut_baselines::Baseline`]).
    Baseline(taut_baselines::Baseline),
    /// `anya`: Anya (optimal any-angle lengths, online).
    Anya,
    /// `polyanya`: Polyanya on a navigation mesh of the map (optimal, online).
    Polyanya,
    /// `ray`: ray scanning over convex corners (optimal any-angle lengths, online).
    Ray,
    /// `eps`: End Point Search over a compressed path database of a navigation mesh of the
    /// map (optimal, or first / bounded with [`Tuning::eps`]). Feature `cpd`.
    #[cfg(feature = "cpd")]
    Eps,
    /// `hub`: hub labels over the corners of a navigation mesh of the map (optimal). Feature
    /// `hub`.
    #[cfg(feature = "hub")]
    Hub,
}

/// What a planner needs built for the map before it can answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Needs {
    /// The grid alone.
    Grid,
    /// A navigation mesh of the map's free space (built in milliseconds, or read).
    Mesh,
    /// A mesh and its compressed path database (`taut cpd build`: seconds to hours).
    Cpd,
    /// A mesh and its hub index (`taut hub build`: seconds, and memory).
    Hub,
    /// Whatever the planner it picks needs; it never builds a CPD or hub index itself.
    Chosen,
}

impl Needs {
    /// Whether the planner answers online: it needs nothing built but, at most, a mesh (the
    /// planners that search, `auto` among them; not End Point Search's CPD or the hub index).
    pub fn is_online(self) -> bool {
        matches!(self, Needs::Grid | Needs::Mesh | Needs::Chosen)
    }

    /// The word the docs and the help text use.
    pub fn describe(self) -> &'static str {
        match self {
            Needs::Grid => "nothing",
            Needs::Mesh => "a mesh (built on first use)",
            Needs::Cpd => "a mesh and its CPD (`taut cpd build`)",
            Needs::Hub => "a mesh and its hub index (`taut hub build`)",
            Needs::Chosen => "what the chosen planner needs, never a CPD or index of its own",
        }
    }
}

/// One option a planner kind takes in a spec (`NAME:OPT+OPT`).
#[derive(Debug, Clone, Copy)]
pub struct PlannerOption {
    /// As written in a spec: a flag (`no-cul-de-sac`) or a key with a value (`q=F`).
    pub name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// Applies the option to `tuning`: `value` is the text after `=` (empty for a flag).
    /// `false` when the value is not one the option takes.
    set: fn(&mut Tuning, &str) -> bool,
}

impl PlannerOption {
    /// The key before `=` (the whole name for a flag).
    pub fn key(&self) -> &'static str {
        self.name.split_once('=').map_or(self.name, |(k, _)| k)
    }

    /// Whether the option takes a value (`q=F`).
    pub fn takes_value(&self) -> bool {
        self.name.contains('=')
    }
}

/// One planner kind: its name, options, promise, needs and how to build it.
#[derive(Debug, Clone, Copy)]
pub struct PlannerKind {
    /// The planner.
    pub algo: Algo,
    /// Its name (`--algo NAME`, `NAME:OPT` in the bench, `grid.path(s, g, "NAME")`).
    pub name: &'static str,
    /// What it is, in one line.
    pub summary: &'static str,
    /// What it promises, in words (each built planner states it exactly:
    /// [`Planner::guarantee`]).
    pub promise: &'static str,
    /// Whether its default options give optimal any-angle lengths (the differential tests
    /// compare every such planner with every other).
    pub exact: bool,
    /// What it needs built.
    pub needs: Needs,
    /// The options it takes.
    pub options: &'static [PlannerOption],
    /// The cargo feature of the facade that brings it in (`None`: always there).
    pub feature: Option<&'static str>,
    /// Builds one for `map` with `tuning`.
    build: fn(&dyn Sources, &Tuning) -> Result<BoxedPlanner, SetupError>,
}

impl PlannerKind {
    /// Builds a planner of this kind for `map` (see [`crate::Map::planner`]).
    ///
    /// # Errors
    /// [`SetupError`] when what it needs cannot be built or read.
    pub fn build(&self, map: &dyn Sources, tuning: &Tuning) -> Result<BoxedPlanner, SetupError> {
        (self.build)(map, tuning)
    }

    /// The option spelled `opt` (`no-cul-de-sac`, `q=1.05`), applied to `tuning`.
    fn apply(&self, opt: &str, tuning: &mut Tuning) -> bool {
        let (key, value) = opt.split_once('=').unwrap_or((opt, ""));
        self.options.iter().any(|o| {
            if o.takes_value() {
                // `q=1.05`, and the bench's older spelling `q1.05`.
                let value = if o.key() == key {
                    Some(value)
                } else {
                    opt.strip_prefix(o.key()).filter(|v| !v.is_empty())
                };
                value.is_some_and(|v| (o.set)(tuning, v))
            } else {
                o.name == opt && (o.set)(tuning, "")
            }
        })
    }

    /// The options as the help text and error messages list them: `a, b, q=F`.
    pub fn option_list(&self) -> String {
        if self.options.is_empty() {
            return "none".to_owned();
        }
        self.options
            .iter()
            .map(|o| o.name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

const ANYA_OPTIONS: &[PlannerOption] = &[
    PlannerOption {
        name: "no-cul-de-sac",
        help: "turn cul-de-sac pruning off",
        set: |t, _| {
            t.anya.cul_de_sac = false;
            true
        },
    },
    PlannerOption {
        name: "no-intermediate",
        help: "turn intermediate pruning off",
        set: |t, _| {
            t.anya.intermediate = false;
            true
        },
    },
    PlannerOption {
        name: "auto",
        help: "root history in a flat array on small maps, a hash table on large ones (the default)",
        set: |t, _| {
            t.anya.history = taut_anya::RootHistory::Auto;
            true
        },
    },
    PlannerOption {
        name: "hash",
        help: "root history in a hash table",
        set: |t, _| {
            t.anya.history = taut_anya::RootHistory::Hash;
            true
        },
    },
    PlannerOption {
        name: "flat",
        help: "root history in a flat array over the map's points",
        set: |t, _| {
            t.anya.history = taut_anya::RootHistory::Flat;
            true
        },
    },
];

const POLYANYA_OPTIONS: &[PlannerOption] = &[
    PlannerOption {
        name: "no-cul-de-sac",
        help: "turn cul-de-sac pruning off",
        set: |t, _| {
            t.polyanya.cul_de_sac = false;
            true
        },
    },
    PlannerOption {
        name: "no-intermediate",
        help: "turn intermediate pruning off",
        set: |t, _| {
            t.polyanya.intermediate = false;
            true
        },
    },
    PlannerOption {
        name: "reference",
        help: "search the given mesh (--mesh FILE, a suite's `meshes` directory) instead of taut's mesh of the grid",
        set: |t, _| {
            t.mesh = MeshChoice::Given;
            true
        },
    },
];

#[cfg(feature = "cpd")]
const EPS_OPTIONS: &[PlannerOption] = &[
    PlannerOption {
        name: "first",
        help: "stop at the first path found",
        set: |t, _| {
            t.eps = EpsStop::First;
            true
        },
    },
    PlannerOption {
        name: "q=F",
        help: "stop at a path within factor F >= 1 of a proven lower bound",
        set: |t, v| match parse_factor(v) {
            Some(q) => {
                t.eps = q;
                true
            }
            None => false,
        },
    },
    PlannerOption {
        name: "reference",
        help: "search the given mesh (--mesh FILE) instead of taut's mesh of the grid",
        set: |t, _| {
            t.mesh = MeshChoice::Given;
            true
        },
    },
];

#[cfg(feature = "hub")]
const HUB_OPTIONS: &[PlannerOption] = &[PlannerOption {
    name: "reference",
    help: "build on the given mesh (--mesh FILE) instead of taut's mesh of the grid",
    set: |t, _| {
        t.mesh = MeshChoice::Given;
        true
    },
}];

fn baseline(map: &dyn Sources, b: taut_baselines::Baseline) -> BoxedPlanner {
    use taut_baselines::{astar, theta, vg};
    let grid = map.grid().clone();
    match b {
        taut_baselines::Baseline::AStar => Box::new(astar::AStarPlanner::new(grid)),
        taut_baselines::Baseline::Theta => {
            Box::new(theta::ThetaPlanner::new(grid, theta::Variant::Theta))
        }
        taut_baselines::Baseline::LazyTheta => {
            Box::new(theta::ThetaPlanner::new(grid, theta::Variant::Lazy))
        }
        taut_baselines::Baseline::Vg => Box::new(vg::VgPlanner::new(grid)),
    }
}

/// Every planner kind of this build (End Point Search with feature `cpd`, hub labels with
/// feature `hub`), `auto` first.
pub static PLANNERS: &[PlannerKind] = &[
    PlannerKind {
        algo: Algo::Auto,
        name: "auto",
        summary: "the fastest exact any-angle planner for the map and what has been built for it",
        promise: "optimal any-angle lengths",
        exact: true,
        needs: Needs::Chosen,
        options: &[],
        feature: None,
        build: |map, _| {
            let algo = map.auto_algo();
            kind(algo).build(map, &Tuning::default())
        },
    },
    PlannerKind {
        algo: Algo::Anya,
        name: "anya",
        summary: "Anya: intervals of grid rows, online (Harabor et al., JAIR 2016)",
        promise: "optimal any-angle lengths",
        exact: true,
        needs: Needs::Grid,
        options: ANYA_OPTIONS,
        feature: None,
        build: |map, t| {
            Ok(Box::new(taut_anya::AnyaPlanner::with_options(
                map.grid().clone(),
                t.anya,
            )))
        },
    },
    PlannerKind {
        algo: Algo::Ray,
        name: "ray",
        summary: "ray scanning: A* over convex corners, rays and boundary walks, online (after Hechenberger et al., ICAPS 2020)",
        promise: "optimal any-angle lengths",
        exact: true,
        needs: Needs::Grid,
        options: &[],
        feature: None,
        build: |map, _| Ok(Box::new(taut_ray::RayPlanner::new(map.grid().clone()))),
    },
    PlannerKind {
        algo: Algo::Polyanya,
        name: "polyanya",
        summary: "Polyanya: intervals of navigation-mesh edges, online (Cui et al., IJCAI 2017)",
        promise: "optimal any-angle lengths",
        exact: true,
        needs: Needs::Mesh,
        options: POLYANYA_OPTIONS,
        feature: None,
        build: |map, t| {
            let mesh = map.mesh(t.mesh)?;
            Ok(Box::new(taut_polyanya::PolyanyaPlanner::with_options(
                map.grid().clone(),
                mesh,
                t.polyanya,
            )))
        },
    },
    #[cfg(feature = "cpd")]
    PlannerKind {
        algo: Algo::Eps,
        name: "eps",
        summary: "End Point Search over a compressed path database (Shen et al., IJCAI 2020); anytime",
        promise: "optimal any-angle lengths (first: any path; q=F: within F of the optimum)",
        exact: true,
        needs: Needs::Cpd,
        options: EPS_OPTIONS,
        feature: Some("cpd"),
        build: |map, t| {
            let eps = map.eps(t.mesh)?;
            Ok(Box::new(taut_cpd::EpsPlanner::new(
                map.grid().clone(),
                eps,
                t.eps.stop(),
            )))
        },
    },
    #[cfg(feature = "hub")]
    PlannerKind {
        algo: Algo::Hub,
        name: "hub",
        summary: "hub labels over the mesh's corners (after Du et al., AAAI 2023)",
        promise: "optimal any-angle lengths",
        exact: true,
        needs: Needs::Hub,
        options: HUB_OPTIONS,
        feature: Some("hub"),
        build: |map, t| {
            let index = map.hub_index(t.mesh)?;
            let planner = taut_hub::HubPlanner::new(map.grid().clone(), index)
                .map_err(SetupError::HubStale)?;
            Ok(Box::new(planner))
        },
    },
    PlannerKind {
        algo: Algo::Baseline(taut_baselines::Baseline::Vg),
        name: "vg",
        summary: "A* on the visibility graph of the map's convex corners (slow; a test oracle)",
        promise: "optimal any-angle lengths",
        exact: true,
        needs: Needs::Grid,
        options: &[],
        feature: None,
        build: |map, _| Ok(baseline(map, taut_baselines::Baseline::Vg)),
    },
    PlannerKind {
        algo: Algo::Baseline(taut_baselines::Baseline::AStar),
        name: "astar",
        summary: "A* on the 8-connected grid, no corner cutting",
        promise: "optimal octile lengths (not any-angle)",
        exact: false,
        needs: Needs::Grid,
        options: &[],
        feature: None,
        build: |map, _| Ok(baseline(map, taut_baselines::Baseline::AStar)),
    },
    PlannerKind {
        algo: Algo::Baseline(taut_baselines::Baseline::Theta),
        name: "theta",
        summary: "Theta*: A* with line-of-sight shortcuts",
        promise: "any-angle paths, no bound on length",
        exact: false,
        needs: Needs::Grid,
        options: &[],
        feature: None,
        build: |map, _| Ok(baseline(map, taut_baselines::Baseline::Theta)),
    },
    PlannerKind {
        algo: Algo::Baseline(taut_baselines::Baseline::LazyTheta),
        name: "lazy-theta",
        summary: "Lazy Theta*: Theta* checking line of sight on expansion",
        promise: "any-angle paths, no bound on length",
        exact: false,
        needs: Needs::Grid,
        options: &[],
        feature: None,
        build: |map, _| Ok(baseline(map, taut_baselines::Baseline::LazyTheta)),
    },
];

/// The table entry of `algo`.
///
/// # Panics
/// Never for an `Algo` of this build: every variant has an entry (a test checks it).
pub fn kind(algo: Algo) -> &'static PlannerKind {
    PLANNERS
        .iter()
        .find(|k| k.algo == algo)
        .expect("every Algo has an entry in PLANNERS")
}

/// The planner kinds whose default options give optimal any-angle lengths, `auto` left out
/// (it is one of the others): the set the differential tests compare.
pub fn optimal() -> impl Iterator<Item = &'static PlannerKind> {
    PLANNERS.iter().filter(|k| k.exact && k.algo != Algo::Auto)
}

/// The planner table as Markdown (`docs/planners.md` is this text; a test keeps it so).
pub fn markdown_table() -> String {
    let mut s = String::from(
        "| name | what | promise | needs built | options | feature |\n|---|---|---|---|---|---|\n",
    );
    for k in PLANNERS {
        let options = if k.options.is_empty() {
            "none".to_owned()
        } else {
            k.options
                .iter()
                .map(|o| format!("`{}`: {}", o.name, o.help))
                .collect::<Vec<_>>()
                .join("; ")
        };
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            k.name,
            k.summary,
            k.promise,
            k.needs.describe(),
            options,
            k.feature.map_or("always".to_owned(), |f| format!("`{f}`")),
        ));
    }
    s
}

/// The help text of `--algo`: every planner with its summary and options.
pub fn help_text() -> String {
    PLANNERS
        .iter()
        .map(|k| {
            let opts = if k.options.is_empty() {
                String::new()
            } else {
                format!(" [options: {}]", k.option_list())
            };
            format!("{}: {}{opts}", k.name, k.summary)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Algo {
    /// Every planner of this build, in the table's order (`auto` first).
    pub fn all() -> impl Iterator<Item = Algo> {
        PLANNERS.iter().map(|k| k.algo)
    }

    /// Its table entry.
    pub fn kind(self) -> &'static PlannerKind {
        kind(self)
    }

    /// What it needs built.
    pub fn needs(self) -> Needs {
        kind(self).needs
    }

    /// Whether it searches a navigation mesh of the map (needs a mesh, CPD or hub index).
    pub fn needs_mesh(self) -> bool {
        matches!(self.needs(), Needs::Mesh | Needs::Cpd | Needs::Hub)
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        kind(self).name
    }
}

impl std::fmt::Display for Algo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown planner name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm {0:?} (expected one of: {names})", names = names())]
pub struct UnknownAlgo(pub String);

/// The names of [`PLANNERS`], comma-separated.
pub fn names() -> String {
    PLANNERS
        .iter()
        .map(|k| k.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl std::str::FromStr for Algo {
    type Err = UnknownAlgo;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PLANNERS
            .iter()
            .find(|k| k.name == s)
            .map(|k| k.algo)
            .ok_or_else(|| UnknownAlgo(s.to_owned()))
    }
}

/// When End Point Search stops (`eps`, `eps:first`, `eps:q=1.05`). Feature `cpd`.
#[cfg(feature = "cpd")]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum EpsStop {
    /// With a path proven shortest.
    #[default]
    Optimal,
    /// With the first path found.
    First,
    /// With a path at most this factor above a proven lower bound.
    Within(Factor),
}

#[cfg(feature = "cpd")]
impl EpsStop {
    /// The stop rule of [`taut_cpd::EpsContext::search`].
    pub fn stop(self) -> Stop {
        match self {
            EpsStop::Optimal => Stop::Optimal,
            EpsStop::First => Stop::First,
            EpsStop::Within(q) => Stop::Within(q.0),
        }
    }
}

/// `F` of `q=F`: a finite factor of at least 1 (1 is the optimum).
#[cfg(feature = "cpd")]
fn parse_factor(f: &str) -> Option<EpsStop> {
    let q = f
        .parse::<f64>()
        .ok()
        .filter(|q| q.is_finite() && *q >= 1.0)?;
    Some(if q == 1.0 {
        EpsStop::Optimal
    } else {
        EpsStop::Within(Factor(q))
    })
}

/// A stop rule that is not `optimal`, `first` or `q=F` with a factor F ≥ 1.
#[cfg(feature = "cpd")]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not an EPS stop rule: expected optimal, first, or q=F with a factor F >= 1 (e.g. q=1.05)"
)]
pub struct BadEpsStop(pub String);

#[cfg(feature = "cpd")]
impl std::str::FromStr for EpsStop {
    type Err = BadEpsStop;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "optimal" {
            return Ok(EpsStop::Optimal);
        }
        let mut t = Tuning::default();
        if kind(Algo::Eps).apply(s, &mut t) && t.mesh == MeshChoice::Built {
            Ok(t.eps)
        } else {
            Err(BadEpsStop(s.to_owned()))
        }
    }
}

/// Which mesh a mesh planner searches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum MeshChoice {
    /// The mesh taut builds from the grid (`taut_mesh::mesh_from_grid`).
    #[default]
    Built,
    /// A mesh given from outside ([`crate::Map::with_mesh_file`]): the CLI's `--mesh FILE`,
    /// or the bench suite's `meshes` directory (`NAME-merged.mesh`).
    Given,
}

impl MeshChoice {
    pub(crate) fn slot(self) -> usize {
        match self {
            MeshChoice::Built => 0,
            MeshChoice::Given => 1,
        }
    }
}

/// Options that only some planners read (the others ignore them). Not exhaustive (feature
/// `cpd` adds End Point Search's): start from `Tuning::default()`, or parse a
/// [`PlannerSpec`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tuning {
    /// Anya's pruning and root-history options.
    pub anya: taut_anya::Options,
    /// Polyanya's pruning options (the ambiguity rule is always the grid's).
    pub polyanya: taut_polyanya::Options,
    /// The mesh Polyanya and End Point Search search, and hub labels are built on.
    pub mesh: MeshChoice,
    /// When End Point Search stops.
    #[cfg(feature = "cpd")]
    pub eps: EpsStop,
}

/// A planner with its options, as the bench names it: `NAME` or `NAME:OPT+OPT`, with the
/// options of its [`PLANNERS`] entry (e.g. `anya:no-cul-de-sac+hash`, `polyanya:reference`,
/// `eps:q=1.05`).
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

/// A planner name or option the table does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadPlannerSpec {
    /// The planner name is unknown.
    #[error(transparent)]
    Algo(#[from] UnknownAlgo),
    /// The option is unknown or does not apply to this planner.
    #[error("{planner} has no option {option:?} ({planner} takes: {takes})")]
    Option {
        /// The planner.
        planner: String,
        /// The option.
        option: String,
        /// The options it takes, from the table.
        takes: String,
    },
}

impl std::str::FromStr for PlannerSpec {
    type Err = BadPlannerSpec;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, opts) = s.split_once(':').unwrap_or((s, ""));
        let algo: Algo = name.parse()?;
        let k = kind(algo);
        let mut tuning = Tuning::default();
        for opt in opts.split('+').filter(|o| !o.is_empty()) {
            if !k.apply(opt, &mut tuning) {
                return Err(BadPlannerSpec::Option {
                    planner: name.to_owned(),
                    option: opt.to_owned(),
                    takes: k.option_list(),
                });
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
    use crate::Map;
    use taut_grid::{Guarantee, PathModel};

    #[test]
    fn planner_specs_parse_with_their_options() {
        let s: PlannerSpec = "anya:no-cul-de-sac+hash".parse().unwrap();
        assert_eq!(s.algo, Algo::Anya);
        assert!(!s.tuning.anya.cul_de_sac && s.tuning.anya.intermediate);
        assert_eq!(s.tuning.anya.history, taut_anya::RootHistory::Hash);
        assert_eq!(s.to_string(), "anya:no-cul-de-sac+hash");
        assert_eq!(
            "astar".parse::<PlannerSpec>().unwrap(),
            PlannerSpec::plain(Algo::Baseline(taut_baselines::Baseline::AStar))
        );
        let e = "astar:hash".parse::<PlannerSpec>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "astar has no option \"hash\" (astar takes: none)"
        );
        let e = "anya:fast".parse::<PlannerSpec>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "anya has no option \"fast\" (anya takes: no-cul-de-sac, no-intermediate, auto, hash, flat)"
        );
        assert!("dijkstra".parse::<PlannerSpec>().is_err());
        let s: PlannerSpec = "polyanya:reference+no-intermediate".parse().unwrap();
        assert_eq!(s.algo, Algo::Polyanya);
        assert_eq!(s.tuning.mesh, MeshChoice::Given);
        assert!(!s.tuning.polyanya.intermediate && s.tuning.polyanya.cul_de_sac);
        assert!("polyanya:hash".parse::<PlannerSpec>().is_err());
        assert_eq!("auto".parse::<Algo>(), Ok(Algo::Auto));
    }

    #[cfg(feature = "cpd")]
    #[test]
    fn eps_stop_rules_parse() {
        let s: PlannerSpec = "eps".parse().unwrap();
        assert_eq!(s.tuning.eps, EpsStop::Optimal);
        let s: PlannerSpec = "eps:first".parse().unwrap();
        assert_eq!(s.tuning.eps, EpsStop::First);
        for spelled in ["eps:q=1.05", "eps:q1.05"] {
            let s: PlannerSpec = spelled.parse().unwrap();
            assert_eq!(s.tuning.eps, EpsStop::Within(Factor(1.05)), "{spelled}");
        }
        assert!("eps:q0.9".parse::<PlannerSpec>().is_err());
        assert!("eps:q=0.9".parse::<PlannerSpec>().is_err());
        assert!("eps:qx".parse::<PlannerSpec>().is_err());
        assert!("eps:hash".parse::<PlannerSpec>().is_err());
        assert_eq!(
            "q=1.05".parse::<EpsStop>(),
            Ok(EpsStop::Within(Factor(1.05)))
        );
        assert_eq!("optimal".parse::<EpsStop>(), Ok(EpsStop::Optimal));
        assert_eq!("q1".parse::<EpsStop>(), Ok(EpsStop::Optimal));
        assert!("reference".parse::<EpsStop>().is_err());
    }

    /// Every `Algo` variant of this build has exactly one entry, under a distinct name, and
    /// every option of an entry parses back: no planner exists outside the table.
    #[test]
    fn every_planner_is_in_the_table_once() {
        let variants = [
            Algo::Auto,
            Algo::Anya,
            Algo::Ray,
            Algo::Polyanya,
            #[cfg(feature = "cpd")]
            Algo::Eps,
            #[cfg(feature = "hub")]
            Algo::Hub,
        ]
        .into_iter()
        .chain(taut_baselines::Baseline::ALL.map(Algo::Baseline));
        let mut n = 0;
        for algo in variants {
            // A new variant without an arm here fails to compile (the match is exhaustive).
            match algo {
                Algo::Auto | Algo::Anya | Algo::Ray | Algo::Polyanya | Algo::Baseline(_) => {}
                #[cfg(feature = "cpd")]
                Algo::Eps => {}
                #[cfg(feature = "hub")]
                Algo::Hub => {}
            }
            assert_eq!(
                PLANNERS.iter().filter(|k| k.algo == algo).count(),
                1,
                "{algo:?}"
            );
            assert_eq!(algo.name().parse::<Algo>(), Ok(algo));
            n += 1;
        }
        assert_eq!(PLANNERS.len(), n);
        for k in PLANNERS {
            for o in k.options {
                let spelled = if o.takes_value() {
                    format!("{}:{}=1.5", k.name, o.key())
                } else {
                    format!("{}:{}", k.name, o.name)
                };
                assert!(spelled.parse::<PlannerSpec>().is_ok(), "{spelled}");
            }
        }
        let table = markdown_table();
        assert_eq!(table.lines().count(), PLANNERS.len() + 2);
        assert!(help_text().lines().count() == PLANNERS.len());
    }

    /// `docs/planners.md` holds the table as this build prints it (with every planner's
    /// feature on).
    #[cfg(all(feature = "cpd", feature = "hub"))]
    #[test]
    fn the_docs_table_is_the_table() {
        let doc = include_str!("../../../docs/planners.md");
        let begin = "<!-- planners:table:begin -->\n";
        let start = doc.find(begin).expect("begin marker") + begin.len();
        let end = doc.find("<!-- planners:table:end -->").expect("end marker");
        assert_eq!(
            &doc[start..end],
            markdown_table(),
            "docs/planners.md is stale: paste `taut planners --markdown` between its markers"
        );
    }

    /// Every planner the table builds says what it promises, and only End Point Search is
    /// anytime: the bench, the CLI and the differential tests read exactly this.
    #[test]
    fn built_planners_state_their_guarantees() {
        let grid = Grid::from_ascii(&["......", ".@@...", "...@..", "......"]).unwrap();
        let map = Map::new(grid);
        #[allow(unused_mut)]
        let mut specs = vec![
            ("auto", Guarantee::Optimal, PathModel::AnyAngle),
            ("astar", Guarantee::Optimal, PathModel::Octile),
            ("theta", Guarantee::Any, PathModel::AnyAngle),
            ("lazy-theta", Guarantee::Any, PathModel::AnyAngle),
            ("vg", Guarantee::Optimal, PathModel::AnyAngle),
            ("anya", Guarantee::Optimal, PathModel::AnyAngle),
            (
                "anya:no-intermediate",
                Guarantee::Optimal,
                PathModel::AnyAngle,
            ),
            ("polyanya", Guarantee::Optimal, PathModel::AnyAngle),
        ];
        #[cfg(feature = "hub")]
        specs.push(("hub", Guarantee::Optimal, PathModel::AnyAngle));
        #[cfg(feature = "cpd")]
        specs.extend([
            ("eps", Guarantee::Optimal, PathModel::AnyAngle),
            ("eps:first", Guarantee::Any, PathModel::AnyAngle),
            (
                "eps:q=1.5",
                Guarantee::WithinFactor(Factor(1.5)),
                PathModel::AnyAngle,
            ),
        ]);
        for (name, guarantee, model) in specs {
            let spec: PlannerSpec = name.parse().unwrap();
            let mut planner = map.planner(&spec).unwrap();
            assert_eq!(planner.guarantee(), guarantee, "{name}");
            assert_eq!(planner.path_model(), model, "{name}");
            #[cfg(feature = "cpd")]
            let anytime = spec.algo == Algo::Eps;
            #[cfg(not(feature = "cpd"))]
            let anytime = false;
            assert_eq!(planner.anytime().is_some(), anytime, "{name}");
            let kind = spec.algo.kind();
            if spec.label == kind.name && spec.algo != Algo::Auto {
                assert_eq!(
                    kind.exact,
                    guarantee == Guarantee::Optimal && model == PathModel::AnyAngle,
                    "{name}: the table's `exact` must say what the planner promises"
                );
            }
        }
    }
}
