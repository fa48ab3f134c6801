//! A foreign client on the simulated clock meets the simulation's provider: the same
//! requests at the same instants give the same record as the lab's own strategy.

use sim::exchange::Due;
use sim::foreign::{ForeignError, ForeignRun, MAX_KEY_BYTES};
use sim::next_month::print;
use sim::next_month::ChargeRound;
use sim::provider::Status;
use sim::queue::EventQueue;
use sim::{Scenario, Simulation, Stats, StrategyName};

/// What the queue of the test's own runner holds.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// Send customer `c`'s one request now.
    Send(u32),
    /// Request `r` of customer `c` completes now.
    Complete(u32, u32),
    /// Request `r`'s refusal reaches customer `c`'s client now.
    Refused(u32, u32, Status),
}

/// naive or paced, written as a foreign client: each customer's one request at its turn
/// (every turn at 0 for naive, a pacer's for paced), its answer delivered when it comes,
/// the customer then settled. Returns the run.
fn run_foreign(strategy: StrategyName, seed: u64) -> ForeignRun {
    let s = Scenario::article(strategy, seed);
    let mut run = ForeignRun::new(&s).unwrap();
    let gap_us = match strategy {
        StrategyName::Paced => 1_000_000 / u64::from(s.client.pacer_per_s),
        _ => 0,
    };
    let mut queue = EventQueue::default();
    for c in 1..=s.customers {
        queue.push(u64::from(c - 1) * gap_us, Next::Send(c));
    }
    while let Some((t, next)) = queue.pop() {
        match next {
            Next::Send(c) => match run
                .send(t, c.into(), None, print(c, ChargeRound::First))
                .unwrap()
            {
                (r, Due::Now(status)) => queue.push(t, Next::Refused(r, c, status)),
                (r, Due::At { done_at_us, .. }) => queue.push(done_at_us, Next::Complete(r, c)),
            },
            Next::Complete(r, c) => {
                let status = run.complete(t, r).unwrap().status;
                run.delivered(t, r, status).unwrap();
                run.settled(t, c).unwrap();
            }
            Next::Refused(r, c, status) => {
                run.delivered(t, r, status).unwrap();
                run.settled(t, c).unwrap();
            }
        }
    }
    assert!(run.is_idle());
    run
}

#[test]
fn a_foreign_naive_and_paced_client_meet_the_same_provider_as_the_lab_s_own() {
    for strategy in [StrategyName::Naive, StrategyName::Paced] {
        for seed in [1, 2, 7, u64::MAX] {
            let s = Scenario::article(strategy, seed);
            let mut sim = Simulation::new(&s).unwrap();
            let stats = sim.run_to_end();
            let run = run_foreign(strategy, seed);
            let why = format!("{strategy}, seed {seed}");
            let strip = |r: &[sim::record::RequestRecord]| -> Vec<_> {
                r.iter()
                    .map(|r| {
                        (
                            r.customer,
                            r.sent_at_us,
                            r.admission,
                            r.done_at_us,
                            r.status,
                            r.charged,
                            r.client,
                        )
                    })
                    .collect()
            };
            assert_eq!(strip(run.record()), strip(sim.record().unwrap()), "{why}");
            let from_record =
                Stats::from_record(run.record(), &s.provider.incident, run.arrivals());
            assert_eq!(run.stats(), from_record, "{why}");
            for field in [
                "requests",
                "charges",
                "duplicates",
                "rateLimited",
                "overloaded",
                "serverErrors",
                "gaveUp",
                "elapsedMs",
                "waitP99Ms",
            ] {
                let f: sim::StatField = field.parse().unwrap();
                assert_eq!(run.stats().get(f), stats.get(f), "{why}: {field}");
            }
            assert_eq!(run.fates(), sim.fates(), "{why}");
        }
    }
}

#[test]
fn a_foreign_client_is_held_to_the_clock_its_customers_and_its_caps() {
    let s = Scenario {
        customers: 2,
        ..Scenario::article(StrategyName::Keyed, 1)
    };
    let mut run = ForeignRun::new(&s).unwrap();
    let p = print(1, ChargeRound::First);
    assert_eq!(
        run.send(10, 3, None, p),
        Err(ForeignError::NoSuchCustomer {
            customer: 3,
            customers: 2
        })
    );
    assert_eq!(
        run.send(10, 0, None, p).unwrap_err(),
        ForeignError::NoSuchCustomer {
            customer: 0,
            customers: 2
        }
    );
    let (r, due) = run.send(10, 1, Some("order-1"), p).unwrap();
    assert!(matches!(due, Due::At { .. }));
    assert_eq!(
        run.send(5, 1, None, p),
        Err(ForeignError::TimeWentBack {
            now_us: 10,
            at_us: 5
        })
    );
    let long = "k".repeat(MAX_KEY_BYTES + 1);
    assert_eq!(
        run.send(10, 1, Some(&long), p),
        Err(ForeignError::BadKey {
            bytes: MAX_KEY_BYTES + 1
        })
    );
    assert_eq!(
        run.complete(11, r),
        Err(ForeignError::NotDue { request: r }),
        "not its time"
    );
    assert_eq!(
        run.delivered(11, 99, Status::Ok),
        Err(ForeignError::NotDue { request: 99 })
    );
    // The same key and body again, while the first runs: a 409, from the store.
    let Due::At { done_at_us, .. } = due else {
        unreachable!()
    };
    let (r2, _) = run.send(12, 1, Some("order-1"), p).unwrap();
    assert_eq!(run.complete(done_at_us, r).unwrap().status, Status::Ok);
    assert_eq!(run.key_text(run.record()[0].key.unwrap()), Some("order-1"));
    // The request cap: 100 per customer.
    let mut sent = 2;
    let mut t = done_at_us;
    loop {
        t += 1;
        match run.send(t, 2, None, p) {
            Ok(_) => sent += 1,
            Err(e) => {
                assert_eq!(e, ForeignError::TooManyRequests { max: 200 });
                break;
            }
        }
    }
    assert_eq!(sent, 200);
    let _ = r2;
}

#[test]
fn a_foreign_run_replays_from_its_calls_and_a_tampered_call_is_refused() {
    use sim::foreign::{Op, ReplayError};
    for strategy in [StrategyName::Naive, StrategyName::Paced] {
        let run = run_foreign(strategy, 3);
        let keys: Vec<String> = run.key_texts().into_iter().map(str::to_string).collect();
        let again = ForeignRun::replay(run.scenario(), run.ops(), &keys).unwrap();
        assert_eq!(again.record(), run.record(), "{strategy}");
        assert_eq!(again.stats(), run.stats(), "{strategy}");
        assert_eq!(again.fates(), run.fates(), "{strategy}");
        // A completion moved by a microsecond is not the run's.
        let mut ops = run.ops().to_vec();
        let at = ops
            .iter()
            .position(|o| matches!(o, Op::Complete { .. }))
            .unwrap();
        if let Op::Complete { at_us, request } = ops[at] {
            ops[at] = Op::Complete {
                at_us: at_us + 1,
                request,
            };
        }
        assert!(matches!(
            ForeignRun::replay(run.scenario(), &ops, &keys),
            Err(ReplayError::Refused { at: a, .. }) if a == at
        ));
    }
    // A key number with no text.
    let s = Scenario::article(StrategyName::Keyed, 1);
    let ops = [Op::Send {
        at_us: 0,
        customer: 1,
        key: Some(1),
        print: print(1, ChargeRound::First),
    }];
    assert_eq!(
        ForeignRun::replay(&s, &ops, &[]).err(),
        Some(ReplayError::NoSuchKey { at: 0, key: 1 })
    );
}
