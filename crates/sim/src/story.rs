//! One customer's story, told from the record: each attempt as the client saw it and as
//! the provider saw it, side by side. This is where a charge that lands after the client
//! stopped waiting becomes visible. The page layer tells it in words.

use super::provider::{Status, Work};
use super::record::{Admission, ClientView, RequestRecord};
use crate::{Scenario, Simulation, StrategyName};
use serde::Serialize;
use std::collections::BTreeMap;

/// What the client saw of one attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum ClientSide {
    /// Still waiting.
    Waiting,
    /// Received an answer.
    Answered {
        /// HTTP status.
        status: u16,
        /// When.
        at_us: u64,
    },
    /// Stopped waiting.
    TimedOut {
        /// When.
        at_us: u64,
    },
}

/// What the provider did with one attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    tag = "kind"
)]
pub enum ProviderSide {
    /// Refused on arrival.
    Refused {
        /// 429 or 503.
        status: u16,
    },
    /// Admitted and still processing.
    Processing {
        /// When processing will complete.
        until_us: u64,
        /// Took the slow path.
        slow: bool,
    },
    /// Admitted and finished.
    Finished {
        /// HTTP status.
        status: u16,
        /// When.
        at_us: u64,
        /// Money moved.
        charged: bool,
        /// Took the slow path.
        slow: bool,
        /// Answered from the idempotency store.
        replayed: bool,
        /// Answered from a key stored before this run (last month's).
        earlier: bool,
    },
}

/// One attempt of a customer's charge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttemptStory {
    /// Attempt number, from 1.
    pub attempt: u32,
    /// Request number in the run.
    pub request: u32,
    /// The idempotency key sent, if any.
    pub key: Option<String>,
    /// When it was sent.
    pub sent_at_us: u64,
    /// The client's view.
    pub client: ClientSide,
    /// The provider's view.
    pub provider: ProviderSide,
}

/// A customer's whole story so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Story {
    /// The customer.
    pub customer: u32,
    /// Every attempt, in order.
    pub attempts: Vec<AttemptStory>,
    /// Times money moved for this customer.
    pub charges: u32,
}

impl AttemptStory {
    /// Builds one attempt's story from its record.
    pub fn from_record(r: &RequestRecord) -> Self {
        let client = match r.client {
            ClientView::Waiting => ClientSide::Waiting,
            ClientView::Answered { status, at_us } => ClientSide::Answered {
                status: status.code(),
                at_us,
            },
            ClientView::TimedOut { at_us } => ClientSide::TimedOut { at_us },
        };
        let provider = match (r.admission, r.status) {
            (Admission::Refused(s), _) => ProviderSide::Refused { status: s.code() },
            (Admission::Admitted { slow, .. }, None) => ProviderSide::Processing {
                until_us: r.done_at_us,
                slow,
            },
            (Admission::Admitted { slow, work, .. }, Some(status)) => ProviderSide::Finished {
                status: status.code(),
                at_us: r.done_at_us,
                charged: r.charged,
                slow,
                replayed: matches!(work, Work::Replay(_) | Work::Stale(_)),
                earlier: matches!(work, Work::Stale(_)),
            },
        };
        Self {
            attempt: r.attempt,
            request: r.request,
            key: r.key.map(|k| k.to_string()),
            sent_at_us: r.sent_at_us,
            client,
            provider,
        }
    }

    /// True if the provider charged after the client had stopped waiting.
    pub fn charged_behind_clients_back(&self) -> bool {
        matches!(
            (self.client, self.provider),
            (
                ClientSide::TimedOut { .. },
                ProviderSide::Finished { charged: true, .. }
            )
        )
    }
}

impl Story {
    /// Whether `attempt` harmed this customer: it charged behind the client's back, and
    /// the customer paid more than once. With a key, such a charge is the only one (the
    /// retries are answered from the key), so it harmed no one.
    pub fn is_harm(&self, attempt: &AttemptStory) -> bool {
        attempt.charged_behind_clients_back() && self.charges > 1
    }

    /// True if the customer was told they were charged by an answer stored before this
    /// run (last month's, under a key sent again), and no money moved: a charge lost.
    pub fn is_lost(&self) -> bool {
        self.charges == 0
            && self.attempts.iter().any(|a| {
                matches!(
                    (a.client, a.provider),
                    (
                        ClientSide::Answered { status: 200, .. },
                        ProviderSide::Finished { earlier: true, .. }
                    )
                )
            })
    }

    /// The story of `customer` in `record`.
    pub fn of(record: &[RequestRecord], customer: u32) -> Self {
        let attempts: Vec<AttemptStory> = record
            .iter()
            .filter(|r| r.customer == customer)
            .map(AttemptStory::from_record)
            .collect();
        let charges = record
            .iter()
            .filter(|r| r.customer == customer && r.charged)
            .count() as u32;
        Self {
            customer,
            attempts,
            charges,
        }
    }
}

crate::named_enum! {
    /// Scenes worth showing a reader, each found in a run's record.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Scene as "scene" {
        /// A customer charged more than once.
        DoubleCharge = "double-charge",
        /// A charge that landed after the client stopped waiting.
        ChargedAfterTimeout = "charged-after-timeout",
        /// A 409: a retry arrived while the first attempt still ran.
        Conflict = "conflict",
        /// An answer replayed from the idempotency store.
        Replay = "replay",
        /// A declined card.
        Declined = "declined",
        /// A charge lost: last month's stored 200 answered this month's charge, sent
        /// under the same key, and no money moved.
        LostCharge = "lost-charge",
        /// A 422: a key sent again with another body.
        KeyReused = "key-reused",
    }
}

impl Scene {
    /// True for the scenes only some runs can have at all (next month's charge under a
    /// reused key): offered only when a run has one.
    pub fn is_rare(self) -> bool {
        matches!(self, Scene::LostCharge | Scene::KeyReused)
    }

    /// The first customer in the record whose story shows this scene.
    pub fn find(self, record: &[RequestRecord]) -> Option<u32> {
        if self == Scene::DoubleCharge {
            return first_double_charge(record);
        }
        record
            .iter()
            .find(|r| match self {
                Scene::DoubleCharge => false,
                Scene::ChargedAfterTimeout => {
                    r.charged && matches!(r.client, ClientView::TimedOut { .. })
                }
                Scene::Conflict => r.status == Some(Status::InProgress),
                Scene::Replay => {
                    matches!(
                        r.admission,
                        Admission::Admitted {
                            work: Work::Replay(_),
                            ..
                        }
                    ) && r.status.is_some()
                }
                Scene::Declined => r.status == Some(Status::Declined),
                Scene::LostCharge => {
                    matches!(
                        r.admission,
                        Admission::Admitted {
                            work: Work::Stale(Status::Ok),
                            ..
                        }
                    ) && matches!(
                        r.client,
                        ClientView::Answered {
                            status: Status::Ok,
                            ..
                        }
                    )
                }
                Scene::KeyReused => r.status == Some(Status::KeyReused),
            })
            .map(|r| r.customer)
    }
}

/// The first customer whose second charge appears in the record.
fn first_double_charge(record: &[RequestRecord]) -> Option<u32> {
    let mut charged: BTreeMap<u32, u32> = BTreeMap::new();
    record.iter().filter(|r| r.charged).find_map(|r| {
        let n = charged.entry(r.customer).or_default();
        *n += 1;
        (*n == 2).then_some(r.customer)
    })
}

/// One customer's story told twice on the same seed: the first customer `without` a key
/// charges twice, and the same customer in the keyed run, whose draws are the same by
/// common random numbers (the seed keys every draw by customer and attempt), where the
/// key stops the second charge. The lab opens on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyAtWork {
    /// The seed both runs share (and every other number but the strategy).
    pub seed: u64,
    /// Their customers.
    pub customers: u32,
    /// The strategy that charges twice.
    pub without_strategy: StrategyName,
    /// The strategy that adds the key.
    pub with_strategy: StrategyName,
    /// Their story without the key.
    pub without: Story,
    /// Their story with it.
    pub with_key: Story,
}

impl KeyAtWork {
    /// The customer both stories are about: charged twice without the key.
    pub fn customer(&self) -> u32 {
        self.without.customer
    }
}

/// Finds [`KeyAtWork`] on `base`'s seed and numbers: the first double charge of
/// `timeout-no-key`, and the same customer under `keyed` (the rung that adds the key).
/// `None` if that seed charges no one twice, or a run cannot start.
pub fn key_at_work(base: &Scenario) -> Option<KeyAtWork> {
    let story = |strategy: StrategyName, customer: Option<u32>| {
        let mut sim = Simulation::new(&Scenario {
            strategy,
            record: true,
            ..base.clone()
        })
        .ok()?;
        sim.run_to_end();
        let record = sim.record()?;
        let customer = customer.or_else(|| Scene::DoubleCharge.find(record))?;
        Some(Story::of(record, customer))
    };
    let (without_strategy, with_strategy) = (StrategyName::TimeoutNoKey, StrategyName::Keyed);
    let without = story(without_strategy, None)?;
    let with_key = story(with_strategy, Some(without.customer))?;
    Some(KeyAtWork {
        seed: base.seed,
        customers: base.customers,
        without_strategy,
        with_strategy,
        without,
        with_key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(strategy: StrategyName, seed: u64) -> Simulation {
        let mut sim = Simulation::new(&Scenario::article(strategy, seed)).unwrap();
        sim.run_to_end();
        sim
    }

    #[test]
    fn a_double_charge_story_shows_the_charge_behind_the_clients_back() {
        let sim = finished(StrategyName::TimeoutNoKey, 1);
        let record = sim.record().unwrap();
        let customer = Scene::DoubleCharge
            .find(record)
            .expect("timeout-no-key double-charges someone");
        let story = Story::of(record, customer);
        assert!(story.charges >= 2);
        let first = &story.attempts[0];
        assert!(first.charged_behind_clients_back(), "{first:?}");
        assert!(story.is_harm(first), "a second charge followed: {first:?}");
        assert!(
            matches!(first.client, ClientSide::TimedOut { .. }),
            "{first:?}"
        );
        assert!(story.attempts.iter().all(|a| a.key.is_none()));
    }

    #[test]
    fn a_keyed_timeout_ends_in_a_replay_not_a_second_charge() {
        let sim = finished(StrategyName::Pool, 1);
        let record = sim.record().unwrap();
        let customer = Scene::Conflict
            .find(record)
            .expect("the pool produces 409s");
        let story = Story::of(record, customer);
        assert_eq!(story.charges, 1);
        let behind = story
            .attempts
            .iter()
            .find(|a| a.charged_behind_clients_back())
            .expect("the conflict follows a charge the client stopped waiting for");
        assert!(!story.is_harm(behind), "the key made it the only charge");
        let keys: Vec<_> = story.attempts.iter().map(|a| a.key.clone()).collect();
        assert!(keys
            .iter()
            .all(|k| k.as_deref() == Some(&format!("ck-{customer}")[..])));
        let providers: Vec<ProviderSide> = story.attempts.iter().map(|a| a.provider).collect();
        assert!(
            providers.iter().any(|p| matches!(
                p,
                ProviderSide::Finished {
                    status: 409,
                    charged: false,
                    ..
                }
            )),
            "{providers:?}"
        );
        assert!(
            matches!(
                providers.last(),
                Some(ProviderSide::Finished {
                    status: 200,
                    charged: false,
                    replayed: true,
                    ..
                })
            ),
            "{providers:?}"
        );
    }

    #[test]
    fn scenes_are_found_by_name() {
        for scene in Scene::ALL {
            assert_eq!(scene.as_str().parse::<Scene>(), Ok(scene));
        }
        assert!("double".parse::<Scene>().is_err());
    }

    #[test]
    fn scenes_are_absent_where_the_strategy_prevents_them() {
        let keyed = finished(StrategyName::Keyed, 3);
        assert_eq!(Scene::DoubleCharge.find(keyed.record().unwrap()), None);
        let naive = finished(StrategyName::Naive, 3);
        assert_eq!(Scene::Conflict.find(naive.record().unwrap()), None);
        assert!(Scene::Declined
            .find(keyed.record().unwrap())
            .is_some_and(|c| c % 97 == 0));
    }

    #[test]
    fn the_key_at_work_is_one_customer_charged_twice_and_once_on_the_same_seed() {
        let mut found = 0;
        for seed in 1..=20 {
            let Some(k) = key_at_work(&Scenario::article(StrategyName::Keyed, seed)) else {
                continue;
            };
            found += 1;
            let both = [&k.without, &k.with_key];
            assert!(
                both.iter().all(|s| s.customer == k.customer()),
                "seed {seed}"
            );
            assert!(k.without.charges >= 2, "seed {seed}: {:?}", k.without);
            assert_eq!(k.with_key.charges, 1, "seed {seed}: {:?}", k.with_key);
            // Common random numbers: the first attempt leaves at the same instant and
            // takes the same path.
            let firsts = both.map(|s| (s.attempts[0].sent_at_us, s.attempts[0].provider));
            assert_eq!(firsts[0], firsts[1], "seed {seed}");
            assert!(k.without.attempts.iter().all(|a| a.key.is_none()));
            assert!(k.with_key.attempts.iter().all(|a| a.key.is_some()));
        }
        assert!(found >= 15, "{found} of 20 seeds charge someone twice");
        let k = key_at_work(&Scenario::default()).expect("seed 1 charges someone twice");
        let run = finished(StrategyName::TimeoutNoKey, 1);
        assert_eq!(
            Scene::DoubleCharge.find(run.record().unwrap()),
            Some(k.customer())
        );
        assert_eq!(k.without, Story::of(run.record().unwrap(), k.customer()));
    }
}
