//! The matrix page: every strategy against every incident.

pub mod picture;
pub mod table;
