//! Separable output-first allocator: each column's arbiter picks one of the rows
//! requesting it; then each row's arbiter accepts one of the columns that picked it.
//! Priorities move only for accepted grants (in `update`).

use super::{Allocator, GrantMatrix, RequestMatrix, Separable};
use flitsim_netlist::ArbiterKind;

/// Separable output-first allocator (see the module docs).
#[derive(Debug)]
pub struct SeparableOutputFirst {
    s: Separable,
}

impl SeparableOutputFirst {
    /// Over `rows x cols` with arbiters of `arbiter`.
    pub fn new(arbiter: ArbiterKind, rows: usize, cols: usize) -> SeparableOutputFirst {
        SeparableOutputFirst {
            s: Separable::new(arbiter, rows, cols),
        }
    }
}

impl Allocator for SeparableOutputFirst {
    fn allocate(&mut self, req: &RequestMatrix, grant: &mut GrantMatrix) {
        let s = &mut self.s;
        debug_assert_eq!((req.rows(), req.cols()), (s.rows, s.cols));
        grant.clear();
        s.mid.clear();
        if req.is_empty() {
            return;
        }
        for c in 0..s.cols {
            let mut n = 0;
            for r in 0..s.rows {
                let b = req.get(r, c);
                s.scratch_rows.set(r, b);
                n += usize::from(b);
            }
            if n == 0 {
                continue;
            }
            if let Some(r) = s.col_arb[c].arbitrate(&s.scratch_rows) {
                s.mid.set(r, c);
            }
        }
        for r in 0..s.rows {
            if let Some(c) = s.row_arb[r].arbitrate(s.mid.row(r)) {
                grant.set(r, c);
            }
        }
    }

    fn update(&mut self, used: &GrantMatrix) {
        self.s.update(used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::BitMatrix;

    #[test]
    fn one_row_offered_two_columns_accepts_one() {
        let mut a = SeparableOutputFirst::new(ArbiterKind::RoundRobin, 2, 2);
        let mut req = BitMatrix::new(2, 2);
        req.set(0, 0);
        req.set(0, 1);
        let mut g = BitMatrix::new(2, 2);
        a.allocate(&req, &mut g);
        assert_eq!(g.row(0).count_ones(), 1);
        assert!(g.row(1).not_any());
    }
}
