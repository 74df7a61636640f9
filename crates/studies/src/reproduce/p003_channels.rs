//! Paper 003 (Hu and Kleinrock), Figs. 2-3: the distributions of the head inter-arrival
//! time and of the waiting time at the switch-to-switch channels of a 7x7 torus (mean worm
//! length 100, timeout 100, propagation 20), beside what the model assumes of them.
//!
//! - Fig. 2: the model takes a channel's arrivals to be Poisson; its inter-arrival
//!   distribution is then exponential at the channel's arrival rate (measured).
//! - Fig. 3: eqs (9)-(15) with the single-stage approximation (12)-(13) give the waiting
//!   time of the heads that do not time out, `W(x) = phi(x) / phi(tau)`, from the channel's
//!   arrival rate and holding-time moments (measured: the inputs eqs 5-8 would compute).
//!
//! The histograms are summed over every switch-to-switch channel (the torus and the
//! traffic are symmetric, so every such channel has the same distributions).

use super::{parallel_map, Budget, Output, Table};
use crate::plot::{Chart, Series, Style};
use flitsim_analysis::papers::p003_hu_kleinrock as hk;
use flitsim_engine::{LengthDist, SimConfig, Simulation};
use flitsim_router::channel_times::PortTimes;
use serde_json::json;

/// Torus side of Figs. 2-3.
pub const SIDE: u32 = 7;
/// Mean worm length (exponential).
pub const LENGTH: f64 = 100.0;
/// Timeout (time units).
pub const TIMEOUT: u32 = 100;
/// Channel propagation delay (Fig. 2; Fig. 3 does not say, the same is taken).
pub const PROPAGATION: u32 = 20;
/// Generation rates: the paper gives none; a light and a heavy load below the knee.
pub const RATES: [f64; 2] = [0.001, 0.003];
/// Bin width of the collected histograms (cycles).
const WIDTH: u32 = 2;
/// Bins collected: `WIDTH * BINS` cycles, then one overflow bin (about 7 mean
/// inter-arrival times at the lighter rate).
const BINS: u32 = 4096;
/// Bin of the inter-arrival table and chart (cycles, a multiple of `WIDTH`).
const GAP_BIN: usize = 20;
/// Where the inter-arrival chart and its distance stop (cycles).
const GAP_UPTO: usize = 1500;
/// Bin of the waiting-time table and chart (cycles, a multiple of `WIDTH`).
const WAIT_BIN: usize = 4;

/// What one run measured, summed over the switch-to-switch channels.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct ChannelTimes {
    /// Generation rate.
    pub rate: f64,
    /// Switch-to-switch channels summed.
    pub channels: u64,
    /// Cycles the counters cover.
    pub cycles: u64,
    /// Inter-arrival times in `WIDTH`-cycle bins (last: `WIDTH * BINS` and more).
    pub gaps: Vec<u64>,
    /// Waits of the granted heads in `WIDTH`-cycle bins (last: `WIDTH * BINS` and more).
    pub waits: Vec<u64>,
    /// Heads that arrived.
    pub arrivals: u64,
    /// Heads granted.
    pub granted: u64,
    /// Their waits summed (cycles).
    pub wait_cycles: u64,
    /// Heads timed out.
    pub timeouts: u64,
    /// Holding periods ended (grant to tail or reset), their cycles and squared cycles.
    pub holding: (u64, u64, u64),
    /// Busy as seen by the arriving heads and over time, per output port name (`east`,
    /// ...), in name order.
    pub busy: Vec<(String, Busy)>,
}

/// How often a class of channels is busy: as the arriving heads find it, and over time. The
/// model's Poisson arrivals see time averages (PASTA), so the two agree under it.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Busy {
    /// ChannelTimes summed.
    pub channels: u64,
    /// Heads that arrived.
    pub arrivals: u64,
    /// Heads that waited `WIDTH` cycles or more, or timed out.
    pub found_busy: u64,
    /// Cycles the channels were held (holding periods ended in the window).
    pub held_cycles: u64,
}

impl Busy {
    fn add(&mut self, t: &PortTimes) {
        self.channels += 1;
        self.arrivals += t.arrivals;
        self.found_busy += t.timeouts + t.granted - t.wait.first().copied().unwrap_or(0);
        self.held_cycles += t.held_cycles;
    }

    /// Fraction of the arriving heads that found the channel busy.
    pub fn seen_by_arrivals(&self) -> f64 {
        self.found_busy as f64 / self.arrivals.max(1) as f64
    }

    /// Fraction of the `cycles` the channels were held.
    pub fn over_time(&self, cycles: u64) -> f64 {
        self.held_cycles as f64 / (self.channels * cycles).max(1) as f64
    }
}

impl ChannelTimes {
    /// Arrivals per channel per cycle.
    pub fn lambda(&self) -> f64 {
        self.arrivals as f64 / (self.channels * self.cycles).max(1) as f64
    }

    /// The holding time's moments `b1`, `b2` (grant to tail or reset).
    pub fn holding_moments(&self) -> (f64, f64) {
        let (n, sum, sq) = self.holding;
        let n = n.max(1) as f64;
        (sum as f64 / n, sq as f64 / n)
    }

    /// The model's waiting time at this channel (eqs 9-15).
    pub fn model_wait(&self) -> hk::ChannelWait {
        let (b1, b2) = self.holding_moments();
        hk::channel_wait(self.lambda(), b1, b2, f64::from(TIMEOUT))
    }
}

/// The netlist: paper 003's switch ([`super::p003_switch::netlist_sized`]) on a 7x7 torus.
fn netlist() -> Result<flitsim_netlist::Netlist, String> {
    let c = super::p003_switch::Case {
        length: LENGTH,
        timeout: f64::from(TIMEOUT),
        propagation: PROPAGATION,
        depth: super::p003_switch::round_trip_depth(PROPAGATION),
        backoff: 0,
    };
    super::p003_switch::netlist_sized(&c, SIDE)
}

/// Runs one rate and sums the switch-to-switch channels' histograms.
pub fn measure(b: &Budget, rate: f64) -> Result<ChannelTimes, String> {
    let net = netlist()?;
    let (warmup, cycles) = if b.quick {
        (2_000, 5_000)
    } else {
        (20_000, 200_000)
    };
    let config = SimConfig {
        rate,
        length: LENGTH as u32,
        length_dist: Some(LengthDist::Exp { mean: LENGTH }),
        warmup,
        cycles,
        drain: 0,
        seed: b.seed,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&net, &config).map_err(|e| e.to_string())?;
    sim.enable_channel_times(WIDTH, BINS)
        .map_err(|e| e.to_string())?;
    sim.run();
    let mut l = ChannelTimes {
        rate,
        cycles: sim.stats_cycles(),
        gaps: vec![0; BINS as usize + 1],
        waits: vec![0; BINS as usize + 1],
        ..ChannelTimes::default()
    };
    for c in sim.channel_times(&net) {
        l.channels += 1;
        let t = &c.times;
        l.holding.0 += t.releases;
        l.holding.1 += t.held_cycles;
        l.holding.2 = l.holding.2.saturating_add(t.held_cycles_sq);
        for (a, x) in l.gaps.iter_mut().zip(&t.inter_arrival) {
            *a += x;
        }
        for (a, x) in l.waits.iter_mut().zip(&t.wait) {
            *a += x;
        }
        l.arrivals += t.arrivals;
        l.granted += t.granted;
        l.wait_cycles += t.wait_cycles;
        l.timeouts += t.timeouts;
        let port = c.from.rsplit('.').next().unwrap_or_default();
        match l.busy.iter_mut().find(|(p, _)| p == port) {
            Some((_, b)) => b.add(t),
            None => {
                let mut b = Busy::default();
                b.add(t);
                l.busy.push((port.to_string(), b));
            }
        }
    }
    l.busy.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(l)
}

/// The rows that test the model's Poisson arrivals (PASTA): how often the arriving heads
/// find a channel busy against how often it is busy, over all channels and per port name, and
/// the mean wait of the heads that did wait.
fn busy_rows(l: &ChannelTimes, m: &hk::ChannelWait, t: &mut Table) {
    let all = Busy {
        channels: l.channels,
        arrivals: l.arrivals,
        found_busy: l.timeouts + l.granted - l.waits[0],
        held_cycles: l.holding.1,
    };
    let model_busy = 1.0 - m.phi0;
    let waited = l.granted - l.waits[0];
    let model_waited = 1.0 - model_bin(m, 0.0, f64::from(WIDTH));
    t.rows.push(vec![
        format!("mean wait | waited {WIDTH} or more, no timeout"),
        format!("{:.1}", l.wait_cycles as f64 / waited.max(1) as f64),
        format!("{:.1}", m.mean_wait / model_waited),
    ]);
    t.rows.push(vec![
        format!("busy as found by arriving heads (waited {WIDTH} or more, or timed out)"),
        format!("{:.4}", all.seen_by_arrivals()),
        format!("{model_busy:.4}"),
    ]);
    t.rows.push(vec![
        "busy over time (held)".into(),
        format!("{:.4}", all.over_time(l.cycles)),
        format!("{model_busy:.4} (PASTA)"),
    ]);
    for (port, b) in &l.busy {
        t.rows.push(vec![
            format!("{port} channels: busy as found by arriving heads / over time"),
            format!("{:.4} / {:.4}", b.seen_by_arrivals(), b.over_time(l.cycles)),
            "equal".into(),
        ]);
    }
}

/// `counts` (`WIDTH`-cycle bins, last bin open) summed into bins of `w` cycles and
/// normalised, up to `upto` cycles: `(bin start, probability)`.
fn rebin(counts: &[u64], w: usize, upto: usize) -> Vec<(f64, f64)> {
    let total: u64 = counts.iter().sum::<u64>().max(1);
    let k_w = w / WIDTH as usize;
    (0..upto / w)
        .map(|k| {
            let s: u64 = counts[k * k_w..((k + 1) * k_w).min(counts.len())]
                .iter()
                .sum();
            ((k * w) as f64, s as f64 / total as f64)
        })
        .collect()
}

/// The exponential inter-arrival law at rate `lambda`: probability of `[x, x + w)`.
fn exponential(lambda: f64, x: f64, w: f64) -> f64 {
    (-lambda * x).exp() - (-lambda * (x + w)).exp()
}

/// The model's waiting-time law (eq 9 with eq 13): probability of `[x, x + w)`.
fn model_bin(m: &hk::ChannelWait, x: f64, w: f64) -> f64 {
    let tau = f64::from(TIMEOUT);
    let cdf = |x: f64| {
        if x > tau {
            return 1.0;
        }
        let integral = if m.beta.abs() < 1e-12 {
            m.alpha * x
        } else {
            m.alpha / m.beta * (1.0 - (-m.beta * x).exp())
        };
        (m.phi0 + integral) / m.phi_tau
    };
    cdf(x + w) - if x > 0.0 { cdf(x) } else { 0.0 }
}

/// Mean and squared coefficient of variation of a `WIDTH`-cycle histogram, each bin at
/// its middle (the open last bin at its start).
fn mean_scv(counts: &[u64]) -> (f64, f64) {
    let n = counts.iter().sum::<u64>().max(1) as f64;
    let w = f64::from(WIDTH);
    let at = |k: usize| {
        if k + 1 == counts.len() {
            k as f64 * w
        } else {
            (k as f64 + 0.5) * w - 0.5
        }
    };
    let m1 = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| at(k) * c as f64)
        .sum::<f64>()
        / n;
    let m2 = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| at(k) * at(k) * c as f64)
        .sum::<f64>()
        / n;
    (m1, (m2 - m1 * m1) / (m1 * m1).max(1e-12))
}

/// Total-variation distance between two binned laws.
fn tv(a: &[(f64, f64)], b: &[f64]) -> f64 {
    0.5 * a.iter().zip(b).map(|(x, y)| (x.1 - y).abs()).sum::<f64>()
}

/// One rate's measurements beside the model's.
struct Compared {
    label: String,
    lambda: f64,
    m: hk::ChannelWait,
    b1: f64,
    b2: f64,
    gaps: Vec<(f64, f64)>,
    gap_model: Vec<f64>,
    waits: Vec<(f64, f64)>,
    wait_model: Vec<f64>,
    gap_mean: f64,
    gap_scv: f64,
    no_wait: f64,
    model_no_wait: f64,
    wait_mean: f64,
    p_timeout: f64,
}

/// The measured distributions of `l` binned, and the model's beside them.
fn compare(l: &ChannelTimes) -> Compared {
    let lambda = l.lambda();
    let m = l.model_wait();
    let (b1, b2) = l.holding_moments();
    let gaps = rebin(&l.gaps, GAP_BIN, GAP_UPTO);
    let gap_model: Vec<f64> = gaps
        .iter()
        .map(|&(x, _)| exponential(lambda, x, GAP_BIN as f64))
        .collect();
    let waits = rebin(&l.waits, WAIT_BIN, TIMEOUT as usize + WAIT_BIN);
    let wait_model: Vec<f64> = waits
        .iter()
        .map(|&(x, _)| model_bin(&m, x, WAIT_BIN as f64))
        .collect();
    let (gap_mean, gap_scv) = mean_scv(&l.gaps);
    let no_wait = l.waits[0] as f64 / l.granted.max(1) as f64;
    let model_no_wait = model_bin(&m, 0.0, f64::from(WIDTH));
    let wait_mean = l.wait_cycles as f64 / l.granted.max(1) as f64;
    let p_timeout = l.timeouts as f64 / l.arrivals.max(1) as f64;
    let label = format!("rate {}", l.rate);
    Compared {
        label,
        lambda,
        m,
        b1,
        b2,
        gaps,
        gap_model,
        waits,
        wait_model,
        gap_mean,
        gap_scv,
        no_wait,
        model_no_wait,
        wait_mean,
        p_timeout,
    }
}

/// The table of one rate: the measured moments and distances beside the model's.
fn table(l: &ChannelTimes, c: &Compared) -> Table {
    let Compared {
        label,
        lambda,
        m,
        b1,
        b2,
        gaps,
        gap_model,
        waits,
        wait_model,
        gap_mean,
        gap_scv,
        no_wait,
        model_no_wait,
        wait_mean,
        p_timeout,
    } = c;
    let mut t = Table::new(
        format!(
            "Figs. 2-3, {label}: {SIDE}x{SIDE} torus, exponential length {LENGTH}, timeout \
             {TIMEOUT}, propagation {PROPAGATION}; {} switch-to-switch channels summed, {} \
             cycles; arrivals {:.5} per channel per cycle, holding time b1 {b1:.1}, b2 {b2:.0}",
            l.channels, l.cycles, lambda
        ),
        &["quantity", "simulation", "model"],
    );
    let row = |q: &str, s: String, m: String| vec![q.to_string(), s, m];
    t.rows.push(row(
        "inter-arrival mean",
        format!("{gap_mean:.1}"),
        format!("{:.1}", 1.0 / lambda),
    ));
    t.rows.push(row(
        "inter-arrival c^2",
        format!("{gap_scv:.3}"),
        "1".into(),
    ));
    t.rows.push(row(
        &format!("inter-arrival TV distance ({GAP_BIN}-cycle bins to {GAP_UPTO})"),
        format!("{:.3}", tv(gaps, gap_model)),
        "0".into(),
    ));
    t.rows.push(row(
        &format!("P(wait < {WIDTH} | no timeout)"),
        format!("{no_wait:.3}"),
        format!("{model_no_wait:.3}"),
    ));
    t.rows.push(row(
        "mean wait | no timeout",
        format!("{wait_mean:.2}"),
        format!("{:.2}", m.mean_wait),
    ));
    t.rows.push(row(
        "P(timeout) per arrival",
        format!("{p_timeout:.4}"),
        format!("{:.4}", m.p_timeout),
    ));
    busy_rows(l, m, &mut t);
    t.rows.push(row(
        &format!("waiting-time TV distance ({WAIT_BIN}-cycle bins)"),
        format!("{:.3}", tv(waits, wait_model)),
        "0".into(),
    ));
    t
}

/// Runs Figs. 2-3 and appends their tables, charts and JSON rows to `out`.
pub fn run(b: &Budget, out: &mut Output) -> serde_json::Value {
    let runs = parallel_map(&RATES, b.threads, |&rate| measure(b, rate));
    let mut rows = Vec::new();
    let (mut fig2, mut fig3) = (Vec::new(), Vec::new());
    for (color, r) in runs.iter().enumerate() {
        let l = match r {
            Ok(l) => l,
            Err(e) => {
                out.notes.push(format!("Figs. 2-3 not simulated: {e}"));
                continue;
            }
        };
        let c = compare(l);
        out.tables.push(table(l, &c));
        let Compared {
            label,
            lambda,
            m,
            b1,
            b2,
            gaps,
            gap_model,
            waits,
            wait_model,
            gap_mean,
            gap_scv,
            no_wait,
            model_no_wait,
            wait_mean,
            p_timeout,
        } = c;
        let points = |v: &[f64], bins: &[(f64, f64)]| -> Vec<(f64, f64)> {
            bins.iter().zip(v).map(|(&(x, _), &p)| (x, p)).collect()
        };
        fig2.push(Series::new(
            format!("simulation {label}"),
            gaps.clone(),
            Style::Points,
            color,
        ));
        fig2.push(Series::new(
            format!("exponential {label}"),
            points(&gap_model, &gaps),
            Style::Line,
            color,
        ));
        fig3.push(Series::new(
            format!("simulation {label}"),
            waits.clone(),
            Style::Points,
            color,
        ));
        fig3.push(Series::new(
            format!("model (eqs 9-15) {label}"),
            points(&wait_model, &waits),
            Style::Line,
            color,
        ));
        rows.push(json!({
            "rate": l.rate, "channels": l.channels, "cycles": l.cycles,
            "arrival_rate": lambda, "holding_b1": b1, "holding_b2": b2,
            "inter_arrival_mean": gap_mean, "inter_arrival_scv": gap_scv,
            "inter_arrival_bins": gaps, "inter_arrival_exponential": gap_model,
            "wait_below_width": no_wait, "model_wait_below_width": model_no_wait,
            "wait_mean": wait_mean, "model_wait_mean": m.mean_wait,
            "p_timeout": p_timeout, "model_p_timeout": m.p_timeout,
            "wait_bins": waits, "wait_model": wait_model, "busy": l.busy,
            "model_busy_found": 1.0 - m.phi0,
        }));
    }
    out.charts.push((
        "reproduce-003-fig2.svg".into(),
        Chart::new(
            &format!(
                "Paper 003, Fig. 2: head inter-arrival time at a switch-to-switch channel \
                 ({SIDE}x{SIDE} torus, length {LENGTH}, timeout {TIMEOUT}, propagation \
                 {PROPAGATION})"
            ),
            &format!("inter-arrival time (time units, {GAP_BIN}-unit bins)"),
            "probability",
            fig2,
        ),
    ));
    out.charts.push((
        "reproduce-003-fig3.svg".into(),
        Chart::new(
            &format!(
                "Paper 003, Fig. 3: waiting time at a switch-to-switch channel, heads not timed \
                 out ({SIDE}x{SIDE} torus, length {LENGTH}, timeout {TIMEOUT})"
            ),
            &format!("waiting time (time units, {WAIT_BIN}-unit bins)"),
            "probability",
            fig3,
        ),
    ));
    json!(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The model's waiting-time law (eq 9) is a distribution on `[0, tau]`: its bins sum
    /// to 1, and its mean is eq 14's.
    #[test]
    fn the_model_waiting_time_law_sums_to_one_with_eq_14_mean() {
        for (lambda, b1, b2) in [(0.002, 150.0, 45_000.0), (0.004, 140.0, 40_000.0)] {
            let m = hk::channel_wait(lambda, b1, b2, f64::from(TIMEOUT));
            let w = 0.01;
            let bins: Vec<f64> = (0..(f64::from(TIMEOUT) / w) as usize + 1)
                .map(|k| model_bin(&m, k as f64 * w, w))
                .collect();
            let total: f64 = bins.iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "{total}");
            // Bin 0 carries the atom phi(0) / phi(tau); the rest, its density.
            let mean: f64 = bins
                .iter()
                .enumerate()
                .skip(1)
                .map(|(k, p)| (k as f64 + 0.5) * w * p)
                .sum();
            assert!(
                (mean - m.mean_wait).abs() < 1e-3 * m.mean_wait,
                "{mean} vs {}",
                m.mean_wait
            );
        }
    }

    /// A short run counts one gap per head but at most one per channel (a channel's first head
    /// has no gap) and one wait per granted head, and its mean wait agrees with its histogram.
    #[test]
    fn a_quick_run_counts_every_head() {
        let b = Budget {
            quick: true,
            threads: 1,
            seed: 1,
        };
        let l = measure(&b, RATES[1]).unwrap();
        assert_eq!(l.channels, u64::from(SIDE * SIDE * 4));
        // A channel whose first head ever arrives inside the window has no gap for it.
        let gaps = l.gaps.iter().sum::<u64>();
        assert!(
            gaps <= l.arrivals && l.arrivals - gaps <= l.channels,
            "{l:?}"
        );
        assert_eq!(l.waits.iter().sum::<u64>(), l.granted);
        assert!(l.timeouts > 0 && l.granted > l.waits[0], "{l:?}");
        // The four port classes of the torus add up to the totals.
        assert_eq!(l.busy.len(), 4, "{:?}", l.busy);
        let sum = |f: fn(&Busy) -> u64| l.busy.iter().map(|(_, b)| f(b)).sum::<u64>();
        assert_eq!(sum(|b| b.channels), l.channels);
        assert_eq!(sum(|b| b.arrivals), l.arrivals);
        assert_eq!(sum(|b| b.held_cycles), l.holding.1);
        assert_eq!(sum(|b| b.found_busy), l.timeouts + l.granted - l.waits[0]);
        let (lo, hi) = l
            .waits
            .iter()
            .enumerate()
            .fold((0u64, 0u64), |(lo, hi), (k, &c)| {
                (
                    lo + k as u64 * u64::from(WIDTH) * c,
                    hi + (k as u64 + 1) * u64::from(WIDTH) * c,
                )
            });
        assert!(
            (lo..hi).contains(&l.wait_cycles),
            "{lo} {} {hi}",
            l.wait_cycles
        );
        let (b1, b2) = l.holding_moments();
        // About one worm length (less the timed-out tries, plus the blocked time), and
        // a variance.
        assert!(
            b1 > LENGTH / 2.0 && b1 < 2.0 * LENGTH && b2 > b1 * b1,
            "{b1} {b2}"
        );
    }
}
