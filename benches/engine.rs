//! Whole-network steps: the BookSim comparison configurations
//! (torus, dimension order, 4 VCs x 8 flits, 12-flit packets, uniform traffic) plus
//! hypercube-10 and torus 64x64, at 1 and 2 threads asked for (an upper bound: the engine
//! keeps at most routers / 64 workers, so torus 8x8 runs one). Throughput is in router-cycles
//! (routers x cycles). Fixed seed, network warmed to steady state before measuring.
//! CI only compiles this (`cargo bench --no-run`); numbers go to docs/performance.md, never into
//! test assertions.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use flitsim_engine::{SimConfig, Simulation};
use flitsim_netlist::{topology, Netlist};
use std::time::Duration;

const LENGTH: u32 = 12;
const WARMUP: u64 = 2000;
const CYCLES_PER_ITER: u64 = 200;

fn configurations() -> Vec<(&'static str, Netlist, f64)> {
    vec![
        ("torus-8x8", topology::torus(&[8, 8]), 0.25),
        ("torus-16x16", topology::torus(&[16, 16]), 0.13),
        ("torus-32x32", topology::torus(&[32, 32]), 0.065),
        ("torus-8x8", topology::torus(&[8, 8]), 0.05),
        ("hypercube-10", topology::hypercube(10), 0.1),
        ("torus-64x64", topology::torus(&[64, 64]), 0.03),
    ]
}

fn whole_network(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, mut netlist, flits_per_cycle) in configurations() {
        netlist.set("vcs", "4").expect("vcs");
        netlist.set("buffer_depth", "8").expect("buffer_depth");
        for threads in [1, 2] {
            let config = SimConfig {
                rate: flits_per_cycle / f64::from(LENGTH),
                length: LENGTH,
                warmup: WARMUP,
                cycles: u64::MAX / 4,
                seed: 1,
                threads,
                ..SimConfig::default()
            };
            let mut sim = Simulation::new(&netlist, &config).expect("configuration");
            sim.run_for(WARMUP).expect("no deadlock while warming");
            let routers = sim.num_routers() as u64;
            group.throughput(Throughput::Elements(routers * CYCLES_PER_ITER));
            let id = BenchmarkId::new(name, format!("load={flits_per_cycle}/threads={threads}"));
            group.bench_function(id, |b| {
                b.iter(|| sim.run_for(CYCLES_PER_ITER).expect("no deadlock"));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, whole_network);
criterion_main!(benches);
