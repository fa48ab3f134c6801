//! The limits page's fleet, as a module of its own (built by trunk): the limits page's
//! module downloads it when a reader picks the fleet (`web::limits::fleet_view`), calls
//! `draw` whenever its knobs move, and `race` once to mount the race below it. It runs
//! the fleet and the race and writes what the page shows, so the limits page carries
//! none of their engines, words or widgets until then.

#[cfg(target_arch = "wasm32")]
mod part {
    use std::any::Any;
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;

    thread_local! {
        /// The race on screen: replaced, and so taken off its old box, by the next.
        static RACE: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    }

    /// Mounts the race, stepped (`web::limits::race_view`), in `host`: the limits page
    /// gives it the box below the fleet each time the fleet is picked.
    #[wasm_bindgen]
    pub fn race(host: web_sys::HtmlElement) {
        use leptos::prelude::*;
        use web::limits::race_view::RaceView;
        let handle = leptos::mount::mount_to(host, || view! { <RaceView/> });
        RACE.with(|r| r.replace(Some(Box::new(handle))));
    }

    /// The fleet for `seed` and the lab's settings as their values, in the knobs' order:
    /// its body's markup and its cells' markup, or the sentence the page shows instead
    /// (`page::limits::fleet::draw_on_page`).
    #[wasm_bindgen]
    pub fn draw(seed: u64, values: &[u64]) -> Result<Vec<String>, String> {
        page::limits::fleet::draw_on_page(seed, values).map(Vec::from)
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is a part of the browser app: serve it with trunk. The CLI is `cargo run --bin ratelab`.");
}
