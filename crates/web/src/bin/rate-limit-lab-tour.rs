//! The run page with its guided walk, as a module of its own (built by trunk): `tour=1` opens it, in `walk.html`.

#[cfg(target_arch = "wasm32")]
fn main() {
    web::run::entry::mount_tour();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is the browser app: serve it with trunk. The CLI is `cargo run --bin ratelab`.");
}
