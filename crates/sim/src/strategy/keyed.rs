//! keyed: timeout-no-key, plus the same idempotency key on every attempt of one charge.
//!
//! The provider recognises the retry: 409 while the first attempt is still running,
//! the first attempt's answer once it has finished.

use super::{timeout_no_key, ClientParams, ClientPlan};

/// One key per charge (`ck-{id}`), sent on every attempt.
pub fn plan(p: &ClientParams) -> ClientPlan {
    ClientPlan {
        idempotency_key: true,
        ..timeout_no_key::plan(p)
    }
}
