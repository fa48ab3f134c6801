//! The run page's first module (built by trunk): `run.html` starts it before the page's
//! own, so the strategy buttons and the run's controls answer while the rest of the page
//! is still on the line. It is the page down to its stage, without the panels around it;
//! the whole page's module takes the page over as it mounts, the run on screen with it
//! (`web::run::hand_over`).

#[cfg(target_arch = "wasm32")]
mod first {
    use wasm_bindgen::prelude::*;

    /// Stops the run on screen and takes this page off the screen: the run's line for
    /// the whole page's module (`page::run::hand_over`), if one had started. The loader
    /// gives it to the page as `window.rateLimitLabHandOver`.
    #[wasm_bindgen]
    pub fn hand_over() -> Option<String> {
        web::run::hand_over::give()
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    web::run::entry::mount_stage();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is the browser app: serve it with trunk. The CLI is `cargo run --bin ratelab`.");
}
