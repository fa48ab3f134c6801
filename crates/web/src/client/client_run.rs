//! A run of the reader's client, from Run to the panels: the sandbox runs the code
//! ([`SandboxFrame`]), and meanwhile the page runs the ten built-in strategies on the
//! same scenario for the report card; when the sandbox is done, the page replays the
//! client's calls through its own run of the core and shows that run. Both run a slice
//! at a time between tasks, so the page's thread never blocks for long, and each run
//! carries a number: a message or a slice of an older run (cancelled, or replaced by
//! a new one) is dropped.

use super::sandbox_frame::{Assets, SandboxFrame};
use crate::shared::read::Read;
use crate::shared::use_animation_frame::now_ms;
use crate::shared::workers::field;
use leptos::prelude::*;
use page::client::outcome::{unfinished_sentence, CodeError, Failure, Place, Said, Stop};
use page::client::runs::{BuiltIns, Judged, Replaying};
use page::client::view::{done_text, running_text, LogLine, CANCELLED_TEXT, CHECKING_TEXT};
use page::shared::report::Best;
use sim::foreign::ForeignRun;
use sim::Scenario;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The longest slice of work between two tasks, in ms of the page's thread.
const SLICE_MS: f64 = 8.0;
/// Events of a built-in run, and calls of a replay, between two looks at the clock.
const STEP: usize = 2_000;
/// The most console lines and errors read from the sandbox (it keeps no more).
const MAX_LINES: u32 = 2_000;

/// Where the view's run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No run yet, or the last one was cancelled.
    Idle,
    /// The sandbox is running the code.
    Running,
    /// The page is replaying its calls and running the built-ins.
    Checking,
    /// Shown, or failed with a sentence.
    Done,
}

impl Phase {
    /// The root element's `data-run-state`.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Running | Phase::Checking => "running",
            Phase::Done => "done",
        }
    }
}

/// A finished run, as shown.
pub struct Shown {
    /// The page's own run of the client's calls: the record the panels draw.
    pub run: ForeignRun,
    /// Its card, counters and the customers each harm fell on.
    pub judged: Judged,
    /// The best built-in that passed, beside each figure (`None`: not compared).
    pub best: Option<Best>,
    /// What the code wrote with console.log.
    pub log: Vec<LogLine>,
    /// Console lines the sandbox did not keep.
    pub dropped: u64,
}

/// What a finished sandbox run said besides its calls, kept while the page replays them.
struct Told {
    problems: Vec<String>,
    log: Vec<LogLine>,
    dropped: u64,
    wall_ms: u64,
    events: u64,
}

/// The work the page does between tasks.
#[derive(Default)]
struct Work {
    /// The run's scenario.
    scenario: Option<Scenario>,
    built_ins: Option<BuiltIns>,
    /// The best built-in, once they are done (`Some(None)`: they ran, and none compares).
    best: Option<Option<Best>>,
    replay: Option<Replaying>,
    told: Option<Told>,
    /// The run the replay made, once it is done.
    replayed: Option<ForeignRun>,
    looping: bool,
}

/// The view's run: copyable, so every control can hold it.
#[derive(Clone, Copy)]
pub struct ClientRun {
    /// Where it is.
    phase: RwSignal<Phase>,
    /// The status line.
    status: RwSignal<String>,
    /// Customers the client is done with, and in all, while the sandbox runs.
    progress: RwSignal<Option<(u64, u64)>>,
    /// What went wrong, one sentence each.
    problems: RwSignal<Vec<String>>,
    /// Where in the code the run failed, for the editor.
    failed_at: RwSignal<Option<Place>>,
    /// The run shown, if any.
    shown: RwSignal<Option<Rc<Shown>>, LocalStorage>,
    number: StoredValue<u64>,
    frame: StoredValue<Option<SandboxFrame>, LocalStorage>,
    assets: StoredValue<Option<Assets>, LocalStorage>,
    work: StoredValue<Work, LocalStorage>,
}

impl ClientRun {
    /// Where it is.
    pub fn phase(&self) -> Read<Phase> {
        Read::of(self.phase)
    }

    /// The status line.
    pub fn status(&self) -> Read<String> {
        Read::of(self.status)
    }

    /// Customers the client is done with, and in all, while the sandbox runs.
    pub fn progress(&self) -> Read<Option<(u64, u64)>> {
        Read::of(self.progress)
    }

    /// What went wrong, one sentence each.
    pub fn problems(&self) -> Read<Vec<String>> {
        Read::of(self.problems)
    }

    /// Says that the run cannot start, and why.
    pub fn refuse(&self, why: String) {
        self.problems.set(vec![why]);
    }

    /// Where in the code the run failed, for the editor.
    pub fn failed_at(&self) -> Read<Option<Place>> {
        Read::of(self.failed_at)
    }

    /// The run shown, if any.
    pub fn shown(&self) -> Read<Option<Rc<Shown>>, LocalStorage> {
        Read::of(self.shown)
    }

    /// A view's run, with nothing run yet.
    pub fn new() -> Self {
        Self {
            phase: RwSignal::new(Phase::Idle),
            status: RwSignal::new(String::new()),
            progress: RwSignal::new(None),
            problems: RwSignal::new(Vec::new()),
            failed_at: RwSignal::new(None),
            shown: RwSignal::new_local(None),
            number: StoredValue::new(0),
            frame: StoredValue::new_local(None),
            assets: StoredValue::new_local(None),
            work: StoredValue::new_local(Work::default()),
        }
    }

    /// Removes the sandbox's frame, which ends its worker: in a task of its own, since a
    /// message from the frame may be what asked (its listener is still running).
    fn close_frame(self) {
        if let Some(frame) = self.frame.try_update_value(Option::take).flatten() {
            set_timeout(move || drop(frame), Duration::ZERO);
        }
    }

    fn current(&self, n: u64) -> bool {
        self.number.get_value() == n
    }

    /// Runs `code` on `scenario` (`query` names it for the sandbox's module), in place of
    /// any run going.
    pub fn start(self, code: String, scenario: Scenario, query: String) {
        let n = self.number.get_value() + 1;
        self.number.set_value(n);
        self.close_frame();
        self.phase.set(Phase::Running);
        self.problems.set(Vec::new());
        self.failed_at.set(None);
        self.progress.set(Some((0, u64::from(scenario.customers))));
        self.status
            .set(running_text(0, scenario.customers.into(), 0));
        self.work.set_value(Work {
            built_ins: Some(BuiltIns::new(&scenario)),
            scenario: Some(scenario),
            ..Work::default()
        });
        self.slices(n);
        leptos::task::spawn_local(async move {
            if self.assets.with_value(Option::is_none) {
                match Assets::fetch().await {
                    Ok(a) => self.assets.set_value(Some(a)),
                    Err(why) => {
                        if self.current(n) {
                            self.fail(vec![why], None);
                        }
                        return;
                    }
                }
            }
            if !self.current(n) {
                return;
            }
            let on_message: Rc<super::sandbox_frame::OnMessage> =
                Rc::new(move |kind: &str, data: JsValue| {
                    if self.current(n) {
                        self.heard(n, kind, &data, &code, &query);
                    }
                });
            match SandboxFrame::open(on_message) {
                Some(frame) => self.frame.set_value(Some(frame)),
                None => self.fail(
                    vec!["This browser could not open the sandbox's frame, so the code cannot run here.".into()],
                    None,
                ),
            }
        });
    }

    /// Stops the run going, and says so.
    pub fn cancel(self) {
        self.number.update_value(|n| *n += 1);
        self.close_frame();
        self.work.set_value(Work::default());
        self.progress.set(None);
        self.phase.set(Phase::Idle);
        self.status.set(CANCELLED_TEXT.to_string());
    }

    fn fail(self, problems: Vec<String>, at: Option<Place>) {
        self.number.update_value(|n| *n += 1);
        self.close_frame();
        self.work.set_value(Work::default());
        self.progress.set(None);
        self.failed_at.set(at);
        self.problems.set(problems);
        self.status.set(String::new());
        self.phase.set(Phase::Done);
    }

    /// A message from the sandbox's frame.
    fn heard(self, n: u64, kind: &str, data: &JsValue, code: &str, query: &str) {
        match kind {
            "ready" => self.assets.with_value(|assets| {
                self.frame.with_value(|frame| {
                    if let (Some(assets), Some(frame)) = (assets, frame) {
                        frame.run(assets, code, query);
                    }
                })
            }),
            "progress" => {
                let (done, all, now) = (
                    whole(data, "settled"),
                    whole(data, "customers"),
                    whole(data, "nowUs"),
                );
                self.progress.set(Some((done, all)));
                self.status.set(running_text(done, all, now));
            }
            "failed" => {
                let failure = Failure::of(&said(&field(data, "report")));
                let at = failure.place();
                self.fail(vec![failure.to_string()], at);
            }
            "done" => self.done(n, data),
            _ => {}
        }
    }

    /// The sandbox is done: read what it said, and replay its calls.
    fn done(self, n: u64, data: &JsValue) {
        self.close_frame();
        let scenario = self.work.with_value(|w| w.scenario.clone());
        let Some(scenario) = scenario else {
            return;
        };
        let ops: Vec<f64> = field(data, "ops")
            .dyn_into::<js_sys::Float64Array>()
            .map(|a| a.to_vec())
            .unwrap_or_default();
        let key_lengths: Vec<u32> = field(data, "keyLengths")
            .dyn_into::<js_sys::Uint32Array>()
            .map(|a| a.to_vec())
            .unwrap_or_default();
        let key_text = text(data, "keyText").unwrap_or_default();
        let mut problems: Vec<String> = array(data, "errors", MAX_LINES)
            .iter()
            .map(|e| CodeError::of(&said(e), whole(e, "tUs")).to_string())
            .collect();
        let stopped = field(data, "stopped");
        if stopped.is_object() {
            problems.push(Stop::of(&said(&stopped)).to_string());
        }
        problems.extend(unfinished_sentence(whole(data, "unfinished")));
        let log = array(data, "log", MAX_LINES)
            .iter()
            .map(|l| LogLine {
                t_us: whole(l, "tUs"),
                level: text(l, "level").unwrap_or_default(),
                text: text(l, "text").unwrap_or_default(),
            })
            .collect();
        let told = Told {
            problems,
            log,
            dropped: whole(data, "logDropped"),
            wall_ms: whole(data, "wallMs"),
            events: whole(data, "events"),
        };
        match Replaying::new(&scenario, &ops, &key_text, &key_lengths) {
            Ok(replay) => {
                self.work.update_value(|w| {
                    w.replay = Some(replay);
                    w.told = Some(told);
                });
                self.progress.set(None);
                self.phase.set(Phase::Checking);
                self.status.set(CHECKING_TEXT.to_string());
                self.slices(n);
            }
            Err(why) => self.fail(vec![why], None),
        }
    }

    /// Does the page's share of run `n` a slice at a time, one slice per task.
    fn slices(self, n: u64) {
        let already = self
            .work
            .try_update_value(|w| std::mem::replace(&mut w.looping, true));
        if already == Some(true) {
            return;
        }
        // In a task of its own: the one that asked (a click, the sandbox's answer) has
        // its own work to finish first.
        set_timeout(move || self.slice(n), Duration::ZERO);
    }

    fn slice(self, n: u64) {
        if !self.current(n) {
            return;
        }
        let started = now_ms();
        let mut failed = None;
        let more = self
            .work
            .try_update_value(|w| {
                while now_ms() - started < SLICE_MS {
                    if let Some(b) = &mut w.built_ins {
                        match b.step(STEP as u64) {
                            Ok(true) => {
                                w.best = Some(b.best());
                                w.built_ins = None;
                            }
                            Ok(false) => {}
                            Err(_) => {
                                // A scenario the built-ins cannot run is one the sandbox's
                                // module refuses too, with its sentence.
                                w.best = Some(None);
                                w.built_ins = None;
                            }
                        }
                        continue;
                    }
                    if let Some(r) = &mut w.replay {
                        match r.step(STEP) {
                            Ok(true) => w.replayed = w.replay.take().map(Replaying::finish),
                            Ok(false) => {}
                            Err(why) => {
                                failed = Some(why);
                                w.replay = None;
                            }
                        }
                        continue;
                    }
                    break;
                }
                let more = w.built_ins.is_some() || w.replay.is_some();
                w.looping = more;
                more
            })
            .unwrap_or(false);
        if let Some(why) = failed {
            self.fail(vec![why], None);
            return;
        }
        if more {
            set_timeout(move || self.slice(n), Duration::ZERO);
        } else {
            self.finish_if_ready();
        }
    }

    /// Shows the run once the replay and the built-ins are both done.
    fn finish_if_ready(self) {
        let ready = self.work.try_update_value(|w| {
            if w.replayed.is_some() && w.best.is_some() {
                Some((w.replayed.take()?, w.best.take()?, w.told.take()?))
            } else {
                None
            }
        });
        let Some(Some((run, best, told))) = ready else {
            return;
        };
        let judged = Judged::of(&run);
        self.problems.set(told.problems);
        self.status.set(done_text(told.wall_ms, told.events));
        self.shown.set(Some(Rc::new(Shown {
            run,
            judged,
            best,
            log: told.log,
            dropped: told.dropped,
        })));
        self.phase.set(Phase::Done);
    }
}

impl Default for ClientRun {
    fn default() -> Self {
        Self::new()
    }
}

/// A whole number field of a message (0 if it is none).
fn whole(data: &JsValue, key: &str) -> u64 {
    field(data, key)
        .as_f64()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .map_or(0, |x| x as u64)
}

/// A text field of a message.
fn text(data: &JsValue, key: &str) -> Option<String> {
    field(data, key).as_string()
}

/// An array field's first `max` items (none if it is not an array).
fn array(data: &JsValue, key: &str, max: u32) -> Vec<JsValue> {
    field(data, key)
        .dyn_into::<js_sys::Array>()
        .map(|a| (0..a.length().min(max)).map(|i| a.get(i)).collect())
        .unwrap_or_default()
}

/// A report as the sandbox sent it.
fn said(report: &JsValue) -> Said {
    let number = |key: &str| field(report, key).as_f64();
    Said {
        kind: text(report, "kind").unwrap_or_default(),
        message: text(report, "message"),
        line: number("line"),
        column: number("column"),
        n: number("n"),
    }
}
