//! What a fleet is made of, and which fleets are refused.
//!
//! Each instance holds the limit in one of six ways ([`FleetMode`]). Two combinations
//! are refused, each with its own error rather than a quiet substitute:
//!
//! - a 1/N share ([`FleetMode::Share`]) over more instances than the limit has
//!   requests: some instance's share would be nothing, and a limit of nothing is not a
//!   limit any of the lab's limiters can hold;
//! - the cache of callers already over their limit ([`FleetMode::Cache`]) in front of the
//!   concurrency limit ([`LimiterKind::Inflight`]): the cache keeps a refused caller out
//!   until its limit would let it in again, and a concurrency limit lets a caller in again
//!   when one of its requests finishes, which no instance knows in advance (the lab's
//!   concurrency limit is told each hold up front only because it is a simulation).

use crate::limiter::{LimiterError, LimiterKind, Policy};
use crate::rng::mix64;
use crate::time::secs;
use serde::{Deserialize, Serialize};

/// The most instances a fleet may have.
pub const MAX_INSTANCES: u32 = 16;

/// The longest round trip to the store (or hop to an owner).
pub const MAX_RTT_US: u64 = secs(1);

crate::named_enum! {
    /// How each instance holds the limit.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum FleetMode as "fleet mode" {
        /// Each instance holds the whole limit, alone.
        Local = "local",
        /// Each instance holds a 1/N share of the limit, alone.
        Share = "share",
        /// A shared store, read, decided on, then written: two steps that interleave.
        ReadThenWrite = "read-then-write",
        /// A shared store, decided inside it in one step (a script).
        Atomic = "atomic",
        /// The atomic store, with each instance's cache of callers already over their
        /// limit, answered without asking the store until the limit would reopen.
        Cache = "cache",
        /// Each caller's limit held by one owner instance, found by hashing the caller;
        /// the others forward to it, one hop away.
        Owner = "owner",
    }
}

crate::named_enum! {
    /// How the balancer picks an instance for a request.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Balancer as "balancer" {
        /// Each instance in turn.
        RoundRobin = "round-robin",
        /// Any instance, drawn from the seed.
        Random = "random",
        /// The instance the caller's name hashes to: one caller, one instance.
        Hash = "hash",
    }
}

impl FleetMode {
    /// True for the modes that keep the limit in a store every instance calls.
    pub const fn uses_store(self) -> bool {
        matches!(
            self,
            FleetMode::ReadThenWrite | FleetMode::Atomic | FleetMode::Cache
        )
    }
}

/// One fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetSetup {
    /// The limiter every instance (or the store, or each owner) runs.
    pub limiter: LimiterKind,
    /// The limit published for each caller: the fleet as a whole should hold it.
    pub policy: Policy,
    /// Instances, 1 to [`MAX_INSTANCES`].
    pub instances: u32,
    /// How requests are spread over them.
    pub balancer: Balancer,
    /// How each holds the limit.
    pub mode: FleetMode,
    /// A round trip to the store; for [`FleetMode::Owner`], a round trip to a peer (a
    /// forwarded request reaches its owner half of it later).
    pub rtt_us: u64,
}

/// Why a fleet cannot run (the page layer writes the sentence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "refused")]
pub enum FleetError {
    /// Fewer than 1 or more than [`MAX_INSTANCES`] instances.
    Instances {
        /// The number given.
        instances: u32,
    },
    /// A round trip longer than [`MAX_RTT_US`].
    Rtt {
        /// The round trip given.
        rtt_us: u64,
    },
    /// A 1/N share over more instances than the limit has requests.
    ShareBelowOne {
        /// The limit.
        limit: u32,
        /// The instances.
        instances: u32,
    },
    /// The cache of callers over their limit, in front of a concurrency limit.
    CacheOfInflight,
    /// The limiter refuses the policy or a request, for its own reason.
    #[serde(skip)]
    Limiter(LimiterError),
}

crate::error_display!(FleetError, "fleet refused");

impl FleetSetup {
    /// Checks the numbers and the combination.
    pub fn check(&self) -> Result<(), FleetError> {
        self.policy.check().map_err(FleetError::Limiter)?;
        if !(1..=MAX_INSTANCES).contains(&self.instances) {
            return Err(FleetError::Instances {
                instances: self.instances,
            });
        }
        if self.rtt_us > MAX_RTT_US {
            return Err(FleetError::Rtt {
                rtt_us: self.rtt_us,
            });
        }
        if self.mode == FleetMode::Share && self.instances > self.policy.limit {
            return Err(FleetError::ShareBelowOne {
                limit: self.policy.limit,
                instances: self.instances,
            });
        }
        if self.mode == FleetMode::Cache && self.limiter == LimiterKind::Inflight {
            return Err(FleetError::CacheOfInflight);
        }
        Ok(())
    }

    /// Instance `i`'s policy: the whole limit, or for [`FleetMode::Share`] its share, the
    /// limit divided as evenly as whole requests allow (the first `limit % N` instances
    /// hold one more), so that the shares add up to the limit exactly.
    pub fn policy_of(&self, i: u32) -> Policy {
        if self.mode != FleetMode::Share {
            return self.policy;
        }
        let n = self.instances;
        let limit = self.policy.limit / n + u32::from(i < self.policy.limit % n);
        Policy {
            limit,
            ..self.policy
        }
    }
}

/// The hash of a caller's name: FNV-1a, then SplitMix64's mixer, so that close names
/// land far apart.
pub fn caller_hash(caller: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in caller.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    mix64(h)
}

/// The instance `caller` hashes to among `instances`: its owner, and where the hash
/// balancer sends it.
pub fn home(caller: &str, instances: u32) -> u32 {
    (caller_hash(caller) % u64::from(instances.max(1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::ARTICLE_POLICY;

    fn setup(mode: FleetMode, instances: u32) -> FleetSetup {
        FleetSetup {
            limiter: LimiterKind::Bucket,
            policy: ARTICLE_POLICY,
            instances,
            balancer: Balancer::RoundRobin,
            mode,
            rtt_us: 1_000,
        }
    }

    #[test]
    fn shares_add_up_to_the_limit() {
        for n in 1..=10 {
            let s = setup(FleetMode::Share, n);
            let total: u32 = (0..n).map(|i| s.policy_of(i).limit).sum();
            assert_eq!(total, 10, "{n}");
            assert!((0..n).all(|i| s.policy_of(i).limit >= 1));
        }
        assert_eq!(setup(FleetMode::Local, 4).policy_of(3), ARTICLE_POLICY);
    }

    #[test]
    fn refused_combinations_say_which() {
        assert_eq!(
            setup(FleetMode::Share, 11).check(),
            Err(FleetError::ShareBelowOne {
                limit: 10,
                instances: 11
            })
        );
        assert!(setup(FleetMode::Local, 16).check().is_ok());
        assert_eq!(
            setup(FleetMode::Local, 17).check(),
            Err(FleetError::Instances { instances: 17 })
        );
        assert_eq!(
            setup(FleetMode::Local, 0).check(),
            Err(FleetError::Instances { instances: 0 })
        );
        let mut s = setup(FleetMode::Cache, 4);
        s.limiter = LimiterKind::Inflight;
        assert_eq!(s.check(), Err(FleetError::CacheOfInflight));
        s.mode = FleetMode::Atomic;
        assert!(s.check().is_ok());
        s.rtt_us = MAX_RTT_US + 1;
        assert_eq!(
            s.check(),
            Err(FleetError::Rtt {
                rtt_us: MAX_RTT_US + 1
            })
        );
    }

    #[test]
    fn the_hash_spreads_callers_and_keeps_each_in_place() {
        let homes: Vec<u32> = ["acme", "bakery", "clinic", "dentist"]
            .iter()
            .map(|c| home(c, 4))
            .collect();
        assert_eq!(homes, homes.clone());
        assert!(homes.iter().all(|&h| h < 4));
        assert_eq!(home("acme", 1), 0);
        assert_ne!(caller_hash("acme"), caller_hash("acmf"));
    }
}
