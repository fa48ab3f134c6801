//! The opening story as the lab's bare address paints it before any module arrives: the
//! page layer's section, drawn from the record of the run a first visit opens on (an
//! empty query's scenario). `scripts/entry-pages.mjs` runs this after each trunk build
//! and writes its output into `index.html` where the source marks the place, so the
//! picture in the page is always the record's.
//!
//!     cargo run --quiet --release -p page --bin opening-shell

use page::run::opening::{opening_section, Opening};

fn main() {
    let first =
        page::site::keys::read::<(page::run::query::Story, page::run::query::Walk)>(&[]).base;
    match sim::story::key_at_work(&first.scenario) {
        Some(key) => print!(
            "{}",
            opening_section(&Opening::new(key), first.speed).into_string()
        ),
        None => {
            eprintln!(
                "The first visit's run charges no one twice: there is no opening story to draw."
            );
            std::process::exit(1);
        }
    }
}
