//! The readers and writers against the real reference data in `../shared/data` (skipped with a
//! `SKIPPED` line when it is absent, a failure under `TAUT_REQUIRE_DATA=1`).
//!
//! - Every `.map` parses, and `to_text` then `parse` gives the identical map.
//! - Every `.scen` parses, and `to_text` reproduces the file byte for byte, modulo CRLF line
//!   ends and trailing blank lines (`docs/formats.md` lists the generations).
//! - Every scenario entry lies on its map (resolved by base name), with the map's size.
//! - The blocked-endpoint queries of the legacy Warcraft III files are exactly those that
//!   `data/grid/optimal/scen-legacy.csv` flags `endpoint_blocked` (79).
//!
//! The files are read and parsed on all cores; the whole test reads ~200 MB and takes a few
//! seconds in release mode. Each test prints its timing.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use taut_grid::{FreeSet, Grid, MapFile, QueryError, Scenario};

/// Files with extension `ext` directly in each of `dirs` (relative to the data directory).
fn files(data: &Path, dirs: &[&str], ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in dirs {
        let dir = data.join(d);
        let mut here: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        assert!(!here.is_empty(), "no .{ext} files in {}", dir.display());
        here.sort();
        out.extend(here);
    }
    out
}

/// Runs `f` on every item on all cores, collecting the `Err` messages.
fn par_check<T: Sync>(items: &[T], f: impl Fn(&T) -> Result<(), String> + Sync) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let errors = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    if let Err(e) = f(item) {
                        errors.lock().unwrap().push(e);
                    }
                }
            });
        }
    });
    let mut errors = errors.into_inner().unwrap();
    errors.sort();
    errors
}

const MAP_DIRS: &[&str] = &[
    "grid/maps",
    "suites/grid/bgmaps",
    "suites/grid/da2",
    "suites/grid/dao",
    "suites/grid/sc1",
    "mesh/reference",
    "frit/testmaps",
    "sphere",
];

/// Scenario directories and the directory their maps are resolved in.
const SCEN_DIRS: &[(&str, &str)] = &[
    ("grid/scen", "grid/maps"),
    ("grid/scen-legacy", "grid/maps"),
    ("grid/optimal", "grid/maps"),
    ("suites/scenarios/bgmaps", "suites/grid/bgmaps"),
    ("suites/scenarios/da2", "suites/grid/da2"),
    ("suites/scenarios/dao", "suites/grid/dao"),
    ("suites/scenarios/sc1", "suites/grid/sc1"),
    ("frit/testmaps", "frit/testmaps"),
    ("mesh/reference", "mesh/reference"),
];

#[test]
fn every_reference_map_parses_and_round_trips() {
    let Some(data) = taut_testdata::shared_data("every_reference_map_parses_and_round_trips")
    else {
        return;
    };
    let started = Instant::now();
    let maps = files(&data, MAP_DIRS, "map");
    assert!(
        maps.len() >= 53 + 373 + 2 + 4 + 12,
        "only {} maps",
        maps.len()
    );
    let errors = par_check(&maps, |path| {
        let m = MapFile::read(path).map_err(|e| e.to_string())?;
        let again = MapFile::parse(m.to_text().as_bytes())
            .map_err(|e| format!("{}: re-parse: {e}", path.display()))?;
        if again != m {
            return Err(format!("{}: to_text does not round-trip", path.display()));
        }
        Ok(())
    });
    eprintln!(
        "{} maps parsed and round-tripped in {:?}",
        maps.len(),
        started.elapsed()
    );
    assert!(errors.is_empty(), "\n{}", errors.join("\n"));
}

/// The file text normalised for comparison: LF line ends, no trailing blank lines, one final
/// newline.
fn normalise(text: &str) -> String {
    let mut s = text.replace("\r\n", "\n");
    let kept = s.trim_end_matches(['\n', ' ', '\t']).len();
    s.truncate(kept);
    s.push('\n');
    s
}

#[test]
fn every_reference_scenario_parses_and_to_text_reproduces_it() {
    let Some(data) =
        taut_testdata::shared_data("every_reference_scenario_parses_and_to_text_reproduces_it")
    else {
        return;
    };
    let started = Instant::now();
    let dirs: Vec<&str> = SCEN_DIRS.iter().map(|(s, _)| *s).collect();
    let scens = files(&data, &dirs, "scen");
    let formats: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());
    let errors = par_check(&scens, |path| {
        let s = Scenario::read(path).map_err(|e| e.to_string())?;
        let dir = path.parent().and_then(|d| d.strip_prefix(&data).ok());
        let key = format!("{:<24} {:?}", dir.unwrap_or(path).display(), s.format);
        *formats.lock().unwrap().entry(key).or_default() += 1;
        if s.entries.is_empty() {
            return Err(format!("{}: no entries", path.display()));
        }
        let original = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let (want, got) = (normalise(&original), s.to_text());
        if want != got {
            let line = want
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .map_or(want.lines().count().min(got.lines().count()), |i| i);
            return Err(format!(
                "{}:{}: to_text differs ({:?}): {:?} vs {:?}",
                path.display(),
                line + 1,
                s.format,
                want.lines().nth(line).unwrap_or("<end>"),
                got.lines().nth(line).unwrap_or("<end>"),
            ));
        }
        Ok(())
    });
    eprintln!(
        "{} scenarios parsed and compared in {:?}; formats detected:",
        scens.len(),
        started.elapsed()
    );
    for (k, n) in formats.into_inner().unwrap() {
        eprintln!("  {n:>4} {k}");
    }
    assert!(errors.is_empty(), "\n{}", errors.join("\n"));
}

/// The map named `base` in `dir`; case-insensitively if there is no exact match
/// (`mesh/reference/aurora.scen` names `maps/sc1/Aurora.map`, shipped as `aurora.map`).
fn resolve(dir: &Path, base: &str) -> PathBuf {
    let exact = dir.join(base);
    if exact.exists() {
        return exact;
    }
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case(base))
        })
        .unwrap_or(exact)
}

#[test]
fn every_scenario_entry_lies_on_its_map() {
    let Some(data) = taut_testdata::shared_data("every_scenario_entry_lies_on_its_map") else {
        return;
    };
    let started = Instant::now();
    let mut jobs = Vec::new();
    for (scen_dir, map_dir) in SCEN_DIRS {
        for path in files(&data, &[scen_dir], "scen") {
            jobs.push((path, data.join(map_dir)));
        }
    }
    // Map sizes are read from the headers only: the grids themselves are not needed here.
    let sizes: Mutex<HashMap<PathBuf, (u32, u32)>> = Mutex::new(HashMap::new());
    let errors = par_check(&jobs, |(path, map_dir)| {
        let s = Scenario::read(path).map_err(|e| e.to_string())?;
        for e in &s.entries {
            let map_path = resolve(map_dir, e.map_base_name());
            let cached = sizes.lock().unwrap().get(&map_path).copied();
            let (w, h) = match cached {
                Some(wh) => wh,
                None => {
                    let m = MapFile::read(&map_path)
                        .map_err(|err| format!("{}:{}: map: {err}", path.display(), e.line))?;
                    let wh = (m.width(), m.height());
                    sizes.lock().unwrap().insert(map_path.clone(), wh);
                    wh
                }
            };
            if (e.width, e.height) != (w, h) {
                return Err(format!(
                    "{}:{}: declares {}x{}, {} is {w}x{h}",
                    path.display(),
                    e.line,
                    e.width,
                    e.height,
                    map_path.display()
                ));
            }
            for p in [e.start, e.goal] {
                if p.x < 0 || p.y < 0 || p.x as u32 >= w || p.y as u32 >= h {
                    return Err(format!(
                        "{}:{}: {p} is off the {w}x{h} map",
                        path.display(),
                        e.line
                    ));
                }
            }
        }
        Ok(())
    });
    eprintln!(
        "{} scenarios checked against their maps in {:?}",
        jobs.len(),
        started.elapsed()
    );
    assert!(errors.is_empty(), "\n{}", errors.join("\n"));
}

#[test]
fn legacy_warcraft_blocked_endpoints_match_the_reference_csv() {
    let Some(data) =
        taut_testdata::shared_data("legacy_warcraft_blocked_endpoints_match_the_reference_csv")
    else {
        return;
    };
    let csv = taut_testdata::read_optimal_csv(&data.join("grid/optimal/scen-legacy.csv")).unwrap();
    // (map, idx) of every flagged query in the whole csv.
    let flagged: BTreeMap<(String, usize), ()> = csv
        .iter()
        .filter(|r| r.endpoint_blocked)
        .map(|r| ((r.map.clone(), r.idx), ()))
        .collect();
    assert_eq!(
        flagged.len(),
        79,
        "data README: 79 blocked-endpoint queries"
    );
    let mut rejected = BTreeMap::new();
    for name in ["battleground", "blastedlands", "duskwood"] {
        let map = MapFile::read(data.join(format!("grid/maps/{name}.map"))).unwrap();
        let grid = Grid::from_map(&map, &FreeSet::default());
        let scen = Scenario::read(data.join(format!("grid/scen-legacy/{name}.map.scen"))).unwrap();
        let rows: Vec<_> = csv.iter().filter(|r| r.map == name).collect();
        assert_eq!(rows.len(), scen.entries.len(), "{name}: csv rows vs scen");
        for (idx, e) in scen.entries.iter().enumerate() {
            let row = rows.iter().find(|r| r.idx == idx).unwrap();
            assert_eq!(
                (row.sx, row.sy, row.gx, row.gy),
                (e.start.x, e.start.y, e.goal.x, e.goal.y),
                "{name} query {idx}"
            );
            match grid.check_query(e.start, e.goal) {
                Ok(()) => {}
                Err(QueryError::Blocked { .. }) => {
                    rejected.insert((name.to_owned(), idx), ());
                }
                Err(err) => panic!("{name} query {idx}: {err}"),
            }
        }
    }
    assert_eq!(rejected.len(), 79);
    assert_eq!(
        rejected, flagged,
        "check_query rejects exactly the flagged queries"
    );
    // The flagged queries are exactly those with `len_gppc == -1` (an endpoint cell blocked).
    for r in csv.iter().filter(|r| r.endpoint_blocked) {
        assert_eq!(r.len_gppc, Some(-1.0), "{} query {}", r.map, r.idx);
    }
}
