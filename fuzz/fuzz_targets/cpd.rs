//! CPD and shard decoders: any bytes give a checked database or a typed error, never a panic
//! or an allocation sized by an unchecked count. A decoded CPD answers every lookup without
//! panicking, and its path lengths are those of its own graph's edges.
//!
//! A checksum guards every file, so random bytes almost never reach the body decoder. The
//! first input byte therefore picks the mode: even, the rest of the input is a whole file (the
//! framing: magic, version, length, checksum); odd, it is a body that the target frames with a
//! correct prefix and SHA-256, as a file damaged before its checksum was written would be.
#![no_main]

#[path = "common/framing.rs"]
mod framing;

use framing::framed;
use libfuzzer_sys::fuzz_target;
use sha2::{Digest, Sha256};
use taut::cpd::FORMAT_VERSION;
use taut::cpd::encoding::{CPD_MAGIC, decode_cpd, decode_shard, encode_cpd};
use taut::cpd::shard::SHARD_MAGIC;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (cpd_bytes, shard_bytes) = if mode % 2 == 0 {
        (rest.to_vec(), rest.to_vec())
    } else {
        let sha256 = |b: &[u8]| <[u8; 32]>::from(Sha256::digest(b));
        (
            framed(&CPD_MAGIC, FORMAT_VERSION, rest, sha256),
            framed(&SHARD_MAGIC, FORMAT_VERSION, rest, sha256),
        )
    };
    let _ = decode_shard(&shard_bytes);
    let Ok(cpd) = decode_cpd(&cpd_bytes) else {
        return;
    };
    // Re-encoding is stable. (Not always the input bytes: postcard also accepts over-long
    // varints, so two files can hold the same database; the checksum covers either.)
    let encoded = encode_cpd(&cpd);
    let again = decode_cpd(&encoded).expect("encode_cpd output must decode");
    assert_eq!(encode_cpd(&again), encoded, "encode/decode must round-trip");
    let n = cpd.graph().node_count() as u32;
    let _ = cpd.stats();
    let mut path = Vec::new();
    for s in 0..n.min(12) {
        for t in (0..n.min(12)).chain([n, u32::MAX]) {
            let Some(len) = cpd.path(s, t, &mut path) else {
                continue;
            };
            assert_eq!((path.first(), path.last()), (Some(&s), Some(&t)));
            let sum: f64 = path
                .windows(2)
                .map(|w| cpd.graph().weight(w[0], w[1]))
                .sum();
            assert!((sum - len).abs() <= 1e-9 * (1.0 + len), "{len} vs {sum}");
        }
    }
});
