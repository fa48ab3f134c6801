//! One experiment: its knobs, what it shows in a sentence, a visual, and every number.
//! The knobs rerun it as they move; the knobs and the burst's chart stay put while the
//! rest is redrawn from the new result.

use super::burst_chart::BurstChart;
use super::burst_headers::BurstHeaders;
use super::cells::Cells;
use super::chart_width::{use_chart_width, MAX_CHART_W};
use super::herd_chart::HerdChart;
use super::knobs::LabKnobs;
use super::memory_chart::MemoryChart;
use crate::page::format::percent;
use crate::page::format::{count, duration_ms};
use crate::page::lab::clients::blind_retry;
use crate::page::lab::herd::{formula, verdict};
use crate::page::lab::settings::LabSettings;
use crate::page::lab::units::{correct_text, naive_text};
use crate::page::lab::{cells, round_ms};
use crate::sim::lab::herd::Jitter;
use crate::sim::lab::{ExperimentName, LabResult};
use leptos::html::Div;
use leptos::prelude::*;

fn ms(us: u64) -> String {
    duration_ms(us / 1_000)
}

/// A bar whose length is `value` on a log scale up to `peak`: the clients experiment
/// compares numbers thousands of times apart.
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

/// One experiment, rerun as its knobs move.
#[component]
pub fn ExperimentView(
    /// Which experiment.
    experiment: ExperimentName,
    /// Its result with the current settings, or why it could not run.
    result: Memo<Result<LabResult, String>>,
    /// Every knob's value.
    settings: RwSignal<LabSettings>,
    /// Called after a knob moved (to keep the address in step).
    changed: Callback<()>,
) -> impl IntoView {
    let box_ref = NodeRef::<Div>::new();
    let width = use_chart_width(box_ref);
    let chart_w = Signal::derive(move || width.get().map(|w| w.min(MAX_CHART_W)));
    let body = if experiment == ExperimentName::Burst {
        burst(result, settings, changed, width).into_any()
    } else {
        (move || match result.get() {
            Ok(r) => body(r, chart_w).into_any(),
            Err(_) => ().into_any(),
        })
        .into_any()
    };
    let shown_cells =
        Signal::derive(move || result.with(|r| r.as_ref().map(cells).unwrap_or_default()));
    view! {
        <div class="rll-experiment" node_ref=box_ref>
            <LabKnobs experiment settings changed/>
            {move || result.get().err().map(|why| view! { <p class="rll-field-help rll-error" data-testid="lab-error">{why}</p> })}
            {body}
            <Cells cells=shown_cells/>
        </div>
    }
}

/// The burst: its sentence, its chart (which stays mounted, so a drag is not lost when
/// the result changes) and the bucket's answers beside it.
fn burst(
    result: Memo<Result<LabResult, String>>,
    settings: RwSignal<LabSettings>,
    changed: Callback<()>,
    width: Signal<Option<f64>>,
) -> impl IntoView {
    let r = Signal::derive(move || match result.get() {
        Ok(LabResult::Burst(r)) => Some(r),
        _ => None,
    });
    // Wide enough, the answers sit beside the chart; else under it.
    let chart_w = Signal::derive(move || {
        width.get().map(|w| {
            if w >= 900.0 {
                (w - 300.0).min(MAX_CHART_W)
            } else {
                w.min(MAX_CHART_W)
            }
        })
    });
    let lead = move || {
        r.get().map(|r| {
            let lane = |k: &str| r.lanes.iter().find(|l| l.limiter.as_str() == k).map_or(0, |l| l.accepted);
            let per_volley = r.lanes.first().map_or(0, |l| l.marks.len() / 2);
            format!(
                "{per_volley} requests {} before a window boundary and {per_volley} more {} later, against a limit of {} per {}. \
                 The fixed window accepts {}, the sliding log {} and the token bucket {}, whose extra ones are refill that really \
                 happened between the volleys. All arrived within {}.",
                duration_ms(round_ms(r.boundary_us - r.first_volley_us)),
                duration_ms(round_ms(r.second_volley_us - r.first_volley_us)),
                r.limit,
                per(r.window_us),
                lane("fixed"),
                lane("sliding"),
                lane("bucket"),
                // Rounded as the cells round it, so the sentence and the numbers agree.
                duration_ms(round_ms(r.span_us)),
            )
        })
    };
    view! {
        <p data-testid="burst-lead">{lead}</p>
        <div class="rll-burst-row">
            <BurstChart result=r settings changed width=chart_w/>
            <BurstHeaders result=r/>
        </div>
    }
}

/// Every experiment but the burst, drawn from one result.
fn body(result: LabResult, chart_w: Signal<Option<f64>>) -> impl IntoView {
    match result {
        LabResult::Burst(_) => ().into_any(),
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
                        "{} calls to make against a bucket of {} refilled at {} per {}, over a {} µs round trip; the blind client retries {}. \
                         All three finish in about the same time; the blind one sends ",
                        r.calls, r.capacity, r.limit, per(r.window_us), r.round_trip_us, blind_retry(r.blind_pause_us)
                    )}
                    <strong data-testid="traffic-ratio">{format!("{}×", count(r.traffic_ratio))}</strong>
                    " the obedient one's traffic."
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
            let cases = [("one global bucket", "global", r.global), ("a bucket per key", "per-key", r.per_key)];
            let quiet = cases[0].2.tallies.len().saturating_sub(1);
            view! {
                <p>
                    {format!(
                        "One caller sends {} requests, then {quiet} quiet callers send {} each, all within {}. The noisy caller is \
                         throttled the same either way; what changes is what happens to everyone else.",
                        cases[0].2.tallies.first().map_or(0, |t| t.ok + t.rate_limited),
                        cases[0].2.tallies.get(1).map_or(0, |t| t.ok + t.rate_limited),
                        ms(r.span_us)
                    )}
                </p>
                <div class="rll-neighbour">
                    {cases
                        .into_iter()
                        .map(|(name, scope, case)| {
                            view! {
                                <div class="rll-table-scroll" data-scope=scope>
                                    <table>
                                        <caption>{name}</caption>
                                        <thead><tr><th scope="col">"caller"</th><th scope="col">"ok"</th><th scope="col">"429"</th></tr></thead>
                                        <tbody>
                                            {case
                                                .tallies
                                                .into_iter()
                                                .map(|t| {
                                                    let starved = t.ok == 0;
                                                    view! {
                                                        <tr>
                                                            <th scope="row">{t.caller}</th>
                                                            <td class="rll-num" class:rll-harm-cell=starved>{t.ok}{starved.then_some(" ⚠")}</td>
                                                            <td class="rll-num">{t.rate_limited}</td>
                                                        </tr>
                                                    }
                                                })
                                                .collect_view()}
                                        </tbody>
                                    </table>
                                </div>
                            }
                        })
                        .collect_view()}
                </div>
            }
            .into_any()
        }
        LabResult::Memory(r) => view! {
            <p>
                {format!(
                    "Remembering {} callers at {} requests per window, counted from this lab's own state types. \
                     The sliding log keeps every instant, so it costs ",
                    count(r.callers.into()), count(r.per_window.into())
                )}
                <strong data-testid="memory-ratio">{format!("{}×", count(r.log_to_bucket_ratio))}</strong>
                " the token bucket (each bar below is on a log axis: one step is ten times more)."
            </p>
            <MemoryChart result=r.clone() width=chart_w/>
            <div class="rll-table-scroll">
                <table>
                    <thead><tr><th scope="col">"limiter"</th><th scope="col">"bytes per caller"</th><th scope="col">"total bytes"</th></tr></thead>
                    <tbody>
                        {r.rows
                            .into_iter()
                            .map(|m| {
                                view! {
                                    <tr>
                                        <th scope="row">{m.limiter.as_str()}</th>
                                        <td class="rll-num">{count(m.per_caller_bytes)}</td>
                                        <td class="rll-num">{count(m.total_bytes)}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            <p class="rll-caption">"Counted: integer state and key bytes. Not counted: map nodes, pointers, spare capacity, allocator overhead."</p>
        }
        .into_any(),
        LabResult::Herd(r) => {
            let lead = format!(
                "{} clients are refused at the same instant and all read a {} Retry-After. Each then retries against a bucket \
                 of {} per {} until it gets in. After every refusal a client sleeps the Retry-After it was given, plus a backoff \
                 v that doubles with each refusal (from {} up to {}); the jitter decides how much of v it sleeps.",
                count(r.clients.into()),
                ms(r.retry_after_us),
                r.limit,
                per(r.window_us),
                ms(r.retry_after_us),
                ms(r.cap_us),
            );
            let chosen = r.case(r.jitter).clone();
            let none = r.case(Jitter::None).clone();
            let said = verdict(&r);
            view! {
                <p>{lead}</p>
                <ul class="rll-formulas">
                    {Jitter::ALL.map(|j| view! { <li class:rll-chosen=j == r.jitter><strong>{j.as_str()}</strong>": " <code>{formula(j)}</code></li> }).collect_view()}
                </ul>
                <p>
                    "First wave with " {r.jitter.as_str()} " jitter: at most "
                    <strong data-testid="herd-peak">{chosen.peak_per_ms}</strong> " per millisecond, spread over "
                    <strong data-testid="herd-spread">{ms(chosen.spread_us())}</strong>
                    {format!(" (without jitter: {} in one millisecond, spread {}).", none.peak_per_ms, ms(none.spread_us()))}
                </p>
                <HerdChart result=r.clone() width=chart_w/>
                <p data-testid="herd-verdict">{said}</p>
                <div class="rll-table-scroll">
                    <table>
                        <thead><tr><th scope="col">"jitter"</th><th scope="col">"peak per ms"</th><th scope="col">"first-wave spread"</th><th scope="col">"requests"</th><th scope="col">"last client in"</th></tr></thead>
                        <tbody>
                            {r.cases
                                .iter()
                                .map(|c| view! {
                                    <tr class:rll-chosen=c.jitter == r.jitter>
                                        <th scope="row">{c.jitter.as_str()}</th>
                                        <td class="rll-num">{c.peak_per_ms}</td>
                                        <td class="rll-num">{ms(c.spread_us())}</td>
                                        <td class="rll-num">{count(c.requests)}</td>
                                        <td class="rll-num">{ms(c.finish_us)}</td>
                                    </tr>
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            }
            .into_any()
        }
    }
}
