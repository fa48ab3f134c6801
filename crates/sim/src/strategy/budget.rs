//! budget: headers, plus a retry budget shared by every charge.
//!
//! The numbers are the AWS SDKs' "standard" retry mode's retry quota: a bucket of 500
//! tokens; a retry costs 5 tokens, or 10 after a timeout; a success on the first try
//! puts 1 token back, and a success after a retry puts back what that retry cost. A
//! retry the bucket cannot pay for is not sent: that charge gives up and says so
//! (`budgetExhausted`). When the provider is down, the bucket runs dry after about a
//! hundred retries, and the client stops adding to the load.

use super::{headers, ClientParams, ClientPlan};
use serde::{Deserialize, Serialize};

/// A retry quota's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryQuota {
    /// Tokens in a full bucket, and at the start.
    pub capacity: u32,
    /// What a retry costs.
    pub retry_cost: u32,
    /// What a retry after a timeout costs.
    pub timeout_cost: u32,
    /// What a first-try success puts back.
    pub success_refund: u32,
}

/// The AWS SDK standard retry mode's quota (`RETRY_COST` 5, `TIMEOUT_RETRY_COST` 10,
/// `NO_RETRY_INCREMENT` 1, initial quota 500).
pub const AWS_STANDARD: RetryQuota = RetryQuota {
    capacity: 500,
    retry_cost: 5,
    timeout_cost: 10,
    success_refund: 1,
};

/// The bucket as it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuotaBucket {
    quota: RetryQuota,
    tokens: u32,
}

impl QuotaBucket {
    /// A full bucket.
    pub fn new(quota: RetryQuota) -> Self {
        Self {
            quota,
            tokens: quota.capacity,
        }
    }

    /// Tokens left.
    pub fn tokens(&self) -> u32 {
        self.tokens
    }

    /// Pays for a retry (after a timeout if `timed_out`); `None` if the bucket cannot,
    /// otherwise what it cost.
    pub fn take(&mut self, timed_out: bool) -> Option<u32> {
        let cost = if timed_out {
            self.quota.timeout_cost
        } else {
            self.quota.retry_cost
        };
        self.tokens = self.tokens.checked_sub(cost)?;
        Some(cost)
    }

    /// A success: after a retry that cost `last_cost`, or on the first try (`None`).
    pub fn refund(&mut self, last_cost: Option<u32>) {
        let back = last_cost.unwrap_or(self.quota.success_refund);
        self.tokens = (self.tokens + back).min(self.quota.capacity);
    }
}

/// Headers, plus the AWS standard retry quota.
pub fn plan(p: &ClientParams) -> ClientPlan {
    ClientPlan {
        retry_quota: Some(AWS_STANDARD),
        ..headers::plan(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_pays_refunds_and_runs_dry_as_the_sdk_does() {
        let mut b = QuotaBucket::new(AWS_STANDARD);
        assert_eq!(b.take(false), Some(5));
        assert_eq!(b.take(true), Some(10));
        assert_eq!(b.tokens(), 485);
        b.refund(Some(10));
        assert_eq!(b.tokens(), 495);
        b.refund(None);
        b.refund(None);
        assert_eq!(b.tokens(), 497);
        b.refund(Some(5));
        assert_eq!(b.tokens(), 500, "never above the capacity");
        let retries = std::iter::from_fn(|| b.take(false)).count();
        assert_eq!(retries, 100);
        assert_eq!(b.take(false), None);
    }
}
