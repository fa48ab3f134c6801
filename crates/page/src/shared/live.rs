//! Live markup: a widget the page layer draws once and whose live parts it fills.
//!
//! A widget's markup and what changes in it are written together, in one function of
//! the page layer: [`Live::draw`] makes the markup, names each node that changes with a
//! [`Slot`], and records what it writes there in a [`Fill`] as it writes it (a text, a
//! class, an attribute: [`Write`]). The UI has one mechanism for every such widget
//! (`web::shared::live`): it pours the markup once (again only when [`Live::shape`]
//! changes), and on each change of the state draws again without pouring, and applies
//! only the recorded writes that differ from the last ones. So a counter that moves
//! rewrites one text node, not the panel, and the UI writes no DOM of its own.
//! [`check_drawn`] tests that every recorded hole names a node drawn with its slot.

use super::slot::Slot;
use maud::{Markup, PreEscaped};

/// What one live node shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// Its text.
    Text(String),
    /// Whether it has the class.
    Class(&'static str, bool),
    /// An attribute's value.
    Attr(&'static str, &'static str),
    /// Whether it has a boolean attribute (`disabled`, `hidden`).
    Flag(&'static str, bool),
    /// A field's value as the reader sees it (its `value` property, left alone while it
    /// already matches, so the caret stays where the reader typed).
    Value(String),
    /// Its content, as markup this layer built (escaped where it holds text).
    Markup(String),
    /// An attribute whose value is worked out as it is drawn (a count, a width, a
    /// position), escaped as any attribute, or none: the attribute removed.
    Data(&'static str, Option<String>),
    /// Its content, as markup this layer built, poured again only when the key changes
    /// (a list's items, say): meanwhile the markup's own live nodes, recorded as holes of
    /// their own, are written in place, so a focused one keeps its focus.
    Keyed(u64, Poured),
}

/// The markup of a [`Write::Keyed`], the same as any other for comparing fills: its key
/// alone says whether it is poured again.
#[derive(Clone, Debug, Eq)]
pub struct Poured(pub String);

impl PartialEq for Poured {
    fn eq(&self, _: &Poured) -> bool {
        true
    }
}

impl Write {
    /// What of its node a write sets: each node takes one write of each kind (its text,
    /// each class, each attribute).
    fn kind(&self) -> (u8, &'static str) {
        match self {
            Write::Text(_) => (0, ""),
            Write::Class(name, _) => (1, name),
            Write::Attr(name, _) | Write::Data(name, _) => (2, name),
            Write::Flag(name, _) => (3, name),
            Write::Value(_) => (4, ""),
            Write::Markup(_) => (5, ""),
            Write::Keyed(..) => (5, ""),
        }
    }
}

/// One live node of a drawn widget: the `index`-th node that `slot` names, in document
/// order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hole {
    /// The slot that names it.
    pub slot: Slot,
    /// Its place among that slot's nodes.
    pub index: u16,
}

/// The live nodes of one drawing, and what each shows, in the order drawn: the same
/// holes in the same order for the same [`Live::shape`], so two fills compare write by
/// write. A widget's markup records each hole as it writes it ([`Fill::text`],
/// [`Fill::class`], [`Fill::attr`]), so what is drawn and what is filled cannot differ.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fill {
    writes: Vec<(Hole, Write)>,
}

impl Fill {
    /// Records `write` on the next node of `slot` that has none of its kind yet (a node
    /// takes at most one write of each kind: its text, each class, each attribute).
    fn put(&mut self, slot: Slot, write: Write) -> &Write {
        let before = self
            .writes
            .iter()
            .filter(|(h, w)| h.slot.name() == slot.name() && w.kind() == write.kind())
            .count();
        let index = u16::try_from(before).unwrap_or(u16::MAX);
        self.writes.push((Hole { slot, index }, write));
        &self.writes[self.writes.len() - 1].1
    }

    /// The text of the node of `slot` being drawn, recorded; the text to draw.
    pub fn text(&mut self, slot: Slot, text: String) -> &str {
        match self.put(slot, Write::Text(text)) {
            Write::Text(text) => text,
            _ => "",
        }
    }

    /// Whether the node of `slot` being drawn has `class`, recorded; the same, to draw.
    pub fn class(&mut self, slot: Slot, class: &'static str, on: bool) -> bool {
        self.put(slot, Write::Class(class, on));
        on
    }

    /// Whether the node of `slot` being drawn has the boolean attribute `name`, recorded;
    /// the same, to draw.
    pub fn flag(&mut self, slot: Slot, name: &'static str, on: bool) -> bool {
        self.put(slot, Write::Flag(name, on));
        on
    }

    /// The value of the field of `slot` being drawn, recorded; the value to draw.
    pub fn value(&mut self, slot: Slot, value: String) -> &str {
        match self.put(slot, Write::Value(value)) {
            Write::Value(value) => value,
            _ => "",
        }
    }

    /// The content of the node of `slot` being drawn, recorded; the markup to draw.
    pub fn markup(&mut self, slot: Slot, markup: Markup) -> PreEscaped<&str> {
        match self.put(slot, Write::Markup(markup.into_string())) {
            Write::Markup(m) => PreEscaped(m),
            _ => PreEscaped(""),
        }
    }

    /// An attribute of the node of `slot` being drawn, recorded; its value, to draw.
    pub fn attr(&mut self, slot: Slot, name: &'static str, value: &'static str) -> &'static str {
        self.put(slot, Write::Attr(name, value));
        value
    }

    /// The content of the node of `slot` being drawn, poured again only when `key`
    /// changes ([`Write::Keyed`]), recorded; the markup to draw.
    pub fn keyed(&mut self, slot: Slot, key: u64, markup: Markup) -> PreEscaped<&str> {
        match self.put(slot, Write::Keyed(key, Poured(markup.into_string()))) {
            Write::Keyed(_, m) => PreEscaped(&m.0),
            _ => PreEscaped(""),
        }
    }

    /// An attribute of the node of `slot` being drawn whose value is worked out (a count,
    /// a style), recorded; its value, to draw.
    pub fn attr_text(&mut self, slot: Slot, name: &'static str, value: String) -> &str {
        self.data(slot, name, Some(value)).unwrap_or_default()
    }

    /// An attribute of the node of `slot` being drawn whose value is made as it is drawn,
    /// or none (the attribute absent), recorded; its value, to draw (`name=[value]`).
    pub fn data(&mut self, slot: Slot, name: &'static str, value: Option<String>) -> Option<&str> {
        match self.put(slot, Write::Data(name, value)) {
            Write::Data(_, value) => value.as_deref(),
            _ => None,
        }
    }

    /// The writes, in order.
    pub fn writes(&self) -> &[(Hole, Write)] {
        &self.writes
    }

    /// The writes of this fill that the one `before` it did not make at the same place:
    /// what the UI applies after drawing the same shape again (`web::shared::live`).
    pub fn changed_since<'a>(
        &'a self,
        before: &'a Fill,
    ) -> impl Iterator<Item = &'a (Hole, Write)> {
        self.writes
            .iter()
            .enumerate()
            .filter(move |(i, w)| before.writes.get(*i) != Some(*w))
            .map(|(_, w)| w)
    }
}

/// A widget the page layer draws, whose live nodes the UI then keeps filled.
pub trait Live {
    /// The state a widget shows.
    type State;
    /// A number for the markup's structure (which nodes exist) for `state`, different
    /// for each structure the widget draws: the UI pours the markup again only when it
    /// changes.
    fn shape(&self, state: &Self::State) -> u64;
    /// The markup for `state`, each live node named by its slot and its value recorded
    /// in `fill` as it is written.
    fn draw(&self, state: &Self::State, fill: &mut Fill) -> Markup;

    /// The markup for `state` alone (a page that shows a finished run, or a test).
    fn markup(&self, state: &Self::State) -> Markup {
        self.draw(state, &mut Fill::default())
    }
}

/// Checks that each hole `widget` records for `state` names a node of the markup that
/// shows the write already (a text, a class, an attribute): that every hole has its
/// `data-slot`, at its place. The markup is the page layer's own, so a plain scan of it
/// is enough.
pub fn check_drawn<L: Live>(widget: &L, state: &L::State) -> Result<(), String> {
    let mut fill = Fill::default();
    let drawn = widget.draw(state, &mut fill).into_string();
    for (hole, write) in fill.writes() {
        let tag = nth_tag(&drawn, hole.slot, hole.index).ok_or_else(|| {
            format!(
                "no node {} of slot {} in the markup",
                hole.index,
                hole.slot.name()
            )
        })?;
        let ok = match write {
            Write::Text(text) => {
                let after = &drawn[tag.end..];
                let inner = after.split('<').next().unwrap_or("");
                inner == maud::html!((text)).into_string()
            }
            Write::Markup(markup) | Write::Keyed(_, Poured(markup)) => {
                drawn[tag.end..].starts_with(markup.as_str())
            }
            Write::Class(class, on) => {
                let classes = attr(&drawn[tag.clone()], "class").unwrap_or_default();
                classes.split(' ').any(|c| c == *class) == *on
            }
            Write::Attr(name, value) => attr(&drawn[tag.clone()], name).as_deref() == Some(value),
            Write::Data(name, value) => {
                attr(&drawn[tag.clone()], name)
                    == value.as_ref().map(|v| maud::html!((v)).into_string())
            }
            // A select shows its value by the option it marks.
            Write::Value(value) if tag_name(&drawn[tag.clone()]) == "select" => {
                let value = maud::html!((value)).into_string();
                drawn[tag.end..]
                    .split('<')
                    .take_while(|part| !part.starts_with("/select"))
                    .filter_map(|part| part.strip_prefix("option"))
                    .any(|o| {
                        let tag = o.split('>').next().unwrap_or("");
                        attr(tag, "value").as_deref() == Some(value.as_str())
                            && has_flag(tag, "selected")
                    })
            }
            Write::Flag(name, on) => has_flag(&drawn[tag.clone()], name) == *on,
            // An input shows its value as its attribute; a text area, which has none, as
            // its text.
            Write::Value(value) => {
                let shown = maud::html!((value)).into_string();
                match attr(&drawn[tag.clone()], "value") {
                    Some(v) => v == shown,
                    None => drawn[tag.end..].split('<').next() == Some(shown.as_str()),
                }
            }
        };
        if !ok {
            return Err(format!(
                "node {} of slot {} is drawn as {} but filled with {write:?}",
                hole.index,
                hole.slot.name(),
                &drawn[tag]
            ));
        }
    }
    Ok(())
}

/// The span of the opening tag of the `index`-th node that `slot` names in `markup`.
fn nth_tag(markup: &str, slot: Slot, index: u16) -> Option<std::ops::Range<usize>> {
    let needle = format!("data-slot=\"{}\"", slot.name());
    let at = markup.match_indices(&needle).nth(usize::from(index))?.0;
    let start = markup[..at].rfind('<')?;
    let end = at + markup[at..].find('>')? + 1;
    Some(start..end)
}

/// The name of an opening tag's element.
fn tag_name(tag: &str) -> String {
    tag.trim_start_matches('<')
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// True if an opening tag has the boolean attribute `name`.
fn has_flag(tag: &str, name: &str) -> bool {
    let tag = tag.trim_end_matches(['>', '/']);
    tag.split(' ').any(|part| part == name)
}

/// The value of attribute `name` in an opening tag.
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let from = tag.find(&key)? + key.len();
    let len = tag[from..].find('"')?;
    Some(tag[from..from + len].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slot;
    use maud::html;

    const COUNT: Slot = slot!("test-count");
    const PICK: Slot = slot!("test-pick");

    /// A count in an attribute and a select's value; `wrong` draws one the fill does not
    /// record.
    struct Sample {
        wrong: bool,
    }

    impl Live for Sample {
        type State = (u64, &'static str);

        fn shape(&self, _: &Self::State) -> u64 {
            0
        }

        fn draw(&self, (n, pick): &Self::State, fill: &mut Fill) -> Markup {
            let drawn_n = if self.wrong { n + 1 } else { *n };
            let value = fill.value(PICK, (*pick).to_string()).to_string();
            html! {
                div data-slot=(COUNT) data-n=(drawn_n) { }
                @let _ = fill.attr_text(COUNT, "data-n", n.to_string());
                select data-slot=(PICK) {
                    @for v in ["a", "b"] { option value=(v) selected[v == value] { (v) } }
                }
            }
        }
    }

    const AREA: Slot = slot!("test-area");

    #[test]
    fn a_worked_out_attribute_and_a_select_s_value_are_checked_against_the_markup() {
        assert_eq!(check_drawn(&Sample { wrong: false }, &(7, "b")), Ok(()));
        assert!(check_drawn(&Sample { wrong: true }, &(7, "b")).is_err());
        let mut fill = Fill::default();
        Sample { wrong: false }.draw(&(7, "b"), &mut fill);
        assert_eq!(
            fill.writes()[1].1,
            Write::Data("data-n", Some("7".to_string()))
        );
    }

    /// A text area whose value is its text, drawn `typed` whatever it is filled with.
    struct Area {
        typed: &'static str,
    }

    impl Live for Area {
        type State = &'static str;
        fn shape(&self, _: &&'static str) -> u64 {
            0
        }
        fn draw(&self, v: &&'static str, fill: &mut Fill) -> Markup {
            fill.value(AREA, v.to_string());
            html! { textarea data-slot=(AREA) { (self.typed) } }
        }
    }

    #[test]
    fn a_text_area_shows_its_value_as_its_text() {
        check_drawn(&Area { typed: "a < b" }, &"a < b").unwrap();
        assert!(check_drawn(&Area { typed: "a" }, &"b").is_err());
    }

    const LINK: Slot = crate::slot!("live-test-link");

    /// A link whose address comes from its state, and is absent for none.
    struct Link;
    impl Live for Link {
        type State = Option<String>;
        fn shape(&self, _: &Option<String>) -> u64 {
            0
        }
        fn draw(&self, href: &Option<String>, fill: &mut Fill) -> Markup {
            html! { a data-slot=(LINK) href=[fill.data(LINK, "href", href.clone())] { "x" } }
        }
    }

    #[test]
    fn an_attribute_built_from_the_state_is_drawn_escaped_and_checked() {
        for href in [None, Some("a?b=1&c=\"2\"".to_string())] {
            check_drawn(&Link, &href).unwrap();
        }
        /// Draws another address than it records.
        struct Liar;
        impl Live for Liar {
            type State = ();
            fn shape(&self, _: &()) -> u64 {
                0
            }
            fn draw(&self, _: &(), fill: &mut Fill) -> Markup {
                fill.data(LINK, "href", Some("b".into()));
                html! { a data-slot=(LINK) href="a" {} }
            }
        }
        let why = check_drawn(&Liar, &()).unwrap_err();
        assert!(why.contains("Data(\"href\", Some(\"b\"))"), "{why}");
    }
}
