//! Injection processes (`--injection`): in which cycles a terminal generates a packet.
//!
//! - `bernoulli` (default): a packet with probability `rate` every cycle, independently.
//! - `onoff:ALPHA:BETA`: BookSim's two-state Markov-modulated source (`injection_process =
//!   on_off`, `burst_alpha`, `burst_beta`, `burst_r1`). Every cycle the state moves first:
//!   off -> on with probability `ALPHA`, on -> off with probability `BETA`. Then, if on,
//!   a packet is generated with probability `r1 = rate (ALPHA + BETA) / ALPHA`. The
//!   stationary probability of being on is `ALPHA / (ALPHA + BETA)`, so the mean rate is
//!   `rate`. On periods last `1 / BETA` cycles on average, off periods `1 / ALPHA`.
//!   Each terminal starts in the stationary distribution (on with probability
//!   `ALPHA / (ALPHA + BETA)`), drawn from its own stream.
//!
//! Draws come only from the terminal's own stream, in cycle order: one `u64` per cycle for
//! `bernoulli` (none when the rate is 0 or 1), and for `onoff` one for the state and one
//! more in a cycle that is on.

use crate::error::ConfigError;
use crate::rng::{Bernoulli, ComponentRng};
use std::fmt;
use std::str::FromStr;

/// When a terminal generates packets, for a mean rate given apart.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub enum InjectionProcess {
    /// One independent trial per cycle.
    #[default]
    Bernoulli,
    /// A two-state Markov-modulated source (see the module docs).
    OnOff {
        /// Probability per cycle of going from off to on, in (0, 1].
        alpha: f64,
        /// Probability per cycle of going from on to off, in [0, 1].
        beta: f64,
    },
}

impl InjectionProcess {
    /// The probability of generating a packet in a cycle that is on, for the mean `rate`:
    /// `rate` for Bernoulli, `rate (alpha + beta) / alpha` for on/off.
    pub fn r1(&self, rate: f64) -> f64 {
        match *self {
            InjectionProcess::Bernoulli => rate,
            InjectionProcess::OnOff { alpha, beta } => rate * (alpha + beta) / alpha,
        }
    }

    /// Checks the parameters alone and with the mean `rate`.
    ///
    /// # Errors
    /// `ConfigError::BadInjection` naming what is wrong.
    pub fn validate(&self, rate: f64) -> Result<(), ConfigError> {
        let InjectionProcess::OnOff { alpha, beta } = *self else {
            return Ok(());
        };
        if !(alpha > 0.0 && alpha <= 1.0) {
            return Err(bad(self, "ALPHA (off -> on) must be in (0, 1]"));
        }
        if !(0.0..=1.0).contains(&beta) {
            return Err(bad(self, "BETA (on -> off) must be in [0, 1]"));
        }
        let r1 = self.r1(rate);
        if r1 > 1.0 {
            return Err(bad(
                self,
                &format!(
                    "rate {rate} needs r1 = rate (ALPHA + BETA) / ALPHA = {r1} > 1 in the on \
                     state; lower the rate, raise ALPHA or lower BETA"
                ),
            ));
        }
        Ok(())
    }
}

fn bad(process: &InjectionProcess, reason: &str) -> ConfigError {
    ConfigError::BadInjection {
        spec: process.to_string(),
        reason: reason.to_string(),
    }
}

impl fmt::Display for InjectionProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InjectionProcess::Bernoulli => write!(f, "bernoulli"),
            InjectionProcess::OnOff { alpha, beta } => write!(f, "onoff:{alpha}:{beta}"),
        }
    }
}

impl serde::Serialize for InjectionProcess {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl FromStr for InjectionProcess {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s == "bernoulli" {
            return Ok(InjectionProcess::Bernoulli);
        }
        let malformed = || ConfigError::BadInjection {
            spec: s.to_string(),
            reason: "expected bernoulli or onoff:ALPHA:BETA".to_string(),
        };
        let rest = s.strip_prefix("onoff:").ok_or_else(malformed)?;
        let parts: Vec<&str> = rest.split(':').map(str::trim).collect();
        let [a, b] = parts[..] else {
            return Err(malformed());
        };
        let number = |x: &str| x.parse::<f64>().map_err(|_| malformed());
        let p = InjectionProcess::OnOff {
            alpha: number(a)?,
            beta: number(b)?,
        };
        // The parameters alone (the rate is checked with them by `SimConfig::validate`).
        p.validate(0.0)?;
        Ok(p)
    }
}

/// A terminal's generation trials: the process with its state.
#[derive(Clone, Debug)]
pub enum Generator {
    /// Independent trials.
    Bernoulli(Bernoulli),
    /// The on/off source and its current state.
    OnOff {
        /// In the on state.
        on: bool,
        /// Off -> on.
        to_on: Bernoulli,
        /// On -> off.
        to_off: Bernoulli,
        /// A packet in a cycle that is on.
        send: Bernoulli,
    },
}

impl Generator {
    /// The generator of `process` at the mean `rate`; an on/off source draws its first
    /// state from `rng`.
    pub fn new(process: InjectionProcess, rate: f64, rng: &mut ComponentRng) -> Generator {
        match process {
            InjectionProcess::Bernoulli => Generator::Bernoulli(Bernoulli::new(rate)),
            InjectionProcess::OnOff { alpha, beta } => Generator::OnOff {
                on: Bernoulli::new(alpha / (alpha + beta)).sample(rng),
                to_on: Bernoulli::new(alpha),
                to_off: Bernoulli::new(beta),
                send: Bernoulli::new(process.r1(rate)),
            },
        }
    }

    /// A generator that never succeeds (trace-driven terminals).
    pub fn silent() -> Generator {
        Generator::Bernoulli(Bernoulli::new(0.0))
    }

    /// Up to `trials` cycles in a row, stopping at the first that generates: its index,
    /// or `None` if none does. Draws exactly what as many single cycles would.
    #[inline]
    pub fn first_success(&mut self, rng: &mut ComponentRng, trials: u64) -> Option<u64> {
        match self {
            Generator::Bernoulli(b) => b.first_success(rng, trials),
            Generator::OnOff {
                on,
                to_on,
                to_off,
                send,
            } => (0..trials).find(|_| {
                *on = if *on {
                    !to_off.sample(rng)
                } else {
                    to_on.sample(rng)
                };
                *on && send.sample(rng)
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{stream, ComponentKind};

    /// Packets generated in each of `windows` windows of `len` cycles.
    fn window_counts(process: InjectionProcess, rate: f64, windows: usize, len: u64) -> Vec<u64> {
        let mut rng = stream(11, ComponentKind::Terminal, 0);
        let mut g = Generator::new(process, rate, &mut rng);
        (0..windows)
            .map(|_| {
                let mut left = len;
                let mut n = 0;
                while let Some(k) = g.first_success(&mut rng, left) {
                    n += 1;
                    left -= k + 1;
                }
                n
            })
            .collect()
    }

    fn mean_var(x: &[u64]) -> (f64, f64) {
        let n = x.len() as f64;
        let m = x.iter().sum::<u64>() as f64 / n;
        let v = x.iter().map(|&c| (c as f64 - m).powi(2)).sum::<f64>() / (n - 1.0);
        (m, v)
    }

    #[test]
    fn on_off_keeps_the_mean_rate_and_is_burstier_than_bernoulli() {
        // alpha = 0.02, beta = 0.08: on 20% of cycles, r1 = 5 * rate = 0.5.
        let onoff = InjectionProcess::OnOff {
            alpha: 0.02,
            beta: 0.08,
        };
        let (windows, len, rate) = (400, 500, 0.1);
        let (m, v) = mean_var(&window_counts(onoff, rate, windows, len));
        // Windows are 10 mean on/off cycles long, so nearly independent; the mean's
        // standard error is sqrt(v / windows). 4 standard errors.
        let se = (v / windows as f64).sqrt();
        assert!(
            (m - rate * len as f64).abs() < 4.0 * se,
            "mean {m}, se {se}"
        );
        let (mb, vb) = mean_var(&window_counts(
            InjectionProcess::Bernoulli,
            rate,
            windows,
            len,
        ));
        assert!((mb - 50.0).abs() < 4.0 * (vb / windows as f64).sqrt());
        // Bernoulli: variance 500 * 0.1 * 0.9 = 45. On/off: several times more.
        assert!(v > 3.0 * vb, "on/off variance {v}, Bernoulli {vb}");
    }

    #[test]
    fn bernoulli_generator_draws_what_the_trial_draws() {
        let (mut a, mut b) = (
            stream(5, ComponentKind::Terminal, 2),
            stream(5, ComponentKind::Terminal, 2),
        );
        let mut g = Generator::new(InjectionProcess::Bernoulli, 0.3, &mut a);
        let t = Bernoulli::new(0.3);
        for trials in [1, 9, 100] {
            assert_eq!(
                g.first_success(&mut a, trials),
                t.first_success(&mut b, trials)
            );
        }
    }

    #[test]
    fn parses_prints_and_refuses() {
        let p: InjectionProcess = "onoff:0.25:0.5".parse().unwrap();
        assert_eq!(
            p,
            InjectionProcess::OnOff {
                alpha: 0.25,
                beta: 0.5
            }
        );
        assert_eq!(p.to_string(), "onoff:0.25:0.5");
        assert_eq!("bernoulli".parse(), Ok(InjectionProcess::Bernoulli));
        assert!((p.r1(0.1) - 0.3).abs() < 1e-12);
        assert!(p.validate(0.3).is_ok());
        assert!(p.validate(0.34).is_err(), "r1 = 1.02 > 1");
        for bad in [
            "onoff:0:0.5",
            "onoff:0.5",
            "onoff:0.5:2",
            "onoff:a:b",
            "poisson",
        ] {
            let e = bad.parse::<InjectionProcess>().unwrap_err();
            assert_eq!(e.code(), "bad-injection", "{bad}");
        }
    }
}
