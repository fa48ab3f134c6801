//! The one mechanism that binds a live widget of the page layer
//! (`page::shared::live::Live`): its markup poured once into a host node, and on each
//! change of the state it reads only the writes that differ from the last ones applied.
//!
//! ```ignore
//! view! { <div>{live::view(Panel, move || PanelState { stats: stats.get(), limit })}</div> }
//! ```

use super::erase::watch;
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::live::{Fill, Hole, Live, Write};
use wasm_bindgen::JsCast;
use web_sys::Element;

/// `widget`, drawn for `state()` in a box that leaves the layout to it, and kept filled:
/// drawn again when its shape changes, and otherwise written hole by hole where the fill
/// changed.
pub fn view<L: Live + 'static>(widget: L, state: impl Fn() -> L::State + 'static) -> impl IntoView {
    let host = NodeRef::<Div>::new();
    let shape = StoredValue::new_local(None::<L::Shape>);
    let step = move || {
        let now = state();
        let new_shape = widget.shape(&now);
        let same = shape.with_value(|s| s.as_ref() == Some(&new_shape));
        if !same {
            shape.set_value(Some(new_shape));
        }
        let drawn = (!same).then(|| widget.draw(&now).into_string());
        (drawn, widget.fill(&now))
    };
    bind_boxed(host, Box::new(step));
    view! { <div style="display:contents" node_ref=host></div> }
}

/// The nodes a drawing names, found in one pass: each slot's name and its nodes, in
/// document order.
type Found = Vec<(String, Vec<Element>)>;

/// The one copy of [`bind`]'s effect: each widget brings only its two closures.
#[inline(never)]
fn bind_boxed(host: NodeRef<Div>, step: Box<dyn Fn() -> (Option<String>, Fill)>) {
    let last = StoredValue::new_local(Fill::default());
    let found = StoredValue::new_local(Found::new());
    watch(move || {
        let Some(host) = host.get() else {
            return;
        };
        let (drawn, fill) = step();
        if let Some(markup) = drawn {
            host.set_inner_html(&markup);
            found.set_value(find_slots(&host));
            last.set_value(Fill::default());
        }
        found.with_value(|found| {
            last.with_value(|last| {
                let before = last.writes();
                for (i, (hole, write)) in fill.writes().iter().enumerate() {
                    let same = before.get(i).is_some_and(|(h, w)| h == hole && w == write);
                    if let (false, Some(el)) = (same, node(found, *hole)) {
                        apply(el, write);
                    }
                }
            });
        });
        last.set_value(fill);
    });
}

/// Every node under `host` with a `data-slot`, grouped by slot in document order.
fn find_slots(host: &Element) -> Found {
    let mut found = Found::new();
    let Ok(list) = host.query_selector_all("[data-slot]") else {
        return found;
    };
    for el in (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()) {
        let name = el.get_attribute("data-slot").unwrap_or_default();
        match found.iter_mut().find(|(n, _)| *n == name) {
            Some((_, nodes)) => nodes.push(el),
            None => found.push((name, vec![el])),
        }
    }
    found
}

/// The node a hole names.
fn node(found: &Found, hole: Hole) -> Option<&Element> {
    let (_, nodes) = found.iter().find(|(n, _)| n == hole.slot.name())?;
    nodes.get(usize::from(hole.index))
}

/// Applies one write to its node.
fn apply(el: &Element, write: &Write) {
    match write {
        Write::Text(text) => el.set_text_content(Some(text)),
        Write::Class(class, on) => {
            let _ = el.class_list().toggle_with_force(class, *on);
        }
        Write::Attr(name, value) => {
            let _ = el.set_attribute(name, value);
        }
    }
}
