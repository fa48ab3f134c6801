//! The run page's timeline as readers meet it: its label and what it says before a run,
//! the tooltip that names the request under the pointer, and the playhead under it (a
//! slider to see a finished run at any instant, with buttons stepping between requests
//! and between harmful moments). The drawing itself is the UI's canvas; the notes and
//! the playhead are live widgets ([`TimelineNotes`], [`PlayheadBar`]).

use crate::shared::format::{clock_us, duration_ms};
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
use sim::moments::{charges_until, sent_by_step, Harm, HarmMoment};
use sim::provider::Status;
use sim::record::{Admission, RequestRecord};

/// The canvas's label for screen readers.
pub const TIMELINE_LABEL: &str = "Timeline: each request as a mark at the time it was sent, one row per customer; below, the provider's rate window and in-flight count against their limits.";

/// What the timeline says before a run, in place of a blank canvas.
pub const TIMELINE_EMPTY: &str = "Every request will appear here, one mark each, as the run sends it: pick a strategy, or press Space.";

/// The name of the timeline's first band: a row of marks per customer.
pub const MARKS_LABEL: &str = "customers";
/// The name of the band that counts requests in the provider's current rate window.
pub const RATE_BAND_LABEL: &str = "per window";
/// The name of the band that counts requests in flight at the provider (and, with a
/// queue, waiting in it).
pub const INFLIGHT_BAND_LABEL: &str = "in flight";

/// The label of a limit's dashed line under the timeline: `limit`, and, for the in-flight
/// band of a provider with a queue (`queued_above`), that what stands above it is queued
/// (the band counts what waits in the queue too).
pub fn limit_label(limit: u32, queued_above: bool) -> String {
    let above = if queued_above {
        "; above it, queued"
    } else {
        ""
    };
    format!("limit {limit}{above}")
}

/// The tooltip naming the request under the pointer.
pub const TIP: Slot = slot!("timeline-tip");

/// The tooltip while the pointer is on a mark: where it stands (in the figure's CSS
/// pixels, under the pointer), what it says, and whose request it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tip {
    /// The pointer's left, in whole pixels.
    pub x: i64,
    /// The pointer's top, in whole pixels.
    pub y: i64,
    /// What it says ([`tip_text`]).
    pub text: String,
    /// The customer whose request it names.
    pub customer: u32,
}

/// What follows the canvas ([`Live`], its state the tooltip, if the pointer is on a
/// mark): what the timeline says before a run (the stylesheet shows it only then), and
/// the tooltip, hidden while the pointer is on none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimelineNotes;

impl Live for TimelineNotes {
    type State = Option<Tip>;

    fn shape(&self, _: &Option<Tip>) -> u64 {
        0
    }

    fn draw(&self, tip: &Option<Tip>, fill: &mut Fill) -> Markup {
        let at = tip
            .as_ref()
            .map(|t| format!("left:{}px;top:{}px", t.x, t.y + 14));
        let customer = tip.as_ref().map(|t| t.customer.to_string());
        let text = tip.as_ref().map(|t| t.text.clone()).unwrap_or_default();
        html! {
            p.rll-timeline-empty data-testid="timeline-empty" { (TIMELINE_EMPTY) }
            p.rll-tip role="tooltip" data-slot=(TIP) data-testid="timeline-tip"
                data-customer=[fill.data(TIP, "data-customer", customer)]
                style=[fill.data(TIP, "style", at)]
                hidden[fill.flag(TIP, "hidden", tip.is_none())] { (fill.text(TIP, text)) }
        }
    }
}

/// What follows the canvas before the pointer is on a mark.
pub fn notes_markup() -> Markup {
    TimelineNotes.markup(&None)
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
/// What a step landed on, in a sentence (a live region): the harm, or the request.
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

/// Where a pause lands: the first whole simulated millisecond at or after `t_us`. The
/// playhead and the clock show whole milliseconds and `ratelab charges --until-ms` reads
/// them, so a paused page and the CLI name the same instant and count the same requests.
pub fn pause_instant_us(t_us: u64) -> u64 {
    t_us.div_ceil(1_000).saturating_mul(1_000)
}

/// What the playhead shows: whether it is ready (a finished run, or one held at a
/// pause to be stepped, that kept its record), where the run ends and where the
/// playhead is, in whole ms (as they stood when it was last ready; none before), the
/// harm it is on, and what a step landed on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayheadState {
    /// There is a run to scrub: the bar is shown.
    pub ready: bool,
    /// Where the run ends (the slider's range) and where the playhead is, in ms.
    pub at: Option<(u64, u64)>,
    /// The harm the playhead is on (its name and customer).
    pub harm: Option<(&'static str, u32)>,
    /// What a step landed on ([`readout`]).
    pub said: Option<String>,
}

/// The playhead's bar ([`Live`]), hidden until there is a run to scrub: its slider, its
/// time and what it landed on, and the step buttons, the slider spanning the plot by
/// `style`. The UI reads the slider and a step button's click by its slot
/// ([`Step::slot`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayheadBar {
    /// The slider's style: where it starts and how wide it is.
    pub style: String,
}

/// The playhead's bar, shown or hidden.
pub const PLAYHEAD_BAR: Slot = slot!("playhead-bar");

impl Live for PlayheadBar {
    type State = PlayheadState;

    fn shape(&self, _: &PlayheadState) -> u64 {
        0
    }

    fn draw(&self, s: &PlayheadState, fill: &mut Fill) -> Markup {
        let (end_ms, at_ms) = s.at.unwrap_or_default();
        html! {
            div.rll-playhead data-slot=(PLAYHEAD_BAR) hidden[fill.flag(PLAYHEAD_BAR, "hidden", !s.ready)] {
                // The range before the value, or the browser clamps the value to the old one.
                input type="range" data-slot=(PLAYHEAD) data-testid="playhead" style=(self.style)
                    aria-label=(PLAYHEAD_LABEL) min="0"
                    max=[fill.data(PLAYHEAD, "max", Some(end_ms.to_string()))] step="1"
                    value=(fill.value(PLAYHEAD, at_ms.to_string()))
                    data-ms=[fill.data(PLAYHEAD, "data-ms", s.at.map(|_| at_ms.to_string()))];
                span data-slot=(PLAYHEAD_TIME) data-testid="playhead-time" {
                    (fill.text(PLAYHEAD_TIME, s.at.map(|_| duration_ms(at_ms)).unwrap_or_default()))
                }
                " "
                span.rll-readout data-slot=(PLAYHEAD_HARM) data-testid="playhead-harm" role="status"
                    data-harm=[fill.data(PLAYHEAD_HARM, "data-harm", s.harm.map(|h| h.0.to_string()))]
                    data-customer=[fill.data(PLAYHEAD_HARM, "data-customer", s.harm.map(|h| h.1.to_string()))] {
                    (fill.text(PLAYHEAD_HARM, s.said.clone().unwrap_or_default()))
                }
                @for s in Step::ALL {
                    @let (text, title) = s.words();
                    " "
                    button.rll-quiet type="button" data-slot=(s.slot()) data-testid=(s.testid()) title=(title) { (text) }
                }
            }
        }
    }
}

/// The playhead's bar before a run, hidden, the slider spanning the plot by `style`.
pub fn playhead_markup(style: &str) -> Markup {
    PlayheadBar {
        style: style.to_string(),
    }
    .markup(&PlayheadState::default())
}

/// What the connector joining a customer's charges on the timeline says, for `n`
/// charges: "charged twice", "charged 3 times".
pub fn connector_label(n: usize) -> String {
    match n {
        2 => "charged twice".to_string(),
        n => format!("charged {n} times"),
    }
}

/// What the playhead landed on, in one sentence whose every time comes from `record`
/// (the finished run's): the harm `harm` if it is on one ("11.16 s: customer 28 is
/// charged again; first charge at 1.80 s"), else the requests a step to `t_us` landed
/// on, at the first one's own instant ("4.02 s: customer 12's retry is sent (attempt
/// 2)"). `None` if no request was sent in the millisecond up to `t_us`.
pub fn readout(record: &[RequestRecord], t_us: u64, harm: Option<&HarmMoment>) -> Option<String> {
    let (at_us, what) = match harm {
        Some(m) => (m.at_us, harm_sentence(record, m)),
        None => sent_sentence(record, t_us)?,
    };
    Some(format!("{}: {what}", clock_us(at_us)))
}

/// A harm, told from the record.
fn harm_sentence(record: &[RequestRecord], m: &HarmMoment) -> String {
    let c = m.customer;
    let ours = || record.iter().filter(move |r| r.customer == c);
    let first_charge = |until_us| charges_until(record, c, until_us).first().copied();
    match m.harm {
        Harm::DoubleCharge => {
            let n = charges_until(record, c, m.at_us).len();
            let again = if n > 2 {
                format!("is charged again ({n} charges)")
            } else {
                "is charged again".to_string()
            };
            match first_charge(m.at_us) {
                Some(first) => format!("customer {c} {again}; first charge at {}", clock_us(first)),
                None => format!("customer {c} {again}"),
            }
        }
        Harm::Storm => {
            let code = ours()
                .find_map(|r| match r.admission {
                    Admission::Refused(s) if r.done_at_us == m.at_us => Some(s.code()),
                    _ => None,
                })
                .map_or_else(String::new, |code| format!(" with {code}"));
            format!("a storm of refusals starts; customer {c}'s request is refused{code}")
        }
        Harm::Conflict => {
            let attempt = ours()
                .find(|r| r.done_at_us == m.at_us && r.status == Some(Status::InProgress))
                .map_or(0, |r| r.attempt);
            format!(
                "customer {c}'s attempt {attempt} meets the first still running: 409, nothing charged"
            )
        }
        Harm::ChargedAfterGivingUp => {
            let gave_up = ours().next_back().and_then(|r| r.client.at_us());
            match (first_charge(u64::MAX), gave_up) {
                (Some(charged), Some(gave_up)) if charged >= gave_up => format!(
                    "customer {c} is charged, though the client gave up at {}",
                    clock_us(gave_up)
                ),
                (Some(charged), _) => format!(
                    "customer {c}'s client gives up, though the charge went through at {}",
                    clock_us(charged)
                ),
                (None, _) => format!("customer {c}'s client gives up"),
            }
        }
    }
}

/// The requests a step to `t_us` landed on ([`sim::moments::sent_by_step`]), told by
/// the first of them, with its own instant.
fn sent_sentence(record: &[RequestRecord], t_us: u64) -> Option<(u64, String)> {
    let (first, rest) = sent_by_step(record, t_us).split_first()?;
    let more = rest.len();
    let c = first.customer;
    let mut s = match first.attempt {
        1 => format!("customer {c}'s request is sent"),
        n => format!("customer {c}'s retry is sent (attempt {n})"),
    };
    match more {
        0 => {}
        1 => s.push_str(", and 1 more request"),
        n => s.push_str(&format!(", and {n} more requests")),
    }
    Some((first.sent_at_us, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_in_flight_limit_says_a_queue_stands_above_it() {
        assert_eq!(limit_label(10, false), "limit 10");
        assert_eq!(limit_label(1, true), "limit 1; above it, queued");
    }

    #[test]
    fn a_pause_lands_on_the_next_whole_millisecond_and_stays_on_one() {
        assert_eq!(pause_instant_us(11_892_340), 11_893_000);
        assert_eq!(pause_instant_us(11_892_001), 11_893_000);
        assert_eq!(pause_instant_us(11_892_000), 11_892_000);
        assert_eq!(pause_instant_us(0), 0);
        assert!(pause_instant_us(u64::MAX) >= u64::MAX - 1_000);
    }

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
    fn a_step_writes_the_slider_the_time_and_the_landing_only() {
        use crate::shared::live::{check_drawn, Write};
        let bar = PlayheadBar {
            style: "margin-left:40px".into(),
        };
        let mut s = PlayheadState::default();
        check_drawn(&bar, &s).unwrap();
        assert!(bar.markup(&s).into_string().starts_with(
            r#"<div class="rll-playhead" data-slot="playhead-bar" hidden><input type="range""#
        ));
        assert!(!bar.markup(&s).into_string().contains("data-ms"));
        s = PlayheadState {
            ready: true,
            at: Some((9_000, 9_000)),
            harm: None,
            said: None,
        };
        check_drawn(&bar, &s).unwrap();
        let mut before = Fill::default();
        bar.draw(&s, &mut before);
        s.at = Some((9_000, 1_800));
        s.harm = Some(("double-charge", 28));
        s.said = Some("1.80 s: customer 28 is <charged> again".into());
        check_drawn(&bar, &s).unwrap();
        let mut after = Fill::default();
        let m = bar.draw(&s, &mut after).into_string();
        assert!(
            m.contains(r#"max="9000" step="1" value="1800" data-ms="1800""#),
            "{m}"
        );
        assert!(m.contains(r#"data-harm="double-charge" data-customer="28">1.80 s: customer 28 is &lt;charged&gt; again</span>"#), "{m}");
        let changed: Vec<_> = after
            .changed_since(&before)
            .map(|a| (a.0.slot, a.1.clone()))
            .collect();
        assert_eq!(
            changed,
            [
                (PLAYHEAD, Write::Value("1800".into())),
                (PLAYHEAD, Write::Data("data-ms", Some("1800".into()))),
                (PLAYHEAD_TIME, Write::Text("1.8 s".into())),
                (
                    PLAYHEAD_HARM,
                    Write::Data("data-harm", Some("double-charge".into()))
                ),
                (
                    PLAYHEAD_HARM,
                    Write::Data("data-customer", Some("28".into()))
                ),
                (
                    PLAYHEAD_HARM,
                    Write::Text("1.80 s: customer 28 is <charged> again".into())
                ),
            ]
        );
    }

    #[test]
    fn the_tip_follows_the_pointer() {
        use crate::shared::live::check_drawn;
        let tip = Some(Tip {
            x: 10,
            y: 20,
            text: "Customer 7. <b>".into(),
            customer: 7,
        });
        check_drawn(&TimelineNotes, &None).unwrap();
        check_drawn(&TimelineNotes, &tip).unwrap();
        let m = TimelineNotes.markup(&tip).into_string();
        assert!(
            m.ends_with(r#"data-testid="timeline-tip" data-customer="7" style="left:10px;top:34px">Customer 7. &lt;b&gt;</p>"#),
            "{m}"
        );
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
    }

    fn finished(strategy: sim::StrategyName, seed: u64) -> sim::Simulation {
        let mut sim = sim::Simulation::new(&sim::Scenario::article(strategy, seed)).unwrap();
        sim.run_to_end();
        sim
    }

    #[test]
    fn a_double_charge_is_told_with_both_charges_times_from_the_record() {
        let sim = finished(sim::StrategyName::TimeoutNoKey, 1);
        let record = sim.record().unwrap();
        let moments = sim::moments::harm_moments(record, 1_000);
        let m = moments
            .iter()
            .find(|m| m.harm == Harm::DoubleCharge)
            .unwrap();
        let first = record
            .iter()
            .filter(|r| r.customer == m.customer && r.charged)
            .map(|r| r.done_at_us)
            .min()
            .unwrap();
        let said = readout(record, m.at_us, Some(m)).unwrap();
        assert_eq!(
            said,
            format!(
                "{}: customer {} is charged again; first charge at {}",
                clock_us(m.at_us),
                m.customer,
                clock_us(first)
            )
        );
        // Seed 1's first double charge, as `ratelab charges --strategy timeout-no-key
        // --customer double-charge` tells it: customer 28, charged at 1,799,997 µs and
        // at 11,156,661 µs.
        assert_eq!(
            said,
            "11.16 s: customer 28 is charged again; first charge at 1.80 s"
        );
        assert_eq!(connector_label(2), "charged twice");
        assert_eq!(connector_label(3), "charged 3 times");
    }

    #[test]
    fn a_plain_step_names_the_request_sent_and_a_storm_its_refusal() {
        let sim = finished(sim::StrategyName::TimeoutNoKey, 1);
        let record = sim.record().unwrap();
        let ms = |t: u64| t.div_ceil(1_000) * 1_000;
        let retry = record
            .iter()
            .find(|r| r.attempt == 2 && sent_by_step(record, ms(r.sent_at_us)).len() == 1)
            .unwrap();
        assert_eq!(
            readout(record, ms(retry.sent_at_us), None).unwrap(),
            format!(
                "{}: customer {}'s retry is sent (attempt 2)",
                clock_us(retry.sent_at_us),
                retry.customer
            )
        );
        // A naive client sends everyone at once: one step, many requests.
        let naive = finished(sim::StrategyName::Naive, 1);
        let all = naive.record().unwrap();
        let busy = sim::moments::step_times(all)[0];
        let sent = sent_by_step(all, busy);
        assert!(sent.len() > 2);
        let said = readout(all, busy, None).unwrap();
        assert!(
            said.starts_with(&format!(
                "{}: customer {}'s ",
                clock_us(sent[0].sent_at_us),
                sent[0].customer
            )),
            "{said}"
        );
        assert!(
            said.ends_with(&format!(", and {} more requests", sent.len() - 1)),
            "{said}"
        );
        // A millisecond in which nothing was sent has nothing to name.
        let quiet = (0..)
            .map(|i| i * 1_000)
            .find(|&t| sent_by_step(record, t).is_empty())
            .unwrap();
        assert_eq!(readout(record, quiet, None), None);
        let record = all;
        let storm = sim::moments::harm_moments(record, 1_000)
            .into_iter()
            .find(|m| m.harm == Harm::Storm)
            .unwrap();
        let said = readout(record, storm.at_us, Some(&storm)).unwrap();
        let refused = format!(
            "a storm of refusals starts; customer {}'s request is refused with ",
            storm.customer
        );
        assert!(
            said.starts_with(&clock_us(storm.at_us)) && said.contains(&refused),
            "{said}"
        );
        assert!(said.ends_with("429") || said.ends_with("503"), "{said}");
    }
}
