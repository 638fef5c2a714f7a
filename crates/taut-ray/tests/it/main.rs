//! Integration tests of taut-ray: lengths equal Anya's on random grids full of double corners,
//! collinear corners and aligned pillars, and on the shipped maps.

mod differential;
mod reference_data;
#[cfg(feature = "check-successors")]
mod successors;
