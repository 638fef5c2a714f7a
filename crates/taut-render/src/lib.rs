//! Pictures of any-angle searches, for the `taut` command line and for your own programs.
//!
//! [`flat_map`] turns sphere routes into lines on a flat map (densified, split at the
//! antimeridian).

pub mod flat_map;
