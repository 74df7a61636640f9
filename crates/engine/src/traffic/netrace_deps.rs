//! The dependents a netrace file lists, kept flat while the file is read, bounded by the
//! memory the run may take, and resolved to packet indices at the end.
//!
//! A packet may list 255 dependents in 1,024 bytes, which bzip2 compresses about 200:1:
//! a small file can expand into gigabytes. So every packet read is counted against the
//! memory limit before it is stored, and every buffer grows with `try_reserve`, so that a
//! trace too large for the machine is a message, never an aborted allocation.

use crate::setup::memory::MemoryLimit;
use std::collections::HashMap;

/// Bytes one packet takes while the trace is read and replayed, besides its dependents:
/// the packet, its `ends` entry, its `index_of` entry (a hash map slot at worst half
/// full), and its `parents` and `offsets` entries.
pub(super) const BYTES_PER_PACKET: u64 =
    std::mem::size_of::<super::TracePacket>() as u64 + 4 + 2 * 9 + 4 + 4;

/// The listed dependent ids of every packet read so far, flat.
pub(super) struct RawDependents {
    ids: Vec<u32>,
    ends: Vec<u32>,
    limit: Option<MemoryLimit>,
}

/// The resolved dependents: per packet its parent count, and the indices of its
/// dependents in `dependents[offsets[i]..offsets[i + 1]]`.
#[derive(Debug)]
pub(super) struct Resolved {
    pub parents: Vec<u32>,
    pub offsets: Vec<u32>,
    pub dependents: Vec<u32>,
    pub missing: u64,
}

impl RawDependents {
    /// An empty list bounded by `limit` (`None`: by nothing but `try_reserve`).
    pub fn new(limit: Option<MemoryLimit>) -> RawDependents {
        RawDependents {
            ids: Vec::new(),
            ends: Vec::new(),
            limit,
        }
    }

    /// The bytes the trace needs with `packets` packets and `ids` dependents.
    pub fn bytes(packets: u64, ids: u64) -> u64 {
        packets * BYTES_PER_PACKET + 4 * ids
    }

    /// Stores the next packet's dependent ids, after checking that the trace still fits.
    ///
    /// # Errors
    /// The trace with this packet needs more memory than the limit, or an allocation
    /// failed; the message says how much it needs.
    pub fn push(&mut self, ids: &[u32]) -> Result<(), String> {
        let packets = self.ends.len() as u64 + 1;
        let total = self.ids.len() as u64 + ids.len() as u64;
        let need = Self::bytes(packets, total);
        if let Some(limit) = self.limit.filter(|l| need > l.bytes) {
            return Err(too_large(need, Some(limit)));
        }
        let end = u32::try_from(total).map_err(|_| too_large(need, None))?;
        reserve(&mut self.ids, ids.len(), need)?;
        reserve(&mut self.ends, 1, need)?;
        self.ids.extend_from_slice(ids);
        self.ends.push(end);
        Ok(())
    }

    /// Turns the ids into packet indices (`index_of`), in place; ids not in the file are
    /// dropped and counted.
    ///
    /// # Errors
    /// A packet lists one that comes before it, or an allocation failed.
    pub fn resolve(self, index_of: &HashMap<u32, u32>) -> Result<Resolved, String> {
        let RawDependents { mut ids, ends, .. } = self;
        let n = ends.len();
        let need = Self::bytes(n as u64, ids.len() as u64);
        let mut parents = Vec::new();
        reserve(&mut parents, n, need)?;
        parents.resize(n, 0u32);
        let mut offsets = Vec::new();
        reserve(&mut offsets, n + 1, need)?;
        offsets.push(0);
        let (mut kept, mut start, mut missing) = (0usize, 0usize, 0u64);
        for (i, &end) in ends.iter().enumerate() {
            for read in start..end as usize {
                let id = ids[read];
                match index_of.get(&id) {
                    None => missing += 1,
                    Some(&d) if d as usize <= i => {
                        return Err(format!(
                            "packet {i} lists packet {d} (id {id}) as its dependent, but a dependent comes after the packet it waits for"
                        ))
                    }
                    Some(&d) => {
                        parents[d as usize] += 1;
                        ids[kept] = d;
                        kept += 1;
                    }
                }
            }
            start = end as usize;
            offsets.push(kept as u32);
        }
        ids.truncate(kept);
        ids.shrink_to_fit();
        Ok(Resolved {
            parents,
            offsets,
            dependents: ids,
            missing,
        })
    }
}

/// Reserves room for `extra` more elements, or says that the trace needs `need` bytes.
pub(super) fn reserve<T>(v: &mut Vec<T>, extra: usize, need: u64) -> Result<(), String> {
    v.try_reserve(extra).map_err(|_| too_large(need, None))
}

/// Reserves room for one more id in `index_of`, or says that the trace needs `need` bytes.
pub(super) fn reserve_id(index_of: &mut HashMap<u32, u32>, need: u64) -> Result<(), String> {
    index_of.try_reserve(1).map_err(|_| too_large(need, None))
}

fn too_large(need: u64, limit: Option<MemoryLimit>) -> String {
    let mb = |b: u64| b.div_ceil(1 << 20);
    match limit {
        Some(l) => format!(
            "its packets and their dependents need more than {} MiB, more than the {} MiB {}; cut the trace (fewer packets or dependents)",
            mb(need),
            mb(l.bytes),
            l.what
        ),
        None => format!(
            "its packets and their dependents need more than {} MiB, more memory than could be had; cut the trace (fewer packets or dependents)",
            mb(need)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(bytes: u64) -> Option<MemoryLimit> {
        Some(MemoryLimit {
            bytes,
            what: "of the test",
        })
    }

    #[test]
    fn a_packet_beyond_the_limit_is_refused_before_it_is_stored() {
        let fits = RawDependents::bytes(2, 4);
        let mut d = RawDependents::new(limit(fits));
        d.push(&[7, 8]).unwrap();
        d.push(&[9, 10]).unwrap();
        let e = d.push(&[]).unwrap_err();
        assert!(e.contains("of the test"), "{e}");
        assert_eq!(d.ends.len(), 2, "the refused packet is not stored");
    }

    #[test]
    fn ids_resolve_in_place_and_missing_ones_are_dropped() {
        let mut d = RawDependents::new(None);
        d.push(&[20, 99, 30]).unwrap();
        d.push(&[30]).unwrap();
        d.push(&[]).unwrap();
        let index_of = HashMap::from([(10, 0), (20, 1), (30, 2)]);
        let r = d.resolve(&index_of).unwrap();
        assert_eq!(r.offsets, [0, 2, 3, 3]);
        assert_eq!(r.dependents, [1, 2, 2]);
        assert_eq!(r.parents, [0, 1, 2]);
        assert_eq!(r.missing, 1);
    }

    #[test]
    fn a_dependent_before_its_packet_is_refused() {
        let mut d = RawDependents::new(None);
        d.push(&[]).unwrap();
        d.push(&[10]).unwrap();
        let index_of = HashMap::from([(10, 0), (20, 1)]);
        assert!(d.resolve(&index_of).unwrap_err().contains("comes after"));
    }
}
