//! A widget: one scenario, its controls, a small timeline, the counters that matter and
//! the verdict, for embedding in a blog post (by a script or in an iframe). Each widget
//! plays on its own.

use super::controls::Controls;
use super::key_counters::KeyCounters;
use super::progress::Progress;
use super::run_state::RunState;
use super::run_timeline::RunTimeline;
use super::strategy_picker::label;
use super::summary::Summary;
use super::use_media::use_reduced_motion;
use super::use_visibility::use_pause_offscreen;
use crate::page::links::full_lab_href;
use crate::page::stage::key_stats;
use crate::page::{PageQuery, Speed};
use leptos::html::Div;
use leptos::prelude::*;

/// One embedded scenario. `lab_url` is where "open the full lab" points.
#[component]
pub fn Widget(
    /// The widget's settings, from its `data-*` attributes or the frame's link.
    query: PageQuery,
    /// Where the full lab is, for the link to it.
    lab_url: String,
) -> impl IntoView {
    let reduced = use_reduced_motion();
    let speed = query.playback_speed(reduced.get_untracked());
    let state = RunState::new(&query, speed, false);
    let root = NodeRef::<Div>::new();
    use_pause_offscreen(root, state.playback);
    let strategy = state.selected.get_untracked();
    if query.strategy.is_some() {
        state.run(strategy);
    }
    let counters = query
        .counters
        .clone()
        .unwrap_or_else(|| key_stats(strategy).to_vec());
    let full = format!("{lab_url}{}", full_lab_href(&query));
    let motion_note = move || {
        (reduced.get() && state.playback.speed.get() == Speed::Instant).then(|| {
            view! {
                <p class="rll-caption">
                    "Your system asks for reduced motion, so runs are instant. "
                    <button type="button" class="rll-link" on:click=move |_| state.playback.set_speed(Speed::X10)>"Animate anyway"</button>
                </p>
            }
        })
    };
    view! {
        <div class="rll rll-widget" node_ref=root data-testid="widget" data-run-state=move || state.playback.state.get().as_str()>
            {(!query.problems.is_empty()).then(|| view! {
                <div class="rll-notice" role="alert">
                    <ul>{query.problems.iter().map(|m| view! { <li>{m.clone()}</li> }).collect_view()}</ul>
                </div>
            })}
            <p class="rll-widget-title">
                <strong>{label(strategy)}</strong>
                {format!(" · seed {} · {} customers", query.seed, query.scenario.customers)}
            </p>
            <Controls
                playback=state.playback
                seed_text=state.seed_text
                seed_error=state.seed_error.into()
                run_error=state.run_error.into()
                on_run=Callback::new(move |()| state.run(strategy))
                on_new_seed=Callback::new(move |()| state.new_seed())
            />
            {motion_note}
            <Progress playback=state.playback/>
            <RunTimeline playback=state.playback compact=true/>
            <Summary playback=state.playback/>
            <KeyCounters playback=state.playback fields=Signal::stored(counters)/>
            <p class="rll-widget-foot"><a href=full target="_blank" rel="noopener">"Open in the full lab ↗"</a></p>
        </div>
    }
}
