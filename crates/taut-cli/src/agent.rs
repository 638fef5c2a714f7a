//! `taut agent`: run a real-time agent in unknown terrain ([`taut::frit`]) on the queries of a
//! scenario file, or on one `--start`/`--goal` pair, and write one row per query; optionally
//! draw one run's trail ([`taut::render::trail`]).
//!
//! One [`World`] and one [`Scratch`] serve every query; each query gets a fresh agent. The
//! output contract (columns, statuses, number formats) is on [`AGENT_CSV_HEADER`] and
//! [`AgentRow`]; `taut agent --help` repeats it.

use std::io::Write;
use std::time::Duration;

use taut::frit::{Algo, FritConfig, FritError, RunOutcome, RunParams, Scratch, Status, World};
use taut::grid::{Grid, MapFile, Point, Scenario};

use crate::args::{AgentArgs, AgentFormat, AgentQueries, OutputFile};
use crate::error::CliError;
use taut::render::Layout;
use taut::render::trail::{TrailScene, render_trail};

/// The header line of `taut agent --format csv`:
///
/// - `index`: the 0-based position of the query in the scenario file (0 for
///   `--start`/`--goal`);
/// - `status`: `reached`, `unsolvable`, `invalid` (an endpoint off the map or on a blocked
///   cell: the agent is not run and every later field is empty), `cutoff` or `failed` (see
///   [`Status`]);
/// - `cost`: the cost travelled, 6 decimals;
/// - `moves`, `episodes`, `max_episode_expansions`: the run's [`taut::frit::Stats`];
/// - `time_us`: the total decision time ([`taut::frit::Stats::time`]) in microseconds, 1
///   decimal.
pub const AGENT_CSV_HEADER: &str =
    "index,status,cost,moves,episodes,max_episode_expansions,time_us";

/// One row of `taut agent` output: a query and what became of it.
#[derive(Debug, Clone)]
pub struct AgentRow {
    /// 0-based index of the query in the scenario file.
    pub index: usize,
    /// Start cell.
    pub start: Point,
    /// Goal cell.
    pub goal: Point,
    /// The run, or why the query is invalid.
    pub result: Result<RunOutcome, FritError>,
}

impl AgentRow {
    /// The `status` column: [`Status::name`], or `invalid`.
    pub fn status(&self) -> &'static str {
        match &self.result {
            Ok(run) => run.status.name(),
            Err(_) => "invalid",
        }
    }

    /// Whether the run ended `cutoff` or `failed` (a defect of the agent).
    pub fn is_defect(&self) -> bool {
        matches!(
            &self.result,
            Ok(RunOutcome {
                status: Status::Cutoff | Status::Failed(_),
                ..
            })
        )
    }

    /// What went wrong, for a defect or an invalid query (`None` otherwise).
    pub fn reason(&self) -> Option<String> {
        match &self.result {
            Err(e) => Some(e.to_string()),
            Ok(RunOutcome {
                status: Status::Failed(why),
                ..
            }) => Some(why.clone()),
            Ok(RunOutcome {
                status: Status::Cutoff,
                stats,
                ..
            }) => Some(format!(
                "the simulator's cap was hit after {} moves and {} decisions",
                stats.moves, stats.decisions
            )),
            Ok(_) => None,
        }
    }

    /// Writes the row as a csv line (columns of [`AGENT_CSV_HEADER`]).
    ///
    /// # Errors
    /// The write fails.
    pub fn write_csv(&self, out: &mut dyn Write) -> std::io::Result<()> {
        match &self.result {
            Ok(run) => {
                let s = &run.stats;
                writeln!(
                    out,
                    "{},{},{:.6},{},{},{},{:.1}",
                    self.index,
                    run.status.name(),
                    s.cost,
                    s.moves,
                    s.episodes,
                    s.max_episode_expansions,
                    micros(s.time)
                )
            }
            Err(_) => writeln!(out, "{},invalid,,,,,", self.index),
        }
    }

    /// Writes the row as one line of `--format text`: `query I STATUS cost C moves M
    /// episodes E max_episode_expansions X time_us T`, with ` (REASON)` after `failed` and
    /// `cutoff`; `query I invalid REASON` for an invalid query.
    ///
    /// # Errors
    /// The write fails.
    pub fn write_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let Ok(run) = &self.result else {
            let reason = self.reason().unwrap_or_default();
            return writeln!(out, "query {} invalid {reason}", self.index);
        };
        write!(out, "query {} {}", self.index, run.status.name())?;
        if let Some(reason) = self.reason() {
            write!(out, " ({reason})")?;
        }
        let s = &run.stats;
        writeln!(
            out,
            " cost {:.6} moves {} episodes {} max_episode_expansions {} time_us {:.1}",
            s.cost,
            s.moves,
            s.episodes,
            s.max_episode_expansions,
            micros(s.time)
        )
    }
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// The counts and means of `--format text`'s summary line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AgentSummary {
    /// Queries run.
    pub queries: usize,
    /// Rows `reached`.
    pub reached: usize,
    /// Rows `unsolvable`.
    pub unsolvable: usize,
    /// Rows `invalid`.
    pub invalid: usize,
    /// Rows `cutoff`.
    pub cutoff: usize,
    /// Rows `failed`.
    pub failed: usize,
    /// Sum of the reached runs' costs.
    pub cost_sum: f64,
    /// Sum of the reached runs' decision times, in microseconds.
    pub time_sum_us: f64,
}

impl AgentSummary {
    /// Counts one row.
    pub fn add(&mut self, row: &AgentRow) {
        self.queries += 1;
        match &row.result {
            Err(_) => self.invalid += 1,
            Ok(run) => match run.status {
                Status::Reached => {
                    self.reached += 1;
                    self.cost_sum += run.stats.cost;
                    self.time_sum_us += micros(run.stats.time);
                }
                Status::Unsolvable => self.unsolvable += 1,
                Status::Cutoff => self.cutoff += 1,
                Status::Failed(_) => self.failed += 1,
            },
        }
    }

    /// Writes `queries N reached R unsolvable U invalid I cutoff C failed F mean_cost X
    /// mean_time_us T`: the means over the reached queries, `-` when there is none.
    ///
    /// # Errors
    /// The write fails.
    pub fn write_text(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let mean = |sum: f64, decimals: usize| {
            if self.reached == 0 {
                "-".to_owned()
            } else {
                format!("{:.decimals$}", sum / self.reached as f64)
            }
        };
        writeln!(
            out,
            "queries {} reached {} unsolvable {} invalid {} cutoff {} failed {} \
             mean_cost {} mean_time_us {}",
            self.queries,
            self.reached,
            self.unsolvable,
            self.invalid,
            self.cutoff,
            self.failed,
            mean(self.cost_sum, 6),
            mean(self.time_sum_us, 1)
        )
    }
}

/// Runs one query with a fresh agent of `algo` at lookahead `k` (as the algorithm uses it:
/// [`Algo::effective_lookahead`]); `record` keeps the trail.
pub fn run_agent_query(
    world: &World<'_>,
    scratch: &mut Scratch,
    (algo, config): (Algo, &FritConfig),
    k: u32,
    (index, start, goal): (usize, Point, Point),
    record: bool,
) -> AgentRow {
    let mut agent = algo.agent_with(config);
    let params = RunParams {
        record,
        ..RunParams::new(algo.effective_lookahead(k))
    };
    let result = taut::frit::run(
        world,
        agent.as_mut(),
        (start.x, start.y),
        (goal.x, goal.y),
        &params,
        scratch,
    );
    AgentRow {
        index,
        start,
        goal,
        result,
    }
}

/// The queries to run, as `(index, start, goal)`; one warning line when the scenario names
/// another map.
fn load_queries(
    args: &AgentArgs,
    warnings: &mut dyn Write,
) -> Result<Vec<(usize, Point, Point)>, CliError> {
    match args.queries() {
        AgentQueries::Points { start, goal } => Ok(vec![(0, start, goal)]),
        AgentQueries::Scenario { scen, query } => {
            let sc = Scenario::read(&scen)?;
            let entries = match query {
                Some(i) => {
                    let e = sc.entries.get(i).ok_or_else(|| CliError::NoSuchQuery {
                        scen: scen.clone(),
                        index: i,
                        count: sc.entries.len(),
                    })?;
                    std::slice::from_ref(e)
                }
                None => &sc.entries[..],
            };
            crate::scen::warn_if_other_map(&scen, entries, &args.map, warnings);
            let first = query.unwrap_or(0);
            Ok(entries
                .iter()
                .enumerate()
                .map(|(i, e)| (first + i, e.start, e.goal))
                .collect())
        }
    }
}

/// The one-line description of a picture of `row`.
fn caption(algo: Algo, k: u32, row: &AgentRow) -> String {
    let (s, t) = (row.start, row.goal);
    let what = match &row.result {
        Ok(run) => format!(
            "{}, cost {:.4}, {} moves, {} episodes",
            run.status.name(),
            run.stats.cost,
            run.stats.moves,
            run.stats.episodes
        ),
        Err(e) => format!("invalid: {e}"),
    };
    let k = match algo.effective_lookahead(k) {
        u32::MAX => "unbounded".to_owned(),
        k => k.to_string(),
    };
    format!(
        "{algo} (lookahead {k}) query {} ({},{}) → ({},{}): {what}",
        row.index, s.x, s.y, t.x, t.y
    )
}

/// Draws `row`'s run (its trail, when it ran) into the `--render` file.
fn draw(
    grid: &Grid,
    world: &World<'_>,
    row: &AgentRow,
    caption: &str,
    output: &OutputFile,
    layout: &Layout,
) -> Result<(), CliError> {
    let trail: Vec<Point> = match &row.result {
        Ok(RunOutcome {
            trail: Some(cells), ..
        }) => cells
            .iter()
            .map(|&c| {
                let (x, y) = world.xy(c);
                Point::new(x, y)
            })
            .collect(),
        _ => Vec::new(),
    };
    let scene = TrailScene {
        grid,
        start: row.start,
        goal: row.goal,
        trail: &trail,
    };
    let bytes = render_trail(&scene, layout, output.format.into(), caption)?;
    crate::error::write_file(&output.path, &bytes)
}

/// `taut agent`: runs the queries with one [`World`] and one [`Scratch`], writing a row per
/// query as soon as it is answered (and with `--format text` a summary line), then draws the
/// `--render` picture of the first query run.
///
/// # Errors
/// Unreadable or malformed files, `--query` beyond the scenario, a picture too large or that
/// cannot be written, a failed write; and, after every row, [`CliError::AgentDefect`] when a
/// run ended `cutoff` or `failed`.
pub fn run_agent(
    args: &AgentArgs,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), CliError> {
    let grid = Grid::from_map(&MapFile::read(&args.map)?, &args.free);
    let queries = load_queries(args, warnings)?;
    // Everything that can fail before the first line of output.
    let render = match &args.render {
        Some(output) => {
            if queries.is_empty() {
                let scen = args.scen.clone().unwrap_or_default();
                return Err(CliError::NoSuchQuery {
                    scen,
                    index: 0,
                    count: 0,
                });
            }
            Some((
                output,
                Layout::fit(grid.width(), grid.height(), args.max_px, None)?,
            ))
        }
        None => None,
    };
    let world = World::with_moves(&grid, args.moves);
    let config = args.frit_config();
    let mut scratch = Scratch::new();
    if args.format == AgentFormat::Csv {
        writeln!(out, "{AGENT_CSV_HEADER}")?;
    }
    let mut summary = AgentSummary::default();
    let mut drawn = None;
    let mut first_defect = None;
    for (i, &query) in queries.iter().enumerate() {
        let record = render.is_some() && i == 0;
        let row = run_agent_query(
            &world,
            &mut scratch,
            (args.algo, &config),
            args.lookahead,
            query,
            record,
        );
        match args.format {
            AgentFormat::Csv => row.write_csv(out)?,
            AgentFormat::Text => row.write_text(out)?,
        }
        summary.add(&row);
        if row.is_defect() && first_defect.is_none() {
            first_defect = Some(format!(
                "query {} {}: {}",
                row.index,
                row.status(),
                row.reason().unwrap_or_default()
            ));
        }
        if record {
            drawn = Some(row);
        }
    }
    if args.format == AgentFormat::Text {
        summary.write_text(out)?;
    }
    if let (Some((output, layout)), Some(row)) = (render, &drawn) {
        let caption = caption(args.algo, args.lookahead, row);
        draw(&grid, &world, row, &caption, output, &layout)?;
    }
    match first_defect {
        Some(first) => Err(CliError::AgentDefect {
            count: summary.cutoff + summary.failed,
            total: summary.queries,
            first,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use taut::frit::Stats;

    fn row(result: Result<RunOutcome, FritError>) -> AgentRow {
        AgentRow {
            index: 7,
            start: Point::new(1, 2),
            goal: Point::new(3, 4),
            result,
        }
    }

    fn ran(status: Status) -> Result<RunOutcome, FritError> {
        Ok(RunOutcome {
            status,
            stats: Stats {
                cost: 2.0 + std::f64::consts::SQRT_2,
                moves: 3,
                decisions: 4,
                episodes: 2,
                max_episode_expansions: 5,
                time: Duration::from_nanos(12_345),
                ..Stats::default()
            },
            trail: None,
        })
    }

    fn csv(r: &AgentRow) -> String {
        let mut v = Vec::new();
        r.write_csv(&mut v).unwrap();
        String::from_utf8(v).unwrap()
    }

    fn text(r: &AgentRow) -> String {
        let mut v = Vec::new();
        r.write_text(&mut v).unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn rows_print_every_status() {
        let reached = row(ran(Status::Reached));
        assert_eq!(csv(&reached), "7,reached,3.414214,3,2,5,12.3\n");
        assert_eq!(
            text(&reached),
            "query 7 reached cost 3.414214 moves 3 episodes 2 max_episode_expansions 5 \
             time_us 12.3\n"
        );
        assert!(!reached.is_defect());
        let failed = row(ran(Status::Failed("x moved illegally".into())));
        assert_eq!(csv(&failed), "7,failed,3.414214,3,2,5,12.3\n");
        assert!(text(&failed).starts_with("query 7 failed (x moved illegally) cost 3.414214"));
        assert!(failed.is_defect());
        let cutoff = row(ran(Status::Cutoff));
        assert!(csv(&cutoff).starts_with("7,cutoff,"));
        assert!(cutoff.is_defect());
        assert!(cutoff.reason().unwrap().contains("3 moves and 4 decisions"));
        let invalid = row(Err(FritError::Blocked {
            which: "start",
            x: 1,
            y: 2,
        }));
        assert_eq!(csv(&invalid), "7,invalid,,,,,\n");
        assert_eq!(
            text(&invalid),
            "query 7 invalid start (1, 2) is a blocked cell\n"
        );
        assert!(!invalid.is_defect());
        // Every csv row has the header's number of columns.
        let columns = AGENT_CSV_HEADER.split(',').count();
        for r in [&reached, &failed, &cutoff, &invalid] {
            assert_eq!(csv(r).trim_end().split(',').count(), columns);
        }
    }

    #[test]
    fn the_summary_counts_statuses_and_averages_reached_runs() {
        let mut s = AgentSummary::default();
        let line = |s: &AgentSummary| {
            let mut v = Vec::new();
            s.write_text(&mut v).unwrap();
            String::from_utf8(v).unwrap()
        };
        assert_eq!(
            line(&s),
            "queries 0 reached 0 unsolvable 0 invalid 0 cutoff 0 failed 0 mean_cost - \
             mean_time_us -\n"
        );
        s.add(&row(ran(Status::Reached)));
        s.add(&row(ran(Status::Unsolvable)));
        s.add(&row(ran(Status::Cutoff)));
        s.add(&row(Err(FritError::OffMap {
            which: "goal",
            x: 9,
            y: 9,
            width: 2,
            height: 2,
        })));
        assert_eq!(
            line(&s),
            "queries 4 reached 1 unsolvable 1 invalid 1 cutoff 1 failed 0 mean_cost 3.414214 \
             mean_time_us 12.3\n"
        );
    }
}
