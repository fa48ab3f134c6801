//! The root component: reads the URL, owns the playback, lays out the sections.

use super::controls::Controls;
use super::intro::Intro;
use super::notices::Notices;
use super::page_query;
use super::progress::Progress;
use super::stats_panel::StatsPanel;
use super::strategy_note::StrategyNote;
use super::strategy_picker::StrategyPicker;
use super::summary::Summary;
use super::use_playback::use_playback;
use crate::query::{parse_seed, to_query};
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let query = page_query::read();
    let defaults = Scenario::default();
    let playback = use_playback(query.speed);
    let selected = RwSignal::new(query.strategy.unwrap_or(defaults.strategy));
    let seed_text = RwSignal::new(query.seed.to_string());
    let seed_error = RwSignal::new(None::<String>);

    let run = move |strategy: StrategyName| {
        selected.set(strategy);
        let seed = match parse_seed(&seed_text.get_untracked()) {
            Ok(seed) => seed,
            Err(why) => return seed_error.set(Some(why)),
        };
        seed_error.set(None);
        let scenario = Scenario {
            seed,
            strategy,
            ..Scenario::default()
        };
        match playback.start(scenario) {
            Ok(()) => {
                page_query::replace(&to_query(strategy, seed, playback.speed.get_untracked()))
            }
            Err(why) => seed_error.set(Some(why)),
        }
    };
    let new_seed = move || {
        // The page, not the simulation, picks the seed; the run itself stays seeded.
        seed_text.set(((js_sys::Math::random() * 1_000_000.0) as u64).to_string());
        run(selected.get_untracked());
    };
    if query.autostart() {
        run(selected.get_untracked());
    }
    let cli = move || {
        let seed = parse_seed(&seed_text.get()).unwrap_or(1);
        format!(
            "cargo run --release --bin ratelab -- charges --strategy {} --seed {seed}",
            selected.get()
        )
    };

    view! {
        <div class="rll" data-run-state=move || playback.state.get().as_str() data-testid="app">
            <header class="rll-header">
                <p class="rll-kicker">"rate-limit-lab"</p>
                <h1>"A thousand charges, one imperfect API"</h1>
                <p class="rll-lede">
                    "Six ways to send a batch of payments to a rate-limited, flaky provider, "
                    "each one step better than the last. Everything below is simulated in your "
                    "browser, in simulated time, from a seed."
                </p>
            </header>
            <Notices messages=query.problems.clone()/>
            <Intro config=defaults.provider.clone()/>
            <section class="rll-run" aria-labelledby="rll-run-title">
                <h2 id="rll-run-title">"Send the charges"</h2>
                <StrategyPicker selected=selected.into() on_pick=Callback::new(run)/>
                <StrategyNote strategy=selected.into() client=defaults.client.clone() provider=defaults.provider.clone()/>
                <Controls
                    playback
                    seed_text
                    seed_error=seed_error.into()
                    on_run=Callback::new(move |()| run(selected.get_untracked()))
                    on_new_seed=Callback::new(move |()| new_seed())
                />
                <Progress playback/>
                <Summary playback/>
            </section>
            <StatsPanel playback/>
            <footer class="rll-footer">
                <p>
                    "The same numbers, natively: " <code data-testid="cli-command">{cli}</code>
                </p>
                <p>"A model, not a benchmark: no network, simulated time, one seeded random generator."</p>
            </footer>
        </div>
    }
}
