//! Candidate builders the coordinate routing functions share.

use crate::{Candidate, Geometry, RouteSet, VcRange};
use flitsim_netlist::{Dir, OutPort, RouterId, TerminalId, TERMINAL_PORT};

/// The candidate of every VC of output `port` at `here`.
pub(crate) fn whole_port(geo: &Geometry, here: RouterId, port: u8) -> Candidate {
    Candidate {
        port: OutPort(port),
        vcs: VcRange::new(0, geo.out_vcs(here, port)),
        hops: 0,
    }
}

/// The ejection candidate: port 0 with every VC of the router's terminal port.
pub(crate) fn eject(vcs: u8) -> Candidate {
    Candidate {
        port: OutPort(TERMINAL_PORT),
        vcs: VcRange::new(0, vcs),
        hops: 0,
    }
}

/// One-class dimension-order routing (mesh DOR, torus DOR without datelines, e-cube):
/// every VC of the [`Geometry::dor_port`] toward `dest` (lowest differing dimension,
/// minimal direction, ties `Plus`; hypercube: flip the lowest differing bit), or ejection
/// at the destination.
pub(crate) fn dor_route(geo: &Geometry, here: RouterId, dest: TerminalId, out: &mut RouteSet) {
    out.clear();
    out.push(match geo.dor_port(here, RouterId(dest.0)) {
        Some(port) => whole_port(geo, here, port),
        None => eject(geo.terminal_vcs(here)),
    });
}

/// A turn model on a 2-D mesh (dimension 0 = X, 1 = Y): eject at the destination; else
/// the one hop `forced(dx, dy)` names (dimension, direction), where the model's forbidden
/// turns leave no choice; else every minimal direction, X before Y, on every VC. `dx`, `dy`
/// are the minimal directions left in X and Y ([`Geometry::offset`]).
pub(crate) fn turn_model_route(
    geo: &Geometry,
    here: RouterId,
    dest: TerminalId,
    out: &mut RouteSet,
    forced: impl Fn(Option<Dir>, Option<Dir>) -> Option<(usize, Dir)>,
) {
    out.clear();
    let there = RouterId(dest.0);
    let (dx, dy) = (geo.offset(here, there, 0), geo.offset(here, there, 1));
    if dx.is_none() && dy.is_none() {
        out.push(eject(geo.terminal_vcs(here)));
    } else if let Some((d, dir)) = forced(dx, dy) {
        out.push(whole_port(geo, here, geo.port(here, d, dir)));
    } else {
        for (d, dir) in [(0, dx), (1, dy)] {
            if let Some(dir) = dir {
                out.push(whole_port(geo, here, geo.port(here, d, dir)));
            }
        }
    }
}
