//! The client view's markup: the contract a reader's code meets, the controls, and what
//! a run shows beside the run page's own panels (the report card with each harm linked
//! to its customer's story, the console, and what went wrong). Every node the UI binds
//! is a [`Slot`] named here once.

use super::outcome::log_clock;
use crate::shared::format::count;
use crate::shared::live::{Fill, Live};
use crate::shared::params::spec;
use crate::shared::progress::{fill_style, BAR, BAR_FILL, CLIENT_DONE_WITH};
use crate::shared::report::{verdict, CardView, BESIDE_LINE, FIGURES, REPORT_TITLE};
use crate::shared::slot::Slot;
use crate::shared::stats::PANEL_TITLE;
use crate::slot;
use maud::{html, Markup, PreEscaped};
use sim::param::Param;
use sim::{Scenario, StrategyName};

/// The view's heading.
pub const CLIENT_TITLE: &str = "Your own client";

/// The select of the lab's clients to start from.
pub const START: Slot = slot!("client-start");
/// The seed field.
pub const SEED: Slot = slot!("client-seed");
/// The customers field.
pub const CUSTOMERS: Slot = slot!("client-customers");
/// The incident select.
pub const INCIDENT: Slot = slot!("client-incident");
/// Why the numbers typed cannot be used, hidden while they can.
pub const FIELDS_ERROR: Slot = slot!("client-fields-error");
/// The Run button.
pub const RUN: Slot = slot!("client-run");
/// The Cancel button, shown while a run goes.
pub const CANCEL: Slot = slot!("client-cancel");
/// What is said of code that came with the link, hidden otherwise.
pub const LINKED: Slot = slot!("client-linked");
/// Where the editor goes (a plain text area until the editor has loaded).
pub const EDITOR: Slot = slot!("client-editor");
/// The plain text area.
pub const CODE: Slot = slot!("client-code");
/// The run's progress, and what the sandbox says.
pub const STATUS: Slot = slot!("client-status");
/// The progress bar, shown while a run goes.
pub const PROGRESS: Slot = slot!("client-progress");
/// A link to a customer's story: its [`CUSTOMER_KEY`] names the customer.
pub const OPEN_CUSTOMER: Slot = slot!("open-customer");
/// The attribute of an [`OPEN_CUSTOMER`] link that holds the customer's number.
pub const CUSTOMER_KEY: &str = "data-customer";

/// The id of the text area, for its label.
const CODE_ID: &str = "rll-client-code";

/// The id of the line on the editor's keys, which the editor names as its description.
pub const KEYS_ID: &str = "rll-client-keys";

/// The editor's label.
pub const CODE_LABEL: &str = "Your client's code";

/// What the code may do and meet, above the editor.
pub fn contract_markup() -> Markup {
    html! {
        p {
            "Write a client, or start from one of the lab's ten. Press Run and it meets the same provider, seed and dice as the built-in strategies, on the simulated clock, and is judged on what it did to each customer."
        }
        details.rll-client-contract {
            summary { "What your code gets" }
            ul {
                li { "It exports " code { "async function charge(id, { baseUrl })" } ", which is called once for each customer, as they arrive. The customer is done when its promise settles." }
                li { code { "fetch(`${baseUrl}/charge`, …)" } " reaches the provider as " code { "ratelab serve" } " takes it: " code { "POST" } ", a JSON body " code { "{\"id\": 17}" } ", an optional " code { "Idempotency-Key" } " header, and an " code { "AbortSignal" } " to stop waiting." }
                li { code { "setTimeout" } ", " code { "setInterval" } ", " code { "Date.now()" } ", " code { "performance.now()" } " and " code { "AbortSignal.timeout" } " run on the simulated clock, to the microsecond. " code { "Math.random()" } " is drawn from the run's seed. " code { "console.log" } " is kept, with the simulated time." }
                li { "It runs in a sandbox: a worker in a frame of its own origin, with no network, no storage and no way to this page. Code that holds the thread for 3 s, or makes more than 100 requests per customer, is stopped with a sentence saying so." }
            }
        }
    }
}

/// What the controls show as a run goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ControlsState {
    /// The status line.
    pub status: String,
    /// Customers done of all, while the sandbox runs.
    pub progress: Option<(u64, u64)>,
    /// Whether a run is going (Run is off, Cancel is shown).
    pub busy: bool,
    /// Whether the note on code that came with the link shows.
    pub linked: bool,
    /// Why the fields cannot be used, if they cannot.
    pub fields_error: Option<String>,
}

/// The controls ([`Live`]): the client to start from, the seed, the customers, the
/// incident, Run and Cancel, and the editor's place (a text area holding `code`, which
/// the editor then owns). Drawn once with the link's values, which the reader edits and
/// the UI reads on Run; then only the status, the bar, the buttons, the fields' error and
/// the note on linked code are written, so the editor in it is never drawn again.
pub struct ClientControls {
    /// The link's seed and numbers, the fields' first values.
    pub scenario: Scenario,
    /// The client to start from.
    pub start: StrategyName,
    /// The code in the text area.
    pub code: String,
}

impl Live for ClientControls {
    type State = ControlsState;

    fn shape(&self, _: &ControlsState) -> u64 {
        0
    }

    fn draw(&self, s: &ControlsState, fill: &mut Fill) -> Markup {
        let (scenario, start) = (&self.scenario, self.start);
        let incident = spec(Param::Incident);
        let chosen = incident.read(scenario);
        let (done, all) = s.progress.unwrap_or((0, 0));
        html! {
            div.rll-client-controls {
                label {
                    "Start from "
                    select data-slot=(START) {
                        @for s in StrategyName::ALL {
                            option value=(s.as_str()) selected[s == start] { (s.as_str()) }
                        }
                    }
                }
                label {
                    "Seed "
                    input type="text" inputmode="numeric" size="8" autocomplete="off" data-slot=(SEED) value=(scenario.seed);
                }
                label {
                    "Customers "
                    input type="text" inputmode="numeric" size="7" autocomplete="off" data-slot=(CUSTOMERS) value=(scenario.customers);
                }
                label {
                    "Incident "
                    select data-slot=(INCIDENT) {
                        @for name in incident.param.choices() {
                            option value=(name) selected[*name == chosen] { (name) }
                        }
                    }
                }
                button.rll-button.rll-primary type="button" data-slot=(RUN) data-testid="client-run"
                    disabled[fill.flag(RUN, "disabled", s.busy)] { "Run" }
                button.rll-button type="button" data-slot=(CANCEL) data-testid="client-cancel"
                    hidden[fill.flag(CANCEL, "hidden", !s.busy)] { "Cancel" }
            }
            p.rll-field-help.rll-error role="alert" data-slot=(FIELDS_ERROR) data-testid="client-fields-error"
                hidden[fill.flag(FIELDS_ERROR, "hidden", s.fields_error.is_none())] {
                (fill.text(FIELDS_ERROR, s.fields_error.clone().unwrap_or_default()))
            }
            p.rll-callout data-slot=(LINKED) data-testid="client-linked" hidden[fill.flag(LINKED, "hidden", !s.linked)] {
                "This code came with the link you opened. Read it first: it runs only when you press Run, and then only in the sandbox."
            }
            label.rll-sr for=(CODE_ID) { (CODE_LABEL) }
            div.rll-client-editor data-slot=(EDITOR) {
                textarea #(CODE_ID) data-slot=(CODE) data-testid="client-code" spellcheck="false" autocapitalize="off" autocomplete="off" rows="24" { (self.code) }
            }
            p.rll-field-help #(KEYS_ID) {
                "In the editor, Tab indents: press Escape, then Tab, to move on. Ctrl+Enter (⌘+Enter) runs the code."
            }
            div data-slot=(PROGRESS) hidden[fill.flag(PROGRESS, "hidden", s.progress.is_none())] {
                div.rll-bar role="progressbar" aria-label=(CLIENT_DONE_WITH) aria-valuemin="0"
                    aria-valuemax=(fill.attr_text(BAR, "aria-valuemax", all.to_string()))
                    aria-valuenow=(fill.attr_text(BAR, "aria-valuenow", done.to_string())) data-slot=(BAR) {
                    div.rll-bar-fill data-slot=(BAR_FILL) style=(fill.attr_text(BAR_FILL, "style", fill_style(done, all))) {}
                }
            }
            p.rll-client-status role="status" data-slot=(STATUS) data-testid="client-status" {
                (fill.text(STATUS, s.status.clone()))
            }
        }
    }
}

/// What the code may do and meet, above the editor ([`Live`], never changing).
#[derive(Clone, Copy, Debug)]
pub struct Contract;

impl Live for Contract {
    type State = ();

    fn shape(&self, _: &()) -> u64 {
        0
    }

    fn draw(&self, _: &(), _: &mut Fill) -> Markup {
        html! { div.rll-client-contract { (contract_markup()) } }
    }
}

/// What went wrong in a run, as a list.
pub const PROBLEMS: Slot = slot!("client-problems");

/// What went wrong in a run ([`Live`]), one sentence each: the list is a
/// [`Fill::markup`] hole, made again whole as it changes (its length changes).
#[derive(Clone, Copy, Debug)]
pub struct Problems;

impl Live for Problems {
    type State = Vec<String>;

    fn shape(&self, _: &Vec<String>) -> u64 {
        0
    }

    fn draw(&self, p: &Vec<String>, fill: &mut Fill) -> Markup {
        html! {
            div.rll-client-problems-place role="alert" data-slot=(PROBLEMS) {
                (fill.markup(PROBLEMS, problems_markup(p)))
            }
        }
    }
}

/// A finished run's report card, drawn by [`card_markup`], and the verdict under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardState {
    /// The card's markup.
    pub card: String,
    /// The verdict's sentence.
    pub verdict: String,
    /// Whether the verdict is of harm.
    pub harm: bool,
}

/// A finished run's card and verdict ([`Live`]). A new run draws them anew with the
/// rest of its panels, so nothing in them changes once drawn.
#[derive(Clone, Copy, Debug)]
pub struct RunCard;

impl Live for RunCard {
    type State = CardState;

    fn shape(&self, _: &CardState) -> u64 {
        0
    }

    fn draw(&self, s: &CardState, _: &mut Fill) -> Markup {
        html! {
            section.rll-see.rll-client-card-section data-testid="client-report" { (PreEscaped(&s.card)) }
            p.rll-verdict-text data-tone=(if s.harm { "harm" } else { "good" }) data-testid="client-run-verdict" { (s.verdict) }
        }
    }
}

/// A finished run's console ([`log_markup`]) and counters
/// (`crate::shared::stats::panel_markup`), as markup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TailState {
    /// The console's markup.
    pub log: String,
    /// The counters' markup.
    pub stats: String,
}

/// A finished run's console and counters ([`Live`]), drawn with the rest of its
/// panels; nothing in them changes once drawn.
#[derive(Clone, Copy, Debug)]
pub struct RunTail;

impl Live for RunTail {
    type State = TailState;

    fn shape(&self, _: &TailState) -> u64 {
        0
    }

    fn draw(&self, s: &TailState, _: &mut Fill) -> Markup {
        html! {
            section.rll-see.rll-client-console { (PreEscaped(&s.log)) }
            section.rll-stats aria-label=(PANEL_TITLE) data-testid="client-stats" { (PreEscaped(&s.stats)) }
        }
    }
}

/// What the status line says while a run goes: `done` of `customers` finished, at
/// `now_us` on the simulated clock.
pub fn running_text(done: u64, customers: u64, now_us: u64) -> String {
    format!(
        "Running in the sandbox: {} of {} customers done, {} simulated.",
        count(done),
        count(customers),
        crate::shared::format::clock_us(now_us)
    )
}

/// What the status line says while the page replays the run and runs the built-ins.
pub const CHECKING_TEXT: &str =
    "The client is done. Replaying its calls here, and running the ten built-in strategies on the same seed…";

/// What the card says when the built-in strategies could not run beside the client.
pub const NOT_COMPARED: &str = "The built-in strategies could not run on these numbers.";

/// What the status line says when a run is cancelled.
pub const CANCELLED_TEXT: &str = "Cancelled. Nothing of that run is shown.";

/// What the status line says when a run is done, with its wall time.
pub fn done_text(wall_ms: u64, events: u64) -> String {
    format!(
        "Done: {} events in {} of wall time.",
        count(events),
        crate::shared::format::duration_ms(wall_ms)
    )
}

/// The report card beside the run's panels: the verdict, each figure with the best
/// built-in beside it, and each harm's first customers as links to their stories
/// (`harmed`, one list per figure of [`FIGURES`]).
pub fn card_markup(view: &CardView<'_>, harmed: &[Vec<u32>]) -> Markup {
    let card = view.card;
    html! {
        h2 { (REPORT_TITLE) }
        p.rll-client-verdict data-testid="client-verdict" data-tone=(if card.fails() { "harm" } else { "good" }) {
            strong { (verdict(card)) }
        }
        @if view.best.is_some() { p.rll-field-help { (BESIDE_LINE) } }
        table.rll-client-card data-testid="client-card" {
            thead {
                tr {
                    th scope="col" { "Figure" }
                    th scope="col" { "Your client" }
                    th scope="col" { "Best built-in" }
                }
            }
            tbody {
                @for (i, f) in FIGURES.iter().enumerate() {
                    @let value = (f.get)(card);
                    @let who = harmed.get(i).map_or(&[][..], Vec::as_slice);
                    tr.rll-client-harm[f.harm && value > 0] data-figure=(f.key) title=(f.hint) {
                        th scope="row" {
                            (f.label)
                            @if !who.is_empty() {
                                span.rll-client-who {
                                    @for c in who {
                                        button.rll-link type="button" data-slot=(OPEN_CUSTOMER) data-customer=(c) { "#" (c) }
                                        " "
                                    }
                                    @if value > who.len() as u64 && f.harm {
                                        "and " (count(value - who.len() as u64)) " more"
                                    }
                                }
                            }
                        }
                        td.rll-num { (count(value)) }
                        td.rll-num {
                            @if let Some((best, by)) = view.best.filter(|_| i > 0) {
                                (count((f.get)(best)))
                                @if let Some(s) = by.get(i).copied().flatten() { " " span.rll-by { (s.as_str()) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One console line as the sandbox kept it.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// When it was written, on the simulated clock.
    pub t_us: u64,
    /// `log`, `warn`, `error`, …
    pub level: String,
    /// What was written.
    pub text: String,
}

/// The console: each line with its simulated instant, then how many were left out.
pub fn log_markup(lines: &[LogLine], dropped: u64) -> Markup {
    html! {
        h2 { "Console" }
        @if lines.is_empty() {
            p.rll-note { "Nothing was written with console.log." }
        } @else {
            ol.rll-client-log data-testid="client-log" {
                @for l in lines {
                    li data-level=(l.level) {
                        span.rll-client-t { (log_clock(l.t_us)) }
                        " "
                        span { (l.text) }
                    }
                }
            }
        }
        @if dropped > 0 {
            p.rll-note { (count(dropped)) " more lines were not kept: the console keeps the first " (count(lines.len() as u64)) "." }
        }
    }
}

/// What went wrong, one sentence each (nothing for none).
pub fn problems_markup(sentences: &[String]) -> Markup {
    html! {
        @if !sentences.is_empty() {
            ul.rll-client-problems data-testid="client-problems" {
                @for s in sentences { li { (s) } }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::live::check_drawn;
    use sim::report::ReportCard;

    #[test]
    fn the_card_links_each_harm_to_its_first_customers_and_escapes_the_console() {
        let card = ReportCard {
            customers: 1_000,
            charged_twice: 7,
            ..ReportCard::default()
        };
        let mut harmed = vec![Vec::new(); FIGURES.len()];
        harmed[1] = vec![3, 9, 11, 40, 41];
        let m = card_markup(
            &CardView {
                card: &card,
                seed: 1,
                best: None,
                notes: &[],
            },
            &harmed,
        )
        .into_string();
        assert!(m.contains("Failed: 7 customers charged twice."), "{m}");
        assert!(
            m.contains(&format!(r#"{CUSTOMER_KEY}="41">#41</button>"#)),
            "{m}"
        );
        assert!(m.contains("and 2 more"), "{m}");
        let log = log_markup(
            &[LogLine {
                t_us: 285_500,
                level: "log".into(),
                text: "<b>hi</b>".into(),
            }],
            3,
        )
        .into_string();
        assert!(log.contains("0.285500 s"));
        assert!(log.contains("&lt;b&gt;hi&lt;/b&gt;"), "{log}");
        assert!(log.contains("3 more lines"));
        let controls = ClientControls {
            scenario: Scenario::article(StrategyName::Keyed, 4),
            start: StrategyName::Pool,
            code: "</textarea><script>".into(),
        }
        .markup(&ControlsState::default())
        .into_string();
        assert!(controls.contains("&lt;/textarea&gt;"), "{controls}");
        assert!(
            controls.contains(r#"<option value="pool" selected>"#),
            "{controls}"
        );
        assert!(controls.contains(r#"value="4""#));
    }

    #[test]
    fn the_controls_write_only_what_a_run_changes() {
        let controls = ClientControls {
            scenario: Scenario::article(StrategyName::Keyed, 4),
            start: StrategyName::Keyed,
            code: "export async function charge() {}".into(),
        };
        let idle = ControlsState {
            linked: true,
            ..ControlsState::default()
        };
        let running = ControlsState {
            status: running_text(3, 10, 1_500),
            progress: Some((3, 10)),
            busy: true,
            linked: false,
            fields_error: None,
        };
        let wrong = ControlsState {
            fields_error: Some("'x' is not a seed.".into()),
            ..ControlsState::default()
        };
        for s in [&idle, &running, &wrong] {
            check_drawn(&controls, s).unwrap();
        }
        let html = controls.markup(&idle).into_string();
        assert!(
            html.contains(r#"data-testid="client-cancel" hidden>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"data-slot="client-progress" hidden>"#),
            "{html}"
        );
        assert!(
            !html.contains(r#"data-testid="client-linked" hidden"#),
            "{html}"
        );
        let html = controls.markup(&running).into_string();
        assert!(
            html.contains(r#"aria-valuemax="10" aria-valuenow="3""#),
            "{html}"
        );
        assert!(html.contains(r#"style="width:30.0%""#), "{html}");
        // One more customer done moves the bar and the status line, nothing else.
        let later = ControlsState {
            status: running_text(4, 10, 1_900),
            progress: Some((4, 10)),
            ..running.clone()
        };
        let (mut a, mut b) = (Fill::default(), Fill::default());
        controls.draw(&running, &mut a);
        controls.draw(&later, &mut b);
        let changed: Vec<_> = b.changed_since(&a).map(|x| x.0.slot.name()).collect();
        assert_eq!(changed, vec!["bar", "bar-fill", "client-status"]);
    }

    #[test]
    fn the_problems_and_a_runs_panels_are_drawn_where_they_are_filled() {
        let problems = vec!["It threw <b>.".to_string()];
        check_drawn(&Problems, &problems).unwrap();
        check_drawn(&Problems, &Vec::new()).unwrap();
        assert!(Problems
            .markup(&problems)
            .into_string()
            .contains("<li>It threw &lt;b&gt;.</li>"));
        let card = RunCard
            .markup(&CardState {
                card: "<h2>Card</h2>".into(),
                verdict: "Fine & well.".into(),
                harm: false,
            })
            .into_string();
        assert!(card.contains(r#"data-testid="client-report"><h2>Card</h2></section>"#));
        assert!(card
            .contains(r#"data-tone="good" data-testid="client-run-verdict">Fine &amp; well.</p>"#));
        let tail = RunTail
            .markup(&TailState {
                log: "<h2>Console</h2>".into(),
                stats: String::new(),
            })
            .into_string();
        assert!(tail.starts_with(
            r#"<section class="rll-see rll-client-console"><h2>Console</h2></section>"#
        ));
        assert!(Contract
            .markup(&())
            .into_string()
            .starts_with(r#"<div class="rll-client-contract"><p>"#));
    }
}
