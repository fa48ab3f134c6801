//! Canvas drawing, set up the same way for the timelines and the customer grid: the 2d
//! context sized for the device's pixel ratio, and the colours (CSS custom properties,
//! so dark mode applies) and width read once, not on every frame. Reading them forces a
//! style and layout pass while the rest of the page is changing; they are read again
//! only when the canvas's width changes ([`use_measured`]).

use crate::shared::use_measured::{use_measured, Measured};
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, CssStyleDeclaration, HtmlCanvasElement};

/// A canvas's computed style, to read the page's colours from.
pub struct Css(CssStyleDeclaration);

impl Css {
    /// The custom property `name` (such as `--rll-text`), or `fallback` if it is unset.
    pub fn var(&self, name: &str, fallback: &str) -> String {
        let v = self.0.get_property_value(name).unwrap_or_default();
        let v = v.trim();
        if v.is_empty() {
            fallback.to_string()
        } else {
            v.to_string()
        }
    }
}

/// What a canvas is drawn with: its palette (what `read` made of its style) and its CSS
/// width in pixels.
#[derive(Clone)]
pub struct Surface<P> {
    /// The colours.
    pub palette: P,
    /// The canvas's CSS width.
    pub width: f64,
}

/// A canvas on the page and its [`Surface`], measured once. Copyable, for effects and
/// event handlers.
pub struct CanvasSurface<P: Send + Sync + 'static> {
    canvas: NodeRef<Canvas>,
    measured: Measured<Surface<P>>,
    read: fn(&Css) -> P,
}

impl<P: Send + Sync + 'static> Clone for CanvasSurface<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: Send + Sync + 'static> Copy for CanvasSurface<P> {}

/// The surface of `canvas`, whose palette `read` takes from the canvas's style.
pub fn use_canvas<P: Clone + Send + Sync + 'static>(
    canvas: NodeRef<Canvas>,
    read: fn(&Css) -> P,
) -> CanvasSurface<P> {
    CanvasSurface {
        canvas,
        measured: use_measured(canvas),
        read,
    }
}

impl<P: Clone + Send + Sync + 'static> CanvasSurface<P> {
    /// The canvas and its surface, once the canvas is on the page. An effect that calls
    /// this runs again when the canvas mounts and when its width changes.
    pub fn get(&self) -> Option<(HtmlCanvasElement, Surface<P>)> {
        let el = self.canvas.get()?;
        let read = self.read;
        let surface = self.measured.get_or(|| {
            let style = web_sys::window()?.get_computed_style(&el).ok()??;
            Some(Surface {
                palette: read(&Css(style)),
                width: f64::from(el.client_width()),
            })
        })?;
        Some((el, surface))
    }

    /// The width, if it has been measured, without measuring or tracking (for event
    /// handlers).
    pub fn width(&self) -> Option<f64> {
        self.measured.peek().map(|s| s.width)
    }
}

/// How a canvas's displayed height follows its drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// The stylesheet sets only its width; the drawing's aspect ratio gives its height.
    AspectRatio,
    /// Its CSS height is set to the drawing's height.
    Height,
}

/// The 2d context of `canvas`, ready for a drawing `width` × `height` CSS pixels: its
/// pixels sized for the device's pixel ratio (changed only when they differ: resizing
/// clears a canvas and costs), one unit per CSS pixel, cleared.
pub fn context(
    canvas: &HtmlCanvasElement,
    width: f64,
    height: f64,
    fit: Fit,
) -> Option<CanvasRenderingContext2d> {
    let ctx = canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()?;
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .max(1.0);
    let (pw, ph) = ((width * dpr).round() as u32, (height * dpr).round() as u32);
    if canvas.width() != pw || canvas.height() != ph {
        canvas.set_width(pw);
        canvas.set_height(ph);
        if fit == Fit::Height {
            let _ = web_sys::HtmlElement::style(canvas)
                .set_property("height", &format!("{}px", height.round() as u32));
        }
    }
    let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    ctx.clear_rect(0.0, 0.0, width, height);
    Some(ctx)
}
