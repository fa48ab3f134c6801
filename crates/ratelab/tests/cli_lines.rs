//! Every command a page prints in its footer (`page::site::words::cli_line`) runs, and prints
//! the page's numbers: for a few hundred random page states, with random parameters, the
//! line is split as a shell would, run with `--json`, and checked against the core.

mod support;

use page::shared::budget::SWEEP_MAX_CUSTOMERS;
use page::site::words::{cli_line, CLI_PREFIX};
use page::{
    pairs_of, parse, AnyQuery, Base, Motion, Naming, Page, ParamKind, ParamValue, Query, Section,
    Speed, View, FALLBACK_STRATEGY, PARAMS,
};
use serde_json::Value;
use sim::lab::ExperimentName;
use sim::param_sweep::{ParamSweepJob, ParamSweepSpec};
use sim::rng::{Odds, SimRng};
use sim::story::Story;
use sim::sweep::{Sweep, MAX_SEEDS};
use sim::{run, Scenario, Simulation, StatField, StrategyName};
use std::collections::BTreeMap;

/// Page states checked; each costs one run of the binary.
const CASES: usize = 300;

/// Splits a command line into words the way a POSIX shell does for what `cli_line`
/// writes: blanks separate words, single quotes keep everything up to the next one, and
/// a backslash outside quotes keeps the next character (`'it'\''s'` is `it's`).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    w.push(q);
                }
            }
            '\\' => {
                let w = word.get_or_insert_with(String::new);
                w.extend(chars.next());
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

#[test]
fn the_splitter_reads_quotes_like_a_shell() {
    assert_eq!(
        shell_words("a  'b c' 'it'\\''s' '' x'y'z 1..=200"),
        ["a", "b c", "it's", "", "xyz", "1..=200"]
    );
    assert_eq!(
        CLI_PREFIX, "cargo run --release --bin ratelab --",
        "the footers' prefix"
    );
}

/// A whole number in `lo..=hi`, on a random scale (so small and large values both come
/// up), sometimes exactly an end.
fn number(rng: &mut SimRng, lo: u64, hi: u64) -> u64 {
    match rng.below(8) {
        0 => lo,
        1 => hi,
        _ => {
            let digits = rng.below(u64::from(hi.max(1).ilog10()) + 2) as u32;
            let top = lo.saturating_add(10u64.saturating_pow(digits)).min(hi);
            rng.between(lo, top)
        }
    }
}

/// The most each parameter is drawn up to, in the core's units, so every run stays
/// quick: few customers and attempts, modest times. `None`: the whole range.
fn cap(key: &str) -> Option<u64> {
    const SECOND_US: u64 = 1_000_000;
    match key {
        "customers" => Some(300),
        "attempts" => Some(5),
        "rateWindowMs" | "slowMs" | "timeoutMs" | "backoffMs" => Some(5 * SECOND_US),
        "latencyMs" | "jitterMs" => Some(SECOND_US),
        "incidentStartMs" | "incidentMs" => Some(20 * SECOND_US),
        _ => None,
    }
}

/// A scenario with random parameters inside their bounds (and the caps above), about
/// half of them left at the article's values; customers always few.
fn random_scenario(rng: &mut SimRng) -> Scenario {
    let mut scenario = Scenario::default();
    for spec in PARAMS {
        if spec.key != "customers" && rng.chance(Odds::one_in(2)) {
            continue;
        }
        let value = match spec.kind() {
            ParamKind::Count | ParamKind::Micros => {
                let b = spec.bounds().expect("numbers have bounds");
                let hi = cap(spec.key).map_or(*b.end(), |c| c.min(*b.end()));
                ParamValue::Whole(number(rng, *b.start(), hi))
            }
            ParamKind::Odds => ParamValue::Odds(match rng.below(6) {
                0 => Odds::NEVER,
                1 => Odds::one_in(1),
                2 => Odds::one_in(rng.between(1, 100) as u32),
                _ => {
                    let den = rng.between(1, u64::from(u32::MAX)) as u32;
                    let num = rng.between(0, u64::from(den)) as u32;
                    Odds { num, den }
                }
            }),
            ParamKind::Switch => ParamValue::Switch(rng.chance(Odds::one_in(2))),
            ParamKind::Choice => {
                ParamValue::Choice(rng.below(spec.param.choices().len() as u64) as usize)
            }
        };
        spec.param
            .set_unchecked(&mut scenario, value)
            .expect("drawn inside the bounds");
    }
    let p = &mut scenario.provider;
    p.latency_jitter_us = p.latency_jitter_us.min(p.latency_us);
    scenario
}

/// A random page state of a random page, as a reader could reach it.
fn random_page(rng: &mut SimRng) -> AnyQuery {
    let pick = |rng: &mut SimRng, n: usize| rng.below(n as u64) as usize;
    let page = [
        Page::Run,
        Page::Compare,
        Page::Sweep,
        Page::Limits,
        Page::Headers,
        Page::Embed,
        Page::Matrix,
    ][pick(rng, 7)];
    let (section, view) = match page {
        Page::Run => (Section::Charges, View::Run),
        Page::Compare => (Section::Charges, View::Compare),
        Page::Sweep => (Section::Charges, View::Sweep),
        Page::Matrix => (Section::Charges, View::Matrix),
        Page::Client => unreachable!("not drawn: its line judges a client"),
        Page::Limits => (Section::Limits, View::ALL[pick(rng, 3)]),
        Page::Headers => (Section::Headers, View::ALL[pick(rng, 3)]),
        Page::Embed => (
            [Section::Charges, Section::Limits, Section::Headers][pick(rng, 3)],
            View::ALL[pick(rng, 3)],
        ),
    };
    let mut scenario = random_scenario(rng);
    let all = rng.chance(Odds::one_in(4));
    let strategy = (!all && rng.below(4) != 0).then(|| StrategyName::ALL[pick(rng, 6)]);
    let seed = match rng.below(6) {
        0 => u64::MAX,
        1 => 0,
        _ => rng.between(0, u64::MAX),
    };
    scenario.seed = seed;
    scenario.strategy = strategy.unwrap_or(FALLBACK_STRATEGY);
    scenario.record = true;
    let customers = u64::from(scenario.customers);
    let seeds = if page == Page::Sweep {
        rng.between(1, 3)
    } else {
        rng.between(1, MAX_SEEDS)
    };
    let sweep_param = (page == Page::Sweep && rng.chance(Odds::one_in(2)))
        .then(|| random_param_sweep(rng, &scenario, strategy, all, seeds))
        .flatten();
    // The walk's keys ride along with the run page; the CLI's line ignores them.
    let tour = rng.chance(Odds::one_in(4));
    let step = if tour {
        rng.below(page::run::tour::STEPS as u64) as usize
    } else {
        0
    };
    let naming = match (all, strategy) {
        (true, _) => Naming::All,
        (false, Some(_)) => Naming::One,
        (false, None) => Naming::Unnamed,
    };
    let speed = Speed::ALL[pick(rng, 3)];
    let customer = rng
        .chance(Odds::one_in(3))
        .then(|| rng.between(1, customers) as u32);
    let experiment = rng
        .chance(Odds::one_in(2))
        .then(|| ExperimentName::ALL[pick(rng, 6)]);
    // Each knob moved with odds 1/3, anywhere its slider reaches.
    let settings = page::limits::settings::KNOBS.iter().fold(
        Default::default(),
        |s: page::limits::settings::LabSettings, k| {
            let (lo, hi) = k.slider();
            if rng.chance(Odds::one_in(3)) {
                s.with_position(k.id, rng.between(lo, hi))
            } else {
                s
            }
        },
    );
    let present = rng.chance(Odds::one_in(4));
    let motion = Motion::ALL[pick(rng, 3)];
    Query {
        base: Base {
            section,
            view,
            naming,
            scenario,
            speed,
            embed: page == Page::Embed,
            present,
            motion,
            problems: Vec::new(),
        },
        own: page::site::every::Every {
            sweep: page::sweep::query::Sweep::new(seeds, sweep_param),
            // A scene names a story the run may not have; the page's unit tests and the
            // browser's stage tests cover `customer=<scene>` against the CLI.
            story: page::run::query::Story {
                customer,
                scene: None,
            },
            counters: page::run::query::Counters(None),
            lab: page::limits::query::Lab {
                experiment,
                settings,
            },
            walk: page::run::query::Walk { tour, step },
            code: page::client::query::Code(None),
        },
    }
}

/// A parameter sweep the core accepts for this page, small enough to run quickly: a
/// numeric parameter between two values inside its bounds (and the caps above), 2 to 4
/// steps, a random stat. `None` if a few draws found none.
fn random_param_sweep(
    rng: &mut SimRng,
    scenario: &Scenario,
    strategy: Option<StrategyName>,
    all: bool,
    seeds: u64,
) -> Option<ParamSweepSpec> {
    let numeric: Vec<_> = PARAMS
        .iter()
        .filter(|p| matches!(p.kind(), ParamKind::Count | ParamKind::Micros))
        .collect();
    for _ in 0..20 {
        let p = numeric[rng.below(numeric.len() as u64) as usize];
        let b = p.bounds().expect("numbers have bounds");
        let hi = cap(p.key).map_or(*b.end(), |c| c.min(*b.end()));
        let from = number(rng, *b.start(), hi - 1);
        let to = number(rng, from + 1, hi);
        let spec = ParamSweepSpec {
            param: p.param,
            from,
            to,
            steps: rng.between(2, 4),
            stat: StatField::ALL[rng.below(StatField::ALL.len() as u64) as usize],
        };
        let mut q = page::sweep::query::SweepQuery::default();
        q.base.naming = match (all, strategy) {
            (true, _) => Naming::All,
            (false, Some(_)) => Naming::One,
            (false, None) => Naming::Unnamed,
        };
        q.base.scenario.strategy = strategy.unwrap_or(FALLBACK_STRATEGY);
        let strategies = q.param_sweep_strategies(p.param);
        if ParamSweepJob::new(scenario, spec, &strategies, seeds, SWEEP_MAX_CUSTOMERS).is_ok() {
            return Some(spec);
        }
    }
    None
}

/// One strategy's line of a parameter sweep as `--json` prints it, against the core.
fn check_param_sweep(v: &Value, q: &AnyQuery, spec: ParamSweepSpec, why: &str) {
    let strategies = q.as_sweep().param_sweep_strategies(spec.param);
    let lines = ParamSweepJob::new(
        &q.base.scenario,
        spec,
        &strategies,
        q.own.sweep.seeds,
        SWEEP_MAX_CUSTOMERS,
    )
    .unwrap_or_else(|e| panic!("{why}: {e}"))
    .run_to_end();
    assert_eq!(v["param"], page::spec(spec.param).key, "{why}");
    assert_eq!(v["stat"], spec.stat.as_str(), "{why}");
    let got = array(&v["strategies"], lines.len(), why);
    for (item, (strategy, points)) in got.iter().zip(&lines) {
        assert_eq!(item["strategy"], strategy.as_str(), "{why}");
        let got_points = array(&item["points"], points.len(), why);
        for (g, p) in got_points.iter().zip(points) {
            let value = page::sweep::param_sweep::value_text(spec.param, p.value);
            assert_eq!(g["value"].to_string(), value, "{why}");
            assert_eq!(
                (g["min"].as_u64(), g["median"].as_u64(), g["max"].as_u64()),
                (Some(p.dist.min), Some(p.dist.median), Some(p.dist.max)),
                "{why}: {strategy} at {value}"
            );
        }
    }
}

/// The stats of one run as `--json` prints them, checked field by field.
fn check_run(v: &Value, scenario: &Scenario, why: &str) {
    let core = run(scenario).unwrap_or_else(|e| panic!("{why}: {e}"));
    assert_eq!(v["strategy"], scenario.strategy.as_str(), "{why}");
    assert_eq!(v["seed"].as_u64(), Some(scenario.seed), "{why}");
    assert_eq!(
        v["customers"].as_u64(),
        Some(u64::from(scenario.customers)),
        "{why}"
    );
    for field in StatField::ALL {
        assert_eq!(
            v[field.as_str()].as_u64(),
            Some(core.get(field)),
            "{why}: {field}"
        );
    }
}

/// One strategy's sweep as `--json` prints it: each field's min, median, max and
/// histogram counts, against the core's sweep over the same seeds.
fn check_sweep(v: &Value, scenario: &Scenario, seeds: u64, why: &str) {
    let sweep = Sweep::run(scenario, 1..=seeds).unwrap_or_else(|e| panic!("{why}: {e}"));
    assert_eq!(v["strategy"], scenario.strategy.as_str(), "{why}");
    assert_eq!(
        (v["first_seed"].as_u64(), v["last_seed"].as_u64()),
        (Some(1), Some(seeds)),
        "{why}"
    );
    for field in StatField::ALL {
        let d = sweep.distribution(field).expect("at least one seed");
        let got = &v["fields"][field.as_str()];
        let counts: Vec<Option<u64>> = got["histogram"]
            .as_array()
            .unwrap_or_else(|| panic!("{why}: no histogram for {field}"))
            .iter()
            .map(|b| b["count"].as_u64())
            .collect();
        let expected: Vec<Option<u64>> = d.histogram.iter().map(|b| Some(b.count)).collect();
        assert_eq!(
            (
                got["min"].as_u64(),
                got["median"].as_u64(),
                got["max"].as_u64(),
                counts
            ),
            (Some(d.min), Some(d.median), Some(d.max), expected),
            "{why}: {field}"
        );
    }
}

/// One experiment as `--json` prints it: its `cells` are the page's, for the core's result.
fn check_experiment(
    v: &Value,
    name: ExperimentName,
    seed: u64,
    settings: &page::limits::settings::LabSettings,
    why: &str,
) {
    assert_eq!(v["experiment"], name.as_str(), "{why}");
    let run =
        page::limits::settings::run(name, seed, settings).unwrap_or_else(|e| panic!("{why}: {e}"));
    let expected: BTreeMap<String, Value> = page::limits::lab::cells(&run)
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let got: BTreeMap<String, Value> = v["cells"]
        .as_object()
        .unwrap_or_else(|| panic!("{why}: no cells"))
        .clone()
        .into_iter()
        .collect();
    assert_eq!(got, expected, "{why}");
}

/// The JSON array `--json` prints for several runs, sweeps or experiments.
fn array<'a>(v: &'a Value, len: usize, why: &str) -> &'a [Value] {
    let items = v
        .as_array()
        .unwrap_or_else(|| panic!("{why}: expected an array"));
    assert_eq!(items.len(), len, "{why}");
    items
}

/// Runs the page's command with `--json` and checks it prints what the page shows.
fn check_line(q: &AnyQuery, why: &str) {
    let line = cli_line(q);
    let rest = line
        .strip_prefix(CLI_PREFIX)
        .unwrap_or_else(|| panic!("{why}: {line}"));
    let mut words = shell_words(rest);
    words.push("--json".into());
    let why = format!("{why}\n  command: ratelab {}", words.join(" "));
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let (code, out, err) = support::ratelab(&args);
    assert_eq!(code, 0, "{why}\n  stderr: {err}");
    if q.page() == Page::Headers {
        assert!(!out.trim().is_empty(), "{why}");
        return;
    }
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{why}: {e}\n{out}"));
    let s = q.base.scenario.clone();
    let with = |strategy| Scenario {
        strategy,
        ..s.clone()
    };
    match q.page() {
        Page::Client => unreachable!("{why}: the client view's line judges a client; see the_client_views_line_judges_a_client"),
        Page::Run | Page::Embed => match q.own.story.customer {
            None => check_run(&v, &s, &why),
            Some(customer) => {
                let mut sim = Simulation::new(&s).unwrap_or_else(|e| panic!("{why}: {e}"));
                sim.run_to_end();
                let story = Story::of(sim.record().expect("the page records"), customer);
                assert_eq!(v, serde_json::to_value(&story).unwrap(), "{why}");
            }
        },
        Page::Matrix => {
            let cells = sim::matrix::MatrixRun::new(&s)
                .unwrap_or_else(|e| panic!("{why}: {e}"))
                .run_to_end();
            let items = v["cells"]
                .as_array()
                .unwrap_or_else(|| panic!("{why}: no cells"));
            assert_eq!(items.len(), cells.len(), "{why}");
            for (item, cell) in items.iter().zip(&cells) {
                let st = &cell.stats;
                assert_eq!(
                    (
                        item["strategy"].as_str(),
                        item["incident"].as_str(),
                        item["charged"].as_u64(),
                        item["duplicates"].as_u64(),
                        item["recoveryMs"].as_u64(),
                        // null when nothing was charged, where the stats say 0.
                        item["requestsPerCharge"]
                            .as_f64()
                            .map_or(0, |r| (r * 100.0).round() as u64),
                    ),
                    (
                        Some(cell.strategy.as_str()),
                        Some(cell.incident.as_str()),
                        Some(st.customers_charged),
                        Some(st.duplicates),
                        Some(st.recovery_ms),
                        st.requests_per_100_charges,
                    ),
                    "{why}"
                );
            }
        }
        Page::Compare => {
            for (item, strategy) in array(&v, StrategyName::ALL.len(), &why)
                .iter()
                .zip(StrategyName::ALL)
            {
                check_run(item, &with(strategy), &why);
            }
        }
        Page::Sweep if q.own.sweep.param.is_some() => {
            check_param_sweep(&v, q, q.own.sweep.param.expect("matched"), &why)
        }
        Page::Sweep => match q.base.strategy() {
            Some(one) => check_sweep(&v, &with(one), q.own.sweep.seeds, &why),
            _ => {
                for (item, strategy) in array(&v, StrategyName::ALL.len(), &why)
                    .iter()
                    .zip(StrategyName::ALL)
                {
                    check_sweep(item, &with(strategy), q.own.sweep.seeds, &why);
                }
            }
        },
        Page::Limits => match q.own.lab.experiment {
            Some(name) => check_experiment(&v, name, q.base.seed(), &q.own.lab.settings, &why),
            None => {
                for (item, name) in array(&v, ExperimentName::ALL.len(), &why)
                    .iter()
                    .zip(ExperimentName::ALL)
                {
                    check_experiment(item, name, q.base.seed(), &q.own.lab.settings, &why);
                }
            }
        },
        Page::Headers => unreachable!("checked above"),
    }
}

#[test]
fn every_pages_command_runs_and_prints_the_pages_numbers() {
    let mut rng = SimRng::from_seed(20_240_611);
    let mut pages = BTreeMap::new();
    for i in 0..CASES {
        let page = random_page(&mut rng);
        let query = page.to_query();
        let back = parse(&pairs_of(&query));
        assert_eq!(
            back, page,
            "case {i}: the query does not read back: {query}"
        );
        let story =
            matches!(page.page(), Page::Run | Page::Embed) && page.own.story.customer.is_some();
        let param = page.page() == Page::Sweep && page.own.sweep.param.is_some();
        let kind = format!(
            "{:?}{}{}",
            page.page(),
            if story { " story" } else { "" },
            if param { " param" } else { "" }
        );
        *pages.entry(kind).or_insert(0) += 1;
        check_line(&back, &format!("case {i}\n  query: {query}"));
    }
    // Every page (the matrix too) came up, and a story on the run page and the embedded one.
    // And a parameter sweep.
    assert_eq!(pages.len(), 10, "{pages:?}");
}

#[test]
fn the_footers_own_examples_run() {
    for query in [
        "?strategy=pool&seed=3&maxInflight=20&customers=50",
        "?view=compare&seed=9&timeoutMs=2500&customers=40",
        "?view=sweep&strategy=retry&seeds=3&backoffMs=20&customers=30",
        "?view=sweep&seeds=2&customers=20",
        "?view=sweep&param=timeoutMs&from=200&to=3000&steps=4&stat=duplicates&seeds=2&customers=100",
        "?view=sweep&strategy=pool&param=workers&from=1&to=20&steps=3&stat=elapsedMs&seeds=2&customers=50&timeoutMs=700",
        "?view=sweep&strategy=all&param=latencyMs&from=3&to=20.5&steps=3&stat=requests&seeds=1&customers=30",
        "?section=limits&experiment=herd&seed=4",
        "?section=limits&seed=4",
        "?section=headers",
        "?strategy=keyed&customer=12&customers=100",
        "?strategy=keyed&customer=12&customers=100&seed=18446744073709551615",
        "?embed=1&section=limits&strategy=naive&seed=2&customers=25",
    ] {
        let q = parse(&pairs_of(query));
        assert!(q.base.problems.is_empty(), "{query}: {:?}", q.base.problems);
        check_line(&q, &format!("query: {query}"));
    }
}

/// The client view's line is `ratelab judge` with the view's provider and seed, around
/// the reader's client saved as a file: judge takes every word of it.
#[test]
fn the_client_views_line_judges_a_client() {
    let query = "?view=client&seed=6&customers=20&incident=slow&maxInflight=4&code=eA";
    let q = page::parse(&page::pairs_of(query));
    assert!(q.base.problems.is_empty(), "{:?}", q.base.problems);
    let line = cli_line(&q);
    let rest = line.strip_prefix(CLI_PREFIX).unwrap();
    assert_eq!(
        rest,
        " judge --seed 6 --customers 20 --maxInflight 4 --incident slow -- node clients/run.mjs my-client.js"
    );
    // The same words, judging a command that charges nobody: judge takes them (exit 1,
    // every charge lost; 2 would be a bad argument) and reports the view's provider.
    let mut words = shell_words(rest);
    let client = words.iter().position(|w| w == "--").unwrap();
    words.truncate(client);
    words.extend(["--json", "--", "sh", "-c", "exit 0"].map(String::from));
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let (code, out, err) = support::ratelab(&args);
    assert_eq!(code, 1, "{out}\n{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["seed"], 6);
    assert_eq!(v["card"]["customers"], 20);
    assert_eq!(v["card"]["chargesLost"], 20, "{v}");
}
