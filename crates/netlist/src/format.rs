//! The TOML netlist format: serde models (`Spanned` leaves, `deny_unknown_fields`) and the
//! loader that turns a file into a [`Netlist`], collecting every error with its location.
//!
//! Two forms load into the same IR:
//!
//! ```toml
//! # generator form
//! channel_latency = 1
//! terminal_latency = 1
//! [topology]
//! kind = "torus"          # torus | mesh (radix = [k0, k1, ...]) | hypercube (dim) | ring (n)
//! radix = [8, 8]
//! [defaults]              # any RouterConfig field
//! vcs = 4
//! buffer_depth = 8        # or "unbounded"
//! ```
//!
//! ```toml
//! # explicit form
//! [defaults]
//! vcs = 2
//! [[router]]
//! name = "a"
//! buffer_depth = 16                                  # router override
//! ports = [{ name = "out" }, { name = "in", vcs = 4 }]  # port overrides: vcs, buffer_depth
//! [[router]]
//! name = "b"
//! ports = [{ name = "out" }, { name = "in" }]
//! [[channel]]
//! from = "a.out"
//! to = "b.in"
//! latency = 2
//! ```
//!
//! The loader first parses the document into spanned tables (all syntax errors), then
//! checks the keys of every table (all unknown keys), then deserializes each table on its
//! own with serde (so one bad router does not hide the errors of the next), then builds
//! and checks the graph.

use crate::config::{
    BufferDepth, RouterConfig, DEFAULT_CHANNEL_LATENCY, MAX_BUFFER_DEPTH, MAX_LATENCY,
    MAX_PIPELINE_DELAY,
};
use crate::error::{Diagnostics, NetlistError, PortSide};
use crate::ids::{InPort, OutPort, RouterId};
use crate::netlist::{Dir, Netlist, PortSpec, RouterSpec, Topology};
use crate::source::{PortSource, RouterSource, SourceMap, Span};
use crate::topology;
use crate::validate;
use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::Deserialize;
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
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
    };
    let netlist = l.load(src, path);
    match netlist {
        Some(n) if l.errors.is_empty() => Ok(n),
        _ => Err(Diagnostics::new(l.errors)),
    }
}

/// A buffer depth as written: a positive integer or `"unbounded"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RawDepth(pub(crate) BufferDepth);

impl<'de> Deserialize<'de> for RawDepth {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = RawDepth;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number of flits or \"unbounded\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<RawDepth, E> {
                u32::try_from(v)
                    .map(|n| RawDepth(BufferDepth::Flits(n)))
                    .map_err(|_| E::custom(format!("{v} is not a number of flits")))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<RawDepth, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(-1))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawDepth, E> {
                if v == "unbounded" {
                    Ok(RawDepth(BufferDepth::Unbounded))
                } else {
                    Err(E::custom(format!(
                        "`{v}` is neither a number of flits nor \"unbounded\""
                    )))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// Router parameters as written in `[defaults]` or a `[[router]]` entry (all optional).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawParams {
    vcs: Option<Spanned<u8>>,
    buffer_depth: Option<Spanned<RawDepth>>,
    routing_delay: Option<Spanned<u32>>,
    vc_alloc_delay: Option<Spanned<u32>>,
    switch_alloc_delay: Option<Spanned<u32>>,
    crossbar_delay: Option<Spanned<u32>>,
    credit_delay: Option<Spanned<u32>>,
    switching: Option<Spanned<String>>,
    vc_release: Option<Spanned<String>>,
    timeout: Option<Spanned<u32>>,
    vc_allocator: Option<Spanned<String>>,
    switch_allocator: Option<Spanned<String>>,
    arbiter: Option<Spanned<String>>,
    routing: Option<Spanned<String>>,
    selection: Option<Spanned<String>>,
    adaptive_vcs: Option<Spanned<u8>>,
    dor_tie: Option<Spanned<String>>,
    dateline: Option<Spanned<String>>,
    deadlock_check: Option<Spanned<String>>,
}

/// `[topology]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTopology {
    kind: Spanned<String>,
    radix: Option<Spanned<Vec<u32>>>,
    dim: Option<Spanned<u32>>,
    n: Option<Spanned<u32>>,
}

/// The router-level keys of a `[[router]]` entry other than parameters and `ports`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRouterHead {
    name: Spanned<String>,
    coord: Option<Spanned<Vec<u32>>>,
    terminal_latency: Option<Spanned<u32>>,
}

/// One entry of a router's `ports` list.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPort {
    name: Spanned<String>,
    direction: Option<Spanned<String>>,
    vcs: Option<Spanned<u8>>,
    buffer_depth: Option<Spanned<RawDepth>>,
}

/// `[[channel]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChannel {
    from: Spanned<String>,
    to: Spanned<String>,
    latency: Option<Spanned<u32>>,
}

/// Top-level keys.
const TOP_KEYS: &[&str] = &[
    "name",
    "description",
    "channel_latency",
    "terminal_latency",
    "max_packet_length",
    "topology",
    "defaults",
    "router",
    "channel",
];

/// Router-level keys that are not parameters.
const ROUTER_HEAD_KEYS: &[&str] = &["name", "coord", "terminal_latency", "ports"];

/// The field names serde knows for a struct (so key lists never drift from the types).
pub(crate) fn struct_fields<T: DeserializeOwned>() -> &'static [&'static str] {
    shape::<T>().0
}

/// The serialized variant names of a unit enum (`dor`, `wormhole`, ...).
pub(crate) fn enum_variants<T: DeserializeOwned>() -> &'static [&'static str] {
    shape::<T>().1
}

fn shape<T: DeserializeOwned>() -> (&'static [&'static str], &'static [&'static str]) {
    struct Grab<'a>(&'a Cell<(&'static [&'static str], &'static [&'static str])>);
    impl<'de> serde::Deserializer<'de> for Grab<'_> {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: serde::de::Visitor<'de>>(
            self,
            _: V,
        ) -> Result<V::Value, Self::Error> {
            Err(serde::de::Error::custom("shape only"))
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.set((fields, &[]));
            Err(serde::de::Error::custom("shape only"))
        }
        fn deserialize_enum<V: serde::de::Visitor<'de>>(
            self,
            _: &'static str,
            variants: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.set((&[], variants));
            Err(serde::de::Error::custom("shape only"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map identifier ignored_any
        }
    }
    let cell = Cell::new((&[][..], &[][..]));
    let _ = T::deserialize(Grab(&cell));
    cell.get()
}

/// Parses a name of one of the config enums (`"dor"`), or lists the choices.
pub(crate) fn parse_name<T: DeserializeOwned>(value: &str) -> Result<T, Vec<String>> {
    let d: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
        value.into_deserializer();
    T::deserialize(d).map_err(|_| enum_variants::<T>().iter().map(|s| s.to_string()).collect())
}

/// Parses `d<k>+` / `d<k>-`.
pub(crate) fn parse_direction(s: &str) -> Option<(u8, Dir)> {
    let rest = s.strip_prefix('d')?;
    let (num, dir) = if let Some(n) = rest.strip_suffix('+') {
        (n, Dir::Plus)
    } else {
        (rest.strip_suffix('-')?, Dir::Minus)
    };
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((num.parse().ok()?, dir))
}

/// Formats a direction as written in the file (`d0+`).
pub(crate) fn format_direction((d, dir): (u8, Dir)) -> String {
    format!("d{d}{}", if dir == Dir::Plus { '+' } else { '-' })
}

/// `s` with each control character (newline, tab, NUL, ...) replaced by `_`: a default
/// netlist name from a file name.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '_' } else { c })
        .collect()
}

/// Names of routers and ports: letters, digits, `_` and `-`.
fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

type Value<'i> = Spanned<DeValue<'i>>;

/// Collects errors and spans while loading one file.
struct Loader {
    map: SourceMap,
    errors: Vec<NetlistError>,
    /// Ports named by some channel entry (even one with other errors).
    mentioned: BTreeSet<(RouterId, u8)>,
    /// Some channel entry could not be read (bad endpoint syntax, missing key, ...): then
    /// it is unknown which ports it meant, and dangling ports are not reported.
    unreadable_channel: bool,
}

/// A router as parsed, before channels.
struct ParsedRouter {
    spec: RouterSpec,
    source: RouterSource,
}

impl Loader {
    fn at(&self, span: &Span) -> crate::error::Location {
        self.map.loc(span)
    }

    /// Reports every key of table `v` not in `allowed` and returns the table without them
    /// (so the known keys are still checked); `None` if `v` is not a table.
    fn known<'i>(&mut self, v: &Value<'i>, allowed: &[&str], name: &str) -> Option<Value<'i>> {
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
    fn de<T: DeserializeOwned>(&mut self, v: &Value<'_>, key: &str, table: &str) -> Option<T> {
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
    fn table<'v, 'i>(&mut self, v: &'v Value<'i>, key: &str) -> Option<&'v DeTable<'i>> {
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
    fn array<'v, 'i>(&mut self, v: &'v Value<'i>, key: &str) -> Option<&'v [Value<'i>]> {
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

    fn load(&mut self, src: &str, path: &Path) -> Option<Netlist> {
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
        let get = |k: &str| doc.get(k);

        let mut name = path.file_stem().map_or_else(
            || "netlist".to_string(),
            |s| printable(&s.to_string_lossy()),
        );
        if let Some(v) = get("name") {
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
        if let Some(v) = get("description") {
            self.de::<String>(v, "description", "the top level");
        }
        let scalar = |l: &mut Self, key: &str| -> Option<Spanned<u32>> {
            let v = get(key)?;
            let s = l.de::<Spanned<u32>>(v, key, "the top level")?;
            l.map.top_keys.insert(key.to_string(), v.span());
            Some(s)
        };
        let channel_latency = scalar(self, "channel_latency");
        let terminal_latency = scalar(self, "terminal_latency");
        let max_packet_length = scalar(self, "max_packet_length");
        if let Some(l) = &channel_latency {
            self.check_channel_latency(
                l,
                "channel_latency",
                "`channel_latency` (every channel without its own `latency`)",
            );
        }
        if let Some(l) = &terminal_latency {
            self.check_terminal_latency(l, "every router (`terminal_latency`)");
        }
        if let Some(l) = &max_packet_length {
            if *l.get_ref() == 0 {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&l.span()),
                    key: "max_packet_length".into(),
                    message: "a packet has at least 1 flit".into(),
                });
            }
        }
        let channel_latency = channel_latency.map_or(DEFAULT_CHANNEL_LATENCY, |s| *s.get_ref());
        let terminal_latency = terminal_latency.map_or(1, |s| *s.get_ref());

        // [defaults]
        let mut defaults = RouterConfig::default();
        if let Some(v) = get("defaults") {
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

        // [topology]
        let topo = get("topology").and_then(|v| {
            self.map.topology = Some(v.span());
            self.topology(v)
        });

        let routers = get("router");
        let channels = get("channel");
        let mut netlist = if let Some(rv) = routers {
            let parsed = self.routers(rv, &defaults, terminal_latency);
            let mut n = Netlist::new(name, Topology::Explicit);
            let mut sources = Vec::new();
            for p in parsed {
                sources.push(p.source);
                n.add_router(p.spec);
            }
            self.map.routers = sources;
            let endpoint_errors = self.errors.len();
            if let Some(cv) = channels {
                self.channels(cv, &mut n, channel_latency);
            }
            let clean = self.errors.len() == endpoint_errors;
            self.dangling_ports(&n);
            if clean {
                self.connectivity(&n);
            }
            if let Some(t) = topo {
                self.match_topology(&mut n, t);
            }
            n
        } else if let Some(cv) = channels {
            self.errors.push(NetlistError::BadForm {
                at: self.at(&cv.span()),
                message: "`[[channel]]` entries need `[[router]]` entries to connect".into(),
            });
            return None;
        } else if let Some(t) = topo {
            match topology::generate(&t, &defaults, channel_latency, terminal_latency) {
                Ok(mut n) => {
                    n.name = name;
                    n
                }
                Err(message) => {
                    let span = self.map.topology.clone().unwrap_or(0..0);
                    self.errors.push(NetlistError::BadTopology {
                        at: self.at(&span),
                        message,
                    });
                    return None;
                }
            }
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
        netlist.path = Some(path.to_path_buf());
        netlist.max_packet_length = max_packet_length.map(|s| *s.get_ref());
        netlist.source = Some(Arc::new(self.map.clone()));
        if let Err(d) = validate::check_settings(&netlist) {
            self.errors.extend(d.errors);
        }
        Some(netlist)
    }

    /// Reports a channel latency of 0 or above [`MAX_LATENCY`]; `key` is the key as
    /// written (`latency` or `channel_latency`).
    fn check_channel_latency(&mut self, l: &Spanned<u32>, key: &str, channel: &str) {
        let latency = *l.get_ref();
        if latency == 0 {
            self.errors.push(NetlistError::ZeroLatencyChannel {
                at: self.at(&l.span()),
                channel: channel.to_string(),
            });
        } else if latency > MAX_LATENCY {
            self.errors.push(NetlistError::ChannelLatencyTooLarge {
                at: self.at(&l.span()),
                channel: channel.to_string(),
                key: key.to_string(),
                latency,
            });
        }
    }

    /// Reports a terminal latency of 0 or above [`MAX_LATENCY`].
    fn check_terminal_latency(&mut self, l: &Spanned<u32>, scope: &str) {
        let latency = *l.get_ref();
        if latency == 0 {
            self.errors.push(NetlistError::ZeroTerminalLatency {
                at: self.at(&l.span()),
                scope: scope.to_string(),
            });
        } else if latency > MAX_LATENCY {
            self.errors.push(NetlistError::TerminalLatencyTooLarge {
                at: self.at(&l.span()),
                scope: scope.to_string(),
                latency,
            });
        }
    }

    /// Applies parameters onto `cfg`, recording key spans and reporting bad names, zeros
    /// and values above the limits.
    fn apply(
        &mut self,
        p: &RawParams,
        cfg: &mut RouterConfig,
        keys: &mut BTreeMap<String, Span>,
        scope: &str,
    ) {
        fn name<T: DeserializeOwned>(
            l: &mut Loader,
            v: &Option<Spanned<String>>,
            key: &str,
            what: &str,
            keys: &mut BTreeMap<String, Span>,
            out: &mut T,
        ) {
            if let Some(v) = v {
                keys.insert(key.to_string(), v.span());
                match parse_name::<T>(v.get_ref()) {
                    Ok(t) => *out = t,
                    Err(choices) => l.errors.push(NetlistError::UnknownName {
                        at: l.at(&v.span()),
                        what: what.to_string(),
                        value: v.get_ref().clone(),
                        choices,
                    }),
                }
            }
        }
        for (v, key, out) in [
            (&p.routing_delay, "routing_delay", &mut cfg.routing_delay),
            (&p.vc_alloc_delay, "vc_alloc_delay", &mut cfg.vc_alloc_delay),
            (
                &p.switch_alloc_delay,
                "switch_alloc_delay",
                &mut cfg.switch_alloc_delay,
            ),
            (&p.crossbar_delay, "crossbar_delay", &mut cfg.crossbar_delay),
            (&p.credit_delay, "credit_delay", &mut cfg.credit_delay),
        ] {
            if let Some(v) = v {
                keys.insert(key.to_string(), v.span());
                *out = *v.get_ref();
                if *out > MAX_PIPELINE_DELAY {
                    self.errors.push(NetlistError::DelayTooLarge {
                        at: self.at(&v.span()),
                        scope: scope.to_string(),
                        key: key.to_string(),
                        delay: *out,
                    });
                }
            }
        }
        if let Some(v) = &p.timeout {
            keys.insert("timeout".to_string(), v.span());
            cfg.timeout = *v.get_ref();
        }
        if let Some(v) = &p.adaptive_vcs {
            keys.insert("adaptive_vcs".to_string(), v.span());
            cfg.adaptive_vcs = *v.get_ref();
        }
        self.vcs_depth(
            &p.vcs,
            &p.buffer_depth,
            &mut cfg.vcs,
            &mut cfg.buffer_depth,
            keys,
            scope,
        );
        name(
            self,
            &p.switching,
            "switching",
            "switching",
            keys,
            &mut cfg.switching,
        );
        name(
            self,
            &p.vc_release,
            "vc_release",
            "VC release rule",
            keys,
            &mut cfg.vc_release,
        );
        name(
            self,
            &p.vc_allocator,
            "vc_allocator",
            "allocator",
            keys,
            &mut cfg.vc_allocator,
        );
        name(
            self,
            &p.switch_allocator,
            "switch_allocator",
            "allocator",
            keys,
            &mut cfg.switch_allocator,
        );
        name(
            self,
            &p.arbiter,
            "arbiter",
            "arbiter",
            keys,
            &mut cfg.arbiter,
        );
        name(
            self,
            &p.routing,
            "routing",
            "routing function",
            keys,
            &mut cfg.routing,
        );
        name(
            self,
            &p.selection,
            "selection",
            "selection function",
            keys,
            &mut cfg.selection,
        );
        name(
            self,
            &p.dor_tie,
            "dor_tie",
            "DOR tie rule",
            keys,
            &mut cfg.dor_tie,
        );
        name(
            self,
            &p.dateline,
            "dateline",
            "dateline rule",
            keys,
            &mut cfg.dateline,
        );
        name(
            self,
            &p.deadlock_check,
            "deadlock_check",
            "deadlock check",
            keys,
            &mut cfg.deadlock_check,
        );
    }

    /// Applies `vcs` and `buffer_depth` (shared by routers and ports).
    fn vcs_depth(
        &mut self,
        vcs: &Option<Spanned<u8>>,
        depth: &Option<Spanned<RawDepth>>,
        out_vcs: &mut u8,
        out_depth: &mut BufferDepth,
        keys: &mut BTreeMap<String, Span>,
        scope: &str,
    ) {
        if let Some(v) = vcs {
            keys.insert("vcs".into(), v.span());
            *out_vcs = *v.get_ref();
            if *v.get_ref() == 0 {
                self.errors.push(NetlistError::ZeroVcs {
                    at: self.at(&v.span()),
                    scope: scope.to_string(),
                });
            }
        }
        if let Some(d) = depth {
            keys.insert("buffer_depth".into(), d.span());
            *out_depth = d.get_ref().0;
            match d.get_ref().0 {
                BufferDepth::Flits(0) => self.errors.push(NetlistError::ZeroBufferDepth {
                    at: self.at(&d.span()),
                    scope: scope.to_string(),
                }),
                BufferDepth::Flits(depth) if depth > MAX_BUFFER_DEPTH => {
                    self.errors.push(NetlistError::BufferDepthTooLarge {
                        at: self.at(&d.span()),
                        scope: scope.to_string(),
                        depth,
                    })
                }
                _ => {}
            }
        }
    }

    fn topology(&mut self, v: &Value<'_>) -> Option<Topology> {
        let t = self.known(v, struct_fields::<RawTopology>(), "[topology]")?;
        let raw: RawTopology = self.de(&t, "topology", "[topology]")?;
        let kind = raw.kind.get_ref().as_str();
        let (needs, topo) = match kind {
            "torus" | "mesh" => {
                let radix = raw.radix.as_ref().map(|r| r.get_ref().clone());
                let topo = radix.map(|radix| {
                    if kind == "torus" {
                        Topology::Torus { radix }
                    } else {
                        Topology::Mesh { radix }
                    }
                });
                ("radix", topo)
            }
            "hypercube" => (
                "dim",
                raw.dim
                    .as_ref()
                    .map(|d| Topology::Hypercube { dim: *d.get_ref() }),
            ),
            "ring" => (
                "n",
                raw.n.as_ref().map(|n| Topology::Ring { n: *n.get_ref() }),
            ),
            _ => {
                self.errors.push(NetlistError::UnknownName {
                    at: self.at(&raw.kind.span()),
                    what: "topology kind".into(),
                    value: kind.to_string(),
                    choices: ["torus", "mesh", "hypercube", "ring"]
                        .map(String::from)
                        .to_vec(),
                });
                return None;
            }
        };
        let mut ok = true;
        for (key, span) in [
            ("radix", raw.radix.as_ref().map(Spanned::span)),
            ("dim", raw.dim.as_ref().map(Spanned::span)),
            ("n", raw.n.as_ref().map(Spanned::span)),
        ] {
            if let (Some(span), true) = (span, key != needs) {
                ok = false;
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&span),
                    key: key.into(),
                    message: format!("a {kind} takes `{needs}`, not `{key}`"),
                });
            }
        }
        let Some(topo) = topo else {
            self.errors.push(NetlistError::MissingKey {
                at: self.at(&v.span()),
                key: needs.into(),
                table: format!("[topology] of kind {kind}"),
            });
            return None;
        };
        if let Err(message) = topology::check_params(&topo) {
            // Point at the parameter the check read (`radix`, `dim` or `n`).
            let span = match needs {
                "radix" => raw.radix.as_ref().map(Spanned::span),
                "dim" => raw.dim.as_ref().map(Spanned::span),
                _ => raw.n.as_ref().map(Spanned::span),
            };
            self.errors.push(NetlistError::BadTopology {
                at: self.at(&span.unwrap_or_else(|| v.span())),
                message,
            });
            return None;
        }
        ok.then_some(topo)
    }

    fn routers(
        &mut self,
        rv: &Value<'_>,
        defaults: &RouterConfig,
        terminal_latency: u32,
    ) -> Vec<ParsedRouter> {
        let mut out: Vec<ParsedRouter> = Vec::new();
        let mut names: HashMap<String, Span> = HashMap::new();
        let Some(entries) = self.array(rv, "router") else {
            return out;
        };
        let param_fields = struct_fields::<RawParams>();
        let allowed: Vec<&str> = ROUTER_HEAD_KEYS
            .iter()
            .chain(param_fields)
            .copied()
            .collect();
        for entry in entries {
            let Some(tv) = self.known(entry, &allowed, "[[router]]") else {
                continue;
            };
            let DeValue::Table(t) = tv.get_ref() else {
                continue;
            };
            // Split the entry into the head, the parameters and the ports.
            let mut head = DeTable::new();
            let mut params = DeTable::new();
            let mut ports = None;
            for (k, v) in t.iter() {
                let key: &str = k.get_ref();
                if key == "ports" {
                    ports = Some(v);
                } else if ROUTER_HEAD_KEYS.contains(&key) {
                    head.insert(k.clone(), v.clone());
                } else {
                    params.insert(k.clone(), v.clone());
                }
            }
            let head_v = Spanned::new(entry.span(), DeValue::Table(head));
            let params_v = Spanned::new(entry.span(), DeValue::Table(params));
            let Some(h) = self.de::<RawRouterHead>(&head_v, "router", "[[router]]") else {
                continue;
            };
            let rname = h.name.get_ref().clone();
            if !valid_name(&rname) {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&h.name.span()),
                    key: "name".into(),
                    message: format!(
                        "router name `{rname}` may use only letters, digits, `_` and `-`"
                    ),
                });
                continue;
            }
            if let Some(first) = names.get(&rname) {
                self.errors.push(NetlistError::DuplicateRouter {
                    at: self.at(&h.name.span()),
                    name: rname,
                    first: self.at(first),
                });
                continue;
            }
            names.insert(rname.clone(), h.name.span());
            let mut source = RouterSource {
                entry: entry.span(),
                ..RouterSource::default()
            };
            let mut config = defaults.clone();
            let scope = format!("router {rname}");
            if let Some(p) = self.de::<RawParams>(&params_v, "router", "[[router]]") {
                self.apply(&p, &mut config, &mut source.keys, &scope);
            }
            let mut term = terminal_latency;
            if let Some(tl) = &h.terminal_latency {
                source.keys.insert("terminal_latency".into(), tl.span());
                term = *tl.get_ref();
                self.check_terminal_latency(tl, &scope);
            }
            let mut specs = vec![topology::local_port(&config)];
            source.ports.push(None);
            if let Some(pv) = ports {
                self.ports(pv, &rname, &config, &mut specs, &mut source.ports);
            }
            out.push(ParsedRouter {
                spec: RouterSpec {
                    id: RouterId(out.len() as u32),
                    name: rname,
                    coord: h.coord.map(Spanned::into_inner),
                    config,
                    ports: specs,
                    terminal_latency: term,
                },
                source,
            });
        }
        out
    }

    fn ports(
        &mut self,
        pv: &Value<'_>,
        rname: &str,
        config: &RouterConfig,
        specs: &mut Vec<PortSpec>,
        sources: &mut Vec<Option<PortSource>>,
    ) {
        let Some(list) = self.array(pv, "ports") else {
            return;
        };
        let fields = struct_fields::<RawPort>();
        for entry in list {
            let Some(t) = self.known(entry, fields, "a port") else {
                continue;
            };
            let Some(p) = self.de::<RawPort>(&t, "ports", "a port") else {
                continue;
            };
            let pname = p.name.get_ref().clone();
            let endpoint = format!("{rname}.{pname}");
            if !valid_name(&pname) {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&p.name.span()),
                    key: "name".into(),
                    message: format!(
                        "port name `{pname}` may use only letters, digits, `_` and `-`"
                    ),
                });
                continue;
            }
            let mut src = PortSource {
                entry: entry.span(),
                keys: BTreeMap::new(),
            };
            let direction = match &p.direction {
                None => None,
                Some(d) => match parse_direction(d.get_ref()) {
                    Some(dir) if pname != "local" => Some(dir),
                    _ => {
                        self.errors.push(NetlistError::BadDirection {
                            at: self.at(&d.span()),
                            endpoint: endpoint.clone(),
                            value: d.get_ref().clone(),
                        });
                        None
                    }
                },
            };
            let mut spec = PortSpec {
                name: pname.clone(),
                direction,
                vcs: config.vcs,
                buffer_depth: config.buffer_depth,
            };
            self.vcs_depth(
                &p.vcs,
                &p.buffer_depth,
                &mut spec.vcs,
                &mut spec.buffer_depth,
                &mut src.keys,
                &format!("port {endpoint}"),
            );
            if pname == "local" {
                // Overrides of the terminal port (port 0); it is declared only once.
                if sources[0].is_some() {
                    self.errors.push(NetlistError::DuplicatePort {
                        at: self.at(&p.name.span()),
                        router: rname.to_string(),
                        port: pname,
                    });
                } else {
                    specs[0] = spec;
                    sources[0] = Some(src);
                }
                continue;
            }
            if specs.iter().any(|s| s.name == pname) {
                self.errors.push(NetlistError::DuplicatePort {
                    at: self.at(&p.name.span()),
                    router: rname.to_string(),
                    port: pname,
                });
                continue;
            }
            if specs.len() > usize::from(u8::MAX) {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&entry.span()),
                    key: "ports".into(),
                    message: format!("router {rname} has more than 255 ports"),
                });
                return;
            }
            specs.push(spec);
            sources.push(Some(src));
        }
    }

    /// Resolves `router.port` (routers by name through `ids`); reports the problem and
    /// returns `None` when it does not resolve.
    fn endpoint(
        &mut self,
        n: &Netlist,
        ids: &HashMap<String, RouterId>,
        text: &Spanned<String>,
    ) -> Option<(RouterId, u8)> {
        let at = self.at(&text.span());
        let s = text.get_ref();
        let Some((r, p)) = s
            .split_once('.')
            .filter(|(r, p)| !r.is_empty() && !p.is_empty())
        else {
            self.unreadable_channel = true;
            self.errors.push(NetlistError::BadEndpoint {
                at,
                text: s.clone(),
            });
            return None;
        };
        let Some(router) = ids.get(r).map(|&id| n.router(id)) else {
            self.errors.push(NetlistError::UnknownRouter {
                at,
                endpoint: s.clone(),
                router: r.to_string(),
            });
            return None;
        };
        if p == "local" {
            self.errors.push(NetlistError::TerminalPortInChannel {
                at,
                endpoint: s.clone(),
            });
            return None;
        }
        match router.port_index(p) {
            Some(i) => {
                self.mentioned.insert((router.id, i));
                Some((router.id, i))
            }
            None => {
                self.errors.push(NetlistError::UnknownPort {
                    at,
                    endpoint: s.clone(),
                    router: r.to_string(),
                    port: p.to_string(),
                    choices: router.ports[1..].iter().map(|p| p.name.clone()).collect(),
                });
                None
            }
        }
    }

    fn channels(&mut self, cv: &Value<'_>, n: &mut Netlist, default_latency: u32) {
        let Some(entries) = self.array(cv, "channel") else {
            return;
        };
        let fields = struct_fields::<RawChannel>();
        let mut used: HashMap<(RouterId, u8, bool), Span> = HashMap::new();
        let ids: HashMap<String, RouterId> = n.routers().map(|r| (r.name.clone(), r.id)).collect();
        for entry in entries {
            let Some(t) = self.known(entry, fields, "[[channel]]") else {
                self.unreadable_channel = true;
                continue;
            };
            let Some(c) = self.de::<RawChannel>(&t, "channel", "[[channel]]") else {
                self.unreadable_channel = true;
                continue;
            };
            let from = self.endpoint(n, &ids, &c.from);
            let to = self.endpoint(n, &ids, &c.to);
            let mut ok = from.is_some() && to.is_some();
            for (end, text, output) in [(from, &c.from, true), (to, &c.to, false)] {
                let Some((r, p)) = end else { continue };
                if let Some(first) = used.get(&(r, p, output)) {
                    ok = false;
                    self.errors.push(NetlistError::PortUsedTwice {
                        at: self.at(&text.span()),
                        endpoint: text.get_ref().clone(),
                        side: if output {
                            PortSide::Output
                        } else {
                            PortSide::Input
                        },
                        first: self.at(first),
                    });
                } else {
                    used.insert((r, p, output), text.span());
                }
            }
            let latency = c.latency.as_ref().map_or(default_latency, |l| *l.get_ref());
            if let Some(l) = &c.latency {
                let channel = format!("{} -> {}", c.from.get_ref(), c.to.get_ref());
                self.check_channel_latency(l, "latency", &channel);
            }
            if let (true, Some((fr, fp)), Some((tr, tp))) = (ok, from, to) {
                n.add_channel(fr, OutPort(fp), tr, InPort(tp), latency);
                self.map.channels.push(entry.span());
            }
        }
    }

    /// Network ports that no channel entry names.
    fn dangling_ports(&mut self, n: &Netlist) {
        if self.unreadable_channel {
            return;
        }
        for r in n.routers() {
            for (i, p) in r.ports.iter().enumerate().skip(1) {
                if !self.mentioned.contains(&(r.id, i as u8)) {
                    self.errors.push(NetlistError::DanglingPort {
                        at: self.map.port(r.id, i),
                        endpoint: format!("{}.{}", r.name, p.name),
                    });
                }
            }
        }
    }

    /// Every router must reach, and be reached from, router 0 (strong connectivity).
    fn connectivity(&mut self, n: &Netlist) {
        if n.num_routers() < 2 {
            return;
        }
        let forward = n.distances_from(RouterId(0));
        let mut rev = n.graph.clone();
        rev.reverse();
        let mut rn = Netlist::new("", Topology::Explicit);
        rn.graph = rev;
        let backward = rn.distances_from(RouterId(0));
        let r0 = &n.router(RouterId(0)).name;
        for r in n.routers().skip(1) {
            let problem = match (
                forward[r.id.index()].is_some(),
                backward[r.id.index()].is_some(),
            ) {
                (true, true) => continue,
                (false, true) => format!("cannot be reached from {r0}"),
                (true, false) => format!("cannot reach {r0}"),
                (false, false) => format!("cannot reach {r0} nor be reached from it"),
            };
            self.errors.push(NetlistError::UnreachableTerminal {
                at: self.map.router(r.id),
                router: r.name.clone(),
                problem,
            });
        }
    }

    /// An explicit netlist that declares `[topology]` must be exactly that topology
    /// (router order, coordinates, port directions, channels); routing functions rely on it.
    fn match_topology(&mut self, n: &mut Netlist, t: Topology) {
        let reference = match topology::generate(&t, &RouterConfig::default(), 1, 1) {
            Ok(r) => r,
            Err(_) => return,
        };
        let tspan = self.map.topology.clone().unwrap_or(0..0);
        let desc = t.to_string();
        if reference.num_routers() != n.num_routers() {
            self.errors.push(NetlistError::TopologyMismatch {
                at: self.at(&tspan),
                topology: desc,
                difference: format!(
                    "{} has {} routers, the netlist {}",
                    t,
                    reference.num_routers(),
                    n.num_routers()
                ),
            });
            return;
        }
        let mut ok = true;
        for id in 0..n.num_routers() {
            let id = RouterId(id as u32);
            let want = reference.router(id);
            let have = n.router(id);
            let dirs = |r: &RouterSpec| -> BTreeSet<Option<(u8, Dir)>> {
                r.ports[1..].iter().map(|p| p.direction).collect()
            };
            let mut diff = None;
            if have.coord.is_some() && have.coord != want.coord {
                diff = Some(format!(
                    "router {} (id {}) has coord {:?}, expected {:?}",
                    have.name,
                    id.0,
                    have.coord.clone().unwrap_or_default(),
                    want.coord.clone().unwrap_or_default()
                ));
            } else if dirs(have) != dirs(want) || have.ports.len() != want.ports.len() {
                let show = |r: &RouterSpec| {
                    r.ports[1..]
                        .iter()
                        .map(|p| p.direction.map_or("none".into(), format_direction))
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                diff = Some(format!(
                    "router {} (id {}) has port directions [{}], expected [{}]",
                    have.name,
                    id.0,
                    show(have),
                    show(want)
                ));
            }
            if let Some(difference) = diff {
                ok = false;
                self.errors.push(NetlistError::TopologyMismatch {
                    at: self.map.router(id),
                    topology: desc.clone(),
                    difference,
                });
            }
        }
        if !ok {
            return;
        }
        let key = |net: &Netlist, c: &crate::netlist::ChannelSpec| {
            (
                c.from,
                net.router(c.from).ports[c.from_port.index()].direction,
                c.to,
                net.router(c.to).ports[c.to_port.index()].direction,
            )
        };
        let want: BTreeSet<_> = reference.channels().map(|c| key(&reference, c)).collect();
        let have: BTreeSet<_> = n.channels().map(|c| key(n, c)).collect();
        for c in n.channels() {
            if !want.contains(&key(n, c)) {
                self.errors.push(NetlistError::TopologyMismatch {
                    at: self.map.channel(c.id),
                    topology: desc.clone(),
                    difference: format!(
                        "channel {}.{} -> {}.{} is not a {} channel",
                        n.router(c.from).name,
                        n.router(c.from).ports[c.from_port.index()].name,
                        n.router(c.to).name,
                        n.router(c.to).ports[c.to_port.index()].name,
                        t
                    ),
                });
            }
        }
        let missing: Vec<String> = want
            .difference(&have)
            .map(|(f, fd, _, _)| {
                format!(
                    "{} {}",
                    n.router(*f).name,
                    fd.map_or("?".into(), format_direction)
                )
            })
            .collect();
        if !missing.is_empty() {
            let shown: Vec<_> = missing.iter().take(4).cloned().collect();
            let more = if missing.len() > 4 {
                format!(" and {} more", missing.len() - 4)
            } else {
                String::new()
            };
            self.errors.push(NetlistError::TopologyMismatch {
                at: self.at(&tspan),
                topology: desc,
                difference: format!("missing channels out of {}{more}", shown.join(", ")),
            });
            return;
        }
        // Fill in coordinates the file left out, and adopt the geometry.
        for id in 0..n.num_routers() {
            let id = RouterId(id as u32);
            let coord = reference.router(id).coord.clone();
            let r = n.router_mut(id);
            if r.coord.is_none() {
                r.coord = coord;
            }
        }
        n.topology = t;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{RoutingKind, Switching};

    fn parse(src: &str) -> Result<Netlist, Diagnostics> {
        parse_str(src, Path::new("t.toml"))
    }

    fn codes(src: &str) -> Vec<&'static str> {
        parse(src)
            .unwrap_err()
            .errors
            .iter()
            .map(NetlistError::code)
            .collect()
    }

    const PAIR: &str = r#"
[[router]]
name = "a"
ports = [{ name = "out" }, { name = "in" }]
[[router]]
name = "b"
ports = [{ name = "out" }, { name = "in" }]
[[channel]]
from = "a.out"
to = "b.in"
[[channel]]
from = "b.out"
to = "a.in"
latency = 3
"#;

    #[test]
    fn shapes_come_from_serde() {
        assert!(struct_fields::<RawChannel>().contains(&"latency"));
        assert!(enum_variants::<RoutingKind>().contains(&"dor-nodateline"));
        assert_eq!(parse_name::<Switching>("vct"), Ok(Switching::Vct));
        assert!(parse_name::<Switching>("cut")
            .unwrap_err()
            .contains(&"saf".to_string()));
    }

    #[test]
    fn directions_parse() {
        assert_eq!(parse_direction("d0+"), Some((0, Dir::Plus)));
        assert_eq!(parse_direction("d12-"), Some((12, Dir::Minus)));
        assert_eq!(parse_direction("d-"), None);
        assert_eq!(parse_direction("x+"), None);
        assert_eq!(parse_direction("d999+"), None);
        assert_eq!(format_direction((3, Dir::Minus)), "d3-");
    }

    #[test]
    fn explicit_pair_loads() {
        let n = parse(PAIR).unwrap();
        assert_eq!(n.num_routers(), 2);
        assert_eq!(n.num_channels(), 2);
        assert_eq!(n.channel(crate::ChannelId(1)).latency, 3);
        assert_eq!(n.channel(crate::ChannelId(0)).latency, 1);
        assert_eq!(n.router(RouterId(0)).ports[0].name, "local");
        assert_eq!(n.name, "t");
        assert_eq!(n.topology, Topology::Explicit);
    }

    #[test]
    fn overrides_layer_defaults_router_port() {
        let src = format!(
            "[defaults]\nvcs = 2\nbuffer_depth = 4\n{}",
            PAIR.replace(
                "name = \"a\"\nports = [{ name = \"out\" }, { name = \"in\" }]",
                "name = \"a\"\nbuffer_depth = 6\nports = [{ name = \"out\" }, { name = \"in\", vcs = 3, buffer_depth = \"unbounded\" }]"
            )
        );
        let n = parse(&src).unwrap();
        let a = n.router(RouterId(0));
        let b = n.router(RouterId(1));
        assert_eq!(
            (a.config.vcs, a.config.buffer_depth),
            (2, BufferDepth::Flits(6))
        );
        assert_eq!(a.ports[1].buffer_depth, BufferDepth::Flits(6));
        assert_eq!(
            (a.ports[2].vcs, a.ports[2].buffer_depth),
            (3, BufferDepth::Unbounded)
        );
        assert_eq!(b.ports[2].buffer_depth, BufferDepth::Flits(4));
    }

    #[test]
    fn generator_form_loads() {
        let n = parse("channel_latency = 2\n[topology]\nkind = \"mesh\"\nradix = [3, 2]\n[defaults]\nrouting = \"dor\"\n").unwrap();
        assert_eq!(n.num_routers(), 6);
        assert!(n.channels().all(|c| c.latency == 2));
        assert_eq!(n.topology, Topology::Mesh { radix: vec![3, 2] });
    }

    #[test]
    fn every_error_is_collected_and_located() {
        let src = "[defaults]\nvcs = 0\nbogus = 1\n[topology]\nkind = \"torus\"\nradix = [4, 4]\nwat = 2\n";
        let d = parse(src).unwrap_err();
        let c: Vec<_> = d.errors.iter().map(|e| e.code()).collect();
        assert_eq!(c, ["zero-vcs", "unknown-key", "unknown-key"]);
        assert_eq!(d.errors[1].location().unwrap().line, 3);
        assert_eq!(d.errors[2].location().unwrap().line, 7);
    }

    #[test]
    fn channel_problems() {
        let bad = PAIR
            .replace("from = \"a.out\"", "from = \"z.out\"")
            .replace("to = \"a.in\"", "to = \"a.nope\"");
        // a.out and a.in are then named by no channel.
        assert_eq!(
            codes(&bad),
            [
                "dangling-port",
                "dangling-port",
                "unknown-router",
                "unknown-port"
            ]
        );
        let twice = PAIR.replace("from = \"b.out\"", "from = \"a.out\"");
        // a.out used twice; b.out is then connected to nothing.
        assert_eq!(codes(&twice), ["dangling-port", "port-used-twice"]);
        let zero = PAIR.replace("latency = 3", "latency = 0");
        assert_eq!(codes(&zero), ["zero-latency-channel"]);
        let local = PAIR.replace("to = \"b.in\"", "to = \"b.local\"");
        assert!(codes(&local).contains(&"terminal-port-in-channel"));
    }

    #[test]
    fn unreachable_routers_are_reported() {
        let one_way = PAIR.replace(
            "from = \"b.out\"\nto = \"a.in\"\nlatency = 3\n",
            "from = \"a.in\"\nto = \"b.out\"\n",
        );
        // a.in -> b.out is legal wiring (ports are bidirectional), but nothing leads to a.
        let d = parse(&one_way).unwrap_err();
        assert_eq!(d.errors.len(), 1);
        assert_eq!(d.errors[0].code(), "unreachable-terminal");
        assert!(
            d.to_string()
                .contains("terminal of router b cannot reach a"),
            "{d}"
        );
    }

    #[test]
    fn names_are_checked_with_choices() {
        let d =
            parse("[topology]\nkind = \"torus\"\nradix = [2, 2]\n[defaults]\nrouting = \"xy\"\n")
                .unwrap_err();
        let s = d.to_string();
        assert!(
            s.contains("error[unknown-name]: unknown routing function `xy`"),
            "{s}"
        );
        assert!(s.contains("`dor`"), "{s}");
        assert!(codes("[topology]\nkind = \"cube\"\n").contains(&"unknown-name"));
        assert!(codes("[topology]\nkind = \"torus\"\nradix = [1]\n").contains(&"bad-topology"));
        assert!(codes("[topology]\nkind = \"torus\"\ndim = 3\n").contains(&"bad-value"));
    }

    /// `src` with `KEY` replaced by `value`: refused with `code` at `line:col` just above
    /// `max`, accepted at `max`.
    fn bounded(src: &str, value: &str, max: u32, code: &str, (line, col): (u32, u32)) {
        let at_max = src.replace("VALUE", &max.to_string());
        if let Err(d) = parse(&at_max) {
            panic!("{value} = {max} should load:\n{d}");
        }
        let above = src.replace("VALUE", &(u64::from(max) + 1).to_string());
        let d = parse(&above).unwrap_err();
        assert_eq!(d.errors.len(), 1, "{d}");
        assert_eq!(d.errors[0].code(), code, "{d}");
        let at = d.errors[0].location().unwrap();
        assert_eq!((at.line, at.col), (line, col), "{d}");
        let help = d.errors[0].help();
        assert!(help.contains(value), "{help}");
        assert!(help.contains(&max.to_string()), "{help}");
    }

    #[test]
    fn values_above_the_limits_are_refused_where_written() {
        let ring = "[topology]\nkind = \"ring\"\nn = 3\n";
        for key in [
            "routing_delay",
            "vc_alloc_delay",
            "switch_alloc_delay",
            "crossbar_delay",
            "credit_delay",
        ] {
            let col = key.len() as u32 + 4;
            // [defaults]
            bounded(
                &format!("[defaults]\n{key} = VALUE\n{ring}"),
                key,
                MAX_PIPELINE_DELAY,
                "delay-too-large",
                (2, col),
            );
            // A router's own key.
            bounded(
                &PAIR.replace("name = \"b\"\n", &format!("name = \"b\"\n{key} = VALUE\n")),
                key,
                MAX_PIPELINE_DELAY,
                "delay-too-large",
                (7, col),
            );
        }
        bounded(
            &format!("[defaults]\nbuffer_depth = VALUE\n{ring}"),
            "buffer_depth",
            MAX_BUFFER_DEPTH,
            "buffer-depth-too-large",
            (2, 16),
        );
        bounded(
            &PAIR.replace("name = \"b\"\n", "name = \"b\"\nbuffer_depth = VALUE\n"),
            "buffer_depth",
            MAX_BUFFER_DEPTH,
            "buffer-depth-too-large",
            (7, 16),
        );
        bounded(
            &PAIR.replacen(
                "{ name = \"in\" }",
                "{ name = \"in\", buffer_depth = VALUE }",
                1,
            ),
            "buffer_depth",
            MAX_BUFFER_DEPTH,
            "buffer-depth-too-large",
            (4, 58),
        );
        bounded(
            &format!("channel_latency = VALUE\n{ring}"),
            "channel_latency",
            MAX_LATENCY,
            "channel-latency-too-large",
            (1, 19),
        );
        bounded(
            &format!("channel_latency = VALUE\n{PAIR}"),
            "channel_latency",
            MAX_LATENCY,
            "channel-latency-too-large",
            (1, 19),
        );
        bounded(
            &PAIR.replace("latency = 3", "latency = VALUE"),
            "latency",
            MAX_LATENCY,
            "channel-latency-too-large",
            (14, 11),
        );
        bounded(
            &format!("terminal_latency = VALUE\n{ring}"),
            "terminal_latency",
            MAX_LATENCY,
            "terminal-latency-too-large",
            (1, 20),
        );
        bounded(
            &PAIR.replace("name = \"b\"\n", "name = \"b\"\nterminal_latency = VALUE\n"),
            "terminal_latency",
            MAX_LATENCY,
            "terminal-latency-too-large",
            (7, 20),
        );
        // The reproductions of the bug: refused, not a panic or an abort later.
        let d = parse(&format!("[defaults]\nbuffer_depth = 3000000000\n{ring}")).unwrap_err();
        assert_eq!(
            d.to_string(),
            "t.toml:2:16: error[buffer-depth-too-large]: [defaults] has buffer depth 3000000000, \
             above the limit of 65536 flits per VC\n\
             help: set buffer_depth <= 65536, or use \"unbounded\" for an effectively infinite buffer"
        );
        // `"unbounded"` and `timeout` have no such limit.
        let n = parse(&format!(
            "[defaults]\nbuffer_depth = \"unbounded\"\ntimeout = 4000000000\n{ring}"
        ))
        .unwrap();
        assert!(n.routers().all(|r| r.config.timeout == 4_000_000_000));
    }

    #[test]
    fn garbage_never_panics() {
        for src in [
            "",
            "=",
            "[[router]]",
            "router = 3",
            "channel = [1]",
            "[[router]]\nname = 3",
            "[[router]]\nname = \"a.b\"",
            "[[router]]\nname = \"a\"\nports = [\"east\"]",
            "[[router]]\nname = \"a\"\nports = [{ name = \"e\", direction = \"up\" }]",
            "[[router]]\nname = \"a\"\n[[channel]]\nfrom = \"a\"\nto = \"a.\"",
            "[topology]\nkind = \"hypercube\"\ndim = 99\n",
            "[topology]\nkind = \"mesh\"\nradix = [-1]\n",
            "[defaults]\nbuffer_depth = -3\n[topology]\nkind = \"ring\"\nn = 3\n",
            "[defaults]\nvcs = 300\n",
            "topology = 1",
            "defaults = [1]",
        ] {
            assert!(parse(src).is_err(), "{src:?} should fail");
        }
    }

    #[test]
    fn declared_topology_must_match() {
        let src = "[topology]\nkind = \"ring\"\nn = 2\n".to_string()
            + &PAIR
                .replace(
                    "{ name = \"out\" }",
                    "{ name = \"out\", direction = \"d0+\" }",
                )
                .replace(
                    "{ name = \"in\" }",
                    "{ name = \"in\", direction = \"d0-\" }",
                );
        // A 2-ring has four channels (two each way); this pair has two.
        let d = parse(&src).unwrap_err();
        assert_eq!(d.errors.len(), 1);
        assert!(
            d.to_string()
                .contains("missing channels out of a d0-, b d0-"),
            "{d}"
        );
        assert_eq!(codes(&src.replace("n = 2", "n = 3")), ["topology-mismatch"]);
    }

    #[test]
    fn truncated_and_mangled_files_never_panic() {
        let full = include_str!("../../../netlists/hetero-torus-4x4.toml");
        let mut cuts = 0;
        for end in (0..full.len())
            .step_by(53)
            .filter(|&e| full.is_char_boundary(e))
        {
            let _ = parse(&full[..end]);
            cuts += 1;
        }
        assert!(cuts > 100);
        for (from, to) in [
            ("\"r5\"", "\"r4\""),
            ("latency = 1", "latency = -1"),
            ("direction = \"d0+\"", "direction = \"d0\""),
            ("\n[[channel]]\n", "\n[channel]\n"),
            ("ports = [", "ports = 3 #"),
            ("coord = [1, 1]", "coord = [1, 1, 1]"),
        ] {
            let r = parse(&full.replacen(from, to, 1));
            assert!(r.is_err(), "{from} -> {to} should be rejected");
        }
    }
}
