//! The argument groups and values several commands share: the planner options
//! ([`PlannerArgs`]), lattice points, free-terrain sets and picture files. Values are parsed and
//! checked here, so that a bad argument is a usage error (exit 2) before any file is read.

use std::path::PathBuf;

use clap::Args;
use taut::anya::RootHistory;
use taut::grid::{FreeSet, MOVINGAI_ALPHABET, Point};
use taut::registry::{Algo, EpsStop, MeshChoice, PlannerSpec, Tuning};

/// Options shared by every command that plans: which planner, which terrain is free.
#[derive(Debug, Clone, Args)]
pub struct PlannerArgs {
    /// The planner: a name of `taut planners` (auto, anya, ray, polyanya, eps, hub, vg,
    /// astar, theta, lazy-theta; default `auto`, the fastest exact any-angle planner for the
    /// map and what is given for it; `astar` for 8-connected paths), optionally with the
    /// table's options after a colon, as the library and Python spell them:
    /// `anya:no-cul-de-sac`, `anya:hash`, `eps:first`, `eps:q=1.05`. The flags below set the
    /// same options.
    #[arg(id = "algo", long = "algo", value_name = "ALGO", default_value = "auto",
          value_parser = parse_planner_spec)]
    pub spec: PlannerSpec,
    /// The map characters that are free terrain; every other character is blocked.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Anya and Polyanya: turn cul-de-sac pruning off (to measure its effect).
    #[arg(long)]
    pub no_cul_de_sac: bool,
    /// Anya and Polyanya: turn intermediate pruning off (to measure its effect).
    #[arg(long)]
    pub no_intermediate: bool,
    /// A navigation mesh of the map ("mesh 2" file of its free space, in lattice coordinates):
    /// Polyanya searches it instead of building one from the map, and `taut render` draws its
    /// polygon edges (with any planner).
    #[arg(long, value_name = "FILE")]
    pub mesh: Option<PathBuf>,
    /// Anya: where the root history lives: `flat` array, `hash` table, or `auto` (flat up to
    /// 2^22 lattice points, hash above).
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = parse_root_history)]
    pub root_history: taut::anya::RootHistory,
    /// End Point Search: the compressed path database of the map's mesh (`taut cpd build`).
    /// Without it, eps builds the CPD in memory first.
    #[arg(long, value_name = "FILE")]
    pub cpd: Option<PathBuf>,
    /// Hub labels: the index of the map (`taut hub build`). Without it, hub builds the index
    /// in memory first.
    #[arg(long, value_name = "FILE")]
    pub hub: Option<PathBuf>,
    /// End Point Search: when to stop: `optimal`, `first` (the first path found) or `q=F`
    /// (a path within factor F >= 1 of the optimum).
    #[arg(long, value_name = "RULE", default_value = "optimal")]
    pub eps_stop: EpsStop,
}

impl PlannerArgs {
    /// The planner named by `--algo`.
    pub fn algo(&self) -> Algo {
        self.spec.algo
    }

    /// The planner-specific options these arguments select: those of `--algo`'s spec, with
    /// the flags on top (a flag left at its default changes nothing).
    pub fn tuning(&self) -> Tuning {
        let mut tuning = self.spec.tuning;
        if self.no_cul_de_sac {
            tuning.anya.cul_de_sac = false;
            tuning.polyanya.cul_de_sac = false;
        }
        if self.no_intermediate {
            tuning.anya.intermediate = false;
            tuning.polyanya.intermediate = false;
        }
        if self.root_history != RootHistory::Auto {
            tuning.anya.history = self.root_history;
        }
        tuning.mesh = if self.mesh.is_some() {
            MeshChoice::Given
        } else {
            MeshChoice::Built
        };
        if self.eps_stop != EpsStop::default() {
            tuning.eps = self.eps_stop;
        }
        tuning
    }
}

/// Parses `--algo`: a planner spec as the table spells it (`anya`, `eps:q=1.05`); an unknown
/// name or option is a usage error listing what there is.
fn parse_planner_spec(s: &str) -> Result<PlannerSpec, String> {
    s.parse::<PlannerSpec>().map_err(|e| e.to_string())
}

/// Parses a root-history name (`auto`, `flat` or `hash`).
pub fn parse_root_history(s: &str) -> Result<RootHistory, String> {
    match s {
        "auto" => Ok(RootHistory::Auto),
        "flat" => Ok(RootHistory::Flat),
        "hash" => Ok(RootHistory::Hash),
        _ => Err(format!(
            "{s:?} is not a root history: expected auto, flat or hash"
        )),
    }
}

/// A command-line point that is not two integers `X,Y`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a point: expected two integers X,Y such as 3,4")]
pub struct PointError(pub String);

/// Parses a lattice point written `X,Y`: two integers in `i32` range, an optional minus sign,
/// no spaces.
///
/// ```
/// use taut_cli::parse_point;
/// assert_eq!(parse_point("3,-4").unwrap(), taut::grid::Point::new(3, -4));
/// assert!(parse_point("3, 4").is_err());
/// assert!(parse_point("3.0,4").is_err());
/// assert!(parse_point("3,4,5").is_err());
/// ```
pub fn parse_point(s: &str) -> Result<Point, PointError> {
    let coord = |t: &str| -> Option<i32> {
        let digits = t.strip_prefix('-').unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    s.split_once(',')
        .and_then(|(x, y)| Some(Point::new(coord(x)?, coord(y)?)))
        .ok_or_else(|| PointError(s.to_owned()))
}

/// A `--free` value that is empty or holds a character outside the MovingAI alphabet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a set of terrain characters: expected some of . G @ O T S W")]
pub struct FreeSetError(pub String);

/// Parses a free-terrain set such as `.GS`: one or more characters of the MovingAI alphabet.
pub fn parse_free_set(s: &str) -> Result<FreeSet, FreeSetError> {
    if s.is_empty() || !s.bytes().all(|b| MOVINGAI_ALPHABET.contains(&b)) {
        return Err(FreeSetError(s.to_owned()));
    }
    Ok(FreeSet::from_chars(s.as_bytes()))
}

/// The image formats of `taut render`, chosen by the output file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// `.svg`: vector overlays over an embedded 1-bit map image, with a caption.
    Svg,
    /// `.png`: 8-bit RGB raster.
    Png,
}

impl From<ImageFormat> for taut::render::ImageFormat {
    fn from(f: ImageFormat) -> Self {
        match f {
            ImageFormat::Svg => taut::render::ImageFormat::Svg,
            ImageFormat::Png => taut::render::ImageFormat::Png,
        }
    }
}

/// An output path and the format its extension selects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    /// The path to write.
    pub path: PathBuf,
    /// The format.
    pub format: ImageFormat,
}

/// An output file name whose extension is neither `.svg` nor `.png`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} does not end in .svg or .png")]
pub struct OutputError(pub String);

/// Parses `-o FILE`: the extension (`.svg` or `.png`, any case) chooses the format.
///
/// ```
/// use taut_cli::{ImageFormat, parse_output};
/// assert_eq!(parse_output("a/b.PNG").unwrap().format, ImageFormat::Png);
/// assert!(parse_output("b.jpg").is_err());
/// assert!(parse_output("svg").is_err());
/// ```
pub fn parse_output(s: &str) -> Result<OutputFile, OutputError> {
    let path = PathBuf::from(s);
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let format = match ext.as_deref() {
        Some("svg") => ImageFormat::Svg,
        Some("png") => ImageFormat::Png,
        _ => return Err(OutputError(s.to_owned())),
    };
    Ok(OutputFile { path, format })
}

/// The bound on each query of `taut path` and `taut scen`: `--max-expansions`, `--timeout-ms`.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct LimitArgs {
    /// Stop a query after N expansions (status `limit`, length inf, the work done in its
    /// statistics). Planners that look answers up (eps, hub) are not searches and ignore it.
    #[arg(long, value_name = "N")]
    pub max_expansions: Option<u64>,
    /// Stop a query after MS milliseconds (status `limit`; the clock is read after the first 8
    /// expansions, then as often as the pace so far says it must be to stop within about one
    /// expansion of the deadline).
    #[arg(long, value_name = "MS")]
    pub timeout_ms: Option<f64>,
}

impl LimitArgs {
    /// The limit these options ask for ([`taut::grid::Limit::NONE`] when neither is given).
    pub fn limit(&self) -> taut::grid::Limit {
        taut::grid::Limit {
            max_expansions: self.max_expansions,
            timeout: self
                .timeout_ms
                .map(|ms| std::time::Duration::from_secs_f64(ms.max(0.0) / 1e3)),
        }
    }
}
