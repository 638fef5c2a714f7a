//! The rows of `taut agent`: one [`AgentRow`] per query (csv or text), and the
//! [`AgentSummary`] line of `--format text`.

use std::io::Write;
use std::time::Duration;

use taut::frit::{FritError, RunOutcome, Status};
use taut::grid::Point;

/// The header line of `taut agent --format csv`:
///
/// - `index`: the 0-based position of the query in the scenario file (0 for
///   `--start`/`--goal`);
/// - `status`: `ok`, `unreachable`, `invalid` (an endpoint off the map or on a blocked
///   cell: the agent is not run and every later field is empty), `limit` or `failed` (see
///   [`Status::name`]);
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

    /// Whether the run ended `limit` or `failed` (a defect of the agent).
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

    /// The row as a JSON object: the csv's columns as keys (numbers formatted as in the csv,
    /// `null` where the csv is empty) and `reason` (`null` unless the query is invalid or the
    /// run a defect).
    pub fn to_json(&self) -> serde_json::Value {
        let number = |text: String| {
            serde_json::from_str::<serde_json::Value>(&text).unwrap_or(serde_json::Value::Null)
        };
        let (cost, moves, episodes, max_exp, time) = match &self.result {
            Ok(run) => {
                let s = &run.stats;
                (
                    number(format!("{:.6}", s.cost)),
                    serde_json::json!(s.moves),
                    serde_json::json!(s.episodes),
                    serde_json::json!(s.max_episode_expansions),
                    number(format!("{:.1}", micros(s.time))),
                )
            }
            Err(_) => Default::default(),
        };
        serde_json::json!({
            "index": self.index,
            "status": self.status(),
            "cost": cost,
            "moves": moves,
            "episodes": episodes,
            "max_episode_expansions": max_exp,
            "time_us": time,
            "reason": self.reason(),
        })
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
    /// `limit`; `query I invalid REASON` for an invalid query.
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
    /// Rows `ok` (the goal reached).
    pub reached: usize,
    /// Rows `unreachable`.
    pub unsolvable: usize,
    /// Rows `invalid`.
    pub invalid: usize,
    /// Rows `limit` (cut off).
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

    /// Writes `queries N ok R unreachable U invalid I limit C failed F mean_cost X
    /// mean_time_us T`: the means over the ok queries, `-` when there is none.
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
            "queries {} ok {} unreachable {} invalid {} limit {} failed {} \
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
        assert_eq!(csv(&reached), "7,ok,3.414214,3,2,5,12.3\n");
        assert_eq!(
            text(&reached),
            "query 7 ok cost 3.414214 moves 3 episodes 2 max_episode_expansions 5 \
             time_us 12.3\n"
        );
        assert!(!reached.is_defect());
        let failed = row(ran(Status::Failed("x moved illegally".into())));
        assert_eq!(csv(&failed), "7,failed,3.414214,3,2,5,12.3\n");
        assert!(text(&failed).starts_with("query 7 failed (x moved illegally) cost 3.414214"));
        assert!(failed.is_defect());
        let cutoff = row(ran(Status::Cutoff));
        assert!(csv(&cutoff).starts_with("7,limit,"));
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
            "queries 0 ok 0 unreachable 0 invalid 0 limit 0 failed 0 mean_cost - \
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
            "queries 4 ok 1 unreachable 1 invalid 1 limit 1 failed 0 mean_cost 3.414214 \
             mean_time_us 12.3\n"
        );
    }
}
