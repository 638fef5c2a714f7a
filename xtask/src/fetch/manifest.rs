//! `DEST/manifest.json`: size, SHA-256, source and set of every imported file (and of every
//! downloaded archive), so that later runs skip what is up to date and notice what changed.
//! Also the two file primitives everything else writes with: hashing and atomic replacement.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The manifest's file name inside the destination.
pub const MANIFEST: &str = "manifest.json";

/// Format version written into the manifest.
pub const MANIFEST_VERSION: u32 = 1;

/// Prefix of the temporary files written next to their final names. A run that is killed
/// may leave one behind; the next run deletes them ([`remove_stale_temps`]).
pub const TEMP_PREFIX: &str = ".fetch-tmp-";

/// One imported file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// Path relative to the destination, `/`-separated (`dao/maps/arena.map`).
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256 of the contents, lower-case hex.
    pub sha256: String,
    /// Where the contents came from: a mirror file's absolute path, `archive#entry`, or
    /// `address#entry` for a downloaded archive.
    pub source: String,
    /// The first component of `path`: the set (`dao`, …) or `optimal`.
    pub set: String,
}

/// One downloaded archive, kept in `DEST/.downloads/`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveEntry {
    /// Path relative to the destination (`.downloads/dao-map.zip`).
    pub path: String,
    /// The address it was downloaded from.
    pub url: String,
    /// Size in bytes.
    pub size: u64,
    /// SHA-256, lower-case hex.
    pub sha256: String,
}

/// The manifest as stored: two lists sorted by path.
#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    version: u32,
    files: Vec<FileEntry>,
    #[serde(default)]
    archives: Vec<ArchiveEntry>,
}

/// The manifest in memory, indexed by path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Imported files by relative path.
    pub files: BTreeMap<String, FileEntry>,
    /// Downloaded archives by relative path.
    pub archives: BTreeMap<String, ArchiveEntry>,
}

impl Manifest {
    /// Reads `dir/manifest.json`; `Ok(None)` when there is none.
    pub fn load(dir: &Path) -> anyhow::Result<Option<Manifest>> {
        let path = dir.join(MANIFEST);
        let text = match fs::read(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let stored: Stored = serde_json::from_slice(&text)
            .with_context(|| format!("{} is not a valid manifest", path.display()))?;
        anyhow::ensure!(
            stored.version == MANIFEST_VERSION,
            "{}: manifest version {} (this xtask reads version {MANIFEST_VERSION})",
            path.display(),
            stored.version
        );
        Ok(Some(Manifest {
            files: stored
                .files
                .into_iter()
                .map(|e| (e.path.clone(), e))
                .collect(),
            archives: stored
                .archives
                .into_iter()
                .map(|e| (e.path.clone(), e))
                .collect(),
        }))
    }

    /// The manifest's JSON text (pretty-printed, sorted by path, final newline).
    pub fn to_json(&self) -> String {
        let stored = Stored {
            version: MANIFEST_VERSION,
            files: self.files.values().cloned().collect(),
            archives: self.archives.values().cloned().collect(),
        };
        // Serialising plain strings and integers cannot fail.
        let mut text = serde_json::to_string_pretty(&stored).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Writes `dir/manifest.json` atomically (a temporary file, synced, then renamed).
    pub fn save(&self, dir: &Path) -> anyhow::Result<()> {
        let path = dir.join(MANIFEST);
        write_atomic(&path, self.to_json().as_bytes(), true)
            .with_context(|| format!("writing {}", path.display()))
    }
}

/// SHA-256 of `bytes`, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Size and SHA-256 of a file, read in pieces.
pub fn sha256_file(path: &Path) -> io::Result<(u64, String)> {
    let mut file = fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        size += n as u64;
    }
    Ok((size, hex(&hasher.finalize())))
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename, so
/// that `path` never holds a partial file. Creates the directory if needed. With `sync`, the
/// data is flushed to disk before the rename.
pub fn write_atomic(path: &Path, bytes: &[u8], sync: bool) -> io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::other("no parent directory"))?;
    fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("no file name"))?;
    let mut tmp_name = std::ffi::OsString::from(format!("{TEMP_PREFIX}{}-", std::process::id()));
    tmp_name.push(name);
    let mut tmp = TempGuard {
        path: dir.join(tmp_name),
        armed: true,
    };
    {
        let mut f = fs::File::create(&tmp.path)?;
        f.write_all(bytes)?;
        if sync {
            f.sync_all()?;
        }
    }
    fs::rename(&tmp.path, path)?;
    tmp.armed = false;
    Ok(())
}

/// Removes its file when dropped while armed: a write that fails half-way leaves nothing.
struct TempGuard {
    path: PathBuf,
    armed: bool,
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        if self.armed {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Deletes temporary files a killed run left in `dir` (not recursive). Returns how many.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(TEMP_PREFIX))
        .filter(|e| fs::remove_file(e.path()).is_ok())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_known_value() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        fs::write(&p, b"abc").unwrap();
        assert_eq!(sha256_file(&p).unwrap(), (3, sha256_hex(b"abc")));
    }

    #[test]
    fn manifest_round_trip_and_atomic_write() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Manifest::load(dir.path()).unwrap(), None);
        let mut m = Manifest::default();
        for p in ["dao/maps/b.map", "dao/maps/a.map"] {
            m.files.insert(
                p.into(),
                FileEntry {
                    path: p.into(),
                    size: 1,
                    sha256: sha256_hex(b"x"),
                    source: "/mirror/x".into(),
                    set: "dao".into(),
                },
            );
        }
        m.save(dir.path()).unwrap();
        let text = fs::read_to_string(dir.path().join(MANIFEST)).unwrap();
        assert!(text.find("a.map").unwrap() < text.find("b.map").unwrap());
        assert_eq!(Manifest::load(dir.path()).unwrap(), Some(m));
        // No temporary file is left beside it.
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn invalid_manifest_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(MANIFEST), "{ not json").unwrap();
        let e = Manifest::load(dir.path()).unwrap_err();
        assert!(format!("{e:#}").contains(MANIFEST));
    }

    #[test]
    fn stale_temps_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(format!("{TEMP_PREFIX}1-a.map")), "x").unwrap();
        fs::write(dir.path().join("a.map"), "x").unwrap();
        assert_eq!(remove_stale_temps(dir.path()), 1);
        assert!(dir.path().join("a.map").exists());
    }
}
