//! Exact interval endpoints on rays: a mixed fraction and the ray's slope, no division per row.
//!
//! Every endpoint of an Anya cone interval lies on a ray from the node's root through a
//! lattice point, so its x coordinate is `q + r / d` with `d` a row distance (at most the map
//! height, below 2^20). The endpoint also carries the ray's slope, `sq + sr / d` columns per
//! row, over the same denominator: projecting the endpoint one row further from the root is
//! then an addition with one carry, exact and without a division. The only divisions happen
//! when an endpoint is created at a lattice point ([`Frac::on_ray`]): one 32-bit division for
//! the slope of the new ray.
//!
//! Nothing is reduced, because nothing needs to be: every comparison first compares the
//! integer parts and, only when they are equal, cross-multiplies the remainders (below 2^20
//! each, so the products fit in `i64` with room to spare). The unit tests compare with
//! `taut_geom::Rational`.

use std::cmp::Ordering;

/// `q + r / d` with `0 <= r < d`, on a ray of slope `sq + sr / d` per row (`0 <= sr < d`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frac {
    q: i32,
    r: i32,
    d: i32,
    sq: i32,
    sr: i32,
}

impl Frac {
    /// The lattice x `x` at row distance `k >= 1` from a root at `rx`: on the ray from the
    /// root through `x`, whose slope is `(x - rx) / k` per row.
    #[inline(always)]
    pub fn on_ray(x: i32, k: i32, rx: i32) -> Frac {
        debug_assert!(k > 0);
        let dx = x - rx;
        // Steep rays (less than a column per row) need no division.
        let (sq, sr) = if k == 1 {
            (dx, 0)
        } else if (0..k).contains(&dx) {
            (0, dx)
        } else if (-k..0).contains(&dx) {
            (-1, dx + k)
        } else {
            (dx.div_euclid(k), dx.rem_euclid(k))
        };
        Frac {
            q: x,
            r: 0,
            d: k,
            sq,
            sr,
        }
    }

    /// The integer `x` as an endpoint of a flat interval (no ray: never projected).
    #[inline(always)]
    pub fn int(x: i32) -> Frac {
        Frac {
            q: x,
            r: 0,
            d: 1,
            sq: 0,
            sr: 0,
        }
    }

    /// The point one row past a lattice point `e`, on the ray that reached `e` from a root
    /// `k >= 1` rows and `dx` columns back: `e + dx / k`, written at distance 1 from `e` as
    /// a new root (the slope per row is `dx / k` too).
    #[inline(always)]
    pub fn continued(e: i32, dx: i32, k: i32) -> Frac {
        debug_assert!(k > 0);
        let (sq, sr) = (dx.div_euclid(k), dx.rem_euclid(k));
        Frac {
            q: e + sq,
            r: sr,
            d: k,
            sq,
            sr,
        }
    }

    /// The endpoint one row further along its ray.
    #[inline(always)]
    pub fn project(self) -> Frac {
        let mut q = self.q + self.sq;
        let mut r = self.r + self.sr;
        if r >= self.d {
            r -= self.d;
            q += 1;
        }
        Frac { q, r, ..self }
    }

    /// Whether the endpoint lies on the ray from a root at `rx` that it claims, at row
    /// distance `k` (a debugging check of the invariant above).
    pub fn on_ray_from(self, rx: i32, k: i32) -> bool {
        let (d, k) = (i64::from(self.d), i64::from(k));
        let at = (i64::from(self.q) - i64::from(rx)) * d + i64::from(self.r);
        at == (i64::from(self.sq) * d + i64::from(self.sr)) * k
    }

    /// Whether the value is an integer.
    #[inline(always)]
    pub fn is_int(self) -> bool {
        self.r == 0
    }

    /// `floor(value)`.
    #[inline(always)]
    pub fn floor(self) -> i32 {
        self.q
    }

    /// `ceil(value)`.
    #[inline(always)]
    pub fn ceil(self) -> i32 {
        self.q + i32::from(self.r > 0)
    }

    /// The value as the integer it is (callers check [`Frac::is_int`]).
    #[inline(always)]
    pub fn as_int(self) -> i32 {
        debug_assert!(self.is_int());
        self.q
    }

    /// The value as an exact rational, for traces and tests.
    pub fn to_rational(self) -> taut_geom::Rational {
        taut_geom::Rational::new(
            i64::from(self.q) * i64::from(self.d) + i64::from(self.r),
            i64::from(self.d),
        )
    }

    #[inline(always)]
    pub fn to_f64(self) -> f64 {
        f64::from(self.q) + f64::from(self.r) / f64::from(self.d)
    }

    /// Exact comparison with another endpoint.
    #[inline(always)]
    pub fn cmp(self, o: Frac) -> Ordering {
        match self.q.cmp(&o.q) {
            Ordering::Equal => {
                (i64::from(self.r) * i64::from(o.d)).cmp(&(i64::from(o.r) * i64::from(self.d)))
            }
            c => c,
        }
    }

    /// Exact comparison with an integer.
    #[inline(always)]
    pub fn cmp_int(self, x: i32) -> Ordering {
        match self.q.cmp(&x) {
            Ordering::Equal if self.r > 0 => Ordering::Greater,
            c => c,
        }
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
    use taut_geom::Rational;

    fn rat(f: Frac) -> Rational {
        f.to_rational()
    }

    #[test]
    fn projection_follows_the_ray_exactly() {
        // Rays from roots at every small x through lattice points at several distances,
        // projected 40 rows: always root + (x - root) * (k + j) / k.
        for rx in -3..4 {
            for x in -7..8 {
                for k in 1..6 {
                    let mut f = Frac::on_ray(x, k, rx);
                    for j in 0..40 {
                        let want = Rational::from_integer(i64::from(rx))
                            + Rational::new(i64::from(x - rx) * i64::from(k + j), i64::from(k));
                        assert_eq!(rat(f), want, "rx {rx} x {x} k {k} j {j}");
                        assert_eq!(i64::from(f.floor()), want.floor().to_integer());
                        assert_eq!(i64::from(f.ceil()), want.ceil().to_integer());
                        assert_eq!(f.is_int(), want.is_integer());
                        assert!(f.on_ray_from(rx, k + j));
                        f = f.project();
                    }
                }
            }
        }
    }

    #[test]
    fn continued_rays_start_one_row_past_the_corner() {
        for e in -4..5 {
            for dx in -9..10 {
                for k in 1..5 {
                    let f = Frac::continued(e, dx, k);
                    let want = Rational::from_integer(i64::from(e))
                        + Rational::new(i64::from(dx), i64::from(k));
                    assert_eq!(rat(f), want);
                    assert!(f.on_ray_from(e, 1));
                    assert_eq!(
                        rat(f.project()),
                        want + Rational::new(i64::from(dx), i64::from(k))
                    );
                }
            }
        }
    }

    #[test]
    fn order_agrees_with_rationals() {
        let mut all = Vec::new();
        for rx in -2..3 {
            for x in -5..6 {
                for k in 1..5 {
                    let mut f = Frac::on_ray(x, k, rx);
                    for _ in 0..3 {
                        all.push(f);
                        f = f.project();
                    }
                }
            }
        }
        for &a in &all {
            for &b in all.iter().step_by(7) {
                assert_eq!(a.cmp(b), rat(a).cmp(&rat(b)));
                assert_eq!(a.lt(b), rat(a) < rat(b));
                assert_eq!(rat(a.max(b)), rat(a).max(rat(b)));
                assert_eq!(rat(a.min(b)), rat(a).min(rat(b)));
            }
            for x in -12..13 {
                assert_eq!(
                    a.cmp_int(x),
                    rat(a).cmp(&Rational::from_integer(i64::from(x)))
                );
            }
            assert!((a.to_f64() - taut_geom_to_f64(rat(a))).abs() < 1e-12);
        }
        assert_eq!(Frac::int(5).as_int(), 5);
    }

    fn taut_geom_to_f64(r: Rational) -> f64 {
        *r.numer() as f64 / *r.denom() as f64
    }
}
