//! The terminals' calendar: the idle terminals of a partition by the cycle they must be
//! stepped in even if nothing arrives for them (their next generation, or the end of
//! their drawn trials: [`crate::terminal::Terminal::look_ahead`]).
//!
//! A timing wheel: entry `(c, terminal)` is filed in bucket `c % BUCKETS`, so filing and
//! taking the entries of a cycle cost a few instructions each, with no ordering work.
//! Entries are filed for later cycles only and the bucket of every cycle is taken in its
//! cycle; an entry more than a wheel's turn ahead stays in its bucket until its round.
//! Each terminal has at most one live entry: filing it again for another cycle leaves the
//! old entry behind, stale, and taking a bucket drops the stale ones. A bucket is a list
//! linked through one arena of entries (no allocation per bucket; freed entries are
//! reused).

/// Buckets of the wheel (a power of two): one turn is the terminals' look-ahead horizon
/// (`LOOK_AHEAD` of the cycle's terminal step), so few entries wait for a later turn.
const BUCKETS: usize = 1024;

/// The end of a list.
const NIL: u32 = u32::MAX;

/// One entry of the arena: in a bucket's list, or in the free list.
#[derive(Copy, Clone, Debug)]
struct Entry {
    cycle: u64,
    terminal: u32,
    next: u32,
}

/// Idle terminals (local indices) by the cycle they must step in.
#[derive(Debug)]
pub(crate) struct Calendar {
    /// Bucket `c % BUCKETS`: the first entry of the list of entries filed for cycles `c`.
    heads: Box<[u32]>,
    /// Every entry, each in one bucket's list or in the free list.
    entries: Vec<Entry>,
    /// The first free entry.
    free: u32,
    /// Per terminal, the cycle of its live entry (`u64::MAX`: none).
    at: Box<[u64]>,
}

impl Calendar {
    /// An empty calendar of `terminals` terminals.
    pub fn new(terminals: usize) -> Calendar {
        Calendar {
            heads: vec![NIL; BUCKETS].into_boxed_slice(),
            entries: Vec::with_capacity(2 * terminals),
            free: NIL,
            at: vec![u64::MAX; terminals].into_boxed_slice(),
        }
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.heads.fill(NIL);
        self.entries.clear();
        self.free = NIL;
        self.at.fill(u64::MAX);
    }

    /// Has terminal `i` a live entry (it was filed, and its cycle is not taken yet)?
    #[inline(always)]
    pub fn filed(&self, i: usize) -> bool {
        self.at[i] != u64::MAX
    }

    /// Files terminal `i` for cycle `c` (later than the cycle being stepped), replacing
    /// its live entry, if any.
    #[inline]
    pub fn file(&mut self, i: usize, c: u64) {
        if self.at[i] == c {
            return;
        }
        self.at[i] = c;
        let head = &mut self.heads[c as usize % BUCKETS];
        let entry = Entry {
            cycle: c,
            terminal: i as u32,
            next: *head,
        };
        *head = match self.entries.get_mut(self.free as usize) {
            Some(e) => {
                let reused = self.free;
                self.free = e.next;
                *e = entry;
                reused
            }
            None => {
                self.entries.push(entry);
                (self.entries.len() - 1) as u32
            }
        };
    }

    /// Takes the live entries of cycle `now` (every earlier cycle's were taken in their
    /// cycle), handing each terminal to `due`, and drops the stale ones of its bucket.
    #[inline]
    pub fn take(&mut self, now: u64, mut due: impl FnMut(usize)) {
        let head = &mut self.heads[now as usize % BUCKETS];
        let mut e = std::mem::replace(head, NIL);
        while e != NIL {
            let entry = &mut self.entries[e as usize];
            let next = entry.next;
            debug_assert!(
                entry.cycle >= now,
                "calendar entry of terminal {} for {} missed",
                entry.terminal,
                entry.cycle
            );
            if entry.cycle > now {
                // A later turn of the wheel.
                entry.next = *head;
                *head = e;
            } else {
                let i = entry.terminal as usize;
                entry.next = self.free;
                self.free = e;
                if self.at[i] == now {
                    self.at[i] = u64::MAX;
                    due(i);
                }
            }
            e = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(cal: &mut Calendar, now: u64) -> Vec<usize> {
        let mut due = Vec::new();
        cal.take(now, |i| due.push(i));
        due.sort_unstable();
        due
    }

    #[test]
    fn entries_come_due_in_their_cycle_and_a_refiled_one_only_at_its_new_cycle() {
        let mut cal = Calendar::new(4);
        cal.file(0, 5);
        cal.file(1, 5);
        cal.file(2, 7);
        cal.file(3, 6);
        // Terminal 3 re-filed for a later cycle: its entry for 6 is stale.
        cal.file(3, 9);
        // Filed again for the same cycle: still one entry.
        cal.file(2, 7);
        let due: Vec<_> = (1..=9).map(|t| (t, take(&mut cal, t))).collect();
        assert_eq!(
            due.into_iter()
                .filter(|(_, d)| !d.is_empty())
                .collect::<Vec<_>>(),
            vec![(5, vec![0, 1]), (7, vec![2]), (9, vec![3])]
        );
        assert!(cal.heads.iter().all(|&h| h == NIL));
        // Every entry was freed, and is reused.
        let arena = cal.entries.len();
        cal.file(0, 12);
        cal.file(1, 13);
        assert_eq!(cal.entries.len(), arena);
    }

    #[test]
    fn an_entry_more_than_a_turn_ahead_waits_for_its_round() {
        let mut cal = Calendar::new(2);
        let far = 3 + 2 * BUCKETS as u64;
        cal.file(0, far);
        cal.file(1, 3);
        assert_eq!(take(&mut cal, 3), vec![1]);
        for t in 4..far {
            assert!(take(&mut cal, t).is_empty(), "cycle {t}");
        }
        assert_eq!(take(&mut cal, far), vec![0]);
    }

    #[test]
    fn clear_drops_every_entry() {
        let mut cal = Calendar::new(2);
        cal.file(0, 4);
        cal.clear();
        assert!(take(&mut cal, 4).is_empty());
        // A terminal filed again for the cycle it had before the clear is filed anew.
        cal.file(0, 4);
        assert_eq!(take(&mut cal, 4), vec![0]);
    }
}
