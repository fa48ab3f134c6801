//! The root component: reads the URL, owns the playback, and shows one view at a time.

use super::charges_section::{ChargesSection, SweepRequest};
use super::lab::LimitsSection;
use super::notices::Notices;
use super::page_query;
use super::run_view::RunState;
use super::use_playback::use_playback;
use crate::query::{parse_seed, to_query, Section, View};
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let query = page_query::read();
    let defaults = Scenario::default();
    let playback = use_playback(query.speed);
    let view = RwSignal::new(query.view);
    let section = RwSignal::new(query.section);
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
    let experiment = query.experiment;
    let open_section = move |s: Section| {
        section.set(s);
        match s {
            Section::Charges => show(view.get_untracked()),
            Section::Limits => page_query::replace("?section=limits"),
        }
    };
    let sweep = SweepRequest {
        strategy: if query.all_strategies {
            None
        } else {
            query.strategy
        },
        seeds: query.seeds,
        autostart: query.view == View::Sweep,
    };

    view! {
        <div class="rll" data-run-state=move || playback.state.get().as_str() data-view=move || view.get().as_str() data-testid="app">
            <header class="rll-header">
                <p class="rll-kicker">"rate-limit-lab"</p>
                {move || match section.get() {
                    Section::Charges => view! {
                        <h1>"A thousand charges, one imperfect API"</h1>
                        <p class="rll-lede">
                            "Six ways to send a batch of payments to a rate-limited, flaky provider, "
                            "each one step better than the last. Everything below is simulated in your "
                            "browser, in simulated time, from a seed."
                        </p>
                    }
                    .into_any(),
                    Section::Limits => view! {
                        <h1>"Publishing a limit, and reading one"</h1>
                        <p class="rll-lede">
                            "Three limiters, the headers that describe them, and what clients do with those "
                            "headers. Every experiment runs in simulated time, from a seed."
                        </p>
                    }
                    .into_any(),
                }}
            </header>
            <Notices messages=problems/>
            <nav class="rll-sections" aria-label="Sections">
                <button type="button" class="rll-section-tab" data-section="charges"
                    aria-current=move || (section.get() == Section::Charges).then_some("page")
                    on:click=move |_| open_section(Section::Charges)>
                    "Calling theirs"
                    <span class="rll-tab-sub">"1,000 charges, six clients"</span>
                </button>
                <button type="button" class="rll-section-tab" data-section="limits"
                    aria-current=move || (section.get() == Section::Limits).then_some("page")
                    on:click=move |_| open_section(Section::Limits)>
                    "Publishing yours"
                    <span class="rll-tab-sub">"limiters, headers, herds"</span>
                </button>
            </nav>
            {move || match section.get() {
                Section::Limits => view! { <LimitsSection seed=seed() start=experiment/> }.into_any(),
                Section::Charges => view! {
                    <ChargesSection view run_state sweep=sweep on_view=Callback::new(show)/>
                }
                .into_any(),
            }}
            <footer class="rll-footer">
                <p>"The same numbers, natively: " <code data-testid="cli-command">{cli}</code></p>
                <p>"A model, not a benchmark: no network, simulated time, one seeded random generator."</p>
            </footer>
        </div>
    }
}
