//! The uniform mean of a large network without a closed form, from a random sample of
//! pairs, with its 95% confidence interval.
//!
//! Above [`EXACT_MAX_TERMINALS`] terminals the walk over every ordered pair (O(pairs)) is
//! replaced by [`SAMPLE_PAIRS`] ordered pairs of distinct terminals drawn uniformly with
//! replacement. Pair `i` comes from a hash of [`SAMPLE_SEED`] and `i`, so the sample is
//! the same for any run seed and thread count. The interval is the normal one,
//! `1.96 s / sqrt(K)` with `s` the sample standard deviation and `K` the pairs drawn.

use super::route::zero_load_route;
use super::sums::UniformSums;
use crate::setup_progress::SetupProgress;
use flitsim_netlist::{Netlist, RouterId, Switching, TerminalId};
use flitsim_routing::RoutingFunction;

/// Most terminals whose uniform mean is walked exactly (16.8 M ordered pairs, about 0.2 s
/// under dimension-order routing and 0.6 s under others on one core).
pub const EXACT_MAX_TERMINALS: usize = 4096;

/// Pairs drawn above [`EXACT_MAX_TERMINALS`].
pub const SAMPLE_PAIRS: u64 = 1 << 16;

/// Seed of the pairs drawn.
pub const SAMPLE_SEED: u64 = 0x5eed_2e60_1a7e_0001;

/// z of a two-sided 95% normal interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Sums over sampled pairs of `b`, a pair's latency for a one-flit packet, and `k`, what
/// each further flit adds (`1 +` its store-and-forward routers): a pair's latency for `M`
/// flits is `b + (M - 1) k`.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SampledSums {
    /// Pairs drawn.
    pub pairs: u64,
    b: u128,
    k: u128,
    bb: u128,
    kk: u128,
    bk: u128,
}

impl SampledSums {
    /// The sums over `pairs` ordered pairs of distinct terminals of `netlist` drawn from
    /// `seed` (0 pairs with fewer than 2 terminals), telling `progress` of every 1,024
    /// pairs drawn.
    ///
    /// # Panics
    /// As [`zero_load_route`], for a broken routing function.
    pub fn draw(
        netlist: &Netlist,
        routing: &dyn RoutingFunction,
        pairs: u64,
        seed: u64,
        progress: &dyn SetupProgress,
    ) -> SampledSums {
        let n = netlist.num_terminals() as u64;
        let mut sums = SampledSums::default();
        if n < 2 {
            return sums;
        }
        for i in 0..pairs {
            let h = splitmix(seed ^ splitmix(i));
            let s = h % n;
            let mut d = splitmix(h) % (n - 1);
            if d >= s {
                d += 1;
            }
            let (b, k) = pair_terms(netlist, routing, TerminalId(s as u32), TerminalId(d as u32));
            sums.add(b, k);
            if i % 1024 == 1023 {
                progress.advance(1024);
            }
        }
        sums
    }

    fn add(&mut self, b: u64, k: u64) {
        let (b, k) = (u128::from(b), u128::from(k));
        self.pairs += 1;
        self.b += b;
        self.k += k;
        self.bb += b * b;
        self.kk += k * k;
        self.bk += b * k;
    }

    /// Sample mean latency for packets of mean length `length` flits (0 without pairs).
    pub fn mean(&self, length: f64) -> f64 {
        if self.pairs == 0 {
            return 0.0;
        }
        (self.b as f64 + (length - 1.0) * self.k as f64) / self.pairs as f64
    }

    /// Half-width of the 95% confidence interval of [`SampledSums::mean`] at `length`
    /// (0 with fewer than 2 pairs).
    pub fn ci95(&self, length: f64) -> f64 {
        if self.pairs < 2 {
            return 0.0;
        }
        let m = length - 1.0;
        let k = self.pairs as f64;
        let sum = self.b as f64 + m * self.k as f64;
        let squares = self.bb as f64 + 2.0 * m * self.bk as f64 + m * m * self.kk as f64;
        let variance = ((squares - sum * sum / k) / (k - 1.0)).max(0.0);
        Z95 * (variance / k).sqrt()
    }
}

/// The uniform mean over ordered pairs of distinct terminals: walked or sampled.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum UniformMean {
    /// Every pair (closed form or walk).
    Exact(UniformSums),
    /// A sample of pairs.
    Sampled(SampledSums),
}

impl UniformMean {
    /// The exact sums (closed form, or the walk on up to `threads` workers) up to
    /// [`EXACT_MAX_TERMINALS`] terminals or with a closed form; a sample above.
    pub fn of_threads(
        netlist: &Netlist,
        routing: &dyn RoutingFunction,
        threads: usize,
        progress: &dyn SetupProgress,
    ) -> UniformMean {
        UniformMean::below(netlist, routing, threads, EXACT_MAX_TERMINALS, progress)
    }

    /// [`UniformMean::of_threads`] with `exact_max` in place of [`EXACT_MAX_TERMINALS`].
    pub(super) fn below(
        netlist: &Netlist,
        routing: &dyn RoutingFunction,
        threads: usize,
        exact_max: usize,
        progress: &dyn SetupProgress,
    ) -> UniformMean {
        if let Some(sums) = super::closed_form::uniform_sums(netlist, routing) {
            return UniformMean::Exact(sums);
        }
        if netlist.num_terminals() <= exact_max {
            return UniformMean::Exact(UniformSums::of_threads(netlist, routing, threads));
        }
        progress.start(
            "computing the zero-load latency from a sample of pairs",
            SAMPLE_PAIRS,
        );
        UniformMean::Sampled(SampledSums::draw(
            netlist,
            routing,
            SAMPLE_PAIRS,
            SAMPLE_SEED,
            progress,
        ))
    }

    /// Mean latency for packets of `length` flits.
    pub fn mean(&self, length: u32) -> f64 {
        match self {
            UniformMean::Exact(s) => s.mean(length),
            UniformMean::Sampled(s) => s.mean(f64::from(length)),
        }
    }

    /// Half-width of the 95% interval at mean length `length`; `None` when exact.
    pub fn ci95(&self, length: f64) -> Option<f64> {
        match self {
            UniformMean::Exact(_) => None,
            UniformMean::Sampled(s) => Some(s.ci95(length)),
        }
    }
}

/// `(b, k)` of one pair: its latency for a one-flit packet and per further flit.
fn pair_terms(
    netlist: &Netlist,
    routing: &dyn RoutingFunction,
    src: TerminalId,
    dst: TerminalId,
) -> (u64, u64) {
    let route = zero_load_route(netlist, routing, src, dst);
    let lt = |r: RouterId| u64::from(netlist.router(r).terminal_latency);
    let mut b = 0;
    let mut k = 1;
    for &r in &route.routers {
        let c = &netlist.router(r).config;
        b +=
            u64::from(c.routing_delay + c.vc_alloc_delay + c.switch_alloc_delay + c.crossbar_delay);
        k += u64::from(c.switching == Switching::Saf);
    }
    b += route
        .channel_latencies
        .iter()
        .map(|&l| u64::from(l))
        .sum::<u64>();
    let first = route.routers[0];
    let last = *route.routers.last().expect("a route visits a router");
    (b + lt(first) + lt(last), k)
}

/// SplitMix64's output function: a well-mixed 64-bit hash.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
