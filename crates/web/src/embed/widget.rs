//! A widget: one scenario, its controls, a small timeline, the counters that matter and
//! the verdict, for embedding in a blog post (by a script or in an iframe). Each widget
//! plays on its own.

use crate::run::controls::Controls;
use crate::run::key_counters::KeyCounters;
use crate::run::motion_note::MotionNote;
use crate::run::run_state::{random_seed, SeedField};
use crate::run::run_timeline::RunTimeline;
use crate::run::summary::Summary;
use crate::run::use_playback::use_playback;
use crate::shared::live;
use crate::shared::progress::Progress;
use crate::shared::read::Read;
use crate::shared::use_media::use_reduced_motion;
use crate::shared::use_visibility::use_pause_offscreen;
use leptos::html::Div;
use leptos::prelude::*;
use page::query::links::full_lab_href;
use page::run::query::EmbedQuery;
use page::run::stage::{key_stats, run_scenario, Room, RunProblem};
use page::run::widget::{WidgetFoot, WidgetHead};

/// One embedded scenario. `lab_url` is where "open the full lab" points.
#[component]
pub fn Widget(
    /// The widget's settings, from its `data-*` attributes or the frame's link.
    query: EmbedQuery,
    /// Where the full lab is, for the link to it.
    lab_url: String,
) -> impl IntoView {
    let reduced = use_reduced_motion();
    let speed = query.base.playback_speed(reduced.get_untracked());
    let playback = use_playback(speed);
    let seed = SeedField::new(query.base.seed());
    let seed_error = RwSignal::new(None::<String>);
    let run_error = RwSignal::new(None::<String>);
    let strategy = query.base.scenario.strategy;
    // A widget runs its one strategy on the numbers of its link; only the seed changes.
    let numbers = StoredValue::new(query.base.scenario.clone());
    let room = Room {
        device_gib: crate::shared::dom::device_memory_gib(),
        ..Room::PAGE
    };
    let run = move || {
        let typed = seed.seed_untracked();
        match numbers.with_value(|draft| run_scenario(draft, typed, strategy, room)) {
            Ok(scenario) => {
                seed_error.set(None);
                run_error.set(playback.start(scenario).err());
            }
            Err(RunProblem::Seed(why)) => seed_error.set(Some(why)),
            Err(RunProblem::Numbers(why)) => run_error.set(Some(why)),
        }
    };
    let new_seed = move || {
        seed.show(random_seed(seed.seed_untracked().ok()));
        run();
    };
    let root = NodeRef::<Div>::new();
    use_pause_offscreen(root, playback);
    if query.base.strategy().is_some() {
        run();
    }
    let counters = query
        .own
        .1
         .0
        .clone()
        .unwrap_or_else(|| key_stats(strategy).to_vec());
    // The head and the foot are the page layer's live widgets, fixed for the widget's
    // life.
    let head = live::view(
        WidgetHead {
            problems: query.base.problems.clone(),
            strategy,
            seed: query.base.seed(),
            customers: query.base.scenario.customers,
        },
        || (),
    );
    let foot = live::view(
        WidgetFoot {
            href: format!("{lab_url}{}", full_lab_href(&query)),
        },
        || (),
    );
    view! {
        <div class="rll rll-widget" node_ref=root data-testid="widget" data-run-state=move || playback.state().get().as_str()>
            {head}
            <Controls
                playback=playback
                seed
                seed_error=Read::of(seed_error)
                run_error=Read::of(run_error)
                on_run=Callback::new(move |()| run())
                on_new_seed=Callback::new(move |()| new_seed())
            />
            // Shown while reduced motion makes runs instant; its button animates anyway.
            <MotionNote playback reduced widget=true/>
            <Progress playback=playback/>
            <RunTimeline playback=playback compact=true/>
            <Summary playback=playback/>
            <KeyCounters playback=playback fields=Signal::stored(counters)/>
            {foot}
        </div>
    }
}
