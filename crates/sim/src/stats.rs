//! The stats panel: what the provider and the client saw, as one flat object.

use super::flow::Flow;
use super::incident::{IncidentMeter, IncidentPlan};
use super::time::whole_ms;
use super::waits::Waits;
use serde::ser::{Serialize, SerializeStruct, Serializer};

/// What the client side has counted so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientCounters {
    /// Requests sent for a customer who had already received a 400.
    pub retried_declined: u64,
    /// Customers whose client ran out of attempts.
    pub gave_up: u64,
    /// Requests awaited right now.
    pub outstanding: u32,
    /// The most requests awaited at once.
    pub max_outstanding: u32,
    /// Charges finished, whatever their outcome.
    pub customers_done: u64,
    /// When the last charge finished.
    pub last_finish_us: u64,
    /// Retries the retry budget refused.
    pub budget_exhausted: u64,
    /// Times the circuit breaker opened.
    pub breaker_opens: u64,
    /// The highest adaptive concurrency limit at a send.
    pub concurrency_peak: u32,
    /// The adaptive limits at every send, summed, and how many sends.
    pub concurrency_sum: u64,
    /// Sends counted in `concurrency_sum`.
    pub concurrency_sends: u64,
    /// What every finished customer waited, from its arrival to its charge's end.
    pub waits: Waits,
    /// Arrivals, requests and goodput, second by second.
    pub flow: Flow,
    /// Customers told they were charged by an answer stored before the run began (last
    /// month's, replayed under a key sent again), with no money moved.
    pub lost_to_reused_key: u64,
    /// Customers whose client gave up and who were charged all the same, so far.
    pub gave_up_charged: u64,
}

macro_rules! stat_table {
    ($(
        $(#[$doc:meta])*
        $variant:ident $field:ident: $ty:ty = $json:literal, harm: $harm:literal;
    )+) => {
        /// The stats of a run. Its fields, their JSON names and which of them are harm
        /// come from one table ([`StatField`]).
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct Stats {
            $( $(#[$doc])* pub $field: $ty, )+
        }

        crate::named_enum! {
            /// A field of [`Stats`], named as in the JSON, `data-stat` and `lastRun`.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
            pub enum StatField as "stat" {
                $( $(#[$doc])* $variant = $json ),+
            }
        }

        impl StatField {
            /// True if any non-zero value means something went wrong for someone: an
            /// extra charge, a storm of refusals, a charge given up on.
            pub const fn is_harm(self) -> bool {
                match self {
                    $( StatField::$variant => $harm ),+
                }
            }
        }

        impl Stats {
            /// The value of one field.
            pub fn get(&self, field: StatField) -> u64 {
                match field {
                    $( StatField::$variant => u64::from(self.$field) ),+
                }
            }

            /// Every field's value, in table order ([`StatField::ALL`]): a flat form a
            /// run's stats cross a thread in, read back by [`Stats::from_values`].
            pub fn values(&self) -> Vec<u64> {
                StatField::ALL.iter().map(|&f| self.get(f)).collect()
            }

            /// Stats from [`Stats::values`]: `None` if there are too few values or one
            /// does not fit its field.
            pub fn from_values(values: &[u64]) -> Option<Stats> {
                let mut values = values.iter().copied();
                Some(Stats {
                    $( $field: <$ty>::try_from(values.next()?).ok()?, )+
                })
            }
        }
    };
}

stat_table! {
    /// Every request that reached the provider.
    Requests requests: u64 = "requests", harm: false;
    /// Charge operations performed: money moved.
    Charges charges: u64 = "charges", harm: false;
    /// Distinct customers charged.
    CustomersCharged customers_charged: u64 = "customersCharged", harm: false;
    /// Charges beyond the first for the same customer.
    Duplicates duplicates: u64 = "duplicates", harm: true;
    /// Peak number of admitted requests being processed at once.
    MaxInflight max_inflight: u32 = "maxInflight", harm: false;
    /// 429 answers.
    RateLimited rate_limited: u64 = "rateLimited", harm: true;
    /// 503 answers.
    Overloaded overloaded: u64 = "overloaded", harm: true;
    /// 500 answers.
    ServerErrors server_errors: u64 = "serverErrors", harm: false;
    /// Requests that took the slow latency.
    Slow slow: u64 = "slow", harm: false;
    /// 409 answers.
    InProgressConflicts in_progress_conflicts: u64 = "inProgressConflicts", harm: false;
    /// 400 answers.
    Declined declined: u64 = "declined", harm: false;
    /// Answers replayed from the idempotency store.
    Replayed replayed: u64 = "replayed", harm: false;
    /// Requests sent for a customer who had already received a 400.
    RetriedDeclined retried_declined: u64 = "retriedDeclined", harm: true;
    /// Customers whose client ran out of attempts.
    GaveUp gave_up: u64 = "gaveUp", harm: true;
    /// The most requests the client awaited at once.
    ClientMaxOutstanding client_max_outstanding: u32 = "clientMaxOutstanding", harm: false;
    /// Simulated time until the last client finished, in whole milliseconds.
    ElapsedMs elapsed_ms: u64 = "elapsedMs", harm: false;
    /// Requests per 100 charges, rounded (0 when nothing was charged): what the strategy
    /// pays in traffic for the money it moves.
    RequestsPer100Charges requests_per_100_charges: u64 = "requestsPer100Charges", harm: false;
    /// Requests that reached the provider during the incident.
    IncidentRequests incident_requests: u64 = "incidentRequests", harm: false;
    /// The highest request rate in any 100 ms of the incident, per second.
    IncidentPeakRate incident_peak_rate: u64 = "incidentPeakRate", harm: false;
    /// From the incident's end until charges flow at 90% of their rate before it, in
    /// whole milliseconds (see [`IncidentMeter`](super::incident::IncidentMeter)).
    RecoveryMs recovery_ms: u64 = "recoveryMs", harm: false;
    /// Retries the retry budget refused; each left its charge given up.
    BudgetExhausted budget_exhausted: u64 = "budgetExhausted", harm: true;
    /// Times the client's circuit breaker opened.
    BreakerOpens breaker_opens: u64 = "breakerOpens", harm: false;
    /// The adaptive client's highest concurrency limit at a send (0 for the others).
    ConcurrencyPeak concurrency_peak: u32 = "concurrencyPeak", harm: false;
    /// The adaptive client's concurrency limit averaged over its sends, rounded.
    ConcurrencyMean concurrency_mean: u64 = "concurrencyMean", harm: false;
    /// What the median customer waited from its arrival to its charge's end (charged,
    /// declined or given up on), in whole milliseconds: the nearest rank in a histogram
    /// exact below 1,024 ms and within 1/512 above ([`Waits`]).
    WaitP50Ms wait_p50_ms: u64 = "waitP50Ms", harm: false;
    /// The 99th percentile of the customers' waits, as [`Stats::wait_p50_ms`].
    WaitP99Ms wait_p99_ms: u64 = "waitP99Ms", harm: false;
    /// The longest any customer waited, in whole milliseconds, exactly.
    WaitMaxMs wait_max_ms: u64 = "waitMaxMs", harm: false;
    /// Requests sent per customer arrived, in hundredths: the traffic each customer
    /// costs, retries included ([`Flow::amplification_hundredths`]).
    RequestsPer100Customers requests_per_100_customers: u64 = "requestsPer100Customers", harm: false;
    /// From the incident's end until the client learns of charges at 90% of the rate
    /// customers arrive, and goes on doing so, in whole milliseconds
    /// ([`Flow::recovery_ms`]).
    GoodputRecoveryMs goodput_recovery_ms: u64 = "goodputRecoveryMs", harm: false;
    /// Of the seconds from the incident's end to the last arrival, the share in percent
    /// whose next three seconds held at least 90% of their arrivals in goodput
    /// ([`Flow::up_percent`]).
    GoodputUpPercent goodput_up_percent: u64 = "goodputUpPercent", harm: false;
    /// 422 answers: a key sent again with another body.
    KeyReused key_reused: u64 = "keyReused", harm: true;
    /// Customers told they were charged by an answer stored before this run (last
    /// month's, under a key sent again), with no money moved: charges lost.
    LostToReusedKey lost_to_reused_key: u64 = "lostToReusedKey", harm: true;
    /// Customers whose client gave up, charged all the same (by a request it had stopped
    /// waiting for): told the charge failed, when it went through.
    GaveUpCharged gave_up_charged: u64 = "gaveUpCharged", harm: true;
}

/// Every field under its JSON name, in table order: the CLI's JSON and the page's
/// `lastRun` both come from here.
impl Serialize for Stats {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Stats", StatField::ALL.len())?;
        for field in StatField::ALL {
            out.serialize_field(field.as_str(), &self.get(field))?;
        }
        out.end()
    }
}

impl Stats {
    /// The provider's counters (`provider`, whose client fields are 0) with the
    /// client's filled in.
    pub fn with_client(provider: &Stats, c: &ClientCounters) -> Self {
        Self {
            retried_declined: c.retried_declined,
            gave_up: c.gave_up,
            client_max_outstanding: c.max_outstanding,
            elapsed_ms: whole_ms(c.last_finish_us),
            budget_exhausted: c.budget_exhausted,
            breaker_opens: c.breaker_opens,
            concurrency_peak: c.concurrency_peak,
            concurrency_mean: mean(c.concurrency_sum, c.concurrency_sends),
            lost_to_reused_key: c.lost_to_reused_key,
            gave_up_charged: c.gave_up_charged,
            ..provider.clone()
        }
        .with_waits(&c.waits)
    }

    /// Fills in the three wait fields from `waits`.
    pub fn with_waits(self, waits: &Waits) -> Self {
        Self {
            wait_p50_ms: waits.percentile_ms(50),
            wait_p99_ms: waits.percentile_ms(99),
            wait_max_ms: waits.max_ms(),
            ..self
        }
    }

    /// Fills in the fields that come from the run's seconds.
    pub fn with_flow(self, flow: &Flow, incident: &IncidentPlan) -> Self {
        Self {
            requests_per_100_customers: flow.amplification_hundredths(),
            goodput_recovery_ms: flow.recovery_ms(incident),
            goodput_up_percent: flow.up_percent(incident),
            ..self
        }
    }

    /// True if goodput came back after `incident` ([`Stats::goodput_recovery_ms`] is a
    /// recovery, not the lower bound of one that never came): a recovery that came starts
    /// at a second in which some charge ended, so no later than the last customer's end
    /// (`elapsed_ms`); the lower bound runs to the end of the run's last second, after it.
    pub fn goodput_came_back(&self, incident: &IncidentPlan) -> bool {
        whole_ms(incident.end_us()) + self.goodput_recovery_ms <= self.elapsed_ms
    }

    /// Fills in the fields derived from the others and from the incident's meter.
    pub fn with_derived(self, meter: &IncidentMeter, last_finish_us: u64) -> Self {
        Self {
            requests_per_100_charges: self.requests_per_charge_hundredths().unwrap_or(0),
            incident_requests: meter.requests(),
            incident_peak_rate: meter.peak_rate_per_s(),
            recovery_ms: meter.recovery_ms(last_finish_us),
            ..self
        }
    }

    /// True if `field` is a harm and this run has any of it: someone was hurt.
    pub fn harmed(&self, field: StatField) -> bool {
        field.is_harm() && self.get(field) > 0
    }

    /// Requests sent per charge made, in hundredths and rounded (`None` when nothing
    /// was charged): what each strategy pays in traffic for the money it moves.
    pub fn requests_per_charge_hundredths(&self) -> Option<u64> {
        (self.charges > 0).then(|| (self.requests * 100 + self.charges / 2) / self.charges)
    }
}

/// `sum / n`, rounded half up (0 for no values).
pub(crate) fn mean(sum: u64, n: u64) -> u64 {
    (sum + n / 2).checked_div(n).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_cross_as_their_values_and_come_back_whole() {
        let mut sim = crate::Simulation::new(&crate::Scenario::article(
            crate::StrategyName::TimeoutNoKey,
            3,
        ))
        .unwrap();
        let stats = sim.run_to_end();
        let values = stats.values();
        assert_eq!(values.len(), StatField::ALL.len());
        assert_eq!(Stats::from_values(&values), Some(stats.clone()));
        assert_eq!(Stats::from_values(&values[1..]), None, "one value short");
        let mut wide = values.clone();
        let at = StatField::ALL
            .iter()
            .position(|&f| f == StatField::MaxInflight)
            .unwrap();
        wide[at] = u64::from(u32::MAX) + 1;
        assert_eq!(
            Stats::from_values(&wide),
            None,
            "a value too wide for its field"
        );
    }

    #[test]
    fn the_json_holds_every_field_by_its_name_in_table_order() {
        let s = Stats {
            duplicates: 3,
            max_inflight: 9,
            ..Stats::default()
        };
        let json = serde_json::to_value(&s).unwrap();
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), StatField::ALL.len());
        assert_eq!(json["duplicates"], 3);
        assert_eq!(json["maxInflight"], 9);
        let text = serde_json::to_string(&s).unwrap();
        let order: Vec<usize> = StatField::NAMES
            .iter()
            .map(|n| text.find(&format!("\"{n}\"")).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    }

    #[test]
    fn harm_is_the_nine_fields_where_any_count_hurts_someone() {
        // The incident's fields are measures, not harm: any run sends requests during an
        // incident, and a recovery time of 0 is as good as it gets, not a count of hurt.
        let harm: Vec<&str> = StatField::ALL
            .into_iter()
            .filter(|f| f.is_harm())
            .map(StatField::as_str)
            .collect();
        assert_eq!(
            harm,
            [
                "duplicates",
                "rateLimited",
                "overloaded",
                "retriedDeclined",
                "gaveUp",
                "budgetExhausted",
                "keyReused",
                "lostToReusedKey",
                "gaveUpCharged"
            ]
        );
    }

    #[test]
    fn requests_per_charge_rounds_and_is_none_without_charges() {
        let s = Stats {
            requests: 1_084,
            charges: 990,
            ..Stats::default()
        };
        assert_eq!(s.requests_per_charge_hundredths(), Some(109));
        assert_eq!(Stats::default().requests_per_charge_hundredths(), None);
        assert!(!s.harmed(StatField::Requests) && !s.harmed(StatField::Duplicates));
        let hurt = Stats {
            duplicates: 1,
            ..Stats::default()
        };
        assert!(hurt.harmed(StatField::Duplicates));
    }
}
