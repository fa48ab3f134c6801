//! The client view's markup: the contract a reader's code meets, the controls, and what
//! a run shows beside the run page's own panels (the report card with each harm linked
//! to its customer's story, the console, and what went wrong). Every node the UI binds
//! is a [`Slot`] named here once.

use super::outcome::log_clock;
use crate::shared::format::count;
use crate::shared::params::spec;
use crate::shared::progress::{bar_markup, CLIENT_DONE_WITH};
use crate::shared::report::{verdict, CardView, BESIDE_LINE, FIGURES, REPORT_TITLE};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
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

/// The controls: the client to start from, the seed, the customers, the incident, Run
/// and Cancel, and the editor's place (a text area holding `code`).
pub fn controls_markup(scenario: &Scenario, start: StrategyName, code: &str) -> Markup {
    let incident = spec(Param::Incident);
    let chosen = incident.read(scenario);
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
            button.rll-button.rll-primary type="button" data-slot=(RUN) data-testid="client-run" { "Run" }
            button.rll-button type="button" data-slot=(CANCEL) data-testid="client-cancel" hidden { "Cancel" }
        }
        p.rll-field-help.rll-error role="alert" data-slot=(FIELDS_ERROR) data-testid="client-fields-error" hidden {}
        p.rll-callout data-slot=(LINKED) data-testid="client-linked" hidden {
            "This code came with the link you opened. Read it first: it runs only when you press Run, and then only in the sandbox."
        }
        label.rll-sr for=(CODE_ID) { (CODE_LABEL) }
        div.rll-client-editor data-slot=(EDITOR) {
            textarea #(CODE_ID) data-slot=(CODE) data-testid="client-code" spellcheck="false" autocapitalize="off" autocomplete="off" rows="24" { (code) }
        }
        p.rll-field-help #(KEYS_ID) {
            "In the editor, Tab indents: press Escape, then Tab, to move on. Ctrl+Enter (⌘+Enter) runs the code."
        }
        div data-slot=(PROGRESS) hidden { (bar_markup(CLIENT_DONE_WITH)) }
        p.rll-client-status role="status" data-slot=(STATUS) data-testid="client-status" {}
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
        let controls = controls_markup(
            &Scenario::article(StrategyName::Keyed, 4),
            StrategyName::Pool,
            "</textarea><script>",
        )
        .into_string();
        assert!(controls.contains("&lt;/textarea&gt;"), "{controls}");
        assert!(
            controls.contains(r#"<option value="pool" selected>"#),
            "{controls}"
        );
        assert!(controls.contains(r#"value="4""#));
    }
}
