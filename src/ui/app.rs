//! The root component: the full lab, or a single widget when framed with `?embed=1`.

use super::charges_section::{ChargesSection, SweepRequest};
use super::embed::EmbedPage;
use super::lab::LimitsSection;
use super::notices::Notices;
use super::page_query;
use super::run_state::RunState;
use super::use_media::use_reduced_motion;
use crate::query::{PageQuery, Section, Speed, View};
use crate::sim::stats::count;
use leptos::prelude::*;

/// The page.
#[component]
pub fn App() -> impl IntoView {
    let query = page_query::read();
    if query.embed {
        return view! { <EmbedPage query/> }.into_any();
    }
    view! { <FullPage query/> }.into_any()
}

/// The whole lab: both sections, with their views.
#[component]
fn FullPage(query: PageQuery) -> impl IntoView {
    let reduced = use_reduced_motion();
    let state = RunState::new(&query, query.playback_speed(reduced.get_untracked()), true);
    let playback = state.playback;
    let view = RwSignal::new(query.view);
    let section = RwSignal::new(query.section);
    let seed = move || state.seed().unwrap_or(1);
    if query.autostart() {
        state.run(state.selected.get_untracked());
    }
    // The address bar names what is on screen.
    let write_url = move |v: View, s: Section| {
        let q = PageQuery {
            section: s,
            view: v,
            motion: state.motion,
            ..PageQuery::for_run(
                &crate::sim::Scenario {
                    seed: seed(),
                    strategy: state.selected.get_untracked(),
                    ..state.draft.get_untracked()
                },
                playback.speed.get_untracked(),
            )
        };
        page_query::replace(&q.to_query());
    };
    let show = move |v: View| {
        view.set(v);
        if v != View::Sweep {
            write_url(v, Section::Charges);
        }
    };
    let open_section = move |s: Section| {
        section.set(s);
        match s {
            Section::Charges => show(view.get_untracked()),
            Section::Limits => page_query::replace(&format!("?section=limits&seed={}", seed())),
        }
    };
    let cli = move || match (section.get(), view.get()) {
        (Section::Limits, _) => format!(
            "cargo run --release --bin ratelab -- limits all --seed {}",
            seed()
        ),
        (_, View::Run) => format!(
            "cargo run --release --bin ratelab -- charges --query '{}'",
            window()
                .location()
                .search()
                .unwrap_or_default()
                .trim_start_matches('?')
        ),
        (_, View::Compare) => format!(
            "cargo run --release --bin ratelab -- charges --all --seed {}",
            seed()
        ),
        (_, View::Sweep) => {
            "cargo run --release --bin ratelab -- charges --all --seeds 1..=200".to_string()
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
    let experiment = query.experiment;
    let motion_note = move || {
        (reduced.get() && playback.speed.get() == Speed::Instant).then(|| {
            view! {
                <p class="rll-notice" data-testid="motion-note">
                    "Your system asks for reduced motion, so runs play instantly. "
                    <button type="button" class="rll-link" on:click=move |_| playback.set_speed(Speed::X10)>"Animate anyway"</button>
                </p>
            }
        })
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
            <Notices messages=query.problems.clone()/>
            {motion_note}
            <nav class="rll-sections" aria-label="Sections">
                {[Section::Charges, Section::Limits]
                    .map(|s| {
                        let title = match s {
                            Section::Charges => "Calling theirs",
                            Section::Limits => "Publishing yours",
                        };
                        let sub = move || match s {
                            Section::Charges => format!("{} charges, six clients", state.draft.with(|d| count(d.customers.into()))),
                            Section::Limits => "limiters, headers, herds".to_string(),
                        };
                        view! {
                            <button type="button" class="rll-section-tab" data-section=s.as_str()
                                aria-current=move || (section.get() == s).then_some("page")
                                on:click=move |_| open_section(s)>
                                {title}
                                <span class="rll-tab-sub">{sub}</span>
                            </button>
                        }
                    })
                    .collect_view()}
            </nav>
            {move || match section.get() {
                Section::Limits => view! { <LimitsSection seed=seed() start=experiment/> }.into_any(),
                Section::Charges => view! { <ChargesSection view state sweep on_view=Callback::new(show)/> }.into_any(),
            }}
            <footer class="rll-footer">
                <p>"The same numbers, natively: " <code data-testid="cli-command">{cli}</code></p>
                <p>"A model, not a benchmark: no network, simulated time, one seeded random generator."</p>
            </footer>
        </div>
    }
}
