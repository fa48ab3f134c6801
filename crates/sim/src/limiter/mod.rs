//! Server-side rate limiters: eight ways to decide whether a caller may have one more
//! request, behind one trait (docs/limiters.md compares them).
//!
//! Every limiter is a pure function of the instants it is shown: there are no timers and
//! no background work, so a limiter in the simulation answers exactly as it would in a
//! server fed the same arrival times. Each is a [`Rule`] (the state it keeps for one
//! caller and how that state decides a request) in one shared store, [`Keyed`], which
//! remembers its callers in a [`Callers`] map, keyed by caller or shared by all of them
//! ([`Scope`]): the whole difference between "one bucket per customer" and "one bucket
//! for everyone", written once for every limiter. The token bucket, GCRA and the leaky
//! queue keep one state between them, a [`Drain`]: work that drains at one rate.
//!
//! An instant earlier than what a caller's state has already seen is counted as if it
//! were no earlier than that state: a clock that steps back stands still rather than
//! reopening an old window, refilling twice or disordering the log.

pub mod concurrency;
pub mod drain;
pub mod fixed_window;
pub mod gcra;
pub mod leaky_queue;
pub mod shared;
pub mod sliding_counter;
pub mod sliding_log;
pub mod token_bucket;

pub use concurrency::{ConcurrencyLimit, FlightRule};
pub use drain::{Drain, DrainRule};
pub use fixed_window::{FixedWindow, WindowRule};
pub use gcra::Gcra;
pub use leaky_queue::LeakyQueue;
pub use shared::Copyable;
pub use sliding_counter::{CounterRule, SlidingCounter};
pub use sliding_log::{LogRule, SlidingLog};
pub use token_bucket::TokenBucket;

use super::time::secs;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The largest number of requests a limiter may allow per window.
pub const MAX_LIMIT: u32 = 1_000_000;
/// The longest window a limiter may count over: 31 days, enough for a monthly quota.
pub const MAX_WINDOW_US: u64 = secs(31 * 86_400);

/// A limiter's answer about one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// True if the request may proceed; false means answer 429.
    pub allowed: bool,
    /// Requests of cost 1 the caller could still make at this instant, after this one.
    pub remaining: u32,
    /// How long until the same request would be allowed, if nothing else arrives in
    /// between. Zero when it was allowed; at least 1 µs when it was refused.
    pub retry_after_us: u64,
    /// How long until the caller's whole allowance is back, if nothing else arrives.
    pub reset_us: u64,
}

/// The limit a limiter publishes: `limit` requests per `window_us`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Policy {
    /// Requests allowed per window (for a bucket: tokens refilled per window).
    pub limit: u32,
    /// The window the limit is counted over.
    pub window_us: u64,
}

impl Policy {
    /// Checks that the limit and window are inside the documented ranges.
    pub fn check(&self) -> Result<(), LimiterError> {
        if !(1..=MAX_LIMIT).contains(&self.limit) {
            return Err(LimiterError::Limit { limit: self.limit });
        }
        if !(1..=MAX_WINDOW_US).contains(&self.window_us) {
            return Err(LimiterError::Window {
                window_us: self.window_us,
            });
        }
        Ok(())
    }
}

/// Why a limiter cannot be built, or cannot decide a request (the page layer writes the
/// sentence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimiterError {
    /// The policy's limit is outside 1 to [`MAX_LIMIT`] requests.
    Limit {
        /// The limit given.
        limit: u32,
    },
    /// The policy's window is outside 1 µs to [`MAX_WINDOW_US`].
    Window {
        /// The window given.
        window_us: u64,
    },
    /// A bucket's capacity is outside 1 to [`MAX_LIMIT`] tokens.
    Capacity {
        /// The capacity given.
        capacity: u32,
    },
    /// A queue's burst (requests waiting behind the one served) is [`MAX_LIMIT`] or more.
    Burst {
        /// The burst given.
        burst: u32,
    },
    /// A concurrency limit's hold time is outside 1 µs to [`MAX_WINDOW_US`].
    Hold {
        /// The hold given.
        hold_us: u64,
    },
    /// A request that costs nothing.
    ZeroCost,
    /// A request that costs more than the limiter could ever allow at once.
    CostOverCapacity {
        /// The request's cost.
        cost: u32,
        /// The most one request may cost ([`Limiter::capacity`]).
        capacity: u32,
    },
}

crate::error_display!(LimiterError, "limiter refused");

/// Whose requests share one allowance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// One allowance for every caller: the key is ignored.
    Global,
    /// One allowance per caller key.
    PerKey,
}

/// A rate limiter. Implementations decide; `check` (on the trait object, and on each
/// [`Keyed`] limiter) validates the cost first.
pub trait Limiter {
    /// The limit this limiter publishes.
    fn policy(&self) -> Policy;

    /// The largest cost one request can have and still be allowed some day.
    fn capacity(&self) -> u32;

    /// Bytes of fixed-width state held right now: key bytes plus each state's payload.
    /// See [`StatePayload`] for what is and is not counted.
    fn payload_bytes(&self) -> u64;

    /// Callers remembered right now (1 at most under the global scope).
    fn callers(&self) -> usize;

    /// True if `key` has a state (always, once anyone has asked, under the global scope).
    fn knows(&self, key: &str) -> bool;

    /// Decides a request whose cost is already known to be in `1..=capacity`, records
    /// it if allowed, and says how long an allowed request waits before it is served.
    /// Only a queue delays (the leaky bucket without `nodelay`); every other limiter
    /// answers at once, with a delay of 0. (One method, not a plain `decide` beside it:
    /// each is one more function per limiter behind every trait object.)
    fn decide_delayed(&mut self, now_us: u64, key: &str, cost: u32) -> (Decision, u64);
}

impl dyn Limiter + '_ {
    /// Decides one request of `cost` units from caller `key` arriving at `now_us`.
    /// A cost of 0, or one larger than the limiter could ever allow, is an error.
    /// (Written once for every limiter, behind the trait object: [`Keyed::check`] comes
    /// here too.)
    pub fn check(&mut self, now_us: u64, key: &str, cost: u32) -> Result<Decision, LimiterError> {
        self.check_delayed(now_us, key, cost).map(|(d, _)| d)
    }

    /// [`check`](Self::check), with how long the request waits before it is served if
    /// it was allowed (0 if it was refused, and always 0 but for a queue).
    pub fn check_delayed(
        &mut self,
        now_us: u64,
        key: &str,
        cost: u32,
    ) -> Result<(Decision, u64), LimiterError> {
        let capacity = self.capacity();
        valid_cost(cost, capacity)?;
        let (d, delay_us) = self.decide_delayed(now_us, key, cost);
        Ok(checked(d, delay_us, capacity))
    }
}

/// A cost of 0, or one over the capacity, as the error it is.
fn valid_cost(cost: u32, capacity: u32) -> Result<(), LimiterError> {
    if cost == 0 {
        return Err(LimiterError::ZeroCost);
    }
    if cost > capacity {
        return Err(LimiterError::CostOverCapacity { cost, capacity });
    }
    Ok(())
}

/// `d` and its delay, once their figures are known to agree with each other. (Once for
/// every limiter, not in each one's check.)
fn checked(d: Decision, delay_us: u64, capacity: u32) -> (Decision, u64) {
    // (The messages print numbers only, no `Debug` payload: what the core panics with
    // stays as plain as its figures.)
    assert!(
        d.allowed == (d.retry_after_us == 0),
        "a decision waits exactly when it refuses: retry after {} µs",
        d.retry_after_us
    );
    assert!(
        d.remaining <= capacity,
        "{} remaining of a capacity of {capacity}",
        d.remaining
    );
    assert!(
        d.allowed || delay_us == 0,
        "a refused request waits for nothing"
    );
    (d, delay_us)
}

crate::named_enum! {
    /// The eight limiters, by name.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum LimiterKind as "limiter" {
        /// Counts in aligned windows.
        Fixed = "fixed",
        /// Logs every allowed request and counts the last window.
        Sliding = "sliding",
        /// Refills tokens continuously.
        Bucket = "bucket",
        /// Two aligned counters, the previous one weighted by its overlap (Cloudflare).
        Counter = "counter",
        /// A leaky bucket as a queue: delays up to a burst, refuses beyond (nginx).
        Queue = "queue",
        /// The same queue with nginx's `nodelay`: served at once, slots still drain.
        Nodelay = "nodelay",
        /// The generic cell rate algorithm: one theoretical arrival time (governor).
        Gcra = "gcra",
        /// At most the limit in flight, each request holding its slot a while.
        Inflight = "inflight",
    }
}

impl LimiterKind {
    /// A limiter of this kind for `policy`. So that every kind lets the same number
    /// through at one instant (the policy's limit): a bucket's capacity and GCRA's burst
    /// are the limit; a queue serves one and queues `limit − 1` (nginx's `burst`); a
    /// concurrency limit allows `limit` in flight, each held [`concurrency::DEFAULT_HOLD_US`].
    pub fn build(self, policy: Policy, scope: Scope) -> Result<Box<dyn Limiter>, LimiterError> {
        self.make::<AsLimiter>(policy, scope)
    }

    /// [`LimiterKind::build`], as a limiter that can also forget its spent callers (what
    /// a server serving strangers holds). A separate box, so that a caller that never
    /// forgets builds no forgetting.
    pub fn build_forgetting(
        self,
        policy: Policy,
        scope: Scope,
    ) -> Result<Box<dyn Forgetting>, LimiterError> {
        self.make::<AsForgetting>(policy, scope)
    }

    /// The limiter of this kind, boxed by `B`.
    fn make<B: Boxing>(self, policy: Policy, scope: Scope) -> Result<B::Boxed, LimiterError> {
        let queued = policy.limit.saturating_sub(1);
        Ok(match self {
            LimiterKind::Fixed => B::boxed(FixedWindow::new(policy, scope)?),
            LimiterKind::Sliding => B::boxed(SlidingLog::new(policy, scope)?),
            LimiterKind::Bucket => B::boxed(TokenBucket::new(policy.limit, policy, scope)?),
            LimiterKind::Counter => B::boxed(SlidingCounter::new(policy, scope)?),
            LimiterKind::Queue => B::boxed(LeakyQueue::new(policy, queued, false, scope)?),
            LimiterKind::Nodelay => B::boxed(LeakyQueue::new(policy, queued, true, scope)?),
            LimiterKind::Gcra => B::boxed(Gcra::new(policy, policy.limit, scope)?),
            LimiterKind::Inflight => B::boxed(ConcurrencyLimit::new(
                policy,
                concurrency::DEFAULT_HOLD_US,
                scope,
            )?),
        })
    }

    /// True for the kinds that delay a request rather than answer it at once.
    pub const fn delays(self) -> bool {
        matches!(self, LimiterKind::Queue)
    }
}

/// How [`LimiterKind::make`] boxes the limiter it builds.
trait Boxing {
    type Boxed;
    fn boxed<R: Rule + Clone + 'static>(limiter: Keyed<R>) -> Self::Boxed;
}

/// Boxes as a [`Limiter`].
struct AsLimiter;

impl Boxing for AsLimiter {
    type Boxed = Box<dyn Limiter>;
    fn boxed<R: Rule + Clone + 'static>(limiter: Keyed<R>) -> Self::Boxed {
        Box::new(limiter)
    }
}

/// Boxes as a [`Forgetting`] limiter.
struct AsForgetting;

impl Boxing for AsForgetting {
    type Boxed = Box<dyn Forgetting>;
    fn boxed<R: Rule + Clone + 'static>(limiter: Keyed<R>) -> Self::Boxed {
        Box::new(limiter)
    }
}

/// What makes one limiter what it is: the state it keeps for each caller and how that
/// state decides a request. Everything else (finding the caller's state, the scope,
/// counting what the store holds, forgetting spent callers) is [`Keyed`]'s, the same
/// for every rule.
pub trait Rule {
    /// One caller's state.
    type State: StatePayload + Clone + std::fmt::Debug;

    /// The limit this rule publishes.
    fn policy(&self) -> Policy;

    /// The largest cost one request can have and still be allowed some day: by
    /// default the policy's limit.
    fn capacity(&self) -> u32 {
        self.policy().limit
    }

    /// A caller's state when it is first seen at `now_us`.
    fn fresh(&self, now_us: u64) -> Self::State;

    /// Decides a request whose cost is already known to be in `1..=capacity` against
    /// the caller's state, records it there if allowed, and says how long an allowed
    /// request waits before it is served (0 but for a queue).
    fn decide(&self, state: &mut Self::State, now_us: u64, cost: u32) -> (Decision, u64);

    /// True if `state` is spent at `now_us`: a fresh state would decide every request
    /// from `now_us` on exactly as it would.
    fn spent(&self, state: &mut Self::State, now_us: u64) -> bool;
}

/// A limiter: a [`Rule`] and its callers' states, one per key or one for all.
#[derive(Clone, Debug)]
pub struct Keyed<R: Rule> {
    rule: R,
    callers: Callers<R::State>,
}

impl<R: Rule> Keyed<R> {
    /// `rule` with no caller seen yet.
    fn with(rule: R, scope: Scope) -> Self {
        Self {
            rule,
            callers: Callers::new(scope),
        }
    }

    /// The rule this limiter decides by.
    pub fn rule(&self) -> &R {
        &self.rule
    }

    /// The state of `key`, created fresh at `now_us` on first sight.
    fn state(&mut self, now_us: u64, key: &str) -> &mut R::State {
        let rule = &self.rule;
        self.callers.state(key, || rule.fresh(now_us))
    }

    /// Decides one request of `cost` units from caller `key` arriving at `now_us`; a cost
    /// of 0, or one larger than the limiter could ever allow, is an error. The trait
    /// object's own check, so that there is one copy for every limiter.
    pub fn check(&mut self, now_us: u64, key: &str, cost: u32) -> Result<Decision, LimiterError> {
        (self as &mut dyn Limiter).check(now_us, key, cost)
    }

    /// [`Keyed::check`], with how long the request waits before it is served if it was
    /// allowed (0 if it was refused, and always 0 but for a queue).
    pub fn check_delayed(
        &mut self,
        now_us: u64,
        key: &str,
        cost: u32,
    ) -> Result<(Decision, u64), LimiterError> {
        (self as &mut dyn Limiter).check_delayed(now_us, key, cost)
    }

    /// Forgets every caller whose state is spent at `now_us` (see [`Rule::spent`]):
    /// no decision from `now_us` on changes. Returns how many it forgot. A store that
    /// serves strangers calls this from time to time, as governor's `retain_recent` is
    /// called, so that callers who have gone cost nothing.
    pub fn forget_spent(&mut self, now_us: u64) -> usize {
        let rule = &self.rule;
        self.callers.forget(|s| rule.spent(s, now_us))
    }
}

impl<R: Rule> Limiter for Keyed<R> {
    fn policy(&self) -> Policy {
        self.rule.policy()
    }

    fn capacity(&self) -> u32 {
        self.rule.capacity()
    }

    fn decide_delayed(&mut self, now_us: u64, key: &str, cost: u32) -> (Decision, u64) {
        assert!((1..=self.rule.capacity()).contains(&cost));
        let rule = &self.rule;
        let state = self.callers.state(key, || rule.fresh(now_us));
        rule.decide(state, now_us, cost)
    }

    fn payload_bytes(&self) -> u64 {
        self.callers.payload_bytes()
    }

    fn callers(&self) -> usize {
        self.callers.len()
    }

    fn knows(&self, key: &str) -> bool {
        self.callers.knows(key)
    }
}

/// A limiter that can also forget its spent callers ([`Keyed::forget_spent`]).
pub trait Forgetting: Limiter {
    /// See [`Keyed::forget_spent`].
    fn forget_spent(&mut self, now_us: u64) -> usize;
}

impl<R: Rule> Forgetting for Keyed<R> {
    fn forget_spent(&mut self, now_us: u64) -> usize {
        Keyed::forget_spent(self, now_us)
    }
}

/// What one caller's state costs to remember.
///
/// Only fixed-width payload is counted: the state's own integer fields (or, for a log,
/// 8 bytes per stored timestamp). Not counted: map nodes, pointer/length/capacity words
/// of `String` and `VecDeque`, spare capacity, and allocator headers. Those depend on
/// the platform's pointer width and allocator, and the browser (wasm32) and the CLI
/// (64-bit) must report the same figure.
pub trait StatePayload {
    /// Payload bytes of this state: by default its own size, which is right for states
    /// made of fixed-width integers only.
    fn payload_bytes(&self) -> u64 {
        std::mem::size_of_val(self) as u64
    }
}

/// Caller states in key order, or one shared state when the scope is global.
#[derive(Clone, Debug)]
pub struct Callers<S> {
    scope: Scope,
    /// Per key, where its state is in `states`; always empty under the global scope,
    /// whose one state is `states[0]`, found without a key lookup (the provider asks on
    /// every request). The map holds places, not states, so every limiter shares one map
    /// type (and its code), whatever its state.
    places: BTreeMap<String, usize>,
    /// The states, in the order their callers were first seen.
    states: Vec<S>,
}

/// The key the global scope's one state is reported under (no bytes to count).
const GLOBAL_KEY: &str = "";

/// Where `key`'s state is: its place in `places`, or `next` (recorded as its place) if
/// `key` is new. The second value is true if it was new.
fn place(places: &mut BTreeMap<String, usize>, key: &str, next: usize) -> (usize, bool) {
    // Look up by &str first, so a known caller costs no allocation.
    if let Some(&at) = places.get(key) {
        return (at, false);
    }
    places.insert(key.to_owned(), next);
    (next, true)
}

impl<S> Callers<S> {
    /// An empty store.
    pub fn new(scope: Scope) -> Self {
        Self {
            scope,
            places: BTreeMap::new(),
            states: Vec::new(),
        }
    }

    /// The scope this store was made with.
    pub fn scope(&self) -> Scope {
        self.scope
    }

    /// The state for `key`, created by `fresh` on first sight.
    pub fn state(&mut self, key: &str, fresh: impl FnOnce() -> S) -> &mut S {
        let at = match self.scope {
            Scope::Global => 0,
            Scope::PerKey => place(&mut self.places, key, self.states.len()).0,
        };
        if at == self.states.len() {
            self.states.push(fresh());
        }
        &mut self.states[at]
    }

    /// The state for `key`, if it has been seen.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut S> {
        let at = match self.scope {
            Scope::Global => 0,
            Scope::PerKey => *self.places.get(key)?,
        };
        self.states.get_mut(at)
    }

    /// Every remembered key with its state, in key order (the global scope's one state
    /// is reported under the empty key).
    pub fn states(&self) -> impl Iterator<Item = (&str, &S)> {
        let global = match self.scope {
            Scope::Global => self.states.first(),
            Scope::PerKey => None,
        };
        let keyed = self
            .places
            .iter()
            .map(|(k, &at)| (k.as_str(), &self.states[at]));
        global.map(|s| (GLOBAL_KEY, s)).into_iter().chain(keyed)
    }

    /// Callers remembered (1 at most under the global scope).
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// True if no caller has been seen.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// True if `key` has a state.
    pub fn knows(&self, key: &str) -> bool {
        match self.scope {
            Scope::Global => !self.states.is_empty(),
            Scope::PerKey => self.places.contains_key(key),
        }
    }

    /// Forgets every state for which `spent` is true; returns how many.
    pub fn forget(&mut self, mut spent: impl FnMut(&mut S) -> bool) -> usize {
        let before = self.len();
        let states = &mut self.states;
        if self.scope == Scope::Global {
            if states.first_mut().is_some_and(spent) {
                states.clear();
            }
            return before - states.len();
        }
        let mut kept = vec![false; states.len()];
        self.places.retain(|_, &mut at| {
            kept[at] = !spent(&mut states[at]);
            kept[at]
        });
        // The kept states close up in their order, and each key learns its new place.
        let mut moved_to = Vec::with_capacity(kept.len());
        let mut next = 0;
        for &keep in &kept {
            moved_to.push(next);
            next += usize::from(keep);
        }
        let mut keep = kept.iter();
        states.retain(|_| keep.next().copied().unwrap_or(false));
        for at in self.places.values_mut() {
            *at = moved_to[*at];
        }
        // Callers who have gone give their memory back, as the map's nodes do.
        if states.len() < states.capacity() / 4 {
            states.shrink_to(states.len() * 2);
        }
        before - states.len()
    }
}

impl<S: StatePayload> Callers<S> {
    /// Key bytes plus every state's payload. See [`StatePayload`].
    pub fn payload_bytes(&self) -> u64 {
        key_bytes(&self.places) + self.states.iter().map(S::payload_bytes).sum::<u64>()
    }
}

/// The bytes of every key in `places` (the global scope's empty key has none): one copy
/// for every limiter's store.
fn key_bytes(places: &BTreeMap<String, usize>) -> u64 {
    places.keys().map(|k| k.len() as u64).sum()
}

/// `us` rounded up to whole seconds: how long a header tells a caller to wait.
pub fn ceil_secs(us: u64) -> u64 {
    us.div_ceil(secs(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::ms;

    /// Ten per second: the limit most limiter tests run against.
    pub(super) const POLICY: Policy = Policy {
        limit: 10,
        window_us: secs(1),
    };

    #[test]
    fn every_kind_rejects_impossible_costs() {
        for kind in LimiterKind::ALL {
            let mut l = kind.build(POLICY, Scope::PerKey).unwrap();
            assert_eq!(l.check(0, "a", 0), Err(LimiterError::ZeroCost), "{kind}");
            assert_eq!(
                l.check(0, "a", 11),
                Err(LimiterError::CostOverCapacity {
                    cost: 11,
                    capacity: 10
                }),
                "{kind}"
            );
            assert!(l.check(0, "a", 10).unwrap().allowed, "{kind}");
        }
    }

    #[test]
    fn bad_policies_are_refused() {
        for policy in [
            Policy {
                limit: 0,
                window_us: secs(1),
            },
            Policy {
                limit: 10,
                window_us: 0,
            },
            Policy {
                limit: MAX_LIMIT + 1,
                window_us: secs(1),
            },
            Policy {
                limit: 10,
                window_us: MAX_WINDOW_US + 1,
            },
        ] {
            for kind in LimiterKind::ALL {
                assert_eq!(
                    kind.build(policy, Scope::Global).err(),
                    policy.check().err(),
                    "{kind} {policy:?}"
                );
                assert!(policy.check().is_err(), "{policy:?}");
            }
        }
    }

    #[test]
    fn global_scope_shares_one_allowance_and_per_key_does_not() {
        for kind in LimiterKind::ALL {
            let mut global = kind.build(POLICY, Scope::Global).unwrap();
            let mut per_key = kind.build(POLICY, Scope::PerKey).unwrap();
            for i in 0..10 {
                assert!(global.check(ms(i), "noisy", 1).unwrap().allowed);
                assert!(per_key.check(ms(i), "noisy", 1).unwrap().allowed);
            }
            assert!(!global.check(ms(10), "quiet", 1).unwrap().allowed, "{kind}");
            assert!(per_key.check(ms(10), "quiet", 1).unwrap().allowed, "{kind}");
        }
    }

    #[test]
    fn the_global_scope_remembers_one_state_under_the_empty_key() {
        let mut callers: Callers<u64> = Callers::new(Scope::Global);
        assert!(callers.is_empty());
        assert!(callers.get_mut("a").is_none());
        *callers.state("a", || 1) += 10;
        *callers.state("b", || 100) += 10;
        assert_eq!(callers.len(), 1);
        assert_eq!(callers.get_mut("c"), Some(&mut 21));
        assert_eq!(callers.states().collect::<Vec<_>>(), [("", &21)]);
        let mut per_key: Callers<u64> = Callers::new(Scope::PerKey);
        per_key.state("b", || 2);
        per_key.state("a", || 1);
        assert_eq!(per_key.states().collect::<Vec<_>>(), [("a", &1), ("b", &2)]);
        assert!(per_key.get_mut("c").is_none());
    }

    #[test]
    fn forgetting_spent_callers_changes_no_decision_and_forgets_the_gone() {
        // Two limiters of each kind see the same requests; one forgets its spent callers
        // before each. Every decision must be the same, headers' figures included.
        let mut lcg = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            lcg = lcg.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (lcg >> 33) % n
        };
        for kind in LimiterKind::ALL {
            let mut kept = kind.build(POLICY, Scope::PerKey).unwrap();
            let mut forgetful = kind.build_forgetting(POLICY, Scope::PerKey).unwrap();
            let mut now_us = 0;
            let mut forgotten = 0;
            for _ in 0..20_000 {
                // Mostly close together, sometimes a pause longer than the window.
                now_us += if next(50) == 0 { secs(2) } else { next(ms(40)) };
                let key = ["a", "b", "c", "d", "e"][next(5) as usize];
                let cost = 1 + next(3) as u32;
                forgotten += forgetful.forget_spent(now_us);
                assert_eq!(
                    kept.check(now_us, key, cost),
                    (&mut *forgetful as &mut dyn Limiter).check(now_us, key, cost),
                    "{kind} at {now_us} µs"
                );
            }
            assert!(forgotten > 100, "{kind}: forgot {forgotten}");
            // Two windows after the last request, every caller is spent.
            let remembered = forgetful.callers();
            assert!(remembered > 0, "{kind}");
            assert_eq!(forgetful.forget_spent(now_us + secs(2)), remembered);
            assert!(forgetful.callers() == 0 && !forgetful.knows("a"), "{kind}");
            assert_eq!(kept.callers(), 5, "{kind}");
        }
    }

    #[test]
    fn a_caller_inside_its_window_is_not_forgotten() {
        for kind in LimiterKind::ALL {
            let mut l = kind.build_forgetting(POLICY, Scope::PerKey).unwrap();
            assert!(
                (&mut *l as &mut dyn Limiter)
                    .check(secs(3), "a", 1)
                    .unwrap()
                    .allowed
            );
            assert_eq!(l.forget_spent(secs(3) + ms(10)), 0, "{kind}");
            assert!(l.knows("a") && !l.knows("b"), "{kind}");
        }
    }

    #[test]
    fn a_clock_that_steps_back_stands_still() {
        for kind in LimiterKind::ALL {
            let mut l = kind.build(POLICY, Scope::PerKey).unwrap();
            for _ in 0..10 {
                assert!(l.check(secs(5), "a", 1).unwrap().allowed);
            }
            // An earlier instant must not reopen an older window or refill anything.
            let d = l.check(secs(4), "a", 1).unwrap();
            assert!(!d.allowed, "{kind}: {d:?}");
            assert_eq!(d, l.check(secs(5), "a", 1).unwrap(), "{kind}");
        }
    }

    #[test]
    fn names_round_trip() {
        for kind in LimiterKind::ALL {
            assert_eq!(kind.as_str().parse::<LimiterKind>(), Ok(kind));
        }
        assert_eq!("leaky".parse::<LimiterKind>().unwrap_err().given, "leaky");
        assert_eq!(ceil_secs(0), 0);
        assert_eq!(ceil_secs(1), 1);
        assert_eq!(ceil_secs(secs(1)), 1);
        assert_eq!(ceil_secs(secs(1) + 1), 2);
    }
}
