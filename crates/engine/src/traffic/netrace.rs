//! netrace 1.0 traces (`--traffic netrace:FILE`): application traces with dependencies
//! between packets, bzip2-compressed.
//!
//! The file, once decompressed, is little-endian and packed:
//!
//! - a 72-byte header: magic `0x484A5455` (u32), version `1.0` (f32), benchmark name (30
//!   bytes, NUL-terminated), nodes (u8), a pad byte, cycles (u64), packets (u64), notes
//!   length (u32, the NUL included), regions (u32), 8 pad bytes;
//! - the notes (when their length is in `1..8192`, as the reference reader reads them);
//! - the regions, 24 bytes each (seek offset, cycles, packets: u64), at most 100;
//! - the packets to the end of the file, sorted by cycle, 21 bytes each: cycle (u64), id
//!   (u32), address (u32), type (u8), source node (u8), destination node (u8), node types
//!   (u8), dependents `d` (u8); then `d` packet ids (u32).
//!
//! A packet lists its *dependents*: the packets that may not be injected before it has
//! been delivered (the reference reader counts, per packet, the delivered packets that
//! still list it). A listed id that never occurs in the file is ignored (a cut trace); one
//! that occurs at or before the listing packet is refused (the dependent of a packet comes
//! after it). Node `n` is terminal `n`. A packet's length in flits is its size in bytes
//! (the reference table: 8 for requests and acknowledgements, 72 for a cache line with its
//! header) over [`FLIT_BYTES`], rounded up: 1 or 5 flits. Cycles are shifted so that the
//! first packet's is 0.
//!
//! The compressed file is at most [`MAX_TRACE_BYTES`] and is decompressed as it is read;
//! a trace holds at most [`MAX_NETRACE_PACKETS`] packets. A malformed file is a
//! [`TraceFileError`] naming the file and the packet.

use super::netrace_deps::{reserve, reserve_id, RawDependents};
use super::trace::{TraceFileError, TracePacket, MAX_TRACE_BYTES};
use crate::setup::memory::MemoryLimit;
use flitsim_netlist::{Cycle, TerminalId};
use flitsim_router::Stamp;
use std::collections::HashMap;
use std::io::{BufReader, Read, Write};
use std::path::Path;

/// The header's magic number.
pub const MAGIC: u32 = 0x484A_5455;
/// Bytes per flit: a netrace packet of `b` bytes is `ceil(b / 16)` flits.
pub const FLIT_BYTES: u32 = 16;
/// The most packets a netrace file may hold (the file is read whole into memory).
pub const MAX_NETRACE_PACKETS: usize = 1 << 24;

/// Packet size in bytes of each netrace packet type (`None`: not a valid type), from the
/// reference reader's table.
const TYPE_BYTES: [Option<u32>; 31] = {
    let mut t = [None; 31];
    // ReadReq, WriteResp, UpgradeReq, UpgradeResp, ReadExReq, BadAddressError,
    // InvalidateReq, InvalidateResp, DowngradeReq.
    let control = [1, 5, 13, 14, 15, 25, 27, 28, 29];
    // ReadResp, ReadRespWithInvalidate, WriteReq, Writeback, ReadExResp, DowngradeResp.
    let data = [2, 3, 4, 6, 16, 30];
    let mut i = 0;
    while i < control.len() {
        t[control[i]] = Some(8);
        i += 1;
    }
    let mut i = 0;
    while i < data.len() {
        t[data[i]] = Some(72);
        i += 1;
    }
    t
};

/// One packet of a netrace file, as written (before its dependents are resolved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetraceRecord {
    /// Cycle in the traced run.
    pub cycle: u64,
    /// Packet id (unique in the file).
    pub id: u32,
    /// Memory address (not used by the replay).
    pub addr: u32,
    /// netrace packet type (its size: see [`packet_bytes`]).
    pub kind: u8,
    /// Source node.
    pub src: u8,
    /// Destination node.
    pub dst: u8,
    /// Node types (not used by the replay).
    pub node_types: u8,
    /// Ids of the packets that wait for this one.
    pub dependents: Vec<u32>,
}

/// A netrace trace ready to replay: packets in file order with their dependents resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Netrace {
    /// Nodes of the traced system (terminals `0..nodes`).
    pub nodes: u32,
    /// Benchmark name from the header.
    pub benchmark: String,
    /// Packets in file order; `cycle` is shifted (the first packet's is 0) and `tag` is the
    /// packet's index.
    pub packets: Vec<TracePacket>,
    /// Per packet: how many packets list it (it waits for all of them).
    pub parents: Vec<u32>,
    /// Per packet: the indices of its dependents, `dependents[offsets[i]..offsets[i + 1]]`.
    pub offsets: Vec<u32>,
    /// Dependents' indices (see `offsets`).
    pub dependents: Vec<u32>,
    /// Listed dependents whose id is not in the file (ignored).
    pub missing: u64,
}

impl Netrace {
    /// The indices of the packets that wait for packet `i`.
    pub fn dependents_of(&self, i: usize) -> &[u32] {
        &self.dependents[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

/// The size in bytes of a netrace packet type (`None`: invalid type).
pub fn packet_bytes(kind: u8) -> Option<u32> {
    TYPE_BYTES.get(usize::from(kind)).copied().flatten()
}

/// A decompressed netrace stream being read: where it is, for messages.
struct Reader<'a, R> {
    inner: R,
    path: &'a Path,
}

impl<R: Read> Reader<'_, R> {
    fn err(&self, message: String) -> TraceFileError {
        TraceFileError {
            path: self.path.to_path_buf(),
            line: 0,
            message,
            help: Some("give a netrace 1.0 file (bzip2-compressed, as distributed)"),
        }
    }

    /// Fills `buf`; `Ok(false)` at a clean end of the stream (nothing read).
    fn fill(&mut self, buf: &mut [u8], what: &dyn Fn() -> String) -> Result<bool, TraceFileError> {
        let mut got = 0;
        while got < buf.len() {
            match self.inner.read(&mut buf[got..]) {
                Ok(0) if got == 0 => return Ok(false),
                Ok(0) => {
                    return Err(
                        self.err(format!("{}: the file ends inside it (truncated?)", what()))
                    )
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.err(format!("{}: cannot decompress: {e}", what()))),
            }
        }
        Ok(true)
    }

    fn exact(&mut self, buf: &mut [u8], what: &dyn Fn() -> String) -> Result<(), TraceFileError> {
        if self.fill(buf, what)? {
            Ok(())
        } else {
            Err(self.err(format!("{}: the file ends before it", what())))
        }
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// The header's fields the replay uses: nodes, benchmark name.
fn read_header<R: Read>(r: &mut Reader<'_, R>) -> Result<(u32, String), TraceFileError> {
    let mut h = [0u8; 72];
    r.exact(&mut h, &|| "the header".into())?;
    let magic = u32_at(&h, 0);
    if magic != MAGIC {
        return Err(r.err(format!(
            "bad magic {magic:#010x} (a netrace file starts with {MAGIC:#010x}); is it netrace, and decompressed by bzip2?"
        )));
    }
    let version = f32::from_bits(u32_at(&h, 4));
    if version != 1.0 {
        return Err(r.err(format!(
            "netrace version {version} is not supported (only 1.0)"
        )));
    }
    let name_bytes = &h[8..38];
    let end = name_bytes.iter().position(|&b| b == 0).unwrap_or(30);
    let benchmark = String::from_utf8_lossy(&name_bytes[..end]).into_owned();
    let nodes = u32::from(h[38]);
    let notes = u32_at(&h, 56) as usize;
    let regions = u32_at(&h, 60) as usize;
    if notes >= 8192 {
        return Err(r.err(format!(
            "notes of {notes} bytes: the format allows fewer than 8192"
        )));
    }
    if regions > 100 {
        return Err(r.err(format!("{regions} regions: the format allows at most 100")));
    }
    let mut skip = vec![0u8; notes + 24 * regions];
    r.exact(&mut skip, &|| "the notes and regions".into())?;
    Ok((nodes, benchmark))
}

/// The next packet, `None` at the end of the file; `index` is its place (from 0).
fn read_record<R: Read>(
    r: &mut Reader<'_, R>,
    index: usize,
) -> Result<Option<NetraceRecord>, TraceFileError> {
    let mut b = [0u8; 21];
    let what = || format!("packet {index}");
    if !r.fill(&mut b, &what)? {
        return Ok(None);
    }
    let mut deps = vec![0u8; 4 * usize::from(b[20])];
    r.exact(&mut deps, &|| format!("packet {index}'s dependents"))?;
    Ok(Some(NetraceRecord {
        cycle: u64_at(&b, 0),
        id: u32_at(&b, 8),
        addr: u32_at(&b, 12),
        kind: b[16],
        src: b[17],
        dst: b[18],
        node_types: b[19],
        dependents: deps.chunks_exact(4).map(|c| u32_at(c, 0)).collect(),
    }))
}

/// Checks record `index` against the header and the one before it; returns its flits.
fn check_record(
    rec: &NetraceRecord,
    index: usize,
    nodes: u32,
    previous: Option<u64>,
) -> Result<u32, String> {
    let at = format!("packet {index} (id {})", rec.id);
    let bytes = packet_bytes(rec.kind)
        .ok_or_else(|| format!("{at}: type {} is not a netrace packet type", rec.kind))?;
    for (what, n) in [("source", rec.src), ("destination", rec.dst)] {
        if u32::from(n) >= nodes {
            return Err(format!(
                "{at}: {what} node {n} is not one of the header's {nodes} nodes"
            ));
        }
    }
    if let Some(p) = previous.filter(|&p| rec.cycle < p) {
        return Err(format!(
            "{at}: cycle {} is before the previous packet's ({p}); packets are sorted by cycle",
            rec.cycle
        ));
    }
    Ok(bytes.div_ceil(FLIT_BYTES))
}

/// Reads a decompressed netrace stream (`path` names it in messages).
///
/// # Errors
/// A bad header, a truncated or malformed packet, a duplicate id, a dependent that does
/// not follow its packet, too many packets, or no packet at all.
pub fn parse(src: impl Read, path: &Path) -> Result<Netrace, TraceFileError> {
    parse_within(src, path, MemoryLimit::of_machine())
}

/// [`parse`] with the trace's storage bounded by `limit` (`None`: by allocation alone).
///
/// # Errors
/// As [`parse`], and a trace whose packets and dependents need more than `limit`.
pub(crate) fn parse_within(
    src: impl Read,
    path: &Path,
    limit: Option<MemoryLimit>,
) -> Result<Netrace, TraceFileError> {
    let mut r = Reader { inner: src, path };
    let (nodes, benchmark) = read_header(&mut r)?;
    let mut packets: Vec<TracePacket> = Vec::new();
    let mut raw_deps = RawDependents::new(limit);
    let mut index_of: HashMap<u32, u32> = HashMap::new();
    let mut first = None;
    while let Some(rec) = read_record(&mut r, packets.len())? {
        let i = packets.len();
        if i == MAX_NETRACE_PACKETS {
            return Err(r.err(format!(
                "more than {MAX_NETRACE_PACKETS} packets: too large to replay; cut the trace"
            )));
        }
        let previous = packets.last().map(|p| p.cycle.0 + first.unwrap_or(0));
        let len = check_record(&rec, i, nodes, previous).map_err(|m| r.err(m))?;
        let c0 = *first.get_or_insert(rec.cycle);
        let cycle = rec.cycle - c0;
        if cycle >= Stamp::LAST.0 {
            return Err(r.err(format!(
                "packet {i} (id {}): cycle {} is more than {} cycles after the first packet's",
                rec.id,
                rec.cycle,
                Stamp::LAST.0 - 1
            )));
        }
        raw_deps.push(&rec.dependents).map_err(|m| r.err(m))?;
        let need = RawDependents::bytes(i as u64 + 1, 0);
        reserve_id(&mut index_of, need).map_err(|m| r.err(m))?;
        if index_of.insert(rec.id, i as u32).is_some() {
            return Err(r.err(format!("packet {i}: id {} occurs twice", rec.id)));
        }
        reserve(&mut packets, 1, need).map_err(|m| r.err(m))?;
        packets.push(TracePacket {
            cycle: Cycle(cycle),
            source: TerminalId(u32::from(rec.src)),
            dest: TerminalId(u32::from(rec.dst)),
            len,
            tag: i as u32,
        });
    }
    if packets.is_empty() {
        return Err(r.err("the trace holds no packet".into()));
    }
    let resolved = raw_deps.resolve(&index_of).map_err(|m| r.err(m))?;
    Ok(Netrace {
        nodes,
        benchmark,
        packets,
        parents: resolved.parents,
        offsets: resolved.offsets,
        dependents: resolved.dependents,
        missing: resolved.missing,
    })
}

/// Reads the bzip2-compressed netrace file `path`.
///
/// # Errors
/// An unreadable, non-regular or too large file, a stream that is not bzip2, or a
/// malformed trace ([`parse`]).
pub fn load(path: &Path) -> Result<Netrace, TraceFileError> {
    let cannot = |message: String| TraceFileError {
        path: path.to_path_buf(),
        line: 0,
        message: format!("cannot read the netrace file: {message}"),
        help: None,
    };
    let (file, meta) = flitsim_netlist::read::open_regular(path).map_err(cannot)?;
    if meta.len() > MAX_TRACE_BYTES {
        return Err(cannot(format!(
            "{} bytes, more than the {} MiB a trace file may have",
            meta.len(),
            MAX_TRACE_BYTES >> 20
        )));
    }
    let compressed = BufReader::new(file.take(MAX_TRACE_BYTES));
    parse(bzip2::read::MultiBzDecoder::new(compressed), path)
}

/// Writes `records` as a netrace 1.0 file (uncompressed) for a system of `nodes` nodes:
/// small traces for tests and examples.
///
/// # Errors
/// What `out` returns.
pub fn write(
    out: &mut impl Write,
    benchmark: &str,
    nodes: u8,
    records: &[NetraceRecord],
) -> std::io::Result<()> {
    let mut h = Vec::with_capacity(72);
    h.extend_from_slice(&MAGIC.to_le_bytes());
    h.extend_from_slice(&1.0f32.to_le_bytes());
    let mut name = [0u8; 30];
    let n = benchmark.len().min(29);
    name[..n].copy_from_slice(&benchmark.as_bytes()[..n]);
    h.extend_from_slice(&name);
    h.extend_from_slice(&[nodes, 0]);
    let span = records.last().map_or(0, |r| r.cycle + 1);
    h.extend_from_slice(&span.to_le_bytes());
    h.extend_from_slice(&(records.len() as u64).to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    h.extend_from_slice(&[0u8; 8]);
    out.write_all(&h)?;
    for r in records {
        out.write_all(&r.cycle.to_le_bytes())?;
        out.write_all(&r.id.to_le_bytes())?;
        out.write_all(&r.addr.to_le_bytes())?;
        let deps = u8::try_from(r.dependents.len()).unwrap_or(u8::MAX);
        out.write_all(&[r.kind, r.src, r.dst, r.node_types, deps])?;
        for d in r.dependents.iter().take(usize::from(deps)) {
            out.write_all(&d.to_le_bytes())?;
        }
    }
    Ok(())
}

/// [`write()`], bzip2-compressed (what [`load`] reads).
///
/// # Errors
/// What `out` returns.
pub fn write_compressed(
    out: impl Write,
    benchmark: &str,
    nodes: u8,
    records: &[NetraceRecord],
) -> std::io::Result<()> {
    let mut enc = bzip2::write::BzEncoder::new(out, bzip2::Compression::best());
    write(&mut enc, benchmark, nodes, records)?;
    enc.finish()?;
    Ok(())
}

#[cfg(test)]
#[path = "netrace_tests.rs"]
mod tests;
