//! One router's step: what its channel sides deliver now handed to it, then the step.

use super::read::ReadSides;
use crate::network::wired::WiredRouter;
use flitsim_netlist::{Cycle, InPort, OutPort};
use flitsim_router::StepScratch;

/// Steps a woken router that fits the arrival masks, handing it what its arrival mask
/// names straight from the lines, by reference (no inbox): the resets first (they act
/// before the step begins), then [`Router::begin_step`], the credits, the flits, and
/// [`Router::finish_step`] (on the worker's `scratch`). What it writes stays
/// in the router until it is sent ([`Router::flits_out`], [`Router::credits_out`]).
///
/// [`Router::begin_step`]: flitsim_router::Router::begin_step
/// [`Router::finish_step`]: flitsim_router::Router::finish_step
/// [`Router::flits_out`]: flitsim_router::Router::flits_out
/// [`Router::credits_out`]: flitsim_router::Router::credits_out
#[inline(always)]
pub(super) fn step_arrived<'a>(
    now: Cycle,
    wired: &mut WiredRouter,
    arrived: u64,
    read: &impl ReadSides<'a>,
    resets: bool,
    scratch: &mut StepScratch,
) {
    let (flits, credits) = (arrived as u32, (arrived >> 32) as u32);
    #[cfg(debug_assertions)]
    {
        // The wake-ups missed nothing and named nothing extra: every line read in full
        // agrees with the mask (a credit bit may stand for a reset alone).
        let t = now.0;
        for (p, w) in wired.ports.iter().enumerate() {
            assert_eq!(
                flits >> p & 1 == 1,
                read.peek_flit(w.input.read()).is_some(),
                "flit on input port {p} at cycle {t}: arrival mask and lines disagree"
            );
        }
        for (o, w) in wired.ports.iter().enumerate() {
            let reset = resets && read.peek_reset(w.output.read()).is_some();
            assert_eq!(
                credits >> o & 1 == 1,
                read.peek_credit(w.output.read()).is_some() || reset,
                "credit or reset on output port {o} at cycle {t}: arrival mask and lines disagree"
            );
        }
        assert!(
            arrived != 0 || !wired.router.is_quiescent(),
            "router visited with nothing to do"
        );
    }
    if resets {
        let mut m = credits;
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(r) = read.peek_reset(wired.ports.get(o).output.read()) {
                wired
                    .router
                    .receive_reset(now, flitsim_netlist::OutPort(o as u8), r);
            }
        }
    }
    let router = &mut wired.router;
    router.begin_step(now);
    let mut m = credits;
    while m != 0 {
        let o = m.trailing_zeros() as usize;
        m &= m - 1;
        let side = wired.ports.get(o).output.read();
        // With resets a credit bit may stand for a reset alone: the credit's tag decides.
        if !resets {
            router.receive_credit(now, OutPort(o as u8), read.credit(side));
        } else if let Some(c) = read.peek_credit(side) {
            router.receive_credit(now, OutPort(o as u8), c);
        }
    }
    let mut m = flits;
    while m != 0 {
        let p = m.trailing_zeros() as usize;
        m &= m - 1;
        router.receive_flit(
            now,
            InPort(p as u8),
            read.flit(wired.ports.get(p).input.read()),
        );
    }
    router.finish_step(now, scratch);
}

/// A woken router with more than [`MASK_PORTS`] ports reads every line into its inbox
/// and steps as [`step_arrived`] does.
#[cold]
#[inline(never)]
pub(super) fn step_wide<'a>(
    now: Cycle,
    wired: &mut WiredRouter,
    read: &impl ReadSides<'a>,
    resets: bool,
    scratch: &mut StepScratch,
) {
    let any_input = read_all(now, wired, read, resets);
    debug_assert!(
        any_input || !wired.router.is_quiescent(),
        "router visited with nothing to do"
    );
    let router = &mut wired.router;
    router.begin_step(now);
    for (o, c) in wired.credits_in.iter().enumerate() {
        if let Some(c) = *c {
            router.receive_credit(now, OutPort(o as u8), c);
        }
    }
    for (p, f) in wired.flits_in.iter().enumerate() {
        if let Some(f) = f {
            router.receive_flit(now, InPort(p as u8), f);
        }
    }
    router.finish_step(now, scratch);
}

/// A wide router's inbox filled from every line (resets handed over at once).
fn read_all<'a>(
    now: Cycle,
    wired: &mut WiredRouter,
    read: &impl ReadSides<'a>,
    resets: bool,
) -> bool {
    let mut any = false;
    for (slot, w) in wired.flits_in.iter_mut().zip(wired.ports.iter()) {
        *slot = read.peek_flit(w.input.read()).copied();
        any |= slot.is_some();
    }
    for (slot, w) in wired.credits_in.iter_mut().zip(wired.ports.iter()) {
        *slot = read.peek_credit(w.output.read());
        any |= slot.is_some();
    }
    if resets {
        for (o, w) in wired.ports.iter().enumerate() {
            if let Some(r) = read.peek_reset(w.output.read()) {
                wired
                    .router
                    .receive_reset(now, flitsim_netlist::OutPort(o as u8), r);
                any = true;
            }
        }
    }
    any
}
