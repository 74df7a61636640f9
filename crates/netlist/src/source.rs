//! Where the parts of a loaded netlist were declared, so that checks run after loading
//! (routing fit, VCT buffer depth) can point at the right line.

use crate::error::Location;
use crate::ids::{ChannelId, RouterId};
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(crate) type Span = Range<usize>;

/// Source spans of one declared port.
#[derive(Clone, Debug, Default)]
pub(crate) struct PortSource {
    pub entry: Span,
    pub keys: BTreeMap<String, Span>,
}

/// Source spans of one declared router.
#[derive(Clone, Debug, Default)]
pub(crate) struct RouterSource {
    pub entry: Span,
    pub keys: BTreeMap<String, Span>,
    /// By port index; `None` for ports not written in the file (`local`).
    pub ports: Vec<Option<PortSource>>,
}

/// Where things were declared in the file a [`Netlist`](crate::Netlist) was loaded from.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    pub(crate) path: PathBuf,
    pub(crate) src: Arc<str>,
    /// Byte offset of the start of each line (locating a span is a binary search, so
    /// loading stays linear in the file however many locations it takes).
    pub(crate) line_starts: Arc<[usize]>,
    pub(crate) topology: Option<Span>,
    pub(crate) defaults: Option<Span>,
    pub(crate) defaults_keys: BTreeMap<String, Span>,
    pub(crate) top_keys: BTreeMap<String, Span>,
    /// By router id (explicit form only).
    pub(crate) routers: Vec<RouterSource>,
    /// By channel id (explicit form only).
    pub(crate) channels: Vec<Span>,
    /// Keys set after loading, with their last value: they are located there, not in
    /// the file.
    pub(crate) overrides: BTreeMap<String, String>,
}

impl SourceMap {
    pub(crate) fn new(path: &Path, src: &str) -> SourceMap {
        let line_starts = std::iter::once(0)
            .chain(src.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceMap {
            path: path.to_path_buf(),
            src: Arc::from(src),
            line_starts,
            ..SourceMap::default()
        }
    }

    /// Bytes it holds on the heap: the text, its line starts, and per router and channel
    /// the spans of the explicit form (the key maps' few entries left out).
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.src.len()
            + self.line_starts.len() * size_of::<usize>()
            + self.routers.capacity() * size_of::<RouterSource>()
            + self.channels.capacity() * size_of::<Span>()
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The location of a byte span.
    pub(crate) fn loc(&self, span: &Span) -> Location {
        let mut offset = span.start.min(self.src.len());
        while !self.src.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts.get(line - 1).copied().unwrap_or(0);
        Location {
            path: self.path.clone(),
            line: line as u32,
            col: self.src[start..offset].chars().count() as u32 + 1,
            setting: None,
        }
    }

    /// The first line of the file (for errors about the whole netlist).
    pub(crate) fn start(&self) -> Location {
        self.loc(&(0..0))
    }

    /// Where a router was declared (its `[[router]]` entry, else `[topology]`).
    pub(crate) fn router(&self, r: RouterId) -> Location {
        match self.routers.get(r.index()) {
            Some(rs) => self.loc(&rs.entry),
            None => self
                .topology
                .as_ref()
                .map_or_else(|| self.start(), |s| self.loc(s)),
        }
    }

    /// Where a port was declared (its entry in `ports`, else its router).
    pub(crate) fn port(&self, r: RouterId, port: usize) -> Location {
        match self
            .routers
            .get(r.index())
            .and_then(|rs| rs.ports.get(port))
            .and_then(Option::as_ref)
        {
            Some(p) => self.loc(&p.entry),
            None => self.router(r),
        }
    }

    /// Where a channel was declared.
    pub(crate) fn channel(&self, c: ChannelId) -> Location {
        match self.channels.get(c.index()) {
            Some(s) => self.loc(s),
            None => self
                .topology
                .as_ref()
                .map_or_else(|| self.start(), |s| self.loc(s)),
        }
    }

    /// Where the value of parameter `key` in force at `router` (and `port`, for `vcs` and
    /// `buffer_depth`) was set: the setting that overrode it after loading, the port's key, the router's key, the `[defaults]` key, or
    /// failing those the router, the `[defaults]` table, the `[topology]` table, the file.
    pub(crate) fn param(&self, r: RouterId, port: Option<usize>, key: &str) -> Location {
        if let Some(value) = self.overrides.get(key) {
            return Location::setting(&self.path, key, value);
        }
        let rs = self.routers.get(r.index());
        if let Some(span) = port
            .and_then(|p| rs.and_then(|rs| rs.ports.get(p)))
            .and_then(Option::as_ref)
            .and_then(|p| p.keys.get(key))
        {
            return self.loc(span);
        }
        if let Some(span) = rs.and_then(|rs| rs.keys.get(key)) {
            return self.loc(span);
        }
        if let Some(span) = self.defaults_keys.get(key) {
            return self.loc(span);
        }
        if let Some(rs) = rs {
            return self.loc(&rs.entry);
        }
        if let Some(span) = self.defaults.as_ref().or(self.topology.as_ref()) {
            return self.loc(span);
        }
        self.start()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_index_locates_like_a_scan_from_the_start() {
        let src = "a = 1\n\nname = \"é😀x\"\r\n[t]\nk = 2";
        let map = SourceMap::new(Path::new("f.toml"), src);
        for offset in 0..=src.len() + 2 {
            assert_eq!(
                map.loc(&(offset..offset)),
                Location::from_offset(Path::new("f.toml"), src, offset),
                "{offset}"
            );
        }
    }
}
