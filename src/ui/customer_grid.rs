//! One cell per customer, coloured and labelled by what became of them. A cell opens
//! that customer's story. Arrow keys move between cells (one tab stop for the grid).

use super::use_playback::Playback;
use crate::sim::world::Fate;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// More cells than this would make the page heavy; larger runs show the first ones.
pub const GRID_MAX_CELLS: u32 = 10_000;

/// The grid with its legend.
#[component]
pub fn CustomerGrid(playback: Playback, selected: RwSignal<Option<u32>>) -> impl IntoView {
    let fates = Memo::new(move |_| {
        playback.snapshot.track();
        playback.with_sim(|s| s.fates()).unwrap_or_default()
    });
    let customers = Memo::new(move |_| {
        playback
            .scenario
            .with(|s| s.as_ref().map_or(0, |s| s.customers))
    });
    let focus = RwSignal::new(1u32);
    let fate =
        move |c: u32| fates.with(|f| f.get(c as usize - 1).copied().unwrap_or(Fate::Pending));
    let counts =
        move || fates.with(|f| Fate::ALL.map(|k| (k, f.iter().filter(|x| **x == k).count())));
    let grid = NodeRef::<leptos::html::Div>::new();

    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let n = customers.get_untracked().min(GRID_MAX_CELLS);
        if n == 0 {
            return;
        }
        let cols = grid
            .get_untracked()
            .map_or(1, |g| (g.client_width() / 16).max(1) as u32);
        let cur = focus.get_untracked();
        let next = match ev.key().as_str() {
            "ArrowRight" => cur.saturating_add(1),
            "ArrowLeft" => cur.saturating_sub(1),
            "ArrowDown" => cur.saturating_add(cols),
            "ArrowUp" => cur.saturating_sub(cols),
            "Home" => 1,
            "End" => n,
            _ => return,
        }
        .clamp(1, n);
        ev.prevent_default();
        focus.set(next);
        if let Some(el) = document().get_element_by_id(&format!("rll-cell-{next}")) {
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    };

    view! {
        <div class="rll-grid-wrap">
            <ul class="rll-fates">
                {move || {
                    counts()
                        .into_iter()
                        .map(|(k, n)| {
                            view! {
                                <li>
                                    <span class="rll-swatch" data-fate=k.as_str() aria-hidden="true"></span>
                                    {k.label()} ": " <span class="rll-num" data-result=format!("grid.{}", k.as_str())>{n}</span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
            <div class="rll-grid" role="group" aria-label="Customers: open one to see its story" node_ref=grid on:keydown=on_key>
                {move || {
                    (1..=customers.get().min(GRID_MAX_CELLS))
                        .map(|c| {
                            view! {
                                <button
                                    type="button"
                                    class="rll-cell"
                                    id=format!("rll-cell-{c}")
                                    data-customer=c
                                    data-fate=move || fate(c).as_str()
                                    aria-label=move || format!("Customer {c}: {}", fate(c).label())
                                    aria-pressed=move || (selected.get() == Some(c)).to_string()
                                    tabindex=move || if focus.get() == c { "0" } else { "-1" }
                                    on:click=move |_| {
                                        focus.set(c);
                                        selected.set(Some(c));
                                    }
                                ></button>
                            }
                        })
                        .collect_view()
                }}
            </div>
            {move || {
                (customers.get() > GRID_MAX_CELLS)
                    .then(|| view! { <p class="rll-field-help">"The grid shows the first " {GRID_MAX_CELLS} " customers."</p> })
            }}
        </div>
    }
}
