//! What readers type, read: whole numbers and seeds, seed ranges, probabilities.

pub mod numbers;
pub mod odds;
pub mod seeds;
