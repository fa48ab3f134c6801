//! A node the UI binds to, named once.
//!
//! The page layer writes a page's static parts as markup ([`maud::html!`]); the UI then
//! finds the few nodes a run changes and writes them. Each such node is a [`Slot`]: one
//! constant, written into the markup as its `data-slot` attribute and handed to the UI,
//! which finds the node by the same constant (`web::shared::bind`). No selector is typed
//! twice, and tests keep their own `data-testid`s.
//!
//! ```
//! use maud::html;
//! use page::slot;
//! use page::shared::slot::Slot;
//!
//! const PAUSE: Slot = slot!("pause");
//! let markup = html! { button data-slot=(PAUSE) { "Pause" } };
//! assert_eq!(markup.into_string(), r#"<button data-slot="pause">Pause</button>"#);
//! assert_eq!(PAUSE.selector(), r#"[data-slot="pause"]"#);
//! ```

/// A node the UI binds to: its name, and the selector that finds it. Made by [`slot!`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    name: &'static str,
    selector: &'static str,
}

impl Slot {
    /// A slot named `name`, found by `selector` (which [`slot!`] writes from the name).
    #[doc(hidden)]
    pub const fn new(name: &'static str, selector: &'static str) -> Self {
        Self { name, selector }
    }

    /// The value of the node's `data-slot` attribute.
    pub const fn name(self) -> &'static str {
        self.name
    }

    /// The CSS selector of the node: `[data-slot="<name>"]`.
    pub const fn selector(self) -> &'static str {
        self.selector
    }
}

/// The name, as the markup's `data-slot=(SLOT)` writes it.
impl maud::Render for Slot {
    fn render_to(&self, buffer: &mut String) {
        buffer.push_str(self.name);
    }
}

/// A [`Slot`] named by a literal, its selector written at compile time.
#[macro_export]
macro_rules! slot {
    ($name:literal) => {
        $crate::shared::slot::Slot::new($name, concat!("[data-slot=\"", $name, "\"]"))
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use maud::html;

    const A: Slot = slot!("a-b");

    #[test]
    fn the_markup_and_the_selector_name_the_same_node() {
        assert_eq!(
            html! { p data-slot=(A) {} }.into_string(),
            "<p data-slot=\"a-b\"></p>"
        );
        assert_eq!(A.selector(), "[data-slot=\"a-b\"]");
        assert_eq!(A.name(), "a-b");
    }
}
