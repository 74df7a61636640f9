//! The loader core: parses a file into spanned tables, checks keys, deserializes each
//! table on its own and builds the [`Netlist`], collecting every error.

use super::raw::{struct_fields, RawParams, Value, TOP_KEYS};
use crate::config::{RouterConfig, DEFAULT_CHANNEL_LATENCY};
use crate::error::{Diagnostics, NetlistError};
use crate::ids::RouterId;
use crate::netlist::{Netlist, Topology};
use crate::source::{SourceMap, Span};
use crate::topology;
use crate::validate;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;
use toml::de::{DeTable, DeValue, ValueDeserializer};
use toml::Spanned;

/// Reads and loads a netlist file (parse, build, structural validation): a regular file
/// of at most [`crate::read::MAX_NETLIST_BYTES`].
pub fn load(path: &Path) -> Result<Netlist, Diagnostics> {
    let bytes =
        crate::read::read_bounded(path, crate::read::MAX_NETLIST_BYTES).map_err(|message| {
            NetlistError::Io {
                at: crate::error::Location::file(path),
                message,
            }
        })?;
    let src = String::from_utf8(bytes).map_err(|e| {
        let byte = e.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&e.as_bytes()[..byte]).unwrap_or_default();
        NetlistError::NotText {
            at: crate::error::Location::from_offset(path, valid, byte),
            byte,
        }
    })?;
    parse_str(&src, path)
}

/// Loads a netlist from TOML text; `path` is used in locations and for the default name.
pub fn parse_str(src: &str, path: &Path) -> Result<Netlist, Diagnostics> {
    let mut l = Loader {
        map: SourceMap::new(path, src),
        errors: Vec::new(),
        mentioned: BTreeSet::new(),
        unreadable_channel: false,
        router_terminals: false,
    };
    let netlist = l.load(src, path);
    match netlist {
        Some(n) if l.errors.is_empty() => Ok(n),
        _ => Err(Diagnostics::new(l.errors)),
    }
}

/// `s` with each control character (newline, tab, NUL, ...) replaced by `_`: a default
/// netlist name from a file name.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '_' } else { c })
        .collect()
}

/// Collects errors and spans while loading one file.
pub(super) struct Loader {
    pub(super) map: SourceMap,
    pub(super) errors: Vec<NetlistError>,
    /// Ports named by some channel entry (even one with other errors).
    pub(super) mentioned: BTreeSet<(RouterId, u8)>,
    /// Some channel entry could not be read (bad endpoint syntax, missing key, ...): then
    /// it is unknown which ports it meant, and dangling ports are not reported.
    pub(super) unreadable_channel: bool,
    /// Some router gives its own `terminals`.
    pub(super) router_terminals: bool,
}

impl Loader {
    pub(super) fn at(&self, span: &Span) -> crate::error::Location {
        self.map.loc(span)
    }

    /// Reports every key of table `v` not in `allowed` and returns the table without them
    /// (so the known keys are still checked); `None` if `v` is not a table.
    pub(super) fn known<'i>(
        &mut self,
        v: &Value<'i>,
        allowed: &[&str],
        name: &str,
    ) -> Option<Value<'i>> {
        let table = self.table(v, name)?;
        let mut kept = DeTable::new();
        for (k, val) in table.iter() {
            if allowed.contains(&k.get_ref().as_ref()) {
                kept.insert(k.clone(), val.clone());
            } else {
                self.errors.push(NetlistError::UnknownKey {
                    at: self.at(&k.span()),
                    key: k.get_ref().to_string(),
                    table: name.to_string(),
                    choices: allowed.iter().map(|s| s.to_string()).collect(),
                });
            }
        }
        Some(Spanned::new(v.span(), DeValue::Table(kept)))
    }

    /// Deserializes one value with serde, turning its error into a located diagnostic.
    pub(super) fn de<T: DeserializeOwned>(
        &mut self,
        v: &Value<'_>,
        key: &str,
        table: &str,
    ) -> Option<T> {
        match T::deserialize(ValueDeserializer::from(v.clone())) {
            Ok(t) => Some(t),
            Err(e) => {
                let span = e.span().unwrap_or_else(|| v.span());
                let at = self.at(&span);
                let msg = e.message().to_string();
                let err = if let Some(rest) = msg.strip_prefix("missing field `") {
                    NetlistError::MissingKey {
                        at,
                        key: rest.trim_end_matches('`').to_string(),
                        table: table.to_string(),
                    }
                } else {
                    // Name the innermost key when serde's span points at one.
                    let inner = key_at(v, &span).unwrap_or_else(|| key.to_string());
                    NetlistError::BadValue {
                        at,
                        key: inner,
                        message: msg,
                    }
                };
                self.errors.push(err);
                None
            }
        }
    }

    /// A table value, or a `bad-value` error.
    pub(super) fn table<'v, 'i>(&mut self, v: &'v Value<'i>, key: &str) -> Option<&'v DeTable<'i>> {
        match v.get_ref() {
            DeValue::Table(t) => Some(t),
            other => {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&v.span()),
                    key: key.to_string(),
                    message: format!("expected a table, found {}", other.type_str()),
                });
                None
            }
        }
    }

    /// An array value, or a `bad-value` error.
    pub(super) fn array<'v, 'i>(&mut self, v: &'v Value<'i>, key: &str) -> Option<&'v [Value<'i>]> {
        match v.get_ref() {
            DeValue::Array(a) => Some(a),
            other => {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&v.span()),
                    key: key.to_string(),
                    message: format!("expected an array, found {}", other.type_str()),
                });
                None
            }
        }
    }

    pub(super) fn load(&mut self, src: &str, path: &Path) -> Option<Netlist> {
        let doc = self.document(src)?;
        let get = |k: &str| doc.get(k);
        let name = self.netlist_name(get("name"), path);
        if let Some(v) = get("description") {
            self.de::<String>(v, "description", "the top level");
        }
        let channel_latency = self.scalar(get("channel_latency"), "channel_latency");
        let terminal_latency = self.scalar(get("terminal_latency"), "terminal_latency");
        let max_packet_length = self.scalar(get("max_packet_length"), "max_packet_length");
        let concentration = self.scalar(get("concentration"), "concentration");
        self.check_top_scalars(&channel_latency, &terminal_latency, &max_packet_length);
        let channel_latency = channel_latency.map_or(DEFAULT_CHANNEL_LATENCY, |s| *s.get_ref());
        let terminal_latency = terminal_latency.map_or(1, |s| *s.get_ref());
        let defaults = self.defaults(get("defaults"));
        let topo = get("topology").and_then(|v| {
            self.map.topology = Some(v.span());
            self.topology(v)
        });
        let mut netlist = if let Some(rv) = get("router") {
            self.explicit(
                rv,
                get("channel"),
                &defaults,
                topo,
                (channel_latency, terminal_latency),
            )
        } else if let Some(cv) = get("channel") {
            self.errors.push(NetlistError::BadForm {
                at: self.at(&cv.span()),
                message: "`[[channel]]` entries need `[[router]]` entries to connect".into(),
            });
            return None;
        } else if let Some(t) = topo {
            self.generate(&t, &defaults, channel_latency, terminal_latency)?
        } else {
            if get("topology").is_none() {
                self.errors.push(NetlistError::BadForm {
                    at: self.map.start(),
                    message:
                        "the netlist has neither a `[topology]` table nor `[[router]]` entries"
                            .into(),
                });
            }
            return None;
        };
        if let Some(c) = concentration {
            if self.router_terminals {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&c.span()),
                    key: "concentration".into(),
                    message: "routers give their own `terminals`; drop `concentration` or \
                              the routers' `terminals`"
                        .into(),
                });
            } else if let Err(message) = netlist.set_concentration(*c.get_ref()) {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&c.span()),
                    key: "concentration".into(),
                    message,
                });
            }
        }
        netlist.name = name;
        netlist.path = Some(path.to_path_buf());
        netlist.max_packet_length = max_packet_length.map(|s| *s.get_ref());
        self.cost_keys(&doc, &mut netlist);
        netlist.source = Some(Arc::new(self.map.clone()));
        if let Err(d) = validate::check_settings(&netlist) {
            self.errors.extend(d.errors);
        }
        Some(netlist)
    }

    /// The document as one table with its top-level keys checked; every syntax error
    /// reported.
    fn document<'i>(&mut self, src: &'i str) -> Option<DeTable<'i>> {
        let (doc, syntax) = DeTable::parse_recoverable(src);
        if !syntax.is_empty() {
            for e in syntax {
                let span = e.span().unwrap_or(0..0);
                self.errors.push(NetlistError::Syntax {
                    at: self.at(&span),
                    message: e.message().trim_end().to_string(),
                });
            }
            return None;
        }
        let whole = Spanned::new(0..src.len(), DeValue::Table(doc.into_inner()));
        let whole = self.known(&whole, TOP_KEYS, "the top level")?;
        let DeValue::Table(doc) = whole.into_inner() else {
            return None;
        };
        Some(doc)
    }

    /// The netlist name: the `name` key, else the file stem.
    fn netlist_name(&mut self, v: Option<&Value<'_>>, path: &Path) -> String {
        let mut name = path.file_stem().map_or_else(
            || "netlist".to_string(),
            |s| printable(&s.to_string_lossy()),
        );
        if let Some(v) = v {
            if let Some(s) = self.de::<String>(v, "name", "the top level") {
                if s.chars().any(char::is_control) {
                    self.errors.push(NetlistError::BadValue {
                        at: self.at(&v.span()),
                        key: "name".into(),
                        message: "the netlist name holds a control character (a newline, a tab, NUL, ...)".into(),
                    });
                }
                name = s;
            }
        }
        name
    }

    /// A top-level number, its span recorded.
    fn scalar(&mut self, v: Option<&Value<'_>>, key: &str) -> Option<Spanned<u32>> {
        let v = v?;
        let s = self.de::<Spanned<u32>>(v, key, "the top level")?;
        self.map.top_keys.insert(key.to_string(), v.span());
        Some(s)
    }

    /// Bounds on the top-level latencies and packet length.
    fn check_top_scalars(
        &mut self,
        channel_latency: &Option<Spanned<u32>>,
        terminal_latency: &Option<Spanned<u32>>,
        max_packet_length: &Option<Spanned<u32>>,
    ) {
        if let Some(l) = channel_latency {
            self.check_channel_latency(
                l,
                "channel_latency",
                "`channel_latency` (every channel without its own `latency`)",
            );
        }
        if let Some(l) = terminal_latency {
            self.check_terminal_latency(l, "every router (`terminal_latency`)");
        }
        if let Some(l) = max_packet_length {
            if *l.get_ref() == 0 {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&l.span()),
                    key: "max_packet_length".into(),
                    message: "a packet has at least 1 flit".into(),
                });
            }
        }
    }

    /// `[defaults]` applied onto the default router configuration.
    fn defaults(&mut self, v: Option<&Value<'_>>) -> RouterConfig {
        let mut defaults = RouterConfig::default();
        if let Some(v) = v {
            self.map.defaults = Some(v.span());
            let fields = struct_fields::<RawParams>();
            if let Some(t) = self.known(v, fields, "[defaults]") {
                if let Some(p) = self.de::<RawParams>(&t, "defaults", "[defaults]") {
                    let mut keys = BTreeMap::new();
                    self.apply(&p, &mut defaults, &mut keys, "[defaults]");
                    self.map.defaults_keys = keys;
                }
            }
        }
        defaults
    }

    /// The generator form: the netlist `[topology]` describes.
    fn generate(
        &mut self,
        t: &Topology,
        defaults: &RouterConfig,
        channel_latency: u32,
        terminal_latency: u32,
    ) -> Option<Netlist> {
        match topology::generate(t, defaults, channel_latency, terminal_latency) {
            Ok(n) => Some(n),
            Err(message) => {
                let span = self.map.topology.clone().unwrap_or(0..0);
                self.errors.push(NetlistError::BadTopology {
                    at: self.at(&span),
                    message,
                });
                None
            }
        }
    }
}

/// The innermost key of table `v` whose value's span contains `span` (for messages).
fn key_at(v: &Value<'_>, span: &Span) -> Option<String> {
    let DeValue::Table(t) = v.get_ref() else {
        return None;
    };
    for (k, val) in t.iter() {
        let s = val.span();
        if s.start <= span.start && span.end <= s.end || k.span() == *span {
            return key_at(val, span).or_else(|| Some(k.get_ref().to_string()));
        }
    }
    None
}
