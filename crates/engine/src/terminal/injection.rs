//! Injection: credits home, the packet at the head of the source queue onto a free VC,
//! one flit per cycle, and timeout resets that put a packet back in the queue.

use super::records::{Injecting, InjectionVc, QueuedPacket};
use super::state::Terminal;
use super::tally::Tally;
use flitsim_netlist::{Cycle, VcId};
use flitsim_router::{Credit, Flit, FlitKind, PacketId, Reset, Stamp};

impl Terminal {
    /// A credit delivered at `now` on the injection channel's reverse side.
    #[inline(always)]
    pub fn take_credit(&mut self, now: Cycle, c: Credit) {
        let vc = &mut self.vcs[c.vc.index()];
        assert!(
            vc.outstanding > 0,
            "terminal {} received a credit for {} with none outstanding at cycle {now}",
            self.id,
            c.vc
        );
        vc.outstanding -= 1;
    }

    /// A timeout reset for one of this terminal's packets (delivered at `now`, before the
    /// step): stop sending it if it is still being sent (its flits already out are
    /// discarded by the router, which returns their credits) and put it back at the tail
    /// of the source queue, sendable again `backoff` cycles from now. It keeps its id and
    /// generation cycle, so it is measured (and delivered) once. `tally` gains the change.
    pub fn receive_reset(&mut self, now: Cycle, r: Reset, tally: &mut Tally) {
        debug_assert_eq!(
            r.packet.source, self.id,
            "reset for another terminal's packet"
        );
        if let Some(cur) = self.current.filter(|c| c.next.packet.seq == r.packet.seq) {
            self.vcs[cur.next.vc.index()].owned = false;
            self.current = None;
            tally.queued_out += 1;
        }
        tally.queued_in += 1;
        self.queue.push_back(QueuedPacket {
            seq: r.packet.seq,
            dest: r.dest,
            len: r.len,
            created: r.created,
            not_before: now.plus(self.config.backoff),
            retry: true,
            fixed_vc: None,
        });
        self.resets += 1;
    }

    /// Puts the next flit to send, if any, into `out`.
    #[inline]
    pub(super) fn inject(&mut self, now: Cycle, tally: &mut Tally, out: &mut Option<Flit>) {
        if self.current.is_none() && !self.start_packet(now) {
            return;
        }
        if let Some(done) = send_flit(&mut self.vcs, &mut self.current, out) {
            self.stats.flits_injected += 1;
            tally.queued_out += u64::from(done);
        }
    }

    /// The first free injection VC (no packet on it, all its credits home) in the range
    /// of message class `class`.
    #[inline]
    pub(super) fn free_vc(&self, class: usize) -> Option<usize> {
        let w = self.vcs.len() / usize::from(self.classes);
        let lo = class * w;
        let range = &self.vcs[lo..lo + w];
        let free = range.iter().position(|v| !v.owned && v.outstanding == 0)?;
        Some(lo + free)
    }

    /// The message class of the packet generated here with sequence number `seq`: 0 for
    /// every request of request/reply traffic, else `seq` modulo the classes.
    #[inline]
    fn class_of(&self, seq: u32) -> usize {
        if self.replies.is_some() {
            0
        } else {
            (seq % u32::from(self.classes)) as usize
        }
    }

    /// The packet `p` starting on injection VC `vc` at `now`: its head.
    pub(super) fn injecting(&self, p: &QueuedPacket, vc: usize, now: Cycle) -> Injecting {
        Injecting {
            next: Flit {
                packet: PacketId {
                    source: self.id,
                    seq: p.seq,
                },
                index: 0,
                len: p.len,
                kind: FlitKind::of(0, p.len),
                vc: VcId(vc as u8),
                dest: p.dest,
                created: Stamp::of(p.created),
                injected: Stamp::of(now),
                hops: 0,
            },
        }
    }

    /// Starts sending the packet at the head of the source queue if it may go at `now`
    /// and an injection VC is free (a VC is taken only when all its credits are home);
    /// true when it started. Once per packet: kept out of [`Terminal::inject`], which
    /// runs once per flit.
    #[inline(never)]
    pub(super) fn start_packet(&mut self, now: Cycle) -> bool {
        let Some(&packet) = self.queue.front().filter(|p| p.not_before <= now) else {
            return false;
        };
        let vc = match packet.fixed_vc {
            Some(v) => self.fixed_vc_ready(v),
            None => self.free_vc(self.class_of(packet.seq)),
        };
        let Some(vc) = vc else {
            return false;
        };
        self.queue.pop_front();
        self.retransmissions += u64::from(packet.retry);
        self.vcs[vc].owned = true;
        self.current = Some(self.injecting(&packet, vc, now));
        true
    }
}

/// Puts the next flit of the packet in `slot` into `out` if its VC has a credit; returns
/// whether that flit was its tail (the packet done, its VC released), `None` if nothing
/// was sent.
#[inline(always)]
pub(super) fn send_flit(
    vcs: &mut [InjectionVc],
    slot: &mut Option<Injecting>,
    out: &mut Option<Flit>,
) -> Option<bool> {
    let cur = slot.as_mut()?;
    let vc = &mut vcs[cur.next.vc.index()];
    if vc.outstanding >= vc.depth {
        return None;
    }
    vc.outstanding += 1;
    *out = Some(cur.next);
    let (index, len) = (cur.next.index + 1, cur.next.len);
    if index == len {
        vc.owned = false;
        *slot = None;
        return Some(true);
    }
    // Not the head (index > 0).
    cur.next.index = index;
    cur.next.kind = if index + 1 == len {
        FlitKind::Tail
    } else {
        FlitKind::Body
    };
    Some(false)
}
