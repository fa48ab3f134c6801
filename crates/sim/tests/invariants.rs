//! Invariants over a thousand seeds. A failure names the seed that reproduces it:
//! `cargo run --release --bin ratelab -- charges --strategy <name> --seed <seed>`.

use sim::incident::Incident;
use sim::record::Admission;
use sim::{Scenario, Simulation, Stats, StrategyName};

const SEEDS: u64 = 1_000;

/// Runs every seed of `strategy` and checks `check` on the finished simulation.
fn sweep(strategy: StrategyName, check: impl Fn(&Simulation, &Stats) -> Result<(), String>) {
    sweep_with(strategy, |_| Incident::None, check);
}

/// As [`sweep`], with the incident `incident(seed)` in each run.
fn sweep_with(
    strategy: StrategyName,
    incident: impl Fn(u64) -> Incident,
    check: impl Fn(&Simulation, &Stats) -> Result<(), String>,
) {
    for seed in 1..=SEEDS {
        let mut scenario = Scenario::article(strategy, seed);
        scenario.provider.incident.kind = incident(seed);
        let mut sim = Simulation::new(&scenario).unwrap();
        let stats = sim.run_to_end();
        if let Err(why) = check(&sim, &stats) {
            panic!(
                "{strategy} seed {seed} incident {}: {why}",
                scenario.provider.incident.kind
            );
        }
    }
}

fn common(sim: &Simulation, s: &Stats) -> Result<(), String> {
    let scenario = sim.scenario();
    let valid = u64::from(scenario.provider.valid_customers(scenario.customers));
    let record = sim.record().unwrap();
    if s.customers_charged > valid {
        return Err(format!(
            "{} customers charged, only {valid} valid",
            s.customers_charged
        ));
    }
    if let Some(r) = record
        .iter()
        .find(|r| r.charged && scenario.provider.is_declined(r.customer))
    {
        return Err(format!("declined customer {} was charged", r.customer));
    }
    let limit = scenario.provider.max_inflight;
    for r in record {
        if let Admission::Admitted { inflight, .. } = r.admission {
            if inflight > limit {
                return Err(format!(
                    "request {} saw {inflight} in flight, limit {limit}",
                    r.request
                ));
            }
        }
    }
    if s.max_inflight > limit {
        return Err(format!("maxInflight {} > {limit}", s.max_inflight));
    }
    let derived = Stats::from_record(record, &scenario.provider.incident, &scenario.arrivals());
    if *s != derived {
        return Err(format!(
            "live counters {s:?} differ from the record's {derived:?}"
        ));
    }
    Ok(())
}

#[test]
fn every_strategy_keeps_the_common_invariants() {
    for strategy in [
        StrategyName::Naive,
        StrategyName::Paced,
        StrategyName::Retry,
        StrategyName::TimeoutNoKey,
    ] {
        sweep(strategy, common);
    }
}

#[test]
fn keyed_never_charges_twice() {
    sweep(StrategyName::Keyed, |sim, s| {
        common(sim, s)?;
        let valid = u64::from(
            sim.scenario()
                .provider
                .valid_customers(sim.scenario().customers),
        );
        match (s.duplicates, s.charges <= valid) {
            (0, true) => Ok(()),
            _ => Err(format!(
                "{} duplicates, {} charges for {valid} valid customers",
                s.duplicates, s.charges
            )),
        }
    });
}

#[test]
fn pool_never_charges_twice_and_never_awaits_more_than_its_workers() {
    sweep(StrategyName::Pool, |sim, s| {
        common(sim, s)?;
        let workers = sim.scenario().client.pool_workers;
        if s.duplicates != 0 {
            return Err(format!("{} duplicates", s.duplicates));
        }
        if let Some(r) = sim
            .record()
            .unwrap()
            .iter()
            .find(|r| r.outstanding > workers)
        {
            return Err(format!(
                "request {} left {} outstanding, workers {workers}",
                r.request, r.outstanding
            ));
        }
        Ok(())
    });
}

/// Every incident in turn, by seed: each one gets 200 of the thousand seeds.
fn incident_of(seed: u64) -> Incident {
    Incident::ALL[(seed % Incident::ALL.len() as u64) as usize]
}

#[test]
fn the_keyed_pools_and_the_next_rungs_keep_the_invariants_under_every_incident() {
    for strategy in [
        StrategyName::Pool,
        StrategyName::Headers,
        StrategyName::Budget,
        StrategyName::Breaker,
        StrategyName::Adaptive,
    ] {
        sweep_with(strategy, incident_of, |sim, s| {
            common(sim, s)?;
            if s.duplicates != 0 {
                return Err(format!("{} duplicates with a key", s.duplicates));
            }
            let workers = sim.scenario().client.pool_workers;
            let record = sim.record().unwrap();
            // The fixed pools await at most their workers; the adaptive client at most
            // the limit it had when it sent (recorded with each request), never above
            // its maximum (Vector's default, 200).
            let max = sim::strategy::adaptive::VECTOR_ARC.max_concurrency_limit;
            let over = record.iter().find(|r| {
                if strategy == StrategyName::Adaptive {
                    r.outstanding > r.concurrency || r.concurrency > max || r.concurrency == 0
                } else {
                    r.outstanding > workers
                }
            });
            if let Some(r) = over {
                return Err(format!(
                    "request {} left {} outstanding (limit {}, workers {workers})",
                    r.request, r.outstanding, r.concurrency
                ));
            }
            let incident = sim.scenario().provider.incident;
            let shrunk = record.iter().find(|r| {
                incident.at(r.sent_at_us) == Some(Incident::Capacity)
                    && matches!(r.admission, Admission::Admitted { inflight, .. } if inflight > 2)
            });
            if let Some(r) = shrunk {
                return Err(format!("request {} admitted above 2 in flight", r.request));
            }
            Ok(())
        });
    }
}
