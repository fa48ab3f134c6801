//! [`Read`]: a signal its holder may read and track but not write, handed out by the one
//! owner of the state (`RunState`, `Playback`, `ClientRun`), whose methods are the only
//! writers.
//!
//! A plain wrapper over the owner's `RwSignal`, rather than Leptos' `ReadSignal`: each
//! `ReadSignal<T>` is a type of its own, and brings its own copy of the reactive
//! machinery for every `T` into a page's module (about 5 KB of the run page's, measured),
//! where this reuses the `RwSignal<T>`'s.

use leptos::prelude::*;

/// A read-only view of an owner's signal.
pub struct Read<T: 'static, S = SyncStorage>(RwSignal<T, S>);

impl<T: 'static, S> Clone for Read<T, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: 'static, S> Copy for Read<T, S> {}

impl<T: 'static, S> Read<T, S>
where
    RwSignal<T, S>: With<Value = T> + WithUntracked<Value = T> + Track,
{
    /// The signal `signal`, to be read only.
    pub fn of(signal: RwSignal<T, S>) -> Self {
        Self(signal)
    }

    /// Reads the value, and tracks it.
    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        self.0.with(f)
    }

    /// Reads the value without tracking it.
    pub fn with_untracked<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        self.0.with_untracked(f)
    }

    /// Tracks the value without reading it.
    pub fn track(&self) {
        self.0.track();
    }
}

impl<T: Clone + 'static, S> Read<T, S>
where
    RwSignal<T, S>: Get<Value = T> + GetUntracked<Value = T>,
{
    /// A copy of the value, tracked.
    pub fn get(&self) -> T {
        self.0.get()
    }

    /// A copy of the value, untracked.
    pub fn get_untracked(&self) -> T {
        self.0.get_untracked()
    }
}

impl<T: Send + Sync + 'static> From<Read<T>> for Signal<T> {
    fn from(read: Read<T>) -> Self {
        read.0.into()
    }
}
