//! The saturation search (`sweep --rates auto`): each round, `k` probes evenly spaced
//! inside every open bracket, between the highest rate known unsaturated and the lowest
//! known saturated, shrink it (k-section). The probes run on the job pool's threads; `k`
//! is a setting of its own, so the bracket found does not depend on the thread count.
//!
//! A probe is judged by [`probe_saturated`]: the engine's verdict (source queues grow) or
//! accepted throughput significantly below the load the sources generated in the same
//! window. The second test is what a short probe can see, and what a network with
//! unbounded buffers shows: its buffers take every flit, so the backlog grows inside the
//! network while the source queues stay short and the accepted throughput stays within a
//! few percent of the offered load.

use super::curve::{simulate_jobs, Bracket, CurveSpec};
use super::pool::Progress;
use flitsim_engine::RunReport;

/// The smallest shortfall of accepted against generated flits that counts as saturation,
/// as a fraction of the generated flits, when the probe's throughput interval is tighter.
pub const MIN_SHORTFALL: f64 = 0.01;

/// The shortfall that counts when the probe measured too few samples for an interval.
pub const SHORTFALL_WITHOUT_INTERVAL: f64 = 0.03;

/// A probe's verdict: the engine found the source queues growing, or the network accepted
/// fewer flits than the sources generated in the measurement window by more than the 95%
/// half-width of the accepted throughput (at least [`MIN_SHORTFALL`] of the generated
/// flits; [`SHORTFALL_WITHOUT_INTERVAL`] without an interval). In a stable network
/// everything generated is delivered, so the two agree within the interval; past
/// saturation the difference is the backlog growing somewhere, in source queues or in
/// buffers.
pub fn probe_saturated(r: &RunReport) -> bool {
    if r.saturated {
        return true;
    }
    let generated = match r.offered.measured_flits_per_terminal_cycle {
        g if g > 0.0 => g,
        _ => r.offered.flits_per_terminal_cycle,
    };
    let margin = r
        .accepted
        .ci95
        .map_or(SHORTFALL_WITHOUT_INTERVAL * generated, |h| {
            h.max(MIN_SHORTFALL * generated)
        });
    r.accepted.flits_per_terminal_cycle < generated - margin
}

/// Finds the saturation bracket of every curve by k-section with `probes` probes per
/// round (at least 2), each measured for at most `probe_cycles`, run on `threads` workers.
///
/// # Errors
/// A configuration the engine refuses.
pub fn find_saturation(
    specs: &[CurveSpec],
    probe_cycles: u64,
    probes_per_round: usize,
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<Vec<Bracket>> {
    let k = probes_per_round.max(2);
    let mut brackets: Vec<(f64, f64)> = specs
        .iter()
        .map(|s| (0.0, (1.0 / s.config.lengths().mean()).min(1.0)))
        .collect();
    // Stop when the bracket is within 2% of its upper end (or after 12 rounds).
    for _round in 0..12 {
        let open: Vec<usize> = (0..specs.len())
            .filter(|&c| brackets[c].1 - brackets[c].0 > 0.02 * brackets[c].1)
            .collect();
        if open.is_empty() {
            break;
        }
        let jobs = probes(specs, &brackets, &open, k, probe_cycles);
        let reports = simulate_jobs(specs, &jobs, threads, progress)?;
        for (ci, &c) in open.iter().enumerate() {
            let saturated: Vec<bool> = reports[ci * k..(ci + 1) * k]
                .iter()
                .map(|(r, _)| probe_saturated(r))
                .collect();
            let rates: Vec<f64> = jobs[ci * k..(ci + 1) * k]
                .iter()
                .map(|j| j.1.rate)
                .collect();
            brackets[c] = shrink(brackets[c], &rates, &saturated);
        }
    }
    Ok(specs
        .iter()
        .zip(&brackets)
        .map(|(s, &(lo, hi))| Bracket {
            unsaturated: lo,
            saturated: hi,
            unsaturated_flits: lo * s.config.lengths().mean(),
        })
        .collect())
}

/// `k` probe runs evenly spaced inside the bracket of each open curve.
fn probes(
    specs: &[CurveSpec],
    brackets: &[(f64, f64)],
    open: &[usize],
    k: usize,
    probe_cycles: u64,
) -> Vec<(usize, flitsim_engine::SimConfig)> {
    let mut jobs = Vec::new();
    for &c in open {
        let (lo, hi) = brackets[c];
        for j in 1..=k {
            let rate = lo + (hi - lo) * j as f64 / (k + 1) as f64;
            let mut config = specs[c].config.clone();
            config.rate = rate;
            config.auto = Some(flitsim_engine::stats::AutoConfig {
                ci_target: 0.05,
                max_cycles: probe_cycles,
                batch_cycles: 0,
            });
            jobs.push((c, config));
        }
    }
    jobs
}

/// The bracket after one round: the first saturated probe bounds it from above, the probe
/// below it from below.
fn shrink((mut lo, mut hi): (f64, f64), rates: &[f64], saturated: &[bool]) -> (f64, f64) {
    match saturated.iter().position(|&s| s) {
        Some(0) => hi = rates[0],
        Some(j) => {
            lo = rates[j - 1];
            hi = rates[j];
        }
        None => lo = rates[rates.len() - 1],
    }
    (lo, hi)
}

/// The rates to sample a curve at once its bracket is known: `points` rates up to 95% of
/// the highest unsaturated rate (the edge itself never converges), plus one 10% above
/// saturation for the accepted-throughput plateau.
pub fn auto_rates(b: &Bracket, points: usize) -> Vec<f64> {
    let mut r: Vec<f64> = (1..=points)
        .map(|i| 0.95 * b.unsaturated * i as f64 / points as f64)
        .collect();
    r.push((1.1 * b.saturated).min(1.0));
    r
}

#[cfg(test)]
mod tests {
    use super::shrink;

    #[test]
    fn the_first_saturated_probe_bounds_the_bracket() {
        let rates = [0.1, 0.2, 0.3];
        assert_eq!(shrink((0.0, 0.4), &rates, &[false, true, true]), (0.1, 0.2));
        assert_eq!(shrink((0.0, 0.4), &rates, &[true, true, true]), (0.0, 0.1));
        assert_eq!(
            shrink((0.0, 0.4), &rates, &[false, false, false]),
            (0.3, 0.4)
        );
    }
}
