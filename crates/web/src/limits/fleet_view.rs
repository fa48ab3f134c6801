//! The fleet: its knobs, then its figures, which a module of its own runs and draws
//! (`rate-limit-lab-fleet`, downloaded the first time a reader picks the fleet), so the
//! limits page's module carries none of the fleet's engine or words. The knobs and the
//! address stay here; each time the knobs move, the fleet's module is handed the seed and
//! the settings' values and answers with the markup to show. The race below is the
//! module's too: it mounts it in a box of this page's ([`RaceHost`]).

use super::cells::Cells;
use super::knobs::LabKnobs;
use crate::shared::bind;
use crate::shared::dom::{set_flag, set_text};
use crate::shared::erase::watch;
use crate::shared::part::{call, part, why};
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::fleet::{fleet_unloaded, FLEET_ARRIVING, FLEET_MODULE};
use page::limits::settings::LabSettings;
use page::limits::view::LAB_ERROR;
use sim::lab::ExperimentName;
use wasm_bindgen::{JsCast, JsValue};

/// The fleet's body and cells for `seed` and `values`, from its module.
async fn draw(seed: u64, values: &[u64]) -> Result<[String; 2], String> {
    let module = part(FLEET_MODULE).await.map_err(|w| fleet_unloaded(&w))?;
    let args = [
        JsValue::from(seed),
        js_sys::BigUint64Array::from(values).into(),
    ];
    let drawn: js_sys::Array = call(&module, "draw", &args)
        .map_err(why)?
        .dyn_into()
        .map_err(|_| fleet_unloaded("it answered with something else"))?;
    let text = |i| drawn.get(i).as_string().unwrap_or_default();
    Ok([text(0), text(1)])
}

/// The fleet, redrawn by its module as its knobs move.
#[component]
pub fn FleetView(
    /// The link's seed.
    seed: u64,
    /// Every knob's value.
    settings: RwSignal<LabSettings>,
    /// Called after a knob moved (to keep the address in step).
    changed: Callback<()>,
) -> impl IntoView {
    // What the module drew for the settings on screen; `None` until its first answer.
    let drawn = RwSignal::new(None::<Result<[String; 2], String>>);
    // Which request is the latest: an answer to an older one is dropped.
    let asked = StoredValue::new(0_u32);
    watch(move || {
        let values = settings.with(|s| s.values().to_vec());
        let n = asked.get_value().wrapping_add(1);
        asked.set_value(n);
        leptos::task::spawn_local(async move {
            let answer = draw(seed, &values).await;
            if asked.get_value() == n {
                drawn.set(Some(answer));
            }
        });
    });
    let part_of = move |i: usize| {
        drawn.with(|d| match d {
            Some(Ok(parts)) => parts[i].clone(),
            _ => String::new(),
        })
    };
    let box_ref = NodeRef::<Div>::new();
    // Why the fleet cannot be shown, if it cannot.
    bind::node(box_ref, LAB_ERROR, move |el| {
        drawn.with(|d| {
            let why = match d {
                Some(Err(why)) => Some(why.as_str()),
                _ => None,
            };
            set_text(el, why);
            set_flag(el, "hidden", why.is_none());
        });
    });
    view! {
        <div class="rll-experiment" node_ref=box_ref>
            <LabKnobs experiment=ExperimentName::Fleet settings changed/>
            <p class="rll-field-help rll-error" data-testid="lab-error" data-slot={LAB_ERROR.name()} hidden></p>
            <p class="rll-caption" data-testid="fleet-arriving" hidden=move || drawn.with(Option::is_some)>{FLEET_ARRIVING}</p>
            <div inner_html=move || part_of(0)></div>
            <Cells markup=Signal::derive(move || part_of(1))/>
        </div>
    }
}

/// The box below the fleet where its module mounts the race, stepped
/// (`web::limits::race_view`), once it has arrived; if it cannot, [`FleetView`] says why.
#[component]
pub fn RaceHost() -> impl IntoView {
    let host = NodeRef::<Div>::new();
    watch(move || {
        let Some(el) = host.get() else {
            return;
        };
        leptos::task::spawn_local(async move {
            if let Ok(module) = part(FLEET_MODULE).await {
                let _ = call(&module, "race", &[el.into()]);
            }
        });
    });
    view! { <div node_ref=host></div> }
}
