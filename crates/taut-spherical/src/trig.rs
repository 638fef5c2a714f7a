//! The trigonometric functions of the search and its geometry, from the pure-Rust `libm`
//! crate (musl's algorithms, within an ulp of the exact value).
//!
//! Why not `f64`'s methods: on Linux they call glibc, whose `atan`, `sin`, `cos` and `tan`
//! save, set and restore the floating-point environment on every call. `perf` put that
//! environment handling alone at 12 % of a 0.5° Earth route's time, and the functions here
//! take 30–45 % less time per call (`atan` 8.2 → 5.8 ns, `sin_cos` 10.8 → 6.6 ns on a 2-core
//! AMD EPYC). They also give the same bits on every platform, so a route does not depend on
//! the system's maths library. The independent checker (`check.rs`) keeps `f64`'s methods.
//!
//! Everything that compares a computed angle with a table entry (the grid's row-line and
//! meridian tables, `grid.rs`) uses these functions too, so equal angles stay bitwise equal.

/// Arctangent, radians.
#[inline]
pub(crate) fn atan(x: f64) -> f64 {
    libm::atan(x)
}

/// Four-quadrant arctangent of `y / x`, radians.
#[inline]
pub(crate) fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

/// `(sin x, cos x)`.
#[inline]
pub(crate) fn sin_cos(x: f64) -> (f64, f64) {
    libm::sincos(x)
}

/// Sine.
#[inline]
pub(crate) fn sin(x: f64) -> f64 {
    libm::sin(x)
}

/// Cosine.
#[inline]
pub(crate) fn cos(x: f64) -> f64 {
    libm::cos(x)
}

/// Tangent.
#[inline]
pub(crate) fn tan(x: f64) -> f64 {
    libm::tan(x)
}

/// Arccosine, radians.
#[inline]
pub(crate) fn acos(x: f64) -> f64 {
    libm::acos(x)
}
