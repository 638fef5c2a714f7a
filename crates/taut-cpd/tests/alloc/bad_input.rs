//! The corrupted-CPD catalogue of `fixtures/bad/cpd/expected.txt`: each line names a damage
//! (a comma-separated list of byte operations on a valid CPD of `fixtures/maps/small.map`, built here), the
//! reader to give the result to, and the `CpdError` variant it must return (or `ok`). The
//! manifest format is described in `fixtures/bad/README.md`. `corruption.rs` has the
//! exhaustive sweeps (every truncation, every flipped byte, random resealed damage); this
//! catalogue names one case of each kind, with the error a user should get.

use crate::common::exercise;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use taut_cpd::encoding::{decode_cpd, decode_shard, encode_cpd, encode_shard};
use taut_cpd::shard::{ShardSpec, build_shard, read_shard_header};
use taut_cpd::{BuildParams, CpdError, Eps, NoProgress, build_cpd, read_cpd, read_cpd_header};
use taut_grid::{FreeSet, Grid, MapFile};
use taut_mesh::{Mesh, mesh_from_grid, read_mesh};
use taut_testdata::fixtures;

fn small_mesh() -> Mesh {
    let map = MapFile::read(fixtures().join("maps/small.map")).unwrap();
    mesh_from_grid(&Grid::from_map(&map, &FreeSet::default())).unwrap()
}

fn cpd_bytes(mesh: &Mesh) -> Vec<u8> {
    encode_cpd(&build_cpd(mesh, &BuildParams::default(), &NoProgress).unwrap())
}

/// Reads a LEB128 varint at `at`; returns the value and the offset after it.
fn varint(bytes: &[u8], mut at: usize) -> (u64, usize) {
    let (mut v, mut shift) = (0u64, 0);
    loop {
        let b = bytes[at];
        v |= u64::from(b & 0x7f) << shift;
        at += 1;
        if b & 0x80 == 0 {
            return (v, at);
        }
        shift += 7;
    }
}

fn encode_varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return out;
        }
        out.push(b | 0x80);
    }
}

/// The file offset of a named field (docs/cpd-format.md), or a number (negative: from the end).
fn offset(bytes: &[u8], place: &str) -> usize {
    if let Ok(n) = place.parse::<i64>() {
        return if n < 0 {
            bytes.len() - n.unsigned_abs() as usize
        } else {
            n as usize
        };
    }
    let tolerance = 20 + 32;
    let symbol_bits = varint(bytes, tolerance).1;
    let nodes = symbol_bits + 1;
    let edges = varint(bytes, nodes).1;
    let runs = varint(bytes, edges).1;
    let shard_tag = varint(bytes, runs).1;
    let mut points = shard_tag + 1;
    if bytes[shard_tag] == 1 {
        for _ in 0..4 {
            points = varint(bytes, points).1;
        }
    }
    match place {
        "magic" => 0,
        "version" => 8,
        "length" => 12,
        "hash" => 20,
        "tolerance" => tolerance,
        "symbol_bits" => symbol_bits,
        "nodes" => nodes,
        "edges" => edges,
        "runs" => runs,
        "shard_tag" => shard_tag,
        "points" => points,
        _ => panic!("unknown place {place}"),
    }
}

fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "{s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Applies the comma-separated operations of a manifest line to a valid CPD of `mesh`.
fn damage(mesh: &Mesh, ops: &str) -> Vec<u8> {
    let mut bytes = cpd_bytes(mesh);
    if ops == "-" {
        return bytes;
    }
    for op in ops.split(',').filter(|o| !o.is_empty()) {
        let (name, arg) = op.split_once('=').unwrap_or((op, ""));
        match name {
            "truncate" => {
                let keep = offset(&bytes, arg);
                bytes.truncate(keep);
            }
            "append" => bytes.extend(hex(arg)),
            "set" => {
                let (place, h) = arg.split_once(':').unwrap();
                let at = offset(&bytes, place);
                let h = hex(h);
                bytes[at..at + h.len()].copy_from_slice(&h);
            }
            "flip" => {
                let at = offset(&bytes, arg);
                bytes[at] ^= 0x01;
            }
            "insert" => {
                let (place, h) = arg.split_once(':').unwrap();
                let at = offset(&bytes, place);
                bytes.splice(at..at, hex(h));
            }
            "delete" => {
                let (place, n) = arg.split_once(':').unwrap();
                let at = offset(&bytes, place);
                bytes.drain(at..at + n.parse::<usize>().unwrap());
            }
            "varint" => {
                let (place, v) = arg.split_once(':').unwrap();
                let at = offset(&bytes, place);
                let (old, end) = varint(&bytes, at);
                let new = if let Some(d) = v.strip_prefix('+') {
                    old + d.parse::<u64>().unwrap()
                } else if let Some(h) = v.strip_prefix("0x") {
                    u64::from_str_radix(h, 16).unwrap()
                } else {
                    v.parse().unwrap()
                };
                bytes.splice(at..end, encode_varint(new));
            }
            "reseal" => {
                let body = (bytes.len() - 20 - 32) as u64;
                bytes[12..20].copy_from_slice(&body.to_le_bytes());
                let end = bytes.len() - 32;
                let digest = Sha256::digest(&bytes[..end]);
                bytes[end..].copy_from_slice(&digest);
            }
            "file" => bytes = std::fs::read(fixtures().join(arg)).unwrap(),
            "shard" => {
                let (i, n) = arg.split_once('/').unwrap();
                let spec = ShardSpec::new(i.parse().unwrap(), n.parse().unwrap()).unwrap();
                let shard = build_shard(mesh, &BuildParams::default(), spec, &NoProgress);
                bytes = encode_shard(&shard.unwrap());
            }
            "from" => bytes = cpd_bytes(&read_mesh(&fixtures().join(arg)).unwrap()),
            _ => panic!("unknown operation {op}"),
        }
    }
    bytes
}

fn variant(e: &CpdError) -> &'static str {
    match e {
        CpdError::Io { .. } => "Io",
        CpdError::NotACpd { .. } => "NotACpd",
        CpdError::WrongKind { .. } => "WrongKind",
        CpdError::Version { .. } => "Version",
        CpdError::Truncated => "Truncated",
        CpdError::Checksum => "Checksum",
        CpdError::Corrupt(_) => "Corrupt",
        CpdError::Params(_) => "Params",
        CpdError::StaleMesh { .. } => "StaleMesh",
        CpdError::Graph(_) => "Graph",
        CpdError::TooLarge { .. } => "TooLarge",
        CpdError::NoShards => "NoShards",
        CpdError::MissingShard { .. } => "MissingShard",
        CpdError::DuplicateShard { .. } => "DuplicateShard",
        CpdError::ShardMismatch { .. } => "ShardMismatch",
    }
}

struct Case {
    name: String,
    reader: String,
    ops: String,
    outcome: String,
}

fn manifest() -> Vec<Case> {
    let path = fixtures().join("bad/cpd/expected.txt");
    let mut names = BTreeSet::new();
    let mut out = Vec::new();
    for (at, fields) in taut_testdata::manifest_entries(&path) {
        let t: Vec<&str> = fields.iter().map(String::as_str).collect();
        assert_eq!(
            t.len(),
            4,
            "expected.txt:{}: name reader damage outcome",
            at
        );
        assert!(
            names.insert(t[0].to_owned()),
            "expected.txt lists {} twice",
            t[0]
        );
        out.push(Case {
            name: t[0].into(),
            reader: t[1].into(),
            ops: t[2].into(),
            outcome: t[3].into(),
        });
    }
    out
}

/// Runs one reader on `bytes` (through a file for the path-taking readers).
fn run(
    reader: &str,
    bytes: &[u8],
    mesh: &Arc<Mesh>,
    file: &std::path::Path,
) -> Result<(), CpdError> {
    std::fs::write(file, bytes).unwrap();
    match reader {
        "decode" => decode_cpd(bytes).map(|cpd| exercise(&cpd)),
        "read" => read_cpd(file).map(|cpd| exercise(&cpd)),
        "header" => read_cpd_header(file).map(drop),
        "shard" => decode_shard(bytes).map(drop),
        "shard_header" => read_shard_header(file).map(drop),
        "eps" => {
            let cpd = decode_cpd(bytes)?;
            Eps::new(mesh.clone(), Arc::new(cpd)).map(drop)
        }
        _ => panic!("unknown reader {reader}"),
    }
}

#[test]
fn every_catalogued_corruption_gives_its_expected_error() {
    let mesh = Arc::new(small_mesh());
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let cases = manifest();
    assert!(
        cases.len() >= 40,
        "the catalogue shrank: {} cases",
        cases.len()
    );
    for case in cases {
        let bytes = damage(&mesh, &case.ops);
        let file: PathBuf = dir.path().join(format!("{}.cpd", case.name));
        let started = Instant::now();
        let got = std::panic::catch_unwind(|| run(&case.reader, &bytes, &mesh, &file));
        if started.elapsed() > Duration::from_secs(1) {
            failures.push(format!("{}: took {:?}", case.name, started.elapsed()));
        }
        let got = match got {
            Ok(got) => got,
            Err(_) => {
                failures.push(format!("{}: the reader panicked", case.name));
                continue;
            }
        };
        let name = &case.name;
        match (case.outcome.as_str(), got) {
            ("ok", Ok(())) => {}
            ("ok", Err(e)) => failures.push(format!("{name}: expected ok, got {e}")),
            (want, Ok(())) => failures.push(format!("{name}: expected {want}, got ok")),
            (want, Err(e)) => {
                if variant(&e) != want {
                    failures.push(format!("{name}: expected {want}, got {e:?}"));
                }
                let shown = e.to_string();
                if shown.is_empty() || shown.contains('\n') {
                    failures.push(format!("{name}: message is not one line: {shown:?}"));
                }
                if want == "Version" && !shown.contains("rebuild") {
                    failures.push(format!(
                        "{name}: a version error should say to rebuild: {shown}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A declared length inside the body (the point count) of 2^60 must not be trusted for an
/// allocation.
#[test]
fn a_huge_declared_sequence_length_allocates_nothing_large() {
    let mesh = small_mesh();
    let bytes = damage(&mesh, "varint=points:0x0fffffffffffffff,reseal");
    let mut got = None;
    let info = allocation_counter::measure(|| got = Some(decode_cpd(&bytes)));
    assert!(matches!(got, Some(Err(CpdError::Corrupt(_)))), "{got:?}");
    assert!(info.bytes_max < 4 << 20, "peak {} bytes", info.bytes_max);
}

#[test]
fn missing_files_and_directories_are_io_errors_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.cpd");
    for e in [
        read_cpd(&missing).unwrap_err(),
        read_cpd_header(&missing).unwrap_err(),
        read_cpd(dir.path()).unwrap_err(),
    ] {
        assert!(matches!(e, CpdError::Io { .. }), "{e:?}");
        assert!(
            e.to_string().contains(&*dir.path().to_string_lossy()),
            "{e}"
        );
    }
}
