//! The frame of taut's binary files (CPDs, hub indexes), for the targets that feed their
//! decoders a body with a valid prefix and checksum.

use sha2::{Digest, Sha256};

/// `body` framed as a file: magic, version, body length, body, SHA-256 of all before it.
pub fn framed(magic: &[u8; 8], version: u32, body: &[u8]) -> Vec<u8> {
    let mut file = Vec::with_capacity(20 + body.len() + 32);
    file.extend_from_slice(magic);
    file.extend_from_slice(&version.to_le_bytes());
    file.extend_from_slice(&(body.len() as u64).to_le_bytes());
    file.extend_from_slice(body);
    let digest = Sha256::digest(&file);
    file.extend_from_slice(&digest);
    file
}
