//! The stage's "keep this run" buttons: a live widget ([`ExportBar`]), the names of the
//! files they save and what they say. The UI reads a click by the button's slot
//! ([`Keep::slot`]); only what a run changes is written (shown or not, which buttons are
//! enabled, the message).

use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
use sim::Scenario;

/// What a button of the bar does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Copy the page's address, which reproduces the run.
    CopyLink,
    /// Save the run as JSON.
    Json,
    /// Save every request as CSV.
    Csv,
}

impl Keep {
    /// Every button, in the bar's order.
    pub const ALL: [Keep; 3] = [Keep::CopyLink, Keep::Json, Keep::Csv];

    /// Its button.
    pub const fn slot(self) -> Slot {
        match self {
            Keep::CopyLink => slot!("copy-link"),
            Keep::Json => slot!("export-json"),
            Keep::Csv => slot!("export-csv"),
        }
    }

    /// The button's `data-testid`, for the tests.
    fn testid(self) -> &'static str {
        match self {
            Keep::CopyLink => "copy-link",
            Keep::Json => "export-json",
            Keep::Csv => "export-csv",
        }
    }

    /// The button's text.
    fn label(self) -> &'static str {
        match self {
            Keep::CopyLink => "Copy link",
            Keep::Json => "Download JSON",
            Keep::Csv => "Download CSV",
        }
    }
}

/// The status line: what a press did.
pub const STATUS: Slot = slot!("export-status");

/// Why the CSV button does nothing, as its tooltip and as the message a press shows.
pub const NO_ROWS: &str = "Runs this large keep no per-request record: there are no rows to save.";

/// What the JSON button says for a run computed in a simulation worker, which hands the
/// page its counters only (`run::whole`).
pub const NO_JSON: &str = "This run was computed in a worker, which hands the page its counters only: the command in the footer, with --export json, writes the whole run as JSON.";

/// What the bar says once the browser has written the link to the clipboard.
pub const LINK_COPIED: &str = "Link copied: it reproduces this run exactly.";

/// What the bar says when the browser would not let the page write the clipboard.
pub fn copy_refused(href: &str) -> String {
    format!("The browser would not let the page copy; copy the address instead: {href}")
}

/// What the bar says when the browser would not make the file.
pub const SAVE_REFUSED: &str = "The browser refused to make the file.";

/// The name of the file a run is saved as: its strategy and seed, then `ext`.
pub fn file_name(scenario: Option<&Scenario>, ext: &str) -> String {
    scenario.map_or(format!("run.{ext}"), |s| {
        format!("rate-limit-lab-{}-seed-{}.{ext}", s.strategy, s.seed)
    })
}

/// The bar as it stands before any run: three buttons, the downloads disabled, and an
/// empty status line ([`ExportBar`]).
pub fn export_markup() -> Markup {
    draw_buttons(&BarState::default(), &mut Fill::default())
}

/// The bar itself, hidden before a run ([`ExportBar`]).
pub const BAR: Slot = slot!("export-bar");

/// What the bar shows: whether a run is on screen, whether it is done and keeps a
/// per-request record, and what a press said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarState {
    /// No run is on screen: the bar is hidden.
    pub idle: bool,
    /// The run is done: its files can be saved.
    pub done: bool,
    /// The run keeps a per-request record (or there is none yet): it has rows.
    pub recorded: bool,
    /// What a press said, if anything.
    pub message: Option<String>,
}

impl Default for BarState {
    /// Before any run: hidden, nothing to save yet, nothing said.
    fn default() -> Self {
        Self {
            idle: true,
            done: false,
            recorded: true,
            message: None,
        }
    }
}

/// The "keep this run" bar ([`Live`]): hidden while no run is on screen, its downloads
/// enabled once the run is done (the CSV only with rows, its tooltip saying why not),
/// and a status line for what a press did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportBar;

impl Live for ExportBar {
    type State = BarState;

    fn shape(&self, _: &BarState) -> u64 {
        0
    }

    fn draw(&self, b: &BarState, fill: &mut Fill) -> Markup {
        html! {
            div.rll-export.rll-hidden[fill.class(BAR, "rll-hidden", b.idle)] data-slot=(BAR) { (draw_buttons(b, fill)) }
        }
    }
}

/// The buttons and the status line, recorded in `fill`.
fn draw_buttons(b: &BarState, fill: &mut Fill) -> Markup {
    let off = |k: Keep| match k {
        Keep::CopyLink => false,
        Keep::Json => !b.done,
        Keep::Csv => !b.done || !b.recorded,
    };
    let no_rows = (!b.recorded).then(|| NO_ROWS.to_string());
    html! {
        @for k in Keep::ALL {
            @if k == Keep::Csv {
                button type="button" data-slot=(k.slot()) data-testid=(k.testid()) disabled[fill.flag(k.slot(), "disabled", off(k))]
                    title=[fill.attr_text(k.slot(), "title", no_rows.clone())] { (k.label()) }
            } @else {
                button type="button" data-slot=(k.slot()) data-testid=(k.testid()) disabled[fill.flag(k.slot(), "disabled", off(k))] { (k.label()) }
            }
        }
        span.rll-field-help role="status" data-slot=(STATUS) { (fill.text(STATUS, b.message.clone().unwrap_or_default())) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_has_its_own_slot_and_testid() {
        let markup = export_markup().into_string();
        let mut names = std::collections::BTreeSet::new();
        for slot in Keep::ALL.map(Keep::slot).into_iter().chain([STATUS]) {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(markup.matches(&attr).count(), 1, "{slot:?}");
            assert!(names.insert(slot.name()), "{slot:?} named twice");
        }
        for k in Keep::ALL {
            assert!(markup.contains(&format!("data-testid=\"{}\"", k.testid())));
        }
        assert!(markup.contains("role=\"status\""));
    }

    #[test]
    fn only_the_link_can_be_kept_before_a_run_is_done() {
        let markup = export_markup().into_string();
        assert_eq!(markup.matches(" disabled>").count(), 2);
        assert!(markup.contains("data-testid=\"copy-link\">Copy link<"));
    }

    #[test]
    fn a_file_is_named_after_its_strategy_and_seed() {
        let s = Scenario {
            seed: 42,
            ..Scenario::default()
        };
        let name = file_name(Some(&s), "csv");
        assert_eq!(name, format!("rate-limit-lab-{}-seed-42.csv", s.strategy));
        assert_eq!(file_name(None, "json"), "run.json");
        assert!(copy_refused("http://x/?seed=1").ends_with("http://x/?seed=1"));
    }

    #[test]
    fn the_bar_draws_what_it_fills_and_a_message_changes_only_the_status() {
        let done = BarState {
            idle: false,
            done: true,
            recorded: false,
            message: None,
        };
        for b in [BarState::default(), done.clone()] {
            crate::shared::live::check_drawn(&ExportBar, &b).unwrap();
        }
        let m = ExportBar.markup(&done).into_string();
        assert!(
            m.starts_with("<div class=\"rll-export\" data-slot=\"export-bar\">"),
            "{m}"
        );
        assert!(m.contains(&format!("disabled title=\"{NO_ROWS}\"")), "{m}");
        let said = BarState {
            message: Some(LINK_COPIED.into()),
            ..done.clone()
        };
        let fill = |b: &BarState| {
            let mut fill = Fill::default();
            ExportBar.draw(b, &mut fill);
            fill
        };
        let changed: Vec<Slot> = fill(&done)
            .writes()
            .iter()
            .zip(fill(&said).writes())
            .filter(|(x, y)| x != y)
            .map(|(_, (hole, _))| hole.slot)
            .collect();
        assert_eq!(changed, [STATUS]);
    }
}
