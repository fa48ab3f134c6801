//! The fleet: its knobs, then its figures, which a module of its own runs and draws
//! (`rate-limit-lab-fleet`, downloaded the first time a reader picks the fleet), so the
//! limits page's module carries none of the fleet's engine or words. The knobs and the
//! address stay here; each time the knobs move, the fleet's module is handed the seed and
//! the settings' values and answers with the markup to show. The race below is the
//! module's too: it mounts it in a box of this page's ([`RaceHost`]).

use super::knobs::LabKnobs;
use crate::shared::erase::watch;
use crate::shared::live;
use crate::shared::part::{call, part, why};
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::fleet::{fleet_unloaded, FLEET_MODULE};
use page::limits::settings::LabSettings;
use page::limits::view::{LabShown, Shown};
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
    // Its error, the caption until its figures arrive, and the figures.
    let shown = live::view(LabShown, move || {
        drawn.with(|d| match d {
            None => Shown {
                arrived: Some(false),
                ..Shown::default()
            },
            Some(Ok([body, cells])) => Shown {
                error: None,
                body: body.clone(),
                cells: cells.clone(),
                arrived: Some(true),
            },
            Some(Err(why)) => Shown {
                error: Some(why.clone()),
                arrived: Some(true),
                ..Shown::default()
            },
        })
    });
    view! {
        <div class="rll-experiment">
            <LabKnobs experiment=ExperimentName::Fleet settings changed/>
            {shown}
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
