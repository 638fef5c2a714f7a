//! Damaged files for the readers' corruption tests: random edits of a file's bytes, and the
//! frame repaired around an edited body, for taut's framed binary files (CPDs, hub indexes:
//! 8-byte magic, u32 version, u64 body length, body, SHA-256 of all before it).

use proptest::prelude::*;
use proptest::sample::Index;

/// Bytes before the body of a framed file: magic, version, body length.
pub const FRAME_PREFIX: usize = 8 + 4 + 8;
/// Bytes of the trailing SHA-256.
pub const FRAME_DIGEST: usize = 32;

/// One edit: flip bits of a byte (`kind` 0), insert a byte (1) or remove one (2), at a place
/// chosen by the index.
pub type Edit = (Index, u8, u8);

/// One to three random edits.
pub fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec((any::<Index>(), any::<u8>(), 0u8..3), 1..4)
}

/// Applies `edits` to `bytes`: anywhere, or (`body_only`) only inside the body of a framed
/// file, leaving its prefix and checksum for [`reseal`] to repair.
pub fn apply_edits(bytes: &mut Vec<u8>, edits: &[Edit], body_only: bool) {
    for (at, byte, kind) in edits {
        let range = if body_only && bytes.len() >= FRAME_PREFIX + FRAME_DIGEST {
            FRAME_PREFIX..bytes.len() - FRAME_DIGEST
        } else {
            0..bytes.len()
        };
        match kind {
            0 if !range.is_empty() => bytes[range.start + at.index(range.len())] ^= byte | 1,
            1 => bytes.insert(range.start + at.index(range.len() + 1), *byte),
            _ if !range.is_empty() => {
                bytes.remove(range.start + at.index(range.len()));
            }
            _ => {}
        }
    }
}

/// Sets the body length and the SHA-256 of a framed file whose body was altered, so that the
/// reader's structural checks (not the checksum) must catch the damage. Files too short to
/// hold a frame are returned as they are.
pub fn reseal(mut bytes: Vec<u8>) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    if bytes.len() < FRAME_PREFIX + FRAME_DIGEST {
        return bytes;
    }
    let body_len = (bytes.len() - FRAME_PREFIX - FRAME_DIGEST) as u64;
    bytes[12..FRAME_PREFIX].copy_from_slice(&body_len.to_le_bytes());
    let end = bytes.len() - FRAME_DIGEST;
    let digest = Sha256::digest(&bytes[..end]);
    bytes[end..].copy_from_slice(&digest);
    bytes
}
