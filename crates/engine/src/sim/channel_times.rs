//! Inter-arrival and waiting-time histograms of the router-to-router channels (paper
//! 003, Figs. 2-3; [`flitsim_router::channel_times`] defines them). Each router keeps its
//! own ports' histograms, so they do not depend on the workers; they are read channel
//! by channel in id order.

use super::Simulation;
use crate::error::ConfigError;
use flitsim_netlist::Netlist;
use flitsim_router::channel_times::{OutputTimes, PortTimes, MAX_BINS};

/// Largest memory the histograms may take (bytes).
const LIMIT: u64 = 1 << 30;

/// One channel's histograms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelTimes {
    /// Channel id (netlist order).
    pub id: u32,
    /// Upstream `router.port`.
    pub from: String,
    /// Its upstream output port's histograms.
    pub times: PortTimes,
}

impl Simulation {
    /// Starts the histograms on every router: `bins` bins (1..=[`MAX_BINS`]) of
    /// `bin_width` cycles (at least 1), counted from the window's opening. Call it before
    /// the run.
    ///
    /// # Errors
    /// `NetworkTooLarge` when the histograms of all ports would take more than 1 GiB.
    pub fn enable_channel_times(&mut self, bin_width: u32, bins: u32) -> Result<(), ConfigError> {
        let (ports, vcs) = (0..self.num_routers())
            .map(|r| {
                self.router(flitsim_netlist::RouterId(r as u32))
                    .out_ports_vcs()
            })
            .fold((0, 0), |(p, v), (a, b)| (p + a, v + b));
        let needed = OutputTimes::bytes(ports, vcs, bins);
        if needed > LIMIT {
            return Err(ConfigError::NetworkTooLarge {
                needed,
                part: "channel time histograms".into(),
                part_bytes: needed,
                detail: format!("{ports} output ports x 2 x {} bins", bins.min(MAX_BINS) + 1),
                limit: LIMIT,
                limit_what: "allowed for the histograms".into(),
                help: "use fewer bins".into(),
            });
        }
        for part in &mut self.net.parts {
            for r in &mut part
                .members
                .get_mut()
                .expect(crate::network::PHASE_BUG)
                .routers
            {
                r.router.enable_channel_times(bin_width, bins);
            }
        }
        Ok(())
    }

    /// Every router-to-router channel's histograms, in id order (empty when
    /// [`Simulation::enable_channel_times`] was not called). `netlist` must be the
    /// simulated one.
    pub fn channel_times(&self, netlist: &Netlist) -> Vec<ChannelTimes> {
        let view = crate::cycle::View::new(&self.net);
        let mut out = Vec::new();
        for c in netlist.channels() {
            let r = &view.router(c.from.index()).router;
            let Some(times) = r.channel_times(c.from_port) else {
                continue;
            };
            let from = netlist.router(c.from);
            out.push(ChannelTimes {
                id: c.id.0,
                from: format!("{}.{}", from.name, from.ports[c.from_port.index()].name),
                times: times.clone(),
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LengthDist, SimConfig};
    use flitsim_netlist::topology::torus;

    /// Paper 003's switch on a 3x3 torus: one VC, no datelines, timeout 20, exponential
    /// lengths of mean 20, near its knee.
    fn run(threads: usize) -> Vec<ChannelTimes> {
        let mut n = torus(&[3, 3]);
        n.set_all([
            ("vcs", "1"),
            ("routing", "dor-nodateline"),
            ("buffer_depth", "3"),
            ("timeout", "20"),
        ])
        .unwrap();
        let config = SimConfig {
            rate: 0.02,
            length: 20,
            length_dist: Some(LengthDist::Exp { mean: 20.0 }),
            warmup: 1_000,
            cycles: 6_000,
            drain: 2_000,
            threads,
            min_parallel_work: 0,
            ..SimConfig::default()
        };
        let mut sim = Simulation::new(&n, &config).unwrap();
        sim.enable_channel_times(5, 40).unwrap();
        sim.run();
        sim.channel_times(&n)
    }

    #[test]
    fn histograms_count_every_head_and_do_not_depend_on_the_threads() {
        let one = run(1);
        assert_eq!(one.len(), 9 * 4, "every router-to-router channel");
        let (mut waited, mut timeouts) = (0, 0);
        for c in &one {
            let t = &c.times;
            assert!(t.arrivals > 50, "{}: {} heads", c.from, t.arrivals);
            // One gap per head after the first of the window's opening ...
            let gaps: u64 = t.inter_arrival.iter().sum();
            assert_eq!(gaps, t.arrivals, "{}", c.from);
            // ... and every head granted or timed out, but those still waiting.
            assert_eq!(t.wait.iter().sum::<u64>(), t.granted);
            assert!(t.granted + t.timeouts <= t.arrivals + 1);
            assert!(
                t.granted + t.timeouts + 2 >= t.arrivals,
                "{}: {t:?}",
                c.from
            );
            waited += t.granted - t.wait[0];
            timeouts += t.timeouts;
        }
        assert!(
            waited > 0 && timeouts > 0,
            "{waited} waits, {timeouts} timeouts"
        );
        assert_eq!(run(2), one);
    }
}
