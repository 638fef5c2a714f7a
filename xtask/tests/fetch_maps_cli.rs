//! `cargo xtask fetch-maps` as a user runs it: the real binary, its exit status and output.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .env_remove("TAUT_MOVINGAI_BASE")
        .output()
        .expect("run xtask")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A mirror in the shared data's layout with the arena fixture (a Dragon Age map).
fn mirror(root: &Path, map: &[u8]) {
    let fixtures = taut_testdata::fixtures().join("maps");
    let scen = fs::read_to_string(fixtures.join("arena.map.scen")).unwrap();
    let legacy = scen.replace("\tarena.map\t", "\tmaps/dao/arena.map\t");
    for (path, bytes) in [
        ("grid/maps/arena.map", map),
        ("grid/scen/arena.map.scen", scen.as_bytes()),
        ("grid/scen-legacy/arena.map.scen", legacy.as_bytes()),
    ] {
        let p = root.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, bytes).unwrap();
    }
}

#[test]
fn imports_a_good_mirror_and_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let map = fs::read(taut_testdata::fixtures().join("maps/arena.map")).unwrap();
    mirror(&dir.path().join("m"), &map);
    let dest = dir.path().join("d");
    let args = [
        "fetch-maps",
        "--from",
        "m",
        "--dest",
        "d",
        "--set",
        "dao,maze",
    ];
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("rejected: none"), "{stdout}");
    let dao_row = stdout.lines().find(|l| l.starts_with("dao ")).unwrap();
    assert_eq!(
        dao_row.split_whitespace().collect::<Vec<_>>(),
        ["dao", "1", "1", "1", "0"]
    );
    assert!(stdout.lines().any(|l| l.starts_with("mazes ")), "{stdout}");
    assert_eq!(fs::read(dest.join("dao/maps/arena.map")).unwrap(), map);
    assert!(dest.join("manifest.json").is_file());

    // Again: nothing to copy.
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("3 files: 0 new"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_truncated_map_is_reported_and_the_exit_status_is_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let map = fs::read(taut_testdata::fixtures().join("maps/arena.map")).unwrap();
    let m = dir.path().join("m");
    mirror(&m, &map[..map.len() - 100]);
    let d = dir.path().join("d");
    let out = xtask(&[
        "fetch-maps",
        "--from",
        m.to_str().unwrap(),
        "--dest",
        d.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("rejected: 3"), "{stdout}");
    assert!(stdout.contains("grid/maps/arena.map: line"), "{stdout}");
    assert!(
        stdout.contains("its map \"arena.map\" was rejected"),
        "{stdout}"
    );
    assert!(text(&out.stderr).contains("3 source file(s) rejected"));
    assert!(!d.join("dao").exists());
}

#[test]
fn an_unknown_set_is_an_error() {
    let out = xtask(&["fetch-maps", "--set", "dao,atlantis", "--from", "."]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("unknown set \"atlantis\""));
}
