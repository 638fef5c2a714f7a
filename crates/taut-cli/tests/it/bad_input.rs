//! Every subcommand fed bad input: missing files, malformed files from `fixtures/bad` (map,
//! scen, mesh, sphere), damaged and mismatched CPDs, off-map, blocked, NaN, infinite and huge
//! coordinates. Each must exit non-zero with exactly one stderr line `taut: ...` naming the
//! problem (and the file, when there is one), never a panic, and nothing on stdout.

use std::path::{Path, PathBuf};

use crate::common::taut;

fn fx(rel: &str) -> String {
    taut_testdata::fixtures()
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

/// Runs `args`; checks the exit code, the single stderr line, an empty stdout, and that the
/// line contains every `needle`.
fn refused(args: &[&str], code: i32, needles: &[&str]) -> Option<String> {
    let o = taut(args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let mut problems = Vec::new();
    if o.status.code() != Some(code) {
        problems.push(format!("exit {:?}, expected {code}", o.status.code()));
    }
    if err.contains("panicked") || err.lines().count() != 1 || !err.starts_with("taut: ") {
        problems.push("stderr is not one `taut: ` line".to_owned());
    }
    if !o.stdout.is_empty() {
        problems.push(format!("stdout: {:?}", String::from_utf8_lossy(&o.stdout)));
    }
    for n in needles {
        if !err.contains(n) {
            problems.push(format!("stderr lacks {n:?}"));
        }
    }
    (!problems.is_empty()).then(|| format!("{args:?}: {}\n  stderr: {err:?}", problems.join("; ")))
}

/// A scratch directory with a valid CPD of `small.map`, damaged copies, a CPD of another map,
/// and a shard.
struct Cpds {
    _dir: tempfile::TempDir,
    good: String,
    version2: String,
    flipped: String,
    truncated: String,
    other_map: String,
    shard: String,
    root: PathBuf,
}

fn cpds() -> Cpds {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_owned();
    let p = |n: &str| root.join(n).to_string_lossy().into_owned();
    let build = |map: &str, out: &str, extra: &[&str]| {
        let mut args = vec!["cpd", "build", "--map", map, "-o", out, "--jobs", "1"];
        args.extend_from_slice(extra);
        assert!(taut(&args).status.success(), "{args:?}");
    };
    let good = p("small.cpd");
    build(&fx("maps/small.map"), &good, &[]);
    let other_map = p("tiny.cpd");
    build(&fx("bad/ok_queries.map"), &other_map, &[]);
    build(&fx("maps/small.map"), &p("s.cpd"), &["--shard", "0/2"]);
    let bytes = std::fs::read(&good).unwrap();
    let write = |name: &str, b: &[u8]| {
        std::fs::write(root.join(name), b).unwrap();
        p(name)
    };
    let mut v2 = bytes.clone();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    let mut flipped = bytes.clone();
    let at = flipped.len() - 60;
    flipped[at] ^= 1;
    Cpds {
        version2: write("v2.cpd", &v2),
        flipped: write("flipped.cpd", &flipped),
        truncated: write("truncated.cpd", &bytes[..30]),
        good,
        other_map,
        shard: p("s.cpd.shard-0-of-2"),
        root,
        _dir: dir,
    }
}

#[test]
fn every_subcommand_refuses_bad_input_with_one_line() {
    let c = cpds();
    let out = |n: &str| c.root.join(n).to_string_lossy().into_owned();
    let (svg, mesh_out, cpd_out) = (out("x.svg"), out("x.mesh"), out("x.cpd"));
    let small = fx("maps/small.map");
    let missing = out("missing.map");
    let truncated_map = fx("bad/map_truncated.map");
    let not_utf8_map = fx("bad/map_header_not_utf8.map");
    let bad_scen = fx("bad/scen_length_nan.scen");
    let bad_mesh = fx("bad/mesh/mesh_x_nan.mesh");
    let not_utf8_mesh = fx("bad/mesh/mesh_not_utf8.mesh");
    let reflex_mesh = fx("bad/mesh/mesh_polygon_reflex.mesh");
    let sphere = fx("sphere/tiny_36x18.map");
    let narrow_sphere = fx("bad/sphere/sphere_width_3.map");
    let path = |extra: &[&str]| -> Vec<String> {
        let mut a = vec!["path".to_owned(), "--map".to_owned(), small.clone()];
        a.extend(extra.iter().map(|s| (*s).to_owned()));
        a
    };
    let eps = |cpd: &str| {
        path(&[
            "--from", "0,0", "--to", "7,5", "--algo", "eps", "--cpd", cpd,
        ])
    };
    let route = |from: &str, to: &str| {
        vec![
            "route",
            "--map",
            sphere.as_str(),
            "--from",
            from,
            "--to",
            to,
        ]
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>()
    };
    let own = |a: Vec<&str>| a.into_iter().map(str::to_owned).collect::<Vec<String>>();
    // (arguments, exit code, what stderr must contain)
    let table: Vec<(Vec<String>, i32, Vec<&str>)> = vec![
        // taut path
        (
            own(vec![
                "path", "--map", &missing, "--from", "0,0", "--to", "1,1",
            ]),
            1,
            vec![&missing],
        ),
        (
            own(vec![
                "path",
                "--map",
                &truncated_map,
                "--from",
                "0,0",
                "--to",
                "1,1",
            ]),
            1,
            vec![&truncated_map, ":7:"],
        ),
        (
            own(vec![
                "path",
                "--map",
                &not_utf8_map,
                "--from",
                "0,0",
                "--to",
                "1,1",
            ]),
            1,
            vec![&not_utf8_map, ":1:"],
        ),
        (
            path(&["--from", "1,1", "--to", "0,0"]),
            1,
            vec!["start (1, 1)", "blocked"],
        ),
        (
            path(&["--from", "0,0", "--to", "8,0"]),
            1,
            vec!["goal (8, 0)", "off the map"],
        ),
        (
            path(&["--from", "-2147483648,0", "--to", "0,0"]),
            1,
            vec!["start", "off the map"],
        ),
        (
            path(&["--from", "0,0", "--to", "2147483647,2147483647"]),
            1,
            vec!["goal", "off the map"],
        ),
        (
            path(&["--from", "0,0", "--to", "2147483648,0"]),
            2,
            vec!["--to", "2147483648,0"],
        ),
        (
            path(&["--from", "NaN,0", "--to", "0,0"]),
            2,
            vec!["--from", "NaN,0"],
        ),
        (
            path(&["--from", "inf,0", "--to", "0,0"]),
            2,
            vec!["--from", "inf,0"],
        ),
        (path(&["--from", "0.5,0", "--to", "0,0"]), 2, vec!["--from"]),
        (
            path(&[
                "--from", "0,0", "--to", "7,5", "--algo", "polyanya", "--mesh", &bad_mesh,
            ]),
            1,
            vec![&bad_mesh, "vertex 0"],
        ),
        (
            path(&[
                "--from",
                "0,0",
                "--to",
                "7,5",
                "--algo",
                "polyanya",
                "--mesh",
                &not_utf8_mesh,
            ]),
            1,
            vec![&not_utf8_mesh, "line 6", "not text"],
        ),
        (
            path(&[
                "--from", "0,0", "--to", "7,5", "--algo", "polyanya", "--mesh", &missing,
            ]),
            1,
            vec![&missing],
        ),
        (
            path(&[
                "--from",
                "0,0",
                "--to",
                "7,5",
                "--algo",
                "polyanya",
                "--mesh",
                &fx("meshes/square.mesh"),
            ]),
            1,
            vec!["square.mesh", "not a mesh of this map"],
        ),
        (
            eps(&c.version2),
            1,
            vec![&c.version2, "version 2", "rebuild"],
        ),
        (eps(&c.flipped), 1, vec![&c.flipped, "checksum"]),
        (eps(&c.truncated), 1, vec![&c.truncated, "truncated"]),
        (eps(&c.other_map), 1, vec![&c.other_map, "rebuild"]),
        (eps(&missing), 1, vec![&missing]),
        (eps(&small), 1, vec![&small, "not a taut CPD"]),
        (eps(&c.shard), 1, vec![&c.shard, "shard"]),
        // taut scen
        (
            own(vec!["scen", "--scen", &bad_scen, "--map", &small]),
            1,
            vec![&bad_scen, ":3:"],
        ),
        (own(vec!["scen", "--scen", &missing]), 1, vec![&missing]),
        (
            own(vec![
                "scen",
                "--scen",
                &fx("maps/small.map.scen"),
                "--map",
                &truncated_map,
            ]),
            1,
            vec![&truncated_map],
        ),
        (
            own(vec![
                "scen",
                "--scen",
                &fx("bad/scen_coordinate_x_out_of_range.scen"),
            ]),
            1,
            vec!["scen_coordinate_x_out_of_range.scen:4:"],
        ),
        // taut render
        (
            own(vec![
                "render", "--map", &small, "--from", "0,0", "--to", "1,1", "-o", &svg,
            ]),
            1,
            vec!["goal (1, 1)", "blocked"],
        ),
        (
            own(vec![
                "render", "--map", &small, "--from", "0,0", "--to", "-1,0", "-o", &svg,
            ]),
            1,
            vec!["goal (-1, 0)", "off the map"],
        ),
        (
            own(vec![
                "render", "--map", &small, "--from", "NaN,0", "--to", "0,0", "-o", &svg,
            ]),
            2,
            vec!["NaN,0"],
        ),
        (
            own(vec![
                "render",
                "--map",
                &truncated_map,
                "--from",
                "0,0",
                "--to",
                "1,1",
                "-o",
                &svg,
            ]),
            1,
            vec![&truncated_map],
        ),
        (
            own(vec![
                "render",
                "--map",
                &small,
                "--from",
                "0,0",
                "--to",
                "7,5",
                "-o",
                "/nonexistent-dir/x.svg",
            ]),
            1,
            vec!["/nonexistent-dir/x.svg"],
        ),
        (
            own(vec![
                "render",
                "--map",
                &small,
                "--scen",
                &fx("bad/scen_not_utf8.scen"),
                "--index",
                "0",
                "-o",
                &svg,
            ]),
            1,
            vec!["scen_not_utf8.scen:3:"],
        ),
        (
            own(vec![
                "render",
                "--map",
                &small,
                "--scen",
                &fx("maps/small.map.scen"),
                "--index",
                "99999",
                "-o",
                &svg,
            ]),
            1,
            vec!["99999"],
        ),
        (
            own(vec![
                "render", "--sphere", "--map", &sphere, "--from", "91,0", "--to", "0,0", "-o", &svg,
            ]),
            2,
            vec!["91"],
        ),
        // taut mesh
        (
            own(vec![
                "mesh",
                "build",
                "--map",
                &fx("bad/map_row_too_long.map"),
                "-o",
                &mesh_out,
            ]),
            1,
            vec!["map_row_too_long.map:7:"],
        ),
        (
            own(vec!["mesh", "build", "--map", &missing, "-o", &mesh_out]),
            1,
            vec![&missing],
        ),
        (
            own(vec![
                "mesh",
                "build",
                "--polygons",
                &missing,
                "-o",
                &mesh_out,
            ]),
            1,
            vec![&missing],
        ),
        (
            own(vec![
                "mesh",
                "build",
                "--map",
                &small,
                "-o",
                "/nonexistent-dir/x.mesh",
            ]),
            1,
            vec!["/nonexistent-dir/x.mesh"],
        ),
        // taut cpd
        (
            own(vec!["cpd", "build", "--mesh", &reflex_mesh, "-o", &cpd_out]),
            1,
            vec![&reflex_mesh, "not convex"],
        ),
        (
            own(vec!["cpd", "build", "--mesh", &missing, "-o", &cpd_out]),
            1,
            vec![&missing],
        ),
        (
            own(vec!["cpd", "build", "--map", &not_utf8_map, "-o", &cpd_out]),
            1,
            vec![&not_utf8_map],
        ),
        (
            own(vec!["cpd", "info", &c.version2]),
            1,
            vec![&c.version2, "rebuild"],
        ),
        (
            own(vec!["cpd", "info", &c.truncated]),
            1,
            vec![&c.truncated, "truncated"],
        ),
        (
            own(vec!["cpd", "info", &c.flipped]),
            1,
            vec![&c.flipped, "checksum"],
        ),
        (
            own(vec!["cpd", "info", &fx("bad/mesh/ok_square.mesh")]),
            1,
            vec!["ok_square.mesh", "not a taut CPD"],
        ),
        (own(vec!["cpd", "info", &missing]), 1, vec![&missing]),
        (
            own(vec!["cpd", "merge", &c.good, "-o", &cpd_out]),
            1,
            vec![&c.good, "not a CPD shard"],
        ),
        (
            own(vec!["cpd", "merge", &c.shard, &c.flipped, "-o", &cpd_out]),
            1,
            vec![&c.flipped],
        ),
        (
            own(vec!["cpd", "merge", &c.shard, "-o", &cpd_out]),
            1,
            vec!["shard 1/2 is missing"],
        ),
        // taut route
        (route("NaN,0", "0,0"), 1, vec!["start", "NaN"]),
        (route("0,0", "0,inf"), 1, vec!["goal", "inf"]),
        (route("91,0", "0,0"), 1, vec!["start", "latitude 91"]),
        (route("0,1e308", "0,0"), 1, vec!["start", "longitude 1e308"]),
        (route("0,0", "x"), 1, vec!["goal"]),
        (
            own(vec![
                "route",
                "--map",
                &sphere,
                "--from",
                "45,35",
                "--to",
                "0,0",
                "--no-snap",
            ]),
            1,
            vec!["start", "on land"],
        ),
        (
            own(vec![
                "route",
                "--map",
                &narrow_sphere,
                "--from",
                "0,0",
                "--to",
                "1,1",
            ]),
            1,
            vec![&narrow_sphere, "at least 4 columns"],
        ),
        (
            own(vec![
                "route",
                "--map",
                &truncated_map,
                "--from",
                "0,0",
                "--to",
                "1,1",
            ]),
            1,
            vec![&truncated_map, ":7:"],
        ),
        (
            own(vec![
                "route", "--map", &missing, "--from", "0,0", "--to", "1,1",
            ]),
            1,
            vec![&missing],
        ),
        // taut agent (an invalid query is a row of the output, exit 0: see agent.rs)
        (
            own(vec![
                "agent", "--map", &missing, "--start", "0,0", "--goal", "1,1",
            ]),
            1,
            vec![&missing],
        ),
        (
            own(vec![
                "agent",
                "--map",
                &fx("bad/map_nul_byte.map"),
                "--start",
                "0,0",
                "--goal",
                "1,1",
            ]),
            1,
            vec!["map_nul_byte.map:6:"],
        ),
        (
            own(vec![
                "agent",
                "--map",
                &small,
                "--scen",
                &fx("bad/scen_too_few_fields.scen"),
            ]),
            1,
            vec!["scen_too_few_fields.scen:3:"],
        ),
        (
            own(vec![
                "agent", "--map", &small, "--start", "NaN,0", "--goal", "1,1",
            ]),
            2,
            vec!["NaN,0"],
        ),
    ];
    let failures: Vec<String> = table
        .iter()
        .filter_map(|(args, code, needles)| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            refused(&args, *code, needles)
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        !Path::new(&cpd_out).exists(),
        "a refused command wrote its output"
    );
}
