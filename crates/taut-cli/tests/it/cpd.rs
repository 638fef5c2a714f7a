//! `taut cpd build|merge|info` and `taut scen|path --algo eps`: files built by one process or
//! by shards are identical, End Point Search agrees with Anya, and every bad input (missing,
//! truncated or foreign CPD, misplaced options) is one line and a non-zero exit.

use std::fs;
use std::path::Path;

use crate::common::{arg as s, csv_lengths as lengths, fails, fixture as f, ok, taut};
use taut::grid::{LENGTH_TOLERANCE, lengths_agree};

fn build(map: &str, out: &Path) -> String {
    ok(&["cpd", "build", "--map", &f(map), "-o", &s(out)])
}

#[test]
fn build_writes_a_cpd_and_info_describes_it() {
    let dir = tempfile::tempdir().unwrap();
    let cpd = dir.path().join("arena.cpd");
    let line = build("maps/arena.map", &cpd);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(
        line.starts_with(&format!("wrote {}: ", cpd.display())),
        "{line}"
    );
    for word in [
        " nodes, ", " edges, ", " runs, ", " MB, ", " s, ", " threads",
    ] {
        assert!(line.contains(word), "{line}");
    }
    let info = ok(&["cpd", "info", &s(&cpd)]);
    let keys: Vec<&str> = info
        .lines()
        .map(|l| l.rsplit_once(' ').unwrap().0)
        .collect();
    assert_eq!(
        keys,
        [
            "file",
            "format version",
            "mesh hash",
            "tie tolerance",
            "nodes",
            "edges",
            "max degree",
            "runs",
            "runs per row",
            "file MB",
            "memory MB",
            "symbol bits"
        ]
    );
    let value = |k: &str| {
        info.lines()
            .find_map(|l| l.strip_prefix(k)?.strip_prefix(' '))
            .unwrap()
            .to_owned()
    };
    let nodes: u64 = value("nodes").parse().unwrap();
    let runs: u64 = value("runs").parse().unwrap();
    assert!(nodes > 0 && runs >= nodes, "{info}");
    assert!(line.contains(&format!(": {nodes} nodes, ")), "{line}");
    assert_eq!(value("symbol bits"), "16");
    // --format json: the same fields, keys in snake case, numbers as numbers.
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["cpd", "info", &s(&cpd), "--format", "json"])).unwrap();
    assert_eq!(json.as_object().unwrap().len(), 12, "{json}");
    assert_eq!(json["nodes"].as_u64(), Some(nodes));
    assert_eq!(json["runs"].as_u64(), Some(runs));
    assert_eq!(json["symbol_bits"], 16);
    assert!(
        json["mesh_hash"]
            .as_str()
            .unwrap()
            .starts_with(value("mesh hash").trim_end_matches('…'))
    );
    // The same build with one thread writes the same bytes.
    let one = dir.path().join("one.cpd");
    let line = ok(&[
        "cpd",
        "build",
        "--map",
        &f("maps/arena.map"),
        "-o",
        &s(&one),
        "--jobs",
        "1",
    ]);
    assert!(line.ends_with(", 1 threads\n"), "{line}");
    assert_eq!(fs::read(&one).unwrap(), fs::read(&cpd).unwrap());
}

#[test]
fn three_shards_merge_to_the_one_process_file_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.cpd");
    build("maps/arena.map", &whole);
    let out = dir.path().join("arena.cpd");
    let mut shards = Vec::new();
    for i in [2, 0, 1] {
        let line = ok(&[
            "cpd",
            "build",
            "--map",
            &f("maps/arena.map"),
            "-o",
            &s(&out),
            "--shard",
            &format!("{i}/3"),
            "--jobs",
            "2",
        ]);
        let shard = dir.path().join(format!("arena.cpd.shard-{i}-of-3"));
        assert!(
            line.starts_with(&format!("wrote {}: shard {i}/3", shard.display())),
            "{line}"
        );
        shards.push(s(&shard));
    }
    assert!(!out.exists(), "--shard writes only the shard");
    // Two of three: the missing shard is named and nothing is written.
    let err = fails(&["cpd", "merge", &shards[0], &shards[1], "-o", &s(&out)], 1);
    assert!(err.contains("shard 1/3 is missing"), "{err}");
    assert!(!out.exists());
    let mut args = vec!["cpd".to_owned(), "merge".to_owned()];
    args.extend(shards.iter().cloned());
    args.extend(["-o".to_owned(), s(&out)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Checked against another map's mesh: refused, naming a shard, nothing written.
    let small = f("maps/small.map");
    let other = [&args[..], &["--map", &small]].concat();
    let err = fails(&other, 1);
    assert!(
        err.contains(&shards[0]) && err.contains("not for this mesh"),
        "{err}"
    );
    assert!(!out.exists());
    let line = ok(&args);
    assert!(line.contains(": 3 shards, "), "{line}");
    assert_eq!(fs::read(&out).unwrap(), fs::read(&whole).unwrap());
    // Checked against its own map and told to remove the shards: same file, shards gone.
    fs::remove_file(&out).unwrap();
    let arena = f("maps/arena.map");
    let checked = [&args[..], &["--map", &arena, "--remove-shards"]].concat();
    let line = ok(&checked);
    assert!(line.contains(": 3 shards, "), "{line}");
    assert_eq!(fs::read(&out).unwrap(), fs::read(&whole).unwrap());
    for shard in &shards {
        assert!(!Path::new(shard).exists(), "{shard} removed");
    }
    // A bad shard specification is a usage error.
    let err = fails(
        &[
            "cpd",
            "build",
            "--map",
            &f("maps/arena.map"),
            "-o",
            &s(&out),
            "--shard",
            "3/3",
        ],
        2,
    );
    assert!(err.contains("3/3"), "{err}");
}

#[test]
fn eps_agrees_with_anya_with_a_file_in_memory_and_anytime() {
    let dir = tempfile::tempdir().unwrap();
    let cpd = dir.path().join("arena.cpd");
    build("maps/arena.map", &cpd);
    let (map, scen) = (f("maps/arena.map"), f("maps/arena.map.scen"));
    let base = ["scen", "--map", &map, "--scen", &scen];
    let anya = lengths(&ok(&[&base[..], &["--algo", "anya"]].concat()));
    assert_eq!(anya.len(), 130);
    let same = |got: &[(String, f64)], what: &str| {
        assert_eq!(got.len(), anya.len(), "{what}");
        for (i, (a, b)) in anya.iter().zip(got).enumerate() {
            assert_eq!(a.0, b.0, "{what} query {i}");
            assert!(
                lengths_agree(a.1, b.1),
                "{what} query {i}: anya {} eps {}",
                a.1,
                b.1
            );
        }
    };
    let eps = ok(&[&base[..], &["--algo", "eps", "--cpd", &s(&cpd)]].concat());
    assert_eq!(eps.lines().next().unwrap(), taut_cli::CSV_HEADER);
    same(&lengths(&eps), "eps --cpd");

    // Without --cpd: built in memory, said on stderr, same answers.
    let o = taut(&[&base[..], &["--algo", "eps"]].concat());
    assert!(o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("building the CPD of the map in memory"),
        "{err}"
    );
    same(
        &lengths(&String::from_utf8(o.stdout).unwrap()),
        "eps in memory",
    );

    // Anytime: a first_us column, never after time_us, and still the optimal length.
    let any = ok(&[
        &base[..],
        &["--algo", "eps", "--cpd", &s(&cpd), "--anytime"],
    ]
    .concat());
    assert_eq!(
        any.lines().next().unwrap(),
        format!("{},first_us", taut_cli::CSV_HEADER)
    );
    same(&lengths(&any), "eps --anytime");
    for l in any.lines().skip(1) {
        let c: Vec<f64> = l
            .rsplitn(3, ',')
            .take(2)
            .map(|x| x.parse().unwrap())
            .collect();
        let (first, total) = (c[0], c[1]);
        assert!(first <= total && first >= 0.0, "{l}");
    }

    // First and bounded stops: legal lengths, never below the optimum, q within its factor.
    for (rule, q) in [("first", f64::INFINITY), ("q=1.05", 1.05)] {
        let got = lengths(&ok(&[
            &base[..],
            &["--algo", "eps", "--cpd", &s(&cpd), "--eps-stop", rule],
        ]
        .concat()));
        for ((sa, a), (sb, b)) in anya.iter().zip(&got) {
            assert_eq!(sa, sb);
            let tol = LENGTH_TOLERANCE;
            assert!(*b >= a - tol && *b <= q * a + tol, "{rule}: {b} vs {a}");
        }
    }

    // taut path --algo eps.
    let out = ok(&[
        "path",
        "--algo",
        "eps",
        "--cpd",
        &s(&cpd),
        "--map",
        &map,
        "--from",
        "19,26",
        "--to",
        "44,30",
    ]);
    let anya_out = ok(&[
        "path", "--algo", "anya", "--map", &map, "--from", "19,26", "--to", "44,30",
    ]);
    assert_eq!(out.lines().next(), anya_out.lines().next());
}

#[test]
fn eps_on_a_given_mesh_needs_the_cpd_of_that_mesh() {
    let dir = tempfile::tempdir().unwrap();
    let mesh = f("meshes/arena-merged.mesh");
    let (map, scen) = (f("maps/arena.map"), f("maps/arena.map.scen"));
    let mesh_cpd = dir.path().join("merged.cpd");
    ok(&["cpd", "build", "--mesh", &mesh, "-o", &s(&mesh_cpd)]);
    let base = ["scen", "--map", &map, "--scen", &scen];
    let anya = lengths(&ok(&[&base[..], &["--algo", "anya"]].concat()));
    let eps = lengths(&ok(&[
        &base[..],
        &["--algo", "eps", "--mesh", &mesh, "--cpd", &s(&mesh_cpd)],
    ]
    .concat()));
    for (a, b) in anya.iter().zip(&eps) {
        assert_eq!(a.0, b.0);
        assert!(lengths_agree(a.1, b.1), "{a:?} vs {b:?}");
    }
    // The CPD of taut's own mesh of the grid does not belong to the given mesh.
    let grid_cpd = dir.path().join("grid.cpd");
    build("maps/arena.map", &grid_cpd);
    let err = fails(
        &[
            &base[..],
            &["--algo", "eps", "--mesh", &mesh, "--cpd", &s(&grid_cpd)],
        ]
        .concat(),
        1,
    );
    assert!(
        err.contains("grid.cpd") && err.contains("rebuild it"),
        "{err}"
    );
}

#[test]
fn bad_cpds_and_misplaced_options_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (map, scen) = (f("maps/arena.map"), f("maps/arena.map.scen"));
    let base = [
        "scen", "--map", &map, "--scen", &scen, "--algo", "eps", "--cpd",
    ];
    // Missing file.
    let missing = s(&dir.path().join("missing.cpd"));
    let err = fails(&[&base[..], &[&missing]].concat(), 1);
    assert!(err.contains("missing.cpd"), "{err}");
    let err = fails(&["cpd", "info", &missing], 1);
    assert!(err.contains("missing.cpd"), "{err}");
    // A CPD built for another fixture map: refused, naming the file, before any output.
    let small = dir.path().join("small.cpd");
    build("maps/small.map", &small);
    let o = taut(&[&base[..], &[&s(&small)]].concat());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "no csv header before the error");
    let err = fails(&[&base[..], &[&s(&small)]].concat(), 1);
    assert!(
        err.contains("small.cpd")
            && err.contains("was built for mesh")
            && err.contains("rebuild it"),
        "{err}"
    );
    // Truncated, and not a CPD at all.
    let whole = dir.path().join("arena.cpd");
    build("maps/arena.map", &whole);
    let bytes = fs::read(&whole).unwrap();
    let cut = dir.path().join("cut.cpd");
    for n in [0, 7, 40, bytes.len() / 2, bytes.len() - 1] {
        fs::write(&cut, &bytes[..n]).unwrap();
        let err = fails(&[&base[..], &[&s(&cut)]].concat(), 1);
        assert!(err.contains("cut.cpd"), "{n} bytes: {err}");
        fails(&["cpd", "info", &s(&cut)], 1);
    }
    let err = fails(&[&base[..], &[&f("maps/arena.map")]].concat(), 1);
    assert!(err.contains("not a taut CPD"), "{err}");
    // A shard is not a CPD.
    let out = dir.path().join("sh.cpd");
    ok(&[
        "cpd",
        "build",
        "--map",
        &map,
        "-o",
        &s(&out),
        "--shard",
        "0/1",
    ]);
    let err = fails(
        &["cpd", "info", &s(&dir.path().join("sh.cpd.shard-0-of-1"))],
        1,
    );
    assert!(err.contains("shard"), "{err}");
    // Options of eps with another planner.
    let err = fails(
        &[
            "scen",
            "--map",
            &map,
            "--scen",
            &scen,
            "--algo",
            "anya",
            "--anytime",
        ],
        1,
    );
    assert!(
        err.contains("--anytime works only with --algo eps"),
        "{err}"
    );
    let err = fails(
        &[
            "scen",
            "--map",
            &map,
            "--scen",
            &scen,
            "--algo",
            "anya",
            "--cpd",
            &s(&whole),
        ],
        1,
    );
    assert!(err.contains("--cpd works only with --algo eps"), "{err}");
    let err = fails(
        &[
            "scen",
            "--map",
            &map,
            "--scen",
            &scen,
            "--algo",
            "eps",
            "--eps-stop",
            "q=0.9",
        ],
        2,
    );
    assert!(err.contains("q=0.9"), "{err}");
    // cpd build needs an input.
    fails(&["cpd", "build", "-o", &s(&out)], 2);
}

#[test]
fn a_cpd_over_max_size_is_refused_before_its_rows_and_estimate_predicts_it() {
    let dir = tempfile::tempdir().unwrap();
    let map = f("maps/arena.map");
    // Every row of arena: the estimate is the CPD `info` describes.
    let est = ok(&["cpd", "estimate", "--map", &map, "--sample", "100000"]);
    let value = |text: &str, key: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.trim().split(' ').next()?.parse().ok())
            .unwrap_or_else(|| panic!("no '{key}' in {text}"))
    };
    for key in [
        "nodes ",
        "edges ",
        "sampled rows ",
        "runs per row ",
        "estimated MB ",
        "estimated buffers MB ",
        "row ms ",
        "estimated row phase s ",
        "estimate s ",
    ] {
        value(&est, key);
    }
    let cpd = dir.path().join("arena.cpd");
    build("maps/arena.map", &cpd);
    let info = ok(&["cpd", "info", &s(&cpd)]);
    assert_eq!(value(&est, "nodes "), value(&info, "nodes "));
    assert_eq!(value(&est, "sampled rows "), value(&info, "nodes "));
    assert!((value(&est, "runs per row ") - value(&info, "runs per row ")).abs() < 0.1);
    // A limit below the estimate: one line naming the estimate and the option, no file.
    let small = dir.path().join("small.cpd");
    let small_s = s(&small);
    let build_within = |size: &str, extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "cpd",
            "build",
            "--map",
            &map,
            "-o",
            &small_s,
            "--max-size",
            size,
        ]
        .iter()
        .map(|x| x.to_string())
        .collect();
        a.extend(extra.iter().map(|x| x.to_string()));
        a
    };
    fn strs(v: &[String]) -> Vec<&str> {
        v.iter().map(String::as_str).collect()
    }
    for extra in [&[][..], &["--shard", "0/2"][..]] {
        let err = fails(&strs(&build_within("1K", extra)), 1);
        assert!(
            err.contains("small.cpd")
                && err.contains("estimated from")
                && err.contains("--max-size"),
            "{err}"
        );
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "only arena.cpd"
    );
    // A limit above it builds; sizes that are not sizes are refused by the parser.
    ok(&strs(&build_within("1G", &[])));
    let err = fails(&strs(&build_within("lots", &[])), 2);
    assert!(err.contains("'lots' is not a size"), "{err}");
}
