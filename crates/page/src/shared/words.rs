//! Words for readers about the core's types. The core gives each error a short
//! `Display` of its own, for logs and for `std::error::Error`; what a reader is told is
//! written here, from the error's data, by implementing [`Words`]; and a reader's own
//! value, quoted back to them ([`shown`]).

use std::fmt;

/// A core type as readers are told about it: the page, the command line and the HTTP
/// server all say the same sentence.
pub trait Words {
    /// Writes the words.
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// The words, as a value that displays them: `format!("… {}", error.said())`.
    fn said(&self) -> Said<'_, Self>
    where
        Self: Sized,
    {
        Said(self)
    }

    /// The words, as a string.
    fn sentence(&self) -> String
    where
        Self: Sized,
    {
        sentence(self)
    }
}

/// The words of any [`Words`], as a string: one copy of the formatting for every type.
#[inline(never)]
pub fn sentence(words: &dyn Words) -> String {
    Said(words).to_string()
}

/// A value's [`Words`], displayed.
pub struct Said<'a, T: ?Sized>(&'a T);

impl<T: Words + ?Sized> fmt::Display for Said<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.words(f)
    }
}

/// A user's value, made safe to quote in a message: shortened so a huge one cannot flood
/// the page, and with control and text-direction characters replaced by `�` so a value
/// cannot reverse or break the sentence around it.
pub fn shown(value: &str) -> String {
    const MAX_CHARS: usize = 40;
    let mut out: String = value
        .chars()
        .take(MAX_CHARS)
        .map(|c| if is_unsafe_to_quote(c) { '\u{FFFD}' } else { c })
        .collect();
    if value.chars().count() > MAX_CHARS {
        out.push('…');
    }
    out
}

/// Controls, and the invisible marks that change the direction of the text after them.
fn is_unsafe_to_quote(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}
