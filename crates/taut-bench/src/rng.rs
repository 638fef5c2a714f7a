//! The bench's random numbers: one small generator written out here, so that a recorded seed
//! draws the same maps and queries whatever the dependency versions.

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, well-mixed 64-bit generator. It is
/// written out here, not taken from a crate, so that a recorded seed draws the same queries
/// whatever the dependency versions.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (`n > 0`), by Lemire's multiply-shift; the bias, below
    /// `n / 2^64`, is immaterial for maps of fewer than 2^32 cells.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}
