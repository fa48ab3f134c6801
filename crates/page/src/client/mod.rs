//! The client view: a reader's own client, pasted or written in an editor, run in the
//! sandbox (a worker in a frame of its own origin, `assets/sandbox/`) on the simulated
//! clock, against the provider the built-in strategies meet. The sandbox hands back the
//! client's calls; the page replays them through its own run of the core and judges
//! that run beside the best built-in on the same seed.
//!
//! - [`code`]: the code in the view's link, and where the lab's own clients are served;
//! - [`fields`]: the seed, customers and incident typed, and the links;
//! - [`ops`]: the client's calls as they cross from the sandbox;
//! - [`outcome`]: what the sandbox reports, and its sentences;
//! - [`query`]: the view's own key in its link, the code;
//! - [`runs`]: the replay and the built-ins, a slice at a time, and the judged run;
//! - [`view`]: the view's markup.

pub mod code;
pub mod fields;
pub mod ops;
pub mod outcome;
pub mod query;
pub mod runs;
pub mod view;
