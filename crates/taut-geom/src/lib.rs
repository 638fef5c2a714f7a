//! Exact 2-D geometry for any-angle planning on grid maps.
//!
//! Every decision an optimal grid planner makes (is this point visible, which side of a line
//! is that corner on, where does a ray through two points meet a grid row) is made here,
//! exactly, over integers and rationals. Floating point appears only in [`Point::dist`] and
//! [`RowPoint::dist`], which compute costs from points that are already exact.
//!
//! # Coordinates and bounds
//! Lattice coordinates are `i32` and must lie in `[-MAX_COORD, MAX_COORD]` (2^20): that covers
//! every map up to 2^20 × 2^20 cells, with room for the padding ring around it. A point on a
//! grid row is a [`RowPoint`]: an exact rational `x` and an integer row `y`. Rationals produced
//! by [`project`] from lattice points have denominators at most `2 * MAX_COORD` and numerators
//! at most `MAX_COORD` times that, so every product formed here fits in `i128` (see
//! `docs/architecture.md`). Functions that take rationals from outside check these bounds and
//! report [`GeomError::OutOfRange`] instead of overflowing.
//!
//! # Example
//! ```
//! use taut_geom::{Point, RowPoint, Rational, project, orient, Orientation};
//!
//! // A ray from (0, 0) through (1, 3) meets row 6 at x = 2.
//! let root = Point::new(0, 0);
//! let hit = project(root, RowPoint::lattice(1, 3), 6).unwrap();
//! assert_eq!(hit, Rational::from_integer(2));
//!
//! // Through (2, 3) it meets row 1 at x = 2/3, exactly.
//! let hit = project(root, RowPoint::lattice(2, 3), 1).unwrap();
//! assert_eq!(hit, Rational::new(2, 3));
//!
//! // Orientation uses y-down screen coordinates: x east, y south.
//! let o = orient(RowPoint::lattice(0, 0), RowPoint::lattice(4, 0), RowPoint::lattice(2, 1));
//! assert_eq!(o, Orientation::Clockwise);
//! ```

use std::cmp::Ordering;

use num_integer::Integer;

/// Exact rational number used for x coordinates on grid rows.
pub type Rational = num_rational::Ratio<i64>;

/// Largest absolute lattice coordinate the exact predicates are proven for (2^20).
pub const MAX_COORD: i32 = 1 << 20;

/// Largest denominator a [`Rational`] coordinate may have (2^21: a difference of two
/// coordinates in range).
pub const MAX_DENOM: i64 = 2 * MAX_COORD as i64;

/// Errors of the exact geometry layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GeomError {
    /// A coordinate or rational lies outside the range for which exactness is guaranteed.
    #[error("coordinate out of the exact range (|x| <= 2^20, denominator <= 2^21)")]
    OutOfRange,
    /// A projection was asked of a ray that is parallel to the target row.
    #[error("ray is parallel to the target row")]
    Parallel,
}

/// A lattice point: the corner shared by up to four grid cells.
///
/// `(x, y)` is the top-left corner of cell `(x, y)`; x grows east and y grows south.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Point {
    /// Column of the lattice point (east is positive).
    pub x: i32,
    /// Row of the lattice point (south is positive).
    pub y: i32,
}

impl Point {
    /// A lattice point.
    #[inline]
    pub const fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }

    /// Euclidean distance to `other`.
    #[inline]
    pub fn dist(self, other: Point) -> f64 {
        let dx = f64::from(other.x - self.x);
        let dy = f64::from(other.y - self.y);
        (dx * dx + dy * dy).sqrt()
    }

    /// Octile distance (8-connected moves of cost 1 and √2) to `other`.
    #[inline]
    pub fn octile(self, other: Point) -> f64 {
        let dx = (other.x - self.x).unsigned_abs();
        let dy = (other.y - self.y).unsigned_abs();
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        f64::from(hi - lo) + f64::from(lo) * std::f64::consts::SQRT_2
    }

    /// Whether both coordinates lie within `[-MAX_COORD, MAX_COORD]`.
    #[inline]
    pub fn in_exact_range(self) -> bool {
        self.x.unsigned_abs() <= MAX_COORD as u32 && self.y.unsigned_abs() <= MAX_COORD as u32
    }
}

impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// A point on a horizontal grid line: exact rational `x`, integer row `y`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RowPoint {
    /// Exact x coordinate.
    pub x: Rational,
    /// The grid row (horizontal lattice line) the point lies on.
    pub y: i32,
}

impl RowPoint {
    /// A point on row `y` at rational `x`.
    #[inline]
    pub fn new(x: Rational, y: i32) -> Self {
        RowPoint { x, y }
    }

    /// The lattice point `(x, y)` as a row point.
    #[inline]
    pub fn lattice(x: i32, y: i32) -> Self {
        RowPoint {
            x: Rational::from_integer(i64::from(x)),
            y,
        }
    }

    /// The lattice point this is, if `x` is an integer.
    pub fn to_lattice(self) -> Option<Point> {
        if self.x.is_integer() {
            i32::try_from(self.x.to_integer())
                .ok()
                .map(|x| Point::new(x, self.y))
        } else {
            None
        }
    }

    /// `x` as the nearest `f64`.
    #[inline]
    pub fn x_f64(self) -> f64 {
        to_f64(self.x)
    }

    /// Euclidean distance to `other`, computed in `f64` from the exact coordinates.
    #[inline]
    pub fn dist(self, other: RowPoint) -> f64 {
        let dx = to_f64(other.x - self.x);
        let dy = f64::from(other.y - self.y);
        (dx * dx + dy * dy).sqrt()
    }

    /// Whether the coordinates satisfy the bounds the exact predicates are proven for.
    #[inline]
    pub fn in_exact_range(self) -> bool {
        rational_in_range(self.x) && self.y.unsigned_abs() <= MAX_COORD as u32
    }
}

impl From<Point> for RowPoint {
    fn from(p: Point) -> Self {
        RowPoint::lattice(p.x, p.y)
    }
}

/// Whether a rational lies in the exact range: `|x| <= MAX_COORD` and denominator `<= MAX_DENOM`.
#[inline]
pub fn rational_in_range(x: Rational) -> bool {
    let d = *x.denom();
    d > 0 && d <= MAX_DENOM && x.numer().unsigned_abs() <= (MAX_COORD as u64) * (d as u64)
}

/// Converts a rational to the nearest `f64` (exact when numerator and denominator are below 2^53).
#[inline]
pub fn to_f64(x: Rational) -> f64 {
    *x.numer() as f64 / *x.denom() as f64
}

/// Compares two rationals exactly by cross-multiplying in `i128`.
///
/// Valid for any `i64` numerators and positive `i64` denominators (the products fit in
/// `i128`), which every [`Rational`] built by `num-rational` has.
#[inline]
pub fn cmp_rational(a: Rational, b: Rational) -> Ordering {
    let l = i128::from(*a.numer()) * i128::from(*b.denom());
    let r = i128::from(*b.numer()) * i128::from(*a.denom());
    l.cmp(&r)
}

/// Compares a rational with an integer exactly.
#[inline]
pub fn cmp_rational_int(a: Rational, b: i64) -> Ordering {
    let r = i128::from(b) * i128::from(*a.denom());
    i128::from(*a.numer()).cmp(&r)
}

/// The largest integer not above `x`.
#[inline]
pub fn floor(x: Rational) -> i64 {
    Integer::div_floor(x.numer(), x.denom())
}

/// The smallest integer not below `x`.
#[inline]
pub fn ceil(x: Rational) -> i64 {
    -Integer::div_floor(&-*x.numer(), x.denom())
}

/// Turn direction of three points, in y-down screen coordinates (x east, y south).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// `c` is to the right of the directed line `a → b` as seen on screen (a clockwise turn).
    Clockwise,
    /// `c` is to the left of `a → b` on screen (a counter-clockwise turn).
    CounterClockwise,
    /// The three points are on one line.
    Collinear,
}

/// Exact orientation of `c` relative to the directed line `a → b`.
///
/// On screen (y grows downwards) a positive cross product `(b - a) × (c - a)` is a clockwise
/// turn. Exact for points within [`RowPoint::in_exact_range`]: with denominators `d <= 2^21`
/// and numerators `<= 2^20 d`, every intermediate product is below 2^106 (see the comments in
/// the body); inputs outside that range still get an exact answer through a 256-bit fallback.
pub fn orient(a: RowPoint, b: RowPoint, c: RowPoint) -> Orientation {
    debug_assert!(a.in_exact_range() && b.in_exact_range() && c.in_exact_range());
    // (bx - ax) = n1 / d1, (cx - ax) = n2 / d2, with d1 = da*db, d2 = da*dc (unreduced).
    let (an, ad) = (i128::from(*a.x.numer()), i128::from(*a.x.denom()));
    let (bn, bd) = (i128::from(*b.x.numer()), i128::from(*b.x.denom()));
    let (cn, cd) = (i128::from(*c.x.numer()), i128::from(*c.x.denom()));
    let dyb = i128::from(b.y) - i128::from(a.y);
    let dyc = i128::from(c.y) - i128::from(a.y);
    // cross = (bx-ax)*dyc - dyb*(cx-ax)
    //       = [(bn*ad - an*bd) * dyc * cd - dyb * (cn*ad - an*cd) * bd] / (ad*bd*cd)
    let n1 = bn * ad - an * bd; // |.| < 2^(41+21+1)
    let n2 = cn * ad - an * cd;
    // Compare n1*dyc/(ad*bd) with dyb*n2/(ad*cd)  <=>  n1*dyc*cd vs dyb*n2*bd (ad > 0).
    // Magnitudes in range: |n1|, |n2| < 2^63 and |dyc * cd|, |dyb * bd| <= 2^42, so both
    // products are below 2^105 and the i128 path of cmp_products decides. Out-of-range inputs
    // fall through to its exact 256-bit comparison.
    let s = cmp_products(n1, dyc * cd, dyb * bd, n2);
    match s {
        Ordering::Greater => Orientation::Clockwise,
        Ordering::Less => Orientation::CounterClockwise,
        Ordering::Equal => Orientation::Collinear,
    }
}

/// Compares `a*b` with `c*d` exactly, for `i128` factors whose products may exceed `i128`.
fn cmp_products(a: i128, b: i128, c: i128, d: i128) -> Ordering {
    if let (Some(l), Some(r)) = (a.checked_mul(b), c.checked_mul(d)) {
        return l.cmp(&r);
    }
    let sl = a.signum() * b.signum();
    let sr = c.signum() * d.signum();
    if sl != sr {
        return sl.cmp(&sr);
    }
    // Same sign, both non-zero: compare magnitudes as 256-bit products.
    let ml = mul_u256(a.unsigned_abs(), b.unsigned_abs());
    let mr = mul_u256(c.unsigned_abs(), d.unsigned_abs());
    let m = ml.cmp(&mr);
    if sl < 0 { m.reverse() } else { m }
}

/// Full 256-bit product of two `u128` as (high, low).
fn mul_u256(a: u128, b: u128) -> (u128, u128) {
    let mask = u128::from(u64::MAX);
    let (a1, a0) = (a >> 64, a & mask);
    let (b1, b0) = (b >> 64, b & mask);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 64) + (p01 & mask) + (p10 & mask);
    let lo = (p00 & mask) | (mid << 64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

/// Where the ray from `root` through `through` meets the horizontal line `y = row`.
///
/// This is the projection Anya uses to push an interval from one row to the next. The result
/// is reduced, so projecting a point that itself came from [`project`] off the same root keeps
/// denominators bounded by the row distance (at most [`MAX_DENOM`]).
///
/// # Errors
/// [`GeomError::Parallel`] when `through` lies on the root's row, and
/// [`GeomError::OutOfRange`] when an input or the result is outside the exact range.
pub fn project(root: Point, through: RowPoint, row: i32) -> Result<Rational, GeomError> {
    if !root.in_exact_range() || !through.in_exact_range() || row.unsigned_abs() > MAX_COORD as u32
    {
        return Err(GeomError::OutOfRange);
    }
    let dy = i128::from(through.y) - i128::from(root.y);
    if dy == 0 {
        return Err(GeomError::Parallel);
    }
    // x = rx + (tx - rx) * (row - ry) / dy, with tx = tn / td.
    let (tn, td) = (
        i128::from(*through.x.numer()),
        i128::from(*through.x.denom()),
    );
    let rx = i128::from(root.x);
    let k = i128::from(row) - i128::from(root.y);
    // numerator / denominator = (rx*td*dy + (tn - rx*td) * k) / (td * dy); all < 2^85.
    let mut num = rx * td * dy + (tn - rx * td) * k;
    let mut den = td * dy;
    if den < 0 {
        num = -num;
        den = -den;
    }
    let g = num.gcd(&den);
    let (num, den) = (num / g, den / g);
    let (Ok(num), Ok(den)) = (i64::try_from(num), i64::try_from(den)) else {
        return Err(GeomError::OutOfRange);
    };
    let x = Rational::new_raw(num, den);
    if rational_in_range(x) {
        Ok(x)
    } else {
        Err(GeomError::OutOfRange)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use proptest::prelude::*;

    fn big_rat(x: Rational) -> (BigInt, BigInt) {
        (BigInt::from(*x.numer()), BigInt::from(*x.denom()))
    }

    fn big_orient(a: RowPoint, b: RowPoint, c: RowPoint) -> Orientation {
        // cross = (bx-ax)(cy-ay) - (by-ay)(cx-ax) over a common denominator ad*bd*cd > 0.
        let (an, ad) = big_rat(a.x);
        let (bn, bd) = big_rat(b.x);
        let (cn, cd) = big_rat(c.x);
        let bx_ax = (&bn * &ad - &an * &bd) * &cd; // over ad*bd*cd
        let cx_ax = (&cn * &ad - &an * &cd) * &bd;
        let dyb = BigInt::from(b.y - a.y);
        let dyc = BigInt::from(c.y - a.y);
        let cross = bx_ax * dyc - dyb * cx_ax;
        match cross.sign() {
            num_bigint::Sign::Plus => Orientation::Clockwise,
            num_bigint::Sign::Minus => Orientation::CounterClockwise,
            num_bigint::Sign::NoSign => Orientation::Collinear,
        }
    }

    fn coord() -> impl Strategy<Value = i32> {
        prop_oneof![
            -MAX_COORD..=MAX_COORD,
            -8..=8i32,
            Just(MAX_COORD),
            Just(-MAX_COORD)
        ]
    }

    fn rational() -> impl Strategy<Value = Rational> {
        (1..=MAX_DENOM, any::<u64>(), any::<bool>()).prop_map(|(d, n, neg)| {
            let lim = (MAX_COORD as u64) * d as u64;
            let n = (n % (lim + 1)) as i64;
            Rational::new(if neg { -n } else { n }, d)
        })
    }

    fn row_point() -> impl Strategy<Value = RowPoint> {
        prop_oneof![
            (rational(), coord()).prop_map(|(x, y)| RowPoint::new(x, y)),
            (coord(), coord()).prop_map(|(x, y)| RowPoint::lattice(x, y)),
        ]
    }

    proptest! {
        #[test]
        fn orient_matches_bigint(a in row_point(), b in row_point(), c in row_point()) {
            prop_assert_eq!(orient(a, b, c), big_orient(a, b, c));
        }

        #[test]
        fn orient_collinear_on_projection(rx in -300..300i32, ry in -300..300i32,
                                          tx in -300..300i32, dy in 1..300i32, row in -300..300i32) {
            // |x| <= 300 + 600 * 600: inside the exact range, so the projection must succeed.
            let root = Point::new(rx, ry);
            let t = RowPoint::lattice(tx, ry + dy);
            let x = project(root, t, row).unwrap();
            prop_assert_eq!(orient(root.into(), t, RowPoint::new(x, row)), Orientation::Collinear);
        }

        #[test]
        fn project_matches_bigint(rx in coord(), ry in coord(), t in row_point(), row in coord()) {
            let root = Point::new(rx, ry);
            prop_assume!(t.y != ry);
            match project(root, t, row) {
                Ok(x) => {
                    // x*den == exact value: check (x - rx) * (ty - ry) == (tx - rx) * (row - ry).
                    let (xn, xd) = big_rat(x);
                    let (tn, td) = big_rat(t.x);
                    let rxb = BigInt::from(rx);
                    let lhs = (&xn - &rxb * &xd) * BigInt::from(t.y - ry) * &td;
                    let rhs = (&tn - &rxb * &td) * BigInt::from(row - ry) * &xd;
                    prop_assert_eq!(lhs, rhs);
                    prop_assert!(rational_in_range(x));
                }
                Err(e) => prop_assert_eq!(e, GeomError::OutOfRange),
            }
        }

        #[test]
        fn repeated_projection_keeps_denominators_bounded(rx in -300..300i32, ry in -300..300i32,
                                                          cx in -300..300i32, dy in 1..300i32,
                                                          rows in proptest::collection::vec(-300..300i32, 1..20)) {
            let root = Point::new(rx, ry);
            let mut p = RowPoint::lattice(cx, ry + dy);
            for row in rows {
                if row == ry { continue; }
                let x = project(root, p, row).unwrap();
                // Every point on the ray root -> c has x = rx + (cx - rx)(row - ry)/dy: the reduced
                // denominator divides dy.
                prop_assert_eq!(i64::from(dy) % *x.denom(), 0);
                p = RowPoint::new(x, row);
            }
        }

        #[test]
        fn cmp_rational_matches_bigint(a in rational(), b in rational()) {
            let (an, ad) = big_rat(a);
            let (bn, bd) = big_rat(b);
            prop_assert_eq!(cmp_rational(a, b), (an * bd).cmp(&(bn * ad)));
            prop_assert_eq!(cmp_rational(a, b), a.cmp(&b));
        }

        #[test]
        fn floor_ceil_bracket(a in rational()) {
            let f = floor(a);
            let c = ceil(a);
            prop_assert!(cmp_rational_int(a, f) != Ordering::Less);
            prop_assert!(cmp_rational_int(a, c) != Ordering::Greater);
            prop_assert!(c - f <= 1);
            prop_assert_eq!(c == f, a.is_integer());
        }

        #[test]
        fn mul_u256_matches_bigint(a in any::<u128>(), b in any::<u128>()) {
            let (hi, lo) = mul_u256(a, b);
            let got = (BigInt::from(hi) << 128) + BigInt::from(lo);
            prop_assert_eq!(got, BigInt::from(a) * BigInt::from(b));
        }
    }

    #[test]
    fn project_rejects_parallel_and_out_of_range() {
        let r = Point::new(0, 0);
        assert_eq!(
            project(r, RowPoint::lattice(3, 0), 5),
            Err(GeomError::Parallel)
        );
        assert_eq!(
            project(r, RowPoint::lattice(MAX_COORD, 1), MAX_COORD),
            Err(GeomError::OutOfRange)
        );
        assert_eq!(
            project(Point::new(MAX_COORD + 1, 0), RowPoint::lattice(0, 1), 2),
            Err(GeomError::OutOfRange)
        );
    }

    #[test]
    fn distances() {
        assert_eq!(Point::new(0, 0).dist(Point::new(3, 4)), 5.0);
        assert!(
            (Point::new(0, 0).octile(Point::new(3, 1)) - (2.0 + std::f64::consts::SQRT_2)).abs()
                < 1e-12
        );
        let a = RowPoint::new(Rational::new(1, 2), 0);
        let b = RowPoint::new(Rational::new(1, 2), 3);
        assert_eq!(a.dist(b), 3.0);
    }
}
