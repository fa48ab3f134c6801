//! One experiment's result: what it shows in a sentence, a visual, and every number.

use super::burst_chart::BurstChart;
use super::cells::Cells;
use super::herd_chart::HerdChart;
use crate::page::format::percent;
use crate::page::format::{count, duration_ms};
use crate::page::lab::units::{correct_text, naive_text};
use crate::page::lab::{cells, round_ms};
use crate::sim::lab::LabResult;
use leptos::prelude::*;

fn ms(us: u64) -> String {
    duration_ms(us / 1_000)
}

/// A bar whose length is `value` on a log scale up to `peak`: the clients and memory
/// experiments compare numbers thousands of times apart.
fn log_bar(value: u64, peak: u64) -> impl IntoView {
    let w = 100.0 * (value.max(1) as f64).ln() / (peak.max(2) as f64).ln();
    view! { <td><span class="rll-hbar" style:width=percent(w)></span></td> }
}

/// "second" for a one-second window, else the duration: "per second", "per 1.5 s".
fn per(window_us: u64) -> String {
    if window_us == 1_000_000 {
        "second".into()
    } else {
        ms(window_us)
    }
}

/// The result of one experiment.
#[component]
pub fn ExperimentView(
    /// The experiment's result.
    result: LabResult,
) -> impl IntoView {
    let cells = cells(&result);
    let body = match result {
        LabResult::Burst(r) => {
            let lane = |k: &str| r.lanes.iter().find(|l| l.limiter.as_str() == k).map_or(0, |l| l.accepted);
            let per_volley = r.lanes.first().map_or(0, |l| l.marks.len() / 2);
            let lead = format!(
                "{per_volley} requests just before a window boundary and {per_volley} just after, against a limit of {} per {}. \
                 The fixed window starts counting again at the boundary and accepts {}: twice the limit within {}. \
                 The sliding log still remembers the first volley and accepts {}. The token bucket accepts {}: \
                 the extra one is refill that really happened between the volleys.",
                r.limit,
                per(r.window_us),
                lane("fixed"),
                // Rounded as the cells round it, so the sentence and the numbers agree.
                duration_ms(round_ms(r.span_us)),
                lane("sliding"),
                lane("bucket"),
            );
            view! { <p>{lead}</p><BurstChart result=r/> }.into_any()
        }
        LabResult::Units(r) => view! {
            <p>
                "The same instruction, “wait " {r.wait_s} " s”, written the four ways servers write it, read by a client that does "
                <code>"Number(value) × 1000"</code> " and by one that reads each form by its rules. Two of the naive readings fail "
                "silently: NaN fires a timer at once, and an epoch read as a delay sleeps for decades."
            </p>
            <div class="rll-table-scroll">
                <table>
                    <thead><tr><th scope="col">"header"</th><th scope="col">"value"</th><th scope="col">"naive"</th><th scope="col">"careful"</th></tr></thead>
                    <tbody>
                        {r.rows
                            .into_iter()
                            .map(|row| {
                                let wrong = row.naive_wait_us != Some(row.correct_wait_us);
                                let (naive, correct) = (naive_text(&row), correct_text(&row));
                                view! {
                                    <tr>
                                        <th scope="row">{row.header}</th>
                                        <td><code>{row.value}</code></td>
                                        <td class:rll-harm-cell=wrong>{naive}{wrong.then_some(" ⚠")}</td>
                                        <td>{correct}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        }
        .into_any(),
        LabResult::Clients(r) => {
            let peak = r.runs.iter().map(|c| c.sent).max().unwrap_or(1);
            view! {
                <p>
                    {format!(
                        "{} calls to make against a bucket of {} refilled at {} per {}, over a {} µs round trip. \
                         All three clients finish in about the same time; the blind one sends {}× the obedient one's traffic.",
                        r.calls, r.capacity, r.limit, per(r.window_us), r.round_trip_us, count(r.traffic_ratio)
                    )}
                </p>
                <div class="rll-table-scroll">
                    <table>
                        <thead><tr><th scope="col">"client"</th><th scope="col">"sent"</th><th scope="col">"429s"</th><th scope="col">"wall time"</th><th scope="col">"requests sent (log scale)"</th></tr></thead>
                        <tbody>
                            {r.runs
                                .into_iter()
                                .map(|c| {
                                    let flooded = c.rate_limited * 10 > c.sent;
                                    view! {
                                        <tr>
                                            <th scope="row">{c.strategy.as_str()}</th>
                                            <td class="rll-num">{count(c.sent)}</td>
                                            <td class="rll-num" class:rll-harm-cell=flooded>{count(c.rate_limited)}</td>
                                            <td class="rll-num">{ms(c.wall_us)}</td>
                                            {log_bar(c.sent, peak)}
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            }
            .into_any()
        }
        LabResult::Neighbour(r) => {
            let cases = [("one global bucket", r.global), ("a bucket per key", r.per_key)];
            view! {
                <p>
                    "One caller floods, two send a little, all within " {ms(r.span_us)} ". The noisy caller is throttled the same "
                    "either way; what changes is what happens to everyone else."
                </p>
                <div class="rll-table-scroll">
                    <table>
                        <thead>
                            <tr>
                                <th scope="col">"scope"</th>
                                {cases[0].1.tallies.iter().map(|t| view! { <th scope="col">{t.caller.clone()}</th> }).collect_view()}
                            </tr>
                        </thead>
                        <tbody>
                            {cases
                                .into_iter()
                                .map(|(name, case)| {
                                    view! {
                                        <tr>
                                            <th scope="row">{name}</th>
                                            {case
                                                .tallies
                                                .into_iter()
                                                .map(|t| {
                                                    let starved = t.ok == 0;
                                                    view! { <td class:rll-harm-cell=starved>{format!("{} ok / {} × 429", t.ok, t.rate_limited)}{starved.then_some(" ⚠")}</td> }
                                                })
                                                .collect_view()}
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            }
            .into_any()
        }
        LabResult::Memory(r) => {
            let peak = r.rows.iter().map(|m| m.total_bytes).max().unwrap_or(1);
            view! {
                <p>
                    {format!(
                        "Remembering {} callers at {} requests per window, counted from this lab's own state types. \
                         The sliding log keeps every instant, so it costs {}× the token bucket.",
                        count(r.callers.into()), count(r.per_window.into()), count(r.log_to_bucket_ratio)
                    )}
                </p>
                <div class="rll-table-scroll">
                    <table>
                        <thead><tr><th scope="col">"limiter"</th><th scope="col">"bytes per caller"</th><th scope="col">"total bytes"</th><th scope="col">"(log scale)"</th></tr></thead>
                        <tbody>
                            {r.rows
                                .into_iter()
                                .map(|m| {
                                    view! {
                                        <tr>
                                            <th scope="row">{m.limiter.as_str()}</th>
                                            <td class="rll-num">{count(m.per_caller_bytes)}</td>
                                            <td class="rll-num">{count(m.total_bytes)}</td>
                                            {log_bar(m.total_bytes, peak)}
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
                <p class="rll-caption">"Counted: integer state and key bytes. Not counted: map nodes, pointers, spare capacity, allocator overhead."</p>
            }
            .into_any()
        }
        LabResult::Herd(r) => {
            let lead = format!(
                "{} clients are refused at the same instant and all read a {} Retry-After. Without jitter they all \
                 come back in the same millisecond ({} at once); with full jitter (wait + a random part of the wait) \
                 the peak is {} per millisecond.",
                r.clients,
                ms(r.retry_after_us),
                r.no_jitter.peak_per_ms,
                r.full_jitter.peak_per_ms
            );
            view! { <p>{lead}</p><HerdChart result=r/> }.into_any()
        }
    };
    view! {
        <div class="rll-experiment">
            {body}
            <Cells cells/>
        </div>
    }
}
