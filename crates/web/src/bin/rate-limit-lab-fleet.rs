//! The limits page's fleet, as a module of its own (built by trunk): the limits page's
//! module downloads it when a reader picks the fleet (`web::limits::fleet_view`), and
//! calls [`draw`] whenever its knobs move. It runs the fleet and writes what the page
//! shows, and nothing else, so the limits page carries none of the fleet's engine or
//! words until then.

#[cfg(target_arch = "wasm32")]
mod part {
    use wasm_bindgen::prelude::*;

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
