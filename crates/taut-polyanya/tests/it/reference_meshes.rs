//! Polyanya on the reference meshes of `data/mesh`: the hand-made test meshes give the
//! lengths of their scenario files, and the reference C++ Polyanya's meshes of arena and
//! Aurora give the any-angle optima of `grid/optimal/scen-legacy.csv`.

use std::path::Path;
use std::sync::Arc;

use taut_grid::{Answer, FreeSet, Grid, LENGTH_TOLERANCE, MapFile, Planner, Point, Status};
use taut_mesh::{Ambiguity, MeshAnswer, MeshPoint, MeshQueryError, read_mesh};
use taut_polyanya::{Options, PolyanyaPlanner, SearchContext};
use taut_testdata::check_answer;

/// One row of a mesh scenario: start, goal, expected length (-1: no path) and the number of
/// decimals it is written with.
fn read_mesh_scen(path: &Path) -> Vec<(MeshPoint, MeshPoint, f64, usize)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let num = |i: usize| f[i].parse::<f64>().unwrap();
            let decimals = f[8].split('.').nth(1).map_or(0, str::len);
            (
                MeshPoint::new(num(4), num(5)),
                MeshPoint::new(num(6), num(7)),
                num(8),
                decimals,
            )
        })
        .collect()
}

#[test]
fn test_meshes_give_their_scenario_lengths() {
    let Some(data) = taut_testdata::shared_data("test_meshes_give_their_scenario_lengths") else {
        return;
    };
    let dir = data.join("mesh/test-meshes");
    let mut checked = 0;
    let mut ctx = SearchContext::new();
    let mut out = MeshAnswer::default();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let scen = entry.unwrap().path();
        if scen.extension().is_none_or(|e| e != "scen") {
            continue;
        }
        let mesh = read_mesh(&scen.with_extension("mesh")).unwrap();
        for (i, (s, g, want, decimals)) in read_mesh_scen(&scen).into_iter().enumerate() {
            for intermediate in [false, true] {
                let options = Options {
                    ambiguity: Ambiguity::Refuse,
                    intermediate,
                    ..Options::default()
                };
                let r = ctx.search(&mesh, s, g, &options, &mut out);
                let what = format!("{} query {i}: {s} -> {g}", scen.display());
                if want < 0.0 {
                    assert!(
                        matches!(
                            r,
                            Ok(Status::Unreachable) | Err(MeshQueryError::Ambiguous { .. })
                        ),
                        "{what}: expected no path, got {r:?} {out:?}"
                    );
                } else {
                    assert_eq!(r, Ok(Status::Found), "{what}");
                    // Files written to full precision are checked to `LENGTH_TOLERANCE`. Two files write
                    // rounded lengths computed for endpoints on the vertex their query points
                    // sit next to (`bad-collinear.scen`: 7.414 for points 0.001·√2 from the
                    // vertex (1, 1); `bad-ambig.scen`: 4 for points 0.01·√2 from it). Moving an
                    // endpoint by d changes the optimum by at most d, so those are checked to
                    // the endpoints' distances from the nearest vertex plus half a unit of the
                    // last written digit.
                    let tol = if decimals >= 6 {
                        LENGTH_TOLERANCE
                    } else {
                        let near = |p: MeshPoint| {
                            mesh.points()
                                .iter()
                                .map(|v| v.dist(p))
                                .fold(f64::INFINITY, f64::min)
                        };
                        let rounding = if decimals == 0 {
                            0.0
                        } else {
                            0.5 * 10f64.powi(-(decimals as i32))
                        };
                        near(s) + near(g) + rounding + 1e-9
                    };
                    assert!(
                        (out.length - want).abs() <= tol,
                        "{what}: length {} want {want} (path {:?})",
                        out.length,
                        out.waypoints
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 9, "only {checked} queries");
    println!("{checked} test-mesh queries checked");
}

fn reference_mesh_check(map: &str, mesh_file: &str, csv_name: &str) {
    let Some(data) = taut_testdata::shared_data("reference_meshes") else {
        return;
    };
    let dir = data.join("mesh/reference");
    let grid = Grid::from_map(
        &MapFile::read(dir.join(format!("{map}.map"))).unwrap(),
        &FreeSet::default(),
    );
    let rows = taut_testdata::read_optimal_csv(&data.join("grid/optimal/scen-legacy.csv")).unwrap();
    let rows: Vec<_> = rows.into_iter().filter(|r| r.map == csv_name).collect();
    assert!(!rows.is_empty());
    for file in [
        format!("{mesh_file}.mesh"),
        format!("{mesh_file}-merged.mesh"),
    ] {
        let mesh = Arc::new(read_mesh(&dir.join(&file)).unwrap());
        for intermediate in [true, false] {
            let options = Options {
                intermediate,
                ..Options::default()
            };
            let mut planner = PolyanyaPlanner::with_options(&grid, mesh.clone(), options);
            let mut out = Answer::default();
            let mut checked = 0;
            for r in &rows {
                let Some(want) = r.len_gppc else { continue };
                let (s, g) = (Point::new(r.sx, r.sy), Point::new(r.gx, r.gy));
                let status = planner.plan(s, g, &mut out);
                let what = format!("{file} query {}: {s:?} -> {g:?}", r.idx);
                if want < 0.0 {
                    assert!(status.is_err(), "{what}: blocked endpoint accepted");
                    continue;
                }
                assert_eq!(status, Ok(Status::Found), "{what}");
                check_answer(&grid, s, g, &out, Some(want))
                    .unwrap_or_else(|e| panic!("{file} query {}: {e}", r.idx));
                checked += 1;
            }
            println!("{file} intermediate={intermediate}: {checked} queries equal len_gppc");
        }
    }
}

#[test]
fn arena_reference_meshes_give_the_optima() {
    reference_mesh_check("arena", "arena", "arena");
}

#[test]
fn aurora_reference_meshes_give_the_optima() {
    reference_mesh_check("aurora", "aurora", "Aurora");
}
