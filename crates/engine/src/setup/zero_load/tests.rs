//! The uniform walk against the pairs summed one by one, on every routing function.
use super::scratch::Scratch;
use super::walker::Walker;
use super::*;
use flitsim_netlist::topology::{hypercube, mesh, ring, torus};
use flitsim_netlist::{Dir, RoutingKind, Topology};
use flitsim_netlist::{Netlist, OutPort, RouterId, Switching, TerminalId, TERMINAL_PORT};
use flitsim_routing::{Candidate, VcRange};
use flitsim_routing::{RouteCtx, RouteSet, RoutingFunction};

/// A ring routing whose port depends on the input VC: the first hop goes Plus on VC
/// 1 from even routers and on VC 2 from odd ones; a head on VC 1 keeps going Plus, on
/// VC 2 it turns Minus. Heads toward one destination thus meet the same input port
/// on both VCs and leave it on different ports (the memo must tell states by VC).
struct ByVc {
    /// `ports[r]`: the (Plus, Minus) output ports of router r.
    ports: Vec<(u8, u8)>,
}

impl RoutingFunction for ByVc {
    fn name(&self) -> &'static str {
        "by-vc"
    }

    fn vc_classes(&self) -> u8 {
        3
    }

    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        out.clear();
        let r = ctx.router;
        if r.0 == dest.0 {
            out.push(Candidate {
                port: OutPort(TERMINAL_PORT),
                vcs: VcRange::new(0, 1),
                hops: 0,
            });
            return;
        }
        let (plus, minus) = self.ports[r.index()];
        let (port, vc) = if ctx.in_port.0 == TERMINAL_PORT {
            (plus, 1 + (r.0 % 2) as u8)
        } else if ctx.in_vc.0 == 1 {
            (plus, 1)
        } else {
            (minus, 2)
        };
        out.push(Candidate {
            port: OutPort(port),
            vcs: VcRange::new(vc, vc + 1),
            hops: 0,
        });
    }
}

/// The sums of `zero_load_latency_pair` over every ordered pair of distinct
/// terminals, for packets of `length` flits: the straightforward per-pair walk.
fn pair_by_pair(n: &Netlist, f: &dyn RoutingFunction, length: u32) -> u64 {
    let t = n.num_terminals() as u32;
    let mut sum = 0;
    for s in 0..t {
        for d in (0..t).filter(|&d| d != s) {
            sum += zero_load_latency_pair(n, f, TerminalId(s), TerminalId(d), length);
        }
    }
    sum
}

/// Delays and latencies that differ from router to router and from channel to
/// channel, and a store-and-forward router every fifth.
fn varied(mut n: Netlist) -> Netlist {
    n.name = format!("varied {}", n.name);
    for r in 0..n.num_routers() as u32 {
        let spec = n.router_mut(RouterId(r));
        spec.terminal_latency = 1 + (r * 7) % 3;
        spec.config.routing_delay = r % 2;
        spec.config.crossbar_delay = 1 + (r * 5) % 4;
        if r % 5 == 2 {
            spec.config.switching = Switching::Saf;
        }
    }
    for (i, c) in n.graph.edge_weights_mut().enumerate() {
        c.latency = 1 + (i as u32 * 13) % 5;
    }
    n
}

/// `n` with its generator geometry dropped (routed by tables only).
fn explicit(mut n: Netlist) -> Netlist {
    n.name = format!("explicit {}", n.name);
    n.topology = Topology::Explicit;
    for r in 0..n.num_routers() as u32 {
        n.router_mut(RouterId(r)).coord = None;
    }
    n
}

/// Every way of computing the sums (by router for the dimension-order family, by
/// state for any function, with 1 to 4 workers) gives the integers of routing every
/// pair from scratch, on uniform and varied delays, every switching mode and the
/// routing functions of every family (dimension order, adaptive with escape VCs,
/// turn models, tables and source routes on a netlist without geometry).
#[test]
fn uniform_sums_equal_the_pairs_summed_one_by_one() {
    let mut saf = torus(&[3, 3]);
    saf.set("switching", "saf").unwrap();
    saf.set("channel_latency", "2").unwrap();
    let mut nbc = varied(torus(&[5, 3]));
    nbc.set("vcs", "6").unwrap();
    let mut vct = mesh(&[3, 3]);
    vct.set("switching", "vct").unwrap();
    vct.set("terminal_latency", "3").unwrap();
    let cases = [
        (torus(&[4, 4]), RoutingKind::Dor),
        (torus(&[5, 3]), RoutingKind::Dor),
        (torus(&[2, 3, 4]), RoutingKind::Dor),
        (ring(7), RoutingKind::Dor),
        (mesh(&[4, 3]), RoutingKind::Dor),
        (hypercube(4), RoutingKind::Dor),
        (torus(&[4, 5]), RoutingKind::DorNoDateline),
        (saf, RoutingKind::Dor),
        (vct, RoutingKind::Dor),
        (varied(torus(&[5, 4])), RoutingKind::Dor),
        (varied(mesh(&[4, 4])), RoutingKind::Dor),
        (varied(hypercube(4)), RoutingKind::Dor),
        (hypercube(4), RoutingKind::Pcube),
        (varied(hypercube(3)), RoutingKind::Pcube),
        (torus(&[4, 4]), RoutingKind::Duato),
        (nbc, RoutingKind::DuatoNbc),
        (torus(&[4, 4]), RoutingKind::Quaglia),
        (mesh(&[4, 3]), RoutingKind::WestFirst),
        (varied(mesh(&[4, 3])), RoutingKind::NorthLast),
        (mesh(&[3, 2, 3]), RoutingKind::NegativeFirst),
        (explicit(torus(&[3, 4])), RoutingKind::Table),
        (explicit(varied(mesh(&[4, 3]))), RoutingKind::Source),
    ];
    for (n, kind) in cases {
        let f = flitsim_routing::build(kind, &n)
            .unwrap_or_else(|e| panic!("{kind:?} on {}: {e}", n.name));
        let what = format!("{} on {}", f.name(), n.name);
        let sums = UniformSums::of(&n, f.as_ref());
        let any_saf = n.routers().any(|r| r.config.switching == Switching::Saf);
        assert_eq!(sums.saf > 0, any_saf, "{what}");
        let t = n.num_terminals() as u64;
        assert_eq!(sums.pairs, t * (t - 1), "{what}");
        for len in [1, 2, 7] {
            assert_eq!(
                sums.total(len),
                pair_by_pair(&n, f.as_ref(), len),
                "{what}, {len}"
            );
        }
        let walker = Walker::new(&n, f.as_ref());
        let all = 0..n.num_terminals();
        let mut by_state = Scratch::new(walker.shape.by_state());
        let by_state = walker.sums_by_state(all.clone(), &mut by_state);
        assert_eq!(by_state, sums, "{what}: by state");
        if f.is_dimension_order() {
            let mut by_router = Scratch::new(walker.shape.by_router());
            let by_router = walker.sums_by_router(all, &mut by_router);
            assert_eq!(by_router, sums, "{what}: by router");
        }
        for workers in 2..=4 {
            let split = UniformSums::of_workers(&n, f.as_ref(), workers);
            assert_eq!(split, sums, "{what}: {workers} workers");
        }
    }
}

/// The memo tells states apart by input VC: a routing function that leaves one
/// input port on different ports depending on the VC still gives the per-pair sums.
#[test]
fn uniform_sums_follow_a_route_that_depends_on_the_vc() {
    for n in [ring(6), varied(ring(7))] {
        let ports = n
            .routers()
            .map(|r| {
                let p = |dir| r.port_toward(0, dir).expect("a ring port");
                (p(Dir::Plus), p(Dir::Minus))
            })
            .collect();
        let f = ByVc { ports };
        let sums = UniformSums::of(&n, &f);
        for len in [1, 4] {
            assert_eq!(sums.total(len), pair_by_pair(&n, &f, len), "{}", n.name);
        }
        // from router 3 the head goes Plus on VC 2 and turns back at router 4
        let route = zero_load_route(&n, &f, TerminalId(3), TerminalId(1));
        let visited: Vec<u32> = route.routers.iter().map(|r| r.0).collect();
        assert_eq!(visited, [3, 4, 3, 2, 1], "{}", n.name);
    }
}

/// A sample of pairs covers the exact uniform mean with its 95% interval, on networks
/// small enough to walk: adaptive, turn-model, table and source routing, and varied
/// timing (no closed form), at 1 and 12 flits and with store-and-forward routers. The
/// interval is narrow (under 1.5% of the mean), so covering is not trivial.
#[test]
fn a_sampled_mean_covers_the_exact_one() {
    let cases = [
        (torus(&[16, 16]), RoutingKind::Duato),
        (mesh(&[16, 12]), RoutingKind::WestFirst),
        (varied(torus(&[12, 12])), RoutingKind::Dor),
        (hypercube(8), RoutingKind::Pcube),
        (explicit(varied(mesh(&[8, 8]))), RoutingKind::Source),
    ];
    for (n, kind) in cases {
        let f = flitsim_routing::build(kind, &n).unwrap();
        let what = format!("{} on {}", f.name(), n.name);
        let exact = UniformSums::of(&n, f.as_ref());
        let sample = SampledSums::draw(
            &n,
            f.as_ref(),
            sample::SAMPLE_PAIRS,
            sample::SAMPLE_SEED,
            &(),
        );
        assert_eq!(sample.pairs, sample::SAMPLE_PAIRS, "{what}");
        for len in [1, 12] {
            let (mean, half) = (sample.mean(f64::from(len)), sample.ci95(f64::from(len)));
            let truth = exact.mean(len);
            assert!(
                half > 0.0 && half < 0.015 * truth,
                "{what}, {len}: +-{half}"
            );
            assert!(
                (mean - truth).abs() <= half,
                "{what}, {len}: {mean} +- {half} misses {truth}"
            );
        }
    }
}

/// The uniform mean is exact with a closed form or up to the threshold of terminals and
/// sampled above it; the sample is the same for any thread count.
#[test]
fn the_uniform_mean_is_sampled_only_above_the_threshold() {
    let dor = torus(&[8, 8]);
    let f = flitsim_routing::build(RoutingKind::Dor, &dor).unwrap();
    let closed = UniformMean::below(&dor, f.as_ref(), 1, 4, &());
    assert_eq!(
        closed,
        UniformMean::Exact(UniformSums::of(&dor, f.as_ref()))
    );
    assert_eq!(closed.ci95(12.0), None);
    let duato = torus(&[8, 8]);
    let g = flitsim_routing::build(RoutingKind::Duato, &duato).unwrap();
    let walked = UniformMean::below(&duato, g.as_ref(), 1, 64, &());
    assert_eq!(
        walked,
        UniformMean::Exact(UniformSums::of(&duato, g.as_ref()))
    );
    let sampled = UniformMean::below(&duato, g.as_ref(), 1, 63, &());
    let expected = SampledSums::draw(
        &duato,
        g.as_ref(),
        sample::SAMPLE_PAIRS,
        sample::SAMPLE_SEED,
        &(),
    );
    assert_eq!(sampled, UniformMean::Sampled(expected));
    assert_eq!(UniformMean::below(&duato, g.as_ref(), 4, 63, &()), sampled);
    assert!(sampled.ci95(12.0).is_some_and(|h| h > 0.0));
}
