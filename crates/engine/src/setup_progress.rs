//! Progress of the set-up steps `Simulation::with_progress` runs, for a caller that
//! shows it (the command line draws a bar on stderr).

/// Receives the set-up steps as they start and the work each has done.
pub trait SetupProgress: Sync {
    /// Step `what` starts, with `total` units of work (0: not counted).
    fn start(&self, _what: &str, _total: u64) {}
    /// `units` more units of the current step are done.
    fn advance(&self, _units: u64) {}
}

/// No progress shown.
impl SetupProgress for () {}

#[cfg(test)]
mod tests {
    use super::SetupProgress;
    use crate::{SimConfig, Simulation};
    use std::sync::Mutex;

    /// Every step started, with its total and the units advanced.
    #[derive(Default)]
    struct Record(Mutex<Vec<(String, u64, u64)>>);

    impl SetupProgress for Record {
        fn start(&self, what: &str, total: u64) {
            let mut steps = self.0.lock().unwrap();
            steps.push((what.to_string(), total, 0));
        }

        fn advance(&self, units: u64) {
            let mut steps = self.0.lock().unwrap();
            steps.last_mut().expect("a step started").2 += units;
        }
    }

    /// The steps come in order; assembly counts its routers and ends at its total.
    #[test]
    fn set_up_reports_its_steps_and_counts_the_routers() {
        let mut n = flitsim_netlist::topology::torus(&[5, 4]);
        n.set("routing", "duato").unwrap();
        let record = Record::default();
        Simulation::with_progress(&n, &SimConfig::default(), &record).unwrap();
        let steps = record.0.into_inner().unwrap();
        let names: Vec<&str> = steps.iter().map(|s| s.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "checking the routing functions",
                "building the network",
                "computing the zero-load latency"
            ]
        );
        assert_eq!((steps[1].1, steps[1].2), (20, 20));
    }
}
