//! Netlist diagnostics: one typed [`NetlistError`] variant per check, each carrying the
//! [`Location`] it points at, collected into [`Diagnostics`] (sorted by location).
//!
//! Rendering (one error):
//!
//! ```text
//! netlists/t.toml:14:5: error[zero-latency-channel]: channel r3.east -> r4.west has latency 0
//! help: set latency >= 1 (the engine needs a cycle between writer and reader)
//! ```

use crate::config::{MAX_ALLOC_ITERS, MAX_BUFFER_DEPTH, MAX_LATENCY, MAX_PIPELINE_DELAY};
pub use crate::location::Location;
use std::fmt;

/// Which side of a port a channel uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PortSide {
    /// The port's output (a channel's `from`).
    Output,
    /// The port's input (a channel's `to`).
    Input,
}

impl fmt::Display for PortSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PortSide::Output => "output",
            PortSide::Input => "input",
        })
    }
}

/// Every way a netlist can be wrong. The variant names are the checks; the `code()` is the
/// kebab-case name shown as `error[code]`. Messages start lowercase and use netlist names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NetlistError {
    /// The file could not be read.
    #[error("cannot read the netlist: {message}")]
    Io {
        /// The file.
        at: Location,
        /// The operating system's message.
        message: String,
    },
    /// The file is not UTF-8 text (a binary file, or another encoding).
    #[error("not text: byte {byte} is not valid UTF-8")]
    NotText {
        /// Where the first invalid byte is.
        at: Location,
        /// Its offset in the file.
        byte: usize,
    },
    /// The file is not valid TOML.
    #[error("invalid TOML: {message}")]
    Syntax {
        /// Where the parser stopped.
        at: Location,
        /// The parser's message.
        message: String,
    },
    /// A key that the format does not have (typo, or a key of the wrong table).
    #[error("unknown key `{key}` in {table}")]
    UnknownKey {
        /// The key.
        at: Location,
        /// The key as written.
        key: String,
        /// The table it appeared in (`[defaults]`, `[[router]]`, ...).
        table: String,
        /// The keys that table accepts.
        choices: Vec<String>,
    },
    /// A required key is missing.
    #[error("{table} lacks the required key `{key}`")]
    MissingKey {
        /// The table.
        at: Location,
        /// The missing key.
        key: String,
        /// The table (`[[channel]]`, `[topology]`, ...).
        table: String,
    },
    /// A value of the wrong type or out of range.
    #[error("bad value for `{key}`: {message}")]
    BadValue {
        /// The value.
        at: Location,
        /// The key it belongs to.
        key: String,
        /// What is wrong with it.
        message: String,
    },
    /// A name that must be one of a fixed set (routing, switching, topology kind, ...).
    #[error("unknown {what} `{value}`")]
    UnknownName {
        /// The value.
        at: Location,
        /// What it names (`routing function`, `switching`, ...).
        what: String,
        /// The value as written.
        value: String,
        /// The accepted names.
        choices: Vec<String>,
    },
    /// Generator parameters that do not describe a network (radix 1 torus, too large, ...).
    #[error("bad topology: {message}")]
    BadTopology {
        /// The `[topology]` table or key.
        at: Location,
        /// What is wrong.
        message: String,
    },
    /// A netlist with neither a generator nor routers, or with channels but no routers.
    #[error("{message}")]
    BadForm {
        /// The offending table.
        at: Location,
        /// What is wrong.
        message: String,
    },
    /// Two routers with the same name.
    #[error("router `{name}` is declared twice")]
    DuplicateRouter {
        /// The second declaration.
        at: Location,
        /// The name.
        name: String,
        /// The first declaration.
        first: Location,
    },
    /// Two ports of one router with the same name.
    #[error("router `{router}` declares port `{port}` twice")]
    DuplicatePort {
        /// The second declaration.
        at: Location,
        /// The router.
        router: String,
        /// The port.
        port: String,
    },
    /// A port's `direction` that is not `d<k>+` or `d<k>-`.
    #[error("port {endpoint} has direction `{value}`, expected `d<k>+` or `d<k>-`")]
    BadDirection {
        /// The value.
        at: Location,
        /// `router.port`.
        endpoint: String,
        /// The value as written.
        value: String,
    },
    /// A channel endpoint that is not `router.port`.
    #[error("channel endpoint `{text}` is not of the form `router.port`")]
    BadEndpoint {
        /// The endpoint.
        at: Location,
        /// The text as written.
        text: String,
    },
    /// A channel names a router that is not declared.
    #[error("channel endpoint `{endpoint}` names unknown router `{router}`")]
    UnknownRouter {
        /// The endpoint.
        at: Location,
        /// The endpoint as written.
        endpoint: String,
        /// The router name.
        router: String,
    },
    /// A channel names a port its router does not declare.
    #[error("channel endpoint `{endpoint}`: router `{router}` has no port `{port}`")]
    UnknownPort {
        /// The endpoint.
        at: Location,
        /// The endpoint as written.
        endpoint: String,
        /// The router name.
        router: String,
        /// The port name.
        port: String,
        /// The router's network ports.
        choices: Vec<String>,
    },
    /// A channel uses the terminal port `local`, which the terminal owns.
    #[error("channel endpoint `{endpoint}` uses the terminal port")]
    TerminalPortInChannel {
        /// The endpoint.
        at: Location,
        /// The endpoint as written.
        endpoint: String,
    },
    /// Two channels leave from (or arrive at) the same port.
    #[error("{side} of port {endpoint} is used by two channels")]
    PortUsedTwice {
        /// The second use.
        at: Location,
        /// `router.port`.
        endpoint: String,
        /// Which side.
        side: PortSide,
        /// The first use.
        first: Location,
    },
    /// A declared network port that no channel uses in either direction.
    #[error("port {endpoint} is connected to nothing")]
    DanglingPort {
        /// The port's declaration.
        at: Location,
        /// `router.port`.
        endpoint: String,
    },
    /// A channel (or the generator's `channel_latency`) of latency 0.
    #[error("channel {channel} has latency 0")]
    ZeroLatencyChannel {
        /// The latency (or channel).
        at: Location,
        /// `r3.east -> r4.west`, or `every channel` for generators.
        channel: String,
    },
    /// A terminal latency of 0.
    #[error("terminal latency of {scope} is 0")]
    ZeroTerminalLatency {
        /// The key.
        at: Location,
        /// The router or `every router`.
        scope: String,
    },
    /// `vcs = 0`.
    #[error("{scope} has 0 VCs")]
    ZeroVcs {
        /// The key.
        at: Location,
        /// `[defaults]`, a router or a port.
        scope: String,
    },
    /// `buffer_depth = 0`.
    #[error("{scope} has buffer depth 0")]
    ZeroBufferDepth {
        /// The key.
        at: Location,
        /// `[defaults]`, a router or a port.
        scope: String,
    },
    /// `buffer_depth` above [`MAX_BUFFER_DEPTH`] flits.
    #[error(
        "{scope} has buffer depth {depth}, above the limit of {MAX_BUFFER_DEPTH} flits per VC"
    )]
    BufferDepthTooLarge {
        /// The key.
        at: Location,
        /// `[defaults]`, a router or a port.
        scope: String,
        /// The depth as written.
        depth: u32,
    },
    /// A channel latency above [`MAX_LATENCY`] cycles.
    #[error("channel {channel} has latency {latency}, above the limit of {MAX_LATENCY} cycles")]
    ChannelLatencyTooLarge {
        /// The latency.
        at: Location,
        /// `r3.east -> r4.west`, or the `channel_latency` key.
        channel: String,
        /// The key as written (`latency` or `channel_latency`).
        key: String,
        /// The latency as written.
        latency: u32,
    },
    /// A terminal latency above [`MAX_LATENCY`] cycles.
    #[error("terminal latency of {scope} is {latency}, above the limit of {MAX_LATENCY} cycles")]
    TerminalLatencyTooLarge {
        /// The key.
        at: Location,
        /// The router or `every router`.
        scope: String,
        /// The latency as written.
        latency: u32,
    },
    /// A router pipeline delay (`routing_delay`, ..., `credit_delay`) above
    /// [`MAX_PIPELINE_DELAY`] cycles.
    #[error("{scope} has {key} = {delay}, above the limit of {MAX_PIPELINE_DELAY} cycles")]
    DelayTooLarge {
        /// The key.
        at: Location,
        /// `[defaults]` or a router.
        scope: String,
        /// The delay's key (`credit_delay`, ...).
        key: String,
        /// The delay as written.
        delay: u32,
    },
    /// `alloc_iters` outside 1..=[`MAX_ALLOC_ITERS`].
    #[error("{scope} has alloc_iters = {iters}; use 1 to {MAX_ALLOC_ITERS} rounds")]
    AllocItersOutOfRange {
        /// The key.
        at: Location,
        /// `[defaults]` or a router.
        scope: String,
        /// The count as written.
        iters: u8,
    },
    /// Under virtual cut-through (or store-and-forward) a VC must hold a whole packet.
    #[error("port {endpoint}: buffer depth {depth} is below the packet length {packet_length} under {switching} switching")]
    VctBufferTooShallow {
        /// The effective `buffer_depth` setting.
        at: Location,
        /// `router.port`.
        endpoint: String,
        /// The depth in flits.
        depth: u32,
        /// The longest packet.
        packet_length: u32,
        /// `vct` or `saf`.
        switching: String,
    },
    /// A pipeline organisation the stage delays cannot honour.
    #[error("router {routers}: {detail}")]
    PipelineMismatch {
        /// The `speculative` or `lookahead_routing` key in force.
        at: Location,
        /// The router (and how many others).
        routers: String,
        /// What does not fit.
        detail: String,
        /// What to change.
        help: String,
    },
    /// Some terminal cannot reach, or cannot be reached from, another.
    #[error("terminal of router {router} {problem}")]
    UnreachableTerminal {
        /// The router's declaration.
        at: Location,
        /// The router.
        router: String,
        /// `cannot be reached from r0` or `cannot reach r0`.
        problem: String,
    },
    /// Explicit routers and channels that do not match the declared `[topology]`.
    #[error("the routers and channels do not match [topology] {topology}: {difference}")]
    TopologyMismatch {
        /// The difference (router or channel), or the `[topology]` table.
        at: Location,
        /// The declared topology.
        topology: String,
        /// The first difference found for this item.
        difference: String,
    },
    /// The routing function cannot run on this netlist (P-cube on a torus).
    #[error("routing function `{routing}` does not fit {topology} at router {router}{others}")]
    RoutingDoesNotFit {
        /// The `routing` key in force.
        at: Location,
        /// The routing function.
        routing: String,
        /// The topology.
        topology: String,
        /// The first router concerned.
        router: String,
        /// `" and N other routers"` or empty.
        others: String,
        /// The routing function's advice.
        help: String,
    },
    /// The routing function needs more VC classes than the router has VCs.
    #[error("routing function `{routing}` needs {needed} VCs per port but has {have} at router {router}{others}")]
    TooFewVcs {
        /// The `routing` key in force.
        at: Location,
        /// The routing function.
        routing: String,
        /// VCs needed.
        needed: u8,
        /// VCs present.
        have: u8,
        /// The first router concerned.
        router: String,
        /// `" and N other routers"` or empty.
        others: String,
        /// The routing function's advice.
        help: String,
    },
    /// The routing function cannot be split into the netlist's message classes.
    #[error("routing function `{routing}` does not fit the message classes: {detail}")]
    MessageClassesDoNotFit {
        /// The `routing` key in force.
        at: Location,
        /// The routing function.
        routing: String,
        /// What does not fit.
        detail: String,
        /// What to change.
        help: String,
    },
    /// The routing function's channel dependency graph has a cycle.
    #[error("routing function `{routing}` can deadlock: its channel dependency graph has a cycle through {}", channels.join(", "))]
    RoutingDependencyCycle {
        /// The `routing` key in force.
        at: Location,
        /// The routing function.
        routing: String,
        /// Every channel on the cycle.
        channels: Vec<String>,
        /// The routing function's advice.
        help: String,
    },
    /// The routing tables would need more memory than they may use.
    #[error("the routing tables of `{routing}` need {bytes} bytes, more than {limit}")]
    RoutingTablesTooLarge {
        /// The `routing` key in force.
        at: Location,
        /// The routing function.
        routing: String,
        /// Bytes the tables would take.
        bytes: u64,
        /// What they exceed (`the 1073741824 bytes they may use`).
        limit: String,
        /// What to change.
        help: String,
    },
    /// The static deadlock check would need more memory than it may use.
    #[error(
        "the static deadlock check of routing `{routing}` needs more than {bytes} bytes of memory"
    )]
    DeadlockCheckTooLarge {
        /// The `routing` key in force.
        at: Location,
        /// The routing function.
        routing: String,
        /// Bytes it asked for when it stopped.
        bytes: usize,
        /// What to change.
        help: String,
    },
    /// `--set key=value` with a key that is not a router or channel parameter.
    #[error("unknown setting `{key}`")]
    UnknownSetting {
        /// The key.
        key: String,
        /// The keys `--set` accepts.
        choices: Vec<String>,
    },
    /// `--set key=value` with a value the key does not accept.
    #[error("bad value `{value}` for setting `{key}`: {message}")]
    BadSetting {
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What is expected.
        message: String,
    },
}

fn one_of(choices: &[String]) -> String {
    choices
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl NetlistError {
    /// The check's name, shown as `error[code]`.
    pub fn code(&self) -> &'static str {
        use NetlistError::*;
        match self {
            Io { .. } => "io",
            NotText { .. } => "not-text",
            Syntax { .. } => "toml-syntax",
            UnknownKey { .. } => "unknown-key",
            MissingKey { .. } => "missing-key",
            BadValue { .. } => "bad-value",
            UnknownName { .. } => "unknown-name",
            BadTopology { .. } => "bad-topology",
            BadForm { .. } => "bad-form",
            DuplicateRouter { .. } => "duplicate-router",
            DuplicatePort { .. } => "duplicate-port",
            BadDirection { .. } => "bad-direction",
            BadEndpoint { .. } => "bad-endpoint",
            UnknownRouter { .. } => "unknown-router",
            UnknownPort { .. } => "unknown-port",
            TerminalPortInChannel { .. } => "terminal-port-in-channel",
            PortUsedTwice { .. } => "port-used-twice",
            DanglingPort { .. } => "dangling-port",
            ZeroLatencyChannel { .. } => "zero-latency-channel",
            ZeroTerminalLatency { .. } => "zero-terminal-latency",
            ZeroVcs { .. } => "zero-vcs",
            ZeroBufferDepth { .. } => "zero-buffer-depth",
            BufferDepthTooLarge { .. } => "buffer-depth-too-large",
            ChannelLatencyTooLarge { .. } => "channel-latency-too-large",
            TerminalLatencyTooLarge { .. } => "terminal-latency-too-large",
            DelayTooLarge { .. } => "delay-too-large",
            AllocItersOutOfRange { .. } => "alloc-iters-out-of-range",
            VctBufferTooShallow { .. } => "vct-buffer-too-shallow",
            PipelineMismatch { .. } => "pipeline-mismatch",
            UnreachableTerminal { .. } => "unreachable-terminal",
            TopologyMismatch { .. } => "topology-mismatch",
            RoutingDoesNotFit { .. } => "routing-does-not-fit",
            TooFewVcs { .. } => "too-few-vcs",
            MessageClassesDoNotFit { .. } => "message-classes-do-not-fit",
            RoutingDependencyCycle { .. } => "routing-dependency-cycle",
            RoutingTablesTooLarge { .. } => "routing-tables-too-large",
            DeadlockCheckTooLarge { .. } => "deadlock-check-too-large",
            UnknownSetting { .. } => "unknown-setting",
            BadSetting { .. } => "bad-setting",
        }
    }

    /// Where the error is, if it concerns a file (`--set` errors do not).
    pub fn location(&self) -> Option<&Location> {
        use NetlistError::*;
        match self {
            Io { at, .. }
            | NotText { at, .. }
            | Syntax { at, .. }
            | UnknownKey { at, .. }
            | MissingKey { at, .. }
            | BadValue { at, .. }
            | UnknownName { at, .. }
            | BadTopology { at, .. }
            | BadForm { at, .. }
            | DuplicateRouter { at, .. }
            | DuplicatePort { at, .. }
            | BadDirection { at, .. }
            | BadEndpoint { at, .. }
            | UnknownRouter { at, .. }
            | UnknownPort { at, .. }
            | TerminalPortInChannel { at, .. }
            | PortUsedTwice { at, .. }
            | DanglingPort { at, .. }
            | ZeroLatencyChannel { at, .. }
            | ZeroTerminalLatency { at, .. }
            | ZeroVcs { at, .. }
            | ZeroBufferDepth { at, .. }
            | BufferDepthTooLarge { at, .. }
            | ChannelLatencyTooLarge { at, .. }
            | TerminalLatencyTooLarge { at, .. }
            | DelayTooLarge { at, .. }
            | AllocItersOutOfRange { at, .. }
            | VctBufferTooShallow { at, .. }
            | PipelineMismatch { at, .. }
            | UnreachableTerminal { at, .. }
            | TopologyMismatch { at, .. }
            | RoutingDoesNotFit { at, .. }
            | TooFewVcs { at, .. }
            | MessageClassesDoNotFit { at, .. }
            | RoutingDependencyCycle { at, .. }
            | RoutingTablesTooLarge { at, .. }
            | DeadlockCheckTooLarge { at, .. } => Some(at),
            UnknownSetting { .. } | BadSetting { .. } => None,
        }
    }

    /// What to do about it (one line, lowercase, no trailing period).
    pub fn help(&self) -> String {
        use NetlistError::*;
        match self {
            Io { .. } => "check the path and the file's permissions".into(),
            NotText { .. } => "a netlist is a TOML file in UTF-8; check that the path names one".into(),
            Syntax { .. } => "fix the TOML syntax (https://toml.io)".into(),
            UnknownKey { choices, .. } => format!("expected one of {}", one_of(choices)),
            MissingKey { key, .. } => format!("add `{key} = ...`"),
            BadValue { .. } => "see the netlist format in docs/netlist.md".into(),
            UnknownName { choices, .. } => format!("expected one of {}", one_of(choices)),
            BadTopology { .. } => {
                "torus: radix >= 2 per dimension; mesh: radix >= 1; hypercube: 1 <= dim <= 16; ring: n >= 2; dragonfly: a, h >= 1, a + h <= 200; hyperx: radix >= 2 per dimension, sum of (radix - 1) <= 200, at most 4194304 channels; fat-tree: 2 <= k <= 32, 1 <= n <= 20; at most 1048576 routers".into()
            }
            BadForm { .. } => {
                "give either a generator (`[topology]` alone) or `[[router]]` and `[[channel]]` entries".into()
            }
            DuplicateRouter { first, .. } => format!("rename one of them (first declared at {first})"),
            DuplicatePort { .. } => "port names must be unique within a router".into(),
            BadDirection { .. } => "write `d0+` for x+, `d0-` for x-, `d1+` for y+, ... or leave `direction` out".into(),
            BadEndpoint { .. } => "write it as `router.port`, e.g. `r0.east`".into(),
            UnknownRouter { .. } => "declare the router with a `[[router]]` entry or fix the name".into(),
            UnknownPort { choices, .. } => {
                if choices.is_empty() {
                    "the router declares no network ports: add one to its `ports` list".into()
                } else {
                    format!("declare the port in the router's `ports` list, or use one of {}", one_of(choices))
                }
            }
            TerminalPortInChannel { .. } => {
                "`local` is the terminal's port: declare a network port and connect that".into()
            }
            PortUsedTwice { first, side, .. } => format!(
                "a port has one {side} channel; declare another port (first use at {first})"
            ),
            DanglingPort { .. } => "connect it with a `[[channel]]` or remove it from `ports`".into(),
            ZeroLatencyChannel { .. } => {
                "set latency >= 1 (the engine needs a cycle between writer and reader)".into()
            }
            ZeroTerminalLatency { .. } => {
                "set terminal_latency >= 1 (the engine needs a cycle between writer and reader)".into()
            }
            ZeroVcs { .. } => "set vcs >= 1".into(),
            ZeroBufferDepth { .. } => "set buffer_depth >= 1 or \"unbounded\"".into(),
            BufferDepthTooLarge { .. } => format!(
                "set buffer_depth <= {MAX_BUFFER_DEPTH}, or use \"unbounded\" for an effectively infinite buffer"
            ),
            ChannelLatencyTooLarge { key, .. } => format!("set {key} <= {MAX_LATENCY} (cycles)"),
            TerminalLatencyTooLarge { .. } => {
                format!("set terminal_latency <= {MAX_LATENCY} (cycles)")
            }
            DelayTooLarge { key, .. } => format!("set {key} <= {MAX_PIPELINE_DELAY} (cycles)"),
            AllocItersOutOfRange { .. } => format!("set alloc_iters from 1 to {MAX_ALLOC_ITERS}"),
            VctBufferTooShallow { packet_length, .. } => format!(
                "set buffer_depth >= {packet_length} (or \"unbounded\"), or use wormhole switching"
            ),
            UnreachableTerminal { .. } => {
                "add channels so that every router can reach every other router".into()
            }
            TopologyMismatch { .. } => {
                "make the routers and channels match the declared topology, or remove `[topology]` (routing functions then see an explicit netlist)".into()
            }
            RoutingDoesNotFit { help, .. }
            | TooFewVcs { help, .. }
            | MessageClassesDoNotFit { help, .. }
            | PipelineMismatch { help, .. }
            | RoutingDependencyCycle { help, .. }
            | RoutingTablesTooLarge { help, .. }
            | DeadlockCheckTooLarge { help, .. } => help.clone(),
            UnknownSetting { choices, .. } => format!("expected one of {}", one_of(choices)),
            BadSetting { .. } => "see `flitsim netlist expand` for the current values".into(),
        }
    }
}

/// Renders one error with its location and help line (no trailing newline).
fn render(f: &mut fmt::Formatter<'_>, e: &NetlistError) -> fmt::Result {
    match e.location() {
        Some(at) => write!(f, "{at}: error[{}]: {e}", e.code())?,
        None => write!(f, "error[{}]: {e}", e.code())?,
    }
    write!(f, "\nhelp: {}", e.help())
}

/// All errors found in one netlist, sorted by location (then code, then message), so the
/// output is deterministic. Displays as the rendered list, one error and its help line each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    /// The errors, sorted.
    pub errors: Vec<NetlistError>,
}

impl Diagnostics {
    /// Sorts `errors` by location and wraps them.
    pub fn new(mut errors: Vec<NetlistError>) -> Diagnostics {
        errors.sort_by(|a, b| {
            (a.location(), a.code(), a.to_string()).cmp(&(b.location(), b.code(), b.to_string()))
        });
        errors.dedup();
        Diagnostics { errors }
    }

    /// `Ok(())` if there are no errors.
    pub fn into_result(self) -> Result<(), Diagnostics> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }

    /// Number of errors.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }
}

impl From<NetlistError> for Diagnostics {
    fn from(e: NetlistError) -> Self {
        Diagnostics { errors: vec![e] }
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            render(f, e)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_code_location_and_help() {
        let e = NetlistError::ZeroLatencyChannel {
            at: Location {
                path: "netlists/t.toml".into(),
                line: 14,
                col: 5,
                setting: None,
            },
            channel: "r3.east -> r4.west".into(),
        };
        assert_eq!(
            Diagnostics::from(e).to_string(),
            "netlists/t.toml:14:5: error[zero-latency-channel]: channel r3.east -> r4.west has latency 0\n\
             help: set latency >= 1 (the engine needs a cycle between writer and reader)"
        );
    }

    #[test]
    fn diagnostics_are_sorted_by_location() {
        let at = |line| Location {
            path: "f".into(),
            line,
            col: 1,
            setting: None,
        };
        let d = Diagnostics::new(vec![
            NetlistError::ZeroVcs {
                at: at(9),
                scope: "a".into(),
            },
            NetlistError::ZeroVcs {
                at: at(2),
                scope: "b".into(),
            },
        ]);
        assert_eq!(d.errors[0].location().unwrap().line, 2);
    }
}
