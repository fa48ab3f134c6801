//! The query read and written: every key, every refusal, and round trips.

use super::every::*;
use crate::client::query::Code;
use crate::limits::query::Lab;
use crate::limits::query::{experiment_href, experiment_query};
use crate::limits::settings::KnobId;
use crate::limits::settings::LabSettings;
use crate::query::base::Naming;
use crate::query::codec::*;
use crate::query::links::{compare_query, full_lab_href, href, point_href, run_href};
use crate::query::page::*;
use crate::run::query::{Counters, Story, Walk, MAX_COUNTERS};
use crate::site::keys::link::{page, page_as};
use crate::sweep::query::{param_sweep_query, sweep_href, sweep_query};
use crate::sweep::query::{Sweep, DEFAULT_SWEEP_SEEDS};
use crate::*;
use sim::lab::ExperimentName;
use sim::param_sweep::ParamSweepSpec;
use sim::rng::SimRng;
use sim::story::Scene;
use sim::{Scenario, StatField, StrategyName};

fn q(s: &[(&str, &str)]) -> AnyQuery {
    parse(
        &s.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>(),
    )
}

#[test]
fn a_story_by_scene_the_widget_counters_and_the_presenter_layout_read_and_write_back() {
    let p = q(&[("strategy", "keyed"), ("customer", "conflict")]);
    assert_eq!(
        (p.own.story.customer, p.own.story.scene),
        (None, Some(Scene::Conflict))
    );
    assert!(p.base.problems.is_empty());
    assert_eq!(parse(&pairs_of(&p.to_query())), p);
    let p = q(&[("customer", "12")]);
    assert_eq!((p.own.story.customer, p.own.story.scene), (Some(12), None));
    let p = q(&[("customer", "bogus")]);
    assert_eq!((p.own.story.customer, p.own.story.scene), (None, None));
    assert!(
        p.base.problems[0].contains("not one of the scenes (double-charge,"),
        "{:?}",
        p.base.problems
    );
    let p = q(&[("counters", "duplicates,requests")]);
    assert_eq!(
        p.own.counters.0,
        Some(vec![StatField::Duplicates, StatField::Requests])
    );
    assert_eq!(parse(&pairs_of(&p.to_query())), p);
    let p = q(&[("counters", "duplicates,typo")]);
    assert_eq!(p.own.counters.0, None);
    assert!(
        p.base.problems[0].contains("'typo'"),
        "{:?}",
        p.base.problems
    );
    let seven = ["requests"; MAX_COUNTERS + 1].join(",");
    let p = q(&[("counters", &seven)]);
    assert_eq!(p.own.counters.0, None);
    assert!(
        p.base.problems[0].contains("1 to 6"),
        "{:?}",
        p.base.problems
    );
    let p = q(&[("present", "1")]);
    assert!(p.base.present);
    assert_eq!(parse(&pairs_of(&p.to_query())), p);
    let p = q(&[("present", "yes")]);
    assert!(!p.base.present && !p.base.problems.is_empty());
}

#[test]
fn the_walks_step_reads_and_writes_back_and_bad_values_are_named() {
    let p = q(&[("tour", "1"), ("step", "3"), ("strategy", "retry")]);
    assert!(
        p.own.walk.tour && p.base.problems.is_empty(),
        "{:?}",
        p.base.problems
    );
    assert_eq!(p.own.walk.step, 2);
    // A linked step asks its question before anything runs.
    assert!(!p.as_run().autostart());
    assert!(p.to_query().ends_with("&tour=1&step=3"), "{}", p.to_query());
    assert_eq!(parse(&pairs_of(&p.to_query())), p);
    let p = q(&[("tour", "1"), ("step", "7")]);
    assert_eq!(p.own.walk.step, 0);
    assert_eq!(
        p.base.problems,
        vec!["The walk's step 7 is outside 1–6; starting at its first step.".to_string()]
    );
    let p = q(&[("tour", "1"), ("step", "two")]);
    assert!(
        p.base.problems[0].contains("'two' is not a whole number from 1 to 6"),
        "{:?}",
        p.base.problems
    );
    let p = q(&[("tour", "yes")]);
    assert!(!p.own.walk.tour);
    assert!(
        p.base.problems[0].contains("The tour 'yes' is not 1 or 0"),
        "{:?}",
        p.base.problems
    );
    let p = q(&[("step", "4")]);
    assert!(!p.own.walk.tour && p.own.walk.step == 0);
    assert!(
        p.base.problems[0].starts_with("Ignored 'step'"),
        "{:?}",
        p.base.problems
    );
    let p = q(&[("tour", "0")]);
    assert!(!p.own.walk.tour && p.base.problems.is_empty());
    assert!(!p.to_query().contains("tour"));
}

#[test]
fn a_good_query_starts_that_run() {
    let p = q(&[("strategy", "pool"), ("seed", "42"), ("speed", "1x")]);
    assert_eq!(
        (p.base.strategy(), p.base.seed(), p.base.speed),
        (Some(StrategyName::Pool), 42, Speed::X1)
    );
    assert!(p.base.problems.is_empty() && p.as_run().autostart());
    assert!(!q(&[]).as_run().autostart());
    assert_eq!(q(&[("seed", "18446744073709551615")]).base.seed(), u64::MAX);
}

#[test]
fn bad_values_fall_back_with_a_sentence_each() {
    let p = q(&[("strategy", "yolo"), ("seed", "-4"), ("speed", "warp")]);
    assert_eq!(
        (p.base.strategy(), p.base.seed(), p.base.speed),
        (Some(StrategyName::Keyed), 1, Speed::X10)
    );
    assert_eq!(p.base.problems.len(), 3);
    assert!(
        p.base.problems[0].contains("no strategy called 'yolo'"),
        "{:?}",
        p.base.problems
    );
    assert!(p.base.problems[1].contains("'-4' is not a whole number"));
    assert_eq!(
        p.base.problems[2],
        "There is no speed called 'warp'; use one of instant, 10x, 1x, 0.1x, 0.01x. Using 10x instead."
    );
}

#[test]
fn unknown_repeated_and_huge_values_are_reported() {
    let p = q(&[
        ("seed", "5"),
        ("seed", "6"),
        ("colour", "red"),
        ("seed", "99999999999999999999"),
    ]);
    assert_eq!(p.base.seed(), 5);
    assert!(p
        .base
        .problems
        .iter()
        .any(|m| m.contains("'seed' appears more than once")));
    assert!(p
        .base
        .problems
        .iter()
        .any(|m| m.contains("unknown parameter 'colour'")));
    let p = q(&[("seed", "99999999999999999999")]);
    assert!(
        p.base.problems[0].contains("too large"),
        "{:?}",
        p.base.problems
    );
    let long = "x".repeat(10_000);
    let p = q(&[("strategy", &long)]);
    assert!(
        p.base.problems[0].len() < 300,
        "a huge value is shortened in the message"
    );
}

#[test]
fn the_seeded_scenario_carries_the_links_seed_and_numbers() {
    let s = q(&[("seed", "9"), ("maxInflight", "8")]).base.scenario;
    assert_eq!((s.seed, s.provider.max_inflight), (9, 8));
    assert_eq!(q(&[]).base.scenario, Scenario::default());
}

#[test]
fn each_query_opens_one_page() {
    let page = |pairs: &[(&str, &str)]| q(pairs).page();
    assert_eq!(page(&[]), Page::Run);
    assert_eq!(page(&[("strategy", "pool"), ("seed", "3")]), Page::Run);
    assert_eq!(page(&[("view", "compare")]), Page::Compare);
    assert_eq!(page(&[("view", "sweep"), ("strategy", "all")]), Page::Sweep);
    assert_eq!(
        page(&[("section", "limits"), ("view", "compare")]),
        Page::Limits
    );
    assert_eq!(page(&[("section", "headers")]), Page::Headers);
    assert_eq!(page(&[("embed", "1"), ("section", "limits")]), Page::Embed);
    // What cannot be read falls back, and so does the page.
    assert_eq!(page(&[("view", "Compare")]), Page::Run);
    assert_eq!(page(&[("section", "limits!")]), Page::Run);
    assert_eq!(page(&[("embed", "yes")]), Page::Run);
    // The first of a repeated key counts, as in the loader's URLSearchParams.get.
    assert_eq!(page(&[("view", "sweep"), ("view", "run")]), Page::Sweep);
}

#[test]
fn a_sweep_starts_itself_only_when_the_link_names_what_to_sweep() {
    assert!(q(&[("view", "sweep"), ("strategy", "all")])
        .as_sweep()
        .sweep_autostart());
    assert!(q(&[("view", "sweep"), ("strategy", "keyed")])
        .as_sweep()
        .sweep_autostart());
    assert!(!q(&[("view", "sweep")]).as_sweep().sweep_autostart());
    assert!(!q(&[("view", "compare"), ("strategy", "all")])
        .as_sweep()
        .sweep_autostart());
}

#[test]
fn views_sections_sweeps_and_customers() {
    let p = q(&[("view", "sweep"), ("strategy", "all"), ("seeds", "500")]);
    assert_eq!(
        (p.base.view, p.base.naming == Naming::All, p.own.sweep.seeds),
        (View::Sweep, true, 500)
    );
    assert!(!p.as_run().autostart(), "a sweep is not a playback run");
    let p = q(&[("view", "compare"), ("seed", "9")]);
    assert_eq!((p.base.view, p.base.seed()), (View::Compare, 9));
    let p = q(&[("strategy", "keyed"), ("customer", "42")]);
    assert_eq!(p.own.story.customer, Some(42));
    let p = q(&[("section", "limits"), ("experiment", "burst")]);
    assert_eq!(
        (p.base.section, p.own.lab.experiment),
        (Section::Limits, Some(ExperimentName::Burst))
    );
    assert!(q(&[("experiment", "boom")]).base.problems[0].contains("no experiment called 'boom'"));
    let p = q(&[
        ("view", "graph"),
        ("seeds", "0"),
        ("customer", "-5"),
        ("section", "x"),
    ]);
    assert_eq!(
        (
            p.base.view,
            p.own.sweep.seeds,
            p.own.story.customer,
            p.base.section
        ),
        (View::Run, DEFAULT_SWEEP_SEEDS, None, Section::Charges)
    );
    assert_eq!(p.base.problems.len(), 4, "{:?}", p.base.problems);
    assert!(
        p.base.problems[1].contains("0 is outside 1–10000"),
        "{:?}",
        p.base.problems
    );
}

#[test]
fn a_parameter_sweep_reads_its_keys_in_any_order_and_explains_bad_ones() {
    use sim::time::ms;
    use sim::{Param, StatField};
    let p = q(&[
        ("stat", "duplicates"),
        ("view", "sweep"),
        ("param", "timeoutMs"),
        ("from", "200"),
        ("to", "3000"),
        ("steps", "15"),
        ("seeds", "50"),
    ]);
    assert_eq!(p.base.problems, Vec::<String>::new());
    assert_eq!(
        p.own.sweep.param,
        Some(ParamSweepSpec {
            param: Param::Timeout,
            from: ms(200),
            to: ms(3_000),
            steps: 15,
            stat: StatField::Duplicates
        })
    );
    assert!(p.as_sweep().sweep_autostart());
    assert_eq!(
        p.as_sweep().param_sweep_strategies(Param::Timeout),
        [
            StrategyName::TimeoutNoKey,
            StrategyName::Keyed,
            StrategyName::Pool,
            StrategyName::Headers,
            StrategyName::Budget,
            StrategyName::Breaker,
            StrategyName::Adaptive
        ]
    );
    let p = q(&[
        ("param", "workers"),
        ("from", "9"),
        ("to", "3"),
        ("steps", "99"),
        ("stat", "money"),
    ]);
    let sp = p.own.sweep.param.unwrap();
    assert_eq!(
        (sp.from, sp.to, sp.steps, sp.stat),
        (1, 24, 10, StatField::Duplicates)
    );
    assert_eq!(p.base.problems.len(), 3, "{:?}", p.base.problems);
    assert!(
        p.base.problems[0].contains("'from' (9) must be below its 'to' (3)"),
        "{:?}",
        p.base.problems
    );
    assert!(
        p.base.problems[1].contains("99 is outside 2–50"),
        "{:?}",
        p.base.problems
    );
    assert!(
        p.base.problems[2].contains("no stat called 'money'"),
        "{:?}",
        p.base.problems
    );
    let p = q(&[("param", "timeoutMs"), ("from", "-1")]);
    assert!(
        p.base.problems[0].contains("negative"),
        "{:?}",
        p.base.problems
    );
    assert_eq!(p.own.sweep.param.unwrap().from, ms(250));
    let p = q(&[("param", "jitter")]);
    assert_eq!(p.own.sweep.param, None);
    assert!(
        p.base.problems[0].contains("cannot be swept"),
        "{:?}",
        p.base.problems
    );
    let p = q(&[("from", "1"), ("steps", "3")]);
    assert_eq!(p.own.sweep.param, None);
    assert!(
        p.base.problems[0].contains("needs 'param'"),
        "{:?}",
        p.base.problems
    );
}

#[test]
fn to_query_round_trips() {
    let text = to_query(StrategyName::TimeoutNoKey, 9, Speed::X10);
    let pairs: Vec<(String, String)> = text[1..]
        .split('&')
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .unwrap()
        })
        .collect();
    let p = parse(&pairs);
    assert_eq!(
        (p.base.strategy(), p.base.seed(), p.base.speed),
        (Some(StrategyName::TimeoutNoKey), 9, Speed::X10)
    );
}

/// A page state with every field drawn at random, half the parameters left at
/// their defaults: what a reader could reach by clicking and typing.
pub(crate) fn random_page(rng: &mut SimRng) -> AnyQuery {
    use sim::rng::Odds;
    let pick = |rng: &mut SimRng, n: usize| rng.below(n as u64) as usize;
    let mut scenario = Scenario::default();
    for spec in PARAMS {
        if rng.chance(Odds::one_in(2)) {
            continue;
        }
        let value = match spec.kind() {
            ParamKind::Count | ParamKind::Micros => {
                let b = spec.bounds().unwrap();
                ParamValue::Whole(rng.between(*b.start(), *b.end()))
            }
            ParamKind::Odds => {
                let den = rng.between(1, u64::from(u32::MAX)) as u32;
                let num = rng.between(0, u64::from(den)) as u32;
                ParamValue::Odds(Odds { num, den })
            }
            ParamKind::Switch => ParamValue::Switch(rng.chance(Odds::one_in(2))),
            ParamKind::Choice => ParamValue::Choice(pick(rng, spec.param.choices().len())),
        };
        spec.param.set_unchecked(&mut scenario, value).unwrap();
    }
    let p = &mut scenario.provider;
    p.latency_jitter_us = p.latency_jitter_us.min(p.latency_us);
    let all = rng.chance(Odds::one_in(5));
    let strategy = (!all && rng.chance(Odds::one_in(2))).then(|| StrategyName::ALL[pick(rng, 6)]);
    let seed = rng.between(0, u64::MAX);
    scenario.seed = seed;
    scenario.strategy = strategy.unwrap_or(FALLBACK_STRATEGY);
    let customers = u64::from(scenario.customers);
    let customer = rng
        .chance(Odds::one_in(3))
        .then(|| rng.between(1, customers) as u32);
    // A scene names a story only when no customer does (the number wins).
    let scene = (customer.is_none() && rng.chance(Odds::one_in(3)))
        .then(|| Scene::ALL[pick(rng, Scene::ALL.len())]);
    let tour = rng.chance(Odds::one_in(4));
    let counters = rng.chance(Odds::one_in(3)).then(|| {
        (0..rng.between(1, MAX_COUNTERS as u64))
            .map(|_| StatField::ALL[pick(rng, StatField::ALL.len())])
            .collect()
    });
    let section = [Section::Charges, Section::Limits, Section::Headers][pick(rng, 3)];
    let view = View::ALL[pick(rng, 3)];
    let seeds = rng.between(1, sim::sweep::MAX_SEEDS);
    let speed = Speed::ALL[pick(rng, 3)];
    let experiment = rng
        .chance(Odds::one_in(3))
        .then(|| ExperimentName::ALL[pick(rng, 6)]);
    let settings = crate::limits::settings::KNOBS
        .iter()
        .fold(LabSettings::default(), |s, k| {
            let (lo, hi) = k.slider();
            if rng.chance(Odds::one_in(3)) {
                s.with_position(k.id, rng.between(lo, hi))
            } else {
                s
            }
        });
    let embed = rng.chance(Odds::one_in(2));
    let present = rng.chance(Odds::one_in(4));
    let motion = Motion::ALL[pick(rng, 3)];
    let step = if tour {
        pick(rng, crate::run::tour::STEPS)
    } else {
        0
    };
    let param = rng.chance(Odds::one_in(3)).then(|| random_param_sweep(rng));
    let code = rng.chance(Odds::one_in(4)).then(|| {
        let text: String = (0..rng.between(0, 40))
            .map(|_| char::from_u32(rng.between(1, 0x2FF) as u32).unwrap_or('x'))
            .collect();
        crate::client::code::encode_code(&text)
    });
    Query {
        base: Base {
            section,
            view,
            naming: match (all, strategy) {
                (true, _) => Naming::All,
                (false, Some(_)) => Naming::One,
                (false, None) => Naming::Unnamed,
            },
            scenario,
            speed,
            embed,
            present,
            motion,
            problems: Vec::new(),
        },
        own: Every {
            sweep: Sweep::new(seeds, param),
            story: Story { customer, scene },
            counters: Counters(counters),
            lab: Lab {
                experiment,
                settings,
            },
            walk: Walk { tour, step },
            code: Code(code),
        },
    }
}

/// A parameter sweep with every field drawn at random inside what the URL accepts.
pub(crate) fn random_param_sweep(rng: &mut SimRng) -> ParamSweepSpec {
    use sim::StatField;
    let numeric: Vec<&ParamSpec> = PARAMS
        .iter()
        .filter(|p| crate::sweep::param_sweep::sweepable(p.param))
        .collect();
    let p = numeric[rng.below(numeric.len() as u64) as usize];
    let b = p.bounds().unwrap();
    let from = rng.between(*b.start(), *b.end() - 1);
    let to = rng.between(from + 1, *b.end());
    ParamSweepSpec {
        param: p.param,
        from,
        to,
        steps: rng.between(2, 50),
        stat: StatField::ALL[rng.below(StatField::ALL.len() as u64) as usize],
    }
}

#[test]
fn every_page_state_round_trips_through_its_query() {
    let mut rng = SimRng::from_seed(2024);
    for i in 0..2_000 {
        let page = random_page(&mut rng);
        assert_eq!(page.base.scenario.validate(), Ok(()), "case {i}");
        let text = page.to_query();
        assert!(
            text.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"?&=-._~/%".contains(&b)),
            "{text}"
        );
        assert_eq!(parse(&pairs_of(&text)), page, "case {i}: {text}");
    }
    assert_eq!(
        parse(&pairs_of(&AnyQuery::default().to_query())),
        AnyQuery::default()
    );
}

#[test]
fn any_parameters_the_url_accepts_make_a_run_that_finishes_and_adds_up() {
    use sim::{Simulation, Stats};
    let mut rng = SimRng::from_seed(77);
    for i in 0..1_500 {
        let mut s = random_page(&mut rng).base.scenario;
        s.customers = 1 + s.customers % 300;
        s.strategy = StrategyName::ALL[i % StrategyName::ALL.len()];
        let mut sim = Simulation::new(&s).unwrap();
        let stats = sim.run_to_end();
        let why = format!("case {i}: {}", AnyQuery::for_run(&s, Speed::X1).to_query());
        assert!(sim.is_finished(), "{why}");
        assert_eq!(
            stats,
            Stats::from_record(sim.record().unwrap(), &s.provider.incident, sim.arrivals()),
            "{why}"
        );
        assert!(
            stats.max_inflight <= s.provider.max_inflight + s.provider.queue_limit,
            "{why}"
        );
        if matches!(s.strategy, StrategyName::Keyed | StrategyName::Pool) {
            assert_eq!(stats.duplicates, 0, "{why}");
        }
        if s.strategy == StrategyName::Pool {
            assert!(
                stats.client_max_outstanding <= s.client.pool_workers,
                "{why}"
            );
        }
    }
}

#[test]
fn only_parameters_that_differ_from_the_defaults_are_written() {
    let mut s = Scenario::article(StrategyName::Pool, 7);
    assert_eq!(
        AnyQuery::for_run(&s, Speed::X1).to_query(),
        "?section=charges&view=run&strategy=pool&seed=7&speed=1x"
    );
    assert_eq!(
        to_query(StrategyName::Pool, 7, Speed::X1),
        "?section=charges&view=run&strategy=pool&seed=7&speed=1x"
    );
    set_param(&mut s, "workers", "20").unwrap();
    set_param(&mut s, "maxInflight", "3").unwrap();
    set_param(&mut s, "errorRate", "1 in 5").unwrap();
    set_param(&mut s, "jitterMs", "0").unwrap();
    set_param(&mut s, "latencyMs", "2.5").unwrap();
    set_param(&mut s, "jitter", "on").unwrap();
    assert_eq!(
        AnyQuery::for_run(&s, Speed::X10).to_query(),
        "?section=charges&view=run&strategy=pool&seed=7&speed=10x\
         &maxInflight=3&errorRate=1/5&latencyMs=2.5&jitterMs=0&jitter=on&workers=20"
    );
}

#[test]
fn parameters_in_the_url_set_the_scenario() {
    let p = q(&[
        ("strategy", "pool"),
        ("seed", "3"),
        ("customers", "50"),
        ("maxInflight", "20"),
        ("rateLimit", "500"),
        ("rateWindowMs", "2000"),
        ("errorRate", "5%"),
        ("slowRate", "1 in 10"),
        ("slowMs", "900"),
        ("latencyMs", "40"),
        ("jitterMs", "10.5"),
        ("declineEvery", "0"),
        ("pacer", "45"),
        ("attempts", "3"),
        ("backoffMs", "250"),
        ("jitter", "on"),
        ("timeoutMs", "700"),
        ("workers", "12"),
    ]);
    assert_eq!(p.base.problems, Vec::<String>::new());
    let s = &p.base.scenario;
    assert_eq!(
        (s.seed, s.strategy, s.customers),
        (3, StrategyName::Pool, 50)
    );
    assert_eq!(
        (
            s.provider.max_inflight,
            s.provider.rate_limit,
            s.provider.rate_window_us
        ),
        (20, 500, 2_000_000)
    );
    assert_eq!(s.provider.server_error, sim::rng::Odds { num: 5, den: 100 });
    assert_eq!(s.provider.slow, sim::rng::Odds::one_in(10));
    assert_eq!(
        (
            s.provider.slow_latency_us,
            s.provider.latency_us,
            s.provider.latency_jitter_us
        ),
        (900_000, 40_000, 10_500)
    );
    assert_eq!(s.provider.decline_every, 0);
    let c = &s.client;
    assert_eq!(
        (
            c.pacer_per_s,
            c.max_attempts,
            c.backoff_base_us,
            c.backoff_jitter
        ),
        (45, 3, 250_000, true)
    );
    assert_eq!((c.timeout_us, c.pool_workers), (700_000, 12));
}

#[test]
fn a_bad_parameter_keeps_its_default_and_says_so() {
    let p = q(&[
        ("maxInflight", "-3"),
        ("timeoutMs", "1e30"),
        ("customers", "20000000"),
    ]);
    assert_eq!(p.base.scenario, Scenario::default());
    assert_eq!(
        p.base.problems,
        [
            "In-flight limit (maxInflight) must be a whole number from 1 to 10000 requests, \
             but '-3' is negative. Using the default, 10 requests.",
            "Client timeout (timeoutMs) must be a time from 1 to 600000 ms, but '1e30' is \
             not a number. Using the default, 1000 ms.",
            "Customers (customers) must be a whole number from 1 to 10000000 customers, but \
             '20000000' is too large. Using the default, 1000 customers."
        ]
    );
    let p = q(&[("errorRate", "<script>alert(1)</script>")]);
    assert!(
        p.base.problems[0].ends_with("is not one. Using the default, 1/20."),
        "{:?}",
        p.base.problems
    );
}

#[test]
fn rules_across_fields_fall_back_for_the_fields_involved() {
    let p = q(&[("latencyMs", "50"), ("jitterMs", "80"), ("workers", "9")]);
    let s = &p.base.scenario;
    assert_eq!(
        (
            s.provider.latency_us,
            s.provider.latency_jitter_us,
            s.client.pool_workers
        ),
        (15_000, 3_000, 9)
    );
    assert_eq!(
        p.base.problems,
        [
            "The latency jitter (jitterMs) is 80 ms, more than the latency (latencyMs) of 50 ms; \
          the jitter cannot exceed the latency. Using the defaults, latencyMs 15 ms and \
          jitterMs 3 ms."
        ]
    );
    let p = q(&[("customers", "10"), ("customer", "11")]);
    assert_eq!(p.own.story.customer, None);
    assert!(p.base.problems[0].contains("no customer 11: this run has customers 1 to 10"));
    assert_eq!(
        q(&[("customers", "10"), ("customer", "10")])
            .own
            .story
            .customer,
        Some(10)
    );
}

#[test]
fn embed_and_motion() {
    let p = q(&[("embed", "1"), ("motion", "off"), ("speed", "1x")]);
    assert!(p.base.embed);
    assert_eq!(p.base.playback_speed(false), Speed::Instant);
    let p = q(&[("motion", "on"), ("speed", "1x")]);
    assert_eq!(p.base.playback_speed(true), Speed::X1);
    let p = q(&[("speed", "1x")]);
    assert_eq!(
        (p.base.playback_speed(true), p.base.playback_speed(false)),
        (Speed::Instant, Speed::X1)
    );
    let p = q(&[("embed", "yes"), ("motion", "fast")]);
    assert_eq!((p.base.embed, p.base.motion), (false, Motion::Auto));
    assert_eq!(p.base.problems.len(), 2, "{:?}", p.base.problems);
}

#[test]
fn odd_keys_get_a_helpful_sentence() {
    let p = q(&[("maxinflight", "20"), ("", "7"), ("colour", "red")]);
    assert!(
        p.base.problems[0].contains("did you mean 'maxInflight'?"),
        "{:?}",
        p.base.problems
    );
    assert!(
        p.base.problems[1].contains("no parameter name"),
        "{:?}",
        p.base.problems
    );
    assert!(
        p.base.problems[2].contains("strategy, seed") && p.base.problems[2].contains("--help"),
        "lists the page's keys and says where the rest are: {:?}",
        p.base.problems
    );
    let emoji_key = "🦀".repeat(100);
    let p = q(&[(emoji_key.as_str(), "1")]);
    // The key is quoted cut short, however long it was.
    let quoted = p.base.problems[0].matches('🦀').count();
    assert!((1..=40).contains(&quoted), "{}", p.base.problems[0]);
}

#[test]
fn quoted_values_cannot_turn_the_sentence_around() {
    assert_eq!(shown("abc\u{202E}def\nx"), "abc\u{FFFD}def\u{FFFD}x");
    assert_eq!(shown("שלום 👋"), "שלום 👋");
}

#[test]
fn queries_are_decoded_like_url_search_params() {
    let pairs = pairs_of("?a=1&b=x+y%20z&&c&=v&d=%zz%4&e=%E2%9C%93&f=%FF&a=2&g=1=2");
    let expect: Vec<(String, String)> = [
        ("a", "1"),
        ("b", "x y z"),
        ("c", ""),
        ("", "v"),
        ("d", "%zz%4"),
        ("e", "✓"),
        ("f", "\u{FFFD}"),
        ("a", "2"),
        ("g", "1=2"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(pairs, expect);
    assert!(pairs_of("").is_empty() && pairs_of("?").is_empty());
}

#[test]
fn each_page_is_asked_for_by_its_own_key() {
    for page in Page::ALL {
        let pairs: Vec<(String, String)> = page
            .key()
            .map(|(k, v)| vec![(k.to_string(), v.to_string())])
            .unwrap_or_default();
        assert_eq!(parse(&pairs).page(), page, "{page:?}");
        assert!(page.entry_file().ends_with(".html"));
        assert!(page.module().starts_with("rate-limit-lab"));
    }
}

#[test]
fn a_page_that_reads_no_sweep_and_no_lab_ignores_their_keys_and_says_where_they_belong() {
    let pairs: Vec<(String, String)> = [
        ("section", "limits"),
        ("burstGapMs", "40"),
        ("param", "timeoutMs"),
        ("from", "200"),
        ("to", "3000"),
        ("seed", "4"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let every = parse(&pairs);
    assert!(every
        .own
        .lab
        .settings
        .changed()
        .any(|k| k.key == "burstGapMs"));
    assert!(every.own.sweep.param.is_some());
    let neither = super::keys::read::<()>(&pairs);
    assert_eq!(
        neither.base.seed(),
        4,
        "the keys it reads are read as before"
    );
    let said = neither.base.problems.join(" ");
    assert!(
        said.contains(
            "Ignored 'burstGapMs': it is a limits experiment's setting, read with section=limits."
        ),
        "{said}"
    );
    for key in ["param", "from", "to"] {
        assert!(
            said.contains(&format!(
                "Ignored '{key}': it is a parameter sweep's, which opens with view=sweep."
            )),
            "{said}"
        );
    }
    let sweep = super::keys::read::<Sweep>(&pairs);
    assert_eq!(sweep.own.param, every.own.sweep.param);
    let lab = super::keys::read::<Lab>(&pairs);
    assert_eq!(lab.own.settings, every.own.lab.settings);
    assert!(lab
        .base
        .problems
        .iter()
        .any(|p| p.starts_with("Ignored 'param'")));
}

#[test]
fn a_page_checks_the_keys_of_another_page_that_every_page_has_always_checked() {
    let read = |query: &str| super::keys::read::<()>(&pairs_of(query)).base.problems;
    // Good values are ignored without a word; a bad one is said as its page says it.
    assert_eq!(
        read("?seeds=50&customer=3&counters=requests&experiment=herd&tour=1&step=2&code=eA"),
        Vec::<String>::new()
    );
    let all = q(&[
        ("seeds", "0"),
        ("customer", "x"),
        ("counters", "typo"),
        ("experiment", "boom"),
        ("tour", "yes"),
        ("step", "9"),
    ])
    .base
    .problems;
    assert_eq!(
        read("?seeds=0&customer=x&counters=typo&experiment=boom&tour=yes&step=9"),
        all
    );
    assert_eq!(all.len(), 6, "{all:?}");
}

// The links between pages, each written in the folder of the keys it carries, read back
// by the site.

#[test]
fn links_between_pages_keep_every_number() {
    let mut s = Scenario::article(StrategyName::Pool, 5);
    set_param(&mut s, "maxInflight", "8").unwrap();
    set_param(&mut s, "jitter", "on").unwrap();
    for (section, view) in [
        (Section::Charges, View::Run),
        (Section::Charges, View::Compare),
        (Section::Charges, View::Sweep),
        (Section::Limits, View::Run),
        (Section::Headers, View::Run),
    ] {
        let back = page(&href(section, view, &s));
        assert!(back.base.problems.is_empty(), "{:?}", back.base.problems);
        assert_eq!((back.base.section, back.base.view), (section, view));
        assert_eq!(back.base.scenario.clone().provider, s.provider);
        assert_eq!(back.base.scenario.clone().client, s.client);
        assert_eq!(back.base.seed(), 5);
    }
    let mut lab = LabSettings::default();
    lab.read(KnobId::BurstGap, "400").unwrap();
    lab.read(KnobId::HerdJitter, "equal").unwrap();
    let back = page(&experiment_href(Some(ExperimentName::Burst), &s, &lab));
    assert_eq!(back.own.lab.experiment, Some(ExperimentName::Burst));
    assert_eq!(back.own.lab.settings, lab);
    assert_eq!(back.base.scenario.provider.max_inflight, 8);
    let embedded = page("?embed=1&strategy=pool&seed=5&maxInflight=8");
    let full = page(&full_lab_href(&embedded));
    assert!(!full.base.embed && full.base.scenario == embedded.base.scenario);
    let back = page(&sweep_href(None, 40, &s));
    assert!(
        back.base.naming == Naming::All
            && back.own.sweep.seeds == 40
            && back.as_sweep().sweep_autostart()
    );
    let back = page(&sweep_href(Some(StrategyName::Retry), 40, &s));
    assert_eq!(back.base.strategy(), Some(StrategyName::Retry));
    assert_ne!(back.base.naming, Naming::All);
    for q in [
        sweep_query(None, 7, &s),
        sweep_query(Some(StrategyName::Naive), 7, &s),
    ] {
        assert_eq!(
            page_as(&q.to_query()),
            q,
            "the query a page writes is the page it shows"
        );
    }
    for q in [
        experiment_query(Some(ExperimentName::Herd), &s, &lab),
        experiment_query(None, &s, &LabSettings::default()),
    ] {
        assert_eq!(
            page_as(&q.to_query()),
            q,
            "the query a page writes is the page it shows"
        );
    }
}

#[test]
fn every_link_a_page_writes_reads_back_as_that_page() {
    let mut rng = sim::rng::SimRng::from_seed(11);
    for i in 0..1_000 {
        let p = random_page(&mut rng);
        let s = p.base.scenario.clone();
        let strategy = p.base.strategy();
        let written = [
            href(Section::Charges, View::Run, &s),
            href(Section::Charges, View::Compare, &s),
            href(Section::Charges, View::Sweep, &s),
            href(Section::Limits, View::Run, &s),
            href(Section::Headers, View::Run, &s),
            experiment_href(p.own.lab.experiment, &s, &p.own.lab.settings),
            sweep_href(strategy, p.own.sweep.seeds, &s),
        ];
        for link in written {
            let back = page(&link);
            // Through the file whose head starts that page's module.
            let file = back.page().entry_file();
            assert!(link.starts_with(&format!("{file}?")), "case {i}: {link}");
            assert!(
                back.base.problems.is_empty(),
                "case {i}: {link}: {:?}",
                back.base.problems
            );
            assert_eq!(
                back.base.scenario.clone().provider,
                s.provider,
                "case {i}: {link}"
            );
            assert_eq!(
                back.base.scenario.clone().client,
                s.client,
                "case {i}: {link}"
            );
            assert_eq!(
                back.base.scenario.customers, s.customers,
                "case {i}: {link}"
            );
            assert_eq!(back.base.seed(), s.seed, "case {i}: {link}");
            assert_eq!(page(&back.to_query()), back, "case {i}: {link}");
        }
        let q = sweep_query(strategy, p.own.sweep.seeds, &s);
        assert_eq!(page_as(&q.to_query()), q, "case {i}");
        let sp = random_param_sweep(&mut rng);
        let q = param_sweep_query(sp, strategy, p.own.sweep.seeds, &s);
        assert_eq!(page_as(&q.to_query()), q, "case {i}");
        let q = compare_query(&s);
        assert_eq!(page_as(&q.to_query()), q, "case {i}");
        assert_eq!(q.href(), href(Section::Charges, View::Compare, &s));
        let run = page(&run_href(StrategyName::Retry, &s));
        assert_eq!(run.base.strategy(), Some(StrategyName::Retry), "case {i}");
        assert_eq!(run.base.scenario.clone().provider, s.provider, "case {i}");
        assert_eq!(run.base.scenario.clone().client, s.client, "case {i}");
        assert_eq!(run.base.seed(), s.seed, "case {i}");
        let run = page(&point_href(sp.param, sp.to, StrategyName::Pool, &s));
        assert!(
            run.base.problems.is_empty(),
            "case {i}: {:?}",
            run.base.problems
        );
        let mut at = s.clone();
        let to = sim::param::ParamValue::Whole(sp.to);
        if sp.param.set(&mut at, to).is_ok() {
            assert_eq!(run.base.scenario.seed, 1);
            assert_eq!(run.base.strategy(), Some(StrategyName::Pool));
            assert_eq!(sp.param.get(&run.base.scenario), to, "case {i}");
        }
    }
}
