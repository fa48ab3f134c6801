//! One limiter's state held in a store that several instances share, reachable two ways:
//! in one step (the store decides, as a script run inside it does), or in two (an
//! instance reads a caller's state, decides on its own copy, and later writes the copy
//! back over whatever the store holds by then).
//!
//! The second way is the classic race: two instances that read the same state before
//! either writes both decide on it, and the later write overwrites the earlier one, so
//! one admission is lost from the count. Every limiter of [`LimiterKind`] can be held
//! this way, since each is a [`Rule`] with a state per caller that can be copied.

use super::{checked, valid_cost, Decision, Keyed, Limiter, LimiterError, LimiterKind, Policy};
use super::{Boxing, Rule, Scope};

/// A read that has not been written back yet: where its copy waits in the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ticket(usize);

/// A store of limiter states shared by a fleet's instances.
pub trait SharedStore {
    /// The limiter itself: one call decides and records a request, atomically.
    fn limiter(&mut self) -> &mut dyn Limiter;

    /// Reads `key`'s state as it is at `now_us` (fresh if the store has none) and decides
    /// a request of `cost` on that copy, which waits under the returned ticket until it is
    /// written back or dropped. The store itself is unchanged.
    fn read_and_decide(
        &mut self,
        now_us: u64,
        key: &str,
        cost: u32,
    ) -> Result<(Decision, u64, Ticket), LimiterError>;

    /// Writes the copy of `ticket` back over `key`'s state, whatever the store holds now.
    fn write(&mut self, ticket: Ticket);

    /// Drops the copy of `ticket` without writing it (a refused request changes nothing).
    fn drop_copy(&mut self, ticket: Ticket);

    /// Copies read and not yet written back or dropped.
    fn pending(&self) -> usize;
}

/// A limiter and the copies read from it.
struct Copies<R: Rule> {
    keyed: Keyed<R>,
    copies: Vec<Option<(String, R::State)>>,
}

impl<R: Rule> SharedStore for Copies<R> {
    fn limiter(&mut self) -> &mut dyn Limiter {
        &mut self.keyed
    }

    fn read_and_decide(
        &mut self,
        now_us: u64,
        key: &str,
        cost: u32,
    ) -> Result<(Decision, u64, Ticket), LimiterError> {
        let capacity = self.keyed.rule.capacity();
        valid_cost(cost, capacity)?;
        let mut copy = self.keyed.state(now_us, key).clone();
        let (d, delay_us) = self.keyed.rule.decide(&mut copy, now_us, cost);
        let (d, delay_us) = checked(d, delay_us, capacity);
        // A slot freed by an earlier write or drop is used again.
        let at = match self.copies.iter().position(Option::is_none) {
            Some(at) => at,
            None => {
                self.copies.push(None);
                self.copies.len() - 1
            }
        };
        self.copies[at] = Some((key.to_owned(), copy));
        Ok((d, delay_us, Ticket(at)))
    }

    fn write(&mut self, ticket: Ticket) {
        let Some((key, copy)) = self.copies.get_mut(ticket.0).and_then(Option::take) else {
            debug_assert!(false, "ticket {} written twice", ticket.0);
            return;
        };
        let rule = &self.keyed.rule;
        let fresh = || rule.fresh(0);
        *self.keyed.callers.state(&key, fresh) = copy;
    }

    fn drop_copy(&mut self, ticket: Ticket) {
        let taken = self.copies.get_mut(ticket.0).and_then(Option::take);
        debug_assert!(taken.is_some(), "ticket {} dropped twice", ticket.0);
    }

    fn pending(&self) -> usize {
        self.copies.iter().filter(|c| c.is_some()).count()
    }
}

/// Boxes as a [`SharedStore`].
struct AsShared;

impl Boxing for AsShared {
    type Boxed = Box<dyn SharedStore>;
    fn boxed<R: Rule + 'static>(limiter: Keyed<R>) -> Self::Boxed {
        Box::new(Copies {
            keyed: limiter,
            copies: Vec::new(),
        })
    }
}

impl LimiterKind {
    /// [`LimiterKind::build`], as a store several instances share, which each can call in
    /// one step or read and write in two ([`SharedStore`]).
    pub fn build_shared(
        self,
        policy: Policy,
        scope: Scope,
    ) -> Result<Box<dyn SharedStore>, LimiterError> {
        self.make::<AsShared>(policy, scope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::time::ms;

    #[test]
    fn one_step_calls_are_the_limiter_itself() {
        for kind in LimiterKind::ALL {
            let mut store = kind.build_shared(POLICY, Scope::PerKey).unwrap();
            let mut alone = kind.build(POLICY, Scope::PerKey).unwrap();
            for i in 0..25 {
                assert_eq!(
                    store.limiter().check(ms(i * 7), "a", 1),
                    alone.check(ms(i * 7), "a", 1),
                    "{kind} {i}"
                );
            }
        }
    }

    #[test]
    fn reading_then_writing_in_turn_is_the_limiter_and_interleaved_loses_a_count() {
        for kind in LimiterKind::ALL {
            // In turn: each read written back before the next; the same decisions.
            let mut store = kind.build_shared(POLICY, Scope::PerKey).unwrap();
            let mut alone = kind.build(POLICY, Scope::PerKey).unwrap();
            for i in 0..25 {
                let (d, _, t) = store.read_and_decide(ms(i * 7), "a", 1).unwrap();
                assert_eq!(Ok(d), alone.check(ms(i * 7), "a", 1), "{kind} {i}");
                if d.allowed {
                    store.write(t);
                } else {
                    store.drop_copy(t);
                }
            }
            assert_eq!(store.pending(), 0);
            // Interleaved: nine counted, then two reads before either write: both admitted,
            // and the store counts one of them.
            let mut store = kind.build_shared(POLICY, Scope::PerKey).unwrap();
            for _ in 0..9 {
                assert!(store.limiter().check(0, "b", 1).unwrap().allowed);
            }
            let (first, _, t1) = store.read_and_decide(1, "b", 1).unwrap();
            let (second, _, t2) = store.read_and_decide(2, "b", 1).unwrap();
            assert!(first.allowed && second.allowed, "{kind}");
            assert_eq!(store.pending(), 2);
            store.write(t1);
            store.write(t2);
            assert!(!store.limiter().check(3, "b", 1).unwrap().allowed, "{kind}");
            assert_eq!(store.pending(), 0);
            assert_eq!(
                store.read_and_decide(3, "b", 0).unwrap_err(),
                LimiterError::ZeroCost
            );
        }
    }
}
