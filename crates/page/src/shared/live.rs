//! Live markup: a widget the page layer draws once and whose live parts it fills.
//!
//! A widget's markup and what changes in it are written together, here in the page
//! layer: [`Live::draw`] makes the markup, naming each node that changes with a
//! [`Slot`], and [`Live::fill`] says, for a state of the run, what each of those nodes
//! shows ([`Write`]). The UI has one mechanism for every such widget
//! (`web::shared::live`): it pours the markup once (again only when [`Live::shape`]
//! changes), finds the slotted nodes in one pass, and on each change applies only the
//! writes that differ from the last ones. So a counter that moves rewrites one text node,
//! not the panel, and the UI writes no DOM of its own.
//!
//! The drawn markup is the filled markup: [`Live::draw`] puts in each hole what
//! [`Live::fill`] would write there for the same state, which [`check_drawn`] tests.

use super::slot::Slot;
use maud::Markup;

/// What one live node shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// Its text.
    Text(String),
    /// Whether it has the class.
    Class(&'static str, bool),
    /// An attribute's value.
    Attr(&'static str, &'static str),
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

/// Every write of a widget for one state, in a fixed order: the same holes in the same
/// order for the same [`Live::shape`], so two fills compare write by write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fill {
    writes: Vec<(Hole, Write)>,
}

impl Fill {
    /// Adds that the `index`-th node of `slot` shows `write`.
    pub fn put(&mut self, slot: Slot, index: usize, write: Write) {
        let index = u16::try_from(index).unwrap_or(u16::MAX);
        self.writes.push((Hole { slot, index }, write));
    }

    /// The writes, in order.
    pub fn writes(&self) -> &[(Hole, Write)] {
        &self.writes
    }
}

/// A widget the page layer draws once and fills as the run goes.
pub trait Live {
    /// The state a widget shows.
    type State;
    /// What decides the markup's structure (which nodes exist): the UI draws again only
    /// when it changes.
    type Shape: PartialEq + Clone;

    /// The structure for `state`.
    fn shape(&self, state: &Self::State) -> Self::Shape;
    /// The markup for `state`, each live node named by its slot.
    fn draw(&self, state: &Self::State) -> Markup;
    /// What each live node shows for `state`.
    fn fill(&self, state: &Self::State) -> Fill;
}

/// Checks that `widget` draws for `state` what it fills: each hole's node, found in the
/// drawn markup by its slot and index, already shows the write (a text, a class, an
/// attribute), and `draw` makes as many nodes of each slot as `fill` writes to. The
/// markup is the page layer's own, so a plain scan of it is enough.
pub fn check_drawn<L: Live>(widget: &L, state: &L::State) -> Result<(), String> {
    let drawn = widget.draw(state).into_string();
    for (hole, write) in widget.fill(state).writes() {
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
            Write::Class(class, on) => {
                let classes = attr(&drawn[tag.clone()], "class").unwrap_or_default();
                classes.split(' ').any(|c| c == *class) == *on
            }
            Write::Attr(name, value) => attr(&drawn[tag.clone()], name).as_deref() == Some(value),
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

/// The value of attribute `name` in an opening tag.
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let from = tag.find(&key)? + key.len();
    let len = tag[from..].find('"')?;
    Some(tag[from..from + len].to_string())
}
