//! [`ConfigError`]: the simulation cannot be set up with this configuration.

use super::bytes::bytes_text;
use super::trace_file::TraceFileError;
use flitsim_netlist::{BufferDepth, Diagnostics};
use flitsim_routing::RoutingMismatch;
use std::fmt;

/// The simulation cannot be set up with this configuration. Nothing has been simulated.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigError {
    /// The injection rate is not a probability.
    RateOutOfRange {
        /// The rate given.
        rate: f64,
    },
    /// Packets need at least one flit.
    ZeroLength,
    /// Percentiles outside `(0, 100]`, or too many of them.
    BadPercentiles {
        /// The percentiles given.
        given: Vec<f64>,
    },
    /// The run would reach a cycle past [`Stamp::LAST`](flitsim_router::Stamp::LAST), which
    /// the flits' 32-bit cycle stamps cannot hold.
    RunTooLong {
        /// The cycles the run may take (their sum, which may exceed `u64`).
        cycles: u128,
        /// The last cycle a simulation may reach.
        last: u64,
    },
    /// Unknown traffic pattern name.
    UnknownTraffic {
        /// The name given.
        name: String,
        /// The known names.
        choices: String,
    },
    /// A known traffic pattern with a parameter it cannot take.
    BadTrafficParameter {
        /// The pattern as given.
        traffic: String,
        /// What is wrong with its parameters.
        problem: String,
        /// The pattern's form, with an example.
        form: &'static str,
    },
    /// The traffic pattern needs more terminals than the netlist has.
    TooFewTerminals {
        /// Pattern name.
        traffic: String,
        /// Terminals needed.
        needed: usize,
        /// Terminals present.
        have: usize,
    },
    /// A malformed `--length`.
    BadLength {
        /// The length spec given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// A malformed or impossible `--injection`.
    BadInjection {
        /// The injection process given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// A traffic pattern that does not fit this netlist (or has bad parameters).
    TrafficDoesNotFit {
        /// The pattern as given.
        traffic: String,
        /// Netlist name.
        netlist: String,
        /// What is wrong.
        reason: String,
        /// What to do.
        help: String,
    },
    /// A malformed trace file (`trace:FILE`).
    TraceFile(TraceFileError),
    /// Virtual cut-through or store-and-forward with buffers shallower than a packet: the
    /// netlist's located diagnostics.
    BufferTooShallow(Diagnostics),
    /// A store-and-forward router whose terminal port cannot hold the longest packet.
    SafInjectionTooShallow {
        /// Router name.
        router: String,
        /// Its terminal port's name.
        port: String,
        /// That port's buffer depth.
        depth: BufferDepth,
        /// The longest packet, in flits.
        max: u32,
    },
    /// A `vct` or `saf` router with bounded buffers and lengths without a longest packet.
    NoLongestPacket {
        /// Router name.
        router: String,
        /// Its switching technique (`vct` or `saf`).
        switching: &'static str,
        /// The `--length` spec.
        lengths: String,
    },
    /// The network's buffers, channels and router state (allocators included) and the
    /// zero-load latency walk's memos, estimated before the network is allocated, need
    /// more than the memory the machine has (or the process's address-space limit,
    /// `ulimit -v`).
    NetworkTooLarge {
        /// Bytes estimated for the whole network.
        needed: u64,
        /// Its largest part (`input FIFOs`, `channel delay lines`, ...).
        part: String,
        /// Bytes of that part.
        part_bytes: u64,
        /// What sizes that part (`16 routers x 5 ports x 255 VCs x 65536 flits`).
        detail: String,
        /// The limit in bytes.
        limit: u64,
        /// Whose limit it is (`of memory this machine has`).
        limit_what: String,
        /// What to do.
        help: String,
    },
    /// The routing function cannot run on this netlist.
    Routing {
        /// Routing function name.
        routing: String,
        /// Netlist name.
        netlist: String,
        /// What is wrong.
        mismatch: RoutingMismatch,
    },
}

impl ConfigError {
    /// The check's name, like a netlist error's `error[code]`.
    pub fn code(&self) -> &'static str {
        use ConfigError::*;
        match self {
            RateOutOfRange { .. } => "rate-out-of-range",
            ZeroLength => "zero-length",
            BadPercentiles { .. } => "bad-percentiles",
            RunTooLong { .. } => "run-too-long",
            UnknownTraffic { .. } => "unknown-traffic",
            BadTrafficParameter { .. } => "bad-traffic-parameter",
            TooFewTerminals { .. } => "too-few-terminals",
            BadLength { .. } => "bad-length",
            BadInjection { .. } => "bad-injection",
            TrafficDoesNotFit { .. } => "traffic-does-not-fit",
            TraceFile(e) => e.code(),
            BufferTooShallow(d) => d
                .errors
                .first()
                .map_or("vct-buffer-too-shallow", |e| e.code()),
            SafInjectionTooShallow { .. } => "saf-injection-too-shallow",
            NoLongestPacket { .. } => "no-longest-packet",
            NetworkTooLarge { .. } => "network-too-large",
            Routing { .. } => "routing-does-not-fit",
        }
    }

    /// Whether [`Display`](fmt::Display) already names the file, line and `error[code]`
    /// (a netlist diagnostic), so a printer adds no `error:` of its own.
    pub fn is_located(&self) -> bool {
        matches!(self, ConfigError::BufferTooShallow(_))
    }

    /// What to do about it (one line, lowercase, no trailing period), when there is
    /// something to say.
    pub fn help(&self) -> Option<String> {
        use ConfigError::*;
        Some(match self {
            RateOutOfRange { .. } => "pass --rate between 0 and 1, e.g. --rate 0.01".into(),
            ZeroLength => "pass --length 1 or more (flits per packet)".into(),
            BadPercentiles { .. } => format!(
                "pass --percentiles as up to {} percents in (0, 100], e.g. --percentiles 50,99,99.9",
                crate::stats::distribution::MAX_PERCENTILES
            ),
            RunTooLong { .. } => "lower --warmup, --cycles, --max-cycles or --drain-cycles; \
                                  for more samples, run again with another --seed"
                .into(),
            UnknownTraffic { choices, .. } => format!("choose one of: {choices}"),
            BadTrafficParameter { form, .. } => format!("write it as {form}"),
            TooFewTerminals { .. } => "use a larger netlist".into(),
            BadLength { .. } => "pass --length M, exp:MEAN or mix:M1,M2,P1 \
                                 (e.g. --length 4, exp:100, mix:1,5,0.5)"
                .into(),
            BadInjection { .. } => "pass --injection bernoulli or onoff:ALPHA:BETA with \
                                    ALPHA in (0, 1], BETA in [0, 1] and \
                                    rate (ALPHA + BETA) / ALPHA <= 1 (e.g. onoff:0.1:0.1)"
                .into(),
            TrafficDoesNotFit { help, .. } | NetworkTooLarge { help, .. } => help.clone(),
            Routing { mismatch, .. } => match mismatch {
                RoutingMismatch::DoesNotFit { help, .. } => help.clone(),
                RoutingMismatch::TooFewVcs { needed, .. } => {
                    format!("set vcs >= {needed} (for example --set vcs={needed})")
                }
                RoutingMismatch::ClassVcs { help, .. }
                | RoutingMismatch::TablesTooLarge { help, .. } => help.clone(),
            },
            TraceFile(e) => return e.help.map(str::to_string),
            BufferTooShallow(d) => return d.errors.first().map(|e| e.help()),
            SafInjectionTooShallow { max, .. } => format!(
                "set buffer_depth >= {max} or \"unbounded\" \
                 (store-and-forward stores whole packets, at injection too)"
            ),
            NoLongestPacket { .. } => "set buffer_depth = \"unbounded\" \
                                       (--set buffer_depth=unbounded) or use fixed or mix lengths"
                .into(),
        })
    }

    /// What is wrong, without the help line (a trace file's or the netlist's error renders
    /// whole, with its own help line).
    fn message(&self) -> String {
        use ConfigError::*;
        match self {
            RateOutOfRange { rate } => {
                format!("rate {rate} is not in [0, 1] (packets per terminal per cycle)")
            }
            ZeroLength => "packet length 0 is not allowed".into(),
            BadPercentiles { given } => format!("bad percentiles {given:?}"),
            RunTooLong { cycles, last } => format!(
                "a run of up to {cycles} cycles (--warmup + --cycles, or --max-cycles, plus \
                 --drain-cycles) goes past cycle {last}, the last one flits' 32-bit cycle \
                 stamps hold"
            ),
            UnknownTraffic { name, .. } => format!("unknown traffic pattern `{name}`"),
            BadTrafficParameter {
                traffic, problem, ..
            } => format!("traffic `{traffic}`: {problem}"),
            TooFewTerminals {
                traffic,
                needed,
                have,
            } => format!(
                "traffic `{traffic}` needs at least {needed} terminals, the netlist has {have}"
            ),
            BadLength { spec, reason } => format!("bad packet length `{spec}`: {reason}"),
            BadInjection { spec, reason } => format!("bad injection process `{spec}`: {reason}"),
            TrafficDoesNotFit {
                traffic,
                netlist,
                reason,
                ..
            } => format!("traffic `{traffic}` cannot run on netlist `{netlist}`: {reason}"),
            TraceFile(e) => e.to_string(),
            BufferTooShallow(d) => d.to_string(),
            SafInjectionTooShallow {
                router,
                port,
                depth,
                max,
            } => format!(
                "router {router} uses saf switching: its terminal port `{port}` holds {depth} \
                 flits, below the packet length {max}"
            ),
            NoLongestPacket {
                router,
                switching,
                lengths,
            } => format!(
                "router {router} uses {switching} switching with bounded buffers, but \
                 `--length {lengths}` has no longest packet"
            ),
            NetworkTooLarge {
                needed,
                part,
                part_bytes,
                detail,
                limit,
                limit_what,
                ..
            } => format!(
                "the network needs about {} for buffers, channels, router state and set-up \
                 ({part} {}: {detail}), more than the {} {limit_what}",
                bytes_text(needed),
                bytes_text(part_bytes),
                bytes_text(limit)
            ),
            Routing {
                routing,
                netlist,
                mismatch,
            } => format!("routing `{routing}` does not fit netlist `{netlist}`: {mismatch}"),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::TraceFile(e) => e.fmt(f),
            ConfigError::BufferTooShallow(d) => d.fmt(f),
            _ => match self.help() {
                Some(help) => write!(f, "{}\nhelp: {help}", self.message()),
                None => f.write_str(&self.message()),
            },
        }
    }
}

impl std::error::Error for ConfigError {}

impl From<TraceFileError> for ConfigError {
    fn from(e: TraceFileError) -> Self {
        ConfigError::TraceFile(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flitsim_netlist::{Location, NetlistError};
    use std::path::Path;

    #[test]
    fn display_is_the_message_then_the_help_on_its_own_line() {
        let e = ConfigError::ZeroLength;
        assert_eq!(e.code(), "zero-length");
        assert_eq!(
            e.to_string(),
            format!(
                "packet length 0 is not allowed\nhelp: {}",
                e.help().unwrap()
            )
        );
        assert!(!e.is_located());
    }

    #[test]
    fn a_netlist_diagnostic_keeps_its_code_location_and_help() {
        let inner = NetlistError::VctBufferTooShallow {
            at: Location::file(Path::new("t.toml")),
            endpoint: "r0.east".into(),
            depth: 8,
            packet_length: 20,
            switching: "vct".into(),
        };
        let e = ConfigError::BufferTooShallow(Diagnostics::from(inner.clone()));
        assert!(e.is_located());
        assert_eq!(e.code(), "vct-buffer-too-shallow");
        assert_eq!(e.help(), Some(inner.help()));
        assert_eq!(e.to_string(), Diagnostics::from(inner).to_string());
    }
}
