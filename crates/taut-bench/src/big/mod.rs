//! Big occupancy-grid maps: a deterministic generator of MovingAI `.map` + `.map.scen` pairs
//! (`taut-bench gen-big`, the `big` suite), and the resident-memory probe of the planners on
//! them (`taut-bench big-memory`, [`memory`]).
//!
//! A map is named by its [`BigSpec`]: kind, side and seed, `big-KIND-SIDE-SEED` (for example
//! `big-walls-2048-0`). The same spec always gives byte-identical files, on every machine:
//!
//! - every random choice comes from [`Rng`] (SplitMix64), seeded by FNV-1a over
//!   `taut-big/v{GENERATOR_VERSION}/KIND/SEED/STREAM`, the stream being `map` for the obstacles
//!   and `queries` for the queries, so the queries of a map do not depend on how it was drawn,
//!   and the first k of n queries are the k queries of a shorter file;
//! - the side is not in the seed: a coordinate is drawn as `⌊r · side / 2^64⌋` from the same
//!   random word `r` whatever the side, so a kind and seed draw the same shapes at every side,
//!   scaled (up to rounding); only the speckle, whose count grows with the area, differs.
//!   The family is then one picture at five resolutions, which is what a cost exponent fitted
//!   against the side needs;
//! - the obstacles are drawn with integer arithmetic only (`draw.rs`);
//! - queries join the top-left corners of two free cells of the largest 4-connected free region
//!   (the cells any-angle paths can join: a path never squeezes through a double corner),
//!   drawn until their Manhattan distance is at least the side;
//! - the scenario's optimal octile length (column 9) is computed by taut's A*, so the bench's
//!   octile check holds on these files as on MovingAI's.
//!
//! Changing what a spec draws means raising [`GENERATOR_VERSION`]: files written by another
//! version are stale (their `NAME.gen` stamp says so) and [`ensure`] writes them again.

mod draw;
pub mod memory;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::Deserialize;
use taut::geom::Point;
use taut::grid::{Answer, FreeSet, Grid, MapFile, ScenEntry, ScenFormat, Scenario, Status};
use taut::registry::PlannerSpec;

use crate::error::BenchError;
use crate::rng::SplitMix64;

/// The generator's version, part of every seed: raise it whenever a spec would draw anything
/// different, so that maps of different versions never share a stamp.
pub const GENERATOR_VERSION: u32 = 2;

/// The sides of the family.
pub const SIDES: [u32; 5] = [512, 1024, 2048, 4096, 8192];

/// Queries per map unless told otherwise.
pub const DEFAULT_QUERIES: usize = 30;

/// What a map is made of. Every kind adds random single blocked cells ("speckle") at its own
/// density, 0.1 % to 1 % of the cells; the shapes scale with the side, so maps of one kind at
/// different sides look alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// 0.3 % speckle and 12 straight (axis-aligned) walls of n/8 to n/2 cells: the throwaway
    /// prototype of the first big-map measurements, as a kind of the family.
    Walls,
    /// 1 % speckle and nothing else: open space, densely dotted.
    Speckle,
    /// 0.3 % speckle and 12 slanted walls (slopes 1, 2, 3, 1/2, 1/3, 2/3 in every quadrant) of
    /// n/8 to n/2 cells: digital staircases whose cells touch at corners.
    Diagonal,
    /// 0.1 % speckle and an 8 × 8 grid of rooms whose walls have one or two doorways each.
    Rooms,
    /// 0.3 % speckle and 16 U-shaped traps, n/16 to n/6 across, open to a random side.
    Traps,
    /// 0.3 % speckle and 24 blobs, each the union of 3 to 6 discs of radius n/64 to n/24.
    Blobs,
}

impl Kind {
    /// Every kind, in the order reports list them.
    pub const ALL: [Kind; 6] = [
        Kind::Walls,
        Kind::Speckle,
        Kind::Diagonal,
        Kind::Rooms,
        Kind::Traps,
        Kind::Blobs,
    ];

    /// The name used in map names and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Walls => "walls",
            Kind::Speckle => "speckle",
            Kind::Diagonal => "diagonal",
            Kind::Rooms => "rooms",
            Kind::Traps => "traps",
            Kind::Blobs => "blobs",
        }
    }

    /// The speckle density in basis points (hundredths of a per cent) of the cells.
    pub fn speckle_basis_points(self) -> u32 {
        match self {
            Kind::Speckle => 100,
            Kind::Rooms => 10,
            Kind::Walls | Kind::Diagonal | Kind::Traps | Kind::Blobs => 30,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kind {
    type Err = String;

    fn from_str(s: &str) -> Result<Kind, String> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
                format!("unknown kind {s:?} (have: {})", names.join(", "))
            })
    }
}

/// One map of the family: what to draw and how many queries to ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BigSpec {
    /// What the map is made of.
    pub kind: Kind,
    /// Width and height in cells (at least 64).
    pub side: u32,
    /// Which map of its kind and side.
    pub seed: u64,
    /// Queries in its scenario file.
    pub queries: usize,
}

/// The smallest side the generator accepts: below it the shapes' sizes (n/64 and up) vanish.
pub const MIN_SIDE: u32 = 64;

impl BigSpec {
    /// The map's name, `big-KIND-SIDE-SEED`: the files are `NAME.map` and `NAME.map.scen`.
    pub fn name(&self) -> String {
        format!("big-{}-{}-{}", self.kind, self.side, self.seed)
    }

    /// The stamp written beside the files (`NAME.gen`): what made them, and their hash.
    fn stamp(&self, hash: u64) -> String {
        format!(
            "taut-bench gen-big v{GENERATOR_VERSION} kind={} side={} seed={} queries={} fnv1a={hash:016x}\n",
            self.kind, self.side, self.seed, self.queries
        )
    }

    /// The seed of one random stream of this map.
    fn stream(&self, stream: &str) -> u64 {
        fnv1a(
            format!(
                "taut-big/v{GENERATOR_VERSION}/{}/{}/{stream}",
                self.kind, self.seed
            )
            .as_bytes(),
        )
    }

    fn check(&self) -> Result<(), BenchError> {
        let bad = |msg: String| BenchError::Data {
            path: PathBuf::from(self.name()),
            msg,
        };
        if !(MIN_SIDE..=taut::grid::MAX_SIDE).contains(&self.side) {
            return Err(bad(format!(
                "side {} outside {MIN_SIDE}..={}",
                self.side,
                taut::grid::MAX_SIDE
            )));
        }
        if self.queries == 0 {
            return Err(bad("at least one query per map".into()));
        }
        Ok(())
    }
}

/// FNV-1a, 64 bits: the seed hash and the files' fingerprint.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The generator's random numbers: the bench's SplitMix64
/// ([`SplitMix64`], written out in the crate so that no dependency can change the maps),
/// drawing values below a bound by Lemire's multiply-shift.
#[derive(Debug, Clone)]
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed))
    }

    /// A value below `n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.0.next_u64()) * u128::from(n)) >> 64) as u64
    }

    fn coord(&mut self, side: u32) -> i64 {
        self.below(u64::from(side)) as i64
    }
}

/// A generated map and its scenario.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The map.
    pub map: MapFile,
    /// Its queries.
    pub scen: Scenario,
    /// Free cells of the map.
    pub free_cells: u64,
    /// Cells of the largest 4-connected free region, where the queries are.
    pub region_cells: u64,
}

impl Generated {
    /// The `.map` text.
    pub fn map_text(&self) -> String {
        self.map.to_text()
    }

    /// The `.map.scen` text.
    pub fn scen_text(&self) -> String {
        self.scen.to_text()
    }

    /// FNV-1a over the map text, a zero byte and the scenario text.
    pub fn fingerprint(&self) -> u64 {
        fingerprint_of(self.map_text().as_bytes(), self.scen_text().as_bytes())
    }
}

/// Draws the map of `spec` and its queries.
///
/// # Errors
/// [`BenchError::Data`] for a side outside [`MIN_SIDE`]`..=MAX_SIDE` or no queries, or when the
/// map has no two free cells far enough apart (which no kind draws at its sides).
pub fn generate(spec: &BigSpec) -> Result<Generated, BenchError> {
    spec.check()?;
    let n = spec.side;
    let canvas = draw::draw(spec.kind, n, &mut Rng::new(spec.stream("map")));
    let tiles: Vec<u8> = canvas
        .blocked
        .iter()
        .map(|&b| if b { b'@' } else { b'.' })
        .collect();
    let map = MapFile::new(n, n, tiles)?;
    let (region, region_cells) = largest_region(&canvas.blocked, n);
    let free_cells = canvas.blocked.iter().filter(|b| !**b).count() as u64;
    drop(canvas);
    let bad = |msg: String| BenchError::Data {
        path: PathBuf::from(spec.name()),
        msg,
    };
    if region_cells < 2 {
        return Err(bad("no free region of two cells".into()));
    }
    let grid = taut::Map::new(Grid::from_map(&map, &FreeSet::default()));
    let astar: PlannerSpec = "astar".parse().map_err(|e| bad(format!("{e}")))?;
    let mut octile = grid.planner(&astar).map_err(|e| bad(e.to_string()))?;
    let mut rng = Rng::new(spec.stream("queries"));
    let mut answer = Answer::default();
    let mut entries = Vec::with_capacity(spec.queries);
    let far = i64::from(n);
    // Enough tries that a map with a usable region never runs out (a query is accepted with
    // probability about 1/4 on an open map), few enough that a degenerate one stops.
    let mut tries: u64 = 1_000 * spec.queries as u64 + 100_000;
    while entries.len() < spec.queries {
        if tries == 0 {
            return Err(bad(format!(
                "found only {} of {} queries between free cells {far} apart",
                entries.len(),
                spec.queries
            )));
        }
        tries -= 1;
        let cell = |rng: &mut Rng| -> Option<Point> {
            let i = rng.below(u64::from(n) * u64::from(n)) as usize;
            region[i].then(|| Point::new((i % n as usize) as i32, (i / n as usize) as i32))
        };
        let (Some(s), Some(g)) = (cell(&mut rng), cell(&mut rng)) else {
            continue;
        };
        if (i64::from(s.x - g.x)).abs() + (i64::from(s.y - g.y)).abs() < far {
            continue;
        }
        let status = octile
            .plan(s, g, &mut answer)
            .map_err(|e| bad(format!("A* on {s:?}→{g:?}: {e}")))?;
        if status != Status::Found {
            return Err(bad(format!(
                "A* found no path {s:?}→{g:?} inside one free region: a generator bug"
            )));
        }
        entries.push(ScenEntry {
            bucket: (answer.length / 4.0) as u32,
            map: format!("{}.map", spec.name()),
            width: n,
            height: n,
            start: s,
            goal: g,
            octile: answer.length,
            line: entries.len() + 2,
        });
    }
    Ok(Generated {
        map,
        scen: Scenario {
            format: ScenFormat::default(),
            entries,
        },
        free_cells,
        region_cells,
    })
}

/// The cells of the largest 4-connected region of free cells (the first found among equals,
/// scanning rows from the top), and its size.
fn largest_region(blocked: &[bool], side: u32) -> (Vec<bool>, u64) {
    let n = side as usize;
    // 0: blocked or not yet visited; otherwise a region number from 1.
    let mut label = vec![0u32; blocked.len()];
    let mut stack: Vec<u32> = Vec::new();
    let (mut best, mut best_size, mut next) = (0u32, 0u64, 0u32);
    for start in 0..blocked.len() {
        if blocked[start] || label[start] != 0 {
            continue;
        }
        next += 1;
        label[start] = next;
        stack.push(start as u32);
        let mut size = 0u64;
        while let Some(i) = stack.pop() {
            size += 1;
            let i = i as usize;
            let (x, y) = (i % n, i / n);
            let mut visit = |j: usize| {
                if !blocked[j] && label[j] == 0 {
                    label[j] = next;
                    stack.push(j as u32);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < n {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - n);
            }
            if y + 1 < n {
                visit(i + n);
            }
        }
        if size > best_size {
            (best, best_size) = (next, size);
        }
    }
    (label.into_iter().map(|l| l == best).collect(), best_size)
}

/// What [`ensure`] did with one map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ensured {
    /// The map's name.
    pub name: String,
    /// Whether it was written now (else its files were up to date).
    pub written: bool,
}

/// Makes sure `dir` holds the files of every spec, writing those missing or stale (their
/// `NAME.gen` stamp is absent or names another version or query count, or the files'
/// fingerprint changed). `force`: write them all. Prints one line per map written when
/// `progress`.
///
/// # Errors
/// [`BenchError::Write`] when a file cannot be written; generation errors of [`generate`].
pub fn ensure(
    specs: &[BigSpec],
    dir: &Path,
    force: bool,
    progress: bool,
) -> Result<Vec<Ensured>, BenchError> {
    std::fs::create_dir_all(dir).map_err(|e| BenchError::Write {
        path: dir.to_owned(),
        msg: e.to_string(),
    })?;
    let mut done = Vec::with_capacity(specs.len());
    for spec in specs {
        let name = spec.name();
        let (map_path, scen_path, stamp_path) = files_of(dir, &name);
        if !force && up_to_date(spec, &map_path, &scen_path, &stamp_path) {
            done.push(Ensured {
                name,
                written: false,
            });
            continue;
        }
        let t = std::time::Instant::now();
        let g = generate(spec)?;
        let (map_text, scen_text) = (g.map_text(), g.scen_text());
        let hash = fingerprint_of(map_text.as_bytes(), scen_text.as_bytes());
        let write = |path: &Path, text: &str| {
            std::fs::write(path, text).map_err(|e| BenchError::Write {
                path: path.to_owned(),
                msg: e.to_string(),
            })
        };
        write(&map_path, &map_text)?;
        write(&scen_path, &scen_text)?;
        write(&stamp_path, &spec.stamp(hash))?;
        if progress {
            eprintln!(
                "  gen-big: {name}: {} free cells, {} in the largest region, {} queries, {:.1} s",
                g.free_cells,
                g.region_cells,
                g.scen.entries.len(),
                t.elapsed().as_secs_f64()
            );
        }
        done.push(Ensured {
            name,
            written: true,
        });
    }
    Ok(done)
}

/// The `.map`, `.map.scen` and `.gen` files of map `name` in `dir`.
pub fn files_of(dir: &Path, name: &str) -> (PathBuf, PathBuf, PathBuf) {
    (
        dir.join(format!("{name}.map")),
        dir.join(format!("{name}.map.scen")),
        dir.join(format!("{name}.gen")),
    )
}

fn fingerprint_of(map: &[u8], scen: &[u8]) -> u64 {
    let mut bytes = Vec::with_capacity(map.len() + scen.len() + 1);
    bytes.extend_from_slice(map);
    bytes.push(0);
    bytes.extend_from_slice(scen);
    fnv1a(&bytes)
}

/// Whether the files of `spec` exist, their stamp is this version's for this spec, and their
/// contents still have the stamped fingerprint.
fn up_to_date(spec: &BigSpec, map: &Path, scen: &Path, stamp: &Path) -> bool {
    let (Ok(m), Ok(s), Ok(st)) = (
        std::fs::read(map),
        std::fs::read(scen),
        std::fs::read_to_string(stamp),
    ) else {
        return false;
    };
    st == spec.stamp(fingerprint_of(&m, &s))
}

/// The `[generate]` table of a suite file: the maps the suite's directory must hold, made by
/// [`ensure`] before the suite runs.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateSpec {
    /// Kinds (default: all).
    #[serde(default = "all_kinds")]
    pub kinds: Vec<Kind>,
    /// Sides.
    pub sides: Vec<u32>,
    /// Seeds (default: 0).
    #[serde(default = "seed_zero")]
    pub seeds: Vec<u64>,
    /// Queries per map (default: [`DEFAULT_QUERIES`]).
    #[serde(default = "default_queries")]
    pub queries: usize,
}

fn all_kinds() -> Vec<Kind> {
    Kind::ALL.to_vec()
}

fn seed_zero() -> Vec<u64> {
    vec![0]
}

fn default_queries() -> usize {
    DEFAULT_QUERIES
}

impl GenerateSpec {
    /// Every map: sides, then kinds, then seeds.
    pub fn specs(&self) -> Vec<BigSpec> {
        let mut v = Vec::new();
        for &side in &self.sides {
            for &kind in &self.kinds {
                for &seed in &self.seeds {
                    v.push(BigSpec {
                        kind,
                        side,
                        seed,
                        queries: self.queries,
                    });
                }
            }
        }
        v
    }
}
