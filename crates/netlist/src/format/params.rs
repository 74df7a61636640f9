//! Router parameters as written: applied onto a [`RouterConfig`] with each key's span,
//! and the bounds on parameters and latencies.

use super::loader::Loader;
use super::raw::{parse_name, RawDepth, RawParams};
use crate::config::{
    BufferDepth, RouterConfig, MAX_ALLOC_ITERS, MAX_BUFFER_DEPTH, MAX_LATENCY, MAX_MESSAGE_CLASSES,
    MAX_PIPELINE_DELAY, MAX_REPLY_LENGTH, MAX_REPLY_QUEUE, MAX_SERVICE_DELAY, MAX_SPEEDUP,
};
use crate::error::NetlistError;
use crate::source::Span;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use toml::Spanned;

/// Key spans by key name.
type Keys = BTreeMap<String, Span>;

/// A key given in the table: records where (`keys`), copies its value into `out`, and
/// returns its span; `None` when the table leaves the key out.
fn take<T: Copy>(keys: &mut Keys, v: &Option<Spanned<T>>, key: &str, out: &mut T) -> Option<Span> {
    let v = v.as_ref()?;
    keys.insert(key.to_string(), v.span());
    *out = *v.get_ref();
    Some(v.span())
}

impl Loader {
    /// Reports a channel latency of 0 or above [`MAX_LATENCY`]; `key` is the key as
    /// written (`latency` or `channel_latency`).
    pub(super) fn check_channel_latency(&mut self, l: &Spanned<u32>, key: &str, channel: &str) {
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
    pub(super) fn check_terminal_latency(&mut self, l: &Spanned<u32>, scope: &str) {
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
    pub(super) fn apply(
        &mut self,
        p: &RawParams,
        cfg: &mut RouterConfig,
        keys: &mut BTreeMap<String, Span>,
        scope: &str,
    ) {
        self.apply_delays(p, cfg, keys, scope);
        if let Some(v) = &p.timeout {
            keys.insert("timeout".to_string(), v.span());
            cfg.timeout = *v.get_ref();
        }
        if let Some(v) = &p.alloc_iters {
            keys.insert("alloc_iters".to_string(), v.span());
            cfg.alloc_iters = *v.get_ref();
            if !(1..=MAX_ALLOC_ITERS).contains(&cfg.alloc_iters) {
                self.errors.push(NetlistError::AllocItersOutOfRange {
                    at: self.at(&v.span()),
                    scope: scope.to_string(),
                    iters: cfg.alloc_iters,
                });
            }
        }
        if let Some(v) = &p.message_classes {
            keys.insert("message_classes".to_string(), v.span());
            cfg.message_classes = *v.get_ref();
            if !(1..=MAX_MESSAGE_CLASSES).contains(&cfg.message_classes) {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&v.span()),
                    key: "message_classes".to_string(),
                    message: format!(
                        "{} message classes in {scope}; give 1 to {MAX_MESSAGE_CLASSES}",
                        cfg.message_classes
                    ),
                });
            }
        }
        for (v, key, out) in [
            (&p.speculative, "speculative", &mut cfg.speculative),
            (
                &p.lookahead_routing,
                "lookahead_routing",
                &mut cfg.lookahead_routing,
            ),
        ] {
            take(keys, v, key, out);
        }
        self.apply_replies(p, cfg, keys, scope);
        self.apply_speedups(p, cfg, keys, scope);
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
        self.apply_names(p, cfg, keys);
    }

    /// `input_speedup` and `output_speedup`, each within `1..=MAX_SPEEDUP`.
    fn apply_speedups(
        &mut self,
        p: &RawParams,
        cfg: &mut RouterConfig,
        keys: &mut BTreeMap<String, Span>,
        scope: &str,
    ) {
        for (v, key, out) in [
            (&p.input_speedup, "input_speedup", &mut cfg.input_speedup),
            (&p.output_speedup, "output_speedup", &mut cfg.output_speedup),
        ] {
            let Some(span) = take(keys, v, key, out) else {
                continue;
            };
            if !(1..=MAX_SPEEDUP).contains(out) {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&span),
                    key: key.to_string(),
                    message: format!(
                        "{key} {} in {scope}; give 1 to {MAX_SPEEDUP} flits per port per cycle",
                        *out
                    ),
                });
            }
        }
    }

    /// The request/reply keys, each within its bounds.
    fn apply_replies(
        &mut self,
        p: &RawParams,
        cfg: &mut RouterConfig,
        keys: &mut BTreeMap<String, Span>,
        scope: &str,
    ) {
        for (v, key, out, min, max, unit) in [
            (
                &p.reply_length,
                "reply_length",
                &mut cfg.reply_length,
                0,
                MAX_REPLY_LENGTH,
                "flits",
            ),
            (
                &p.service_delay,
                "service_delay",
                &mut cfg.service_delay,
                0,
                MAX_SERVICE_DELAY,
                "cycles",
            ),
            (
                &p.reply_queue,
                "reply_queue",
                &mut cfg.reply_queue,
                1,
                MAX_REPLY_QUEUE,
                "packets",
            ),
        ] {
            let Some(span) = take(keys, v, key, out) else {
                continue;
            };
            if !(min..=max).contains(out) {
                self.errors.push(NetlistError::BadValue {
                    at: self.at(&span),
                    key: key.to_string(),
                    message: format!("{} {unit} in {scope}; give {min} to {max}", *out),
                });
            }
        }
    }

    /// The pipeline delays, each at most [`MAX_PIPELINE_DELAY`].
    fn apply_delays(
        &mut self,
        p: &RawParams,
        cfg: &mut RouterConfig,
        keys: &mut BTreeMap<String, Span>,
        scope: &str,
    ) {
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
            let Some(span) = take(keys, v, key, out) else {
                continue;
            };
            if *out > MAX_PIPELINE_DELAY {
                self.errors.push(NetlistError::DelayTooLarge {
                    at: self.at(&span),
                    scope: scope.to_string(),
                    key: key.to_string(),
                    delay: *out,
                });
            }
        }
    }

    /// The parameters named by a word (`switching = "vct"`, `routing = "duato"`, ...).
    fn apply_names(&mut self, p: &RawParams, cfg: &mut RouterConfig, keys: &mut Keys) {
        let k = keys;
        self.named(
            &p.switching,
            "switching",
            "switching",
            k,
            &mut cfg.switching,
        );
        self.named(
            &p.vc_release,
            "vc_release",
            "VC release rule",
            k,
            &mut cfg.vc_release,
        );
        self.named(
            &p.vc_allocator,
            "vc_allocator",
            "allocator",
            k,
            &mut cfg.vc_allocator,
        );
        self.named(
            &p.switch_allocator,
            "switch_allocator",
            "allocator",
            k,
            &mut cfg.switch_allocator,
        );
        self.named(&p.arbiter, "arbiter", "arbiter", k, &mut cfg.arbiter);
        self.named(
            &p.spec_masking,
            "spec_masking",
            "speculation masking",
            k,
            &mut cfg.spec_masking,
        );
        self.named(
            &p.output_vc_arbiter,
            "output_vc_arbiter",
            "output VC arbiter",
            k,
            &mut cfg.output_vc_arbiter,
        );
        self.named(
            &p.routing,
            "routing",
            "routing function",
            k,
            &mut cfg.routing,
        );
        self.named(
            &p.selection,
            "selection",
            "selection function",
            k,
            &mut cfg.selection,
        );
        self.named(&p.dor_tie, "dor_tie", "DOR tie rule", k, &mut cfg.dor_tie);
        self.named(
            &p.dateline,
            "dateline",
            "dateline rule",
            k,
            &mut cfg.dateline,
        );
        self.named(
            &p.deadlock_check,
            "deadlock_check",
            "deadlock check",
            k,
            &mut cfg.deadlock_check,
        );
    }

    /// One named parameter: `out` set to the value, or an `unknown-name` error listing the
    /// choices.
    fn named<T: DeserializeOwned>(
        &mut self,
        v: &Option<Spanned<String>>,
        key: &str,
        what: &str,
        keys: &mut Keys,
        out: &mut T,
    ) {
        let Some(v) = v else {
            return;
        };
        keys.insert(key.to_string(), v.span());
        match parse_name::<T>(v.get_ref()) {
            Ok(t) => *out = t,
            Err(choices) => self.errors.push(NetlistError::UnknownName {
                at: self.at(&v.span()),
                what: what.to_string(),
                value: v.get_ref().clone(),
                choices,
            }),
        }
    }

    /// Applies `vcs` and `buffer_depth` (shared by routers and ports).
    pub(super) fn vcs_depth(
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
}
