//! The one mechanism that binds a live widget of the page layer
//! (`page::shared::live::Live`): its markup poured once into a host node, and on each
//! change of the state it reads, drawn again without pouring, and only the recorded
//! writes that differ from the last ones applied.
//!
//! ```ignore
//! view! { <div>{live::view(Panel, move || PanelState { stats: stats.get(), limit })}</div> }
//! ```

use super::erase::watch;
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::live::{Fill, Hole, Live, Poured, Write};
use wasm_bindgen::JsCast;
use web_sys::Element;

/// `widget`, drawn for `state()` in a box that leaves the layout to it, and kept filled:
/// drawn again when its shape changes, and otherwise written hole by hole where the fill
/// changed.
pub fn view<L: Live + 'static>(widget: L, state: impl Fn() -> L::State + 'static) -> impl IntoView {
    let host = NodeRef::<Div>::new();
    let step = move || {
        let now = state();
        let mut fill = Fill::default();
        let markup = widget.draw(&now, &mut fill);
        (widget.shape(&now), markup.into_string(), fill)
    };
    bind_boxed(host, Box::new(step));
    view! { <div style="display:contents" node_ref=host></div> }
}

/// The one copy of [`view`]'s effect: each widget brings only its closure. After a
/// drawing, the fill is taken as shown (the page layer draws what it fills, which its
/// tests check); after that, only the writes that differ from the last fill's are made.
#[inline(never)]
fn bind_boxed(host: NodeRef<Div>, step: Box<dyn Fn() -> (u64, String, Fill)>) {
    let last = StoredValue::new_local((None, Fill::default()));
    watch(move || {
        let Some(host) = host.get() else {
            return;
        };
        let (shape, markup, fill) = step();
        if last.with_value(|(drawn, _)| *drawn != Some(shape)) {
            host.set_inner_html(&markup);
        } else {
            last.with_value(|(_, last)| {
                for (hole, write) in fill.changed_since(last) {
                    if let Some(el) = node(&host, *hole) {
                        apply(&el, write);
                    }
                }
            });
        }
        last.set_value((Some(shape), fill));
    });
}

/// The node a hole names under `host`.
fn node(host: &Element, hole: Hole) -> Option<Element> {
    let list = host.query_selector_all(hole.slot.selector()).ok()?;
    list.item(u32::from(hole.index))?.dyn_into::<Element>().ok()
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
        Write::Flag(name, on) => {
            let _ = el.toggle_attribute_with_force(name, *on);
        }
        Write::Value(value) => super::dom::set_value(el, value),
        Write::Markup(markup) | Write::Keyed(_, Poured(markup)) => el.set_inner_html(markup),
        Write::Data(name, Some(value)) => {
            let _ = el.set_attribute(name, value);
        }
        Write::Data(name, None) => {
            let _ = el.remove_attribute(name);
        }
    }
}
