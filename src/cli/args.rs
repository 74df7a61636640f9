//! Flags shared by the subcommands that simulate (`run`, and later `sweep`, `trace`,
//! `buffers`, `check`): which netlist, what to override in it, and how to drive it.

use crate::studies::trace_window::trace_window;
use anyhow::anyhow;
use clap::Args;
use flitsim_engine::stats::AutoConfig;
use flitsim_engine::{
    InjectionProcess, LatencyDef, LatencyFrom, LatencyTo, LengthDist, SimConfig, TrafficKind,
};
use flitsim_netlist::Netlist;
use std::path::{Path, PathBuf};

/// The simulation flags.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Netlist file (TOML): a generator (`torus`, `mesh`, `hypercube`, `ring`, `dragonfly`, `hyperx`) or explicit routers and channels.
    pub netlist: PathBuf,

    /// Routing function for every router (`dor`, `dor-nodateline`, ...); overrides the netlist.
    #[arg(long, value_name = "R")]
    pub routing: Option<String>,

    /// Destination pattern: `uniform` (over the other terminals), `uniform-all`,
    /// `fixed-distance:L`, `hotspot:T[,T...]:FRACTION`, `transpose`, `bit-complement`,
    /// `bit-reversal`, `shuffle`, `tornado`, `neighbor`, `permutation`, `group-shift`,
    /// `trace:FILE`, `netrace:FILE` (a bzip2-compressed netrace 1.0 trace, replayed with its
    /// dependencies).
    #[arg(long, value_name = "P", default_value = "uniform")]
    pub traffic: String,

    /// Offered load: packets generated per terminal per cycle (Bernoulli), in [0, 1].
    #[arg(
        long,
        value_name = "L",
        default_value_t = 0.01,
        allow_negative_numbers = true
    )]
    pub rate: f64,

    /// Injection process at the mean `--rate`: `bernoulli` (one independent trial per
    /// cycle) or `onoff:ALPHA:BETA` (BookSim's on/off source: off -> on with probability
    /// ALPHA, on -> off with BETA, each cycle; a packet with probability
    /// rate (ALPHA + BETA) / ALPHA in a cycle that is on).
    #[arg(long, value_name = "P", default_value = "bernoulli")]
    pub injection: String,

    /// Packet length in flits: `M` (>= 1), `exp:MEAN` (exponential, rounded, at least 1)
    /// or `mix:M1,M2,P1` (M1 flits with probability P1, else M2).
    #[arg(
        long,
        value_name = "M",
        default_value = "1",
        allow_negative_numbers = true
    )]
    pub length: String,

    /// Switching technique for every router (`wormhole`, `vct`, `saf`); overrides the netlist.
    #[arg(long, value_name = "S")]
    pub switching: Option<String>,

    /// Timeout reset (paper 003) on every router: drop a head that waited C cycles for an
    /// output VC and reset its packet back to the source (0: off); overrides the netlist.
    #[arg(long, value_name = "C", value_parser = whole::<u32>, allow_negative_numbers = true)]
    pub timeout: Option<u32>,

    /// Cycles a packet dropped by a timeout waits at its source before it is sent again.
    #[arg(long, value_name = "C", default_value_t = 0, value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub backoff: u64,

    /// Fixed warm-up cycles before measurement starts (default: detected by MSER-5; with
    /// only `--cycles` given, 1000).
    #[arg(long, value_name = "C", value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub warmup: Option<u64>,

    /// Fixed measurement window in cycles: packets generated in it are measured (default:
    /// until the latency's 95% confidence half-width meets `--ci-target`; with only
    /// `--warmup` given, 10000).
    #[arg(long, value_name = "C", value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub cycles: Option<u64>,

    /// Target relative half-width of the mean latency's 95% confidence interval
    /// (automatic measurement, without `--warmup`/`--cycles`).
    #[arg(
        long,
        value_name = "F",
        default_value_t = 0.02,
        allow_negative_numbers = true
    )]
    pub ci_target: f64,

    /// Cycle budget of warm-up plus measurement (automatic measurement).
    #[arg(long, value_name = "C", default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_cycles: u64,

    /// Percentiles of latency, network latency and source-queue time (`distributions` in `--json`), in percent.
    #[arg(long, value_name = "P,..", value_delimiter = ',', default_values_t = [50.0, 90.0, 99.0, 99.9])]
    pub percentiles: Vec<f64>,

    /// Add per-channel statistics (`channels`: utilisation, P(v) of busy VCs, head
    /// arrival rate, VC holding time) and their averages by class (`channel_classes`) to `--json`.
    #[arg(long)]
    pub channel_stats: bool,

    /// Area, energy and power options (docs/power.md).
    #[command(flatten)]
    pub cost: super::cost_args::CostArgs,

    /// At most this many cycles after the window to deliver the measured packets (with
    /// `--drain`: every packet).
    #[arg(long, value_name = "C", default_value_t = 10_000, value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub drain_cycles: u64,

    /// After the window stop generating and run until every generated packet is
    /// delivered (at most `--drain-cycles` cycles; the report says if the limit was hit).
    #[arg(long)]
    pub drain: bool,

    /// End a fixed window (`--warmup`/`--cycles`) early when the saturation verdict says
    /// the source queues grow without bound (the automatic measurement always does).
    #[arg(long)]
    pub stop_when_saturated: bool,

    /// Seed of every component's random stream (same seed, same results).
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub seed: u64,

    /// Stop with a deadlock report when flits are in the network, none moves for C cycles and none is on a channel or in a pipeline delay (0: never).
    #[arg(long, value_name = "C", default_value_t = 2000, value_parser = whole::<u64>, allow_negative_numbers = true)]
    pub watchdog: u64,

    /// Override a router or channel parameter of the netlist, e.g. `--set vcs=8 --set channel_latency=2`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,

    /// Print one JSON object (fields documented in docs/run-output.md) instead of a summary.
    #[arg(long)]
    pub json: bool,

    /// Worker threads at most (results do not depend on it): never more than the available
    /// cores, nor one per 64 routers, since smaller partitions cannot gain (`perf.threads`
    /// says how many ran). Default: the available cores, at most one per 128 routers.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,

    /// Expert: routers stepped per cycle per worker below which a window of cycles runs on
    /// one thread while the other workers sleep (0: always parallel; results do not depend
    /// on it). Default: the engine's `MIN_PARALLEL_WORK`.
    #[arg(long, value_name = "N", hide = true)]
    pub min_parallel_work: Option<u64>,

    /// No progress bar on stderr (there is none when stderr is not a terminal).
    #[arg(long, short)]
    pub quiet: bool,

    /// The experiment file these flags came from, if any (set by `main`).
    #[arg(skip)]
    pub experiment: Option<PathBuf>,

    /// Where each packet's latency starts: `generation` (includes the source queue),
    /// `injection` (head written onto the injection channel) or `source-router` (head
    /// reaches the source router, after the injection channel).
    #[arg(long, value_name = "EVENT", default_value = "generation")]
    pub latency_from: LatencyFrom,

    /// Where each packet's latency ends: `tail-consumed` (by the destination terminal) or
    /// `tail-leaves-router` (the tail leaves the destination router onto the ejection
    /// channel).
    #[arg(long, value_name = "EVENT", default_value = "tail-consumed")]
    pub latency_to: LatencyTo,

    /// Selection function for every router (`first-free`, `random`, `most-credits`,
    /// `x-first`, `first-free-else-highest`); overrides the netlist (same as `--set selection=...`).
    #[arg(long, value_name = "S")]
    pub selection: Option<String>,
}

/// Parses a whole number >= 0 (cycles, a seed), with a range message for a negative one
/// instead of clap's hint to write `-- -3`.
///
/// # Errors
/// The text is negative, fractional or not a number.
pub fn whole<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.trim().parse::<T>().map_err(|_| {
        if s.trim().starts_with('-') {
            format!("{s} is negative: give a whole number >= 0")
        } else {
            format!("{s} is not a whole number: give one >= 0, e.g. 1000")
        }
    })
}

/// Checks, before anything is simulated, that output file `path` (given with `flag`) can
/// be written, by creating it (empty until the command writes it at its end): a missing
/// absolute directory or a read-only place is reported now, not after minutes of
/// simulation. A missing relative directory (`out/`) is created.
///
/// # Errors
/// The file cannot be created; the message names the flag.
pub fn check_writable(flag: &str, path: Option<&Path>) -> anyhow::Result<()> {
    // Only rank 0 of an MPI job writes files (every rank computes the same ones).
    if !crate::cluster::is_root() {
        return Ok(());
    }
    let Some(path) = path else {
        return Ok(());
    };
    // A missing directory under the current one (`out/`) is created.
    if let Some(dir) = path
        .parent()
        .filter(|d| d.is_relative() && !d.as_os_str().is_empty())
    {
        std::fs::create_dir_all(dir).map_err(|e| {
            anyhow!(
                "{flag} {}: cannot create the directory {}: {e}\nhelp: give a file in a directory you can write",
                path.display(),
                dir.display()
            )
        })?;
    }
    // Opened without truncating, and removed again if the check created it: a run that
    // fails before writing leaves no empty file and keeps an existing one.
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| {
            anyhow!(
                "{flag} {}: cannot write the file: {e}\nhelp: give a file in an existing directory you can write",
                path.display()
            )
        })?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

impl RunArgs {
    /// Loads the netlist and applies `--set` overrides, then `--switching`, `--timeout`,
    /// `--selection` and `--routing`, then the checks relating values to one another
    /// (the same ones loading runs on values written in the file).
    ///
    /// # Errors
    /// The netlist's diagnostics, or a bad override (naming the key, the value and the
    /// accepted values).
    pub fn load_netlist(&self) -> anyhow::Result<Netlist> {
        let mut netlist =
            super::experiment::load_netlist(&self.netlist).map_err(anyhow::Error::new)?;
        let timeout = self.timeout.map(|t| t.to_string());
        let mut pairs = Vec::new();
        for kv in &self.set {
            pairs.push(
                flitsim_netlist::split_setting(kv)
                    .map_err(|e| anyhow!("--set {kv}: {e}\nhelp: for example --set vcs=8"))?,
            );
        }
        let flags = [
            ("switching", self.switching.as_deref()),
            ("timeout", timeout.as_deref()),
            ("selection", self.selection.as_deref()),
            ("routing", self.routing.as_deref()),
        ];
        pairs.extend(flags.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))));
        netlist.set_all(pairs).map_err(anyhow::Error::new)?;
        Ok(netlist)
    }

    /// The engine configuration these flags describe (validated).
    ///
    /// # Errors
    /// An out-of-range rate, a zero length or an unknown traffic pattern.
    pub fn sim_config(&self) -> anyhow::Result<SimConfig> {
        let traffic: TrafficKind = self.traffic.parse()?;
        let lengths: LengthDist = self.length.parse()?;
        let injection: InjectionProcess = self.injection.parse()?;
        let mut fixed = self.warmup.is_some() || self.cycles.is_some();
        let defaults = SimConfig::default();
        let (mut warmup, mut cycles) = (defaults.warmup, defaults.cycles);
        if let Some(end) = trace_window(&traffic, fixed, |w| eprintln!("warning: {w}"))? {
            (warmup, cycles, fixed) = (0, end, true);
        }
        if !(self.ci_target > 0.0 && self.ci_target < 1.0) {
            anyhow::bail!(
                "--ci-target {} is out of range\nhelp: give a fraction in (0, 1), e.g. 0.02 for 2%",
                self.ci_target
            );
        }
        let config = SimConfig {
            rate: self.rate,
            injection,
            length: lengths.max().unwrap_or(1),
            length_dist: Some(lengths),
            traffic,
            warmup: self.warmup.unwrap_or(warmup),
            cycles: self.cycles.unwrap_or(cycles),
            drain: self.drain_cycles,
            drain_all: self.drain,
            backoff: self.backoff,
            latency: LatencyDef {
                from: self.latency_from,
                to: self.latency_to,
            },
            seed: self.seed,
            watchdog: self.watchdog,
            auto: (!fixed).then_some(AutoConfig {
                ci_target: self.ci_target,
                max_cycles: self.max_cycles,
                batch_cycles: 0,
            }),
            stop_on_saturation: !fixed || self.stop_when_saturated,
            percentiles: self.percentiles.clone(),
            threads: self.threads.map_or(0, |n| self.workers_at_most(n as usize)),
            min_parallel_work: self.min_parallel_work.unwrap_or(defaults.min_parallel_work),
            ..defaults
        };
        config.validate()?;
        Ok(config)
    }

    /// The workers for `--threads n`: at most the available cores, since more would spin
    /// against each other at every barrier. An expert `--min-parallel-work` keeps `n`
    /// (tests force worker counts with it).
    fn workers_at_most(&self, n: usize) -> usize {
        match self.min_parallel_work {
            Some(_) => n,
            None => n.min(std::thread::available_parallelism().map_or(1, |c| c.get())),
        }
    }
}
