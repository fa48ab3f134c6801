//! The server's idempotency keys: the texts callers send, numbered for the core's
//! [`Provider`](sim::provider::Provider), kept for a stated time and up to a cap.
//!
//! The IETF draft on the `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header,
//! section 2.3) leaves the expiry to the resource and asks that it be published; the
//! implementations it lists keep keys for a day (Stripe: "at least 24 hours"). So a key
//! here is kept for 24 hours by default from the instant its request was admitted, which
//! covers any retry a client of this lab makes, and the store refuses a new key once it
//! holds its cap rather than grow. Only keys of admitted requests are stored: a request
//! refused at the door (429, 503) leaves nothing behind.

use sim::provider::IdempotencyKey;
use std::collections::{HashMap, VecDeque};
use std::num::NonZeroU32;
use std::sync::Arc;

/// The most one stored key costs in memory, in bytes: its text (up to
/// [`MAX_KEY_BYTES`](super::server::MAX_KEY_BYTES)), held once, and its entries in the
/// store's map and queue and the provider's store, allocator rounding included
/// (`tests/store_bytes.rs` measures it).
pub const KEY_BYTES_MAX: usize = 512;

/// One stored key.
#[derive(Clone, Copy, Debug)]
struct Stored {
    key: IdempotencyKey,
    /// The provider's time at which it was stored (or kept again, see [`KeyStore::expire`]).
    at_us: u64,
}

/// Key texts and their numbers, oldest first, with a time to live and a cap.
#[derive(Debug)]
pub struct KeyStore {
    ttl_us: u64,
    cap: usize,
    by_text: HashMap<Arc<str>, Stored>,
    /// Every stored text with the time it was stored, in the order stored (so in time
    /// order: the provider's clock never steps back).
    order: VecDeque<(u64, Arc<str>)>,
    /// The number the next new key gets.
    next: u32,
}

impl KeyStore {
    /// An empty store keeping keys `ttl_us` and at most `cap` of them.
    pub fn new(ttl_us: u64, cap: usize) -> Self {
        Self {
            ttl_us,
            cap,
            by_text: HashMap::new(),
            order: VecDeque::new(),
            next: 1,
        }
    }

    /// Keys held.
    pub fn len(&self) -> usize {
        self.by_text.len()
    }

    /// True if no key is held.
    pub fn is_empty(&self) -> bool {
        self.by_text.is_empty()
    }

    /// True if a new key would be refused.
    pub fn is_full(&self) -> bool {
        self.by_text.len() >= self.cap
    }

    /// The number of `text`, if it is held.
    pub fn find(&self, text: &str) -> Option<IdempotencyKey> {
        self.by_text.get(text).map(|s| s.key)
    }

    /// How long until the oldest key expires, from `now_us`: when a full store has room.
    pub fn room_in_us(&self, now_us: u64) -> u64 {
        self.order.front().map_or(0, |&(at_us, _)| {
            at_us.saturating_add(self.ttl_us).saturating_sub(now_us)
        })
    }

    /// A number for a new key, not one `in_use` still holds. Numbers count up and wrap
    /// after [`IdempotencyKey::MAX_NUMBER`] (2,147,483,647), skipping any still in use.
    pub fn fresh(&mut self, in_use: impl Fn(IdempotencyKey) -> bool) -> IdempotencyKey {
        loop {
            let n = NonZeroU32::new(self.next).unwrap_or(NonZeroU32::MIN);
            self.next = match n.get() {
                IdempotencyKey::MAX_NUMBER => 1,
                n => n + 1,
            };
            let key = IdempotencyKey::numbered(n);
            if !in_use(key) {
                return key;
            }
        }
    }

    /// Stores `text` as `key` at `now_us`. The caller has checked [`KeyStore::is_full`].
    pub fn store(&mut self, text: &str, key: IdempotencyKey, now_us: u64) {
        assert!(!self.is_full(), "the caller checks the cap first");
        let text: Arc<str> = Arc::from(text);
        self.by_text
            .insert(text.clone(), Stored { key, at_us: now_us });
        self.order.push_back((now_us, text));
    }

    /// Drops the keys older than the time to live at `now_us`. `release` lets go of a
    /// key in the provider and says whether it could: a key whose first request is still
    /// being processed cannot be, and is kept as if stored now. Returns how many expired.
    pub fn expire(
        &mut self,
        now_us: u64,
        mut release: impl FnMut(IdempotencyKey) -> bool,
    ) -> usize {
        let mut expired = 0;
        let mut kept = Vec::new();
        while let Some((at_us, _)) = self.order.front() {
            if at_us.saturating_add(self.ttl_us) > now_us {
                break;
            }
            let (_, text) = self.order.pop_front().expect("just seen");
            let Some(stored) = self.by_text.get(&text).copied() else {
                continue;
            };
            if release(stored.key) {
                self.by_text.remove(&text);
                expired += 1;
            } else {
                kept.push(text);
            }
        }
        for text in kept {
            if let Some(s) = self.by_text.get_mut(&text) {
                s.at_us = now_us;
            }
            self.order.push_back((now_us, text));
        }
        expired
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR_US: u64 = 3_600_000_000;

    #[test]
    fn keys_expire_after_their_time_and_the_cap_holds() {
        let mut store = KeyStore::new(HOUR_US, 3);
        for (i, text) in ["a", "b", "c"].into_iter().enumerate() {
            let key = store.fresh(|_| false);
            store.store(text, key, i as u64 * 1_000);
        }
        assert!(store.is_full());
        assert_eq!(store.room_in_us(10_000), HOUR_US - 10_000);
        assert_eq!(store.expire(HOUR_US - 1, |_| true), 0);
        assert_eq!(store.expire(HOUR_US + 1_000, |_| true), 2, "a and b");
        assert_eq!(store.len(), 1);
        assert!(store.find("a").is_none() && store.find("c").is_some());
        assert!(!store.is_full());
    }

    #[test]
    fn a_key_still_in_progress_is_kept_and_numbers_in_use_are_skipped() {
        let mut store = KeyStore::new(10, 5);
        let a = store.fresh(|_| false);
        store.store("a", a, 0);
        assert_eq!(store.expire(50, |k| k != a), 0);
        assert_eq!(store.find("a"), Some(a));
        assert_eq!(store.room_in_us(50), 10, "kept as if stored at 50");
        assert_eq!(store.expire(60, |_| true), 1);
        let b = store.fresh(|k| k == IdempotencyKey::numbered(NonZeroU32::new(2).unwrap()));
        assert_eq!(b, IdempotencyKey::numbered(NonZeroU32::new(3).unwrap()));
        store.next = IdempotencyKey::MAX_NUMBER;
        assert_eq!(
            store.fresh(|_| false).to_string(),
            format!("ck-{}", IdempotencyKey::MAX_NUMBER)
        );
        assert_eq!(store.fresh(|_| false).to_string(), "ck-1", "wraps");
    }
}
