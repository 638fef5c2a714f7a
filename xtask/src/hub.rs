//! `cargo xtask preprocess --hub`: build the hub label indexes of whole suites (or of single
//! maps), skipping those up to date, with the peak memory of each map's build reported.
//!
//! - `--suite NAME`: every map of the suite that has a scenario file, written to the suite's
//!   `hubs` directory as `NAME.hub`; `--map M.map`: that map, beside it or into `--out DIR`.
//! - `--region N` shares labels among regions of N × N cells; `--budget SIZE` builds the finest
//!   index that fits SIZE (`taut::hub::HubIndex::build_within`). A map where no index fits is
//!   reported with the smallest size found, and the other maps are still built; the command
//!   then fails.
//! - A file is up to date when it has the current format version and the hash of the map's
//!   mesh, and: with `--region N` (or neither option, N = 1) regions of that side; with
//!   `--budget` a size within the budget. A file built for a smaller budget therefore stays;
//!   `--force` rebuilds it at the finest side the new budget allows.
//! - Peak memory: before each map the kernel's high-water mark of the process is reset
//!   (`/proc/self/clear_refs`), and `VmHWM` is read after the map is written, so each map's
//!   figure is its own (reading the map, meshing, building and writing). Where Linux's
//!   reset is not available the column is empty.
//!
//! Each map is built on a rayon pool of `--jobs` threads (default: every core); maps go one
//! after the other. A hub build cannot be split into shards: `--scheduler local|slurm` runs
//! one task per map instead (`crate::cluster`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use taut::grid::{FreeSet, Grid, MapFile};
use taut::hub::{FORMAT_VERSION, HubError, HubIndex, read_hub, read_hub_header, write_hub};

use taut_bench::{peak_memory_bytes, reset_peak_memory};

use crate::preprocess::{Job, Kind, PreprocessArgs, file_name, flat, jobs, pool, write_build_csv};

/// What index the arguments ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// Regions of this side (1: every point its own label).
    Region(u32),
    /// The finest that fits this many bytes.
    Budget(u64),
}

impl Want {
    /// From `--region` and `--budget` (clap keeps them apart).
    pub fn of(args: &PreprocessArgs) -> Want {
        match args.budget {
            Some(b) => Want::Budget(b),
            None => Want::Region(args.region.unwrap_or(1)),
        }
    }

    /// The `taut hub build` options that ask for it.
    pub fn cli_args(self) -> Vec<String> {
        match self {
            Want::Region(g) => vec!["--region".into(), g.to_string()],
            // `--budget none` is u64::MAX, which `taut hub build` reads back as `none`.
            Want::Budget(u64::MAX) => vec!["--budget".into(), "none".into()],
            Want::Budget(b) => vec!["--budget".into(), b.to_string()],
        }
    }
}

/// Sizes, times and peak memory of one map's index.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HubReport {
    /// The job's label.
    pub label: String,
    /// The file written.
    pub file: PathBuf,
    /// Convex corners.
    pub corners: usize,
    /// Entries of the corners' labels.
    pub core_entries: usize,
    /// Region side (1: point labels).
    pub region: u32,
    /// Bytes of the file.
    pub file_bytes: u64,
    /// Heap bytes of the index.
    pub memory_bytes: u64,
    /// Seconds building the index (mesh and writing excluded).
    pub build_secs: f64,
    /// Seconds in all, reading the map and writing included.
    pub total_secs: f64,
    /// The process's peak resident bytes while this map was processed, when measurable.
    pub peak_bytes: Option<u64>,
}

/// What happened to one map.
#[derive(Debug, Clone, PartialEq)]
pub enum HubOutcome {
    /// Up to date: nothing done.
    Skipped,
    /// Built and written.
    Done(HubReport),
    /// Not built: the one-line reason (a budget no index fits, ...).
    Failed(String),
}

/// The result of a whole `--hub` run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HubSummary {
    /// One entry per map, in order.
    pub maps: Vec<(Job, HubOutcome)>,
    /// Wall time.
    pub wall: Duration,
    /// Threads of the pool.
    pub threads: usize,
}

impl HubSummary {
    fn count(&self, f: impl Fn(&HubOutcome) -> bool) -> usize {
        self.maps.iter().filter(|(_, o)| f(o)).count()
    }

    /// Maps built.
    pub fn built(&self) -> usize {
        self.count(|o| matches!(o, HubOutcome::Done(_)))
    }

    /// Maps skipped as up to date.
    pub fn skipped(&self) -> usize {
        self.count(|o| matches!(o, HubOutcome::Skipped))
    }

    /// Maps that could not be built.
    pub fn failed(&self) -> usize {
        self.count(|o| matches!(o, HubOutcome::Failed(_)))
    }

    /// The highest peak of the maps built, bytes.
    pub fn peak_bytes(&self) -> Option<u64> {
        self.maps
            .iter()
            .filter_map(|(_, o)| match o {
                HubOutcome::Done(r) => r.peak_bytes,
                _ => None,
            })
            .max()
    }
}

/// Whether `path` holds an index of the current format for the mesh of `hash` that is what
/// `want` asks for (see the module documentation).
pub fn hub_current(path: &Path, hash: &[u8; 32], want: Want) -> bool {
    let Ok(h) = read_hub_header(path) else {
        return false;
    };
    if h.version != FORMAT_VERSION || &h.mesh_hash != hash {
        return false;
    }
    match want {
        Want::Region(g) => h.region == g,
        // The budget bounds memory as well as the file: a file within it is read to measure
        // the index in memory (a larger one is not read at all).
        Want::Budget(b) => {
            std::fs::metadata(path).is_ok_and(|m| m.len() <= b)
                && read_hub(path).is_ok_and(|index| index.size_bytes() <= b)
        }
    }
}

/// Builds the hub indexes `args` select, writing one line per map and a final table to `out`.
///
/// # Errors
/// Unreadable maps or suites, a suite without a `hubs` directory, an unwritable file. A map
/// whose index cannot be built (a budget too small) is not an error here: it is reported in
/// the summary ([`HubSummary::failed`]).
pub fn preprocess(
    args: &PreprocessArgs,
    repo: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<HubSummary> {
    let jobs = jobs(args, repo, Kind::Hub)?;
    if jobs.is_empty() {
        bail!("no maps selected: give --suite NAME or --map FILE");
    }
    let pool = pool(args.jobs)?;
    let want = Want::of(args);
    let t0 = Instant::now();
    let mut summary = HubSummary {
        threads: pool.current_num_threads(),
        ..HubSummary::default()
    };
    for job in jobs {
        let outcome = pool
            .install(|| one_map(&job, want, args.force))
            .with_context(|| job.label.clone())?;
        let line = match &outcome {
            HubOutcome::Skipped => format!("{}: up to date, skipped", job.label),
            HubOutcome::Failed(why) => format!("{}: not built: {why}", job.label),
            HubOutcome::Done(r) => format!(
                "{}: wrote {} ({} corners, regions of {}, {:.2} MB, build {:.2} s, peak {})",
                job.label,
                r.file.display(),
                r.corners,
                r.region,
                r.file_bytes as f64 / 1e6,
                r.build_secs,
                r.peak_bytes.map_or_else(
                    || "unknown".to_owned(),
                    |b| format!("{:.0} MB", b as f64 / 1e6)
                )
            ),
        };
        writeln!(out, "{line}")?;
        summary.maps.push((job, outcome));
    }
    summary.wall = t0.elapsed();
    writeln!(out, "{:<14} {}", "hubs built", summary.built())?;
    writeln!(out, "{:<14} {} (up to date)", "skipped", summary.skipped())?;
    writeln!(out, "{:<14} {}", "not built", summary.failed())?;
    writeln!(
        out,
        "{:<14} {:.2} s",
        "wall time",
        summary.wall.as_secs_f64()
    )?;
    writeln!(out, "{:<14} {}", "threads", summary.threads)?;
    if let Some(p) = summary.peak_bytes() {
        writeln!(out, "{:<14} {:.0} MB", "highest peak", p as f64 / 1e6)?;
    }
    Ok(summary)
}

/// Builds one map's index, unless up to date.
fn one_map(job: &Job, want: Want, force: bool) -> anyhow::Result<HubOutcome> {
    let t = Instant::now();
    let grid = Grid::from_map(&MapFile::read(&job.map).map_err(flat)?, &FreeSet::default());
    let mesh = taut::mesh::mesh_from_grid(&grid).map_err(flat)?;
    let hash = taut::mesh::mesh_hash(&mesh);
    if !force && hub_current(&job.out, &hash, want) {
        return Ok(HubOutcome::Skipped);
    }
    // After the up-to-date check, which may read the old index: its memory is not this
    // build's. The map and its mesh, already in memory, count.
    let measured = reset_peak_memory();
    if let Some(parent) = job.out.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let tb = Instant::now();
    let built = match want {
        Want::Budget(b) => HubIndex::build_within(&grid, &mesh, b),
        Want::Region(g) => HubIndex::build_with_regions(&grid, &mesh, g),
    };
    let index = match built {
        Ok(index) => index,
        Err(e @ (HubError::BudgetTooSmall { .. } | HubError::CoreOverBudget { .. })) => {
            return Ok(HubOutcome::Failed(e.to_string()));
        }
        Err(e) => return Err(flat(e)),
    };
    let build_secs = tb.elapsed().as_secs_f64();
    write_hub(&job.out, &index).map_err(flat)?;
    let s = index.stats();
    Ok(HubOutcome::Done(HubReport {
        label: job.label.clone(),
        file: job.out.clone(),
        corners: s.corners,
        core_entries: s.core_entries,
        region: s.region,
        file_bytes: std::fs::metadata(&job.out).map_or(0, |m| m.len()),
        memory_bytes: s.bytes as u64,
        build_secs,
        total_secs: t.elapsed().as_secs_f64(),
        peak_bytes: if measured { peak_memory_bytes() } else { None },
    }))
}

/// The CSV of [`write_report`].
pub const REPORT_HEADER: &str =
    "name,file,corners,core_entries,region,file_mb,memory_mb,build_s,total_s,peak_mb";

/// Writes `DIR/DATE-hub-build/hub-build.csv`: a provenance comment, [`REPORT_HEADER`], one
/// row per map built (skipped and failed maps are left out). Returns the file.
///
/// # Errors
/// The directory or file cannot be written.
pub fn write_report(dir: &Path, summary: &HubSummary) -> anyhow::Result<PathBuf> {
    let rows = summary.maps.iter().filter_map(|(_, o)| match o {
        HubOutcome::Done(r) => Some(format!(
            "{},{},{},{},{},{:.3},{:.3},{:.3},{:.3},{}",
            r.label,
            file_name(&r.file),
            r.corners,
            r.core_entries,
            r.region,
            r.file_bytes as f64 / 1e6,
            r.memory_bytes as f64 / 1e6,
            r.build_secs,
            r.total_secs,
            r.peak_bytes
                .map_or_else(String::new, |b| format!("{:.1}", b as f64 / 1e6))
        )),
        _ => None,
    });
    write_build_csv(
        dir,
        "hub-build",
        REPORT_HEADER,
        summary.threads,
        summary.wall,
        rows,
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::preprocess::tests::tiny_suite;

    /// The tiny suite of `preprocess`'s tests, asked for hub indexes instead of CPDs.
    pub(crate) fn hub_suite() -> (tempfile::TempDir, PreprocessArgs) {
        let (dir, mut args) = tiny_suite();
        let toml = dir.path().join("tiny.toml");
        let text = std::fs::read_to_string(&toml).unwrap() + "hubs = \"hub\"\n";
        std::fs::write(&toml, text).unwrap();
        args.cpd = false;
        args.hub = true;
        (dir, args)
    }

    fn run(args: &PreprocessArgs) -> (HubSummary, String) {
        let mut out = Vec::new();
        let s = preprocess(args, &crate::repo_root(), &mut out).unwrap();
        (s, String::from_utf8(out).unwrap())
    }

    fn done(s: &HubSummary, i: usize) -> &HubReport {
        match &s.maps[i].1 {
            HubOutcome::Done(r) => r,
            o => panic!("map {i}: {o:?}"),
        }
    }

    #[test]
    fn builds_the_asked_index_then_skips_it_until_the_ask_changes() {
        let (dir, args) = hub_suite();
        let (s, text) = run(&args);
        assert_eq!((s.built(), s.skipped(), s.failed()), (2, 0, 0), "{text}");
        let arena = dir.path().join("hub/arena.hub");
        let r = done(&s, 0);
        assert_eq!(r.file, arena);
        assert_eq!(r.region, 1);
        // The file is what `taut hub build` would write: read back, it answers for the map.
        let index = read_hub(&arena).unwrap();
        assert_eq!(index.stats().corners, r.corners);
        assert!(r.corners > 0 && r.file_bytes == std::fs::metadata(&arena).unwrap().len());
        if reset_peak_memory() {
            let p = r.peak_bytes.expect("measured where the reset works");
            assert!(
                p >= r.memory_bytes,
                "peak {p} below the index's {}",
                r.memory_bytes
            );
        }
        assert!(text.contains("tiny/arena: wrote "), "{text}");

        let (s, text) = run(&args);
        assert_eq!((s.built(), s.skipped()), (0, 2), "{text}");

        // Another region side is another index: rebuilt, then up to date in its turn.
        let regions = PreprocessArgs {
            region: Some(4),
            ..args.clone()
        };
        let (s, _) = run(&regions);
        assert_eq!(s.built(), 2);
        assert_eq!(done(&s, 0).region, 4);
        assert_eq!(read_hub_header(&arena).unwrap().region, 4);
        assert_eq!(run(&regions).0.skipped(), 2);

        // A budget the regions of 4 fit keeps them; --force builds the finest that fits.
        let size = read_hub(&arena).unwrap().size_bytes();
        let budget = PreprocessArgs {
            region: None,
            budget: Some(size * 100),
            ..args.clone()
        };
        let (s, _) = run(&budget);
        assert_eq!(s.maps[0].1, HubOutcome::Skipped);
        let (s, _) = run(&PreprocessArgs {
            force: true,
            ..budget.clone()
        });
        assert!(done(&s, 0).region < 4, "{:?}", done(&s, 0));

        // The report: one row per map built.
        let report = write_report(&dir.path().join("results"), &s).unwrap();
        let csv = std::fs::read_to_string(&report).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[1], REPORT_HEADER);
        assert_eq!(lines.len(), 4);
        assert!(
            lines[2].starts_with("tiny/arena,arena.hub,"),
            "{}",
            lines[2]
        );
    }

    #[test]
    fn a_budget_no_index_fits_is_reported_per_map_and_writes_nothing() {
        let (dir, args) = hub_suite();
        let tiny = PreprocessArgs {
            budget: Some(1000),
            ..args
        };
        let (s, text) = run(&tiny);
        assert_eq!((s.built(), s.failed()), (0, 2), "{text}");
        assert!(text.contains("tiny/arena: not built: "), "{text}");
        assert!(text.contains("not built      2"), "{text}");
        assert!(!dir.path().join("hub/arena.hub").exists());
    }

    #[test]
    fn a_suite_without_a_hubs_directory_is_refused_by_name() {
        let (_dir, mut args) = tiny_suite();
        args.cpd = false;
        args.hub = true;
        let mut out = Vec::new();
        let err = preprocess(&args, &crate::repo_root(), &mut out)
            .unwrap_err()
            .to_string();
        assert!(err.contains("has no `hubs` directory"), "{err}");
    }
}
