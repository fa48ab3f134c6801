//! The code editor: the text area of the page layer's markup, which works from the first
//! paint, and then CodeMirror in its place once its bundle has loaded (`editor/editor.js`,
//! imported by this view alone, after the page has painted: `assets/loader.js` gives the
//! view `window.rateLimitLabEditor()`, which imports it). Whichever is on screen, the
//! code is read from it when the reader presses Run.

use crate::shared::bind::{self, Root};
use crate::shared::dom::{set_flag, set_value, value_of};
use crate::shared::later::after_next_paint;
use leptos::prelude::*;
use page::client::outcome::Place;
use page::client::view::{CODE, EDITOR, KEYS_ID};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The editor on the page: copyable.
#[derive(Clone, Copy)]
pub struct Editor {
    root: Root,
    /// CodeMirror's editor, once it has replaced the text area.
    mirror: StoredValue<Option<JsValue>, LocalStorage>,
}

/// Calls the method `name` of `object` with `args` ([`crate::shared::part::call`]).
fn call(object: &JsValue, name: &str, args: &[JsValue]) -> Option<JsValue> {
    crate::shared::part::call(object, name, args).ok()
}

impl Editor {
    /// The editor of the markup under `root`.
    pub fn new(root: Root) -> Self {
        Self {
            root,
            mirror: StoredValue::new_local(None),
        }
    }

    fn area(&self) -> Option<web_sys::Element> {
        let root = self.root.get_untracked()?;
        bind::find(&root, CODE)
    }

    /// The code on screen.
    pub fn text(&self) -> String {
        let from_mirror = self
            .mirror
            .with_value(|m| m.as_ref().and_then(|m| call(m, "getValue", &[])))
            .and_then(|v| v.as_string());
        from_mirror
            .or_else(|| self.area().and_then(|a| value_of(&a)))
            .unwrap_or_default()
    }

    /// Puts `text` on screen in place of the code.
    pub fn set_text(&self, text: &str) {
        if let Some(a) = self.area() {
            set_value(&a, text);
        }
        self.mirror.with_value(|m| {
            if let Some(m) = m {
                call(m, "setValue", &[text.into()]);
            }
        });
    }

    /// Marks `message` at `at` in the code (the editor only: the text area has no marks;
    /// the sentence is under it either way).
    pub fn show_error(&self, at: Place, message: &str) {
        self.mirror.with_value(|m| {
            let Some(m) = m else { return };
            let error = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&error, &"line".into(), &at.line.into());
            if let Some(c) = at.column {
                let _ = js_sys::Reflect::set(&error, &"column".into(), &c.into());
            }
            let _ = js_sys::Reflect::set(&error, &"message".into(), &message.into());
            call(m, "showError", &[error.into()]);
        });
    }

    /// Takes the marks away.
    pub fn clear_errors(&self) {
        self.mirror.with_value(|m| {
            if let Some(m) = m {
                call(m, "clearErrors", &[]);
            }
        });
    }

    /// Once the page has painted, loads CodeMirror and puts it in the text area's place,
    /// holding the same code, with Ctrl+Enter calling `run`. Without it (no bundle, a
    /// browser that cannot load it) the text area stays, and works.
    pub fn upgrade(self, label: &'static str, run: impl Fn() + 'static) {
        let run = Closure::<dyn Fn()>::new(run);
        after_next_paint(move || {
            leptos::task::spawn_local(async move {
                let Some(window) = web_sys::window() else {
                    return;
                };
                let Some(promise) = call(&window, "rateLimitLabEditor", &[]) else {
                    return;
                };
                let Ok(module) = JsFuture::from(js_sys::Promise::from(promise)).await else {
                    return;
                };
                let (Some(root), Some(area)) = (self.root.get_untracked(), self.area()) else {
                    return;
                };
                let Some(parent) = bind::find(&root, EDITOR) else {
                    return;
                };
                let options = js_sys::Object::new();
                for (key, value) in [
                    (
                        "doc",
                        JsValue::from_str(&value_of(&area).unwrap_or_default()),
                    ),
                    ("label", label.into()),
                    ("describedBy", KEYS_ID.into()),
                ] {
                    let _ = js_sys::Reflect::set(&options, &key.into(), &value);
                }
                if let Some(mirror) =
                    call(&module, "createEditor", &[parent.into(), options.into()])
                {
                    set_flag(&area, "hidden", true);
                    self.mirror.set_value(Some(mirror));
                    // The editor holds it for as long as the page lives.
                    run.forget();
                }
            });
        });
    }
}
