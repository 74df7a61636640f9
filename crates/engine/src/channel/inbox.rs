//! Inboxes: the items one writer partition's cut sides deliver to one reader partition
//! during a lookahead window, copied out of the writer's delay lines before the window,
//! so the reader never touches lines their writer is filling.

use super::delay_line::{Blank, DelayLines};
use super::ring::DelayLine;
use super::side::WriteSide;
use super::wakes::WakeSpot;
use flitsim_router::{Credit, Flit, Reset};

/// A channel side its writer's partition writes and another partition reads: a side
/// crossing a partition boundary.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CutSide {
    /// The writer's line and the reader it wakes.
    pub side: WriteSide,
    /// A forward side (flits), or a reverse one (credits and resets).
    pub forward: bool,
}

impl CutSide {
    /// Sorts `cuts` by line (the order [`Inbox::fill`] needs), each side once.
    pub fn sort(cuts: &mut Vec<CutSide>) {
        cuts.sort_by_key(|c| (c.side.line.start, c.forward));
        cuts.dedup();
    }
}

/// The items due in a range of cycles on one writer's cut sides read by one reader, and
/// the reader's wake-ups for them, each sorted by (cycle, line).
#[derive(Clone, Debug, Default)]
pub struct Inbox {
    flits: Vec<(u64, u32, Flit)>,
    credits: Vec<(u64, u32, Credit)>,
    resets: Vec<(u64, u32, Reset)>,
    wakes: Vec<(u64, WakeSpot)>,
}

/// A writer partition's delay lines, as an inbox copies from them.
#[derive(Copy, Clone, Debug)]
pub struct Lines<'a> {
    /// Forward sides.
    pub flits: &'a DelayLines<Flit>,
    /// Reverse sides.
    pub credits: &'a DelayLines<Credit>,
    /// Timeout resets on reverse sides (empty without timeouts).
    pub resets: &'a DelayLines<Reset>,
}

impl Inbox {
    /// An inbox holding nothing.
    pub const EMPTY: Inbox = Inbox {
        flits: Vec::new(),
        credits: Vec::new(),
        resets: Vec::new(),
        wakes: Vec::new(),
    };

    /// Refills the inbox with the items due in `from..to` on `cuts` (one writer's sides
    /// read by one reader, sorted by line), read from the writer's `lines`.
    pub fn fill(&mut self, cuts: &[CutSide], lines: Lines<'_>, from: u64, to: u64) {
        self.flits.clear();
        self.credits.clear();
        self.resets.clear();
        self.wakes.clear();
        for due in from..to {
            for c in cuts {
                let line = c.side.line;
                let found = if c.forward {
                    copy(&mut self.flits, lines.flits, line, due)
                } else {
                    let credit = copy(&mut self.credits, lines.credits, line, due);
                    let reset =
                        !lines.resets.is_empty() && copy(&mut self.resets, lines.resets, line, due);
                    credit || reset
                };
                if found {
                    self.wakes.push((due, c.side.wake.spot));
                }
            }
        }
    }

    /// The flit due at `due` on `line`, if any.
    #[inline]
    pub fn flit(&self, due: u64, line: DelayLine) -> Option<&Flit> {
        find(&self.flits, due, line)
    }

    /// The credit due at `due` on `line`, if any.
    #[inline]
    pub fn credit(&self, due: u64, line: DelayLine) -> Option<Credit> {
        find(&self.credits, due, line).copied()
    }

    /// The reset due at `due` on `line`, if any.
    #[inline]
    pub fn reset(&self, due: u64, line: DelayLine) -> Option<Reset> {
        find(&self.resets, due, line).copied()
    }

    /// Adds the components woken at `due` to the reader's router bit set and arrival
    /// masks (`routers`) and its terminals' (`terminals`), as [`Wakes::deliver`] does.
    ///
    /// [`Wakes::deliver`]: super::Wakes::deliver
    pub fn wake(
        &self,
        due: u64,
        routers: (&mut [u64], &mut [u64]),
        terminals: (&mut [u64], &mut [u64]),
    ) {
        let lo = self.wakes.partition_point(|w| w.0 < due);
        let hi = self.wakes.partition_point(|w| w.0 <= due);
        let (bits, masks) = routers;
        let (tbits, tmasks) = terminals;
        for (_, spot) in &self.wakes[lo..hi] {
            spot.add_to((&mut *bits, &mut *masks), (&mut *tbits, &mut *tmasks));
        }
    }

    /// Items held (flits, credits and resets).
    pub fn len(&self) -> usize {
        self.flits.len() + self.credits.len() + self.resets.len()
    }

    /// No item held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Appends the item due at `due` on `line` of `from`, if any, to `to`; returns whether
/// there was one.
fn copy<T: Blank>(
    to: &mut Vec<(u64, u32, T)>,
    from: &DelayLines<T>,
    line: DelayLine,
    due: u64,
) -> bool {
    match from.peek(line, due) {
        Some(item) => {
            to.push((due, line.start, *item));
            true
        }
        None => false,
    }
}

/// The item due at `due` on `line` in `items` (sorted by cycle and line).
#[inline]
fn find<T>(items: &[(u64, u32, T)], due: u64, line: DelayLine) -> Option<&T> {
    items
        .binary_search_by(|(d, s, _)| (*d, *s).cmp(&(due, line.start)))
        .ok()
        .map(|i| &items[i].2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{WakeRef, Wakes};

    #[test]
    fn an_inbox_holds_what_the_lines_deliver_and_wakes_as_the_wakes_do() {
        let (mut flits, mut credits) = (DelayLines::<Flit>::default(), DelayLines::default());
        let resets = DelayLines::<Reset>::default();
        let (f0, f1, c0) = (flits.push(2), flits.push(3), credits.push(2));
        let mut wakes = Wakes::new(3, 70);
        let spot = |id: u32, what: u64| wakes.spot(id, what);
        let cut = |line, forward, id, what| CutSide {
            side: WriteSide {
                line,
                wake: WakeRef {
                    part: 1,
                    spot: spot(id, what),
                },
            },
            forward,
        };
        let cuts = [
            cut(f0, true, 3, 1),
            cut(c0, false, 3, 1 << 33),
            cut(f1, true, 66, 4),
        ];
        let credit = Credit {
            vc: flitsim_netlist::VcId(1),
        };
        for t in 0..4u64 {
            wakes.prepare(t);
            if t % 2 == 0 {
                flits.send(f0, t, &Flit::PLACEHOLDER);
                wakes.wake(t + 2, 3, 1);
            }
            credits.send(c0, t, &credit);
            wakes.wake(t + 2, 3, 1 << 33);
        }
        flits.send(f1, 3u64, &Flit::PLACEHOLDER);
        wakes.wake(6, 66, 4);
        let mut inbox = Inbox::default();
        let lines = Lines {
            flits: &flits,
            credits: &credits,
            resets: &resets,
        };
        inbox.fill(&cuts, lines, 4, 7);
        assert_eq!(inbox.len(), 2 + 2);
        for due in 4..7u64 {
            assert_eq!(inbox.flit(due, f0), flits.peek(f0, due), "cycle {due}");
            assert_eq!(inbox.flit(due, f1), flits.peek(f1, due), "cycle {due}");
            assert_eq!(inbox.credit(due, c0), credits.peek(c0, due).copied());
            let mut from_inbox = (vec![0; 2], vec![0; 128], vec![0; 2], vec![0; 128]);
            let mut from_wakes = from_inbox.clone();
            let (a, b, c, d) = &mut from_inbox;
            inbox.wake(due, (a, b), (c, d));
            let (a, b, c, d) = &mut from_wakes;
            wakes.deliver(due, (a, b), (c, d));
            assert_eq!(from_inbox, from_wakes, "cycle {due}");
        }
        assert_eq!(inbox.flit(3, f0), None);
    }
}
