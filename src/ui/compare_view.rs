//! All six strategies on one seed: a table of every stat, and six timelines on one axis.

use super::canvas::{use_canvas, Surface};
use super::strategy_picker::label;
use super::timeline::{draw, Layout, Palette, TimelineData};
use crate::page::format::requests_per_charge;
use crate::sim::budget::Workload;
use crate::sim::{Scenario, Simulation, StrategyName};
use crate::sim::{StatField, Stats};
use leptos::html::Canvas;
use leptos::prelude::*;

/// Rows whose differences are the point of the comparison (`None`: requests per
/// charge, which is derived).
const KEY_ROWS: [Option<StatField>; 4] = [
    Some(StatField::Duplicates),
    Some(StatField::RateLimited),
    None,
    Some(StatField::ElapsedMs),
];

/// The compare view for `base` (its seed and parameters; the strategy is ignored).
#[component]
pub fn CompareView(
    /// The seed and the numbers; each column runs its own strategy with them.
    base: Scenario,
) -> impl IntoView {
    if let Err(too_large) = Workload::Compare.check(&base) {
        return view! {
            <p class="rll-notice" role="alert" data-testid="compare">{too_large.to_string()}</p>
        }
        .into_any();
    }
    let sims: StoredValue<Vec<Simulation>> = StoredValue::new(Vec::new());
    let stats = RwSignal::new(Vec::<(StrategyName, Stats)>::new());
    let seed = base.seed;
    // All six at once: about a millisecond each for the article's thousand customers.
    let mut all = Vec::new();
    let mut problem = None;
    for strategy in StrategyName::ALL {
        match Simulation::new(&Scenario {
            strategy,
            record: true,
            ..base.clone()
        }) {
            Ok(mut sim) => {
                sim.run_to_end();
                all.push(sim);
            }
            Err(e) => problem = Some(e.to_string()),
        }
    }
    stats.set(
        all.iter()
            .map(|s| (s.scenario().strategy, s.stats()))
            .collect(),
    );
    sims.set_value(all);
    let axis_end_us = sims.with_value(|v| v.iter().map(Simulation::now_us).max().unwrap_or(1));

    let rows = StatField::ALL
        .map(Some)
        .into_iter()
        .chain([None])
        .collect::<Vec<_>>();
    view! {
        <div class="rll-compare" data-testid="compare" data-state="done" data-seed=seed.to_string()>
            {problem.map(|p| view! { <p class="rll-notice" role="alert">{p}</p> })}
            <p class="rll-caption">
                "Six strategies, one seed (" {seed.to_string()} "), the same provider and the same dice. Highlighted rows are the ones the article is about; a warning sign marks harm."
            </p>
            <div class="rll-table-scroll">
                <table class="rll-compare-table">
                    <thead>
                        <tr>
                            <th scope="col">"stat"</th>
                            {StrategyName::ALL.map(|s| view! { <th scope="col">{label(s)}</th> }).collect_view()}
                        </tr>
                    </thead>
                    <tbody>
                        {rows
                            .into_iter()
                            .map(|field| {
                                let key = KEY_ROWS.contains(&field);
                                let name = field.map_or("requestsPerCharge", StatField::as_str);
                                view! {
                                    <tr class:rll-key-row=key>
                                        <th scope="row">{name}</th>
                                        {move || {
                                            stats
                                                .get()
                                                .into_iter()
                                                .map(|(s, st)| {
                                                    let value = match field {
                                                        None => requests_per_charge(&st),
                                                        Some(f) => st.get(f).to_string(),
                                                    };
                                                    let harm = field.is_some_and(|f| st.harmed(f));
                                                    view! {
                                                        <td class="rll-num" class:rll-harm-cell=harm>
                                                            <span data-result=format!("compare.{}.{name}", s.as_str())>{value}</span>
                                                            {harm.then_some(" ⚠")}
                                                        </td>
                                                    }
                                                })
                                                .collect_view()
                                        }}
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            <h3>"Every request, on one time axis"</h3>
            <div class="rll-multiples">
                {StrategyName::ALL
                    .into_iter()
                    .enumerate()
                    .map(|(i, s)| view! { <SmallTimeline sims index=i axis_end_us title=label(s)/> })
                    .collect_view()}
            </div>
        </div>
    }
    .into_any()
}

/// One of the six small timelines.
#[component]
fn SmallTimeline(
    sims: StoredValue<Vec<Simulation>>,
    index: usize,
    axis_end_us: u64,
    title: &'static str,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let surface = use_canvas(canvas, Palette::read);
    Effect::new(move |_| {
        let Some((el, Surface { palette, width })) = surface.get() else {
            return;
        };
        sims.with_value(|v| {
            if let Some(sim) = v.get(index) {
                draw(
                    &el,
                    &palette,
                    width,
                    &TimelineData::of(sim, axis_end_us),
                    Layout::COMPACT,
                );
            }
        });
    });
    view! {
        <figure class="rll-multiple">
            <figcaption>{title}</figcaption>
            <canvas node_ref=canvas role="img" aria-label=format!("Timeline of the {title} strategy")></canvas>
        </figure>
    }
}
