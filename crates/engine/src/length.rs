//! Packet lengths (`--length`): fixed, exponential, or a two-value mix.
//!
//! - `M`: every packet has `M >= 1` flits.
//! - `exp:MEAN`: `max(1, round(X))` flits with `X` exponential of mean `MEAN > 0`
//!   (paper 003's exponential worm lengths). The discretisation rounds to the nearest
//!   integer and lifts 0 to 1, so `P(len = 1) = P(X < 1.5)` and, for `k >= 2`,
//!   `P(len = k) = P(k - 0.5 <= X < k + 0.5)`. The resulting mean is
//!   `1 + e^(-1.5/MEAN) / (1 - e^(-1/MEAN))` ([`LengthDist::mean`]): 100.0045 for
//!   `MEAN = 100`, 10.045 for 10, 1.353 for 1. Lengths are capped at 2^31 flits.
//! - `mix:M1,M2,P1`: `M1` flits with probability `P1`, else `M2` (BookSim's bimodal
//!   packet sizes, e.g. `mix:1,5,0.5` for short requests and long replies).
//!
//! Draws come only from the generating terminal's own stream, one `u64` per packet for
//! `exp` and at most one for `mix`, none for a fixed length.

use crate::error::ConfigError;
use crate::rng::{Bernoulli, ComponentRng};
use rand::Rng;
use std::fmt;
use std::str::FromStr;

/// The distribution of packet lengths in flits.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum LengthDist {
    /// Every packet has this many flits (>= 1).
    Fixed(u32),
    /// `max(1, round(X))`, `X` exponential with this mean (> 0).
    Exp {
        /// Mean of the continuous exponential before rounding.
        mean: f64,
    },
    /// `m1` flits with probability `p1`, else `m2`.
    Mix {
        /// First length (>= 1).
        m1: u32,
        /// Second length (>= 1).
        m2: u32,
        /// Probability of `m1`, in `[0, 1]`.
        p1: f64,
    },
}

impl Default for LengthDist {
    fn default() -> Self {
        LengthDist::Fixed(1)
    }
}

/// The longest packet (flits) any length distribution or trace may give (keeps `u32`
/// arithmetic safe); exponential lengths are capped at it.
pub const MAX_PACKET_LENGTH: u32 = 1 << 31;

/// The largest exponential mean: the cap at [`MAX_PACKET_LENGTH`] then cuts off a
/// fraction e^-64 of the distribution, so [`LengthDist::mean`] is the mean sampled.
const MAX_EXP_MEAN: f64 = (MAX_PACKET_LENGTH / 64) as f64;

impl LengthDist {
    /// One packet length drawn from `rng` (never 0).
    pub fn sample(&self, rng: &mut ComponentRng) -> u32 {
        match *self {
            LengthDist::Fixed(m) => m,
            LengthDist::Exp { mean } => {
                // U in (0, 1]: 53 random bits, never 0, so ln(U) is finite.
                let u = ((rng.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64;
                let x = -mean * u.ln();
                (x.round() as u64).clamp(1, u64::from(MAX_PACKET_LENGTH)) as u32
            }
            LengthDist::Mix { m1, m2, p1 } => {
                if Bernoulli::new(p1).sample(rng) {
                    m1
                } else {
                    m2
                }
            }
        }
    }

    /// The mean length in flits (the discretised mean for `exp`, see the module docs).
    pub fn mean(&self) -> f64 {
        match *self {
            LengthDist::Fixed(m) => f64::from(m),
            LengthDist::Exp { mean } => 1.0 + (-1.5 / mean).exp() / -(-1.0 / mean).exp_m1(),
            LengthDist::Mix { m1, m2, p1 } => p1 * f64::from(m1) + (1.0 - p1) * f64::from(m2),
        }
    }

    /// The longest packet it can produce (`None`: unbounded in practice, i.e. `exp`).
    pub fn max(&self) -> Option<u32> {
        match *self {
            LengthDist::Fixed(m) => Some(m),
            LengthDist::Exp { .. } => None,
            LengthDist::Mix { m1, m2, p1 } => Some(if p1 >= 1.0 {
                m1
            } else if p1 <= 0.0 {
                m2
            } else {
                m1.max(m2)
            }),
        }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// `ConfigError::ZeroLength` or `ConfigError::BadLength`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        match *self {
            LengthDist::Fixed(0) => Err(ConfigError::ZeroLength),
            LengthDist::Fixed(m) if m > MAX_PACKET_LENGTH => {
                Err(bad(&self.to_string(), TOO_LONG))
            }
            LengthDist::Fixed(_) => Ok(()),
            LengthDist::Exp { mean } if mean > MAX_EXP_MEAN => Err(bad(
                &self.to_string(),
                &format!("the mean must be at most {MAX_EXP_MEAN} flits (lengths are capped at 2^31 flits; the mean stays exact below this)"),
            )),
            LengthDist::Exp { mean } if mean.is_finite() && mean > 0.0 => Ok(()),
            LengthDist::Exp { .. } => Err(bad(&self.to_string(), "the mean must be > 0")),
            LengthDist::Mix { m1, m2, .. } if m1 == 0 || m2 == 0 => Err(ConfigError::ZeroLength),
            LengthDist::Mix { m1, m2, .. } if m1.max(m2) > MAX_PACKET_LENGTH => {
                Err(bad(&self.to_string(), TOO_LONG))
            }
            LengthDist::Mix { p1, .. } if !(0.0..=1.0).contains(&p1) => {
                Err(bad(&self.to_string(), "P1 must be in [0, 1]"))
            }
            LengthDist::Mix { .. } => Ok(()),
        }
    }
}

const TOO_LONG: &str = "a packet has at most 2147483648 flits (2^31)";

fn bad(spec: &str, reason: &str) -> ConfigError {
    ConfigError::BadLength {
        spec: spec.to_string(),
        reason: reason.to_string(),
    }
}

impl fmt::Display for LengthDist {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LengthDist::Fixed(m) => write!(f, "{m}"),
            LengthDist::Exp { mean } => write!(f, "exp:{mean}"),
            LengthDist::Mix { m1, m2, p1 } => write!(f, "mix:{m1},{m2},{p1}"),
        }
    }
}

impl serde::Serialize for LengthDist {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LengthDist::Fixed(m) => s.serialize_u32(*m),
            _ => s.collect_str(self),
        }
    }
}

impl FromStr for LengthDist {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let d = if let Some(mean) = s.strip_prefix("exp:") {
            LengthDist::Exp {
                mean: mean
                    .trim()
                    .parse()
                    .map_err(|_| bad(s, "expected exp:MEAN with a number MEAN > 0"))?,
            }
        } else if let Some(rest) = s.strip_prefix("mix:") {
            let parts: Vec<&str> = rest.split(',').map(str::trim).collect();
            let [m1, m2, p1] = parts[..] else {
                return Err(bad(s, "expected mix:M1,M2,P1"));
            };
            let int = |x: &str| {
                x.parse::<u32>()
                    .map_err(|_| bad(s, "M1 and M2 must be integers >= 1"))
            };
            LengthDist::Mix {
                m1: int(m1)?,
                m2: int(m2)?,
                p1: p1
                    .parse()
                    .map_err(|_| bad(s, "P1 must be a probability in [0, 1]"))?,
            }
        } else if s.parse::<i64>().is_ok_and(|m| m < 0) {
            return Err(bad(s, "a packet has at least 1 flit: give M >= 1"));
        } else {
            LengthDist::Fixed(
                s.parse()
                    .map_err(|_| bad(s, "expected M, exp:MEAN or mix:M1,M2,P1"))?,
            )
        };
        d.validate()?;
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, ComponentKind};

    #[test]
    fn parses_the_three_forms_and_rejects_bad_ones() {
        assert_eq!("5".parse::<LengthDist>().unwrap(), LengthDist::Fixed(5));
        assert_eq!(
            "exp:100".parse::<LengthDist>().unwrap(),
            LengthDist::Exp { mean: 100.0 }
        );
        assert_eq!(
            "mix:1,5,0.25".parse::<LengthDist>().unwrap(),
            LengthDist::Mix {
                m1: 1,
                m2: 5,
                p1: 0.25
            }
        );
        for bad in [
            "0",
            "exp:0",
            "exp:-3",
            "mix:1,5",
            "mix:0,5,0.5",
            "mix:1,5,2",
            "x",
        ] {
            assert!(bad.parse::<LengthDist>().is_err(), "{bad}");
        }
    }

    #[test]
    fn exponential_mean_matches_the_discretised_formula() {
        let d = LengthDist::Exp { mean: 10.0 };
        let mut rng = stream(3, ComponentKind::Terminal, 0);
        let n = 200_000;
        let sum: u64 = (0..n).map(|_| u64::from(d.sample(&mut rng))).sum();
        let mean = sum as f64 / f64::from(n);
        // Formula: 1 + e^-0.15 / (1 - e^-0.1) = 10.0446; sd of the estimate ~0.022.
        assert!((d.mean() - 10.0446).abs() < 1e-3, "{}", d.mean());
        assert!((mean - d.mean()).abs() < 0.1, "sample mean {mean}");
        assert!((0..1000).all(|_| d.sample(&mut rng) >= 1));
    }

    #[test]
    fn mix_draws_both_lengths_in_proportion() {
        let d = LengthDist::Mix {
            m1: 2,
            m2: 7,
            p1: 0.3,
        };
        let mut rng = stream(5, ComponentKind::Terminal, 1);
        let n = 100_000;
        let short = (0..n).filter(|_| d.sample(&mut rng) == 2).count();
        assert!((short as f64 / f64::from(n) - 0.3).abs() < 0.01);
        assert!((d.mean() - 5.5).abs() < 1e-12);
        assert_eq!(d.max(), Some(7));
    }
}
