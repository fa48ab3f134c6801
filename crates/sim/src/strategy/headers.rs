//! headers: pool, but a 429 or a 503 is read for the wait it asks for, and the whole
//! client obeys it.
//!
//! The provider writes `Retry-After` and the RateLimit fields on every 429 and 503; the
//! client reads them with the project's header reader (`sim::headers::wait_from_header`,
//! as the headers page does): `Retry-After` first, then the `RateLimit` field's `t`. One worker told to wait pauses every
//! worker until the wait is over: the limit belongs to the account, not to the worker.
//! Each worker then comes back after a full-jitter spread of up to the same wait, so the
//! pause does not end in a burst, and none comes back early.

use super::{pool, ClientParams, ClientPlan};

/// Obeys the provider's headers on 429 and 503, pausing every worker.
pub fn plan(p: &ClientParams) -> ClientPlan {
    ClientPlan {
        obey_headers: true,
        ..pool::plan(p)
    }
}
