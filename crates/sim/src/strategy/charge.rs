//! One charge, from the client's side: the loop every strategy shares.
//!
//! ```text
//! for attempt in 1..=max_attempts:
//!     wait for a pacer turn (if there is a pacer)
//!     send, with the key (if any), and wait for the answer or the timeout (if any)
//!     200 → charged, stop.   400 → declined, stop: sending again changes nothing.
//!     422 → refused, stop: the key was sent before with another body.
//!     anything else, or no answer in time → sleep base · 2^(attempt−1), then go on
//! gave up
//! ```
//!
//! The loop is written as a state machine ([`ChargeTask`]) that reacts to inputs and
//! returns the next [`Step`] for its runner to carry out. It never reads a clock or
//! performs I/O itself, so the simulation drives it in simulated time, and a real HTTP
//! client could drive the same code in real time.

use super::adaptive::Aimd;
use super::breaker::{Breaker, BreakerState};
use super::budget::QuotaBucket;
use super::pacer::Pacer;
use super::{ClientPlan, Launch};
use crate::headers::wait_from_header;
use crate::next_month::ChargeRound;
use crate::provider::{IdempotencyKey, Status};
use crate::rng::{Draw, DrawKey, KeyedDraws};
use serde::{Deserialize, Serialize};

/// How a charge ended, from the client's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// Got a 200.
    Charged,
    /// Got a 400: the card is declined.
    Declined,
    /// Got a 422: the key was sent before with another body, so it names another
    /// operation.
    Refused,
    /// Ran out of attempts without a final answer.
    GaveUp,
}

/// Where one charge is in its loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Not started yet.
    Idle,
    /// Waiting for the pacer turn of attempt `attempt`.
    WaitingForTurn {
        /// The attempt about to be sent, from 1.
        attempt: u32,
    },
    /// Attempt `attempt` is sent; waiting for its answer or the timeout.
    Awaiting {
        /// The attempt in flight, from 1.
        attempt: u32,
    },
    /// Attempt `attempt − 1` failed; sleeping before attempt `attempt`.
    BackingOff {
        /// The attempt that follows the sleep.
        attempt: u32,
    },
    /// Finished.
    Done {
        /// How it ended.
        outcome: Outcome,
        /// When it ended.
        at_us: u64,
    },
}

/// One attempt the runner must send now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The attempt number, from 1.
    pub number: u32,
    /// The idempotency key to send, if the strategy uses one.
    pub key: Option<IdempotencyKey>,
    /// Give up on this attempt this long after sending it, if the strategy has a timeout.
    pub timeout_us: Option<u64>,
}

/// What the runner must do next for a charge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Wake the task with [`Client::wake`] at this pacer turn. Successive turns never
    /// go back in time, which lets a runner keep them in a plain queue.
    WaitForTurn(u64),
    /// Wake the task with [`Client::wake`] at this time, after a backoff.
    SleepUntil(u64),
    /// Send this attempt now, then report its answer or its timeout.
    Send(Attempt),
    /// The charge is over.
    Finish(Outcome),
}

/// The state of one customer's charge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChargeTask {
    /// The customer to charge.
    pub customer: u32,
    /// Where the loop is.
    pub phase: Phase,
    /// The client has received a 400 for this customer.
    pub declined_seen: bool,
    /// When the attempt awaited (or the last one) was sent.
    pub sent_at_us: u64,
    /// What the last retry cost from the retry budget, if the plan has one.
    pub last_retry_cost: Option<u32>,
    /// Times in a row the next send was held back to wait for a free slot: each such
    /// wait is twice the last, up to [`MAX_POLL_US`].
    pub polls: u32,
}

/// The longest a worker waits between two looks at a full concurrency limit or a
/// half-open breaker with every probe out.
pub const MAX_POLL_US: u64 = crate::time::US_PER_S;

impl ChargeTask {
    /// A charge that has not started.
    pub fn new(customer: u32) -> Self {
        Self {
            customer,
            phase: Phase::Idle,
            declined_seen: false,
            sent_at_us: 0,
            last_retry_cost: None,
            polls: 0,
        }
    }

    /// True if the task waits for the answer to this attempt (so an answer or a timeout
    /// for any other attempt is stale and must be ignored).
    pub fn is_awaiting(&self, attempt: u32) -> bool {
        self.phase == Phase::Awaiting { attempt }
    }

    /// The outcome, once finished.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            Phase::Done { outcome, .. } => Some(outcome),
            _ => None,
        }
    }
}

/// What the client has counted of its own decisions, for the runner's stats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientTally {
    /// Retries the retry budget refused: each ended its charge.
    pub budget_exhausted: u64,
    /// Times the circuit breaker opened.
    pub breaker_opens: u64,
    /// Sends held back: by a header's pause, an open breaker, or to look again later for
    /// a free slot.
    pub holds: u64,
}

/// A client following one plan, with what its workers share: the pacer, a header's
/// pause, the retry budget, the breaker and the concurrency limit.
#[derive(Clone, Debug)]
pub struct Client {
    plan: ClientPlan,
    pacer: Option<Pacer>,
    /// No worker sends before this: the end of the last wait a header asked for.
    paused_until_us: u64,
    /// That wait's length: a paused worker comes back up to this much after the pause.
    pause_spread_us: u64,
    quota: Option<QuotaBucket>,
    breaker: Option<Breaker>,
    aimd: Option<Aimd>,
    /// Attempts sent and not yet answered or timed out.
    awaiting: u32,
    tally: ClientTally,
    /// The run's dice, for the jitter of a worker held back by a header's pause (the
    /// other draws are handed in with each answer).
    dice: KeyedDraws,
    /// Which key a charge sends, if the plan sends one.
    keys: KeyNames,
    /// Random numbers drawn so far from the client's one stream
    /// ([`KeyedDraws::client_random`]).
    randoms: u32,
}

crate::named_enum! {
    /// What a client's idempotency key names.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum KeyScope as "key scope" {
        /// One charge operation: each charge, this month's and next month's, has a key
        /// of its own (as the idempotency-key draft and Stripe ask).
        #[default]
        Charge = "charge",
        /// The customer: the same key for every charge of that customer, so next
        /// month's charge is taken for a retry of last month's.
        Customer = "customer",
    }
}

/// How a client names the key of a customer's charge: by the operation (a new key for
/// next month's charge) or by the customer (the same key again).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyNames {
    /// What the key names.
    pub scope: KeyScope,
    /// Which charge is being sent.
    pub round: ChargeRound,
}

impl KeyNames {
    /// The key `customer`'s charge is sent with.
    pub fn key(self, customer: u32) -> IdempotencyKey {
        match (self.scope, self.round) {
            (KeyScope::Charge, ChargeRound::NextMonth) => IdempotencyKey::for_next_charge(customer),
            _ => IdempotencyKey::for_charge(customer),
        }
    }
}

impl Client {
    /// A client for `plan`, with a fresh pacer if the plan paces.
    pub fn new(plan: ClientPlan) -> Self {
        Self {
            pacer: plan.pacer_per_s.map(Pacer::new),
            paused_until_us: 0,
            pause_spread_us: 0,
            quota: plan.retry_quota.map(QuotaBucket::new),
            breaker: plan.breaker.map(Breaker::new),
            aimd: match plan.launch {
                Launch::Adaptive(config) => Some(Aimd::new(config)),
                Launch::AllAtOnce | Launch::Workers(_) => None,
            },
            awaiting: 0,
            tally: ClientTally::default(),
            dice: KeyedDraws::from_seed(0),
            keys: KeyNames::default(),
            randoms: 0,
            plan,
        }
    }

    /// The same client, naming its keys by `keys` (without this, each charge's key is
    /// the first charge's).
    pub fn with_keys(self, keys: KeyNames) -> Self {
        Self { keys, ..self }
    }

    /// The same client, drawing a held worker's jitter from the run's dice (without
    /// this, from seed 0's).
    pub fn with_dice(self, dice: KeyedDraws) -> Self {
        Self { dice, ..self }
    }

    /// The plan this client follows.
    pub fn plan(&self) -> &ClientPlan {
        &self.plan
    }

    /// The shared pacer, if the plan paces.
    pub fn pacer_mut(&mut self) -> Option<&mut Pacer> {
        self.pacer.as_mut()
    }

    /// The adaptive concurrency limit now, if the plan adapts.
    pub fn concurrency_limit(&self) -> Option<u32> {
        self.aimd.map(|a| a.limit())
    }

    /// What the client has counted of its own decisions so far.
    pub fn tally(&self) -> ClientTally {
        self.tally
    }

    /// Starts a charge at `now_us`: its first attempt takes a pacer turn.
    pub fn begin(&mut self, task: &mut ChargeTask, now_us: u64) -> Step {
        assert!(task.phase == Phase::Idle, "a charge starts once");
        if let Some(a) = self.aimd.as_mut() {
            a.on_begin();
        }
        self.take_turn(task, now_us, 1)
    }

    /// Starts a charge whose first pacer turn was booked ahead (see
    /// [`Pacer::book_many`]) and has come at `now_us`: the first attempt goes now.
    pub fn begin_on_booked_turn(&mut self, task: &mut ChargeTask, now_us: u64) -> Step {
        assert!(task.phase == Phase::Idle, "a charge starts once");
        self.send(task, now_us, 1)
    }

    /// The task's sleep is over.
    pub fn wake(&mut self, task: &mut ChargeTask, now_us: u64) -> Step {
        match task.phase {
            Phase::WaitingForTurn { attempt } => self.send(task, now_us, attempt),
            Phase::BackingOff { attempt } => self.take_turn(task, now_us, attempt),
            _ => panic!("woke a charge that was not sleeping"),
        }
    }

    /// The answer to the attempt the task is awaiting has arrived, without headers. A
    /// backoff with full jitter takes its dice from `dice`, keyed by the customer and
    /// the attempt.
    pub fn on_answer(
        &mut self,
        task: &mut ChargeTask,
        now_us: u64,
        status: Status,
        dice: &KeyedDraws,
    ) -> Step {
        let none: [(&str, &str); 0] = [];
        self.on_answer_with_headers(task, now_us, status, &none, dice)
    }

    /// The answer to the attempt the task is awaiting has arrived with these headers. A
    /// plan that obeys headers reads the wait of a 429 or a 503 from them with the
    /// project's header reader; the others never look.
    pub fn on_answer_with_headers<N: AsRef<str>, V: AsRef<str>>(
        &mut self,
        task: &mut ChargeTask,
        now_us: u64,
        status: Status,
        headers: &[(N, V)],
        dice: &KeyedDraws,
    ) -> Step {
        let Phase::Awaiting { attempt } = task.phase else {
            panic!("an answer for a charge that was not waiting");
        };
        let pushed_back = matches!(status, Status::TooManyRequests | Status::Overloaded);
        let rtt_us = (status == Status::Ok).then(|| now_us - task.sent_at_us);
        self.attempt_ended(rtt_us, pushed_back);
        if let Some(b) = self.breaker.as_mut() {
            let failed = !matches!(
                status,
                Status::Ok | Status::Declined | Status::InProgress | Status::KeyReused
            );
            self.tally.breaker_opens += u64::from(b.record(now_us, failed));
        }
        match status {
            Status::Ok => {
                if let Some(q) = self.quota.as_mut() {
                    q.refund(if attempt == 1 {
                        None
                    } else {
                        task.last_retry_cost
                    });
                }
                self.finish(task, now_us, Outcome::Charged)
            }
            Status::Declined => {
                task.declined_seen = true;
                self.finish(task, now_us, Outcome::Declined)
            }
            Status::KeyReused => self.finish(task, now_us, Outcome::Refused),
            _ => {
                let wait_us = (self.plan.obey_headers && pushed_back)
                    .then(|| header_wait_us(headers, now_us))
                    .flatten();
                self.failed(task, now_us, attempt, false, wait_us, dice)
            }
        }
    }

    /// The attempt the task is awaiting has run out of time. As for [`Client::on_answer`],
    /// a jittered backoff takes its dice from `dice`.
    pub fn on_timeout(&mut self, task: &mut ChargeTask, now_us: u64, dice: &KeyedDraws) -> Step {
        let Phase::Awaiting { attempt } = task.phase else {
            panic!("a timeout for a charge that was not waiting");
        };
        self.attempt_ended(None, true);
        if let Some(b) = self.breaker.as_mut() {
            self.tally.breaker_opens += u64::from(b.record(now_us, true));
        }
        self.failed(task, now_us, attempt, true, None, dice)
    }

    /// An attempt ended: `rtt_us` for a 200, `pushed_back` for a 429, a 503 or a timeout.
    fn attempt_ended(&mut self, rtt_us: Option<u64>, pushed_back: bool) {
        self.awaiting -= 1;
        if let Some(a) = self.aimd.as_mut() {
            a.on_result(rtt_us, pushed_back);
        }
    }

    fn finish(&mut self, task: &mut ChargeTask, now_us: u64, outcome: Outcome) -> Step {
        if let Some(a) = self.aimd.as_mut() {
            a.on_finish(now_us);
        }
        task.phase = Phase::Done {
            outcome,
            at_us: now_us,
        };
        Step::Finish(outcome)
    }

    fn take_turn(&mut self, task: &mut ChargeTask, now_us: u64, attempt: u32) -> Step {
        match self.pacer.as_mut().map(|p| p.book(now_us)) {
            Some(turn_us) if turn_us > now_us => {
                task.phase = Phase::WaitingForTurn { attempt };
                Step::WaitForTurn(turn_us)
            }
            _ => self.send(task, now_us, attempt),
        }
    }

    /// Sends the attempt, unless something the workers share holds it back: a header's
    /// pause, the concurrency limit, or the breaker (asked last, since a half-open
    /// breaker's yes uses up a probe).
    fn send(&mut self, task: &mut ChargeTask, now_us: u64, attempt: u32) -> Step {
        if now_us < self.paused_until_us {
            let spread = self.jitter_us(self.pause_spread_us);
            self.tally.holds += 1;
            return hold(task, attempt, self.paused_until_us + spread);
        }
        if let Some(a) = self.aimd.filter(|a| self.awaiting >= a.limit()) {
            return self.poll(task, attempt, now_us, a.poll_us());
        }
        if let Some(b) = self.breaker.as_mut() {
            if !b.permits(now_us) {
                let again_us = b.retry_at_us(now_us);
                return match b.state() {
                    BreakerState::Open { until_us } => {
                        self.tally.holds += 1;
                        hold(task, attempt, until_us)
                    }
                    _ => self.poll(task, attempt, now_us, again_us - now_us),
                };
            }
        }
        task.polls = 0;
        task.phase = Phase::Awaiting { attempt };
        task.sent_at_us = now_us;
        self.awaiting += 1;
        Step::Send(Attempt {
            number: attempt,
            key: self
                .plan
                .idempotency_key
                .then(|| self.keys.key(task.customer)),
            timeout_us: self.plan.timeout_us,
        })
    }

    /// A full-jitter spread of up to `spread_us`: the client's next random number times
    /// the spread, rounded to the microsecond. The same draw, in the same order, as
    /// `Math.round(Math.random() * spread)` in the project's JavaScript for this rung
    /// (`clients/headers.js`), run in the sandbox on the same seed.
    fn jitter_us(&mut self, spread_us: u64) -> u64 {
        let r = self.dice.client_random(self.randoms);
        self.randoms += 1;
        (r * spread_us as f64).round() as u64
    }

    /// Holds the attempt back to look again for a free slot: after `base_us`, doubled
    /// for each look in a row, at most [`MAX_POLL_US`] (so a slot held by a slow
    /// charge costs a few looks, not one every round trip).
    fn poll(&mut self, task: &mut ChargeTask, attempt: u32, now_us: u64, base_us: u64) -> Step {
        self.tally.holds += 1;
        let wait_us = base_us
            .saturating_mul(1 << task.polls.min(20))
            .min(MAX_POLL_US.max(base_us));
        task.polls += 1;
        hold(task, attempt, now_us + wait_us)
    }

    fn failed(
        &mut self,
        task: &mut ChargeTask,
        now_us: u64,
        attempt: u32,
        timed_out: bool,
        header_wait_us: Option<u64>,
        dice: &KeyedDraws,
    ) -> Step {
        if attempt >= self.plan.max_attempts {
            return self.finish(task, now_us, Outcome::GaveUp);
        }
        if let Some(q) = self.quota.as_mut() {
            match q.take(timed_out) {
                Some(cost) => task.last_retry_cost = Some(cost),
                None => {
                    self.tally.budget_exhausted += 1;
                    return self.finish(task, now_us, Outcome::GaveUp);
                }
            }
        }
        let wake_us = if let Some(wait_us) = header_wait_us {
            // One wait pauses every worker; this one comes back after it, spread by
            // full jitter over as long again.
            self.paused_until_us = self.paused_until_us.max(now_us + wait_us);
            self.pause_spread_us = wait_us;
            now_us + wait_us + self.jitter_us(wait_us)
        } else {
            let pause_us = self.plan.backoff.pause_us(attempt);
            now_us
                + if self.plan.backoff.full_jitter {
                    dice.stream(DrawKey {
                        customer: task.customer,
                        nth: attempt,
                        draw: Draw::Backoff,
                    })
                    .between(0, pause_us)
                } else {
                    pause_us
                }
        };
        task.phase = Phase::BackingOff {
            attempt: attempt + 1,
        };
        Step::SleepUntil(wake_us)
    }
}

/// The wait a refusal's headers ask for, read with the project's header reader
/// ([`wait_from_header`]) in the order a client should trust them: `Retry-After`, then
/// the structured `RateLimit` field's `t`, then `RateLimit-Reset`. A header it cannot
/// read is passed over; none readable means no wait from the headers.
fn header_wait_us<N: AsRef<str>, V: AsRef<str>>(headers: &[(N, V)], now_us: u64) -> Option<u64> {
    ["retry-after", "ratelimit", "ratelimit-reset"]
        .into_iter()
        .find_map(|wanted| {
            headers
                .iter()
                .filter(|(n, _)| n.as_ref().trim().eq_ignore_ascii_case(wanted))
                .find_map(|(n, v)| wait_from_header(n.as_ref(), v.as_ref(), now_us).ok())
        })
        .map(|w| w.wait_us)
}

/// Holds attempt `attempt` back until `until_us`, when it asks for a turn again.
fn hold(task: &mut ChargeTask, attempt: u32, until_us: u64) -> Step {
    task.phase = Phase::BackingOff { attempt };
    Step::SleepUntil(until_us)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{ClientParams, StrategyName};

    fn client(strategy: StrategyName) -> Client {
        Client::new(strategy.plan(&ClientParams::default()))
    }

    fn sent(step: Step) -> Attempt {
        match step {
            Step::Send(a) => a,
            other => panic!("expected a send, got {other:?}"),
        }
    }

    #[test]
    fn naive_sends_once_and_gives_up_on_any_failure() {
        let mut c = client(StrategyName::Naive);
        let dice = KeyedDraws::from_seed(1);
        let mut t = ChargeTask::new(1);
        let a = sent(c.begin(&mut t, 0));
        assert_eq!(
            a,
            Attempt {
                number: 1,
                key: None,
                timeout_us: None
            }
        );
        assert_eq!(
            c.on_answer(&mut t, 5, Status::TooManyRequests, &dice),
            Step::Finish(Outcome::GaveUp)
        );
        assert_eq!(t.outcome(), Some(Outcome::GaveUp));
    }

    #[test]
    fn retry_backs_off_100_200_400_800_then_gives_up_after_five() {
        let mut c = client(StrategyName::Retry);
        let dice = KeyedDraws::from_seed(1);
        let mut t = ChargeTask::new(1);
        let mut now = 0;
        assert_eq!(sent(c.begin(&mut t, now)).number, 1);
        for (attempt, pause_ms) in [(1, 100), (2, 200), (3, 400), (4, 800)] {
            let step = c.on_answer(&mut t, now, Status::ServerError, &dice);
            assert_eq!(
                step,
                Step::SleepUntil(now + pause_ms * 1_000),
                "after attempt {attempt}"
            );
            now += pause_ms * 1_000;
            // The pacer is idle by now, so the turn is immediate.
            assert_eq!(sent(c.wake(&mut t, now)).number, attempt + 1);
        }
        assert_eq!(
            c.on_answer(&mut t, now, Status::Overloaded, &dice),
            Step::Finish(Outcome::GaveUp)
        );
    }

    #[test]
    fn a_400_is_an_answer_not_a_failure() {
        let mut c = client(StrategyName::Keyed);
        let dice = KeyedDraws::from_seed(1);
        let mut t = ChargeTask::new(97);
        sent(c.begin(&mut t, 0));
        assert_eq!(
            c.on_answer(&mut t, 15_000, Status::Declined, &dice),
            Step::Finish(Outcome::Declined)
        );
        assert!(t.declined_seen);
    }

    #[test]
    fn a_409_is_retried_like_a_500() {
        let mut c = client(StrategyName::Keyed);
        let dice = KeyedDraws::from_seed(1);
        let mut t = ChargeTask::new(3);
        sent(c.begin(&mut t, 0));
        assert_eq!(
            c.on_answer(&mut t, 10, Status::InProgress, &dice),
            Step::SleepUntil(100_010)
        );
    }

    #[test]
    fn a_timeout_is_a_failed_attempt_and_the_key_stays_the_same() {
        let mut c = client(StrategyName::Keyed);
        let dice = KeyedDraws::from_seed(1);
        let mut t = ChargeTask::new(42);
        let first = sent(c.begin(&mut t, 0));
        assert_eq!(first.timeout_us, Some(1_000_000));
        assert_eq!(first.key.map(|k| k.to_string()), Some("ck-42".to_string()));
        assert!(t.is_awaiting(1));
        assert_eq!(
            c.on_timeout(&mut t, 1_000_000, &dice),
            Step::SleepUntil(1_100_000)
        );
        assert!(!t.is_awaiting(1), "a late answer to attempt 1 is now stale");
        let second = sent(c.wake(&mut t, 1_100_000));
        assert_eq!((second.number, second.key), (2, first.key));
    }

    #[test]
    fn without_a_key_strategy_no_key_is_sent() {
        let mut c = client(StrategyName::TimeoutNoKey);
        let a = sent(c.begin(&mut ChargeTask::new(1), 0));
        assert_eq!((a.key, a.timeout_us), (None, Some(1_000_000)));
    }

    #[test]
    fn a_retry_books_a_turn_at_the_back_of_the_line() {
        let mut c = client(StrategyName::Retry);
        let dice = KeyedDraws::from_seed(1);
        // 1,000 first attempts booked at t = 0 (as the launcher does).
        let first_us = c.pacer_mut().unwrap().book_many(0, 1_000);
        assert_eq!(first_us, 0);
        let mut t = ChargeTask::new(1);
        c.begin_on_booked_turn(&mut t, 0);
        c.on_answer(&mut t, 15_000, Status::ServerError, &dice);
        // Its retry waits for turn 1,000, about 11.1 s in.
        assert_eq!(c.wake(&mut t, 115_000), Step::WaitForTurn(1_000 * 11_111));
        assert_eq!(sent(c.wake(&mut t, 11_111_000)).number, 2);
    }

    #[test]
    fn full_jitter_sleeps_at_most_the_backoff() {
        let params = ClientParams {
            backoff_jitter: true,
            ..ClientParams::default()
        };
        let dice = KeyedDraws::from_seed(5);
        let mut sleeps = Vec::new();
        for customer in 1..=200 {
            // A fresh client each time, so the pacer always has a turn free at t = 0.
            let mut c = Client::new(StrategyName::Retry.plan(&params));
            let mut t = ChargeTask::new(customer);
            c.begin(&mut t, 0);
            if let Step::SleepUntil(until) = c.on_answer(&mut t, 0, Status::ServerError, &dice) {
                sleeps.push(until);
            }
        }
        assert!(sleeps.iter().all(|s| *s <= 100_000));
        assert!(sleeps.iter().any(|s| *s < 50_000) && sleeps.iter().any(|s| *s > 50_000));
    }

    #[test]
    fn full_jitter_is_keyed_by_customer_and_attempt_not_by_order() {
        let params = ClientParams {
            backoff_jitter: true,
            ..ClientParams::default()
        };
        let dice = KeyedDraws::from_seed(5);
        // Each customer's sleeps after failed attempts 1 and 2, the customers taken in
        // `order` (a fresh client each, so the pacer always has a turn free).
        let sleeps = |order: Vec<u32>| {
            let mut by_customer = std::collections::BTreeMap::new();
            for customer in order {
                let mut c = Client::new(StrategyName::Retry.plan(&params));
                let mut t = ChargeTask::new(customer);
                c.begin(&mut t, 0);
                let Step::SleepUntil(first) = c.on_answer(&mut t, 0, Status::ServerError, &dice)
                else {
                    panic!("attempt 1 of 5 backs off");
                };
                // The pacer's second turn may come after the sleep.
                let sent_us = match c.wake(&mut t, first) {
                    Step::WaitForTurn(turn_us) => {
                        sent(c.wake(&mut t, turn_us));
                        turn_us
                    }
                    step => {
                        sent(step);
                        first
                    }
                };
                let Step::SleepUntil(second) = c.on_timeout(&mut t, sent_us, &dice) else {
                    panic!("attempt 2 of 5 backs off");
                };
                by_customer.insert(customer, (first, second - sent_us));
            }
            by_customer
        };
        let forward = sleeps((1..=50).collect());
        assert_eq!(forward, sleeps((1..=50).rev().collect()));
        let firsts: std::collections::BTreeSet<_> = forward.values().map(|s| s.0).collect();
        assert!(firsts.len() > 40, "the dice differ between customers");
        assert!(
            forward.values().any(|&(a, b)| b != 2 * a),
            "attempt 2 has dice of its own, not attempt 1's doubled"
        );
    }

    #[test]
    fn each_strategy_changes_one_thing_from_the_previous() {
        let p = ClientParams::default();
        for s in StrategyName::ALL.into_iter().skip(1) {
            let prev = s.previous().unwrap().plan(&p);
            let cur = s.plan(&p);
            let changed = [
                prev.launch != cur.launch,
                prev.pacer_per_s != cur.pacer_per_s,
                prev.max_attempts != cur.max_attempts || prev.backoff != cur.backoff,
                prev.timeout_us != cur.timeout_us,
                prev.idempotency_key != cur.idempotency_key,
                prev.obey_headers != cur.obey_headers,
                prev.retry_quota != cur.retry_quota,
                prev.breaker != cur.breaker,
            ];
            assert_eq!(changed.iter().filter(|c| **c).count(), 1, "{s}");
        }
    }
}
