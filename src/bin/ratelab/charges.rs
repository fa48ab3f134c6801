//! `ratelab charges`: one strategy's stats panel, or all six side by side.

use crate::args::Args;
use rate_limit_lab::sim::story::{Scene, Story};
use rate_limit_lab::sim::sweep::{parse_seed_range, Distribution, Sweep};
use rate_limit_lab::sim::{run, Scenario, Simulation, Stats, StrategyName};
use serde::Serialize;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

/// One run's stats with what produced them, as printed by `--json`.
#[derive(Serialize)]
struct Report<'a> {
    strategy: &'a str,
    seed: u64,
    customers: u32,
    #[serde(flatten)]
    stats: &'a Stats,
}

/// A sweep's distributions for one strategy, as printed by `--seeds … --json`.
#[derive(Serialize)]
struct SweepReport {
    strategy: &'static str,
    first_seed: u64,
    last_seed: u64,
    customers: u32,
    fields: BTreeMap<&'static str, Distribution>,
}

pub fn main(raw: &[String]) -> Result<String, String> {
    let args = Args::parse(
        raw,
        &["all", "json"],
        &["strategy", "seed", "seeds", "customers", "customer"],
    )?;
    let seed = args
        .get::<u64>("seed", "a whole number from 0 to 18446744073709551615")?
        .unwrap_or(1);
    let mut base = Scenario {
        seed,
        ..Scenario::default()
    };
    if let Some(n) = args.get::<u32>("customers", "a whole number of customers")? {
        base.customers = n;
    }
    // A million-customer record would be large and nothing here reads it.
    base.record = false;
    if let Some(who) = args.raw("customer") {
        let strategy: StrategyName = args
            .raw("strategy")
            .ok_or("--customer needs --strategy: whose story?")?
            .parse()?;
        return story(
            Scenario {
                strategy,
                record: true,
                ..base
            },
            who,
            args.has("json"),
        );
    }
    let strategies: Vec<StrategyName> = match (args.has("all"), args.raw("strategy")) {
        (true, None) | (false, Some("all")) => StrategyName::ALL.to_vec(),
        (false, Some(name)) => vec![name.parse()?],
        (true, Some(_)) => return Err("give either --strategy or --all, not both".into()),
        (false, None) => return Err("which strategy? give --strategy <name> or --all".into()),
    };
    if let Some(range) = args.raw("seeds") {
        if args.raw("seed").is_some() {
            return Err("give either --seed or --seeds, not both".into());
        }
        let seeds = parse_seed_range(range).map_err(|e| format!("--seeds: {e}"))?;
        return sweep(&base, &strategies, seeds, args.has("json"));
    }
    let mut runs = Vec::new();
    for strategy in strategies {
        let scenario = Scenario {
            strategy,
            ..base.clone()
        };
        let stats = run(&scenario).map_err(|e| format!("--{e}"))?;
        runs.push((strategy, stats));
    }
    let reports: Vec<Report> = runs
        .iter()
        .map(|(s, stats)| Report {
            strategy: s.as_str(),
            seed,
            customers: base.customers,
            stats,
        })
        .collect();
    Ok(match (args.has("json"), reports.as_slice()) {
        (true, [one]) if !args.has("all") && args.raw("strategy") != Some("all") => to_json(one),
        (true, many) => to_json(&many),
        (false, [one]) if reports.len() == 1 => format!(
            "strategy: {}   seed: {}   customers: {}\n{}",
            one.strategy,
            seed,
            base.customers,
            one.stats.panel()
        ),
        (false, _) => table(&runs, seed, base.customers),
    })
}

fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("stats always serialise")
}

/// Fields as rows, strategies as columns.
fn table(runs: &[(StrategyName, Stats)], seed: u64, customers: u32) -> String {
    let mut out = format!("seed: {seed}   customers: {customers}\n");
    out.push_str(&format!("{:<22}", "field"));
    for (s, _) in runs {
        out.push_str(&format!("{:>15}", s.as_str()));
    }
    out.push('\n');
    for field in Stats::FIELDS {
        out.push_str(&format!("{field:<22}"));
        for (_, stats) in runs {
            out.push_str(&format!("{:>15}", stats.get(field).unwrap_or_default()));
        }
        out.push('\n');
    }
    out
}

/// Runs every seed of the range for each strategy and prints each stat's distribution.
fn sweep(
    base: &Scenario,
    strategies: &[StrategyName],
    seeds: RangeInclusive<u64>,
    json: bool,
) -> Result<String, String> {
    let mut reports = Vec::new();
    for &strategy in strategies {
        let scenario = Scenario {
            strategy,
            ..base.clone()
        };
        let sweep = Sweep::run(&scenario, seeds.clone()).map_err(|e| format!("--{e}"))?;
        let fields = Stats::FIELDS
            .iter()
            .map(|f| (*f, sweep.distribution(f).expect("every field has values")))
            .collect();
        reports.push(SweepReport {
            strategy: strategy.as_str(),
            first_seed: *seeds.start(),
            last_seed: *seeds.end(),
            customers: base.customers,
            fields,
        });
    }
    if json {
        return Ok(match reports.as_slice() {
            [one] => to_json(one),
            many => to_json(&many),
        });
    }
    let mut out = String::new();
    for r in &reports {
        out.push_str(&format!(
            "strategy: {}   seeds: {}..={}   customers: {}\n{:<22}{:>10}{:>10}{:>10}{:>12}\n",
            r.strategy,
            r.first_seed,
            r.last_seed,
            r.customers,
            "field",
            "min",
            "median",
            "max",
            "mean"
        ));
        for field in Stats::FIELDS {
            let d = &r.fields[field];
            out.push_str(&format!(
                "{field:<22}{:>10}{:>10}{:>10}{:>12.1}\n",
                d.min, d.median, d.max, d.mean
            ));
        }
        out.push('\n');
    }
    Ok(out.trim_end().to_string())
}

/// One customer's story: every attempt, the client's view beside the provider's. `who`
/// is a customer id or a scene name (e.g. `double-charge`: the first customer showing it).
fn story(scenario: Scenario, who: &str, json: bool) -> Result<String, String> {
    let mut sim = Simulation::new(&scenario).map_err(|e| format!("--{e}"))?;
    sim.run_to_end();
    let record = sim.record().expect("recording is on");
    let customer = match (who.trim().parse::<u32>(), Scene::named(who.trim())) {
        (Ok(id), _) if (1..=scenario.customers).contains(&id) => id,
        (Ok(id), _) => {
            return Err(format!(
                "--customer {id} is not one of the customers 1..={}",
                scenario.customers
            ))
        }
        (Err(_), Some(scene)) => scene.find(record).ok_or_else(|| {
            format!(
                "no customer shows '{}' in {} seed {}",
                scene.as_str(),
                scenario.strategy,
                scenario.seed
            )
        })?,
        (Err(_), None) => {
            let scenes: Vec<&str> = Scene::ALL.iter().map(|s| s.as_str()).collect();
            return Err(format!(
                "--customer expects a customer id or one of {}, got '{who}'",
                scenes.join(", ")
            ));
        }
    };
    let story = Story::of(record, customer);
    if json {
        return Ok(to_json(&story));
    }
    let mut out = format!(
        "customer {customer}   strategy: {}   seed: {}   charged {} time(s)\n",
        scenario.strategy, scenario.seed, story.charges
    );
    for a in &story.attempts {
        out.push_str(&format!("{}\n", a.sentence()));
    }
    Ok(out.trim_end().to_string())
}
