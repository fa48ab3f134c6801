//! The compare and sweep pages' words: the compare table's derived row, the note beside
//! the title naming every number that differs from the article's, and the state the
//! sweep page reports.

use super::params::{apply_params, parse_param, PARAMS};
use super::parse_seed;
use super::stats::StatText;
use super::sweep_progress::SweepState;
use crate::sim::budget::Workload;
use crate::sim::Scenario;

/// The compare table's derived row (requests over charges).
pub const PER_CHARGE: StatText = StatText {
    label: "Requests per charge",
    hint: "requests sent for each charge made",
};

/// Each number of `s` that is not the article's, as "Client timeout 2500 ms (article:
/// 1000 ms)", in panel order.
pub fn differences(s: &Scenario) -> Vec<String> {
    PARAMS
        .iter()
        .filter(|p| !p.is_default(s))
        .map(|p| {
            let value = match p.unit {
                "" => p.read(s),
                unit => format!("{} {unit}", p.read(s)),
            };
            format!("{} {value} (article: {})", p.label, p.default_with_unit())
        })
        .collect()
}

/// The note beside the compare page's title: the article's numbers, or which differ.
pub fn differences_note(s: &Scenario) -> String {
    match differences(s).as_slice() {
        [] => "The article's numbers.".to_string(),
        all => format!("Not the article's numbers: {}.", all.join("; ")),
    }
}

/// The compare page's form, read whole on every keystroke so the order of edits never
/// matters (lowering the latency below the jitter, then the jitter).
#[derive(Clone, Debug, PartialEq)]
pub struct FormRead {
    /// Why the seed cannot be used, if it cannot.
    pub seed_error: Option<String>,
    /// Each field's refusal, in [`PARAMS`] order.
    pub field_errors: Vec<Option<String>>,
    /// What the fields cannot be together (e.g. a jitter above the latency), or a batch
    /// larger than the page runs.
    pub problems: Vec<String>,
    /// The run to compare, when everything can be used.
    pub scenario: Option<Scenario>,
}

/// Reads the seed and every parameter's text (in [`PARAMS`] order) into the scenario the
/// compare page runs, or says, field by field, why it cannot.
pub fn read_form(seed: &str, texts: &[String]) -> FormRead {
    let seed = parse_seed(seed);
    let field_errors: Vec<Option<String>> = PARAMS
        .iter()
        .zip(texts)
        .map(|(p, t)| parse_param(p.key, t).err())
        .collect();
    let mut problems = Vec::new();
    let mut scenario = None;
    if field_errors.iter().all(Option::is_none) {
        let pairs: Vec<(&str, &str)> = PARAMS
            .iter()
            .zip(texts)
            .map(|(p, t)| (p.key, t.as_str()))
            .collect();
        match apply_params(&Scenario::default(), &pairs) {
            Ok(s) => match Workload::Compare.check(&s) {
                Ok(()) => scenario = Some(s),
                Err(too_large) => problems.push(too_large.to_string()),
            },
            Err(msgs) => problems = msgs,
        }
    }
    FormRead {
        scenario: match &seed {
            Ok(seed) => scenario.map(|s| Scenario { seed: *seed, ..s }),
            Err(_) => None,
        },
        seed_error: seed.err(),
        field_errors,
        problems,
    }
}

/// The sweep page's `data-run-state` from its two sweeps (seeds, and a parameter):
/// `running` while either runs, then `done` once either has finished, else `idle`.
pub fn sweep_page_state(sweeps: [SweepState; 2]) -> &'static str {
    if sweeps.contains(&SweepState::Running) {
        "running"
    } else if sweeps.contains(&SweepState::Done) {
        "done"
    } else {
        "idle"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::set_param;

    #[test]
    fn the_note_names_each_number_that_differs() {
        let mut s = Scenario::default();
        assert!(differences(&s).is_empty());
        assert_eq!(differences_note(&s), "The article's numbers.");
        set_param(&mut s, "timeoutMs", "2500").unwrap();
        set_param(&mut s, "errorRate", "1/5").unwrap();
        let article = Scenario::default();
        let timeout = crate::page::param("timeoutMs").unwrap();
        let errors = crate::page::param("errorRate").unwrap();
        assert_eq!(
            differences(&s),
            vec![
                format!("Server errors 1/5 (article: {})", errors.read(&article)),
                format!(
                    "Client timeout 2500 ms (article: {} ms)",
                    timeout.read(&article)
                ),
            ]
        );
        assert!(differences_note(&s).starts_with("Not the article's numbers: Server errors 1/5"));
        s.seed = 99;
        assert_eq!(
            differences(&s).len(),
            2,
            "the seed is not one of the numbers"
        );
    }

    fn texts_of(s: &Scenario) -> Vec<String> {
        PARAMS.iter().map(|p| p.read(s)).collect()
    }

    #[test]
    fn the_form_reads_whole_and_says_why_field_by_field() {
        let read = read_form("7", &texts_of(&Scenario::default()));
        assert_eq!(read.seed_error, None);
        assert!(read.field_errors.iter().all(Option::is_none));
        assert_eq!(read.scenario.as_ref().map(|s| s.seed), Some(7));
        assert_eq!(
            read.scenario.map(|s| (s.provider, s.client, s.customers)),
            Some({
                let d = Scenario::default();
                (d.provider, d.client, d.customers)
            })
        );

        let mut texts = texts_of(&Scenario::default());
        let timeout = PARAMS.iter().position(|p| p.key == "timeoutMs").unwrap();
        texts[timeout] = "-5".into();
        let read = read_form("x", &texts);
        assert!(read.seed_error.unwrap().contains("'x'"));
        assert!(read.field_errors[timeout].is_some());
        assert_eq!(read.field_errors.iter().flatten().count(), 1);
        assert_eq!(read.scenario, None);

        let mut texts = texts_of(&Scenario::default());
        let customers = PARAMS.iter().position(|p| p.key == "customers").unwrap();
        texts[customers] = (crate::sim::budget::COMPARE_MAX_CUSTOMERS + 1).to_string();
        let read = read_form("1", &texts);
        assert!(read.field_errors.iter().all(Option::is_none));
        assert_eq!(read.problems.len(), 1, "{:?}", read.problems);
        assert_eq!(read.scenario, None);

        // Raising the jitter above the latency is refused together, not field by field.
        let mut texts = texts_of(&Scenario::default());
        let jitter = PARAMS.iter().position(|p| p.key == "jitterMs").unwrap();
        let latency = PARAMS.iter().position(|p| p.key == "latencyMs").unwrap();
        texts[jitter] = "500".into();
        texts[latency] = "100".into();
        let read = read_form("1", &texts);
        assert!(read.field_errors.iter().all(Option::is_none));
        assert!(!read.problems.is_empty());
        assert_eq!(read.scenario, None);
    }

    #[test]
    fn the_sweep_page_is_done_once_a_sweep_has_finished() {
        use SweepState::*;
        assert_eq!(sweep_page_state([Idle, Idle]), "idle");
        assert_eq!(sweep_page_state([Running, Idle]), "running");
        assert_eq!(sweep_page_state([Done, Running]), "running");
        assert_eq!(sweep_page_state([Done, Idle]), "done");
        assert_eq!(sweep_page_state([Cancelled, Done]), "done");
        assert_eq!(sweep_page_state([Cancelled, Idle]), "idle");
    }
}
