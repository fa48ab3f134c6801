//! The stage's "keep this run" buttons ([`ExportBar`], a live widget), the names of the
//! files they save and what they say. The UI reads a click by the button's slot
//! ([`Keep::slot`]); a run changes only what it changes (shown or not, which buttons are
//! enabled, the message), written in place.

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

/// The bar itself: hidden until a run is on screen.
pub const EXPORT_BAR: Slot = slot!("export-bar");

/// The keep-this-run bar ([`Live`]): three buttons, the files disabled until a run is
/// done, and a status line for what a press did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportBar;

/// What the bar shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportState {
    /// A run is on screen: the bar is shown.
    pub shown: bool,
    /// The run is done: its files can be saved.
    pub done: bool,
    /// The run keeps a record of its requests (a CSV has rows).
    pub recorded: bool,
    /// What the last press did.
    pub said: Option<String>,
}

impl Live for ExportBar {
    type State = ExportState;

    fn shape(&self, _: &ExportState) -> u64 {
        0
    }

    fn draw(&self, s: &ExportState, fill: &mut Fill) -> Markup {
        html! {
            div.rll-export.rll-hidden[fill.class(EXPORT_BAR, "rll-hidden", !s.shown)] data-slot=(EXPORT_BAR) {
                @for k in Keep::ALL {
                    @let off = match k {
                        Keep::CopyLink => false,
                        Keep::Json => !s.done,
                        Keep::Csv => !s.done || !s.recorded,
                    };
                    @let title = (k == Keep::Csv && !s.recorded).then(|| NO_ROWS.to_string());
                    button type="button" data-slot=(k.slot()) data-testid=(k.testid())
                        disabled[fill.flag(k.slot(), "disabled", off)]
                        title=[fill.data(k.slot(), "title", title)] { (k.label()) }
                }
                span.rll-field-help role="status" data-slot=(STATUS) {
                    (fill.text(STATUS, s.said.clone().unwrap_or_default()))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::live::check_drawn;

    fn idle() -> ExportState {
        ExportState {
            recorded: true,
            ..ExportState::default()
        }
    }

    #[test]
    fn every_button_has_its_own_slot_and_testid() {
        let markup = ExportBar.markup(&idle()).into_string();
        let mut names = std::collections::BTreeSet::new();
        for slot in Keep::ALL
            .map(Keep::slot)
            .into_iter()
            .chain([STATUS, EXPORT_BAR])
        {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(markup.matches(&attr).count(), 1, "{slot:?}");
            assert!(names.insert(slot.name()), "{slot:?} named twice");
        }
        for k in Keep::ALL {
            assert!(markup.contains(&format!("data-testid=\"{}\"", k.testid())));
        }
        assert!(markup.contains("role=\"status\""));
        assert!(markup.contains("rll-hidden"), "hidden with no run");
    }

    #[test]
    fn only_the_link_can_be_kept_before_a_run_is_done() {
        let markup = ExportBar.markup(&idle()).into_string();
        assert_eq!(markup.matches(" disabled").count(), 2, "{markup}");
        assert!(markup.contains("data-testid=\"copy-link\">Copy link<"));
    }

    #[test]
    fn a_run_writes_the_bar_in_place_and_a_run_with_no_record_has_no_rows() {
        let running = ExportState {
            shown: true,
            ..idle()
        };
        let done = ExportState {
            done: true,
            said: Some(LINK_COPIED.into()),
            ..running.clone()
        };
        let unrecorded = ExportState {
            recorded: false,
            ..done.clone()
        };
        for s in [&idle(), &running, &done, &unrecorded] {
            check_drawn(&ExportBar, s).unwrap();
        }
        let changes = |from: &ExportState, to: &ExportState| {
            let (mut a, mut b) = (Fill::default(), Fill::default());
            ExportBar.draw(from, &mut a);
            ExportBar.draw(to, &mut b);
            b.changed_since(&a).map(|(h, _)| h.slot).collect::<Vec<_>>()
        };
        assert_eq!(changes(&idle(), &running), [EXPORT_BAR]);
        let on_done = changes(&running, &done);
        assert!(on_done.contains(&Keep::Json.slot()) && on_done.contains(&STATUS));
        assert!(!on_done.contains(&Keep::CopyLink.slot()));
        let m = ExportBar.markup(&done).into_string();
        assert_eq!(m.matches(" disabled").count(), 0, "{m}");
        let m = ExportBar.markup(&unrecorded).into_string();
        assert_eq!(m.matches(" disabled").count(), 1, "{m}");
        assert!(m.contains(&format!("title=\"{NO_ROWS}\"")));
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
}
