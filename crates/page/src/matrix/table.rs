//! The matrix page's words and markup: every strategy (rows) against every incident
//! (columns), one cell per run, each with the customers charged, each harm the run did
//! by its stat's name and count, the requests per charge, what the customers waited (the
//! 99th percentile) and where the client stood against the incident (finished before it,
//! during it, or how long it took to recover),
//! coloured by how much harm the run did, with a timeline of the run
//! ([`picture`](super::picture)), and linked to that run on the run page.

use super::picture::{heatmap_markup, horizon_us, legend_markup, level_words};
use crate::query::links::run_href;
use crate::shared::format::{count, duration_ms};
use crate::shared::live::{Fill, Live};
use crate::shared::markup::Whole;
use crate::shared::slot::Slot;
use crate::shared::stats::stat_text;
use crate::shared::titles::strategy_label;
use crate::slot;
use maud::{html, Markup, PreEscaped};
use sim::incident::Incident;
use sim::matrix::{MatrixCell, Overlap};
use sim::time::whole_ms;
use sim::{Scenario, StatField, Stats, StrategyName};

/// A column's heading: what goes wrong in it, with the core's own numbers.
pub fn incident_heading(i: Incident) -> String {
    use sim::incident::{CAPACITY_MAX_INFLIGHT, CAPACITY_RATE_LIMIT, ERRORS_ODDS};
    match i {
        Incident::None => "No incident".into(),
        Incident::Errors => format!("Errors: {} in {} fail", ERRORS_ODDS.num, ERRORS_ODDS.den),
        Incident::Slow => "Slow: every charge".into(),
        Incident::Down => "Down: every request 503".into(),
        Incident::Capacity => {
            format!("Capacity: {CAPACITY_MAX_INFLIGHT} in flight, {CAPACITY_RATE_LIMIT} a window")
        }
    }
}

/// How much harm a run did, 0 (none) to 3 (three kinds or more), for its colour.
pub fn harm_level(cell: &MatrixCell) -> usize {
    cell.harms().len().min(3)
}

/// Each harm the run did, in table order, named by its stat's label with its count (e.g.
/// "Extra charges: 24", "Gave up: 10"); empty when it did none.
pub fn harm_words(cell: &MatrixCell) -> Vec<(StatField, String)> {
    cell.harms()
        .into_iter()
        .map(|f| {
            (
                f,
                format!("{}: {}", stat_text(f).label, count(cell.stats.get(f))),
            )
        })
        .collect()
}

/// What a cell says when the run did no harm.
pub const NO_HARM: &str = "no harm";

/// Where the run's client stood against the incident, in words: finished before it began
/// (and when), finished while it was on, or, when the client was still at work after it,
/// how long until charges flowed again; under traffic that keeps arriving, until the
/// client learned of them again (goodput), or that it never did. `None` in the calm
/// column.
pub fn overlap_words(cell: &MatrixCell, base: &Scenario) -> Option<String> {
    let at = duration_ms(cell.stats.elapsed_ms);
    let st = &cell.stats;
    let arriving = !base.traffic.is_batch();
    match (cell.overlap, cell.stats.recovery_ms) {
        (Overlap::NoIncident, _) => None,
        (Overlap::RanPast, _) if arriving && !st.goodput_came_back(&base.provider.incident) => {
            Some(match st.goodput_up_percent {
                0 => "goodput never came back".into(),
                up => format!("goodput did not recover (up {up}% of the time)"),
            })
        }
        (Overlap::RanPast, _) if arriving => Some(format!(
            "goodput back in {}",
            duration_ms(st.goodput_recovery_ms)
        )),
        (Overlap::FinishedBefore, _) => Some(format!("finished before the incident, at {at}")),
        (Overlap::FinishedDuring, _) => Some(format!("finished during the incident, at {at}")),
        (Overlap::RanPast, 0) => Some("recovered at once".into()),
        (Overlap::RanPast, ms) => Some(format!("recovered in {}", duration_ms(ms))),
    }
}

/// The overlap's name in the cell's data (`data-overlap`), for the tests.
pub const fn overlap_name(o: Overlap) -> &'static str {
    match o {
        Overlap::NoIncident => "none",
        Overlap::FinishedBefore => "before",
        Overlap::FinishedDuring => "during",
        Overlap::RanPast => "past",
    }
}

/// Requests per charge with two decimals, from the stats' per-100 figure (e.g. "1.12").
pub fn per_charge(requests_per_100_charges: u64) -> String {
    format!(
        "{}.{:02}",
        requests_per_100_charges / 100,
        requests_per_100_charges % 100
    )
}

/// What the run's customers waited, in words: the 99th percentile from arrival to the
/// charge's end (e.g. "p99 wait 2.3 s").
pub fn wait_words(stats: &Stats) -> String {
    format!("p99 wait {}", duration_ms(stats.wait_p99_ms))
}

/// The run page playing one cell's run: its strategy, under its incident, on the
/// matrix's seed and numbers.
pub fn cell_href(cell: &MatrixCell, base: &Scenario) -> String {
    run_under(cell.strategy, cell.incident, base)
}

/// The run page playing `strategy` under `incident`, on `base`'s seed and numbers.
pub fn run_under(strategy: StrategyName, incident: Incident, base: &Scenario) -> String {
    let mut s = base.clone();
    s.provider.incident.kind = incident;
    run_href(strategy, &s)
}

/// The incident's span in words, e.g. "from 4.0 s for 3.0 s", for the caption.
pub fn span_text(base: &Scenario) -> String {
    let i = base.provider.incident;
    format!(
        "from {} for {}",
        crate::shared::format::duration_ms(whole_ms(i.start_us)),
        crate::shared::format::duration_ms(whole_ms(i.length_us))
    )
}

/// The cells run so far (rows appear as their runs finish): the heatmap and its legend,
/// then the table of their words in its own scrolling box.
pub fn table_markup(cells: &[MatrixCell], base: &Scenario) -> Markup {
    let horizon = horizon_us(cells, base);
    html! {
        @if !cells.is_empty() {
            (heatmap_markup(cells, base, horizon))
            (legend_markup(horizon, !base.traffic.is_batch()))
        }
        div.rll-matrix-wrap { table.rll-matrix data-testid="matrix" {
            thead { tr {
                th scope="col" { "Strategy" }
                @for i in Incident::ALL { th scope="col" { (incident_heading(i)) } }
            } }
            tbody {
                @for s in StrategyName::ALL {
                    @let row: Vec<&MatrixCell> = cells.iter().filter(|c| c.strategy == s).collect();
                    @if !row.is_empty() {
                        tr {
                            th scope="row" { (strategy_label(s)) }
                            @for c in row { (cell_markup(c, base)) }
                        }
                    }
                }
            }
        } }
    }
}

/// One run's cell: its numbers, as text and as data, each harm by name, where its client
/// stood against the incident, its harm level as its colour, and the link to the run.
fn cell_markup(c: &MatrixCell, base: &Scenario) -> Markup {
    let st = &c.stats;
    let harms = harm_words(c);
    html! {
        td class={ "rll-matrix-cell rll-harm-" (Whole(harm_level(c) as u64)) }
            data-cell={ (c.strategy.as_str()) "/" (c.incident.as_str()) }
            data-charged=(Whole(st.customers_charged)) data-duplicates=(Whole(st.duplicates))
            data-per-100=(Whole(st.requests_per_100_charges)) data-recovery-ms=(Whole(st.recovery_ms))
            data-elapsed-ms=(Whole(st.elapsed_ms)) data-wait-p99-ms=(Whole(st.wait_p99_ms))
            data-goodput-recovery-ms=(Whole(st.goodput_recovery_ms))
            data-overlap=(overlap_name(c.overlap))
            data-harm=(if harms.is_empty() { "false" } else { "true" }) title=(level_words(c)) {
            a href=(cell_href(c, base)) {
                strong { (count(st.customers_charged)) " charged" }
                @if harms.is_empty() { span.rll-matrix-ok { (NO_HARM) } }
                @for (field, words) in &harms {
                    span.rll-matrix-harm data-harm-field=(field.as_str()) data-count=(Whole(st.get(*field))) { (words) }
                }
                span { (per_charge(st.requests_per_100_charges)) " requests per charge" }
                span.rll-matrix-wait { (wait_words(st)) }
                @if let Some(words) = overlap_words(c, base) { span.rll-matrix-when { (words) } }
            }
        }
    }
}

/// What to ship, after the last rung: each line a practice, and the page that shows why
/// (a run, a run under an incident, a sweep or an experiment), on `base`'s seed and
/// numbers.
pub fn ship_list(base: &Scenario) -> Vec<(&'static str, String)> {
    let under = |strategy, incident| run_under(strategy, incident, base);
    let calm = |strategy| under(strategy, Incident::None);
    let timeouts = crate::sweep::param_sweep::PRESETS[0];
    vec![
        (
            "One idempotency key per operation, saved before the first send: without it a retry after a timeout charges twice.",
            calm(StrategyName::TimeoutNoKey),
        ),
        (
            "Retry only what can succeed on retry: a declined card stays declined.",
            calm(StrategyName::Retry),
        ),
        (
            "Back off with jitter, or the retries arrive together.",
            crate::limits::query::experiment_href(
                Some(sim::lab::ExperimentName::Herd),
                base,
                &crate::limits::settings::LabSettings::default(),
            ),
        ),
        (
            "Honour Retry-After: wait as long as the provider asks, every worker at once.",
            under(StrategyName::Headers, Incident::Down),
        ),
        (
            "A retry budget, so a long outage cannot turn every charge into retries: past it, a charge gives up and says so.",
            {
                // Ten seconds of errors: long enough to empty the bucket.
                let mut s = base.clone();
                s.provider.incident.kind = Incident::Errors;
                s.provider.incident.length_us = sim::time::ms(10_000);
                run_href(StrategyName::Budget, &s)
            },
        ),
        (
            "A timeout shorter than your caller's, and longer than the provider's slow path.",
            crate::sweep::query::param_sweep_query(timeouts.spec, timeouts.strategy, crate::sweep::param_sweep::PRESET_SEEDS, base)
                .href(),
        ),
        (
            "Concurrency that adapts to what the provider takes today.",
            under(StrategyName::Adaptive, Incident::Capacity),
        ),
    ]
}

/// The checklist as markup: a numbered list of linked lines.
pub fn ship_markup(base: &Scenario) -> Markup {
    html! {
        ol.rll-ship data-testid="ship" {
            @for (line, href) in ship_list(base) {
                li { a href=(href) { (line) } }
            }
        }
    }
}

/// What the matrix page says under its heading: what a column, a row and a cell are,
/// with the incident's span (`span`, from [`span_text`]).
pub fn matrix_caption(span: &str) -> String {
    format!(
        "Each column is one incident {span}; each row one client, on the same seed. A cell gives the customers charged, each harm the run did, the requests per charge, the wait at most 1 customer in 100 exceeded, and whether the client finished before the incident or how long after it charges flowed again; its colour, here and in the picture above, says how many kinds of harm the run did, and the picture's timelines when each client sent and charged. Open a cell to watch that run."
    )
}

/// The matrix page's heading.
pub const MATRIX_TITLE: &str = "Every client against every incident";

/// The heading over what to ship.
pub const SHIP_TITLE: &str = "What to ship";

/// What the checklist is.
pub const SHIP_LEAD: &str = "What the ten rungs add up to, each line with the run that shows why:";

/// The matrix's progress: `done` of all its runs.
pub fn matrix_progress(done: usize) -> String {
    format!("{done} of {} runs", sim::matrix::RUNS)
}

/// The line saying how far the matrix has run, or why it cannot run.
pub const PROGRESS: Slot = slot!("matrix-progress");
/// The matrix's progress bar.
pub const PROGRESS_BAR: Slot = slot!("matrix-progress-bar");
/// Where the table of the cells run so far goes ([`table_markup`]).
pub const TABLE: Slot = slot!("matrix-table");
/// The button that stops the matrix's runs.
pub const CANCEL: Slot = slot!("matrix-cancel");

/// What the progress line says once the matrix was cancelled after `done` runs.
pub fn matrix_cancelled(done: usize) -> String {
    format!(
        "Cancelled after {done} of {} runs: reload the page to run the matrix again.",
        sim::matrix::RUNS
    )
}

/// The matrix page's view of one `base`, a live widget: what a cell is, the progress
/// line, bar and Cancel, the table of the cells run so far, and what to ship; the view's
/// `data-workers` on its outer node. The words that do not change are worked out once,
/// when the view is made. The table is a markup hole: each drawing of it is the whole
/// table of the cells back so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixView {
    caption: String,
    ship: String,
}

impl MatrixView {
    /// The view of the matrix of `base`.
    pub fn new(base: &Scenario) -> Self {
        Self {
            caption: matrix_caption(&span_text(base)),
            ship: ship_markup(base).into_string(),
        }
    }
}

/// What the matrix page shows as it runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatrixShown {
    /// Runs done.
    pub done: u64,
    /// The page's state: `running`, `done`, `cancelled` or `stopped`.
    pub state: &'static str,
    /// Why the matrix cannot run, or why it stopped.
    pub error: Option<String>,
    /// Workers it runs on (0: the page's own thread).
    pub workers: u32,
    /// The table of the cells run so far ([`table_markup`], as a string).
    pub table: String,
}

impl MatrixShown {
    /// The progress line: why the matrix cannot run, or how far it has run.
    fn line(&self) -> String {
        let done = self.done as usize;
        match (&self.error, self.state) {
            (Some(why), _) => why.clone(),
            (None, "cancelled") => matrix_cancelled(done),
            (None, _) => matrix_progress(done),
        }
    }
}

/// The matrix view's outer node, which carries its `data-workers`.
pub const VIEW: Slot = slot!("matrix-view");

impl Live for MatrixView {
    type State = MatrixShown;

    fn shape(&self, _: &MatrixShown) -> u64 {
        0
    }

    fn draw(&self, s: &MatrixShown, fill: &mut Fill) -> Markup {
        html! {
            div data-slot=(VIEW) data-workers=(fill.attr_text(VIEW, "data-workers", s.workers.to_string())) {
                p.rll-see-note { (self.caption) }
                p.rll-field-help role="status" data-testid="matrix-progress" data-slot=(PROGRESS) { (fill.text(PROGRESS, s.line())) }
                progress max=(Whole(sim::matrix::RUNS as u64)) value=(fill.attr_text(PROGRESS_BAR, "value", s.done.to_string())) data-slot=(PROGRESS_BAR) {}
                " "
                button type="button" data-testid="matrix-cancel" data-slot=(CANCEL) disabled[fill.flag(CANCEL, "disabled", s.state != "running")] { "Cancel" }
                div data-slot=(TABLE) { (fill.markup(TABLE, PreEscaped(s.table.clone()))) }
                h3 { (SHIP_TITLE) }
                p.rll-see-note { (SHIP_LEAD) }
                div { (PreEscaped(&self.ship)) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::matrix::MatrixRun;

    #[test]
    fn each_cell_carries_its_runs_numbers_and_links_to_that_run() {
        let base = Scenario {
            customers: 80,
            seed: 5,
            ..Scenario::default()
        };
        let cells = MatrixRun::new(&base).unwrap().run_to_end();
        let html = table_markup(&cells, &base).into_string();
        assert_eq!(html.matches("<td ").count(), cells.len());
        let pool_down = cells
            .iter()
            .find(|c| c.strategy == StrategyName::Pool && c.incident == Incident::Down)
            .unwrap();
        let at = html[..html.find("data-cell=\"pool/down\"").unwrap()]
            .rfind("<td ")
            .unwrap();
        let cell = &html[at..html[at..].find("</td>").unwrap() + at];
        assert!(
            cell.contains(&format!(
                "data-charged=\"{}\"",
                pool_down.stats.customers_charged
            )),
            "{cell}"
        );
        assert!(
            cell.contains(&format!("rll-harm-{}", harm_level(pool_down))),
            "{cell}"
        );
        assert!(
            cell.contains("strategy=pool")
                && cell.contains("incident=down")
                && cell.contains("seed=5"),
            "{cell}"
        );
        assert!(html.contains("<th scope=\"col\">No incident</th>"));
        assert_eq!(incident_heading(Incident::Errors), "Errors: 1 in 2 fail");
        assert_eq!(
            incident_heading(Incident::Capacity),
            "Capacity: 2 in flight, 20 a window"
        );
        assert_eq!(per_charge(112), "1.12");
        for (ms, words) in [(17, "p99 wait 17 ms"), (2_345, "p99 wait 2.3 s")] {
            let st = Stats {
                wait_p99_ms: ms,
                ..Stats::default()
            };
            assert_eq!(wait_words(&st), words);
        }
        assert!(
            cell.contains(&format!(
                "data-wait-p99-ms=\"{}\"",
                pool_down.stats.wait_p99_ms
            )) && cell.contains(&wait_words(&pool_down.stats)),
            "{cell}"
        );
        assert_eq!(per_charge(10_000), "100.00");
        assert_eq!(span_text(&base), "from 4.0 s for 3.0 s");
        // What to ship: seven lines, each a link the lab reads back without a problem.
        let list = ship_list(&base);
        assert_eq!(list.len(), 7);
        for (line, href) in &list {
            let query = href.split_once('?').map_or(href.as_str(), |(_, q)| q);
            let q = crate::parse(&crate::pairs_of(query));
            assert!(
                q.base.problems.is_empty(),
                "{line}: {href}: {:?}",
                q.base.problems
            );
            assert_eq!(q.base.seed(), 5, "{line}: {href}");
        }
        assert!(list[3].1.contains("strategy=headers") && list[3].1.contains("incident=down"));
        assert!(ship_markup(&base)
            .into_string()
            .starts_with("<ol class=\"rll-ship\""));
        assert_eq!(
            matrix_progress(3),
            format!("3 of {} runs", sim::matrix::RUNS)
        );
        assert!(matrix_caption("from 1 s").starts_with("Each column is one incident from 1 s;"));
        let view = MatrixView::new(&base)
            .markup(&MatrixShown::default())
            .into_string();
        for slot in [PROGRESS, PROGRESS_BAR, TABLE, CANCEL, VIEW] {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(view.matches(&attr).count(), 1, "{slot:?}");
        }
        assert!(view.contains(&span_text(&base)), "{view}");
        assert!(view.contains(&ship_markup(&base).into_string()), "{view}");
        // A half-run matrix shows only the rows it has.
        let half = table_markup(&cells[..7], &base).into_string();
        assert_eq!(half.matches("<tr><th scope=\"row\">").count(), 2);
    }

    #[test]
    fn every_cells_words_agree_with_its_numbers_over_seeds() {
        // Small batches end before the incident or during it; the default one runs past
        // it; an early short incident and a late one move the span.
        let spans = [(4_000, 3_000), (1_000, 500), (9_000, 2_000)];
        let mut said_kinds = std::collections::BTreeSet::new();
        for seed in [1, 2, 3, 7, 11, 42, u64::MAX] {
            for customers in [60, 350, 1_000] {
                for (start_ms, length_ms) in spans {
                    let mut base = Scenario {
                        customers,
                        seed,
                        ..Scenario::default()
                    };
                    base.provider.incident.start_us = sim::time::ms(start_ms);
                    base.provider.incident.length_us = sim::time::ms(length_ms);
                    let end_ms = start_ms + length_ms;
                    let cells = MatrixRun::new(&base).unwrap().run_to_end();
                    let html = table_markup(&cells, &base).into_string();
                    for c in &cells {
                        let at = format!(
                            "seed {seed}, {customers} customers, incident from {start_ms} ms for {length_ms} ms, {}/{}",
                            c.strategy, c.incident
                        );
                        let st = &c.stats;
                        let words = overlap_words(c, &base);
                        let said = words.as_deref().unwrap_or("");
                        if c.incident == Incident::None {
                            assert_eq!(words, None, "{at}");
                        } else if st.elapsed_ms < start_ms {
                            assert!(
                                said.starts_with("finished before the incident, at "),
                                "{at}: {said}"
                            );
                            assert_eq!(st.recovery_ms, 0, "{at}");
                        } else if st.elapsed_ms < end_ms {
                            assert!(
                                said.starts_with("finished during the incident, at "),
                                "{at}: {said}"
                            );
                        } else if st.recovery_ms == 0 {
                            assert_eq!(said, "recovered at once", "{at}");
                        } else {
                            assert_eq!(
                                said,
                                format!("recovered in {}", duration_ms(st.recovery_ms)),
                                "{at}"
                            );
                        }
                        assert_eq!(
                            said.contains("recovered"),
                            c.incident != Incident::None && st.elapsed_ms >= end_ms,
                            "{at}: {said}"
                        );
                        // Each harm by its stat's label and count, and only the harms.
                        let harms: Vec<String> = StatField::ALL
                            .into_iter()
                            .filter(|f| f.is_harm() && st.get(*f) > 0)
                            .map(|f| format!("{}: {}", stat_text(f).label, count(st.get(f))))
                            .collect();
                        let named: Vec<String> =
                            harm_words(c).into_iter().map(|(_, w)| w).collect();
                        assert_eq!(named, harms, "{at}");
                        assert_eq!(harm_level(c), harms.len().min(3), "{at}");
                        let cell_at = html
                            .find(&format!("data-cell=\"{}/{}\"", c.strategy, c.incident))
                            .unwrap();
                        let cell = &html[cell_at..cell_at + html[cell_at..].find("</td>").unwrap()];
                        for w in harms.iter().chain(words.iter()) {
                            assert!(cell.contains(w.as_str()), "{at}: {w} in {cell}");
                        }
                        assert_eq!(cell.contains(NO_HARM), harms.is_empty(), "{at}: {cell}");
                        // What the customers waited, in words and as data.
                        assert!(
                            cell.contains(&format!("data-wait-p99-ms=\"{}\"", st.wait_p99_ms))
                                && cell.contains(&wait_words(st)),
                            "{at}: {cell}"
                        );
                        assert!(st.wait_p99_ms <= st.elapsed_ms, "{at}");
                        said_kinds.insert(
                            said.split(',')
                                .next()
                                .unwrap_or("")
                                .split(" in ")
                                .next()
                                .unwrap_or("")
                                .to_string(),
                        );
                    }
                }
            }
        }
        // Every kind of sentence was checked, at least once.
        assert_eq!(
            said_kinds.into_iter().collect::<Vec<_>>(),
            [
                "",
                "finished before the incident",
                "finished during the incident",
                "recovered",
                "recovered at once"
            ]
        );
    }

    #[test]
    fn under_steady_traffic_a_cell_says_whether_goodput_came_back() {
        use sim::matrix::{schedule, MatrixRun};
        let base = sim::outage::scenario(StrategyName::Keyed, 1);
        let run = MatrixRun::new(&base).unwrap();
        for (i, (strategy, incident)) in schedule().enumerate() {
            if incident != Incident::Down
                || !matches!(strategy, StrategyName::Keyed | StrategyName::Budget)
            {
                continue;
            }
            let cell = run.run_unit(i).unwrap();
            let said = overlap_words(&cell, &base).unwrap();
            if strategy == StrategyName::Keyed {
                assert_eq!(said, "goodput never came back");
            } else {
                assert_eq!(
                    said,
                    format!(
                        "goodput back in {}",
                        duration_ms(cell.stats.goodput_recovery_ms)
                    )
                );
            }
            let html = cell_markup(&cell, &base).into_string();
            assert!(html.contains(&format!(
                "data-goodput-recovery-ms=\"{}\"",
                cell.stats.goodput_recovery_ms
            )));
        }
    }

    #[test]
    fn the_matrix_view_draws_what_it_fills_and_a_run_more_moves_the_line_and_bar_only() {
        use crate::shared::live::{check_drawn, Write};
        let base = Scenario::default();
        let view = MatrixView::new(&base);
        let running = MatrixShown {
            done: 3,
            state: "running",
            error: None,
            workers: 2,
            table: "<table></table>".into(),
        };
        let states = [
            MatrixShown::default(),
            running.clone(),
            MatrixShown {
                state: "cancelled",
                ..running.clone()
            },
            MatrixShown {
                error: Some("The matrix runs fifty runs of these numbers.".into()),
                state: "stopped",
                ..MatrixShown::default()
            },
        ];
        for s in &states {
            check_drawn(&view, s).unwrap();
        }
        let m = view.markup(&states[2]).into_string();
        assert!(m.contains(" disabled>Cancel</button>"), "{m}");
        assert!(m.contains(&matrix_cancelled(3)), "{m}");
        let (mut a, mut b) = (Fill::default(), Fill::default());
        view.draw(&running, &mut a);
        view.draw(&MatrixShown { done: 4, ..running }, &mut b);
        let changed: Vec<(&str, &Write)> = b
            .changed_since(&a)
            .map(|(hole, write)| (hole.slot.name(), write))
            .collect();
        assert_eq!(
            changed,
            [
                (PROGRESS.name(), &Write::Text(matrix_progress(4))),
                (PROGRESS_BAR.name(), &Write::Data("value", Some("4".into())))
            ]
        );
    }
}
