//! `--set key=value`: one parameter overridden on every router, port or channel.

use crate::config::{
    BufferDepth, RouterConfig, MAX_ALLOC_ITERS, MAX_BUFFER_DEPTH, MAX_LATENCY, MAX_PIPELINE_DELAY,
    MAX_REPLY_LENGTH, MAX_REPLY_QUEUE, MAX_SERVICE_DELAY,
};
use crate::error::{Diagnostics, NetlistError};
use crate::format::parse_name;
use crate::netlist::Netlist;
use serde::de::DeserializeOwned;

/// The keys [`Netlist::set`] accepts.
pub const SET_KEYS: &[&str] = &[
    "vcs",
    "buffer_depth",
    "routing_delay",
    "vc_alloc_delay",
    "switch_alloc_delay",
    "crossbar_delay",
    "credit_delay",
    "switching",
    "vc_release",
    "timeout",
    "vc_allocator",
    "switch_allocator",
    "alloc_iters",
    "arbiter",
    "output_vc_arbiter",
    "routing",
    "selection",
    "adaptive_vcs",
    "dor_tie",
    "dateline",
    "deadlock_check",
    "message_classes",
    "speculative",
    "spec_masking",
    "lookahead_routing",
    "input_speedup",
    "output_speedup",
    "reply_length",
    "service_delay",
    "reply_queue",
    "channel_latency",
    "terminal_latency",
    "max_packet_length",
    "concentration",
    "flit_width",
    "channel_length_mm",
    "terminal_channel_length_mm",
];

fn bad(key: &str, value: &str, message: impl Into<String>) -> NetlistError {
    NetlistError::BadSetting {
        key: key.into(),
        value: value.into(),
        message: message.into(),
    }
}

fn number(key: &str, value: &str, min: u32) -> Result<u32, NetlistError> {
    match value.trim().parse::<u32>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(bad(key, value, format!("expected an integer >= {min}"))),
    }
}

/// An integer in `min..=max` (the limits of [`crate::config`]).
fn bounded(key: &str, value: &str, min: u32, max: u32, unit: &str) -> Result<u32, NetlistError> {
    match value.trim().parse::<u32>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(bad(
            key,
            value,
            format!("expected an integer from {min} to {max} ({unit})"),
        )),
    }
}

/// A router pipeline delay: `0..=`[`MAX_PIPELINE_DELAY`] cycles.
fn delay(key: &str, value: &str) -> Result<u32, NetlistError> {
    bounded(key, value, 0, MAX_PIPELINE_DELAY, "cycles")
}

/// `true` or `false`.
fn flag(key: &str, value: &str) -> Result<bool, NetlistError> {
    match value.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(key, value, "expected true or false")),
    }
}

fn name<T: DeserializeOwned>(key: &str, value: &str) -> Result<T, NetlistError> {
    parse_name::<T>(value.trim()).map_err(|choices| {
        bad(
            key,
            value,
            format!("expected one of {}", choices.join(", ")),
        )
    })
}

impl Netlist {
    /// Applies a `--set key=value` override to every router (and, for `vcs` and
    /// `buffer_depth`, every port, replacing per-port overrides), to every channel
    /// (`channel_latency`), every terminal (`terminal_latency`), or to the netlist
    /// (`max_packet_length`, `concentration`: terminals per router). Keys: [`SET_KEYS`]. An unknown key or a bad value is an
    /// error naming the key and the accepted values; the netlist is then unchanged.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), NetlistError> {
        self.set_value(key, value)?;
        if let Some(s) = &mut self.source {
            let s = std::sync::Arc::make_mut(s);
            s.overrides.insert(key.to_string(), value.to_string());
        }
        Ok(())
    }

    /// [`Netlist::set`] without recording where the value came from.
    fn set_value(&mut self, key: &str, value: &str) -> Result<(), NetlistError> {
        if self.set_netlist_wide(key, value)? {
            return Ok(());
        }
        let edit = match self.set_ports(key, value)? {
            Some(edit) => edit,
            None => config_edit(key, value)?,
        };
        self.graph
            .node_weights_mut()
            .for_each(|r| edit(&mut r.config));
        Ok(())
    }

    /// `channel_latency`, `terminal_latency`, `max_packet_length` and `concentration`:
    /// applied here, `true`;
    /// `false` for any other key.
    fn set_netlist_wide(&mut self, key: &str, value: &str) -> Result<bool, NetlistError> {
        match key {
            "channel_latency" => {
                let v = bounded(key, value, 1, MAX_LATENCY, "cycles")?;
                self.graph.edge_weights_mut().for_each(|c| c.latency = v);
                Ok(true)
            }
            "terminal_latency" => {
                let v = bounded(key, value, 1, MAX_LATENCY, "cycles")?;
                self.graph
                    .node_weights_mut()
                    .for_each(|r| r.terminal_latency = v);
                Ok(true)
            }
            "max_packet_length" => {
                self.max_packet_length = Some(number(key, value, 1)?);
                Ok(true)
            }
            "flit_width" => {
                let max = crate::format::MAX_FLIT_WIDTH;
                self.flit_width = Some(bounded(key, value, 1, max, "bits")?);
                Ok(true)
            }
            "channel_length_mm" | "terminal_channel_length_mm" => {
                let max = crate::format::MAX_CHANNEL_LENGTH_MM;
                let l = match value.trim().parse::<f64>() {
                    Ok(l) if l.is_finite() && l > 0.0 && l <= max => l,
                    _ => {
                        let m = format!("expected a length above 0 and at most {max} mm");
                        return Err(bad(key, value, m));
                    }
                };
                if key == "channel_length_mm" {
                    self.channel_length_mm = Some(l);
                } else {
                    self.terminal_channel_length_mm = Some(l);
                }
                Ok(true)
            }
            "concentration" => {
                let c = number(key, value, 1)?;
                self.set_concentration(c).map_err(|m| bad(key, value, m))?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// `vcs` and `buffer_depth`: set on every port, and the edit for every router
    /// configuration; `None` for any other key.
    fn set_ports(&mut self, key: &str, value: &str) -> Result<Option<Edit>, NetlistError> {
        let edit: Edit = match key {
            "vcs" => {
                let v = number(key, value, 1)?;
                let v = u8::try_from(v).map_err(|_| bad(key, value, "expected 1..=255"))?;
                for id in 0..self.num_routers() {
                    let r = self.router_mut(crate::RouterId(id as u32));
                    r.ports.iter_mut().for_each(|p| p.vcs = v);
                }
                Box::new(move |c| c.vcs = v)
            }
            "buffer_depth" => {
                let d = if value.trim() == "unbounded" {
                    BufferDepth::Unbounded
                } else {
                    BufferDepth::Flits(
                            bounded(key, value, 1, MAX_BUFFER_DEPTH, "flits").map_err(|_| {
                                bad(
                                    key,
                                    value,
                                    format!("expected an integer from 1 to {MAX_BUFFER_DEPTH} (flits), or `unbounded` for an effectively infinite buffer"),
                                )
                            })?,
                        )
                };
                for id in 0..self.num_routers() {
                    let r = self.router_mut(crate::RouterId(id as u32));
                    r.ports.iter_mut().for_each(|p| p.buffer_depth = d);
                }
                Box::new(move |c| c.buffer_depth = d)
            }
            _ => return Ok(None),
        };
        Ok(Some(edit))
    }

    /// Applies `(key, value)` overrides in order, then the checks that relate values to
    /// one another ([`crate::validate::check_settings`], the same ones loading runs), so
    /// a netlist is accepted or refused the same way whether a value came from the file
    /// or from here. Every way a value arrives after loading (`--set`, `--routing`,
    /// `--switching`, importers) goes through this.
    ///
    /// # Errors
    /// The first bad override (the netlist may then hold the earlier ones), or every
    /// cross-parameter problem.
    pub fn set_all<'a>(
        &mut self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<(), Diagnostics> {
        for (key, value) in pairs {
            self.set(key.trim(), value)?;
        }
        crate::validate::check_settings(self)
    }

    /// Applies a `key=value` string (the form `--set` takes).
    pub fn set_pair(&mut self, pair: &str) -> Result<(), NetlistError> {
        let (k, v) = split_setting(pair)?;
        self.set(k, v)
    }
}

/// Splits a `key=value` string (the form `--set` takes) at its first `=`; the key is
/// trimmed.
pub fn split_setting(pair: &str) -> Result<(&str, &str), NetlistError> {
    match pair.split_once('=') {
        Some((k, v)) => Ok((k.trim(), v)),
        None => Err(bad(pair, "", "expected `key=value`, e.g. `vcs=8`")),
    }
}

/// An edit of one router configuration.
type Edit = Box<dyn Fn(&mut RouterConfig)>;

/// The edit a router-parameter key makes, or the error naming the key and its values.
fn config_edit(key: &str, value: &str) -> Result<Edit, NetlistError> {
    let edit: Edit = match key {
        "routing_delay" => {
            let v = delay(key, value)?;
            Box::new(move |c| c.routing_delay = v)
        }
        "vc_alloc_delay" => {
            let v = delay(key, value)?;
            Box::new(move |c| c.vc_alloc_delay = v)
        }
        "switch_alloc_delay" => {
            let v = delay(key, value)?;
            Box::new(move |c| c.switch_alloc_delay = v)
        }
        "crossbar_delay" => {
            let v = delay(key, value)?;
            Box::new(move |c| c.crossbar_delay = v)
        }
        "credit_delay" => {
            let v = delay(key, value)?;
            Box::new(move |c| c.credit_delay = v)
        }
        "switching" => {
            let v = name(key, value)?;
            Box::new(move |c| c.switching = v)
        }
        "vc_release" => {
            let v = name(key, value)?;
            Box::new(move |c| c.vc_release = v)
        }
        "timeout" => {
            let v = number(key, value, 0)?;
            Box::new(move |c| c.timeout = v)
        }
        "vc_allocator" => {
            let v = name(key, value)?;
            Box::new(move |c| c.vc_allocator = v)
        }
        "switch_allocator" => {
            let v = name(key, value)?;
            Box::new(move |c| c.switch_allocator = v)
        }
        "alloc_iters" => {
            let v = bounded(key, value, 1, u32::from(MAX_ALLOC_ITERS), "rounds")?;
            let v = u8::try_from(v).map_err(|_| bad(key, value, "expected 1..=64"))?;
            Box::new(move |c| c.alloc_iters = v)
        }
        "arbiter" => {
            let v = name(key, value)?;
            Box::new(move |c| c.arbiter = v)
        }
        "routing" => {
            let v = name(key, value)?;
            Box::new(move |c| c.routing = v)
        }
        "selection" => {
            let v = name(key, value)?;
            Box::new(move |c| c.selection = v)
        }
        "adaptive_vcs" => {
            let v = number(key, value, 0)?;
            let v = u8::try_from(v).map_err(|_| bad(key, value, "expected 0..=255"))?;
            Box::new(move |c| c.adaptive_vcs = v)
        }
        "dor_tie" => {
            let v = name(key, value)?;
            Box::new(move |c| c.dor_tie = v)
        }
        "dateline" => {
            let v = name(key, value)?;
            Box::new(move |c| c.dateline = v)
        }
        "deadlock_check" => {
            let v = name(key, value)?;
            Box::new(move |c| c.deadlock_check = v)
        }
        "message_classes" => {
            let max = u32::from(crate::config::MAX_MESSAGE_CLASSES);
            let v = bounded(key, value, 1, max, "classes")? as u8;
            Box::new(move |c| c.message_classes = v)
        }
        "speculative" => {
            let v = flag(key, value)?;
            Box::new(move |c| c.speculative = v)
        }
        "lookahead_routing" => {
            let v = flag(key, value)?;
            Box::new(move |c| c.lookahead_routing = v)
        }
        _ => return allocation_rule_edit(key, value),
    };
    Ok(edit)
}

/// The edit `spec_masking` or `output_vc_arbiter` makes, else [`speedup_edit`]'s.
fn allocation_rule_edit(key: &str, value: &str) -> Result<Edit, NetlistError> {
    let edit: Edit = match key {
        "spec_masking" => {
            let v = name(key, value)?;
            Box::new(move |c| c.spec_masking = v)
        }
        "output_vc_arbiter" => {
            let v = name(key, value)?;
            Box::new(move |c| c.output_vc_arbiter = v)
        }
        _ => return speedup_edit(key, value),
    };
    Ok(edit)
}

/// The edit `input_speedup` or `output_speedup` makes, else [`reply_edit`]'s.
fn speedup_edit(key: &str, value: &str) -> Result<Edit, NetlistError> {
    let max = u32::from(crate::config::MAX_SPEEDUP);
    let edit: Edit = match key {
        "input_speedup" => {
            let v = bounded(key, value, 1, max, "flits per port per cycle")? as u8;
            Box::new(move |c| c.input_speedup = v)
        }
        "output_speedup" => {
            let v = bounded(key, value, 1, max, "flits per port per cycle")? as u8;
            Box::new(move |c| c.output_speedup = v)
        }
        _ => return reply_edit(key, value),
    };
    Ok(edit)
}

/// The edit a request/reply key makes, or the error naming the key (or the known keys).
fn reply_edit(key: &str, value: &str) -> Result<Edit, NetlistError> {
    let edit: Edit = match key {
        "reply_length" => {
            let v = bounded(key, value, 0, MAX_REPLY_LENGTH, "flits")?;
            Box::new(move |c| c.reply_length = v)
        }
        "service_delay" => {
            let v = bounded(key, value, 0, MAX_SERVICE_DELAY, "cycles")?;
            Box::new(move |c| c.service_delay = v)
        }
        "reply_queue" => {
            let v = bounded(key, value, 1, MAX_REPLY_QUEUE, "packets")?;
            Box::new(move |c| c.reply_queue = v)
        }
        _ => {
            return Err(NetlistError::UnknownSetting {
                key: key.into(),
                choices: SET_KEYS.iter().map(|s| s.to_string()).collect(),
            })
        }
    };
    Ok(edit)
}

#[cfg(test)]
mod tests {
    use crate::config::{
        BufferDepth, RoutingKind, Switching, MAX_BUFFER_DEPTH, MAX_LATENCY, MAX_PIPELINE_DELAY,
    };
    use crate::topology::torus;

    #[test]
    fn set_changes_every_router_port_and_channel() {
        let mut n = torus(&[3, 3]);
        n.set("vcs", "8").unwrap();
        n.set("buffer_depth", "unbounded").unwrap();
        n.set("switching", "vct").unwrap();
        n.set("routing", "dor-nodateline").unwrap();
        n.set_pair("channel_latency=20").unwrap();
        n.set("terminal_latency", "3").unwrap();
        n.set("crossbar_delay", "0").unwrap();
        for r in n.routers() {
            assert_eq!(r.config.vcs, 8);
            assert_eq!(r.config.switching, Switching::Vct);
            assert_eq!(r.config.routing, RoutingKind::DorNoDateline);
            assert_eq!(r.config.crossbar_delay, 0);
            assert_eq!(r.terminal_latency, 3);
            assert!(r
                .ports
                .iter()
                .all(|p| p.vcs == 8 && p.buffer_depth == BufferDepth::Unbounded));
        }
        assert!(n.channels().all(|c| c.latency == 20));
    }

    #[test]
    fn bad_settings_name_the_key_and_choices() {
        let mut n = torus(&[3, 3]);
        let e = n.set("vc", "2").unwrap_err();
        assert_eq!(e.code(), "unknown-setting");
        assert!(e.help().contains("`vcs`"));
        let e = n.set("routing", "xy").unwrap_err();
        assert!(
            e.to_string()
                .contains("expected one of dor, dor-nodateline"),
            "{e}"
        );
        assert!(n.set("vcs", "0").is_err());
        assert!(n.set("vcs", "256").is_err());
        assert!(n.set("channel_latency", "0").is_err());
        assert!(n.set("buffer_depth", "-1").is_err());
        assert!(n.set_pair("vcs").is_err());
        // Values above the limits of `crate::config`, refused naming the key and the limit.
        for (key, max) in [
            ("buffer_depth", MAX_BUFFER_DEPTH),
            ("channel_latency", MAX_LATENCY),
            ("terminal_latency", MAX_LATENCY),
            ("routing_delay", MAX_PIPELINE_DELAY),
            ("vc_alloc_delay", MAX_PIPELINE_DELAY),
            ("switch_alloc_delay", MAX_PIPELINE_DELAY),
            ("crossbar_delay", MAX_PIPELINE_DELAY),
            ("credit_delay", MAX_PIPELINE_DELAY),
        ] {
            for above in [u64::from(max) + 1, 4_000_000_000] {
                let e = n.set(key, &above.to_string()).unwrap_err();
                assert_eq!(e.code(), "bad-setting");
                let s = e.to_string();
                assert!(s.contains(&format!("`{key}`")), "{s}");
                assert!(s.contains(&format!("to {max} (")), "{s}");
            }
            let mut m = torus(&[3, 3]);
            m.set(key, &max.to_string()).unwrap();
        }
        assert!(n
            .set("buffer_depth", "3000000000")
            .unwrap_err()
            .to_string()
            .contains("`unbounded` for an effectively infinite buffer"));
        // Failed settings leave the netlist as it was.
        assert!(n.routers().all(|r| r.config.vcs == 4));
    }
}
