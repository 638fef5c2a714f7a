//! Running the built `taut` binary, shared by the modules of the CLI's test binary.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs `taut` with `args`.
pub fn taut(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taut"))
        .args(args)
        .output()
        .expect("run taut")
}

/// Success with nothing on stderr; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let o = taut(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{args:?}: {err}");
    assert_eq!(err, "", "{args:?}");
    String::from_utf8(o.stdout).expect("utf-8 stdout")
}

/// Failure with exit code `code`, exactly one stderr line `taut: ...` and no panic; returns
/// that line.
pub fn fails(args: &[&str], code: i32) -> String {
    let o = taut(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
    assert!(err.starts_with("taut: ") && err.ends_with('\n'), "{err:?}");
    err.trim_end().to_owned()
}

/// The path of a sphere fixture map (`fixtures/sphere/NAME`).
pub fn sphere_fixture(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/sphere")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs `taut route ... --format json`: the parsed object (stdout must be exactly one JSON
/// object on one line), the exit code and stderr.
pub fn route_json(args: &[&str]) -> (serde_json::Value, i32, String) {
    let mut all = vec!["route"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let o = taut(&all);
    let out = String::from_utf8(o.stdout).expect("utf-8 stdout");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{all:?}: {err}");
    assert_eq!(out.lines().count(), 1, "{all:?}: one line of JSON: {out:?}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
    assert!(v.is_object(), "{out}");
    (v, o.status.code().expect("exit code"), err)
}

/// The path of a fixture file (`fixtures/NAME`), as an argument.
pub fn fixture(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A path as an argument.
pub fn arg(p: &std::path::Path) -> String {
    p.to_string_lossy().into_owned()
}

/// (status, length) of each row of `taut scen --format csv`.
pub fn csv_lengths(csv: &str) -> Vec<(String, f64)> {
    csv.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (c[5].to_owned(), c[6].parse().unwrap())
        })
        .collect()
}
