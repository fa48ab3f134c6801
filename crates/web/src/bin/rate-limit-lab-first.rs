//! The lab's bare address, as a module of its own (built by trunk): the run page and the opening story, without the walk.

#[cfg(target_arch = "wasm32")]
fn main() {
    web::run::entry::mount_first();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is the browser app: serve it with trunk. The CLI is `cargo run --bin ratelab`.");
}
