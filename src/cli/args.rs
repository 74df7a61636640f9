//! Flags shared by the subcommands that simulate (`run`, and later `sweep`, `trace`,
//! `buffers`, `check`): which netlist, what to override in it, and how to drive it.

use anyhow::{anyhow, Context};
use clap::Args;
use flitsim_engine::stats::AutoConfig;
use flitsim_engine::{LatencyDef, LatencyFrom, LatencyTo, LengthDist, SimConfig, TrafficKind};
use flitsim_netlist::Netlist;
use std::path::{Path, PathBuf};

/// The simulation flags.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Netlist file (TOML): a generator (`torus`, `mesh`, `hypercube`, `ring`) or explicit routers and channels.
    pub netlist: PathBuf,

    /// Routing function for every router (`dor`, `dor-nodateline`, ...); overrides the netlist.
    #[arg(long, value_name = "R")]
    pub routing: Option<String>,

    /// Destination pattern: `uniform` (over the other terminals), `uniform-all`,
    /// `fixed-distance:L`, `hotspot:T[,T...]:FRACTION`, `transpose`, `bit-complement`,
    /// `bit-reversal`, `shuffle`, `tornado`, `neighbor`, `permutation`, `trace:FILE`.
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

    /// Packet length in flits: `M` (>= 1), `exp:MEAN` (exponential, rounded, at least 1)
    /// or `mix:M1,M2,P1` (M1 flits with probability P1, else M2).
    #[arg(long, value_name = "M", default_value = "1")]
    pub length: String,

    /// Switching technique for every router (`wormhole`, `vct`, `saf`); overrides the netlist.
    #[arg(long, value_name = "S")]
    pub switching: Option<String>,

    /// Timeout reset (paper 003) on every router: drop a head that waited C cycles for an
    /// output VC and reset its packet back to the source (0: off); overrides the netlist.
    #[arg(long, value_name = "C")]
    pub timeout: Option<u32>,

    /// Cycles a packet dropped by a timeout waits at its source before it is sent again.
    #[arg(long, value_name = "C", default_value_t = 0)]
    pub backoff: u64,

    /// Fixed warm-up cycles before measurement starts (default: detected by MSER-5; with
    /// only `--cycles` given, 1000).
    #[arg(long, value_name = "C")]
    pub warmup: Option<u64>,

    /// Fixed measurement window in cycles: packets generated in it are measured (default:
    /// until the latency's 95% confidence half-width meets `--ci-target`; with only
    /// `--warmup` given, 10000).
    #[arg(long, value_name = "C")]
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

    /// Add per-channel statistics (`channels`: utilisation, P(v) of busy VCs, head
    /// arrival rate, VC holding time) and their averages by class (`channel_classes`) to `--json`.
    #[arg(long)]
    pub channel_stats: bool,

    /// At most this many cycles after the window to deliver the measured packets (with
    /// `--drain`: every packet).
    #[arg(long, value_name = "C", default_value_t = 10_000)]
    pub drain_cycles: u64,

    /// After the window stop generating and run until every generated packet is
    /// delivered (at most `--drain-cycles` cycles; the report says if the limit was hit).
    #[arg(long)]
    pub drain: bool,

    /// Seed of every component's random stream (same seed, same results).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Stop with a deadlock report when flits are in the network and none moves for C cycles (0: never).
    #[arg(long, value_name = "C", default_value_t = 2000)]
    pub watchdog: u64,

    /// Override a router or channel parameter of the netlist, e.g. `--set vcs=8 --set channel_latency=2`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,

    /// Print one JSON object (fields documented in docs/run-output.md) instead of a summary.
    #[arg(long)]
    pub json: bool,

    /// Worker threads at most (results do not depend on it): never more than one per 64
    /// routers, since smaller partitions cannot gain (`perf.threads` says how many ran).
    /// Default: the available cores, at most one per 256 routers.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,

    /// Expert: routers stepped per cycle per worker below which a window of cycles runs on
    /// one thread while the other workers sleep (0: always parallel; results do not depend
    /// on it). Default: the engine's `MIN_PARALLEL_WORK`.
    #[arg(long, value_name = "N", hide = true)]
    pub min_parallel_work: Option<u64>,

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
    /// `x-first`); overrides the netlist (same as `--set selection=...`).
    #[arg(long, value_name = "S")]
    pub selection: Option<String>,
}

/// Checks, before anything is simulated, that output file `path` (given with `flag`) can
/// be written, by creating it (empty until the command writes it at its end): a missing
/// directory or a read-only place is reported now, not after minutes of simulation.
///
/// # Errors
/// The file cannot be created; the message names the flag.
pub fn check_writable(flag: &str, path: Option<&Path>) -> anyhow::Result<()> {
    let Some(path) = path else {
        return Ok(());
    };
    std::fs::File::create(path).map(drop).map_err(|e| {
        anyhow!(
            "{flag} {}: cannot write the file: {e}\nhelp: give a file in an existing directory you can write",
            path.display()
        )
    })
}

impl RunArgs {
    /// Loads the netlist and applies `--set` overrides, then `--routing`.
    ///
    /// # Errors
    /// The netlist's diagnostics, or a bad override naming the flag.
    pub fn load_netlist(&self) -> anyhow::Result<Netlist> {
        let mut netlist = flitsim_netlist::load(&self.netlist).map_err(|d| anyhow!("{d}"))?;
        for kv in &self.set {
            let (key, value) = kv.split_once('=').ok_or_else(|| {
                anyhow!("--set {kv}: expected key=value\nhelp: for example --set vcs=8")
            })?;
            netlist
                .set(key.trim(), value.trim())
                .with_context(|| format!("--set {kv}"))?;
        }
        if let Some(switching) = &self.switching {
            netlist
                .set("switching", switching)
                .with_context(|| format!("--switching {switching}"))?;
        }
        if let Some(timeout) = self.timeout {
            netlist
                .set("timeout", &timeout.to_string())
                .with_context(|| format!("--timeout {timeout}"))?;
        }
        if let Some(selection) = &self.selection {
            netlist
                .set("selection", selection)
                .with_context(|| format!("--selection {selection}"))?;
        }
        if let Some(routing) = &self.routing {
            netlist
                .set("routing", routing)
                .with_context(|| format!("--routing {routing}"))?;
        }
        Ok(netlist)
    }

    /// The engine configuration these flags describe (validated).
    ///
    /// # Errors
    /// An out-of-range rate, a zero length or an unknown traffic pattern.
    pub fn sim_config(&self) -> anyhow::Result<SimConfig> {
        let traffic: TrafficKind = self.traffic.parse()?;
        let lengths: LengthDist = self.length.parse()?;
        let fixed = self.warmup.is_some() || self.cycles.is_some();
        if !(self.ci_target > 0.0 && self.ci_target < 1.0) {
            anyhow::bail!(
                "--ci-target {} is out of range\nhelp: give a fraction in (0, 1), e.g. 0.02 for 2%",
                self.ci_target
            );
        }
        let defaults = SimConfig::default();
        let config = SimConfig {
            rate: self.rate,
            length: lengths.max().unwrap_or(1),
            length_dist: Some(lengths),
            traffic,
            warmup: self.warmup.unwrap_or(defaults.warmup),
            cycles: self.cycles.unwrap_or(defaults.cycles),
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
            stop_on_saturation: true,
            threads: self.threads.map_or(0, |n| n as usize),
            min_parallel_work: self.min_parallel_work.unwrap_or(defaults.min_parallel_work),
            ..defaults
        };
        config.validate()?;
        Ok(config)
    }
}
