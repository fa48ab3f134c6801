//! The compare page: every strategy on one seed, side by side.

pub mod explore;
