//! The client view, as a module of its own (built by trunk): it mounts, nothing else.

#[cfg(target_arch = "wasm32")]
fn main() {
    web::client::entry::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is a page of the browser app: serve it with trunk. The CLI is `cargo run --bin ratelab`.");
}
