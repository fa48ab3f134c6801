//! What readers type, read: whole numbers and seeds, seed ranges. (Probabilities are
//! read in [`crate::shared::odds`], below: the parameter table reads them.)

pub mod numbers;
pub mod seeds;
