//! `cargo xtask fetch-maps`: get the MovingAI benchmark maps and scenarios (and, from a local
//! mirror that has them, navigation meshes of the maps) into one verified layout with a
//! SHA-256 manifest, by downloading MovingAI's archives or by importing a local mirror
//! (`--from`). `docs/fetch-maps.md` describes the layout, the mirrors recognised, the
//! checks and the manifest.
//!
//! The run has three steps: find candidate files ([`sources`], or [`http`] then [`sources`]
//! on the downloaded archives), verify each ([`verify`]), write what passed ([`install`]) and
//! the manifest ([`manifest`]). Everything that happened is in a [`report::Report`].

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};

mod http;
mod install;
mod manifest;
mod report;
mod sets;
mod sources;
mod verify;

#[cfg(test)]
mod tests;

use manifest::{ArchiveEntry, Manifest, remove_stale_temps, sha256_file, sha256_hex};
use report::{FileOutcome, Report};
use sets::Set;
use sources::{Candidate, Kind, Reader};
use verify::{MapIndex, MapSize, MapState};

/// Environment variable that replaces MovingAI's address (like `--base-url`).
pub const BASE_URL_ENV: &str = "TAUT_MOVINGAI_BASE";

/// Arguments of `fetch-maps`.
#[derive(Debug, clap::Args)]
pub struct FetchArgs {
    /// Sets to get: `all` (the default) or names separated by commas, from dao, da2, sc1,
    /// bg512, bgmaps, wc3maps512, street, mazes, rooms, random (maze, room and wc3maps are
    /// accepted). May be repeated.
    #[arg(long = "set", value_name = "SETS")]
    sets: Vec<String>,
    /// Import from a local mirror instead of downloading: the shared data directory
    /// (grid/, suites/, mesh/reference/), another fetch-maps destination, or a directory of
    /// MovingAI archives (SET-map.zip, SET-scen.zip). Navigation meshes (SET/meshes/) come
    /// only from mirrors: MovingAI's archives have none.
    #[arg(long, value_name = "DIR")]
    from: Option<PathBuf>,
    /// Destination directory [default: data/ at the repository root].
    #[arg(long, value_name = "DIR")]
    dest: Option<PathBuf>,
    /// Download from this address instead of MovingAI's, as URL/SET/SET-map.zip
    /// (environment: TAUT_MOVINGAI_BASE).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Download the archives again even when DEST/.downloads holds copies that match the
    /// manifest.
    #[arg(long)]
    refresh: bool,
}

/// What to fetch, where to, and how: the resolved arguments.
#[derive(Debug, Clone)]
pub struct Options {
    /// The sets, sorted, without repeats.
    pub sets: Vec<Set>,
    /// The mirror to import from; `None` downloads.
    pub from: Option<PathBuf>,
    /// The destination directory.
    pub dest: PathBuf,
    /// Replacement for MovingAI's address.
    pub base_url: Option<String>,
    /// Download archives even when a verified copy is present.
    pub refresh: bool,
    /// Draw progress bars (on a terminal only).
    pub progress: bool,
}

impl Options {
    /// Options for importing `sets` from the mirror `from` into `dest`, without progress bars.
    #[cfg(test)]
    pub fn mirror(sets: &[Set], from: &Path, dest: &Path) -> Self {
        Options {
            sets: sets.to_vec(),
            from: Some(from.to_path_buf()),
            dest: dest.to_path_buf(),
            base_url: None,
            refresh: false,
            progress: false,
        }
    }

    fn from_args(args: &FetchArgs) -> anyhow::Result<Self> {
        let mut sets = Vec::new();
        for text in &args.sets {
            sets.extend(sets::parse_selection(text).map_err(anyhow::Error::msg)?);
        }
        if sets.is_empty() {
            sets = Set::ALL.to_vec();
        }
        sets.sort();
        sets.dedup();
        let dest = args.dest.clone().unwrap_or_else(|| {
            let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
            xtask.parent().unwrap_or(xtask).join("data")
        });
        let base_url = args
            .base_url
            .clone()
            .or_else(|| std::env::var(BASE_URL_ENV).ok().filter(|s| !s.is_empty()));
        Ok(Options {
            sets,
            from: args.from.clone(),
            dest,
            base_url,
            refresh: args.refresh,
            progress: true,
        })
    }
}

/// Runs `fetch-maps`: prints the summary; fails when anything was rejected.
pub fn run(args: &FetchArgs) -> anyhow::Result<()> {
    let options = Options::from_args(args)?;
    let start = Instant::now();
    let report = fetch(&options)?;
    print!("{}", summary(&options, &report));
    println!("time: {:.1} s", start.elapsed().as_secs_f64());
    anyhow::ensure!(
        report.is_clean(),
        "{} source file(s) rejected (listed above); every file that passed was imported",
        report.rejected.len()
    );
    Ok(())
}

/// Fetches or imports the sets of `options` into `options.dest`. Rejected files are in the
/// report; an error means the run itself could not proceed (destination not writable, mirror
/// missing or unrecognised, manifest not writable).
pub fn fetch(options: &Options) -> anyhow::Result<Report> {
    fs::create_dir_all(&options.dest)
        .with_context(|| format!("creating {}", options.dest.display()))?;
    let dest = options
        .dest
        .canonicalize()
        .with_context(|| format!("resolving {}", options.dest.display()))?;
    let mut report = Report::default();
    let mut manifest = match Manifest::load(&dest) {
        Ok(m) => m.unwrap_or_default(),
        Err(e) => {
            report.note(format!(
                "{e:#}: starting a new manifest (files already present are re-checked against the sources)"
            ));
            Manifest::default()
        }
    };
    let stale = stale_temp_dirs(&dest)
        .iter()
        .map(|d| remove_stale_temps(d))
        .sum::<usize>();
    if stale > 0 {
        report.note(format!(
            "removed {stale} temporary file(s) left by an interrupted run"
        ));
    }

    let candidates = match &options.from {
        Some(from) => {
            let from = from
                .canonicalize()
                .with_context(|| format!("mirror {}", from.display()))?;
            anyhow::ensure!(
                from != dest,
                "the mirror and the destination are the same directory ({})",
                dest.display()
            );
            if options.refresh || options.base_url.is_some() {
                report.note("--refresh and --base-url concern downloads; ignored with --from");
            }
            sources::discover_mirror(&from, &options.sets, &mut report)?
        }
        None => {
            report.note(
                "MovingAI's archives hold no navigation meshes: <set>/meshes/ is filled only by \
                 --from a mirror that has them (the shared data's suites/merged-mesh/)",
            );
            download_archives(&dest, options, &mut manifest, &mut report)?
        }
    };
    for set in &options.sets {
        if !candidates.iter().any(|c| c.set == Some(*set)) {
            report.note(format!("set {set}: the sources hold no files of this set"));
        }
    }
    import(
        &dest,
        candidates,
        &mut manifest,
        &mut report,
        options.progress,
    )?;

    let before = manifest.files.len();
    manifest.files.retain(|path, _| dest.join(path).is_file());
    manifest
        .archives
        .retain(|path, _| dest.join(path).is_file());
    if manifest.files.len() < before {
        report.note(format!(
            "{} manifest entries dropped: their files are no longer in the destination",
            before - manifest.files.len()
        ));
    }
    manifest.save(&dest)?;
    report.inventory = inventory(&manifest);
    Ok(report)
}

/// Directories where an interrupted run may have left temporary files.
fn stale_temp_dirs(dest: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![
        dest.to_path_buf(),
        dest.join(".downloads"),
        dest.join(Kind::Optimal.dir()),
    ];
    for set in Set::ALL {
        for kind in Kind::IN_SET {
            dirs.push(dest.join(set.name()).join(kind.dir()));
        }
    }
    dirs
}

/// Files per destination directory (`dao/maps` → 156), from the manifest.
fn inventory(manifest: &Manifest) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for path in manifest.files.keys() {
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        *counts.entry(dir.to_owned()).or_insert(0) += 1;
    }
    counts
}

/// Downloads (or reuses) both archives of every selected set into `DEST/.downloads/` and
/// returns their entries as candidates, labelled with the address. A failed download is
/// rejected; the other sets go on.
fn download_archives(
    dest: &Path,
    options: &Options,
    manifest: &mut Manifest,
    report: &mut Report,
) -> anyhow::Result<Vec<Candidate>> {
    let downloads = dest.join(".downloads");
    fs::create_dir_all(&downloads).with_context(|| format!("creating {}", downloads.display()))?;
    let downloader = http::Downloader::new(options.progress);
    let mut out = Vec::new();
    for &set in &options.sets {
        let urls = sets::archive_urls(set, options.base_url.as_deref())?;
        for url in [&urls.maps, &urls.scen] {
            let rel = format!(".downloads/{}", sets::url_file_name(url));
            match ensure_archive(
                &downloader,
                url,
                dest,
                &rel,
                options.refresh,
                manifest,
                report,
            ) {
                Ok(()) => out.extend(sources::archive_candidates(
                    &dest.join(&rel),
                    set,
                    url,
                    report,
                )),
                Err(e) => report.reject(url.as_str(), format!("{e:#}")),
            }
        }
    }
    Ok(out)
}

/// Makes `DEST/<rel>` a complete archive from `url`: kept when it matches its manifest record
/// (unless `refresh`), else downloaded (resuming a `.part` file), opened as a zip, hashed and
/// recorded. A changed hash since the last download is noted.
fn ensure_archive(
    downloader: &http::Downloader,
    url: &str,
    dest: &Path,
    rel: &str,
    refresh: bool,
    manifest: &mut Manifest,
    report: &mut Report,
) -> anyhow::Result<()> {
    let path = dest.join(rel);
    if refresh {
        for p in [path.clone(), http::part_path(&path)] {
            if p.exists() {
                fs::remove_file(&p).with_context(|| format!("removing {}", p.display()))?;
            }
        }
    }
    if path.is_file() {
        let (size, sha) =
            sha256_file(&path).with_context(|| format!("reading {}", path.display()))?;
        match manifest.archives.get(rel) {
            Some(e) if e.size == size && e.sha256 == sha && e.url == url => {
                report.note(format!(
                    "{rel}: up to date, not downloaded again (--refresh does)"
                ));
                return Ok(());
            }
            None if sources::open_zip(&path).is_ok() => {
                // Only a complete download is renamed to this name: keep it.
                record_archive(manifest, rel, url, size, sha);
                report.note(format!(
                    "{rel}: found complete, recorded, not downloaded again"
                ));
                return Ok(());
            }
            _ => {
                report.note(format!(
                    "{rel}: does not match the manifest; downloading again"
                ));
                fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
            }
        }
    }
    let download = downloader.download(url, &path)?;
    if let Err(e) = sources::open_zip(&path) {
        let _ = fs::remove_file(&path);
        anyhow::bail!(
            "the download is not a zip archive ({e:#}); removed, run again to fetch it anew"
        );
    }
    let (size, sha) = sha256_file(&path).with_context(|| format!("reading {}", path.display()))?;
    if let Some(old) = manifest.archives.get(rel)
        && old.sha256 != sha
    {
        report.note(format!(
            "{url}: changed since it was last downloaded (SHA-256 {} -> {sha})",
            old.sha256
        ));
    }
    record_archive(manifest, rel, url, size, sha);
    report.downloads.push(download);
    Ok(())
}

fn record_archive(manifest: &mut Manifest, rel: &str, url: &str, size: u64, sha256: String) {
    manifest.archives.insert(
        rel.to_owned(),
        ArchiveEntry {
            path: rel.to_owned(),
            url: url.to_owned(),
            size,
            sha256,
        },
    );
}

/// The processing phase of a kind: maps first (scenarios and meshes are checked against
/// them), then scenarios and meshes, then the optima tables.
fn phase(kind: Kind) -> u8 {
    match kind {
        Kind::Map => 0,
        Kind::Scen | Kind::ScenLegacy | Kind::Mesh => 1,
        Kind::Optimal => 2,
    }
}

/// Verifies every candidate and installs, for each destination file, the first candidate
/// (in priority order) that passes. Other candidates for the same file must have the same
/// bytes (a scenario may list the same lines in another order, which is noted); if not they
/// are rejected.
fn import(
    dest: &Path,
    candidates: Vec<Candidate>,
    manifest: &mut Manifest,
    report: &mut Report,
    progress: bool,
) -> anyhow::Result<()> {
    let mut groups: BTreeMap<(u8, String), Vec<Candidate>> = BTreeMap::new();
    for c in candidates {
        groups.entry((phase(c.kind), c.dest())).or_default().push(c);
    }
    let bar = if progress {
        let bar = ProgressBar::new(groups.len() as u64);
        let style = ProgressStyle::with_template("{wide_msg} [{bar:30}] {pos}/{len}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut maps: HashMap<Set, MapIndex> = HashMap::new();
    let mut reader = Reader::default();
    let mut duplicates = 0usize;
    for ((_, rel), group) in groups {
        bar.set_message(rel.clone());
        bar.inc(1);
        let (kind, set, name) = (group[0].kind, group[0].set, group[0].name.clone());
        let mut chosen: Option<(Candidate, Vec<u8>, String, Option<MapSize>)> = None;
        for c in group {
            let bytes = match reader.read(&c.origin) {
                Ok(b) => b,
                Err(e) => {
                    report.reject(c.label, format!("unreadable: {e:#}"));
                    continue;
                }
            };
            let sha = sha256_hex(&bytes);
            if c.expected_sha256.as_ref().is_some_and(|want| *want != sha) {
                report.reject(
                    c.label,
                    "SHA-256 differs from the mirror's manifest.json (corrupt, or changed since it was fetched)",
                );
                continue;
            }
            let empty = MapIndex::new();
            let verdict = match (c.kind, c.set) {
                (Kind::Map, _) => verify::verify_map(&bytes).map(Some),
                (Kind::Scen | Kind::ScenLegacy, Some(s)) => {
                    verify::verify_scen(&bytes, s, maps.get(&s).unwrap_or(&empty)).map(|_| None)
                }
                (Kind::Mesh, Some(s)) => {
                    verify::verify_mesh(&bytes, &c.name, s, maps.get(&s).unwrap_or(&empty))
                        .map(|_| None)
                }
                (Kind::Optimal, _) => verify::verify_optimal(&bytes).map(|_| None),
                (_, None) => Err("no set".to_owned()),
            };
            let size = match verdict {
                Ok(size) => size,
                Err(reason) => {
                    report.reject(c.label, reason);
                    continue;
                }
            };
            match &chosen {
                None => chosen = Some((c, bytes, sha, size)),
                Some((_, _, first_sha, _)) if *first_sha == sha => duplicates += 1,
                Some((first, first_bytes, _, _)) => {
                    // Reordered lines are the same queries or rows, but not the same map or
                    // mesh (a mesh's indices refer to line positions).
                    if !matches!(kind, Kind::Map | Kind::Mesh)
                        && verify::same_lines(first_bytes, &bytes)
                    {
                        report.note(format!(
                            "{}: the same queries in another order than {}, which is imported",
                            c.label, first.label
                        ));
                    } else {
                        report.reject(
                            c.label,
                            format!("differs from {}, which is imported as {rel}", first.label),
                        );
                    }
                }
            }
        }
        if let (Kind::Map, Some(set)) = (kind, set) {
            let state = match &chosen {
                Some((_, _, _, Some(size))) => MapState::Valid(*size),
                _ => MapState::Rejected,
            };
            maps.entry(set).or_default().insert(name, state);
        }
        if let Some((c, bytes, sha, _)) = chosen {
            let action = install::install(dest, manifest, &c, &bytes, &sha)?;
            report.files.push(FileOutcome {
                path: rel,
                action,
                source: c.label,
            });
        }
    }
    bar.finish_and_clear();
    if duplicates > 0 {
        report.note(format!(
            "{duplicates} file(s) found in more than one source with identical contents"
        ));
    }
    Ok(())
}

/// The text printed at the end of a run: files per set and directory, what this run did,
/// downloads, notes, and every rejection.
pub fn summary(options: &Options, report: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let dest = options.dest.display();
    let _ = writeln!(s, "fetch-maps: {dest}");
    let _ = writeln!(
        s,
        "{:<12} {:>6} {:>6} {:>12} {:>7}",
        "set", "maps", "scen", "scen-legacy", "meshes"
    );
    let count = |dir: String| report.inventory.get(&dir).copied().unwrap_or(0);
    for set in &options.sets {
        let [m, sc, l, me] = Kind::IN_SET.map(|k| count(format!("{set}/{}", k.dir())));
        let _ = writeln!(s, "{:<12} {m:>6} {sc:>6} {l:>12} {me:>7}", set.name());
    }
    let optimal = count(Kind::Optimal.dir().to_owned());
    if optimal > 0 {
        let _ = writeln!(s, "optimal: {optimal} files");
    }
    let actions = [
        report::Action::New,
        report::Action::Updated,
        report::Action::Changed,
        report::Action::Replaced,
        report::Action::Adopted,
        report::Action::UpToDate,
    ];
    let words: Vec<String> = actions
        .iter()
        .map(|&a| format!("{} {}", report.count(a), a.word()))
        .collect();
    let _ = writeln!(
        s,
        "this run: {} files: {}",
        report.files.len(),
        words.join(", ")
    );
    for d in &report.downloads {
        let resumed = if d.resumed_from > 0 {
            format!(" (resumed at byte {})", d.resumed_from)
        } else {
            String::new()
        };
        let _ = writeln!(s, "downloaded {} ({} bytes){resumed}", d.url, d.size);
    }
    for f in report.files.iter().filter(|f| {
        matches!(
            f.action,
            report::Action::Changed | report::Action::Updated | report::Action::Replaced
        )
    }) {
        let _ = writeln!(s, "{}: {} (from {})", f.path, f.action.word(), f.source);
    }
    for n in &report.notes {
        let _ = writeln!(s, "note: {n}");
    }
    if report.rejected.is_empty() {
        let _ = writeln!(s, "rejected: none");
    } else {
        let _ = writeln!(s, "rejected: {}", report.rejected.len());
        for r in &report.rejected {
            let _ = writeln!(s, "  {r}");
        }
    }
    s
}
