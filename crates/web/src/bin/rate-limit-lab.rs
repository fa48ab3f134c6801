//! The run page's module (built by trunk): it mounts the page, nothing else.

#[cfg(target_arch = "wasm32")]
fn main() {
    web::run::entry::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is the browser app: serve it with trunk. The CLI is `cargo run --bin ratelab`.");
}
