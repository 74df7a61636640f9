//! The readable summary `flitsim run` prints without `--json`.

use flitsim_engine::{InjectionProcess, RunReport, SimConfig};
use flitsim_netlist::Netlist;
use flitsim_routing::describe_topology;

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "n/a".to_string(), |v| format!("{v:.digits$}"))
}

/// The summary's offered-load line, and the injection process's when it is not Bernoulli.
fn offered_lines(config: &SimConfig, r: &RunReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let lengths = if config.traffic.replays() {
        "the trace's packets in the window".to_string()
    } else {
        format!("{} flits per packet", config.lengths())
    };
    let _ = writeln!(
        s,
        "offered   {:.4} packets/terminal/cycle = {:.4} flits/terminal/cycle ({lengths}), seed {}",
        r.offered.packets_per_terminal_cycle, r.offered.flits_per_terminal_cycle, config.seed
    );
    if config.injection != InjectionProcess::Bernoulli {
        let _ = writeln!(
            s,
            "injection {} (a packet with probability {:.4} in a cycle that is on)",
            config.injection,
            config.injection.r1(config.rate)
        );
    }
    s
}

/// The readable summary printed without `--json`.
pub fn summary(netlist: &Netlist, config: &SimConfig, r: &RunReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let routing = netlist
        .routers()
        .next()
        .map_or("-", |r| flitsim_routing::kind_name(r.config.routing));
    // Terminals are named only where they differ from the routers (concentration, fat trees).
    let terminals = match netlist.num_terminals() {
        t if t == netlist.num_routers() => String::new(),
        t => format!(", {t} terminals"),
    };
    let _ = writeln!(
        s,
        "netlist {} ({}, {} routers{terminals}), routing {}, traffic {}",
        netlist.name,
        describe_topology(&netlist.topology),
        netlist.num_routers(),
        routing,
        config.traffic
    );
    s.push_str(&offered_lines(config, r));
    let _ = writeln!(
        s,
        "cycles    warm-up {}, measured {}, drain {} (total {})",
        r.cycles.warmup, r.cycles.measured, r.cycles.drain, r.cycles.total
    );
    let _ = writeln!(
        s,
        "accepted  {:.4} flits/terminal/cycle ({:.5} packets/terminal/cycle)",
        r.accepted.flits_per_terminal_cycle, r.accepted.packets_per_terminal_cycle
    );
    let _ = writeln!(
        s,
        "packets   generated {}, delivered {}, in flight at end {}",
        r.packets.generated, r.packets.delivered, r.packets.in_flight_end
    );
    let _ = writeln!(
        s,
        "latency   mean {} cycles, p99 {} (zero-load {:.2}{}), max {}, {}",
        opt(r.latency.mean, 2),
        r.distributions
            .packet_latency
            .value(99.0)
            .map_or("n/a".into(), |v| v.to_string()),
        r.zero_load_latency,
        r.zero_load_latency_ci
            .map_or_else(String::new, |h| format!(" +- {h:.2}, sampled")),
        r.latency
            .max
            .map_or_else(|| "n/a".to_string(), |m| m.to_string()),
        config.latency
    );
    let _ = writeln!(
        s,
        "          network {}, source queue {}, hops {}",
        opt(r.network_latency.mean, 2),
        opt(r.source_queue_time.mean, 2),
        opt(r.hops.mean, 3)
    );
    let _ = writeln!(
        s,
        "little    measured {:.3} packets in system, predicted {} (error {})",
        r.little.measured,
        opt(r.little.predicted, 3),
        r.little
            .relative_error
            .map_or_else(|| "n/a".to_string(), |e| format!("{:+.2}%", e * 100.0))
    );
    let m = &r.measurement;
    let _ = writeln!(
        s,
        "95% CI    latency +-{} cycles ({}), accepted +-{} flits/terminal/cycle; {} batches of the samples taken every {} cycles",
        opt(r.latency.ci95, 2),
        m.latency_ci95_relative
            .map_or_else(|| "n/a".to_string(), |x| format!("{:.2}%", x * 100.0)),
        opt(r.accepted.ci95, 4),
        m.batches,
        m.batch_cycles
    );
    let _ = writeln!(
        s,
        "method    {} ({}){}",
        m.mode,
        m.message,
        m.warmup_detected.map_or_else(String::new, |c| format!(
            ", MSER-5 warm-up end at cycle {c}"
        ))
    );
    let _ = writeln!(s, "saturated {}", r.saturated);
    if let Some(d) = &r.deadlock {
        let _ = writeln!(
            s,
            "deadlock  at cycle {}: {}",
            d.cycle,
            d.waiting.join(" -> ")
        );
    }
    s
}
