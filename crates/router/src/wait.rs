//! The watchdog's view of a router: which input VCs cannot advance and why, and whether
//! anything is still inside a pipeline delay.

use crate::vc_state::VcPhase;
use crate::Router;
use flitsim_netlist::{Cycle, InPort, OutPort, VcId};
use smallvec::SmallVec;

/// Why an input VC cannot advance (for the deadlock watchdog).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum WaitReason {
    /// Its head waits for an output VC and none of its candidates is free.
    NoFreeVc,
    /// It holds an output VC and that VC has no credit (downstream FIFO full).
    NoCredit,
    /// A resource is free but another VC won the allocation this cycle.
    LostArbitration,
}

/// An input VC that cannot advance, and what it waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VcWait {
    /// Input port of the waiting VC.
    pub in_port: InPort,
    /// The waiting VC.
    pub vc: VcId,
    /// The output port it waits on (when waiting for a VC: the candidate the selection
    /// rule waits for, [`crate::pipeline::vc_alloc::VcAlloc::wait_target`]).
    pub out_port: OutPort,
    /// The downstream VCs it waits for (its candidate VCs, or the one VC it holds).
    pub out_vcs: SmallVec<[VcId; 8]>,
    /// Why it waits.
    pub reason: WaitReason,
}

impl Router {
    /// For the watchdog: every input VC that holds a packet and could not advance in the
    /// last step, with the output port and downstream VCs it waits for and why. VCs
    /// still inside a pipeline delay (`ready_at` in the future) are not listed.
    pub fn waits(&self) -> Vec<VcWait> {
        let s = &self.state;
        let now = s.buffers.now();
        let mut out = Vec::new();
        for (i, vc) in s.vcs.iter().enumerate() {
            let (p, v) = s.layout.in_split(i);
            if !vc.ready(now) {
                continue;
            }
            match vc.phase {
                VcPhase::VcWait => {
                    let Some((c, free)) = self.va.wait_target(s, i) else {
                        continue;
                    };
                    let reason = if free {
                        WaitReason::LostArbitration
                    } else {
                        WaitReason::NoFreeVc
                    };
                    out.push(VcWait {
                        in_port: InPort(p as u8),
                        vc: VcId(v),
                        out_port: c.port,
                        out_vcs: c.vcs.iter().collect(),
                        reason,
                    });
                }
                VcPhase::Active if s.front_arrived(i, now).is_some() => {
                    let ovc = s.layout.ovc(vc.out_port.index(), vc.out_vc.0);
                    let reason = if s.outputs[ovc].credits.has_credit() {
                        WaitReason::LostArbitration
                    } else {
                        WaitReason::NoCredit
                    };
                    out.push(VcWait {
                        in_port: InPort(p as u8),
                        vc: VcId(v),
                        out_port: vc.out_port,
                        out_vcs: SmallVec::from_slice(&[vc.out_vc]),
                        reason,
                    });
                }
                _ => {}
            }
        }
        out
    }

    /// Whether a flit or credit is inside a pipeline delay (route computation, VC or
    /// switch allocation, the crossbar, the credit delay): the router acts later without
    /// any other event, at cycle `now` or later. The watchdog counts this as progress.
    pub fn in_pipeline(&self, now: Cycle) -> bool {
        let s = &self.state;
        s.vcs
            .iter()
            .any(|vc| vc.phase != VcPhase::Idle && !vc.ready(now))
            || !self.crossbar.is_empty()
            || !self.credit_return.is_empty()
    }
}
