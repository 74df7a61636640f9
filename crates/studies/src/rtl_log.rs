//! `flitsim trace --format rtl`: the trace as the flit and credit records of the RTL
//! harness (`rtl/harness.v`, docs/rtl.md), so that a flitsim run and an RTL run of the
//! same packet list compare line by line.
//!
//! One record per line, sorted by cycle, then by the rest of the line (bytes):
//! `CYCLE F NODE PORT VC KIND SRC:SEQ.INDEX` for a flit written onto a channel and
//! `CYCLE C NODE PORT VC` for a credit. NODE `rN` is router N (PORT: its output port for
//! a flit, its input port for a credit), `tN` terminal N (its injection channel for a
//! flit, its ejection channel for a credit; PORT 0). Ports are numbered as the RTL
//! router's: 0 faces the -1 neighbour in dimension 0 (`west`), 1 the +1 one (`east`),
//! 2 and 3 the same in dimension 1 (`south`, `north`), 4 the terminal (`local`).

use anyhow::anyhow;
use flitsim_engine::trace::{Component, EventKind, TerminalEvent, TraceEvent, TraceNames};
use flitsim_router::probe::RouterEvent;
use flitsim_router::{Flit, FlitKind};

/// The RTL port number of a 2-D mesh or torus port of this name.
fn rtl_port(name: &str) -> Option<u8> {
    match name {
        "west" => Some(0),
        "east" => Some(1),
        "south" => Some(2),
        "north" => Some(3),
        "local" => Some(4),
        _ => None,
    }
}

fn kind(k: FlitKind) -> &'static str {
    match k {
        FlitKind::Head => "head",
        FlitKind::Body => "body",
        FlitKind::Tail => "tail",
        FlitKind::HeadTail => "head-tail",
    }
}

fn flit_fields(f: &Flit) -> String {
    format!(
        "{} {} {}:{}.{}",
        f.vc.0,
        kind(f.kind),
        f.packet.source.0,
        f.packet.seq,
        f.index
    )
}

/// The record of `e` (without its cycle), if it is a flit or credit written onto a
/// channel.
///
/// # Errors
/// A port the RTL router has no number for (a netlist that is not a 2-D mesh or torus of
/// one terminal per router).
pub fn record(names: &TraceNames, e: &TraceEvent) -> anyhow::Result<Option<String>> {
    let port = |r: usize, p: usize| {
        let name = names.ports[r].get(p).map_or("?", String::as_str);
        rtl_port(name).ok_or_else(|| {
            anyhow!(
                "--format rtl: port {name} of router {} has no RTL port number\nhelp: the RTL format covers 2-D meshes and tori with one terminal per router (ports local, west, east, south, north)",
                names.routers[r]
            )
        })
    };
    Ok(match (&e.component, &e.kind) {
        (Component::Router(r), EventKind::Router(RouterEvent::FlitOut { out, flit })) => {
            let p = port(r.index(), out.index())?;
            Some(format!("F r{} {p} {}", r.0, flit_fields(flit)))
        }
        (Component::Router(r), EventKind::Router(RouterEvent::CreditOut { port: i, vc })) => {
            let p = port(r.index(), i.index())?;
            Some(format!("C r{} {p} {}", r.0, vc.0))
        }
        (Component::Terminal(t), EventKind::Terminal(TerminalEvent::Inject { flit })) => {
            Some(format!("F t{} 0 {}", t.0, flit_fields(flit)))
        }
        (Component::Terminal(t), EventKind::Terminal(TerminalEvent::CreditOut { vc })) => {
            Some(format!("C t{} 0 {}", t.0, vc.0))
        }
        _ => None,
    })
}

/// The records of one cycle's events, sorted (module docs), each with its cycle.
///
/// # Errors
/// As [`record`].
pub fn cycle_lines(names: &TraceNames, events: &[TraceEvent]) -> anyhow::Result<Vec<String>> {
    let mut lines = Vec::new();
    for e in events {
        if let Some(r) = record(names, e)? {
            lines.push((e.cycle.0, r));
        }
    }
    lines.sort();
    Ok(lines.into_iter().map(|(c, r)| format!("{c} {r}")).collect())
}
