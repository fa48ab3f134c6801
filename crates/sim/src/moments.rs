//! A finished run seen at any instant, and the instants worth stopping at: derived from
//! its record (the single source of truth), never by running it again.

use super::incident::IncidentPlan;
use super::provider::Status;
use super::record::{Admission, ClientView, RequestRecord};
use super::stats::Stats;
use super::traffic::Arrivals;
use super::world::{ClientEnd, Fate, Snapshot};

crate::named_enum! {
    /// Something that hurt someone, at the instant it happened.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Harm as "harm" {
        /// A 429 or 503 after an answer that was neither: a storm of refusals starts.
        Storm = "storm",
        /// A charge beyond the first for the same customer.
        DoubleCharge = "double-charge",
        /// A 409: a retry arrived while the first attempt still ran.
        Conflict = "conflict",
        /// A customer's money moved, and their client gave up: it thinks the charge failed.
        ChargedAfterGivingUp = "charged-after-giving-up",
    }
}

/// One harmful instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HarmMoment {
    /// When it happened.
    pub at_us: u64,
    /// What happened.
    pub harm: Harm,
    /// To whom.
    pub customer: u32,
}

/// When each customer's client finished (`None`: not in the record, or still waiting),
/// with the last request it sent. Index `customer − 1`.
fn last_requests(record: &[RequestRecord], customers: u32) -> Vec<Option<&RequestRecord>> {
    let mut last = vec![None; customers as usize];
    for r in record {
        if let Some(slot) = last.get_mut(r.customer as usize - 1) {
            *slot = Some(r);
        }
    }
    last
}

/// Every customer's fate as it stood at `t_us` (index `customer − 1`), from a finished
/// run's record: what `Simulation::run_until(t_us)` then `fates()` shows.
pub fn fates_at(record: &[RequestRecord], customers: u32, t_us: u64) -> Vec<Fate> {
    let mut charges = vec![0u32; customers as usize];
    for r in record {
        if r.charged && r.done_at_us <= t_us {
            charges[r.customer as usize - 1] += 1;
        }
    }
    last_requests(record, customers)
        .into_iter()
        .zip(charges)
        .map(|(last, n)| {
            // Once the client is done: its final answer, or that it gave up.
            let end = last.map_or(ClientEnd::NotYet, |r| match r.client {
                ClientView::Answered { status, at_us } if at_us <= t_us => {
                    if status.is_final() {
                        ClientEnd::Final(status)
                    } else {
                        ClientEnd::GaveUp
                    }
                }
                ClientView::TimedOut { at_us } if at_us <= t_us => ClientEnd::GaveUp,
                _ => ClientEnd::NotYet,
            });
            Fate::of(n, end)
        })
        .collect()
}

/// A view of a finished run as it stood at `t_us`, from its record: what
/// `Simulation::run_until(t_us)` then `snapshot()` showed (its clock reads `t_us`).
pub fn snapshot_at(
    record: &[RequestRecord],
    arrivals: &Arrivals,
    incident: &IncidentPlan,
    t_us: u64,
) -> Snapshot {
    let customers = arrivals.customers();
    let customers_done = last_requests(record, customers)
        .into_iter()
        .filter(|last| last.is_some_and(|r| r.client.at_us().is_some_and(|at| at <= t_us)))
        .count() as u64;
    let sent = record.iter().take_while(|r| r.sent_at_us <= t_us);
    let (mut inflight, mut outstanding) = (0, 0);
    for r in sent {
        let admitted = matches!(r.admission, Admission::Admitted { .. });
        inflight += u32::from(admitted && r.done_at_us > t_us);
        outstanding += u32::from(r.client.at_us().is_none_or(|at| at > t_us));
    }
    Snapshot {
        now_us: t_us,
        stats: Stats::at(record, t_us, incident, arrivals),
        customers_done,
        customers,
        inflight,
        outstanding,
        finished: customers_done == u64::from(customers) && inflight == 0,
    }
}

/// The instants the client sent a request, in order (a finished run's record).
pub fn request_times(record: &[RequestRecord]) -> Vec<u64> {
    let mut times: Vec<u64> = record.iter().map(|r| r.sent_at_us).collect();
    times.dedup();
    times
}

/// The instants a step between requests lands on: each send rounded up to its whole
/// millisecond (the unit of the playhead's slider and of `ratelab charges --until-ms`,
/// so a step shows an instant the command line can name), in order, once each.
pub fn step_times(record: &[RequestRecord]) -> Vec<u64> {
    let mut times = request_times(record);
    for t in &mut times {
        *t = t.div_ceil(1_000) * 1_000;
    }
    times.dedup();
    times
}

/// The requests a step to `t_us` (a whole millisecond, [`step_times`]) lands on: those
/// sent in the millisecond up to it.
pub fn sent_by_step(record: &[RequestRecord], t_us: u64) -> &[RequestRecord] {
    let from = record.partition_point(|r| r.sent_at_us + 1_000 <= t_us);
    let to = record.partition_point(|r| r.sent_at_us <= t_us);
    &record[from..to.max(from)]
}

/// Every harmful instant of a finished run, sorted by time (at one instant, in the
/// order the provider answered, a give-up last).
pub fn harm_moments(record: &[RequestRecord], customers: u32) -> Vec<HarmMoment> {
    let mut out = Vec::new();
    let mut storming = false;
    // Answers in the order the provider gave them: refusals on arrival, others on
    // completion. (Sorted as `(u64, i32)` pairs, like the timeline's in-flight changes,
    // so the core has one sort routine for both.)
    let mut answers: Vec<(u64, i32)> = record
        .iter()
        .filter(|r| r.status.is_some())
        .map(|r| (r.done_at_us, r.request as i32))
        .collect();
    answers.sort_unstable();
    let n = customers as usize;
    let mut charges = vec![0u32; n];
    let mut first_charge_us = vec![None; n];
    for (_, i) in answers {
        let r = &record[i as usize];
        let refused = matches!(r.admission, Admission::Refused(_));
        if refused && !storming {
            out.push(HarmMoment {
                at_us: r.done_at_us,
                harm: Harm::Storm,
                customer: r.customer,
            });
        }
        storming = refused;
        if r.status == Some(Status::InProgress) {
            out.push(HarmMoment {
                at_us: r.done_at_us,
                harm: Harm::Conflict,
                customer: r.customer,
            });
        }
        if r.charged {
            let c = r.customer as usize - 1;
            charges[c] += 1;
            first_charge_us[c].get_or_insert(r.done_at_us);
            if charges[c] >= 2 {
                out.push(HarmMoment {
                    at_us: r.done_at_us,
                    harm: Harm::DoubleCharge,
                    customer: r.customer,
                });
            }
        }
    }
    let answered = out.len();
    for (i, last) in last_requests(record, customers).into_iter().enumerate() {
        let (Some(r), Some(charged_us)) = (last, first_charge_us[i]) else {
            continue;
        };
        let gave_up_us = match r.client {
            ClientView::Answered { status, .. } if status.is_final() => continue,
            ClientView::Waiting => continue,
            other => other.at_us().expect("answered or timed out"),
        };
        out.push(HarmMoment {
            at_us: gave_up_us.max(charged_us),
            harm: Harm::ChargedAfterGivingUp,
            customer: i as u32 + 1,
        });
    }
    if out.len() > answered {
        let mut order: Vec<(u64, i32)> = out
            .iter()
            .enumerate()
            .map(|(i, m)| (m.at_us, i as i32))
            .collect();
        order.sort_unstable();
        out = order.into_iter().map(|(_, i)| out[i as usize]).collect();
    }
    out
}

/// The first instant after `t_us` in `times` (sorted), if any.
pub fn next_after(times: impl IntoIterator<Item = u64>, t_us: u64) -> Option<u64> {
    times.into_iter().find(|&t| t > t_us)
}

/// The last instant before `t_us` in `times` (sorted), if any.
pub fn previous_before(times: impl IntoIterator<Item = u64>, t_us: u64) -> Option<u64> {
    times.into_iter().take_while(|&t| t < t_us).last()
}

/// One request as it stood at `t_us`: its answer, its charge and what its client saw
/// are kept only once they had happened by then (what the live record held at that
/// instant), so a run seen at a playhead does not show what came after.
pub fn record_at(r: &RequestRecord, t_us: u64) -> RequestRecord {
    let answered = r.done_at_us <= t_us;
    RequestRecord {
        status: r.status.filter(|_| answered),
        charged: r.charged && answered,
        client: match r.client {
            c if c.at_us().is_some_and(|at| at <= t_us) => c,
            _ => ClientView::Waiting,
        },
        ..*r
    }
}

/// When money moved for `customer` up to `t_us`, in order (a run's record).
pub fn charges_until(record: &[RequestRecord], customer: u32, t_us: u64) -> Vec<u64> {
    // A customer has a handful of charges at most: kept in order as they are found (an
    // insertion is enough for so short a list, and needs no second sort routine).
    let mut times: Vec<u64> = Vec::new();
    for r in record {
        if r.customer == customer && r.charged && r.done_at_us <= t_us {
            let at = times.partition_point(|&t| t <= r.done_at_us);
            times.insert(at, r.done_at_us);
        }
    }
    times
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Simulation, StrategyName};

    #[test]
    fn a_record_cut_at_an_instant_is_what_the_live_run_held_then() {
        for strategy in [StrategyName::TimeoutNoKey, StrategyName::Naive] {
            let scenario = Scenario::article(strategy, 3);
            let mut done = Simulation::new(&scenario).unwrap();
            done.run_to_end();
            let record = done.record().unwrap();
            let mut live = Simulation::new(&scenario).unwrap();
            let end = done.now_us();
            for t in (0..20).map(|i| end / 20 * i + 7) {
                live.run_until(t);
                let held = live.record().unwrap();
                let cut: Vec<RequestRecord> = record[..held.len()]
                    .iter()
                    .map(|r| record_at(r, t))
                    .collect();
                assert_eq!(cut, held, "{strategy} at {t} µs");
            }
        }
    }

    #[test]
    fn the_charges_until_an_instant_are_the_customers_own_in_order() {
        let scenario = Scenario::article(StrategyName::TimeoutNoKey, 1);
        let mut done = Simulation::new(&scenario).unwrap();
        done.run_to_end();
        let record = done.record().unwrap();
        let m = harm_moments(record, scenario.customers)
            .into_iter()
            .find(|m| m.harm == Harm::DoubleCharge)
            .unwrap();
        let times = charges_until(record, m.customer, m.at_us);
        assert_eq!(times.len(), 2, "{times:?}");
        assert_eq!(times[1], m.at_us);
        assert!(times[0] < times[1]);
        assert!(charges_until(record, m.customer, times[0] - 1).is_empty());
    }

    #[test]
    fn a_step_lands_on_the_millisecond_each_send_falls_in() {
        let scenario = Scenario::article(StrategyName::TimeoutNoKey, 1);
        let mut done = Simulation::new(&scenario).unwrap();
        done.run_to_end();
        let record = done.record().unwrap();
        let steps = step_times(record);
        assert!(steps.windows(2).all(|w| w[0] < w[1]));
        assert!(steps.iter().all(|t| t % 1_000 == 0));
        // Every request is in exactly one step's millisecond.
        let told: usize = steps.iter().map(|&t| sent_by_step(record, t).len()).sum();
        assert_eq!(told, record.len());
        for &t in &steps {
            let sent = sent_by_step(record, t);
            assert!(!sent.is_empty());
            assert!(sent
                .iter()
                .all(|r| r.sent_at_us <= t && r.sent_at_us + 1_000 > t));
        }
    }
}
