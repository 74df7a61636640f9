//! The memory estimate's tests: each part against the real types' sizes.

use super::estimate::estimate;
use super::limit::{address_space, mem_total};
use super::part::Part;
use super::*;
use crate::error::bytes_text;
use crate::error::ConfigError;
use crate::network::{WiredRouter, WiredTerminal};
use flitsim_netlist::RoutingKind;
use flitsim_netlist::{ArbiterKind, Netlist};
use flitsim_router::pipeline::Layout;
use flitsim_router::{Flit, Router, StepScratch};
use flitsim_routing::kind_name;

/// The zero-load latency walk of a dimension-order routing function on one thread.
const DOR: Walk = Walk {
    dimension_order: true,
    threads: 1,
};

/// A ring of 4 routers (3 ports each: local and two neighbours), 2 VCs of 5 flits,
/// channels of 3 cycles, terminal links of 1, the default delays (1 cycle each).
fn ring(depth: &str) -> Netlist {
    ring_of(depth, 3)
}

/// [`ring`] with channels of `latency` cycles.
fn ring_of(depth: &str, latency: u32) -> Netlist {
    ring_with(depth, latency, 2, "round-robin")
}

/// [`ring_of`] with `vcs` VCs per port and arbiters of `arbiter`.
fn ring_with(depth: &str, latency: u32, vcs: u8, arbiter: &str) -> Netlist {
    let src = format!(
        "name = \"ring-4\"\nchannel_latency = {latency}\nterminal_latency = 1\n\
         [topology]\nkind = \"ring\"\nn = 4\n\
         [defaults]\nvcs = {vcs}\nbuffer_depth = {depth}\nrouting = \"dor\"\n\
         arbiter = \"{arbiter}\"\n"
    );
    flitsim_netlist::parse_str(&src, std::path::Path::new("ring-4.toml")).unwrap()
}

#[test]
fn the_estimate_of_a_small_ring_matches_a_hand_count() {
    let n = ring("5");
    assert_eq!((n.num_routers(), n.num_channels()), (4, 8));
    // Today's element sizes: a flit 32 bytes, a FIFO slot 36, a line slot its item
    // and an 8-byte tag (a flit 40, a credit 16), a crossbar slot 36 (port, flit), a
    // credit-return slot 8 (port, VC); a FIFO's position 32 (what it held at a reset
    // comes with the first reset, after the estimate's peak).
    assert_eq!(std::mem::size_of::<Flit>(), 32);
    assert_eq!(
        std::mem::size_of::<flitsim_router::buffer::BufferedFlit>(),
        36
    );
    let e = estimate(&n, 1, DOR);
    // Per VC: 5 flits round up to 8 slots, 5 levels of 4 bytes (occupancies 1 to 5):
    // 8 x 36 + 5 x 4 + 32.
    let per_vc = 8 * 36 + 5 * 4 + 32;
    assert_eq!(e.fifos, 4 * 3 * 2 * per_vc);
    // 8 channels of 3 cycles (rings of 4 slots) and 8 terminal links of 1 (rings of
    // 2), each a flit side and a credit side.
    assert_eq!(e.lines, 8 * 4 * (40 + 16) + 8 * 2 * (40 + 16));
    // Crossbar: sd + xd = 2, a ring of 4 slots x 3 ports (plus each slot's exit
    // cycle in debug builds), the ports' sent counts; credits: cd = 1, 2 slots x 3.
    let debug = if cfg!(debug_assertions) { 4 * 8 } else { 0 };
    assert_eq!(e.pipelines, 4 * (4 * 3 * 36 + debug + 3 * 16 + 2 * 3 * 8));
    // Wake-ups: one partition, latency 3: 4 buckets of 2 + 2 x 64 words and a tag.
    assert_eq!(e.wakes, 4 * (2 + 128 + 1) * 8);
    // Two partitions: each writer has a ring for each reader.
    assert_eq!(estimate(&n, 2, DOR).wakes, 2 * 2 * 4 * (2 + 128 + 1) * 8);
    // 24 input VCs; 24 output VCs (2 ejection VCs per router, 2 per channel).
    let members = std::mem::size_of::<WiredRouter>() + std::mem::size_of::<WiredTerminal>();
    // Each router's bookkeeping: 3 input ports of 2 VCs, 3 output ports of 2 VCs; the
    // four routers share one layout.
    let bookkeeping = Router::bookkeeping_bytes(&[2, 2, 2], &[2, 2, 2], false);
    let layout = Layout::bytes(&[2, 2, 2], &[2, 2, 2]);
    assert_eq!(
        e.members,
        4 * (members as u64 + bookkeeping) + layout + Router::vc_state_bytes(24, 24)
    );
    // The netlist: its arrays and strings as loaded.
    assert_eq!(e.netlist, n.heap_bytes());
    // Allocators, per router 6 input VCs x 6 output VCs (2 ejection VCs, 2 per
    // channel) and 3 x 3 ports, round-robin arbiters on fixed arrays (no heap): VA's
    // allocator's scratch matrix, 6 rows of one word and a row mask; SA's allocator's
    // (3 rows and a mask) and its one-word path's arrays (704 bytes). The requests and
    // grants are the partition's (`StepScratch`), not the router's.
    let va = (6 + 1) * 8;
    let sa = (3 + 1) * 8 + 704;
    // The partition's step scratch: itself, VA's request and grant matrices and SA's
    // multi-word ones (as the allocators' scratch matrices) and masks (a word each).
    let scratch = std::mem::size_of::<StepScratch>() as u64 + 2 * va + 2 * (3 + 1) * 8 + 2 * 8;
    assert_eq!(e.allocators, 4 * (va + sa) + scratch);
    // Matrix arbiters add vectors of arbiters (40 bytes each) and their rows: VA's
    // 6 + 6 arbiters of 6 requesters (a word per row), SA's 3 + 3 port arbiters of 3
    // and 3 VC arbiters of 2.
    let m = estimate(&ring_with("5", 3, 2, "matrix"), 1, DOR);
    let arbiters = 12 * (40 + 6 * 8) + 6 * (40 + 3 * 8) + 3 * (40 + 2 * 8);
    assert_eq!(m.allocators, 4 * (va + sa + arbiters) + scratch);
    // The zero-load latency walk: one worker, its memo an entry of 16 bytes per router.
    assert_eq!(e.walk, 4 * 16);
    assert_eq!(
        e.total(),
        e.fifos + e.lines + e.pipelines + e.allocators + e.wakes + e.members + e.walk + e.netlist
    );
    // An unbounded FIFO counts its start: 16 slots, 16 levels.
    let u = estimate(&ring("\"unbounded\""), 1, DOR);
    assert_eq!(u.fifos, 4 * 3 * 2 * (16 * 36 + 16 * 4 + 32));
}

#[test]
fn a_network_over_the_limit_is_refused_with_its_largest_part() {
    let n = ring("65536");
    let e = estimate(&n, 1, DOR);
    let limit = |bytes| {
        Some(MemoryLimit {
            bytes,
            what: "of memory this machine has",
        })
    };
    assert_eq!(check(&n, 1, DOR, limit(e.total())), Ok(e));
    assert_eq!(check(&n, 1, DOR, None), Ok(e));
    let err = check(&n, 1, DOR, limit(e.total() - 1)).unwrap_err();
    let ConfigError::NetworkTooLarge {
        needed,
        ref part,
        part_bytes,
        ref detail,
        ..
    } = err
    else {
        panic!("{err:?}");
    };
    assert_eq!(
        (needed, part.as_str(), part_bytes),
        (e.total(), "input FIFOs", e.fifos)
    );
    assert_eq!(detail, "4 routers x 3 ports x 2 VCs x 65536 flits");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "the network needs about {} for buffers, channels, router state and set-up (input FIFOs {}: 4 routers x 3 ports x 2 VCs x 65536 flits), more than the ",
            bytes_text(&e.total()),
            bytes_text(&e.fifos)
        )),
        "{text}"
    );
    assert!(
        text.ends_with("of memory this machine has\nhelp: lower buffer_depth or vcs (--set), or use a smaller netlist"),
        "{text}"
    );
}

/// With N input VCs and N output VCs per router, VA's allocator's matrix holds about
/// N^2 bits and its matrix arbiters (2N of N requesters) about 2 N^3: doubling the VCs
/// multiplies the part by more than 2.5 with round-robin arbiters (their vectors and
/// SA's state grow slower, the one-word path's arrays not at all) and by almost 8 with
/// matrix arbiters. When the part is the largest, the refusal names it and what to
/// change.
#[test]
fn the_allocators_grow_with_the_square_of_the_vcs_and_the_cube_with_matrix_arbiters() {
    let part = |vcs, arbiter| estimate(&ring_with("8", 3, vcs, arbiter), 1, DOR).allocators;
    // 64 VCs per port: 192 x 192 per router, 3 words per row; 128: 384 x 384, 6 words.
    let ratio = |arbiter| part(128, arbiter) as f64 / part(64, arbiter) as f64;
    let (rr, mx) = (ratio("round-robin"), ratio("matrix"));
    assert!((2.5..4.0).contains(&rr), "round-robin: x{rr}");
    assert!((7.9..8.0).contains(&mx), "matrix: x{mx}");
    // At least VA's allocator's matrix (192 rows of 3 words) and, with matrix
    // arbiters, its 2 x 192 arbiters of 192 rows of 3 words (and 40 bytes in their
    // vectors).
    let va = 192 * 3 * 8;
    assert!(part(64, "round-robin") > 4 * va);
    assert!(part(64, "matrix") > 4 * (va + 2 * 192 * (40 + 192 * 3 * 8)));
    // 255 VCs: 765 x 765 per router. With matrix arbiters VA holds 2 x 765 arbiters
    // of 765 rows of 12 words each (449.4 MB over 4 routers); the rest is within 1 MB.
    let big = ring_with("8", 3, 255, "matrix");
    let e = estimate(&big, 1, DOR);
    assert_eq!(e.largest(), (Part::Allocators, e.allocators));
    let arbiters = 4 * 2 * 765 * 765 * 12 * 8;
    assert!(
        (arbiters..arbiters + 1_000_000).contains(&e.allocators),
        "{}",
        e.allocators
    );
    let limit = Some(MemoryLimit {
        bytes: 400_000_000,
        what: "of memory this machine has",
    });
    let err = check(&big, 1, DOR, limit).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "the network needs about {} for buffers, channels, router state and set-up \
             (allocators {}: 4 routers, up to 765 input VCs x 765 output VCs, \
             matrix arbiters), more than the 400.0 MB of memory this machine has\n\
             help: use round-robin arbiters (--set arbiter=round-robin) or lower vcs (--set)",
            bytes_text(&e.total()),
            bytes_text(&e.allocators)
        )
    );
    // Round-robin arbiters: 0.5 MB, the help names the VCs.
    let rr = ring_with("8", 3, 255, "round-robin");
    assert_eq!(bytes_text(&estimate(&rr, 1, DOR).allocators), "0.5 MB");
    assert_eq!(
        Part::Allocators.help(&rr, DOR),
        "lower vcs (--set), or use routers with fewer ports"
    );
    assert_eq!(
        Part::Allocators.detail(&rr, 1, DOR),
        "4 routers, up to 765 input VCs x 765 output VCs, round-robin arbiters"
    );
}

/// Each router counts its own VCs and arbiters: in the heterogeneous torus, r5 with
/// 200 VCs per input port and matrix arbiters (1000 input VCs; out, its terminal's
/// 200 VCs and 4 on each neighbour), its four neighbours with 200 downstream VCs on
/// the port towards r5, the other 11 routers with 4 VCs everywhere.
#[test]
fn the_allocators_are_counted_per_router() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../netlists/hetero-torus-4x4.toml");
    let src = std::fs::read_to_string(&path).unwrap().replace(
        "name = \"r5\"\ncoord = [1, 1]\n",
        "name = \"r5\"\ncoord = [1, 1]\nvcs = 200\narbiter = \"matrix\"\n",
    );
    let n = flitsim_netlist::parse_str(&src, &path).unwrap();
    let (hot, plain) = (
        &n.router(flitsim_netlist::RouterId(5)).config,
        &n.router(flitsim_netlist::RouterId(0)).config,
    );
    assert_eq!((hot.vcs, hot.arbiter), (200, ArbiterKind::Matrix));
    let per_router = Router::allocator_bytes(hot, &[200; 5], &[200, 4, 4, 4, 4])
        + 4 * Router::allocator_bytes(plain, &[4; 5], &[4, 4, 4, 4, 200])
        + 11 * Router::allocator_bytes(plain, &[4; 5], &[4; 5]);
    // The partition's step scratch, shaped for r5 (the largest).
    let scratch = StepScratch::bytes(hot, &[200; 5], &[200, 4, 4, 4, 4]);
    let e = estimate(&n, 1, DOR);
    assert_eq!(e.allocators, per_router + scratch);
    // r5's matrix arbiters are most of it: VA's 1000 of 216 requesters (4 words per
    // row) and 216 of 1000 (16 words per row).
    assert!(e.allocators > 1000 * 216 * 4 * 8 + 216 * 1000 * 16 * 8);
    assert_eq!(
        Part::Allocators.detail(&n, 1, DOR),
        "16 routers, up to 1000 input VCs x 216 output VCs, round-robin and matrix arbiters"
    );
}

#[test]
fn the_largest_part_names_what_sizes_it() {
    let n = ring_of("8", 65536);
    // Two partitions of two routers, each writer with a ring of 131072 buckets of
    // 131 words for each reader: 549 MB, more than the 16 lines (58.7 MB).
    let e = estimate(&n, 2, DOR);
    assert_eq!(e.largest(), (Part::Wakes, e.wakes));
    assert_eq!(e.wakes, 2 * 2 * 131_072 * 131 * 8);
    assert_eq!(
        Part::Lines.detail(&n, 2, DOR),
        "8 channels and 8 terminal links, latency up to 65536 cycles"
    );
    assert_eq!(
        Part::Wakes.detail(&n, 2, DOR),
        "2 x 2 partitions, 8 channels and 8 terminal links, latency up to 65536 cycles"
    );
    assert_eq!(
        Part::Pipelines.detail(&n, 1, DOR),
        "4 routers, switch_alloc_delay + crossbar_delay up to 2 cycles, credit_delay up to 1"
    );
    assert_eq!(
        Part::Fifos.detail(&n, 1, DOR),
        "4 routers x 3 ports x 2 VCs x 8 flits"
    );
    assert_eq!(
        Part::Fifos.detail(&ring("\"unbounded\""), 1, DOR),
        "4 routers x 3 ports x 2 VCs x unbounded (16 flits to start)"
    );
}

#[test]
fn the_limits_are_read_from_proc() {
    let meminfo = "MemTotal:       24684084 kB\nMemFree:        1000 kB\n";
    assert_eq!(mem_total(meminfo), Some(24_684_084 * 1024));
    assert_eq!(mem_total("MemFree: 1 kB\n"), None);
    let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                  Max address space         6144000000           unlimited            bytes     \n";
    assert_eq!(address_space(limits), Some(6_144_000_000));
    let unlimited = "Max address space         unlimited            unlimited            bytes\n";
    assert_eq!(address_space(unlimited), None);
    assert_eq!(bytes_text(&48_300_000_000), "48.3 GB");
    assert_eq!(bytes_text(&100_500_000), "100.5 MB");
}

/// Torus 32x32 (1024 routers and terminals, 5 ports, 4 VCs), routed by `routing`.
fn torus_32x32(routing: RoutingKind) -> Netlist {
    let mut n = flitsim_netlist::topology::torus(&[32, 32]);
    n.set("routing", kind_name(routing)).unwrap();
    n
}

/// The walk of `netlist`'s router 0 routing function over `threads` threads, as
/// `Simulation::new` sizes it.
fn walk_of(netlist: &Netlist, threads: usize) -> Walk {
    let routings = crate::network::RoutingFunctions::build(netlist).unwrap();
    Walk {
        dimension_order: routings.first().unwrap().is_dimension_order(),
        threads,
    }
}

/// The walk's memos are 16 bytes per router under a dimension-order function and per
/// (router, input port, input VC) under any other, one memo per worker; the workers
/// follow the threads asked, at most one per 256 terminals and at least one.
#[test]
fn the_walk_is_counted_per_worker_by_router_or_by_state() {
    let dor = torus_32x32(RoutingKind::Dor);
    let duato = torus_32x32(RoutingKind::Duato);
    assert!(walk_of(&dor, 1).dimension_order);
    assert!(!walk_of(&duato, 1).dimension_order);
    // 1024 terminals: at most 4 workers; 0 threads count as 1.
    for (threads, workers) in [(0, 1), (1, 1), (2, 2), (3, 3), (4, 4), (8, 4), (64, 4)] {
        let walk = |n: &Netlist| estimate(n, 1, walk_of(n, threads)).walk;
        assert_eq!(walk(&dor), workers * 1024 * 16, "{threads} threads");
        assert_eq!(
            walk(&duato),
            workers * 1024 * 5 * 4 * 16,
            "{threads} threads"
        );
    }
    // 16 terminals: one worker whatever the threads.
    let small = flitsim_netlist::topology::torus(&[4, 4]);
    let walk = |threads| estimate(&small, 1, walk_of(&small, threads)).walk;
    assert_eq!((walk(1), walk(2), walk(16)), (16 * 16, 16 * 16, 16 * 16));
    // The partitions do not change it (the walk splits over the threads asked).
    let duato_4 = walk_of(&duato, 4);
    assert_eq!(estimate(&duato, 2, duato_4).walk, 4 * 1024 * 5 * 4 * 16);
    assert_eq!(
        Part::ZeroLoadWalk.detail(&duato, 2, duato_4),
        "4 workers x 1024 routers x 5 ports x 4 VCs x 16 B"
    );
    assert_eq!(
        Part::ZeroLoadWalk.detail(&dor, 1, walk_of(&dor, 1)),
        "1 worker x 1024 routers x 16 B"
    );
    assert_eq!(
        Part::ZeroLoadWalk.help(&dor, walk_of(&dor, 2)),
        "run with fewer --threads"
    );
    assert_eq!(
        Part::ZeroLoadWalk.help(&duato, duato_4),
        "run with fewer --threads, or use dimension-order routing (--routing dor) or lower vcs (--set)"
    );
}

/// The memo by state takes the most VCs of any input port for every router and port:
/// one port of 255 VCs in torus 32x32 under Duato's routing makes the walk's memos,
/// 4 x 1024 x 5 x 255 x 16 B = 83.6 MB, the largest part, and a refusal names them.
#[test]
fn a_walk_larger_than_the_network_is_named_in_the_refusal() {
    let mut n = torus_32x32(RoutingKind::Duato);
    n.router_mut(flitsim_netlist::RouterId(7)).ports[1].vcs = 255;
    let walk = walk_of(&n, 8);
    let e = estimate(&n, 2, walk);
    assert_eq!(e.walk, 4 * 1024 * 5 * 255 * 16);
    assert_eq!(e.largest(), (Part::ZeroLoadWalk, e.walk));
    let limit = Some(MemoryLimit {
        bytes: 50_000_000,
        what: "of memory this machine has",
    });
    let err = check(&n, 2, walk, limit).unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "the network needs about {} for buffers, channels, router state and set-up \
             (zero-load latency walk 83.6 MB: 4 workers x 1024 routers x 5 ports x 255 \
             VCs x 16 B), more than the 50.0 MB of memory this machine has\n\
             help: run with fewer --threads, or use dimension-order routing \
             (--routing dor) or lower vcs (--set)",
            bytes_text(&e.total())
        )
    );
    // One thread: one worker, 20.9 MB.
    assert_eq!(estimate(&n, 2, walk_of(&n, 1)).walk, 1024 * 5 * 255 * 16);
}

/// The estimate's figure is what the walk allocates: per worker, the capacity of the
/// memo the walk builds, on netlists whose routers differ in ports (mesh, hypercube)
/// and VCs (the heterogeneous torus), under dimension-order and other functions.
#[test]
fn the_walk_estimate_is_what_the_walk_allocates() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../netlists");
    let load = |name: &str| flitsim_netlist::load(&dir.join(name)).unwrap();
    let mut hetero = load("hetero-torus-4x4.toml");
    hetero.router_mut(flitsim_netlist::RouterId(5)).ports[2].vcs = 9;
    let cases = [
        (load("torus-4x4.toml"), RoutingKind::Dor, 1),
        (load("torus-4x4.toml"), RoutingKind::Duato, 1),
        (hetero.clone(), RoutingKind::Dor, 1),
        (hetero, RoutingKind::Quaglia, 1),
        (load("mesh-8x8.toml"), RoutingKind::WestFirst, 1),
        (load("mesh-8x8.toml"), RoutingKind::Dor, 1),
        (load("hypercube-6.toml"), RoutingKind::Pcube, 1),
        (torus_32x32(RoutingKind::Dor), RoutingKind::Dor, 3),
        (torus_32x32(RoutingKind::Duato), RoutingKind::Duato, 4),
    ];
    for (mut n, kind, workers) in cases {
        n.set("routing", kind_name(kind)).unwrap();
        let f = flitsim_routing::build(kind, &n).unwrap();
        let walk = walk_of(&n, workers);
        assert_eq!(walk.dimension_order, f.is_dimension_order());
        let allocated = crate::setup::zero_load::worker_memo_bytes(&n, f.as_ref());
        assert_eq!(
            estimate(&n, 1, walk).walk,
            workers as u64 * allocated,
            "{kind:?} on {}",
            n.name
        );
    }
}

/// Prints the estimate of the netlists in `netlists/` (and torus 128x128), one
/// partition and one thread; for torus 64x64 and 128x128 also two threads and Duato's
/// routing (not dimension-order):
/// `cargo test -p flitsim-engine --release estimates_of -- --ignored --nocapture`.
#[test]
#[ignore = "prints numbers for docs/performance.md"]
fn estimates_of_the_netlists() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../netlists");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let print = |what: &str, n: &Netlist, threads: usize| {
        let e = estimate(n, threads, walk_of(n, threads));
        println!(
            "{what}, {threads} thread(s): {} {e:?}",
            bytes_text(&e.total())
        );
    };
    for p in paths {
        let n = flitsim_netlist::load(&p).unwrap();
        print(&p.display().to_string(), &n, 1);
        if p.ends_with("torus-64x64.toml") {
            let src = std::fs::read_to_string(&p)
                .unwrap()
                .replace("radix = [64, 64]", "radix = [128, 128]");
            let big = flitsim_netlist::parse_str(&src, &p).unwrap();
            for (what, mut n) in [("torus 64x64", n), ("torus 128x128", big)] {
                print(what, &n, 1);
                print(what, &n, 2);
                n.set("routing", "duato").unwrap();
                print(&format!("{what} duato"), &n, 1);
                print(&format!("{what} duato"), &n, 2);
            }
        }
    }
}

/// Table routing's distances (4 bytes per pair of routers) are a part of the estimate,
/// and [`check_routing`] refuses them before the routing functions are built.
#[test]
fn routing_tables_are_counted_and_checked_before_they_are_built() {
    let src = "name = \"t\"\n[topology]\nkind = \"torus\"\nradix = [32, 32]\n\
               [defaults]\nrouting = \"table\"\n";
    let table = flitsim_netlist::parse_str(src, std::path::Path::new("t.toml")).unwrap();
    let e = estimate(&table, 1, DOR);
    assert_eq!(e.routing, 1024 * 1024 * 4);
    let dor = ring("5");
    assert_eq!(estimate(&dor, 1, DOR).routing, 0);
    let limit = |bytes| {
        Some(MemoryLimit {
            bytes,
            what: "of memory this machine has",
        })
    };
    assert!(check_routing(&table, limit(e.routing + e.netlist)).is_ok());
    let err = check_routing(&table, limit(e.routing + e.netlist - 1))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("(routing tables 4.2 MB: table: 1024 routers x 1024 destinations)"),
        "{err}"
    );
    assert!(err.contains("help: use a generator's own routing"), "{err}");
}
