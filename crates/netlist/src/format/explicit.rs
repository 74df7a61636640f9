//! The explicit form: `[[router]]` entries with their ports, `[[channel]]` entries, and
//! the checks on the graph they make (dangling ports, strong connectivity).

use super::loader::Loader;
use super::raw::{
    parse_direction, struct_fields, valid_name, RawChannel, RawParams, RawPort, RawRouterHead,
    Value, ROUTER_HEAD_KEYS,
};
use crate::concentration::{terminal_port_name, MAX_CONCENTRATION};
use crate::config::RouterConfig;
use crate::error::{NetlistError, PortSide};
use crate::ids::{InPort, OutPort, RouterId};
use crate::netlist::{Netlist, PortSpec, RouterSpec, Topology};
use crate::source::{PortSource, RouterSource, Span};
use crate::topology;
use std::collections::{BTreeMap, HashMap};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// A router as parsed, before channels.
pub(super) struct ParsedRouter {
    pub(super) spec: RouterSpec,
    pub(super) source: RouterSource,
}

impl Loader {
    /// The explicit form: routers, channels, the checks on the graph, and the declared
    /// topology if any. `latencies` are the defaults (channel, terminal).
    pub(super) fn explicit(
        &mut self,
        rv: &Value<'_>,
        channels: Option<&Value<'_>>,
        defaults: &RouterConfig,
        topo: Option<Topology>,
        (channel_latency, terminal_latency): (u32, u32),
    ) -> Netlist {
        let parsed = self.routers(rv, defaults, terminal_latency);
        let mut n = Netlist::new(String::new(), Topology::Explicit);
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
    }

    pub(super) fn routers(
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
            let (head_v, params_v, ports) = split_router_entry(entry, t);
            let Some(h) = self.de::<RawRouterHead>(&head_v, "router", "[[router]]") else {
                continue;
            };
            let Some(rname) = self.new_router_name(&h.name, &mut names) else {
                continue;
            };
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
            let terminals = match &h.terminals {
                Some(t) => self.router_terminals(t, &mut specs, &mut source),
                None => 1,
            };
            out.push(ParsedRouter {
                spec: RouterSpec {
                    id: RouterId(out.len() as u32),
                    name: rname,
                    coord: h.coord.map(Spanned::into_inner),
                    config,
                    ports: specs,
                    terminal_latency: term,
                    terminals,
                },
                source,
            });
        }
        out
    }

    /// A router's own `terminals = t`: its terminal port (`local`, port 0) becomes `t`
    /// copies (`local0` ..; none for 0) ahead of its other ports. Returns the count
    /// (1, unchanged, after an error).
    fn router_terminals(
        &mut self,
        t: &Spanned<u32>,
        specs: &mut Vec<PortSpec>,
        source: &mut RouterSource,
    ) -> u8 {
        self.router_terminals = true;
        let c = *t.get_ref();
        let ports = specs.len() - 1 + c as usize;
        if c > MAX_CONCENTRATION || ports > usize::from(u8::MAX) {
            self.errors.push(NetlistError::BadValue {
                at: self.at(&t.span()),
                key: "terminals".into(),
                message: format!(
                    "{c} terminals: a router carries 0 to {MAX_CONCENTRATION} terminals and \
                     at most 255 ports in all"
                ),
            });
            return 1;
        }
        let template = specs.remove(0);
        let first = source.ports.remove(0);
        let copies = (0..c).map(|i| PortSpec {
            name: terminal_port_name(c, i),
            ..template.clone()
        });
        *specs = copies.chain(specs.drain(..)).collect();
        source.ports = std::iter::repeat_n(first, c as usize)
            .chain(source.ports.drain(..))
            .collect();
        c as u8
    }

    /// A valid router name not used before (recorded in `names`), or the error.
    fn new_router_name(
        &mut self,
        name: &Spanned<String>,
        names: &mut HashMap<String, Span>,
    ) -> Option<String> {
        let rname = name.get_ref().clone();
        if !valid_name(&rname) {
            self.errors.push(NetlistError::BadValue {
                at: self.at(&name.span()),
                key: "name".into(),
                message: format!("router name `{rname}` may use only letters, digits, `_` and `-`"),
            });
            return None;
        }
        if let Some(first) = names.get(&rname) {
            self.errors.push(NetlistError::DuplicateRouter {
                at: self.at(&name.span()),
                name: rname,
                first: self.at(first),
            });
            return None;
        }
        names.insert(rname.clone(), name.span());
        Some(rname)
    }

    pub(super) fn ports(
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
    pub(super) fn endpoint(
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
        let terminal = router
            .port_index(p)
            .is_some_and(|i| router.is_terminal_port(i));
        if p == "local" || terminal {
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

    pub(super) fn channels(&mut self, cv: &Value<'_>, n: &mut Netlist, default_latency: u32) {
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
    pub(super) fn dangling_ports(&mut self, n: &Netlist) {
        if self.unreadable_channel {
            return;
        }
        for r in n.routers() {
            for (i, p) in r.ports.iter().enumerate().skip(usize::from(r.terminals)) {
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
    pub(super) fn connectivity(&mut self, n: &Netlist) {
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
}

/// A `[[router]]` entry split into its head keys, its parameters (each as a table spanning
/// the entry) and its `ports` value.
fn split_router_entry<'v, 'i>(
    entry: &Value<'i>,
    t: &'v DeTable<'i>,
) -> (Value<'i>, Value<'i>, Option<&'v Value<'i>>) {
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
    (head_v, params_v, ports)
}
