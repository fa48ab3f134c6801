//! The lab as a whole, above every page: every family of keys a URL may hold (what a page
//! must know of the pages it is not), a query read with every page's keys, for the
//! command line and the tests, and what each page says of the query it shows (its title,
//! the command that reproduces it), and the section tabs that link the sections.

pub mod every;
pub mod keys;
pub mod sections;
#[cfg(test)]
pub(crate) mod tests;
pub mod titles;
pub mod words;
