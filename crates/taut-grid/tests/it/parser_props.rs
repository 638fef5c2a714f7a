//! Property tests of the `.map` and `.scen` readers and writers.
//!
//! - Random bytes, and random mutations of valid files (byte flips, byte overwrites, truncation,
//!   line duplication and deletion, inserted bytes), never make either parser panic; whatever
//!   they accept is written back by `to_text` into text that parses to the same value.
//! - A random `MapFile` (or `Scenario`) written with `to_text` parses back to itself.

use proptest::prelude::*;
use taut_grid::{LengthStyle, MapFile, Point, ScenEntry, ScenFormat, Scenario};

const ALPHABET: &[u8] = b".G@OTSW";

fn map_file() -> impl Strategy<Value = MapFile> {
    (1u32..24, 1u32..24).prop_flat_map(|(w, h)| {
        proptest::collection::vec(proptest::sample::select(ALPHABET), (w * h) as usize)
            .prop_map(move |tiles| MapFile::new(w, h, tiles).unwrap())
    })
}

fn length_style() -> impl Strategy<Value = LengthStyle> {
    prop_oneof![
        (0u8..=10).prop_map(LengthStyle::Fixed),
        Just(LengthStyle::Significant(6)),
    ]
}

fn scen_format() -> impl Strategy<Value = ScenFormat> {
    (
        prop_oneof![Just("1".to_owned()), Just("1.0".to_owned())],
        any::<bool>(),
        length_style(),
    )
        .prop_map(|(version, tabs, lengths)| ScenFormat {
            version,
            tabs,
            lengths,
        })
}

fn map_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9_]{1,12}\\.map",
        "maps/[a-z0-9]{1,6}/[a-zA-Z0-9_-]{1,12}\\.map",
        // Names with spaces need tab separation; the writer must notice.
        "[a-z]{1,5} [a-z]{1,5}\\.map",
    ]
}

fn scen_entry() -> impl Strategy<Value = ScenEntry> {
    (
        0u32..200,
        map_name(),
        1u32..3000,
        1u32..3000,
        any::<(u32, u32, u32, u32)>(),
        prop_oneof![0.0..5000.0f64, Just(0.0), (0u32..100).prop_map(f64::from)],
    )
        .prop_map(
            |(bucket, map, width, height, (a, b, c, d), octile)| ScenEntry {
                bucket,
                map,
                width,
                height,
                start: Point::new((a % width) as i32, (b % height) as i32),
                goal: Point::new((c % width) as i32, (d % height) as i32),
                octile,
                line: 0,
            },
        )
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        scen_format(),
        proptest::collection::vec(scen_entry(), 0..12),
    )
        .prop_map(|(format, mut entries)| {
            for (i, e) in entries.iter_mut().enumerate() {
                e.line = i + 2;
            }
            Scenario { format, entries }
        })
}

/// One edit of a file's bytes.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Set(usize, u8),
    Truncate(usize),
    DuplicateLine(usize),
    DeleteLine(usize),
    Insert(usize, Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (
            any::<usize>(),
            prop_oneof![
                proptest::sample::select(b"\n\r\t .@-+0123456789eE".to_vec()),
                any::<u8>()
            ]
        )
            .prop_map(|(i, b)| Mutation::Set(i, b)),
        any::<usize>().prop_map(Mutation::Truncate),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        any::<usize>().prop_map(Mutation::DeleteLine),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..6))
            .prop_map(|(i, b)| Mutation::Insert(i, b)),
    ]
}

fn apply(mut bytes: Vec<u8>, m: &Mutation) -> Vec<u8> {
    let len = bytes.len().max(1);
    match m {
        Mutation::Flip(i, b) => {
            if !bytes.is_empty() {
                bytes[i % len] ^= b;
            }
        }
        Mutation::Set(i, b) => {
            if !bytes.is_empty() {
                bytes[i % len] = *b;
            }
        }
        Mutation::Truncate(i) => bytes.truncate(i % len),
        Mutation::DuplicateLine(i) | Mutation::DeleteLine(i) => {
            let mut lines: Vec<Vec<u8>> =
                bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let k = i % lines.len();
            if matches!(m, Mutation::DuplicateLine(_)) {
                let l = lines[k].clone();
                lines.insert(k, l);
            } else {
                lines.remove(k);
            }
            bytes = lines.join(&b'\n');
        }
        Mutation::Insert(i, b) => {
            let at = i % (bytes.len() + 1);
            bytes.splice(at..at, b.iter().copied());
        }
    }
    bytes
}

/// Whatever the map parser accepts is written back into text that parses to the same map.
fn check_map(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(m) = MapFile::parse(bytes) {
        let again = MapFile::parse(m.to_text().as_bytes());
        prop_assert_eq!(again.as_ref().ok(), Some(&m));
    }
    Ok(())
}

/// Largest difference `to_text` may introduce in a length written in `style`.
fn tolerance(style: LengthStyle, v: f64) -> f64 {
    match style {
        LengthStyle::Fixed(d) => 0.5 * 10f64.powi(-i32::from(d)) + v.abs() * 1e-15,
        LengthStyle::Significant(d) => v.abs().max(1e-300) * 10f64.powi(1 - i32::from(d)),
    }
}

/// `to_text` of `s` parses to `s` (modulo line numbers and the rounding of lengths), and
/// writing that again gives the same text.
fn check_scen_round_trip(s: &Scenario) -> Result<(), TestCaseError> {
    let text = s.to_text();
    let again = Scenario::parse(text.as_bytes());
    prop_assert!(
        again.is_ok(),
        "to_text output does not parse: {:?}\n{}",
        again,
        text
    );
    let again = again.unwrap();
    prop_assert_eq!(again.entries.len(), s.entries.len());
    prop_assert_eq!(&again.format.version, &s.format.version);
    for (a, b) in s.entries.iter().zip(&again.entries) {
        prop_assert_eq!(
            (a.bucket, &a.map, a.width, a.height, a.start, a.goal),
            (b.bucket, &b.map, b.width, b.height, b.start, b.goal)
        );
        prop_assert!(
            (a.octile - b.octile).abs() <= tolerance(s.format.lengths, a.octile),
            "{} written {:?} read back as {}",
            a.octile,
            s.format.lengths,
            b.octile
        );
    }
    prop_assert_eq!(again.to_text(), text);
    Ok(())
}

/// A length far below one, written with all its decimals (21 here), reads back with as many:
/// found by reading the parser (it kept at most 17, and the text then wrote back as zero).
#[test]
fn tiny_lengths_keep_every_decimal() {
    for text in [
        "version 1\n0\tm.map\t8\t8\t0\t0\t1\t1\t79e-21\n",
        "version 1\n0\tm.map\t8\t8\t0\t0\t1\t1\t0.000000000000000000079\n",
    ] {
        let s = Scenario::parse(text.as_bytes()).unwrap();
        check_scen_round_trip(&s).unwrap();
        let again = Scenario::parse(s.to_text().as_bytes()).unwrap();
        assert_eq!(again.format.lengths, LengthStyle::Fixed(21), "{text:?}");
        assert_eq!(again.entries[0].octile, 7.9e-20);
    }
}

fn check_scen(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(s) = Scenario::parse(bytes) {
        check_scen_round_trip(&s)?;
    }
    Ok(())
}

proptest! {
    // 256 cases each by default; set PROPTEST_CASES to search longer.

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check_map(&bytes)?;
        check_scen(&bytes)?;
    }

    #[test]
    fn random_header_like_text_never_panics(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("type octile".to_owned()),
                "(height|width) [-+]?[0-9]{0,12}",
                Just("map".to_owned()),
                "[.@GOTSW]{0,6}",
                Just("version 1".to_owned()),
                "[0-9]{1,3}\t[a-z]{1,3}\\.map\t[0-9]{1,3}\t[0-9]{1,3}\t[0-9]{1,3}\t[0-9]{1,3}\t[0-9]{1,3}\t[0-9]{1,3}\t[0-9.e+-]{1,8}",
            ],
            0..10,
        ),
        crlf in any::<bool>(),
    ) {
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
        check_map(text.as_bytes())?;
        check_scen(text.as_bytes())?;
    }

    #[test]
    fn mutated_maps_never_panic(
        m in map_file(),
        crlf in any::<bool>(),
        edits in proptest::collection::vec(mutation(), 1..4),
    ) {
        let mut text = m.to_text();
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let bytes = edits.iter().fold(text.into_bytes(), apply);
        check_map(&bytes)?;
        check_scen(&bytes)?;
    }

    #[test]
    fn mutated_scenarios_never_panic(
        s in scenario(),
        edits in proptest::collection::vec(mutation(), 1..4),
    ) {
        let bytes = edits.iter().fold(s.to_text().into_bytes(), apply);
        check_scen(&bytes)?;
        check_map(&bytes)?;
    }

    #[test]
    fn map_to_text_parses_to_the_same_map(m in map_file()) {
        let text = m.to_text();
        prop_assert_eq!(MapFile::parse(text.as_bytes()).unwrap(), m.clone());
        // CRLF and a missing final newline read the same.
        prop_assert_eq!(MapFile::parse(text.replace('\n', "\r\n").as_bytes()).unwrap(), m.clone());
        prop_assert_eq!(MapFile::parse(text.trim_end().as_bytes()).unwrap(), m);
    }

    #[test]
    fn scenario_to_text_parses_to_the_same_scenario(s in scenario()) {
        check_scen_round_trip(&s)?;
    }
}

#[test]
fn mixed_separators_with_a_spaced_map_name_round_trip() {
    // The first entry decides the format (spaces), a later tab-separated entry names a map with
    // a space: writing everything with spaces would split that name into two fields.
    let text = "version 1\n0 a.map 4 4 0 0 1 1 1.41421\n1\tmy map.map\t4\t4\t0\t0\t2\t0\t2\n";
    let s = Scenario::parse(text.as_bytes()).unwrap();
    assert!(!s.format.tabs);
    let again = Scenario::parse(s.to_text().as_bytes()).unwrap();
    assert_eq!(again.entries[1].map, "my map.map");
    assert!(again.format.tabs);
}
