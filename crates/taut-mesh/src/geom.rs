//! Points of the plane ([`MeshPoint`]) and orientation predicates on them, exact for every
//! finite input.

/// A point of the plane (mesh coordinates).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default)]
pub struct MeshPoint {
    /// Abscissa.
    pub x: f64,
    /// Ordinate.
    pub y: f64,
}

impl MeshPoint {
    /// A point.
    #[inline]
    pub const fn new(x: f64, y: f64) -> Self {
        MeshPoint { x, y }
    }

    /// Euclidean distance to `other`. (`sqrt(dx² + dy²)`, not `hypot`, which is several times
    /// slower; coordinates are bounded by 1e150, see `MeshError::NotFinite`, so the squares
    /// cannot overflow.)
    #[inline]
    pub fn dist(self, other: MeshPoint) -> f64 {
        let (dx, dy) = (self.x - other.x, self.y - other.y);
        (dx * dx + dy * dy).sqrt()
    }
}

impl std::fmt::Display for MeshPoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Twice the signed area of the triangle `a b c`: positive when `c` is to the left of the
/// directed line `a -> b` (counter-clockwise), negative to the right, zero when collinear. The
/// sign is exact for all finite inputs (Shewchuk's adaptive predicate, from the `robust`
/// crate); the magnitude is approximate.
#[inline]
pub fn orient(a: MeshPoint, b: MeshPoint, c: MeshPoint) -> f64 {
    robust::orient2d(
        robust::Coord { x: a.x, y: a.y },
        robust::Coord { x: b.x, y: b.y },
        robust::Coord { x: c.x, y: c.y },
    )
}

/// The sign of [`orient`]: 1, 0 or -1.
#[inline]
pub fn orient_sign(a: MeshPoint, b: MeshPoint, c: MeshPoint) -> i32 {
    let o = orient(a, b, c);
    (o > 0.0) as i32 - (o < 0.0) as i32
}

/// The sign of the orientation of three points whose coordinates are integers of magnitude at
/// most [`crate::mesh::INTEGER_LIMIT`]: the determinant is computed exactly in plain `f64`.
#[inline]
pub fn orient_sign_integer(a: MeshPoint, b: MeshPoint, c: MeshPoint) -> i32 {
    let o = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    (o > 0.0) as i32 - (o < 0.0) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs() {
        let p = MeshPoint::new;
        assert_eq!(orient_sign(p(0.0, 0.0), p(1.0, 0.0), p(0.0, 1.0)), 1);
        assert_eq!(orient_sign(p(0.0, 0.0), p(1.0, 0.0), p(0.0, -1.0)), -1);
        assert_eq!(orient_sign(p(0.0, 0.0), p(1.0, 1.0), p(3.0, 3.0)), 0);
        // A near-collinear case that naive f64 gets wrong.
        let a = p(0.5, 0.5);
        let b = p(12.0, 12.0);
        let c = p(24.0, 24.0 + 2f64.powi(-48));
        assert_eq!(orient_sign(a, b, c), 1);
        for (x, y) in [(3.0, 7.0), (-5.0, 2.0), (0.0, 0.0)] {
            let c = p(x, y);
            let (a, b) = (p(1.0, 2.0), p(-4.0, 9.0));
            assert_eq!(orient_sign(a, b, c), orient_sign_integer(a, b, c));
        }
    }
}
