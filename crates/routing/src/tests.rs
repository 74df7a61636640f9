//! The registry, the route walk and the dimension-order family, on this crate's test
//! netlists and on the netlist crate's generators.

mod test_netlists {
    use crate::testutil::*;
    use crate::*;
    use flitsim_netlist::{
        RouterId, RoutingKind, RoutingProblemKind, RoutingRequirements, TerminalId, Topology,
    };

    #[test]
    fn registry_reports_too_few_vcs_per_router() {
        let n = torus(&[3, 3], 1);
        let problems = RoutingRegistry.check(&n);
        assert_eq!(problems.len(), 9);
        for (i, p) in problems.iter().enumerate() {
            assert_eq!(p.router, RouterId(i as u32));
            assert_eq!(
                p.kind,
                RoutingProblemKind::TooFewVcs {
                    routing: "dor".into(),
                    needed: 2,
                    have: 1
                }
            );
            assert!(p.help.contains("vcs >= 2"));
        }
        assert!(RoutingRegistry.check(&torus(&[3, 3], 2)).is_empty());
        assert!(RoutingRegistry.check(&mesh(&[3, 3], 1)).is_empty());
        assert!(RoutingRegistry.check(&hypercube(3, 1)).is_empty());
    }

    #[test]
    fn registry_reports_misfits() {
        let mut n = mesh(&[2, 2], 2);
        for r in 0..4 {
            n.router_mut(RouterId(r)).config.routing = RoutingKind::DorNoDateline;
        }
        let problems = RoutingRegistry.check(&n);
        assert_eq!(problems.len(), 4);
        assert!(matches!(
            &problems[0].kind,
            RoutingProblemKind::DoesNotFit { routing, topology }
                if routing == "dor-nodateline" && topology == "mesh 2x2"
        ));
        let mut e = torus(&[3], 2);
        e.topology = Topology::Explicit;
        assert!(matches!(
            build(RoutingKind::Dor, &e),
            Err(RoutingMismatch::DoesNotFit { .. })
        ));
        assert_eq!(RoutingRegistry.check(&e).len(), 3);
    }

    #[test]
    fn hops_follow_the_topologies_distance_formulas() {
        // Torus: sum over dimensions of min(|d|, k - |d|); mesh: sum of |d|.
        let radix = [5u32, 4];
        let t = torus(&radix, 2);
        let m = mesh(&radix, 1);
        let coord = |i: u32| [i % 5, i / 5];
        for s in 0..20u32 {
            for d in 0..20u32 {
                let (a, b) = (coord(s), coord(d));
                let ring: u32 = (0..2)
                    .map(|k| {
                        let x = a[k].abs_diff(b[k]);
                        x.min(radix[k] - x)
                    })
                    .sum();
                let line: u32 = (0..2).map(|k| a[k].abs_diff(b[k])).sum();
                assert_eq!(
                    hops(RoutingKind::Dor, &t, TerminalId(s), TerminalId(d)),
                    Ok(ring)
                );
                assert_eq!(
                    hops(RoutingKind::Dor, &m, TerminalId(s), TerminalId(d)),
                    Ok(line)
                );
            }
        }
        // A routing that does not fit is an error, not a panic.
        assert!(matches!(
            hops(RoutingKind::Pcube, &t, TerminalId(0), TerminalId(1)),
            Err(RoutingMismatch::DoesNotFit { .. })
        ));
    }

    #[test]
    fn dateline_classes_switch_at_the_wrap_and_reset_between_dimensions() {
        // 4x4 torus, 4 VCs: class 0 = VCs 0..2, class 1 = VCs 2..4. From (3,0) to (1,1):
        // x goes Plus over the wrap 3 -> 0 (class 1), 0 -> 1 (stays class 1), then y
        // starts again in class 0.
        let mut n = torus(&[4, 4], 4);
        n.set("dateline", "wrap").unwrap();
        let f = build(RoutingKind::Dor, &n).unwrap();
        let (mut classes, mut last) = (Vec::new(), RouterId(3));
        walk(
            f.as_ref(),
            &n,
            TerminalId(3),
            TerminalId(1 + 4),
            None,
            |hop| {
                classes.push((hop.taken.vcs.lo, hop.taken.vcs.hi));
                last = hop.channel.to;
            },
        );
        assert_eq!(last, RouterId(5));
        assert_eq!(classes, vec![(2, 4), (2, 4), (0, 2)]);
    }
}

/// The same checks on the netlist crate's own generators (their port naming and
/// coordinates, not just this crate's test netlists).
mod generators {
    use crate::testutil::*;
    use crate::*;
    use flitsim_netlist::{
        topology, InPort, RouterId, RoutingKind, TerminalId, VcId, TERMINAL_PORT,
    };

    #[test]
    fn dor_is_minimal_and_acyclic_on_generated_netlists() {
        for n in [
            topology::torus(&[4, 4]),
            topology::torus(&[3, 5]),
            topology::ring(6),
            topology::mesh(&[4, 3]),
            topology::hypercube(4),
        ] {
            let f = build(RoutingKind::Dor, &n).unwrap_or_else(|e| panic!("{}: {e}", n.name));
            assert_minimal(f.as_ref(), &n);
            assert!(!dependency_graph_is_cyclic(f.as_ref(), &n), "{}", n.name);
        }
    }

    #[test]
    fn dor_nodateline_is_cyclic_on_generated_tori() {
        for n in [topology::torus(&[4, 4]), topology::ring(5)] {
            let f = build(RoutingKind::DorNoDateline, &n).unwrap();
            assert_minimal(f.as_ref(), &n);
            assert!(dependency_graph_is_cyclic(f.as_ref(), &n), "{}", n.name);
        }
    }

    /// `is_dimension_order` holds for the dimension-order family only, and there every
    /// network candidate, from every input port and VC of every router toward every
    /// destination, is the `dimension_order_port`.
    #[test]
    fn dimension_order_functions_route_on_the_dimension_order_port() {
        let kinds = [
            RoutingKind::Dor,
            RoutingKind::DorNoDateline,
            RoutingKind::Duato,
            RoutingKind::DuatoNbc,
            RoutingKind::Quaglia,
            RoutingKind::MinimalAdaptive,
            RoutingKind::Pcube,
            RoutingKind::WestFirst,
            RoutingKind::NorthLast,
            RoutingKind::NegativeFirst,
            RoutingKind::Source,
            RoutingKind::Table,
            RoutingKind::Minimal,
            RoutingKind::Valiant,
            RoutingKind::UgalL,
        ];
        let mut set = RouteSet::new();
        let mut checked = 0;
        for mut n in [
            topology::torus(&[4, 4]),
            topology::torus(&[3, 5]),
            topology::torus(&[2, 3, 4]),
            topology::ring(6),
            topology::mesh(&[4, 3]),
            topology::mesh(&[3, 2, 3]),
            topology::hypercube(4),
            topology::dragonfly(2, 2),
        ] {
            for r in 0..n.num_routers() {
                for p in &mut n.router_mut(RouterId(r as u32)).ports {
                    p.vcs = 4;
                }
            }
            for kind in kinds {
                let Ok(f) = build(kind, &n) else { continue };
                let family = matches!(kind, RoutingKind::Dor | RoutingKind::DorNoDateline);
                assert_eq!(f.is_dimension_order(), family, "{} on {}", f.name(), n.name);
                if !family {
                    continue;
                }
                for r in n.routers() {
                    for (p, port) in r.ports.iter().enumerate() {
                        for vc in 0..port.vcs {
                            let ctx = RouteCtx {
                                router: r.id,
                                in_port: InPort(p as u8),
                                in_vc: VcId(vc),
                            };
                            for t in 0..n.num_routers() as u32 {
                                let dest = TerminalId(t);
                                f.route(&ctx, dest, &mut set);
                                // At a balanced tie the union holds the `Minus` port too,
                                // after the dimension-order (`Plus`) one.
                                let first = set.iter().find(|c| c.port.0 != TERMINAL_PORT);
                                if let Some(c) = first {
                                    assert_eq!(
                                        f.dimension_order_port(r.id, dest),
                                        Some(c.port),
                                        "{} on {} at {} toward {t}",
                                        f.name(),
                                        n.name,
                                        r.id
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked} candidates checked");
    }
}
