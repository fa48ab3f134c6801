//! The lab as a whole, above every page: every family of keys a URL may hold (what a page
//! must know of the pages it is not), and a query read as whichever page it opens, for
//! the command line and the tests.

pub mod every;
pub mod keys;
#[cfg(test)]
pub(crate) mod tests;
