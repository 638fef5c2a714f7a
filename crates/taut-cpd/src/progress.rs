//! Progress reporting for long builds (a progress bar in the CLI or xtask).

/// Receives progress of a long computation. Called from several threads at once, hence
/// `Sync`; implementations should be cheap (an atomic add).
pub trait Progress: Sync {
    /// A phase named `phase` starts, with `total` units of work.
    fn begin(&self, phase: &str, total: u64);
    /// `n` more units of the current phase are done.
    fn advance(&self, n: u64);
}

/// Reports nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn begin(&self, _phase: &str, _total: u64) {}
    fn advance(&self, _n: u64) {}
}
