//! The big-map generator and suite: generation is deterministic (twice the same bytes, and
//! pinned fingerprints at a small side so that a change to what a spec draws cannot go unnoticed
//! without a version bump), queries are far apart between free cells, and on the 512² map of
//! every kind `ray` and `anya` find the same lengths (the bench's cross-check) within the
//! octile bound of the scenario.

use std::fs;

use taut_bench::big::{BigSpec, Kind, ensure, generate};
use taut_bench::{RunOptions, Suite, run_suite};

fn spec(kind: Kind, side: u32) -> BigSpec {
    BigSpec {
        kind,
        side,
        seed: 0,
        queries: 30,
    }
}

#[test]
fn generation_is_deterministic_and_pinned() {
    // Small maps, so the pins are cheap; a changed value means the generator draws something
    // else for the same spec: raise GENERATOR_VERSION and update the pins.
    let pinned: [(Kind, u64); 6] = [
        (Kind::Walls, 0xb7ffcba63f4ec469),
        (Kind::Speckle, 0x62715289561f1c21),
        (Kind::Diagonal, 0xcd32b12883745a56),
        (Kind::Rooms, 0x59e4e83fe2b0649c),
        (Kind::Traps, 0x8e197d4e265ad131),
        (Kind::Blobs, 0xa1b9f4dbecd72f0f),
    ];
    let mut got = Vec::new();
    for (kind, _) in pinned {
        let s = BigSpec {
            queries: 5,
            ..spec(kind, 128)
        };
        got.push((kind, generate(&s).unwrap().fingerprint()));
    }
    assert_eq!(got, pinned, "fingerprints at 128², 5 queries");
}

#[test]
fn queries_are_free_far_apart_and_a_prefix_of_longer_files() {
    let g = generate(&spec(Kind::Traps, 256)).unwrap();
    let short = generate(&BigSpec {
        queries: 7,
        ..spec(Kind::Traps, 256)
    })
    .unwrap();
    assert_eq!(g.map_text(), short.map_text());
    assert_eq!(g.scen.entries[..7], short.scen.entries[..]);
    assert_eq!(g.scen.entries.len(), 30);
    for e in &g.scen.entries {
        for p in [e.start, e.goal] {
            assert_eq!(g.map.tile(p.x as u32, p.y as u32), Some(b'.'), "{p:?}");
        }
        assert!((e.start.x - e.goal.x).abs() + (e.start.y - e.goal.y).abs() >= 256);
        assert!(e.octile >= 256.0 / 2f64.sqrt());
    }
}

#[test]
fn bad_specs_are_errors() {
    assert!(generate(&spec(Kind::Walls, 8)).is_err());
    assert!(
        generate(&BigSpec {
            queries: 0,
            ..spec(Kind::Walls, 512)
        })
        .is_err()
    );
    assert!("nonsense".parse::<Kind>().is_err());
}

/// Every kind at 512²: generated twice into two directories with the same bytes, then the
/// suite run with `ray` and `anya`, which must agree on every query (and keep the octile
/// bound and pass the path checks).
#[test]
fn big_512_deterministic_and_ray_equals_anya() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let specs: Vec<BigSpec> = Kind::ALL.iter().map(|&k| spec(k, 512)).collect();
    ensure(&specs, a.path(), false, false).unwrap();
    ensure(&specs, b.path(), false, false).unwrap();
    for s in &specs {
        for ext in ["map", "map.scen", "gen"] {
            let f = format!("{}.{ext}", s.name());
            assert_eq!(
                fs::read(a.path().join(&f)).unwrap(),
                fs::read(b.path().join(&f)).unwrap(),
                "{f} differs between two generations"
            );
        }
    }
    // Up to date now: nothing rewritten.
    let again = ensure(&specs, a.path(), false, false).unwrap();
    assert!(again.iter().all(|e| !e.written));

    let file = a.path().join("big512.toml");
    fs::write(
        &file,
        "description = \"t\"\nmaps = \".\"\nscenarios = \".\"\nplanners = [\"ray\", \"anya\"]\n\
         [generate]\nsides = [512]\n",
    )
    .unwrap();
    let suite = Suite::read(&file, a.path()).unwrap();
    assert!(suite.has_data());
    assert_eq!(suite.only.len(), 6);
    let run = run_suite(&suite, &RunOptions::default()).unwrap();
    let failures: Vec<_> = run
        .records
        .iter()
        .filter_map(|r| {
            r.failure
                .as_ref()
                .map(|f| (run.maps[r.map as usize].clone(), r.idx, f))
        })
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(run.records.len(), 6 * 30 * 2);
    assert_eq!(run.checked.cross, 6 * 30 * 2, "every length cross-checked");
}
