//! `taut agent`: run a real-time agent in unknown terrain ([`taut::frit`]) on the queries of a
//! scenario file, or on one `--start`/`--goal` pair, and write one row per query; optionally
//! draw one run's trail ([`taut::render::trail`]).
//!
//! One [`World`] and one [`Scratch`] serve every query; each query gets a fresh agent. The
//! output contract (columns, statuses, number formats) is on [`AGENT_CSV_HEADER`] and
//! [`AgentRow`]; `taut agent --help` repeats it.

use std::io::Write;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ArgGroup, Args, ValueEnum};
use taut::frit::{AgentAlgo, FritConfig, RunOutcome, RunParams, Scratch, World};
use taut::grid::{FreeSet, Grid, MapFile, Point, Scenario};
use taut::render::Layout;
use taut::render::trail::{TrailScene, render_trail};

use crate::args::{OutputFile, parse_free_set, parse_output, parse_point};
use crate::commands::scen::warn_if_other_map;
use crate::error::{CliError, write_file};

mod rows;

pub use rows::{AGENT_CSV_HEADER, AgentRow, AgentSummary};

/// The long help of `taut agent` (`taut agent --help`).
pub const ABOUT: &str = "\
Run a real-time agent in unknown terrain on the queries of a MovingAI .scen file (or on one
--start/--goal pair) and print one row per query. The agent knows the map's size, its start
and its goal, and nothing of the obstacles: it sees the 8 cells around it after every move,
moves 8-connected (cost 1 straight, √2 diagonal, no corner cutting), and may expand at most
--lookahead states per decision. Starts and goals are cells: a .scen entry's x, y name the
cell whose top-left corner they are. See docs/frit.md for the algorithms.";

/// The end of `taut agent --help`: the output formats, `-o/--output`, exit status.
pub const AFTER_HELP: &str = "\
Output (--format csv, the default): the header
  index,status,cost,moves,episodes,max_episode_expansions,time_us
and one row per query, in file order:
- index: the 0-based position of the query in the .scen file (0 for --start/--goal);
- status (the words of every taut command): ok (the agent reached the goal); unreachable
  (the goal cannot be reached from the start: the simulator knows it from the true map
  before the agent moves); invalid (the start or the goal is off the map or on a blocked
  cell: the agent is not run and every field after status is empty); limit or failed (the
  agent hit the simulator's cap on moves, or broke a rule: defects that should never
  happen); ok, unreachable and limit were formerly reached, unsolvable and cutoff;
- cost: the cost travelled, with 6 decimals; moves: the moves made;
- episodes: the decisions that searched; max_episode_expansions: the most states expanded
  by one decision (never above the lookahead);
- time_us: the total time the agent spent deciding, in microseconds, with 1 decimal.

--format text: one line per query, `query I STATUS cost C moves M episodes E
max_episode_expansions X time_us T` (`query I invalid REASON` for an invalid one, and the
reason in parentheses after `limit` or `failed`), then `queries N ok R unreachable U invalid I
limit C failed F mean_cost X mean_time_us T`, the means taken over the ok queries
(`-` when there is none).

--format json: one JSON array, an object per query with the csv's columns as keys (numbers
as in the csv, null where the csv is empty) and `reason` (null unless the query is invalid
or the run ended limit or failed).

-o/--output FILE (.svg or .png; formerly --render): the map, the agent's trail through the centres of the cells it visited, the
start (green), the goal (red) and the blocked cells the agent saw (orange); of query
--query N, else of the first query run. Every query is still run and printed.

Exit status: 0 when every query ends ok, unreachable or invalid; 1 when one ends limit
or failed (after every row: one line `taut: ...` on stderr), or when a file cannot be read
or written; 2 for usage errors.

Example:
  taut agent --map arena.map --scen arena.map.scen --algo p-frit-rt --lookahead 16";

/// Arguments of `taut agent`.
#[derive(Debug, Clone, Args)]
#[command(group(ArgGroup::new("queries").required(true).args(["scen", "start"])))]
pub struct AgentArgs {
    /// The MovingAI .map file: the true terrain, which the agent discovers as it moves.
    #[arg(long, value_name = "FILE")]
    pub map: PathBuf,
    /// Run the queries of this .scen file.
    #[arg(long, value_name = "FILE")]
    pub scen: Option<PathBuf>,
    /// Run only query N (0-based) of --scen (and draw it with --render).
    // `requires` alone is satisfied by the `queries` group's other member, hence the conflict.
    #[arg(long, value_name = "N", requires = "scen", conflicts_with = "start")]
    pub query: Option<usize>,
    /// Instead of --scen: one query from cell X,Y (column x east, row y south, from 0; agents
    /// stand in cells and move between their centres, whereas `taut path`'s X,Y is a lattice
    /// point, a cell's top-left corner). With --goal.
    #[arg(long, visible_alias = "from", value_name = "X,Y", value_parser = parse_point,
          allow_hyphen_values = true, requires = "goal", conflicts_with = "scen")]
    pub start: Option<Point>,
    /// The goal cell X,Y of --start (column, row, as --start).
    #[arg(long, visible_alias = "to", value_name = "X,Y", value_parser = parse_point,
          allow_hyphen_values = true, requires = "start")]
    pub goal: Option<Point>,
    /// The agent.
    #[arg(long, value_name = "ALGO", default_value = "p-frit-rt",
          value_parser = agent_algo_parser())]
    pub algo: taut::frit::AgentAlgo,
    /// The lookahead k >= 1: at most k states expanded per decision (rtaa, dartaa, frit-rt,
    /// p-frit-rt). lrta and bug2 always look one step ahead; frit-bfs is not real-time and
    /// searches as far as it needs.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub lookahead: u32,
    /// The map characters that are free terrain; every other character is blocked.
    #[arg(long, value_name = "CHARS", default_value = ".GS", value_parser = parse_free_set)]
    pub free: FreeSet,
    /// Also draw the trail of one query (--query N, else the first query run) into FILE.svg
    /// or FILE.png.
    #[arg(short = 'o', long, value_name = "FILE", value_parser = parse_output)]
    pub output: Option<OutputFile>,
    /// The old name of --output (warns; goes in the next release).
    #[arg(long, value_name = "FILE", value_parser = parse_output, hide = true,
          conflicts_with = "output")]
    pub render: Option<OutputFile>,
    /// With --output: the map's long side in pixels (as in `taut render`).
    #[arg(long, value_name = "PX", default_value_t = 2048,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_px: u32,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AgentFormat::Csv)]
    pub format: AgentFormat,
    /// The FRIT family's profile: `paper` (the p-FRIT_RT paper's algorithms as written, the
    /// default) or `taut` (our improvements; docs/frit.md gives their measured effect).
    #[arg(long, value_name = "NAME", default_value = "paper",
          value_parser = |s: &str| taut::frit::FritConfig::profile(s))]
    pub profile: taut::frit::FritConfig,
    /// One FRIT option over --profile (the help lists them from the library's table).
    #[arg(long = "frit-option", value_name = "NAME=VALUE", value_parser = parse_frit_option,
          help = taut::frit::FritConfig::options_help())]
    pub frit_options: Vec<String>,
    /// How agents may move: `no-corner-cut` (the default, as every other planner in taut) or
    /// `corner-cut` (diagonal moves between two blocked cells touching at a corner, as the
    /// paper's model is written).
    #[arg(long, value_name = "RULE", default_value = "no-corner-cut")]
    pub moves: taut::frit::MoveRule,
}

impl AgentArgs {
    /// The FRIT configuration: --profile with every --frit-option applied in order.
    pub fn frit_config(&self) -> taut::frit::FritConfig {
        let mut config = self.profile;
        for spec in &self.frit_options {
            // Each was checked by `parse_frit_option` when the arguments were parsed.
            let _ = config.set_all(spec);
        }
        config
    }
}

/// Checks a `--frit-option` value against every profile's option names and values.
fn parse_frit_option(s: &str) -> Result<String, String> {
    taut::frit::FritConfig::paper().set_all(s)?;
    Ok(s.to_owned())
}

/// Output formats of `taut agent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AgentFormat {
    /// A header line and one comma-separated row per query.
    Csv,
    /// One line per query and a summary line.
    Text,
    /// One JSON array, one object per query (the csv's columns as keys, numbers as in the
    /// csv, `null` where the csv is empty, and `reason` for an invalid query or a defect).
    Json,
}

/// The queries `taut agent` runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentQueries {
    /// `--start X,Y --goal X,Y`: one query, index 0.
    Points {
        /// Start cell.
        start: Point,
        /// Goal cell.
        goal: Point,
    },
    /// `--scen FILE [--query N]`.
    Scenario {
        /// The scenario file.
        scen: PathBuf,
        /// Only this 0-based query, if given.
        query: Option<usize>,
    },
}

impl AgentArgs {
    /// The queries the arguments name (clap guarantees one of the forms).
    pub fn queries(&self) -> AgentQueries {
        match (self.start, self.goal, &self.scen) {
            (Some(start), Some(goal), _) => AgentQueries::Points { start, goal },
            (_, _, Some(scen)) => AgentQueries::Scenario {
                scen: scen.clone(),
                query: self.query,
            },
            _ => unreachable!("clap requires --scen or --start/--goal"),
        }
    }
}

fn agent_algo_parser() -> impl TypedValueParser<Value = taut::frit::AgentAlgo> {
    PossibleValuesParser::new(taut::frit::AgentAlgo::ALL.map(|a| a.name()))
        .try_map(|s| s.parse::<taut::frit::AgentAlgo>())
}

/// Runs one query with a fresh agent of `algo` at lookahead `k` (as the algorithm uses it:
/// [`AgentAlgo::effective_lookahead`]); `record` keeps the trail.
pub fn run_agent_query(
    world: &World<'_>,
    scratch: &mut Scratch,
    (algo, config): (AgentAlgo, &FritConfig),
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
            warn_if_other_map(&scen, entries, &args.map, warnings);
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
fn caption(algo: AgentAlgo, k: u32, row: &AgentRow) -> String {
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
    write_file(&output.path, &bytes)
}

/// `taut agent`: runs the queries with one [`World`] and one [`Scratch`], writing a row per
/// query as soon as it is answered (and with `--format text` a summary line), then draws the
/// `--render` picture of the first query run.
///
/// # Errors
/// Unreadable or malformed files, `--query` beyond the scenario, a picture too large or that
/// cannot be written, a failed write; and, after every row, [`CliError::AgentDefect`] when a
/// run ended `cutoff` or `failed`.
pub fn run(
    args: &AgentArgs,
    out: &mut dyn Write,
    warnings: &mut dyn Write,
) -> Result<(), CliError> {
    let grid = Grid::from_map(&MapFile::read(&args.map)?, &args.free);
    let queries = load_queries(args, warnings)?;
    // Everything that can fail before the first line of output.
    if args.render.is_some() {
        let _ = writeln!(
            warnings,
            "taut: warning: --render is now -o/--output (the old name goes in the next release)"
        );
    }
    let render = match args.output.as_ref().or(args.render.as_ref()) {
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
    match args.format {
        AgentFormat::Csv => writeln!(out, "{AGENT_CSV_HEADER}")?,
        AgentFormat::Json => write!(out, "[")?,
        AgentFormat::Text => {}
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
            AgentFormat::Json => {
                write!(out, "{}\n  ", if i == 0 { "" } else { "," })?;
                serde_json::to_writer(&mut *out, &row.to_json()).map_err(std::io::Error::from)?;
            }
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
    match args.format {
        AgentFormat::Text => summary.write_text(out)?,
        AgentFormat::Json => writeln!(out, "{}]", if queries.is_empty() { "" } else { "\n" })?,
        AgentFormat::Csv => {}
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
