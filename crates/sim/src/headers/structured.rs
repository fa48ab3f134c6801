//! The RateLimit draft's structured fields, parsed by RFC 9651's rules with `sfv`'s
//! visitors: each value goes straight into the few numbers the reader needs, so neither
//! the parsed tree nor its maps are built (that kept the limits page, whose clients read
//! through the reader too, about 5 KB gzip lighter than `sfv`'s parsed types).
//!
//! RFC 9651's rule for repeats, "the last one wins", holds for dictionary keys and for
//! parameters: a later value overwrites an earlier one here.

use sfv::visitor::{
    DictionaryVisitor, EntryVisitor, Ignored, InnerListVisitor, ItemVisitor, ListVisitor,
    ParameterVisitor,
};
use sfv::{BareItemFromInput, KeyRef, Parser};
use std::convert::Infallible;

/// A structured value where the reader wants a non-negative integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Num {
    /// A non-negative Integer.
    Whole(u64),
    /// Anything else: a negative, a Decimal, a String, a Boolean, an inner list.
    NotWhole,
}

impl Num {
    fn of(v: &BareItemFromInput) -> Num {
        match v.as_integer().map(i64::from).map(u64::try_from) {
            Some(Ok(n)) => Num::Whole(n),
            _ => Num::NotWhole,
        }
    }
}

/// One member of a `RateLimit` List: `"policy";r=..;t=..`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Member {
    /// Its value is a String or a Token (a policy name).
    pub(super) named: bool,
    /// Its `r` parameter.
    pub(super) r: Option<Num>,
    /// Its `t` parameter.
    pub(super) t: Option<Num>,
}

/// The byte where parsing stopped, when the value is not valid RFC 9651.
pub(super) type Syntax = Option<usize>;

/// A `RateLimit` field as a List of policies.
pub(super) fn list(value: &str) -> Result<Vec<Member>, Syntax> {
    Parser::new(value)
        .parse_list_with_visitor(Members(Vec::new()))
        .map_err(|e| e.index())
}

/// Whether a value is a valid List, whatever it holds (`RateLimit-Policy`).
pub(super) fn is_list(value: &str) -> Result<(), Syntax> {
    Parser::new(value)
        .parse_list_with_visitor(Ignored)
        .map_err(|e| e.index())
}

/// The draft 07 Dictionary: `limit`, `remaining`, `reset`, in that order.
pub(super) type Quota = [Option<Num>; 3];

/// A `RateLimit` field as draft 07's Dictionary.
pub(super) fn dictionary(value: &str) -> Result<Quota, Syntax> {
    Parser::new(value)
        .parse_dictionary_with_visitor(Keys([None; 3]))
        .map_err(|e| e.index())
}

/// A field that is one Item (drafts 00–06): its value, parameters ignored.
pub(super) fn item(value: &str) -> Result<Num, Syntax> {
    let mut out = Num::NotWhole;
    Parser::new(value)
        .parse_item_with_visitor(Slot(&mut out))
        .map_err(|e| e.index())?;
    Ok(out)
}

struct Members(Vec<Member>);

impl<'de> ListVisitor<'de> for Members {
    type Out = Vec<Member>;
    type Error = Infallible;

    fn entry(&mut self) -> Result<impl EntryVisitor<'de>, Self::Error> {
        self.0.push(Member::default());
        let last = self.0.len() - 1;
        Ok(&mut self.0[last])
    }

    fn finish(self) -> Result<Self::Out, Self::Error> {
        Ok(self.0)
    }
}

impl<'de> EntryVisitor<'de> for &mut Member {
    type Error = Infallible;

    fn item(self) -> Result<impl ItemVisitor<'de>, Self::Error> {
        Ok(self)
    }

    fn inner_list(self) -> Result<impl InnerListVisitor<'de>, Self::Error> {
        self.named = false;
        Ok(Ignored)
    }
}

impl<'de> ItemVisitor<'de> for &mut Member {
    type Out = ();
    type Error = Infallible;

    fn bare_item(
        self,
        v: BareItemFromInput<'de>,
    ) -> Result<impl ParameterVisitor<'de, Out = ()>, Self::Error> {
        self.named = v.as_string().is_some() || v.as_token().is_some();
        Ok(self)
    }
}

impl<'de> ParameterVisitor<'de> for &mut Member {
    type Out = ();
    type Error = Infallible;

    fn parameter(
        &mut self,
        key: &'de KeyRef,
        v: BareItemFromInput<'de>,
    ) -> Result<(), Self::Error> {
        match key.as_str() {
            "r" => self.r = Some(Num::of(&v)),
            "t" => self.t = Some(Num::of(&v)),
            _ => {}
        }
        Ok(())
    }

    fn finish(self) -> Result<(), Self::Error> {
        Ok(())
    }
}

struct Keys(Quota);

impl<'de> DictionaryVisitor<'de> for Keys {
    type Out = Quota;
    type Error = Infallible;

    fn entry(&mut self, key: &'de KeyRef) -> Result<impl EntryVisitor<'de>, Self::Error> {
        let slot = match key.as_str() {
            "limit" => Some(&mut self.0[0]),
            "remaining" => Some(&mut self.0[1]),
            "reset" => Some(&mut self.0[2]),
            _ => None,
        };
        Ok(slot.map(|s| Slot(s.insert(Num::NotWhole))))
    }

    fn finish(self) -> Result<Self::Out, Self::Error> {
        Ok(self.0)
    }
}

/// Where one value goes.
struct Slot<'a>(&'a mut Num);

impl<'de> EntryVisitor<'de> for Slot<'_> {
    type Error = Infallible;

    fn item(self) -> Result<impl ItemVisitor<'de>, Self::Error> {
        Ok(self)
    }

    fn inner_list(self) -> Result<impl InnerListVisitor<'de>, Self::Error> {
        *self.0 = Num::NotWhole;
        Ok(Ignored)
    }
}

impl<'de> ItemVisitor<'de> for Slot<'_> {
    type Out = ();
    type Error = Infallible;

    fn bare_item(
        self,
        v: BareItemFromInput<'de>,
    ) -> Result<impl ParameterVisitor<'de, Out = ()>, Self::Error> {
        *self.0 = Num::of(&v);
        Ok(Ignored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_repeat_wins_and_quotes_hold_separators() {
        let m = list("\"a,b;c\";r=0;t=5;t=9, tok;r=3").unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(
            m[0],
            Member {
                named: true,
                r: Some(Num::Whole(0)),
                t: Some(Num::Whole(9))
            }
        );
        assert_eq!(m[1].r, Some(Num::Whole(3)));
        assert!(!list("(a b);r=0").unwrap()[0].named);
        assert_eq!(list("\"p\";t=-1").unwrap()[0].t, Some(Num::NotWhole));
        assert_eq!(list("\"p\";t=1.5").unwrap()[0].t, Some(Num::NotWhole));
        assert!(list("\"p\";T=1").is_err());
        assert!(list("\"p\";t=1,").is_err());
        assert!(list("\"p\" ;t=1").is_err());
        assert!(list("\"p\";t=1234567890123456").is_err());
        assert_eq!(
            dictionary("limit=1, remaining=0, reset=5, reset=7"),
            Ok([
                Some(Num::Whole(1)),
                Some(Num::Whole(0)),
                Some(Num::Whole(7))
            ])
        );
        assert_eq!(
            dictionary("remaining"),
            Ok([None, Some(Num::NotWhole), None])
        );
        assert_eq!(item("7;foo=bar"), Ok(Num::Whole(7)));
        assert!(item("7, 8").is_err());
    }
}
