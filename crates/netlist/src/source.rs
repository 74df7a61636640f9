//! Where the parts of a loaded netlist were declared, so that checks run after loading
//! (routing fit, VCT buffer depth) can point at the right line.

use crate::error::Location;
use crate::ids::{ChannelId, RouterId};
use crate::netlist::Netlist;
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

/// Where things were declared in the file a [`Netlist`] was loaded from.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    pub(crate) path: PathBuf,
    pub(crate) src: Arc<str>,
    pub(crate) topology: Option<Span>,
    pub(crate) defaults: Option<Span>,
    pub(crate) defaults_keys: BTreeMap<String, Span>,
    pub(crate) top_keys: BTreeMap<String, Span>,
    /// By router id (explicit form only).
    pub(crate) routers: Vec<RouterSource>,
    /// By channel id (explicit form only).
    pub(crate) channels: Vec<Span>,
}

impl SourceMap {
    pub(crate) fn new(path: &Path, src: &str) -> SourceMap {
        SourceMap {
            path: path.to_path_buf(),
            src: Arc::from(src),
            ..SourceMap::default()
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The location of a byte span.
    pub(crate) fn loc(&self, span: &Span) -> Location {
        Location::from_offset(&self.path, &self.src, span.start)
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
    /// `buffer_depth`) was set: the port's key, the router's key, the `[defaults]` key, or
    /// failing those the router, the `[defaults]` table, the `[topology]` table, the file.
    pub(crate) fn param(&self, r: RouterId, port: Option<usize>, key: &str) -> Location {
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

/// Locations for netlists built in code (no file): the netlist's name, no line.
pub(crate) fn fallback(netlist: &Netlist) -> Location {
    Location::file(Path::new(&netlist.name))
}

/// Locating helpers that work with or without a source map.
pub(crate) struct Locator<'a> {
    netlist: &'a Netlist,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(netlist: &'a Netlist) -> Self {
        Locator { netlist }
    }

    pub(crate) fn param(&self, r: RouterId, port: Option<usize>, key: &str) -> Location {
        match &self.netlist.source {
            Some(s) => s.param(r, port, key),
            None => fallback(self.netlist),
        }
    }
}
