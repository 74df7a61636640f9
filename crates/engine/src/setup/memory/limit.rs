//! The memory limit a network must fit: the machine's memory or the process's
//! address-space limit.

/// The most memory a run may take: the machine's physical memory (`MemTotal` of
/// `/proc/meminfo`), or the process's address-space limit (`ulimit -v`, the soft
/// `Max address space` of `/proc/self/limits`) when lower. Both are fixed for the
/// process, so whether a network is refused does not depend on the memory free at the
/// moment (results must be deterministic). `None` where neither can be read (not Linux,
/// no `/proc`): then nothing is refused and an oversized network still aborts when the
/// allocation fails.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemoryLimit {
    /// The limit in bytes.
    pub bytes: u64,
    /// Where it comes from, for the message (after "more than the N GB").
    pub what: &'static str,
}

impl MemoryLimit {
    /// The limit of this machine and process (see the type's docs).
    pub fn of_machine() -> Option<MemoryLimit> {
        let physical = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|s| mem_total(&s))
            .map(|bytes| MemoryLimit {
                bytes,
                what: "of memory this machine has",
            });
        let address = std::fs::read_to_string("/proc/self/limits")
            .ok()
            .and_then(|s| address_space(&s))
            .map(|bytes| MemoryLimit {
                bytes,
                what: "of address space this process may use (ulimit -v)",
            });
        match (physical, address) {
            (Some(p), Some(a)) if a.bytes < p.bytes => Some(a),
            (Some(p), _) => Some(p),
            (None, a) => a,
        }
    }
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
pub(super) fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line["MemTotal:".len()..].split_whitespace();
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => n.checked_mul(1024),
        None => Some(n),
        Some(_) => None,
    }
}

/// The soft `Max address space` of a `/proc/self/limits` text, in bytes (`None` when
/// unlimited).
pub(super) fn address_space(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
