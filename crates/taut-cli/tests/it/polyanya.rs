//! `taut scen|path --algo polyanya`: on a mesh taut builds from the map, on a given mesh, and
//! on a mesh with no map (fractional coordinates); every form agrees with Anya.

use std::path::{Path, PathBuf};

use crate::common::{ok, taut};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

fn f(name: &str) -> String {
    fixtures().join(name).to_string_lossy().into_owned()
}

/// (status, length) of each csv row.
fn lengths(csv: &str) -> Vec<(String, String)> {
    csv.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (c[5].to_owned(), c[6].to_owned())
        })
        .collect()
}

#[test]
fn polyanya_on_built_and_given_meshes_equals_anya() {
    let scen = f("maps/arena.map.scen");
    let anya = lengths(&ok(&["scen", "--algo", "anya", "--scen", &scen]));
    let built = lengths(&ok(&["scen", "--algo", "polyanya", "--scen", &scen]));
    let merged = lengths(&ok(&[
        "scen",
        "--algo",
        "polyanya",
        "--scen",
        &scen,
        "--mesh",
        &f("meshes/arena-merged.mesh"),
    ]));
    let triangles = lengths(&ok(&[
        "scen",
        "--algo",
        "polyanya",
        "--scen",
        &scen,
        "--mesh",
        &f("meshes/arena.mesh"),
        "--no-intermediate",
        "--no-cul-de-sac",
    ]));
    assert_eq!(anya.len(), 130);
    assert!(anya.iter().all(|(s, _)| s == "ok"));
    assert_eq!(built, anya);
    assert_eq!(merged, anya);
    assert_eq!(triangles, anya);
}

#[test]
fn a_mesh_of_another_map_is_refused_in_one_line() {
    let o = taut(&[
        "path",
        "--algo",
        "polyanya",
        "--map",
        &f("maps/small.map"),
        "--from",
        "0,0",
        "--to",
        "1,0",
        "--mesh",
        &f("meshes/arena-merged.mesh"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is not a mesh of this map"), "{err}");
    let o = taut(&[
        "path",
        "--algo",
        "polyanya",
        "--map",
        &f("maps/arena.map"),
        "--from",
        "1,11",
        "--to",
        "1,12",
        "--mesh",
        &f("meshes/missing.mesh"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8(o.stderr)
            .unwrap()
            .contains("missing.mesh")
    );
}

#[test]
fn a_mesh_scenario_without_a_map_runs_on_the_mesh() {
    let csv = ok(&[
        "scen",
        "--algo",
        "polyanya",
        "--mesh",
        &f("meshes/bad-ambig.mesh"),
        "--scen",
        &f("meshes/bad-ambig.scen"),
    ]);
    let rows = lengths(&csv);
    assert_eq!(rows.len(), 4);
    // Around the two obstacles touching at (1, 1): 2 · (√(0.99² + 0.01²) + 1).
    let want = 2.0 * ((0.99f64.powi(2) + 0.01f64.powi(2)).sqrt() + 1.0);
    assert_eq!(rows[0].0, "ok");
    assert!(
        (rows[0].1.parse::<f64>().unwrap() - want).abs() < 1e-8,
        "{csv}"
    );
    // An endpoint on the ambiguous vertex (1, 1) is refused.
    for r in &rows[1..] {
        assert_eq!(r, &("invalid".to_owned(), "inf".to_owned()), "{csv}");
    }
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("0,0.99,1.01,1.01,0.99,ok,"),
        "{csv}"
    );
    let square = lengths(&ok(&[
        "scen",
        "--algo",
        "polyanya",
        "--mesh",
        &f("meshes/square.mesh"),
        "--scen",
        &f("meshes/square.scen"),
    ]));
    assert_eq!(square, vec![("ok".to_owned(), "0.70710678".to_owned())]);
}
