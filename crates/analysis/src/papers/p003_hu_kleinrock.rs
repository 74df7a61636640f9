//! Paper 003: Hu and Kleinrock, "A queuing model for wormhole routing with timeout" —
//! wormhole switching with backward timeout reset, source routing, exponential packet
//! lengths; an M/G/1 model with impatient customers and feedback.
//!
//! # What is implemented
//!
//! - Section 3, traffic analysis with timeouts, eqs (1)-(4): [`traffic`]. Given the
//!   per-channel timeout probabilities `P_T`, path `p` carries `lambda_p = gamma delta_p /
//!   P_S,p` (every timed-out packet is retried), `P_S,p = prod (1 - P_T)` over its channels
//!   (eq 2), `P_F,p = 1 - P_S,p` (eq 3), and the `i`-th channel of the path sees
//!   `lambda_p prod_{j < i} (1 - P_T,pj)` (the unnumbered equation after (1)); channel
//!   rates sum over paths (eqs 1, 4).
//! - Section 5, the waiting time at one channel, eqs (9)-(15), with the single-stage
//!   two-moment approximation (12)-(13): [`channel_wait`]. Matching the first two terms of
//!   the expansion of eq (10) at `s = 0` (`B*(s) = 1 - s b1 + s^2 b2 / 2 - ...`) against
//!   `Phi*(s) = phi(0) + alpha / (s + beta)` from eq (13) gives, in closed form,
//!   `beta = 2 b1 (1 - rho) / b2` and `alpha = 2 rho b1 phi(0) / b2`
//!   (`rho = lambda b1`; `beta < 0` when `rho > 1`, as the paper notes), and eq (11) then
//!   gives `phi(0) = 1 / (1 + rho + rho a g)`, `a = 2 rho b1 / b2`,
//!   `g = (1 - e^(-beta tau)) / beta` (`-> tau` as `beta -> 0`). `P_T = 1 - phi(tau)`
//!   (eq 15); the mean wait of the packets that do not time out is eq (14), and the second
//!   moment is computed the same way. With `tau -> infinity` and `rho < 1` this reduces to
//!   the Pollaczek-Khinchine mean (a test).
//! - Section 6, the host queue with feedback, eqs (16)-(20): [`host_success_probability`]
//!   (eq 16-17) and [`host_queue`] (eqs 18-20). The moments of the total service time of
//!   eq (18), a geometric number of tries with success probability `P_S`, are
//!   `E[b_N] = b1 / P_S` and `E[b_N^2] = b2 / P_S + 2 (1 - P_S) b1^2 / P_S^2`.
//!
//! # Corrections
//!
//! - The expressions for `phi(tau)` and `phi(0)` and eq (15) print the denominator
//!   `1 - lambda b`; eqs (11) and (13) give `1 + lambda b`:
//!   `P_T = (rho - (alpha/beta)(1 - e^(-beta tau))) / (1 + rho)` for given `alpha, beta`.
//!   The printed form would be singular at `rho = 1`, which the paper itself says a
//!   reneging queue may exceed. (Both forms agree at `tau -> infinity`.)
//! - Eq (7)'s last factor prints `e^(-s tau)` where eq (6) has `e^(-2 s tau)`; eq (6) (go
//!   and return of the reset signal) is the consistent one. Not used below.
//!
//! # Left out (documented, not modelled)
//!
//! - The coupling of eqs (5)-(8): the holding time of a channel is the packet length plus
//!   the waits at all downstream channels (or the timeout and the reset's propagation), so
//!   every channel's `W*` depends on every downstream channel's. The paper solves "a huge
//!   set of equations" numerically for a 3x3 torus; here the caller supplies the holding
//!   time moments `b1, b2` of each channel ([`channel_wait`]) and the timeout
//!   probabilities ([`traffic`]) and may iterate the two itself. [`single_channel`] does
//!   so for one channel whose holding time is the worm length alone: every try, failed or
//!   not, holds it for `b1`, whatever the timeout. No network-wide solver is provided.
//! - The buffer effect and the finite-population arrival process of section 7 (the
//!   paper's own explanation of its errors).

use crate::queueing::QueueError;

/// One source-routed path: its channels in order and the probability `delta_p` that an
/// external arrival uses it.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// Channel indices in the order traversed (index into the timeout-probability slice).
    pub channels: Vec<usize>,
    /// Probability `delta_p` that an external packet is routed on this path.
    pub share: f64,
}

/// Result of the traffic analysis, eqs (1)-(4).
#[derive(Debug, Clone, PartialEq)]
pub struct Traffic {
    /// `P_S,p` per path (eq 2).
    pub path_success: Vec<f64>,
    /// `lambda_p = gamma delta_p / P_S,p` per path (eq after 3).
    pub path_rate: Vec<f64>,
    /// `lambda_{p,i}`: rate of path `p`'s packets at its `i`-th channel.
    pub path_channel_rate: Vec<Vec<f64>>,
    /// `lambda_l` per channel (eqs 1, 4).
    pub channel_rate: Vec<f64>,
}

/// Traffic analysis with timeouts (eqs 1-4): external rate `gamma`, `paths`, and the
/// timeout probability of every channel `p_timeout[l]` (< 1).
pub fn traffic(gamma: f64, paths: &[Path], p_timeout: &[f64]) -> Traffic {
    let mut channel_rate = vec![0.0; p_timeout.len()];
    let mut path_success = Vec::with_capacity(paths.len());
    let mut path_rate = Vec::with_capacity(paths.len());
    let mut path_channel_rate = Vec::with_capacity(paths.len());
    for p in paths {
        let success: f64 = p.channels.iter().map(|&l| 1.0 - p_timeout[l]).product();
        let rate = gamma * p.share / success;
        let mut at = rate;
        let mut per = Vec::with_capacity(p.channels.len());
        for &l in &p.channels {
            per.push(at);
            channel_rate[l] += at;
            at *= 1.0 - p_timeout[l];
        }
        path_success.push(success);
        path_rate.push(rate);
        path_channel_rate.push(per);
    }
    Traffic {
        path_success,
        path_rate,
        path_channel_rate,
        channel_rate,
    }
}

/// The single-stage approximation of the waiting time at one channel (eqs 9-15).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChannelWait {
    /// `alpha` of eq (12).
    pub alpha: f64,
    /// `beta` of eq (12) (negative when `rho > 1`).
    pub beta: f64,
    /// `phi(0)`: probability an arriving packet finds the channel idle.
    pub phi0: f64,
    /// `phi(tau)`: probability an arriving packet does not time out.
    pub phi_tau: f64,
    /// Timeout probability `P_T = 1 - phi(tau)` (eq 15).
    pub p_timeout: f64,
    /// Mean wait of the packets that do not time out (eq 14).
    pub mean_wait: f64,
    /// Second moment of that wait.
    pub second_moment: f64,
}

/// `int_0^tau x^k e^(-beta x) dx` for k = 0, 1, 2, stable as `beta -> 0`.
fn exp_moments(beta: f64, tau: f64) -> [f64; 3] {
    let bt = beta * tau;
    if bt.abs() < 1e-4 {
        // Series in beta up to second order.
        let t = tau;
        return [
            t - beta * t * t / 2.0 + beta * beta * t.powi(3) / 6.0,
            t * t / 2.0 - beta * t.powi(3) / 3.0 + beta * beta * t.powi(4) / 8.0,
            t.powi(3) / 3.0 - beta * t.powi(4) / 4.0 + beta * beta * t.powi(5) / 10.0,
        ];
    }
    let e = (-bt).exp();
    let m0 = (1.0 - e) / beta;
    let m1 = (1.0 - e - bt * e) / (beta * beta);
    let m2 = (2.0 - e * (bt * bt + 2.0 * bt + 2.0)) / beta.powi(3);
    [m0, m1, m2]
}

/// Waiting time at a channel with Poisson arrivals at `lambda`, holding time moments
/// `b1 = E[b]`, `b2 = E[b^2]` and deterministic timeout `tau` (eqs 9-15 with the
/// two-moment match derived in the module docs).
pub fn channel_wait(lambda: f64, b1: f64, b2: f64, tau: f64) -> ChannelWait {
    let rho = lambda * b1;
    let beta = 2.0 * b1 * (1.0 - rho) / b2;
    let a = 2.0 * rho * b1 / b2;
    let [g, m1, m2] = exp_moments(beta, tau);
    let phi0 = 1.0 / (1.0 + rho + rho * a * g);
    let alpha = a * phi0;
    let phi_tau = phi0 + alpha * g;
    ChannelWait {
        alpha,
        beta,
        phi0,
        phi_tau,
        p_timeout: 1.0 - phi_tau,
        mean_wait: alpha * m1 / phi_tau,
        second_moment: alpha * m2 / phi_tau,
    }
}

/// Success probability of the transmissions started at a host, eq (16):
/// `P_S,q = sum lambda_p P_S,p / sum lambda_p` over the paths from the host.
pub fn host_success_probability(path_rate: &[f64], path_success: &[f64]) -> f64 {
    let num: f64 = path_rate.iter().zip(path_success).map(|(l, s)| l * s).sum();
    let den: f64 = path_rate.iter().sum();
    num / den
}

/// The host queue of eqs (18)-(20).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HostQueue {
    /// `E[b_N]`, mean total service time over all tries.
    pub mean_service: f64,
    /// `E[b_N^2]`.
    pub second_moment: f64,
    /// Mean wait in the host queue (eq 19).
    pub wait: f64,
    /// Mean latency `wait + E[b_N] + propagation` (eq 20).
    pub latency: f64,
}

/// Host queue with feedback (eqs 18-20): external rate `gamma_a` at the host, success
/// probability `p_success` of one try (eq 16), moments `b1`, `b2` of one try's service
/// time (the holding time of the host's injection channel), and the path's total
/// propagation delay.
pub fn host_queue(
    gamma_a: f64,
    p_success: f64,
    b1: f64,
    b2: f64,
    propagation: f64,
) -> Result<HostQueue, QueueError> {
    if !(p_success > 0.0 && p_success <= 1.0) {
        return Err(QueueError::Invalid("success probability must be in (0, 1]"));
    }
    let mean = b1 / p_success;
    let second = b2 / p_success + 2.0 * (1.0 - p_success) * b1 * b1 / (p_success * p_success);
    let rho = gamma_a * mean;
    if rho >= 1.0 {
        return Err(QueueError::Saturated { rho });
    }
    let wait = gamma_a * second / (2.0 * (1.0 - rho));
    Ok(HostQueue {
        mean_service: mean,
        second_moment: second,
        wait,
        latency: wait + mean + propagation,
    })
}

/// The one-channel model: one channel and its host, the channel's timeout probability
/// iterated with the retry traffic it causes (eqs 1-4 with eqs 9-15), then the host
/// queue (eqs 16-20).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SingleChannel {
    /// The channel's wait and timeout probability at the fixed point.
    pub channel: ChannelWait,
    /// Packets per time unit offered to the channel, retries included (`gamma / P_S`).
    pub channel_rate: f64,
    /// The host queue.
    pub host: HostQueue,
}

/// The external rate at which the one-channel model saturates: its channel and its host
/// (whose utilisation is the channel's, `gamma b1 / P_S`) reach utilisation 1. At
/// `rho = 1`, `beta = 0` and eqs 11-15 give `P_T = 1 / (2 + a tau)`, `a = 2 b1 / b2`, so
/// `gamma = (1 - P_T) / b1`. Below it the fixed point has `rho < 1`.
pub fn single_channel_saturation(b1: f64, b2: f64, tau: f64) -> f64 {
    let p_t = 1.0 / (2.0 + 2.0 * b1 * tau / b2);
    (1.0 - p_t) / b1
}

/// Relative distance to [`single_channel_saturation`] within which a rate counts as
/// saturated: the fixed point of `P_T` is iterated to 1e-13, so closer to the singular
/// point the host queue's `1 - rho` (and the latency, which goes as its inverse) is noise.
pub const SATURATION_MARGIN: f64 = 1e-9;

/// The one-channel model at external rate `gamma` (packets per host per time unit),
/// holding time moments `b1`, `b2`, timeout `tau` and propagation delay `propagation`.
///
/// # Errors
/// `QueueError::Saturated` at and above [`single_channel_saturation`] (less
/// [`SATURATION_MARGIN`]); `Invalid` for a negative or non-finite parameter.
pub fn single_channel(
    gamma: f64,
    b1: f64,
    b2: f64,
    tau: f64,
    propagation: f64,
) -> Result<SingleChannel, QueueError> {
    if ![gamma, b1, b2, tau, propagation]
        .iter()
        .all(|x| x.is_finite() && *x >= 0.0)
        || b1 <= 0.0
    {
        return Err(QueueError::Invalid(
            "rate, moments, timeout and propagation must be finite and >= 0 (b1 > 0)",
        ));
    }
    let saturation = single_channel_saturation(b1, b2, tau);
    if gamma >= saturation * (1.0 - SATURATION_MARGIN) {
        return Err(QueueError::Saturated {
            rho: gamma / saturation,
        });
    }
    let path = [Path {
        channels: vec![0],
        share: 1.0,
    }];
    let mut p_t = 0.0;
    let mut w = channel_wait(gamma, b1, b2, tau);
    for _ in 0..10_000 {
        let t = traffic(gamma, &path, &[p_t]);
        w = channel_wait(t.channel_rate[0], b1, b2, tau);
        let done = (w.p_timeout - p_t).abs() < 1e-13;
        p_t = w.p_timeout;
        if done {
            break;
        }
    }
    let host = host_queue(gamma, 1.0 - p_t, b1, b2, propagation)?;
    Ok(SingleChannel {
        channel: w,
        channel_rate: gamma / (1.0 - p_t),
        host,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queueing::{mg1_wait, ServiceVariance};

    #[test]
    fn traffic_without_timeouts_is_the_sum_of_paths() {
        let paths = [
            Path {
                channels: vec![0, 1, 2],
                share: 0.5,
            },
            Path {
                channels: vec![0, 3],
                share: 0.5,
            },
        ];
        let t = traffic(0.1, &paths, &[0.0; 4]);
        assert_eq!(t.channel_rate, vec![0.1, 0.05, 0.05, 0.05]);
        assert_eq!(t.path_success, vec![1.0, 1.0]);
    }

    #[test]
    fn single_channel_saturates_at_its_closed_form_rate() {
        // Length 100, timeout 50: P_T = 1/2.5 at rho = 1, so gamma = 0.6/100.
        let (b1, b2) = (100.0, 2.0 * 100.0 * 100.0);
        let sat = single_channel_saturation(b1, b2, 50.0);
        assert!((sat - 0.006).abs() < 1e-15);
        // At the boundary itself (the rate once printed as unsaturated with latency 2.26e15).
        assert!(matches!(
            single_channel(0.006, b1, b2, 50.0, 1.0),
            Err(QueueError::Saturated { .. })
        ));
        assert!(single_channel(0.0061, b1, b2, 50.0, 1.0).is_err());
        // Just below it the latency is finite, large and grows towards the boundary.
        let near = single_channel(0.006 * (1.0 - 1e-6), b1, b2, 50.0, 1.0).unwrap();
        let below = single_channel(0.0059, b1, b2, 50.0, 1.0).unwrap();
        assert!(near.host.latency > below.host.latency && near.host.latency < 1e12);
        // The fixed point below saturation has the channel below utilisation 1.
        assert!(below.channel_rate * b1 < 1.0);
        for tau in [20.0, 50.0, 100.0] {
            let sat = single_channel_saturation(b1, b2, tau);
            let rate = 0.999 * sat;
            let p = single_channel(rate, b1, b2, tau, 1.0).unwrap();
            assert!(p.channel_rate * b1 < 1.0, "tau {tau}");
        }
    }

    #[test]
    fn traffic_with_timeouts() {
        // One path over channels 0, 1 with P_T = 0.2, 0.5: P_S = 0.4, lambda_p = 0.1/0.4,
        // channel 0 sees 0.25, channel 1 sees 0.25 * 0.8 = 0.2.
        let paths = [Path {
            channels: vec![0, 1],
            share: 1.0,
        }];
        let t = traffic(0.1, &paths, &[0.2, 0.5]);
        assert!((t.path_success[0] - 0.4).abs() < 1e-12);
        assert!((t.channel_rate[0] - 0.25).abs() < 1e-12);
        assert!((t.channel_rate[1] - 0.2).abs() < 1e-12);
        // Successful throughput equals the external rate.
        assert!((t.path_rate[0] * t.path_success[0] - 0.1).abs() < 1e-12);
    }

    #[test]
    fn infinite_timeout_is_pollaczek_khinchine() {
        let (lambda, b1) = (0.006, 100.0);
        let b2 = 2.0 * b1 * b1; // exponential holding time
        let w = channel_wait(lambda, b1, b2, 1e7);
        let pk = mg1_wait(lambda, b1, ServiceVariance::Exponential).unwrap();
        assert!(w.p_timeout.abs() < 1e-9);
        assert!((w.phi0 - (1.0 - lambda * b1)).abs() < 1e-9);
        assert!(
            (w.mean_wait - pk).abs() / pk < 1e-6,
            "{} vs {pk}",
            w.mean_wait
        );
    }

    #[test]
    fn timeouts_grow_with_load_and_allow_rho_above_one() {
        let b1 = 100.0;
        let mut last = 0.0;
        for lambda in [0.002, 0.005, 0.009, 0.012, 0.02] {
            let w = channel_wait(lambda, b1, 2.0 * b1 * b1, 20.0);
            assert!(w.p_timeout > last && w.p_timeout < 1.0);
            assert!(w.mean_wait > 0.0 && w.mean_wait <= 20.0);
            last = w.p_timeout;
        }
        // At rho = 1, beta = 0 and the series branch agrees with its neighbours.
        let at = channel_wait(0.01, b1, 2.0 * b1 * b1, 20.0);
        let near = channel_wait(0.01 * (1.0 + 1e-7), b1, 2.0 * b1 * b1, 20.0);
        assert!((at.p_timeout - near.p_timeout).abs() < 1e-6);
    }

    #[test]
    fn host_queue_moments_match_direct_sum() {
        // E[(b_1 + ... + b_N)^2] = sum_n P_S P_F^(n-1) (n b2 + n(n-1) b1^2).
        let (ps, b1, b2): (f64, f64, f64) = (0.7, 10.0, 250.0);
        let (mut m1, mut m2) = (0.0, 0.0);
        for n in 1..2000 {
            let pn = ps * (1.0 - ps).powi(n - 1);
            let n = f64::from(n);
            m1 += pn * n * b1;
            m2 += pn * (n * b2 + n * (n - 1.0) * b1 * b1);
        }
        let h = host_queue(0.01, ps, b1, b2, 3.0).unwrap();
        assert!((h.mean_service - m1).abs() < 1e-9);
        assert!((h.second_moment - m2).abs() < 1e-6);
        // P_S = 1: plain M/G/1.
        let h = host_queue(0.01, 1.0, b1, b2, 0.0).unwrap();
        let pk = mg1_wait(0.01, b1, ServiceVariance::Exact(b2 - b1 * b1)).unwrap();
        assert!((h.wait - pk).abs() < 1e-12);
        assert!(host_queue(0.2, 0.5, b1, b2, 0.0).is_err());
        assert!((host_success_probability(&[1.0, 3.0], &[1.0, 0.5]) - 0.625).abs() < 1e-12);
    }
}
