//! Scripted packets of `flitsim trace`: `--inject CYCLE:SRC:DST:LEN[:VC]` and packet-list
//! files (`--packets FILE`), one packet per line, `CYCLE SRC DST LEN VC` (`#` starts a
//! comment). A packet with a VC takes that injection VC (its head leaves when the VC
//! carries no other packet and has a credit); without one, the first free VC.

use anyhow::{anyhow, Context};
use flitsim_engine::trace::TraceNames;
use flitsim_netlist::TerminalId;
use std::path::Path;

/// Packets a list may hold (a list of the RTL harness is at most 65,536 packets).
pub const MAX_PACKETS: usize = 1 << 20;

/// Bytes a packet-list file may have.
const MAX_BYTES: u64 = 64 << 20;

/// A scripted packet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Injection {
    /// Cycle it enters the source queue.
    pub cycle: u64,
    /// Source terminal.
    pub src: TerminalId,
    /// Destination terminal.
    pub dst: TerminalId,
    /// Flits.
    pub len: u32,
    /// Injection VC, if fixed.
    pub vc: Option<u8>,
}

/// Parses `CYCLE:SRC:DST:LEN[:VC]` for a network of `terminals` terminals whose injection
/// ports have `vcs` VCs.
pub fn parse_injection(s: &str, terminals: usize, vcs: usize) -> anyhow::Result<Injection> {
    let help = || {
        anyhow!("--inject {s}: expected CYCLE:SRC:DST:LEN or CYCLE:SRC:DST:LEN:VC\nhelp: for example --inject 0:0:2:4 (cycle 0, terminal 0 to terminal 2, 4 flits) or 0:0:2:4:1 (on injection VC 1)")
    };
    let f: Vec<&str> = s.split(':').map(str::trim).collect();
    let (fields, vc) = match f.as_slice() {
        [c, a, b, l] => ([*c, *a, *b, *l], None),
        [c, a, b, l, v] => ([*c, *a, *b, *l], Some(v.parse().map_err(|_| help())?)),
        _ => return Err(help()),
    };
    let [c, a, b, l] = fields;
    let inj = Injection {
        cycle: c.parse().map_err(|_| help())?,
        src: TerminalId(a.parse().map_err(|_| help())?),
        dst: TerminalId(b.parse().map_err(|_| help())?),
        len: l.parse().map_err(|_| help())?,
        vc,
    };
    check(&inj, terminals, vcs).map_err(|e| anyhow!("--inject {s}: {e}"))?;
    Ok(inj)
}

/// The problem with `inj` in this network, if any.
fn check(inj: &Injection, terminals: usize, vcs: usize) -> anyhow::Result<()> {
    for t in [inj.src, inj.dst] {
        if t.index() >= terminals {
            return Err(anyhow!(
                "terminal {} does not exist\nhelp: the netlist has terminals 0 to {}",
                t.0,
                terminals - 1
            ));
        }
    }
    if inj.len == 0 {
        return Err(anyhow!(
            "a packet needs at least 1 flit\nhelp: LEN counts flits (for example 0:0:2:4)"
        ));
    }
    if let Some(v) = inj.vc.filter(|&v| usize::from(v) >= vcs) {
        return Err(anyhow!(
            "injection VC {v} does not exist\nhelp: the injection ports have VCs 0 to {}",
            vcs - 1
        ));
    }
    Ok(())
}

/// Reads a packet list (module docs) for a network of `terminals` terminals whose
/// injection ports have `vcs` VCs.
///
/// # Errors
/// An unreadable file, or a line that is not a packet of this network (named by file and
/// line).
pub fn read_packet_list(
    path: &Path,
    terminals: usize,
    vcs: usize,
) -> anyhow::Result<Vec<Injection>> {
    let len = std::fs::metadata(path)
        .with_context(|| format!("--packets {}: cannot read", path.display()))?
        .len();
    if len > MAX_BYTES {
        return Err(anyhow!(
            "--packets {}: {len} bytes, more than the {MAX_BYTES} a packet list may have\nhelp: split the list",
            path.display()
        ));
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--packets {}: cannot read", path.display()))?;
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = || format!("{}:{}", path.display(), i + 1);
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = || {
            anyhow!(
                "{}: expected CYCLE SRC DST LEN VC, found {line:?}\nhelp: five whole numbers, for example 0 0 8 5 1",
                at()
            )
        };
        let [c, a, b, l, v] = f.as_slice() else {
            return Err(bad());
        };
        let inj = Injection {
            cycle: c.parse().map_err(|_| bad())?,
            src: TerminalId(a.parse().map_err(|_| bad())?),
            dst: TerminalId(b.parse().map_err(|_| bad())?),
            len: l.parse().map_err(|_| bad())?,
            vc: Some(v.parse().map_err(|_| bad())?),
        };
        check(&inj, terminals, vcs).map_err(|e| anyhow!("{}: {e}", at()))?;
        if out.len() == MAX_PACKETS {
            return Err(anyhow!(
                "{}: more than {MAX_PACKETS} packets\nhelp: split the list",
                at()
            ));
        }
        out.push(inj);
    }
    Ok(out)
}

/// The `--inject` and `--packets` packets, by cycle.
///
/// # Errors
/// A malformed or out-of-range packet, or an unreadable packet list.
pub fn scripted_packets(
    inject: &[String],
    packets: Option<&Path>,
    names: &TraceNames,
    terminals: usize,
) -> anyhow::Result<Vec<Injection>> {
    let vcs = injection_vcs(names, terminals);
    let mut injections = inject
        .iter()
        .map(|s| parse_injection(s, terminals, vcs))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if let Some(path) = packets {
        injections.extend(read_packet_list(path, terminals, vcs)?);
    }
    injections.sort_by_key(|i| i.cycle);
    Ok(injections)
}

/// The smallest VC count of a terminal's router port (the injection VCs a packet may name).
fn injection_vcs(names: &TraceNames, terminals: usize) -> usize {
    (0..terminals)
        .map(|t| {
            let (r, p) = names.terminal_place(TerminalId(t as u32));
            usize::from(names.in_vcs[r.index()][usize::from(p)])
        })
        .min()
        .unwrap_or(0)
}
