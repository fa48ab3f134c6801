//! The note beside the strategy buttons: what the selected strategy changes from the
//! previous one, and what to watch for. Every number in it comes from the parameters the
//! run uses.

use crate::shared::format::duration_ms;
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::shared::titles::strategy_label;
use crate::slot;
use maud::{html, Markup};
use sim::provider::ProviderConfig;
use sim::strategy::pacer::Pacer;
use sim::strategy::{adaptive, breaker, budget, ClientParams};
use sim::time::whole_ms;
use sim::StrategyName;

/// The explanation of one strategy: what changed, and what to watch.
pub fn explain(s: StrategyName, c: &ClientParams, p: &ProviderConfig) -> (String, String) {
    // The pacer decides its own gap (and how it rounds it): ask it.
    let gap = duration_ms(whole_ms(Pacer::new(c.pacer_per_s.max(1)).gap_us()));
    let timeout = duration_ms(whole_ms(c.timeout_us));
    let slow = duration_ms(whole_ms(p.slow_latency_us));
    let base = duration_ms(whole_ms(c.backoff_base_us));
    let workers = c.pool_workers;
    match s {
        StrategyName::Naive => (
            "Every charge starts at the same instant. No pacing, no retries, no timeout, no key.".into(),
            "Watch 429 and 503: the provider admits what fits its limits and refuses the rest, and nothing asks again.".into(),
        ),
        StrategyName::Paced => (
            format!(
                "A pacer hands out one turn every {gap} ({} a second, under the provider's {}). Each request books the next turn before it waits, so no two share a turn.",
                c.pacer_per_s, p.rate_limit
            ),
            "Watch 429 fall to zero, and the 500s: each one is a customer lost, because nothing retries.".into(),
        ),
        StrategyName::Retry => (
            format!(
                "A failed attempt (500, 503, 429 or 409) is tried again after {base}, doubling each time, up to {} attempts. A 400 is an answer, so it is never retried. Each retry takes a new pacer turn, at the back of the line.",
                c.max_attempts
            ),
            "Watch “gave up” fall to zero while requests rise only a little.".into(),
        ),
        StrategyName::TimeoutNoKey => (
            format!(
                "The client stops waiting after {timeout}. A slow charge takes {slow}: the client gives up and retries, but the provider finishes the first charge anyway."
            ),
            "Without a key the retry is a new charge. Watch extra charges: customers who paid twice.".into(),
        ),
        StrategyName::Keyed => (
            "Every attempt of one charge carries the same idempotency key. The provider answers 409 while the first attempt is still running, and the stored answer once it has finished.".into(),
            "Watch extra charges return to zero and “replayed” rise. There are few 409s: a retry waits behind every charge not yet started, so the slow one has long finished.".into(),
        ),
        StrategyName::Pool => (
            format!(
                "{workers} workers each take the next customer when free, sharing the one pacer. A retry now waits behind {} others, not behind the whole queue.",
                workers.saturating_sub(1)
            ),
            format!(
                "Watch 409 rise: retries now arrive while the slow first attempt still runs. The client never awaits more than {workers} answers, yet the provider can hold more: a timed-out slow charge keeps running."
            ),
        ),
        StrategyName::Headers => (
            "A 429 or 503 is read for the wait its Retry-After and RateLimit headers ask for, and every worker pauses until it is over, then comes back after a random share of it.".into(),
            "Set an incident under “Change the numbers” and watch the requests sent during it fall.".into(),
        ),
        StrategyName::Budget => {
            let q = budget::AWS_STANDARD;
            (
                format!(
                    "Retries draw on one shared budget: {} tokens, {} per retry, {} after a timeout; a success puts tokens back. An empty budget means no retry.",
                    q.capacity, q.retry_cost, q.timeout_cost
                ),
                "Watch “budget refused”: charges given up so as not to pile onto a provider that is down.".into(),
            )
        }
        StrategyName::Breaker => {
            let b = breaker::SCALED_RESILIENCE4J;
            (
                format!(
                    "A circuit breaker opens when {}% of the last {} attempts failed, waits {}, then lets {} probes through. While it is open, workers wait instead of sending.",
                    b.failure_percent,
                    b.window,
                    duration_ms(whole_ms(b.open_us)),
                    b.probes
                ),
                "Watch “breaker opened” during an incident, and how few requests reach the provider meanwhile.".into(),
            )
        }
        StrategyName::Adaptive => {
            let a = adaptive::VECTOR_ARC;
            (
                format!(
                    "Instead of {workers} fixed workers, the limit starts at {} and changes once per average round trip: up by one if the client was at its limit, met no 429, 503 or timeout, and its round trips were no slower than their moving average; down by a tenth after a 429, a 503 or a timeout, or round trips {} deviations slower than that average. At most {}.",
                    a.initial_concurrency,
                    crate::run::equivalents::tenths(a.rtt_deviation_scale_tenths),
                    a.max_concurrency_limit
                ),
                "Watch the peak and mean concurrency: charges under way at once, most of them waiting for a pacer turn. The limit climbs while round trips stay quick and falls after a timeout.".into(),
            )
        }
    }
}

/// The note's heading: the strategy's name, and the one it builds on.
pub const NOTE_TITLE: Slot = slot!("note-title");
/// What the strategy changes.
pub const NOTE_CHANGE: Slot = slot!("note-change");
/// What to watch.
pub const NOTE_WATCH: Slot = slot!("note-watch");

/// What the note explains: the strategy, and the numbers the next run uses.
#[derive(Clone, Debug, PartialEq)]
pub struct NoteState {
    /// The strategy explained.
    pub strategy: StrategyName,
    /// The client's numbers.
    pub client: ClientParams,
    /// The provider's.
    pub provider: ProviderConfig,
}

/// The note ([`Live`]): the strategy's name (and the one it builds on), what it changes,
/// and what to watch, each part written in place when it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note;

impl Live for Note {
    type State = NoteState;

    fn shape(&self, _: &NoteState) -> u64 {
        0
    }

    fn draw(&self, n: &NoteState, fill: &mut Fill) -> Markup {
        draw(fill, n.strategy, &n.client, &n.provider)
    }
}

/// The note as markup: the strategy's name (and the one it builds on), what it changes,
/// and what to watch ([`Note`]).
pub fn note_markup(s: StrategyName, c: &ClientParams, p: &ProviderConfig) -> Markup {
    draw(&mut Fill::default(), s, c, p)
}

/// The note, its live parts recorded in `fill`.
fn draw(fill: &mut Fill, s: StrategyName, c: &ClientParams, p: &ProviderConfig) -> Markup {
    let (change, watch) = explain(s, c, p);
    let title = html! {
        (strategy_label(s))
        @if let Some(prev) = s.previous() {
            span.rll-note-from { " — " (strategy_label(prev)) ", plus one change" }
        }
    };
    let watch = html! { span.rll-watch-label { "What to watch: " } (watch) };
    html! {
        h3 data-slot=(NOTE_TITLE) { (fill.markup(NOTE_TITLE, title)) }
        p data-slot=(NOTE_CHANGE) { (fill.text(NOTE_CHANGE, change)) }
        p.rll-watch data-slot=(NOTE_WATCH) { (fill.markup(NOTE_WATCH, watch)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::Scenario;

    #[test]
    fn the_note_names_the_strategy_its_parent_and_the_runs_numbers() {
        let sc = Scenario::article(StrategyName::Pool, 1);
        let m = note_markup(StrategyName::Pool, &sc.client, &sc.provider).into_string();
        assert!(
            m.starts_with(&format!(
                "<h3 data-slot=\"note-title\">{}<span class=\"rll-note-from\"> — {}, plus one change</span></h3>",
                strategy_label(StrategyName::Pool),
                strategy_label(StrategyName::Keyed)
            )),
            "{m}"
        );
        assert!(
            m.contains(&format!(
                "<p data-slot=\"note-change\">{} workers each take",
                sc.client.pool_workers
            )),
            "{m}"
        );
        let eight = ClientParams {
            pool_workers: 8,
            ..sc.client
        };
        assert!(note_markup(StrategyName::Pool, &eight, &sc.provider)
            .into_string()
            .contains("<p data-slot=\"note-change\">8 workers each take"));
        // The first strategy builds on nothing; quotes in the text are escaped.
        let naive = note_markup(StrategyName::Naive, &sc.client, &sc.provider).into_string();
        assert!(
            naive.starts_with(&format!(
                "<h3 data-slot=\"note-title\">{}</h3>",
                strategy_label(StrategyName::Naive)
            )),
            "{naive}"
        );
        let retry = note_markup(StrategyName::Retry, &sc.client, &sc.provider).into_string();
        assert!(
            retry.contains("What to watch: </span>Watch “gave up” fall"),
            "{retry}"
        );
    }

    #[test]
    fn the_note_draws_what_it_fills_and_new_numbers_leave_its_heading() {
        let sc = Scenario::article(StrategyName::Pool, 1);
        let state = |s| NoteState {
            strategy: s,
            client: sc.client.clone(),
            provider: sc.provider.clone(),
        };
        for s in StrategyName::ALL {
            crate::shared::live::check_drawn(&Note, &state(s)).unwrap();
        }
        let mut slower = state(StrategyName::Pool);
        slower.client.timeout_us *= 2;
        let fill = |n: &NoteState| {
            let mut fill = Fill::default();
            Note.draw(n, &mut fill);
            fill
        };
        let changed: Vec<Slot> = fill(&slower)
            .changed_since(&fill(&state(StrategyName::Pool)))
            .map(|(hole, _)| hole.slot)
            .collect();
        assert!(!changed.contains(&NOTE_TITLE), "{changed:?}");
    }
}
