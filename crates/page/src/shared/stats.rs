//! How each stat is named for readers: a label, a hint, and the panel's groups. The
//! fields themselves, their JSON names and which are harm are the core's
//! ([`StatField`]); a new field fails to compile here until it has its words. The cards
//! and the panel of every counter are markup ([`cards_markup`], [`panel_markup`]).

use crate::shared::format::count;
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

/// Counters as cards, as markup: each its label, harm marked in colour, a sign and words
/// for screen readers, its value (`data-stat`, the JSON name), the change since `before`
/// (a kept previous run) and, unless `compact` (where the hint is the card's title), a
/// hint of what it counts.
pub fn cards_markup(
    fields: &[StatField],
    stats: &Stats,
    compact: bool,
    before: Option<&Stats>,
) -> Markup {
    html! {
        @for &field in fields {
            @let text = stat_text(field);
            @let harmed = stats.harmed(field);
            @let name = field.as_str();
            @let value = stats.get(field);
            div.rll-card.rll-harm[harmed] title=[compact.then_some(text.hint)] {
                dt {
                    (text.label)
                    span.rll-harm-mark aria-hidden=(!harmed) { @if harmed { " ⚠" } }
                    span.rll-sr { @if harmed { " (harm)" } }
                }
                dd {
                    span.rll-value data-stat=(name) { (count(value)) }
                    @if let Some(b) = before {
                        span.rll-ghost-delta data-ghost=(name) { (delta_text(b.get(field), value)) }
                    }
                    @if !compact { span.rll-hint { (text.hint) } }
                }
            }
        }
    }
}

/// The stats panel's heading, and its label for screen readers.
pub const PANEL_TITLE: &str = "What the provider saw";

/// The label of the few counters beside the stage, for screen readers.
pub const KEY_COUNTERS_LABEL: &str = "The counters that matter here";

/// The run page's panel of every counter, as markup: its heading, then each group's title
/// and cards, then the note on what the provider held beyond what the client awaited.
/// `limit` is the provider's in-flight limit.
pub fn panel_markup(stats: &Stats, limit: u32) -> Markup {
    html! {
        h2 { (PANEL_TITLE) }
        @for (title, cards) in STAT_GROUPS {
            div.rll-group {
                h3 { (title) }
                dl.rll-cards { (cards_markup(cards, stats, false, None)) }
            }
        }
        @if let Some(note) = concurrency_note_markup(stats, limit) {
            p.rll-callout data-testid="concurrency-note" { (note) }
        }
    }
}

/// The note under the counters when the provider held more requests than the client was
/// awaiting (the difference is charges the client stopped waiting for that kept running),
/// as markup; `None` when it did not. `limit` is the provider's in-flight limit.
pub fn concurrency_note_markup(stats: &Stats, limit: u32) -> Option<Markup> {
    let (provider, client) = (stats.max_inflight, stats.client_max_outstanding);
    (provider > client).then(|| {
        html! {
            "The provider held " strong { (provider) } " requests at once (limit " (limit)
            ") while the client awaited at most " strong { (client) }
            ". The difference is charges the client had stopped waiting for, still running."
        }
    })
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
        assert!(m.starts_with("<div class=\"rll-card rll-harm\" title=\"beyond a customer's first\"><dt>Extra charges<span class=\"rll-harm-mark\" aria-hidden=\"false\"> ⚠</span><span class=\"rll-sr\"> (harm)</span></dt>"), "{m}");
        assert!(m.contains("<span class=\"rll-value\" data-stat=\"duplicates\">3</span><span class=\"rll-ghost-delta\" data-ghost=\"duplicates\">was 5 (−2)</span>"), "{m}");
        assert!(m.contains("<div class=\"rll-card\" title=\"reached the provider\"><dt>Requests<span class=\"rll-harm-mark\" aria-hidden=\"true\"></span>"), "{m}");
        assert!(m.contains("data-stat=\"requests\">1,040</span><span class=\"rll-ghost-delta\" data-ghost=\"requests\">was 1,000 (+40)</span></dd>"), "{m}");
        // A full panel's card: its hint written out, no title, no change without a run before.
        let full = cards_markup(&[StatField::Requests], &stats, false, None).into_string();
        assert_eq!(full, "<div class=\"rll-card\"><dt>Requests<span class=\"rll-harm-mark\" aria-hidden=\"true\"></span><span class=\"rll-sr\"></span></dt><dd><span class=\"rll-value\" data-stat=\"requests\">1,040</span><span class=\"rll-hint\">reached the provider</span></dd></div>");
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
        let m = concurrency_note_markup(&held, 10).unwrap().into_string();
        assert!(m.starts_with("The provider held <strong>9</strong> requests at once (limit 10) while the client awaited at most <strong>6</strong>."), "{m}");
        let even = Stats {
            max_inflight: 6,
            ..held
        };
        assert!(concurrency_note_markup(&even, 10).is_none());
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
        assert!(noted.contains("<strong>12</strong> requests at once (limit 10)"));
    }
}
