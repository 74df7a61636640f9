//! Value change dump (IEEE 1364 VCD) of a trace, for waveform viewers such as GTKWave.
//! One time unit is one cycle (`$timescale 1 ns`, so the viewer's "ns" read "cycles").
//!
//! Signals (scopes are modules; `R` is a router's netlist name, `P` a port name):
//! - `R.out_P` for every output port with a channel (router-to-router channels, and
//!   `out_local`, the ejection channel to the router's terminal), and `tN.inject` for
//!   every injection channel: `valid` (1 in the cycle the sender writes a flit onto the
//!   channel: the cycle of its `send`/`inject` line; it is read downstream L cycles later,
//!   at the `recv`/`eject` line), `pkt_src` and `pkt_seq` (the packet id, 32 bits each),
//!   `flit` (index in the packet, 32 bits), `vc` (the VC it travels on, 8 bits), `head`
//!   and `tail` (1 bit each; both 1 for a one-flit packet). When `valid` is 0 the others
//!   are `x`.
//! - `R.in_P.vcV` for every input VC: its FIFO occupancy in flits (32 bits) at the end of
//!   the cycle (a `recv` adds one, a `grant` removes one).
//!
//! The dump starts at the filter's first cycle with every signal's value then, and ends
//! after its last cycle; router and packet filters do not apply (every signal is dumped).

use super::event::{Component, EventKind, Peer, TerminalEvent, TraceEvent, TraceNames};
use super::filter::TraceFilter;
use flitsim_netlist::Cycle;
use flitsim_router::probe::RouterEvent;
use flitsim_router::Flit;
use std::io::{self, Write};
use vcd::{IdCode, TimescaleUnit, Value};

/// The wires of one channel.
#[derive(Copy, Clone, Debug)]
struct ChannelWires {
    valid: IdCode,
    src: IdCode,
    seq: IdCode,
    flit: IdCode,
    vc: IdCode,
    head: IdCode,
    tail: IdCode,
}

/// A signal's value: a number or `x`.
type Val = Option<u64>;

/// Writes a VCD incrementally, one cycle at a time.
pub struct VcdWriter<W: Write> {
    w: vcd::Writer<W>,
    filter: TraceFilter,
    /// Channel index of (router, output port), or of terminal `t` injection at the end.
    out_base: Vec<usize>,
    /// Occupancy wires: by router, flat over (port, vc).
    occ: Vec<Vec<IdCode>>,
    /// Flat base of each input port's VCs, by router.
    in_base: Vec<Vec<usize>>,
    /// Current values: channel signals (7 per channel), then occupancies.
    current: Vec<(IdCode, u32, Val)>,
    /// Index in `current` of each channel's first signal.
    ch_val: Vec<usize>,
    /// Index in `current` of each router's first occupancy.
    occ_val: Vec<usize>,
    /// Channels driven in the last flushed cycle.
    driven: Vec<usize>,
    /// Last flushed cycle.
    last: Option<u64>,
    started: bool,
}

fn bits(v: Val, width: u32) -> Vec<Value> {
    (0..width)
        .rev()
        .map(|b| match v {
            Some(v) if (v >> b) & 1 == 1 => Value::V1,
            Some(_) => Value::V0,
            None => Value::X,
        })
        .collect()
}

impl<W: Write> VcdWriter<W> {
    /// Declares every signal of the network `names` describes; dumps the cycles `filter`
    /// keeps.
    ///
    /// # Errors
    /// Writing to `out` failed.
    pub fn new(out: W, names: &TraceNames, filter: &TraceFilter) -> io::Result<VcdWriter<W>> {
        let mut w = vcd::Writer::new(out);
        w.comment("flitsim cycle trace: one time unit = one cycle")?;
        w.timescale(1, TimescaleUnit::NS)?;
        w.add_module("flitsim")?;
        let mut channels = Vec::new();
        let mut out_base = Vec::new();
        let mut occ = Vec::new();
        let mut in_base = Vec::new();
        let wires = |w: &mut vcd::Writer<W>| -> io::Result<ChannelWires> {
            Ok(ChannelWires {
                valid: w.add_wire(1, "valid")?,
                src: w.add_wire(32, "pkt_src")?,
                seq: w.add_wire(32, "pkt_seq")?,
                flit: w.add_wire(32, "flit")?,
                vc: w.add_wire(8, "vc")?,
                head: w.add_wire(1, "head")?,
                tail: w.add_wire(1, "tail")?,
            })
        };
        for (r, rname) in names.routers.iter().enumerate() {
            w.add_module(rname)?;
            out_base.push(channels.len());
            for (p, pname) in names.ports[r].iter().enumerate() {
                if names.downstream[r][p] == Peer::None {
                    channels.push(None);
                    continue;
                }
                w.add_module(&format!("out_{pname}"))?;
                channels.push(Some(wires(&mut w)?));
                w.upscope()?;
            }
            let mut base = Vec::new();
            let mut ids = Vec::new();
            for (p, pname) in names.ports[r].iter().enumerate() {
                base.push(ids.len());
                let vcs = names.in_vcs[r][p];
                if vcs == 0 {
                    continue;
                }
                w.add_module(&format!("in_{pname}"))?;
                for v in 0..vcs {
                    ids.push(w.add_wire(32, &format!("vc{v}"))?);
                }
                w.upscope()?;
            }
            occ.push(ids);
            in_base.push(base);
            w.upscope()?;
        }
        out_base.push(channels.len());
        for t in 0..names.routers.len() {
            w.add_module(&format!("t{t}"))?;
            w.add_module("inject")?;
            channels.push(Some(wires(&mut w)?));
            w.upscope()?;
            w.upscope()?;
        }
        w.upscope()?;
        w.enddefinitions()?;
        let mut current = Vec::new();
        let mut ch_val = Vec::new();
        for c in &channels {
            ch_val.push(current.len());
            if let Some(c) = c {
                current.push((c.valid, 1, Some(0)));
                for (id, width) in [
                    (c.src, 32),
                    (c.seq, 32),
                    (c.flit, 32),
                    (c.vc, 8),
                    (c.head, 1),
                    (c.tail, 1),
                ] {
                    current.push((id, width, None));
                }
            }
        }
        let mut occ_val = Vec::new();
        for ids in &occ {
            occ_val.push(current.len());
            current.extend(ids.iter().map(|&id| (id, 32, Some(0))));
        }
        Ok(VcdWriter {
            w,
            filter: filter.clone(),
            out_base,
            occ,
            in_base,
            current,
            ch_val,
            occ_val,
            driven: Vec::new(),
            last: None,
            started: false,
        })
    }

    fn drive(&mut self, ch: usize, flit: &Flit) {
        let i = self.ch_val[ch];
        let vals = [
            Some(1),
            Some(u64::from(flit.packet.source.0)),
            Some(u64::from(flit.packet.seq)),
            Some(u64::from(flit.index)),
            Some(u64::from(flit.vc.0)),
            Some(u64::from(flit.kind.is_head())),
            Some(u64::from(flit.kind.is_tail())),
        ];
        for (k, v) in vals.into_iter().enumerate() {
            self.current[i + k].2 = v;
        }
        self.driven.push(ch);
    }

    fn occupancy(&mut self, r: usize, port: u8, vc: u8, delta: i64) {
        let k = self.occ_val[r] + self.in_base[r][usize::from(port)] + usize::from(vc);
        let v = self.current[k].2.unwrap_or(0) as i64 + delta;
        self.current[k].2 = Some(v.max(0) as u64);
    }

    /// Applies the events of `cycle` (all of them, unfiltered) and writes the changes.
    /// Cycles must come in increasing order; cycles without events may be skipped.
    ///
    /// # Errors
    /// Writing failed.
    pub fn cycle(&mut self, cycle: Cycle, events: &[TraceEvent]) -> io::Result<()> {
        if let Some(last) = self.last {
            debug_assert!(cycle.0 > last, "VCD cycles out of order");
            if !self.driven.is_empty() && cycle.0 > last + 1 {
                self.cycle(Cycle(last + 1), &[])?;
            }
        }
        let before: Vec<Val> = self.current.iter().map(|c| c.2).collect();
        for ch in std::mem::take(&mut self.driven) {
            let i = self.ch_val[ch];
            self.current[i].2 = Some(0);
            for k in 1..7 {
                self.current[i + k].2 = None;
            }
        }
        for e in events {
            debug_assert_eq!(e.cycle, cycle);
            match (&e.component, &e.kind) {
                (Component::Router(r), EventKind::Router(re)) => {
                    let r = r.index();
                    match re {
                        RouterEvent::FlitOut { out, flit } => {
                            self.drive(self.out_base[r] + out.index(), flit);
                        }
                        RouterEvent::FlitIn { port, flit } => {
                            self.occupancy(r, port.0, flit.vc.0, 1);
                        }
                        RouterEvent::Grant { port, vc, .. } => {
                            self.occupancy(r, port.0, vc.0, -1);
                        }
                        _ => {}
                    }
                }
                (Component::Terminal(t), EventKind::Terminal(TerminalEvent::Inject { flit })) => {
                    let ch = self.out_base[self.occ.len()] + t.index();
                    self.drive(ch, flit);
                }
                _ => {}
            }
        }
        self.last = Some(cycle.0);
        if !self.filter.keeps_cycle(cycle) {
            return Ok(());
        }
        self.w.timestamp(cycle.0)?;
        let full = !self.started;
        self.started = true;
        for (k, &(id, width, v)) in self.current.iter().enumerate() {
            if full || before[k] != v {
                if width == 1 {
                    let s = match v {
                        Some(1) => Value::V1,
                        Some(_) => Value::V0,
                        None => Value::X,
                    };
                    self.w.change_scalar(id, s)?;
                } else {
                    self.w.change_vector(id, bits(v, width))?;
                }
            }
        }
        Ok(())
    }

    /// Writes the last `valid` drop and flushes.
    ///
    /// # Errors
    /// Writing failed.
    pub fn finish(mut self) -> io::Result<()> {
        if let Some(last) = self.last {
            if !self.driven.is_empty() {
                self.cycle(Cycle(last + 1), &[])?;
            }
        }
        self.w.flush()
    }
}
