//! `ratelab charges --until-ms T`: the stats of the record cut at T, as the live run
//! showed them then.

mod support;

use sim::{Scenario, Simulation, StatField, StrategyName};
use support::{assert_each_refused, json, ratelab};

#[test]
fn until_ms_prints_the_stats_the_run_showed_at_that_instant() {
    for (strategy, seed, ms) in [
        (StrategyName::TimeoutNoKey, 1, 2_000),
        (StrategyName::Keyed, 3, 5_000),
        (StrategyName::Naive, 1, 7),
    ] {
        let v = json(&[
            "charges",
            "--strategy",
            strategy.as_str(),
            "--seed",
            &seed.to_string(),
            "--until-ms",
            &ms.to_string(),
            "--json",
        ]);
        let mut live = Simulation::new(&Scenario::article(strategy, seed)).unwrap();
        live.run_until(ms * 1_000);
        let s = live.stats();
        for field in StatField::ALL {
            assert_eq!(
                v[field.as_str()].as_u64(),
                Some(s.get(field)),
                "{strategy} {field}"
            );
        }
    }
}

#[test]
fn past_the_end_it_is_the_whole_run_and_the_panel_says_when() {
    let whole = json(&["charges", "--strategy", "pool", "--json"]);
    let late = json(&[
        "charges",
        "--strategy",
        "pool",
        "--until-ms",
        "99999999",
        "--json",
    ]);
    assert_eq!(whole, late);
    let (code, out, _) = ratelab(&["charges", "--strategy", "pool", "--until-ms", "10"]);
    assert_eq!(code, 0);
    assert!(out.contains("at: 10 ms"), "{out}");
}

#[test]
fn until_ms_is_for_one_run() {
    assert_each_refused(&[
        (&["charges", "--all", "--until-ms", "5"], "cannot be used"),
        (
            &["charges", "--strategy", "naive", "--until-ms", "soon"],
            "whole number",
        ),
        (
            &[
                "charges",
                "--strategy",
                "naive",
                "--seeds",
                "1..=3",
                "--until-ms",
                "5",
            ],
            "cannot be used",
        ),
    ]);
}
