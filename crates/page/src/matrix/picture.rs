//! The matrix as a picture: a heatmap over the table, a square per run (rows = strategies,
//! columns = incidents) coloured by its harm level, each holding a small timeline of its
//! run, drawn from the run's own [`Series`]: bars for the requests that reached the
//! provider, a line for the charges it made, the incident's span shaded. It fits a phone,
//! where the table of words scrolls in its box. Every timeline in the matrix shares one clock, from 0 to the end of the
//! longest run, so a column's shaded band sits in the same place in every row and one
//! sees at a glance which clients were still sending when it hit.
//!
//! The pictures are SVG in plot units (`viewBox` 0..[`WIDTH`] × 0..[`HEIGHT`], stretched
//! to the square), whole numbers only. The heatmap is `aria-hidden`: the table's cells say
//! the same in words (each harm, and where the client stood against the incident), and the
//! legend says in words what the colours and marks are.

use super::table::harm_level;
use crate::shared::format::duration_ms;
use crate::shared::markup::Whole;
use crate::shared::titles::strategy_label;
use maud::{html, Markup};
use sim::incident::Incident;
use sim::matrix::{MatrixCell, Series};
use sim::time::whole_ms;
use sim::{Scenario, StrategyName};

/// The timeline's width in its own units.
pub const WIDTH: u64 = 1000;
/// The timeline's height in its own units: the busiest slice is this tall.
pub const HEIGHT: u64 = 100;
/// The narrowest bar or band, in plot units, so a run over in a few milliseconds still
/// shows.
const MIN_WIDTH: u64 = 24;

/// The clock every timeline shares: from 0 to the end of the longest run's slices, or to
/// the incident's end if that is later (so the band is whole), in microseconds (at
/// least 1).
pub fn horizon_us(cells: &[MatrixCell], base: &Scenario) -> u64 {
    let calm = cells.iter().all(|c| c.incident == Incident::None);
    let incident = if calm {
        0
    } else {
        base.provider.incident.end_us()
    };
    cells
        .iter()
        .map(|c| c.series.span_us())
        .fold(incident, u64::max)
        .max(1)
}

/// `t_us` on a clock of `horizon_us`, in plot units (0..=[`WIDTH`]).
fn x_of(t_us: u64, horizon_us: u64) -> u64 {
    let x = u128::from(t_us.min(horizon_us)) * u128::from(WIDTH) / u128::from(horizon_us);
    x as u64
}

/// The requests as one path of bars, the charges and the goodput as step lines, all in
/// plot units on the clock `horizon_us`, scaled so the busiest slice of any is full
/// height.
pub fn paths(series: &Series, horizon_us: u64) -> (String, String, String) {
    let peak = series
        .requests
        .iter()
        .chain(&series.charges)
        .chain(&series.goodput)
        .copied()
        .max()
        .unwrap_or(0)
        .max(1);
    let y_of = |n: u64| HEIGHT - n.min(peak) * HEIGHT / peak;
    let edges = |i: usize| {
        let left = x_of(series.slice_us.saturating_mul(i as u64), horizon_us);
        let right = x_of(series.slice_us.saturating_mul(i as u64 + 1), horizon_us);
        (left, right)
    };
    let mut bars = String::new();
    for (i, &n) in series.requests.iter().enumerate() {
        if n > 0 {
            let (left, right) = edges(i);
            let right = right.max(left + MIN_WIDTH);
            bars += &format!("M{left} {HEIGHT}V{}H{right}V{HEIGHT}Z", y_of(n));
        }
    }
    let step_line = |values: &[u64]| {
        let mut line = format!("M0 {}", y_of(values.first().copied().unwrap_or(0)));
        for (i, &n) in values.iter().enumerate() {
            let (_, right) = edges(i);
            line += &format!("V{}H{right}", y_of(n));
        }
        line
    };
    (bars, step_line(&series.charges), step_line(&series.goodput))
}

/// One cell's timeline: the requests as bars, the charges as a line, the incident's span
/// shaded over them (none in the calm column), on the shared clock `horizon_us`. Under
/// traffic that keeps arriving, a second line is the goodput: the charges the client
/// learned of, which a provider working for clients that left does not raise.
pub fn timeline_markup(cell: &MatrixCell, base: &Scenario, horizon_us: u64) -> Markup {
    let plan = base.provider.incident;
    let band = (cell.incident != Incident::None).then(|| {
        let left = x_of(plan.start_us, horizon_us);
        let right = x_of(plan.end_us(), horizon_us).max(left + MIN_WIDTH);
        (left, right - left)
    });
    let (bars, line, goodput) = paths(&cell.series, horizon_us);
    let arriving = !base.traffic.is_batch();
    html! {
        svg.rll-matrix-line viewBox="0 0 1000 100" preserveAspectRatio="none" aria-hidden="true" focusable="false" {
            path.rll-matrix-requests d=(bars) {}
            path.rll-matrix-charges d=(line) vector-effect="non-scaling-stroke" {}
            @if arriving {
                path.rll-matrix-goodput d=(goodput) vector-effect="non-scaling-stroke" {}
            }
            // Over the marks, see-through, so it shows whether the client kept sending.
            @if let Some((x, w)) = band {
                rect.rll-matrix-band x=(Whole(x)) y="0" width=(Whole(w)) height="100" {}
            }
        }
    }
}

/// The heatmap of the cells run so far: a row per strategy (rows appear as their runs
/// finish), a column per incident (headed by its short name), each square coloured by the
/// run's harm level and holding its timeline on the clock `horizon_us`.
pub fn heatmap_markup(cells: &[MatrixCell], base: &Scenario, horizon_us: u64) -> Markup {
    html! {
        div.rll-matrix-map aria-hidden="true" data-testid="matrix-map" {
            span {}
            @for i in Incident::ALL { span.rll-matrix-map-head { (i.as_str()) } }
            @for s in StrategyName::ALL {
                @let row: Vec<&MatrixCell> = cells.iter().filter(|c| c.strategy == s).collect();
                @if !row.is_empty() {
                    span.rll-matrix-map-head { (strategy_label(s)) }
                    @for c in &row {
                        span class={ "rll-matrix-map-cell rll-harm-" (Whole(harm_level(c) as u64)) }
                            data-map-cell={ (c.strategy.as_str()) "/" (c.incident.as_str()) } title=(level_words(c)) {
                            (timeline_markup(c, base, horizon_us))
                        }
                    }
                    @for _ in row.len()..Incident::ALL.len() { span {} }
                }
            }
        }
    }
}

/// What each harm level's colour means, from none to the most.
pub const LEVEL_WORDS: [&str; 4] = [
    "no harm",
    "one kind of harm",
    "two kinds of harm",
    "three kinds or more",
];

/// The legend in words: the colours' harm levels, then the timeline's marks and its
/// clock (`horizon_us`, from [`horizon_us`]).
pub fn legend_markup(horizon_us: u64, arriving: bool) -> Markup {
    html! {
        ul.rll-matrix-legend data-testid="matrix-legend" {
            @for (level, words) in LEVEL_WORDS.iter().enumerate() {
                li { span class={ "rll-matrix-swatch rll-harm-" (Whole(level as u64)) } aria-hidden="true" {} (words) }
            }
        }
        p.rll-see-note data-testid="matrix-picture-legend" {
            "In each square, grey bars: requests that reached the provider; green line: charges it made; "
            @if arriving { "dashed line: charges the client learned of; " }
            "blue band: the incident. Every square runs from 0 to "
            (duration_ms(whole_ms(horizon_us)))
            " on the same clock, its height scaled to that run's busiest moment."
        }
    }
}

/// The level of a cell as a word, for its title: what its colour says.
pub fn level_words(cell: &MatrixCell) -> &'static str {
    LEVEL_WORDS[harm_level(cell)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::matrix::{MatrixRun, SERIES_FIRST_SLICE_US};
    use sim::StrategyName;

    #[test]
    fn the_timelines_share_one_clock_and_draw_the_runs_own_counts() {
        let base = Scenario {
            customers: 300,
            seed: 2,
            ..Scenario::default()
        };
        let cells = MatrixRun::new(&base).unwrap().run_to_end();
        let h = horizon_us(&cells, &base);
        assert!(cells.iter().all(|c| c.series.span_us() <= h));
        assert!(h >= base.provider.incident.end_us());
        assert_eq!(
            h,
            cells
                .iter()
                .map(|c| c.series.span_us())
                .max()
                .unwrap()
                .max(base.provider.incident.end_us())
        );
        // A run over in milliseconds: one bar at the left, at least MIN_WIDTH wide, full
        // height.
        let quick = Series {
            slice_us: SERIES_FIRST_SLICE_US,
            requests: vec![1_000],
            charges: vec![9],
            goodput: vec![9],
        };
        let right = x_of(SERIES_FIRST_SLICE_US, h).max(MIN_WIDTH);
        assert_eq!(
            paths(&quick, h).0,
            format!("M0 {HEIGHT}V0H{right}V{HEIGHT}Z")
        );
        assert_eq!(
            paths(&quick, 1_000_000_000).0,
            format!("M0 {HEIGHT}V0H{MIN_WIDTH}V{HEIGHT}Z")
        );
        // A made-up series: two slices of a 1 s clock's half each.
        let s = Series {
            slice_us: 500_000,
            requests: vec![4, 2],
            charges: vec![0, 2],
            goodput: vec![0, 1],
        };
        let (bars, line, goodput) = paths(&s, 1_000_000);
        assert_eq!(bars, "M0 100V0H500V100ZM500 100V50H1000V100Z");
        assert_eq!(line, "M0 100V100H500V50H1000");
        assert_eq!(goodput, "M0 100V100H500V75H1000");
        // The band sits at the incident's span; the calm column has none.
        let naive = cells
            .iter()
            .find(|c| c.strategy == StrategyName::Naive && c.incident == Incident::Down)
            .unwrap();
        let m = timeline_markup(naive, &base, 10_000_000).into_string();
        assert!(
            m.contains(
                "<rect class=\"rll-matrix-band\" x=\"400\" y=\"0\" width=\"300\" height=\"100\">"
            ),
            "{m}"
        );
        assert!(m.contains("aria-hidden=\"true\""), "{m}");
        let calm = cells.iter().find(|c| c.incident == Incident::None).unwrap();
        assert!(!timeline_markup(calm, &base, h)
            .into_string()
            .contains("<rect"));
        let map = heatmap_markup(&cells, &base, h).into_string();
        assert_eq!(map.matches("data-map-cell=").count(), cells.len());
        assert_eq!(map.matches("<svg ").count(), cells.len());
        assert!(
            map.contains("aria-hidden=\"true\" data-testid=\"matrix-map\""),
            "{map}"
        );
        // A half-run matrix pads its last row, so the grid keeps its columns.
        let half = heatmap_markup(&cells[..7], &base, h).into_string();
        assert_eq!(half.matches("<span></span>").count(), 1 + 3);
        let legend = legend_markup(14_400_000, false).into_string();
        assert!(!legend.contains("learned of"));
        assert!(legend_markup(1, true).into_string().contains("learned of"));
        assert!(legend.contains("from 0 to 14.4 s"), "{legend}");
        for words in LEVEL_WORDS {
            assert!(legend.contains(words), "{words}");
        }
    }
}
