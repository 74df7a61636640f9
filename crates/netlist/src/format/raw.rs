//! The raw serde model of a netlist file: each table as written, with `Spanned` leaves
//! and `deny_unknown_fields`, and the syntax of names and directions.

use crate::config::BufferDepth;
use crate::netlist::Dir;
use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::Deserialize;
use std::cell::Cell;
use toml::de::DeValue;
use toml::Spanned;

/// A buffer depth as written: a positive integer or `"unbounded"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RawDepth(pub(super) BufferDepth);

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
pub(super) struct RawParams {
    pub(super) vcs: Option<Spanned<u8>>,
    pub(super) buffer_depth: Option<Spanned<RawDepth>>,
    pub(super) routing_delay: Option<Spanned<u32>>,
    pub(super) vc_alloc_delay: Option<Spanned<u32>>,
    pub(super) switch_alloc_delay: Option<Spanned<u32>>,
    pub(super) crossbar_delay: Option<Spanned<u32>>,
    pub(super) credit_delay: Option<Spanned<u32>>,
    pub(super) switching: Option<Spanned<String>>,
    pub(super) vc_release: Option<Spanned<String>>,
    pub(super) timeout: Option<Spanned<u32>>,
    pub(super) vc_allocator: Option<Spanned<String>>,
    pub(super) switch_allocator: Option<Spanned<String>>,
    pub(super) alloc_iters: Option<Spanned<u8>>,
    pub(super) arbiter: Option<Spanned<String>>,
    pub(super) output_vc_arbiter: Option<Spanned<String>>,
    pub(super) routing: Option<Spanned<String>>,
    pub(super) selection: Option<Spanned<String>>,
    pub(super) adaptive_vcs: Option<Spanned<u8>>,
    pub(super) dor_tie: Option<Spanned<String>>,
    pub(super) dateline: Option<Spanned<String>>,
    pub(super) deadlock_check: Option<Spanned<String>>,
    pub(super) message_classes: Option<Spanned<u8>>,
    pub(super) speculative: Option<Spanned<bool>>,
    pub(super) spec_masking: Option<Spanned<String>>,
    pub(super) lookahead_routing: Option<Spanned<bool>>,
    pub(super) input_speedup: Option<Spanned<u8>>,
    pub(super) output_speedup: Option<Spanned<u8>>,
    pub(super) reply_length: Option<Spanned<u32>>,
    pub(super) service_delay: Option<Spanned<u32>>,
    pub(super) reply_queue: Option<Spanned<u32>>,
}

/// `[topology]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTopology {
    pub(super) kind: Spanned<String>,
    pub(super) radix: Option<Spanned<Vec<u32>>>,
    pub(super) dim: Option<Spanned<u32>>,
    pub(super) n: Option<Spanned<u32>>,
    pub(super) a: Option<Spanned<u32>>,
    pub(super) h: Option<Spanned<u32>>,
    pub(super) k: Option<Spanned<u32>>,
}

/// The router-level keys of a `[[router]]` entry other than parameters and `ports`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRouterHead {
    pub(super) name: Spanned<String>,
    pub(super) coord: Option<Spanned<Vec<u32>>>,
    pub(super) terminal_latency: Option<Spanned<u32>>,
    pub(super) terminals: Option<Spanned<u32>>,
}

/// One entry of a router's `ports` list.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPort {
    pub(super) name: Spanned<String>,
    pub(super) direction: Option<Spanned<String>>,
    pub(super) vcs: Option<Spanned<u8>>,
    pub(super) buffer_depth: Option<Spanned<RawDepth>>,
}

/// `[[channel]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawChannel {
    pub(super) from: Spanned<String>,
    pub(super) to: Spanned<String>,
    pub(super) latency: Option<Spanned<u32>>,
}

/// Top-level keys.
pub(super) const TOP_KEYS: &[&str] = &[
    "name",
    "description",
    "channel_latency",
    "terminal_latency",
    "max_packet_length",
    "flit_width",
    "channel_length_mm",
    "terminal_channel_length_mm",
    "concentration",
    "topology",
    "defaults",
    "router",
    "channel",
];

/// Router-level keys that are not parameters.
pub(super) const ROUTER_HEAD_KEYS: &[&str] =
    &["name", "coord", "terminal_latency", "terminals", "ports"];

/// The field names serde knows for a struct (so key lists never drift from the types).
pub(super) fn struct_fields<T: DeserializeOwned>() -> &'static [&'static str] {
    shape::<T>().0
}

/// The serialized variant names of a unit enum (`dor`, `wormhole`, ...).
pub(super) fn enum_variants<T: DeserializeOwned>() -> &'static [&'static str] {
    shape::<T>().1
}

pub(super) fn shape<T: DeserializeOwned>() -> (&'static [&'static str], &'static [&'static str]) {
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
pub(super) fn parse_direction(s: &str) -> Option<(u8, Dir)> {
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

/// Names of routers and ports: letters, digits, `_` and `-`.
pub(super) fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

pub(super) type Value<'i> = Spanned<DeValue<'i>>;
