//! Writing a verified file into the destination, idempotently: a file whose size and SHA-256
//! match the manifest and the source is left alone; anything else is (re)written atomically.

use std::io;
use std::path::Path;

use anyhow::Context;

use super::manifest::{FileEntry, Manifest, sha256_file, write_atomic};
use super::report::Action;
use super::sources::Candidate;

/// Puts `bytes` (whose SHA-256 is `sha`, from `source`) at `source.dest()` under `dest` and
/// records it in `manifest`. Returns what was done.
///
/// Data files are not synced to disk one by one: a file damaged by a crash no longer matches
/// the manifest, so the next run reports it as changed and replaces it.
pub fn install(
    dest: &Path,
    manifest: &mut Manifest,
    source: &Candidate,
    bytes: &[u8],
    sha: &str,
) -> anyhow::Result<Action> {
    let rel = source.dest();
    let path = dest.join(&rel);
    let existing = match sha256_file(&path) {
        Ok(found) => Some(found),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let recorded = manifest.files.get(&rel);
    let action = match (existing, recorded) {
        (None, _) => Action::New,
        (Some((size, have)), Some(e)) if size == e.size && have == e.sha256 => {
            if have == sha {
                Action::UpToDate
            } else {
                Action::Updated
            }
        }
        // The file matches neither its record nor (below) the source: someone changed it.
        (Some((_, have)), _) if have == sha => Action::Adopted,
        (Some(_), Some(_)) => Action::Changed,
        (Some(_), None) => Action::Replaced,
    };
    if action.wrote() {
        write_atomic(&path, bytes, false).with_context(|| format!("writing {}", path.display()))?;
    }
    if action != Action::UpToDate {
        let set = rel.split('/').next().unwrap_or_default().to_owned();
        manifest.files.insert(
            rel.clone(),
            FileEntry {
                path: rel,
                size: bytes.len() as u64,
                sha256: sha.to_owned(),
                source: source.label.clone(),
                set,
            },
        );
    }
    Ok(action)
}
