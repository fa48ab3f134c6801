//! Enums whose members have names: strategies, experiments, scenes, fates, limiters and
//! the page's own choices. One macro writes `ALL`, `NAMES`, `as_str`, `Display` and
//! `FromStr` for each, so every lookup by name behaves the same way and fails with the
//! same [`UnknownName`] (the page layer turns it into a sentence).

/// A name that matches no member of an enum: which enum, what was given, and the names
/// there are. The page layer gives it its sentence (`Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// The enum's own name for itself, as in URLs and flags: `strategy`, `experiment`.
    pub what: &'static str,
    /// The text that matched nothing.
    pub given: String,
    /// Every name there is, in order.
    pub names: &'static [&'static str],
}

crate::error_display!(UnknownName, "unknown name");

/// An enum whose members are named (see [`named_enum!`](crate::named_enum)).
pub trait Named: Sized + Copy + 'static {
    /// The enum's own name for itself, as in URLs and flags.
    const WHAT: &'static str;
    /// Every member, in order.
    fn all() -> &'static [Self];
    /// This member's name.
    fn name(self) -> &'static str;

    /// The member called exactly `text`.
    fn by_name(text: &str) -> Result<Self, UnknownName> {
        Self::all()
            .iter()
            .copied()
            .find(|m| m.name() == text)
            .ok_or_else(|| UnknownName {
                what: Self::WHAT,
                given: text.to_string(),
                names: Self::names(),
            })
    }

    /// Every member's name, in order.
    fn names() -> &'static [&'static str];
}

/// Gives a core error type its `Display` (one technical line: what was refused, then the
/// error's data) and `std::error::Error`, for logs and for callers that box errors. What
/// a reader is told is the page layer's, written from the same data.
#[macro_export]
macro_rules! error_display {
    ($t:ty, $what:literal) => {
        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                write!(f, concat!($what, ": {:?}"), self)
            }
        }

        impl ::std::error::Error for $t {}
    };
}

/// Declares an enum with a name for each member:
///
/// ```ignore
/// named_enum! {
///     /// Doc.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum Speed as "speed" {
///         /// Doc.
///         Instant = "instant",
///         X10 = "10x",
///     }
/// }
/// ```
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident as $what:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every member, in order.
            $vis const ALL: [$name; [$($text),+].len()] = [$($name::$variant),+];
            /// Every member's name, in the same order.
            $vis const NAMES: [&'static str; [$($text),+].len()] = [$($text),+];

            /// The name used in URLs, on the command line and in JSON.
            $vis const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl $crate::names::Named for $name {
            const WHAT: &'static str = $what;
            fn all() -> &'static [Self] {
                &$name::ALL
            }
            fn name(self) -> &'static str {
                self.as_str()
            }
            fn names() -> &'static [&'static str] {
                &$name::NAMES
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = $crate::names::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <$name as $crate::names::Named>::by_name(s)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    named_enum! {
        /// A test enum.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Colour as "colour" {
            /// Red.
            Red = "red",
            /// Dark blue.
            DarkBlue = "dark-blue",
        }
    }

    #[test]
    fn names_round_trip_and_unknown_names_say_what_there_is() {
        for c in Colour::ALL {
            assert_eq!(c.as_str().parse::<Colour>(), Ok(c));
            assert_eq!(c.to_string(), c.as_str());
        }
        assert_eq!(Colour::NAMES, ["red", "dark-blue"]);
        let e = "Red".parse::<Colour>().unwrap_err();
        assert_eq!(
            e,
            UnknownName {
                what: "colour",
                given: "Red".into(),
                names: &["red", "dark-blue"],
            }
        );
    }
}
