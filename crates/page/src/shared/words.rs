//! Words for readers about the core's types. The core gives each error a short
//! `Display` of its own, for logs and for `std::error::Error`; what a reader is told is
//! written here, from the error's data, by implementing [`Words`].

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
