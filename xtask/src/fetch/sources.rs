//! Where files come from: the mirror layouts `--from` recognises and the entries of MovingAI
//! archives, turned into [`Candidate`]s, each saying which destination file it would become.
//!
//! Discovery reads directory listings and, for the shared layout, the first query line of
//! each older-generation scenario (which names the set); it verifies nothing else. Problems
//! it can already see (an archive that is not a zip, an unsafe entry name, a file whose set
//! cannot be told) go into the report as rejections.

use std::collections::HashMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::manifest::{MANIFEST, Manifest};
use super::report::Report;
use super::sets::Set;

/// Largest file accepted from an archive entry or a mirror (a map at taut-grid's size limit
/// is far smaller): a bound against archives that inflate without end.
pub const MAX_FILE_BYTES: u64 = 1 << 31;

/// The kind of a destination file, which decides its directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `<set>/maps/<name>.map`.
    Map,
    /// `<set>/scen/<name>.scen`: the current (2018 and later) scenario generation.
    Scen,
    /// `<set>/scen-legacy/<name>.scen`: the older generation.
    ScenLegacy,
    /// `optimal/scen.csv` or `optimal/scen-legacy.csv`: reference optima (no set).
    Optimal,
    /// `<set>/meshes/<map>-merged.mesh` (or `<map>.mesh`): a navigation mesh of the map
    /// `<map>.map` of the same set, in the "mesh 2" format. Only mirrors have them.
    Mesh,
}

impl Kind {
    /// The kinds stored under a set's directory, in the order summaries list them.
    pub const IN_SET: [Kind; 4] = [Kind::Map, Kind::Scen, Kind::ScenLegacy, Kind::Mesh];

    /// The directory under the set (or `optimal`).
    pub fn dir(self) -> &'static str {
        match self {
            Kind::Map => "maps",
            Kind::Scen => "scen",
            Kind::ScenLegacy => "scen-legacy",
            Kind::Optimal => "optimal",
            Kind::Mesh => "meshes",
        }
    }
}

/// The file name of the map a mesh belongs to: `arena-merged.mesh` and `arena.mesh` are
/// meshes of `arena.map`. `None` if `name` does not end in `.mesh`.
pub fn mesh_map_name(name: &str) -> Option<String> {
    let stem = name.strip_suffix(".mesh")?;
    let stem = stem.strip_suffix("-merged").unwrap_or(stem);
    Some(format!("{stem}.map"))
}

/// The reference-optima tables copied to `DEST/optimal/`.
pub const OPTIMAL_FILES: [&str; 2] = ["scen.csv", "scen-legacy.csv"];

/// Where a candidate's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A file of a mirror.
    File(PathBuf),
    /// Entry `index` of a zip archive.
    Zip {
        /// The archive.
        archive: PathBuf,
        /// The entry's index in the archive.
        index: usize,
    },
}

/// A source file that would become one destination file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The set, `None` for the reference-optima tables.
    pub set: Option<Set>,
    /// Which directory.
    pub kind: Kind,
    /// The file name (`arena.map`, `arena.map.scen`, `scen.csv`).
    pub name: String,
    /// Where the bytes are.
    pub origin: Origin,
    /// How reports and the manifest name the source.
    pub label: String,
    /// The SHA-256 a mirror's own manifest records for this file, which the bytes must match.
    pub expected_sha256: Option<String>,
}

impl Candidate {
    /// The destination path, relative and `/`-separated.
    pub fn dest(&self) -> String {
        match self.set {
            Some(set) => format!("{set}/{}/{}", self.kind.dir(), self.name),
            None => format!("{}/{}", self.kind.dir(), self.name),
        }
    }
}

/// Reads candidates' bytes, keeping archives open between entries.
#[derive(Default)]
pub struct Reader {
    zips: HashMap<PathBuf, zip::ZipArchive<fs::File>>,
}

impl Reader {
    /// The bytes of `origin` (at most [`MAX_FILE_BYTES`]).
    pub fn read(&mut self, origin: &Origin) -> anyhow::Result<Vec<u8>> {
        match origin {
            Origin::File(path) => {
                let size = fs::metadata(path)?.len();
                anyhow::ensure!(size <= MAX_FILE_BYTES, "larger than {MAX_FILE_BYTES} bytes");
                Ok(fs::read(path)?)
            }
            Origin::Zip { archive, index } => {
                if !self.zips.contains_key(archive) {
                    let zip = open_zip(archive)?;
                    self.zips.insert(archive.clone(), zip);
                }
                let zip = self
                    .zips
                    .get_mut(archive)
                    .context("archive vanished from the cache")?;
                let entry = zip.by_index(*index)?;
                let mut bytes = Vec::new();
                entry.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
                anyhow::ensure!(
                    bytes.len() as u64 <= MAX_FILE_BYTES,
                    "inflates to more than {MAX_FILE_BYTES} bytes"
                );
                Ok(bytes)
            }
        }
    }
}

/// Opens a zip archive (reads its central directory).
pub fn open_zip(path: &Path) -> anyhow::Result<zip::ZipArchive<fs::File>> {
    let file = fs::File::open(path)?;
    Ok(zip::ZipArchive::new(file)?)
}

/// Whether `name` is usable as a destination file name: not empty, not hidden, no path
/// separator, no control character.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\'])
        && !name.chars().any(char::is_control)
}

/// What to do with a zip entry, judged from its name alone.
#[derive(Debug, PartialEq, Eq)]
pub enum EntryName<'a> {
    /// A file with this base name.
    File(&'a str),
    /// A directory, or macOS metadata (`__MACOSX/`, `._name`): skipped.
    Skip,
}

/// Judges a zip entry name. Names that are absolute (`/x`, `\x`, `C:x`), contain a `..`
/// component or a NUL byte are unsafe and refused: the extraction uses only base names, so
/// such an entry could not escape the destination anyway, but an archive containing one is
/// not a MovingAI archive.
pub fn judge_entry_name(name: &str) -> Result<EntryName<'_>, String> {
    if name.contains('\0') {
        return Err("unsafe entry name: NUL byte".into());
    }
    let bytes = name.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if name.starts_with(['/', '\\']) || drive {
        return Err("unsafe entry name: absolute path".into());
    }
    let parts: Vec<&str> = name.split(['/', '\\']).collect();
    if parts.contains(&"..") {
        return Err("unsafe entry name: parent-directory component".into());
    }
    let base = parts.last().copied().unwrap_or("");
    if base.is_empty() || parts.contains(&"__MACOSX") || base.starts_with("._") {
        return Ok(EntryName::Skip);
    }
    Ok(EntryName::File(base))
}

/// The candidates of one MovingAI archive of `set`: entries whose base name ends in `.map`
/// become maps, in `.scen` current-generation scenarios; directories and macOS metadata are
/// skipped, other files noted. Labels are `<label_base>#<entry name>`. An archive that does
/// not open, or an entry with an unsafe name, is rejected.
pub fn archive_candidates(
    archive: &Path,
    set: Set,
    label_base: &str,
    report: &mut Report,
) -> Vec<Candidate> {
    let mut zip = match open_zip(archive) {
        Ok(z) => z,
        Err(e) => {
            report.reject(label_base, format!("not a valid zip archive: {e:#}"));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    let mut others = 0usize;
    for index in 0..zip.len() {
        let entry = match zip.by_index(index) {
            Ok(e) => e,
            Err(e) => {
                report.reject(
                    format!("{label_base}#{index}"),
                    format!("unreadable entry: {e}"),
                );
                continue;
            }
        };
        let Ok(name) = entry.name().map(|n| n.into_owned()) else {
            report.reject(format!("{label_base}#{index}"), "entry name is not text");
            continue;
        };
        let label = format!("{label_base}#{name}");
        let base = match judge_entry_name(&name) {
            Ok(_) if entry.is_dir() => continue,
            Ok(EntryName::File(b)) => b,
            Ok(EntryName::Skip) => continue,
            Err(reason) => {
                report.reject(label, reason);
                continue;
            }
        };
        let kind = if base.ends_with(".map") {
            Kind::Map
        } else if base.ends_with(".scen") {
            Kind::Scen
        } else {
            others += 1;
            continue;
        };
        if !is_plain_name(base) {
            report.reject(label, "unusable file name");
            continue;
        }
        out.push(Candidate {
            set: Some(set),
            kind,
            name: base.to_owned(),
            origin: Origin::Zip {
                archive: archive.to_path_buf(),
                index,
            },
            label,
            expected_sha256: None,
        });
    }
    if others > 0 {
        report.note(format!(
            "{label_base}: ignored {others} entries that are neither .map nor .scen"
        ));
    }
    out
}

/// The entries of `dir` that `keep` accepts (given the name and the path), sorted by name
/// (none when `dir` is absent).
fn list_entries(
    dir: &Path,
    keep: impl Fn(&str, &Path) -> bool,
) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("listing {}", dir.display())),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("listing {}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if keep(&name, &entry.path()) {
            out.push((name, entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// The files of `dir` whose names end in `ext`, sorted by name (none when `dir` is absent).
fn list_files(dir: &Path, ext: &str) -> anyhow::Result<Vec<(String, PathBuf)>> {
    list_entries(dir, |name, path| {
        name.ends_with(ext) && is_plain_name(name) && path.is_file()
    })
}

/// The sub-directories of `dir`, sorted (none when `dir` is absent).
fn list_dirs(dir: &Path) -> anyhow::Result<Vec<String>> {
    Ok(list_entries(dir, |_, path| path.is_dir())?
        .into_iter()
        .map(|(name, _)| name)
        .collect())
}

fn file_candidate(set: Option<Set>, kind: Kind, name: String, path: PathBuf) -> Candidate {
    Candidate {
        set,
        kind,
        name,
        label: path.display().to_string(),
        origin: Origin::File(path),
        expected_sha256: None,
    }
}

/// The map path named by the first query line of a scenario file, read leniently (the file
/// is verified in full later): the second field, tab-separated if the line has a tab.
fn first_map_path(path: &Path) -> Option<String> {
    let bytes = fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().skip(1).find(|l| !l.trim().is_empty())?;
    let field = if line.contains('\t') {
        line.split('\t').nth(1)?.trim()
    } else {
        line.split_whitespace().nth(1)?
    };
    Some(field.to_owned())
}

/// The base name of a map path (`maps/dao/arena.map` → `arena.map`).
fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Candidates of every layout found under `dir`, in priority order: where two sources
/// would give the same destination file, the first that passes verification is imported.
/// Errors only when `dir` cannot be read or holds no known layout.
pub fn discover_mirror(
    dir: &Path,
    sets: &[Set],
    report: &mut Report,
) -> anyhow::Result<Vec<Candidate>> {
    anyhow::ensure!(dir.is_dir(), "{} is not a directory", dir.display());
    let mut out = Vec::new();
    let mut layouts = Vec::new();
    if discover_shared(dir, sets, &mut out, report)? {
        layouts.push("shared data (grid/, suites/, mesh/reference/)");
    }
    if discover_dest_layout(dir, sets, &mut out, report)? {
        layouts.push("fetch-maps destination");
    }
    if discover_archives(dir, sets, &mut out, report) {
        layouts.push("MovingAI archives");
    }
    anyhow::ensure!(
        !layouts.is_empty(),
        "{} holds no known mirror layout (grid/, suites/ or mesh/reference/ of the shared data, \
         <set>/maps/ of a fetch-maps destination, or <set>-map.zip archives)",
        dir.display()
    );
    report.note(format!(
        "{}: recognised {}",
        dir.display(),
        layouts.join("; ")
    ));
    Ok(out)
}

/// Layout 1, the shared data: `grid/{maps,scen,scen-legacy,optimal}`,
/// `suites/{grid,scenarios,merged-mesh}/<dir>` and `mesh/reference/*.mesh`. Returns whether
/// any of it is present.
fn discover_shared(
    dir: &Path,
    sets: &[Set],
    out: &mut Vec<Candidate>,
    report: &mut Report,
) -> anyhow::Result<bool> {
    let grid = dir.join("grid");
    let suites = dir.join("suites");
    let mut found = false;
    let wanted = |s: Set| sets.contains(&s);

    // The set of each grid/ map, by file name.
    let mut set_of_map: HashMap<String, Set> = HashMap::new();
    if grid.join("maps").is_dir() {
        found = true;
        // The older-generation scenario of each map names its set (`maps/dao/arena.map`).
        let legacy = list_files(&grid.join("scen-legacy"), ".scen")?;
        let mut legacy_sets = Vec::new();
        for (name, path) in legacy {
            let named = first_map_path(&path);
            match named.as_deref().map(|m| (m, Set::from_map_path(m))) {
                Some((map, Some(set))) => {
                    set_of_map.entry(base_name(map).to_owned()).or_insert(set);
                    legacy_sets.push((set, name, path));
                }
                Some((map, None)) => report.reject(
                    path.display().to_string(),
                    format!("cannot tell the set of map path {map:?}"),
                ),
                None => report.reject(
                    path.display().to_string(),
                    "no query line naming a map (cannot tell its set)",
                ),
            }
        }
        for (name, path) in list_files(&grid.join("maps"), ".map")? {
            match set_of_map.get(&name) {
                Some(&set) if wanted(set) => {
                    out.push(file_candidate(Some(set), Kind::Map, name, path));
                }
                Some(_) => {}
                None => report.reject(
                    path.display().to_string(),
                    "no grid/scen-legacy file names this map, so its set is unknown",
                ),
            }
        }
        for (name, path) in list_files(&grid.join("scen"), ".scen")? {
            // Current-generation files name the map bare; its set is the set of that map.
            let map = first_map_path(&path)
                .map(|m| base_name(&m).to_owned())
                .unwrap_or_else(|| name.trim_end_matches(".scen").to_owned());
            match set_of_map.get(&map) {
                Some(&set) if wanted(set) => {
                    out.push(file_candidate(Some(set), Kind::Scen, name, path));
                }
                Some(_) => {}
                None => report.reject(
                    path.display().to_string(),
                    format!("names map {map:?}, whose set is unknown (not in grid/scen-legacy)"),
                ),
            }
        }
        for (set, name, path) in legacy_sets {
            if wanted(set) {
                out.push(file_candidate(Some(set), Kind::ScenLegacy, name, path));
            }
        }
    }
    for name in OPTIMAL_FILES {
        let path = grid.join("optimal").join(name);
        if path.is_file() {
            found = true;
            out.push(file_candidate(None, Kind::Optimal, name.to_owned(), path));
        }
    }

    // The complete older-generation suites: maps in suites/grid/<dir>, scenarios in
    // suites/scenarios/<dir>, <dir> named as in those scenarios' map paths.
    let suite_dirs = list_dirs(&suites.join("grid"))?;
    for d in list_dirs(&suites.join("scenarios"))? {
        if !suite_dirs.contains(&d) {
            report.note(format!(
                "{}: no matching suites/grid/{d}",
                suites.join("scenarios").join(&d).display()
            ));
        }
    }
    for d in suite_dirs {
        found = true;
        let Some(set) = Set::from_legacy_dir(&d) else {
            report.note(format!(
                "{}: not a known set, ignored",
                suites.join("grid").join(&d).display()
            ));
            continue;
        };
        if !wanted(set) {
            continue;
        }
        for (name, path) in list_files(&suites.join("grid").join(&d), ".map")? {
            out.push(file_candidate(Some(set), Kind::Map, name, path));
        }
        for (name, path) in list_files(&suites.join("scenarios").join(&d), ".scen")? {
            out.push(file_candidate(Some(set), Kind::ScenLegacy, name, path));
        }
    }

    // Navigation meshes of the suite maps, suites/merged-mesh/<dir>/<map>-merged.mesh, in
    // the set that <dir> names for suites/grid/<dir> (so bgmaps is bg512). A mesh whose map
    // is not imported is rejected when it is verified.
    let meshes = suites.join("merged-mesh");
    for d in list_dirs(&meshes)? {
        found = true;
        let Some(set) = Set::from_legacy_dir(&d) else {
            report.note(format!(
                "{}: not a known set, ignored",
                meshes.join(&d).display()
            ));
            continue;
        };
        if wanted(set) {
            for (name, path) in list_files(&meshes.join(&d), ".mesh")? {
                out.push(file_candidate(Some(set), Kind::Mesh, name, path));
            }
        }
    }
    let reference = discover_reference_meshes(dir, &set_of_map, sets, out, report)?;
    Ok(found || reference)
}

/// The reference meshes of layout 1, `mesh/reference/<map>.mesh` and `<map>-merged.mesh`
/// (the reference Polyanya's triangulation and merged mesh of a grid/ map), in the set of
/// the grid/ map of that name (`set_of_map`). The map's name is matched ignoring case and
/// the mesh takes the map's spelling (`aurora.mesh` is the mesh of `Aurora.map`, so it
/// becomes `sc1/meshes/Aurora.mesh`): a mesh's name then always leads to its map, and no two
/// meshes of a set differ only by case, which would be one file on some file systems.
/// Returns whether there is any reference mesh.
fn discover_reference_meshes(
    dir: &Path,
    set_of_map: &HashMap<String, Set>,
    sets: &[Set],
    out: &mut Vec<Candidate>,
    report: &mut Report,
) -> anyhow::Result<bool> {
    let files = list_files(&dir.join("mesh/reference"), ".mesh")?;
    let found = !files.is_empty();
    for (name, path) in files {
        let Some(map) = mesh_map_name(&name) else {
            continue;
        };
        let mut hits: Vec<(&String, &Set)> = match set_of_map.get_key_value(&map) {
            Some(hit) => vec![hit],
            None => set_of_map
                .iter()
                .filter(|(m, _)| m.eq_ignore_ascii_case(&map))
                .collect(),
        };
        hits.sort();
        match hits.as_slice() {
            [(spelling, set)] => {
                let set = **set;
                if sets.contains(&set) {
                    // `name` is `<stem>` then `.mesh` or `-merged.mesh`; `map` is `<stem>.map`.
                    let suffix = &name[map.len() - ".map".len()..];
                    let stem = spelling.trim_end_matches(".map");
                    let renamed = format!("{stem}{suffix}");
                    out.push(file_candidate(Some(set), Kind::Mesh, renamed, path));
                }
            }
            [] => report.reject(
                path.display().to_string(),
                format!(
                    "no grid/scen-legacy file names a map {map:?}, so the set of this mesh is unknown"
                ),
            ),
            _ => report.reject(
                path.display().to_string(),
                format!("several grid/ maps are named {map:?} but for case: which one is unclear"),
            ),
        }
    }
    Ok(found)
}

/// Layout 2, a fetch-maps destination: `<set>/{maps,scen,scen-legacy,meshes}/` and `optimal/`,
/// checked against its `manifest.json` when there is one. Returns whether it is present.
fn discover_dest_layout(
    dir: &Path,
    sets: &[Set],
    out: &mut Vec<Candidate>,
    report: &mut Report,
) -> anyhow::Result<bool> {
    let has_manifest = dir.join(MANIFEST).is_file();
    let has_sets = Set::ALL.iter().any(|s| dir.join(s.name()).is_dir());
    if !has_manifest && !has_sets {
        return Ok(false);
    }
    let manifest = match Manifest::load(dir) {
        Ok(m) => m.unwrap_or_default(),
        Err(e) => {
            report.reject(
                dir.join(MANIFEST).display().to_string(),
                format!("{e:#}; its files are checked without it"),
            );
            Manifest::default()
        }
    };
    let start = out.len();
    let expect = |c: Candidate| {
        let expected_sha256 = manifest.files.get(&c.dest()).map(|e| e.sha256.clone());
        Candidate {
            expected_sha256,
            ..c
        }
    };
    for &set in sets {
        for (kind, ext) in [
            (Kind::Map, ".map"),
            (Kind::Scen, ".scen"),
            (Kind::ScenLegacy, ".scen"),
            (Kind::Mesh, ".mesh"),
        ] {
            for (name, path) in list_files(&dir.join(set.name()).join(kind.dir()), ext)? {
                out.push(expect(file_candidate(Some(set), kind, name, path)));
            }
        }
    }
    for name in OPTIMAL_FILES {
        let path = dir.join(Kind::Optimal.dir()).join(name);
        if path.is_file() {
            out.push(expect(file_candidate(
                None,
                Kind::Optimal,
                name.to_owned(),
                path,
            )));
        }
    }
    // Files the mirror's manifest lists (in the selected sets) but the mirror lacks.
    let present: std::collections::HashSet<String> =
        out[start..].iter().map(Candidate::dest).collect();
    for entry in manifest.files.values() {
        let selected = entry.set == Kind::Optimal.dir()
            || Set::from_name(&entry.set).is_some_and(|s| sets.contains(&s));
        if selected && !present.contains(&entry.path) {
            report.reject(
                dir.join(&entry.path).display().to_string(),
                format!("listed in {} but missing", dir.join(MANIFEST).display()),
            );
        }
    }
    Ok(true)
}

/// Layout 3, MovingAI archives: `<key>-map.zip` and `<key>-scen.zip` in `dir` or
/// `dir/.downloads/`, `<key>` being the set's archive key or directory name. Returns whether
/// any archive is present.
fn discover_archives(
    dir: &Path,
    sets: &[Set],
    out: &mut Vec<Candidate>,
    report: &mut Report,
) -> bool {
    let mut found = false;
    for base in [dir.to_path_buf(), dir.join(".downloads")] {
        for &set in sets {
            let mut keys = vec![set.archive_key()];
            if set.name() != set.archive_key() {
                keys.push(set.name());
            }
            for key in keys {
                for suffix in ["-map.zip", "-scen.zip"] {
                    let path = base.join(format!("{key}{suffix}"));
                    if path.is_file() {
                        found = true;
                        let label = path.display().to_string();
                        out.extend(archive_candidates(&path, set, &label, report));
                    }
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_names() {
        use EntryName::*;
        let ok = [
            ("arena.map", File("arena.map")),
            ("dao/arena.map", File("arena.map")),
            ("a/b/c.map.scen", File("c.map.scen")),
            ("dao/", Skip),
            ("__MACOSX/dao/._arena.map", Skip),
            ("dao/._arena.map", Skip),
            ("dao/./arena.map", File("arena.map")),
        ];
        for (name, want) in ok {
            assert_eq!(judge_entry_name(name), Ok(want), "{name}");
        }
        for bad in [
            "../arena.map",
            "dao/../../arena.map",
            "dao\\..\\x.map",
            "/etc/arena.map",
            "\\x.map",
            "C:x.map",
            "c:/x.map",
            "a\0.map",
        ] {
            assert!(judge_entry_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_map_of_a_mesh() {
        assert_eq!(
            mesh_map_name("arena-merged.mesh").as_deref(),
            Some("arena.map")
        );
        assert_eq!(mesh_map_name("arena.mesh").as_deref(), Some("arena.map"));
        assert_eq!(
            mesh_map_name("lt_0_lowtown-merged.mesh").as_deref(),
            Some("lt_0_lowtown.map")
        );
        assert_eq!(mesh_map_name("arena.map"), None);
    }

    #[test]
    fn plain_names() {
        assert!(is_plain_name("arena.map"));
        for bad in ["", ".hidden.map", "a/b.map", "a\\b", "a\nb.map"] {
            assert!(!is_plain_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn first_map_path_reads_either_separator() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.scen");
        fs::write(&p, "version 1.0\n\n0 maps/dao/a.map 1 1 0 0 0 0 0\n").unwrap();
        assert_eq!(first_map_path(&p).as_deref(), Some("maps/dao/a.map"));
        fs::write(&p, "version 1\n0\tBerlin_0_256.map\t1\n").unwrap();
        assert_eq!(first_map_path(&p).as_deref(), Some("Berlin_0_256.map"));
        fs::write(&p, "version 1\n").unwrap();
        assert_eq!(first_map_path(&p), None);
    }
}
