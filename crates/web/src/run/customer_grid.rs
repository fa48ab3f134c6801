//! One cell per customer, coloured and patterned by what became of them, drawn on a
//! canvas (a thousand DOM cells cost more per frame than the rest of the page together).
//! A click, or Enter on the focused cell, opens that customer's story; arrow keys move
//! the focus, and the focused cell is announced. The canvas is set up by
//! [`crate::shared::canvas`].

use crate::run::use_playback::Playback;
use crate::shared::canvas::{context, use_canvas, Css, Fit, Surface};
use crate::shared::erase::{handler, watch};
use crate::shared::live;
use leptos::html::Canvas;
use leptos::prelude::*;
use page::shared::budget::GRID_MAX_CELLS;
use page::shared::legend::{
    fate_counts, focused_cell, FatesLegend, GridNotes, GridNotesState, GRID_LABEL,
};
use sim::world::Fate;

/// Cell side and the gap after it, in CSS pixels.
const CELL: f64 = 12.0;
const PITCH: f64 = 15.0;

/// The CSS custom property holding a fate's colour.
fn fate_var(f: Fate) -> &'static str {
    match f {
        Fate::Charged => "--rll-mark-ok",
        Fate::ChargedMoreThanOnce => "--rll-harm",
        Fate::Declined => "--rll-mark-declined",
        Fate::GaveUp => "--rll-mark-waiting",
        Fate::GaveUpButCharged => "--rll-mark-conflict",
        Fate::Lost => "--rll-harm",
        Fate::Refused => "--rll-mark-key-reused",
        Fate::Pending => "--rll-border",
    }
}

/// The grid's colours: one per fate, in the order of `Fate::ALL`, then the surface's and
/// the text's (for the patterns and the focus ring).
fn palette(css: &Css) -> Vec<String> {
    let mut colours: Vec<String> = Fate::ALL
        .iter()
        .map(|f| css.var(fate_var(*f), ""))
        .collect();
    colours.push(css.var("--rll-surface", ""));
    colours.push(css.var("--rll-text", ""));
    colours
}

/// Draws every cell, the selection and the keyboard focus.
fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    colours: &[String],
    width: f64,
    fates: &[Fate],
    selected: Option<u32>,
    focus: Option<u32>,
) {
    let cols = ((width / PITCH).floor() as usize).max(1);
    let rows = fates.len().div_ceil(cols).max(1);
    let Some(ctx) = context(canvas, width, rows as f64 * PITCH, Fit::Height) else {
        return;
    };
    let at = |i: usize| ((i % cols) as f64 * PITCH, (i / cols) as f64 * PITCH);
    for (k, fate) in Fate::ALL.iter().enumerate() {
        ctx.set_fill_style_str(&colours[k]);
        ctx.set_stroke_style_str(&colours[k]);
        ctx.begin_path();
        for (i, _) in fates.iter().enumerate().filter(|(_, f)| *f == fate) {
            let (x, y) = at(i);
            ctx.rect(x, y, CELL, CELL);
        }
        if *fate == Fate::Pending {
            ctx.stroke();
        } else {
            ctx.fill();
        }
    }
    // Gave up, and told charged but not: a white stroke across the cell, so it differs
    // by pattern, not only colour.
    ctx.set_stroke_style_str(&colours[Fate::ALL.len()]);
    ctx.set_line_width(2.0);
    ctx.begin_path();
    for (i, _) in fates
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f, Fate::GaveUp | Fate::GaveUpButCharged | Fate::Lost))
    {
        let (x, y) = at(i);
        ctx.move_to(x + 1.0, y + CELL - 1.0);
        ctx.line_to(x + CELL - 1.0, y + 1.0);
    }
    ctx.stroke();
    // Charged twice: a white dot in the middle.
    ctx.set_fill_style_str(&colours[Fate::ALL.len()]);
    ctx.begin_path();
    for (i, _) in fates
        .iter()
        .enumerate()
        .filter(|(_, f)| **f == Fate::ChargedMoreThanOnce)
    {
        let (x, y) = at(i);
        ctx.rect(x + CELL / 2.0 - 2.0, y + CELL / 2.0 - 2.0, 4.0, 4.0);
    }
    ctx.fill();
    ctx.set_stroke_style_str(&colours[Fate::ALL.len() + 1]);
    for (c, w) in [(selected, 2.0), (focus, 3.0)] {
        if let Some(c) = c.filter(|c| (1..=fates.len() as u32).contains(c)) {
            let (x, y) = at(c as usize - 1);
            ctx.set_line_width(w);
            ctx.stroke_rect(x - 1.5, y - 1.5, CELL + 3.0, CELL + 3.0);
        }
    }
    ctx.set_line_width(1.0);
}

/// The grid with its legend and an announcement of the focused cell.
#[component]
pub fn CustomerGrid(
    /// The run whose customers to draw.
    playback: Playback,
    /// The customer whose story is open, highlighted.
    selected: RwSignal<Option<u32>>,
    /// The customer under the pointer, for the timeline to highlight.
    #[prop(optional)]
    hovered: Option<RwSignal<Option<u32>>>,
) -> impl IntoView {
    // What became of each customer drawn, as of the snapshot on screen; the list under
    // the grid is rewritten only when it changes (a memo of markup, the type the other
    // panels' memos share).
    let fates = move || {
        playback.snapshot().track();
        let mut f = playback.fates();
        f.truncate(GRID_MAX_CELLS as usize);
        f
    };
    let legend = live::view(FatesLegend, move || fate_counts(&fates()));
    let customers = move || {
        playback
            .scenario()
            .with(|s| s.as_ref().map_or(0, |s| s.customers))
    };
    let focus = RwSignal::new(None::<u32>);
    let canvas = NodeRef::<Canvas>::new();
    // Colours and width are read once (and again when the width changes).
    let surface = use_canvas(canvas, palette);
    watch(move || {
        let Some((el, Surface { palette, width })) = surface.get() else {
            return;
        };
        let (sel, foc) = (selected.get(), focus.get());
        draw(&el, &palette, width, &fates(), sel, foc);
    });

    let cols = move || {
        surface
            .width()
            .map_or(1, |w| ((w / PITCH).floor() as u32).max(1))
    };
    let n = move || untrack(fates).len() as u32;
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let n = n();
        if n == 0 {
            return;
        }
        let cur = focus.get_untracked().unwrap_or(1);
        let next = match ev.key().as_str() {
            "ArrowRight" => cur.saturating_add(1),
            "ArrowLeft" => cur.saturating_sub(1),
            "ArrowDown" => cur.saturating_add(cols()),
            "ArrowUp" => cur.saturating_sub(cols()),
            "Home" => 1,
            "End" => n,
            "Enter" | " " => {
                ev.prevent_default();
                selected.set(Some(cur));
                return;
            }
            _ => return,
        }
        .clamp(1, n);
        ev.prevent_default();
        focus.set(Some(next));
    };
    let cell = move |ev: &leptos::ev::MouseEvent| {
        let (x, y) = (f64::from(ev.offset_x()), f64::from(ev.offset_y()));
        let (col, row) = ((x / PITCH).floor() as u32, (y / PITCH).floor() as u32);
        let c = row * cols() + col + 1;
        (col < cols() && c <= n()).then_some(c)
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(c) = cell(&ev) {
            focus.set(Some(c));
            selected.set(Some(c));
        }
    };
    let on_move = move |ev: leptos::ev::MouseEvent| {
        if let Some(h) = hovered {
            let c = cell(&ev);
            if h.get_untracked() != c {
                h.set(c);
            }
        }
    };
    // The focused cell, on the canvas and announced beside it, and whether the run is
    // larger than the grid: the notes after the canvas are the page layer's live widget.
    // The canvas is this module's own element (for its context), so its attribute is
    // written here (a reactive attribute of the view would cost the module more).
    watch(move || {
        let focused = focus.get().map(|c| c.to_string()).unwrap_or_default();
        if let Some(el) = canvas.get() {
            let _ = el.set_attribute("data-focus", &focused);
        }
    });
    let notes = live::view(GridNotes, move || GridNotesState {
        said: focus.get().map(|c| {
            let f = fates()
                .get(c as usize - 1)
                .copied()
                .unwrap_or(Fate::Pending);
            focused_cell(c, f)
        }),
        cut: customers() > GRID_MAX_CELLS,
    });

    view! {
        <div class="rll-grid-wrap">
            {legend}
            <canvas
                class="rll-grid"
                node_ref=canvas
                tabindex="0"
                role="application"
                data-testid="grid"
                aria-label=GRID_LABEL
                on:keydown=handler(on_key)
                on:click=handler(on_click)
                on:mousemove=handler(on_move)
                on:mouseleave=handler(move |_| if let Some(h) = hovered { h.set(None) })
                on:focus=handler(move |_| {
                    if focus.get_untracked().is_none() {
                        focus.set(Some(1));
                    }
                })
            ></canvas>
            {notes}
        </div>
    }
}
