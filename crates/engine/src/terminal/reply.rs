//! Request/reply traffic (`reply_length`): every packet a terminal generates is a request;
//! the terminal consuming a request's tail generates a reply back to the request's source
//! `service_delay` cycles later.
//!
//! A terminal holds at most `reply_queue` replies (in service, waiting for an injection VC
//! or being injected). While it holds that many it does not consume a request's tail: the
//! tail waits in the terminal's ejection buffer (one FIFO per ejection VC, as deep as the
//! router's `buffer_depth`) with every flit behind it on that VC, and their credits stay
//! with the terminal. Request consumption thus depends on reply injection: the model of a
//! protocol deadlock. The terminal consumes at most one flit per cycle (one credit per
//! cycle goes back on the ejection channel), a waiting one before one arriving.
//!
//! Replies are injected before requests: each cycle the reply being injected (or the next
//! one, on a free VC of its class) sends a flit if it can, and the request stream only
//! otherwise. With `message_classes >= 2`, requests take class 0 and replies class 1.
//! A reply's sequence number has [`REPLY_BIT`] set.

use super::records::{QueuedPacket, Replies, ReplyConfig};
use super::state::Terminal;
use super::tally::Tally;
use flitsim_netlist::{Cycle, VcId};
use flitsim_router::{Credit, Flit};
use std::collections::VecDeque;

/// Set in the sequence number of every reply (requests count from 0 below it).
pub const REPLY_BIT: u32 = 1 << 31;

/// Is `f` a reply's flit?
#[inline]
pub fn is_reply(f: &Flit) -> bool {
    f.packet.seq & REPLY_BIT != 0
}

impl Replies {
    pub(super) fn new(config: ReplyConfig, ejection_vcs: u8) -> Replies {
        Replies {
            config,
            serving: VecDeque::new(),
            ready: VecDeque::new(),
            current: None,
            next_seq: 0,
            held: vec![VecDeque::new(); usize::from(ejection_vcs)],
            held_total: 0,
            next_vc: 0,
        }
    }

    /// Replies held: in service, waiting, being injected.
    pub(super) fn packets(&self) -> usize {
        self.serving.len() + self.ready.len() + usize::from(self.current.is_some())
    }

    /// Nothing held: no reply, no flit in the ejection buffer.
    pub(super) fn is_empty(&self) -> bool {
        self.packets() == 0 && self.held_total == 0
    }

    /// Flits of ejection VC `vc` in the ejection buffer.
    pub(super) fn held(&self, vc: VcId) -> u32 {
        self.held.get(vc.index()).map_or(0, |q| q.len() as u32)
    }

    /// `f` may not be consumed now: a request's tail while the reply queue is full.
    fn refuses(&self, f: &Flit) -> bool {
        f.kind.is_tail() && !is_reply(f) && self.packets() >= self.config.queue as usize
    }

    /// The ejection VC whose first waiting flit may be consumed now (round robin).
    fn releasable(&mut self) -> Option<usize> {
        let n = self.held.len();
        let v = (0..n)
            .map(|i| (self.next_vc + i) % n)
            .find(|&v| self.held[v].front().is_some_and(|f| !self.refuses(f)))?;
        self.next_vc = (v + 1) % n;
        Some(v)
    }

    fn hold(&mut self, f: Flit) {
        self.held[f.vc.index()].push_back(f);
        self.held_total += 1;
    }

    /// The ejection VCs whose first waiting flit is refused, and the injection VCs the
    /// reply stream waits for (see [`Terminal::reply_wait`]).
    fn refused_vcs(&self) -> Vec<VcId> {
        (0..self.held.len())
            .filter(|&v| self.held[v].front().is_some_and(|f| self.refuses(f)))
            .map(|v| VcId(v as u8))
            .collect()
    }
}

/// What a request/reply terminal waits for (the watchdog's wait-for graph): its ejection
/// VCs whose waiting request tail it refuses, and the injection VCs (input port 0 of its
/// router) its next reply needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyWait {
    /// Ejection VCs blocked by a refused request tail.
    pub ejection_vcs: Vec<VcId>,
    /// Injection VCs the reply stream waits for.
    pub injection_vcs: Vec<VcId>,
}

impl Terminal {
    /// The terminal with request/reply traffic `config`; `ejection_vcs` is the VC count
    /// of its ejection channel.
    pub fn with_replies(mut self, config: ReplyConfig, ejection_vcs: u8) -> Terminal {
        self.replies = Some(Box::new(Replies::new(config, ejection_vcs)));
        self
    }

    /// Ejection with replies (see the module docs): consumes a waiting flit or the one
    /// arriving, at most one, and returns its credit.
    pub(super) fn eject_with_replies(
        &mut self,
        now: Cycle,
        flit_in: Option<&Flit>,
        tally: &mut Tally,
        credit_out: &mut Option<Credit>,
    ) {
        let Some(mut r) = self.replies.take() else {
            return;
        };
        if r.held_total > 0 {
            if let Some(v) = r.releasable() {
                let f = r.held[v].pop_front().expect("a waiting flit");
                r.held_total -= 1;
                self.consume_request(now, &f, &mut r, tally);
                *credit_out = Some(Credit { vc: f.vc });
            }
        }
        if let Some(f) = flit_in {
            if credit_out.is_some() || !r.held[f.vc.index()].is_empty() || r.refuses(f) {
                r.hold(*f);
            } else {
                self.consume_request(now, f, &mut r, tally);
                *credit_out = Some(Credit { vc: f.vc });
            }
        }
        self.replies = Some(r);
    }

    /// Consumes `f`; a request's tail puts its reply in service.
    fn consume_request(&mut self, now: Cycle, f: &Flit, r: &mut Replies, tally: &mut Tally) {
        self.consume(now, f, tally);
        if f.kind.is_tail() && !is_reply(f) {
            let at = now.plus(u64::from(r.config.service_delay));
            r.serving.push_back((at, f.packet.source));
            tally.queued_in += 1;
        }
    }

    /// Generates the replies whose service ends at `now` and puts the next flit of a
    /// reply into `out` if one can go.
    pub(super) fn step_replies(&mut self, now: Cycle, tally: &mut Tally, out: &mut Option<Flit>) {
        let Some(mut r) = self.replies.take() else {
            return;
        };
        while let Some(&(_, dest)) = r.serving.front().filter(|s| s.0 <= now) {
            r.serving.pop_front();
            let seq = REPLY_BIT | r.next_seq;
            r.next_seq = (r.next_seq + 1) & !REPLY_BIT;
            let len = r.config.length;
            self.count_generated(now, len, tally);
            r.ready.push_back(QueuedPacket {
                seq,
                dest,
                len,
                created: now,
                not_before: now,
                retry: false,
                fixed_vc: None,
            });
        }
        if r.current.is_none() {
            if let Some(&p) = r.ready.front() {
                if let Some(vc) = self.free_vc(self.reply_class()) {
                    r.ready.pop_front();
                    self.vcs[vc].owned = true;
                    r.current = Some(self.injecting(&p, vc, now));
                }
            }
        }
        if let Some(done) = super::injection::send_flit(&mut self.vcs, &mut r.current, out) {
            self.stats.flits_injected += 1;
            tally.queued_out += u64::from(done);
        }
        self.replies = Some(r);
    }

    /// The message class of replies: 1 with two or more classes, else 0.
    fn reply_class(&self) -> usize {
        usize::from(self.classes > 1)
    }

    /// Replies held (in service, waiting, being injected); 0 without request/reply traffic.
    pub fn replies_held(&self) -> usize {
        self.replies.as_ref().map_or(0, |r| r.packets())
    }

    /// Flits of ejection VC `vc` waiting in the ejection buffer (not consumed, credit not
    /// returned); 0 without request/reply traffic.
    pub fn ejection_held(&self, vc: VcId) -> u32 {
        self.replies.as_ref().map_or(0, |r| r.held(vc))
    }

    /// Flits waiting in the ejection buffer, all VCs.
    pub fn ejection_held_total(&self) -> u64 {
        self.replies.as_ref().map_or(0, |r| u64::from(r.held_total))
    }

    /// What the terminal waits for, if it refuses a request tail (for the watchdog).
    pub fn reply_wait(&self) -> Option<ReplyWait> {
        let r = self.replies.as_ref()?;
        let ejection_vcs = r.refused_vcs();
        if ejection_vcs.is_empty() {
            return None;
        }
        let injection_vcs = match &r.current {
            Some(cur) => vec![cur.next.vc],
            // The reply queue empties by the service delay alone.
            None if r.ready.is_empty() => return None,
            None => {
                let w = self.vcs.len() / usize::from(self.classes);
                let lo = self.reply_class() * w;
                (lo..lo + w).map(|v| VcId(v as u8)).collect()
            }
        };
        Some(ReplyWait {
            ejection_vcs,
            injection_vcs,
        })
    }
}
