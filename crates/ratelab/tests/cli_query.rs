//! `ratelab charges --query`: the page's URL query on the command line, so the page and
//! the CLI can be compared for any parameters; the parameter flags; and the exports.

mod support;

use page::run::export::{requests_csv, run_json};
use page::{pairs_of, parse};
use sim::{run, Scenario, Simulation, StatField, StrategyName};
use support::{assert_each_refused, json, ratelab};

const CUSTOM: &str = "?strategy=timeout-no-key&seed=9&customers=400&maxInflight=4&rateLimit=60\
                      &errorRate=1%2F10&slowRate=5%25&latencyMs=22.5&jitterMs=7&timeoutMs=300\
                      &attempts=3&backoffMs=50&jitter=on&workers=3&speed=instant&motion=off";

#[test]
fn a_query_runs_exactly_the_scenario_the_page_reads_from_it() {
    let page = parse(&pairs_of(CUSTOM));
    assert!(page.base.problems.is_empty(), "{:?}", page.base.problems);
    let core = run(&page.base.scenario).unwrap();
    let v = json(&["charges", "--query", CUSTOM, "--json"]);
    assert_eq!(v["strategy"], "timeout-no-key");
    assert_eq!(
        (v["seed"].as_u64(), v["customers"].as_u64()),
        (Some(9), Some(400))
    );
    for field in StatField::ALL {
        assert_eq!(v[field.as_str()].as_u64(), Some(core.get(field)), "{field}");
    }
    // The same run from the individual flags.
    let flags = json(&[
        "charges",
        "--strategy=timeout-no-key",
        "--seed=9",
        "--customers=400",
        "--maxInflight=4",
        "--rateLimit=60",
        "--errorRate=1/10",
        "--slowRate=5%",
        "--jitterMs=7",
        "--latencyMs=22.5",
        "--timeoutMs=300",
        "--attempts=3",
        "--backoffMs=50",
        "--jitter=on",
        "--workers=3",
        "--json",
    ]);
    assert_eq!(flags, v);
    let (code, text, _) = ratelab(&["charges", "--query", CUSTOM]);
    assert_eq!(code, 0);
    assert!(
        text.contains("parameters: maxInflight=4 rateLimit=60 errorRate=1/10"),
        "{text}"
    );
}

#[test]
fn a_query_can_ask_for_a_comparison_a_sweep_or_a_story() {
    let v = json(&[
        "charges",
        "--query",
        "?view=compare&seed=4&workers=2",
        "--json",
    ]);
    assert_eq!(v.as_array().unwrap().len(), 10, "all ten strategies");
    let v = json(&[
        "charges",
        "--query",
        "?view=sweep&strategy=pool&seeds=3&customers=50",
        "--json",
    ]);
    assert_eq!(
        (v["first_seed"].as_u64(), v["last_seed"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(v["customers"], 50);
    let v = json(&[
        "charges",
        "--query",
        "?strategy=timeout-no-key&seed=2&customer=17&timeoutMs=200",
        "--json",
    ]);
    assert_eq!(v["customer"], 17);
}

#[test]
fn an_embed_query_runs_like_the_run_page_whatever_its_section() {
    let query = "?embed=1&section=limits&view=compare&strategy=pool&seed=5&customers=60";
    let page = parse(&pairs_of(query));
    let core = run(&page.base.scenario).unwrap();
    let v = json(&["charges", "--query", query, "--json"]);
    assert_eq!(
        (v["strategy"].as_str(), v["seed"].as_u64()),
        (Some("pool"), Some(5))
    );
    assert_eq!(v["requests"].as_u64(), Some(core.requests));
    // `strategy=all` names no strategy for the run page, which plays its fallback.
    let v = json(&["charges", "--query", "?strategy=all&customers=30", "--json"]);
    assert_eq!(v["strategy"], "keyed");
}

#[test]
fn exports_match_the_library() {
    let page = parse(&pairs_of(CUSTOM));
    let mut sim = Simulation::new(&page.base.scenario).unwrap();
    sim.run_to_end();
    let (code, out, err) = ratelab(&["charges", "--query", CUSTOM, "--export", "json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, run_json(&sim));
    let (code, out, _) = ratelab(&["charges", "--query", CUSTOM, "--export=csv"]);
    assert_eq!(code, 0);
    assert_eq!(out, requests_csv(sim.record().unwrap()));
    let (code, out, _) = ratelab(&[
        "charges",
        "--strategy",
        "pool",
        "--customers",
        "20",
        "--export",
        "csv",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with(
        "request,customer,attempt,key,sentAtUs,admission,slow,doneAtUs,status,charged,client,clientAtUs\r\n0,1,1,ck-1,"
    ));
    let mut twenty = Scenario::article(StrategyName::Pool, 1);
    twenty.customers = 20;
    let requests = run(&twenty).unwrap().requests;
    assert_eq!(
        out.matches("\r\n").count() as u64,
        1 + requests,
        "a header, then the requests"
    );
}

#[test]
fn bad_queries_and_flags_are_refused_with_a_sentence() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["charges", "--query", "?maxInflight=-3"],
            "In-flight limit (maxInflight) must be a whole number from 1 to 10000 requests, but '-3' is negative",
        ),
        (&["charges", "--query", "?colour=red"], "unknown parameter 'colour'"),
        (&["charges", "--query", "?jitterMs=40"], "cannot exceed the latency"),
        (&["charges", "--query", "?seed=1&seed=2"], "more than once"),
        (
            &["charges", "--query", "?section=limits"],
            "opens the limits page, not the charges; for it run: ratelab limits all --seed 1",
        ),
        (
            &["charges", "--query", "section=limits&experiment=herd&seed=4"],
            "run: ratelab limits herd --seed 4",
        ),
        (
            &["charges", "--query", "section=headers", "--json"],
            "opens the headers page, not the charges; for it run: ratelab limits headers",
        ),
        (
            &["charges", "--query", "?seed=3", "--strategy", "pool"],
            "give --strategy inside the query",
        ),
        (
            &["charges", "--query", "?seed=3", "--workers", "3"],
            "give --workers inside the query",
        ),
        (&["charges", "--query"], "a value is required for '--query"),
        (
            &["charges", "--strategy", "keyed", "--workers", "0"],
            "Pool workers (workers) must be a whole number from 1 to 1000 workers, but '0' is too small",
        ),
        (
            &["charges", "--strategy", "keyed", "--jitterMs", "99"],
            "cannot exceed the latency",
        ),
        (
            &["charges", "--strategy", "keyed", "--errorRate", "2/1"],
            "'2/1' is not one",
        ),
        (
            &["charges", "--strategy", "keyed", "--export", "xml"],
            "invalid value 'xml' for '--export <json|csv>'",
        ),
        (
            &["charges", "--strategy", "keyed", "--export", "json", "--json"],
            "cannot be used with",
        ),
        (&["charges", "--all", "--export", "json"], "--export writes one run"),
        (
            &["charges", "--strategy", "keyed", "--customer", "x\u{202E}y"],
            "one of double-charge, charged-after-timeout, conflict, replay, declined, lost-charge, key-reused, got 'x\u{FFFD}y'",
        ),
        (
            &["charges", "--all", "--customer", "3"],
            "--customer needs one strategy",
        ),
        (
            &["charges", "--query", "?view=compare", "--export", "csv"],
            "--export writes one run",
        ),
        // The provider's choices and the key's scope: refused with a sentence, never
        // clamped or guessed.
        (
            &["charges", "--strategy", "keyed", "--keyCheck", "gate"],
            "Key looked up (keyCheck) must be one of worker or door, but 'gate' is not one.",
        ),
        (
            &["charges", "--strategy", "keyed", "--keyWorkMs", "60001"],
            "Key work (keyWorkMs) must be a time from 0 to 60000 ms, but '60001' is too large.",
        ),
        (
            &["charges", "--strategy", "keyed", "--keyTtlS", "31536001"],
            "Key kept (keyTtlS) must be a whole number from 0 to 31536000 s, but '31536001' is too large.",
        ),
        (
            &["charges", "--strategy", "keyed", "--downAnswer", "slow"],
            "must be one of queued or fast, but 'slow' is not one.",
        ),
        (
            &["charges", "--strategy", "keyed", "--downRetryAfter", "soon"],
            "must be one of exact, fixed or growing, but 'soon' is not one.",
        ),
        (
            &["charges", "--strategy", "keyed", "--keyScope", "order"],
            "must be one of charge or customer, but 'order' is not one.",
        ),
        (
            &["charges", "--query", "strategy=keyed&charge=last-month"],
            "Which charge (charge) must be one of first or next-month, but 'last-month' is not one.",
        ),
    ];
    assert_each_refused(cases);
}
