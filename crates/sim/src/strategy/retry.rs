//! retry: paced, and a failed attempt is tried again after a pause that doubles.
//!
//! Only 200 and 400 are answers; 500, 503, 429 and 409 are worth another try. A retry
//! is a request like any other, so it books a new pacer turn, at the back of the line.

use super::{paced, Backoff, ClientParams, ClientPlan};

/// Up to `max_attempts` attempts, pausing base · 2^(k−1) after failed attempt k.
pub fn plan(p: &ClientParams) -> ClientPlan {
    ClientPlan {
        max_attempts: p.max_attempts,
        backoff: Backoff {
            base_us: p.backoff_base_us,
            full_jitter: p.backoff_jitter,
        },
        ..paced::plan(p)
    }
}
