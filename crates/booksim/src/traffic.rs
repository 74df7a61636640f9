//! BookSim's traffic and measurement keys -> `flitsim run` flags.

use super::config::{float_value, single, Config};
use super::error::ImportError;
use super::line::Line;
use super::parse::elements;

/// The `flitsim run` flags for traffic, packet length, load, measurement and seed.
///
/// # Errors
/// A pattern or injection process flitsim lacks, bad burst parameters, or a bad number.
pub fn run_flags(config: &Config, lines: &mut Vec<Line>) -> Result<Vec<String>, ImportError> {
    let mut flags = Vec::new();
    let traffic = pattern(config, lines)?;
    flags.push(format!("--traffic {traffic}"));
    let (length, mean) = packet_length(config, lines)?;
    flags.push(format!("--length {length}"));
    let rate = injection_rate(config, mean, lines)?;
    flags.push(format!("--rate {rate}"));
    if let Some(process) = injection_process(config, rate, lines)? {
        flags.push(format!("--injection {process}"));
    }
    flags.extend(measurement(config, lines)?);
    let seed = config.get("seed").0;
    let seed: u64 = seed.parse().map_err(|_| {
        config.unsupported(
            "seed",
            "flitsim runs are reproducible: the seed must be a number (not `time`)",
            "write `seed = 1;`",
        )
    })?;
    flags.push(format!("--seed {seed}"));
    lines.push(config.line(
        "seed",
        format!("--seed {seed}"),
        Some("different generators: same statistics, not the same packets".into()),
    ));
    Ok(flags)
}

/// `traffic` -> `--traffic`.
fn pattern(config: &Config, lines: &mut Vec<Line>) -> Result<String, ImportError> {
    let (traffic, _) = config.get("traffic");
    let (flitsim, note) = match traffic.as_str() {
        "uniform" => ("uniform-all", Some("BookSim's uniform includes the source itself")),
        "transpose" => ("transpose", None),
        "bitcomp" => ("bit-complement", None),
        "bitrev" => ("bit-reversal", None),
        "shuffle" => ("shuffle", None),
        "tornado" => ("tornado", None),
        "neighbor" => ("neighbor", None),
        "randperm" => (
            "permutation",
            Some("flitsim draws its own random permutation from --seed; perm_seed is not used"),
        ),
        _ if traffic.starts_with("hotspot") => {
            return Err(config.unsupported(
                "traffic",
                "BookSim's hotspot sends every packet to the listed nodes by weight; flitsim's hotspot sends a fraction there and the rest uniformly",
                "write the flitsim run by hand with --traffic hotspot:T[,T...]:FRACTION",
            ))
        }
        _ => {
            return Err(config.unsupported(
                "traffic",
                "flitsim imports uniform, transpose, bitcomp, bitrev, shuffle, tornado, neighbor and randperm",
                "use one of those patterns",
            ))
        }
    };
    lines.push(config.line(
        "traffic",
        format!("--traffic {flitsim}"),
        note.map(String::from),
    ));
    if config.is_set("perm_seed") {
        lines.push(config.line("perm_seed", "", Some("not used: see traffic".into())));
    }
    Ok(flitsim.to_string())
}

/// `packet_size` (and `packet_size_rate`) -> `--length`, and the mean length in flits.
fn packet_length(config: &Config, lines: &mut Vec<Line>) -> Result<(String, f64), ImportError> {
    let (sizes, origin) = config.get("packet_size");
    let sizes: Vec<&str> = elements(&sizes);
    let mut lengths = Vec::with_capacity(2);
    for s in &sizes {
        let m = float_value("packet_size", s, &origin, 1.0, 65_536.0)?;
        if m.fract() != 0.0 {
            return Err(config.bad(
                "packet_size",
                "a packet is a whole number of flits",
                "write for example `packet_size = 20;`",
            ));
        }
        lengths.push(m as u32);
    }
    match lengths[..] {
        [m] => {
            lines.push(config.line("packet_size", format!("--length {m}"), None));
            if config.is_set("packet_size_rate") {
                let note = Some("not used: one packet size".to_string());
                lines.push(config.line("packet_size_rate", "", note));
            }
            Ok((m.to_string(), f64::from(m)))
        }
        [m1, m2] => {
            let (rates, origin) = config.get("packet_size_rate");
            let rates: Vec<&str> = elements(&rates);
            if rates.len() != 2 {
                return Err(config.bad(
                    "packet_size_rate",
                    "give one weight per packet size",
                    "write `packet_size_rate = {1,1};`",
                ));
            }
            let w1 = float_value("packet_size_rate", rates[0], &origin, 0.0, 1e9)?;
            let w2 = float_value("packet_size_rate", rates[1], &origin, 0.0, 1e9)?;
            if w1 + w2 <= 0.0 {
                return Err(config.bad(
                    "packet_size_rate",
                    "the weights sum to 0",
                    "give positive weights",
                ));
            }
            let p1 = w1 / (w1 + w2);
            let flag = format!("mix:{m1},{m2},{p1}");
            lines.push(config.line("packet_size", format!("--length {flag}"), None));
            lines.push(config.line("packet_size_rate", "--length (the probability)", None));
            Ok((flag, p1 * f64::from(m1) + (1.0 - p1) * f64::from(m2)))
        }
        _ => Err(config.unsupported(
            "packet_size",
            "flitsim mixes at most two packet lengths",
            "give one or two sizes",
        )),
    }
}

/// `injection_rate` (packets, or flits with `injection_rate_uses_flits`) -> `--rate`
/// (packets per terminal per cycle).
fn injection_rate(config: &Config, mean: f64, lines: &mut Vec<Line>) -> Result<f64, ImportError> {
    let value = single(config, "injection_rate")?;
    let (_, origin) = config.get("injection_rate");
    let rate = float_value("injection_rate", &value, &origin, 0.0, 1.0e6)?;
    let flits = config.int("injection_rate_uses_flits", 0, 1)? == 1;
    let packets = if flits { rate / mean } else { rate };
    if packets > 1.0 {
        return Err(config.bad(
            "injection_rate",
            "more than one packet per node per cycle",
            "give at most 1 packet (or packet_size flits) per node per cycle",
        ));
    }
    let how = if flits {
        format!("--rate {packets} (flits / {mean} flits per packet)")
    } else {
        format!("--rate {packets}")
    };
    lines.push(config.line("injection_rate", how, None));
    if config.is_set("injection_rate_uses_flits") {
        lines.push(config.line("injection_rate_uses_flits", "--rate (the unit)", None));
    }
    Ok(packets)
}

/// `injection_process`, `burst_alpha`, `burst_beta`, `burst_r1` -> `--injection` (`None`:
/// Bernoulli, the default). BookSim derives the one of alpha, beta and r1 given as a
/// negative number from the other two and the rate; flitsim derives r1.
fn injection_process(
    config: &Config,
    rate: f64,
    lines: &mut Vec<Line>,
) -> Result<Option<String>, ImportError> {
    const BURST: [&str; 3] = ["burst_alpha", "burst_beta", "burst_r1"];
    let process = single(config, "injection_process")?;
    if process == "bernoulli" {
        lines.push(config.line("injection_process", "--injection bernoulli", None));
        for key in BURST.iter().filter(|k| config.is_set(k)) {
            lines.push(config.line(key, "", Some("not used: Bernoulli injection".into())));
        }
        return Ok(None);
    }
    if process != "on_off" {
        return Err(config.unsupported(
            "injection_process",
            "flitsim has the bernoulli and on_off injection processes",
            "use `injection_process = bernoulli;` or `on_off`",
        ));
    }
    let mut p = [0.0; 3];
    for (v, key) in p.iter_mut().zip(BURST) {
        let (_, origin) = config.get(key);
        *v = float_value(key, &single(config, key)?, &origin, -1.0e6, 1.0)?;
    }
    let [alpha, beta, r1] = p;
    let (alpha, beta) = match (alpha < 0.0, beta < 0.0, r1 < 0.0) {
        (true, false, false) => (beta * rate / (r1 - rate), beta),
        (false, true, false) => (alpha, alpha * (r1 - rate) / rate),
        (false, false, true) => (alpha, beta),
        _ => {
            return Err(config.bad(
                "burst_r1",
                "exactly one of burst_alpha, burst_beta and burst_r1 must be negative (derived from the others and the rate)",
                "write `burst_r1 = -1;` to derive r1 from burst_alpha, burst_beta and the rate",
            ))
        }
    };
    let on_off = flitsim_engine::InjectionProcess::OnOff { alpha, beta };
    if let Err(e) = on_off.validate(rate) {
        return Err(config.bad(
            "injection_process",
            &e.to_string(),
            &e.help().unwrap_or_default(),
        ));
    }
    lines.push(config.line(
        "injection_process",
        format!("--injection {on_off}"),
        Some(format!(
            "r1 = {}; each node starts on with probability alpha / (alpha + beta), not 1/2",
            on_off.r1(rate)
        )),
    ));
    for key in BURST {
        lines.push(config.line(key, "--injection (above)", None));
    }
    Ok(Some(on_off.to_string()))
}

/// `warmup_periods`, `sample_period`, `max_samples`, `sim_type` -> `--warmup`, `--cycles`.
fn measurement(config: &Config, lines: &mut Vec<Line>) -> Result<Vec<String>, ImportError> {
    let period = config.int("sample_period", 1, 1 << 40)?;
    let warmup_periods = config.int("warmup_periods", 0, 1 << 20)?;
    let max_samples = config.int("max_samples", warmup_periods + 1, 1 << 20)?;
    let warmup = period * warmup_periods;
    let cycles = period * (max_samples - warmup_periods);
    lines.push(config.line(
        "warmup_periods",
        format!("--warmup {warmup} (warmup_periods x sample_period)"),
        None,
    ));
    lines.push(config.line(
        "sample_period",
        format!("--cycles {cycles} ((max_samples - warmup_periods) x sample_period)"),
        Some("BookSim stops sampling once 3 samples in a row change less than stopping_thres; flitsim measures the whole window".into()),
    ));
    lines.push(config.line("max_samples", "--cycles", None));
    let (sim_type, _) = config.get("sim_type");
    let note = match sim_type.as_str() {
        "latency" => None,
        "throughput" => Some(
            "flitsim always drains the measured packets (as BookSim's latency mode)".to_string(),
        ),
        _ => {
            return Err(config.unsupported(
                "sim_type",
                "flitsim measures an open-loop injection process (BookSim's latency and throughput modes), not a batch",
                "use `sim_type = latency;`",
            ))
        }
    };
    lines.push(config.line(
        "sim_type",
        "measured packets drained after the window",
        note,
    ));
    Ok(vec![
        format!("--warmup {warmup}"),
        format!("--cycles {cycles}"),
    ])
}
