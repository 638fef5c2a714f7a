//! Which map characters are traversable.

/// The characters a MovingAI `.map` may contain.
pub const MOVINGAI_ALPHABET: &[u8] = b".G@OTSW";

/// A set of terrain characters treated as free; every other character of the alphabet is blocked.
///
/// The default is `. G S`, the rule of the 2023 any-angle competition whose validator checked
/// the reference optima. Some planners (the 2016 Java Anya) treat `S` as blocked: build that
/// set with [`FreeSet::from_chars`].
#[derive(Clone, PartialEq, Eq)]
pub struct FreeSet {
    free: [bool; 256],
}

impl FreeSet {
    /// A free set made of the given characters.
    pub fn from_chars(chars: &[u8]) -> Self {
        let mut free = [false; 256];
        for &c in chars {
            free[usize::from(c)] = true;
        }
        FreeSet { free }
    }

    /// Whether `c` is traversable.
    #[inline]
    pub fn is_free(&self, c: u8) -> bool {
        self.free[usize::from(c)]
    }

    /// The free characters, in byte order.
    pub fn chars(&self) -> Vec<u8> {
        (0..=255u8).filter(|&c| self.is_free(c)).collect()
    }
}

impl Default for FreeSet {
    fn default() -> Self {
        FreeSet::from_chars(b".GS")
    }
}

impl std::fmt::Debug for FreeSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FreeSet({:?})", String::from_utf8_lossy(&self.chars()))
    }
}

impl std::str::FromStr for FreeSet {
    type Err = std::convert::Infallible;
    /// Every byte of the string is a free character (`".GS"` is the default set).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(FreeSet::from_chars(s.as_bytes()))
    }
}
