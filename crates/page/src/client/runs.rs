//! A client's run as the page puts it together, a slice at a time so its thread never
//! blocks for long: [`Replaying`] takes the sandbox's calls through the page's own run
//! of the core, and [`BuiltIns`] runs the ten built-in strategies on the same scenario
//! for the report card's comparison. [`Judged`] is what the page shows of a finished run.

use super::ops::{from_wire, keys_from_wire, WireError};
use crate::shared::report::{best_of, Best, FIGURES};
use crate::shared::words::Words;
use sim::foreign::{ApplyError, ForeignRun, Op, MAX_REQUESTS_PER_CUSTOMER};
use sim::provider::Status;
use sim::record::RequestRecord;
use sim::report::ReportCard;
use sim::world::Fate;
use sim::{Scenario, Simulation, Stats, StrategyName};

/// The most customers a client's run takes: the page keeps a record of every request to
/// replay, judge and draw it, as the run page does up to the same number
/// ([`RECORD_MAX_CUSTOMERS`](crate::shared::budget::RECORD_MAX_CUSTOMERS)).
pub const MAX_CUSTOMERS: u32 = crate::shared::budget::RECORD_MAX_CUSTOMERS;

/// Why a run of `customers` is not taken, if it is not.
pub fn check_customers(customers: u32) -> Result<(), String> {
    if customers > MAX_CUSTOMERS {
        return Err(format!(
            "Your own client runs for at most {} customers, not {}: the page keeps every request to replay and judge it. Lower “customers”, or judge it over HTTP with ratelab judge.",
            crate::shared::format::count(MAX_CUSTOMERS.into()),
            crate::shared::format::count(customers.into())
        ));
    }
    Ok(())
}

/// The sandbox's calls, taken through the page's own run a slice at a time.
pub struct Replaying {
    run: ForeignRun,
    ops: Vec<Op>,
    keys: Vec<String>,
    next: usize,
}

impl Replaying {
    /// A replay of `scenario` from the sandbox's calls (`wire`, [`super::ops`]) and key
    /// texts (by number, from 1); a sentence if they cannot be one.
    pub fn new(
        scenario: &Scenario,
        wire: &[f64],
        key_text: &str,
        key_lengths: &[u32],
    ) -> Result<Self, String> {
        let run = ForeignRun::new(scenario).map_err(|e| e.sentence())?;
        // Each request is sent, completed (if admitted) and answered or given up on;
        // each customer settled once.
        let max = scenario.customers as usize * (3 * MAX_REQUESTS_PER_CUSTOMER as usize + 1);
        let ops_and_keys = from_wire(wire, max)
            .and_then(|ops| keys_from_wire(key_text, key_lengths).map(|keys| (ops, keys)));
        let (ops, keys) = ops_and_keys.map_err(|WireError(why)| {
            format!("The sandbox's account of the run does not add up, so the page shows none of it: {why}")
        })?;
        Ok(Self {
            run,
            ops,
            keys,
            next: 0,
        })
    }

    /// Takes up to `calls` more calls; true once all are taken.
    pub fn step(&mut self, calls: usize) -> Result<bool, String> {
        let end = (self.next + calls).min(self.ops.len());
        for op in &self.ops[self.next..end] {
            self.run
                .apply(op, &self.keys)
                .map_err(|e: ApplyError| e.sentence())?;
        }
        self.next = end;
        Ok(self.next == self.ops.len())
    }

    /// Calls taken, and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.ops.len())
    }

    /// The run, once every call is taken.
    pub fn finish(self) -> ForeignRun {
        self.run
    }
}

/// The ten built-in strategies on one scenario, run a slice of events at a time, each
/// read into a report card.
pub struct BuiltIns {
    scenario: Scenario,
    sim: Option<Simulation>,
    cards: Vec<(StrategyName, ReportCard)>,
}

impl BuiltIns {
    /// The built-ins on `scenario` (its strategy is replaced by each in turn; nothing
    /// is recorded).
    pub fn new(scenario: &Scenario) -> Self {
        Self {
            scenario: Scenario {
                record: false,
                ..scenario.clone()
            },
            sim: None,
            cards: Vec::new(),
        }
    }

    /// Runs up to about `events` more events; true once all ten are done.
    pub fn step(&mut self, events: u64) -> Result<bool, String> {
        let mut left = events;
        while self.cards.len() < StrategyName::ALL.len() {
            let strategy = StrategyName::ALL[self.cards.len()];
            let sim = match &mut self.sim {
                Some(sim) => sim,
                slot => {
                    let s = Scenario {
                        strategy,
                        ..self.scenario.clone()
                    };
                    slot.insert(Simulation::new(&s).map_err(|e| e.sentence())?)
                }
            };
            left = left.saturating_sub(sim.run_events(left));
            if !sim.is_finished() {
                return Ok(false);
            }
            let stats = sim.stats();
            let card = ReportCard::of(&stats, &sim.fates(), |c| {
                !self.scenario.provider.is_declined(c)
            });
            self.cards.push((strategy, card));
            self.sim = None;
            if left == 0 {
                return Ok(self.cards.len() == StrategyName::ALL.len());
            }
        }
        Ok(true)
    }

    /// Strategies done, of ten.
    pub fn done(&self) -> usize {
        self.cards.len()
    }

    /// The best of the built-ins that passed, once all ten are done.
    pub fn best(&self) -> Option<Best> {
        (self.cards.len() == StrategyName::ALL.len())
            .then(|| best_of(&self.cards))
            .flatten()
    }
}

/// The most customers a harm row links to; the rest are counted.
pub const MAX_HARM_LINKS: usize = 5;

/// What the page shows of a finished run of the reader's client.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The run's counters.
    pub stats: Stats,
    /// Its card.
    pub card: ReportCard,
    /// For each figure of the card ([`FIGURES`]), the first customers it counts (at most
    /// [`MAX_HARM_LINKS`]; none for figures that count no customer).
    pub harmed: Vec<Vec<u32>>,
}

impl Judged {
    /// The card and counters of `run`, and who each harm fell on.
    pub fn of(run: &ForeignRun) -> Self {
        let stats = run.stats();
        let fates = run.fates();
        let s = run.scenario();
        let chargeable = |c: u32| !s.provider.is_declined(c);
        let card = ReportCard::of(&stats, &fates, chargeable);
        let harmed = FIGURES
            .iter()
            .map(|f| who(f.key, &fates, run.record(), &chargeable))
            .collect();
        Self {
            stats,
            card,
            harmed,
        }
    }
}

/// The first customers figure `key` counts, in id order.
fn who(
    key: &str,
    fates: &[Fate],
    record: &[RequestRecord],
    chargeable: &dyn Fn(u32) -> bool,
) -> Vec<u32> {
    let by_fate = |pick: &dyn Fn(u32, Fate) -> bool| -> Vec<u32> {
        (1..)
            .zip(fates)
            .filter(|(c, f)| pick(*c, **f))
            .map(|(c, _)| c)
            .take(MAX_HARM_LINKS)
            .collect()
    };
    let refused = |status: Status| -> Vec<u32> {
        let mut seen: Vec<u32> = Vec::new();
        for r in record.iter().filter(|r| r.status == Some(status)) {
            if !seen.contains(&r.customer) {
                seen.push(r.customer);
                if seen.len() == MAX_HARM_LINKS {
                    break;
                }
            }
        }
        seen
    };
    match key {
        "chargedTwice" => by_fate(&|_, f| f == Fate::ChargedMoreThanOnce),
        "chargesLost" => by_fate(&|c, f| {
            matches!(
                f,
                Fate::GaveUp | Fate::Lost | Fate::Refused | Fate::Pending | Fate::Declined
            ) && chargeable(c)
        }),
        "toldWrong" => by_fate(&|_, f| matches!(f, Fate::GaveUpButCharged | Fate::Lost)),
        "unfinished" => by_fate(&|_, f| f == Fate::Pending),
        "rateLimited" => refused(Status::TooManyRequests),
        "overloaded" => refused(Status::Overloaded),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::ops::to_wire;

    #[test]
    fn the_built_ins_in_slices_are_the_built_ins_at_once() {
        let s = Scenario::article(StrategyName::Keyed, 3);
        let mut sliced = BuiltIns::new(&s);
        let mut slices = 0;
        while !sliced.step(500).unwrap() {
            slices += 1;
            assert!(sliced.best().is_none());
        }
        assert!(slices > 10, "{slices}");
        let cards: Vec<(StrategyName, ReportCard)> = StrategyName::ALL
            .iter()
            .map(|&strategy| {
                let sc = Scenario {
                    strategy,
                    ..s.clone()
                };
                let mut sim = Simulation::new(&sc).unwrap();
                let stats = sim.run_to_end();
                (
                    strategy,
                    ReportCard::of(&stats, &sim.fates(), |c| !sc.provider.is_declined(c)),
                )
            })
            .collect();
        assert_eq!(sliced.best(), best_of(&cards));
        assert_eq!(sliced.done(), 10);
    }

    /// A client that sends each customer once, with no key, and settles on the answer.
    fn naive_run(s: &Scenario) -> ForeignRun {
        use sim::exchange::Due;
        use sim::provider::BodyPrint;
        let mut run = ForeignRun::new(s).unwrap();
        let mut due = Vec::new();
        for c in 1..=s.customers {
            let print = BodyPrint::of_charge(c.into(), None);
            match run.send(0, c.into(), None, print).unwrap() {
                (r, Due::Now(status)) => {
                    run.delivered(0, r, status).unwrap();
                    run.settled(0, c).unwrap();
                }
                (r, Due::At { done_at_us, .. }) => due.push((done_at_us, r, c)),
            }
        }
        due.sort_unstable();
        for (t, r, c) in due {
            let status = run.complete(t, r).unwrap().status;
            run.delivered(t, r, status).unwrap();
            run.settled(t, c).unwrap();
        }
        run
    }

    #[test]
    fn a_replay_in_slices_is_the_run_and_names_who_was_harmed() {
        let s = Scenario::article(StrategyName::Naive, 1);
        let run = naive_run(&s);
        let (text, lengths) = super::super::ops::keys_to_wire(&run.key_texts());
        let mut replay = Replaying::new(&s, &to_wire(run.ops()), &text, &lengths).unwrap();
        while !replay.step(100).unwrap() {}
        assert_eq!(replay.progress().0, run.ops().len());
        let again = replay.finish();
        assert_eq!(again.record(), run.record());
        let judged = Judged::of(&again);
        assert_eq!(judged, Judged::of(&run));
        // Naive loses most charges; the first few are linked, each one lost.
        let lost = FIGURES.iter().position(|f| f.key == "chargesLost").unwrap();
        assert!(judged.card.charges_lost > 800);
        assert_eq!(judged.harmed[lost].len(), MAX_HARM_LINKS);
        let fates = again.fates();
        for c in &judged.harmed[lost] {
            assert!(
                !matches!(
                    fates[*c as usize - 1],
                    Fate::Charged | Fate::ChargedMoreThanOnce
                ),
                "{c}"
            );
        }
        let limited = FIGURES.iter().position(|f| f.key == "rateLimited").unwrap();
        assert!(!judged.harmed[limited].is_empty());
        for c in &judged.harmed[limited] {
            assert!(again
                .record()
                .iter()
                .any(|r| r.customer == *c && r.status == Some(Status::TooManyRequests)));
        }
        // A call the run cannot take (a completion before its due time) is refused
        // with a sentence.
        let mut wire = to_wire(run.ops());
        let completion = run
            .ops()
            .iter()
            .position(|o| matches!(o, Op::Complete { .. }))
            .unwrap();
        wire[completion * super::super::ops::WIDTH + 1] = 1.0;
        let mut bad = Replaying::new(&s, &wire, "", &[]).unwrap();
        let why = Replaying::new(&s, &wire, "k", &[]).err().unwrap();
        assert!(
            why.contains("does not add up") && why.contains("no key takes"),
            "{why}"
        );
        let said = loop {
            match bad.step(1_000) {
                Ok(true) => panic!("a moved completion was taken"),
                Ok(false) => {}
                Err(why) => break why,
            }
        };
        assert!(
            said.starts_with("The sandbox's account of the run does not add up"),
            "{said}"
        );
    }
}
