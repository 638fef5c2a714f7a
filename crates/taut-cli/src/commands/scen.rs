//! `taut scen`: run the queries of a scenario file and write one row per query.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, ValueEnum};
use taut::grid::{
    Answer, Anytime, Grid, Limit, PlanError, Planner, Point, ScenEntry, Scenario, Status,
};
use taut::registry::Algo;

use crate::args::{LimitArgs, PlannerArgs};
use crate::error::CliError;
use crate::planners::{load_grid, open_map, planner_for_args};
use crate::row::{Row, RowFormat, RowStatus, RowWriter};

mod mesh_scen;
mod summary;

/// Arguments of `taut scen`.
#[derive(Debug, Clone, Args)]
pub struct ScenArgs {
    /// The MovingAI .scen file. Its x, y columns name lattice points: the top-left corner of
    /// cell (x, y), x east, y south, from 0 (a mesh scenario's points are mesh coordinates,
    /// fractions allowed).
    #[arg(long, value_name = "FILE")]
    pub scen: PathBuf,
    /// The .map file. Default: the map the first query names, found by its base name in the
    /// scenario's directory, then in --maps-dir.
    #[arg(long, value_name = "FILE")]
    pub map: Option<PathBuf>,
    /// Another directory to look for the scenario's map in (when --map is not given).
    #[arg(long, value_name = "DIR")]
    pub maps_dir: Option<PathBuf>,
    /// Run only the first N queries.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Run the queries N times over on the same warm planner and report each query's median
    /// time (and first-solution time) over the N rounds: steadier timings than one pass, whose
    /// first queries pay for growing the planner's buffers. The rows are written after the
    /// last round.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub repeat: u32,
    /// Planner and terrain options.
    #[command(flatten)]
    pub planner: PlannerArgs,
    /// The bound on each query.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// End Point Search only: also time the first solution (column `first_us`), and run on
    /// to the optimum (whatever --eps-stop says).
    #[arg(long)]
    pub anytime: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ScenFormat::Csv)]
    pub format: ScenFormat,
    /// After the rows, write one summary line to stderr: the number of queries by status,
    /// the expansions, generated nodes and planner time summed over them, and what was built
    /// for the map before the first query, with its build time and memory (`index: ray index
    /// built in 1.234 ms, 0.27 MiB`). The rows on stdout are the same with or without it.
    #[arg(long)]
    pub summary: bool,
}

/// Output formats of `taut scen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ScenFormat {
    /// A header line and one comma-separated row per query.
    Csv,
    /// A JSON array of objects with the csv column names as keys.
    Json,
}

impl From<ScenFormat> for RowFormat {
    fn from(f: ScenFormat) -> RowFormat {
        match f {
            ScenFormat::Csv => RowFormat::Csv,
            ScenFormat::Json => RowFormat::Json,
        }
    }
}

/// Answers one query: validates the endpoints on `grid` (an invalid query is reported without
/// running the planner), else times `planner.plan` (or, with a limit, `plan_within`) into the
/// reused `answer`.
pub fn run_query(
    grid: &Grid,
    planner: &mut dyn Planner,
    answer: &mut Answer,
    index: usize,
    (start, goal): (Point, Point),
    limit: Limit,
) -> Row {
    let mut row = Row::invalid(index, start, goal);
    if grid.check_query(start, goal).is_err() {
        return row;
    }
    let t = Instant::now();
    let result = if limit.is_none() {
        planner.plan(start, goal, answer).map_err(PlanError::from)
    } else {
        planner.plan_within(start, goal, limit, answer)
    };
    let time_us = t.elapsed().as_secs_f64() * 1e6;
    row.status = match result {
        Ok(Status::Found) => RowStatus::Ok(answer.length),
        Ok(Status::Unreachable) => RowStatus::Unreachable,
        Err(PlanError::Limit(reached)) => {
            answer.stats = reached.stats;
            RowStatus::Limit
        }
        // The planner disagrees with check_query; report what it said, without statistics.
        Err(PlanError::Query(_)) => return row,
    };
    row.expanded = answer.stats.expanded;
    row.generated = answer.stats.generated;
    row.time_us = time_us;
    row
}

/// Answers one query with an anytime planner ([`taut::grid::Anytime`], End Point Search's):
/// times [`Anytime::start`] and the first [`Anytime::next_solution`] (`first_us`), then runs on
/// to the proven optimum (`time_us`, `length`). An invalid query is reported without running
/// the planner.
pub fn run_anytime_query(
    grid: &Grid,
    planner: &mut dyn Anytime,
    answer: &mut Answer,
    index: usize,
    start: Point,
    goal: Point,
) -> Row {
    let mut row = Row {
        first_us: Some(0.0),
        ..Row::invalid(index, start, goal)
    };
    if grid.check_query(start, goal).is_err() {
        return row;
    }
    let t = Instant::now();
    if planner.start(start, goal).is_err() {
        return row;
    }
    let mut best = planner.next_solution();
    let first_us = t.elapsed().as_secs_f64() * 1e6;
    while let Some(next) = planner.next_solution() {
        best = Some(next);
    }
    row.time_us = t.elapsed().as_secs_f64() * 1e6;
    row.first_us = Some(first_us);
    row.status = match best {
        Some(sol) => RowStatus::Ok(sol.length),
        None => RowStatus::Unreachable,
    };
    planner.best(answer);
    row.expanded = answer.stats.expanded;
    row.generated = answer.stats.generated;
    row
}

/// The median of `values` (the mean of the middle two for an even count; 0 for none).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// Finds a scenario's map by its base name: in the scenario file's directory, then in
/// `maps_dir`.
///
/// # Errors
/// [`CliError::MapNotFound`] naming the directories searched.
pub fn resolve_map(name: &str, scen: &Path, maps_dir: Option<&Path>) -> Result<PathBuf, CliError> {
    let scen_dir = match scen.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let searched: Vec<PathBuf> = std::iter::once(scen_dir)
        .chain(maps_dir.map(Path::to_path_buf))
        .collect();
    searched
        .iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| CliError::MapNotFound {
            name: name.to_owned(),
            scen: scen.to_path_buf(),
            searched,
        })
}

/// Writes one warning line when a query of `scen` names a map other than `map` (by base
/// name): the first such query's line.
pub(crate) fn warn_if_other_map(
    scen: &Path,
    entries: &[ScenEntry],
    map: &Path,
    warnings: &mut dyn Write,
) {
    let used = map.file_name().map(|f| f.to_string_lossy().into_owned());
    if let Some(e) = entries
        .iter()
        .find(|e| Some(e.map_base_name()) != used.as_deref())
    {
        // A warning that cannot be written is not worth failing the run for.
        let _ = writeln!(
            warnings,
            "taut: warning: {}:{} names map {:?}, but the map used is {}",
            scen.display(),
            e.line,
            e.map,
            map.display()
        );
    }
}

/// `taut scen`: runs the scenario's queries (the first `--limit` of them) with one planner and
/// one reused [`Answer`], writing a row per query as soon as it is answered.
///
/// When the queries name a map other than the one used, one warning line goes to `warnings`.
///
/// # Errors
/// Unreadable or malformed files, a map that cannot be found, or a failed write.
pub fn run(args: &ScenArgs, out: &mut dyn Write, warnings: &mut dyn Write) -> Result<(), CliError> {
    if let (Some(mesh), None, Algo::Polyanya | Algo::Auto) =
        (&args.planner.mesh, &args.map, args.planner.algo())
        && taut::mesh::is_mesh_scenario(&args.scen)
    {
        return mesh_scen::run_mesh_scen(args, mesh, out, warnings);
    }
    let scen = Scenario::read(&args.scen)?;
    let n = args
        .limit
        .map_or(scen.entries.len(), |l| l.min(scen.entries.len()));
    let entries = &scen.entries[..n];
    let map = match (&args.map, entries.first()) {
        (Some(m), _) => Some(m.clone()),
        (None, Some(e)) => Some(resolve_map(
            e.map_base_name(),
            &args.scen,
            args.maps_dir.as_deref(),
        )?),
        (None, None) => None,
    };
    let grid = map
        .as_deref()
        .map(|m| load_grid(m, &args.planner))
        .transpose()?;
    if let Some(map) = &map {
        warn_if_other_map(&args.scen, entries, map, warnings);
    }

    if args.anytime && !matches!(args.planner.algo(), Algo::Eps | Algo::Auto) {
        return Err(CliError::OnlyWith {
            option: "--anytime",
            algo: "eps",
        });
    }
    // Everything that can fail (meshes, the CPD) before the first line of output.
    let map = grid.map(|g| open_map(g, &args.planner)).transpose()?;
    let mut setup = match &map {
        Some(map) => {
            let (mut planner, _) = planner_for_args(map, &args.planner, true, warnings)?;
            if args.anytime && planner.anytime().is_none() {
                return Err(CliError::OnlyWith {
                    option: "--anytime",
                    algo: "eps",
                });
            }
            Some((&**map.grid(), planner))
        }
        None => None,
    };
    let mut rows = RowWriter::start(out, args.format.into(), args.anytime)?;
    let mut tally = summary::Tally::default();
    if let Some((grid, planner)) = &mut setup {
        let mut answer = Answer::default();
        let mut run = |index: usize, e: &ScenEntry| match (args.anytime, planner.anytime()) {
            (true, Some(anytime)) => {
                run_anytime_query(grid, anytime, &mut answer, index, e.start, e.goal)
            }
            _ => run_query(
                grid,
                &mut **planner,
                &mut answer,
                index,
                (e.start, e.goal),
                args.limits.limit(),
            ),
        };
        if args.repeat == 1 {
            for (index, e) in entries.iter().enumerate() {
                let row = run(index, e);
                tally.add(&row);
                rows.write(&row)?;
            }
        } else {
            // Every round's times, query by query; the rows of the first round with the
            // medians put in (the answers are the same every round).
            let rounds = args.repeat as usize;
            let mut times = vec![Vec::with_capacity(rounds); entries.len()];
            let mut first = vec![Vec::with_capacity(rounds); entries.len()];
            let mut kept = Vec::with_capacity(entries.len());
            for round in 0..rounds {
                for (index, e) in entries.iter().enumerate() {
                    let row = run(index, e);
                    times[index].push(row.time_us);
                    first[index].extend(row.first_us);
                    if round == 0 {
                        kept.push(row);
                    }
                }
            }
            for (index, mut row) in kept.into_iter().enumerate() {
                row.time_us = median(&mut times[index]);
                if row.first_us.is_some() {
                    row.first_us = Some(median(&mut first[index]));
                }
                tally.add(&row);
                rows.write(&row)?;
            }
        }
    }
    rows.finish()?;
    if args.summary {
        let built = match (&map, &setup) {
            (Some(map), Some((_, planner))) => map.built(&**planner),
            _ => Vec::new(),
        };
        summary::write(warnings, &tally, &built);
    }
    Ok(())
}
