//! The uniform walk's result: latencies summed over every ordered pair.

/// Zero-load latencies summed over every ordered pair of distinct terminals, split so the
/// sum for any packet length follows: a pair's latency is `base + (M - 1)(1 + saf)` with
/// `saf` the store-and-forward routers on its route.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct UniformSums {
    /// Pairs counted.
    pub pairs: u64,
    /// Sum of the pairs' latencies of a one-flit packet.
    pub base: u64,
    /// Sum of the pairs' store-and-forward routers.
    pub saf: u64,
}

impl UniformSums {
    /// Sum of the pairs' latencies for packets of `length` flits.
    pub fn total(&self, length: u32) -> u64 {
        self.base + u64::from(length.saturating_sub(1)) * (self.pairs + self.saf)
    }

    /// Mean latency for packets of `length` flits (0 without pairs).
    pub fn mean(&self, length: u32) -> f64 {
        if self.pairs == 0 {
            0.0
        } else {
            self.total(length) as f64 / self.pairs as f64
        }
    }
}
