//! The planners the CLI can run: the registry of `taut-bench` (one list for the bench and the
//! command line), plus the parsing of planner options.

use taut_anya::RootHistory;
pub use taut_bench::registry::{Algo, Tuning, UnknownAlgo, make_planner};

/// Parses a root-history name (`flat` or `hash`).
pub fn parse_root_history(s: &str) -> Result<RootHistory, String> {
    match s {
        "flat" => Ok(RootHistory::Flat),
        "hash" => Ok(RootHistory::Hash),
        _ => Err(format!(
            "{s:?} is not a root history: expected flat or hash"
        )),
    }
}
