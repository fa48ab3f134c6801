//! What each limits experiment shows besides its knobs, as markup: its sentences, its
//! chart (drawn at a width, see [`super::charts`]) and its table. Written as text, not as
//! Leptos views, because it is redrawn whole whenever a knob moves and as views it cost
//! the limits page's `.wasm` about 16 KB gzip. Every word is ours; each is escaped.

use super::charts::{
    burst_answers, burst_svg, chart_width, herd_svg, memory_svg, table_html, Cell, Row,
};
use super::clients::blind_retry;
use super::herd::{formula, seconds, verdict};
use super::lab::round_ms;
use super::settings::{knobs_of, LabSettings, Range};
use super::units::{correct_text, naive_text};
use crate::shared::format::{count, duration_ms};
use crate::shared::markup::escape;
use sim::lab::burst::BurstResult;
use sim::lab::herd::Jitter;
use sim::lab::{ExperimentName, LabResult};
use std::fmt::Write;

/// An experiment's button label and heading.
pub fn experiment_title(e: ExperimentName) -> &'static str {
    match e {
        ExperimentName::Burst => "Boundary burst",
        ExperimentName::Units => "Header units",
        ExperimentName::Clients => "Blind, obedient, proactive",
        ExperimentName::Neighbour => "Noisy neighbour",
        ExperimentName::Memory => "Memory cost",
        ExperimentName::Herd => "Thundering herd",
    }
}

/// What stands where an experiment will be, before one is picked.
pub const PICK_AN_EXPERIMENT: &str = "Pick an experiment to run it.";

/// The limits section's opening paragraph, as markup: what the experiments are, the
/// seed they run from, and the link to the headers page.
pub fn limits_intro_markup(seed: u64, headers_href: &str) -> String {
    format!(
        concat!(
            "The other side of the same problem: you run the API. Which limiter do you put in front of it, ",
            "what do you tell callers in the headers, and what do careless clients do with what you tell them? ",
            "Each experiment runs in simulated time, from seed {seed}. ",
            "The headers themselves, and a reader for them, are on <a href=\"{href}\">the headers page</a>."
        ),
        seed = seed,
        href = escape(headers_href),
    )
}

/// One button per experiment, numbered, none pressed yet (`data-experiment` names it).
pub fn experiments_markup() -> String {
    ExperimentName::ALL
        .iter()
        .enumerate()
        .map(|(i, e)| {
            format!(
                "<button type=\"button\" class=\"rll-strategy\" data-experiment=\"{}\" aria-pressed=\"false\"><span class=\"rll-step\">{}</span><span>{}</span></button>",
                e.as_str(),
                i + 1,
                escape(experiment_title(*e))
            )
        })
        .collect()
}

fn ms(us: u64) -> String {
    duration_ms(round_ms(us))
}

/// "second" for a one-second window, else the duration: "per second", "per 1.5 s".
fn per(window_us: u64) -> String {
    if window_us == 1_000_000 {
        "second".into()
    } else {
        ms(window_us)
    }
}

fn num(v: impl std::fmt::Display) -> Cell {
    (v.to_string(), true, false)
}

fn word(v: impl std::fmt::Display) -> Cell {
    (v.to_string(), false, false)
}

fn para(out: &mut String, testid: &str, text: &str) {
    if testid.is_empty() {
        let _ = write!(out, "<p>{}</p>", escape(text));
    } else {
        let _ = write!(out, r#"<p data-testid="{testid}">{}</p>"#, escape(text));
    }
}

fn table(out: &mut String, caption: &str, head: &[&str], rows: &[Row]) {
    let _ = write!(
        out,
        r#"<div class="rll-table-scroll">{}</div>"#,
        table_html(caption, head, rows)
    );
}

/// `<strong data-testid="…">text</strong>`.
fn strong(testid: &str, text: &str) -> String {
    format!(
        r#"<strong data-testid="{testid}">{}</strong>"#,
        escape(text)
    )
}

/// The burst's sentence.
pub fn burst_lead(r: &BurstResult) -> String {
    let lane = |k: &str| {
        r.lanes
            .iter()
            .find(|l| l.limiter.as_str() == k)
            .map_or(0, |l| l.accepted)
    };
    let per_volley = r.lanes.first().map_or(0, |l| l.marks.len() / 2);
    format!(
        "{per_volley} requests {} before a window boundary and {per_volley} more {} after those, against a \
         limit of {} per {}. The fixed window accepts {}, the sliding log {} and the token bucket {}: its extra \
         ones are refill that really happened between the volleys. All arrived within {}.",
        ms(r.boundary_us - r.first_volley_us),
        ms(r.second_volley_us - r.first_volley_us),
        r.limit,
        per(r.window_us),
        lane("fixed"),
        lane("sliding"),
        lane("bucket"),
        // Rounded as the cells round it, so the sentence and the numbers agree.
        ms(r.span_us),
    )
}

/// The knobs of `experiment` as controls: a range input (`data-knob="<key>"`, its value
/// the slider position) with an `<output data-knob-value="<key>">` for each number, and a
/// group of buttons (`data-knob` on the group, `data-value` on each) for each choice.
pub fn knobs_html(experiment: ExperimentName, s: &LabSettings) -> String {
    let mut out = String::new();
    for k in knobs_of(experiment) {
        let v = s.get(k.id);
        let (lo, hi) = k.slider();
        match k.range {
            Range::Choice(names) => {
                let _ = write!(
                    out,
                    r#"<div class="rll-field"><span class="rll-field-label" id="rll-knob-{0}">{1}</span><div class="rll-segmented" role="group" aria-labelledby="rll-knob-{0}" data-knob="{0}">"#,
                    k.key,
                    escape(k.label)
                );
                for (i, name) in names.iter().enumerate() {
                    let _ = write!(
                        out,
                        r#"<button type="button" data-value="{name}" aria-pressed="{}">{name}</button>"#,
                        i as u64 == v
                    );
                }
                out.push_str("</div></div>");
            }
            _ => {
                let shown = escape(&k.shown(v));
                let _ = write!(
                    out,
                    r#"<div class="rll-field rll-knob"><label class="rll-field-label" for="rll-knob-{0}">{1}: <output data-knob-value="{0}">{2}</output></label><input id="rll-knob-{0}" type="range" data-knob="{0}" min="{lo}" max="{hi}" step="1" value="{3}" aria-valuetext="{2}"></div>"#,
                    k.key,
                    escape(k.label),
                    shown,
                    k.position(v)
                );
            }
        }
    }
    out
}

/// Every cell as a definition list's items, each value in a `data-result` element.
pub fn cells_html(cells: &[(String, String)]) -> String {
    let mut out = String::new();
    for (key, value) in cells {
        let short = key.split_once('.').map_or(key.as_str(), |(_, f)| f);
        let _ = write!(
            out,
            r#"<div><dt>{}</dt><dd class="rll-num" data-result="{}">{}</dd></div>"#,
            escape(short),
            escape(key),
            escape(value)
        );
    }
    out
}

/// Everything an experiment shows below its knobs, with its charts drawn for a box
/// `box_w` CSS pixels wide (none before the width is known).
pub fn body_html(result: &LabResult, box_w: Option<f64>) -> String {
    let width = box_w.map(chart_width);
    let mut out = String::new();
    match result {
        LabResult::Burst(r) => {
            para(&mut out, "burst-lead", &burst_lead(r));
            out.push_str(r#"<div class="rll-burst-row"><div class="rll-chart-box">"#);
            // Wide enough, the answers sit beside the chart (280 px and a gap); else below.
            if let Some(w) = box_w {
                let w = if w >= 900.0 { w - 300.0 } else { w };
                out.push_str(&burst_svg(r, chart_width(w)));
            }
            let _ = write!(
                out,
                r#"</div><div class="rll-answers"><p class="rll-field-label">What the token bucket answered</p><ol class="rll-answer-list" data-testid="burst-headers" tabindex="0" aria-label="What the token bucket answered, request by request">{}</ol></div></div>"#,
                burst_answers(r)
            );
        }
        LabResult::Units(r) => {
            para(
                &mut out,
                "",
                &format!(
                    "The same instruction, “wait {} s”, written the four ways servers write it, read by a client \
                     that does Number(value) × 1000 and by one that reads each form by its rules. Two of the naive \
                     readings fail silently: NaN fires a timer at once, and an epoch read as a delay sleeps for \
                     decades.",
                    r.wait_s
                ),
            );
            let rows: Vec<Row> = r
                .rows
                .iter()
                .map(|row| {
                    let wrong = row.naive_wait_us != Some(row.correct_wait_us);
                    let cells = vec![
                        word(&row.value),
                        (naive_text(row), false, wrong),
                        word(correct_text(row)),
                    ];
                    (row.header.to_string(), cells, false)
                })
                .collect();
            table(
                &mut out,
                "",
                &["header", "value", "naive", "careful"],
                &rows,
            );
        }
        LabResult::Clients(r) => {
            let _ = write!(
                out,
                "<p>{}{} the obedient one's traffic.</p>",
                escape(&format!(
                    "{} calls to make against a bucket of {} refilled at {} per {}, over a {} µs round trip; \
                     the blind client retries {}. All three finish in about the same time; the blind one sends ",
                    r.calls,
                    r.capacity,
                    r.limit,
                    per(r.window_us),
                    r.round_trip_us,
                    blind_retry(r.blind_pause_us)
                )),
                strong("traffic-ratio", &format!("{}×", count(r.traffic_ratio)))
            );
            let rows: Vec<Row> = r
                .runs
                .iter()
                .map(|c| {
                    let flooded = c.rate_limited * 10 > c.sent;
                    let cells = vec![
                        num(count(c.sent)),
                        (count(c.rate_limited), true, flooded),
                        num(ms(c.wall_us)),
                    ];
                    (c.strategy.as_str().to_string(), cells, false)
                })
                .collect();
            table(
                &mut out,
                "",
                &["client", "sent", "429s", "wall time"],
                &rows,
            );
        }
        LabResult::Neighbour(r) => {
            let tallies = &r.global.tallies;
            let sent = |i: usize| tallies.get(i).map_or(0, |t| t.ok + t.rate_limited);
            para(
                &mut out,
                "",
                &format!(
                    "One caller sends {} requests, then {} quiet callers send {} each, all within {}. The noisy \
                     caller is throttled the same either way; what changes is what happens to everyone else.",
                    sent(0),
                    tallies.len().saturating_sub(1),
                    sent(1),
                    ms(r.span_us)
                ),
            );
            out.push_str(r#"<div class="rll-neighbour">"#);
            for (caption, case) in [
                ("one global bucket", &r.global),
                ("a bucket per key", &r.per_key),
            ] {
                let rows: Vec<Row> = case
                    .tallies
                    .iter()
                    .map(|t| {
                        let cells = vec![(t.ok.to_string(), true, t.ok == 0), num(t.rate_limited)];
                        (t.caller.clone(), cells, false)
                    })
                    .collect();
                table(&mut out, caption, &["caller", "ok", "429"], &rows);
            }
            out.push_str("</div>");
        }
        LabResult::Memory(r) => {
            let _ = write!(
                out,
                "<p>{}{} the token bucket. The bars are on a log axis: each step is ten times more.</p>",
                escape(&format!(
                    "Remembering {} callers at {} requests per window, counted from this lab's own state types. \
                     The sliding log keeps every instant, so it costs ",
                    count(r.callers.into()),
                    count(r.per_window.into())
                )),
                strong("memory-ratio", &format!("{}×", count(r.log_to_bucket_ratio)))
            );
            if let Some(w) = width {
                out.push_str(&memory_svg(r, w));
            }
            let rows: Vec<Row> = r
                .rows
                .iter()
                .map(|m| {
                    let cells = vec![num(count(m.per_caller_bytes)), num(count(m.total_bytes))];
                    (m.limiter.as_str().to_string(), cells, false)
                })
                .collect();
            table(
                &mut out,
                "",
                &["limiter", "bytes per caller", "total bytes"],
                &rows,
            );
            out.push_str(
                r#"<p class="rll-caption">Counted: integer state and key bytes. Not counted: map nodes, pointers, spare capacity, allocator overhead.</p>"#,
            );
        }
        LabResult::Herd(r) => {
            para(
                &mut out,
                "",
                &format!(
                    "{} clients are refused at the same instant and all read a {} Retry-After. Each then retries \
                     against a bucket of {} per {} until it gets in. After every refusal a client sleeps the \
                     Retry-After it was given, plus a backoff v that doubles with each refusal (from {} up to {}); \
                     the jitter decides how much of v it sleeps:",
                    count(r.clients.into()),
                    ms(r.retry_after_us),
                    r.limit,
                    per(r.window_us),
                    ms(r.retry_after_us),
                    ms(r.cap_us),
                ),
            );
            out.push_str(r#"<ul class="rll-formulas">"#);
            for j in Jitter::ALL {
                let _ = write!(
                    out,
                    "<li{}><code>{}: {}</code></li>",
                    if j == r.jitter {
                        r#" class="rll-chosen""#
                    } else {
                        ""
                    },
                    j.as_str(),
                    escape(formula(j))
                );
            }
            out.push_str("</ul>");
            let (chosen, none) = (r.case(r.jitter), r.case(Jitter::None));
            let _ = write!(
                out,
                r#"<p data-testid="herd-wave">First wave with {} jitter: at most {} per millisecond, spread over {} {}</p>"#,
                r.jitter,
                strong("herd-peak", &chosen.peak_per_ms.to_string()),
                strong("herd-spread", &ms(chosen.spread_us())),
                escape(&format!(
                    "(without jitter: {} in one millisecond, spread {}).",
                    none.peak_per_ms,
                    ms(none.spread_us())
                ))
            );
            if let Some(w) = width {
                out.push_str(&herd_svg(r, w));
            }
            para(&mut out, "herd-verdict", &verdict(r));
            let rows: Vec<Row> = r
                .cases
                .iter()
                .map(|c| {
                    let cells = vec![
                        num(c.peak_per_ms),
                        num(ms(c.spread_us())),
                        num(count(c.requests)),
                        // As the verdict and the CLI's table write it.
                        num(seconds(c.finish_us)),
                    ];
                    (c.jitter.as_str().to_string(), cells, c.jitter == r.jitter)
                })
                .collect();
            table(
                &mut out,
                "",
                &[
                    "jitter",
                    "peak per ms",
                    "first-wave spread",
                    "requests",
                    "last client in",
                ],
                &rows,
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::settings::{run, KnobId, LabSettings};
    use sim::lab::ExperimentName;

    #[test]
    fn every_knob_is_a_control_at_its_value() {
        let mut s = LabSettings::default();
        s.read(KnobId::MemoryCallers, "5000").unwrap();
        let html = knobs_html(ExperimentName::Memory, &s);
        assert!(
            html.contains(r#"<output data-knob-value="memoryCallers">5,000 callers</output>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"data-knob="memoryCallers" min="0" max="21" step="1" value="11""#),
            "{html}"
        );
        let html = knobs_html(ExperimentName::Herd, &s);
        assert!(
            html.contains(r#"<button type="button" data-value="full" aria-pressed="true">"#),
            "{html}"
        );
        assert_eq!(html.matches("aria-pressed=\"true\"").count(), 1);
    }

    #[test]
    fn every_experiment_says_what_it_measured() {
        let mut s = LabSettings::default();
        s.read(KnobId::HerdJitter, "equal").unwrap();
        for name in ExperimentName::ALL {
            let r = run(name, 1, &s).unwrap();
            let html = body_html(&r, Some(400.0));
            assert!(html.starts_with("<p"), "{name}: {html}");
            let opened = html.matches("<p>").count() + html.matches("<p ").count();
            assert_eq!(opened, html.matches("</p>").count(), "{name}");
        }
        let herd = run(ExperimentName::Herd, 1, &s).unwrap();
        let html = body_html(&herd, Some(400.0));
        let LabResult::Herd(h) = &herd else {
            unreachable!()
        };
        assert!(html.contains(&format!(
            r#"<strong data-testid="herd-peak">{}</strong>"#,
            h.case(Jitter::Equal).peak_per_ms
        )));
        assert!(
            html.contains(r#"<li class="rll-chosen"><code>equal: "#),
            "{html}"
        );
        assert!(html.contains("data-testid=\"herd-chart\""));
        assert!(!body_html(&herd, None).contains("<svg"));
        let burst = run(ExperimentName::Burst, 1, &s).unwrap();
        let LabResult::Burst(b) = &burst else {
            unreachable!()
        };
        assert!(burst_lead(b)
            .starts_with("10 requests 150 ms before a window boundary and 10 more 170 ms after"));
    }

    #[test]
    fn every_experiment_has_a_button_and_the_intro_names_its_seed_and_link() {
        let m = experiments_markup();
        for e in ExperimentName::ALL {
            assert_eq!(
                m.matches(&format!("data-experiment=\"{}\"", e.as_str()))
                    .count(),
                1,
                "{e:?}"
            );
            assert!(m.contains(&escape(experiment_title(e))));
        }
        let intro = limits_intro_markup(7, "headers.html?section=headers&a=1");
        assert!(intro.contains("from seed 7."), "{intro}");
        assert!(
            intro.contains("href=\"headers.html?section=headers&amp;a=1\""),
            "{intro}"
        );
    }
}
