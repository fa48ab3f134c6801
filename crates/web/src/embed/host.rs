//! The two ways into a blog post. `?embed=1` shows one widget in a page of its own, for
//! an iframe, and tells the parent page its height. A `<div data-rate-limit-lab …>` on
//! any page gets a widget mounted into a shadow root, styled only by our stylesheet.

use crate::embed::widget::Widget;
use crate::shared::dom::lab_base;
use crate::shared::observe::use_observer;
use leptos::prelude::*;
use page::run::query::{Counters, EmbedQuery, Story};
use page::run::widget::{host_pairs, HOST_ATTR};
use wasm_bindgen::JsCast;

/// The message a framed widget posts to its parent whenever its height changes.
pub const HEIGHT_MESSAGE: &str = "rate-limit-lab:height";

/// The framed page: one widget, and its height sent to the parent.
#[component]
pub fn EmbedPage(
    /// What the frame's link asks for.
    query: EmbedQuery,
) -> impl IntoView {
    let root = NodeRef::<leptos::html::Div>::new();
    use_observer::<web_sys::ResizeObserver, _>(root, move |_entries| {
        // Where the widget ends, from the top of the document: the document's own
        // scroll height never shrinks below the frame's height, so a frame sized by it
        // only ever grows.
        let Some(el) = root.get() else {
            return;
        };
        let scrolled = window().scroll_y().unwrap_or(0.0);
        let height = (el.get_bounding_client_rect().bottom() + scrolled).ceil() as i32;
        let msg = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&msg, &"type".into(), &HEIGHT_MESSAGE.into());
        let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
        if let Ok(Some(parent)) = window().parent() {
            // The parent checks our origin; the height is not a secret.
            let _ = parent.post_message(&msg, "*");
        }
    });
    view! {
        <div class="rll-embed" node_ref=root>
            <Widget query lab_url=lab_base()/>
        </div>
    }
}

/// Every element of the document that carries `attr`, in document order: the widgets'
/// hosts, found by the page layer's name for their attribute.
fn hosts(attr: &str) -> Vec<web_sys::HtmlElement> {
    let all = document().get_elements_by_tag_name("*");
    (0..all.length())
        .filter_map(|i| all.item(i))
        .filter(|el| el.has_attribute(attr))
        .filter_map(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
        .collect()
}

/// Mounts a widget into every element carrying the host attribute
/// (`data-rate-limit-lab`); returns how many. Each gets a shadow root holding our
/// stylesheet and the widget, so the page's styles and ours never meet. The element's
/// `data-*` attributes are the URL's keys (`data-strategy`, `data-seed`,
/// `data-max-inflight`…).
pub fn mount_widgets() -> usize {
    let hosts = hosts(HOST_ATTR);
    let base = lab_base();
    for host in &hosts {
        let pairs = host_pairs(attributes(host));
        let query = page::site::keys::read::<(Story, Counters)>(&pairs);
        let init = web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open);
        let Ok(shadow) = host.attach_shadow(&init) else {
            continue;
        };
        if let Ok(link) = document().create_element("link") {
            let _ = link.set_attribute("rel", "stylesheet");
            let _ = link.set_attribute("href", &format!("{base}main.css"));
            let _ = shadow.append_child(&link);
        }
        let Ok(container) = document().create_element("div") else {
            continue;
        };
        let _ = shadow.append_child(&container);
        let Ok(container) = container.dyn_into::<web_sys::HtmlElement>() else {
            continue;
        };
        let lab = base.clone();
        leptos::mount::mount_to(container, move || view! { <Widget query lab_url=lab/> }).forget();
    }
    hosts.len()
}

/// The element's attributes, as `(name, value)`.
fn attributes(el: &web_sys::Element) -> Vec<(String, String)> {
    let names = el.get_attribute_names();
    names
        .iter()
        .filter_map(|n| n.as_string())
        .map(|name| {
            let value = el.get_attribute(&name).unwrap_or_default();
            (name, value)
        })
        .collect()
}
