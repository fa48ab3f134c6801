//! The run view's timeline: redrawn once per published frame, and on resize.
//!
//! The canvas is the drawing; the markup around it is the page layer's live widgets
//! (`page::run::timeline::{TimelineNotes, PlayheadBar}`, `page::shared::legend::MarksLegend`).
//! The figure and the canvas are this module's own elements (the canvas must be, for
//! its context), so their few attributes (idle, the customer lit, the marks lit and the
//! drawing's time; pointing) are still written by hand here: bound by the view, as
//! reactive attributes, they cost the run page's and the widget's modules about 13 KB
//! (4 KB gzip) more.

use crate::run::use_playback::{PlayState, Playback};
use crate::shared::bind;
use crate::shared::canvas::{use_canvas, Surface};
use crate::shared::dom::value_of;
use crate::shared::erase::{handler, watch};
use crate::shared::live;
use crate::shared::timeline::{draw, mark_at, Layout, Palette, Pointed, TimelineData};
use leptos::html::Canvas;
use leptos::prelude::*;
use page::run::timeline::{
    connector_label, readout, tip_text, PlayheadBar, PlayheadState, Step, TimelineNotes, Tip,
    PLAYHEAD, TIMELINE_LABEL,
};
use page::shared::format::dec;
use page::shared::legend::MarksLegend;
use sim::moments::{charges_until, record_at, Harm, HarmMoment};

/// The canvas with its legend and caption.
#[component]
pub fn RunTimeline(
    /// The run to draw.
    playback: Playback,
    /// A small timeline for an embedded widget: no labels.
    #[prop(optional)]
    compact: bool,
    /// How much larger than the page's own the drawing's text and marks appear (the
    /// presenter's layout: 4/3, so chart text is 16 px); 1 otherwise.
    #[prop(default = 1.0)]
    scale: f64,
    /// The requests of a previous run, drawn faintly under this one.
    #[prop(optional)]
    ghost: Option<StoredValue<Vec<sim::record::RequestRecord>>>,
    /// Whether the ghost is shown (redraws when it comes or goes).
    #[prop(optional)]
    ghost_on: Option<Signal<bool>>,
    /// Where a click on a mark opens that customer's story (none: marks are not links).
    #[prop(optional)]
    open_story: Option<RwSignal<Option<u32>>>,
    /// A customer whose marks stand out (pointed at in the grid).
    #[prop(optional)]
    highlight: Option<Signal<Option<u32>>>,
    /// What goes under the canvas, inside the figure (the run page's [`Playhead`] and
    /// [`Legend`]). Passed in rather than switched on, so a widget's module never
    /// carries the playhead's stepping and scrubbing.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let layout = match (compact, scale > 1.0) {
        (true, _) => Layout::COMPACT,
        (false, true) => Layout::PRESENT,
        (false, false) => Layout::FULL,
    };
    // The figure is found from the canvas (a node reference of its own element type
    // would cost the module its own copy of its code).
    let canvas = NodeRef::<Canvas>::new();
    let figure = move || canvas.get_untracked()?.parent_element();
    let draw_ms_max = StoredValue::new(0.0_f64);
    let surface = use_canvas(canvas, Palette::read);

    // The one customer whose marks stand out: the one pointed at in the grid, else the
    // harm the playhead is on, else the one whose story is open.
    let lit = move || {
        highlight
            .and_then(|h| h.get())
            .or_else(|| playback.harm().with(|h| h.map(|h| h.customer)))
            .or_else(|| open_story.and_then(|o| o.get()))
    };
    watch(move || {
        playback.snapshot().track();
        let show_ghost = ghost_on.is_some_and(|g| g.get());
        let lit = lit();
        let harm = playback.harm().get();
        let Some((el, Surface { palette, width })) = surface.get() else {
            return;
        };
        let axis_end_us = playback.end_us().get_untracked();
        let playhead = playback.playhead().get_untracked();
        let paint = |ghost_record: &[sim::record::RequestRecord]| {
            playback.with_sim(|sim| {
                let mut data = TimelineData::of(sim, axis_end_us.unwrap_or(sim.now_us()));
                data.ghost = ghost_record;
                data.highlight = lit;
                let cut: Vec<sim::record::RequestRecord>;
                if let Some(t) = playhead {
                    // The run as it stood at the playhead: what was sent by then, each as
                    // it stood then (no answer from after it), and a line.
                    let sent = data.record.partition_point(|r| r.sent_at_us <= t);
                    cut = data.record[..sent]
                        .iter()
                        .map(|r| record_at(r, t))
                        .collect();
                    data.axis_end_us = data.axis_end_us.max(data.now_us);
                    data.record = &cut;
                    data.now_us = t;
                    data.finished = false;
                }
                data.pointed = harm.map(|m| pointed(data.record, &m));
                let marks = lit.map_or(0, |c| {
                    data.record.iter().filter(|r| r.customer == c).count()
                });
                set_attr(figure, "data-highlight-marks", Some(&marks.to_string()));
                draw(&el, &palette, width / scale, &data, layout)
            })
        };
        let took = match ghost.filter(|_| show_ghost) {
            Some(g) => g.with_value(|g| paint(g)),
            None => paint(&[]),
        };
        match took {
            Some(ms) => {
                draw_ms_max.update_value(|m| *m = m.max(ms));
                set_attr(figure, "data-draw-ms", Some(&dec(ms, 2)));
                set_attr(
                    figure,
                    "data-draw-ms-max",
                    Some(&dec(draw_ms_max.get_value(), 2)),
                );
            }
            None => {
                // Nothing to show: clear the canvas.
                el.set_width(el.width());
            }
        }
    });

    // The figure's state, as attributes: idle (its sentence instead of a blank canvas),
    // and the customer whose marks stand out.
    watch(move || {
        let idle = playback.state().get() == PlayState::Idle;
        let lit = lit().map(|c| c.to_string());
        canvas.track();
        if let Some(f) = figure() {
            let _ = f.class_list().toggle_with_force("rll-idle", idle);
        }
        set_attr(figure, "data-highlight", lit.as_deref());
    });

    // Pointing: the request under the pointer is named in the tooltip, the page layer's
    // live widget after the canvas; a click opens its customer.
    let tip = RwSignal::new(None::<Tip>);
    let notes = live::view(TimelineNotes, move || tip.get());
    let show_tip = move |found: Option<Tip>| {
        if let Some(c) = canvas.get_untracked() {
            let _ = c
                .class_list()
                .toggle_with_force("rll-pointing", found.is_some());
        }
        if tip.with_untracked(|t| *t != found) {
            tip.set(found);
        }
    };
    let point = move |ev: &web_sys::MouseEvent| -> Option<(f64, f64, sim::record::RequestRecord)> {
        let el = canvas.get_untracked()?;
        let width = surface.width()?;
        let rect = el.get_bounding_client_rect();
        let (cx, cy) = (
            f64::from(ev.client_x()) - rect.left(),
            f64::from(ev.client_y()) - rect.top(),
        );
        let to_drawing = width / scale / rect.width().max(1.0);
        let playhead = playback.playhead().get_untracked();
        let axis_end_us = playback.end_us().get_untracked();
        let found = playback.with_sim(|sim| {
            let mut data = TimelineData::of(sim, axis_end_us.unwrap_or(sim.now_us()));
            if let Some(t) = playhead {
                data.axis_end_us = data.axis_end_us.max(data.now_us);
                data.record = &data.record[..data.record.partition_point(|r| r.sent_at_us <= t)];
            }
            mark_at(
                &data,
                width / scale,
                layout,
                cx * to_drawing,
                cy * to_drawing,
                8.0,
            )
        })??;
        Some((cx, cy, found))
    };
    let on_move = move |ev: web_sys::MouseEvent| {
        show_tip(point(&ev).map(|(x, y, r)| {
            let a = sim::story::AttemptStory::from_record(&r);
            Tip {
                x: x.round() as i64,
                y: y.round() as i64,
                text: tip_text(r.customer, &page::run::story::sentence(&a)),
                customer: r.customer,
            }
        }));
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let (Some(open), Some((_, _, r))) = (open_story, point(&ev)) {
            open.set(Some(r.customer));
        }
    };
    view! {
        <figure class="rll-timeline rll-idle" data-testid="timeline" data-highlight-marks="0">
            <canvas
                node_ref=canvas
                on:mousemove=handler(on_move)
                on:mouseleave=handler(move |_| show_tip(None))
                on:click=handler(on_click)
                role="img"
                aria-label=TIMELINE_LABEL
            ></canvas>
            // What it says before a run, and the tooltip: the page layer's live widget.
            {notes}
            {children.map(|c| c())}
        </figure>
    }
}

/// What the timeline points at for the harm `m`: a double charge's charges joined and
/// labelled, any other harm ringed where it happened.
fn pointed(record: &[sim::record::RequestRecord], m: &HarmMoment) -> Pointed {
    let (at_us, label) = match m.harm {
        Harm::DoubleCharge => {
            let times = charges_until(record, m.customer, m.at_us);
            let label = connector_label(times.len());
            (times, Some(label))
        }
        _ => (vec![m.at_us], None),
    };
    Pointed {
        customer: m.customer,
        at_us,
        label,
    }
}

/// Sets (or, given `None`, removes) the attribute `name` of the figure, once it is on
/// the page.
fn set_attr(figure: impl Fn() -> Option<web_sys::Element>, name: &str, value: Option<&str>) {
    if let Some(f) = figure() {
        let _ = match value {
            Some(v) => f.set_attribute(name, v),
            None => f.remove_attribute(name),
        };
    }
}

/// A slider along the timeline's width to see a finished run at any instant, with
/// buttons stepping between requests and between harmful moments.
///
/// The page layer's live widget (`PlayheadBar`), hidden until the run is done: what a run
/// changes in it (the slider's range and value, the time, what a step landed on) is
/// drawn there; one handler each reads the slider and the step buttons
/// (docs/architecture.md, "Drawing").
#[component]
pub fn Playhead(
    /// The finished run to scrub.
    playback: Playback,
    /// The timeline's scale (see [`RunTimeline`]).
    scale: f64,
) -> impl IntoView {
    // Spans the plot: the layout's labels on the left, 8 px on the right, both scaled.
    let span = format!(
        "display:block;margin-left:{left}px;width:calc(100% - {both}px)",
        left = (Layout::FULL.left * scale).round() as i64,
        both = ((Layout::FULL.left + 8.0) * scale).round() as i64
    );
    // Ready once the run is done, or held at a pause to be stepped, and kept its
    // record; hidden until then.
    let ready = move || {
        playback.state().track();
        playback.playhead().track();
        playback
            .with_sim(|s| s.is_finished() && s.record().is_some())
            .unwrap_or(false)
    };
    // Where the playhead is, in whole ms, and where the run ends: kept as they were
    // while the bar is hidden.
    let last = StoredValue::new(None::<(u64, u64)>);
    let bar = live::view(PlayheadBar { style: span }, move || {
        let ready = ready();
        if ready {
            playback.snapshot().track();
            let end_ms = playback
                .with_sim(|s| s.now_us().div_ceil(1_000))
                .unwrap_or(0);
            let at_ms = playback.playhead().get().map_or(end_ms, |t| t / 1_000);
            last.set_value(Some((end_ms, at_ms)));
        }
        // What a step landed on, in the page layer's sentence (a live region).
        let harm = playback.harm().get();
        let at = harm.map(|m| m.at_us).or(playback.playhead().get());
        let said = match (playback.stepped().get(), at) {
            (true, Some(t)) => playback
                .with_sim(|sim| sim.record().and_then(|r| readout(r, t, harm.as_ref())))
                .flatten(),
            _ => None,
        };
        PlayheadState {
            ready,
            at: last.get_value(),
            harm: harm.map(|m| (m.harm.as_str(), m.customer)),
            said,
        }
    });
    let on_input = move |ev: web_sys::Event| {
        if let Some(input) = bind::hit(&ev, PLAYHEAD) {
            let ms = value_of(&input).and_then(|v| v.parse::<u64>().ok());
            playback.seek(ms.map(|m| m * 1_000));
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(s) = Step::ALL
            .into_iter()
            .find(|s| bind::hit(&ev, s.slot()).is_some())
        {
            playback.step(s.harm(), s.forward());
        }
    };
    view! {
        <div style="display:contents" on:input=handler(on_input) on:click=handler(on_click)>{bar}</div>
    }
}

/// The marks' legend: the same shapes as the canvas, with words (the page layer's
/// widget, with nothing that changes).
#[component]
pub fn Legend() -> impl IntoView {
    live::view(MarksLegend, || ())
}
