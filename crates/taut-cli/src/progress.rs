//! A progress bar on stderr for long builds and batches of routes, shown only when stderr is a
//! terminal.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// [`taut::cpd::Progress`] as an indicatif bar on stderr: one bar, reset at each phase. Hidden
/// (and nearly free) when stderr is not a terminal, so pipes and tests see nothing.
#[derive(Debug)]
pub struct TermProgress {
    bar: ProgressBar,
}

impl TermProgress {
    /// A bar on stderr when it is a terminal, else a hidden one.
    pub fn stderr() -> TermProgress {
        let target = if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(0), target);
        let style = ProgressStyle::with_template(
            "{msg:>16} [{bar:40}] {pos}/{len} ({elapsed_precise}, {eta} left)",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        TermProgress { bar }
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl taut::cpd::Progress for TermProgress {
    fn begin(&self, phase: &str, total: u64) {
        self.bar.set_message(phase.to_owned());
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.reset_elapsed();
    }

    fn advance(&self, n: u64) {
        self.bar.inc(n);
    }
}
