//! The report card over real HTTP: what `ratelab serve`'s `GET /report` and `ratelab
//! judge` answer. The server fills in a real client's card from what it saw
//! ([`crate::server::Service::report`]); this module sets beside it the best the ten
//! built-in strategies did in the simulation on the same provider, seed and customers.
//!
//! A server cannot see when a customer "arrived" at its client, or when a client gave
//! up without sending: it sees requests, and the answers the client heard or walked
//! away from. So both sides are read the same way: a customer's wait runs from its first
//! request to the last answer its client heard (or stopped waiting for), and the run's
//! elapsed time ends at the last such answer. The built-ins' waits here therefore leave
//! out the time a charge spends in its client's own queue (the pacer's turns), which
//! `ratelab charges`' `waitP99Ms` counts from the batch's start.

pub use page::shared::report::{best_of, Best};
use page::shared::report::{CardView, Note, FIGURES};
use serde::Serialize;
use sim::provider::ProviderConfig;
use sim::record::RequestRecord;
use sim::report::ReportCard;
use sim::waits::Waits;
use sim::{Scenario, Simulation, StrategyName};
use std::collections::BTreeMap;

/// The environment variable `ratelab judge` gives the command it runs: the provider's
/// address, e.g. `http://127.0.0.1:40123`.
pub const ENV_URL: &str = "RATELAB_URL";

/// The environment variable for how many customers to charge: ids 1 to this.
pub const ENV_CUSTOMERS: &str = "RATELAB_CUSTOMERS";

/// The environment variable for the seed of the provider's dice.
pub const ENV_SEED: &str = "RATELAB_SEED";

/// The most customers the built-in strategies are simulated for beside a card: the ten
/// runs with their records of 100,000 customers took 0.24 s, and `ratelab judge
/// --customers 100000 -- true` peaked at 25 MB (release build, this project's 2-core
/// machine). Above it the card says so and shows no comparison.
pub const COMPARE_MAX_CUSTOMERS: u32 = 100_000;

/// The ten built-in strategies' cards on `provider` with `seed` and `customers` (a
/// batch: all of them at the run's start), in the ladder's order, each read as the
/// server reads a real client (see the module's doc). A scenario the simulation refuses
/// gets its sentence.
pub fn built_in_cards(
    provider: &ProviderConfig,
    seed: u64,
    customers: u32,
) -> Result<Vec<(StrategyName, ReportCard)>, String> {
    use page::shared::words::Words;
    StrategyName::ALL
        .iter()
        .map(|&strategy| {
            let scenario = Scenario {
                strategy,
                seed,
                customers,
                provider: provider.clone(),
                record: true,
                ..Scenario::default()
            };
            let mut sim = Simulation::new(&scenario).map_err(|e| e.sentence())?;
            let stats = sim.run_to_end();
            let mut card =
                ReportCard::of(&stats, &sim.fates(), |c| !scenario.provider.is_declined(c));
            let (elapsed_ms, waits) = as_heard(sim.record().unwrap_or(&[]), customers);
            card.elapsed_ms = elapsed_ms;
            card.wait_p99_ms = waits.percentile_ms(99);
            Ok((strategy, card))
        })
        .collect()
}

/// From a run's record, as the server sees it: the last instant a client heard an
/// answer or stopped waiting for one (whole ms), and each customer's wait from its first
/// request to then.
pub fn as_heard(record: &[RequestRecord], customers: u32) -> (u64, Waits) {
    // Per customer: its first send and its last answer heard (u64::MAX and 0: none).
    let mut first_us = vec![u64::MAX; customers as usize + 1];
    let mut last_us: Vec<Option<u64>> = vec![None; customers as usize + 1];
    for r in record {
        let c = r.customer as usize;
        if c >= first_us.len() {
            continue;
        }
        first_us[c] = first_us[c].min(r.sent_at_us);
        if let Some(at) = r.client.at_us() {
            last_us[c] = Some(last_us[c].map_or(at, |l| l.max(at)));
        }
    }
    let mut waits = Waits::default();
    let mut elapsed_us = 0;
    for (first, last) in first_us.into_iter().zip(last_us) {
        if let Some(last) = last {
            waits.add(first.min(last), last);
            elapsed_us = elapsed_us.max(last);
        }
    }
    (sim::time::whole_ms(elapsed_us), waits)
}

/// A card as `/report` and `ratelab judge --json` give it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Which run of the server it is ([`crate::server::ProviderStats::run`]).
    pub run: u64,
    /// The seed of the provider's dice.
    pub seed: u64,
    /// The client's card.
    pub card: ReportCard,
    /// True if a customer was charged twice or lost a charge ([`ReportCard::fails`]).
    pub fails: bool,
    /// The best any built-in strategy that passed did, figure by figure (`null` when not
    /// compared; a note says why).
    pub best: Option<ReportCard>,
    /// For each figure but the customers, the first built-in strategy, in the ladder's
    /// order, that did the best.
    pub best_strategy: Option<BTreeMap<&'static str, &'static str>>,
    /// Requests the provider was still working on, or answering, when the card was read
    /// (their customers' fates may change when they are done).
    pub inflight: u32,
    /// The highest customer id that has reached the server since the last reset.
    pub highest_customer: u32,
    /// What else the card says, as sentences.
    #[serde(serialize_with = "sentences")]
    pub notes: Vec<Note>,
    /// [`Report::best_strategy`] by figure, for the words.
    #[serde(skip)]
    best_by: Vec<Option<StrategyName>>,
}

fn sentences<S: serde::Serializer>(notes: &[Note], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(notes.iter().map(page::shared::report::note_sentence))
}

impl Report {
    /// A report of `card`, beside `best` when the built-ins were compared.
    pub fn new(
        run: u64,
        seed: u64,
        card: ReportCard,
        best: Option<Best>,
        inflight: u32,
        highest_customer: u32,
        notes: Vec<Note>,
    ) -> Self {
        let best_strategy = best.as_ref().map(|b| {
            FIGURES
                .iter()
                .zip(&b.by)
                .filter_map(|(f, s)| s.map(|s| (f.key, s.as_str())))
                .collect()
        });
        Self {
            run,
            seed,
            fails: card.fails(),
            card,
            best: best.as_ref().map(|b| b.card),
            best_strategy,
            inflight,
            highest_customer,
            notes,
            best_by: best.map(|b| b.by).unwrap_or_default(),
        }
    }

    /// The card for the page layer's words.
    pub fn view(&self) -> CardView<'_> {
        CardView {
            card: &self.card,
            seed: self.seed,
            best: self.best.as_ref().map(|b| (b, self.best_by.as_slice())),
            notes: &self.notes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_ins_are_read_as_the_server_reads_a_client() {
        let cards = built_in_cards(&ProviderConfig::default(), 1, 300).unwrap();
        assert_eq!(cards.len(), StrategyName::ALL.len());
        let card = |s: StrategyName| cards.iter().find(|(n, _)| *n == s).unwrap().1;
        let (twice, pool) = (card(StrategyName::TimeoutNoKey), card(StrategyName::Pool));
        assert!(twice.charged_twice > 0, "{twice:?}");
        assert_eq!((pool.charged_twice, pool.charges_lost), (0, 0), "{pool:?}");
        // Paced sends one request every 11.1 ms and waits for nothing else, so its wait
        // from a first request is one round trip; from the batch's start it is seconds.
        let paced = card(StrategyName::Paced);
        assert!(paced.wait_p99_ms < 2_000, "{paced:?}");
        assert!(paced.elapsed_ms > 3_000, "{paced:?}");
        let best = best_of(&cards).unwrap();
        assert!(best.passed);
        assert_eq!((best.card.charged_twice, best.card.charges_lost), (0, 0));
        assert_eq!(best.by[0], None);
        // Naive and paced lose charges and timeout-no-key charges twice: the first of
        // the ladder that passed is retry, and its figures are what is set beside a
        // client, not naive's 17 ms.
        assert!(naive_fails(&cards));
        assert_eq!(best.by[1], Some(StrategyName::Retry));
        let elapsed = FIGURES.iter().position(|f| f.key == "elapsedMs").unwrap();
        let s = best.by[elapsed].unwrap();
        assert!(!card(s).fails());
        assert_eq!(card(s).elapsed_ms, best.card.elapsed_ms);
        assert!(best.card.elapsed_ms > 1_000, "{best:?}");
        // When none passed, the best of all of them, and it says so.
        let failing: Vec<_> = cards.iter().filter(|(_, c)| c.fails()).copied().collect();
        let fallback = best_of(&failing).unwrap();
        assert!(!fallback.passed);
        assert_eq!(fallback.by[1], Some(StrategyName::Naive));
        assert!(best_of(&[]).is_none());
    }

    fn naive_fails(cards: &[(StrategyName, ReportCard)]) -> bool {
        cards[0].0 == StrategyName::Naive && cards[0].1.fails()
    }

    #[test]
    fn a_wait_runs_from_the_first_request_to_the_last_answer_heard() {
        use sim::provider::Status;
        use sim::record::{Admission, ClientView};
        let r = |customer, sent_at_us, client| RequestRecord {
            request: 0,
            customer,
            attempt: 1,
            key: None,
            sent_at_us,
            outstanding: 1,
            admission: Admission::Refused(Status::TooManyRequests),
            done_at_us: sent_at_us,
            status: None,
            charged: false,
            client,
            concurrency: 0,
            budget_refused: false,
            opened_breaker: false,
        };
        let record = [
            r(1, 1_000_000, ClientView::TimedOut { at_us: 2_000_000 }),
            r(
                1,
                2_500_000,
                ClientView::Answered {
                    status: Status::Ok,
                    at_us: 3_200_000,
                },
            ),
            r(2, 5_000_000, ClientView::Waiting),
            // Beyond the customers asked for: left out.
            r(9, 0, ClientView::TimedOut { at_us: 9_000_000 }),
        ];
        let (elapsed_ms, waits) = as_heard(&record, 2);
        assert_eq!(elapsed_ms, 3_200);
        assert_eq!(waits.len(), 1);
        assert_eq!(waits.max_ms(), 2_200);
    }
}
