//! A widget: one scenario, its controls, a small timeline, the counters that matter and
//! the verdict, for embedding in a blog post (by a script or in an iframe). Each widget
//! plays on its own.

use crate::run::controls::Controls;
use crate::run::key_counters::KeyCounters;
use crate::run::run_state::random_seed;
use crate::run::run_timeline::RunTimeline;
use crate::run::strategy_picker::label;
use crate::run::summary::Summary;
use crate::run::use_playback::use_playback;
use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use crate::shared::progress::Progress;
use crate::shared::use_media::use_reduced_motion;
use crate::shared::use_visibility::use_pause_offscreen;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::stage::{key_stats, run_scenario, RunProblem, MOTION_NOTE_MARKUP};
use page::shared::links::full_lab_href;
use page::shared::markup::list_markup;
use page::{parse_seed, PageQuery, Speed};

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
    let playback = use_playback(speed);
    let seed_text = RwSignal::new(query.seed.to_string());
    let seed_error = RwSignal::new(None::<String>);
    let run_error = RwSignal::new(None::<String>);
    let strategy = query.strategy.unwrap_or(query.scenario.strategy);
    // A widget runs its one strategy on the numbers of its link; only the seed changes.
    let numbers = StoredValue::new(query.scenario.clone());
    let run = move || {
        let typed = seed_text.get_untracked();
        match numbers.with_value(|draft| run_scenario(draft, &typed, strategy)) {
            Ok(scenario) => {
                seed_error.set(None);
                run_error.set(playback.start(scenario).err());
            }
            Err(RunProblem::Seed(why)) => seed_error.set(Some(why)),
            Err(RunProblem::Numbers(why)) => run_error.set(Some(why)),
        }
    };
    let new_seed = move || {
        let current = parse_seed(&seed_text.get_untracked()).ok();
        seed_text.set(random_seed(current).to_string());
        run();
    };
    let root = NodeRef::<Div>::new();
    use_pause_offscreen(root, playback);
    if query.strategy.is_some() {
        run();
    }
    let counters = query
        .counters
        .clone()
        .unwrap_or_else(|| key_stats(strategy).to_vec());
    let full = format!("{lab_url}{}", full_lab_href(&query));
    // Shown while reduced motion makes runs instant; its button asks for motion anyway.
    let motion_note = NodeRef::<leptos::html::P>::new();
    watch(move || {
        let shown = reduced.get() && playback.speed.get() == Speed::Instant;
        if let Some(p) = motion_note.get() {
            let _ = p.toggle_attribute_with_force("hidden", !shown);
        }
    });
    let animate = move |ev: web_sys::MouseEvent| {
        let on_button =
            target_as::<web_sys::Element>(&ev).is_some_and(|e| e.tag_name() == "BUTTON");
        if on_button {
            playback.set_speed(Speed::X10);
        }
    };
    view! {
        <div class="rll rll-widget" node_ref=root data-testid="widget" data-run-state=move || playback.state.get().as_str()>
            <div class="rll-notice" role="alert" data-testid="widget-problems" hidden=query.problems.is_empty() inner_html=list_markup(&query.problems).into_string()></div>
            <p class="rll-widget-title">
                <strong>{label(strategy)}</strong>
                {format!(" · seed {} · {} customers", query.seed, query.scenario.customers)}
            </p>
            <Controls
                playback=playback
                seed_text
                seed_error=seed_error
                run_error=run_error
                on_run=Callback::new(move |()| run())
                on_new_seed=Callback::new(move |()| new_seed())
            />
            <p class="rll-caption" data-testid="widget-motion-note" node_ref=motion_note hidden on:click=handler(animate) inner_html=MOTION_NOTE_MARKUP></p>
            <Progress playback=playback/>
            <RunTimeline playback=playback compact=true/>
            <Summary playback=playback/>
            <KeyCounters playback=playback fields=Signal::stored(counters)/>
            <p class="rll-widget-foot"><a href=full target="_blank" rel="noopener">"Open in the full lab ↗"</a></p>
        </div>
    }
}
