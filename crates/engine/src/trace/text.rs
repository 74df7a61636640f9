//! The text form of a trace: one event per line, fields in a fixed order, separated by
//! spaces and padded to fixed widths (a longer value just pushes the line right):
//!
//! ```text
//! # cycle comp     event       flit      kind      detail
//!       1 r0       recv        0:0.0     head      r0.local/vc0 <- t0
//! ```
//!
//! - `cycle`: the cycle (decimal);
//! - `comp`: the component: a router's netlist name (`r3`), a terminal (`t3`), or
//!   `watchdog`;
//! - `event`: see the table below;
//! - `flit`: `SRC:SEQ.INDEX`, packet `SRC:SEQ` (source terminal, per-source sequence
//!   number) and the flit's index in it (0 = head); `-` for events without a flit;
//! - `kind`: `head`, `body`, `tail` or `head-tail` (a one-flit packet); `-` without a flit;
//! - `detail`: where, in netlist names: `r3.east/vc1` is VC 1 of port `east` of router
//!   `r3`, `t3` is terminal 3, `t3/vc1` its VC 1 (injection or ejection); a VC range is
//!   `vc0-1` (VCs 0 to 1).
//!
//! | event | component | detail | meaning |
//! |---|---|---|---|
//! | `credit-in` | router | `OUT/vcV <- PEER` | a credit for downstream VC V of output OUT arrived |
//! | `vc-free` | router | `OUT/vcV` | that output VC is idle: no owner and all credits home (under `vc_release = credits` VA may hand it out only from now) |
//! | `recv` | router | `IN/vcV <- PEER` | the flit was read from input IN's channel into FIFO V |
//! | `route` | router | `IN/vcV -> OUT/vcA-B,...` | RC routed the head: its candidates |
//! | `vc-alloc` | router | `IN/vcV -> OUT/vcW` | VA gave output VC W to the packet |
//! | `stall` | router | `IN/vcV REASON WANTS` | the VC could not advance (reasons below) |
//! | `grant` | router | `IN/vcV -> OUT/vcW` | SA granted the flit: it left FIFO V for the crossbar |
//! | `release` | router | `IN/vcV -> OUT/vcW` | the tail left: input VC idle, output VC unowned (under `vc_release = tail` VA may hand it out from now) |
//! | `send` | router | `OUT/vcW -> PEER/vcW` | the flit was written onto OUT's channel |
//! | `credit-out` | router | `IN/vcV -> PEER` | a credit for FIFO V was written onto the upstream channel |
//! | `credit-in` | terminal | `tN/vcV <- rN.local` | a credit for injection VC V came back |
//! | `eject` | terminal | `rN.local/vcV -> tN[ latency=L]` | the flit was consumed (the tail shows the packet latency) |
//! | `credit-out` | terminal | `tN/vcV -> rN.local` | the consumed flit's credit was written back |
//! | `inject` | terminal | `tN -> rN.local/vcV` | the flit was written onto the injection channel |
//! | `timeout` | router | `IN/vcV` | the head waited `timeout` cycles for an output VC: the packet is dropped here (flit field: the packet) |
//! | `discard` | router | `IN/vcV` | a flit of a reset packet was discarded (its credit goes upstream) |
//! | `reset-in` | router | `OUT/vcW <- PEER` | a timeout reset for the packet arrived from downstream |
//! | `reset-out` | router | `IN/vcV -> PEER` | the reset was written upstream |
//! | `reset-in` | terminal | `tN <- rN.local` | the reset reached the source: the packet is re-queued for retransmission |
//! | `deadlock` | watchdog | `VC -> VC -> ... -> VC` | the watchdog stopped the run: a cycle of waiting input VCs |
//! | `stalled` | watchdog | `VC,VC,...` | the watchdog stopped the run without a cycle: every waiting VC |
//!
//! Stall reasons: `no-vc` (routing wait: no candidate output VC is free), `lost-vc` (a
//! candidate VC was free, another packet won it), `no-credit` (the output VC held has no
//! credit), `lost-switch` (credit present, another flit won the switch). WANTS lists the
//! candidates (VA) or the output VC held (SA).
//!
//! Within a cycle, lines are in component order (routers by id, then terminals, then the
//! watchdog) and, per component, in the order its step did things.

use super::event::{Component, EventKind, TerminalEvent, TraceEvent, TraceNames, Verdict};
use flitsim_netlist::{InPort, OutPort, RouterId, TerminalId, VcId};
use flitsim_router::probe::{FlitTag, RouterEvent};
use flitsim_router::FlitKind;
use flitsim_routing::RouteSet;
use std::fmt::Write as _;

/// The header line (a comment naming the columns, aligned with them).
pub const HEADER: &str = "# cycle comp     event       flit      kind      detail";

fn kind_name(k: FlitKind) -> &'static str {
    match k {
        FlitKind::Head => "head",
        FlitKind::Body => "body",
        FlitKind::Tail => "tail",
        FlitKind::HeadTail => "head-tail",
    }
}

fn route_list(names: &TraceNames, r: RouterId, set: &RouteSet) -> String {
    let mut s = String::new();
    for (k, c) in set.iter().enumerate() {
        if k > 0 {
            s.push(',');
        }
        let _ = write!(s, "{}/vc{}", names.port(r, c.port.0), c.vcs.lo);
        if c.vcs.hi > c.vcs.lo + 1 {
            let _ = write!(s, "-{}", c.vcs.hi - 1);
        }
    }
    s
}

/// (event name, detail) of a router event.
fn router_fields(names: &TraceNames, r: RouterId, e: &RouterEvent) -> (&'static str, String) {
    let at = RouterAt { names, r };
    match *e {
        RouterEvent::CreditIn { out, vc } => ("credit-in", at.downstream_in(out, vc)),
        RouterEvent::VcFree { out, vc } => ("vc-free", at.vc(out.0, vc)),
        RouterEvent::FlitIn { port, ref flit } => ("recv", at.upstream_in(port, flit.vc)),
        RouterEvent::Route {
            port,
            vc,
            ref candidates,
            ..
        } => (
            "route",
            format!(
                "{} -> {}",
                at.vc(port.0, vc),
                route_list(names, r, candidates)
            ),
        ),
        RouterEvent::VcAlloc {
            port,
            vc,
            out,
            out_vc,
            ..
        } => ("vc-alloc", at.between(port, vc, out, out_vc)),
        RouterEvent::Stall {
            port,
            vc,
            ref reason,
            ref wants,
            ..
        } => (
            "stall",
            format!(
                "{} {} {}",
                at.vc(port.0, vc),
                reason.name(),
                route_list(names, r, wants)
            ),
        ),
        RouterEvent::Grant {
            port,
            vc,
            out,
            out_vc,
            ..
        } => ("grant", at.between(port, vc, out, out_vc)),
        RouterEvent::Release {
            port,
            vc,
            out,
            out_vc,
            ..
        } => ("release", at.between(port, vc, out, out_vc)),
        RouterEvent::FlitOut { out, ref flit } => ("send", at.downstream_out(out, flit.vc)),
        RouterEvent::Timeout { port, vc, .. } => ("timeout", at.vc(port.0, vc)),
        RouterEvent::ResetIn { out, vc, .. } => ("reset-in", at.downstream_in(out, vc)),
        RouterEvent::ResetOut { port, vc, .. } => ("reset-out", at.upstream_out(port, vc)),
        RouterEvent::Discard { port, vc, .. } => ("discard", at.vc(port.0, vc)),
        RouterEvent::CreditOut { port, vc } => ("credit-out", at.upstream_out(port, vc)),
    }
}

/// The names of router `r`'s VCs and of its neighbours, as router events show them.
struct RouterAt<'a> {
    names: &'a TraceNames,
    r: RouterId,
}

impl RouterAt<'_> {
    /// `r3.east/vc1`: VC `v` of port `p`.
    fn vc(&self, p: u8, v: VcId) -> String {
        self.names.vc(self.r, p, v)
    }

    /// `OUT/vcV <- PEER`: something for output VC `v` of `out` from downstream.
    fn downstream_in(&self, out: OutPort, v: VcId) -> String {
        let peer = self.names.downstream[self.r.index()][out.index()];
        format!("{} <- {}", self.vc(out.0, v), self.names.peer(peer))
    }

    /// `OUT/vcV -> PEER/vcV`: a flit on VC `v` onto `out`'s channel.
    fn downstream_out(&self, out: OutPort, v: VcId) -> String {
        let peer = self.names.downstream[self.r.index()][out.index()];
        format!("{} -> {}", self.vc(out.0, v), self.names.peer_vc(peer, v))
    }

    /// `IN/vcV <- PEER`: a flit into input VC `v` of `port` from upstream.
    fn upstream_in(&self, port: InPort, v: VcId) -> String {
        let peer = self.names.upstream[self.r.index()][port.index()];
        format!("{} <- {}", self.vc(port.0, v), self.names.peer(peer))
    }

    /// `IN/vcV -> PEER`: something from input VC `v` of `port` back upstream.
    fn upstream_out(&self, port: InPort, v: VcId) -> String {
        let peer = self.names.upstream[self.r.index()][port.index()];
        format!("{} -> {}", self.vc(port.0, v), self.names.peer(peer))
    }

    /// `IN/vcV -> OUT/vcW`: input VC `v` of `port` and output VC `w` of `out`.
    fn between(&self, port: InPort, v: VcId, out: OutPort, w: VcId) -> String {
        format!("{} -> {}", self.vc(port.0, v), self.vc(out.0, w))
    }
}

fn terminal_fields(
    names: &TraceNames,
    t: TerminalId,
    cycle: u64,
    e: &TerminalEvent,
) -> (&'static str, String) {
    let (r, port) = names.terminal_place(t);
    let local = names.port(r, port);
    match e {
        TerminalEvent::CreditIn { vc } => ("credit-in", format!("t{}/vc{} <- {local}", t.0, vc.0)),
        TerminalEvent::Eject { flit } => {
            let mut s = format!("{} -> t{}", names.vc(r, port, flit.vc), t.0);
            if flit.kind.is_tail() {
                let _ = write!(s, " latency={}", cycle - flit.created.cycle().0);
            }
            ("eject", s)
        }
        TerminalEvent::CreditOut { vc } => {
            ("credit-out", format!("t{}/vc{} -> {local}", t.0, vc.0))
        }
        TerminalEvent::ResetIn { .. } => ("reset-in", format!("t{} <- {local}", t.0)),
        TerminalEvent::Inject { flit } => (
            "inject",
            format!("t{} -> {}", t.0, names.vc(r, port, flit.vc)),
        ),
    }
}

fn flit_fields(f: Option<FlitTag>) -> (String, &'static str) {
    match f {
        Some(f) => (format!("{}.{}", f.packet, f.index), kind_name(f.kind)),
        None => ("-".to_string(), "-"),
    }
}

/// One event as one line (without the newline).
pub fn line(names: &TraceNames, e: &TraceEvent) -> String {
    let (event, detail) = match &e.kind {
        EventKind::Router(re) => {
            let Component::Router(r) = e.component else {
                unreachable!("router events come from routers")
            };
            router_fields(names, r, re)
        }
        EventKind::Terminal(te) => {
            let Component::Terminal(t) = e.component else {
                unreachable!("terminal events come from terminals")
            };
            terminal_fields(names, t, e.cycle.0, te)
        }
        EventKind::Watchdog(Verdict::Deadlock(vcs)) => ("deadlock", {
            let mut v = vcs.clone();
            if let Some(first) = vcs.first() {
                v.push(first.clone());
            }
            v.join(" -> ")
        }),
        EventKind::Watchdog(Verdict::Stalled(vcs)) => ("stalled", vcs.join(",")),
    };
    let (flit, kind) = match (e.flit(), e.packet()) {
        (None, Some(p)) => (p.to_string(), "-"),
        (f, _) => flit_fields(f),
    };
    let comp = names.component(e.component);
    let s = format!(
        "{:>7} {:<8} {:<11} {:<9} {:<9} {}",
        e.cycle.0, comp, event, flit, kind, detail
    );
    s.trim_end().to_string()
}

/// Renders `events` (already sorted and filtered), one line each, each ending in `\n`.
pub fn render(names: &TraceNames, events: &[TraceEvent]) -> String {
    let mut s = String::new();
    for e in events {
        s.push_str(&line(names, e));
        s.push('\n');
    }
    s
}
