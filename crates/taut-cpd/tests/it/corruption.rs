//! Damaged, foreign and outdated files are refused with an error, never a panic.

use crate::common::exercise;

use proptest::prelude::*;
use taut_cpd::encoding::{decode_cpd, encode_cpd};
use taut_cpd::graph::Graph;
use taut_cpd::{BuildParams, Cpd, CpdError, FORMAT_VERSION, NoProgress, read_cpd, read_cpd_header};
use taut_mesh::MeshPoint;
use taut_testdata::damage::{Seal, apply_edits, edits, reseal};
use taut_testdata::fixtures;

fn small_cpd() -> Cpd {
    let pts = vec![
        MeshPoint::new(0.0, 0.0),
        MeshPoint::new(1.0, 0.0),
        MeshPoint::new(2.0, 0.0),
        MeshPoint::new(1.0, 1.5),
        MeshPoint::new(5.0, 5.0),
        MeshPoint::new(6.0, 5.0),
    ];
    let g = Graph::from_points_and_edges(pts, &[(0, 1), (1, 2), (0, 2), (1, 3), (2, 3), (4, 5)])
        .unwrap();
    Cpd::from_graph(g, [3; 32], &BuildParams::default(), &NoProgress)
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = encode_cpd(&small_cpd());
    for len in 0..bytes.len() {
        let e = decode_cpd(&bytes[..len]).unwrap_err();
        assert!(matches!(e, CpdError::Truncated), "length {len}: {e}");
    }
    // An extra byte is not silently ignored either.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(decode_cpd(&longer), Err(CpdError::Corrupt(_))));
    assert!(decode_cpd(&bytes).is_ok());
}

#[test]
fn another_version_asks_for_a_rebuild() {
    let mut bytes = encode_cpd(&small_cpd());
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let e = decode_cpd(&bytes).unwrap_err();
    assert!(
        matches!(e, CpdError::Version { found, expected } if found == FORMAT_VERSION + 1 && expected == FORMAT_VERSION)
    );
    assert!(e.to_string().contains("rebuild"), "{e}");
}

#[test]
fn a_mesh_file_is_not_a_cpd() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("square.cpd");
    std::fs::copy(fixtures().join("meshes/square.mesh"), &path).unwrap();
    assert!(matches!(read_cpd(&path), Err(CpdError::NotACpd { .. })));
    assert!(matches!(
        read_cpd_header(&path),
        Err(CpdError::NotACpd { .. })
    ));
    let e = read_cpd(&dir.path().join("missing.cpd")).unwrap_err();
    assert!(matches!(e, CpdError::Io { .. }));
    assert!(e.to_string().contains("missing.cpd"), "{e}");
}

#[test]
fn a_flipped_byte_fails_the_checksum() {
    let bytes = encode_cpd(&small_cpd());
    for i in 20..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x10;
        assert!(
            matches!(decode_cpd(&b), Err(CpdError::Checksum)),
            "byte {i}"
        );
    }
}

#[test]
fn the_header_of_a_truncated_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.cpd");
    let bytes = encode_cpd(&small_cpd());
    for len in [0, 5, 8, 12, 19, 20, 40] {
        std::fs::write(&path, &bytes[..len]).unwrap();
        assert!(
            matches!(read_cpd_header(&path), Err(CpdError::Truncated)),
            "length {len}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn damaged_files_are_errors(edits in edits()) {
        let original = encode_cpd(&small_cpd());
        let mut bytes = original.clone();
        apply_edits(&mut bytes, &edits, None);
        prop_assume!(bytes != original);
        prop_assert!(decode_cpd(&bytes).is_err());
    }

    /// The same damage with the length and checksum repaired: the structural checks must
    /// refuse it, or what they accept must still be safe to use.
    #[test]
    fn resealed_damage_is_refused_or_harmless(edits in edits()) {
        let mut bytes = encode_cpd(&small_cpd());
        // Only the body: the prefix and checksum are repaired by `reseal`.
        apply_edits(&mut bytes, &edits, Some(Seal::Sha256));
        let bytes = reseal(bytes, Seal::Sha256);
        match decode_cpd(&bytes) {
            Ok(cpd) => exercise(&cpd),
            Err(e) => prop_assert!(matches!(e, CpdError::Corrupt(_)), "{}", e),
        }
    }
}
