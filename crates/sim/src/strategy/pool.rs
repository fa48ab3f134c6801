//! pool: keyed, but a fixed number of workers each take the next customer when free.
//!
//! At most `pool_workers` requests are awaited at once, and a retry waits behind the
//! other workers' turns instead of behind every charge not yet started.

use super::{keyed, ClientParams, ClientPlan, Launch};

/// `pool_workers` workers sharing the one pacer.
pub fn plan(p: &ClientParams) -> ClientPlan {
    ClientPlan {
        launch: Launch::Workers(p.pool_workers),
        ..keyed::plan(p)
    }
}
