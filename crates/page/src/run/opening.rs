//! The lab's opening: one customer charged twice, and the key that stops it. Two
//! pictures share one clock: the customer in a run without a key, and the same customer
//! in the keyed run on the same seed ([`sim::story::key_at_work`]). Each draws a client
//! lane, a provider lane and the provider's ledger, with time flowing across; every
//! instant and status drawn is the record's.
//!
//! Time is drawn in stretches: instants closer than [`CUT_US`] share a stretch, each
//! stretch has its own scale (a retry's 12 ms get room beside a slow charge's 1.5 s),
//! and the quiet time between stretches is cut, with its length written on the cut.
//!
//! The markup is set once, as the shell paints it before any module arrives (the build
//! writes [`opening_section`] into `index.html`: `crates/page/src/bin/opening-shell.rs`), showing the
//! whole story. The UI then moves one clock: it
//! writes `--t` (the instant, in ms) and `--x` (the playhead's place) on [`PANELS`], and
//! the stylesheet shows each mark from its own `--at`. Playing, the clock runs at the
//! stage's speed inside a stretch, skips the cut, and holds on each event
//! ([`OpeningClock`]).

use crate::run::story::at;
use crate::shared::format::{count, duration_ms, r};
use crate::shared::slot::Slot;
use crate::slot;
use crate::Speed;
use maud::{html, Markup};
use sim::story::{AttemptStory, ClientSide, KeyAtWork, ProviderSide, Story};

/// Quiet time longer than this between two instants is cut from the picture.
pub const CUT_US: u64 = 2_000_000;
/// Wall time the clock holds on each event while playing, so its sentence can be read.
pub const HOLD_MS: f64 = 1_400.0;

/// The picture's width, in its own units.
const W: f64 = 400.0;
/// The picture's box (its width [`W`], its height [`H`]), written out: formatting a float
/// would bring Rust's float printing into the module.
const VIEW_BOX: &str = "0 0 400 152";
/// Where the lanes start (their names stand to the left).
const LANE_X: f64 = 74.0;
/// Where the lanes end.
const LANE_END: f64 = 392.0;
/// Width of a cut between two stretches.
const CUT_W: f64 = 34.0;
/// The rows: the instants' labels (two rows, so close ones do not collide), then the
/// lanes, then the bracket that joins a customer's charges.
const TIME_Y: [f64; 2] = [13.0, 28.0];
const CLIENT_Y: f64 = 48.0;
const PROVIDER_Y: f64 = 80.0;
const LEDGER_Y: f64 = 112.0;
const BRACKET_Y: f64 = 128.0;
const BRACKET_TEXT_Y: f64 = 146.0;
#[cfg(test)]
const H: f64 = 152.0;

/// The node holding both pictures: the UI writes the clock on it.
pub const PANELS: Slot = slot!("opening-panels");
/// The clock's words: "11,156 ms".
pub const CLOCK: Slot = slot!("opening-clock");
/// Plays, pauses, or plays again from the start.
pub const PLAY: Slot = slot!("opening-play");
/// Steps to the previous event.
pub const BACK: Slot = slot!("opening-back");
/// Steps to the next event.
pub const FORWARD: Slot = slot!("opening-forward");
/// Shows the customer among all the others, on the stage.
pub const ZOOM: Slot = slot!("opening-zoom");
/// Every button of the opening, disabled in its markup until the app enables them.
pub const BUTTONS: [Slot; 4] = [PLAY, BACK, FORWARD, ZOOM];

/// The section's id, a link's target from the stage. The shell paints the section
/// (`index.html`); the opening's own module plays it, and the run page's module moves it
/// into its place and takes it over (`web::run::opening_player`, `web::run::opening_story`).
pub const OPENING_ID: &str = "rll-opening";
/// The attribute of the section that holds the speed the opening plays at (a [`Speed`]
/// as the link writes it): the shell's default, then the stage's, written by the run page.
pub const SPEED_ATTR: &str = "data-opening-speed";

/// One stretch of drawn time: `from..=to` drawn from `x0` to `x1`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Stretch {
    from_us: u64,
    to_us: u64,
    x0: f64,
    x1: f64,
}

/// The opening, ready to draw and to play.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The two stories.
    pub key: KeyAtWork,
    /// When things happen in them, and where each instant is drawn.
    pub times: OpeningTimes,
}

/// The opening's clock face: every instant something happens in either story, in
/// order (the clock's stops), and the stretches they are drawn in. It is all that
/// playing the opening needs, and it is written into the markup ([`INSTANTS_ATTR`]), so
/// the module that plays the shell's picture reads it there instead of running the two
/// stories again.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningTimes {
    /// Every instant something happens in either story, in order: the clock's stops.
    pub instants: Vec<u64>,
    stretches: Vec<Stretch>,
}

/// The attribute of [`PANELS`] that holds the clock's stops, in µs, one space apart.
pub const INSTANTS_ATTR: &str = "data-instants";
/// The most stops [`OpeningTimes::read`] accepts: a story has a few attempts of three
/// instants each.
const MAX_INSTANTS: usize = 64;

/// Which of the two pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Twin {
    /// The run without a key.
    Without,
    /// The keyed run.
    With,
}

impl Twin {
    /// Both, in the order drawn.
    pub const BOTH: [Twin; 2] = [Twin::Without, Twin::With];
}

/// The instants an attempt marks: sent, the client's end, the provider's end.
fn attempt_instants(a: &AttemptStory) -> impl Iterator<Item = u64> {
    let client = match a.client {
        ClientSide::Answered { at_us, .. } | ClientSide::TimedOut { at_us } => Some(at_us),
        ClientSide::Waiting => None,
    };
    let provider = match a.provider {
        ProviderSide::Finished { at_us, .. } => Some(at_us),
        ProviderSide::Processing { until_us, .. } => Some(until_us),
        ProviderSide::Refused { .. } => None,
    };
    std::iter::once(a.sent_at_us).chain(client).chain(provider)
}

impl Opening {
    /// Lays out `key`'s two stories on one clock.
    pub fn new(key: KeyAtWork) -> Self {
        // In order, once each: a few instants, kept sorted as they come (a general sort
        // would cost the module more than it saves here).
        let mut instants: Vec<u64> = Vec::new();
        for t in [&key.without, &key.with_key]
            .iter()
            .flat_map(|s| s.attempts.iter().flat_map(attempt_instants))
        {
            if let Err(at) = instants.binary_search(&t) {
                instants.insert(at, t);
            }
        }
        Self {
            key,
            times: OpeningTimes::new(instants),
        }
    }

    /// The story drawn in `twin`.
    pub fn story(&self, twin: Twin) -> &Story {
        match twin {
            Twin::Without => &self.key.without,
            Twin::With => &self.key.with_key,
        }
    }

    /// What `twin`'s picture says at `t_us`: its latest event, and its ending once all is
    /// done.
    pub fn line(&self, twin: Twin, t_us: u64) -> String {
        let story = self.story(twin);
        let mut latest = None;
        for a in &story.attempts {
            for (when, what) in events(a, story) {
                if when <= t_us && latest.as_ref().is_none_or(|(w, _)| *w <= when) {
                    latest = Some((when, what));
                }
            }
        }
        let said = match latest {
            Some((when, what)) => format!("{}: {what}", at(when)),
            None => format!("Customer {} has not been charged yet.", story.customer),
        };
        if t_us >= self.times.end_us() {
            return format!("{said} {}", ending(story, twin));
        }
        said
    }
}

impl OpeningTimes {
    /// The clock face of `instants` (in order, once each).
    pub fn new(instants: Vec<u64>) -> Self {
        let stretches = lay_out(&instants);
        Self {
            instants,
            stretches,
        }
    }

    /// The stops as [`INSTANTS_ATTR`] holds them.
    pub fn attr(&self) -> String {
        let words: Vec<String> = self.instants.iter().map(u64::to_string).collect();
        words.join(" ")
    }

    /// The clock face [`INSTANTS_ATTR`] holds, or `None` if it is not a list of at most
    /// [`MAX_INSTANTS`] instants in increasing order.
    pub fn read(attr: &str) -> Option<Self> {
        let mut instants: Vec<u64> = Vec::new();
        for word in attr.split_ascii_whitespace() {
            let t: u64 = word.parse().ok()?;
            if instants.len() == MAX_INSTANTS || instants.last().is_some_and(|&l| l >= t) {
                return None;
            }
            instants.push(t);
        }
        (!instants.is_empty()).then(|| Self::new(instants))
    }

    /// Where the clock starts: the start of the first stretch.
    pub fn start_us(&self) -> u64 {
        self.stretches.first().map_or(0, |s| s.from_us)
    }

    /// The last instant of either story: the clock's end.
    pub fn end_us(&self) -> u64 {
        self.instants.last().copied().unwrap_or(0)
    }

    /// Where instant `t_us` is drawn: inside its stretch, or on the cut it falls in.
    pub fn x(&self, t_us: u64) -> f64 {
        let mut last = LANE_X;
        for s in &self.stretches {
            if t_us < s.from_us {
                return last + CUT_W / 2.0;
            }
            if t_us <= s.to_us {
                let span = (s.to_us - s.from_us).max(1) as f64;
                return s.x0 + (s.x1 - s.x0) * (t_us - s.from_us) as f64 / span;
            }
            last = s.x1;
        }
        last
    }

    /// The cut `t_us` falls in, as (its first instant, the next stretch's start), if any.
    fn cut_at(&self, t_us: u64) -> Option<(u64, u64)> {
        self.stretches
            .windows(2)
            .map(|w| (w[0].to_us, w[1].from_us))
            .find(|&(a, b)| t_us > a && t_us < b)
    }

    /// The previous event before `t_us`, or the start.
    pub fn previous(&self, t_us: u64) -> u64 {
        sim::moments::previous_before(self.instants.iter().copied(), t_us)
            .unwrap_or(self.start_us())
    }

    /// The next event after `t_us`, if any.
    pub fn next(&self, t_us: u64) -> Option<u64> {
        sim::moments::next_after(self.instants.iter().copied(), t_us)
    }

    /// What the clock's node says at `t_us`.
    pub fn clock_text(&self, t_us: u64) -> String {
        at(t_us)
    }

    /// The style the UI writes on [`PANELS`] for instant `t_us`.
    pub fn clock_style(&self, t_us: u64) -> String {
        format!("--t:{};--x:{}", t_us / 1_000, r(self.x(t_us)))
    }
}

/// Splits `instants` into stretches, each padded a little, with widths that give a
/// short stretch room (the square root of its length, at least 40% of the longest's).
fn lay_out(instants: &[u64]) -> Vec<Stretch> {
    let mut groups: Vec<(u64, u64)> = Vec::new();
    for &t in instants {
        match groups.last_mut() {
            Some((_, last)) if t - *last <= CUT_US => *last = t,
            _ => groups.push((t, t)),
        }
    }
    let padded: Vec<(u64, u64)> = groups
        .iter()
        .map(|&(a, b)| {
            let pad = ((b - a) / 8).max(4_000);
            (a.saturating_sub(pad), b + pad)
        })
        .collect();
    let roots: Vec<f64> = padded
        .iter()
        .map(|(a, b)| ((b - a) as f64).sqrt())
        .collect();
    let most = roots.iter().copied().fold(0.0, f64::max);
    let weights: Vec<f64> = roots.iter().map(|w| w.max(most * 0.4)).collect();
    let total: f64 = weights.iter().sum();
    let room = LANE_END - LANE_X - CUT_W * padded.len().saturating_sub(1) as f64;
    let mut x = LANE_X;
    padded
        .iter()
        .zip(&weights)
        .map(|(&(from_us, to_us), w)| {
            let x0 = x;
            x += room * w / total;
            let s = Stretch {
                from_us,
                to_us,
                x0,
                x1: x,
            };
            x += CUT_W;
            s
        })
        .collect()
}

/// An attempt's events, each an instant and what happened, as a picture's sentence
/// tells it.
fn events(a: &AttemptStory, story: &Story) -> Vec<(u64, String)> {
    let n = a.attempt;
    let key = match &a.key {
        Some(k) => format!("with the key {k}"),
        None => "with no key".to_string(),
    };
    let leaves = if n == 1 {
        format!("the client sends the charge, {key}.")
    } else {
        format!("attempt {n} leaves, {key}.")
    };
    let mut out = vec![(a.sent_at_us, leaves)];
    let slow = matches!(a.provider, ProviderSide::Finished { slow: true, .. });
    if let ClientSide::TimedOut { at_us } = a.client {
        let still = if slow {
            "; the provider has taken the slow path and is still at work"
        } else {
            ""
        };
        out.push((
            at_us,
            format!(
                "the client gives up after {}{still}.",
                at(at_us - a.sent_at_us)
            ),
        ));
    }
    if let ProviderSide::Finished {
        status,
        at_us,
        charged,
        replayed,
        ..
    } = a.provider
    {
        let charges_before = story
            .attempts
            .iter()
            .filter(|b| b.attempt < n && charged_by(b))
            .count();
        let answered = matches!(a.client, ClientSide::Answered { .. });
        let what = match (charged, replayed, status) {
            (true, ..) if !answered => {
                "the provider finishes: the money moves, but the client stopped listening."
                    .to_string()
            }
            (true, ..) if charges_before > 0 => format!("{status} comes back: charged again."),
            (true, ..) => format!("{status} comes back: charged."),
            (false, true, s) => format!(
                "the key matches the finished charge: the stored {s} comes back, and nothing is charged."
            ),
            (false, _, 409) => {
                "the key matches a charge still running: 409, and nothing is charged.".to_string()
            }
            (false, _, s) => format!("{s} comes back: nothing charged."),
        };
        out.push((at_us, what));
    }
    if let (ProviderSide::Refused { status }, ClientSide::Answered { at_us, .. }) =
        (a.provider, a.client)
    {
        out.push((at_us, format!("refused with {status}: nothing charged.")));
    }
    out
}

fn charged_by(a: &AttemptStory) -> bool {
    matches!(a.provider, ProviderSide::Finished { charged: true, .. })
}

/// The instants `story`'s customer was charged at.
fn charges(story: &Story) -> Vec<u64> {
    story
        .attempts
        .iter()
        .filter_map(|a| match a.provider {
            ProviderSide::Finished {
                at_us,
                charged: true,
                ..
            } => Some(at_us),
            _ => None,
        })
        .collect()
}

/// What a picture says once its story is over.
fn ending(story: &Story, twin: Twin) -> String {
    let times: Vec<String> = charges(story).into_iter().map(at).collect();
    let c = story.customer;
    match (times.as_slice(), twin) {
        ([], _) => format!("Customer {c} was never charged."),
        ([one], Twin::With) => format!(
            "Customer {c} paid once, at {one}: the retry carried the same key, so the provider answered it from the first charge."
        ),
        ([one], Twin::Without) => format!("Customer {c} paid once, at {one}."),
        ([first, rest @ ..], _) => format!(
            "Customer {c} paid {}: at {first} and again at {}.",
            times_word(times.len()),
            rest.join(" and ")
        ),
    }
}

fn times_word(n: usize) -> String {
    match n {
        2 => "twice".to_string(),
        n => format!("{n} times"),
    }
}

/// The label over a bracket joining `n` charges.
fn bracket_label(customer: u32, n: usize) -> String {
    format!("customer {customer} charged {}", times_word(n))
}

/// A mark's style: shown from `at_us` on (and, given `to_us`, drawn out until then).
fn shown_from(at_us: u64, to_us: Option<u64>) -> String {
    match to_us {
        Some(to) => format!(
            "--at:{};--to:{}",
            at_us / 1_000,
            to.max(at_us + 1_000) / 1_000
        ),
        None => format!("--at:{}", at_us / 1_000),
    }
}

/// The opening section's content: the heading, the controls, the two pictures with
/// their sentences, as at the end of the story. The buttons are disabled until the app
/// has taken the markup over (in the shell they could do nothing); the walk is a link to
/// its own page, which works from the shell too.
pub fn opening_markup(o: &Opening) -> Markup {
    let k = &o.key;
    let end = o.times.end_us();
    html! {
        h2 id="rll-opening-title" { "One customer, charged twice" }
        p.rll-opening-lede {
            "Customer " (k.customer()) " of " (count(k.customers.into())) " in a real run of "
            code { (k.without_strategy.as_str()) } " (seed " (k.seed) "), and the same customer when the client adds an idempotency key ("
            code { (k.with_strategy.as_str()) } ")."
        }
        div.rll-opening-bar {
            button.rll-primary type="button" data-slot=(PLAY) data-testid="opening-play" disabled { (play_label(false, true)) }
            button type="button" data-slot=(BACK) aria-label="Previous event" disabled { "←" }
            button type="button" data-slot=(FORWARD) aria-label="Next event" disabled { "→" }
            span.rll-opening-clock { span.rll-num data-slot=(CLOCK) data-testid="opening-clock" { (o.times.clock_text(end)) } }
        }
        div.rll-opening-panels data-slot=(PANELS) data-instants=(o.times.attr()) style=(o.times.clock_style(end)) {
            @for twin in Twin::BOTH {
                (panel_markup(o, twin))
            }
        }
        div.rll-opening-go {
            a.rll-primary.rll-button href=(crate::run::tour::walk_href()) data-testid="opening-walk" { "Start the guided walk" }
            button type="button" data-slot=(ZOOM) data-testid="opening-zoom" disabled {
                "See customer " (k.customer()) " among all " (count(k.customers.into()))
            }
        }
    }
}

/// The whole section as the shell paints it: [`opening_markup`], in the section the
/// modules find by [`OPENING_ID`], playing at `speed` until the stage says otherwise.
pub fn opening_section(o: &Opening, speed: Speed) -> Markup {
    html! {
        section.rll-opening id=(OPENING_ID) aria-labelledby="rll-opening-title" data-testid="opening" data-opening-speed=(speed.as_str()) {
            (opening_markup(o))
        }
    }
}

/// The speed the opening plays at, in simulated µs per wall ms (`None`: at once), as its
/// section's [`SPEED_ATTR`] says (`attr`), for a reader who `reduced` motion or not.
pub fn opening_rate(attr: Option<&str>, reduced: bool) -> Option<f64> {
    let speed = attr
        .and_then(|a| a.parse::<Speed>().ok())
        .unwrap_or_default();
    if crate::Motion::default().animates(reduced) {
        speed.sim_us_per_wall_ms()
    } else {
        None
    }
}

/// The stage's link back to the opening, while that customer's story is open there.
pub fn back_to_opening(customer: u32) -> String {
    format!("↑ Customer {customer}'s story, told at the top")
}

/// What the play button says.
pub fn play_label(playing: bool, at_end: bool) -> &'static str {
    match (playing, at_end) {
        (true, _) => "Pause",
        (false, true) => "▶ Play",
        (false, false) => "▶ Play on",
    }
}

/// One picture: its title, the drawing, and its sentence.
fn panel_markup(o: &Opening, twin: Twin) -> Markup {
    let story = o.story(twin);
    let strategy = match twin {
        Twin::Without => o.key.without_strategy,
        Twin::With => o.key.with_strategy,
    };
    let title = match twin {
        Twin::Without => "Without a key",
        Twin::With => "With a key",
    };
    let testid = match twin {
        Twin::Without => "opening-without",
        Twin::With => "opening-with",
    };
    html! {
        figure.rll-opening-panel data-testid=(testid) data-charges=(story.charges) {
            figcaption { strong { (title) } " · " code { (strategy.as_str()) } }
            svg viewBox=(VIEW_BOX) role="img" aria-label=(ending(story, twin)) {
                (drawing(o, story))
            }
            (lines_markup(o, twin))
        }
    }
}

/// What `twin`'s picture says, sentence by sentence: every sentence is in the list (a
/// screen reader reads the whole story), and the stylesheet shows the one whose span
/// holds the clock (`--at` to `--until`, in ms).
fn lines_markup(o: &Opening, twin: Twin) -> Markup {
    let mut said: Vec<(u64, String)> = Vec::new();
    for t in std::iter::once(o.times.start_us()).chain(o.times.instants.iter().copied()) {
        let (ms, line) = (t / 1_000, o.line(twin, t));
        match said.last_mut() {
            // Two events in one millisecond: the later sentence for both.
            Some((at, last)) if *at == ms => *last = line,
            Some((_, last)) if *last == line => {}
            _ => said.push((ms, line)),
        }
    }
    html! {
        ol.rll-opening-lines {
            @for (i, (at, line)) in said.iter().enumerate() {
                @let style = match said.get(i + 1) {
                    Some((until, _)) => format!("--at:{at};--until:{until}"),
                    None => format!("--at:{at}"),
                };
                li style=(style) { (line) }
            }
        }
    }
}

/// The lanes, the cuts, the instants and the attempts of one story.
fn drawing(o: &Opening, story: &Story) -> Markup {
    let lanes = [
        ("client", CLIENT_Y),
        ("provider", PROVIDER_Y),
        ("ledger", LEDGER_Y),
    ];
    let cuts: Vec<(f64, u64)> = o
        .times
        .stretches
        .windows(2)
        .map(|w| (w[0].x1 + CUT_W / 2.0, w[1].from_us - w[0].to_us))
        .collect();
    // Each instant of this story labelled once, in two rows so neighbours do not collide.
    let mut mine: Vec<u64> = story.attempts.iter().flat_map(attempt_instants).collect();
    mine.sort_unstable();
    mine.dedup();
    let charged = charges(story);
    html! {
        @for (name, y) in lanes {
            text.rll-op-lane x="0" y=(r(y + 5.0)) { (name) }
            @for s in &o.times.stretches {
                line.rll-op-track x1=(r(s.x0)) x2=(r(s.x1)) y1=(r(y)) y2=(r(y)) {}
            }
        }
        @for (x, gap) in &cuts {
            path.rll-op-cut d=(format!("M{} {}l-4 12M{} {}l-4 12", r(x - 4.0), r(CLIENT_Y - 6.0), r(x + 4.0), r(CLIENT_Y - 6.0))) {}
            text.rll-op-cut-label x=(r(*x)) y=(r((CLIENT_Y + PROVIDER_Y) / 2.0 + 5.0)) text-anchor="middle" { (duration_ms(gap / 1_000)) }
        }
        @for (i, t) in mine.iter().enumerate() {
            @let x = o.times.x(*t);
            line.rll-op-guide x1=(r(x)) x2=(r(x)) y1=(r(TIME_Y[i % 2] + 3.0)) y2=(r(LEDGER_Y)) style=(shown_from(*t, None)) {}
            @let label = at(*t);
            text.rll-op-time x=(r(centred(x, &label))) y=(r(TIME_Y[i % 2])) text-anchor="middle" style=(shown_from(*t, None)) { (label) }
        }
        @for a in &story.attempts {
            (attempt_markup(o, a, story))
        }
        @if charged.len() > 1 {
            @let (x0, x1) = (o.times.x(charged[0]), o.times.x(*charged.last().unwrap_or(&charged[0])));
            g.rll-op-harm style=(shown_from(*charged.last().unwrap_or(&0), None)) data-testid="opening-bracket" {
                path d=(format!("M{} {}V{}H{}V{}", r(x0), r(LEDGER_Y + 8.0), r(BRACKET_Y), r(x1), r(LEDGER_Y + 8.0))) {}
                @let label = bracket_label(story.customer, charged.len());
                text x=(r(centred((x0 + x1) / 2.0, &label))) y=(r(BRACKET_TEXT_Y)) text-anchor="middle" { (label) }
            }
        }
        @if charged.len() == 1 {
            @let x = o.times.x(charged[0]);
            @let label = format!("customer {} charged once", story.customer);
            text.rll-op-once x=(r(centred(x, &label))) y=(r(BRACKET_TEXT_Y)) text-anchor="middle" style=(shown_from(o.times.end_us(), None)) { (label) }
        }
        line.rll-op-playhead x1="0" x2="0" y1=(r(TIME_Y[1] + 4.0)) y2=(r(LEDGER_Y + 10.0)) {}
    }
}

/// One attempt: the request going down, the client waiting, the provider at work, the
/// answer coming up (or the client giving up), and what reached the ledger.
fn attempt_markup(o: &Opening, a: &AttemptStory, story: &Story) -> Markup {
    let s = a.sent_at_us;
    let xs = o.times.x(s);
    let (client_end, timed_out, answer) = match a.client {
        ClientSide::Answered { status, at_us } => (at_us, false, Some(status)),
        ClientSide::TimedOut { at_us } => (at_us, true, None),
        ClientSide::Waiting => (o.times.end_us(), false, None),
    };
    let xc = o.times.x(client_end);
    let down = format!(
        "M{x} {}V{}m-4 -6l4 6l4 -6",
        r(CLIENT_Y + 4.0),
        r(PROVIDER_Y - 6.0),
        x = r(xs)
    );
    let up = format!(
        "M{x} {}V{}m-4 6l4 -6l4 6",
        r(PROVIDER_Y - 4.0),
        r(CLIENT_Y + 6.0),
        x = r(xc)
    );
    let cross = format!("M{} {}l10 10m0 -10l-10 10", r(xc - 5.0), r(CLIENT_Y - 5.0));
    let work = match a.provider {
        ProviderSide::Finished { at_us, slow, .. } => Some((at_us, slow)),
        ProviderSide::Processing { until_us, slow } => Some((until_us, slow)),
        ProviderSide::Refused { .. } => None,
    };
    let ledger = match a.provider {
        ProviderSide::Finished {
            at_us,
            charged,
            replayed,
            ..
        } if charged || replayed => Some((at_us, charged)),
        _ => None,
    };
    let nth = story
        .attempts
        .iter()
        .filter(|b| b.attempt <= a.attempt && charged_by(b))
        .count();
    html! {
        g.rll-op-attempt data-attempt=(a.attempt) {
            line.rll-op-wait.rll-op-grow x1=(r(xs)) x2=(r(xc.max(xs + 1.0))) y1=(r(CLIENT_Y)) y2=(r(CLIENT_Y)) style=(shown_from(s, Some(client_end))) {}
            path.rll-op-req d=(down) style=(shown_from(s, None)) {}
            @if let Some((until, slow)) = work {
                rect.rll-op-work.rll-op-grow.rll-op-slow[slow] x=(r(xs)) y=(r(PROVIDER_Y - 6.0)) width=(r((o.times.x(until) - xs).max(2.0))) height="12" rx="3" style=(shown_from(s, Some(until))) {}
            }
            @if let ProviderSide::Refused { status } = a.provider {
                text.rll-op-status x=(r(xs + 4.0)) y=(r(PROVIDER_Y + 4.0)) style=(shown_from(s, None)) { (status) }
            }
            @if timed_out {
                path.rll-op-gaveup d=(cross) style=(shown_from(client_end, None)) {}
            }
            @if let Some(status) = answer {
                g style=(shown_from(client_end, None)) {
                    path.rll-op-answer d=(up) {}
                    (beside(xc, (CLIENT_Y + PROVIDER_Y) / 2.0 + 5.0, 5.0, "rll-op-status", &status.to_string()))
                }
            }
            @if let Some((at_us, charged)) = ledger {
                @let x = o.times.x(at_us);
                g style=(shown_from(at_us, None)) data-charge=(if charged { "charge" } else { "replay" }) data-at-ms=(at_us / 1_000) {
                    line.rll-op-guide x1=(r(x)) x2=(r(x)) y1=(r(PROVIDER_Y + 6.0)) y2=(r(LEDGER_Y - 8.0)) {}
                    @if charged {
                        circle.rll-op-charge cx=(r(x)) cy=(r(LEDGER_Y)) r="9" {}
                        text.rll-op-coin x=(r(x)) y=(r(LEDGER_Y + 5.0)) text-anchor="middle" { (nth) }
                    } @else {
                        circle.rll-op-nocharge cx=(r(x)) cy=(r(LEDGER_Y)) r="9" {}
                        (beside(x, LEDGER_Y + 5.0, 13.0, "rll-op-status", "no charge"))
                    }
                }
            }
        }
    }
}

/// A label's width at most, in the picture's units (at the phone's larger type).
fn text_width(text: &str) -> f64 {
    8.7 * text.chars().count() as f64
}

/// Where a label centred near `x` stands, so that all of it is inside the picture.
fn centred(x: f64, text: &str) -> f64 {
    // Not `f64::clamp`: its panic message would bring float printing into the module.
    let half = text_width(text) / 2.0;
    x.max(half.min(W / 2.0)).min((W - half).max(W / 2.0))
}

/// A label `gap` units to the right of `x`, or to its left near the picture's right edge.
fn beside(x: f64, y: f64, gap: f64, class: &str, text: &str) -> Markup {
    let (x, anchor) = if x + gap + text_width(text) > W {
        (x - gap, "end")
    } else {
        (x + gap, "start")
    };
    html! { text class=(class) x=(r(x)) y=(r(y)) text-anchor=(anchor) { (text) } }
}

/// The clock of the opening while it plays: it runs at the stage's speed, holds on each
/// event for [`HOLD_MS`] of wall time, and skips the cut between two stretches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpeningClock {
    /// The instant shown.
    pub t_us: u64,
    /// Wall time left to hold on the event at `t_us`.
    hold_ms: f64,
}

impl OpeningClock {
    /// A clock at the story's start.
    pub fn at_start(o: &OpeningTimes) -> Self {
        Self {
            t_us: o.start_us(),
            hold_ms: 0.0,
        }
    }

    /// A clock stopped at `t_us` (stepped to, or paused at).
    pub fn at(t_us: u64) -> Self {
        Self { t_us, hold_ms: 0.0 }
    }

    /// Moves on by `wall_ms` of wall time at `us_per_wall_ms` simulated microseconds per
    /// wall millisecond (`None`: instant, straight to the end). Returns false once the
    /// story is over.
    pub fn advance(&mut self, o: &OpeningTimes, wall_ms: f64, us_per_wall_ms: Option<f64>) -> bool {
        let end = o.end_us();
        let Some(rate) = us_per_wall_ms else {
            self.t_us = end;
            return false;
        };
        let mut wall = wall_ms;
        while wall > 0.0 && (self.t_us < end || self.hold_ms > 0.0) {
            if self.hold_ms > 0.0 {
                let used = wall.min(self.hold_ms);
                self.hold_ms -= used;
                wall -= used;
                continue;
            }
            if let Some((_, next_start)) = o.cut_at(self.t_us) {
                self.t_us = next_start;
                continue;
            }
            let next = o.next(self.t_us).unwrap_or(end);
            let reach = self.t_us as f64 + wall * rate;
            if reach >= next as f64 {
                wall -= (next - self.t_us) as f64 / rate;
                self.t_us = next;
                self.hold_ms = HOLD_MS;
            } else {
                self.t_us = reach as u64;
                wall = 0.0;
            }
        }
        self.t_us < end || self.hold_ms > 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::story::key_at_work;
    use sim::{Scenario, StrategyName};

    fn opening(seed: u64) -> Opening {
        Opening::new(key_at_work(&Scenario::article(StrategyName::Keyed, seed)).unwrap())
    }

    #[test]
    fn the_clock_is_drawn_left_to_right_and_the_quiet_time_is_cut() {
        let o = opening(1);
        let xs: Vec<f64> = o.times.instants.iter().map(|&t| o.times.x(t)).collect();
        assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
        assert!(xs.iter().all(|x| (LANE_X..=LANE_END).contains(x)), "{xs:?}");
        // Seed 1: the first attempt's 1.5 s and the retry ~9 s later: one cut between.
        assert_eq!(o.times.stretches.len(), 2, "{:?}", o.times.stretches);
        let (a, b) = (o.times.stretches[0], o.times.stretches[1]);
        assert!(b.from_us - a.to_us > CUT_US);
        // The retry's few milliseconds get room: at least 40% of the first stretch.
        assert!(b.x1 - b.x0 >= 0.4 * (a.x1 - a.x0) - 0.5, "{a:?} {b:?}");
        // A time in the cut is drawn on the cut.
        let mid = (a.to_us + b.from_us) / 2;
        assert!((o.times.x(mid) - (a.x1 + CUT_W / 2.0)).abs() < 1e-9);
    }

    #[test]
    fn the_markup_draws_the_records_instants_and_both_charges_joined() {
        let o = opening(1);
        let m = opening_markup(&o).into_string();
        let c = o.key.customer();
        for twin in Twin::BOTH {
            for a in &o.story(twin).attempts {
                for t in attempt_instants(a) {
                    assert!(m.contains(&format!(">{}</text>", at(t))), "{t} µs: {m}");
                }
            }
        }
        assert_eq!(m.matches("data-testid=\"opening-bracket\"").count(), 1);
        assert!(m.contains(&format!("customer {c} charged twice")));
        assert!(m.contains(&format!("customer {c} charged once")));
        assert_eq!(
            m.matches("data-charge=\"charge\"").count(),
            3,
            "2 without a key, 1 with"
        );
        assert_eq!(m.matches("data-charge=\"replay\"").count(), 1);
        // The shell shows the end: every mark is shown from an instant at or before it.
        assert!(m.contains(&format!("--t:{}", o.times.end_us() / 1_000)));
        assert!(!m.contains("<script"));
        assert_eq!(VIEW_BOX, format!("0 0 {W} {H}"));
    }

    #[test]
    fn each_picture_says_its_latest_event_then_its_ending() {
        let o = opening(1);
        let c = o.key.customer();
        let w = &o.key.without.attempts;
        let first = w[0].sent_at_us;
        assert_eq!(
            o.line(Twin::Without, first),
            format!("{}: the client sends the charge, with no key.", at(first))
        );
        assert!(o
            .line(Twin::With, first)
            .ends_with(&format!("with the key ck-{c}.")));
        let ClientSide::TimedOut { at_us: gave_up } = w[0].client else {
            panic!("{:?}", w[0]);
        };
        assert!(o
            .line(Twin::Without, gave_up)
            .contains("gives up after 1,000 ms"));
        let ProviderSide::Finished { at_us: landed, .. } = w[0].provider else {
            panic!("{:?}", w[0]);
        };
        assert!(o
            .line(Twin::Without, landed)
            .contains("the money moves, but the client stopped listening"));
        let before_end = o.times.end_us() - 1;
        assert!(!o.line(Twin::Without, before_end).contains("paid"));
        let end = o.times.end_us();
        assert_eq!(
            o.line(Twin::Without, end),
            format!(
                "{}: 200 comes back: charged again. Customer {c} paid twice: at 1,799 ms and again at {}.",
                at(end),
                at(end)
            )
        );
        assert!(o.line(Twin::With, end).contains(&format!(
            "the stored 200 comes back, and nothing is charged. Customer {c} paid once"
        )));
        assert_eq!(
            o.line(Twin::Without, o.times.start_us()),
            format!("Customer {c} has not been charged yet.")
        );
    }

    #[test]
    fn every_sentence_is_listed_with_the_span_of_the_clock_it_is_shown_for() {
        let o = opening(1);
        let m = lines_markup(&o, Twin::Without).into_string();
        let c = o.key.customer();
        let start = o.times.start_us() / 1_000;
        let first = o.times.instants[0] / 1_000;
        assert!(m.starts_with(&format!(
            "<ol class=\"rll-opening-lines\"><li style=\"--at:{start};--until:{first}\">Customer {c} has not been charged yet.</li>"
        )), "{m}");
        let end = o.times.end_us() / 1_000;
        assert!(
            m.ends_with(&format!(
                "<li style=\"--at:{end}\">{}</li></ol>",
                o.line(Twin::Without, o.times.end_us())
            )),
            "{m}"
        );
        for &t in &o.times.instants[..o.times.instants.len() - 1] {
            assert!(m.contains(&o.line(Twin::Without, t)), "{t}: {m}");
        }
        // Spans follow one another: each ends where the next begins.
        let spans: Vec<(u64, Option<u64>)> = m
            .split("<li style=\"--at:")
            .skip(1)
            .map(|li| {
                let style = &li[..li.find('"').unwrap()];
                let mut parts = style.split(";--until:");
                let at = parts.next().unwrap().parse().unwrap();
                (at, parts.next().map(|u| u.parse().unwrap()))
            })
            .collect();
        for w in spans.windows(2) {
            assert_eq!(w[0].1, Some(w[1].0), "{spans:?}");
        }
    }

    #[test]
    fn the_markup_carries_the_clock_face_and_the_player_reads_it_back() {
        let o = opening(1);
        let m = opening_section(&o, Speed::X1).into_string();
        let attr = o.times.attr();
        assert!(m.contains(&format!("{INSTANTS_ATTR}=\"{attr}\"")), "{m}");
        assert!(m.contains(&format!("{SPEED_ATTR}=\"1x\"")), "{m}");
        assert!(m.contains(&format!("id=\"{OPENING_ID}\"")), "{m}");
        assert_eq!(OpeningTimes::read(&attr), Some(o.times.clone()));
        // What is not a clock face is refused, not played.
        for bad in ["", "x", "5 5", "9 3", "1 -2", "18446744073709551616"] {
            assert_eq!(OpeningTimes::read(bad), None, "{bad:?}");
        }
        let too_many: Vec<String> = (1..=MAX_INSTANTS as u64 + 1)
            .map(|t| t.to_string())
            .collect();
        assert_eq!(OpeningTimes::read(&too_many.join(" ")), None);
        // The speed: the section's, or the default; none for a reader who asked for less
        // motion.
        assert_eq!(
            opening_rate(Some("1x"), false),
            Speed::X1.sim_us_per_wall_ms()
        );
        assert_eq!(
            opening_rate(Some("warp"), false),
            Speed::default().sim_us_per_wall_ms()
        );
        assert_eq!(
            opening_rate(None, false),
            Speed::default().sim_us_per_wall_ms()
        );
        assert_eq!(opening_rate(Some("1x"), true), None);
    }

    #[test]
    fn the_clock_holds_on_each_event_skips_the_cut_and_ends() {
        let o = opening(1);
        let mut c = OpeningClock::at_start(&o.times);
        let mut stops: Vec<u64> = Vec::new();
        let mut frames = 0;
        // 1x: a simulated millisecond per wall millisecond, 60 frames a second.
        while c.advance(&o.times, 16.0, Some(1_000.0)) {
            if c.hold_ms > 0.0 && stops.last() != Some(&c.t_us) {
                stops.push(c.t_us);
            }
            frames += 1;
            assert!(frames < 10_000, "the story never ends");
        }
        assert_eq!(stops, o.times.instants, "held on every event, in order");
        assert_eq!(c.t_us, o.times.end_us());
        // The wall time is the drawn time at 1x plus the holds: the cut was skipped.
        let wall_ms = frames as f64 * 16.0;
        let drawn_ms: f64 = o
            .times
            .stretches
            .iter()
            .map(|s| {
                (s.to_us.min(o.times.end_us()) - s.from_us.max(o.times.start_us())) as f64 / 1e3
            })
            .sum();
        let held_ms = o.times.instants.len() as f64 * HOLD_MS;
        assert!(
            (wall_ms - (drawn_ms + held_ms)).abs() < 40.0,
            "{wall_ms} ms against {drawn_ms} + {held_ms}"
        );
        // Instant goes straight to the end.
        let mut c = OpeningClock::at_start(&o.times);
        assert!(!c.advance(&o.times, 16.0, None));
        assert_eq!(c.t_us, o.times.end_us());
    }

    #[test]
    fn stepping_visits_each_event() {
        let o = opening(1);
        let mut t = o.times.start_us();
        let mut seen = Vec::new();
        while let Some(n) = o.times.next(t) {
            seen.push(n);
            t = n;
        }
        assert_eq!(seen, o.times.instants);
        assert_eq!(o.times.previous(o.times.instants[1]), o.times.instants[0]);
        assert_eq!(o.times.previous(o.times.instants[0]), o.times.start_us());
    }

    #[test]
    fn other_seeds_draw_too() {
        for seed in 2..=12 {
            let Some(k) = key_at_work(&Scenario::article(StrategyName::Keyed, seed)) else {
                continue;
            };
            let o = Opening::new(k);
            let m = opening_markup(&o).into_string();
            assert!(
                m.contains("charged twice") || m.contains("3 times"),
                "seed {seed}"
            );
            let xs: Vec<f64> = o.times.instants.iter().map(|&t| o.times.x(t)).collect();
            assert!(xs.windows(2).all(|w| w[0] < w[1]), "seed {seed}: {xs:?}");
        }
    }
}
