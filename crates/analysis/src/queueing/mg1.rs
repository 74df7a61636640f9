//! M/G/1 mean waiting time (Pollaczek-Khinchine mean-value formula).
//!
//! Source: Kleinrock, *Queueing Systems* vol. 1 (1975), eq (5.72), as used by paper 001
//! eqs (18)-(19), paper 002 eqs (22)-(23), (25) and paper 003 eq (19):
//!
//! ```text
//! W = lambda E[S^2] / (2 (1 - lambda E[S]))      E[S^2] = Sbar^2 + sigma^2
//! ```
//!
//! The papers approximate the service-time variance of a channel by `(Sbar - M)^2`, M the
//! packet length, the minimum service time (Draper and Ghosh 1994; 001 eq 18, 002 eq 22):
//! [`ServiceVariance::MinusMinimum`]. Multi-class (several Poisson classes sharing one
//! FIFO server): `W = sum_i lambda_i E[S_i^2] / (2 (1 - sum_i lambda_i E[S_i]))`.

use thiserror::Error;

/// How the service-time variance is given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ServiceVariance {
    /// The variance itself.
    Exact(f64),
    /// The papers' approximation `(Sbar - min)^2`, `min` the minimum service time (the
    /// packet length M in flits): 001 eq (18), 002 eq (22).
    MinusMinimum(f64),
    /// Deterministic service (variance 0): M/D/1.
    Deterministic,
    /// Exponential service (variance `Sbar^2`): M/M/1.
    Exponential,
}

impl ServiceVariance {
    /// The variance for a mean service time `mean`.
    pub fn variance(self, mean: f64) -> f64 {
        match self {
            ServiceVariance::Exact(v) => v,
            ServiceVariance::MinusMinimum(min) => (mean - min) * (mean - min),
            ServiceVariance::Deterministic => 0.0,
            ServiceVariance::Exponential => mean * mean,
        }
    }
}

/// Why an M/G/1 queue has no finite mean wait.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum QueueError {
    /// Utilisation `rho = lambda E[S] >= 1`.
    #[error("queue saturated: utilisation {rho} >= 1")]
    Saturated {
        /// The utilisation.
        rho: f64,
    },
    /// A rate, mean or variance is negative or not finite.
    #[error("invalid parameter: {0}")]
    Invalid(&'static str),
}

/// One Poisson class of customers at an M/G/1 server.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mg1Class {
    /// Arrival rate (customers per cycle).
    pub lambda: f64,
    /// Mean service time `E[S]`.
    pub mean: f64,
    /// Service-time variance.
    pub variance: ServiceVariance,
}

/// Mean waiting time in queue (excluding service) of an M/G/1 FIFO server
/// (Pollaczek-Khinchine; 001 eqs 18-19, 002 eqs 22-23, 003 eq 19).
///
/// `W = lambda (mean^2 + variance) / (2 (1 - lambda mean))`.
pub fn mg1_wait(lambda: f64, mean: f64, variance: ServiceVariance) -> Result<f64, QueueError> {
    mg1_wait_multiclass(&[Mg1Class {
        lambda,
        mean,
        variance,
    }])
}

/// Mean waiting time of a FIFO M/G/1 server shared by several Poisson classes:
/// `W = sum_i lambda_i E[S_i^2] / (2 (1 - sum_i lambda_i E[S_i]))` (Kleinrock 1975 vol. 1,
/// the P-K formula with the mixture service distribution). Every class waits the same `W`.
pub fn mg1_wait_multiclass(classes: &[Mg1Class]) -> Result<f64, QueueError> {
    let mut rho = 0.0;
    let mut second = 0.0;
    for c in classes {
        let var = c.variance.variance(c.mean);
        if !(c.lambda.is_finite() && c.lambda >= 0.0) {
            return Err(QueueError::Invalid("arrival rate must be finite and >= 0"));
        }
        if !(c.mean.is_finite() && c.mean >= 0.0) {
            return Err(QueueError::Invalid(
                "mean service time must be finite and >= 0",
            ));
        }
        if !(var.is_finite() && var >= 0.0) {
            return Err(QueueError::Invalid("variance must be finite and >= 0"));
        }
        rho += c.lambda * c.mean;
        second += c.lambda * (c.mean * c.mean + var);
    }
    if rho >= 1.0 {
        return Err(QueueError::Saturated { rho });
    }
    Ok(second / (2.0 * (1.0 - rho)))
}

/// Mean waiting time with the papers' variance approximation `(mean - min)^2`:
/// `W = lambda mean^2 (1 + (mean - min)^2 / mean^2) / (2 (1 - lambda mean))`, exactly as
/// printed in 001 eq (18) (channel), 001 eq (19) and 002 eq (23) (source queue with
/// `lambda = lambda_g / V`) and 002 eq (22).
pub fn mg1_wait_papers(lambda: f64, mean: f64, min: f64) -> Result<f64, QueueError> {
    mg1_wait(lambda, mean, ServiceVariance::MinusMinimum(min))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queueing::mm1;

    #[test]
    fn exponential_service_is_mm1() {
        for &(l, s) in &[(0.01, 20.0), (0.5, 1.0), (0.09, 10.0)] {
            let w = mg1_wait(l, s, ServiceVariance::Exponential).unwrap();
            let rho: f64 = l * s;
            // M/M/1: W = rho S / (1 - rho).
            assert!((w - rho * s / (1.0 - rho)).abs() < 1e-12);
            assert!((w - mm1::mm1_wait(l, s).unwrap()).abs() < 1e-12);
        }
    }

    #[test]
    fn deterministic_service_is_md1() {
        // M/D/1: W = rho S / (2 (1 - rho)); 002 eq (25): M^2 lambda / (2 (1 - M lambda)).
        let (l, m) = (0.01, 32.0);
        let w = mg1_wait(l, m, ServiceVariance::Deterministic).unwrap();
        assert!((w - m * m * l / (2.0 * (1.0 - m * l))).abs() < 1e-12);
        assert!((w - 0.32 * 32.0 / (2.0 * 0.68)).abs() < 1e-12);
    }

    #[test]
    fn papers_approximation() {
        // S = 40, M = 32: variance 64; W = 0.01 * (1600 + 64) / (2 * 0.6).
        let w = mg1_wait_papers(0.01, 40.0, 32.0).unwrap();
        assert!((w - 16.64 / 1.2).abs() < 1e-12);
        // At the minimum the approximation is M/D/1.
        let w = mg1_wait_papers(0.01, 32.0, 32.0).unwrap();
        let d = mg1_wait(0.01, 32.0, ServiceVariance::Deterministic).unwrap();
        assert!((w - d).abs() < 1e-12);
    }

    #[test]
    fn multiclass_reduces_and_mixes() {
        let a = Mg1Class {
            lambda: 0.01,
            mean: 10.0,
            variance: ServiceVariance::Deterministic,
        };
        let b = Mg1Class {
            lambda: 0.02,
            mean: 20.0,
            variance: ServiceVariance::Exact(100.0),
        };
        // sum lambda E[S^2] = 0.01*100 + 0.02*500 = 11; rho = 0.5; W = 11 / 1 = 11.
        assert!((mg1_wait_multiclass(&[a, b]).unwrap() - 11.0).abs() < 1e-12);
        let split = Mg1Class { lambda: 0.005, ..a };
        assert!(
            (mg1_wait_multiclass(&[split, split]).unwrap() - mg1_wait_multiclass(&[a]).unwrap())
                .abs()
                < 1e-12
        );
    }

    #[test]
    fn saturation() {
        assert!(matches!(
            mg1_wait(0.1, 10.0, ServiceVariance::Deterministic),
            Err(QueueError::Saturated { .. })
        ));
        assert!(matches!(
            mg1_wait(-0.1, 10.0, ServiceVariance::Deterministic),
            Err(QueueError::Invalid(_))
        ));
    }
}
