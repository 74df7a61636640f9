//! netrace traces (`--traffic netrace:FILE`) replayed with their dependencies. The traces
//! are made here: a 64-node CMP's coherence traffic written in the netrace 1.0 format and
//! compressed with bzip2 (nothing downloaded). The example shipped under `tests/data/`
//! is the one [`cmp_trace`] makes, checked by `shipped_example_is_the_generated_trace`.

use flitsim::engine::traffic::netrace::{self, NetraceRecord};
use flitsim::engine::{ConfigError, Delivery, SimConfig, Simulation, TrafficKind};
use flitsim::netlist::topology::{mesh, torus};
use flitsim::netlist::Netlist;
use std::path::{Path, PathBuf};

/// The shipped example: 64 nodes, 2 misses per node.
const EXAMPLE: &str = "tests/data/netrace/cmp-64.tra.bz2";

/// netrace packet types used (sizes: 8 bytes for requests, 72 for data).
const READ_REQ: u8 = 1;
const READ_RESP: u8 = 2;
const WRITEBACK: u8 = 6;

/// A small CMP trace: each of `nodes` L1 caches misses `misses` times. A miss is a
/// request to its home L2 bank and the bank's data response, which waits for the
/// request; every third miss also goes to the memory controller nearest a corner
/// (request, then data back to the bank) before the bank responds; every fourth miss
/// also writes back a line with no dependency.
fn cmp_trace(nodes: u8, misses: u32) -> Vec<NetraceRecord> {
    let mut recs: Vec<NetraceRecord> = Vec::new();
    let n = u32::from(nodes);
    let mcs = [0, n - 1, n / 2, n / 2 - 1];
    let mut push = |cycle: u64, kind: u8, src: u32, dst: u32| {
        let id = 1000 + recs.len() as u32;
        recs.push(NetraceRecord {
            cycle,
            id,
            addr: id.wrapping_mul(0x9E37_79B9) & !63,
            kind,
            src: src as u8,
            dst: dst as u8,
            node_types: 0,
            dependents: Vec::new(),
        });
        recs.len() - 1
    };
    let mut links: Vec<(usize, usize)> = Vec::new();
    for m in 0..misses {
        for l1 in 0..n {
            let t = u64::from(m * 60 + l1 * 3 % 17);
            let home = (l1 * 7 + m * 13 + 1) % n;
            let req = push(t, READ_REQ, l1, home);
            if (l1 + m) % 3 == 0 {
                let mc = mcs[(l1 % 4) as usize];
                let to_mc = push(t + 6, READ_REQ, home, mc);
                let from_mc = push(t + 50, READ_RESP, mc, home);
                links.extend([(req, to_mc), (to_mc, from_mc)]);
                let resp = push(t + 58, READ_RESP, home, l1);
                links.push((from_mc, resp));
            } else {
                let resp = push(t + 12, READ_RESP, home, l1);
                links.push((req, resp));
            }
            if (l1 + m) % 4 == 0 {
                push(t + 20, WRITEBACK, l1, (home + 5) % n);
            }
        }
    }
    for (from, to) in links {
        let id = recs[to].id;
        recs[from].dependents.push(id);
    }
    // Sorted by cycle (stable): a dependent is always later than what it waits for.
    recs.sort_by_key(|r| r.cycle);
    recs
}

fn scratch(name: &str, records: &[NetraceRecord], nodes: u8) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("netrace");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let file = std::fs::File::create(&p).unwrap();
    netrace::write_compressed(file, "test", nodes, records).unwrap();
    p
}

fn config(path: &Path, threads: usize) -> SimConfig {
    SimConfig {
        traffic: TrafficKind::Netrace(path.to_path_buf()),
        warmup: 0,
        cycles: 200,
        drain: 20_000,
        record_deliveries: true,
        stop_on_saturation: false,
        threads,
        min_parallel_work: 0,
        ..SimConfig::default()
    }
}

/// Replays `path` on `net`; returns each delivery with its trace index.
fn replay(net: &Netlist, path: &Path, threads: usize) -> Vec<(u32, Delivery)> {
    let mut sim = Simulation::new(net, &config(path, threads)).unwrap();
    let report = sim.run();
    assert!(report.deadlock.is_none(), "{:?}", report.deadlock);
    let d = sim.take_deliveries();
    d.into_iter()
        .map(|d| (sim.netrace_index(d.packet).expect("a trace packet"), d))
        .collect()
}

/// Every packet is delivered once, and each is generated exactly at
/// `max(trace cycle, last delivery it waits for + 1)`: never before what it waits for.
#[test]
fn replay_honours_dependencies_and_conserves_packets() {
    let recs = cmp_trace(64, 3);
    let path = scratch("deps.tra.bz2", &recs, 64);
    let trace = netrace::load(&path).unwrap();
    let got = replay(&torus(&[8, 8]), &path, 1);
    assert_eq!(got.len(), recs.len());
    let mut by_index: Vec<Option<Delivery>> = vec![None; recs.len()];
    for (i, d) in got {
        assert!(
            by_index[i as usize].replace(d).is_none(),
            "packet {i} twice"
        );
    }
    let by_index: Vec<Delivery> = by_index.into_iter().map(Option::unwrap).collect();
    let mut waits_for: Vec<Vec<usize>> = vec![Vec::new(); recs.len()];
    for i in 0..recs.len() {
        for &d in trace.dependents_of(i) {
            waits_for[d as usize].push(i);
        }
    }
    let mut dependent = 0;
    for (i, d) in by_index.iter().enumerate() {
        let p = trace.packets[i];
        assert_eq!((d.packet.source, d.dest, d.len), (p.source, p.dest, p.len));
        let released = waits_for[i]
            .iter()
            .map(|&w| by_index[w].consumed.0 + 1)
            .max();
        for &w in &waits_for[i] {
            assert!(d.injected > by_index[w].consumed, "packet {i} before {w}");
        }
        dependent += usize::from(released.is_some());
        assert_eq!(
            d.created.0,
            p.cycle.0.max(released.unwrap_or(0)),
            "packet {i}"
        );
    }
    // The rule was exercised: dependents exist and some were held past their trace cycle.
    assert!(dependent > recs.len() / 3, "{dependent}");
    let held = (0..recs.len())
        .filter(|&i| by_index[i].created > trace.packets[i].cycle)
        .count();
    assert!(held > 0);
}

/// The same report and deliveries with 1, 2 and 3 workers (every window parallel).
#[test]
fn replay_is_identical_at_any_thread_count() {
    let path = scratch("threads.tra.bz2", &cmp_trace(64, 2), 64);
    let net = mesh(&[8, 8]);
    let run = |threads| {
        let mut sim = Simulation::new(&net, &config(&path, threads)).unwrap();
        let report = sim.run();
        assert_eq!(sim.perf().threads, threads);
        (report, sim.take_deliveries())
    };
    let one = run(1);
    assert!(one.1.len() > 100);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
}

/// A trace of 64 nodes does not fit 16 terminals: a typed error before simulating.
#[test]
fn too_few_terminals_is_refused() {
    let path = scratch("big.tra.bz2", &cmp_trace(64, 1), 64);
    let e = Simulation::new(&torus(&[4, 4]), &config(&path, 1))
        .err()
        .unwrap();
    assert!(
        matches!(
            e,
            ConfigError::TooFewTerminals {
                needed: 64,
                have: 16,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("needs at least 64 terminals"), "{e}");
}

/// The example under `tests/data/` holds exactly what [`cmp_trace`] makes (run with
/// `FLITSIM_WRITE_NETRACE=1` to write it again).
#[test]
fn shipped_example_is_the_generated_trace() {
    let recs = cmp_trace(64, 2);
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join(EXAMPLE);
    if std::env::var_os("FLITSIM_WRITE_NETRACE").is_some() {
        std::fs::create_dir_all(shipped.parent().unwrap()).unwrap();
        let file = std::fs::File::create(&shipped).unwrap();
        netrace::write_compressed(file, "cmp-64", 64, &recs).unwrap();
    }
    let made = netrace::load(&scratch("example.tra.bz2", &recs, 64)).unwrap();
    let read = netrace::load(&shipped).unwrap();
    assert_eq!(read.packets, made.packets);
    assert_eq!(read.dependents, made.dependents);
    assert_eq!(read.benchmark, "cmp-64");
}
