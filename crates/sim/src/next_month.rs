//! Next month's charge: the same customers charged again a month later, by a provider
//! that may still hold last month's idempotency keys.
//!
//! A key names one operation, not a customer. A client that names its keys after the
//! customer sends next month's charge under last month's key, and a provider that still
//! holds it takes the request for a retry: with the same body it answers last month's
//! 200 again and moves no money (a charge lost, the customer told it was made); with
//! another body (a customer whose price changed) it refuses the key with 422. A client
//! that names its keys after the operation sends a new key, and next month's run is this
//! month's run again (the same seed, so the same dice). A key time to live shorter than
//! the month hides the mistake: last month's keys are gone by then.
//!
//! [`Simulation`](super::Simulation) runs last month first, to its end, and hands its
//! answered keys to next month's provider as [`MONTH_US`] old
//! ([`Provider::carry_keys`](super::provider::Provider::carry_keys)).

use super::provider::BodyPrint;
use super::time::secs;
use serde::{Deserialize, Serialize};

crate::named_enum! {
    /// Which of a customer's charges a run sends.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum ChargeRound as "charge" {
        /// The first: the provider has seen none of these customers before.
        #[default]
        First = "first",
        /// Next month's: the provider still holds the keys of last month's run (the same
        /// run, one round earlier).
        NextMonth = "next-month",
    }
}

/// How long after last month's run next month's begins: 30 days.
pub const MONTH_US: u64 = secs(30 * 24 * 3_600);

/// What a month's charge is, in cents.
pub const PRICE_CENTS: u64 = 1_000;

/// Next month, customers whose id is a multiple of this pay [`NEW_PRICE_CENTS`]: their
/// plan changed, so their charge's body is not last month's.
pub const NEW_PRICE_EVERY: u32 = 10;

/// What those customers pay next month, in cents.
pub const NEW_PRICE_CENTS: u64 = 1_500;

/// What `customer` is charged in `round`, in cents.
pub fn amount_cents(customer: u32, round: ChargeRound) -> u64 {
    match round {
        ChargeRound::NextMonth if customer.is_multiple_of(NEW_PRICE_EVERY) => NEW_PRICE_CENTS,
        _ => PRICE_CENTS,
    }
}

/// The fingerprint of the body `customer`'s charge is sent with in `round`.
pub fn print(customer: u32, round: ChargeRound) -> BodyPrint {
    BodyPrint::of_charge(customer.into(), Some(amount_cents(customer, round)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_changed_price_changes_the_body() {
        assert_eq!(
            print(7, ChargeRound::First),
            print(7, ChargeRound::NextMonth)
        );
        assert_ne!(
            print(20, ChargeRound::First),
            print(20, ChargeRound::NextMonth)
        );
        assert_ne!(print(7, ChargeRound::First), print(8, ChargeRound::First));
    }
}
