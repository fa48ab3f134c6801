//! The run page's timeline as readers meet it: its label and what it says before a run,
//! the tooltip that names the request under the pointer, and the playhead under it (a
//! slider to see a finished run at any instant, with buttons stepping between requests
//! and between harmful moments). The drawing itself is the UI's canvas.

use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
use sim::moments::{Harm, HarmMoment};

/// The canvas's label for screen readers.
pub const TIMELINE_LABEL: &str = "Timeline: each request as a mark at the time it was sent, one row per customer; below, the provider's rate window and in-flight count against their limits.";

/// What the timeline says before a run, in place of a blank canvas.
pub const TIMELINE_EMPTY: &str = "Every request will appear here, one mark each, as the run sends it: pick a strategy, or press Space.";

/// The tooltip naming the request under the pointer.
pub const TIP: Slot = slot!("timeline-tip");

/// What follows the canvas, as markup set once: what the timeline says before a run (the
/// stylesheet shows it only then), and the tooltip, empty and hidden until the pointer
/// is on a mark.
pub fn notes_markup() -> Markup {
    html! {
        p.rll-timeline-empty data-testid="timeline-empty" { (TIMELINE_EMPTY) }
        p.rll-tip role="tooltip" data-slot=(TIP) data-testid="timeline-tip" hidden {}
    }
}

/// The tooltip's words for the request of `customer` told by `sentence`.
pub fn tip_text(customer: u32, sentence: &str) -> String {
    format!("Customer {customer}. {sentence}")
}

/// The playhead slider's label.
pub const PLAYHEAD_LABEL: &str = "Playhead: the run as it stood at this simulated time";

/// The playhead's slider.
pub const PLAYHEAD: Slot = slot!("playhead");
/// The simulated time the playhead is at.
pub const PLAYHEAD_TIME: Slot = slot!("playhead-time");
/// What the playhead landed on, when it is a harmful moment.
pub const PLAYHEAD_HARM: Slot = slot!("playhead-harm");

/// A step button beside the playhead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// To the previous harmful moment.
    PrevHarm,
    /// To the previous request.
    PrevRequest,
    /// To the next request.
    NextRequest,
    /// To the next harmful moment.
    NextHarm,
}

impl Step {
    /// Every step button, in the bar's order.
    pub const ALL: [Step; 4] = [
        Step::PrevHarm,
        Step::PrevRequest,
        Step::NextRequest,
        Step::NextHarm,
    ];

    /// Its button.
    pub const fn slot(self) -> Slot {
        match self {
            Step::PrevHarm => slot!("prev-harm"),
            Step::PrevRequest => slot!("prev-request"),
            Step::NextRequest => slot!("next-request"),
            Step::NextHarm => slot!("next-harm"),
        }
    }

    /// True if it steps between harmful moments, not requests.
    pub const fn harm(self) -> bool {
        matches!(self, Step::PrevHarm | Step::NextHarm)
    }

    /// True if it steps forward.
    pub const fn forward(self) -> bool {
        matches!(self, Step::NextRequest | Step::NextHarm)
    }

    /// The button's `data-testid`, for the tests.
    const fn testid(self) -> &'static str {
        match self {
            Step::PrevHarm => "prev-harm",
            Step::PrevRequest => "prev-request",
            Step::NextRequest => "next-request",
            Step::NextHarm => "next-harm",
        }
    }

    /// The button's text and its tooltip.
    const fn words(self) -> (&'static str, &'static str) {
        match self {
            Step::PrevHarm => ("◀◀ harm", "Previous harmful moment (Shift + ←)"),
            Step::PrevRequest => ("◀ request", "Previous request (←)"),
            Step::NextRequest => ("request ▶", "Next request (→)"),
            Step::NextHarm => ("harm ▶▶", "Next harmful moment (Shift + →)"),
        }
    }
}

/// The playhead's slider, its time and what it landed on, and the step buttons, as
/// markup set once: `style` spans the slider along the plot. The UI writes the slider's
/// range and value and the two texts as a run goes, and reads a step button's click by
/// its slot ([`Step::slot`]).
pub fn playhead_markup(style: &str) -> Markup {
    html! {
        input type="range" data-slot=(PLAYHEAD) data-testid="playhead" style=(style)
            aria-label=(PLAYHEAD_LABEL) min="0" max="0" step="1";
        span data-slot=(PLAYHEAD_TIME) data-testid="playhead-time" {}
        " "
        span data-slot=(PLAYHEAD_HARM) data-testid="playhead-harm" {}
        @for s in Step::ALL {
            @let (text, title) = s.words();
            " "
            button.rll-quiet type="button" data-slot=(s.slot()) data-testid=(s.testid()) title=(title) { (text) }
        }
    }
}

/// What the playhead landed on, in words: "double charge: customer 12".
pub fn harm_text(m: &HarmMoment) -> String {
    let what = match m.harm {
        Harm::Storm => "a storm of refusals starts",
        Harm::DoubleCharge => "double charge",
        Harm::Conflict => "409: a retry met the first attempt",
        Harm::ChargedAfterGivingUp => "charged, though the client gave up",
    };
    format!("{what}: customer {}", m.customer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_playhead_names_each_of_its_nodes_once() {
        let markup = playhead_markup("margin-left:40px").into_string();
        assert!(markup.contains("data-testid=\"playhead\" style=\"margin-left:40px\""));
        assert!(markup.contains(&format!("aria-label=\"{PLAYHEAD_LABEL}\"")));
        let slots = [PLAYHEAD, PLAYHEAD_TIME, PLAYHEAD_HARM]
            .into_iter()
            .chain(Step::ALL.map(Step::slot));
        let mut names = std::collections::BTreeSet::new();
        for slot in slots {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(markup.matches(&attr).count(), 1, "{slot:?}");
            assert!(names.insert(slot.name()), "{slot:?} named twice");
        }
        for s in Step::ALL {
            let (text, title) = s.words();
            assert!(
                markup.contains(&format!("title=\"{title}\">{text}</button>")),
                "{s:?}"
            );
            assert!(markup.contains(&format!("data-testid=\"{}\"", s.testid())));
        }
    }

    #[test]
    fn each_step_button_steps_its_own_way() {
        let ways = Step::ALL.map(|s| (s.harm(), s.forward()));
        assert_eq!(
            ways,
            [(true, false), (false, false), (false, true), (true, true)]
        );
    }

    #[test]
    fn the_tip_and_the_landing_say_whose_it_is() {
        let notes = notes_markup().into_string();
        assert!(notes.contains(&format!(">{TIMELINE_EMPTY}</p>")), "{notes}");
        assert!(
            notes.ends_with("data-slot=\"timeline-tip\" data-testid=\"timeline-tip\" hidden></p>"),
            "{notes}"
        );
        assert_eq!(tip_text(7, "Attempt 1."), "Customer 7. Attempt 1.");
        let m = HarmMoment {
            at_us: 1,
            customer: 12,
            harm: Harm::DoubleCharge,
        };
        assert_eq!(harm_text(&m), "double charge: customer 12");
    }
}
