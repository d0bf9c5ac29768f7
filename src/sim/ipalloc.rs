//! Cluster IPs for Services, as kube-apiserver 1.32 hands them out
//! (pkg/registry/core/service/ipallocator, the bitmap allocator: MultiCIDRServiceAllocator
//! is off by default in 1.32). The demo's service range is kind's, 10.96.0.0/16.
//!
//! The range excludes its network and broadcast addresses. Its lowest
//! `min(max(16, size/16), 256)` addresses are kept for clusterIPs asked for by hand
//! (KEP-3070): a dynamic allocation draws a random place in the upper band and scans up
//! from there for a free address, falling back to the lower band only when the upper one
//! is full (`randomScanStrategyWithOffset`).

use std::collections::BTreeSet;
use std::net::Ipv4Addr;

use rand::RngExt;

use super::rng::SimRng;

/// The service CIDR: 10.96.0.0/16.
const NETWORK: Ipv4Addr = Ipv4Addr::new(10, 96, 0, 0);
const PREFIX: u32 = 16;
pub const RANGE: &str = "10.96.0.0/16";

/// Why an address could not be had, in the allocator's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AllocError {
    #[error("range is full")]
    Full,
    #[error("provided IP is already allocated")]
    Allocated,
    #[error("the provided IP ({0}) is not in the valid range. The range of valid IPs is {RANGE}")]
    NotInRange(String),
}

#[derive(Debug, Clone)]
pub struct ClusterIps {
    /// Offsets from the first usable address.
    taken: BTreeSet<u32>,
    /// Its own random stream: a Service made elsewhere renames no pod and moves no UID.
    rng: SimRng,
}

impl ClusterIps {
    pub fn new(rng: SimRng) -> ClusterIps {
        ClusterIps {
            taken: BTreeSet::new(),
            rng,
        }
    }

    /// Usable addresses: the range less its network and broadcast addresses.
    fn max() -> u32 {
        (1u32 << (32 - PREFIX)) - 2
    }

    /// `calculateRangeOffset`: the size of the lower, static band.
    fn offset() -> u32 {
        ((1u32 << (32 - PREFIX)) / 16).clamp(16, 256)
    }

    fn address(at: u32) -> String {
        Ipv4Addr::from(u32::from(NETWORK) + 1 + at).to_string()
    }

    /// `AllocateNext`: a free address, upper band first.
    pub fn allocate_next(&mut self) -> Result<String, AllocError> {
        let (max, offset) = (Self::max(), Self::offset());
        let upper = max - offset;
        let start = self.rng.random_range(0..upper);
        let found = (0..upper)
            .map(|i| offset + (start + i) % upper)
            .find(|at| !self.taken.contains(at))
            .or_else(|| {
                let start = self.rng.random_range(0..offset);
                (0..offset)
                    .map(|i| (start + i) % offset)
                    .find(|at| !self.taken.contains(at))
            })
            .ok_or(AllocError::Full)?;
        self.taken.insert(found);
        Ok(Self::address(found))
    }

    /// `Allocate`: the address asked for, if it is in range and free.
    pub fn allocate(&mut self, ip: &str) -> Result<(), AllocError> {
        let at = Self::offset_of(ip).ok_or_else(|| AllocError::NotInRange(ip.to_string()))?;
        if !self.taken.insert(at) {
            return Err(AllocError::Allocated);
        }
        Ok(())
    }

    /// `Release`: an address outside the range, or never taken, is ignored.
    pub fn release(&mut self, ip: &str) {
        if let Some(at) = Self::offset_of(ip) {
            self.taken.remove(&at);
        }
    }

    fn offset_of(ip: &str) -> Option<u32> {
        let ip: Ipv4Addr = ip.parse().ok()?;
        let at = u32::from(ip).checked_sub(u32::from(NETWORK) + 1)?;
        (at < Self::max()).then_some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alloc() -> ClusterIps {
        ClusterIps::new(SimRng::seed_from_u64(1))
    }

    #[test]
    fn dynamic_addresses_come_from_the_upper_band_and_never_twice() {
        let mut a = alloc();
        let mut seen = BTreeSet::new();
        for _ in 0..500 {
            let ip: Ipv4Addr = a.allocate_next().unwrap().parse().unwrap();
            // 10.96.0.1 + 256 and up: the static band stays free.
            assert!(
                u32::from(ip) >= u32::from(Ipv4Addr::new(10, 96, 1, 1)),
                "{ip}"
            );
            assert!(
                u32::from(ip) <= u32::from(Ipv4Addr::new(10, 96, 255, 254)),
                "{ip}"
            );
            assert!(seen.insert(ip));
        }
    }

    #[test]
    fn an_address_asked_for_is_checked_for_range_and_reuse_and_freed_on_release() {
        let mut a = alloc();
        assert_eq!(a.allocate("10.96.0.10"), Ok(()));
        assert_eq!(a.allocate("10.96.0.10"), Err(AllocError::Allocated));
        assert_eq!(
            a.allocate("10.97.0.1").unwrap_err().to_string(),
            "the provided IP (10.97.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/16"
        );
        // The network and broadcast addresses are not in the range.
        assert!(a.allocate("10.96.0.0").is_err());
        assert!(a.allocate("10.96.255.255").is_err());
        a.release("10.96.0.10");
        assert_eq!(a.allocate("10.96.0.10"), Ok(()));
    }
}
