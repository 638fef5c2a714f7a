//! Exact interval endpoints: unnormalised fractions with small positive denominators.
//!
//! Every endpoint of an Anya interval lies on a ray from the node's root through a lattice
//! point, so its x coordinate is `n / d` with `d` a row distance (at most the map height,
//! below 2^20) and `|n|` below 2^41. Products of a numerator and a denominator therefore stay
//! below 2^61 and every comparison is an exact `i64` cross-multiplication; nothing is reduced,
//! because nothing needs to be (the tests compare with `taut_geom::Rational`).

use std::cmp::Ordering;

/// `n / d` with `d > 0`, not necessarily reduced.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frac {
    pub n: i64,
    pub d: i64,
}

impl Frac {
    /// The integer `x` written over denominator `d` (the row distance that keeps the ray
    /// invariant of [`crate::search`]).
    #[inline(always)]
    pub fn int_over(x: i32, d: i64) -> Frac {
        debug_assert!(d > 0);
        Frac {
            n: i64::from(x) * d,
            d,
        }
    }

    /// Whether the value is an integer.
    #[inline(always)]
    pub fn is_int(self) -> bool {
        self.n % self.d == 0
    }

    /// `floor(n / d)`.
    #[inline(always)]
    pub fn floor(self) -> i32 {
        self.n.div_euclid(self.d) as i32
    }

    /// The value as the integer it is (callers check [`Frac::is_int`]).
    #[inline(always)]
    pub fn as_int(self) -> i32 {
        debug_assert!(self.is_int());
        (self.n / self.d) as i32
    }

    #[inline(always)]
    pub fn to_f64(self) -> f64 {
        self.n as f64 / self.d as f64
    }

    /// Exact comparison with another fraction.
    #[inline(always)]
    pub fn cmp(self, o: Frac) -> Ordering {
        (self.n * o.d).cmp(&(o.n * self.d))
    }

    /// Exact comparison with an integer.
    #[inline(always)]
    pub fn cmp_int(self, x: i32) -> Ordering {
        self.n.cmp(&(i64::from(x) * self.d))
    }

    #[inline(always)]
    pub fn lt(self, o: Frac) -> bool {
        self.cmp(o) == Ordering::Less
    }

    #[inline(always)]
    pub fn le(self, o: Frac) -> bool {
        self.cmp(o) != Ordering::Greater
    }

    #[inline(always)]
    pub fn max(self, o: Frac) -> Frac {
        if self.lt(o) { o } else { self }
    }

    #[inline(always)]
    pub fn min(self, o: Frac) -> Frac {
        if o.lt(self) { o } else { self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_and_order() {
        let f = |n, d| Frac { n, d };
        assert_eq!(f(7, 2).floor(), 3);
        assert_eq!(f(-7, 2).floor(), -4);
        assert_eq!(f(6, 3).floor(), 2);
        assert!(f(6, 3).is_int() && !f(7, 3).is_int());
        assert_eq!(f(2, 4).cmp(f(1, 2)), Ordering::Equal);
        assert!(f(1, 3).lt(f(1, 2)));
        assert_eq!(f(9, 3).cmp_int(3), Ordering::Equal);
        assert_eq!(Frac::int_over(5, 4).as_int(), 5);
        // Agrees with the normalised rationals of taut-geom.
        for (a, b) in [((1, 3), (2, 7)), ((-5, 2), (-9, 4)), ((4, 8), (1, 2))] {
            let (x, y) = (f(a.0, a.1), f(b.0, b.1));
            let (rx, ry) = (
                taut_geom::Rational::new(a.0, a.1),
                taut_geom::Rational::new(b.0, b.1),
            );
            assert_eq!(x.cmp(y), rx.cmp(&ry));
            assert_eq!(i64::from(x.floor()), rx.floor().to_integer());
        }
    }
}
