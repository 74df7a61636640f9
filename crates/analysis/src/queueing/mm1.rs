//! M/M/1 closed forms (Kleinrock 1975 vol. 1, section 3.2), used as a reference for the
//! M/G/1 code and by the cross-checks.

use super::mg1::QueueError;

/// Mean waiting time in queue of an M/M/1 server: `W = rho S / (1 - rho)`, `rho = lambda S`.
pub fn mm1_wait(lambda: f64, mean: f64) -> Result<f64, QueueError> {
    let rho = lambda * mean;
    if !(lambda >= 0.0 && mean >= 0.0 && rho.is_finite()) {
        return Err(QueueError::Invalid(
            "lambda and mean must be finite and >= 0",
        ));
    }
    if rho >= 1.0 {
        return Err(QueueError::Saturated { rho });
    }
    Ok(rho * mean / (1.0 - rho))
}

/// Stationary probability of `k` customers in an M/M/1 system: `(1 - rho) rho^k`.
pub fn mm1_state(lambda: f64, mean: f64, k: u32) -> Result<f64, QueueError> {
    let rho = lambda * mean;
    if rho >= 1.0 {
        return Err(QueueError::Saturated { rho });
    }
    Ok((1.0 - rho) * rho.powi(k as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn little() {
        // Mean number in queue Lq = rho^2/(1-rho) = lambda W.
        let (l, s) = (0.04, 20.0);
        let w = mm1_wait(l, s).unwrap();
        assert!((l * w - 0.64 / 0.2).abs() < 1e-12);
        let total: f64 = (0..200).map(|k| mm1_state(l, s, k).unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
}
