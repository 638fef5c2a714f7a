//! An independent legality checker for routes (helper: to be written).
