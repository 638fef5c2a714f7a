//! The malformed-input corpus of `fixtures/bad/`: every file is read by the reader its
//! extension selects, and the outcome must match `fixtures/bad/expected.txt` exactly (the
//! `ParseErrorKind` variant and the 1-based line, or `ok`). The manifest format is described in
//! `fixtures/bad/README.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use taut_grid::{
    Endpoint, FreeSet, Grid, GridError, MapFile, ParseErrorKind, QueryError, Scenario,
};

fn corpus() -> PathBuf {
    taut_testdata::fixtures().join("bad")
}

/// One manifest line.
#[derive(Debug)]
struct Expectation {
    /// `ok` or a `ParseErrorKind` variant name.
    outcome: String,
    /// The expected line for an error.
    line: Option<usize>,
    /// `key=value` checks (only `map=` and `reject=` exist).
    checks: BTreeMap<String, String>,
}

fn manifest() -> BTreeMap<String, Expectation> {
    let path = corpus().join("expected.txt");
    let mut out = BTreeMap::new();
    for (at, fields) in taut_testdata::manifest_entries(&path) {
        let t: Vec<&str> = fields.iter().map(String::as_str).collect();
        assert!(
            t.len() >= 3,
            "expected.txt:{}: need `file outcome line`",
            at
        );
        let line_no = match t[2] {
            "-" => None,
            n => Some(n.parse().expect("line number")),
        };
        assert_eq!(
            t[1] == "ok",
            line_no.is_none(),
            "expected.txt:{}: `ok` takes line `-`, an error takes a number",
            at
        );
        let checks = t[3..]
            .iter()
            .map(|kv| {
                let (k, v) = kv.split_once('=').expect("check is key=value");
                (k.to_owned(), v.to_owned())
            })
            .collect();
        let prev = out.insert(
            t[0].to_owned(),
            Expectation {
                outcome: t[1].to_owned(),
                line: line_no,
                checks,
            },
        );
        assert!(prev.is_none(), "expected.txt lists {} twice", t[0]);
    }
    out
}

/// The variant name of a parse error kind, as written in the manifest.
fn variant(kind: &ParseErrorKind) -> &'static str {
    match kind {
        ParseErrorKind::Empty => "Empty",
        ParseErrorKind::NotText => "NotText",
        ParseErrorKind::BadHeader { .. } => "BadHeader",
        ParseErrorKind::BadDimension { .. } => "BadDimension",
        ParseErrorKind::Truncated { .. } => "Truncated",
        ParseErrorKind::RowWidth { .. } => "RowWidth",
        ParseErrorKind::TooManyRows { .. } => "TooManyRows",
        ParseErrorKind::UnknownTerrain { .. } => "UnknownTerrain",
        ParseErrorKind::FieldCount { .. } => "FieldCount",
        ParseErrorKind::BadField { .. } => "BadField",
        ParseErrorKind::CoordinateOutOfRange { .. } => "CoordinateOutOfRange",
    }
}

enum Loaded {
    Map(MapFile),
    Scen(Scenario),
}

fn load(path: &Path) -> Result<Loaded, GridError> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("map") => MapFile::read(path).map(Loaded::Map),
        Some("scen") => Scenario::read(path).map(Loaded::Scen),
        _ => panic!("{}: no reader for this extension", path.display()),
    }
}

#[test]
fn every_corpus_file_is_listed_and_nothing_listed_is_missing() {
    // Subdirectories hold the other readers' corpora (mesh/, cpd/, sphere/), each with its own
    // manifest and test.
    let listed = manifest();
    taut_testdata::assert_catalogue_complete(&corpus(), listed.keys().map(String::as_str));
}

#[test]
fn every_corpus_file_gives_its_expected_outcome() {
    let mut failures = Vec::new();
    for (name, exp) in manifest() {
        let path = corpus().join(&name);
        let started = Instant::now();
        let got = std::panic::catch_unwind(|| load(&path));
        let took = started.elapsed();
        // Nothing here is large: a slow read means the declared size was allocated or scanned.
        if took > Duration::from_secs(1) {
            failures.push(format!("{name}: took {took:?}"));
        }
        let got = match got {
            Ok(r) => r,
            Err(_) => {
                failures.push(format!("{name}: the reader panicked"));
                continue;
            }
        };
        match (exp.outcome.as_str(), got) {
            ("ok", Ok(loaded)) => {
                if let Err(e) = check_valid(&name, &exp, loaded) {
                    failures.push(e);
                }
            }
            ("ok", Err(e)) => failures.push(format!("{name}: expected ok, got `{e}`")),
            (want, Ok(_)) => failures.push(format!("{name}: expected {want}, but it loaded")),
            (want, Err(e)) => {
                let kind = e.kind().map(variant).unwrap_or("Io");
                let line = e.line();
                if kind != want || line != exp.line {
                    failures.push(format!(
                        "{name}: expected {want} at line {:?}, got {kind} at line {line:?}: `{e}`",
                        exp.line
                    ));
                }
                // The message names the file and the line, as `path:line: ...`.
                let msg = e.to_string();
                let at = format!("{}:{}: ", path.display(), exp.line.unwrap_or(0));
                if !msg.starts_with(&at) {
                    failures.push(format!(
                        "{name}: message `{msg}` does not start with `{at}`"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A file that must load: it round-trips through `to_text`, and a scenario with `map=` checks
/// that exactly the `reject=` queries (line:endpoint:variant) fail `Grid::check_query`.
fn check_valid(name: &str, exp: &Expectation, loaded: Loaded) -> Result<(), String> {
    match loaded {
        Loaded::Map(m) => {
            let again =
                MapFile::parse(m.to_text().as_bytes()).map_err(|e| format!("{name}: {e}"))?;
            if again != m {
                return Err(format!("{name}: to_text does not round-trip"));
            }
        }
        Loaded::Scen(s) => {
            let again =
                Scenario::parse(s.to_text().as_bytes()).map_err(|e| format!("{name}: {e}"))?;
            if again.to_text() != s.to_text() || again.entries.len() != s.entries.len() {
                return Err(format!("{name}: to_text does not round-trip"));
            }
            if let Some(map) = exp.checks.get("map") {
                let map = MapFile::read(corpus().join(map)).map_err(|e| e.to_string())?;
                let grid = Grid::from_map(&map, &FreeSet::default());
                let want: BTreeMap<usize, String> = exp
                    .checks
                    .get("reject")
                    .map(|r| {
                        r.split(',')
                            .map(|item| {
                                let (line, rest) = item.split_once(':').expect("line:which:kind");
                                (line.parse().expect("line"), rest.to_owned())
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let mut got = BTreeMap::new();
                for e in &s.entries {
                    if let Err(q) = grid.check_query(e.start, e.goal) {
                        let (which, kind) = match q {
                            QueryError::OffMap { which, .. } => (which, "OffMap"),
                            QueryError::Blocked { which, .. } => (which, "Blocked"),
                            other => panic!("check_query returned {other}"),
                        };
                        let which = match which {
                            Endpoint::Start => "start",
                            Endpoint::Goal => "goal",
                        };
                        got.insert(e.line, format!("{which}:{kind}"));
                    }
                }
                if got != want {
                    return Err(format!(
                        "{name}: check_query rejects {got:?}, expected {want:?}"
                    ));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn crlf_and_lf_maps_are_the_same_map() {
    let crlf = MapFile::read(corpus().join("ok_crlf.map")).unwrap();
    let lf = MapFile::read(corpus().join("ok_no_trailing_newline.map")).unwrap();
    assert_eq!(crlf, lf);
    assert_eq!(crlf.tile(1, 1), Some(b'@'));
}

#[test]
fn in_memory_errors_name_the_input_pseudo_file() {
    let e = MapFile::parse(b"type octile\nheight 2\nwidth 3\nmap\n...\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "<input>:6: truncated: expected 2 map rows, found 1"
    );
    let e = Scenario::parse(b"version 1\n0\tm\t3\t3\t0\t0\t3\t0\t3\n").unwrap_err();
    assert_eq!(e.line(), Some(2));
    assert!(
        e.to_string()
            .starts_with("<input>:2: goal_x = 3 is out of range 0..3")
    );
}

#[test]
fn missing_file_is_an_io_error_naming_the_path() {
    let path = corpus().join("does-not-exist.map");
    let e = MapFile::read(&path).unwrap_err();
    assert!(matches!(e, GridError::Io { .. }));
    assert!(e.kind().is_none() && e.line().is_none());
    assert!(e.to_string().contains("does-not-exist.map"));
}
