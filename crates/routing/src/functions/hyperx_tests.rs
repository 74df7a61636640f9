use super::*;
use crate::testutil::{packet, path};
use crate::{build, cdg, RoutingRegistry};
use flitsim_netlist::topology::generate;
use flitsim_netlist::{
    InPort, RouterConfig, RoutingKind, RoutingRequirements, Topology, VcId, TERMINAL_PORT,
};
use std::sync::Arc;

const KINDS: [RoutingKind; 3] = [
    RoutingKind::Minimal,
    RoutingKind::Valiant,
    RoutingKind::UgalL,
];

fn net(radix: &[u32], kind: RoutingKind) -> Netlist {
    let config = RouterConfig {
        vcs: 4,
        routing: kind,
        ..RouterConfig::default()
    };
    let t = Topology::HyperX {
        radix: radix.to_vec(),
    };
    generate(&t, &config, 1, 1).unwrap()
}

/// The dimensions of the hops of `path` on `n`.
fn dims(n: &Netlist, path: &[u32]) -> Vec<usize> {
    let c = |r: u32| n.router(RouterId(r)).coord.clone().unwrap();
    path.windows(2)
        .map(|w| {
            let (a, b) = (c(w[0]), c(w[1]));
            let differ: Vec<usize> = (0..a.len()).filter(|&d| a[d] != b[d]).collect();
            assert_eq!(differ.len(), 1, "{path:?}");
            differ[0]
        })
        .collect()
}

#[test]
fn the_static_check_accepts_each_routing() {
    for radix in [&[4, 4][..], &[3, 2, 2], &[2, 2, 2, 2], &[5]] {
        for kind in KINDS {
            let n = net(radix, kind);
            let f = build(kind, &n).unwrap();
            assert_eq!(f.vc_classes(), 1 + u8::from(kind != RoutingKind::Minimal));
            assert_eq!(
                cdg::dependency_cycle(f.as_ref(), &n).unwrap(),
                None,
                "{kind:?} {radix:?}"
            );
            assert!(RoutingRegistry.check(&n).is_empty(), "{kind:?} {radix:?}");
        }
    }
}

/// A routing that puts every candidate on class 0 of 2 (VCs 0 and 1 of 4): both Valiant
/// legs share one class.
struct SharedClass(Arc<dyn RoutingFunction>);

impl RoutingFunction for SharedClass {
    fn name(&self) -> &'static str {
        "shared-class"
    }
    fn vc_classes(&self) -> u8 {
        2
    }
    fn route(&self, ctx: &RouteCtx, dest: TerminalId, out: &mut RouteSet) {
        self.0.route(ctx, dest, out);
        for c in out.iter_mut().filter(|c| c.port.0 != TERMINAL_PORT) {
            c.vcs = VcRange::new(0, 2);
        }
    }
}

#[test]
fn the_static_check_rejects_ugal_with_one_shared_class() {
    for kind in [RoutingKind::UgalL, RoutingKind::Valiant] {
        let n = net(&[4, 4], kind);
        let f = SharedClass(build(kind, &n).unwrap());
        assert!(cdg::dependency_cycle(&f, &n).unwrap().is_some(), "{kind:?}");
    }
}

#[test]
fn minimal_paths_correct_each_differing_dimension_in_order() {
    let radix = [4, 3, 2];
    let n = net(&radix, RoutingKind::Minimal);
    let f = build(RoutingKind::Minimal, &n).unwrap();
    let x = HyperX::new(&n, &radix, Variant::Minimal);
    for s in 0..24u32 {
        for t in (0..24u32).filter(|&t| t != s) {
            let path = path(f.as_ref(), &n, t, packet(s, 0), 0);
            assert_eq!(path.last(), Some(&t));
            assert_eq!(path.len() as u32 - 1, x.distance(s, t), "{path:?}");
            let d = dims(&n, &path);
            assert!(d.windows(2).all(|w| w[0] < w[1]), "{path:?}");
        }
    }
}

#[test]
fn valiant_passes_through_its_intermediate_router() {
    let radix = [4, 4];
    let n = net(&radix, RoutingKind::Valiant);
    let f = build(RoutingKind::Valiant, &n).unwrap();
    let x = HyperX::new(&n, &radix, Variant::Valiant);
    let (s, t) = (1, 14);
    let mut vias = std::collections::BTreeSet::new();
    for seq in 0..256 {
        let via = x.intermediate(s, seq, s, t).unwrap();
        assert!(via != s && via != t);
        vias.insert(via);
        let path = path(f.as_ref(), &n, t, packet(s, seq), 0);
        assert_eq!(path.last(), Some(&t));
        assert_eq!(path.len() as u32 - 1, x.valiant_hops(s, via, t), "{path:?}");
        if !x.passes(s, via, t) {
            assert!(path.contains(&via), "{path:?} misses {via}");
        }
        // Each leg is in dimension order.
        let d = dims(&n, &path);
        assert!(
            d.windows(2).filter(|w| w[0] >= w[1]).count() <= 1,
            "{path:?}"
        );
    }
    // 256 packets spread over the 14 other routers.
    assert_eq!(vias.len(), 14);
}

#[test]
fn ugal_offers_the_minimal_path_first_and_each_candidate_its_length() {
    let radix = [3, 3, 2];
    let n = net(&radix, RoutingKind::UgalL);
    let f = build(RoutingKind::UgalL, &n).unwrap();
    let x = HyperX::new(&n, &radix, Variant::UgalL);
    let mut set = RouteSet::new();
    for s in 0..18u32 {
        for t in (0..18u32).filter(|&t| t != s) {
            let h = packet(s, t);
            let ctx = RouteCtx {
                router: RouterId(s),
                in_port: InPort(TERMINAL_PORT),
                in_vc: VcId(0),
            };
            f.route_packet(&ctx, TerminalId(t), h, &mut set);
            assert_eq!(set.len(), 2, "{s} -> {t}");
            assert_eq!(u32::from(set[0].hops), x.distance(s, t));
            // The minimal path runs on class 1, the first Valiant leg on class 0.
            assert_eq!((set[0].vcs.lo, set[1].vcs.lo), (2, 0));
            for (k, c) in set.clone().iter().enumerate() {
                let path = path(f.as_ref(), &n, t, h, k);
                assert_eq!(path.last(), Some(&t));
                assert_eq!(path.len() - 1, usize::from(c.hops), "{s} -> {t}: {path:?}");
            }
        }
    }
}

#[test]
fn the_direct_forms_match_the_enumerations_over_every_router() {
    for radix in [&[3, 2, 2][..], &[4, 4], &[5]] {
        let n = net(radix, RoutingKind::UgalL);
        let x = HyperX::new(&n, radix, Variant::UgalL);
        let count = n.num_routers() as u32;
        for here in 0..count {
            for dest in (0..count).filter(|&d| d != here) {
                let mut direct = RouteSet::new();
                x.every_first_hop(here, dest, 0, &mut direct);
                let mut listed = RouteSet::new();
                for via in (0..count).filter(|&v| v != here && v != dest) {
                    push_new(&mut listed, x.dor(here, via, 0).unwrap());
                }
                direct.sort_by_key(|c| c.port.0);
                listed.sort_by_key(|c| c.port.0);
                assert_eq!(direct, listed, "{radix:?} {here} -> {dest}");
                for seq in 0..8 {
                    let k = path_hash(here, seq, RouterId(0)) % u64::from(count - 2);
                    let nth = (0..count)
                        .filter(|&v| v != here && v != dest)
                        .nth(k as usize);
                    assert_eq!(x.intermediate(here, seq, here, dest), nth);
                }
            }
        }
    }
}
