//! A limiter that can be copied: what a store several instances share holds for one
//! caller, reachable two ways. In one step, the store decides, as a script run inside it
//! does: a call on the limiter itself. In two, an instance reads the caller's state (a
//! copy), decides on its copy, and later writes the copy back over whatever the store
//! holds by then.
//!
//! The second way is the classic race: two instances that read the same state before
//! either writes both decide on it, and the later write overwrites the earlier one, so
//! one admission is lost from the count. Every limiter of [`LimiterKind`] can be held
//! this way. (One generic `clone` per limiter is all the copying costs a browser module:
//! the decisions are the limiters' own, through the trait.)

use super::{Boxing, Keyed, Limiter, LimiterError, LimiterKind, Policy, Rule, Scope};

/// A limiter that can copy itself.
pub trait Copyable: Limiter {
    /// A copy, deciding from now on apart from the original.
    fn copied(&self) -> Box<dyn Copyable>;

    /// Itself, as a limiter to ask.
    fn limiter(&mut self) -> &mut dyn Limiter;
}

impl<R: Rule + Clone + 'static> Copyable for Keyed<R> {
    fn copied(&self) -> Box<dyn Copyable> {
        Box::new(self.clone())
    }

    fn limiter(&mut self) -> &mut dyn Limiter {
        self
    }
}

/// Boxes as a [`Copyable`].
struct AsCopyable;

impl Boxing for AsCopyable {
    type Boxed = Box<dyn Copyable>;
    fn boxed<R: Rule + Clone + 'static>(limiter: Keyed<R>) -> Self::Boxed {
        Box::new(limiter)
    }
}

impl LimiterKind {
    /// [`LimiterKind::build`], as a limiter that can be copied: what a shared store holds,
    /// read and written whole by an instance that does not decide inside the store.
    pub fn build_copyable(
        self,
        policy: Policy,
        scope: Scope,
    ) -> Result<Box<dyn Copyable>, LimiterError> {
        self.make::<AsCopyable>(policy, scope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::time::ms;

    #[test]
    fn a_copy_decides_as_the_original_would_and_apart_from_it() {
        for kind in LimiterKind::ALL {
            // In turn: each copy written back before the next read; the same decisions.
            let mut store = kind.build_copyable(POLICY, Scope::PerKey).unwrap();
            let mut alone = kind.build(POLICY, Scope::PerKey).unwrap();
            for i in 0..25 {
                let mut copy = store.copied();
                let d = copy.limiter().check(ms(i * 7), "a", 1);
                assert_eq!(d, alone.check(ms(i * 7), "a", 1), "{kind} {i}");
                store = copy;
            }
            // Interleaved: nine counted, then two reads before either write: both admitted,
            // and the store counts one of them.
            let mut store = kind.build_copyable(POLICY, Scope::PerKey).unwrap();
            for _ in 0..9 {
                assert!(store.limiter().check(0, "b", 1).unwrap().allowed);
            }
            let (mut first, mut second) = (store.copied(), store.copied());
            assert!(first.limiter().check(1, "b", 1).unwrap().allowed, "{kind}");
            assert!(second.limiter().check(2, "b", 1).unwrap().allowed, "{kind}");
            assert!(
                store.limiter().check(2, "b", 1).unwrap().allowed,
                "{kind}: the original untouched"
            );
            // The first write, then the second over it.
            drop(std::mem::replace(&mut store, first));
            store = second;
            assert!(!store.limiter().check(3, "b", 1).unwrap().allowed, "{kind}");
        }
    }
}
