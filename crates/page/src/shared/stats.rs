//! How each stat is named for readers: a label, a hint, and the panel's groups. The
//! fields themselves, their JSON names and which are harm are the core's
//! ([`StatField`]); a new field fails to compile here until it has its words. The cards
//! and the panel of every counter are markup ([`cards_markup`], [`panel_markup`]).

use crate::shared::format::count;
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
use sim::incident;
use sim::time::whole_ms;
use sim::{StatField, Stats};

/// A stat's words: a short label for a card or a row, and a hint of what it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatText {
    /// A short label, e.g. "Extra charges".
    pub label: &'static str,
    /// What it counts, in a few words, e.g. "beyond a customer's first".
    pub hint: &'static str,
}

/// The peak rate's hint, with the span it is counted over from the core.
const PEAK_RATE_HINT: &str = const_format::formatcp!(
    "requests/s, busiest {} ms",
    whole_ms(incident::PEAK_SPAN_US)
);

/// The recovery's hint, with the share of the rate before the incident from the core.
const RECOVERY_HINT: &str = const_format::formatcp!(
    "until charges flow at {}% again",
    incident::RECOVERED_PERCENT
);

/// The goodput recovery's hint, with the share of arrivals from the core.
const GOODPUT_HINT: &str = const_format::formatcp!(
    "until the client learns of {}% of arrivals, for good",
    sim::flow::RECOVERED_PERCENT
);

/// The share of time up's hint, with the span and the share of arrivals from the core.
const UP_HINT: &str = const_format::formatcp!(
    "of the time after the incident, {} s spans at {}%",
    sim::flow::RECOVERY_SPAN_S,
    sim::flow::RECOVERED_PERCENT
);

/// The words for `field`.
pub const fn stat_text(field: StatField) -> StatText {
    let (label, hint) = match field {
        StatField::Requests => ("Requests", "reached the provider"),
        StatField::Charges => ("Charges", "times money moved"),
        StatField::CustomersCharged => ("Customers charged", "distinct customers"),
        StatField::Duplicates => ("Extra charges", "beyond a customer's first"),
        StatField::MaxInflight => ("Provider peak in flight", "admitted, not yet answered"),
        StatField::RateLimited => ("429 Too many", "over the rate limit"),
        StatField::Overloaded => ("503 Overloaded", "too many in flight"),
        StatField::ServerErrors => ("500 Failed", "nothing charged"),
        StatField::Slow => ("Slow", "took the slow path"),
        StatField::InProgressConflicts => ("409 In progress", "same key still running"),
        StatField::Declined => ("400 Declined", "card refused"),
        StatField::Replayed => ("Replayed", "answered from the key store"),
        StatField::RetriedDeclined => ("Retried a 400", "asked again after a decline"),
        StatField::GaveUp => ("Gave up", "customers left uncharged"),
        StatField::ClientMaxOutstanding => ("Client peak awaiting", "answers awaited at once"),
        StatField::ElapsedMs => ("Elapsed (ms)", "until the last client finished"),
        StatField::RequestsPer100Charges => ("Requests per 100 charges", "traffic for the money"),
        StatField::IncidentRequests => ("Sent during the incident", "requests that reached it"),
        StatField::IncidentPeakRate => ("Incident peak rate", PEAK_RATE_HINT),
        StatField::RecoveryMs => ("Recovery (ms)", RECOVERY_HINT),
        StatField::BudgetExhausted => ("Budget refused", "retries the budget could not pay"),
        StatField::BreakerOpens => ("Breaker opened", "times the circuit opened"),
        StatField::ConcurrencyPeak => ("Peak concurrency", "the adaptive limit's highest"),
        StatField::ConcurrencyMean => ("Mean concurrency", "the adaptive limit per send"),
        StatField::WaitP50Ms => ("Median wait (ms)", "from arrival to the charge's end"),
        StatField::WaitP99Ms => ("p99 wait (ms)", "at most 1 in 100 waited longer"),
        StatField::WaitMaxMs => ("Longest wait (ms)", "the slowest customer's"),
        StatField::RequestsPer100Customers => ("Requests per 100 customers", "retries included"),
        StatField::GoodputRecoveryMs => ("Goodput recovery (ms)", GOODPUT_HINT),
        StatField::GoodputUpPercent => ("Goodput up (%)", UP_HINT),
        StatField::KeyReused => ("422 Key reused", "a key sent again with another body"),
        StatField::LostToReusedKey => ("Lost to a reused key", "told charged, never charged"),
        StatField::GaveUpCharged => ("Gave up, charged", "told it failed, charged anyway"),
    };
    StatText { label, hint }
}

/// The stats panel's groups, in order, each with its title.
pub const STAT_GROUPS: [(&str, &[StatField]); 6] = [
    (
        "Money",
        &[
            StatField::Charges,
            StatField::CustomersCharged,
            StatField::Duplicates,
            StatField::LostToReusedKey,
        ],
    ),
    (
        "What the provider answered",
        &[
            StatField::Requests,
            StatField::RateLimited,
            StatField::Overloaded,
            StatField::ServerErrors,
            StatField::InProgressConflicts,
            StatField::KeyReused,
            StatField::Declined,
            StatField::Replayed,
            StatField::Slow,
        ],
    ),
    (
        "Concurrency",
        &[
            StatField::MaxInflight,
            StatField::ClientMaxOutstanding,
            StatField::ConcurrencyPeak,
            StatField::ConcurrencyMean,
        ],
    ),
    (
        "The client",
        &[
            StatField::GaveUp,
            StatField::GaveUpCharged,
            StatField::RetriedDeclined,
            StatField::RequestsPer100Charges,
            StatField::RequestsPer100Customers,
            StatField::BudgetExhausted,
            StatField::BreakerOpens,
            StatField::ElapsedMs,
        ],
    ),
    (
        "What a customer waits",
        &[
            StatField::WaitP50Ms,
            StatField::WaitP99Ms,
            StatField::WaitMaxMs,
        ],
    ),
    (
        "The incident",
        &[
            StatField::IncidentRequests,
            StatField::IncidentPeakRate,
            StatField::RecoveryMs,
            StatField::GoodputRecoveryMs,
            StatField::GoodputUpPercent,
        ],
    ),
];

/// The change of a counter since the previous run: "was 12 (+3)", "was 1,012 (−3)".
pub fn delta_text(before: u64, now: u64) -> String {
    let sign = if now >= before { "+" } else { "−" };
    format!(
        "was {} ({sign}{})",
        count(before),
        count(now.abs_diff(before))
    )
}

/// A counter's card, live: the card (harm marks it with a class), its harm sign, its
/// words for screen readers, its value and the change since a kept run.
pub const CARD: Slot = slot!("stat-card");
/// A card's harm sign, shown to the eye only.
pub const CARD_MARK: Slot = slot!("stat-mark");
/// A card's harm in words, for screen readers.
pub const CARD_SR: Slot = slot!("stat-sr");
/// A card's value (also `data-stat`, the JSON name, for tests and readers' scripts).
pub const CARD_VALUE: Slot = slot!("stat-value");
/// A card's change since the kept run before it.
pub const CARD_DELTA: Slot = slot!("stat-delta");

/// Counters as cards ([`Live`]): each its label, harm marked in colour, a sign and words
/// for screen readers, its value (`data-stat`, the JSON name), the change since the kept
/// previous run when there is one and, unless `compact` (where the hint is the card's
/// title), a hint of what it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cards {
    /// The hint is the card's title rather than a line of it.
    pub compact: bool,
}

/// What [`Cards`] show: which counters, of which run, beside which kept run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CardsState {
    /// The counters, in order.
    pub fields: Vec<StatField>,
    /// The run's counters.
    pub stats: Stats,
    /// The kept run's, when there is one.
    pub before: Option<Stats>,
}

impl Live for Cards {
    type State = CardsState;

    /// The fields, in order, and whether a kept run is beside them: one digit of base 64
    /// each (a field's place in `StatField::ALL`, from 1), so up to ten fields (a widget
    /// shows at most six) give ten digits, each list its own number.
    fn shape(&self, state: &CardsState) -> u64 {
        let index = |f: &StatField| StatField::ALL.iter().position(|a| a == f).unwrap_or(0);
        state
            .fields
            .iter()
            .fold(u64::from(state.before.is_some()), |key, f| {
                key.wrapping_mul(64).wrapping_add(index(f) as u64 + 1)
            })
    }

    fn draw(&self, state: &CardsState, fill: &mut Fill) -> Markup {
        draw_cards(
            fill,
            &state.fields,
            &state.stats,
            state.before.as_ref(),
            self.compact,
        )
    }
}

/// The cards of `fields`, their live nodes recorded in `fill`.
fn draw_cards(
    fill: &mut Fill,
    fields: &[StatField],
    stats: &Stats,
    before: Option<&Stats>,
    compact: bool,
) -> Markup {
    html! {
        @for &field in fields {
            @let text = stat_text(field);
            @let harmed = stats.harmed(field);
            @let name = field.as_str();
            @let value = stats.get(field);
            div.rll-card.rll-harm[fill.class(CARD, "rll-harm", harmed)] data-slot=(CARD) title=[compact.then_some(text.hint)] {
                dt {
                    (text.label)
                    span.rll-harm-mark data-slot=(CARD_MARK)
                        aria-hidden=(fill.attr(CARD_MARK, "aria-hidden", if harmed { "false" } else { "true" })) {
                        (fill.text(CARD_MARK, if harmed { " ⚠" } else { "" }.into()))
                    }
                    span.rll-sr data-slot=(CARD_SR) { (fill.text(CARD_SR, if harmed { " (harm)" } else { "" }.into())) }
                }
                dd {
                    span.rll-value data-slot=(CARD_VALUE) data-stat=(name) { (fill.text(CARD_VALUE, count(value))) }
                    @if let Some(b) = before {
                        span.rll-ghost-delta data-slot=(CARD_DELTA) data-ghost=(name) {
                            (fill.text(CARD_DELTA, delta_text(b.get(field), value)))
                        }
                    }
                    @if !compact { span.rll-hint { (text.hint) } }
                }
            }
        }
    }
}

/// The few counters beside the stage ([`Live`]): compact [`Cards`] in their list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyCounters;

impl Live for KeyCounters {
    type State = CardsState;

    fn shape(&self, state: &CardsState) -> u64 {
        Cards { compact: true }.shape(state)
    }

    fn draw(&self, state: &CardsState, fill: &mut Fill) -> Markup {
        html! {
            dl.rll-cards.rll-key-counters data-testid="key-counters" aria-label=(KEY_COUNTERS_LABEL) {
                (Cards { compact: true }.draw(state, fill))
            }
        }
    }
}

/// Counters as cards, as markup, drawn once ([`Cards`]: a page that shows a finished
/// run, or a test).
pub fn cards_markup(
    fields: &[StatField],
    stats: &Stats,
    compact: bool,
    before: Option<&Stats>,
) -> Markup {
    draw_cards(&mut Fill::default(), fields, stats, before, compact)
}

/// The stats panel's heading, and its label for screen readers.
pub const PANEL_TITLE: &str = "What the provider saw";

/// The label of the few counters beside the stage, for screen readers.
pub const KEY_COUNTERS_LABEL: &str = "The counters that matter here";

/// The provider's peak in flight in the note under the counters.
pub const NOTE_PROVIDER: Slot = slot!("note-provider");
/// The provider's in-flight limit in the note.
pub const NOTE_LIMIT: Slot = slot!("note-limit");
/// The client's peak of answers awaited in the note.
pub const NOTE_CLIENT: Slot = slot!("note-client");

/// The run page's panel of every counter ([`Live`]): its heading, then each group's title
/// and cards, then the note on what the provider held beyond what the client awaited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panel;

/// What the [`Panel`] shows: a run's counters, and the provider's in-flight limit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PanelState {
    /// The run's counters.
    pub stats: Stats,
    /// The provider's in-flight limit.
    pub limit: u32,
}

/// True if the provider held more requests than the client awaited, which the note
/// under the counters explains.
fn held_more(stats: &Stats) -> bool {
    stats.max_inflight > stats.client_max_outstanding
}

impl Live for Panel {
    type State = PanelState;

    fn shape(&self, state: &PanelState) -> u64 {
        u64::from(held_more(&state.stats))
    }

    fn draw(&self, state: &PanelState, fill: &mut Fill) -> Markup {
        html! {
            section.rll-stats aria-label=(PANEL_TITLE) { (draw_panel(fill, &state.stats, state.limit)) }
        }
    }
}

/// The panel's heading, each group's title and cards, and the note, their live nodes
/// recorded in `fill`.
fn draw_panel(fill: &mut Fill, stats: &Stats, limit: u32) -> Markup {
    html! {
        h2 { (PANEL_TITLE) }
        @for (title, cards) in STAT_GROUPS {
            div.rll-group {
                h3 { (title) }
                dl.rll-cards { (draw_cards(fill, cards, stats, None, false)) }
            }
        }
        @if held_more(stats) {
            p.rll-callout data-testid="concurrency-note" {
                "The provider held "
                strong data-slot=(NOTE_PROVIDER) { (fill.text(NOTE_PROVIDER, stats.max_inflight.to_string())) }
                " requests at once (limit "
                span data-slot=(NOTE_LIMIT) { (fill.text(NOTE_LIMIT, limit.to_string())) }
                ") while the client awaited at most "
                strong data-slot=(NOTE_CLIENT) { (fill.text(NOTE_CLIENT, stats.client_max_outstanding.to_string())) }
                ". The difference is charges the client had stopped waiting for, still running."
            }
        }
    }
}

/// The panel of every counter, as markup ([`Panel`] draws it in its section): its
/// heading, each group's title and cards, and the note. `limit` is the provider's
/// in-flight limit.
pub fn panel_markup(stats: &Stats, limit: u32) -> Markup {
    draw_panel(&mut Fill::default(), stats, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_is_in_one_group_and_has_distinct_words() {
        let mut grouped: Vec<StatField> = STAT_GROUPS
            .iter()
            .flat_map(|(_, fields)| fields.iter().copied())
            .collect();
        grouped.sort();
        assert_eq!(grouped, StatField::ALL.to_vec());
        let mut labels: Vec<&str> = StatField::ALL
            .into_iter()
            .map(|f| stat_text(f).label)
            .collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), StatField::ALL.len());
    }

    #[test]
    fn a_card_shows_its_value_its_harm_and_the_change_since_the_run_before() {
        let stats = Stats {
            duplicates: 3,
            requests: 1_040,
            ..Stats::default()
        };
        let before = Stats {
            duplicates: 5,
            requests: 1_000,
            ..Stats::default()
        };
        let m = cards_markup(
            &[StatField::Duplicates, StatField::Requests],
            &stats,
            true,
            Some(&before),
        )
        .into_string();
        assert_eq!(m.matches("<div class=\"rll-card").count(), 2);
        assert!(m.starts_with("<div class=\"rll-card rll-harm\" data-slot=\"stat-card\" title=\"beyond a customer's first\"><dt>Extra charges<span class=\"rll-harm-mark\" data-slot=\"stat-mark\" aria-hidden=\"false\"> ⚠</span><span class=\"rll-sr\" data-slot=\"stat-sr\"> (harm)</span></dt>"), "{m}");
        assert!(m.contains("<span class=\"rll-value\" data-slot=\"stat-value\" data-stat=\"duplicates\">3</span><span class=\"rll-ghost-delta\" data-slot=\"stat-delta\" data-ghost=\"duplicates\">was 5 (−2)</span>"), "{m}");
        assert!(m.contains("<div class=\"rll-card\" data-slot=\"stat-card\" title=\"reached the provider\"><dt>Requests<span class=\"rll-harm-mark\" data-slot=\"stat-mark\" aria-hidden=\"true\"></span>"), "{m}");
        assert!(m.contains("data-stat=\"requests\">1,040</span><span class=\"rll-ghost-delta\" data-slot=\"stat-delta\" data-ghost=\"requests\">was 1,000 (+40)</span></dd>"), "{m}");
        // A full panel's card: its hint written out, no title, no change without a run before.
        let full = cards_markup(&[StatField::Requests], &stats, false, None).into_string();
        assert_eq!(full, "<div class=\"rll-card\" data-slot=\"stat-card\"><dt>Requests<span class=\"rll-harm-mark\" data-slot=\"stat-mark\" aria-hidden=\"true\"></span><span class=\"rll-sr\" data-slot=\"stat-sr\"></span></dt><dd><span class=\"rll-value\" data-slot=\"stat-value\" data-stat=\"requests\">1,040</span><span class=\"rll-hint\">reached the provider</span></dd></div>");
    }

    #[test]
    fn the_incident_hints_quote_the_cores_figures() {
        use sim::incident::{PEAK_SPAN_US, RECOVERED_PERCENT};
        assert_eq!(
            stat_text(StatField::IncidentPeakRate).hint,
            format!("requests/s, busiest {} ms", whole_ms(PEAK_SPAN_US))
        );
        assert_eq!(
            stat_text(StatField::RecoveryMs).hint,
            format!("until charges flow at {RECOVERED_PERCENT}% again")
        );
    }

    #[test]
    fn the_concurrency_note_appears_only_when_the_provider_held_more() {
        let held = Stats {
            max_inflight: 9,
            client_max_outstanding: 6,
            ..Stats::default()
        };
        let m = panel_markup(&held, 10).into_string();
        assert!(m.contains(r#"The provider held <strong data-slot="note-provider">9</strong> requests at once (limit <span data-slot="note-limit">10</span>) while the client awaited at most <strong data-slot="note-client">6</strong>."#), "{m}");
        let even = Stats {
            max_inflight: 6,
            ..held
        };
        assert!(!panel_markup(&even, 10)
            .into_string()
            .contains("concurrency-note"));
    }

    #[test]
    fn the_panel_holds_every_group_and_the_note_only_when_it_applies() {
        let mut stats = Stats::default();
        let quiet = panel_markup(&stats, 10).into_string();
        assert!(
            quiet.starts_with(&format!("<h2>{PANEL_TITLE}</h2>")),
            "{quiet}"
        );
        for (title, _) in STAT_GROUPS {
            assert!(
                quiet.contains(&html! { h3 { (title) } }.into_string()),
                "{title}"
            );
        }
        assert_eq!(quiet.matches("data-stat=").count(), StatField::ALL.len());
        assert!(!quiet.contains("concurrency-note"));
        stats.max_inflight = 12;
        stats.client_max_outstanding = 10;
        let noted = panel_markup(&stats, 10).into_string();
        assert!(noted.contains("data-testid=\"concurrency-note\""));
        assert!(noted.contains(
            r#"<strong data-slot="note-provider">12</strong> requests at once (limit <span data-slot="note-limit">10</span>)"#
        ));
    }

    /// Counters of a run part-way, with harm in them.
    fn busy() -> Stats {
        Stats {
            duplicates: 27,
            requests: 1_067,
            charges: 1_017,
            max_inflight: 9,
            client_max_outstanding: 7,
            rate_limited: 3,
            ..Stats::default()
        }
    }

    #[test]
    fn the_cards_and_the_panel_draw_what_they_fill() {
        let before = Stats {
            requests: 1_000,
            ..Stats::default()
        };
        for stats in [Stats::default(), busy()] {
            for (compact, before) in [(true, None), (false, Some(before.clone()))] {
                let state = CardsState {
                    fields: StatField::ALL.to_vec(),
                    stats: stats.clone(),
                    before,
                };
                crate::shared::live::check_drawn(&Cards { compact }, &state).unwrap();
            }
            let state = PanelState { stats, limit: 10 };
            crate::shared::live::check_drawn(&Panel, &state).unwrap();
        }
    }

    #[test]
    fn a_counter_that_moves_changes_only_its_own_writes() {
        let state = |stats| PanelState { stats, limit: 10 };
        let (a, mut b) = (busy(), busy());
        b.requests += 1;
        let fill = |s| {
            let mut fill = Fill::default();
            Panel.draw(&s, &mut fill);
            fill
        };
        let (fa, fb) = (fill(state(a.clone())), fill(state(b)));
        assert_eq!(Panel.shape(&state(a)), 1);
        let changed: Vec<_> = fb
            .changed_since(&fa)
            .map(|(hole, write)| (hole.slot, write.clone()))
            .collect();
        assert_eq!(
            changed,
            [(CARD_VALUE, crate::shared::live::Write::Text("1,068".into()))]
        );
    }

    #[test]
    fn the_check_finds_a_hole_drawn_without_its_slot() {
        /// Records a hole on a node it draws without the hole's slot.
        struct Liar;
        impl Live for Liar {
            type State = ();
            fn shape(&self, _: &()) -> u64 {
                0
            }
            fn draw(&self, _: &(), fill: &mut Fill) -> Markup {
                html! { span data-slot=(CARD_VALUE) { "1" } span { (fill.text(CARD_VALUE, "2".into())) } }
            }
        }
        let why = crate::shared::live::check_drawn(&Liar, &()).unwrap_err();
        assert!(why.contains("filled with Text(\"2\")"), "{why}");
    }
}
