//! paced: naive, but every request first takes a turn from a pacer set below the limit.

use super::{naive, ClientParams, ClientPlan};

/// Each request works out its turn, books the next one, then waits for its own.
pub fn plan(p: &ClientParams) -> ClientPlan {
    ClientPlan {
        pacer_per_s: Some(p.pacer_per_s),
        ..naive::plan(p)
    }
}
