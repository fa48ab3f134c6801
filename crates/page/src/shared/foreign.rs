//! The sentences a reader's own client is told when the run cannot take what its code
//! did (`sim::foreign`): a customer that is not the run's, too many requests, a key too
//! long, or a call out of order in the sandbox's harness.

use crate::shared::format::count;
use crate::shared::words::Words;
use sim::foreign::{ApplyError, ForeignError};
use std::fmt;

impl Words for ForeignError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ForeignError::TimeWentBack { now_us, at_us } => write!(
                f,
                "The run's clock cannot go back: a call at {at_us} µs came after {now_us} µs."
            ),
            ForeignError::NoSuchCustomer {
                customer,
                customers,
            } => write!(
                f,
                "id must be a customer from 1 to {}, not {customer}.",
                count(customers.into())
            ),
            ForeignError::TooManyRequests { max } => write!(
                f,
                "The client sent {} requests, the most a run takes ({} per customer): it was stopped there.",
                count(max),
                sim::foreign::MAX_REQUESTS_PER_CUSTOMER
            ),
            ForeignError::BadKey { bytes } => write!(
                f,
                "An idempotency key is 1 to {} bytes, not {bytes}.",
                sim::foreign::MAX_KEY_BYTES
            ),
            ForeignError::NotDue { request } => write!(
                f,
                "Request {request} was not awaiting that: the sandbox's harness called out of order."
            ),
        }
    }
}

impl Words for ApplyError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "The sandbox's account of the run does not add up, so the page shows none of it: ",
        )?;
        match self {
            ApplyError::NoSuchKey(n) => write!(f, "it names key {n}, which it never sent."),
            ApplyError::Refused(e) => e.words(f),
        }
    }
}
