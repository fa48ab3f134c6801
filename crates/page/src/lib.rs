//! rate-limit-lab's page layer: the URL, labels, sentences, number formats, markup,
//! exports and the CLI line that reproduces a page, over the core ([`sim`]). It compiles
//! natively and is tested natively; nothing of the browser reaches it.
//!
//! Grouped by page, with what several pages share in [`shared`], the URL's query in
//! [`query`], what readers type in [`input`], and what ties every page together in
//! [`site`]. No import runs back up: `shared`, then `input`, then `query`, then the pages
//! (those that use another page above it), then `site` (`tests/folder_rules.rs`).

#![deny(missing_docs, unreachable_pub)]

pub mod client;
pub mod compare;
pub mod headers;
pub mod input;
pub mod limits;
pub mod matrix;
pub mod query;
pub mod run;
pub mod shared;
pub mod site;
pub mod sweep;

pub use input::numbers::{parse_count, parse_seed};
pub use query::base::{Base, Naming, FALLBACK_STRATEGY};
pub use query::codec::{pairs_of, to_query};
pub use query::page::{Motion, Page, Section, Speed, View, WALK_MODULE};
pub use query::read::{Family, Query};
pub use shared::params::{
    apply_param, apply_params, param, parse_param, read_param, set_param, spec, ParamGroup,
    ParamKind, ParamSpec, ParamValue, PARAMS,
};
pub use shared::words::shown;
pub use site::every::{parse, AnyQuery};
