//! The `ratelab` command line: output shapes, and clear refusals of bad arguments.

mod support;

use rate_limit_lab::sim::{run, Scenario, StatField, StrategyName};
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
fn all_prints_six_columns_and_json_prints_six_objects() {
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
    assert_eq!(v.len(), 6);
    assert_eq!(v[5]["strategy"], "pool");
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
        (&[], "USAGE"),
        (&["fly"], "unknown command 'fly'"),
        (&["charges"], "which strategy?"),
        (
            &["charges", "--strategy", "yolo"],
            "There is no strategy called 'yolo'; use one of naive, paced",
        ),
        (&["charges", "--strategy"], "--strategy needs a value"),
        (
            &["charges", "--strategy", "keyed", "--seed", "-3"],
            "--seed expects a whole number",
        ),
        (
            &["charges", "--strategy", "keyed", "--seed", "1e30"],
            "--seed expects a whole number",
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
            "--customers expects",
        ),
        (
            &["charges", "--strategy", "keyed", "--customers", "20000000"],
            "but '20000000' is too large",
        ),
        (
            &["charges", "--strategy", "keyed", "--colour", "red"],
            "unknown flag --colour",
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
            "given twice",
        ),
        (&["charges", "--all", "--strategy", "keyed"], "not both"),
        (&["charges", "keyed"], "unexpected argument 'keyed'"),
        (&["charges", "--json=yes", "--all"], "--json takes no value"),
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
    assert_eq!(out.matches("strategy: ").count(), 6);
    let (code, _, err) = ratelab(&["charges", "--all", "--seeds", "1..=20000"]);
    assert_eq!(code, 2);
    assert!(err.contains("at most 10000"), "{err}");
    let (code, _, err) = ratelab(&["charges", "--all", "--seeds", "1..=3", "--seed", "4"]);
    assert_eq!(code, 2);
    assert!(err.contains("not both"), "{err}");
}
