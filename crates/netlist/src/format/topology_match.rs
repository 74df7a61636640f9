//! The `[topology]` table, and the check that an explicit netlist declaring one is exactly
//! that topology.

use super::loader::Loader;
use super::raw::{format_direction, struct_fields, RawTopology, Value};
use crate::config::RouterConfig;
use crate::error::NetlistError;
use crate::ids::RouterId;
use crate::netlist::{Dir, Netlist, RouterSpec, Topology};
use crate::topology;
use std::collections::BTreeSet;
use toml::Spanned;

/// The `[topology]` kinds.
const TOPOLOGY_KINDS: [&str; 7] = [
    "torus",
    "mesh",
    "hypercube",
    "ring",
    "dragonfly",
    "hyperx",
    "fat-tree",
];

/// The keys topology `kind` needs and the topology, if they are all given; `None` for an
/// unknown kind.
fn kind_params(
    kind: &str,
    raw: &RawTopology,
) -> Option<(&'static [&'static str], Option<Topology>)> {
    Some(match kind {
        "torus" | "mesh" | "hyperx" => {
            let radix = raw.radix.as_ref().map(|r| r.get_ref().clone());
            let topo = radix.map(|radix| match kind {
                "torus" => Topology::Torus { radix },
                "mesh" => Topology::Mesh { radix },
                _ => Topology::HyperX { radix },
            });
            (&["radix"], topo)
        }
        "hypercube" => (
            &["dim"],
            raw.dim
                .as_ref()
                .map(|d| Topology::Hypercube { dim: *d.get_ref() }),
        ),
        "ring" => (
            &["n"],
            raw.n.as_ref().map(|n| Topology::Ring { n: *n.get_ref() }),
        ),
        "dragonfly" => (
            &["a", "h"],
            raw.a
                .as_ref()
                .zip(raw.h.as_ref())
                .map(|(a, h)| Topology::Dragonfly {
                    a: *a.get_ref(),
                    h: *h.get_ref(),
                }),
        ),
        "fat-tree" => (
            &["k", "n"],
            raw.k
                .as_ref()
                .zip(raw.n.as_ref())
                .map(|(k, n)| Topology::FatTree {
                    k: *k.get_ref(),
                    n: *n.get_ref(),
                }),
        ),
        _ => return None,
    })
}

impl Loader {
    pub(super) fn topology(&mut self, v: &Value<'_>) -> Option<Topology> {
        let t = self.known(v, struct_fields::<RawTopology>(), "[topology]")?;
        let raw: RawTopology = self.de(&t, "topology", "[topology]")?;
        let kind = raw.kind.get_ref().as_str();
        let Some((needs, topo)) = kind_params(kind, &raw) else {
            self.errors.push(NetlistError::UnknownName {
                at: self.at(&raw.kind.span()),
                what: "topology kind".into(),
                value: kind.to_string(),
                choices: TOPOLOGY_KINDS.map(String::from).to_vec(),
            });
            return None;
        };
        let spans = [
            ("radix", raw.radix.as_ref().map(Spanned::span)),
            ("dim", raw.dim.as_ref().map(Spanned::span)),
            ("n", raw.n.as_ref().map(Spanned::span)),
            ("a", raw.a.as_ref().map(Spanned::span)),
            ("h", raw.h.as_ref().map(Spanned::span)),
            ("k", raw.k.as_ref().map(Spanned::span)),
        ];
        let mut ok = true;
        for (key, span) in spans.clone() {
            if let (Some(span), true) = (span, !needs.contains(&key)) {
                ok = false;
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&span),
                    key: key.into(),
                    message: format!("a {kind} takes `{}`, not `{key}`", needs.join("` and `")),
                });
            }
        }
        let Some(topo) = topo else {
            let missing = needs
                .iter()
                .find(|k| spans.iter().any(|(key, span)| key == *k && span.is_none()))
                .copied()
                .unwrap_or(needs[0]);
            self.errors.push(NetlistError::MissingKey {
                at: self.at(&v.span()),
                key: missing.into(),
                table: format!("[topology] of kind {kind}"),
            });
            return None;
        };
        if let Err(message) = topology::check_params(&topo) {
            // Point at the first parameter the check read.
            let span = spans
                .iter()
                .find(|(key, _)| *key == needs[0])
                .and_then(|(_, span)| span.clone());
            self.errors.push(NetlistError::BadTopology {
                at: self.at(&span.unwrap_or_else(|| v.span())),
                message,
            });
            return None;
        }
        ok.then_some(topo)
    }

    /// An explicit netlist that declares `[topology]` must be exactly that topology
    /// (router order, coordinates, port directions, channels); routing functions rely on it.
    pub(super) fn match_topology(&mut self, n: &mut Netlist, t: Topology) {
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
        if !self.match_routers(n, &reference, &desc) {
            return;
        }
        if !self.match_channels(n, &reference, &t, &desc) {
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

    /// Each router has the reference's coordinates (if given) and port directions.
    fn match_routers(&mut self, n: &Netlist, reference: &Netlist, desc: &str) -> bool {
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
                    topology: desc.to_string(),
                    difference,
                });
            }
        }
        ok
    }

    /// The channels are exactly the reference's, by endpoint router and direction.
    fn match_channels(
        &mut self,
        n: &Netlist,
        reference: &Netlist,
        t: &Topology,
        desc: &str,
    ) -> bool {
        let tspan = self.map.topology.clone().unwrap_or(0..0);
        let key = |net: &Netlist, c: &crate::netlist::ChannelSpec| {
            (
                c.from,
                net.router(c.from).ports[c.from_port.index()].direction,
                c.to,
                net.router(c.to).ports[c.to_port.index()].direction,
            )
        };
        let want: BTreeSet<_> = reference.channels().map(|c| key(reference, c)).collect();
        let have: BTreeSet<_> = n.channels().map(|c| key(n, c)).collect();
        for c in n.channels() {
            if !want.contains(&key(n, c)) {
                self.errors.push(NetlistError::TopologyMismatch {
                    at: self.map.channel(c.id),
                    topology: desc.to_string(),
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
                topology: desc.to_string(),
                difference: format!("missing channels out of {}{more}", shown.join(", ")),
            });
            return false;
        }
        true
    }
}
