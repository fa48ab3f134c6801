//! The page's URL query, read into what the page should show, plus a plain sentence for
//! every value it could not use. Pure: the browser decodes the query string into pairs
//! (`URLSearchParams`), and this module decides what they mean, so it is tested natively.
//!
//! Every page reads the [`base::Base`]: the page asked for, the run (every parameter of
//! [`crate::PARAMS`], the seed and the strategy, so a shared link reproduces exactly what
//! its sender saw), the speed, the layout and the motion. Each page adds its own families
//! of keys ([`read::Family`]), defined in its own folder; [`read::Query::to_query`] writes
//! a query back. This module names no page's folder.

pub mod base;
pub mod codec;
pub mod links;
pub mod page;
pub mod read;
