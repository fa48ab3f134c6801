//! The page's URL query, read into what the page should show, plus a plain sentence for
//! every value it could not use. Pure: the browser decodes the query string into pairs
//! (`URLSearchParams`), and this module decides what they mean, so it is tested natively.
//!
//! The query carries a whole run: besides the page's own keys (section, view, strategy,
//! seed, …) it holds every parameter of [`crate::PARAMS`], so a shared link reproduces
//! exactly what its sender saw, and [`page::PageQuery::to_query`] writes one back.

pub mod codec;
pub mod page;
pub mod read;
#[cfg(test)]
pub(crate) mod tests;
