//! The client view's fields and links: what the seed, customers and incident typed make
//! of the link's scenario, the link that names a run (with its code), and the query the
//! sandbox's module reads the scenario from.

use super::code::{encode_code, too_long, MAX_CODE_BYTES};
use super::query::{ClientQuery, Code};
use super::runs::check_customers;
use crate::query::read::Query;
use crate::shared::params::apply_params;
use crate::{parse_seed, Base, Section, Speed, View};
use sim::{Scenario, StrategyName};

/// The scenario `base` with the seed, customers and incident typed, or why each cannot
/// be used.
pub fn read_fields(
    base: &Scenario,
    seed: &str,
    customers: &str,
    incident: &str,
) -> Result<Scenario, Vec<String>> {
    let mut problems = Vec::new();
    let seed = parse_seed(seed).map_err(|why| problems.push(why)).ok();
    let scenario = apply_params(base, &[("customers", customers), ("incident", incident)])
        .map_err(|why| problems.extend(why))
        .ok();
    if let Some(s) = &scenario {
        if let Err(why) = check_customers(s.customers) {
            problems.push(why);
        }
    }
    match (seed, scenario) {
        (Some(seed), Some(s)) if problems.is_empty() => Ok(Scenario { seed, ..s }),
        _ => Err(problems),
    }
}

/// Why `code` is not run, if it is not.
pub fn check_code(code: &str) -> Result<(), String> {
    if code.len() > MAX_CODE_BYTES {
        return Err(too_long(code.len()));
    }
    if code.trim().is_empty() {
        return Err("There is no code to run: write a client, or pick one to start from.".into());
    }
    Ok(())
}

/// The link to the client view with `code` run on `scenario`, started from `start`.
pub fn link_query(scenario: &Scenario, start: StrategyName, code: &str) -> ClientQuery {
    Query {
        base: Base {
            section: Section::Charges,
            view: View::Client,
            ..Base::for_run(
                &Scenario {
                    strategy: start,
                    ..scenario.clone()
                },
                Speed::default(),
            )
        },
        own: Code(Some(encode_code(code))),
    }
}

/// The query the sandbox's module reads `scenario` from.
pub fn sandbox_query(scenario: &Scenario) -> String {
    Query::<()>::for_run(scenario, Speed::default()).to_query()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{pairs_of, parse};

    #[test]
    fn the_fields_make_the_scenario_or_say_why_not() {
        let base = Scenario::article(StrategyName::Keyed, 1);
        let s = read_fields(&base, "42", "300", "down").unwrap();
        assert_eq!((s.seed, s.customers), (42, 300));
        assert_eq!(crate::spec(sim::Param::Incident).read(&s), "down");
        let bad = read_fields(&base, "x", "0", "fire").unwrap_err();
        assert_eq!(bad.len(), 3, "{bad:?}");
        let big = read_fields(&base, "1", "50001", "none").unwrap_err();
        assert!(big[0].contains("at most 50,000 customers"), "{big:?}");
        assert!(check_code(" \n").is_err());
        assert!(check_code(&"x".repeat(MAX_CODE_BYTES + 1)).is_err());
    }

    #[test]
    fn the_link_carries_the_code_and_reads_back() {
        let s = read_fields(
            &Scenario::article(StrategyName::Keyed, 1),
            "9",
            "50",
            "slow",
        )
        .unwrap();
        let code = "export async function charge(id) { return id; } // é";
        let q = link_query(&s, StrategyName::Pool, code);
        let href = q.href();
        assert!(
            href.starts_with("client.html?section=charges&view=client&strategy=pool&seed=9"),
            "{href}"
        );
        let back = parse(&pairs_of(&href[href.find('?').unwrap()..]));
        assert!(back.base.problems.is_empty(), "{:?}", back.base.problems);
        assert_eq!(back.page(), crate::Page::Client);
        assert_eq!(
            super::super::code::decode_code(back.own.code.0.as_deref().unwrap()).as_deref(),
            Ok(code)
        );
        assert_eq!(back.base.scenario.clone().customers, 50);
        // The sandbox's query names the same scenario, and no page of its own.
        let sq = parse(&pairs_of(&sandbox_query(&s)));
        assert!(sq.base.problems.is_empty());
        assert_eq!(sq.base.scenario.clone(), Scenario { record: true, ..s });
    }
}
