//! timeout-no-key: retry, but stop waiting for an attempt after a deadline.
//!
//! The provider does not know the client stopped waiting: it finishes a slow charge
//! anyway. Without a key, the retry looks like a new charge, and the customer pays twice.

use super::{retry, ClientParams, ClientPlan};

/// A timed-out attempt counts as failed and is retried after its backoff.
pub fn plan(p: &ClientParams) -> ClientPlan {
    ClientPlan {
        timeout_us: Some(p.timeout_us),
        ..retry::plan(p)
    }
}
