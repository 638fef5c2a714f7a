//! Hub index files: written and read back to the same index (answers and bytes), at any
//! thread count; damaged, foreign, outdated and stale files are refused with an error, never
//! a panic.

use std::sync::Arc;

use proptest::prelude::*;
use taut_grid::{Answer, Grid, Planner, Point};
use taut_hub::{
    FORMAT_VERSION, HubError, HubIndex, HubPlanner, decode_hub, encode_hub, read_hub,
    read_hub_header, write_hub,
};
use taut_mesh::mesh_from_grid;
use taut_testdata::damage::{Seal, apply_edits, edits, reseal};
use taut_testdata::free_points;

fn small_grid() -> Grid {
    Grid::from_ascii(&["........", ".@@..@..", "....@@..", "@.......", "...@...."]).unwrap()
}

fn small_index() -> HubIndex {
    let g = small_grid();
    HubIndex::build(&g, &mesh_from_grid(&g).unwrap()).unwrap()
}

/// The same map with labels shared by regions of 3 × 3 cells (partial ones at the edges).
fn small_region_index() -> HubIndex {
    let g = small_grid();
    HubIndex::build_with_regions(&g, &mesh_from_grid(&g).unwrap(), 3).unwrap()
}

/// 0: the points' own labels; 1: regions of 3 × 3 (one mask word, spare bits); 2: one region
/// of 16 × 16 over the whole map (four mask words).
fn index_of(which: u8) -> HubIndex {
    match which {
        0 => small_index(),
        1 => small_region_index(),
        _ => {
            let g = small_grid();
            HubIndex::build_with_regions(&g, &mesh_from_grid(&g).unwrap(), 16).unwrap()
        }
    }
}

/// Every query between free points of the index's own grid, as (status, length) or error.
fn answers(index: HubIndex) -> Vec<Option<(bool, f64)>> {
    let (w, h) = index.size();
    let grid = Grid::from_fn(w as u32, h as u32, |x, y| index.is_free(x as i32, y as i32));
    let pts = free_points(&grid);
    let mut planner = HubPlanner::new(&grid, Arc::new(index)).unwrap();
    let mut a = Answer::default();
    let mut out = Vec::new();
    for &s in &pts {
        for &t in &pts {
            out.push(
                planner
                    .plan(s, t, &mut a)
                    .ok()
                    .map(|st| (st == taut_grid::Status::Found, a.length)),
            );
        }
    }
    out
}

#[test]
fn a_written_index_reads_back_the_same() {
    let index = small_index();
    let bytes = encode_hub(&index);
    let back = decode_hub(&bytes).unwrap();
    assert_eq!(encode_hub(&back), bytes);
    assert_eq!(back.stats(), index.stats());
    assert_eq!(answers(back), answers(index.clone()));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.hub");
    write_hub(&path, &index).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    assert!(!dir.path().join("small.hub.tmp").exists());
    let header = read_hub_header(&path).unwrap();
    assert_eq!((header.width, header.height), (8, 5));
    assert_eq!(header.point_entries as usize, index.stats().point_entries);
    assert_eq!(&header.mesh_hash, index.mesh_hash());
    assert_eq!(encode_hub(&read_hub(&path).unwrap()), bytes);
    let e = read_hub(&dir.path().join("absent.hub")).unwrap_err();
    assert!(matches!(e, HubError::Io { .. }), "{e}");
}

#[test]
fn an_index_of_regions_reads_back_the_same() {
    let index = small_region_index();
    let bytes = encode_hub(&index);
    let back = decode_hub(&bytes).unwrap();
    assert_eq!(back.region_size(), 3);
    assert_eq!(encode_hub(&back), bytes);
    assert_eq!(back.stats(), index.stats());
    assert!(index.stats().region_vias > 0 && index.stats().point_entries == 0);
    // The same answers as the points' own labels (a tie may pick another path of the same
    // length, measured with other rounding).
    let same = |a: Vec<Option<(bool, f64)>>, b: Vec<Option<(bool, f64)>>| {
        a.len() == b.len()
            && a.iter().zip(&b).all(|(x, y)| match (x, y) {
                (Some((f, l)), Some((g, m))) => f == g && (l - m).abs() <= 1e-9,
                (x, y) => x == y,
            })
    };
    assert!(same(answers(back), answers(small_index())));
    let wide = index_of(2);
    let back = decode_hub(&encode_hub(&wide)).unwrap();
    assert_eq!(back.region_size(), 16);
    assert!(same(answers(back), answers(small_index())));
    for len in [0, 20, 100, bytes.len() / 2, bytes.len() - 1] {
        let e = decode_hub(&bytes[..len]).unwrap_err();
        assert!(matches!(e, HubError::Truncated), "length {len}: {e}");
    }
}

#[test]
fn the_build_does_not_depend_on_the_thread_count() {
    let g = taut_grid::Grid::from_ascii(&[
        "..........@.....",
        ".@@@......@..@@.",
        ".....@@.......@.",
        "..@....@..@@....",
        "..@..........@..",
        "......@@@.......",
    ])
    .unwrap();
    let mesh = mesh_from_grid(&g).unwrap();
    let build = |threads, side| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| encode_hub(&HubIndex::build_with_regions(&g, &mesh, side).unwrap()))
    };
    for side in [1, 4, 16] {
        assert_eq!(build(1, side), build(2, side));
    }
}

#[test]
fn a_stale_index_is_refused() {
    let index = small_index();
    let other =
        Grid::from_ascii(&["........", ".@@..@..", "....@@..", "@.......", "..@@...."]).unwrap();
    let e = index
        .check_mesh(&mesh_from_grid(&other).unwrap())
        .unwrap_err();
    assert!(matches!(e, HubError::StaleMesh), "{e}");
    assert!(
        index
            .check_mesh(&mesh_from_grid(&small_grid()).unwrap())
            .is_ok()
    );
    let e = HubPlanner::new(&other, Arc::new(index)).unwrap_err();
    assert!(matches!(e, HubError::StaleMap), "{e}");
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = encode_hub(&small_index());
    for len in 0..bytes.len() {
        let e = decode_hub(&bytes[..len]).unwrap_err();
        assert!(matches!(e, HubError::Truncated), "length {len}: {e}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(decode_hub(&longer), Err(HubError::Corrupt(_))));
}

#[test]
fn foreign_and_outdated_files_are_named() {
    let mut bytes = encode_hub(&small_index());
    let e = decode_hub(b"TAUTCPD\0 and more bytes than a prefix").unwrap_err();
    assert!(matches!(e, HubError::NotAHub), "{e}");
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let e = decode_hub(&bytes).unwrap_err();
    assert!(
        matches!(e, HubError::Version { found, expected } if found == FORMAT_VERSION + 1 && expected == FORMAT_VERSION),
        "{e}"
    );
    assert!(e.to_string().contains("rebuild"));
}

/// The layout of `docs/hub-format.md`: the prefix, each label array as its items' fields in
/// little-endian order (the point entries: distance, hub, core entry), and XXH3-128 of all
/// before it as the last 16 bytes. A reordered field of the in-memory entries, which the
/// files copy as bytes, fails it.
#[test]
fn the_file_is_laid_out_as_documented() {
    let index = small_index();
    let bytes = encode_hub(&index);
    assert_eq!(&bytes[..8], b"TAUTHUB\0");
    assert_eq!(bytes[8..12], FORMAT_VERSION.to_le_bytes());
    let body = u64::from_le_bytes(bytes[12..20].try_into().unwrap()) as usize;
    assert_eq!(bytes.len(), 20 + body + 16);
    let end = bytes.len() - 16;
    assert_eq!(bytes[end..], Seal::Xxh3.digest(&bytes[..end]));
    assert_eq!(bytes[end..], taut_hub::checksum(&bytes[..end]));
    let (w, h) = index.size();
    let mut entries = Vec::new();
    for y in 0..h {
        for x in 0..w {
            for e in index.point_label(Point::new(x, y)) {
                entries.extend_from_slice(&e.dist.to_le_bytes());
                entries.extend_from_slice(&e.hub.to_le_bytes());
                entries.extend_from_slice(&e.entry.to_le_bytes());
            }
        }
    }
    assert_eq!(entries.len(), index.stats().point_entries * 16);
    assert_eq!(bytes[end - entries.len()..end], entries);
}

#[test]
fn a_flipped_byte_fails_the_checksum() {
    let bytes = encode_hub(&small_index());
    // Every byte of the last section (point entries) and of the checksum itself.
    for i in bytes.len() - 200..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x10;
        let e = decode_hub(&b).unwrap_err();
        assert!(matches!(e, HubError::Checksum), "byte {i}: {e}");
    }
}

/// A point entry that names a core entry of another hub, and a path step that does not get
/// nearer to its hub: sealed with a valid checksum, both are refused as corrupt.
#[test]
fn inconsistent_labels_are_refused() {
    let index = small_index();
    let bytes = encode_hub(&index);
    let st = index.stats();
    // The last point entry's core-entry index is the last 4 bytes before the checksum.
    let at = bytes.len() - 16 - 4;
    let mut b = bytes.clone();
    let e = u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let other = (0..st.core_entries as u32)
        .find(|&j| index.core().entry_at(j).hub != index.core().entry_at(e).hub)
        .unwrap();
    b[at..at + 4].copy_from_slice(&other.to_le_bytes());
    let err = decode_hub(&reseal(b, Seal::Xxh3)).unwrap_err();
    assert!(matches!(err, HubError::Corrupt(_)), "{err}");
    // A core entry whose next step leads to itself (a walk that would never end).
    let (w, h) = index.size();
    let cells = (w * h) as usize;
    let core_start =
        bytes.len() - 16 - st.point_entries * 16 - (cells + 1) * 4 - st.core_entries * 16;
    let (j, _) = (0..st.core_entries)
        .map(|j| (j, index.core().entry_at(j as u32)))
        .find(|(_, e)| e.next_entry().is_some())
        .unwrap();
    let mut b = bytes.clone();
    let at = core_start + j * 16 + 12;
    b[at..at + 4].copy_from_slice(&(j as u32).to_le_bytes());
    let err = decode_hub(&reseal(b, Seal::Xxh3)).unwrap_err();
    assert!(matches!(err, HubError::Corrupt(_)), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]
    #[test]
    fn damaged_files_are_errors(edits in edits(), which in 0u8..3) {
        let original = encode_hub(&index_of(which));
        let mut bytes = original.clone();
        apply_edits(&mut bytes, &edits, None);
        prop_assume!(bytes != original);
        prop_assert!(decode_hub(&bytes).is_err());
    }

    /// The same damage with the length and checksum repaired: the structural checks must
    /// refuse it, or the index they accept must answer every query without a panic.
    #[test]
    fn resealed_damage_is_refused_or_harmless(edits in edits(), which in 0u8..3) {
        let mut bytes = encode_hub(&index_of(which));
        apply_edits(&mut bytes, &edits, Some(Seal::Xxh3));
        match decode_hub(&reseal(bytes, Seal::Xxh3)) {
            Ok(index) => { answers(index); }
            Err(e) => prop_assert!(matches!(e, HubError::Corrupt(_)), "{}", e),
        }
    }
}

#[test]
fn point_labels_are_found_by_lattice_point() {
    let index = small_index();
    assert!(
        index.point_label(Point::new(1, 1)).is_empty(),
        "a blocked cell has no label"
    );
    assert!(index.point_label(Point::new(-1, 0)).is_empty());
    assert!(
        index.point_label(Point::new(8, 0)).is_empty(),
        "x = width is off the cells"
    );
    assert!(!index.point_label(Point::new(0, 0)).is_empty());
}

/// A file of several MiB, read in many chunks: the same index back, and the same refusals
/// of a damaged or short file, as the small files above.
#[test]
fn large_files_round_trip_and_are_checked_alike() {
    // 120 × 120 cells with a pillar every 12 cells: labels of about 14,000 points.
    let g = Grid::from_fn(120, 120, |x, y| !(x % 12 == 6 && y % 12 == 6));
    let index = HubIndex::build(&g, &mesh_from_grid(&g).unwrap()).unwrap();
    let bytes = encode_hub(&index);
    assert!(bytes.len() >= 4 << 20, "{} bytes: not large", bytes.len());
    let back = decode_hub(&bytes).unwrap();
    assert_eq!(encode_hub(&back), bytes);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("large.hub");
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(encode_hub(&read_hub(&path).unwrap()), bytes);
    let mut damaged = bytes.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x10;
    assert!(matches!(decode_hub(&damaged), Err(HubError::Checksum)));
    assert!(matches!(
        decode_hub(&bytes[..bytes.len() - 1000]),
        Err(HubError::Truncated)
    ));
}
