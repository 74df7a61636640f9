//! BookSim's pipeline and channel delays -> flitsim's, so that a packet takes the same
//! number of cycles in both (the derivation is in docs/booksim.md).
//!
//! A BookSim flit sent on a channel of latency L is read by the next router L cycles
//! later and enters its input buffer one cycle after that; its crossbar stage
//! (`st_prepare_delay + st_final_delay`, 1 by default) ends by putting the flit on
//! the output channel. flitsim's channel delivers into the buffer directly and its
//! crossbar stage is separate. So flitsim's channel takes `L + 1` and its crossbar one
//! cycle less than BookSim's; the injection channel (BookSim: latency 1, plus the input
//! stage) takes 2, and the ejection channel 2 as well (BookSim's 1 plus the one cycle
//! the crossbar lost).

use super::config::Config;
use super::error::ImportError;
use super::line::Line;
use super::topology::Shape;
use std::fmt::Write as _;

/// The delays flitsim gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Router-to-router channel latency.
    pub channel_latency: u32,
    /// Injection and ejection channel latency.
    pub terminal_latency: u32,
    /// Route computation.
    pub routing_delay: u32,
    /// VC allocation.
    pub vc_alloc_delay: u32,
    /// Switch allocation.
    pub switch_alloc_delay: u32,
    /// Crossbar.
    pub crossbar_delay: u32,
    /// Credit processing.
    pub credit_delay: u32,
}

/// Pipeline delays at most this (flitsim's limit is larger; BookSim's are a few cycles).
const MAX_DELAY: i64 = 1024;

impl Timing {
    /// Reads the delays.
    ///
    /// # Errors
    /// A delay out of range, or a zero-cycle crossbar (which this equivalence needs).
    pub fn from_config(
        config: &Config,
        shape: &Shape,
        lines: &mut Vec<Line>,
    ) -> Result<Timing, ImportError> {
        let latency = shape.booksim_channel_latency(config)?;
        let routing_delay = config.int("routing_delay", 0, MAX_DELAY)? as u32;
        let vc_alloc_delay = config.int("vc_alloc_delay", 1, MAX_DELAY)? as u32;
        let switch_alloc_delay = config.int("sw_alloc_delay", 1, MAX_DELAY)? as u32;
        let prepare = config.int("st_prepare_delay", 0, MAX_DELAY)? as u32;
        let last = config.int("st_final_delay", 0, MAX_DELAY)? as u32;
        if prepare + last == 0 {
            return Err(config.unsupported(
                "st_final_delay",
                "the timing equivalence moves one crossbar cycle into flitsim's channel and needs st_prepare_delay + st_final_delay >= 1",
                "use `st_final_delay = 1;` (BookSim's default)",
            ));
        }
        let credit_delay = config.int("credit_delay", 0, MAX_DELAY)? as u32;
        let t = Timing {
            channel_latency: latency + 1,
            terminal_latency: 2,
            routing_delay,
            vc_alloc_delay,
            switch_alloc_delay,
            crossbar_delay: prepare + last - 1,
            credit_delay,
        };
        t.print(config, latency, lines);
        Ok(t)
    }

    fn print(&self, config: &Config, latency: u32, lines: &mut Vec<Line>) {
        let channel = format!(
            "channel_latency = {} (BookSim's {latency}-cycle channel + its input stage), terminal_latency = 2",
            self.channel_latency
        );
        lines.push(config.line("use_noc_latency", channel, None));
        for (key, flitsim, value) in [
            ("routing_delay", "routing_delay", self.routing_delay),
            ("vc_alloc_delay", "vc_alloc_delay", self.vc_alloc_delay),
            (
                "sw_alloc_delay",
                "switch_alloc_delay",
                self.switch_alloc_delay,
            ),
            ("credit_delay", "credit_delay", self.credit_delay),
        ] {
            lines.push(config.line(key, format!("{flitsim} = {value}"), None));
        }
        let crossbar = format!(
            "crossbar_delay = {} (st_prepare_delay + st_final_delay - 1: one cycle is in the channel)",
            self.crossbar_delay
        );
        lines.push(config.line("st_final_delay", crossbar.clone(), None));
        lines.push(config.line("st_prepare_delay", crossbar, None));
    }

    /// The top-level keys (before any table).
    pub fn write_top(&self, out: &mut String) {
        let _ = writeln!(out, "channel_latency = {}", self.channel_latency);
        let _ = writeln!(out, "terminal_latency = {}", self.terminal_latency);
    }

    /// The pipeline delays in `[defaults]`.
    pub fn write_defaults(&self, out: &mut String) {
        for (key, value) in [
            ("routing_delay", self.routing_delay),
            ("vc_alloc_delay", self.vc_alloc_delay),
            ("switch_alloc_delay", self.switch_alloc_delay),
            ("crossbar_delay", self.crossbar_delay),
            ("credit_delay", self.credit_delay),
        ] {
            let _ = writeln!(out, "{key} = {value}");
        }
    }
}
