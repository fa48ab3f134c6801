//! The lab's side of the sandbox: a frame (`sandbox/index.html`, opened with
//! `sandbox="allow-scripts"`, so its origin is opaque) that runs a reader's code in a
//! worker, and the messages between them. The page hands the frame the sandbox's module,
//! the harness and the code; the frame hands back progress and the run's end. Only
//! messages from this frame's window are read, and dropping the frame removes it and
//! its listener, which ends the worker inside it.

use crate::shared::dom::lab_base;
use crate::shared::fetch::{fetch_bytes, fetch_text};
use crate::shared::workers::field;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlIFrameElement, MessageEvent};

/// What the sandbox needs besides the code, fetched once per page.
#[derive(Clone)]
pub struct Assets {
    /// The module's glue (`--target no-modules`).
    glue: String,
    /// The harness.
    harness: String,
    /// The module's bytes: a copy goes to each run.
    wasm: js_sys::ArrayBuffer,
}

impl Assets {
    /// Fetches them from next to the page.
    pub async fn fetch() -> Result<Assets, String> {
        let glue = fetch_text("rate-limit-lab-sandbox.js".into()).await?;
        let harness = fetch_text("sandbox/harness.js".into()).await?;
        let wasm = fetch_bytes("rate-limit-lab-sandbox_bg.wasm".into()).await?;
        Ok(Assets {
            glue,
            harness,
            wasm,
        })
    }
}

/// What the frame said: `ready`, `progress`, `done` or `failed`, and the message.
pub type OnMessage = dyn Fn(&str, JsValue);

/// The sandbox's frame on the page.
pub struct SandboxFrame {
    frame: HtmlIFrameElement,
    listener: Closure<dyn Fn(MessageEvent)>,
}

impl SandboxFrame {
    /// A new frame, answering through `on_message`; `None` if the page cannot make one.
    pub fn open(on_message: Rc<OnMessage>) -> Option<SandboxFrame> {
        let document = web_sys::window()?.document()?;
        let frame: HtmlIFrameElement = document.create_element("iframe").ok()?.dyn_into().ok()?;
        frame.set_attribute("sandbox", "allow-scripts").ok()?;
        frame.set_attribute("hidden", "").ok()?;
        frame.set_attribute("title", "sandbox").ok()?;
        frame.set_src(&format!("{}sandbox/index.html", lab_base()));
        let from = frame.clone();
        let listener = Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| {
            let ours = match (ev.source(), from.content_window()) {
                (Some(source), Some(window)) => js_sys::Object::is(&source, window.as_ref()),
                _ => false,
            };
            if !ours {
                return;
            }
            let data = ev.data();
            if let Some(kind) = field(&data, "type").as_string() {
                on_message(&kind, data);
            }
        });
        web_sys::window()?
            .add_event_listener_with_callback("message", listener.as_ref().unchecked_ref())
            .ok()?;
        document.body()?.append_child(&frame).ok()?;
        Some(SandboxFrame { frame, listener })
    }

    /// Starts a run of `code` on the scenario `query` names.
    pub fn run(&self, assets: &Assets, code: &str, query: &str) {
        let Some(window) = self.frame.content_window() else {
            return;
        };
        let wasm = assets.wasm.slice(0);
        let message = js_sys::Object::new();
        for (key, value) in [
            ("type", JsValue::from_str("run")),
            ("glue", assets.glue.as_str().into()),
            ("harness", assets.harness.as_str().into()),
            ("code", code.into()),
            ("query", query.into()),
            ("wasm", wasm.clone().into()),
        ] {
            let _ = js_sys::Reflect::set(&message, &key.into(), &value);
        }
        let transfer = js_sys::Array::of1(&wasm);
        let _ = window.post_message_with_transfer(&message, "*", &transfer);
    }
}

impl Drop for SandboxFrame {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(
                "message",
                self.listener.as_ref().unchecked_ref(),
            );
        }
        self.frame.remove();
    }
}
