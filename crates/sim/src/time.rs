//! Simulated time. Every instant and duration in the core is an integer count of
//! microseconds, and every name that holds one ends in `_us`.

/// Microseconds in one millisecond.
pub const US_PER_MS: u64 = 1_000;
/// Microseconds in one second.
pub const US_PER_S: u64 = 1_000_000;

/// `n` milliseconds, in microseconds.
pub const fn ms(n: u64) -> u64 {
    n * US_PER_MS
}

/// `n` seconds, in microseconds.
pub const fn secs(n: u64) -> u64 {
    n * US_PER_S
}

/// Whole milliseconds in `us`, rounded down (how the stats panel prints time).
pub const fn whole_ms(us: u64) -> u64 {
    us / US_PER_MS
}
