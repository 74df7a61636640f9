//! Phase 2: what the stepped components wrote is sent onto the partition's own channel
//! sides, and the partition's status published.

use super::send::{wake, Sender};
use crate::channel::{Land, Landing, WakeRef};
use crate::network::partition::{Members, Outbound};
use crate::network::status::Status;
use flitsim_netlist::Cycle;

/// Phase 2 at `now` for partition `members`: what its components stepped this cycle wrote
/// into its own lines' slots due later, the components they wake into the wake-ups;
/// publishes the partition's status.
pub(crate) fn write(now: Cycle, members: &mut Members, out: &mut Outbound) {
    let t = now.0;
    let Outbound {
        flits,
        credits,
        resets,
        wakes,
        status,
    } = out;
    for w in wakes.iter_mut() {
        w.prepare(t);
    }
    match members.latency {
        Some(l) => send_stepped(
            members,
            Sender {
                at: Landing::new(t, l),
                flits,
                credits,
                resets,
                wake: |w, due| wake(wakes, w, due),
            },
        ),
        None => send_stepped(
            members,
            Sender {
                at: t,
                flits,
                credits,
                resets,
                wake: |w, due| wake(wakes, w, due),
            },
        ),
    }
    publish(now, members, status);
}

/// Phase 2: sends through `send` what the components of `members` stepped this cycle wrote.
#[inline(always)]
fn send_stepped<A: Land, W: FnMut(WakeRef, u64)>(
    members: &mut Members,
    mut send: Sender<'_, A, W>,
) {
    let resets = !send.resets.is_empty();
    for (w, &word) in members.stepped.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            members.status.router_flits += send.router(&mut members.routers[i], resets);
        }
    }
    for (w, word) in members.stepped_terminals.iter_mut().enumerate() {
        let mut bits = std::mem::take(word);
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            members.status.injected += send.terminal(&mut members.terminals[i]);
        }
    }
}

/// The end of a cycle at `now`: the partition's status published into `status`.
pub(super) fn publish(now: Cycle, members: &mut Members, status: &mut Status) {
    debug_assert!(
        members
            .terminals
            .iter()
            .all(|n| n.flit_out.is_none() && n.credit_out.is_none()),
        "a terminal not stepped has an output"
    );
    let st = &mut members.status;
    st.moved = st.router_flits + st.injected + st.consumed + st.discarded > members.moved_before;
    *status = *st;
    super::trace::collect(now, members);
}
