//! The report card's words: each figure's label and hint, the verdict, the notes about
//! the run, the card as text for `ratelab judge`, and as a page for `ratelab serve`'s
//! `GET /report` ([`report_markup`]). The card's rules are the core's
//! ([`ReportCard`]); the server and the command line fill in [`CardView`].

use crate::shared::format::{count, counted};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use sim::report::ReportCard;
use sim::StrategyName;

/// One figure of the card: its JSON name, its words, whether it counts harm done to
/// customers, and how to read it from a card.
#[derive(Clone, Copy)]
pub struct Figure {
    /// The card's JSON name for it, e.g. `chargedTwice`.
    pub key: &'static str,
    /// A short label, e.g. "Charged twice".
    pub label: &'static str,
    /// What it counts, in a few words.
    pub hint: &'static str,
    /// True if it counts customers harmed: marked when above 0.
    pub harm: bool,
    /// Its value on a card.
    pub get: fn(&ReportCard) -> u64,
}

/// Every figure of the card, in the card's order. The first, the customers, is what the
/// run was for; every other is compared with the best built-in strategy.
pub const FIGURES: [Figure; 12] = [
    Figure {
        key: "customers",
        label: "Customers",
        hint: "the run was for",
        harm: false,
        get: |c| c.customers,
    },
    Figure {
        key: "chargedTwice",
        label: "Charged twice",
        hint: "customers charged more than once",
        harm: true,
        get: |c| c.charged_twice,
    },
    Figure {
        key: "chargesLost",
        label: "Charges lost",
        hint: "customers who could be charged and were not",
        harm: true,
        get: |c| c.charges_lost,
    },
    Figure {
        key: "toldWrong",
        label: "Told wrong",
        hint: "charged while the client last heard it failed, or the reverse",
        harm: true,
        get: |c| c.told_wrong,
    },
    Figure {
        key: "unfinished",
        label: "Unfinished",
        hint: "customers still awaiting an answer, or never tried",
        harm: true,
        get: |c| c.unfinished,
    },
    Figure {
        key: "rateLimited",
        label: "429 Too many",
        hint: "refusals for the rate limit",
        harm: false,
        get: |c| c.rate_limited,
    },
    Figure {
        key: "overloaded",
        label: "503 Overloaded",
        hint: "refusals for too many in flight",
        harm: false,
        get: |c| c.overloaded,
    },
    Figure {
        key: "requests",
        label: "Requests",
        hint: "reached the provider",
        harm: false,
        get: |c| c.requests,
    },
    Figure {
        key: "charges",
        label: "Charges",
        hint: "times money moved",
        harm: false,
        get: |c| c.charges,
    },
    Figure {
        key: "requestsPer100Charges",
        label: "Requests per 100 charges",
        hint: "traffic for the money",
        harm: false,
        get: |c| c.requests_per_100_charges,
    },
    Figure {
        key: "elapsedMs",
        label: "Elapsed (ms)",
        hint: "from the run's start to the last answer the client heard",
        harm: false,
        get: |c| c.elapsed_ms,
    },
    Figure {
        key: "waitP99Ms",
        label: "p99 wait (ms)",
        hint: "a customer's first request to its last answer heard; 1 in 100 waited longer",
        harm: false,
        get: |c| c.wait_p99_ms,
    },
];

/// Something the card says about its run besides the figures, as a sentence
/// ([`note_sentence`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// No charge has reached the server since the last reset.
    NoCustomers,
    /// The comparison was left out: more customers than the cap it runs for.
    NotCompared {
        /// Customers on the card.
        customers: u32,
        /// The most customers the comparison runs for.
        cap: u32,
    },
    /// The simulation could not run the scenario: its sentence.
    NotSimulated(String),
    /// No built-in strategy passed on this scenario: the best beside each figure is
    /// the best of all ten.
    NonePassed,
    /// Requests the provider was still working on, or answering, when the card was
    /// read: their customers' fates may change when they are done.
    Answering {
        /// Those requests.
        requests: u32,
    },
    /// Customers above the card's were charged too; they are not on the card.
    Beyond {
        /// Customers on the card.
        customers: u32,
        /// The highest customer id that reached the server.
        highest: u32,
    },
    /// The judged command exited with this code (`None`: it was ended by a signal).
    Exited(Option<i32>),
    /// The judged command was still running at its time limit and was stopped, with
    /// everything it started.
    StoppedAtLimit {
        /// The limit, in seconds.
        limit_s: u64,
    },
    /// After the command, the provider was still working when the wait for it ran out.
    Unsettled {
        /// Requests still being answered.
        requests: u32,
        /// How long the wait was, in seconds.
        waited_s: u64,
    },
}

/// A note in words.
pub fn note_sentence(note: &Note) -> String {
    match note {
        Note::NoCustomers => {
            "No charge has reached the server since the last reset.".to_string()
        }
        Note::NotCompared { customers, cap } => format!(
            "The built-in strategies are simulated for at most {} customers, so they are not shown beside these {}.",
            count(u64::from(*cap)),
            count(u64::from(*customers))
        ),
        Note::NotSimulated(sentence) => {
            format!("The built-in strategies could not be simulated on this provider: {sentence}")
        }
        Note::NonePassed => "No built-in strategy passed on this provider (each charged a customer twice or lost a charge), so beside each figure is the best of all ten.".to_string(),
        Note::Answering { requests: 1 } => {
            "1 request is still being worked on; the card counts its customer as things stand now."
                .to_string()
        }
        Note::Answering { requests } => format!(
            "{} requests are still being worked on; the card counts their customers as things stand now.",
            count(u64::from(*requests))
        ),
        Note::Beyond { customers, highest } => format!(
            "Customers up to {} reached the server; the card is for customers 1 to {} only.",
            count(u64::from(*highest)),
            count(u64::from(*customers))
        ),
        Note::Exited(Some(code)) => format!("The command exited with status {code}."),
        Note::Exited(None) => "The command was ended by a signal.".to_string(),
        Note::StoppedAtLimit { limit_s } => format!(
            "The command was still running after {limit_s} s (--limit-s) and was stopped, with everything it started."
        ),
        Note::Unsettled { requests, waited_s } => format!(
            "After the command, the provider was still working on {} when the wait for it ended ({waited_s} s); those charges are counted as they stood.",
            counted(u64::from(*requests), "request", "requests")
        ),
    }
}

/// The best any built-in strategy that passed did, figure by figure, and who did it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    /// Each figure's best ([`ReportCard::best_of`]) over the strategies that passed
    /// (over all ten if none did: see [`Best::passed`]).
    pub card: ReportCard,
    /// False if no built-in strategy passed on this scenario.
    pub passed: bool,
    /// For each figure of [`FIGURES`], the first strategy in the ladder's order whose
    /// figure is the best (`None` for the customers, which are not compared).
    pub by: Vec<Option<StrategyName>>,
}

/// The best of the `cards` that passed (charged nobody twice and lost no charge),
/// figure by figure, with the first strategy that reached each; the best of all of them
/// if none passed; `None` for no cards.
///
/// Why only those that passed: a cost is no goal when it was paid for with customers.
/// Naive is over in 17 ms, sends the fewest requests and waits least, because it gives
/// up on 990 customers of 1,000; set beside a client, those would read as the figures to
/// beat.
pub fn best_of(cards: &[(StrategyName, ReportCard)]) -> Option<Best> {
    let passing: Vec<(StrategyName, ReportCard)> =
        cards.iter().filter(|(_, c)| !c.fails()).copied().collect();
    let passed = !passing.is_empty();
    let cards = if passed { passing.as_slice() } else { cards };
    let only: Vec<ReportCard> = cards.iter().map(|(_, c)| *c).collect();
    let card = ReportCard::best_of(&only)?;
    let by = FIGURES
        .iter()
        .enumerate()
        .map(|(i, f)| {
            (i > 0)
                .then(|| {
                    cards
                        .iter()
                        .find(|(_, c)| (f.get)(c) == (f.get)(&card))
                        .map(|(s, _)| *s)
                })
                .flatten()
        })
        .collect();
    Some(Best { card, passed, by })
}

/// The verdict: what `ratelab judge` passes or fails a client on.
pub fn verdict(card: &ReportCard) -> String {
    if !card.fails() {
        return "Passed: no customer was charged twice, and no charge was lost.".to_string();
    }
    let mut harms = Vec::new();
    if card.charged_twice > 0 {
        harms.push(format!(
            "{} charged twice",
            counted(card.charged_twice, "customer", "customers")
        ));
    }
    if card.charges_lost > 0 {
        harms.push(format!(
            "{} lost",
            counted(card.charges_lost, "charge", "charges")
        ));
    }
    format!("Failed: {}.", harms.join(", "))
}

/// A card to show: the client's figures, the best built-in beside each, and the notes.
pub struct CardView<'a> {
    /// The client's card.
    pub card: &'a ReportCard,
    /// The seed of the provider's dice.
    pub seed: u64,
    /// The best that any built-in strategy that passed did on the same scenario, and
    /// for each figure of [`FIGURES`] the first strategy, in the ladder's order, that did
    /// it; `None` if they were not compared (a [`Note`] says why).
    pub best: Option<(&'a ReportCard, &'a [Option<StrategyName>])>,
    /// What else to say.
    pub notes: &'a [Note],
}

/// The line above the figures: customers and seed.
fn about(view: &CardView<'_>) -> String {
    format!(
        "Report card: {}, seed {}",
        counted(view.card.customers, "customer", "customers"),
        view.seed
    )
}

/// The best built-in's value of figure `i`, with its strategy (empty for the customers,
/// which are not compared).
fn best_text(view: &CardView<'_>, i: usize) -> (String, &'static str) {
    match view.best {
        Some((best, by)) if i > 0 => (
            count((FIGURES[i].get)(best)),
            by.get(i)
                .copied()
                .flatten()
                .map_or("", StrategyName::as_str),
        ),
        _ => (String::new(), ""),
    }
}

/// True if figure `i` counts harm and is above 0.
fn marked(card: &ReportCard, i: usize) -> bool {
    FIGURES[i].harm && (FIGURES[i].get)(card) > 0
}

/// What the text's column of the best built-in holds.
pub const BESIDE_LINE: &str = "Beside each figure: the best that any built-in strategy that passed did in the simulation, on the same provider, seed and customers.";

/// The card as text, as `ratelab judge` prints it: the verdict, one row per figure with
/// the best built-in and its strategy beside it (`!` marks harm), then the notes.
pub fn card_text(view: &CardView<'_>) -> String {
    let mut out = format!("{}\n{}\n", about(view), verdict(view.card));
    if view.best.is_some() {
        out.push_str(BESIDE_LINE);
        out.push('\n');
    }
    out.push_str(&format!(
        "{:<26}{:>13}{:>15}  {:<16}{}\n",
        "", "this client", "best built-in", "", "what it counts"
    ));
    for (i, f) in FIGURES.iter().enumerate() {
        let (best, by) = best_text(view, i);
        let mark = if marked(view.card, i) { "!" } else { "" };
        out.push_str(&format!(
            "{:<26}{:>13}{:>15}  {:<16}{}\n",
            f.label,
            format!("{mark}{}", count((f.get)(view.card))),
            best,
            by,
            f.hint
        ));
    }
    for note in view.notes {
        out.push_str(&format!("{}\n", note_sentence(note)));
    }
    out
}

/// The report page's title.
pub const REPORT_TITLE: &str = "Report card";

/// What the table's columns hold.
pub const REPORT_CAPTION: &str = "Every figure counts harm or cost, so lower is better. Beside each, the best that any of the ten built-in strategies that passed did in the simulation on the same provider, seed and customers, and the first strategy that did it.";

/// The page's own style: no file to fetch, so the answer is the whole page.
const REPORT_CSS: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1a1a1a}table{border-collapse:collapse;width:100%}caption{text-align:left;padding:.5rem 0}th,td{border-bottom:1px solid #ccc;padding:.3rem .6rem;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}.fail{color:#a00}tr.harm th,tr.harm td.n:first-of-type{color:#a00;font-weight:bold}";

/// The link from the page to the same card as JSON.
pub fn report_json_href(customers: u64) -> String {
    format!("?customers={customers}&format=json")
}

/// The card as a whole page, for a browser asking `GET /report`: the verdict, a table
/// of the figures with the best built-in beside each and what each counts, the notes,
/// and a link to the same card as JSON.
pub fn report_markup(view: &CardView<'_>) -> Markup {
    let card = view.card;
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (REPORT_TITLE) }
                style { (PreEscaped(REPORT_CSS)) }
            }
            body {
                main {
                    h1 { (REPORT_TITLE) }
                    p.fail[card.fails()] data-testid="verdict" { strong { (verdict(card)) } }
                    p { (about(view)) }
                    table {
                        caption { (REPORT_CAPTION) }
                        thead {
                            tr {
                                th scope="col" { "Figure" }
                                th scope="col" { "This client" }
                                th scope="col" { "Best built-in" }
                                th scope="col" { "Strategy" }
                                th scope="col" { "What it counts" }
                            }
                        }
                        tbody {
                            @for (i, f) in FIGURES.iter().enumerate() {
                                @let (best, by) = best_text(view, i);
                                tr.harm[marked(card, i)] data-figure=(f.key) {
                                    th scope="row" { (f.label) }
                                    td.n { (count((f.get)(card))) }
                                    td.n { (best) }
                                    td { (by) }
                                    td { (f.hint) }
                                }
                            }
                        }
                    }
                    @if !view.notes.is_empty() {
                        ul {
                            @for note in view.notes {
                                li { (note_sentence(note)) }
                            }
                        }
                    }
                    p { a href=(report_json_href(card.customers)) { "The same card as JSON" } }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> ReportCard {
        ReportCard {
            customers: 1_000,
            charged_twice: 27,
            charges_lost: 1,
            told_wrong: 0,
            unfinished: 0,
            rate_limited: 0,
            overloaded: 3,
            requests: 1_067,
            charges: 1_017,
            requests_per_100_charges: 105,
            elapsed_ms: 12_817,
            wait_p99_ms: 1_400,
        }
    }

    #[test]
    fn every_figure_is_the_cards_own_field_in_order() {
        let c = card();
        let json = serde_json::to_value(c).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut ours: Vec<&str> = FIGURES.iter().map(|f| f.key).collect();
        let mut theirs = keys.clone();
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs);
        for f in FIGURES {
            assert_eq!(json[f.key].as_u64(), Some((f.get)(&c)), "{}", f.key);
        }
        let mut labels: Vec<&str> = FIGURES.iter().map(|f| f.label).collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), FIGURES.len());
    }

    #[test]
    fn the_verdict_names_each_harm_and_counts_in_words() {
        assert_eq!(
            verdict(&card()),
            "Failed: 27 customers charged twice, 1 charge lost."
        );
        let clean = ReportCard {
            charged_twice: 0,
            charges_lost: 0,
            ..card()
        };
        assert!(verdict(&clean).starts_with("Passed"));
        let one = ReportCard {
            charged_twice: 1,
            charges_lost: 0,
            ..card()
        };
        assert_eq!(verdict(&one), "Failed: 1 customer charged twice.");
    }

    #[test]
    fn the_text_puts_the_best_built_in_beside_each_figure() {
        let c = card();
        let best = ReportCard {
            charged_twice: 0,
            charges_lost: 0,
            ..c
        };
        let mut by = [Some(StrategyName::Keyed); 12];
        by[0] = None;
        let notes = [Note::Exited(Some(3))];
        let view = CardView {
            card: &c,
            seed: 7,
            best: Some((&best, &by)),
            notes: &notes,
        };
        let text = card_text(&view);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Report card: 1,000 customers, seed 7");
        assert_eq!(lines[1], verdict(&c));
        assert_eq!(lines[2], BESIDE_LINE);
        let twice = lines
            .iter()
            .find(|l| l.starts_with("Charged twice"))
            .unwrap();
        assert!(twice.contains("!27"), "{twice}");
        assert!(twice.contains(" 0  keyed"), "{twice}");
        let customers = lines.iter().find(|l| l.starts_with("Customers")).unwrap();
        assert!(!customers.contains("keyed"), "{customers}");
        assert_eq!(*lines.last().unwrap(), "The command exited with status 3.");
        // Without a comparison, no best is shown.
        let alone = card_text(&CardView {
            best: None,
            notes: &[],
            ..view
        });
        assert!(!alone.contains("keyed"), "{alone}");
    }

    #[test]
    fn the_page_is_one_document_with_a_row_per_figure() {
        let c = card();
        let notes = [Note::NotCompared {
            customers: 200_000,
            cap: 100_000,
        }];
        let page = report_markup(&CardView {
            card: &c,
            seed: 1,
            best: None,
            notes: &notes,
        })
        .into_string();
        assert!(
            page.starts_with("<!DOCTYPE html><html lang=\"en\">"),
            "{page}"
        );
        assert_eq!(page.matches("<tr class=\"harm\"").count(), 2, "{page}");
        assert_eq!(page.matches("data-figure=").count(), FIGURES.len());
        assert!(page.contains("<p class=\"fail\" data-testid=\"verdict\">"));
        assert!(page.contains("at most 100,000 customers"), "{page}");
        assert!(
            page.contains("href=\"?customers=1000&amp;format=json\""),
            "{page}"
        );
    }

    #[test]
    fn every_note_is_a_sentence() {
        let notes = [
            Note::NoCustomers,
            Note::NotCompared {
                customers: 2,
                cap: 1,
            },
            Note::NotSimulated("a sentence.".into()),
            Note::NonePassed,
            Note::Answering { requests: 1 },
            Note::Beyond {
                customers: 1,
                highest: 2,
            },
            Note::Exited(None),
            Note::StoppedAtLimit { limit_s: 5 },
            Note::Unsettled {
                requests: 2,
                waited_s: 60,
            },
        ];
        for n in &notes {
            let s = note_sentence(n);
            assert!(s.ends_with('.'), "{s}");
            let first = s.chars().next().unwrap();
            assert!(first.is_uppercase() || first.is_ascii_digit(), "{s}");
        }
        assert_eq!(
            note_sentence(&Note::Answering { requests: 1 }),
            "1 request is still being worked on; the card counts its customer as things stand now."
        );
    }
}
