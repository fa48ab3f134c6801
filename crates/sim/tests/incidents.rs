//! Incidents: a run with no incident gives exactly the numbers it gave before incidents
//! existed, and each incident changes the provider only inside its span.

use sim::incident::{Incident, IncidentPlan};
use sim::provider::{Arrival, ChargeRequest, Provider, ProviderConfig, Status};
use sim::record::Admission;
use sim::rng::KeyedDraws;
use sim::time::ms;
use sim::{Scenario, Simulation, Stats, StrategyName};

/// `ratelab charges --all --json` for several seeds, saved before the incidents and the
/// provider's refusal headers were added (the first line of the file says from which
/// commit). Every field saved then must come out the same now.
const CALM: &str = include_str!("fixtures/calm_stats.jsonl");

#[test]
fn no_incident_gives_exactly_the_numbers_from_before_incidents() {
    let mut checked = 0;
    for line in CALM.lines().filter(|l| l.starts_with('{')) {
        let saved: serde_json::Value = serde_json::from_str(line).unwrap();
        let strategy: StrategyName = saved["strategy"].as_str().unwrap().parse().unwrap();
        let seed = saved["seed"].as_u64().unwrap();
        let mut scenario = Scenario::article(strategy, seed);
        scenario.customers = saved["customers"].as_u64().unwrap() as u32;
        // The one line set of the fixture with jitter on is seed 9 (see its header).
        scenario.client.backoff_jitter = seed == 9;
        assert_eq!(scenario.provider.incident.kind, Incident::None);
        let now = serde_json::to_value(Simulation::new(&scenario).unwrap().run_to_end()).unwrap();
        for (field, value) in saved.as_object().unwrap() {
            if matches!(field.as_str(), "strategy" | "seed" | "customers") {
                continue;
            }
            assert_eq!(
                &now[field], value,
                "{strategy} seed {seed}: {field} changed"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 48, "six strategies × eight runs saved");
}

fn with_incident(strategy: StrategyName, seed: u64, kind: Incident) -> Scenario {
    let mut s = Scenario::article(strategy, seed);
    s.provider.incident.kind = kind;
    s
}

/// Each request of the record that reached the provider during the incident, and the
/// others.
fn split(sim: &Simulation) -> (Vec<Admission>, Vec<Admission>) {
    let plan = sim.scenario().provider.incident;
    let (inside, outside): (Vec<_>, Vec<_>) = sim
        .record()
        .unwrap()
        .iter()
        .partition(|r| plan.at(r.sent_at_us).is_some());
    let adm = |v: Vec<&sim::record::RequestRecord>| v.into_iter().map(|r| r.admission).collect();
    (adm(inside), adm(outside))
}

#[test]
fn each_incident_does_what_it_says_inside_its_span_only() {
    use sim::provider::Work;
    for seed in 1..=20 {
        // down: every admitted request inside the span is answered 503, none outside.
        let mut sim =
            Simulation::new(&with_incident(StrategyName::Pool, seed, Incident::Down)).unwrap();
        let s = sim.run_to_end();
        let (inside, outside) = split(&sim);
        assert!(!inside.is_empty(), "seed {seed}");
        for a in &inside {
            assert!(
                matches!(
                    a,
                    Admission::Admitted {
                        work: Work::Down,
                        ..
                    } | Admission::Refused(_)
                ),
                "seed {seed}: {a:?}"
            );
        }
        assert!(outside.iter().all(|a| !matches!(
            a,
            Admission::Admitted {
                work: Work::Down,
                ..
            }
        )));
        assert_eq!(
            s,
            Stats::from_record(
                sim.record().unwrap(),
                &sim.scenario().provider.incident,
                sim.arrivals(),
            ),
            "seed {seed}"
        );

        // slow: every charge inside is slow.
        let mut sim =
            Simulation::new(&with_incident(StrategyName::Pool, seed, Incident::Slow)).unwrap();
        sim.run_to_end();
        let (inside, _) = split(&sim);
        for a in &inside {
            if let Admission::Admitted {
                work: Work::Charge,
                slow,
                ..
            } = a
            {
                assert!(slow, "seed {seed}: a charge during `slow` was not slow");
            }
        }

        // errors: about half the charges fail inside (keyed draws: the usual 1 in 20
        // plus half of the rest, so 52.5% expected). With the pool's ~250 admitted
        // charges in 3 s, a band of 35–70% is more than 5 standard deviations wide.
        let mut sim =
            Simulation::new(&with_incident(StrategyName::Pool, seed, Incident::Errors)).unwrap();
        sim.run_to_end();
        let (inside, _) = split(&sim);
        let tried = inside
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Admission::Admitted {
                        work: Work::Charge | Work::Fail,
                        ..
                    }
                )
            })
            .count();
        let failed = inside
            .iter()
            .filter(|a| {
                matches!(
                    a,
                    Admission::Admitted {
                        work: Work::Fail,
                        ..
                    }
                )
            })
            .count();
        assert!(tried > 50, "seed {seed}: {tried}");
        let pct = failed * 100 / tried;
        assert!(
            (35..=70).contains(&pct),
            "seed {seed}: {failed}/{tried} failed"
        );

        // capacity: at most 2 in flight and 20 admitted per window inside.
        let mut sim =
            Simulation::new(&with_incident(StrategyName::Pool, seed, Incident::Capacity)).unwrap();
        sim.run_to_end();
        let plan = sim.scenario().provider.incident;
        let admitted: Vec<u64> = sim
            .record()
            .unwrap()
            .iter()
            .filter(|r| plan.at(r.sent_at_us).is_some())
            .filter_map(|r| match r.admission {
                Admission::Admitted { inflight, .. } => {
                    assert!(inflight <= 2, "seed {seed}: {inflight} in flight");
                    Some(r.sent_at_us)
                }
                Admission::Refused(_) => None,
            })
            .collect();
        for (i, &t) in admitted.iter().enumerate() {
            let in_window = admitted[i..]
                .iter()
                .take_while(|&&u| u < t + ms(1_000))
                .count();
            assert!(
                in_window <= 20,
                "seed {seed}: {in_window} admitted in 1 s from {t}"
            );
        }
    }
}

#[test]
fn the_provider_refusals_carry_headers_and_reading_them_changes_nothing() {
    let config = ProviderConfig {
        incident: IncidentPlan {
            kind: Incident::Down,
            start_us: ms(100),
            length_us: ms(2_500),
        },
        ..ProviderConfig::default()
    };
    let dice = KeyedDraws::from_seed(3);
    let mut quiet = Provider::new(config.clone(), 500);
    let mut asked = Provider::new(config, 500);
    let mut headers_seen = 0;
    for i in 0..500u32 {
        let t = u64::from(i) * 7_000;
        let req = ChargeRequest {
            customer: i + 1,
            key: None,
            print: sim::next_month::print(i + 1, sim::next_month::ChargeRound::First),
        };
        let a = quiet.arrive(t, req, &dice);
        let b = asked.arrive(t, req, &dice);
        assert_eq!(a, b, "request {i}");
        let status = match b {
            Arrival::Refused(s) => Some(s),
            Arrival::Admitted { done_at_us, .. } if asked.config().incident.at(t).is_some() => {
                let _ = done_at_us;
                Some(Status::Overloaded)
            }
            Arrival::Admitted { .. } => None,
        };
        if let Some(status) = status {
            let block = asked.refusal_headers(t, status);
            let names: Vec<&str> = block.iter().map(|(n, _)| *n).collect();
            assert!(names.contains(&"Retry-After"), "{names:?}");
            assert!(names.contains(&"RateLimit"), "{names:?}");
            let retry: u64 = block
                .iter()
                .find(|(n, _)| *n == "Retry-After")
                .unwrap()
                .1
                .parse()
                .unwrap();
            if status == Status::Overloaded && asked.config().incident.at(t).is_some() {
                // Down until 2.6 s: the wait covers the rest of the incident, in whole
                // seconds rounded up.
                let left = ms(2_600) - t;
                assert_eq!(retry, left.div_ceil(1_000_000), "at {t}");
            }
            headers_seen += 1;
        }
        if let (Arrival::Admitted { work, .. }, Arrival::Admitted { .. }) = (a, b) {
            quiet.complete(req, work);
            asked.complete(req, work);
        }
    }
    assert!(headers_seen > 100, "{headers_seen}");
    assert_eq!(quiet.counters(), asked.counters());
}
