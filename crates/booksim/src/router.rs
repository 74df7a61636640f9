//! BookSim's router keys (routing function, VCs, buffers, VC release, allocators,
//! arbiters) -> flitsim's `[defaults]`.

use super::config::Config;
use super::error::ImportError;
use super::line::Line;
use super::topology::Shape;
use flitsim_netlist::MAX_ALLOC_ITERS;
use std::fmt::Write as _;

/// BookSim's torus DOR as flitsim router parameters: the random `+`/`-` choice at
/// distance k/2 made when the packet turns into the dimension (`dor_tie`), and the VC
/// class fixed when it enters the dimension (`dateline`). Written on every torus (the
/// escape DOR of `duato` follows them too), though they are flitsim's defaults.
pub const TORUS_DOR_KEYS: [(&str, &str); 2] = [("dor_tie", "balanced"), ("dateline", "entry")];

/// The router parameters read from a BookSim config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouterKeys {
    /// `(key, TOML value)` pairs of `[defaults]`, in order.
    pub defaults: Vec<(&'static str, String)>,
}

impl RouterKeys {
    /// Reads the router keys.
    ///
    /// # Errors
    /// A routing function, allocator or arbiter flitsim lacks, or a bad number.
    pub fn from_config(
        config: &Config,
        shape: &Shape,
        lines: &mut Vec<Line>,
    ) -> Result<RouterKeys, ImportError> {
        let mut defaults = Vec::new();
        routing(config, shape, lines, &mut defaults)?;
        let vcs = config.int("num_vcs", 1, 255)?;
        defaults.push(("vcs", vcs.to_string()));
        lines.push(config.line("num_vcs", format!("vcs = {vcs}"), None));
        let depth = config.int("vc_buf_size", 1, 65_536)?;
        defaults.push(("buffer_depth", depth.to_string()));
        lines.push(config.line("vc_buf_size", format!("buffer_depth = {depth}"), None));
        let release = match config.int("wait_for_tail_credit", 0, 1)? {
            0 => "tail",
            _ => "credits",
        };
        defaults.push(("vc_release", quoted(release)));
        lines.push(config.line(
            "wait_for_tail_credit",
            format!("vc_release = \"{release}\""),
            None,
        ));
        allocators(config, lines, &mut defaults)?;
        let speculative = config.int("speculative", 0, 1)? == 1;
        defaults.push(("speculative", speculative.to_string()));
        let line = format!("speculative = {speculative}");
        lines.push(config.line("speculative", line, None));
        for key in ["input_speedup", "output_speedup"] {
            let speedup = config.int(key, 1, i64::from(flitsim_netlist::MAX_SPEEDUP))?;
            if speedup > 1 {
                defaults.push((key, speedup.to_string()));
                lines.push(config.line(key, format!("{key} = {speedup}"), None));
            }
        }
        Ok(RouterKeys { defaults })
    }

    /// Writes the `[defaults]` keys.
    pub fn write_defaults(&self, out: &mut String) {
        for (key, value) in &self.defaults {
            let _ = writeln!(out, "{key} = {value}");
        }
    }
}

fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

/// `routing_function` -> `routing` (and BookSim's torus DOR rules where flitsim has them).
fn routing(
    config: &Config,
    shape: &Shape,
    lines: &mut Vec<Line>,
    defaults: &mut Vec<(&'static str, String)>,
) -> Result<(), ImportError> {
    let (function, _) = config.get("routing_function");
    let (routing, note) = match function.as_str() {
        "min" if shape.is_any_net() => (
            "table",
            Some("nearest flitsim function: shortest up*/down* paths, all of them (deadlock-free); BookSim's min_anynet takes one shortest path per pair".to_string()),
        ),
        _ if shape.is_any_net() => {
            return Err(config.unsupported(
                "routing_function",
                "an anynet has no coordinates; flitsim routes it by table",
                "use `routing_function = min;`",
            ))
        }
        "dim_order" => ("dor", None),
        "dor" if !shape.is_torus() => ("dor", None),
        "min_adapt" => (
            "duato",
            Some(
                "nearest flitsim function: minimal adaptive VCs with DOR escape VCs (Duato); BookSim's min_adapt escapes differently"
                    .to_string(),
            ),
        ),
        "none" => {
            return Err(config.bad(
                "routing_function",
                "BookSim has no default routing function",
                "set `routing_function = dim_order;`",
            ))
        }
        _ => {
            return Err(config.unsupported(
                "routing_function",
                "flitsim imports dim_order (dor on meshes) and min_adapt",
                "use `routing_function = dim_order;`",
            ))
        }
    };
    defaults.push(("routing", quoted(routing)));
    let mut target = format!("routing = \"{routing}\"");
    if shape.is_torus() {
        for (key, value) in TORUS_DOR_KEYS {
            defaults.push((key, quoted(value)));
            let _ = write!(target, ", {key} = \"{value}\"");
        }
    }
    lines.push(config.line("routing_function", target, note));
    Ok(())
}

/// One BookSim allocator name, `name` or `name(param)`, as flitsim's allocator.
struct Allocator {
    /// flitsim's allocator.
    kind: &'static str,
    /// Rounds: the parameter of an iterative allocator, else 1.
    iters: i64,
    /// Does the count of rounds change what it does?
    iterative: bool,
    /// BookSim's arbiter name: the parameter of a separable allocator, else round-robin.
    arbiter: String,
    /// What differs from BookSim.
    note: Option<String>,
}

/// `vc_allocator` and `sw_allocator` -> `vc_allocator`, `switch_allocator`, `arbiter` and
/// `alloc_iters`. BookSim's IQ router builds its allocators without the config, so
/// `alloc_iters` and `arb_type` change nothing there: only a parameter in the name does.
fn allocators(
    config: &Config,
    lines: &mut Vec<Line>,
    defaults: &mut Vec<(&'static str, String)>,
) -> Result<(), ImportError> {
    let vc = allocator(config, "vc_allocator")?;
    let sw = allocator(config, "sw_allocator")?;
    for (key, flitsim, a) in [
        ("vc_allocator", "vc_allocator", &vc),
        ("sw_allocator", "switch_allocator", &sw),
    ] {
        defaults.push((flitsim, quoted(a.kind)));
        lines.push(config.line(key, format!("{flitsim} = \"{}\"", a.kind), a.note.clone()));
    }
    let ignored = |key: &str| {
        format!("ignored, as BookSim's IQ router does: give the parameter in the allocator's name ({key})")
    };
    if config.is_set("alloc_iters") {
        lines.push(config.line("alloc_iters", "", Some(ignored("`islip(2)`"))));
    }
    if config.is_set("arb_type") {
        let note = Some(ignored("`separable_input_first(matrix)`"));
        lines.push(config.line("arb_type", "", note));
    }
    let rounds: Vec<i64> = [&vc, &sw]
        .iter()
        .filter(|a| a.iterative)
        .map(|a| a.iters)
        .collect();
    if rounds.windows(2).any(|w| w[0] != w[1]) {
        return Err(config.unsupported(
            "sw_allocator",
            &format!(
                "the VC allocator makes {} rounds and the switch allocator {}; flitsim's `alloc_iters` sets both",
                vc.iters, sw.iters
            ),
            "give both allocators the same parameter, e.g. `vc_allocator = islip(2); sw_allocator = islip(2);`",
        ));
    }
    let iters = rounds.first().copied().unwrap_or(1);
    defaults.push(("alloc_iters", iters.to_string()));
    if vc.arbiter != sw.arbiter {
        return Err(config.unsupported(
            "sw_allocator",
            &format!(
                "the VC allocator's arbiters are {} and the switch allocator's {}; flitsim's `arbiter` sets both",
                vc.arbiter, sw.arbiter
            ),
            "give both allocators the same arbiter, e.g. `separable_input_first(matrix)` for both",
        ));
    }
    let arbiter = match vc.arbiter.as_str() {
        "round_robin" => "round-robin",
        _ => "matrix",
    };
    defaults.push(("arbiter", quoted(arbiter)));
    Ok(())
}

/// `vc_allocator` or `sw_allocator`, with BookSim's optional `(param)`.
fn allocator(config: &Config, key: &str) -> Result<Allocator, ImportError> {
    let (value, _) = config.get(key);
    let (name, param) = match value.split_once('(') {
        Some((name, rest)) => (name, Some(rest.trim_end_matches(')'))),
        None => (value.as_str(), None),
    };
    let stand_in = |name: &str| {
        Some(format!(
            "flitsim has no `{name}` allocator: the separable output-first one stands in"
        ))
    };
    let (kind, iterative, separable, note) = match name {
        "separable_input_first" => ("separable-input-first", false, true, None),
        "separable_output_first" => ("separable-output-first", false, true, None),
        "islip" => ("islip", true, false, None),
        "pim" => ("pim", true, false, None),
        "wavefront" => ("wavefront", false, false, None),
        "select" => ("separable-output-first", true, false, stand_in(name)),
        "loa" | "max_size" => ("separable-output-first", false, false, stand_in(name)),
        "rr_wavefront" | "piggyback" => {
            let reason = if name == "piggyback" {
                "flitsim has no piggybacked VC allocation (VCs chosen by the speculative switch allocator)"
            } else {
                "flitsim's wavefront moves its priority diagonal by one per allocation, as BookSim's `wavefront`; `rr_wavefront`'s rule is not modelled"
            };
            return Err(config.unsupported(key, reason, &format!("use `{key} = wavefront;` or a separable allocator")));
        }
        _ => {
            return Err(config.bad(
                key,
                "not a BookSim allocator",
                "use separable_input_first, separable_output_first, islip, pim, loa, wavefront, max_size or select, with an optional parameter such as islip(2)",
            ))
        }
    };
    let iters = match param {
        Some(p) if iterative => match p.trim().parse::<i64>() {
            Ok(n) if (1..=i64::from(MAX_ALLOC_ITERS)).contains(&n) => n,
            _ => {
                return Err(config.bad(
                    key,
                    &format!("the rounds in `{name}(N)` must be 1 to {MAX_ALLOC_ITERS}"),
                    &format!("write for example `{key} = {name}(2);`"),
                ))
            }
        },
        _ => 1,
    };
    let arbiter = match param {
        Some(p) if separable => match p.trim() {
            "round_robin" | "matrix" => p.trim().to_string(),
            _ => {
                return Err(config.unsupported(
                    key,
                    "flitsim's arbiters are round_robin and matrix",
                    &format!("write `{key} = {name}(round_robin);` or `{name}(matrix)`"),
                ))
            }
        },
        _ => "round_robin".to_string(),
    };
    if param.is_some() && !iterative && !separable {
        return Err(config.bad(
            key,
            &format!("BookSim's `{name}` takes no parameter"),
            &format!("write `{key} = {name};`"),
        ));
    }
    Ok(Allocator {
        kind,
        iters,
        iterative: iterative && kind != "separable-output-first",
        arbiter,
        note,
    })
}
