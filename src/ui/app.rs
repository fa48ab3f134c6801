//! The root component: reads the URL, owns the playback, and shows one view at a time.

use super::compare_view::CompareView;
use super::intro::Intro;
use super::notices::Notices;
use super::page_query;
use super::run_view::{RunState, RunView};
use super::sweep_view::SweepView;
use super::use_playback::use_playback;
use crate::query::{parse_seed, to_query, View};
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;

/// The tab label of a view.
fn view_label(v: View) -> &'static str {
    match v {
        View::Run => "Run one strategy",
        View::Compare => "Compare all six",
        View::Sweep => "Sweep seeds",
    }
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let query = page_query::read();
    let defaults = Scenario::default();
    let playback = use_playback(query.speed);
    let view = RwSignal::new(query.view);
    let selected = RwSignal::new(query.strategy.unwrap_or(defaults.strategy));
    let seed_text = RwSignal::new(query.seed.to_string());
    let seed_error = RwSignal::new(None::<String>);
    let mut problems = query.problems.clone();
    let customer = RwSignal::new(match query.customer {
        Some(c) if c > defaults.customers => {
            problems.push(format!(
                "There is no customer {c}: this run has customers 1 to {}.",
                defaults.customers
            ));
            None
        }
        other => other,
    });
    let seed = move || parse_seed(&seed_text.get_untracked()).unwrap_or(1);

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
    let new_seed = move |()| {
        // The page, not the simulation, picks the seed; the run itself stays seeded.
        seed_text.set(((js_sys::Math::random() * 1_000_000.0) as u64).to_string());
        run(selected.get_untracked());
    };
    if query.autostart() {
        run(selected.get_untracked());
    }
    let run_state = RunState {
        playback,
        selected,
        seed_text,
        seed_error,
        customer,
        run: Callback::new(run),
        new_seed: Callback::new(new_seed),
    };
    let show = move |v: View| {
        view.set(v);
        match v {
            View::Run => page_query::replace(&to_query(
                selected.get_untracked(),
                seed(),
                playback.speed.get_untracked(),
            )),
            View::Compare => page_query::replace(&format!("?view=compare&seed={}", seed())),
            View::Sweep => {}
        }
    };
    let cli = move || match view.get() {
        View::Run => format!(
            "cargo run --release --bin ratelab -- charges --strategy {} --seed {}",
            selected.get(),
            seed()
        ),
        View::Compare => format!(
            "cargo run --release --bin ratelab -- charges --all --seed {}",
            seed()
        ),
        View::Sweep => {
            "cargo run --release --bin ratelab -- charges --all --seeds 1..=200".to_string()
        }
    };
    let sweep_strategy = if query.all_strategies {
        None
    } else {
        query.strategy
    };
    let sweep_seeds = query.seeds;
    let sweep_autostart = query.view == View::Sweep;

    view! {
        <div class="rll" data-run-state=move || playback.state.get().as_str() data-view=move || view.get().as_str() data-testid="app">
            <header class="rll-header">
                <p class="rll-kicker">"rate-limit-lab"</p>
                <h1>"A thousand charges, one imperfect API"</h1>
                <p class="rll-lede">
                    "Six ways to send a batch of payments to a rate-limited, flaky provider, "
                    "each one step better than the last. Everything below is simulated in your "
                    "browser, in simulated time, from a seed."
                </p>
            </header>
            <Notices messages=problems/>
            <Intro config=defaults.provider.clone()/>
            <nav class="rll-tabs" aria-label="Views">
                {View::ALL
                    .map(|v| {
                        view! {
                            <button type="button" class="rll-tab" data-view=v.as_str()
                                aria-current=move || (view.get() == v).then_some("page")
                                on:click=move |_| show(v)>
                                {view_label(v)}
                            </button>
                        }
                    })
                    .collect_view()}
            </nav>
            {move || match view.get() {
                View::Run => view! { <RunView state=run_state defaults=defaults.clone()/> }.into_any(),
                View::Compare => {
                    view! { <section class="rll-see"><h2>"All six, side by side"</h2><CompareView base=Scenario { seed: seed(), ..Scenario::default() }/></section> }
                        .into_any()
                }
                View::Sweep => {
                    view! {
                        <section class="rll-see">
                            <h2>"Sweep seeds"</h2>
                            <SweepView base=Scenario::default() strategy=sweep_strategy seeds=sweep_seeds autostart=sweep_autostart/>
                        </section>
                    }
                        .into_any()
                }
            }}
            <footer class="rll-footer">
                <p>"The same numbers, natively: " <code data-testid="cli-command">{cli}</code></p>
                <p>"A model, not a benchmark: no network, simulated time, one seeded random generator."</p>
            </footer>
        </div>
    }
}
