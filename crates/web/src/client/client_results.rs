//! What a finished run of the reader's client shows: the report card beside the run
//! page's own panels (the counters, the timeline, the customers' stories) and the
//! console. Each harm on the card links to its customers' stories.

use super::client_run::{ClientRun, Shown};
use crate::shared::bind;
use crate::shared::canvas::{use_canvas, Surface};
use crate::shared::erase::{handler, watch};
use crate::shared::live;
use crate::shared::read::Read;
use crate::shared::story_panel::{Stories, StoryPanel};
use crate::shared::timeline::{draw, Layout, Palette, TimelineData};
use leptos::html::Canvas;
use leptos::prelude::*;
use page::client::view::{
    card_markup, log_markup, CardState, RunCard, RunTail, TailState, CUSTOMER_KEY, NOT_COMPARED,
    OPEN_CUSTOMER,
};
use page::run::stage::{verdict, Tone};
use page::run::timeline::TIMELINE_LABEL;
use page::shared::report::{CardView, Note};
use page::shared::stats::panel_markup;
use sim::record::RequestRecord;
use std::rc::Rc;

impl Stories for ClientRun {
    fn track(&self) {
        self.shown().track();
    }

    fn with_record<R>(&self, f: impl FnOnce(&[RequestRecord]) -> R) -> Option<R> {
        self.shown().with(|s| s.as_ref().map(|s| f(s.run.record())))
    }

    fn customers(&self) -> u32 {
        self.shown()
            .with(|s| s.as_ref().map_or(0, |s| s.run.scenario().customers))
    }
}

/// The id of the story panel's heading, where a harm's link leads.
const STORY_ID: &str = "rll-client-story";

/// The finished run's panels, once there is one.
#[component]
pub fn ClientResults(
    /// The view's run.
    run: ClientRun,
) -> impl IntoView {
    let selected = RwSignal::new(None::<u32>);
    let told = RwSignal::new(None::<u32>);
    // A new run closes the last one's story.
    watch(move || {
        run.shown().track();
        selected.set(None);
    });
    let open = move |ev: web_sys::MouseEvent| {
        let customer = bind::hit(&ev, OPEN_CUSTOMER)
            .and_then(|el| el.get_attribute(CUSTOMER_KEY))
            .and_then(|c| c.parse::<u32>().ok());
        if customer.is_some() {
            selected.set(customer);
            crate::shared::dom::scroll_to(STORY_ID);
        }
    };
    move || {
        run.shown().get().map(|shown| {
            let limit = shown.run.scenario().provider.max_inflight;
            let sc = shown.run.scenario();
            let said = verdict(&shown.judged.stats, sc.provider.valid_customers(sc.customers), true);
            // A new run draws its panels anew: their states do not change once drawn.
            let card = CardState {
                card: card(&shown),
                verdict: said.text,
                harm: said.tone == Tone::Harm,
            };
            let tail = TailState {
                log: log_markup(&shown.log, shown.dropped).into_string(),
                stats: panel_markup(&shown.judged.stats, limit).into_string(),
            };
            view! {
                <div style="display:contents" on:click=handler(open)>{live::view(RunCard, move || card.clone())}</div>
                <ClientTimeline shown=shown.clone() selected/>
                <section class="rll-see">
                    <h2 id=STORY_ID>"Customers' stories"</h2>
                    <StoryPanel source=run selected told=Read::of(told)/>
                </section>
                {live::view(RunTail, move || tail.clone())}
            }
        })
    }
}

/// The report card's markup for `shown`.
fn card(shown: &Shown) -> String {
    let mut notes = Vec::new();
    match &shown.best {
        None => notes.push(Note::NotSimulated(NOT_COMPARED.into())),
        Some(b) if !b.passed => notes.push(Note::NonePassed),
        Some(_) => {}
    }
    let view = CardView {
        card: &shown.judged.card,
        seed: shown.run.scenario().seed,
        best: shown.best.as_ref().map(|b| (&b.card, b.by.as_slice())),
        notes: &notes,
    };
    card_markup(&view, &shown.judged.harmed).into_string()
}

/// The whole run on one timeline, with the open story's customer standing out.
#[component]
fn ClientTimeline(shown: Rc<Shown>, selected: RwSignal<Option<u32>>) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let surface = use_canvas(canvas, Palette::read);
    let shown = StoredValue::new_local(shown);
    watch(move || {
        let Some((el, Surface { palette, width })) = surface.get() else {
            return;
        };
        let highlight = selected.get();
        shown.with_value(|s| {
            let run = &s.run;
            let sc = run.scenario();
            let end_us = run.now_us().max(1);
            let data = TimelineData {
                record: run.record(),
                now_us: end_us,
                axis_end_us: end_us,
                customers: sc.customers,
                rate_limit: sc.provider.rate_limit,
                rate_window_us: sc.provider.rate_window_us,
                max_inflight: sc.provider.max_inflight,
                queue_limit: sc.provider.queue_limit,
                finished: true,
                ghost: &[],
                highlight,
                incident: Some(sc.provider.incident)
                    .filter(|i| i.kind != sim::incident::Incident::None),
                pointed: None,
            };
            draw(&el, &palette, width, &data, Layout::FULL);
        });
    });
    let height = format!("height: {}px", Layout::FULL.height().round() as u32);
    view! {
        <figure class="rll-timeline" data-testid="client-timeline">
            <canvas node_ref=canvas style=height role="img" aria-label=TIMELINE_LABEL></canvas>
        </figure>
    }
}
