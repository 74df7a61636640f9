//! Phase 1 for the routers of a partition: the pending and woken ones step.

use super::pass::Pass;
use super::router_step::{step_arrived, step_wide};
use crate::channel::MASK_PORTS;
use crate::network::partition::Members;
use flitsim_netlist::Cycle;

/// Phase 1: steps the routers of `members` that are pending or woken, taking each one's
/// arrival mask from `arrivals` (one per router, padded to 64 per word; `None`: the
/// partition's, where the wake-ups were delivered), reading through `pass`, and hands
/// each to `pass` after its step.
#[inline(always)]
pub(super) fn step_routers(
    now: Cycle,
    members: &mut Members,
    arrivals: Option<&mut [u64]>,
    pass: &mut impl Pass,
    resets: bool,
) {
    // Without resets (every run without timeouts) the loop is compiled without their
    // tests and the discard counts.
    if resets {
        step_routers_with::<true>(now, members, arrivals, pass);
    } else {
        step_routers_with::<false>(now, members, arrivals, pass);
    }
}

/// [`step_routers`], with resets on or off (`RESETS`).
#[inline(always)]
fn step_routers_with<const RESETS: bool>(
    now: Cycle,
    members: &mut Members,
    arrivals: Option<&mut [u64]>,
    pass: &mut impl Pass,
) {
    let Members {
        routers,
        pending,
        arrivals: delivered,
        stepped,
        status: st,
        wide,
        scratch,
        ..
    } = members;
    let wide = *wide;
    let scratch: &mut flitsim_router::StepScratch = scratch;
    let arrivals = arrivals.unwrap_or(delivered);
    let per_word = pending
        .iter_mut()
        .zip(stepped.iter_mut())
        .zip(arrivals.chunks_exact_mut(64));
    for (w, ((word, stepped), arrivals)) in per_word.enumerate() {
        let mut bits = std::mem::take(word);
        *stepped = bits;
        st.stepped += u64::from(bits.count_ones());
        while bits != 0 {
            let k = bits.trailing_zeros() as usize & 63;
            let i = w * 64 + k;
            bits &= bits - 1;
            let wired = &mut routers[i];
            let arrived = std::mem::take(&mut arrivals[k]);
            let discarded_before = if RESETS {
                wired.router.reset_counters().flits_discarded
            } else {
                0
            };
            {
                let read = pass.read();
                if wide && wired.flits_in.len() > MASK_PORTS {
                    step_wide(now, wired, &read, RESETS, scratch);
                } else {
                    step_arrived(now, wired, arrived, &read, RESETS, scratch);
                }
            }
            if RESETS {
                wired.router.emit_resets(&mut wired.resets_out);
                st.discarded += wired.router.reset_counters().flits_discarded - discarded_before;
            }
            st.router_flits += pass.router_stepped(wired, RESETS);
            if !wired.router.is_quiescent() {
                *word |= 1 << (i % 64);
            }
        }
    }
}
