//! Errors of the compressed path database and its files.

pub use taut_mesh::corner_graph::GraphError;
use thiserror::Error;

/// A CPD that cannot be built, read, merged or used with a given mesh.
#[derive(Debug, Error)]
pub enum CpdError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start with the magic number of a taut CPD or CPD shard.
    #[error("not a taut {expected} file (wrong magic number)")]
    NotACpd {
        /// What was expected ("CPD" or "CPD shard").
        expected: &'static str,
    },
    /// A CPD file where a shard was expected, or the other way round.
    #[error("this is a taut {found} file, not a {expected} file")]
    WrongKind {
        /// What was expected.
        expected: &'static str,
        /// What the file is.
        found: &'static str,
    },
    /// The file has another format version.
    #[error("CPD format version {found}, but this program reads version {expected}: rebuild it")]
    Version {
        /// Version in the file.
        found: u32,
        /// Version this program reads and writes.
        expected: u32,
    },
    /// The file ends early.
    #[error("the CPD file is truncated")]
    Truncated,
    /// The trailing SHA-256 does not match the contents.
    #[error("the CPD file's checksum does not match its contents: the file is corrupt")]
    Checksum,
    /// The contents are inconsistent.
    #[error("corrupt CPD: {0}")]
    Corrupt(String),
    /// Invalid build parameters.
    #[error("invalid CPD build parameters: {0}")]
    Params(String),
    /// The CPD was built for another mesh.
    #[error("the CPD was built for mesh {found}…, not for this mesh ({expected}…): rebuild it")]
    StaleMesh {
        /// Hex prefix of the given mesh's hash.
        expected: String,
        /// Hex prefix of the hash stored in the CPD.
        found: String,
    },
    /// The CPD would be larger than the size limit (estimated before its rows are built).
    #[error(
        "the CPD would take about {:.2} GB (estimated from {sampled} of its {nodes} rows), more \
         than the limit of {:.2} GB: if the machine has the memory, raise it (--max-size of \
         `taut cpd build` and `cargo xtask preprocess`, `build_cpd_within` in the library)",
        *estimated as f64 / 1e9,
        *limit as f64 / 1e9
    )]
    TooLarge {
        /// Estimated bytes ([`crate::estimate::CpdEstimate::bytes`]).
        estimated: u64,
        /// The limit in bytes.
        limit: u64,
        /// Rows built for the estimate.
        sampled: usize,
        /// Rows of the CPD.
        nodes: usize,
    },
    /// The corner graph cannot be built.
    #[error("corner graph: {0}")]
    Graph(#[from] GraphError),
    /// [`crate::shard::merge_shards`] was given no shard.
    #[error("no shards to merge")]
    NoShards,
    /// A shard is missing.
    #[error("shard {index}/{count} is missing")]
    MissingShard {
        /// The missing index.
        index: u32,
        /// Number of shards.
        count: u32,
    },
    /// A shard was given twice.
    #[error("shard {index}/{count} is given more than once")]
    DuplicateShard {
        /// The repeated index.
        index: u32,
        /// Number of shards.
        count: u32,
    },
    /// A shard does not belong with the others.
    #[error("shard {shard} has a different {what} than shard {first}")]
    ShardMismatch {
        /// The odd shard ("i/n").
        shard: String,
        /// The shard it was compared with.
        first: String,
        /// What differs.
        what: &'static str,
    },
}

/// A shard specification that is not `"index/count"` with `index < count`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShardSpecError {
    /// Not two integers separated by `/`.
    #[error("'{0}' is not a shard: expected INDEX/COUNT, e.g. 0/4")]
    Syntax(String),
    /// Zero shards.
    #[error("the number of shards must be at least 1")]
    ZeroCount,
    /// The index is not below the count.
    #[error("shard index {index} is not below the number of shards {count} (indices start at 0)")]
    IndexOutOfRange {
        /// The index.
        index: u32,
        /// The count.
        count: u32,
    },
}
