//! Tests of the whole fetch-maps pipeline: importing the shared data, corrupt mirrors, a
//! destination used as a mirror, idempotence, archives (with unsafe entry names), and
//! downloads from a loopback HTTP server with resume. No test touches the network.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::manifest::{MANIFEST, Manifest, sha256_hex};
use super::report::{Action, Report};
use super::sets::Set;
use super::{Options, fetch};

fn fixture(name: &str) -> Vec<u8> {
    fs::read(taut_testdata::fixtures().join("maps").join(name)).unwrap()
}

fn write(path: &Path, bytes: &[u8]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// A scenario with every map column replaced by `map_path` (older files name maps by path).
fn with_map_path(scen: &[u8], map_path: &str) -> Vec<u8> {
    let text = String::from_utf8(scen.to_vec()).unwrap();
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 || line.trim().is_empty() {
            out.push_str(line);
        } else {
            let mut fields: Vec<&str> = line.split('\t').collect();
            fields[1] = map_path;
            out.push_str(&fields.join("\t"));
        }
        out.push('\n');
    }
    out.into_bytes()
}

/// Every file under `dir` except the manifest, as relative `/`-separated paths.
fn files_under(dir: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if rel != MANIFEST {
                    out.insert(rel);
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out);
    out
}

/// Checks that the manifest lists exactly the files under `dest`, with their sizes and hashes.
fn assert_manifest_matches(dest: &Path) -> Manifest {
    let manifest = Manifest::load(dest).unwrap().expect("manifest written");
    let listed: BTreeSet<String> = manifest.files.keys().cloned().collect();
    assert_eq!(
        listed,
        files_under(dest),
        "manifest lists exactly the files"
    );
    for (path, e) in &manifest.files {
        let bytes = fs::read(dest.join(path)).unwrap();
        assert_eq!(e.size, bytes.len() as u64, "{path}");
        assert_eq!(e.sha256, sha256_hex(&bytes), "{path}");
        assert_eq!(Some(e.set.as_str()), path.split('/').next(), "{path}");
    }
    manifest
}

fn rejected_reason<'a>(report: &'a Report, source: &Path) -> &'a str {
    let source = source.display().to_string();
    match report.rejection_of(&source) {
        Some(r) => &r.reason,
        None => panic!("{source} not rejected; rejections: {:#?}", report.rejected),
    }
}

// ---------------------------------------------------------------------------------------
// (a) The shared data.

/// Which set the shared data's `grid/` puts each map in, worked out here independently of
/// the code under test: the directory in the map path of its grid/scen-legacy file.
fn shared_grid_sets(data: &Path) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for e in fs::read_dir(data.join("grid/scen-legacy")).unwrap() {
        let text = fs::read_to_string(e.unwrap().path()).unwrap();
        let line = text.lines().nth(1).unwrap();
        let map_path = line.split_whitespace().nth(1).unwrap();
        let (dir, name) = match map_path.rsplit_once('/') {
            Some((d, n)) => (d.rsplit('/').next().unwrap(), n),
            None => ("street", map_path),
        };
        let set = match dir {
            "bgmaps" => "bg512",
            "wc3maps" => "wc3maps512",
            d => d,
        };
        out.insert(name.to_owned(), set.to_owned());
    }
    out
}

fn names_in(dir: &Path, suffix: &str) -> BTreeSet<String> {
    match fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(suffix))
            .collect(),
        Err(_) => BTreeSet::new(),
    }
}

#[test]
fn imports_shared_data_sets_and_second_run_copies_nothing() {
    let Some(data) = taut_testdata::shared_data("fetch-maps import of ../shared/data") else {
        return;
    };
    let sets = [Set::Da2, Set::Street];
    let grid_sets = shared_grid_sets(&data);
    let mut expected: BTreeMap<String, usize> = BTreeMap::new();
    for set in sets {
        let name = set.name();
        let in_grid = |map: &str| grid_sets.get(map).map(String::as_str) == Some(name);
        let mut maps = names_in(&data.join("suites/grid").join(name), ".map");
        maps.extend(
            names_in(&data.join("grid/maps"), ".map")
                .into_iter()
                .filter(|m| in_grid(m)),
        );
        let scen: BTreeSet<String> = names_in(&data.join("grid/scen"), ".scen")
            .into_iter()
            .filter(|s| in_grid(s.trim_end_matches(".scen")))
            .collect();
        let mut legacy = names_in(&data.join("suites/scenarios").join(name), ".scen");
        legacy.extend(
            names_in(&data.join("grid/scen-legacy"), ".scen")
                .into_iter()
                .filter(|s| in_grid(s.trim_end_matches(".scen"))),
        );
        for (dir, n) in [
            ("maps", maps.len()),
            ("scen", scen.len()),
            ("scen-legacy", legacy.len()),
        ] {
            assert!(n > 0, "{name}/{dir}: the mirror should have some");
            expected.insert(format!("{name}/{dir}"), n);
        }
        // Suite meshes, and reference meshes of a grid/ map of the set (named ignoring case).
        let mut meshes = names_in(&data.join("suites/merged-mesh").join(name), ".mesh");
        for mesh in names_in(&data.join("mesh/reference"), ".mesh") {
            let stem = mesh.trim_end_matches(".mesh").trim_end_matches("-merged");
            let map = grid_sets
                .keys()
                .find(|m| m.eq_ignore_ascii_case(&format!("{stem}.map")));
            if let Some(map) = map.filter(|m| in_grid(m)) {
                let suffix = &mesh[stem.len()..];
                meshes.insert(format!("{}{suffix}", map.trim_end_matches(".map")));
            }
        }
        if !meshes.is_empty() {
            expected.insert(format!("{name}/meshes"), meshes.len());
        }
    }
    assert!(expected.contains_key("da2/meshes"), "{expected:?}");
    expected.insert("optimal".into(), 2);

    let dest = tempfile::tempdir().unwrap();
    let options = Options::mirror(&sets, &data, dest.path());
    let started = Instant::now();
    let report = fetch(&options).unwrap();
    assert!(report.is_clean(), "{:#?}", report.rejected);
    assert_eq!(report.inventory, expected);
    let total: usize = expected.values().sum();
    assert_eq!(report.count(Action::New), total);
    let manifest = assert_manifest_matches(dest.path());
    // Every file is a byte copy of the mirror file its manifest entry names.
    for e in manifest.files.values() {
        let source = fs::read(&e.source).unwrap();
        assert_eq!(sha256_hex(&source), e.sha256, "{}", e.path);
        assert!(Path::new(&e.source).starts_with(data.canonicalize().unwrap()));
    }
    eprintln!("imported {total} files in {:?}", started.elapsed());

    let again = fetch(&options).unwrap();
    assert!(again.is_clean());
    assert_eq!(again.written(), 0, "a second run copies nothing");
    assert_eq!(again.count(Action::UpToDate), total);
    assert_eq!(Manifest::load(dest.path()).unwrap(), Some(manifest));
}

// ---------------------------------------------------------------------------------------
// (b) A damaged mirror in the shared data's layout.

/// A mirror in the shared layout built from the fixtures: arena (dao) and small (random) are
/// good; the rest is damaged in one way each.
fn damaged_mirror(root: &Path) {
    let arena = fixture("arena.map");
    let arena_scen = fixture("arena.map.scen");
    let small_scen = fixture("small.map.scen");
    let g = root.join("grid");
    write(&g.join("maps/arena.map"), &arena);
    write(&g.join("scen/arena.map.scen"), &arena_scen);
    write(
        &g.join("scen-legacy/arena.map.scen"),
        &with_map_path(&arena_scen, "maps/dao/arena.map"),
    );
    write(&g.join("maps/small.map"), &fixture("small.map"));
    write(
        &g.join("scen-legacy/small.map.scen"),
        &with_map_path(&small_scen, "maps/random/small.map"),
    );
    // A map cut after its 24th row, and its scenario.
    let cut = arena
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(4 + 24 - 1)
        .unwrap()
        .0;
    write(&g.join("maps/trunc.map"), &arena[..=cut]);
    write(
        &g.join("scen-legacy/trunc.map.scen"),
        &with_map_path(&arena_scen, "maps/dao/trunc.map"),
    );
    // A map with one byte outside the alphabet, and its scenario.
    let mut bad = arena.clone();
    let body = bad.windows(5).position(|w| w == b"\nmap\n").unwrap() + 5;
    bad[body + 60] = b'X';
    write(&g.join("maps/badbyte.map"), &bad);
    write(
        &g.join("scen-legacy/badbyte.map.scen"),
        &with_map_path(&arena_scen, "maps/dao/badbyte.map"),
    );
    // A scenario whose map is nowhere.
    write(
        &g.join("scen-legacy/ghost.map.scen"),
        &with_map_path(&arena_scen, "maps/dao/ghost.map"),
    );
    // A query outside the map (small is 8x6; x = 9).
    let text = String::from_utf8(small_scen).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut f: Vec<String> = lines[2].split('\t').map(str::to_owned).collect();
    f[6] = "9".into();
    lines[2] = f.join("\t");
    write(
        &g.join("scen/small.map.scen"),
        (lines.join("\n") + "\n").as_bytes(),
    );
    // A scenario declaring another size than its map's.
    write(
        &g.join("scen/arena2.map.scen"),
        b"version 1\n0\tarena.map\t50\t50\t1\t11\t1\t12\t1\n",
    );
}

#[test]
fn damaged_files_are_reported_not_imported_and_the_rest_is() {
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path().join("mirror");
    damaged_mirror(&mirror);
    let mirror = mirror.canonicalize().unwrap();
    let dest = dir.path().join("dest");
    let report = fetch(&Options::mirror(&Set::ALL, &mirror, &dest)).unwrap();
    let g = mirror.join("grid");
    let cases = [
        (
            "maps/trunc.map",
            "truncated: expected 49 map rows, found 24",
        ),
        (
            "scen-legacy/trunc.map.scen",
            "its map \"trunc.map\" was rejected",
        ),
        ("maps/badbyte.map", "unknown terrain character 'X'"),
        (
            "scen-legacy/badbyte.map.scen",
            "its map \"badbyte.map\" was rejected",
        ),
        (
            "scen-legacy/ghost.map.scen",
            "names map \"ghost.map\", which is not in set dao",
        ),
        (
            "scen/small.map.scen",
            "line 3: goal_x = 9 is out of range 0..8",
        ),
        (
            "scen/arena2.map.scen",
            "declares 50x50 but arena.map is 49x49",
        ),
    ];
    for (path, want) in cases {
        let reason = rejected_reason(&report, &g.join(path));
        assert!(
            reason.contains(want),
            "{path}: {reason:?} should say {want:?}"
        );
    }
    assert_eq!(report.rejected.len(), cases.len(), "{:#?}", report.rejected);
    assert!(!report.is_clean());
    let imported: BTreeSet<String> = [
        "dao/maps/arena.map",
        "dao/scen/arena.map.scen",
        "dao/scen-legacy/arena.map.scen",
        "random/maps/small.map",
        "random/scen-legacy/small.map.scen",
    ]
    .map(String::from)
    .into();
    assert_eq!(files_under(&dest), imported);
    assert_manifest_matches(&dest);
    assert_eq!(
        fs::read(dest.join("dao/maps/arena.map")).unwrap(),
        fixture("arena.map")
    );
}

#[test]
fn a_copy_that_differs_between_sources_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path().join("mirror");
    damaged_mirror(&mirror);
    // The same dao map in suites/, but different (still a valid map).
    let mut other = fixture("arena.map");
    let at = other.iter().rposition(|&b| b == b'.').unwrap();
    other[at] = b'@';
    write(&mirror.join("suites/grid/dao/arena.map"), &other);
    let mirror = mirror.canonicalize().unwrap();
    let report = fetch(&Options::mirror(
        &[Set::Dao],
        &mirror,
        &dir.path().join("d"),
    ))
    .unwrap();
    let reason = rejected_reason(&report, &mirror.join("suites/grid/dao/arena.map"));
    assert!(
        reason.contains("differs from") && reason.contains("grid/maps/arena.map"),
        "{reason}"
    );
    // The grid/ copy, first in priority, is the one imported.
    let out = report.outcome_of("dao/maps/arena.map").unwrap();
    assert_eq!(
        out.source,
        mirror.join("grid/maps/arena.map").display().to_string()
    );
}

// ---------------------------------------------------------------------------------------
// A destination as a mirror; idempotence.

fn good_mirror(root: &Path) {
    let arena_scen = fixture("arena.map.scen");
    write(&root.join("grid/maps/arena.map"), &fixture("arena.map"));
    write(&root.join("grid/scen/arena.map.scen"), &arena_scen);
    write(
        &root.join("grid/scen-legacy/arena.map.scen"),
        &with_map_path(&arena_scen, "maps/dao/arena.map"),
    );
    write(
        &root.join("grid/optimal/scen.csv"),
        b"map,idx,len_gppc\narena,0,3.0\n",
    );
}

#[test]
fn a_destination_is_a_mirror_checked_against_its_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path().join("mirror");
    good_mirror(&mirror);
    let first = dir.path().join("first");
    let report = fetch(&Options::mirror(&Set::ALL, &mirror, &first)).unwrap();
    assert!(report.is_clean());
    let note = "set sc1: the sources hold no files of this set";
    assert!(report.notes.iter().any(|n| n == note), "{:?}", report.notes);

    let second = dir.path().join("second");
    let report = fetch(&Options::mirror(&Set::ALL, &first, &second)).unwrap();
    assert!(report.is_clean(), "{:#?}", report.rejected);
    assert_eq!(files_under(&first), files_under(&second));
    let (m1, m2) = (
        assert_manifest_matches(&first),
        assert_manifest_matches(&second),
    );
    for (path, e) in &m1.files {
        assert_eq!(m2.files[path].sha256, e.sha256);
        assert_eq!(
            m2.files[path].source,
            first
                .canonicalize()
                .unwrap()
                .join(path)
                .display()
                .to_string()
        );
    }

    // Same size, still a valid map, but not what the mirror's manifest recorded.
    let tampered = first.join("dao/maps/arena.map");
    let mut bytes = fs::read(&tampered).unwrap();
    let at = bytes.iter().rposition(|&b| b == b'.').unwrap();
    bytes[at] = b'@';
    fs::write(&tampered, &bytes).unwrap();
    fs::remove_file(first.join("optimal/scen.csv")).unwrap();
    let third = dir.path().join("third");
    let report = fetch(&Options::mirror(&Set::ALL, &first, &third)).unwrap();
    let first = first.canonicalize().unwrap();
    assert!(
        rejected_reason(&report, &tampered.canonicalize().unwrap()).contains("SHA-256 differs")
    );
    for scen in ["dao/scen/arena.map.scen", "dao/scen-legacy/arena.map.scen"] {
        assert!(rejected_reason(&report, &first.join(scen)).contains("was rejected"));
    }
    assert!(rejected_reason(&report, &first.join("optimal/scen.csv")).contains("missing"));
    assert_eq!(report.rejected.len(), 4);
    assert!(files_under(&third).is_empty());
}

#[test]
fn a_changed_destination_file_is_reported_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path().join("mirror");
    good_mirror(&mirror);
    let dest = dir.path().join("dest");
    let options = Options::mirror(&Set::ALL, &mirror, &dest);
    fetch(&options).unwrap();
    let before = Manifest::load(&dest).unwrap();

    let map = dest.join("dao/maps/arena.map");
    fs::write(&map, b"edited").unwrap();
    fs::write(dest.join("dao/scen/stray.map.scen"), b"not ours").unwrap();
    let unrecorded = dest.join("dao/scen-legacy/arena.map.scen");
    let mut m = Manifest::load(&dest).unwrap().unwrap();
    m.files.remove("dao/scen-legacy/arena.map.scen");
    m.save(&dest).unwrap();
    fs::write(&unrecorded, b"unrecorded").unwrap();

    let report = fetch(&options).unwrap();
    assert!(report.is_clean());
    assert_eq!(
        report.outcome_of("dao/maps/arena.map").unwrap().action,
        Action::Changed
    );
    assert_eq!(
        report
            .outcome_of("dao/scen-legacy/arena.map.scen")
            .unwrap()
            .action,
        Action::Replaced
    );
    assert_eq!(
        report.outcome_of("dao/scen/arena.map.scen").unwrap().action,
        Action::UpToDate
    );
    assert_eq!(fs::read(&map).unwrap(), fixture("arena.map"));
    // Files that are not ours stay, unlisted.
    assert!(dest.join("dao/scen/stray.map.scen").is_file());
    let after = Manifest::load(&dest).unwrap();
    assert_eq!(after, before);

    // A lost manifest: files already right are adopted, not rewritten.
    fs::remove_file(dest.join(MANIFEST)).unwrap();
    let report = fetch(&options).unwrap();
    assert_eq!(report.written(), 0);
    assert_eq!(report.count(Action::Adopted), report.files.len());
    // A manifest that is not JSON is noted and rebuilt.
    fs::write(dest.join(MANIFEST), b"{").unwrap();
    let report = fetch(&options).unwrap();
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.contains("not a valid manifest"))
    );
    assert_eq!(Manifest::load(&dest).unwrap(), before);
}

// ---------------------------------------------------------------------------------------
// Navigation meshes.

fn mesh_fixture(name: &str) -> Vec<u8> {
    fs::read(taut_testdata::fixtures().join("meshes").join(name)).unwrap()
}

/// A "mesh 2" mesh of the 8x6 `small.map`: one rectangle over the whole map.
const SMALL_MESH: &[u8] =
    b"mesh\n2\n4 1\n0 0 1 0\n8 0 1 0\n8 6 1 0\n0 6 1 0\n4 0 1 2 3 -1 -1 -1 -1\n";

/// [`good_mirror`] (arena, dao) plus meshes in every place the shared data has them: a
/// grid/ map `Small.map` of sc1, a suite map `tiny.map` of the `bgmaps` suite dir, suite
/// meshes of arena and tiny, and reference meshes of arena and of Small (spelt `small`).
fn mesh_mirror(root: &Path) {
    good_mirror(root);
    write(&root.join("grid/maps/Small.map"), &fixture("small.map"));
    write(
        &root.join("grid/scen-legacy/Small.map.scen"),
        &with_map_path(&fixture("small.map.scen"), "maps/sc1/Small.map"),
    );
    write(
        &root.join("suites/grid/bgmaps/tiny.map"),
        &fixture("small.map"),
    );
    let merged = root.join("suites/merged-mesh");
    write(&merged.join("bgmaps/tiny-merged.mesh"), SMALL_MESH);
    write(
        &merged.join("dao/arena-merged.mesh"),
        &mesh_fixture("arena-merged.mesh"),
    );
    let reference = root.join("mesh/reference");
    for name in ["arena.mesh", "arena-merged.mesh"] {
        write(&reference.join(name), &mesh_fixture(name));
    }
    write(&reference.join("small-merged.mesh"), SMALL_MESH);
    // Not meshes: left alone.
    write(&reference.join("arena.map"), &fixture("arena.map"));
    write(&reference.join("arena.scen"), b"version 1\n");
}

#[test]
fn meshes_go_to_the_set_of_their_map_and_a_second_run_is_up_to_date() {
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path().join("mirror");
    mesh_mirror(&mirror);
    let mirror = mirror.canonicalize().unwrap();
    let dest = dir.path().join("dest");
    let options = Options::mirror(&Set::ALL, &mirror, &dest);
    let report = fetch(&options).unwrap();
    assert!(report.is_clean(), "{:#?}", report.rejected);
    let meshes = [
        "dao/meshes/arena-merged.mesh",
        "dao/meshes/arena.mesh",
        // The suite dir bgmaps holds 512x512 maps: bg512, as for its maps.
        "bg512/meshes/tiny-merged.mesh",
        // Named after its map's spelling.
        "sc1/meshes/Small-merged.mesh",
    ];
    let others = [
        "dao/maps/arena.map",
        "dao/scen/arena.map.scen",
        "dao/scen-legacy/arena.map.scen",
        "optimal/scen.csv",
        "sc1/maps/Small.map",
        "sc1/scen-legacy/Small.map.scen",
        "bg512/maps/tiny.map",
    ];
    let want: BTreeSet<String> = meshes
        .iter()
        .chain(&others)
        .map(|p| p.to_string())
        .collect();
    assert_eq!(files_under(&dest), want);
    let manifest = assert_manifest_matches(&dest);
    for (path, source, bytes) in [
        (
            meshes[0],
            "suites/merged-mesh/dao/arena-merged.mesh",
            mesh_fixture("arena-merged.mesh"),
        ),
        (
            meshes[1],
            "mesh/reference/arena.mesh",
            mesh_fixture("arena.mesh"),
        ),
        (
            meshes[2],
            "suites/merged-mesh/bgmaps/tiny-merged.mesh",
            SMALL_MESH.to_vec(),
        ),
        (
            meshes[3],
            "mesh/reference/small-merged.mesh",
            SMALL_MESH.to_vec(),
        ),
    ] {
        assert_eq!(fs::read(dest.join(path)).unwrap(), bytes, "{path}");
        assert_eq!(
            manifest.files[path].source,
            mirror.join(source).display().to_string()
        );
    }
    assert_eq!(report.inventory["dao/meshes"], 2);
    // The reference arena-merged.mesh is the suite's, byte for byte.
    assert!(
        report
            .notes
            .iter()
            .any(|n| n == "1 file(s) found in more than one source with identical contents"),
        "{:?}",
        report.notes
    );
    let text = super::summary(&options, &report);
    assert!(text.contains(" meshes\n"), "{text}");
    let row = |set: &str| {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{set} ")))
            .unwrap();
        line.split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row("dao"), "1 1 1 2");
    assert_eq!(row("bg512"), "1 0 0 1");
    assert_eq!(row("bgmaps"), "0 0 0 0");

    let again = fetch(&options).unwrap();
    assert!(again.is_clean(), "{:#?}", again.rejected);
    assert_eq!(again.written(), 0, "a second run copies nothing");
    assert_eq!(again.count(Action::UpToDate), want.len());
    assert_eq!(Manifest::load(&dest).unwrap(), Some(manifest));

    // A damaged mesh in the destination is noticed and replaced.
    let damaged = dest.join("bg512/meshes/tiny-merged.mesh");
    fs::write(&damaged, b"mesh 2 0 0\n").unwrap();
    let third = fetch(&options).unwrap();
    let outcome = third.outcome_of("bg512/meshes/tiny-merged.mesh").unwrap();
    assert_eq!(outcome.action, Action::Changed);
    assert_eq!(fs::read(&damaged).unwrap(), SMALL_MESH);

    // The destination is a mirror too, meshes included.
    let copy = dir.path().join("copy");
    let report = fetch(&Options::mirror(&Set::ALL, &dest, &copy)).unwrap();
    assert!(report.is_clean(), "{:#?}", report.rejected);
    assert_eq!(files_under(&copy), want);

    // Only the selected sets' meshes.
    let some = dir.path().join("some");
    let report = fetch(&Options::mirror(&[Set::Sc1], &mirror, &some)).unwrap();
    assert!(report.is_clean(), "{:#?}", report.rejected);
    let sc1: BTreeSet<String> = want
        .iter()
        .filter(|p| p.starts_with("sc1/") || p.starts_with("optimal/"))
        .cloned()
        .collect();
    assert_eq!(files_under(&some), sc1);
}

#[test]
fn a_mesh_that_is_not_a_mesh_or_has_no_map_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path().join("mirror");
    good_mirror(&mirror);
    // A map that is rejected (cut after its 24th row), and its scenario.
    let arena = fixture("arena.map");
    let cut = arena
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(4 + 24 - 1)
        .unwrap()
        .0;
    write(&mirror.join("grid/maps/trunc.map"), &arena[..=cut]);
    write(
        &mirror.join("grid/scen-legacy/trunc.map.scen"),
        &with_map_path(&fixture("arena.map.scen"), "maps/dao/trunc.map"),
    );
    let merged = mirror.join("suites/merged-mesh");
    let good = mesh_fixture("arena-merged.mesh");
    write(&merged.join("dao/arena-merged.mesh"), &good);
    // Cut at a line end half-way: the counts say there is more.
    let tri = mesh_fixture("arena.mesh");
    let half = tri[..tri.len() / 2]
        .iter()
        .rposition(|&b| b == b'\n')
        .unwrap();
    write(&merged.join("dao/arena.mesh"), &tri[..=half]);
    write(
        &merged.join("dao/page-merged.mesh"),
        b"<!DOCTYPE html><title>404</title>\n",
    );
    write(&merged.join("dao/ghost-merged.mesh"), &good);
    write(&merged.join("dao/trunc-merged.mesh"), &good);
    write(&merged.join("mystery/x-merged.mesh"), &good);
    write(&mirror.join("mesh/reference/nowhere.mesh"), &good);
    let mirror = mirror.canonicalize().unwrap();
    let dest = dir.path().join("dest");
    let report = fetch(&Options::mirror(&Set::ALL, &mirror, &dest)).unwrap();

    let cases = [
        ("suites/merged-mesh/dao/arena.mesh", "truncated: ends where"),
        (
            "suites/merged-mesh/dao/page-merged.mesh",
            "not a navigation mesh: does not start with the tokens `mesh 2` (found \"<!DOCTYPE html><title>404</title>\")",
        ),
        (
            "suites/merged-mesh/dao/ghost-merged.mesh",
            "orphan mesh: its map \"ghost.map\" is not in set dao",
        ),
        (
            "suites/merged-mesh/dao/trunc-merged.mesh",
            "its map \"trunc.map\" was rejected",
        ),
        (
            "mesh/reference/nowhere.mesh",
            "names a map \"nowhere.map\", so the set of this mesh is unknown",
        ),
        ("grid/maps/trunc.map", "truncated"),
        ("grid/scen-legacy/trunc.map.scen", "was rejected"),
    ];
    for (path, want) in cases {
        let reason = rejected_reason(&report, &mirror.join(path));
        assert!(
            reason.contains(want),
            "{path}: {reason:?} should say {want:?}"
        );
    }
    assert_eq!(report.rejected.len(), cases.len(), "{:#?}", report.rejected);
    let note = format!(
        "{}: not a known set, ignored",
        mirror.join("suites/merged-mesh/mystery").display()
    );
    assert!(report.notes.contains(&note), "{:?}", report.notes);
    let want: BTreeSet<String> = [
        "dao/maps/arena.map",
        "dao/scen/arena.map.scen",
        "dao/scen-legacy/arena.map.scen",
        "dao/meshes/arena-merged.mesh",
        "optimal/scen.csv",
    ]
    .map(String::from)
    .into();
    assert_eq!(files_under(&dest), want);
    assert_manifest_matches(&dest);
}

#[test]
fn same_directory_and_unknown_layouts_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let e = fetch(&Options::mirror(&Set::ALL, dir.path(), dir.path())).unwrap_err();
    assert!(format!("{e:#}").contains("same directory"));
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let e = fetch(&Options::mirror(&Set::ALL, &empty, &dir.path().join("d"))).unwrap_err();
    assert!(format!("{e:#}").contains("no known mirror layout"));
    let e = fetch(&Options::mirror(
        &Set::ALL,
        &dir.path().join("nope"),
        &dir.path().join("d"),
    ))
    .unwrap_err();
    assert!(format!("{e:#}").contains("nope"));
}

// ---------------------------------------------------------------------------------------
// (d) Archives and unsafe entry names.

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (i, (name, bytes)) in entries.iter().enumerate() {
        // Alternate stored and deflated entries: extraction must handle both.
        let method = if i % 2 == 0 {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        let options = SimpleFileOptions::default().compression_method(method);
        if name.ends_with('/') {
            w.add_directory(*name, options).unwrap();
        } else {
            w.start_file(*name, options).unwrap();
            w.write_all(bytes).unwrap();
        }
    }
    w.finish().unwrap().into_inner()
}

fn dao_archives() -> (Vec<u8>, Vec<u8>) {
    let maps = zip_of(&[
        ("dao/", b""),
        ("dao/arena.map", &fixture("arena.map")),
        ("__MACOSX/dao/._arena.map", b"\0\x05\x16\x07"),
        ("dao/readme.txt", b"hello"),
    ]);
    let scen = zip_of(&[("dao-scen/arena.map.scen", &fixture("arena.map.scen"))]);
    (maps, scen)
}

#[test]
fn archives_in_a_mirror_are_extracted_by_base_name_and_unsafe_names_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path().join("mirror");
    let (maps, scen) = dao_archives();
    write(&mirror.join("dao-map.zip"), &maps);
    write(&mirror.join("dao-scen.zip"), &scen);
    let small = fixture("small.map");
    let unsafe_maps = zip_of(&[
        ("../evil.map", &small),
        ("/abs.map", &small),
        ("maze/../../up.map", &small),
        ("C:\\drive.map", &small),
        ("maze/small.map", &small),
        ("../", b""),
    ]);
    write(&mirror.join("maze-map.zip"), &unsafe_maps);
    write(
        &mirror.join("maze-scen.zip"),
        &zip_of(&[("small.map.scen", &fixture("small.map.scen"))]),
    );
    write(&mirror.join("sc1-map.zip"), b"this is not a zip archive");
    let mirror = mirror.canonicalize().unwrap();
    let dest = dir.path().join("nested/dest");
    let report = fetch(&Options::mirror(&Set::ALL, &mirror, &dest)).unwrap();

    let zip = mirror.join("maze-map.zip").display().to_string();
    for entry in [
        "../evil.map",
        "/abs.map",
        "maze/../../up.map",
        "C:\\drive.map",
        "../",
    ] {
        let r = report.rejection_of(&format!("{zip}#{entry}"));
        assert!(
            r.is_some_and(|r| r.reason.starts_with("unsafe entry name")),
            "{entry}: {r:?}"
        );
    }
    let sc1 = mirror.join("sc1-map.zip");
    assert!(rejected_reason(&report, &sc1).contains("not a valid zip archive"));
    assert_eq!(report.rejected.len(), 6, "{:#?}", report.rejected);
    let want: BTreeSet<String> = [
        "dao/maps/arena.map",
        "dao/scen/arena.map.scen",
        "mazes/maps/small.map",
        "mazes/scen/small.map.scen",
    ]
    .map(String::from)
    .into();
    assert_eq!(files_under(&dest), want);
    assert_manifest_matches(&dest);
    let m = Manifest::load(&dest).unwrap().unwrap();
    let label = format!("{}#dao/arena.map", mirror.join("dao-map.zip").display());
    assert_eq!(m.files["dao/maps/arena.map"].source, label);
    // Nothing was written outside the destination.
    let everything = files_under(dir.path());
    for name in ["evil.map", "abs.map", "up.map", "drive.map"] {
        assert!(
            !everything.iter().any(|p| p.ends_with(name)),
            "{name} written: {everything:?}"
        );
    }
    assert!(report.notes.iter().any(|n| n.contains("ignored 1 entries")));
}

// ---------------------------------------------------------------------------------------
// (c) Downloads from a loopback server.

/// One request the test server answered.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Served {
    path: String,
    range: Option<String>,
    status: u16,
    body_bytes: usize,
}

/// A tiny HTTP/1.1 server on 127.0.0.1 serving fixed files, honouring `Range: bytes=N-`
/// with 206 unless `ignore_range` (then it answers 200 with the whole file, as servers
/// without range support do). Paths in `cut` are answered once with half the body and a
/// closed connection.
/// It stops when dropped, or by itself after a minute.
struct Server {
    addr: SocketAddr,
    log: Arc<Mutex<Vec<Served>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn start(files: HashMap<String, Vec<u8>>, cut: HashSet<String>, ignore_range: bool) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (log2, stop2) = (log.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            let mut cut = cut;
            while !stop2.load(Ordering::Relaxed) && Instant::now() < deadline {
                match listener.accept() {
                    Ok((stream, _)) => {
                        if let Some(s) = serve(stream, &files, &mut cut, ignore_range) {
                            log2.lock().unwrap().push(s);
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Err(_) => break,
                }
            }
        });
        Server {
            addr,
            log,
            stop,
            thread: Some(thread),
        }
    }

    fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn log(&self) -> Vec<Served> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(
    stream: TcpStream,
    files: &HashMap<String, Vec<u8>>,
    cut: &mut HashSet<String>,
    ignore_range: bool,
) -> Option<Served> {
    stream.set_nonblocking(false).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let path = request_line.split_whitespace().nth(1)?.to_owned();
    let mut range = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.trim().eq_ignore_ascii_case("range")
        {
            range = Some(v.trim().to_owned());
        }
    }
    let mut out = stream;
    let Some(body) = files.get(&path) else {
        let _ = out
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return Some(Served {
            path,
            range,
            status: 404,
            body_bytes: 0,
        });
    };
    let len = body.len();
    let from = range
        .as_deref()
        .filter(|_| !ignore_range)
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.strip_suffix('-'))
        .and_then(|n| n.parse::<usize>().ok());
    let (status, head, part) = match from {
        Some(n) if n >= len => (
            416,
            format!("Content-Range: bytes */{len}\r\nContent-Length: 0"),
            &body[..0],
        ),
        Some(n) => (
            206,
            format!(
                "Content-Range: bytes {n}-{}/{len}\r\nContent-Length: {}",
                len - 1,
                len - n
            ),
            &body[n..],
        ),
        None => (200, format!("Content-Length: {len}"), &body[..]),
    };
    let reason = match status {
        200 => "OK",
        206 => "Partial Content",
        _ => "Range Not Satisfiable",
    };
    let _ = write!(
        out,
        "HTTP/1.1 {status} {reason}\r\n{head}\r\nConnection: close\r\n\r\n"
    );
    let sent = if cut.remove(&path) {
        &part[..part.len() / 2]
    } else {
        part
    };
    let _ = out.write_all(sent);
    let _ = out.flush();
    Some(Served {
        path,
        range,
        status,
        body_bytes: sent.len(),
    })
}

fn network_options(sets: &[Set], dest: &Path, base: String) -> Options {
    Options {
        sets: sets.to_vec(),
        from: None,
        dest: dest.to_path_buf(),
        base_url: Some(base),
        refresh: false,
        progress: false,
    }
}

#[test]
fn downloads_resume_with_a_range_request_after_an_interrupted_transfer() {
    let (maps, scen) = dao_archives();
    let files: HashMap<String, Vec<u8>> = [
        ("/dao/dao-map.zip".to_owned(), maps.clone()),
        ("/dao/dao-scen.zip".to_owned(), scen.clone()),
    ]
    .into();
    let server = Server::start(files, ["/dao/dao-map.zip".to_owned()].into(), false);
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dest");
    let options = network_options(&[Set::Dao], &dest, server.base());
    let map_url = format!("{}/dao/dao-map.zip", server.base());
    let scen_url = format!("{}/dao/dao-scen.zip", server.base());

    // First run: the maps archive is cut off half-way.
    let first = fetch(&options).unwrap();
    let reason = &first
        .rejection_of(&map_url)
        .expect("interrupted download reported")
        .reason;
    assert!(reason.contains("interrupted"), "{reason}");
    let part = dest.join(".downloads/dao-map.zip.part");
    let have = fs::metadata(&part).unwrap().len();
    assert!(
        have > 0 && have < maps.len() as u64,
        "partial file of {have} bytes"
    );
    assert!(!dest.join(".downloads/dao-map.zip").exists());
    // The scenarios arrived, but their map did not: not imported.
    let scen_label = format!("{scen_url}#dao-scen/arena.map.scen");
    assert!(
        first
            .rejection_of(&scen_label)
            .unwrap()
            .reason
            .contains("not in set dao")
    );
    assert!(!dest.join("dao").exists());

    // Second run: the rest of the maps archive with a Range request; the scenarios archive,
    // complete and recorded, is not downloaded again.
    let second = fetch(&options).unwrap();
    assert!(second.is_clean(), "{:#?}", second.rejected);
    assert_eq!(second.downloads.len(), 1);
    assert_eq!(second.downloads[0].url, map_url);
    assert_eq!(second.downloads[0].resumed_from, have);
    assert_eq!(second.downloads[0].size, maps.len() as u64);
    let log = server.log();
    let last = log.last().unwrap();
    assert_eq!(last.path, "/dao/dao-map.zip");
    assert_eq!(
        last.range.as_deref(),
        Some(format!("bytes={have}-").as_str())
    );
    assert_eq!(
        (last.status, last.body_bytes),
        (206, maps.len() - have as usize)
    );
    assert_eq!(
        log.iter().filter(|s| s.path == "/dao/dao-scen.zip").count(),
        1
    );
    assert_eq!(fs::read(dest.join(".downloads/dao-map.zip")).unwrap(), maps);
    assert!(!part.exists());
    assert_eq!(
        fs::read(dest.join("dao/maps/arena.map")).unwrap(),
        fixture("arena.map")
    );
    assert_eq!(
        fs::read(dest.join("dao/scen/arena.map.scen")).unwrap(),
        fixture("arena.map.scen")
    );
    let m = assert_manifest_matches_files_only(&dest);
    assert_eq!(
        m.files["dao/maps/arena.map"].source,
        format!("{map_url}#dao/arena.map")
    );
    assert_eq!(
        m.archives[".downloads/dao-map.zip"].sha256,
        sha256_hex(&maps)
    );
    assert_eq!(m.archives[".downloads/dao-scen.zip"].url, scen_url);

    // Third run: nothing downloaded, nothing written.
    let requests = server.log().len();
    let third = fetch(&options).unwrap();
    assert!(third.is_clean());
    assert_eq!((third.downloads.len(), third.written()), (0, 0));
    assert_eq!(server.log().len(), requests);

    // --refresh downloads both again; the same bytes, so nothing is rewritten.
    let refresh = Options {
        refresh: true,
        ..options.clone()
    };
    let fourth = fetch(&refresh).unwrap();
    assert!(fourth.is_clean());
    assert_eq!((fourth.downloads.len(), fourth.written()), (2, 0));
}

/// Like [`assert_manifest_matches`], for a destination that also holds `.downloads/`.
fn assert_manifest_matches_files_only(dest: &Path) -> Manifest {
    let manifest = Manifest::load(dest).unwrap().unwrap();
    let on_disk: BTreeSet<String> = files_under(dest)
        .into_iter()
        .filter(|p| !p.starts_with(".downloads/"))
        .collect();
    assert_eq!(
        manifest.files.keys().cloned().collect::<BTreeSet<_>>(),
        on_disk
    );
    for (path, e) in &manifest.files {
        assert_eq!(
            e.sha256,
            sha256_hex(&fs::read(dest.join(path)).unwrap()),
            "{path}"
        );
    }
    manifest
}

#[test]
fn download_failures_are_rejections_and_a_non_zip_is_not_kept() {
    let files: HashMap<String, Vec<u8>> = [(
        "/dao/dao-map.zip".to_owned(),
        b"<html>not found</html>".to_vec(),
    )]
    .into();
    let server = Server::start(files, HashSet::new(), false);
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dest");
    let report = fetch(&network_options(&[Set::Dao], &dest, server.base())).unwrap();
    let map_url = format!("{}/dao/dao-map.zip", server.base());
    let scen_url = format!("{}/dao/dao-scen.zip", server.base());
    assert!(
        report
            .rejection_of(&map_url)
            .unwrap()
            .reason
            .contains("not a zip archive")
    );
    assert!(
        report
            .rejection_of(&scen_url)
            .unwrap()
            .reason
            .contains("HTTP status 404")
    );
    assert_eq!(report.rejected.len(), 2);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.starts_with("MovingAI's archives hold no navigation meshes")),
        "{:?}",
        report.notes
    );
    assert!(files_under(&dest).is_empty(), "{:?}", files_under(&dest));
    assert!(dest.join(MANIFEST).is_file());
}

/// A `.part` at least as long as the file (the server answers 416) is discarded and the
/// download starts again from the beginning.
#[test]
fn a_part_file_the_server_refuses_to_extend_is_restarted() {
    let (maps, scen) = dao_archives();
    let files: HashMap<String, Vec<u8>> = [
        ("/dao/dao-map.zip".to_owned(), maps.clone()),
        ("/dao/dao-scen.zip".to_owned(), scen),
    ]
    .into();
    let server = Server::start(files, HashSet::new(), false);
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dest");
    write(
        &dest.join(".downloads/dao-map.zip.part"),
        &vec![b'x'; maps.len() + 10],
    );
    let report = fetch(&network_options(&[Set::Dao], &dest, server.base())).unwrap();
    assert!(report.is_clean(), "{:#?}", report.rejected);
    let statuses: Vec<(String, Option<String>, u16)> = server
        .log()
        .into_iter()
        .filter(|s| s.path == "/dao/dao-map.zip")
        .map(|s| (s.path, s.range, s.status))
        .collect();
    assert_eq!(statuses.len(), 2);
    assert_eq!(statuses[0].2, 416);
    assert_eq!((statuses[1].1.clone(), statuses[1].2), (None, 200));
    assert_eq!(fs::read(dest.join(".downloads/dao-map.zip")).unwrap(), maps);
}

/// A server that ignores `Range` sends the whole file with 200: it replaces the partial file
/// instead of being appended to it.
#[test]
fn a_server_without_range_support_replaces_the_part_file() {
    let (maps, scen) = dao_archives();
    let files: HashMap<String, Vec<u8>> = [
        ("/dao/dao-map.zip".to_owned(), maps.clone()),
        ("/dao/dao-scen.zip".to_owned(), scen),
    ]
    .into();
    let server = Server::start(files, ["/dao/dao-map.zip".to_owned()].into(), true);
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("dest");
    let options = network_options(&[Set::Dao], &dest, server.base());
    assert!(!fetch(&options).unwrap().is_clean());
    assert!(dest.join(".downloads/dao-map.zip.part").is_file());
    let report = fetch(&options).unwrap();
    assert!(report.is_clean(), "{:#?}", report.rejected);
    assert_eq!(report.downloads[0].resumed_from, 0);
    let last = server.log().pop().unwrap();
    assert!(last.range.is_some());
    assert_eq!(last.status, 200);
    assert_eq!(fs::read(dest.join(".downloads/dao-map.zip")).unwrap(), maps);
}
