//! The words of the legends: what each customer's fate and each timeline mark is called,
//! and the grid's words around its canvas.

use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
use sim::timeline::MarkKind;
use sim::world::Fate;

/// A customer's fate, as the grid's legend names it.
pub const fn fate_label(fate: Fate) -> &'static str {
    match fate {
        Fate::Pending => "not done yet",
        Fate::Charged => "charged once",
        Fate::ChargedMoreThanOnce => "charged twice or more",
        Fate::Declined => "declined",
        Fate::GaveUp => "gave up",
        Fate::GaveUpButCharged => "gave up, but charged",
        Fate::Lost => "told charged, never charged",
        Fate::Refused => "key refused (422)",
    }
}

/// A timeline mark, as the legend names it.
pub const fn mark_label(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Ok => "200 charged",
        MarkKind::Declined => "400 declined",
        MarkKind::Conflict => "409 in progress",
        MarkKind::KeyReused => "422 key reused",
        MarkKind::TooMany => "429 too many",
        MarkKind::ServerError => "500 failed",
        MarkKind::Overloaded => "503 overloaded",
        MarkKind::TimedOut => "client timed out",
        MarkKind::Waiting => "waiting",
    }
}

/// How many customers met one fate, in the grid's legend.
pub const FATE_COUNT: Slot = slot!("fate-count");

/// How many customers met each fate, in the order of `Fate::ALL`.
pub type FateCounts = [usize; Fate::ALL.len()];

/// Counts `fates` by fate, for [`FatesLegend`].
pub fn fate_counts(fates: &[Fate]) -> FateCounts {
    let mut counts = [0; Fate::ALL.len()];
    for f in fates {
        if let Some(i) = Fate::ALL.iter().position(|k| k == f) {
            counts[i] += 1;
        }
    }
    counts
}

/// The grid's legend ([`Live`]): each fate's swatch, its name and how many customers met
/// it (`data-result="grid.<fate>"`, read by the tests), the counts live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FatesLegend;

impl Live for FatesLegend {
    type State = FateCounts;

    fn shape(&self, _: &FateCounts) -> u64 {
        0
    }

    fn draw(&self, counts: &FateCounts, fill: &mut Fill) -> Markup {
        html! {
            ul.rll-fates {
                @for (k, n) in Fate::ALL.iter().zip(counts) {
                    li {
                        span.rll-swatch data-fate=(k.as_str()) aria-hidden="true" {}
                        (fate_label(*k)) ": "
                        span.rll-num data-slot=(FATE_COUNT) data-result={ "grid." (k.as_str()) } {
                            (fill.text(FATE_COUNT, n.to_string()))
                        }
                    }
                }
            }
        }
    }
}

/// The grid canvas's label for screen readers.
pub const GRID_LABEL: &str =
    "Customers, one cell each. Arrow keys move between customers; Enter opens the story.";

/// Where the grid announces the focused cell ([`focused_cell`]).
pub const GRID_SAID: Slot = slot!("grid-said");
/// The caption under a grid that draws fewer customers than the run has, hidden
/// otherwise.
pub const GRID_CUT: Slot = slot!("grid-cut");

/// What the notes after the grid show: the focused cell's sentence, if a cell has the
/// focus, and whether the run has more customers than the grid draws.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridNotesState {
    /// What the focused cell says ([`focused_cell`]).
    pub said: Option<String>,
    /// The run has more customers than the grid draws.
    pub cut: bool,
}

/// The notes after the grid ([`Live`]): the focused cell announced (a live region), and
/// the caption saying the grid is cut, hidden while it is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridNotes;

impl Live for GridNotes {
    type State = GridNotesState;

    fn shape(&self, _: &GridNotesState) -> u64 {
        0
    }

    fn draw(&self, s: &GridNotesState, fill: &mut Fill) -> Markup {
        html! {
            p.rll-sr aria-live="polite" data-slot=(GRID_SAID) { (fill.text(GRID_SAID, s.said.clone().unwrap_or_default())) }
            p.rll-caption data-slot=(GRID_CUT) hidden[fill.flag(GRID_CUT, "hidden", !s.cut)] { (grid_caption()) }
        }
    }
}

/// The notes after the grid before a cell has the focus, for a run the grid draws
/// whole.
pub fn grid_notes_markup() -> Markup {
    GridNotes.markup(&GridNotesState::default())
}

/// Under the grid, when the run has more customers than it draws.
pub fn grid_caption() -> String {
    format!(
        "The grid shows the first {} customers.",
        crate::shared::format::count(crate::shared::budget::GRID_MAX_CELLS.into())
    )
}

/// What the grid announces for the focused cell.
pub fn focused_cell(customer: u32, fate: Fate) -> String {
    format!(
        "Customer {customer}: {}. Press Enter to open the story.",
        fate_label(fate)
    )
}

/// The marks' legend as a list ([`Live`], with nothing that changes): the same shapes as
/// the canvas, with words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarksLegend;

impl Live for MarksLegend {
    type State = ();

    fn shape(&self, _: &()) -> u64 {
        0
    }

    fn draw(&self, _: &(), _: &mut Fill) -> Markup {
        html! { ul.rll-legend { (marks_markup()) } }
    }
}

/// The timeline's legend as markup: each mark's shape, drawn as the canvas draws it, in
/// its kind's colour, with its name; then the slow line and the late-charge ring. One
/// node of markup costs the page's module far less than a view per item (docs/architecture.md, "Drawing").
pub fn marks_markup() -> Markup {
    let icon = |class: Option<&str>, style: Option<Markup>, shape: Markup| {
        html! {
            svg viewBox="-6 -6 12 12" width="12" height="12" aria-hidden="true" class=[class] style=[style] { (shape) }
        }
    };
    html! {
        @for k in MarkKind::ALL {
            li {
                (icon(None, Some(html! { "color: var(--rll-mark-" (k.as_str()) ")" }), mark_icon(k)))
                (mark_label(k))
            }
        }
        li {
            (icon(Some("rll-legend-line"), None, html! {
                line x1="-6" y1="0" x2="6" y2="0" stroke="currentColor" stroke-width="1.5" {}
            }))
            "slow: time the provider spent"
        }
        li {
            (icon(Some("rll-legend-harm"), None, html! {
                circle r="4.5" fill="none" stroke="currentColor" stroke-width="1.5" {}
            }))
            "charged after the client stopped waiting"
        }
    }
}

/// A mark's shape in SVG, in a 12 × 12 box centred on 0.
fn mark_icon(kind: MarkKind) -> Markup {
    match kind {
        MarkKind::Ok => html! { circle r="4" fill="currentColor" {} },
        MarkKind::Declined => html! {
            rect x="-4" y="-4" width="8" height="8" fill="currentColor" stroke="currentColor" {}
        },
        MarkKind::Waiting => html! {
            rect x="-4" y="-4" width="8" height="8" fill="none" stroke="currentColor" {}
        },
        MarkKind::Conflict => html! { polygon points="0,-5 5,4 -5,4" fill="currentColor" {} },
        MarkKind::KeyReused => {
            html! { polygon points="0,5 5,-4 -5,-4" fill="none" stroke="currentColor" stroke-width="1.5" {} }
        }
        MarkKind::TooMany => html! {
            path d="M-4,-4 L4,4 M4,-4 L-4,4" stroke="currentColor" stroke-width="1.6" {}
        },
        MarkKind::ServerError => {
            html! { polygon points="0,-5 5,0 0,5 -5,0" fill="currentColor" {} }
        }
        MarkKind::Overloaded => html! { polygon points="-5,-4 5,-4 0,5" fill="currentColor" {} },
        MarkKind::TimedOut => html! {
            circle r="4.5" fill="none" stroke="currentColor" stroke-width="1.5" {}
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marks_legend_names_every_kind_in_its_colour_and_adds_the_two_lines() {
        let m = marks_markup().into_string();
        assert_eq!(m.matches("<li>").count(), MarkKind::ALL.len() + 2);
        for k in MarkKind::ALL {
            let item = format!(
                "var(--rll-mark-{})\">{}</svg>{}</li>",
                k.as_str(),
                mark_icon(k).into_string(),
                mark_label(k)
            );
            assert!(m.contains(&item), "{k:?}: {m}");
        }
        // Hollow and filled squares differ, as on the canvas.
        assert_ne!(
            mark_icon(MarkKind::Declined).into_string(),
            mark_icon(MarkKind::Waiting).into_string()
        );
        assert!(m.ends_with("charged after the client stopped waiting</li>"));
    }

    #[test]
    fn the_fates_legend_counts_each_fate() {
        let fates = [Fate::Charged, Fate::Charged, Fate::GaveUp];
        let counts = fate_counts(&fates);
        crate::shared::live::check_drawn(&FatesLegend, &counts).unwrap();
        let m = FatesLegend.markup(&counts).into_string();
        assert_eq!(m.matches("<li>").count(), Fate::ALL.len());
        assert!(m.contains(&format!("data-fate=\"{}\" aria-hidden=\"true\"></span>charged once: <span class=\"rll-num\" data-slot=\"fate-count\" data-result=\"grid.{}\">2</span>", Fate::Charged.as_str(), Fate::Charged.as_str())), "{m}");
        assert!(
            m.contains(&format!(
                "data-result=\"grid.{}\">1</span>",
                Fate::GaveUp.as_str()
            )),
            "{m}"
        );
        assert!(
            m.contains(&format!(
                "data-result=\"grid.{}\">0</span>",
                Fate::Declined.as_str()
            )),
            "{m}"
        );
        let notes = grid_notes_markup().into_string();
        for slot in [GRID_SAID, GRID_CUT] {
            assert!(
                notes.contains(&format!("data-slot=\"{}\"", slot.name())),
                "{notes}"
            );
        }
        assert!(
            notes.contains(&format!("hidden>{}</p>", grid_caption())),
            "{notes}"
        );
        let s = GridNotesState {
            said: Some(focused_cell(7, Fate::Declined)),
            cut: true,
        };
        crate::shared::live::check_drawn(&GridNotes, &s).unwrap();
        let (mut before, mut after) = (Fill::default(), Fill::default());
        GridNotes.draw(&GridNotesState::default(), &mut before);
        let m = GridNotes.draw(&s, &mut after).into_string();
        assert!(!m.contains("hidden"), "{m}");
        let changed = after.changed_since(&before).count();
        assert_eq!(changed, 2);
        assert!(MarksLegend
            .markup(&())
            .into_string()
            .starts_with("<ul class=\"rll-legend\"><li>"));
        assert_eq!(
            focused_cell(7, Fate::Declined),
            "Customer 7: declined. Press Enter to open the story."
        );
    }
}
