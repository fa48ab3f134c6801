//! What one idempotency key and one limiter caller cost the server, measured with a
//! counting allocator, against the figures `ratelab serve --help` states.

use ratelab::keys::{KeyStore, KEY_BYTES_MAX};
use ratelab::server::{CALLER_BYTES_MAX, MAX_KEY_BYTES};
use sim::limiter::{FixedWindow, Limiter, Policy, Scope, SlidingLog, TokenBucket};
use sim::provider::{BodyPrint, ChargeRequest, Provider, ProviderConfig};
use sim::rng::{KeyedDraws, Odds};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::SeqCst);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static A: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::SeqCst)
}

/// The count is the whole process's: the two measurements take turns.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Just past a power of two, where the maps and queues have most room to spare: the
/// costliest count per entry.
const N: usize = 16_385;

/// A key text of the longest length the server takes, distinct for each `i`.
fn long_text(i: usize) -> String {
    format!("{i:0>width$}", width = MAX_KEY_BYTES)
}

#[test]
fn a_key_costs_at_most_what_the_help_says() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // The provider holds one entry per stored key, the store the text and its order.
    let config = ProviderConfig {
        server_error: Odds::NEVER,
        slow: Odds::NEVER,
        rate_limit: 1_000_000,
        max_inflight: 1_000_000,
        decline_every: 0,
        ..ProviderConfig::default()
    };
    let mut provider = Provider::new(config, N as u32);
    let dice = KeyedDraws::from_seed(1);
    let mut store = KeyStore::new(u64::MAX, N);
    let texts: Vec<String> = (0..N).map(long_text).collect();
    let before = live();
    // A second apart, so the provider's rate log holds one instant, not 16,385.
    for (i, text) in texts.iter().enumerate() {
        let key = store.fresh(|k| provider.holds_key(k));
        let request = ChargeRequest {
            customer: i as u32 + 1,
            key: Some(key),
            print: BodyPrint::of_charge(i as u64 + 1, Some(1_000)),
        };
        let at_us = i as u64 * 1_000_000;
        let _ = provider.arrive(at_us, request, &dice);
        store.store(text, key, at_us);
    }
    assert_eq!(provider.keys_held(), N);
    let per_key = (live() - before) as usize / N;
    assert!(per_key <= KEY_BYTES_MAX, "a key costs {per_key} B");
    assert!(
        per_key >= MAX_KEY_BYTES,
        "the text alone is {MAX_KEY_BYTES} B: {per_key} B"
    );
    println!("one key: {per_key} B (stated at most {KEY_BYTES_MAX} B)");
}

#[test]
fn a_caller_costs_at_most_what_the_help_says() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let policy = Policy {
        limit: 10,
        window_us: 1_000_000,
    };
    let texts: Vec<String> = (0..N).map(long_text).collect();
    let mut fixed = FixedWindow::new(policy, Scope::PerKey).unwrap();
    let mut bucket = TokenBucket::new(10, policy, Scope::PerKey).unwrap();
    let mut sliding = SlidingLog::new(policy, Scope::PerKey).unwrap();
    let limiters: [(&str, &mut dyn Limiter); 3] = [
        ("fixed", &mut fixed),
        ("bucket", &mut bucket),
        ("sliding", &mut sliding),
    ];
    for (name, limiter) in limiters {
        let before = live();
        for text in &texts {
            assert!(limiter.check(0, text, 1).unwrap().allowed);
        }
        // The log's one request is within the 16 B the help adds per request in the window.
        let per_caller = (live() - before) as usize / N;
        let stated = CALLER_BYTES_MAX + if name == "sliding" { 16 } else { 0 };
        assert!(
            per_caller <= stated,
            "{name}: a caller costs {per_caller} B"
        );
        println!("{name}: one caller {per_caller} B (stated at most {stated} B)");
    }
}

#[test]
fn a_caller_of_the_newer_limiters_costs_at_most_what_the_help_says() {
    use sim::limiter::LimiterKind;
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let policy = Policy {
        limit: 10,
        window_us: 1_000_000,
    };
    let texts: Vec<String> = (0..N).map(long_text).collect();
    for kind in [
        LimiterKind::Counter,
        LimiterKind::Queue,
        LimiterKind::Nodelay,
        LimiterKind::Gcra,
        LimiterKind::Inflight,
    ] {
        // Built as the server builds them.
        let mut limiter = kind.build(policy, Scope::PerKey).unwrap();
        let before = live();
        for text in &texts {
            assert!(limiter.check(0, text, 1).unwrap().allowed);
        }
        // The concurrency limit's one request in flight is within the 16 B per request.
        let per_caller = (live() - before) as usize / N;
        let stated = CALLER_BYTES_MAX + if kind == LimiterKind::Inflight { 16 } else { 0 };
        assert!(
            per_caller <= stated,
            "{kind}: a caller costs {per_caller} B"
        );
        println!("{kind}: one caller {per_caller} B (stated at most {stated} B)");
        drop(limiter);
    }
}
