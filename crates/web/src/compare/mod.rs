//! The compare page: every strategy on one seed, side by side.

pub mod compare_controls;
pub mod compare_view;
pub mod entry;
