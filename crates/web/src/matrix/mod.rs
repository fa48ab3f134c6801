//! The matrix page: every strategy against every incident.

pub mod entry;
pub mod matrix_view;
