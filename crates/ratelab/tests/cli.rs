//! The `ratelab` command line: output shapes, and clear refusals of bad arguments.

mod support;

use page::PARAMS;
use sim::{run, Scenario, StatField, StrategyName};
use support::{assert_each_refused, ratelab};

#[test]
fn json_has_every_field_and_matches_the_core() {
    let (code, out, _) = ratelab(&["charges", "--strategy", "keyed", "--seed", "7", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["strategy"], "keyed");
    assert_eq!(v["seed"], 7);
    assert_eq!(v["customers"], 1000);
    let core = run(&Scenario::article(StrategyName::Keyed, 7)).unwrap();
    for field in StatField::ALL {
        assert_eq!(v[field.as_str()].as_u64(), Some(core.get(field)), "{field}");
    }
}

#[test]
fn the_panel_has_the_articles_shape() {
    let (code, out, _) = ratelab(&["charges", "--strategy=keyed", "--seed=1"]);
    assert_eq!(code, 0);
    assert!(out.contains("provider stats: {\n  requests: "), "{out}");
    let core = run(&Scenario::article(StrategyName::Keyed, 1)).unwrap();
    assert!(
        out.trim_end()
            .ends_with(&format!("}} elapsed: {} ms", core.elapsed_ms)),
        "{out}"
    );
}

#[test]
fn all_prints_a_column_and_json_an_object_per_strategy() {
    let (code, out, _) = ratelab(&["charges", "--all", "--seed", "3"]);
    assert_eq!(code, 0);
    let header = out.lines().nth(1).unwrap();
    for s in StrategyName::ALL {
        assert!(header.contains(s.as_str()), "{header}");
    }
    let dup_row = out.lines().find(|l| l.starts_with("duplicates")).unwrap();
    let cells: Vec<u64> = dup_row
        .split_whitespace()
        .skip(1)
        .map(|c| c.parse().unwrap())
        .collect();
    let expected: Vec<u64> = StrategyName::ALL
        .iter()
        .map(|s| run(&Scenario::article(*s, 3)).unwrap().duplicates)
        .collect();
    assert_eq!(cells, expected);
    let (_, json, _) = ratelab(&["charges", "--all", "--seed", "3", "--json"]);
    let v: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    assert_eq!(v.len(), StrategyName::ALL.len());
    assert_eq!(v[5]["strategy"], "pool");
    assert_eq!(v[9]["strategy"], "adaptive");
}

#[test]
fn customers_scales_the_run() {
    let (code, out, _) = ratelab(&[
        "charges",
        "--strategy",
        "keyed",
        "--customers",
        "5000",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["customers"], 5000);
    assert_eq!(v["customersCharged"], 5000 - 5000 / 97);
}

#[test]
fn bad_arguments_get_a_message_and_a_nonzero_exit() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "Usage: ratelab charges"),
        (&["fly"], "unrecognized subcommand 'fly'"),
        (&["charges"], "which strategy?"),
        (
            &["charges", "--strategy", "yolo"],
            "There is no strategy called 'yolo'; use one of naive, paced",
        ),
        (
            &["charges", "--strategy"],
            "a value is required for '--strategy <name>'",
        ),
        (
            &["charges", "--strategy", "keyed", "--seed", "-3"],
            "The seed '-3' is not a whole number from 0 to 18446744073709551615",
        ),
        (
            &["charges", "--strategy", "keyed", "--seed", "1e30"],
            "The seed '1e30' is not a whole number",
        ),
        (
            &["charges", "--strategy", "keyed", "--customers", "0"],
            "Customers (customers) must be a whole number from 1 to 10000000 customers, but '0' is too small",
        ),
        (
            &[
                "charges",
                "--strategy",
                "keyed",
                "--customers",
                "99999999999",
            ],
            "but '99999999999' is too large",
        ),
        (
            &["charges", "--strategy", "keyed", "--customers", "20000000"],
            "but '20000000' is too large",
        ),
        (
            &["charges", "--strategy", "keyed", "--colour", "red"],
            "unexpected argument '--colour'",
        ),
        (
            &[
                "charges",
                "--strategy",
                "keyed",
                "--seed",
                "1",
                "--seed",
                "2",
            ],
            "'--seed <N>' cannot be used multiple times",
        ),
        (
            &["charges", "--all", "--strategy", "keyed"],
            "'--all' cannot be used with '--strategy <name>'",
        ),
        (&["charges", "keyed"], "unexpected argument 'keyed'"),
        (
            &["charges", "--json=yes", "--all"],
            "unexpected value 'yes' for '--json'",
        ),
    ];
    assert_each_refused(cases);
}

#[test]
fn seeds_prints_the_distribution_of_a_sweep() {
    let (code, out, _) = ratelab(&[
        "charges",
        "--strategy",
        "timeout-no-key",
        "--seeds",
        "1..=25",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut dups: Vec<u64> = (1..=25)
        .map(|seed| {
            run(&Scenario::article(StrategyName::TimeoutNoKey, seed))
                .unwrap()
                .duplicates
        })
        .collect();
    dups.sort_unstable();
    let d = &v["fields"]["duplicates"];
    assert_eq!(d["median"].as_u64(), Some(dups[12]));
    assert_eq!(d["min"].as_u64(), Some(dups[0]));
    assert_eq!(d["max"].as_u64(), Some(dups[24]));
    let counted: u64 = d["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["count"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 25);
    let (code, out, _) = ratelab(&["charges", "--all", "--seeds", "1..=3"]);
    assert_eq!(code, 0);
    assert_eq!(out.matches("strategy: ").count(), StrategyName::ALL.len());
    let (code, _, err) = ratelab(&["charges", "--all", "--seeds", "1..=20000"]);
    assert_eq!(code, 2);
    assert!(err.contains("at most 10000"), "{err}");
    let (code, _, err) = ratelab(&["charges", "--all", "--seeds", "1..=3", "--seed", "4"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn help_lists_the_commands_and_every_parameter_from_the_table() {
    for args in [&["help"][..], &["--help"], &["-h"]] {
        let (code, out, err) = ratelab(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        for command in ["charges", "limits", "bench"] {
            assert!(
                out.contains(&format!("ratelab {command} ")),
                "{args:?}: {out}"
            );
        }
        for p in PARAMS {
            let line = out
                .lines()
                .find(|l| l.split_whitespace().next() == Some(p.key))
                .unwrap_or_else(|| panic!("{args:?}: no line for {}: {out}", p.key));
            assert!(line.contains(&p.range_text()), "{line}");
        }
    }
    let (code, out, _) = ratelab(&["charges", "--help"]);
    assert_eq!(code, 0);
    for p in PARAMS {
        assert!(out.contains(&format!("--{} <", p.key)), "{}: {out}", p.key);
        assert!(out.contains(&p.range_text()), "{}: {out}", p.key);
    }
    let (code, out, _) = ratelab(&["help", "limits"]);
    assert_eq!(code, 0);
    assert!(out.contains("ratelab limits headers"), "{out}");
}

#[test]
fn every_flag_takes_its_value_after_a_space_or_an_equals_sign() {
    let spaced = support::json(&[
        "charges",
        "--strategy",
        "retry",
        "--seed",
        "4",
        "--customers",
        "80",
        "--attempts",
        "2",
        "--json",
    ]);
    let joined = support::json(&[
        "charges",
        "--strategy=retry",
        "--seed=4",
        "--customers=80",
        "--attempts=2",
        "--json",
    ]);
    assert_eq!(spaced, joined);
    assert_eq!(spaced["customers"], 80);
}
