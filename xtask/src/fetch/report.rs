//! What a `fetch-maps` run did: every destination file's outcome, every rejected source file
//! with its reason, every download, and notes. Tests assert on this, not only on the exit code.

use std::collections::BTreeMap;
use std::fmt;

/// What happened to one destination file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// The file was not in the destination: written.
    New,
    /// The destination file matches the manifest (size and SHA-256) and the source: skipped.
    UpToDate,
    /// The destination file was not in the manifest but already had the source's contents:
    /// recorded, not rewritten.
    Adopted,
    /// The destination file no longer matched its manifest entry (edited or damaged): replaced
    /// from the source.
    Changed,
    /// The destination file matched the manifest, but the source now has other contents:
    /// replaced with the source's.
    Updated,
    /// A destination file the manifest did not list, with other contents than the source's:
    /// replaced.
    Replaced,
}

impl Action {
    /// Whether the file was (re)written.
    pub fn wrote(self) -> bool {
        matches!(
            self,
            Action::New | Action::Changed | Action::Updated | Action::Replaced
        )
    }

    /// A short word for summaries.
    pub fn word(self) -> &'static str {
        match self {
            Action::New => "new",
            Action::UpToDate => "up to date",
            Action::Adopted => "adopted",
            Action::Changed => "changed (replaced)",
            Action::Updated => "updated",
            Action::Replaced => "replaced",
        }
    }
}

/// One destination file handled by a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileOutcome {
    /// Path relative to the destination, with `/` separators (`dao/maps/arena.map`).
    pub path: String,
    /// What was done.
    pub action: Action,
    /// Where the contents came from (a mirror path, an archive entry, an address).
    pub source: String,
}

/// A source file (or archive, or download) that was not imported, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// The source: a mirror path, `archive#entry`, or an address.
    pub source: String,
    /// One line saying what is wrong.
    pub reason: String,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.reason)
    }
}

/// One archive download.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    /// The address.
    pub url: String,
    /// Bytes already present in the `.part` file that the download resumed from (0 for a
    /// download from the start).
    pub resumed_from: u64,
    /// Size of the complete archive.
    pub size: u64,
}

/// Everything a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Destination files handled, in processing order.
    pub files: Vec<FileOutcome>,
    /// Sources not imported. A run with any rejection exits non-zero.
    pub rejected: Vec<Rejection>,
    /// Archives downloaded in this run (network path only).
    pub downloads: Vec<Download>,
    /// Things worth knowing that are not errors (files ignored, identical duplicates,
    /// archives reused).
    pub notes: Vec<String>,
    /// After the run: how many files the manifest lists per destination directory
    /// (`dao/maps` → 156, `optimal` → 2).
    pub inventory: BTreeMap<String, usize>,
}

impl Report {
    /// Records a rejected source.
    pub fn reject(&mut self, source: impl Into<String>, reason: impl Into<String>) {
        self.rejected.push(Rejection {
            source: source.into(),
            reason: reason.into(),
        });
    }

    /// Records a note.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// Whether nothing was rejected.
    pub fn is_clean(&self) -> bool {
        self.rejected.is_empty()
    }

    /// How many destination files this run wrote.
    #[cfg(test)]
    pub fn written(&self) -> usize {
        self.files.iter().filter(|f| f.action.wrote()).count()
    }

    /// How many destination files had `action`.
    pub fn count(&self, action: Action) -> usize {
        self.files.iter().filter(|f| f.action == action).count()
    }

    /// The rejection of `source`, if any (`source` as reported: a mirror path or
    /// `archive#entry`).
    #[cfg(test)]
    pub fn rejection_of(&self, source: &str) -> Option<&Rejection> {
        self.rejected.iter().find(|r| r.source == source)
    }

    /// The outcome of the destination file `path`, if this run handled it.
    #[cfg(test)]
    pub fn outcome_of(&self, path: &str) -> Option<&FileOutcome> {
        self.files.iter().find(|f| f.path == path)
    }
}
