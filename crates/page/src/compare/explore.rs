//! The compare page's words: its seed field, the compare table and its derived row, the
//! form read whole, and the note beside the title naming every number that differs from
//! the article's.

use crate::input::numbers::parse_seed;
use crate::shared::budget::Workload;
use crate::shared::format::number_word;
use crate::shared::live::{Fill, Live};
use crate::shared::markup::Whole;
use crate::shared::params::{apply_params, parse_param_in, PARAMS};
use crate::shared::slot::Slot;
use crate::shared::stats::StatText;
use crate::shared::words::Words;
use crate::slot;
use maud::{html, Markup};
use sim::{Scenario, StatField, Stats, StrategyName};

/// The compare table's derived row (requests over charges).
pub const PER_CHARGE: StatText = StatText {
    label: "Requests per charge",
    hint: "requests sent for each charge made",
};

/// Under the compare page's seed field: what one seed means for every strategy on it.
pub fn compare_seed_help() -> String {
    format!(
        "The same seed gives the same dice to all {}.",
        number_word(StrategyName::ALL.len())
    )
}

/// The compare page's seed field.
pub const COMPARE_SEED: Slot = slot!("compare-seed");
/// The compare page's seed help line: what one seed means, or why the seed typed cannot
/// be used.
pub const COMPARE_SEED_HELP: Slot = slot!("compare-seed-help");

/// The compare page's seed field, a live widget holding the seed the page opened with
/// (the reader types over it): its `aria-invalid` and its help line follow whether the
/// seed typed can be used (the state: why not, if it cannot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompareSeed {
    /// The seed the field starts with.
    pub seed: u64,
}

impl Live for CompareSeed {
    type State = Option<String>;

    fn shape(&self, _: &Option<String>) -> u64 {
        0
    }

    fn draw(&self, error: &Option<String>, fill: &mut Fill) -> Markup {
        let invalid = error.is_some();
        let said = error.clone().unwrap_or_else(compare_seed_help);
        html! {
            div.rll-controls.rll-compare-controls {
                div.rll-field {
                    label.rll-field-label for="rll-compare-seed" { "Seed" }
                    input #rll-compare-seed type="text" inputmode="numeric" autocomplete="off" data-testid="compare-seed"
                        aria-describedby="rll-compare-seed-help"
                        aria-invalid=(fill.attr(COMPARE_SEED, "aria-invalid", if invalid { "true" } else { "false" }))
                        value=(Whole(self.seed)) data-slot=(COMPARE_SEED);
                    span #rll-compare-seed-help .rll-field-help .rll-error[fill.class(COMPARE_SEED_HELP, "rll-error", invalid)]
                        data-slot=(COMPARE_SEED_HELP) { (fill.text(COMPARE_SEED_HELP, said)) }
                }
            }
        }
    }
}

/// The compare page's notice of why its strategies cannot run, a live widget: hidden
/// while they can (the state: the sentence, if they cannot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompareProblem;

impl Live for CompareProblem {
    type State = Option<String>;

    fn shape(&self, _: &Option<String>) -> u64 {
        0
    }

    fn draw(&self, said: &Option<String>, fill: &mut Fill) -> Markup {
        html! {
            p.rll-notice role="alert" data-testid="compare-problem" data-slot=(COMPARE_PROBLEM)
                hidden[fill.flag(COMPARE_PROBLEM, "hidden", said.is_none())] {
                (fill.text(COMPARE_PROBLEM, said.clone().unwrap_or_default()))
            }
        }
    }
}

/// The compare page's numbers ([`compare_markup`]) as a live widget: none until the
/// strategies have run; each comparison's table is a markup hole, drawn whole, since
/// every number in it may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompareResult;

/// Where the compare page's numbers go.
pub const COMPARE_RESULT: Slot = slot!("compare-result");

impl Live for CompareResult {
    /// The seed and numbers the runs used, and each strategy's stats.
    type State = Option<(Scenario, Vec<(StrategyName, Stats)>)>;

    fn shape(&self, s: &Self::State) -> u64 {
        u64::from(s.is_some())
    }

    fn draw(&self, s: &Self::State, fill: &mut Fill) -> Markup {
        html! {
            @if let Some((scenario, runs)) = s {
                div.rll-compare-result data-slot=(COMPARE_RESULT) {
                    (fill.markup(COMPARE_RESULT, compare_markup(scenario, runs)))
                }
            }
        }
    }
}

/// The compare page's heading.
pub const COMPARE_TITLE: &str = "All ten, side by side";

/// What the compare page says above its controls.
pub const COMPARE_CAPTION: &str = "Ten strategies, one seed, the same provider and the same dice. Highlighted rows are the ones the article is about; a warning sign marks harm. Each column's heading opens that run.";

/// The heading over the compare page's small timelines.
pub const MULTIPLES_TITLE: &str = "Every request, on one time axis";

/// The compare page's line saying why its strategies cannot run, when they cannot.
pub const COMPARE_PROBLEM: Slot = slot!("compare-problem");

/// The compare page's small timelines, hidden until there is a comparison to show.
pub const MULTIPLES: Slot = slot!("multiples");

/// A small timeline's name for a screen reader, from its strategy's label.
pub fn timeline_label(strategy_label: &str) -> String {
    format!("Timeline of the {strategy_label} strategy")
}

/// What the compare page's "Change the numbers" says an edit does.
pub fn compare_params_caption() -> String {
    format!(
        "All {} run again as you type. Every value has a range; anything outside it is refused, never quietly adjusted.",
        number_word(StrategyName::ALL.len())
    )
}

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
        .map(|(p, t)| parse_param_in(Workload::Compare, p.key, t).err())
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
                Err(too_large) => problems.push(too_large.sentence()),
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

/// Rows of the compare table whose differences are the point of the comparison (`None`:
/// requests per charge, which is derived).
const KEY_ROWS: [Option<StatField>; 4] = [
    Some(StatField::Duplicates),
    Some(StatField::RateLimited),
    None,
    Some(StatField::ElapsedMs),
];

/// A compare row's words.
fn row_words(field: Option<StatField>) -> StatText {
    field.map_or(PER_CHARGE, crate::shared::stats::stat_text)
}

/// A compare row's name in `data-result` keys: the JSON name of `ratelab charges --all
/// --json`.
fn row_key(field: Option<StatField>) -> &'static str {
    field.map_or("requestsPerCharge", StatField::as_str)
}

/// A compare cell's text, and whether it shows harm.
fn row_cell(field: Option<StatField>, stats: &Stats) -> (String, bool) {
    match field {
        None => (crate::shared::format::requests_per_charge(stats), false),
        Some(f) => (stats.get(f).to_string(), stats.harmed(f)),
    }
}

/// The compare page's numbers as markup: every stat for each strategy in a table whose
/// column headings link to each run (rows that matter most highlighted, harm marked),
/// and the same numbers as one card per strategy for narrow screens.
pub fn compare_markup(scenario: &Scenario, runs: &[(StrategyName, Stats)]) -> Markup {
    use crate::shared::titles::strategy_label;
    let rows: Vec<Option<StatField>> = StatField::ALL.map(Some).into_iter().chain([None]).collect();
    let link = |s: StrategyName| {
        let l = strategy_label(s);
        html! {
            a href=(crate::query::links::run_href(s, scenario)) data-run-link=(s.as_str())
                title={ "Play " (l) " with these numbers" } { (l) }
        }
    };
    let warn = |harm: bool| if harm { " ⚠" } else { "" };
    html! {
        div.rll-table-scroll.rll-compare-wide {
            table.rll-compare-table {
                thead { tr {
                    th scope="col" { "stat" }
                    @for (s, _) in runs { th scope="col" { (link(*s)) } }
                } }
                tbody {
                    @for &field in &rows {
                        @let w = row_words(field);
                        tr class=(if KEY_ROWS.contains(&field) { "rll-key-row" } else { "" }) data-row=(row_key(field)) {
                            th.rll-term scope="row" tabindex="0" data-hint=(w.hint) { (w.label) }
                            @for (s, st) in runs {
                                @let (value, harm) = row_cell(field, st);
                                td.rll-num.rll-harm-cell[harm] {
                                    span data-result={ "compare." (s.as_str()) "." (row_key(field)) } { (value) }
                                    (warn(harm))
                                }
                            }
                        }
                    }
                }
            }
        }
        div.rll-compare-cards data-testid="compare-cards" {
            @for (s, st) in runs {
                section.rll-compare-card data-strategy=(s.as_str()) {
                    h3 { (link(*s)) }
                    dl {
                        @for &field in &rows {
                            @let (value, harm) = row_cell(field, st);
                            @let w = row_words(field);
                            div.rll-card-line.rll-key-row[KEY_ROWS.contains(&field)].rll-harm-cell[harm] {
                                dt { (w.label) span.rll-card-hint { (w.hint) } }
                                dd.rll-num data-card={ "compare." (s.as_str()) "." (row_key(field)) } { (value) (warn(harm)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::set_param;

    #[test]
    fn the_compare_page_counts_the_strategies_it_runs() {
        let n = number_word(StrategyName::ALL.len());
        assert!(
            compare_seed_help().ends_with(&format!("all {n}.")),
            "{}",
            compare_seed_help()
        );
        assert!(
            compare_params_caption().starts_with(&format!("All {n} run again")),
            "{}",
            compare_params_caption()
        );
    }

    #[test]
    fn the_note_names_each_number_that_differs() {
        let mut s = Scenario::default();
        assert!(differences(&s).is_empty());
        assert_eq!(differences_note(&s), "The article's numbers.");
        set_param(&mut s, "timeoutMs", "2500").unwrap();
        set_param(&mut s, "errorRate", "1/5").unwrap();
        let article = Scenario::default();
        let timeout = crate::param("timeoutMs").unwrap();
        let errors = crate::param("errorRate").unwrap();
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
        texts[customers] = (crate::shared::budget::COMPARE_MAX_CUSTOMERS + 1).to_string();
        let read = read_form("1", &texts);
        // Refused beside its own field, with the page's limit.
        let why = read.field_errors[customers].as_deref().unwrap_or_default();
        assert!(
            why.contains("at most 20,000 customers (20,001 asked)"),
            "{why}"
        );
        assert_eq!(read.field_errors.iter().flatten().count(), 1);
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
    fn the_compare_markup_has_a_cell_and_a_card_line_per_stat_and_strategy() {
        let sc = Scenario::article(StrategyName::Naive, 3);
        let runs: Vec<(StrategyName, Stats)> = [StrategyName::TimeoutNoKey, StrategyName::Keyed]
            .map(|s| (s, sim::run(&Scenario::article(s, 3)).unwrap()))
            .to_vec();
        let m = compare_markup(&sc, &runs).into_string();
        let rows = StatField::ALL.len() + 1;
        assert_eq!(m.matches("<span data-result=\"compare.").count(), rows * 2);
        assert_eq!(m.matches("data-card=\"compare.").count(), rows * 2);
        let dup = runs[0].1.duplicates;
        assert!(dup > 0, "timeout-no-key double-charges on seed 3");
        assert!(m.contains(&format!("<td class=\"rll-num rll-harm-cell\"><span data-result=\"compare.timeout-no-key.duplicates\">{dup}</span> ⚠</td>")), "{m}");
        assert!(
            m.contains("<tr class=\"rll-key-row\" data-row=\"duplicates\">"),
            "{m}"
        );
        assert!(m.contains("<tr class=\"\" data-row=\"requests\">"), "{m}");
        assert!(
            m.contains(&format!(
                "data-run-link=\"keyed\" title=\"Play {k} with these numbers\">{k}</a>",
                k = crate::shared::titles::strategy_label(StrategyName::Keyed)
            )),
            "{m}"
        );
        assert!(
            m.contains(&format!(
                "data-card=\"compare.keyed.requestsPerCharge\">{}</dd>",
                crate::shared::format::requests_per_charge(&runs[1].1)
            )),
            "{m}"
        );
    }

    #[test]
    fn the_compare_seed_field_holds_its_seed_and_help() {
        let m = CompareSeed { seed: 11 }.markup(&None).into_string();
        assert!(m.contains("value=\"11\""), "{m}");
        assert!(m.contains("data-testid=\"compare-seed\""));
        assert!(m.contains(&format!(
            "data-slot=\"{}\">{}</span>",
            COMPARE_SEED_HELP.name(),
            compare_seed_help()
        )));
        assert_eq!(
            m.matches(&format!("data-slot=\"{}\"", COMPARE_SEED.name()))
                .count(),
            1
        );
        assert_eq!(m.matches("<div").count(), m.matches("</div>").count());
    }

    #[test]
    fn the_compare_widgets_draw_what_they_fill_and_a_refused_seed_changes_its_field_only() {
        use crate::shared::live::{check_drawn, Write};
        let sentence = "The seed 'x' is not a whole number from 0 to 18446744073709551615.";
        let why = Some(sentence.to_string());
        for s in [None, why.clone()] {
            check_drawn(&CompareSeed { seed: 11 }, &s).unwrap();
            check_drawn(&CompareProblem, &s).unwrap();
        }
        let sc = Scenario::article(StrategyName::Naive, 3);
        let runs = vec![(
            StrategyName::Keyed,
            sim::run(&Scenario::article(StrategyName::Keyed, 3)).unwrap(),
        )];
        for s in [None, Some((sc, runs))] {
            check_drawn(&CompareResult, &s).unwrap();
        }
        let (mut a, mut b) = (Fill::default(), Fill::default());
        CompareSeed { seed: 11 }.draw(&None, &mut a);
        CompareSeed { seed: 11 }.draw(&why, &mut b);
        let changed: Vec<&Write> = b.changed_since(&a).map(|(_, w)| w).collect();
        assert_eq!(
            changed,
            [
                &Write::Attr("aria-invalid", "true"),
                &Write::Class("rll-error", true),
                &Write::Text(sentence.to_string())
            ]
        );
        let m = CompareProblem.markup(&None).into_string();
        assert!(m.contains(" hidden></p>"), "{m}");
    }
}
