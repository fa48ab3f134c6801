//! What the client view's URL says beyond the base: the reader's code ([`Code`]);
//! [`ClientQuery`] is the view's query type.

use super::code::MAX_CODE_BYTES;
use crate::query::read::{Elsewhere, Family, Keys, Pairs, Query};
use crate::shared::format::count;

/// The client view's query: the base and the code.
pub type ClientQuery = Query<Code>;

/// `code=`: a client's code as the client view's link carries it (base64url of its UTF-8
/// text, [`super::code`]), not yet read: only the client view reads it, and shows it,
/// never running it until the reader presses Run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Code(pub Option<String>);

/// The longest `code=` value read, in characters: [`MAX_CODE_BYTES`] of text in
/// base64url.
const MAX_CODE_CHARS: usize = MAX_CODE_BYTES.div_ceil(3) * 4;

/// [`Code`]'s key: every page reads it, and only the client view keeps it.
pub const CODE_KEYS: Keys = Keys {
    names: &["code"],
    elsewhere: Elsewhere::Checked(|key, value| Code::default().read(key, value)),
};

impl Family for Code {
    fn owns(key: &str) -> bool {
        CODE_KEYS.has(key)
    }

    fn read(&mut self, _: &str, value: &str) -> Option<String> {
        let value = value.trim();
        if value.len() <= MAX_CODE_CHARS {
            self.0 = Some(value.to_string());
            return None;
        }
        Some(format!(
            "The code in the link is {} characters long, more than the {} a link may carry; the editor opens on the lab's own client instead.",
            count(value.len() as u64),
            count(MAX_CODE_CHARS as u64)
        ))
    }

    fn write_last(&self, out: &mut Pairs) {
        if let Some(code) = &self.0 {
            out.push("code", code);
        }
    }
}
