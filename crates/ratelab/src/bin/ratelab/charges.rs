//! `ratelab charges`: one strategy's stats panel, or all six side by side.

use crate::args::{Args, Pick};
use page::run::export;
use page::shared::budget::SWEEP_MAX_CUSTOMERS;
use page::shared::format;
use page::shared::words::Words;
use page::site::words::{cli_line, CLI_PREFIX};
use page::ParamKind;
use page::{self, apply_params, Page, PARAMS};
use serde::Serialize;
use sim::incident::Incident;
use sim::param::ParamGroup;
use sim::param_sweep::{strategies_using, ParamSweepJob, ParamSweepSpec};
use sim::story::{Scene, Story};
use sim::sweep::{Distribution, Sweep};
use sim::Param;
use sim::{run, Scenario, Simulation, StatField, Stats, StrategyName};
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
    /// Under traffic that keeps arriving, with an incident: on how many seeds goodput
    /// came back and stayed ([`Stats::goodput_came_back`]), and how long after the
    /// incident on those seeds (the other seeds' `goodputRecoveryMs` is a lower bound).
    #[serde(rename = "goodputCameBack", skip_serializing_if = "Option::is_none")]
    came_back: Option<CameBack>,
}

/// On how many seeds of a sweep goodput came back and stayed.
#[derive(Serialize)]
struct CameBack {
    seeds: u64,
    #[serde(rename = "recoveryMs", skip_serializing_if = "Option::is_none")]
    recovery_ms: Option<Distribution>,
}

/// What a command asks for, once its flags or its query are read.
enum Ask {
    /// Runs on one seed: one strategy's panel, or several side by side (`many`: print a
    /// table or a JSON array even for one).
    Runs {
        strategies: Vec<StrategyName>,
        many: bool,
    },
    /// A sweep of seeds.
    Sweep {
        strategies: Vec<StrategyName>,
        seeds: RangeInclusive<u64>,
    },
    /// One parameter stepped through its values, over seeds `1..=seeds`; `None`: every
    /// strategy that reads the parameter.
    ParamSweep {
        strategies: Option<Vec<StrategyName>>,
        spec: ParamSweepSpec,
        seeds: u64,
    },
    /// One customer's story (an id or a scene name).
    Story(String),
}

/// A parameter sweep as printed by `--sweep-param … --json`.
#[derive(Serialize)]
struct ParamSweepReport {
    param: &'static str,
    stat: &'static str,
    strategies: Vec<LineReport>,
}

/// One strategy's line of a parameter sweep.
#[derive(Serialize)]
struct LineReport {
    strategy: &'static str,
    points: Vec<PointReport>,
}

/// One point: the parameter's value in its reader's unit, and the stat over the seeds.
#[derive(Serialize)]
struct PointReport {
    value: serde_json::Value,
    min: u64,
    median: u64,
    max: u64,
}

/// The two exports of one run.
#[derive(Clone, Copy)]
enum Export {
    Json,
    Csv,
}

/// The flags that describe a run; `--query` replaces them all.
const RUN_FLAGS: [&str; 8] = [
    "strategy",
    "all",
    "outage",
    "seed",
    "seeds",
    "customer",
    "sweep-param",
    "stat",
];

/// Runs what the flags or the query ask for and prints it.
pub fn main(args: &Args) -> Result<String, String> {
    // clap has checked that --export is json or csv, and not given with --json.
    let export = match args.raw("export") {
        None => None,
        Some("csv") => Some(Export::Csv),
        Some(_) => Some(Export::Json),
    };
    if args.has("matrix") {
        return matrix(&scenario_from_flags(args)?, args.has("json"));
    }
    let (base, ask) = match args.raw("query") {
        Some(text) => from_query(args, text)?,
        None => from_flags(args)?,
    };
    let json = args.has("json");
    if let Some(url) = args.raw("http") {
        if let Some(p) = args.first_given(|p| p.group() == ParamGroup::Traffic) {
            return Err(format!(
                "--{}: a run over HTTP sends its customers as one batch; traffic over time runs only in the simulation",
                p.key
            ));
        }
        if let Some(p) =
            args.first_given(|p| p.group() == ParamGroup::Provider && p.key != "customers")
        {
            return Err(format!(
                "--{} is the provider's: give it to `ratelab serve`; --http runs against the server's provider",
                p.key
            ));
        }
        return match ask {
            Ask::Runs { strategies, many } => crate::http::runs(
                url,
                &base,
                &strategies,
                many,
                json,
                client_params_line(&base),
            ),
            _ => Err(
                "--http runs one strategy or --all (a sweep or a story is the simulation's)".into(),
            ),
        };
    }
    if let Some(ms) = args.get::<u64>("until-ms") {
        return match ask {
            Ask::Runs { strategies, many } if strategies.len() == 1 && !many => {
                until(&base, ms, json)
            }
            _ => Err("--until-ms shows one run at one instant: name one strategy".into()),
        };
    }
    match (ask, export) {
        (Ask::Runs { strategies, many }, None) => runs(&base, &strategies, many, json),
        (Ask::Sweep { strategies, seeds }, None) => sweep(&base, &strategies, seeds, json),
        (
            Ask::ParamSweep {
                strategies,
                spec,
                seeds,
            },
            None,
        ) => param_sweep(&base, strategies, spec, seeds, json),
        (Ask::Story(who), None) => story(
            Scenario {
                record: true,
                ..base
            },
            &who,
            json,
        ),
        (Ask::Runs { strategies, many }, Some(how)) if strategies.len() == 1 && !many => {
            export_run(&base, how)
        }
        (Ask::Story(_), Some(how)) => export_run(&base, how),
        (_, Some(_)) => {
            Err("--export writes one run: name one strategy, and no sweep or comparison".into())
        }
    }
}

/// The run and what to show of it, from the individual flags.
fn from_flags(args: &Args) -> Result<(Scenario, Ask), String> {
    let mut base = scenario_from_flags(args)?;
    // clap has refused --strategy with --all.
    let pick = if args.has("all") {
        Some(Pick::All)
    } else {
        args.get::<Pick>("strategy")
    };
    if let Some(who) = args.raw("customer") {
        let Some(Pick::One(strategy)) = pick else {
            return Err(
                "--customer needs one strategy, given with --strategy: whose story?".into(),
            );
        };
        base.strategy = strategy;
        return Ok((base, Ask::Story(who.to_string())));
    }
    if let Some((param, from, to, steps)) = args.get::<(Param, u64, u64, u64)>("sweep-param") {
        let key = page::spec(param).key;
        if args.raw(key).is_some() {
            return Err(format!(
                "--{key} is what --sweep-param steps through; give one or the other"
            ));
        }
        let seeds = match args.get::<RangeInclusive<u64>>("seeds") {
            None => page::sweep::query::DEFAULT_SWEEP_SEEDS,
            Some(r) if *r.start() == 1 => *r.end(),
            Some(r) => {
                return Err(format!(
                    "a parameter sweep runs seeds 1..=N; {}..={} does not start at 1",
                    r.start(),
                    r.end()
                ))
            }
        };
        let strategies = match pick {
            Some(Pick::All) => Some(StrategyName::ALL.to_vec()),
            Some(Pick::One(s)) => Some(vec![s]),
            None => None,
        };
        let spec = ParamSweepSpec {
            param,
            from,
            to,
            steps,
            stat: args
                .get::<StatField>("stat")
                .unwrap_or(page::sweep::param_sweep::DEFAULT_STAT),
        };
        return Ok((
            base,
            Ask::ParamSweep {
                strategies,
                spec,
                seeds,
            },
        ));
    }
    let (strategies, many) = match pick {
        Some(Pick::All) => (StrategyName::ALL.to_vec(), true),
        Some(Pick::One(strategy)) => (vec![strategy], false),
        None => return Err("which strategy? give --strategy <name> or --all".into()),
    };
    base.strategy = strategies[0];
    // clap has refused --seeds with --seed.
    if let Some(seeds) = args.get::<RangeInclusive<u64>>("seeds") {
        return Ok((base, Ask::Sweep { strategies, seeds }));
    }
    Ok((base, Ask::Runs { strategies, many }))
}

/// The scenario the parameter flags and `--seed` describe (the article's, seed 1, if none
/// is given). Every parameter flag goes through the same reader as the page's URL, and is
/// checked with the others, whatever their order.
pub fn scenario_from_flags(args: &Args) -> Result<Scenario, String> {
    let texts: Vec<(&str, &str)> = PARAMS
        .iter()
        .filter_map(|p| args.raw(p.key).map(|v| (p.key, v)))
        .collect();
    // `--outage` starts from the outage under steady traffic; the flags change it.
    let start = if args.has("outage") {
        sim::outage::scenario(StrategyName::Keyed, 1)
    } else {
        Scenario::default()
    };
    let mut base = apply_params(&start, &texts).map_err(|problems| problems.join("\n"))?;
    base.seed = args.get::<u64>("seed").unwrap_or(1);
    // A million-customer record would be large and nothing here reads it.
    base.record = false;
    Ok(base)
}

/// The scenario a page URL's query describes, or the page's sentences for what is wrong.
pub fn scenario_from_query(text: &str) -> Result<Scenario, String> {
    let q = page::parse(&page::pairs_of(text));
    if !q.base.problems.is_empty() {
        return Err(format!(
            "the page would not run --query as written:\n  {}",
            q.base.problems.join("\n  ")
        ));
    }
    Ok(Scenario {
        record: false,
        ..q.base.scenario
    })
}

/// The run and what to show of it, from a page URL's query: exactly what the page for it
/// runs, or a refusal naming the command for a page that is not about the charges.
fn from_query(args: &Args, text: &str) -> Result<(Scenario, Ask), String> {
    if let Some(flag) = RUN_FLAGS
        .iter()
        .copied()
        .chain(PARAMS.iter().map(|p| p.key))
        .find(|f| args.given(f))
    {
        return Err(format!(
            "--query describes the whole run; give --{flag} inside the query instead"
        ));
    }
    let q = page::parse(&page::pairs_of(text));
    if !q.base.problems.is_empty() {
        return Err(format!(
            "the page would not run --query as written:\n  {}",
            q.base.problems.join("\n  ")
        ));
    }
    let base = Scenario {
        record: false,
        ..q.base.scenario.clone()
    };
    let ask = match q.page() {
        page @ (Page::Limits | Page::Headers) => {
            let name = if page == Page::Limits {
                "limits"
            } else {
                "headers"
            };
            return Err(format!(
                "this query opens the {name} page, not the charges; for it run: {}",
                cli_line(&q).replacen(CLI_PREFIX, "ratelab", 1)
            ));
        }
        Page::Matrix => {
            return Err(format!(
                "this query opens the matrix page; for it run: {}",
                cli_line(&q).replacen(CLI_PREFIX, "ratelab", 1)
            ));
        }
        Page::Client => {
            return Err(format!(
                "this query opens the client view, whose client is the reader's own; save it as a file and judge it: {}",
                cli_line(&q).replacen(CLI_PREFIX, "ratelab", 1)
            ));
        }
        Page::Sweep => {
            let sweep = q.as_sweep();
            match sweep.own.param {
                Some(spec) => Ask::ParamSweep {
                    strategies: Some(sweep.param_sweep_strategies(spec.param)),
                    spec,
                    seeds: sweep.own.seeds,
                },
                None => Ask::Sweep {
                    strategies: sweep.seed_sweep_strategies(),
                    seeds: 1..=sweep.own.seeds,
                },
            }
        }
        Page::Compare => Ask::Runs {
            strategies: StrategyName::ALL.to_vec(),
            many: true,
        },
        // The run page and the embedded widget play one strategy: the one named, or the
        // page's fallback (`strategy=all` names none), as `cli_line` writes it.
        Page::Run | Page::Embed => match (q.own.story.customer, q.own.story.scene) {
            (Some(c), _) => Ask::Story(c.to_string()),
            (None, Some(scene)) => Ask::Story(scene.as_str().to_string()),
            (None, None) => Ask::Runs {
                strategies: vec![base.strategy],
                many: false,
            },
        },
    };
    Ok((base, ask))
}

/// Runs one seed for each strategy and prints the panel, the table, or JSON.
fn runs(
    base: &Scenario,
    strategies: &[StrategyName],
    many: bool,
    json: bool,
) -> Result<String, String> {
    let mut done = Vec::new();
    for &strategy in strategies {
        let scenario = Scenario {
            strategy,
            ..base.clone()
        };
        let stats = run(&scenario).map_err(|e| e.sentence())?;
        done.push((strategy, stats));
    }
    Ok(print_runs(base, &done, many, json, &params_line(base)))
}

/// The panel (one run), the table (several) or their JSON, for runs on `base`'s seed.
pub fn print_runs(
    base: &Scenario,
    done: &[(StrategyName, Stats)],
    many: bool,
    json: bool,
    params: &str,
) -> String {
    let reports: Vec<Report> = done
        .iter()
        .map(|(s, stats)| Report {
            strategy: s.as_str(),
            seed: base.seed,
            customers: base.customers,
            stats,
        })
        .collect();
    match (json, reports.as_slice()) {
        (true, [one]) if !many => to_json(one),
        (true, many) => to_json(&many),
        (false, [one]) if !many => format!(
            "strategy: {}   seed: {}   customers: {}\n{params}{}",
            one.strategy,
            base.seed,
            base.customers,
            format::panel(one.stats)
        ),
        (false, _) => format!("{params}{}", table(done, base.seed, base.customers)),
    }
}

/// One run's stats as they stood at `ms` simulated milliseconds, cut from its record.
fn until(base: &Scenario, ms: u64, json: bool) -> Result<String, String> {
    let scenario = Scenario {
        record: true,
        ..base.clone()
    };
    let mut sim = Simulation::new(&scenario).map_err(|e| e.sentence())?;
    sim.run_to_end();
    let stats = Stats::at(
        sim.record().expect("recording is on"),
        ms.saturating_mul(1_000),
        &scenario.provider.incident,
        sim.arrivals(),
    );
    let report = Report {
        strategy: base.strategy.as_str(),
        seed: base.seed,
        customers: base.customers,
        stats: &stats,
    };
    Ok(if json {
        to_json(&report)
    } else {
        format!(
            "strategy: {}   seed: {}   customers: {}   at: {ms} ms\n{}{}",
            report.strategy,
            base.seed,
            base.customers,
            params_line(base),
            format::panel(&stats)
        )
    })
}

/// The client's parameters that differ from the article's, as one line (empty if none):
/// over HTTP the provider's are the server's, not these.
fn client_params_line(s: &Scenario) -> String {
    let changed: Vec<String> = PARAMS
        .iter()
        .filter(|p| p.group() == ParamGroup::Client && !p.is_default(s))
        .map(|p| format!("{}={}", p.key, p.read(s)))
        .collect();
    if changed.is_empty() {
        String::new()
    } else {
        format!("parameters: {}\n", changed.join(" "))
    }
}

/// The parameters that differ from the article's, as one line (empty if none).
pub fn params_line(s: &Scenario) -> String {
    let changed: Vec<String> = PARAMS
        .iter()
        .filter(|p| p.key != "customers" && !p.is_default(s))
        .map(|p| format!("{}={}", p.key, p.read(s)))
        .collect();
    if changed.is_empty() {
        String::new()
    } else {
        format!("parameters: {}\n", changed.join(" "))
    }
}

/// Runs one scenario with its record and prints the run as JSON or its requests as CSV.
fn export_run(base: &Scenario, how: Export) -> Result<String, String> {
    let scenario = Scenario {
        record: true,
        ..base.clone()
    };
    let mut sim = Simulation::new(&scenario).map_err(|e| e.sentence())?;
    sim.run_to_end();
    Ok(match how {
        Export::Json => export::run_json(&sim),
        Export::Csv => export::requests_csv(sim.record().expect("recording is on")),
    })
}

fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("stats always serialise")
}

/// One cell of the matrix as JSON.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MatrixCellJson {
    strategy: &'static str,
    incident: &'static str,
    charged: u64,
    duplicates: u64,
    /// Requests per charge, to two decimals (none when nothing was charged).
    requests_per_charge: Option<f64>,
    recovery_ms: u64,
    /// True if any harm field is above 0.
    harm: bool,
    /// The harm fields above 0.
    harms: Vec<&'static str>,
    /// When the client finished its last charge (added after the fields above, which
    /// keep their meaning).
    elapsed_ms: u64,
    /// Every stat of the run, as `charges --json` gives them.
    stats: Stats,
}

/// The matrix as JSON.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MatrixJson {
    seed: u64,
    customers: u32,
    /// When every column's incident starts, and how long it lasts.
    incident_start_ms: u64,
    incident_length_ms: u64,
    cells: Vec<MatrixCellJson>,
}

/// Every strategy against every incident, on the flags' seed and numbers.
fn matrix(base: &Scenario, json: bool) -> Result<String, String> {
    use sim::incident::Incident;
    use sim::matrix::MatrixRun;
    let cells = MatrixRun::new(base).map_err(|e| e.sentence())?.run_to_end();
    if json {
        let cells = cells
            .iter()
            .map(|c| MatrixCellJson {
                strategy: c.strategy.as_str(),
                incident: c.incident.as_str(),
                charged: c.stats.customers_charged,
                duplicates: c.stats.duplicates,
                requests_per_charge: c
                    .stats
                    .requests_per_charge_hundredths()
                    .map(|h| h as f64 / 100.0),
                recovery_ms: c.stats.recovery_ms,
                harm: !c.harms().is_empty(),
                harms: c.harms().into_iter().map(StatField::as_str).collect(),
                elapsed_ms: c.stats.elapsed_ms,
                stats: c.stats.clone(),
            })
            .collect();
        return Ok(to_json(&MatrixJson {
            seed: base.seed,
            customers: base.customers,
            incident_start_ms: sim::time::whole_ms(base.provider.incident.start_us),
            incident_length_ms: sim::time::whole_ms(base.provider.incident.length_us),
            cells,
        }));
    }
    let mut out = format!(
        "seed: {}   customers: {}\neach cell: customers charged / duplicates / requests per charge / recovery ms; ! marks harm\n",
        base.seed, base.customers
    );
    out.push_str(&format!("{:<16}", "strategy"));
    for i in Incident::ALL {
        out.push_str(&format!("{:>24}", i.as_str()));
    }
    out.push('\n');
    for row in cells.chunks(Incident::ALL.len()) {
        out.push_str(&format!("{:<16}", row[0].strategy.as_str()));
        for c in row {
            let mark = if c.harms().is_empty() { "" } else { "!" };
            let cell = format!(
                "{}{mark} / {} / {} / {}",
                c.stats.customers_charged,
                c.stats.duplicates,
                format::requests_per_charge(&c.stats),
                c.stats.recovery_ms
            );
            out.push_str(&format!("{cell:>24}"));
        }
        out.push('\n');
    }
    Ok(out)
}

/// Fields as rows, strategies as columns.
fn table(runs: &[(StrategyName, Stats)], seed: u64, customers: u32) -> String {
    let mut out = format!("seed: {seed}   customers: {customers}\n");
    out.push_str(&format!("{:<22}", "field"));
    for (s, _) in runs {
        out.push_str(&format!("{:>15}", s.as_str()));
    }
    out.push('\n');
    for field in StatField::ALL {
        out.push_str(&format!("{:<22}", field.as_str()));
        for (_, stats) in runs {
            out.push_str(&format!("{:>15}", stats.get(field)));
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
        let sweep = Sweep::run(&scenario, seeds.clone()).map_err(|e| e.sentence())?;
        let fields = StatField::ALL
            .into_iter()
            .map(|f| {
                let d = sweep
                    .distribution(f)
                    .expect("a sweep runs at least one seed");
                (f.as_str(), d)
            })
            .collect();
        let incident = &base.provider.incident;
        let came_back = (!base.traffic.is_batch() && incident.kind != Incident::None).then(|| {
            let back: Vec<u64> = sweep
                .runs
                .iter()
                .filter(|(_, st)| st.goodput_came_back(incident))
                .map(|(_, st)| st.goodput_recovery_ms)
                .collect();
            CameBack {
                seeds: back.len() as u64,
                recovery_ms: (!back.is_empty()).then(|| Distribution::of(&back)),
            }
        });
        reports.push(SweepReport {
            strategy: strategy.as_str(),
            first_seed: *seeds.start(),
            last_seed: *seeds.end(),
            customers: base.customers,
            fields,
            came_back,
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
        for field in StatField::NAMES {
            let d = &r.fields[field];
            out.push_str(&format!(
                "{field:<22}{:>10}{:>10}{:>10}{:>12.1}\n",
                d.min, d.median, d.max, d.mean
            ));
        }
        if let Some(c) = &r.came_back {
            let seeds = r.last_seed - r.first_seed + 1;
            out.push_str(&match &c.recovery_ms {
                Some(d) => format!(
                    "goodput came back and stayed on {} of {seeds} seeds, {}–{} ms after the incident (median {} ms)\n",
                    c.seeds, d.min, d.max, d.median
                ),
                None => format!("goodput came back and stayed on 0 of {seeds} seeds\n"),
            });
        }
        out.push('\n');
    }
    Ok(out.trim_end().to_string())
}

/// Steps one parameter through its values for each strategy and prints one stat's
/// median, min and max at each value, as a table or JSON.
fn param_sweep(
    base: &Scenario,
    strategies: Option<Vec<StrategyName>>,
    spec: ParamSweepSpec,
    seeds: u64,
    json: bool,
) -> Result<String, String> {
    let strategies = strategies.unwrap_or_else(|| strategies_using(spec.param));
    // The sweep page's bound, so that a page's sweep and its command line refuse alike.
    let job = ParamSweepJob::new(base, spec, &strategies, seeds, SWEEP_MAX_CUSTOMERS)
        .map_err(|e| e.sentence())?;
    let lines = job.run_to_end();
    let is_time = spec.param.kind() == ParamKind::Micros;
    let value = |v: u64| -> serde_json::Value {
        match (is_time, v % 1_000) {
            (false, _) => v.into(),
            (true, 0) => (v / 1_000).into(),
            (true, _) => (v as f64 / 1_000.0).into(),
        }
    };
    let key = page::spec(spec.param).key;
    if json {
        let report = ParamSweepReport {
            param: key,
            stat: spec.stat.as_str(),
            strategies: lines
                .iter()
                .map(|(s, points)| LineReport {
                    strategy: s.as_str(),
                    points: points
                        .iter()
                        .map(|p| PointReport {
                            value: value(p.value),
                            min: p.dist.min,
                            median: p.dist.median,
                            max: p.dist.max,
                        })
                        .collect(),
                })
                .collect(),
        };
        return Ok(to_json(&report));
    }
    let mut out = format!(
        "{}   stat: {}   seeds: 1..={seeds}   customers: {}\n{}",
        page::sweep::param_sweep::axis_label(spec.param),
        spec.stat.as_str(),
        base.customers,
        // The swept parameter is on the rows, not among the fixed ones.
        params_line(&swept_reset(base, spec.param))
    );
    for (s, points) in &lines {
        out.push_str(&format!(
            "strategy: {}\n{key:>14}{:>10}{:>10}{:>10}\n",
            s.as_str(),
            "min",
            "median",
            "max"
        ));
        for p in points {
            out.push_str(&format!(
                "{:>14}{:>10}{:>10}{:>10}\n",
                page::sweep::param_sweep::value_text(spec.param, p.value),
                p.dist.min,
                p.dist.median,
                p.dist.max
            ));
        }
        out.push('\n');
    }
    Ok(out.trim_end().to_string())
}

/// `base` with `param` back at the article's value.
fn swept_reset(base: &Scenario, param: Param) -> Scenario {
    let mut s = base.clone();
    param.reset(&mut s);
    s
}

/// One customer's story: every attempt, the client's view beside the provider's. `who`
/// is a customer id or a scene name (e.g. `double-charge`: the first customer showing it).
fn story(scenario: Scenario, who: &str, json: bool) -> Result<String, String> {
    let mut sim = Simulation::new(&scenario).map_err(|e| e.sentence())?;
    sim.run_to_end();
    let record = sim.record().expect("recording is on");
    let customer = match (who.trim().parse::<u32>(), who.trim().parse::<Scene>().ok()) {
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
                "--customer expects a customer id or one of {}, got '{}'",
                scenes.join(", "),
                page::shown(who)
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
        out.push_str(&format!("{}\n", page::run::story::sentence(a)));
    }
    Ok(out.trim_end().to_string())
}
