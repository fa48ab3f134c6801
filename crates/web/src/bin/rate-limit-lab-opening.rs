//! The opening's player, as a module of its own (built by trunk): the lab's bare address
//! starts it before the run page's module, so the opening's Play, ← and → work within a
//! few kilobytes (`web::run::opening_player`).

#[cfg(target_arch = "wasm32")]
fn main() {
    web::run::opening_player::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is the browser app: serve it with trunk. The CLI is `cargo run --bin ratelab`.");
}
