//! Allocator micro-benches: separable input-first and output-first
//! allocators (word-mask matrices, static dispatch) over request matrices of VC
//! allocation ((radix x V) x (radix x V)) at radix 5, 7 and 16 with V = 2, 4 and 10 (up
//! to 160 x 160: three words per row).
//! Requests are a fixed pseudo-random half-full pattern. CI only compiles this.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use flitsim_netlist::{AllocatorKind, ArbiterKind};
use flitsim_router::alloc::{Allocator, BitMatrix};
use std::hint::black_box;
use std::time::Duration;

/// A deterministic request pattern: about half the bits set (a 64-bit LCG).
fn requests(rows: usize, cols: usize, seed: u64) -> BitMatrix {
    let mut m = BitMatrix::new(rows, cols);
    let mut x = seed;
    for r in 0..rows {
        for c in 0..cols {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            if x >> 63 == 1 {
                m.set(r, c);
            }
        }
    }
    m
}

fn allocators(c: &mut Criterion) {
    let mut group = c.benchmark_group("alloc");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for kind in [
        AllocatorKind::SeparableInputFirst,
        AllocatorKind::SeparableOutputFirst,
    ] {
        for radix in [5usize, 7, 16] {
            for vcs in [2usize, 4, 10] {
                let n = radix * vcs;
                let reqs: Vec<BitMatrix> = (0..8).map(|s| requests(n, n, s)).collect();
                let mut alloc = Allocator::new(kind, ArbiterKind::RoundRobin, n, n);
                let mut grant = BitMatrix::new(n, n);
                group.throughput(Throughput::Elements(1));
                let id = BenchmarkId::new(format!("{kind:?}"), format!("radix={radix}/V={vcs}"));
                let mut i = 0;
                group.bench_function(id, |b| {
                    b.iter(|| {
                        let req = &reqs[i % reqs.len()];
                        i += 1;
                        alloc.allocate(black_box(req), &mut grant);
                        alloc.update(&grant);
                        black_box(&grant);
                    });
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, allocators);
criterion_main!(benches);
