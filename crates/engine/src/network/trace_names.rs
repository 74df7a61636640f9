//! The trace's names of an assembled network.

use super::Network;
use crate::trace::{Peer, TraceNames};
use flitsim_netlist::TerminalId;

impl TraceNames {
    /// From an assembled network (same result as [`TraceNames::new`] on its netlist).
    pub(crate) fn of_network(net: &Network) -> TraceNames {
        let ports: Vec<Vec<String>> = (0..net.len())
            .map(|r| net.names.ports(r).to_vec())
            .collect();
        let mut down: Vec<Vec<Peer>> = ports.iter().map(|p| vec![Peer::None; p.len()]).collect();
        let mut up = down.clone();
        for e in &net.ends {
            if let (Some((r, o)), Some((d, i))) = (e.from(), e.to()) {
                down[r.index()][o.index()] = Peer::Router(d, i.0);
                up[d.index()][i.index()] = Peer::Router(r, o.0);
            }
        }
        let map = &net.terminals;
        let mut n = TraceNames {
            routers: net.names.routers().map(str::to_string).collect(),
            ports,
            terminals: Some(map.clone()),
            ..TraceNames::default()
        };
        for (i, (mut down, mut up)) in down.into_iter().zip(up).enumerate() {
            for local in 0..map.count(i) {
                let t = Peer::Terminal(TerminalId(map.first(i) + local));
                down[local as usize] = t;
                up[local as usize] = t;
            }
            n.downstream.push(down);
            n.upstream.push(up);
            n.in_vcs.push(net.in_ports.of(i).vcs.to_vec());
        }
        n
    }
}
