//! Where each port's VCs sit in a router's flat per-VC vectors ([`Layout`]), and one
//! copy of each distinct layout for the routers that share it ([`Layouts`]).

use std::collections::HashMap;
use std::sync::Arc;

/// Where each port's VCs sit in the flat per-VC vectors. The fixed array of the first
/// ports' bases comes first (`repr(C)`), input and output base of each port side by side:
/// those of a router's first eight ports fit in 64 bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Layout {
    /// `[in_base, out_base]` of ports `0..NARROW_PORTS` (zero past the last port) in a
    /// fixed array: [`Layout::ivc`] and [`Layout::ovc`] of a port a step's arrival mask
    /// names (below 32) read them without a bounds check.
    base_narrow: [[u32; 2]; NARROW_PORTS],
    /// Input port of each flat input VC.
    pub in_port_of: Vec<u8>,
    /// Output port of each flat output VC.
    pub out_port_of: Vec<u8>,
    /// Flat index of VC 0 of each input port (one extra entry: the total).
    pub in_base: Vec<u32>,
    /// Flat index of VC 0 of each output port (one extra entry: the total).
    pub out_base: Vec<u32>,
}

/// Ports whose VC bases [`Layout`] also keeps in fixed arrays: every port an arrival mask
/// names (bits `0..32`), and one more.
const NARROW_PORTS: usize = 33;

impl Layout {
    /// Bytes of one shared layout for input ports with `in_vcs` VCs each and output ports
    /// whose downstream sides have `out_vcs` VCs each, computed without allocating: the
    /// struct behind its [`Arc`], a port per flat VC and a base per port plus one.
    pub fn bytes(in_vcs: &[u8], out_vcs: &[u8]) -> u64 {
        use std::mem::size_of;
        let total = |vcs: &[u8]| vcs.iter().map(|&v| usize::from(v)).sum::<usize>();
        let bases = (in_vcs.len() + out_vcs.len() + 2) * size_of::<u32>();
        (size_of::<Layout>() + 2 * size_of::<usize>() + total(in_vcs) + total(out_vcs) + bases)
            as u64
    }

    /// From the VC counts of the input ports and of the output ports' downstream sides.
    pub fn new(in_vcs: &[u8], out_vcs: &[u8]) -> Layout {
        let bases = |vcs: &[u8]| {
            let mut b = Vec::with_capacity(vcs.len() + 1);
            let mut acc = 0u32;
            b.push(0);
            for &v in vcs {
                acc += u32::from(v);
                b.push(acc);
            }
            b
        };
        let owners = |vcs: &[u8]| {
            vcs.iter()
                .enumerate()
                .flat_map(|(p, &v)| std::iter::repeat_n(p as u8, usize::from(v)))
                .collect()
        };
        let (in_base, out_base) = (bases(in_vcs), bases(out_vcs));
        let mut base_narrow = [[0; 2]; NARROW_PORTS];
        for (side, base) in [&in_base, &out_base].into_iter().enumerate() {
            for (n, &b) in base_narrow.iter_mut().zip(base) {
                n[side] = b;
            }
        }
        Layout {
            base_narrow,
            in_base,
            in_port_of: owners(in_vcs),
            out_base,
            out_port_of: owners(out_vcs),
        }
    }

    /// Number of input ports.
    #[inline]
    pub fn in_ports(&self) -> usize {
        self.in_base.len() - 1
    }
    /// Number of output ports.
    #[inline]
    pub fn out_ports(&self) -> usize {
        self.out_base.len() - 1
    }
    /// Number of input VCs over all ports.
    #[inline]
    pub fn total_in_vcs(&self) -> usize {
        self.in_port_of.len()
    }
    /// Number of output VCs over all ports.
    #[inline]
    pub fn total_out_vcs(&self) -> usize {
        self.out_port_of.len()
    }
    /// Flat index of input VC `vc` of port `p`.
    #[inline]
    pub fn ivc(&self, p: usize, vc: u8) -> usize {
        debug_assert!(p < self.in_ports());
        self.in_base_of(p) as usize + usize::from(vc)
    }
    /// Flat index of output VC `vc` of port `o`.
    #[inline]
    pub fn ovc(&self, o: usize, vc: u8) -> usize {
        debug_assert!(o < self.out_ports());
        self.out_base_of(o) as usize + usize::from(vc)
    }
    /// `in_base[p]`, from the fixed array for the first ports.
    #[inline(always)]
    pub fn in_base_of(&self, p: usize) -> u32 {
        match self.base_narrow.get(p) {
            Some(&[b, _]) => b,
            None => self.in_base[p],
        }
    }
    /// `out_base[o]`, from the fixed array for the first ports.
    #[inline(always)]
    pub fn out_base_of(&self, o: usize) -> u32 {
        match self.base_narrow.get(o) {
            Some(&[_, b]) => b,
            None => self.out_base[o],
        }
    }
    /// VCs of input port `p`.
    #[inline]
    pub fn in_vcs(&self, p: usize) -> u8 {
        debug_assert!(p < self.in_ports());
        (self.in_base_of(p + 1) - self.in_base_of(p)) as u8
    }
    /// VCs of output port `o`.
    #[inline]
    pub fn out_vcs(&self, o: usize) -> u8 {
        debug_assert!(o < self.out_ports());
        (self.out_base_of(o + 1) - self.out_base_of(o)) as u8
    }
    /// (port, VC) of flat input VC `i`.
    #[inline]
    pub fn in_split(&self, i: usize) -> (usize, u8) {
        let p = usize::from(self.in_port_of[i]);
        (p, (i - self.in_base_of(p) as usize) as u8)
    }
}

/// One [`Layout`] per distinct list of port VC counts, shared by every router that has
/// it: a network's routers have a handful of layouts (all the routers of a torus one),
/// so a router holds a pointer instead of its own copy.
#[derive(Debug, Default)]
pub struct Layouts {
    /// Layouts by their key: the input ports' VC counts, then the output ports'.
    shared: HashMap<Box<[u8]>, Arc<Layout>>,
    /// The key being looked up (reused: a layout seen before costs no allocation).
    key: Vec<u8>,
}

impl Layouts {
    /// The layout of input ports with `in_vcs` VCs and output ports whose downstream
    /// sides have `out_vcs` VCs: the one built before for the same counts, if any.
    pub fn share(&mut self, in_vcs: &[u8], out_vcs: &[u8]) -> Arc<Layout> {
        // Input and output ports are as many: the key splits at its middle.
        debug_assert_eq!(in_vcs.len(), out_vcs.len());
        self.key.clear();
        self.key.extend_from_slice(in_vcs);
        self.key.extend_from_slice(out_vcs);
        if let Some(l) = self.shared.get(self.key.as_slice()) {
            return Arc::clone(l);
        }
        let l = Arc::new(Layout::new(in_vcs, out_vcs));
        self.shared
            .insert(self.key.as_slice().into(), Arc::clone(&l));
        l
    }

    /// Distinct layouts built so far.
    pub fn len(&self) -> usize {
        self.shared.len()
    }

    /// True before the first layout.
    pub fn is_empty(&self) -> bool {
        self.shared.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_vc_indices_count_the_vcs_of_the_ports_before() {
        // Narrow (at most 33 ports) and wide layouts, uneven VC counts.
        for ports in [1, 5, 32, 33, 34, 70] {
            let in_vcs: Vec<u8> = (0..ports).map(|p| 1 + (p * 7 % 5) as u8).collect();
            let out_vcs: Vec<u8> = (0..ports).map(|p| 2 + (p * 3 % 4) as u8).collect();
            let l = Layout::new(&in_vcs, &out_vcs);
            let (mut i, mut o) = (0, 0);
            for p in 0..ports {
                for v in 0..in_vcs[p] {
                    assert_eq!(l.ivc(p, v), i);
                    assert_eq!(l.in_split(i), (p, v));
                    i += 1;
                }
                for v in 0..out_vcs[p] {
                    assert_eq!(l.ovc(p, v), o);
                    assert_eq!(usize::from(l.out_port_of[o]), p);
                    o += 1;
                }
                assert_eq!(l.in_vcs(p), in_vcs[p]);
                assert_eq!(l.out_vcs(p), out_vcs[p]);
            }
            assert_eq!((l.total_in_vcs(), l.total_out_vcs()), (i, o));
        }
    }

    #[test]
    fn routers_of_equal_vc_counts_share_one_layout() {
        let mut layouts = Layouts::default();
        let a = layouts.share(&[4, 4, 4], &[4, 2, 2]);
        let b = layouts.share(&[4, 4, 4], &[4, 2, 2]);
        assert!(Arc::ptr_eq(&a, &b));
        // The same counts split differently between inputs and outputs, or one port
        // more, are other layouts.
        let c = layouts.share(&[4, 4, 2], &[4, 4, 2]);
        let d = layouts.share(&[4, 4, 4, 4], &[4, 2, 2, 2]);
        assert!(!Arc::ptr_eq(&a, &c) && !Arc::ptr_eq(&a, &d));
        assert_eq!(layouts.len(), 3);
        assert_eq!(*a, Layout::new(&[4, 4, 4], &[4, 2, 2]));
        assert_eq!(*d, Layout::new(&[4, 4, 4, 4], &[4, 2, 2, 2]));
    }
}
