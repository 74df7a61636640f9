//! Phase 1 for the terminals of a partition: the woken, the busy and the ones their
//! calendar names step; the other idle ones are skipped.

use super::pass::Pass;
use super::read::ReadSides;
use crate::channel::{TERMINAL_CREDIT, TERMINAL_FLIT};
use crate::network::partition::Members;
use crate::network::status::Status;
use crate::network::wired::WiredTerminal;
use flitsim_netlist::Cycle;

/// Trials an idle terminal draws ahead at most ([`crate::terminal::Terminal::look_ahead`]):
/// bounds the draws past the end of a run.
const LOOK_AHEAD: u64 = 1024;

/// Phase 1 for the terminals of a partition: the ones something arrives for (they read
/// the lines their arrival masks name, taken from `arrivals`, one per terminal padded to
/// 64 per word; `None`: the partition's, where the wake-ups were delivered), the ones not
/// idle, and the idle ones whose calendar entry is due (their trial succeeds now, or
/// their drawn trials end); the other idle terminals' steps would change nothing (their
/// trials for now are drawn already and failed), so they are skipped, and such a terminal
/// woken for a credit alone only takes it ([`crate::terminal::Terminal::quiet_at`]; with
/// resets and tracing off). Each one stepped is handed to `pass` after its step.
#[inline(always)]
pub(super) fn step_terminals(
    now: Cycle,
    members: &mut Members,
    arrivals: Option<&mut [u64]>,
    pass: &mut impl Pass,
    resets: bool,
) {
    // Without resets and tracing (every measuring run without timeouts) the loop is
    // compiled without their tests.
    if resets || members.trace.is_some() {
        step_terminals_with::<true>(now, members, arrivals, pass, resets);
    } else {
        step_terminals_with::<false>(now, members, arrivals, pass, false);
    }
}

/// [`step_terminals`]; with `FEATURES` false, resets and tracing are known to be off.
#[inline(always)]
fn step_terminals_with<const FEATURES: bool>(
    now: Cycle,
    members: &mut Members,
    arrivals: Option<&mut [u64]>,
    pass: &mut impl Pass,
    resets: bool,
) {
    let t = now.0;
    let Members {
        terminals,
        arriving,
        terminal_arrivals: delivered,
        busy,
        calendar,
        stepped_terminals,
        status: st,
        trace,
        ..
    } = members;
    let arrivals = arrivals.unwrap_or(delivered);
    #[cfg(debug_assertions)]
    check_wakes(t, terminals, arriving, arrivals, &pass.read(), resets);
    calendar.take(t, |i| busy[i / 64] |= 1 << (i % 64));
    let (resets, tracing) = (FEATURES && resets, FEATURES && trace.is_some());
    let per_word = arriving
        .iter_mut()
        .zip(busy.iter_mut())
        .zip(arrivals.chunks_exact_mut(64));
    for (w, ((word, keep), arrivals)) in per_word.enumerate() {
        let mut bits = std::mem::take(word) | *keep;
        stepped_terminals[w] = bits;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize & 63;
            bits &= bits - 1;
            let i = w * 64 + k;
            let wired = &mut terminals[i];
            // 0 for a terminal not woken.
            let arrived = std::mem::take(&mut arrivals[k]);
            if !FEATURES
                && arrived == TERMINAL_CREDIT
                && calendar.filed(i)
                && wired.terminal.quiet_at(now)
            {
                // The step would take the credit and nothing else: no output, still
                // idle, and the calendar entry its last step filed still the one to keep
                // (none after a run's start: then it steps). Resets known off: the bit is
                // a credit.
                wired
                    .terminal
                    .take_credit(now, pass.read().credit(wired.read_credits));
                *keep &= !(1 << k);
                continue;
            }
            step_terminal(now, wired, arrived, &pass.read(), st, (resets, tracing));
            st.injected += pass.terminal_stepped(wired);
            if tracing || !wired.terminal.is_idle() {
                *keep |= 1 << k;
                continue;
            }
            *keep &= !(1 << k);
            if let Some(next) = wired.terminal.look_ahead(now, LOOK_AHEAD) {
                calendar.file(i, next.0);
            }
        }
    }
}

/// Steps terminal `wired`, handing it what its arrival mask `arrived` names, read through
/// `read`: a reset first (if `resets`), then the flit and the credit; the step's events
/// are traced if `tracing`.
#[inline(always)]
fn step_terminal<'a>(
    now: Cycle,
    wired: &mut WiredTerminal,
    arrived: u64,
    read: &impl ReadSides<'a>,
    st: &mut Status,
    (resets, tracing): (bool, bool),
) {
    if resets && arrived & TERMINAL_CREDIT != 0 {
        if let Some(r) = read.peek_reset(wired.read_credits) {
            wired.terminal.receive_reset(now, r, &mut st.tally);
            if let Some(tr) = &mut wired.trace {
                tr.push(crate::trace::TerminalEvent::ResetIn { packet: r.packet });
            }
        }
    }
    let flit_in = (arrived & TERMINAL_FLIT != 0).then(|| read.flit(wired.read_flits));
    // With resets a credit bit may stand for a reset alone: the credit's tag decides.
    let credit_in = if arrived & TERMINAL_CREDIT == 0 {
        None
    } else if resets {
        read.peek_credit(wired.read_credits)
    } else {
        Some(read.credit(wired.read_credits))
    };
    st.consumed += u64::from(arrived & TERMINAL_FLIT != 0);
    wired.terminal.step_into(
        now,
        flit_in,
        credit_in,
        &mut st.tally,
        &mut wired.flit_out,
        &mut wired.credit_out,
    );
    // Every terminal's buffer is on while tracing: the flag spares the load.
    if tracing {
        if let Some(t) = &mut wired.trace {
            crate::trace::event::terminal_step(
                t,
                flit_in.copied(),
                credit_in,
                wired.flit_out,
                wired.credit_out,
            );
        }
    }
}

/// The wake-ups at cycle `t` missed nothing and named nothing extra: `arriving` and
/// `arrivals` agree with every terminal's channel sides read in full (a credit bit may
/// stand for a reset alone).
#[cfg(debug_assertions)]
fn check_wakes<'a>(
    t: u64,
    terminals: &[WiredTerminal],
    arriving: &[u64],
    arrivals: &[u64],
    read: &impl ReadSides<'a>,
    resets: bool,
) {
    for (i, wired) in terminals.iter().enumerate() {
        let m = arrivals[i];
        assert_eq!(arriving[i / 64] >> (i % 64) & 1, u64::from(m != 0));
        let reset = resets && read.peek_reset(wired.read_credits).is_some();
        assert!(
            (m & TERMINAL_FLIT != 0) == read.peek_flit(wired.read_flits).is_some()
                && (m & TERMINAL_CREDIT != 0)
                    == (read.peek_credit(wired.read_credits).is_some() || reset),
            "terminal {i} at cycle {t}: wake-ups and lines disagree"
        );
    }
}
