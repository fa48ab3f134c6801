//! A sweep's distribution as the sweep page draws it: bars placed on a value axis from the
//! smallest value to the largest, or, when every run gave the same value, that value alone
//! (a single bar as wide as the axis would read as the largest count of all).

use crate::shared::markup::Whole;
use maud::{html, Markup};
use sim::sweep::Distribution;

/// The plot's width in its own units (an SVG `viewBox`): bars are placed in 0..=WIDTH.
pub const WIDTH: u64 = 1000;
/// The plot's height in its own units: the tallest bar is this tall.
pub const HEIGHT: u64 = 100;
/// The gap between two bars, in plot units.
const GAP: u64 = 6;

/// What the sweep page draws for one distribution.
#[derive(Clone, Debug, PartialEq)]
pub enum Histogram {
    /// Every run gave `value`.
    Constant {
        /// The one value.
        value: u64,
        /// How many runs gave it.
        runs: u64,
    },
    /// Bars over the value axis from `min` (left) to `max` (right).
    Bars {
        /// The bars as one SVG path in plot units (0..=[`WIDTH`] across, 0..=[`HEIGHT`]
        /// down, the tallest bar full height), one closed rectangle per bin that has runs.
        path: String,
        /// Each bin in words, e.g. "1–10: 5 runs; 91–100: 1 run", for its tooltip.
        bins: String,
        /// The value at the left end of the axis.
        min: u64,
        /// The value at the right end.
        max: u64,
        /// Runs in the tallest bar, the top of the count axis.
        peak: u64,
    },
}

/// "1 run", "7 runs".
fn runs(n: u64) -> String {
    match n {
        1 => "1 run".to_string(),
        n => format!("{n} runs"),
    }
}

impl Histogram {
    /// The drawing of `d`.
    pub fn of(d: &Distribution) -> Self {
        let total: u64 = d.histogram.iter().map(|b| b.count).sum();
        if d.min == d.max {
            return Self::Constant {
                value: d.min,
                runs: total,
            };
        }
        let peak = d
            .histogram
            .iter()
            .map(|b| b.count)
            .max()
            .unwrap_or(0)
            .max(1);
        // Each bin covers whole values lo..=hi; the axis covers min..=max the same way.
        // (Values are counts and milliseconds: far below u64::MAX / WIDTH.)
        let span = (d.max - d.min).saturating_add(1);
        let at = |v: u64| (v - d.min).saturating_mul(WIDTH) / span;
        let mut path = String::new();
        let mut bins = Vec::new();
        for b in &d.histogram {
            let (left, right) = (at(b.lo), at(b.hi.saturating_add(1)));
            let top = HEIGHT - b.count.saturating_mul(HEIGHT) / peak;
            if b.count > 0 {
                let right = right.saturating_sub(GAP).max(left + 1);
                path += &format!("M{left} {HEIGHT}V{top}H{right}V{HEIGHT}Z");
            }
            bins.push(match b.lo == b.hi {
                true => format!("{}: {}", b.lo, runs(b.count)),
                false => format!("{}–{}: {}", b.lo, b.hi, runs(b.count)),
            });
        }
        Self::Bars {
            path,
            bins: bins.join("; "),
            min: d.min,
            max: d.max,
            peak,
        }
    }

    /// The distribution in words: the constant's words on screen, and the plot's for a
    /// screen reader.
    pub fn sentence(&self) -> String {
        match self {
            Self::Constant { value, runs: n } => format!("{value} in all {}", runs(*n)),
            Self::Bars { min, max, bins, .. } => format!("from {min} to {max}: {bins}"),
        }
    }
}

/// A distribution on its axes, as markup: bars over the values from the smallest (left)
/// to the largest (right), beside a count axis topped by the tallest bar's runs; or, when
/// every run gave one value, that value in words. The value axis's labels are the
/// element's data, drawn by the style sheet.
pub fn histogram_markup(label: &str, h: &Histogram) -> Markup {
    let sentence = h.sentence();
    let (kind, path, text, lo, hi) = match h {
        Histogram::Bars {
            path,
            min,
            max,
            peak,
            ..
        } => (
            "bars",
            path.as_str(),
            peak.to_string(),
            min.to_string(),
            max.to_string(),
        ),
        Histogram::Constant { .. } => (
            "constant",
            "",
            sentence.clone(),
            String::new(),
            String::new(),
        ),
    };
    html! {
        div.rll-hist data-hist=(kind) data-min=(lo) data-max=(hi) {
            (text)
            svg viewBox=(VIEW_BOX) preserveAspectRatio="none" role="img" {
                title { (label) ": " (sentence) }
                path.rll-hist-bars d=(path) {}
                path.rll-hist-axis d=(AXIS) vector-effect="non-scaling-stroke" {}
            }
        }
    }
}

/// The plot's `viewBox`: [`WIDTH`] by [`HEIGHT`].
const VIEW_BOX: &str = const_format::formatcp!("0 0 {WIDTH} {HEIGHT}");
/// The plot's axes: down the left, then along the bottom.
const AXIS: &str = const_format::formatcp!("M0 0V{HEIGHT}H{WIDTH}");

/// One strategy's results in a sweep, as markup: its name, a sentence (extra charges,
/// requests, the median time), then each stat's minimum, median and maximum with its
/// distribution. `data-result` keys are the ones the tests read.
pub fn sweep_result_markup(
    strategy: sim::StrategyName,
    fields: &[(sim::StatField, Distribution)],
) -> Markup {
    use crate::shared::format::{count, duration_ms};
    use crate::shared::stats::stat_text;
    use sim::StatField;
    let s = strategy.as_str();
    let name = crate::shared::titles::strategy_label(strategy);
    let find = |f: StatField| fields.iter().find(|(n, _)| *n == f).map(|(_, d)| d);
    let sentence = match (
        find(StatField::Duplicates),
        find(StatField::Requests),
        find(StatField::ElapsedMs),
    ) {
        (Some(d), Some(r), Some(e)) => format!(
            "{name}: {}–{} extra charges (median {}), {}–{} requests (median {}), finished in {} at the median.",
            count(d.min),
            count(d.max),
            count(d.median),
            count(r.min),
            count(r.max),
            count(r.median),
            duration_ms(e.median)
        ),
        _ => String::new(),
    };
    let key = |f: &str, what: &str| html! { "sweep." (s) "." (f) "." (what) };
    html! {
        div.rll-sweep-result data-strategy=(s) {
            h3 { (name) }
            p data-result={ "sweep." (s) ".sentence" } { (sentence) }
            div.rll-table-scroll { table {
                thead { tr {
                    th scope="col" { "stat" }
                    th scope="col" { "min" }
                    th scope="col" { "median" }
                    th scope="col" { "max" }
                    th scope="col" { "distribution" }
                } }
                tbody {
                    @for (f, d) in fields {
                        @let text = stat_text(*f);
                        @let f = f.as_str();
                        tr {
                            th.rll-term scope="row" tabindex="0" data-hint=(text.hint) { (text.label) }
                            td.rll-num data-result=(key(f, "min")) { (Whole(d.min)) }
                            td.rll-num data-result=(key(f, "median")) { (Whole(d.median)) }
                            td.rll-num data-result=(key(f, "max")) { (Whole(d.max)) }
                            td { (histogram_markup(text.label, &Histogram::of(d))) }
                        }
                    }
                }
            } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_is_one_value_not_a_full_bar() {
        let h = Histogram::of(&Distribution::of(&[0; 30]));
        assert_eq!(h, Histogram::Constant { value: 0, runs: 30 });
        assert_eq!(h.sentence(), "0 in all 30 runs");
        let h = Histogram::of(&Distribution::of(&[990]));
        assert_eq!(h.sentence(), "990 in all 1 run");
    }

    #[test]
    fn bars_sit_on_the_value_axis_and_the_tallest_is_full_height() {
        let two = Histogram::of(&Distribution::of(&[0, 0, 1]));
        assert_eq!(
            two,
            Histogram::Bars {
                // 0 fills the left half of the axis at full height, 1 the right half at
                // half height; each bar stops GAP short of the next.
                path: "M0 100V0H494V100ZM500 100V50H994V100Z".to_string(),
                bins: "0: 2 runs; 1: 1 run".to_string(),
                min: 0,
                max: 1,
                peak: 2,
            }
        );
        assert_eq!(two.sentence(), "from 0 to 1: 0: 2 runs; 1: 1 run");

        let d = Distribution::of(&[5, 1, 3, 2, 4, 100]);
        let Histogram::Bars {
            path,
            bins,
            min,
            max,
            peak,
        } = Histogram::of(&d)
        else {
            panic!("six different values are not a constant");
        };
        assert_eq!((min, max, peak), (1, 100, 5));
        assert!(bins.starts_with("1–10: 5 runs; 11–20: 0 runs"), "{bins}");
        assert!(bins.ends_with("91–100: 1 run"), "{bins}");
        // Only the bins with runs are drawn: the first, full height from the left end,
        // and the last, a fifth as tall, ending GAP short of the right end.
        assert_eq!(path, "M0 100V0H94V100ZM900 100V80H994V100Z");
    }

    #[test]
    fn a_sweep_result_gives_each_stat_its_three_numbers_and_a_histogram() {
        use sim::sweep::Sweep;
        use sim::{Scenario, StatField, StrategyName};
        let sw = Sweep::run(&Scenario::article(StrategyName::TimeoutNoKey, 1), 1..=20).unwrap();
        let fields: Vec<(StatField, Distribution)> = [
            StatField::Duplicates,
            StatField::Requests,
            StatField::ElapsedMs,
            StatField::Declined,
        ]
        .into_iter()
        .map(|f| (f, sw.distribution(f).unwrap()))
        .collect();
        let m = sweep_result_markup(StrategyName::TimeoutNoKey, &fields).into_string();
        let d = &fields[0].1;
        assert!(m.contains(&format!("<td class=\"rll-num\" data-result=\"sweep.timeout-no-key.duplicates.median\">{}</td>", d.median)), "{m}");
        assert!(
            m.contains(&format!(
                "{}–{} extra charges (median {})",
                crate::shared::format::count(d.min),
                crate::shared::format::count(d.max),
                crate::shared::format::count(d.median)
            )),
            "{m}"
        );
        assert_eq!(m.matches("<div class=\"rll-hist\"").count(), fields.len());
        // Every run declines the same customers: one value, said in words.
        assert!(m.contains("data-hist=\"constant\""), "{m}");
        assert!(m.contains("data-hist=\"bars\""), "{m}");
    }
}
