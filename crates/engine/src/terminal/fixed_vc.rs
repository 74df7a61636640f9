//! Packets placed on a given injection VC (scripted traffic: `flitsim trace --inject
//! C:S:D:L:VC` and packet lists). Such a packet's head leaves when its VC carries no
//! other packet and has a credit, as the RTL router's packet source sends: it does not
//! wait for all the VC's credits to come home, as a packet on the first free VC does.

use super::records::QueuedPacket;
use super::state::Terminal;
use super::tally::Tally;
use flitsim_netlist::{Cycle, TerminalId, VcId};

impl Terminal {
    /// [`Terminal::enqueue`] for a packet that must take injection VC `vc` (below the
    /// router's VC count: the caller checks).
    pub fn enqueue_on_vc(&mut self, now: Cycle, dest: TerminalId, len: u32, vc: VcId) {
        assert!(len >= 1, "packet length must be >= 1");
        assert!(
            vc.index() < self.vcs.len(),
            "injection VC {vc} does not exist"
        );
        self.push_packet(now, dest, len, &mut Tally::default());
        if let Some(p) = self.queue.back_mut() {
            *p = QueuedPacket {
                fixed_vc: Some(vc),
                ..*p
            };
        }
    }

    /// `vc` as the injection VC of the next packet if no packet holds it and it has a
    /// credit.
    pub(super) fn fixed_vc_ready(&self, vc: VcId) -> Option<usize> {
        let v = &self.vcs[vc.index()];
        (!v.owned && v.outstanding < v.depth).then_some(vc.index())
    }
}
