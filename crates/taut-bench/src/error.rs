//! The bench's errors.

use std::path::PathBuf;

/// What can stop a benchmark run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A suite file is unreadable or malformed.
    #[error("suite {path}: {msg}")]
    Suite {
        /// The suite file.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// Benchmark data (maps, scenarios, reference optima) is missing or malformed.
    #[error("{path}: {msg}")]
    Data {
        /// The file or directory.
        path: PathBuf,
        /// What is wrong.
        msg: String,
    },
    /// A map or scenario file failed to parse.
    #[error(transparent)]
    Grid(#[from] taut::grid::GridError),
    /// Writing a report failed.
    #[error("writing {path}: {msg}")]
    Write {
        /// The output file.
        path: PathBuf,
        /// What went wrong.
        msg: String,
    },
    /// Some lengths or paths were wrong; the reports were still written.
    #[error("{count} check(s) failed (first: {first}); reports written to {out}")]
    Checks {
        /// How many checks failed.
        count: usize,
        /// The first failure.
        first: String,
        /// Where the reports are.
        out: PathBuf,
    },
}

impl BenchError {
    /// `Ok` when `failures` is empty, else [`BenchError::Checks`] counting them and quoting the
    /// first, with the reports in `out`.
    pub fn from_failures(failures: &[String], out: &std::path::Path) -> Result<(), BenchError> {
        match failures.first() {
            None => Ok(()),
            Some(first) => Err(BenchError::Checks {
                count: failures.len(),
                first: first.clone(),
                out: out.to_owned(),
            }),
        }
    }
}
