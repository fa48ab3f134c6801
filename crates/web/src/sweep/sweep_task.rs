//! One sweep task for both sweep views: it starts a sweep, shares its runs out between
//! simulation workers ([`Farm`]) or, where none can start, steps it between frames on the
//! page's own thread ([`use_animation_frame`]), counts its progress, cancels it, and
//! publishes what the finished sweep shows. A view says only what one step is (the core's
//! [`Stepped`] job), how a worker's answers go back into it, and what it shows at the end.

use crate::shared::use_animation_frame::{
    now_ms, use_animation_frame, First, FrameLoop, Next, FRAME_BUDGET_MS,
};
use crate::shared::workers::Farm;
use leptos::prelude::*;
use page::shared::worker_message::{Answer, Read, Work};
use page::sweep::query::SweepQuery;
use page::sweep::sweep_progress::{SweepShown, SweepState};
use sim::sweep::Stepped;

/// A sweep in progress, and when it started.
struct Running<S> {
    steps: S,
    started_ms: f64,
}

/// What a finished sweep needs to publish its result: copyable, so the workers' closure
/// and the frame loop can both hold it.
struct Finish<S: 'static, T: 'static> {
    running: StoredValue<Option<Running<S>>>,
    read: fn(&S) -> T,
    result: RwSignal<Option<T>>,
    took_ms: RwSignal<f64>,
    state: RwSignal<SweepState>,
}

impl<S, T> Clone for Finish<S, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S, T> Copy for Finish<S, T> {}

impl<S: Stepped + Send + Sync + 'static, T: Send + Sync + 'static> Finish<S, T> {
    /// Publishes the finished sweep: how long it took, its result, and that it is done.
    fn publish(self) {
        let (done, started_ms) = self.running.with_value(|r| {
            let r = r.as_ref().expect("a finished job");
            ((self.read)(&r.steps), r.started_ms)
        });
        self.took_ms.set(now_ms() - started_ms);
        self.result.set(Some(done));
        self.state.set(SweepState::Done);
    }

    /// Runs steps for one frame's budget and publishes the progress; at the end, the
    /// result.
    fn frame(self, progress: RwSignal<(u64, u64)>) -> Next {
        let start_ms = now_ms();
        let finished = self
            .running
            .try_update_value(|r| {
                let s = &mut r.as_mut()?.steps;
                let mut more = true;
                while more && now_ms() - start_ms < FRAME_BUDGET_MS {
                    more = s.step();
                }
                progress.set((s.done(), s.total()));
                Some(!more)
            })
            .flatten();
        match finished {
            Some(true) => {
                self.publish();
                Next::Stop
            }
            Some(false) => Next::Frame,
            None => Next::Stop,
        }
    }
}

/// One view's sweep: `S` is the core's job, stepped one run at a time, and `T` what its
/// view shows once it has finished. Copyable, so the view's closures can hold it.
pub struct SweepTask<S: 'static, T: 'static> {
    finish: Finish<S, T>,
    /// Runs done and runs in all.
    progress: RwSignal<(u64, u64)>,
    /// Workers the sweep on screen ran on (0: the page's own thread).
    workers_used: RwSignal<u32>,
    problem: RwSignal<Option<String>>,
    shown: RwSignal<SweepQuery>,
    frames: FrameLoop,
    farm: Farm,
    /// The reader of the workers' answers.
    read: Read,
}

impl<S, T> Clone for SweepTask<S, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S, T> Copy for SweepTask<S, T> {}

impl<S, T> SweepTask<S, T>
where
    S: Stepped + Send + Sync + 'static,
    T: Send + Sync + 'static,
{
    /// A view's sweep task, none running yet. `read` reads a worker's answer (the view's
    /// kind) and `take` puts that slice of runs (in order) into the core's job; `read` is what the finished job shows. `state` is
    /// where the sweep is, `problem` why it cannot start or stopped, and `shown` the sweep
    /// on screen as a page, set when one starts.
    pub fn new(
        state: RwSignal<SweepState>,
        problem: RwSignal<Option<String>>,
        shown: RwSignal<SweepQuery>,
        read_answer: Read,
        take: fn(&mut S, Answer) -> bool,
        read: fn(&S) -> T,
    ) -> Self {
        let running = StoredValue::new(None::<Running<S>>);
        let progress = RwSignal::new((0u64, 0u64));
        let finish = Finish {
            running,
            read,
            result: RwSignal::new(None),
            took_ms: RwSignal::new(0.0f64),
            state,
        };
        // The workers' answers go into the sweep in order; the result is published once
        // every run is in. A worker's error stops the sweep and says why.
        let farm = Farm::new(
            progress,
            move || state.get_untracked() == SweepState::Running,
            move |answer| {
                running.update_value(|r| {
                    if let Some(r) = r.as_mut() {
                        take(&mut r.steps, answer);
                    }
                });
            },
            move || finish.publish(),
            move |why| {
                problem.set(Some(why));
                state.set(SweepState::Cancelled);
            },
        );
        Self {
            finish,
            progress,
            workers_used: RwSignal::new(0u32),
            problem,
            shown,
            frames: use_animation_frame(),
            farm,
            read: read_answer,
        }
    }

    /// What the finished sweep shows; `None` before the first and while one runs.
    pub fn result(&self) -> RwSignal<Option<T>> {
        self.finish.result
    }

    /// Workers the sweep on screen ran on (0: the page's own thread).
    pub fn workers_used(&self) -> RwSignal<u32> {
        self.workers_used
    }

    /// How long the finished sweep took, in milliseconds.
    pub fn took_ms(&self) -> RwSignal<f64> {
        self.finish.took_ms
    }

    /// Starts `steps`, the sweep `work` and `now_shown` name (`work` is what the workers
    /// run, `now_shown` what the address bar shows): one worker per core, each handed a
    /// slice at a time; the page's own thread, a frame at a time, if none can start.
    pub fn start(self, steps: S, work: Work, now_shown: SweepQuery) {
        self.problem.set(None);
        self.frames.stop();
        let total = steps.total();
        self.finish.running.set_value(Some(Running {
            steps,
            started_ms: now_ms(),
        }));
        self.finish.result.set(None);
        self.progress.set((0, total));
        self.finish.state.set(SweepState::Running);
        let query = now_shown.to_query();
        crate::shared::page_query::replace(&query);
        self.shown.set(now_shown);
        match self.farm.start(work, self.read, total) {
            Some(n) => self.workers_used.set(n),
            None => {
                self.workers_used.set(0);
                let (finish, progress) = (self.finish, self.progress);
                self.frames
                    .start(First::NextFrame, move || finish.frame(progress));
            }
        }
    }

    /// Stops the sweep where it is.
    pub fn cancel(self) {
        self.frames.stop();
        self.farm.stop();
        self.finish.state.set(SweepState::Cancelled);
    }

    /// Loads the workers ahead of the first sweep.
    pub fn warm(self) {
        self.farm.warm();
    }

    /// Where the sweep is and how far it has gone, as its view shows it (read in a
    /// reactive closure, it follows the sweep).
    pub fn shown(self) -> SweepShown {
        let (done, total) = self.progress.get();
        SweepShown {
            state: self.finish.state.get(),
            done,
            total,
            // Whole milliseconds, rounded.
            took_ms: (self.finish.took_ms.get() + 0.5) as u64,
            workers: self.workers_used.get(),
        }
    }
}
