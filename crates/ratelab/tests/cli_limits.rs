//! `ratelab limits`: the lab's experiments on the command line, checked against the core
//! and the page layer's cells.

mod support;

use page::limits::lab::{cells, JsonResult};
use sim::lab::{self, ExperimentName};
use support::{assert_each_refused, json, ratelab};

#[test]
fn json_carries_the_cores_result_and_cells_for_every_experiment() {
    for name in ExperimentName::ALL {
        let v = json(&["limits", name.as_str(), "--seed", "4", "--json"]);
        assert_eq!(v["experiment"], name.as_str());
        assert_eq!(v["seed"], 4);
        let core = lab::run(name, 4);
        let printed = v["cells"].as_object().unwrap();
        let page = cells(&core);
        assert_eq!(printed.len(), page.len(), "{name}");
        for (key, value) in page {
            assert_eq!(printed[&key].as_str(), Some(value.as_str()), "{key}");
        }
        // Every field of the core's result is at the top level, as the page layer shows
        // it (the core's numbers, and for units each reading also in words).
        let expected = serde_json::to_value(JsonResult(&core)).unwrap();
        for (field, value) in expected.as_object().unwrap() {
            assert_eq!(&v[field], value, "{name}.{field}");
        }
    }
}

#[test]
fn the_defaults_give_the_articles_results() {
    let v = json(&["limits", "burst", "--json"]);
    assert_eq!(v["seed"], 1);
    assert_eq!(v["cells"]["burst.fixedAccepted"], "20");
    assert_eq!(v["cells"]["burst.slidingAccepted"], "10");
    assert_eq!(v["cells"]["burst.bucketAccepted"], "11");
    let v = json(&["limits", "units", "--json"]);
    assert_eq!(
        v["cells"]["units.retryAfterDateNaive"],
        "no wait at all (NaN)"
    );
    assert_eq!(v["cells"]["units.xRateLimitResetNaive"], "56.7 years");
    let v = json(&["limits", "neighbour", "--json"]);
    assert_eq!(v["cells"]["neighbour.globalBakeryOk"], "0");
    assert_eq!(v["cells"]["neighbour.perKeyBakeryOk"], "3");
    let v = json(&["limits", "clients", "--json"]);
    assert_eq!(v["cells"]["clients.obedientSent"], "43");
    assert_eq!(v["cells"]["clients.obedientRateLimited"], "3");
}

#[test]
fn the_seed_moves_the_seeded_experiments_and_only_those() {
    let cells =
        |name: &str, seed: &str| json(&["limits", name, "--seed", seed, "--json"])["cells"].clone();
    assert_ne!(cells("clients", "1"), cells("clients", "2"));
    assert_ne!(cells("herd", "1"), cells("herd", "2"));
    assert_eq!(cells("memory", "1"), cells("memory", "2"));
    assert_eq!(cells("units", "1"), cells("units", "2"));
    assert_eq!(cells("clients", "5"), cells("clients", "5"));
}

#[test]
fn tables_print_the_cores_numbers() {
    let (code, out, _) = ratelab(&["limits", "burst", "--seed=2"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("seed: 2\n"), "{out}");
    let core = cells(&lab::run(ExperimentName::Burst, 2));
    for limiter in ["fixed", "sliding", "bucket"] {
        let row: Vec<&str> = out
            .lines()
            .find(|l| l.starts_with(limiter))
            .unwrap()
            .split_whitespace()
            .collect();
        let accepted = &core
            .iter()
            .find(|(k, _)| *k == format!("burst.{limiter}Accepted"))
            .unwrap()
            .1;
        assert_eq!(row[3], accepted, "{out}");
    }
    let (code, out, _) = ratelab(&["limits", "clients"]);
    assert_eq!(code, 0);
    let obedient = out.lines().find(|l| l.starts_with("obedient")).unwrap();
    assert_eq!(obedient.split_whitespace().nth(1), Some("43"), "{out}");
}

#[test]
fn all_runs_every_experiment_in_order() {
    let v = json(&["limits", "all", "--seed", "3", "--json"]);
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["experiment"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "burst",
            "units",
            "clients",
            "neighbour",
            "memory",
            "herd",
            "fleet"
        ]
    );
    let (code, out, _) = ratelab(&["limits", "all"]);
    assert_eq!(code, 0);
    for name in ExperimentName::ALL {
        assert!(out.contains(&format!("\n{name}: ")), "{name} missing");
    }
}

#[test]
fn bad_arguments_get_a_message_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["limits"],
            "required arguments were not provided:\n  <experiment|all|headers>",
        ),
        (&["limits", "--json"], "<experiment|all|headers>"),
        (
            &["limits", "bursts"],
            "There is no experiment called 'bursts'; use one of burst, units",
        ),
        (&["limits", "burst", "units"], "unexpected argument 'units'"),
        (
            &["limits", "burst", "--seed", "-1"],
            "The seed '-1' is not a whole number",
        ),
        (
            &["limits", "burst", "--seed", "1e30"],
            "The seed '1e30' is not a whole number",
        ),
        (
            &["limits", "burst", "--seed"],
            "a value is required for '--seed <N>'",
        ),
        (
            &["limits", "burst", "--seed", "1", "--seed", "2"],
            "cannot be used multiple times",
        ),
        (
            &["limits", "burst", "--json=yes"],
            "unexpected value 'yes' for '--json'",
        ),
        (
            &["limits", "burst", "--strategy", "keyed"],
            "unexpected argument '--strategy'",
        ),
    ];
    assert_each_refused(cases);
    let (code, out, _) = ratelab(&["help"]);
    assert_eq!(code, 0);
    assert!(out.contains("ratelab limits <experiment|all>"), "{out}");
}

#[test]
fn settings_flags_move_the_experiments_as_the_page_does() {
    use page::limits::settings::{self, knobs_of, LabSettings};
    // Each experiment with every one of its knobs at the far end of its slider.
    for name in ExperimentName::ALL {
        let mut lab = LabSettings::default();
        let mut argv: Vec<String> = vec!["limits".into(), name.as_str().into()];
        for k in knobs_of(name) {
            lab = lab.with_position(k.id, k.slider().1);
            argv.extend([format!("--{}", k.key), lab.text(k.id)]);
        }
        argv.extend(["--seed".into(), "5".into(), "--json".into()]);
        let args: Vec<&str> = argv.iter().map(String::as_str).collect();
        let v = json(&args);
        let core = settings::run(name, 5, &lab).unwrap();
        assert_ne!(
            core,
            lab::run(name, 5),
            "{name}: the flags changed something"
        );
        let printed = v["cells"].as_object().unwrap();
        let page = cells(&core);
        assert_eq!(printed.len(), page.len(), "{name}");
        for (key, value) in page {
            assert_eq!(printed[&key].as_str(), Some(value.as_str()), "{key}");
        }
    }
    let v = json(&[
        "limits",
        "clients",
        "--blindRetry",
        "1ms",
        "--clientsLimit",
        "20",
        "--json",
    ]);
    assert_eq!(v["cells"]["clients.blindPauseMs"], "1");
    assert_eq!(v["cells"]["clients.limit"], "20");
    let v = json(&["limits", "herd", "--herdJitter", "equal", "--json"]);
    assert_eq!(v["cells"]["herd.jitter"], "equal");
}

#[test]
fn bad_settings_get_the_pages_sentence_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["limits", "burst", "--burstGapMs", "5000"],
            "Gap to the second volley (burstGapMs): 5000 is outside 5–1500 ms.",
        ),
        (
            &["limits", "burst", "--burstOffsetMs", "-1"],
            "(burstOffsetMs): '-1' is not a whole number from 5 to 1000",
        ),
        (
            &["limits", "herd", "--herdJitter", "lots"],
            "Jitter (herdJitter): 'lots' is not one of none, full, equal, decorrelated.",
        ),
        (
            &["limits", "clients", "--blindRetry", "2ms"],
            "'2ms' is not one of now, 1ms.",
        ),
        (
            &["limits", "memory", "--memoryCallers", "0"],
            "0 is outside 1–10000000 callers",
        ),
        (
            &["limits", "clients", "--herdClients", "5"],
            "--herdClients is a setting of the herd experiment, not of clients",
        ),
    ];
    assert_each_refused(cases);
    // `all` takes every experiment's settings.
    let v = json(&[
        "limits",
        "all",
        "--herdClients",
        "5",
        "--burstGapMs",
        "50",
        "--json",
    ]);
    assert_eq!(v[5]["cells"]["herd.clients"], "5");
}

#[test]
fn every_limiter_has_its_row_with_the_cores_numbers() {
    use sim::limiter::LimiterKind;
    for seed in ["1", "6"] {
        let (code, out, _) = ratelab(&["limits", "burst", "--seed", seed]);
        assert_eq!(code, 0);
        let r = burst(seed.parse().unwrap());
        for lane in &r.lanes {
            let row: Vec<String> = out
                .lines()
                .find(|l| l.split_whitespace().next() == Some(lane.limiter.as_str()))
                .unwrap_or_else(|| panic!("{} in {out}", lane.limiter))
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let expected = [lane.before, lane.after, lane.accepted].map(|n| n.to_string());
            assert_eq!(row[1..], expected, "{}", lane.limiter);
        }
        assert_eq!(r.lanes.len(), LimiterKind::ALL.len());
    }
    let (code, out, _) = ratelab(&["limits", "memory"]);
    assert_eq!(code, 0);
    for kind in LimiterKind::ALL {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(kind.as_str())),
            "{kind} in {out}"
        );
    }
}

/// The core's burst result for `seed`.
fn burst(seed: u64) -> sim::lab::burst::BurstResult {
    match lab::run(ExperimentName::Burst, seed) {
        lab::LabResult::Burst(r) => r,
        _ => unreachable!("the burst experiment gives a burst result"),
    }
}
