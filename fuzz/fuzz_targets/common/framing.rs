//! The frame of taut's binary files (CPDs, hub indexes), for the targets that feed their
//! decoders a body with a valid prefix and checksum.

/// `body` framed as a file: magic, version, body length, body, then `checksum` of all
/// before it (SHA-256 for CPDs, XXH3-128 for hub indexes).
pub fn framed<const N: usize>(
    magic: &[u8; 8],
    version: u32,
    body: &[u8],
    checksum: impl Fn(&[u8]) -> [u8; N],
) -> Vec<u8> {
    let mut file = Vec::with_capacity(20 + body.len() + N);
    file.extend_from_slice(magic);
    file.extend_from_slice(&version.to_le_bytes());
    file.extend_from_slice(&(body.len() as u64).to_le_bytes());
    file.extend_from_slice(body);
    let digest = checksum(&file);
    file.extend_from_slice(&digest);
    file
}
