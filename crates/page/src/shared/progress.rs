//! Progress bars as the page layer draws them: the bar a run fills (with the live gauges
//! under it, [`RunProgress`]) and the bar a sweep fills ([`bar_drawn`]). Each is drawn
//! live: the bar's numbers, its fill's width and each gauge's text are holes the UI
//! writes in place as the run goes (the nodes stay, so nothing that points at them
//! loses them).

use crate::shared::format::{clock_us, count, percent};
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};

/// What the clock adds once the client has finished before the provider (a timed-out
/// slow charge still runs on): when the client finished, written as the clock is, so two
/// durations do not seem to disagree. `None` while the run goes on, or when the two
/// would read the same on the clock.
pub fn clock_tail(s: &sim::world::Snapshot) -> Option<String> {
    let finished = clock_us(s.stats.elapsed_ms * 1_000);
    (s.customers_done == u64::from(s.customers) && finished != clock_us(s.now_us))
        .then(|| format!(" (the client finished at {finished}; the provider ran on)"))
}

/// A progress bar: its `aria-valuenow` and `aria-valuemax` follow the work.
pub const BAR: Slot = slot!("bar");
/// The filled part of a progress bar: its width is the share done.
pub const BAR_FILL: Slot = slot!("bar-fill");

/// A progress bar named `label`, drawn live: its numbers and its fill's width for `done`
/// of `total`, each recorded in `fill` as it is written.
pub fn bar_drawn(label: &str, done: u64, total: u64, fill: &mut Fill) -> Markup {
    html! {
        div.rll-bar role="progressbar" aria-label=(label) aria-valuemin="0"
            aria-valuemax=(fill.attr_text(BAR, "aria-valuemax", total.to_string()))
            aria-valuenow=(fill.attr_text(BAR, "aria-valuenow", done.to_string())) data-slot=(BAR) {
            div.rll-bar-fill data-slot=(BAR_FILL) style=(fill.attr_text(BAR_FILL, "style", fill_style(done, total))) {}
        }
    }
}

/// The fill's `style`: its width, the share of `done` in `total` (none before anything
/// is known).
pub fn fill_style(done: u64, total: u64) -> String {
    let share = if total == 0 {
        0.0
    } else {
        done as f64 * 100.0 / total as f64
    };
    format!("width:{}", percent(share))
}

/// The name of a run's progress bar and of its gauge: the customers the client has a
/// final outcome for. The provider may have charged more of them ("Customers charged"):
/// a charge's answer may still be on its way, or the client may have stopped waiting for it.
pub const CLIENT_DONE_WITH: &str = "Client done with";

/// A live number under a run's progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gauge {
    /// The simulated clock.
    Clock,
    /// After the clock, when the client finished, if the provider ran on.
    ClockTail,
    /// Customers the client is done with, of all.
    Done,
    /// Requests in flight now, against the in-flight limit.
    InFlight,
    /// Charges the client awaits now.
    Awaiting,
}

impl Gauge {
    /// Every gauge, in the order they stand.
    pub const ALL: [Gauge; 5] = [
        Gauge::Clock,
        Gauge::ClockTail,
        Gauge::Done,
        Gauge::InFlight,
        Gauge::Awaiting,
    ];

    /// Its number's node.
    pub const fn slot(self) -> Slot {
        match self {
            Gauge::Clock => slot!("gauge-clock"),
            Gauge::ClockTail => slot!("gauge-clock-tail"),
            Gauge::Done => slot!("gauge-done"),
            Gauge::InFlight => slot!("gauge-inflight"),
            Gauge::Awaiting => slot!("gauge-awaiting"),
        }
    }

    /// Its label (the clock's tail has none: it follows the clock).
    pub const fn label(self) -> &'static str {
        match self {
            Gauge::Clock => "Simulated time",
            Gauge::ClockTail => "",
            Gauge::Done => CLIENT_DONE_WITH,
            Gauge::InFlight => "In flight now",
            Gauge::Awaiting => "Client awaiting now",
        }
    }

    /// What it shows for snapshot `s` (zeros before any run), the in-flight count
    /// against the in-flight `limit`.
    pub fn text(self, s: Option<&sim::world::Snapshot>, limit: Option<u32>) -> String {
        match self {
            Gauge::Clock => clock_us(s.map_or(0, |s| s.now_us)),
            Gauge::ClockTail => s.and_then(clock_tail).unwrap_or_default(),
            Gauge::Done => {
                let (done, total) = s.map_or((0, 0), |s| (s.customers_done, s.customers.into()));
                format!("{} / {}", count(done), count(total))
            }
            Gauge::InFlight => {
                let inflight = s.map_or(0, |s| s.inflight);
                match limit.map(|l| (l, sim::provider::split_inflight(inflight, l))) {
                    Some((l, (busy, 0))) => format!("{busy} / {l}"),
                    Some((l, (busy, queued))) => {
                        format!("{busy} / {l}, {} queued", count(queued.into()))
                    }
                    None => inflight.to_string(),
                }
            }
            Gauge::Awaiting => s.map_or(0, |s| s.outstanding).to_string(),
        }
    }
}

/// A run's progress bar and the gauges under it ([`Live`]): the bar's numbers and fill,
/// and each gauge's text (the clock, which tests and readers point at, carries its tail).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunProgress;

/// What a run's progress shows: the customers the client is done with, of all, and each
/// gauge's text, in the order of [`Gauge::ALL`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunProgressState {
    /// Customers the client is done with.
    pub done: u64,
    /// Customers in all.
    pub total: u64,
    /// Each gauge's text.
    pub gauges: [String; 5],
}

impl RunProgressState {
    /// What snapshot `s` shows (zeros before any run), the in-flight count against the
    /// in-flight `limit`.
    pub fn of(s: Option<&sim::world::Snapshot>, limit: Option<u32>) -> Self {
        let (done, total) = s.map_or((0, 0), |s| (s.customers_done, s.customers.into()));
        RunProgressState {
            done,
            total,
            gauges: Gauge::ALL.map(|g| g.text(s, limit)),
        }
    }
}

impl Live for RunProgress {
    type State = RunProgressState;

    fn shape(&self, _: &RunProgressState) -> u64 {
        0
    }

    fn draw(&self, s: &RunProgressState, fill: &mut Fill) -> Markup {
        let text = |g: Gauge| s.gauges[g as usize].clone();
        html! {
            div.rll-progress {
                (bar_drawn(CLIENT_DONE_WITH, s.done, s.total, fill))
                div.rll-gauges {
                    @for g in [Gauge::Clock, Gauge::Done, Gauge::InFlight, Gauge::Awaiting] {
                        @let clock = g == Gauge::Clock;
                        span {
                            span.rll-gauge-label { (g.label()) " " }
                            span.rll-num data-slot=(g.slot()) data-testid=[clock.then_some("sim-clock")] {
                                (fill.text(g.slot(), text(g)))
                            }
                            @if clock {
                                span.rll-gauge-label data-testid="clock-tail" data-slot=(Gauge::ClockTail.slot()) {
                                    (fill.text(Gauge::ClockTail.slot(), text(Gauge::ClockTail)))
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::live::check_drawn;
    use sim::{Scenario, Simulation, Stats, StrategyName};

    #[test]
    fn every_gauge_has_one_number_and_starts_at_zero() {
        let m = RunProgress
            .markup(&RunProgressState::of(None, None))
            .into_string();
        for g in Gauge::ALL {
            let attr = format!("data-slot=\"{}\"", g.slot().name());
            assert_eq!(m.matches(&attr).count(), 1, "{g:?}");
            assert!(m.contains(g.label()), "{g:?}");
        }
        assert!(m.contains("data-testid=\"sim-clock\""));
        assert!(m.contains(&format!("aria-label=\"{CLIENT_DONE_WITH}\"")));
        assert_eq!(Gauge::Clock.text(None, None), clock_us(0));
        assert_eq!(Gauge::Done.text(None, None), "0 / 0");
        assert_eq!(Gauge::InFlight.text(None, Some(10)), "0 / 10");
        assert_eq!(Gauge::ClockTail.text(None, None), "");
    }

    #[test]
    fn a_running_run_writes_its_bar_and_gauges_in_place() {
        let mut sim = Simulation::new(&Scenario::default()).unwrap();
        sim.run_until(2_000_000);
        let early = RunProgressState::of(Some(&sim.snapshot()), Some(10));
        sim.run_to_end();
        let late = RunProgressState::of(Some(&sim.snapshot()), Some(10));
        check_drawn(&RunProgress, &early).unwrap();
        check_drawn(&RunProgress, &late).unwrap();
        assert_eq!(RunProgress.shape(&early), RunProgress.shape(&late));
        let (mut before, mut after) = (Fill::default(), Fill::default());
        RunProgress.draw(&early, &mut before);
        RunProgress.draw(&late, &mut after);
        let changed: Vec<_> = after.changed_since(&before).map(|(h, _)| h.slot).collect();
        assert!(
            changed.contains(&BAR) && changed.contains(&BAR_FILL),
            "{changed:?}"
        );
        assert!(changed.contains(&Gauge::Clock.slot()), "{changed:?}");
        assert!(changed.contains(&Gauge::Done.slot()), "{changed:?}");
        let m = RunProgress.markup(&late).into_string();
        assert!(m.contains(&late.gauges[Gauge::Done as usize]));
        assert!(m.contains(&format!("aria-valuenow=\"{}\"", late.done)));
    }

    #[test]
    fn gauges_read_the_snapshot() {
        let mut sim = Simulation::new(&Scenario::default()).unwrap();
        sim.run_to_end();
        let s = sim.snapshot();
        assert_eq!(Gauge::Clock.text(Some(&s), None), clock_us(s.now_us));
        assert_eq!(
            Gauge::Done.text(Some(&s), None),
            format!("{0} / {0}", count(s.customers.into()))
        );
        assert_eq!(
            Gauge::ClockTail.text(Some(&s), None),
            clock_tail(&s).unwrap_or_default()
        );
        assert_eq!(Gauge::InFlight.text(Some(&s), None), s.inflight.to_string());
    }

    #[test]
    fn a_queue_shows_beside_the_busy_workers_not_against_them() {
        // One worker and a queue, ten customers sent at once: one processed, the rest wait.
        let mut scenario = Scenario::article(sim::StrategyName::Naive, 1);
        scenario.customers = 10;
        scenario.provider.max_inflight = 1;
        scenario.provider.queue_limit = 20;
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.run_until(1);
        let s = sim.snapshot();
        assert!(s.inflight > 1, "the run put {} in flight", s.inflight);
        assert_eq!(
            Gauge::InFlight.text(Some(&s), Some(1)),
            format!("1 / 1, {} queued", s.inflight - 1)
        );
        assert_eq!(
            Gauge::InFlight.text(Some(&s), Some(s.inflight)),
            format!("{0} / {0}", s.inflight)
        );
    }

    #[test]
    fn the_fill_is_the_share_done() {
        assert_eq!(fill_style(0, 0), format!("width:{}", percent(0.0)));
        assert_eq!(fill_style(1, 4), format!("width:{}", percent(25.0)));
        assert_eq!(fill_style(4, 4), format!("width:{}", percent(100.0)));
    }

    #[test]
    fn the_clock_says_when_the_client_finished_if_the_provider_ran_on() {
        let mut sim = Simulation::new(&Scenario::article(StrategyName::TimeoutNoKey, 1)).unwrap();
        let early = sim.snapshot();
        assert_eq!(clock_tail(&early), None);
        sim.run_to_end();
        let snap = sim.snapshot();
        // A timed-out slow charge runs on after the client has finished.
        assert!(
            snap.now_us > snap.stats.elapsed_ms * 1_000 + 500,
            "this run's provider ran on"
        );
        assert_eq!(
            clock_tail(&snap).unwrap(),
            format!(
                " (the client finished at {}; the provider ran on)",
                clock_us(snap.stats.elapsed_ms * 1_000)
            )
        );
    }

    #[test]
    fn the_clock_tail_never_reads_later_than_the_clock() {
        // A client that finished 14,265 ms in, a provider that ran on to 14,268 ms: the
        // clock reads 14.27 s, and so would the finish; by tenths the finish would read
        // 14.3 s, later than the clock.
        let at = |elapsed_ms: u64, now_us: u64| {
            let s = sim::world::Snapshot {
                now_us,
                stats: Stats {
                    elapsed_ms,
                    ..Stats::default()
                },
                customers_done: 10,
                customers: 10,
                inflight: 0,
                outstanding: 0,
                finished: true,
            };
            clock_tail(&s)
        };
        assert_eq!(at(14_265, 14_268_000), None);
        assert_eq!(
            at(14_251, 14_268_000).as_deref(),
            Some(" (the client finished at 14.25 s; the provider ran on)")
        );
        assert_eq!(
            at(420, 1_300_000).as_deref(),
            Some(" (the client finished at 420 ms; the provider ran on)")
        );
        assert_eq!(at(1_300, 1_300_000), None);
    }
}
