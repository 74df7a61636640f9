//! Scripted packets on a given injection VC.

use super::Simulation;
use crate::network::PHASE_BUG;
use flitsim_netlist::{TerminalId, VcId};

impl Simulation {
    /// [`Simulation::enqueue`] for a packet that must take injection VC `vc` of terminal
    /// `src` (see [`crate::terminal::Terminal::enqueue_on_vc`]); `vc` must be below the
    /// VC count of the terminal's router port.
    pub fn enqueue_on_vc(&mut self, src: TerminalId, dest: TerminalId, len: u32, vc: VcId) {
        let p = self.net.part_of_terminal(src.index());
        let members = self.net.parts[p].members.get_mut().expect(PHASE_BUG);
        let lo = members.terminal_lo;
        members.terminals[src.index() - lo]
            .terminal
            .enqueue_on_vc(self.now, dest, len, vc);
    }
}
