//! How to run a simulation: its configuration and the number of workers it uses.

use crate::error::ConfigError;
use crate::injection::InjectionProcess;
use crate::latency::LatencyDef;
use crate::length::LengthDist;
use crate::stats::distribution::{DEFAULT_PERCENTILES, MAX_PERCENTILES};
use crate::stats::{AutoConfig, Window};
use crate::traffic::TrafficKind;
use flitsim_netlist::Cycle;
use flitsim_router::Stamp;
use serde::Serialize;

/// How to run: traffic, phases, seed, watchdog. Router and channel parameters come from
/// the netlist (apply overrides with `Netlist::set` first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimConfig {
    /// Packets generated per terminal per cycle (Bernoulli probability), in `[0, 1]`.
    /// Default 0.01.
    pub rate: f64,
    /// When packets are generated, for the mean `rate` (`--injection`). Default Bernoulli.
    pub injection: InjectionProcess,
    /// Flits per packet (>= 1) when `length_dist` is `None`. Default 1.
    pub length: u32,
    /// Packet length distribution (`--length M|exp:MEAN|mix:M1,M2,P1`); `None` means the
    /// fixed `length`. Default `None`.
    pub length_dist: Option<LengthDist>,
    /// Destination pattern. Default uniform.
    pub traffic: TrafficKind,
    /// Warm-up cycles before the measurement window. Default 1000.
    pub warmup: u64,
    /// Measurement window length in cycles. Default 10000.
    pub cycles: u64,
    /// At most this many cycles after the window to deliver the measured packets (or,
    /// with `drain_all`, every packet). Default 10000.
    pub drain: u64,
    /// `--drain`: after the window stop generating and run until every generated packet
    /// has been delivered, at most `drain` cycles (the report says whether the limit was
    /// hit). Default off: traffic continues during the drain of the measured packets.
    pub drain_all: bool,
    /// Run seed: every component's random stream derives from it. Default 1.
    pub seed: u64,
    /// Cycles without any flit moving (while flits are in the network and nothing is
    /// scheduled: no flit, credit or reset on a channel, none in a router's pipeline
    /// delay) before the run stops with a deadlock report; 0 disables the watchdog.
    /// Default 2000, whatever the channel latencies and pipeline delays.
    pub watchdog: u64,
    /// Keep a record of every delivered packet (`Simulation::take_deliveries`). Default off.
    pub record_deliveries: bool,
    /// Cycles a packet dropped by a timeout reset waits at its source before it may be
    /// sent again (`--backoff`; paper 003's constant retransmission delay). Default 0.
    pub backoff: u64,
    /// The events packet latency runs between (`--latency-from`, `--latency-to`); the
    /// report's latency, its interval, the warm-up series and the zero-load latency follow
    /// it. Default generation -> tail consumed.
    pub latency: LatencyDef,
    /// `Some`: detect the warm-up and measure to a confidence target (then `warmup` and
    /// `cycles` are ignored); `None`: the fixed window of `warmup` and `cycles`. Default `None`.
    pub auto: Option<AutoConfig>,
    /// End the run as soon as the saturation verdict is reached (the CLI does). Default off.
    pub stop_on_saturation: bool,
    /// Percentiles (percent, each in `(0, 100]`, at most
    /// [`MAX_PERCENTILES`](crate::stats::distribution::MAX_PERCENTILES)) of the
    /// `distributions` report (`--percentiles`). Default 50, 90, 99, 99.9.
    pub percentiles: Vec<f64>,
    /// Worker threads (partitions) at most; 0 = automatic ([`auto_threads`]). The engine
    /// uses no more than [`useful_workers`] allows. Results do not depend on it. Default 1.
    #[serde(skip)]
    pub threads: usize,
    /// Routers stepped per cycle that keep one worker busy: a window of
    /// [`WINDOW_CYCLES`](crate::WINDOW_CYCLES) cycles runs on as many workers as the
    /// previous window's routers stepped per cycle keep busy at this rate (at least one,
    /// at most the partitions); each active worker steps a contiguous group of partitions
    /// while the others sleep, because so little work per cycle costs less than the
    /// barriers between cores. One active worker is a serial window. Decided from integers,
    /// so the decision is deterministic; results never depend on it. 0 = every worker
    /// always, `u64::MAX` = always serial (tests). Default `MIN_PARALLEL_WORK` (64).
    #[serde(skip)]
    pub min_parallel_work: u64,
    /// Check flit and credit conservation over the whole network after every cycle
    /// (`conservation::check`). Default: on in debug builds, off in release builds. A run
    /// with one worker and no checks takes the release path (`parallel::loops::single_worker`: the
    /// partition locked once per run, both phases of a cycle in one pass); tests turn the
    /// checks off in debug builds to cover that path, whose results must be the same.
    #[serde(skip)]
    pub cycle_checks: bool,
}

/// Default of [`SimConfig::min_parallel_work`]. Measured on two cores (docs/performance.md,
/// "Threads 1 vs 2"): two workers lose at 30-34 routers stepped per cycle per worker (torus 8x8 at
/// 0.25, 16x16 at 0.02 flits/terminal/cycle), break even at about 70 (16x16 at 0.05) and
/// win from about 120 (16x16 at 0.13); torus 8x8 therefore always runs serial windows on
/// two workers.
pub const MIN_PARALLEL_WORK: u64 = 64;

/// Routers per worker below which automatic thread counts stop adding workers. From
/// router-cycles/s measured on a 16-core Xeon (uniform traffic at 2.08/k
/// flits/terminal/cycle on a k x k torus, 12-flit packets): the best count was 2 on 16x16
/// (128 routers each), 10 on 32x32 (102 each; 8 gave 20.3 M against 12.8 M at 4) and 16
/// on 64x64 and 128x128 (still rising). On two cores (docs/performance.md, "Threads 1
/// vs 2") two workers gain 1.6x on 16x16. Since a window runs on only the workers its work
/// keeps busy, a partition too many costs little.
pub const ROUTERS_PER_THREAD: usize = 128;

/// The automatic thread count for `routers` routers: the available cores, at most one per
/// [`ROUTERS_PER_THREAD`] routers, at least 1.
pub fn auto_threads(routers: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.min(routers / ROUTERS_PER_THREAD).max(1)
}

/// The workers (partitions) worth having for `threads` asked, `routers` routers and a
/// `min_parallel_work` of `min`: a partition of fewer than `min` routers can never step
/// `min` routers per cycle, so all its windows would run serially and the partition would
/// only cost (two partitions on one thread run about 8% slower than one on torus 8x8).
/// Hence at most `routers / min` workers, at least 1. `min` = 0 (every window parallel)
/// and `u64::MAX` (every window serial) are the forcing modes of tests and measurements:
/// they keep `threads` as asked.
pub fn useful_workers(threads: usize, routers: usize, min: u64) -> usize {
    if min == 0 || min == u64::MAX {
        return threads;
    }
    let most = (routers as u64 / min).max(1);
    threads.min(usize::try_from(most).unwrap_or(usize::MAX))
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            rate: 0.01,
            injection: InjectionProcess::Bernoulli,
            length: 1,
            length_dist: None,
            traffic: TrafficKind::Uniform,
            warmup: 1000,
            cycles: 10_000,
            drain: 10_000,
            drain_all: false,
            seed: 1,
            watchdog: 2000,
            record_deliveries: false,
            backoff: 0,
            latency: LatencyDef::default(),
            auto: None,
            stop_on_saturation: false,
            percentiles: DEFAULT_PERCENTILES.to_vec(),
            threads: 1,
            min_parallel_work: MIN_PARALLEL_WORK,
            cycle_checks: cfg!(debug_assertions),
        }
    }
}

impl SimConfig {
    /// Checks the values that are not the netlist's business.
    ///
    /// # Errors
    /// `RateOutOfRange`, `BadInjection`, `ZeroLength` or `RunTooLong`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(0.0..=1.0).contains(&self.rate) {
            return Err(ConfigError::RateOutOfRange { rate: self.rate });
        }
        self.injection.validate(self.rate)?;
        if self.length == 0 {
            return Err(ConfigError::ZeroLength);
        }
        let bad = self
            .percentiles
            .iter()
            .find(|p| !(**p > 0.0 && **p <= 100.0));
        if bad.is_some() || self.percentiles.len() > MAX_PERCENTILES {
            return Err(ConfigError::BadPercentiles {
                given: self.percentiles.clone(),
            });
        }
        let cycles = self.longest_run();
        if cycles > u128::from(Stamp::LAST.0) {
            return Err(ConfigError::RunTooLong {
                cycles,
                last: Stamp::LAST.0,
            });
        }
        self.lengths().validate()
    }

    /// The most cycles [`Simulation::run`] may simulate: warm-up and measurement (or the
    /// automatic measurement's budget), then the drain.
    pub(crate) fn longest_run(&self) -> u128 {
        let measure = match self.auto {
            Some(auto) => u128::from(auto.max_cycles),
            None => u128::from(self.warmup) + u128::from(self.cycles),
        };
        measure + u128::from(self.drain)
    }

    /// The packet length distribution: `length_dist`, or the fixed `length`.
    pub fn lengths(&self) -> LengthDist {
        self.length_dist.unwrap_or(LengthDist::Fixed(self.length))
    }

    /// The measurement window `[warmup, warmup + cycles)`.
    pub fn window(&self) -> Window {
        Window {
            start: Cycle(self.warmup),
            end: Cycle(self.warmup + self.cycles),
        }
    }
}
