//! Damaged files for the readers' corruption tests: random edits of a file's bytes, and the
//! frame repaired around an edited body, for taut's framed binary files (CPDs, hub indexes:
//! 8-byte magic, u32 version, u64 body length, body, checksum of all before it: SHA-256 for
//! CPDs, XXH3-128 for hub indexes).

use proptest::prelude::*;
use proptest::sample::Index;

/// Bytes before the body of a framed file: magic, version, body length.
pub const FRAME_PREFIX: usize = 8 + 4 + 8;

/// The checksum that closes a framed file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seal {
    /// SHA-256, 32 bytes: CPDs and their shards.
    Sha256,
    /// XXH3-128 as 16 little-endian bytes: hub indexes from format 4.
    Xxh3,
}

impl Seal {
    /// Bytes of the checksum.
    pub fn digest_len(self) -> usize {
        match self {
            Seal::Sha256 => 32,
            Seal::Xxh3 => 16,
        }
    }

    /// The checksum of `bytes`, as a file stores it.
    pub fn digest(self, bytes: &[u8]) -> Vec<u8> {
        match self {
            Seal::Sha256 => {
                use sha2::{Digest, Sha256};
                Sha256::digest(bytes).to_vec()
            }
            Seal::Xxh3 => xxhash_rust::xxh3::xxh3_128(bytes).to_le_bytes().to_vec(),
        }
    }
}

/// One edit: flip bits of a byte (`kind` 0), insert a byte (1) or remove one (2), at a place
/// chosen by the index.
pub type Edit = (Index, u8, u8);

/// One to three random edits.
pub fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec((any::<Index>(), any::<u8>(), 0u8..3), 1..4)
}

/// Applies `edits` to `bytes`: anywhere (`body_of` `None`), or only inside the body of a
/// file framed with that checksum, leaving its prefix and checksum for [`reseal`] to repair.
pub fn apply_edits(bytes: &mut Vec<u8>, edits: &[Edit], body_of: Option<Seal>) {
    for (at, byte, kind) in edits {
        let range = match body_of {
            Some(seal) if bytes.len() >= FRAME_PREFIX + seal.digest_len() => {
                FRAME_PREFIX..bytes.len() - seal.digest_len()
            }
            _ => 0..bytes.len(),
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

/// Sets the body length and the checksum of a file framed with `seal` whose body was
/// altered, so that the reader's structural checks (not the checksum) must catch the damage.
/// Files too short to hold a frame are returned as they are.
pub fn reseal(mut bytes: Vec<u8>, seal: Seal) -> Vec<u8> {
    let digest_len = seal.digest_len();
    if bytes.len() < FRAME_PREFIX + digest_len {
        return bytes;
    }
    let body_len = (bytes.len() - FRAME_PREFIX - digest_len) as u64;
    bytes[12..FRAME_PREFIX].copy_from_slice(&body_len.to_le_bytes());
    let end = bytes.len() - digest_len;
    let digest = seal.digest(&bytes[..end]);
    bytes[end..].copy_from_slice(&digest);
    bytes
}
