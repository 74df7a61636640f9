//! A stall report always names what waits: with no input VC waiting for a VC or a
//! credit, it names the input VCs that hold the undelivered flits.

use super::*;
use crate::checks::watchdog;
use crate::cycle::View;

/// A ring of 4 routers whose route computation takes `routing_delay` cycles.
fn slow_ring(routing_delay: u32) -> Netlist {
    let src = format!(
        "name = \"slow-ring\"\nchannel_latency = 1\nterminal_latency = 1\n\
         [topology]\nkind = \"ring\"\nn = 4\n\
         [defaults]\nvcs = 2\nbuffer_depth = 4\nrouting = \"dor\"\nrouting_delay = {routing_delay}\n"
    );
    flitsim_netlist::parse_str(&src, std::path::Path::new("slow-ring.toml")).unwrap()
}

#[test]
fn a_stall_with_no_waiting_vc_names_the_vcs_holding_flits() {
    let netlist = slow_ring(1000);
    let config = SimConfig {
        rate: 0.5,
        length: 2,
        warmup: 0,
        cycles: 1000,
        ..SimConfig::default()
    };
    let mut sim = Simulation::new(&netlist, &config).unwrap();
    for _ in 0..20 {
        sim.step().unwrap();
    }
    assert!(sim.flits_in_network() > 0);
    // Every head is inside its route computation: no VC waits for a VC or a credit.
    let view = View::new(&sim.net);
    assert!(view.routers().all(|r| r.router.waits().is_empty()));
    let e = watchdog::diagnose(sim.now(), 20, &view);
    let SimError::Stalled { ref waiting, .. } = e else {
        panic!("{e:?}");
    };
    assert!(!waiting.is_empty());
    for w in waiting {
        let router = &view.router(w.router.index()).router;
        assert!(router.buffer_len(w.port, w.vc) > 0, "{}", w.name);
    }
    assert!(!e.message().contains("waiting: none"), "{}", e.message());
}
