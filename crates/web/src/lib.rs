//! rate-limit-lab in the browser: thin Leptos over the core ([`sim`]) and the page layer
//! ([`page`]). Components render what those give them: a playback's snapshot or
//! the record of its simulation, a comparison's runs, a sweep's distributions, an
//! experiment's cells. Their words, number formats, links and commands come from the
//! page layer (`page::links` writes every URL and every `ratelab` line). None owns a
//! rule (what becomes of a request, which numbers a run accepts) or writes a URL or a
//! command by hand.
//!
//! The browser's mechanisms are each written once: [`use_animation_frame`] (the frame
//! loop that playbacks and sweeps run on), [`canvas`] (a canvas's context, pixel ratio
//! and colours), [`observe`] (intersection and resize observers), [`use_measured`]
//! (what is read from layout once), [`erase`] (every effect and every listener of a
//! module through one closure type each) and [`dom`] (reading and writing the page
//! layer's markup: a control's value, an element's text, an event's target).

#![cfg(target_arch = "wasm32")]
#![deny(missing_docs, unreachable_pub)]

/// The browser build's allocator: talc instead of the default dlmalloc, for a smaller
/// `.wasm` (docs/architecture.md).
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

pub mod break_button;
pub mod bridge;
pub mod canvas;
pub mod code_view;
pub mod compare_controls;
pub mod compare_table;
pub mod compare_view;
pub mod controls;
pub mod customer_grid;
pub mod dom;
pub mod embed;
pub mod erase;
pub mod explore_page;
pub mod export_buttons;
pub mod frame;
pub mod headers_page;
pub mod intro;
pub mod key_counters;
pub mod knobs;
pub mod lab;
pub mod later;
pub mod limits_page;
pub mod matrix_view;
pub mod observe;
pub mod page_query;
pub mod param_sweep_chart;
pub mod param_sweep_view;
pub mod params_form;
pub mod params_panel;
pub mod progress;
pub mod run_keys;
pub mod run_page;
pub mod run_state;
pub mod run_timeline;
pub mod run_view;
pub mod stats_panel;
pub mod story_panel;
pub mod strategy_note;
pub mod strategy_picker;
pub mod summary;
pub mod sweep_form;
pub mod sweep_progress;
pub mod sweep_view;
mod tabs;
pub mod timeline;
pub mod tour_card;
pub mod use_animation_frame;
pub mod use_measured;
pub mod use_media;
pub mod use_playback;
pub mod use_visibility;
pub mod verdict_card;
pub mod view_tabs;

pub mod widget;

use leptos::prelude::*;
use page::sweep_progress::SweepState;
use page::{PageQuery, View};

// One entry point per page. Each page is built as a module of its own (README, "Sizes"):
// a binary's `main` calls one of these, and the linker keeps only what that page uses.

/// Reads the link and mounts `page` into `<body>`.
fn mount_page<V: IntoView + 'static>(page: fn(PageQuery) -> V) {
    console_error_panic_hook::set_once();
    let query = page_query::read();
    leptos::mount::mount_to_body(move || page(query));
}

/// The run page.
pub fn mount_run() {
    mount_page(|query| view! { <run_page::RunPage query walk=None/> });
}

/// The run page with its guided walk: what a first visit and `tour=1` open.
pub fn mount_tour() {
    mount_page(|query| view! { <run_page::RunPage query walk=Some(tour_card::walk_card)/> });
}

/// The compare page: its controls rerun every strategy, and the page follows what they show.
pub fn mount_compare() {
    mount_page(|query| {
        let shown = RwSignal::new(query.clone());
        let run_state = RwSignal::new("idle");
        let note = move || shown.with(|q| page::explore::differences_note(&q.scenario));
        let beside = view! { <p class="rll-see-note" data-testid="differs">{note}</p> };
        let scenario = Signal::derive(move || shown.with(PageQuery::seeded_scenario));
        view! {
            <explore_page::ExplorePage query view=View::Compare title="All ten, side by side" shown=shown.into() scenario run_state=run_state.into() beside http=page::links::http_cli_line>
                <compare_view::CompareView shown run_state/>
            </explore_page::ExplorePage>
        }
    });
}

/// The matrix page: every strategy against every incident, from one seed.
pub fn mount_matrix() {
    mount_page(|query| {
        let base = query.seeded_scenario();
        let shown = Signal::stored(query.clone());
        let run_state = RwSignal::new("idle");
        view! {
            <explore_page::ExplorePage query view=View::Matrix title="Every client against every incident" shown scenario=Signal::stored(base.clone()) run_state=run_state.into() beside=()>
                <matrix_view::MatrixView base run_state/>
            </explore_page::ExplorePage>
        }
    });
}

/// The sweep page: seeds, or one parameter over seeds.
pub fn mount_sweep() {
    mount_page(|query| {
        let base = query.seeded_scenario();
        let strategy = (!query.all_strategies).then_some(query.strategy).flatten();
        // A link naming a parameter starts the parameter sweep, not the seed sweep.
        let (seeds, autostart) = (
            query.seeds,
            query.sweep_autostart() && query.sweep_param.is_none(),
        );
        // The footer follows the sweep on screen: what the link asked for, then each sweep
        // the reader starts.
        let shown = RwSignal::new(query.clone());
        // Each sweep keeps the link's seed and numbers.
        let scenario = Signal::stored(base.clone());
        let psweep_base = base.clone();
        let psweep_query = query.clone();
        let (seeds_state, param_state) = (
            RwSignal::new(SweepState::Idle),
            RwSignal::new(SweepState::Idle),
        );
        let run_state = Signal::derive(move || {
            page::explore::sweep_page_state([seeds_state.get(), param_state.get()])
        });
        view! {
            <explore_page::ExplorePage query view=View::Sweep title="Sweep seeds" shown=shown.into() scenario run_state beside=()>
                <sweep_view::SweepView base strategy seeds autostart shown state=seeds_state/>
                <param_sweep_view::ParamSweepView base=psweep_base query=psweep_query shown state=param_state/>
            </explore_page::ExplorePage>
        }
    });
}

/// The limits page.
pub fn mount_limits() {
    mount_page(|query| view! { <limits_page::LimitsPage query/> });
}

/// The headers page.
pub fn mount_headers() {
    mount_page(|query| view! { <headers_page::HeadersPage query/> });
}

/// Widgets into a host page's `[data-rate-limit-lab]` elements, or, on the lab's own
/// page (`embed=1`), one widget that reports its height to the page framing it.
pub fn mount_embed() {
    console_error_panic_hook::set_once();
    if embed::mount_widgets() == 0 {
        mount_page(|query| view! { <embed::EmbedPage query/> });
    }
}
