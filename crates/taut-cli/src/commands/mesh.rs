//! `taut mesh`: build navigation meshes and measure the builder.
//!
//! - `taut mesh build --map M.map -o M.mesh` (or `--polygons P.txt -o M.mesh`) writes the
//!   mesh in the "mesh 2" format and prints one line:
//!   `vertices V polygons P triangles T ms X` (`T`: free triangles before merging; `X`: the
//!   build, without reading or writing files, in milliseconds with 3 decimals).
//! - `taut mesh stats --maps DIR [--reference DIR] [--out F.csv]` builds the mesh of every
//!   `.map` file in `DIR` (by name order) and prints the CSV of [`STATS_HEADER`], then one
//!   summary line starting with `# ` (see [`Summary`]). `reference_polygons` is the polygon
//!   count of `NAME-merged.mesh` in the reference directory, empty when there is none.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{ArgGroup, Args, Subcommand};
use taut::grid::{FreeSet, Grid, MapFile};
use taut::mesh::build::{
    BuildStats, mesh_from_grid_with, mesh_from_polygons_with, read_polygon_map,
};
use taut::mesh::{BuildError, BuildOptions, Mesh, write_mesh};

use crate::args::parse_free_set;
use crate::error::CliError;
use crate::fields::{InfoFormat, num, write_summary};

/// The header of `taut mesh stats`.
pub const STATS_HEADER: &str =
    "map,width,height,free_cells,vertices,triangles,polygons,ms,reference_polygons";

/// Arguments of `taut mesh`.
#[derive(Debug, Clone, Args)]
pub struct MeshArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: MeshCommand,
}

/// The subcommands of `taut mesh`.
#[derive(Debug, Clone, Subcommand)]
pub enum MeshCommand {
    /// Build the mesh of one grid map or polygon map, write it, and print one line of
    /// statistics.
    Build(MeshBuildArgs),
    /// Build the mesh of every .map file in a directory, timing each build, and print one CSV
    /// row per map and a summary line.
    Stats(MeshStatsArgs),
}

/// Arguments of `taut mesh build`.
#[derive(Debug, Clone, Args)]
#[command(group(ArgGroup::new("input").required(true).args(["map", "polygons"])))]
pub struct MeshBuildArgs {
    /// A MovingAI .map file: mesh its free cells.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// A polygon map (`polygons 1` text format, see docs/mesh-build.md).
    #[arg(long, value_name = "FILE")]
    pub polygons: Option<PathBuf>,
    /// The mesh file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// The map characters that are free terrain (with --map).
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Keep the triangles: do not merge them into convex polygons.
    #[arg(long)]
    pub no_merge: bool,
    /// Output format: the summary line, or one JSON object of its figures.
    #[arg(long, value_enum, default_value_t = InfoFormat::Text)]
    pub format: InfoFormat,
}

/// Arguments of `taut mesh stats`.
#[derive(Debug, Clone, Args)]
pub struct MeshStatsArgs {
    /// The directory of .map files.
    #[arg(long, value_name = "DIR")]
    pub maps: PathBuf,
    /// A directory of reference meshes `NAME-merged.mesh` to compare polygon counts with.
    #[arg(long, value_name = "DIR")]
    pub reference: Option<PathBuf>,
    /// Write the rows (csv, or the JSON object) to this file instead of stdout; the summary
    /// line still goes to stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The old name of -o/--output (warns; goes in the next release).
    #[arg(long, value_name = "FILE", hide = true, conflicts_with = "output")]
    pub out: Option<PathBuf>,
    /// csv: the header, one row per map, then the summary line `# DIR: ...`; json: one object
    /// `{"maps": [...], "summary": {...}}`, the rows' keys being the csv's columns
    /// (`reference_polygons` null when there is no reference).
    #[arg(long, value_enum, default_value_t = StatsFormat::Csv)]
    pub format: StatsFormat,
    /// The map characters that are free terrain.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Keep the triangles: do not merge them into convex polygons.
    #[arg(long)]
    pub no_merge: bool,
}

/// Output formats of `taut mesh stats`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StatsFormat {
    /// A header, one row per map and the summary line.
    Csv,
    /// One JSON object: the rows and the summary.
    Json,
}

/// Runs `taut mesh ...`.
///
/// # Errors
/// Unreadable or malformed inputs, a map without free space, an unwritable output.
pub fn run(args: &MeshArgs, out: &mut dyn Write, warnings: &mut dyn Write) -> Result<(), CliError> {
    match &args.command {
        MeshCommand::Build(a) => run_build(a, out),
        MeshCommand::Stats(a) => {
            let mut a = a.clone();
            if let Some(file) = a.out.take() {
                writeln!(
                    warnings,
                    "taut: warning: --out is now -o/--output (the old name goes in the next release)"
                )?;
                a.output = Some(file);
            }
            run_stats(&a, out)
        }
    }
}

fn options(no_merge: bool) -> BuildOptions {
    BuildOptions { merge: !no_merge }
}

/// Builds the mesh of a map file, timing the build alone. Errors name the file.
pub fn build_grid_file(
    path: &Path,
    free: &FreeSet,
    options: &BuildOptions,
) -> Result<(Grid, Mesh, BuildStats, f64), CliError> {
    let grid = Grid::from_map(&MapFile::read(path)?, free);
    let t = Instant::now();
    let (mesh, stats) = mesh_from_grid_with(&grid, options).map_err(|e| BuildError::InFile {
        path: path.to_owned(),
        source: Box::new(e),
    })?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    Ok((grid, mesh, stats, ms))
}

/// `taut mesh build`.
///
/// # Errors
/// As [`run_mesh`].
pub fn run_build(args: &MeshBuildArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let options = options(args.no_merge);
    let (mesh, stats, ms) = match (&args.map, &args.polygons) {
        (Some(map), _) => {
            let (_, mesh, stats, ms) = build_grid_file(map, &args.free, &options)?;
            (mesh, stats, ms)
        }
        (None, Some(polygons)) => {
            let map = read_polygon_map(polygons)?;
            let t = Instant::now();
            let (mesh, stats) =
                mesh_from_polygons_with(&map, &options).map_err(|e| BuildError::InFile {
                    path: polygons.clone(),
                    source: Box::new(e),
                })?;
            (mesh, stats, t.elapsed().as_secs_f64() * 1e3)
        }
        (None, None) => unreachable!("clap requires --map or --polygons"),
    };
    write_mesh(&mesh, &args.output)?;
    let text = format!(
        "vertices {} polygons {} triangles {} ms {ms:.3}",
        stats.vertices, stats.polygons, stats.triangles
    );
    let json = serde_json::json!({
        "file": args.output.display().to_string(), "vertices": stats.vertices,
        "polygons": stats.polygons, "triangles": stats.triangles, "ms": num(format!("{ms:.3}")),
    });
    write_summary(out, args.format, &text, &json)?;
    Ok(())
}

/// The totals of one `taut mesh stats` run, printed as its last line:
/// `# DIR: maps N, build ms total T mean M, polygons P` and, when some maps have a reference,
/// `, reference polygons R (K maps), ratio Q` where `Q` is our polygon count over the
/// reference's on those K maps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Maps built.
    pub maps: usize,
    /// Total build time, milliseconds.
    pub total_ms: f64,
    /// Total polygons of our meshes.
    pub polygons: usize,
    /// Maps with a reference mesh.
    pub reference_maps: usize,
    /// Our polygons on the maps with a reference.
    pub polygons_with_reference: usize,
    /// The reference's polygons on those maps.
    pub reference_polygons: usize,
}

impl Summary {
    /// The mean build time, milliseconds (0 with no map).
    fn mean_ms(&self) -> f64 {
        if self.maps == 0 {
            0.0
        } else {
            self.total_ms / self.maps as f64
        }
    }

    /// The summary as JSON: the figures of [`Summary::line`] (`ratio` null without a
    /// reference).
    pub fn json(&self) -> serde_json::Value {
        let ratio = (self.reference_maps > 0).then(|| {
            num(format!(
                "{:.4}",
                self.polygons_with_reference as f64 / self.reference_polygons.max(1) as f64
            ))
        });
        serde_json::json!({"maps": self.maps, "build_ms_total": num(format!("{:.1}", self.total_ms)),
            "build_ms_mean": num(format!("{:.3}", self.mean_ms())), "polygons": self.polygons,
            "reference_polygons": self.reference_polygons, "reference_maps": self.reference_maps,
            "ratio": ratio})
    }

    /// The summary line for directory `dir` (without a newline).
    pub fn line(&self, dir: &Path) -> String {
        let mean = self.mean_ms();
        let mut s = format!(
            "# {}: maps {}, build ms total {:.1} mean {:.3}, polygons {}",
            dir.display(),
            self.maps,
            self.total_ms,
            mean,
            self.polygons
        );
        if self.reference_maps > 0 {
            s.push_str(&format!(
                ", reference polygons {} ({} maps), ratio {:.4}",
                self.reference_polygons,
                self.reference_maps,
                self.polygons_with_reference as f64 / self.reference_polygons.max(1) as f64
            ));
        }
        s
    }
}

/// `taut mesh stats`.
///
/// # Errors
/// As [`run_mesh`]; also an unlistable directory or a reference mesh without a valid header.
pub fn run_stats(args: &MeshStatsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let listing = std::fs::read_dir(&args.maps).map_err(|source| CliError::ReadDir {
        path: args.maps.clone(),
        source,
    })?;
    let mut maps: Vec<PathBuf> = Vec::new();
    for entry in listing {
        let entry = entry.map_err(|source| CliError::ReadDir {
            path: args.maps.clone(),
            source,
        })?;
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "map") && path.is_file() {
            maps.push(path);
        }
    }
    maps.sort();
    let mut file;
    let csv: &mut dyn Write = match &args.output {
        Some(path) => {
            file = std::io::BufWriter::new(std::fs::File::create(path).map_err(|source| {
                CliError::WriteFile {
                    path: path.clone(),
                    source,
                }
            })?);
            &mut file
        }
        None => out,
    };
    let json = args.format == StatsFormat::Json;
    if !json {
        writeln!(csv, "{STATS_HEADER}")?;
    }
    let mut rows = Vec::new();
    let options = options(args.no_merge);
    let mut sum = Summary::default();
    for path in &maps {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (grid, _, stats, ms) = build_grid_file(path, &args.free, &options)?;
        let reference = match &args.reference {
            Some(dir) => {
                let p = dir.join(format!("{name}-merged.mesh"));
                if p.is_file() {
                    Some(reference_polygons(&p)?)
                } else {
                    None
                }
            }
            None => None,
        };
        if json {
            rows.push(serde_json::json!({"map": name, "width": grid.width(),
                "height": grid.height(), "free_cells": grid.free_cells(),
                "vertices": stats.vertices, "triangles": stats.triangles,
                "polygons": stats.polygons, "ms": num(format!("{ms:.3}")),
                "reference_polygons": reference}));
        } else {
            write!(
                csv,
                "{name},{},{},{},{},{},{},{ms:.3},",
                grid.width(),
                grid.height(),
                grid.free_cells(),
                stats.vertices,
                stats.triangles,
                stats.polygons
            )?;
            if let Some(r) = reference {
                write!(csv, "{r}")?;
            }
            writeln!(csv)?;
        }
        if let Some(r) = reference {
            sum.reference_maps += 1;
            sum.reference_polygons += r;
            sum.polygons_with_reference += stats.polygons;
        }
        sum.maps += 1;
        sum.total_ms += ms;
        sum.polygons += stats.polygons;
    }
    if json {
        let doc = serde_json::json!({"maps": rows, "summary": sum.json()});
        serde_json::to_writer(&mut *csv, &doc).map_err(std::io::Error::from)?;
        writeln!(csv)?;
        csv.flush()?;
        return Ok(());
    }
    csv.flush()?;
    let line = sum.line(&args.maps);
    match &args.output {
        // The file is complete: write the summary to stdout.
        Some(_) => writeln!(out, "{line}")?,
        None => writeln!(csv, "{line}")?,
    }
    Ok(())
}

/// The polygon count in the header `mesh 2 V P` of a mesh file, read without reading the rest.
///
/// # Errors
/// [`CliError::BadReference`] when the file cannot be read or does not start with that header.
pub fn reference_polygons(path: &Path) -> Result<usize, CliError> {
    let bad = |reason: String| CliError::BadReference {
        path: path.to_owned(),
        reason,
    };
    let file = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
    let mut tokens = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| bad(e.to_string()))?;
        tokens.extend(line.split_whitespace().map(str::to_owned));
        if tokens.len() >= 4 {
            break;
        }
    }
    match tokens.as_slice() {
        [m, v, n, p, ..] if m == "mesh" && v == "2" && n.parse::<usize>().is_ok() => p
            .parse()
            .map_err(|_| bad(format!("expected a polygon count, found {p:?}"))),
        _ => Err(bad("expected the header `mesh 2 V P`".into())),
    }
}
