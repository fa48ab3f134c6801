//! "Change the numbers" as the page layer writes it: a field for every entry of
//! [`PARAMS`], grouped as the core groups them, with its label, unit, help and range. The
//! form is a live widget ([`ParamsForm`]): drawn once, and then only what an edit changes
//! is written (a field's value, its message, the changed marks, the summary's count, the
//! problems); the UI reads edits by the fields' `data-param`.

use crate::shared::budget::Workload;
use crate::shared::live::{Fill, Live};
use crate::shared::markup::items_markup;
use crate::shared::params::{ParamGroup, ParamSpec, PARAMS};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
use sim::Scenario;

/// The reset button's `data-testid`.
pub const RESET_TESTID: &str = "params-reset";

/// A field: its label, input, unit and help line, its parameter's key in [`FIELD_KEY`].
pub const FIELD: Slot = slot!("param-field");
/// The attribute of a field that holds its parameter's URL key.
pub const FIELD_KEY: &str = "data-param-field";
/// A field's text input, its parameter's key in [`INPUT_KEY`].
pub const INPUT: Slot = slot!("param-input");
/// The attribute of a field's input that holds its parameter's URL key.
pub const INPUT_KEY: &str = "data-param";
/// A field's help line: its range, or why its text cannot be used.
pub const HELP: Slot = slot!("param-help");
/// The summary's count of numbers changed.
pub const CHANGED: Slot = slot!("params-changed");
/// Why the numbers cannot be used together, hidden while they can.
pub const PROBLEMS: Slot = slot!("params-problems");
/// The button that puts the article's values back.
pub const RESET: Slot = slot!("params-reset");

/// What one field shows: the text typed, why it cannot be used (if it cannot), and
/// whether its number differs from the article's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldState {
    /// The text in the field.
    pub text: String,
    /// Why the text cannot be used, if it cannot.
    pub error: Option<String>,
    /// The number in use differs from the article's.
    pub changed: bool,
}

/// What the form shows: one [`FieldState`] per entry of [`PARAMS`], how many numbers
/// differ from the article's, and why the texts cannot be used together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FormState {
    /// One per entry of [`PARAMS`], in its order (missing ones are drawn blank).
    pub fields: Vec<FieldState>,
    /// How many numbers differ from the article's ([`changed_count`]).
    pub changed: usize,
    /// Why the texts cannot be used together.
    pub problems: Vec<String>,
}

/// The form ([`Live`]), unfolded when `open` (drawn once: the reader folds and unfolds
/// it), with `caption` saying what an edit does, each field stating the range a page
/// running `workload` takes. The problems are a list whose length changes, so they are
/// a markup hole ([`Fill::markup`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsForm {
    /// Whether the form opens unfolded.
    pub open: bool,
    /// What the caption says an edit does.
    pub caption: String,
    /// What the page runs.
    pub workload: Workload,
}

impl Live for ParamsForm {
    type State = FormState;

    fn shape(&self, _: &FormState) -> u64 {
        0
    }

    fn draw(&self, s: &FormState, fill: &mut Fill) -> Markup {
        // The fields are drawn first (the summary's count is recorded after them; each
        // slot's holes keep their own order, so that is no matter).
        let blank = FieldState::default();
        let mut group = |g: ParamGroup, title: &str| {
            html! {
                fieldset.rll-params-group {
                    legend { (title) }
                    div.rll-params-grid {
                        @for (i, p) in PARAMS.iter().enumerate().filter(|(_, p)| p.group() == g) {
                            (field_markup(p, s.fields.get(i).unwrap_or(&blank), self.workload, fill))
                        }
                    }
                }
            }
        };
        let groups = [
            group(ParamGroup::Provider, "The provider"),
            group(ParamGroup::Client, "The client"),
            group(ParamGroup::Traffic, "The traffic"),
        ];
        html! {
            details.rll-details.rll-params data-testid="params" open[self.open] {
                summary { "Change the numbers" span data-slot=(CHANGED) data-params-changed { (fill.text(CHANGED, changed_text(s.changed))) } }
                p.rll-caption { (self.caption) }
                @for g in groups { (g) }
                (outage_markup())
                (next_month_markup())
                ul.rll-field-help.rll-error role="alert" data-slot=(PROBLEMS) data-params-problems
                    hidden[fill.flag(PROBLEMS, "hidden", s.problems.is_empty())] {
                    (fill.markup(PROBLEMS, items_markup(&s.problems)))
                }
                button type="button" data-slot=(RESET) data-testid=(RESET_TESTID) { "Reset to the article's values" }
            }
        }
    }
}

/// The form as it opens before any text is written, unfolded when `open`, with `caption`
/// saying what an edit does, each field stating the range a page running `workload`
/// takes.
pub fn form_markup(open: bool, caption: &str, workload: Workload) -> Markup {
    let form = ParamsForm {
        open,
        caption: caption.to_string(),
        workload,
    };
    form.markup(&FormState::default())
}

/// The test id of the links to the outage under steady traffic.
pub const OUTAGE_TESTID: &str = "outage-links";

/// Links to the outage under steady traffic ([`sim::outage`]): the ten side by side, and
/// one client that stays down and one that recovers, each watched.
fn outage_markup() -> Markup {
    use crate::query::links::{compare_query, run_href};
    use crate::shared::titles::strategy_label;
    use sim::StrategyName::{Budget, Keyed};
    let scenario = sim::outage::scenario(Keyed, 1);
    html! {
        p.rll-caption data-testid=(OUTAGE_TESTID) {
            "A 3 s outage under steady traffic, on a provider that queues: "
            a href=(compare_query(&scenario).href()) { "all ten side by side" }
            ", "
            a href=(run_href(Keyed, &scenario)) { (strategy_label(Keyed)) " staying down" }
            ", "
            a href=(run_href(Budget, &scenario)) { (strategy_label(Budget)) " recovering" }
            "."
        }
    }
}

/// The test id of the links to next month's charge under a reused key.
pub const NEXT_MONTH_TESTID: &str = "next-month-links";

/// The links to next month's charge ([`sim::next_month`]), with `keyed` naming its keys
/// after the customer: this month's run, next month's with the first lost charge's
/// story open, and next month's with a key per charge.
fn next_month_markup() -> Markup {
    use crate::query::links::run_href;
    use crate::run::query::scene_href;
    use sim::next_month::ChargeRound;
    use sim::story::Scene;
    use sim::strategy::charge::KeyScope;
    use sim::StrategyName::Keyed;
    let mut this_month = Scenario::article(Keyed, 1);
    this_month.client.key_scope = KeyScope::Customer;
    let next_month = Scenario {
        round: ChargeRound::NextMonth,
        ..this_month.clone()
    };
    let per_charge = Scenario {
        client: sim::strategy::ClientParams {
            key_scope: KeyScope::Charge,
            ..next_month.client.clone()
        },
        ..next_month.clone()
    };
    html! {
        p.rll-caption data-testid=(NEXT_MONTH_TESTID) {
            "The customer's id as the key, charged again next month: "
            a href=(run_href(Keyed, &this_month)) { "this month" }
            ", "
            a href=(scene_href(Keyed, &next_month, Scene::LostCharge)) { "next month, a charge lost" }
            ", "
            a href=(run_href(Keyed, &per_charge)) { "next month with a key per charge" }
            "."
        }
    }
}

/// One field: its label, the text input (`data-param`) with `f`'s text, its unit, and
/// its help line (`data-param-help`), each live part recorded in `fill`.
fn field_markup(p: &ParamSpec, f: &FieldState, workload: Workload, fill: &mut Fill) -> Markup {
    let id = |tail: &str| html! { "rll-param-" (p.key) (tail) };
    let invalid = if f.error.is_some() { "true" } else { "false" };
    html! {
        div.rll-param.rll-param-changed[fill.class(FIELD, "rll-param-changed", f.changed)] data-slot=(FIELD) data-param-field=(p.key) {
            label for=(id("")) { (p.label) }
            div.rll-param-input {
                input id=(id("")) type="text" data-slot=(INPUT) data-param=(p.key) autocomplete="off" spellcheck="false"
                    title=(p.help()) aria-describedby=(id("-help")) aria-invalid=(fill.attr(INPUT, "aria-invalid", invalid))
                    value=(fill.value(INPUT, f.text.clone()));
                span.rll-unit { (p.unit) }
            }
            span id=(id("-help")) .rll-field-help.rll-error[fill.class(HELP, "rll-error", f.error.is_some())] data-slot=(HELP) data-param-help=(p.key) {
                (fill.text(HELP, field_help(p, f.error.as_deref(), workload)))
            }
        }
    }
}

/// What a field's help line says: why its text cannot be used, or the range a page
/// running `workload` takes and the default.
pub fn field_help(p: &ParamSpec, error: Option<&str>, workload: Workload) -> String {
    match error {
        Some(e) => e.to_string(),
        None => format!(
            "{} · default {}",
            p.range_text_in(workload),
            p.default_text()
        ),
    }
}

/// The summary's tail: how many numbers differ from the article's.
pub fn changed_text(changed: usize) -> String {
    match changed {
        0 => " (the article's values)".to_string(),
        n => format!(" ({n} changed)"),
    }
}

/// How many of `scenario`'s numbers differ from the article's.
pub fn changed_count(scenario: &Scenario) -> usize {
    PARAMS.iter().filter(|p| !p.is_default(scenario)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_has_one_field_with_its_help() {
        let m = form_markup(false, "Edits <apply> later", Workload::Run).into_string();
        for p in &PARAMS {
            assert_eq!(
                m.matches(&format!("data-param=\"{}\"", p.key)).count(),
                1,
                "{}",
                p.key
            );
            assert!(
                m.contains(&format!("data-param-help=\"{}\"", p.key)),
                "{}",
                p.key
            );
            assert!(
                m.contains(&html! { (field_help(p, None, Workload::Run)) }.into_string()),
                "{}",
                p.key
            );
        }
        assert!(m.contains("Edits &lt;apply&gt; later"));
        for slot in [FIELD, INPUT, HELP] {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(m.matches(&attr).count(), PARAMS.len(), "{slot:?}");
        }
        for slot in [CHANGED, PROBLEMS, RESET] {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(m.matches(&attr).count(), 1, "{slot:?}");
        }
        assert!(!m.contains(" open>"));
        assert!(form_markup(true, "", Workload::Compare)
            .into_string()
            .contains("data-testid=\"params\" open>"));
    }

    #[test]
    fn an_edit_writes_only_its_field_and_the_count() {
        use crate::shared::live::{check_drawn, Write};
        let form = ParamsForm {
            open: false,
            caption: "c".into(),
            workload: Workload::Run,
        };
        let d = Scenario::default();
        let mut s = FormState {
            fields: PARAMS
                .iter()
                .map(|p| FieldState {
                    text: p.read(&d),
                    error: None,
                    changed: false,
                })
                .collect(),
            changed: 0,
            problems: vec![],
        };
        check_drawn(&form, &s).unwrap();
        let mut before = Fill::default();
        form.draw(&s, &mut before);
        s.fields[0].text = "12<".into();
        s.fields[0].error = Some("Not a number.".into());
        s.fields[0].changed = true;
        s.changed = 1;
        s.problems = vec!["Both <at once>.".into()];
        check_drawn(&form, &s).unwrap();
        let mut after = Fill::default();
        let m = form.draw(&s, &mut after).into_string();
        assert!(m.contains("<li>Both &lt;at once&gt;.</li>"), "{m}");
        assert!(m.contains(r#"value="12&lt;""#), "{m}");
        let changed: Vec<_> = after
            .changed_since(&before)
            .map(|a| (a.0.slot, a.1.clone()))
            .collect();
        assert_eq!(
            changed,
            [
                (FIELD, Write::Class("rll-param-changed", true)),
                (INPUT, Write::Attr("aria-invalid", "true")),
                (INPUT, Write::Value("12<".into())),
                (HELP, Write::Class("rll-error", true)),
                (HELP, Write::Text("Not a number.".into())),
                (CHANGED, Write::Text(changed_text(1))),
                (PROBLEMS, Write::Flag("hidden", false)),
                (
                    PROBLEMS,
                    Write::Markup(items_markup(&s.problems).into_string())
                ),
            ]
        );
    }

    #[test]
    fn the_summary_counts_what_differs() {
        let mut s = Scenario::default();
        assert_eq!(changed_count(&s), 0);
        assert_eq!(changed_text(0), " (the article's values)");
        s.customers += 1;
        assert_eq!(changed_count(&s), 1);
        assert_eq!(changed_text(2), " (2 changed)");
    }

    #[test]
    fn a_field_says_why_it_is_refused_or_what_it_takes() {
        let p = &PARAMS[0];
        assert_eq!(field_help(p, Some("no"), Workload::Run), "no");
        assert!(
            field_help(p, None, Workload::Run).ends_with(&format!("default {}", p.default_text()))
        );
    }

    #[test]
    fn the_customers_field_states_the_range_the_page_runs() {
        let p = crate::shared::params::param("customers").unwrap();
        assert_eq!(p.range_text(), "1–10000000 customers", "the command line's");
        assert!(field_help(p, None, Workload::Run).starts_with("1–1000000 customers ·"));
        assert!(field_help(p, None, Workload::Compare).starts_with("1–20000 customers ·"));
        let latency = crate::shared::params::param("latencyMs").unwrap();
        assert_eq!(
            field_help(latency, None, Workload::Run),
            field_help(latency, None, Workload::Compare)
        );
    }
}

#[cfg(test)]
mod next_month_tests {
    use super::*;
    use sim::next_month::ChargeRound;
    use sim::story::Scene;
    use sim::strategy::charge::KeyScope;

    /// The three links, read back by the URL reader: the same client, this month and
    /// next, and the lost charge's story opened.
    #[test]
    fn the_next_month_links_open_this_month_next_month_and_a_key_per_charge() {
        let m = next_month_markup().into_string();
        let hrefs: Vec<String> = m
            .split("href=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().replace("&amp;", "&"))
            .collect();
        let read = |href: &str| {
            let query = href.split_once('?').map_or("", |(_, q)| q);
            crate::parse(&crate::pairs_of(query))
        };
        let [this, lost, per_charge] = [&hrefs[0], &hrefs[1], &hrefs[2]].map(|h| read(h));
        assert_eq!(
            (
                this.base.scenario.round,
                this.base.scenario.client.key_scope
            ),
            (ChargeRound::First, KeyScope::Customer)
        );
        assert_eq!(
            (
                lost.base.scenario.round,
                lost.base.scenario.client.key_scope,
                lost.own.story.scene
            ),
            (
                ChargeRound::NextMonth,
                KeyScope::Customer,
                Some(Scene::LostCharge)
            )
        );
        assert_eq!(
            (
                per_charge.base.scenario.round,
                per_charge.base.scenario.client.key_scope
            ),
            (ChargeRound::NextMonth, KeyScope::Charge)
        );
        for q in [&this, &lost, &per_charge] {
            assert!(q.base.problems.is_empty(), "{:?}", q.base.problems);
        }
        // What the lost charge's link opens loses charges; the key per charge does not.
        let lost_run = sim::Simulation::new(&lost.base.scenario)
            .unwrap()
            .run_to_end();
        assert!(lost_run.lost_to_reused_key > 0 && lost_run.key_reused > 0);
        let kept = sim::Simulation::new(&per_charge.base.scenario)
            .unwrap()
            .run_to_end();
        assert_eq!((kept.lost_to_reused_key, kept.key_reused), (0, 0));
    }
}
