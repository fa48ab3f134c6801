//! One charge, from the client's side: the loop every strategy shares.
//!
//! ```text
//! for attempt in 1..=max_attempts:
//!     wait for a pacer turn (if there is a pacer)
//!     send, with the key (if any), and wait for the answer or the timeout (if any)
//!     200 → charged, stop.   400 → declined, stop: sending again changes nothing.
//!     anything else, or no answer in time → sleep base · 2^(attempt−1), then go on
//! gave up
//! ```
//!
//! The loop is written as a state machine ([`ChargeTask`]) that reacts to inputs and
//! returns the next [`Step`] for its runner to carry out. It never reads a clock or
//! performs I/O itself, so the simulation drives it in simulated time, and a real HTTP
//! client could drive the same code in real time.

use super::pacer::Pacer;
use super::ClientPlan;
use crate::sim::provider::{IdempotencyKey, Status};
use crate::sim::rng::{Draw, DrawKey, KeyedDraws};
use serde::{Deserialize, Serialize};

/// How a charge ended, from the client's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Outcome {
    /// Got a 200.
    Charged,
    /// Got a 400: the card is declined.
    Declined,
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
}

impl ChargeTask {
    /// A charge that has not started.
    pub fn new(customer: u32) -> Self {
        Self {
            customer,
            phase: Phase::Idle,
            declined_seen: false,
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

/// A client following one plan, with its shared pacer.
#[derive(Clone, Debug)]
pub struct Client {
    plan: ClientPlan,
    pacer: Option<Pacer>,
}

impl Client {
    /// A client for `plan`, with a fresh pacer if the plan paces.
    pub fn new(plan: ClientPlan) -> Self {
        Self {
            pacer: plan.pacer_per_s.map(Pacer::new),
            plan,
        }
    }

    /// The plan this client follows.
    pub fn plan(&self) -> &ClientPlan {
        &self.plan
    }

    /// The shared pacer, if the plan paces.
    pub fn pacer_mut(&mut self) -> Option<&mut Pacer> {
        self.pacer.as_mut()
    }

    /// Starts a charge at `now_us`: its first attempt takes a pacer turn.
    pub fn begin(&mut self, task: &mut ChargeTask, now_us: u64) -> Step {
        assert_eq!(task.phase, Phase::Idle, "a charge starts once");
        self.take_turn(task, now_us, 1)
    }

    /// Starts a charge whose first pacer turn was booked ahead (see
    /// [`Pacer::book_many`]) and has come: the first attempt goes now.
    pub fn begin_on_booked_turn(&mut self, task: &mut ChargeTask) -> Step {
        assert_eq!(task.phase, Phase::Idle, "a charge starts once");
        self.send(task, 1)
    }

    /// The task's sleep is over.
    pub fn wake(&mut self, task: &mut ChargeTask, now_us: u64) -> Step {
        match task.phase {
            Phase::WaitingForTurn { attempt } => self.send(task, attempt),
            Phase::BackingOff { attempt } => self.take_turn(task, now_us, attempt),
            other => panic!("woke a charge that was not sleeping: {other:?}"),
        }
    }

    /// The answer to the attempt the task is awaiting has arrived. A backoff with full
    /// jitter takes its dice from `dice`, keyed by the customer and the attempt.
    pub fn on_answer(
        &mut self,
        task: &mut ChargeTask,
        now_us: u64,
        status: Status,
        dice: &KeyedDraws,
    ) -> Step {
        let Phase::Awaiting { attempt } = task.phase else {
            panic!(
                "an answer for a charge that was not waiting: {:?}",
                task.phase
            );
        };
        match status {
            Status::Ok => finish(task, now_us, Outcome::Charged),
            Status::Declined => {
                task.declined_seen = true;
                finish(task, now_us, Outcome::Declined)
            }
            _ => self.failed(task, now_us, attempt, dice),
        }
    }

    /// The attempt the task is awaiting has run out of time. As for [`Client::on_answer`],
    /// a jittered backoff takes its dice from `dice`.
    pub fn on_timeout(&mut self, task: &mut ChargeTask, now_us: u64, dice: &KeyedDraws) -> Step {
        let Phase::Awaiting { attempt } = task.phase else {
            panic!(
                "a timeout for a charge that was not waiting: {:?}",
                task.phase
            );
        };
        self.failed(task, now_us, attempt, dice)
    }

    fn take_turn(&mut self, task: &mut ChargeTask, now_us: u64, attempt: u32) -> Step {
        match self.pacer.as_mut().map(|p| p.book(now_us)) {
            Some(turn_us) if turn_us > now_us => {
                task.phase = Phase::WaitingForTurn { attempt };
                Step::WaitForTurn(turn_us)
            }
            _ => self.send(task, attempt),
        }
    }

    fn send(&mut self, task: &mut ChargeTask, attempt: u32) -> Step {
        task.phase = Phase::Awaiting { attempt };
        Step::Send(Attempt {
            number: attempt,
            key: self
                .plan
                .idempotency_key
                .then(|| IdempotencyKey::for_charge(task.customer)),
            timeout_us: self.plan.timeout_us,
        })
    }

    fn failed(
        &mut self,
        task: &mut ChargeTask,
        now_us: u64,
        attempt: u32,
        dice: &KeyedDraws,
    ) -> Step {
        if attempt >= self.plan.max_attempts {
            return finish(task, now_us, Outcome::GaveUp);
        }
        let pause_us = self.plan.backoff.pause_us(attempt);
        let sleep_us = if self.plan.backoff.full_jitter {
            dice.stream(DrawKey {
                customer: task.customer,
                nth: attempt,
                draw: Draw::Backoff,
            })
            .between(0, pause_us)
        } else {
            pause_us
        };
        task.phase = Phase::BackingOff {
            attempt: attempt + 1,
        };
        Step::SleepUntil(now_us + sleep_us)
    }
}

fn finish(task: &mut ChargeTask, now_us: u64, outcome: Outcome) -> Step {
    task.phase = Phase::Done {
        outcome,
        at_us: now_us,
    };
    Step::Finish(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::strategy::{ClientParams, StrategyName};

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
        c.begin_on_booked_turn(&mut t);
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
            ];
            assert_eq!(changed.iter().filter(|c| **c).count(), 1, "{s}");
        }
    }
}
