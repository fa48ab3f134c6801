//! naive: start every charge at once, send each one once, and wait as long as it takes.

use super::{Backoff, ClientParams, ClientPlan, Launch};

/// All customers at t = 0. No pacer, no retry, no timeout, no key.
pub fn plan(_: &ClientParams) -> ClientPlan {
    ClientPlan {
        launch: Launch::AllAtOnce,
        pacer_per_s: None,
        max_attempts: 1,
        backoff: Backoff {
            base_us: 0,
            full_jitter: false,
        },
        timeout_us: None,
        idempotency_key: false,
        obey_headers: false,
        retry_quota: None,
        breaker: None,
    }
}
