//! The run page with its guided walk, as a module of its own (built by trunk): a first visit and `tour=1` open it.

#[cfg(target_arch = "wasm32")]
fn main() {
    web::run::entry::mount_tour();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is the browser app: serve it with trunk. The CLI is `cargo run --bin ratelab`.");
}
