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
        for (key, flitsim) in [
            ("vc_allocator", "vc_allocator"),
            ("sw_allocator", "switch_allocator"),
        ] {
            let (kind, note) = allocator(config, key)?;
            defaults.push((flitsim, quoted(kind)));
            lines.push(config.line(key, format!("{flitsim} = \"{kind}\""), note));
        }
        let arbiter = match config.get("arb_type").0.as_str() {
            "round_robin" => "round-robin",
            "matrix" => "matrix",
            _ => {
                return Err(config.unsupported(
                    "arb_type",
                    "flitsim's arbiters are round-robin and matrix",
                    "use `arb_type = round_robin;` or `arb_type = matrix;`",
                ))
            }
        };
        defaults.push(("arbiter", quoted(arbiter)));
        lines.push(config.line("arb_type", format!("arbiter = \"{arbiter}\""), None));
        let iters = config.int("alloc_iters", 1, i64::from(MAX_ALLOC_ITERS))?;
        defaults.push(("alloc_iters", iters.to_string()));
        let iterative = ["vc_allocator", "sw_allocator"]
            .iter()
            .any(|k| matches!(config.get(k).0.as_str(), "islip" | "pim"));
        let note = (iters > 1 && !iterative)
            .then(|| "only iSLIP and PIM make more than one round".to_string());
        lines.push(config.line("alloc_iters", format!("alloc_iters = {iters}"), note));
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

/// `vc_allocator` / `sw_allocator` -> flitsim's allocator.
fn allocator(config: &Config, key: &str) -> Result<(&'static str, Option<String>), ImportError> {
    let (name, _) = config.get(key);
    Ok(match name.as_str() {
        "separable_input_first" => ("separable-input-first", None),
        "separable_output_first" => ("separable-output-first", None),
        "islip" => ("islip", None),
        "pim" => ("pim", None),
        "wavefront" => ("wavefront", None),
        "loa" | "max_size" | "select" => (
            "separable-output-first",
            Some(format!(
                "flitsim has no `{name}` allocator: the separable output-first one stands in"
            )),
        ),
        _ => {
            return Err(config.bad(
                key,
                "not a BookSim allocator",
                "use separable_input_first, separable_output_first, islip, pim, loa, wavefront, max_size or select",
            ))
        }
    })
}
