//! `flitsim trace NETLIST [run flags] [--from C --to C] [--router R]... [--packet P]...
//! [--inject CYCLE:SRC:DST:LEN[:VC]]... [--packets FILE] [--format text|rtl] [--vcd FILE]`: simulates like `run` with cycle tracing
//! on and prints the text trace (format: `flitsim_engine::trace::text`) on stdout.
//!
//! The run stops after `--to`, after `--max-lines` printed lines (100000 without `--to`),
//! or else after warm-up + window and then at most `--drain` cycles more until the network
//! is idle; with `--rate 0` it stops as soon as every `--inject`ed packet has been
//! delivered and every credit is home. A watchdog stop prints the verdict as the last trace
//! line, the error on stderr, and exits with code 3.

use crate::cli::args::RunArgs;
use crate::cli::run::EXIT_DEADLOCK;
use crate::studies::packet_list::{scripted_packets, Injection};
use crate::studies::rtl_log;
use anyhow::{anyhow, Context};
use clap::Args;
use flitsim_engine::trace::{text, vcd::VcdWriter, TraceEvent, TraceFilter, TraceNames};
use flitsim_engine::Simulation;
use flitsim_netlist::{Cycle, VcId};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Flags of `flitsim trace`.
#[derive(Args, Debug, Clone)]
pub struct TraceArgs {
    /// The simulation flags (as for `run`).
    #[command(flatten)]
    pub run: RunArgs,

    /// First cycle to print.
    #[arg(long, value_name = "C")]
    pub from: Option<u64>,

    /// Last cycle to print (the run stops after it).
    #[arg(long, value_name = "C")]
    pub to: Option<u64>,

    /// Print only events of this router (netlist name like `r3`, or id) and its terminal; repeatable.
    #[arg(long, value_name = "R")]
    pub router: Vec<String>,

    /// Print only events of this packet (`SRC:SEQ`, e.g. `0:0`); repeatable.
    #[arg(long, value_name = "P")]
    pub packet: Vec<String>,

    /// Put a packet into terminal SRC's source queue at cycle CYCLE, for terminal DST, of LEN flits (on injection VC VC if given); repeatable.
    #[arg(long, value_name = "CYCLE:SRC:DST:LEN[:VC]")]
    pub inject: Vec<String>,

    /// Put the packets of a packet list (lines `CYCLE SRC DST LEN VC`) into the source queues.
    #[arg(long, value_name = "FILE")]
    pub packets: Option<PathBuf>,

    /// Output format: `text` (the trace) or `rtl` (flit and credit records of the RTL harness, docs/rtl.md).
    #[arg(long, value_name = "F", default_value = "text", value_parser = ["text", "rtl"])]
    pub format: String,

    /// Stop after printing this many trace lines (default without `--to`: 100000, so a
    /// loaded network cannot flood the terminal; 0: no limit).
    #[arg(long, value_name = "N", value_parser = crate::cli::args::whole::<u64>, allow_negative_numbers = true)]
    pub max_lines: Option<u64>,

    /// Also write a value change dump (GTKWave) of the traced cycles to FILE.
    #[arg(long, value_name = "FILE")]
    pub vcd: Option<PathBuf>,
}

/// Lines printed at most without `--to` or `--max-lines`.
pub const DEFAULT_MAX_LINES: u64 = 100_000;

/// The line limit: `--max-lines` (0: none), else none with `--to`, else the default.
fn line_limit(args: &TraceArgs) -> Option<u64> {
    match (args.max_lines, args.to) {
        (Some(0), _) => None,
        (Some(m), _) => Some(m),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_MAX_LINES),
    }
}

/// Runs `flitsim trace`.
///
/// # Errors
/// A bad netlist, flag or output file.
pub fn run(args: &TraceArgs) -> anyhow::Result<ExitCode> {
    if let (Some(from), Some(to)) = (args.from, args.to) {
        if from > to {
            return Err(anyhow!(
                "--from {from} --to {to}: the first cycle to print is after the last\nhelp: give --from at most --to (both cycles are printed)"
            ));
        }
    }
    let netlist = args.run.load_netlist()?;
    let config = args.run.sim_config()?;
    let mut sim = Simulation::new(&netlist, &config)?;
    sim.enable_trace();
    let names = sim.trace_names().expect("tracing was just enabled").clone();
    let mut filter = TraceFilter {
        from: args.from.map(Cycle),
        to: args.to.map(Cycle),
        terminals: Some(netlist.terminal_map().clone()),
        ..TraceFilter::default()
    };
    for r in &args.router {
        filter.routers.push(names.find_router(r).ok_or_else(|| {
            anyhow!(
                "--router {r}: no such router\nhelp: use a router name like r0 (routers r0 to {}) or an id",
                names.routers.last().map_or("", String::as_str)
            )
        })?);
    }
    for p in &args.packet {
        filter
            .packets
            .push(TraceFilter::parse_packet(p).map_err(|e| anyhow!("--packet {p}: {e}"))?);
    }
    let injections = scripted_packets(
        &args.inject,
        args.packets.as_deref(),
        &names,
        netlist.num_terminals(),
    )?;
    let rtl = args.format == "rtl";
    let mut vcd = open_vcd(args.vcd.as_ref(), &names, &filter)?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if !rtl {
        writeln!(out, "{}", text::HEADER)?;
    }
    let window_end = config.warmup + config.cycles;
    let drain_end = window_end + config.drain;
    let max_lines = line_limit(args);
    let mut lines = 0u64;
    let mut next = 0;
    let mut code = ExitCode::SUCCESS;
    loop {
        let now = sim.now().0;
        if args.to.is_some_and(|t| now > t) || now >= drain_end {
            break;
        }
        let scripted_done = next == injections.len();
        if scripted_done && sim.is_settled() && (now >= window_end || config.rate == 0.0) {
            break;
        }
        while next < injections.len() && injections[next].cycle <= now {
            let i = injections[next];
            enqueue(&mut sim, &i);
            next += 1;
        }
        let result = sim.step();
        let events = sim.take_trace();
        if let Some(v) = &mut vcd {
            v.cycle(Cycle(now), &events)?;
        }
        for l in printed_lines(&names, events, &filter, rtl)? {
            if max_lines.is_some_and(|m| lines >= m) {
                break;
            }
            writeln!(out, "{l}")?;
            lines += 1;
        }
        if let Some(m) = max_lines.filter(|&m| lines >= m) {
            out.flush()?;
            eprintln!(
                "warning: the trace stopped at cycle {now} after {m} lines\nhelp: give --from/--to, --router or --packet to narrow it, or --max-lines N (0: no limit)"
            );
            break;
        }
        if let Err(e) = result {
            out.flush()?;
            eprintln!("error: {e}");
            code = ExitCode::from(EXIT_DEADLOCK);
            break;
        }
    }
    out.flush()?;
    if let Some(v) = vcd {
        v.finish()?;
    }
    Ok(code)
}

/// Puts scripted packet `i` into its source queue.
fn enqueue(sim: &mut Simulation, i: &Injection) {
    match i.vc {
        Some(v) => sim.enqueue_on_vc(i.src, i.dst, i.len, VcId(v)),
        None => sim.enqueue(i.src, i.dst, i.len),
    }
}

/// The lines one cycle's events print: trace lines, or RTL records when `rtl`.
fn printed_lines(
    names: &TraceNames,
    events: Vec<TraceEvent>,
    filter: &TraceFilter,
    rtl: bool,
) -> anyhow::Result<Vec<String>> {
    let kept: Vec<TraceEvent> = events.into_iter().filter(|e| filter.keeps(e)).collect();
    if rtl {
        rtl_log::cycle_lines(names, &kept)
    } else {
        Ok(kept.iter().map(|e| text::line(names, e)).collect())
    }
}

/// The VCD writer of `--vcd FILE`, if given (only rank 0 of an MPI job writes files).
fn open_vcd(
    path: Option<&PathBuf>,
    names: &TraceNames,
    filter: &TraceFilter,
) -> anyhow::Result<Option<VcdWriter<BufWriter<std::fs::File>>>> {
    let Some(path) = path.filter(|_| crate::cluster::is_root()) else {
        return Ok(None);
    };
    let f = std::fs::File::create(path)
        .with_context(|| format!("--vcd {}: cannot create", path.display()))?;
    Ok(Some(VcdWriter::new(BufWriter::new(f), names, filter)?))
}
