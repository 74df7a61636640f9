//! The rates of a sweep: `--rates A:B:STEP` or `R1,R2,...`, and the fractions of the
//! saturation rate the design table compares at (`--compare-at`).

use anyhow::{anyhow, bail};

/// Parses `A:B:STEP` or `R1,R2,...` (packets per terminal per cycle).
///
/// # Errors
/// A malformed or out-of-range specification.
pub fn parse_rates(spec: &str) -> anyhow::Result<Vec<f64>> {
    let num = |s: &str| -> anyhow::Result<f64> {
        s.trim()
            .parse::<f64>()
            .map_err(|_| anyhow!("--rates {spec}: `{s}` is not a number\nhelp: use A:B:STEP (e.g. 0.002:0.02:0.002), R1,R2,... or auto"))
    };
    let rates = if let Some((a, rest)) = spec.split_once(':') {
        let (b, step) = rest.split_once(':').ok_or_else(|| {
            anyhow!("--rates {spec}: expected A:B:STEP\nhelp: for example 0.002:0.02:0.002")
        })?;
        let (a, b, step) = (num(a)?, num(b)?, num(step)?);
        if step <= 0.0 || b < a {
            bail!("--rates {spec}: needs STEP > 0 and B >= A\nhelp: for example 0.002:0.02:0.002");
        }
        let n = ((b - a) / step + 1e-9).floor() as usize;
        (0..=n).map(|i| a + step * i as f64).collect()
    } else {
        spec.split(',')
            .map(num)
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    if let Some(r) = rates.iter().find(|r| !(0.0..=1.0).contains(*r)) {
        bail!("--rates {spec}: rate {r} is not in [0, 1]\nhelp: rates are packets per terminal per cycle");
    }
    Ok(rates)
}

/// Parses `--compare-at F1,F2,...`: fractions in (0, 1].
pub fn compare_at(spec: &str) -> anyhow::Result<Vec<f64>> {
    let f: Vec<f64> = spec
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow!("--compare-at {spec}: not a list of numbers\nhelp: for example --compare-at 0.5,0.8"))?;
    if f.is_empty() || f.len() > 16 || f.iter().any(|x| !(*x > 0.0 && *x <= 1.0)) {
        bail!("--compare-at {spec}: give 1 to 16 fractions in (0, 1]\nhelp: for example --compare-at 0.5,0.8");
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_ranges_and_lists() {
        let r = parse_rates("0.01:0.05:0.01").unwrap();
        assert_eq!(r.len(), 5);
        assert!((r[4] - 0.05).abs() < 1e-12);
        assert_eq!(parse_rates("0.1,0.2").unwrap(), vec![0.1, 0.2]);
        assert!(parse_rates("0.1:0.05:0.01").is_err());
        assert!(parse_rates("0.1:0.2").is_err());
        assert!(parse_rates("2").is_err());
        assert!(parse_rates("x").is_err());
    }
}
