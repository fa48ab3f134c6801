//! A customer's story: each attempt, the client's view beside the provider's. Links find
//! the scenes worth seeing in the current run: the run page's playback, or the run of a
//! reader's own client ([`Stories`]).

use crate::shared::bind;
use crate::shared::dom::{scroll_to, value_of};
use crate::shared::erase::handler;
use crate::shared::live;
use crate::shared::read::Read;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::opening::OPENING_ID;
use page::run::story::{
    no_such_customer, scene_slot, Panel, PanelState, GOTO, GOTO_OPEN, TO_OPENING,
};
use sim::record::RequestRecord;
use sim::story::{Scene, Story};

/// A run whose record tells its customers' stories.
pub trait Stories: Copy + Send + Sync + 'static {
    /// Reads the run on screen, so what reads it is written again when it changes.
    fn track(&self);
    /// `f` over the run's record, if there is a run with one.
    fn with_record<R>(&self, f: impl FnOnce(&[RequestRecord]) -> R) -> Option<R>;
    /// The run's customers (0 for none).
    fn customers(&self) -> u32;
}

/// The scene links and the selected customer's story.
#[component]
pub fn StoryPanel<S: Stories>(
    /// The run whose record tells the story.
    source: S,
    /// The customer whose story is open.
    selected: RwSignal<Option<u32>>,
    /// The customer the opening story at the top tells, if the page shows it: while
    /// theirs is open here, a button leads back up to it.
    told: Read<Option<u32>>,
) -> impl IntoView {
    let found = move || {
        source
            .with_record(|r| Scene::ALL.map(|s| (s, s.find(r))))
            .unwrap_or(Scene::ALL.map(|s| (s, None)))
    };
    let go_error = RwSignal::new(None::<String>);
    let customers = move || source.customers();
    // The panel is the page layer's live widget: the scene links and the story are
    // written again only when they change, the field's message and the way back in place.
    let panel = live::view(Panel, move || {
        source.track();
        let open = selected.get();
        PanelState {
            found: found().to_vec(),
            story: open.and_then(|customer| source.with_record(|r| Story::of(r, customer))),
            error: go_error.get(),
            told: told.get().filter(|c| open == Some(*c)),
        }
    });
    let root = NodeRef::<Div>::new();
    let open = move || {
        let text = root
            .get_untracked()
            .and_then(|r| bind::find(&r, GOTO))
            .and_then(|input| value_of(&input))
            .unwrap_or_default();
        match text.trim().parse::<u32>() {
            Ok(c) if (1..=customers()).contains(&c) => {
                go_error.set(None);
                selected.set(Some(c));
            }
            _ => go_error.set(Some(no_such_customer(customers()))),
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" && bind::hit(&ev, GOTO).is_some() {
            open();
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, GOTO_OPEN).is_some() {
            open();
            return;
        }
        if bind::hit(&ev, TO_OPENING).is_some() {
            scroll_to(OPENING_ID);
            return;
        }
        let scene = Scene::ALL
            .into_iter()
            .find(|s| bind::hit(&ev, scene_slot(*s)).is_some());
        let found = found()
            .iter()
            .find(|(s, _)| Some(*s) == scene)
            .and_then(|(_, c)| *c);
        if found.is_some() {
            selected.set(found);
        }
    };
    view! {
        <div class="rll-story" data-testid="story-panel" node_ref=root
            on:keydown=handler(on_key) on:click=handler(on_click)>{panel}</div>
    }
}
