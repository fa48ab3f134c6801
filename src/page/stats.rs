//! How each stat is named for readers: a label, a hint, and the panel's groups. The
//! fields themselves, their JSON names and which are harm are the core's
//! ([`StatField`]); a new field fails to compile here until it has its words.

use crate::sim::incident;
use crate::sim::time::whole_ms;
use crate::sim::StatField;

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

/// The words for `field`.
pub const fn stat_text(field: StatField) -> StatText {
    let (label, hint) = match field {
        StatField::Requests => ("Requests", "reached the provider"),
        StatField::Charges => ("Charges", "times money moved"),
        StatField::CustomersCharged => ("Customers charged", "distinct customers"),
        StatField::Duplicates => ("Extra charges", "beyond a customer's first"),
        StatField::MaxInflight => ("Provider peak in flight", "admitted and still processing"),
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
    };
    StatText { label, hint }
}

/// The stats panel's groups, in order, each with its title.
pub const STAT_GROUPS: [(&str, &[StatField]); 5] = [
    (
        "Money",
        &[
            StatField::Charges,
            StatField::CustomersCharged,
            StatField::Duplicates,
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
            StatField::RetriedDeclined,
            StatField::RequestsPer100Charges,
            StatField::BudgetExhausted,
            StatField::BreakerOpens,
            StatField::ElapsedMs,
        ],
    ),
    (
        "The incident",
        &[
            StatField::IncidentRequests,
            StatField::IncidentPeakRate,
            StatField::RecoveryMs,
        ],
    ),
];

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
    fn the_incident_hints_quote_the_cores_figures() {
        use crate::sim::incident::{PEAK_SPAN_US, RECOVERED_PERCENT};
        assert_eq!(
            stat_text(StatField::IncidentPeakRate).hint,
            format!("requests/s, busiest {} ms", whole_ms(PEAK_SPAN_US))
        );
        assert_eq!(
            stat_text(StatField::RecoveryMs).hint,
            format!("until charges flow at {RECOVERED_PERCENT}% again")
        );
    }
}
